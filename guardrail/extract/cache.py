"""Passage-graph cache of :class:`guardrail.Guard` (private).

The cache maps a passage's text to its graph (extracted as source 0, re-homed per use);
misses are parsed together in one ``extract_many`` batch under the guard's lock. A batch of
checks also parses its answers and questions ahead, in one batch, and holds their graphs
here until it has judged them (:meth:`PassageCache.prefetch_own`).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence

from guardrail.errors import InvalidInputError
from guardrail.extract.base import Extractor
from guardrail.types import KnowledgeGraph

__all__ = ["CACHE_MAX_CHARS", "PassageCache", "cache_key"]

#: Default bound of the passage characters whose graphs the cache keeps. A passage graph
#: takes 75 (Python heap) to 125 (RSS) bytes per passage character, so this is 150 to 250 MB;
#: the count bound alone (1,024 graphs) let RSS grow by about 0.75 MB per distinct
#: 6,000-character passage, 750 MB at 1,024 of them.
CACHE_MAX_CHARS = 2_000_000


def cache_key(text: str) -> str:
    """Cache key of a passage; ``surrogatepass`` so that no str can make it raise."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


class PassageCache:
    """LRU cache of source-0 passage graphs, parsed in batches.

    Parameters
    ----------
    size : int
        Most graphs kept (0: no caching, every passage is parsed on use).
    lock : threading.RLock
        Held while the cache is read or written and while passages are parsed (one spaCy
        pipeline serves every thread).
    max_chars : int
        Most passage characters whose graphs are kept (a graph's memory grows with its
        passage's length); the least recently used graphs go first, and a passage longer
        than this is parsed but not kept.
    """

    def __init__(self, size: int, lock: threading.RLock, max_chars: int = CACHE_MAX_CHARS) -> None:
        if max_chars < 0:
            raise InvalidInputError(f"max_chars must be >= 0, got {max_chars!r}")
        self.size = size
        self.max_chars = max_chars
        self._lock = lock
        self._data: OrderedDict[str, KnowledgeGraph] = OrderedDict()
        self._chars: dict[str, int] = {}
        self.chars = 0  #: passage characters of the graphs kept now
        self._own: dict[tuple[str, int], KnowledgeGraph] = {}

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        """Drop every cached graph."""
        with self._lock:
            self._data.clear()
            self._chars.clear()
            self.chars = 0
            self._own.clear()

    def graphs(self, texts: Sequence[str], extractor: Extractor) -> list[KnowledgeGraph]:
        """Graphs of ``texts`` (source 0): cached ones reused, the rest parsed in one batch."""
        return self.graphs_with(texts, extractor)[0]

    def graphs_with(self, texts: Sequence[str], extractor: Extractor,
                    extra: Sequence[tuple[str, int]] = ()) -> tuple[list[KnowledgeGraph], list[KnowledgeGraph]]:
        """:meth:`graphs` of ``texts``, and the graphs of the ``extra`` ``(text, source)`` pairs
        (never cached: an answer, a question), parsed in the same ``extract_many`` batch as the
        passages not cached (one pass instead of one per text: spaCy's cost per call is most of
        the cost of a short text). ``extract_many`` returns the graphs ``extract`` would, so each
        graph is the one a separate call gives.

        Returns
        -------
        (list of KnowledgeGraph, list of KnowledgeGraph)
            The graphs of ``texts`` (source 0), then those of ``extra``, in order.
        """
        keys = [cache_key(t) for t in texts]
        found: dict[str, KnowledgeGraph] = {}
        with self._lock:
            for k in keys:
                g = self._data.get(k)
                if g is not None:
                    self._data.move_to_end(k)
                    found[k] = g
            missing = {k: t for k, t in zip(keys, texts) if k not in found}
            held = {p: self._own[p] for p in extra if p in self._own}
            new = [p for p in extra if p not in held]
            todo = [t for t, _ in new] + list(missing.values())
            parsed = extractor.extract_many(todo, [s for _, s in new] + [0] * len(missing)) if todo else []
            held.update(zip(new, parsed))
            own = parsed[len(new):]
            found.update(zip(missing, own))
            self._put(zip(missing, own), [len(t) for t in missing.values()])
        return [found[k] for k in keys], [held[p] for p in extra]

    def prefetch_own(self, pairs: Sequence[tuple[str, int]], extractor: Extractor) -> list[KnowledgeGraph]:
        """Parse ``(text, source)`` pairs that are not passages (answers, questions) in one
        batch and hold their graphs: :meth:`graphs_with` takes an ``extra`` pair from here
        instead of parsing it, until :meth:`drop_own`. Pairs held already are not parsed again.

        Returns
        -------
        list of KnowledgeGraph
            The graph of each pair, in order.
        """
        with self._lock:
            todo = [p for p in dict.fromkeys(pairs) if p not in self._own]
            if todo:
                graphs = extractor.extract_many([t for t, _ in todo], [s for _, s in todo])
                self._own.update(zip(todo, graphs))
            return [self._own[p] for p in pairs]

    def drop_own(self) -> None:
        """Drop the graphs :meth:`prefetch_own` holds."""
        with self._lock:
            self._own.clear()

    def peek(self, texts: Sequence[str]) -> list[KnowledgeGraph | None]:
        """The cached graphs of ``texts`` (source 0), ``None`` for a text not cached; nothing is
        parsed and the LRU order is left as it is."""
        with self._lock:
            return [self._data.get(cache_key(t)) for t in texts]

    def prefetch(self, texts: Iterable[str], extractor: Extractor) -> None:
        """Parse the ``texts`` not cached yet in one batch (at most ``size`` of them)."""
        if not self.size:
            return
        todo = {cache_key(t): t for t in texts}
        with self._lock:
            keys = [k for k in todo if k not in self._data][: self.size]
            if keys:
                self._put(zip(keys, extractor.extract_many([todo[k] for k in keys], [0] * len(keys))),
                          [len(todo[k]) for k in keys])

    def _put(self, pairs: Iterable[tuple[str, KnowledgeGraph]], lengths: Sequence[int]) -> None:
        if not self.size:
            return
        for (k, g), n in zip(pairs, lengths):
            if n > self.max_chars:
                continue
            self.chars += n - self._chars.get(k, 0)
            self._data[k], self._chars[k] = g, n
            self._data.move_to_end(k)
        while self._data and (len(self._data) > self.size or self.chars > self.max_chars):
            k, _ = self._data.popitem(last=False)
            self.chars -= self._chars.pop(k)
