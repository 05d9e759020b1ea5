"""The one lazy-import helper: heavy or optional dependencies, with an error naming the pip command.

Every optional dependency of the core and the adapters is imported through :func:`require`,
and every install hint is written by :func:`pip_hint`, so a missing extra always says how
to install it, in the same words.
"""

from __future__ import annotations

import builtins
from types import ModuleType

from guardrail.errors import MissingDependencyError

__all__ = ["require", "pip_hint"]

_PIP = {
    "core": "pip install kg-guardrail",
    "langchain": "pip install 'kg-guardrail[langchain]'",
    "llama_index": "pip install 'kg-guardrail[llama-index]'",
}


def pip_hint(extra: str = "core") -> str:
    """The pip command that installs the kg-guardrail extra ``extra``.

    Parameters
    ----------
    extra : str
        The extra (``"gga"``, ``"local-llm"``, ``"kg-guard"``, ...); ``"core"`` for a core
        dependency; ``"langchain"`` and ``"llama_index"`` for the adapter distributions.

    Returns
    -------
    str
        E.g. ``"pip install 'kg-guardrail[gga]'"``.
    """
    return _PIP.get(extra, f"pip install 'kg-guardrail[{extra}]'")


def require(module: str, *, extra: str = "core", purpose: str = "kg-guardrail") -> ModuleType:
    """Import ``module`` or raise MissingDependencyError that says which pip command installs it.

    Parameters
    ----------
    module : str
        Dotted module name, e.g. ``"sentence_transformers"``.
    extra : str
        The kg-guardrail extra that provides it (``"report"``, ``"ray"``, ``"kg-guard"``, ...;
        ``"core"`` for a core dependency; the ``langchain`` and ``llama-index`` extras install
        the adapter distributions ``kg-guardrail-langchain`` / ``kg-guardrail-llama-index``).
    purpose : str
        Who needs it, for the message (default ``"kg-guardrail"``; e.g. ``"GGA"``).

    Returns
    -------
    ModuleType
        The imported module (the submodule itself for a dotted name).

    Raises
    ------
    MissingDependencyError
        An :class:`ImportError` with the pip command in the message.
    """
    try:
        # through builtins.__import__ (not importlib), so an import hook sees the request
        module_obj: ModuleType = builtins.__import__(module, fromlist=("__name__",))
        return module_obj
    except ImportError as exc:
        raise MissingDependencyError(
            f"{purpose} needs the optional dependency {module!r}; install it with: {pip_hint(extra)}"
        ) from exc
