"""Evidence views (issue 23, item 3): the texts each view gives, and the verifier averaging them."""

from __future__ import annotations

import numpy as np
import pytest

from guardrail.align.claims import Evidence
from guardrail.align.views import EVIDENCE_VIEWS, view_texts
from guardrail.detectors.verifier import VerifierDetector, _Unit, _view_scores
from guardrail.errors import InvalidInputError

SENTS = ["A founded B in 1990.", "B makes lamps.", "It employs 40 people.", "C is in Oslo.", "C sells tea."]
SOURCES = [0, 0, 0, 1, 1]


def test_each_view_text() -> None:
    ev = Evidence(text="A founded B in 1990. B makes lamps. It employs 40 people.", units=(0, 1, 2), best=2)
    passage, sentence, window = view_texts(ev, SENTS, EVIDENCE_VIEWS, SOURCES)
    assert passage == (ev.text,)
    assert sentence == ("B employs 40 people.",)  # its opening "It" resolved (test_views_coref.py)
    # the window stops at the passage boundary: "C is in Oslo." belongs to another passage
    assert window == ("B makes lamps. It employs 40 people.",)


def test_views_follow_the_order_asked_and_fall_back_without_a_best_sentence() -> None:
    ev = Evidence(text="B makes lamps.", units=(1,), best=1)
    assert view_texts(ev, SENTS, ("window", "passage")) == [("A founded B in 1990. B makes lamps. It employs 40 people.",),
                                                           ("B makes lamps.",)]
    none = Evidence(text="", units=(), best=-1)
    assert view_texts(none, SENTS, EVIDENCE_VIEWS) == [("",), ("",), ("",)]


def test_sentence_view_adds_the_sentence_closest_in_meaning_only_when_it_differs() -> None:
    ev = Evidence(text="B makes lamps.", units=(1,), best=1)
    assert view_texts(ev, SENTS, ("sentence", "window"), SOURCES, closest=0)[0] == ("B makes lamps.",
                                                                                   "A founded B in 1990.")
    assert view_texts(ev, SENTS, ("sentence",), SOURCES, closest=1) == [("B makes lamps.",)]


class _ByEvidence:
    """Scripted verifier (stands in so the arithmetic is exact): p is fixed per evidence text."""

    def __init__(self, table: dict[str, float]) -> None:
        self.table = table

    def score(self, evidence: list[str], claims: list[str]) -> np.ndarray:
        return np.array([self.table[e] for e in evidence])


def test_verifier_averages_its_views_and_keeps_the_first() -> None:
    units = [_Unit(0, 5, "claim one"), _Unit(6, 11, "claim two")]
    texts = [[("wide",), ("one", "alt"), ("three",)], [("wide2",), ("one2",), ("three2",)]]
    fake = _ByEvidence({"wide": 0.9, "one": 0.3, "alt": 0.9, "three": 0.6, "wide2": 0.2, "one2": 0.2, "three2": 0.2})
    mean, first = _view_scores(fake, units, texts)
    assert mean == pytest.approx([0.8, 0.2])  # the sentence view reads its better candidate (0.9)
    assert first == pytest.approx([0.9, 0.2])


@pytest.mark.parametrize("bad", ["", "sentence+passage", "passage+passage", "all", 3])
def test_unknown_views_raise(bad: object) -> None:
    with pytest.raises(InvalidInputError):
        VerifierDetector(evidence_views=bad)  # type: ignore[arg-type]


def test_every_combination_in_order_is_accepted() -> None:
    for views in ("passage", "sentence", "window", "passage+sentence", "sentence+window", "passage+sentence+window"):
        assert VerifierDetector(evidence_views=views).evidence_views == views


def test_closest_sentence_in_meaning_with_the_real_encoder() -> None:
    """Real MiniLM: "CEO" shares no word with "chief executive officer", the encoder knows them."""
    from guardrail.align.encoder import shared_encoder
    from guardrail.align.views import closest_sentences

    sents = ["Norvik Robotics is based in Oslo and builds warehouse robots.",
             "Its chief executive officer is Ingrid Halvorsen.",
             "The company was founded in 2011."]
    claim = "The CEO of Norvik Robotics is Ingrid Halvorsen."
    ev = Evidence(text=" ".join(sents), units=(0, 1, 2), best=0)
    assert closest_sentences([claim], [ev], sents, [0, 0, 0], shared_encoder()) == [1]
    none = Evidence(text="", units=(), best=-1)
    assert closest_sentences([claim], [none], sents, None, shared_encoder()) == [-1]


def test_sentence_by_meaning_is_a_checked_bool_and_off_by_default() -> None:
    assert VerifierDetector().sentence_by_meaning is False
    assert VerifierDetector(sentence_by_meaning=True).sentence_by_meaning is True
    with pytest.raises(InvalidInputError):
        VerifierDetector(sentence_by_meaning="yes")  # type: ignore[arg-type]
