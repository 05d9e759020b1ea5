"""The kg-guardrail error tree.

Every exception the library raises on purpose derives from :class:`GuardrailError`, so
``except GuardrailError`` catches all of them (httpx's pattern: one small tree, drawn here).
Bad arguments also derive from :class:`ValueError`, so generic callers that catch
``ValueError`` keep working::

    GuardrailError
    ├── InvalidInputError (+ ValueError)   a bad argument or input value (names the value)
    ├── ConfigError (+ ValueError)         a malformed config file or object
    ├── ExtractionError                    triple extraction failed (not bad input)
    ├── DetectorError                      a detector or its model failed while scoring
    ├── KnowledgeBaseError                 a knowledge base / SPARQL endpoint failed
    ├── LLMError                           an LLM endpoint failed after retries (``transient`` says if worth retrying)
    │   └── RefinementError                the refinement loop got no new answer
    ├── ModelFileError                     a local model file is missing or its SHA-256 differs
    ├── MissingDependencyError (+ ImportError)  an optional dependency (extra) is not installed
    ├── ReadOnlyError (+ TypeError)        a frozen result or config mapping was changed in place
    ├── LogSinkError                       a flagged-answer log could not write or read
    ├── BatchError                         an item of ``check_many`` failed; earlier results travel with it
    └── HallucinationError                 the ``raise`` policy: the answer was flagged

Foreign errors are mapped once per layer, with ``raise ... from exc``: the detectors
(model and tokenizer errors -> :class:`DetectorError`), the log sinks (``OSError`` and
``sqlite3.Error`` -> :class:`LogSinkError`), the knowledge-base backends (HTTP, parsing ->
:class:`KnowledgeBaseError`) and the LLM client (``openai`` errors -> :class:`LLMError`).
Each such layer names its foreign errors in one table and wraps the calls that may raise
them in :func:`map_exceptions` (httpx's ``_exceptions.py`` pattern).
Input that cannot be judged is not an error: the result abstains, with a reason.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from guardrail.types import GuardResult

__all__ = [
    "GuardrailError",
    "InvalidInputError",
    "ConfigError",
    "ExtractionError",
    "DetectorError",
    "LogSinkError",
    "KnowledgeBaseError",
    "LLMError",
    "ModelFileError",
    "MissingDependencyError",
    "ReadOnlyError",
    "RefinementError",
    "HallucinationError",
    "BatchError",
    "ErrorMap",
    "map_exceptions",
]


class GuardrailError(Exception):
    """Root of every error raised by kg-guardrail."""


class InvalidInputError(GuardrailError, ValueError):
    """An argument has the wrong type or an unusable value; the message names the value."""


class ConfigError(GuardrailError, ValueError):
    """A configuration file or object is malformed (unknown policy, bad weight, ...)."""


class ExtractionError(GuardrailError):
    """Triple extraction failed for a reason other than bad input (e.g. a broken model)."""


class DetectorError(GuardrailError):
    """A detector failed while scoring an answer."""


class LogSinkError(GuardrailError):
    """A flagged-answer log sink could not write or read a record."""


class KnowledgeBaseError(GuardrailError):
    """A knowledge base or SPARQL endpoint failed (unreachable, timed out, malformed results).

    Parameters
    ----------
    message : str
        What failed.
    answer : str or None
        The answer being checked when the KB failed (set by ``Guard(kb=...)``), so a
        caller that catches the error still has it.
    """

    def __init__(self, message: str = "", *, answer: str | None = None) -> None:
        super().__init__(message)
        self.answer = answer


class LLMError(GuardrailError):
    """An LLM endpoint kept failing (after retries) or returned an unusable reply.

    Parameters
    ----------
    message : str
        What failed.
    transient : bool
        ``True`` when the last failure was a connection error, a timeout, a rate limit or a
        5xx (worth trying again later); ``False`` for a bad request, a bad key or an
        unparsable reply.
    """

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient


class ModelFileError(GuardrailError):
    """A local model file is missing, incomplete, or its SHA-256 differs from the pinned one."""


class MissingDependencyError(GuardrailError, ImportError):
    """An optional dependency (an extra) or a model's part package is not installed; the message
    names the ``pip install`` command. Also an :class:`ImportError`, so ``except ImportError`` works."""


class ReadOnlyError(GuardrailError, TypeError):
    """A read-only mapping of a frozen result or config was changed in place (copy it with
    ``dict(...)`` first). Also a :class:`TypeError`, as for :class:`types.MappingProxyType`."""


class RefinementError(LLMError):
    """The refinement loop could not obtain a new answer from the LLM (after retries)."""


class HallucinationError(GuardrailError):
    """Raised by the ``raise`` policy when an answer is flagged.

    Parameters
    ----------
    result : GuardResult
        The full guard result, including flagged nodes and the explanation.
    answer : str
        The answer that was flagged (never lost: it travels with the error).
    """

    def __init__(self, result: GuardResult, answer: str | None = None) -> None:
        self.result = result
        self.answer = answer if answer is not None else result.answer
        nodes = ", ".join(repr(n.text) for n in result.flagged_nodes[:5]) or "none"
        super().__init__(
            f"answer flagged as unsupported (score={result.score:.3f} >= "
            f"threshold={result.threshold:.3f}; flagged nodes: {nodes})"
        )


class BatchError(GuardrailError):
    """An item of :meth:`~guardrail.Guard.check_many` failed while it was judged.

    The items before it were judged (and their flagged results logged): they travel with
    the error, so a caller goes on from ``index + 1`` instead of checking, and logging,
    them again.

    Parameters
    ----------
    index : int
        Position of the failed item in the batch.
    results : list of GuardResult
        The results of the items before it, in order.
    cause : BaseException
        What the item raised (also the error's ``__cause__``).
    """

    def __init__(self, index: int, results: list[GuardResult], cause: BaseException) -> None:
        self.index = index
        self.results = results
        self.cause = cause
        super().__init__(f"item {index} of the batch failed ({type(cause).__name__}: {cause}); "
                         f"{len(results)} item(s) before it were judged (in .results)")


#: One boundary's table: a foreign exception type -> the tree error it becomes.
ErrorMap = Mapping[type[Exception], type[GuardrailError]]


@contextmanager
def map_exceptions(mapping: ErrorMap, message: str) -> Iterator[None]:
    """Re-raise a foreign error listed in ``mapping`` as its tree error, ``from`` the original.

    The first entry whose type matches wins; errors of the tree and errors not listed pass
    through unchanged.

    Parameters
    ----------
    mapping : ErrorMap
        The boundary's table, e.g. ``{OSError: LogSinkError, sqlite3.Error: LogSinkError}``.
    message : str
        What was being done; the new error reads ``f"{message}: {exc}"``.

    Yields
    ------
    None
        The body runs inside the mapping.

    Raises
    ------
    GuardrailError
        The mapped error (its ``__cause__`` is the foreign one).

    Examples
    --------
    >>> with map_exceptions({KeyError: InvalidInputError}, "no such detector"):  # doctest: +SKIP
    ...     {}["x"]
    """
    try:
        yield
    except tuple(mapping) as exc:
        if isinstance(exc, GuardrailError):
            raise
        target = next(t for kind, t in mapping.items() if isinstance(exc, kind))
        raise target(f"{message}: {exc}") from exc
