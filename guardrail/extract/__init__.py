"""Triple extractors (LLM-free spaCy patterns by default; explicit triples for graph contexts)."""

from guardrail.extract.base import Extractor
from guardrail.extract.given import graph_from_triples
from guardrail.extract.normalize import content_tokens, normalize_label
from guardrail.extract.spacy_extractor import SpacyExtractor

__all__ = [
    "Extractor",
    "SpacyExtractor",
    "graph_from_triples",
    "normalize_label",
    "content_tokens",
]
