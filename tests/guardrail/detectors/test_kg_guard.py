"""KG-Guard: augmented graph, dialogue path parsing, shipped weights, detector behaviour."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from guardrail.detectors import AlignmentInput, build_detector
from guardrail.detectors.kg_guard_graph import EDGE_TYPES, SUPPORT_FEATURES, build_augmented_graph
from guardrail.errors import DetectorError
from guardrail.extract.given import graph_from_triples
from guardrail.models.kg_guard_network import MODEL_DIR, load_model
from guardrail.types import KnowledgeGraph, Node, Span, Triple
from training.kg_guard_paths import parse_kg_paths

pytest.importorskip("torch_geometric")


class _HashEncoder:
    """Deterministic unit vectors per text (no model): equal texts -> cosine 1."""

    def encode(self, texts):
        out = np.zeros((len(texts), 384), dtype=np.float32)
        for i, t in enumerate(texts):
            rng = np.random.default_rng(abs(hash(t)) % (2**32))
            v = rng.standard_normal(384).astype(np.float32)
            out[i] = v / np.linalg.norm(v)
        return out


def _claim() -> KnowledgeGraph:
    a = Node(id="a:0", text="Apple", label="apple", kind="ORG", span=Span(start=0, end=5))
    b = Node(id="a:21", text="1999", label="1999", kind="DATE", span=Span(start=21, end=25))
    return KnowledgeGraph(nodes=(a, b), triples=(Triple(subject=a, relation="found in", object=b),),
                          texts=("Apple was founded in 1999.",))


def test_parse_kg_paths_splits_glued_hops() -> None:
    text = ("Iron Man is starring Robert Downey Jr.Robert Downey Jr. starred in Zodiac (Crime Fiction Film)"
            "Zodiac (Crime Fiction Film) is starring Jake Gyllenhaal. Michael Jackson : `Award Won`: Grammy")
    assert parse_kg_paths(text) == [
        ("Iron Man", "is starring", "Robert Downey Jr."),
        ("Robert Downey Jr.", "starred in", "Zodiac (Crime Fiction Film)"),
        ("Zodiac (Crime Fiction Film)", "is starring", "Jake Gyllenhaal"),
        ("Michael Jackson", "Award Won", "Grammy"),
    ]
    assert parse_kg_paths("no relation phrase here") == []


def test_augmented_graph_has_marks_question_node_and_alignment_edges() -> None:
    ctx = graph_from_triples([("Apple", "founded in", "1976"), ("Apple", "founded by", "Steve Jobs")])
    g = build_augmented_graph(_claim(), ctx, _HashEncoder(), question="When was Apple founded?",
                              contexts=["Apple founded in 1976.", "Apple founded by Steve Jobs."])
    n_ctx = len(g.context_ids)
    assert g.num_nodes == n_ctx + 2 + 1  # context nodes, two answer nodes, the virtual question node
    assert g.answer_mark.tolist() == [0] * n_ctx + [1, 1, 0]
    assert g.is_question.tolist() == [0] * (n_ctx + 2) + [1]
    apple_row = g.context_ids.index("0:t0")
    assert g.topic_mark[apple_row] == 1 and g.topic_mark.sum() == 1  # "Apple" is named in the question
    types = [EDGE_TYPES[t] for t in g.edge_type]
    q = g.num_nodes - 1
    assert {(int(s), int(d)) for s, d, t in zip(*g.edge_index, types) if t == "question_to_topic"} == {(q, apple_row)}
    align = [(int(s), int(d), float(c)) for s, d, t, c in zip(*g.edge_index, types, g.edge_cos) if t == "align_to_answer"]
    assert {d for _, d, _ in align} == {n_ctx, n_ctx + 1}  # every answer node gets alignment edges
    assert (apple_row, n_ctx, pytest.approx(1.0)) in align  # "apple" aligns with the identical context label
    assert types.count("context") == 2 and types.count("claim") == 1
    assert g.rel_emb.shape[0] == 1 + 3  # zero row + "founded in", "founded by" (context), "found in" (claim)
    sup = dict(zip(SUPPORT_FEATURES, g.support[n_ctx + 1]))  # the node "1999"
    assert sup["has_number"] == 1.0 and sup["numbers_grounded"] == 0.0 and sup["text_in_context"] == 0.0
    assert g.support[:n_ctx].sum() == 0.0 and g.support[-1].sum() == 0.0


def test_augmented_graph_without_question_or_answer_nodes() -> None:
    ctx = graph_from_triples([("Apple", "founded in", "1976")])
    g = build_augmented_graph(KnowledgeGraph(), ctx, _HashEncoder())
    assert len(g.answer_index) == 0 and g.topic_mark.sum() == 0 and not np.any(g.question_emb)


def test_corrupted_weights_raise_detector_error(tmp_path: Path) -> None:
    bad = tmp_path / "kg_guard"
    shutil.copytree(MODEL_DIR, bad)
    data = bytearray((bad / "model.safetensors").read_bytes())
    data[-1] ^= 0xFF
    (bad / "model.safetensors").write_bytes(bytes(data))
    with pytest.raises(DetectorError, match="corrupted"):
        load_model(bad)
    (bad / "model.safetensors").unlink()
    with pytest.raises(DetectorError, match="not found"):
        load_model(bad)


def test_shipped_weights_load_and_match_hash() -> None:
    net, cfg = load_model()
    assert cfg["support_dim"] == len(cfg["support_features"])
    assert 0.0 < cfg["threshold"] < 1.0
    assert sum(p.numel() for p in net.parameters()) < 2_000_000
    assert (MODEL_DIR / "MODEL_CARD.md").is_file()


@pytest.mark.slow
def test_swapped_entity_gets_the_highest_p() -> None:
    from guardrail import Guard

    guard = Guard()
    det = build_detector("kg_guard")
    context = ["Apple was founded by Steve Jobs and Steve Wozniak in Cupertino in 1976. "
               "Microsoft was founded by Bill Gates in Albuquerque."]
    answer = "Apple was founded by Bill Gates in Cupertino in 1976."
    claim = guard.extractor.extract(answer, source=-1)
    item = AlignmentInput(answer, tuple(context), "Who founded Apple?", claim, guard.context_graph(context),
                          guard.encoder)
    out = det.detect(item)
    p = {nid: v["p"] for nid, v in out.details["nodes"].items()}
    worst = max(p, key=p.get)
    assert claim.node(worst).text == "Bill Gates"
    assert out.score == pytest.approx(max(p.values()), abs=1e-4)  # details round p to 4 places
    faithful = "Apple was founded by Steve Jobs in Cupertino in 1976."
    c2 = guard.extractor.extract(faithful, source=-1)
    out2 = det.detect(AlignmentInput(faithful, tuple(context), "Who founded Apple?", c2,
                                     guard.context_graph(context), guard.encoder))
    assert out2.score < out.score


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason=(
    "known weakness of the shipped weights: on a 3-triple graph context both answers get p ~0.82-0.84 "
    "(benchmarks/results/kg_guard.md has the measured graph-context numbers)"))
def test_guard_with_kg_guard_alone_on_a_graph_context() -> None:
    from guardrail import Guard
    from guardrail.config import GuardConfig

    guard = Guard(GuardConfig(name="kgg", detectors=["kg_guard"], aggregation="max", threshold=0.5))
    triples = [("Iron Man", "is starring", "Robert Downey Jr."), ("Robert Downey Jr.", "starred in", "Zodiac"),
               ("Zodiac", "is starring", "Jake Gyllenhaal")]
    bad = guard.check("Zodiac is starring Tom Hanks.", triples, "Who else was in Zodiac?")
    good = guard.check("Zodiac is starring Jake Gyllenhaal.", triples, "Who else was in Zodiac?")
    assert not bad.abstained and not good.abstained
    assert bad.detector_scores["kg_guard"] > good.detector_scores["kg_guard"]
    assert not bad.passed and "Tom Hanks" in [n.text for n in bad.flagged_nodes]
