""":class:`MiniLMEmbedding`: the guard's offline all-MiniLM-L6-v2 encoder as a LlamaIndex embed model.

Useful for tests, examples and fully offline pipelines: the vectors come from
:func:`guardrail.align.encoder.shared_encoder` (the same process-wide model and cache the
guard uses), so no embedding API and no model download are involved.
"""

from __future__ import annotations

import asyncio
from typing import Any

from llama_index.core.base.embeddings.base import BaseEmbedding, Embedding
from pydantic import PrivateAttr

from guardrail.align.encoder import shared_encoder

__all__ = ["MiniLMEmbedding"]


class MiniLMEmbedding(BaseEmbedding):
    """all-MiniLM-L6-v2 embeddings (384-d, L2-normalised), offline.

    Parameters
    ----------
    encoder : TextEncoder or None
        Anything with ``encode(texts) -> ndarray``; default the guard's shared encoder.
    embed_batch_size : int
        Texts per call (LlamaIndex batching; the encoder batches again inside).

    Examples
    --------
    >>> from llama_index.core import VectorStoreIndex, Document      # doctest: +SKIP
    >>> index = VectorStoreIndex.from_documents(docs, embed_model=MiniLMEmbedding())  # doctest: +SKIP
    """

    _encoder: Any = PrivateAttr(default=None)

    def __init__(self, encoder: Any = None, embed_batch_size: int = 32, **kwargs: Any) -> None:
        kwargs.setdefault("model_name", "all-MiniLM-L6-v2")
        super().__init__(embed_batch_size=embed_batch_size, **kwargs)
        self._encoder = encoder

    @classmethod
    def class_name(cls) -> str:
        """Name used in serialisation."""
        return "MiniLMEmbedding"

    @property
    def encoder(self) -> Any:
        """The underlying encoder (the shared MiniLM one unless given)."""
        if self._encoder is None:
            self._encoder = shared_encoder()
        return self._encoder

    def _embed(self, texts: list[str]) -> list[Embedding]:
        return [row.tolist() for row in self.encoder.encode(list(texts))]

    def _get_query_embedding(self, query: str) -> Embedding:
        return self._embed([query])[0]

    def _get_text_embedding(self, text: str) -> Embedding:
        return self._embed([text])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[Embedding]:
        return self._embed(texts)

    async def _aget_query_embedding(self, query: str) -> Embedding:
        return (await asyncio.to_thread(self._embed, [query]))[0]

    async def _aget_text_embedding(self, text: str) -> Embedding:
        return (await asyncio.to_thread(self._embed, [text]))[0]

    async def _aget_text_embeddings(self, texts: list[str]) -> list[Embedding]:
        return await asyncio.to_thread(self._embed, texts)
