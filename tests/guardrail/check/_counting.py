"""A :class:`~guardrail.testing.FakeExtractor` that records every ``extract_many`` batch, shared by
the one-pass and batch-prefetch tests (issue 27): they assert which texts were parsed together."""

from __future__ import annotations

from collections.abc import Sequence

from guardrail.errors import ExtractionError
from guardrail.testing import FakeExtractor
from guardrail.types import KnowledgeGraph

__all__ = ["CountingExtractor"]


class CountingExtractor(FakeExtractor):
    """FakeExtractor recording each batch as ``(text, source)`` pairs; a batch holding a text
    with ``"boom"`` raises :class:`~guardrail.errors.ExtractionError` (a scripted failure)."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[tuple[str, int]]] = []

    def extract_many(self, texts: Sequence[str], sources: Sequence[int] | None = None) -> list[KnowledgeGraph]:
        srcs = list(sources) if sources is not None else list(range(len(texts)))
        self.batches.append(list(zip(texts, srcs)))
        if any("boom" in t for t in texts):
            raise ExtractionError("boom")
        return super().extract_many(texts, srcs)
