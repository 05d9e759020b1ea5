"""The knowledge-base role: run one SPARQL SELECT query, return its rows.

:class:`KnowledgeBase` has one abstract method, :meth:`KnowledgeBase.query`. Backends
map their own errors to :class:`~guardrail.kb.errors.KnowledgeBaseError` there, and
cap the number of rows they return. :class:`CountingKB` wraps any backend to count
the queries one check makes.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections import OrderedDict

from guardrail.errors import InvalidInputError
from guardrail.kb.terms import Term

__all__ = ["KnowledgeBase", "Row", "CountingKB", "QueryCache"]

#: One result row: variable name -> bound term (unbound variables are absent).
Row = dict[str, Term]


class KnowledgeBase(ABC):
    """A source of facts that answers SPARQL 1.1 SELECT queries.

    Subclasses implement :meth:`query`. The entity linker and the fact fetcher build
    every query with escaped literals and checked IRIs only
    (:func:`~guardrail.kb.terms.sparql_literal`, :func:`~guardrail.kb.terms.sparql_iri`).
    """

    #: Short backend name used in error messages.
    name: str = "kb"
    #: Most rows one query returns; longer results are cut to this many.
    max_results: int = 10_000

    @abstractmethod
    def query(self, sparql: str) -> list[Row]:
        """Run a SPARQL SELECT query and return its rows.

        Parameters
        ----------
        sparql : str
            A SELECT query.

        Returns
        -------
        list of dict of str to Term
            One mapping per solution, at most :attr:`max_results` of them.

        Raises
        ------
        KnowledgeBaseError
            The backend failed (unreachable, timed out, malformed result, rejected query).
        InvalidInputError
            ``sparql`` is not a non-empty str.
        """

    def close(self) -> None:  # noqa: B027 - optional hook, most backends hold nothing
        """Release resources held by the backend (default: nothing to release)."""


class CountingKB(KnowledgeBase):
    """Wrap a knowledge base and count the queries sent through it.

    Parameters
    ----------
    inner : KnowledgeBase
        The backend that answers.
    """

    def __init__(self, inner: KnowledgeBase) -> None:
        self.inner = inner
        self.name = inner.name
        self.max_results = inner.max_results
        #: Number of queries run so far.
        self.count = 0

    def query(self, sparql: str) -> list[Row]:
        """Count the query and run it on :attr:`inner`."""
        self.count += 1
        return self.inner.query(sparql)


class QueryCache:
    """A thread-safe LRU cache of query results keyed by query text.

    Parameters
    ----------
    size : int
        Most results kept (``0`` disables caching).
    """

    def __init__(self, size: int) -> None:
        if not isinstance(size, int) or size < 0:
            raise InvalidInputError(f"cache_size must be an int >= 0, got {size!r}")
        self.size = size
        self._data: OrderedDict[str, list[Row]] = OrderedDict()
        self._lock = threading.Lock()
        #: Lookups answered from the cache.
        self.hits = 0

    def get(self, key: str) -> list[Row] | None:
        """Return a copy of the cached rows for ``key``, or None."""
        with self._lock:
            rows = self._data.get(key)
            if rows is None:
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return [dict(r) for r in rows]

    def put(self, key: str, rows: list[Row]) -> None:
        """Store ``rows`` for ``key``, evicting the least recently used entry when full."""
        if self.size == 0:
            return
        with self._lock:
            self._data[key] = [dict(r) for r in rows]
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)


def check_query(sparql: object) -> str:
    """Return ``sparql`` if it is a non-empty str; raise InvalidInputError otherwise."""
    if not isinstance(sparql, str) or not sparql.strip():
        raise InvalidInputError(f"a SPARQL query must be a non-empty str, got {sparql!r:.80}")
    return sparql


def check_positive(name: str, value: object, *, allow_zero: bool = False) -> None:
    """Raise InvalidInputError unless ``value`` is a positive number (or zero if allowed)."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not ok or value < 0 or (value == 0 and not allow_zero):  # type: ignore[operator]
        raise InvalidInputError(f"{name} must be a {'non-negative' if allow_zero else 'positive'} "
                                f"number, got {value!r}")
