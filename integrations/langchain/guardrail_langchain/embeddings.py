"""``MiniLMEmbeddings``: LangChain embeddings over the guard's offline MiniLM encoder."""

from __future__ import annotations

import asyncio
from typing import Any

from langchain_core.embeddings import Embeddings

from guardrail.align.encoder import shared_encoder

__all__ = ["MiniLMEmbeddings"]


class MiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 embeddings (384-d, unit norm), offline, shared with the guard.

    Uses :func:`guardrail.align.encoder.shared_encoder`, so a vector store and the guard load
    the model once and share its cache. Handy for ``InMemoryVectorStore`` in tests and
    examples; any encoder with ``encode(texts) -> ndarray`` can be given instead.

    Parameters
    ----------
    encoder : TextEncoder or None
        Default: the process-wide MiniLM encoder.

    Examples
    --------
    >>> from langchain_core.vectorstores import InMemoryVectorStore  # doctest: +SKIP
    >>> store = InMemoryVectorStore.from_texts(passages, MiniLMEmbeddings())  # doctest: +SKIP
    """

    def __init__(self, encoder: Any = None) -> None:
        self._encoder = encoder

    @property
    def encoder(self) -> Any:
        """The underlying encoder (created on first use)."""
        if self._encoder is None:
            self._encoder = shared_encoder()
        return self._encoder

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed passages; returns one 384-float list per text."""
        if not texts:
            return []
        return [row.tolist() for row in self.encoder.encode(list(texts))]

    def embed_query(self, text: str) -> list[float]:
        """Embed one query."""
        return self.embed_documents([text])[0]

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        """Async :meth:`embed_documents` (runs in a worker thread)."""
        return await asyncio.to_thread(self.embed_documents, texts)

    async def aembed_query(self, text: str) -> list[float]:
        """Async :meth:`embed_query` (runs in a worker thread)."""
        return await asyncio.to_thread(self.embed_query, text)
