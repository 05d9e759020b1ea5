"""Novelty detectors: n-grams of the answer that the context never contains."""

from __future__ import annotations

import math

import pytest

from guardrail.detectors import REGISTRY, build_detector
from guardrail.detectors.base import AlignmentInput
from guardrail.detectors.novelty import NoveltyDetector, tokens
from guardrail.errors import ConfigError
from guardrail.types import KnowledgeGraph, Node, Span

CTX = ("Apple was founded by Steve Jobs and Steve Wozniak in 1976 in Cupertino.",)


def _item(answer: str, question: str | None = None, nodes: tuple[Node, ...] = ()) -> AlignmentInput:
    g = KnowledgeGraph()
    return AlignmentInput(answer, CTX, question, KnowledgeGraph(nodes=nodes), g, encoder=None)  # type: ignore[arg-type]


def test_copied_answer_scores_zero_and_invented_one_high() -> None:
    det = NoveltyDetector(ngram=2)
    assert det.detect(_item("Apple was founded by Steve Jobs in 1976.")).score < 0.2
    assert det.detect(_item("Microsoft was started by Bill Gates in Seattle.")).score > 0.8


def test_question_is_not_evidence() -> None:
    det = NoveltyDetector(ngram=2)
    q = "Was Apple founded by Bill Gates in Seattle?"
    assert det.detect(_item("Apple was founded by Bill Gates in Seattle.", q)).score > 0.5


def test_count_mode_grows_with_unsupported_material() -> None:
    det = NoveltyDetector(ngram=1, mode="count", scale=5.0)
    one = det.detect(_item("Apple was founded by Steve Jobs in Paris.")).score
    many = det.detect(_item("Apple was founded by Steve Jobs in Paris with Gates, Ballmer and Allen.")).score
    assert one == pytest.approx(1 - math.exp(-1 / 5)) and many > one


def test_node_support_and_numbers() -> None:
    text = "Apple was founded in 1999."
    nodes = (Node(id="a:0", text="Apple", label="apple", span=Span(start=0, end=5)),
             Node(id="a:21", text="1999", label="1999", kind="DATE", span=Span(start=21, end=25)))
    out = NoveltyDetector(ngram=1).detect(_item(text, nodes=nodes))
    support = {s.node_id: s.support for s in out.node_support}
    assert support == {"a:0": 1.0, "a:21": 0.0}
    assert tokens("Founded, 1,976 times!") == ["found", "1976", "time"]


def test_polar_answer_asserts_nothing() -> None:
    assert NoveltyDetector(ngram=1).detect(_item("No.")).score == 0.0


@pytest.mark.parametrize("kwargs", [{"ngram": 4}, {"mode": "ratio"}, {"scale": 0}])
def test_bad_parameters(kwargs) -> None:
    with pytest.raises(ValueError):
        NoveltyDetector(**kwargs)
    with pytest.raises(ConfigError):
        build_detector("novelty", **kwargs)


def test_registered_variants_carry_their_names() -> None:
    for name in [n for n in REGISTRY if n.startswith("novelty_")]:
        assert build_detector(name).name == name
    with pytest.raises(ConfigError, match="unknown detector"):
        build_detector("novelty_quadgram")
