"""Lexical and sentence support detectors."""

from __future__ import annotations

import pytest
from _fakes import CONTEXT_TEXT, FakeEncoder, apple_claim, apple_context, node

from guardrail.detectors.base import AlignmentInput
from guardrail.detectors.support import (
    LexicalSupportDetector,
    SentenceSupportDetector,
)
from guardrail.text.lexical import TextIndex, numbers_in, shortlist, stem
from guardrail.types import KnowledgeGraph


def _item(answer: str, question: str | None = None, enc: FakeEncoder | None = None) -> AlignmentInput:
    claim = apple_claim("1976")
    claim = claim.model_copy(update={"texts": (answer,)})
    return AlignmentInput(answer, (CONTEXT_TEXT,), question, claim, apple_context(), enc or FakeEncoder())


def test_numbers_and_stems():
    assert numbers_in("three times since 1976, for $1,000.50") == {"3", "1976", "1000.5"}
    assert numbers_in("one of them", words=False) == set()
    assert stem("founded") == "found" and stem("Apple's") == "apple"
    assert shortlist(["apple"], ["banana", "apples", "pear"], 1) == [1]


def test_text_index():
    idx = TextIndex([CONTEXT_TEXT])
    assert idx.has_phrase("steve jobs") and not idx.has_phrase("steve job")
    assert idx.token_coverage("Steve Jobs founded Microsoft") == pytest.approx(0.75)
    assert "1976" in idx.numbers


def test_lexical_supported_vs_invented():
    det = LexicalSupportDetector()
    good = det.detect(_item("Apple was founded in 1976 by Steve Jobs."))
    bad = det.detect(_item("Apple was founded in 1999 by Tom Hanks."))
    assert good.score == pytest.approx(0.0)
    assert bad.score > 0.5
    assert det.detect(_item("Tom Hanks", question="Who is Tom Hanks?")).score == 0.0


def test_worst_sentence_is_not_averaged_away():
    text = "Apple was founded in 1976. Steve Jobs founded Apple. Tom Hanks sang opera."
    assert LexicalSupportDetector(reduce="worst_sentence").detect(_item(text)).score > LexicalSupportDetector().detect(_item(text)).score


def test_sentence_detector_identical_sentence_is_supported():
    det = SentenceSupportDetector()
    out = det.detect(_item(CONTEXT_TEXT))
    assert out.score == pytest.approx(0.0, abs=1e-6)
    assert all(ns.evidence == CONTEXT_TEXT for ns in out.node_support)
    assert det.detect(_item("Bananas are yellow.")).score == pytest.approx(1.0)
    with pytest.raises(ValueError):
        SentenceSupportDetector(low=0.9, high=0.1)


def test_node_support_covers_every_claim_node():
    out = LexicalSupportDetector().detect(_item("Apple was founded in 1976 by Steve Jobs."))
    assert {ns.node_id for ns in out.node_support} == {n.id for n in apple_claim("1976").nodes}
    empty = KnowledgeGraph(nodes=(node("-1:0", "Yes", "TOKEN"),), texts=("Yes",))
    item = AlignmentInput("Yes", (CONTEXT_TEXT,), None, empty, apple_context(), FakeEncoder())
    assert LexicalSupportDetector().detect(item).score == 0.0
