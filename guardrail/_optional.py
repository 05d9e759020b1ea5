"""The one lazy-import helper: heavy or optional dependencies, with an ImportError naming the pip command.

Every optional dependency of the core and the adapters is imported through :func:`require`,
so a missing extra always says how to install it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["require"]

_PIP = {
    "core": "pip install kg-guardrail",
    "langchain": "pip install 'kg-guardrail[langchain]'",
    "llama_index": "pip install 'kg-guardrail[llama-index]'",
}


def require(module: str, *, extra: str = "core") -> ModuleType:
    """Import ``module`` or raise ImportError that says which pip command installs it.

    Parameters
    ----------
    module : str
        Dotted module name, e.g. ``"sentence_transformers"``.
    extra : str
        The kg-guardrail extra that provides it (``"report"``, ``"ray"``, ``"kg-guard"``, ...;
        ``"core"`` for a core dependency; the ``langchain`` and ``llama-index`` extras install
        the adapter distributions ``kg-guardrail-langchain`` / ``kg-guardrail-llama-index``).

    Raises
    ------
    ImportError
        With the pip command in the message.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        cmd = _PIP.get(extra, f"pip install 'kg-guardrail[{extra}]'")
        raise ImportError(
            f"kg-guardrail needs the optional dependency {module!r}; install it with: {cmd}"
        ) from exc
