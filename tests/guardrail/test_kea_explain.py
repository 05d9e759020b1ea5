"""Contrastive explanations (KEA Explain)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "detectors"))
from _fakes import FakeEncoder, apple_claim, apple_context, node  # noqa: E402

from guardrail.detectors.base import AlignmentInput  # noqa: E402
from guardrail.detectors.grounding import GroundingDetector  # noqa: E402
from guardrail.explain.kea import KEAExplainer, edit_operations, find_contradictions  # noqa: E402
from guardrail.types import FlaggedNode, KnowledgeGraph  # noqa: E402


def _item(claim: KnowledgeGraph) -> AlignmentInput:
    ctx = apple_context()
    return AlignmentInput(claim.texts[0], ctx.texts, None, claim, ctx, FakeEncoder())


def test_contradiction_on_object():
    pairs = find_contradictions(apple_claim("1999").triples, apple_context().triples, FakeEncoder())
    assert len(pairs) == 1
    p = pairs[0]
    assert p.differs == "object"
    assert p.claim.object.text == "1999" and p.evidence.object.text == "1976"


def test_no_contradiction_for_supported_claim_or_empty_sides():
    assert find_contradictions(apple_claim("1976").triples, apple_context().triples, FakeEncoder()) == []
    assert find_contradictions((), apple_context().triples, FakeEncoder()) == []


def test_edit_operations():
    claim = apple_claim("1999")
    pairs = find_contradictions(claim.triples, apple_context().triples, FakeEncoder())
    ops = edit_operations([claim.triples[0]], {0: pairs[0].evidence}, pairs)
    assert [o.op for o in ops] == ["remove_edge", "add_edge", "relabel_node"]
    assert ops[2].node == "1999" and ops[2].to == "1976"


def _flag(item: AlignmentInput, node_id: str) -> tuple:
    out = GroundingDetector().detect(item)
    ns = {n.node_id: n for n in out.node_support}[node_id]
    n = item.claim_graph.node(node_id)
    flagged = FlaggedNode(node_id=n.id, text=n.text, span=n.span, support=ns.support,
                          evidence=ns.evidence, evidence_span=ns.evidence_span)
    return KEAExplainer().explain(item, [out], [flagged])


def test_contrastive_sentence_for_contradicted_year():
    item = _item(apple_claim("1999"))
    expl, flagged = _flag(item, "-1:21")
    assert flagged[0].reason == "the answer says Apple was founded in 1999 by Steve Jobs; the context says 1976"
    assert flagged[0].evidence == "1976"
    assert expl.sentences == (flagged[0].reason,)
    assert expl.contradictions and expl.contradictions[0].differs == "object"
    assert {o.op for o in expl.edits} >= {"remove_edge", "add_edge", "relabel_node"}
    assert "1999" in expl.summary


def test_sentence_for_entity_the_context_does_not_mention():
    claim = KnowledgeGraph(nodes=(node("-1:0", "Tom Hanks", "PERSON"),), texts=("Tom Hanks",))
    item = AlignmentInput("Tom Hanks", apple_context().texts, None, claim, KnowledgeGraph(nodes=(node("0:0", "1976", "DATE", 0, 0),), texts=apple_context().texts), FakeEncoder())
    _, flagged = _flag(item, "-1:0")
    assert flagged[0].reason == "the answer's claim 'Tom Hanks' mentions 'Tom Hanks', which the context does not mention"


def test_reason_names_the_unsupported_claim_and_its_evidence():
    answer = "Apple makes phones. Apple was founded by Tom Hanks."
    n = node("-1:39", "Tom Hanks", "PERSON", -1, 39)
    claim = KnowledgeGraph(nodes=(n,), texts=(answer,))
    item = AlignmentInput(answer, apple_context().texts, None, claim,
                          KnowledgeGraph(nodes=(node("0:0", "1976", "DATE", 0, 0),), texts=apple_context().texts),
                          FakeEncoder())
    f = FlaggedNode(node_id="-1:39", text="Tom Hanks", span=n.span, support=0.1, evidence="Apple was founded in 1976.")
    _, out = KEAExplainer().explain(item, [], [f])
    assert out[0].reason == ("the answer's claim 'Apple was founded by Tom Hanks.' is not supported by the context "
                             "at 'Tom Hanks'; the closest context evidence is 'Apple was founded in 1976.'")


def test_nothing_flagged():
    expl, flagged = KEAExplainer().explain(_item(apple_claim("1976")), [], [])
    assert flagged == () and expl.contradictions == ()
    with pytest.raises(ValueError):
        KEAExplainer(similarity=2.0)


@pytest.mark.slow
def test_real_guard_flags_1999_with_1976_evidence():
    from guardrail import Guard
    from guardrail.config import GuardConfig

    guard = Guard(GuardConfig(name="t", detectors=["grounding"], threshold=0.2))
    r = guard.check("Apple was founded in 1999.", ["Apple was founded in 1976 by Steve Jobs."])
    assert not r.passed
    node = next(f for f in r.flagged_nodes if "1999" in f.text)
    assert node.evidence == "1976"
    assert node.span is not None and r.answer[node.span.start:node.span.end] == node.text
    assert "1999" in node.reason and "1976" in node.reason
    assert node.reason.startswith("the answer says")


def test_evidence_lookups_are_bounded_for_long_answers(monkeypatch):
    import guardrail.explain.kea as ke
    from guardrail.types import Triple

    calls: list[int] = []
    real = ke.match_triples
    monkeypatch.setattr(ke, "match_triples", lambda q, *a, **k: calls.append(len(q)) or real(q, *a, **k))
    a = node("-1:0", "Apple", "ORG")
    unsupported = [Triple(subject=a, relation=f"relation {i}", object=node(f"-1:{i + 10}", f"Thing {i}"))
                   for i in range(ke.MAX_EVIDENCE_LOOKUPS + 5)]
    out = KEAExplainer._evidence(_item(apple_claim("1999")), unsupported, [])
    assert calls == [ke.MAX_EVIDENCE_LOOKUPS]  # one batched lookup, of the first ones only
    assert set(out) <= set(range(ke.MAX_EVIDENCE_LOOKUPS)) and out


def test_match_triples_matches_each_triple_as_a_one_triple_selection() -> None:
    from guardrail.align.relations import match_triples, select_relations

    ctx = apple_context()
    claim = apple_claim("1999").triples + apple_claim("1976").triples
    for t, m in zip(claim, match_triples(claim, ctx, FakeEncoder(), max_candidates=2)):
        sel = select_relations(KnowledgeGraph(nodes=(t.subject, t.object), triples=(t,)), ctx, FakeEncoder(),
                               max_candidates=2)
        assert m == sel.triples[0]
    assert match_triples(claim, KnowledgeGraph(), FakeEncoder()) == [None] * len(claim)
