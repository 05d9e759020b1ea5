"""``kb_facts``: which context objects are rivals of the answer's object (issue 26)."""

from __future__ import annotations

from guardrail.detectors.base import AlignmentInput
from guardrail.detectors.kb_facts import KBFactsDetector
from guardrail.types import KnowledgeGraph, Node, Span, Triple


def _node(nid: str, text: str) -> Node:
    return Node(id=nid, text=text, label=text.lower(), kind="NOUN", span=Span(start=0, end=len(text), source=-1))


def _fact(k: int, subject: str, relation: str, obj: str) -> Triple:
    return Triple(subject=_node(f"{k}:s", subject), relation=relation, object=_node(f"{k}:o", obj))


def _detect(answer_obj: str, context: list[Triple]) -> tuple[float, float]:
    claim = _fact(-1, "Brightwater Bridge", "be", answer_obj)
    item = AlignmentInput(f"Brightwater Bridge is {answer_obj}.", (), None,
                          KnowledgeGraph(nodes=(claim.subject, claim.object), triples=(claim,)),
                          KnowledgeGraph(nodes=tuple(n for t in context for n in (t.subject, t.object)),
                                         triples=tuple(context)), None)
    out = KBFactsDetector().detect(item)
    obj = next(s.support for s in out.node_support if s.node_id == claim.object.id)
    return out.score, obj


def test_a_passage_noun_is_no_rival_of_a_measured_value() -> None:
    ctx = [_fact(0, "Brightwater Bridge", "have length", "420 metres"),  # the KB's fact, another relation
           _fact(1, "Brightwater Bridge", "be", "a steel arch bridge")]  # the passage's triple, the same copula
    assert _detect("420 metres long", ctx) == (0.0, 1.0)


def test_a_different_value_of_the_same_kind_is_contradicted() -> None:
    ctx = [_fact(0, "Brightwater Bridge", "be", "420 metres long"),
           _fact(1, "Brightwater Bridge", "be", "a steel arch bridge")]
    assert _detect("240 metres long", ctx) == (1.0, 0.0)
    assert _detect("a suspension bridge", ctx) == (1.0, 0.0)
