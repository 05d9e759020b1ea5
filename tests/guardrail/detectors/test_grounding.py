"""Entity grounding / relation preservation detector (HalluGraph)."""

from __future__ import annotations

import pytest
from _fakes import CONTEXT_TEXT, FakeEncoder, apple_claim, apple_context, node

from guardrail.detectors.base import AlignmentInput
from guardrail.detectors.entity import EntityGroundingDetector
from guardrail.detectors.grounding import GroundingDetector, soft
from guardrail.types import KnowledgeGraph, Triple


def _item(claim: KnowledgeGraph, question: str | None = None, qgraph: KnowledgeGraph | None = None,
          ctx: KnowledgeGraph | None = None, enc: FakeEncoder | None = None) -> AlignmentInput:
    ctx = ctx or apple_context()
    return AlignmentInput(claim.texts[0], ctx.texts, question, claim, ctx, enc or FakeEncoder(), qgraph)


def test_supported_answer_has_full_fidelity():
    out = GroundingDetector().detect(_item(apple_claim("1976")))
    assert out.details["EG"] == pytest.approx(1.0)
    assert out.details["RP"] == pytest.approx(1.0)
    assert out.score == pytest.approx(0.0)


def test_eg_rp_cfi_numbers_on_hand_built_pair():
    # Apple (grounded), 1999 (number clash), Steve Jobs (grounded): EG = 2/3.
    # (Apple, be founded in, 1999) unsupported, (Apple, be founded by, Steve Jobs) supported: RP = 1/2.
    out = GroundingDetector(alpha=0.7).detect(_item(apple_claim("1999")))
    assert out.details["EG"] == pytest.approx(2 / 3)
    assert out.details["RP"] == pytest.approx(0.5)
    assert out.details["CFI"] == pytest.approx(0.7 * 2 / 3 + 0.3 * 0.5)
    assert out.score == pytest.approx(1 - out.details["CFI"])
    assert out.details["triple_support"] == [0.0, 1.0]


def test_number_clash_is_not_grounded_and_points_to_context_value():
    out = GroundingDetector().detect(_item(apple_claim("1999")))
    sup = {ns.node_id: ns for ns in out.node_support}
    assert sup["-1:21"].support == 0.0
    assert sup["-1:21"].evidence == "1976"
    assert sup["-1:21"].evidence_span is not None and sup["-1:21"].evidence_span.source == 0
    assert sup["-1:0"].support == 1.0


def test_years_never_ground_on_other_years_even_with_similar_embeddings():
    enc = FakeEncoder(groups=[("1999", "2004", "1976")])  # the encoder thinks they are equal
    out = GroundingDetector().detect(_item(apple_claim("2004"), enc=enc))
    assert {ns.node_id: ns.support for ns in out.node_support}["-1:21"] == 0.0


def test_formatted_numbers_ground():
    ctx_text = "The fund raised 1,000 dollars."
    c = node("0:16", "1,000 dollars", "MONEY", 0, 16)
    ctx = KnowledgeGraph(nodes=(c,), texts=(ctx_text,))
    claim = KnowledgeGraph(nodes=(node("-1:0", "1000 dollars", "MONEY"),), texts=("1000 dollars",))
    out = GroundingDetector().detect(_item(claim, ctx=ctx))
    assert out.node_support[0].support == 1.0


def test_invented_entity_is_ungrounded_and_question_entities_are_grounded():
    claim = apple_claim("1976", founder="Tom Hanks")
    out = GroundingDetector().detect(_item(claim))
    assert {ns.node_id: ns.support for ns in out.node_support}["-1:29"] < 0.5
    qgraph = KnowledgeGraph(nodes=(node("-2:4", "Tom Hanks", "PERSON", -2, 4),), texts=("Did Tom Hanks found Apple?",))
    out_q = GroundingDetector().detect(_item(claim, "Did Tom Hanks found Apple?", qgraph))
    assert {ns.node_id: ns.support for ns in out_q.node_support}["-1:29"] == 1.0
    assert out_q.score < out.score


def test_synonyms_ground_by_embedding():
    enc = FakeEncoder(groups=[("apple inc", "apple")])
    claim = KnowledgeGraph(nodes=(node("-1:0", "Apple Inc", "ORG"),), texts=("Apple Inc",))
    out = GroundingDetector().detect(_item(claim, enc=enc))
    assert out.node_support[0].support == 1.0


def test_no_triples_means_rp_equals_eg():
    claim = KnowledgeGraph(nodes=(node("-1:0", "Apple", "ORG"), node("-1:6", "Microsoft", "ORG", -1, 6)),
                           texts=("Apple Microsoft",))
    out = GroundingDetector().detect(_item(claim))
    assert out.details["RP"] == pytest.approx(out.details["EG"]) == pytest.approx(0.5)


def test_context_without_triples_uses_node_grounding():
    ctx = KnowledgeGraph(nodes=apple_context().nodes, texts=(CONTEXT_TEXT,))
    out = GroundingDetector().detect(_item(apple_claim("1976"), ctx=ctx))
    assert out.details["RP"] == pytest.approx(1.0)


def test_polar_answer_gets_no_graph_support():
    # a bare "Yes" asserts nothing the graph can confirm: the verifier alone can support it (issue 30:
    # a content-free "No." to a "when" question must not pass on the graph signals of the default)
    claim = KnowledgeGraph(nodes=(node("-1:0", "Yes", "TOKEN"),), texts=("Yes",))
    out = GroundingDetector().detect(_item(claim))
    assert out.score == pytest.approx(1.0) and out.details["no_content"] is True


def test_entity_detector_ignores_generic_nouns():
    claim = KnowledgeGraph(
        nodes=(node("-1:0", "Tom Hanks", "PERSON"), node("-1:10", "great fun", "NOUN", -1, 10)),
        triples=(), texts=("Tom Hanks great fun",),
    )
    out = EntityGroundingDetector().detect(_item(claim))
    assert out.score == pytest.approx(1.0)
    assert out.details["entities"] == 1


def test_soft_mapping_and_parameters():
    assert soft(0.4, 0.4, 0.8) == 0.0 and soft(0.9, 0.4, 0.8) == 1.0
    assert float(soft(0.6, 0.4, 0.8)) == pytest.approx(0.5)
    with pytest.raises(ValueError):
        GroundingDetector(alpha=1.5)
    with pytest.raises(ValueError):
        GroundingDetector(low=0.9, threshold=0.5)


def test_triple_direction_does_not_matter():
    ctx = apple_context()
    a, s = ctx.nodes[0], ctx.nodes[2]
    rev = KnowledgeGraph(nodes=(node("-1:0", "Steve Jobs", "PERSON"), node("-1:20", "Apple", "ORG", -1, 20)),
                         texts=("Steve Jobs founded Apple",))
    rev = rev.model_copy(update={"triples": (Triple(subject=rev.nodes[0], relation="be founded by", object=rev.nodes[1]),)})
    out = GroundingDetector().detect(_item(rev))
    assert out.details["RP"] == pytest.approx(1.0)
    assert a.label == "apple" and s.label == "steve jobs"
