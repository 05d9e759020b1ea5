"""The extractor role: text in, knowledge graph out.

One abstract method, :meth:`Extractor.extract`; batch and async forms derive from it.
An LLM-based extractor only has to implement ``extract``.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Sequence

from guardrail.errors import InvalidInputError
from guardrail.types import KnowledgeGraph

__all__ = ["Extractor"]


class Extractor(ABC):
    """Turn a text into a :class:`~guardrail.types.KnowledgeGraph` of triples with spans.

    Subclasses implement :meth:`extract`. :meth:`extract_many` may be overridden for
    speed (e.g. ``nlp.pipe``) but must return the same graphs as calling ``extract``
    one text at a time.
    """

    #: Short name used in configs and timings.
    name: str = "extractor"

    @abstractmethod
    def extract(self, text: str, *, source: int = -1) -> KnowledgeGraph:
        """Extract the knowledge graph of ``text``.

        Parameters
        ----------
        text : str
            A non-empty, validated text (the guard validates before calling).
        source : int
            ``-1`` for the answer, ``i >= 0`` for the i-th context passage, ``-2`` for
            the question. Written into every span and used to prefix node ids so that
            graphs of different passages can be merged.

        Returns
        -------
        KnowledgeGraph
            Nodes and triples with character spans into ``text``; ``texts == (text,)``.

        Raises
        ------
        ExtractionError
            When the underlying model fails.
        """

    def extract_many(
        self, texts: Sequence[str], sources: Sequence[int] | None = None
    ) -> list[KnowledgeGraph]:
        """Extract several texts; ``sources[i]`` defaults to ``i``."""
        srcs = list(sources) if sources is not None else list(range(len(texts)))
        if len(srcs) != len(texts):
            raise InvalidInputError(f"sources has {len(srcs)} items, texts has {len(texts)}")
        return [self.extract(t, source=s) for t, s in zip(texts, srcs)]

    async def aextract(self, text: str, *, source: int = -1) -> KnowledgeGraph:
        """Async form of :meth:`extract` (runs it in a worker thread)."""
        return await asyncio.to_thread(self.extract, text, source=source)
