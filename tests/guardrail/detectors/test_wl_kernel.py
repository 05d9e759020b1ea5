"""WL subtree-kernel detector (KEA Explain)."""

from __future__ import annotations

import pytest
from _fakes import CONTEXT_TEXT, FakeEncoder, apple_claim, apple_context, node

from guardrail.detectors import build_detector
from guardrail.detectors.base import AlignmentInput
from guardrail.detectors.wl_kernel import WLKernelDetector, to_grakel_input, wl_similarity
from guardrail.types import KnowledgeGraph


def _clusters(*graphs: KnowledgeGraph) -> dict[str, int]:
    labels = [n.label for g in graphs for n in g.nodes] + ["rel::" + t.relation for g in graphs for t in g.triples]
    return {lab: i for i, lab in enumerate(dict.fromkeys(labels))}


def test_identical_graphs_have_similarity_one():
    g = apple_context()
    assert wl_similarity(g, g, _clusters(g)) == pytest.approx(1.0)


def test_changed_object_lowers_similarity():
    ctx, claim = apple_context(), apple_claim("1999")
    sim = wl_similarity(claim, ctx, _clusters(claim, ctx))
    assert 0.0 < sim < 1.0


def test_empty_graph_similarity_is_zero():
    assert wl_similarity(KnowledgeGraph(), apple_context(), {}) == 0.0


def test_relations_become_intermediate_vertices():
    g = apple_context()
    adj, labels = to_grakel_input(g, _clusters(g))
    assert len(adj) == len(g.nodes) + len(g.triples)
    rel_vertices = [v for v, lab in labels.items() if lab.startswith("r")]
    assert len(rel_vertices) == 2
    assert all(len(adj[v]) == 1 for v in rel_vertices)


def test_detector_scores_supported_below_contradicted():
    enc = FakeEncoder()
    ctx = apple_context()
    det = WLKernelDetector()
    scores = {}
    for year in ("1976", "1999"):
        claim = apple_claim(year)
        item = AlignmentInput(claim.texts[0], (CONTEXT_TEXT,), None, claim, ctx, enc)
        out = det.detect(item)
        assert 0.0 <= out.score <= 1.0
        assert {ns.node_id for ns in out.node_support} == {n.id for n in claim.nodes}
        scores[year] = out
    assert scores["1976"].score == pytest.approx(0.0)
    assert scores["1999"].score > 0.3
    year_node = {ns.node_id: ns for ns in scores["1999"].node_support}["-1:21"]
    assert year_node.support < 0.5


def test_detector_handles_claim_without_triples():
    enc = FakeEncoder()
    claim = KnowledgeGraph(nodes=(node("-1:0", "Apple", "ORG"),), texts=("Apple",))
    item = AlignmentInput("Apple", (CONTEXT_TEXT,), None, claim, apple_context(), enc)
    out = WLKernelDetector().detect(item)
    assert out.score == pytest.approx(0.0)


def test_bad_parameters_and_registry():
    with pytest.raises(ValueError):
        WLKernelDetector(iterations=0)
    assert build_detector("wl_kernel", iterations=3).iterations == 3


@pytest.mark.slow
def test_real_encoder_supported_answer_scores_lower():
    from guardrail.align.encoder import shared_encoder

    enc = shared_encoder()
    ctx = apple_context()
    det = WLKernelDetector()
    s = [det.detect(AlignmentInput(c.texts[0], (CONTEXT_TEXT,), None, c, ctx, enc)).score
         for c in (apple_claim("1976"), apple_claim("1999", "Bill Gates"))]
    assert s[0] < s[1]
