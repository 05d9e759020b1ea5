"""Test helpers for detector tests: a deterministic fake encoder and hand-built graphs."""

from __future__ import annotations

from guardrail.testing import FakeEncoder  # noqa: F401 - re-exported for the tests
from guardrail.types import KnowledgeGraph, Node, Span, Triple


def node(nid: str, text: str, kind: str = "NOUN", source: int = -1, start: int = 0) -> Node:
    """A node whose label is its lower-cased text, with a span of its length."""
    return Node(id=nid, text=text, label=text.lower(), kind=kind,
                span=Span(start=start, end=start + len(text), source=source))


CONTEXT_TEXT = "Apple was founded in 1976 by Steve Jobs."


def apple_context() -> KnowledgeGraph:
    """Context graph of :data:`CONTEXT_TEXT`."""
    a = node("0:0", "Apple", "ORG", 0, 0)
    d = node("0:21", "1976", "DATE", 0, 21)
    s = node("0:29", "Steve Jobs", "PERSON", 0, 29)
    return KnowledgeGraph(
        nodes=(a, d, s),
        triples=(Triple(subject=a, relation="be founded in", object=d),
                 Triple(subject=a, relation="be founded by", object=s)),
        texts=(CONTEXT_TEXT,),
    )


def apple_claim(year: str, founder: str = "Steve Jobs") -> KnowledgeGraph:
    """Claim graph of "Apple was founded in <year> by <founder>."."""
    text = f"Apple was founded in {year} by {founder}."
    a = node("-1:0", "Apple", "ORG")
    d = node("-1:21", year, "DATE", -1, 21)
    s = node("-1:29", founder, "PERSON", -1, 29)
    return KnowledgeGraph(
        nodes=(a, d, s),
        triples=(Triple(subject=a, relation="be founded in", object=d, span=Span(start=0, end=len(text))),
                 Triple(subject=a, relation="be founded by", object=s, span=Span(start=0, end=len(text)))),
        texts=(text,),
    )
