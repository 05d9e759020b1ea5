"""Issue 20, item 5: only an answer that declines as a whole is declined; a hedged sentence
that states something is always scored, and the verifier reads it without the hedge."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from _fakes import FakeEncoder, apple_context

from guardrail.detectors.base import AlignmentInput
from guardrail.detectors.unscored import non_answer as _non_answer
from guardrail.detectors.verifier import VERBATIM_P, VerifierDetector
from guardrail.types import KnowledgeGraph

CONTEXT = "Apple was founded in 1976 by Steve Jobs and Steve Wozniak."
HEDGES = ("i'm not sure", "i think", "maybe", "probably", "i believe")


class HedgeFooledVerifier:
    """A stand-in cross-encoder with the weakness the attack used: a claim supported when its
    wrong year is absent, and any claim that opens with a hedge supported too."""

    def score(self, evidence: Sequence[str], claims: Sequence[str]) -> np.ndarray:
        out = []
        for c in claims:
            low = c.lower()
            fooled = low.startswith(HEDGES)
            out.append(0.9 if fooled or not any(w in low for w in ("1999", "first", "bill")) else 0.1)
        return np.array(out)


def _score(answer: str) -> float:
    item = AlignmentInput(answer, (CONTEXT,), "When was Apple founded?",
                          KnowledgeGraph(texts=(answer,)), apple_context(), FakeEncoder())
    return VerifierDetector(HedgeFooledVerifier()).detect(item).score


@pytest.mark.parametrize("sentence", [
    "No, I don't think he was the first.",
    "I don't think he was the first one.",
    "I'm not sure, but I think Apple was founded in 1999.",
    "Maybe Bill founded it.",
])
def test_a_hedged_sentence_is_not_a_non_answer(sentence: str):
    assert not _non_answer(sentence)


@pytest.mark.parametrize("sentence", ["I don't know.", "Sorry, I'm not sure.", "I cannot answer that.",
                                      "I'm not sure about that.", "I have no idea."])
def test_plain_declines_are_non_answers(sentence: str):
    assert _non_answer(sentence)


@pytest.mark.parametrize("wrong", [
    "No, I don't think he was the first.",
    "I'm not sure, but I think Apple was founded in 1999.",
    "I think Apple was founded in 1999.",
    "Probably Apple was founded in 1999.",
])
def test_a_hedged_wrong_sentence_after_a_supported_one_is_scored(wrong: str):
    assert _score("Apple was founded in 1976. " + wrong) == pytest.approx(0.9)


def test_a_decline_next_to_a_claim_is_left_out_and_a_whole_decline_fails():
    # the claim is the context's words (VERBATIM_P), the stand-in's 0.9 otherwise
    assert _score("I'm not sure. Apple was founded in 1976.") == pytest.approx(1 - VERBATIM_P)
    assert _score("I'm not sure. Apple was set up in 1976.") == pytest.approx(0.1)
    assert _score("I don't know. Sorry, I'm not sure.") == pytest.approx(1.0)
