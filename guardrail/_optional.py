"""The one lazy-import helper: heavy or optional dependencies, with an error naming the pip command.

Every optional dependency of the core and the adapters is imported through :func:`require`,
and every install hint is written by :func:`pip_hint`, so a missing extra always says how
to install it, in the same words.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib.abc
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from guardrail.errors import InvalidInputError, MissingDependencyError

__all__ = ["require", "pip_hint", "without_modules"]

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


class _Blocker(importlib.abc.MetaPathFinder):
    """Makes ``import name`` (and its submodules) fail for the blocked top-level names."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name.partition(".")[0] in self.names:
            raise MissingDependencyError(f"{name} is not imported by kg-guardrail inference")
        return None


@contextlib.contextmanager
def without_modules(*names: str) -> Iterator[None]:
    """Import inside the block with ``import name`` failing for each of ``names`` not yet imported.

    For dependencies that import a heavy package they can do without: spaCy's ``thinc``
    imports torch when it is installed (1-2 s and 100+ MB the guard never uses), and
    scikit-learn imports pandas when it is installed (about 60 MB; it falls back to ``None``
    and imports pandas again where a DataFrame is actually used). A name already in
    ``sys.modules`` is not blocked (nothing to save), and outside the block imports work
    as before.

    Parameters
    ----------
    *names : str
        Top-level module names (``"torch"``, ``"pandas"``); a dotted name is an error.

    Raises
    ------
    InvalidInputError
        A name is empty or dotted.

    Examples
    --------
    >>> with without_modules("a_module_that_is_not_installed"):
    ...     pass
    """
    bad = [n for n in names if not isinstance(n, str) or not n or "." in n]
    if bad:
        raise InvalidInputError(f"without_modules takes top-level module names, got {bad!r}")
    blocked = frozenset(n for n in names if n not in sys.modules)
    if not blocked:
        yield
        return
    blocker = _Blocker(blocked)
    sys.meta_path.insert(0, blocker)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(blocker)
