"""The verifier's nothing-to-check rules (``guardrail.detectors.unscored``): which sentences leave the score."""

from __future__ import annotations

import numpy as np
import pytest

from guardrail.detectors.unscored import framing, mask_scores

EVIDENCE = "Norvik Robotics was founded in 2011 in Gothenburg."


def _mask(texts: list[str], p: list[float]) -> list[float]:
    return mask_scores(texts, texts, [EVIDENCE] * len(texts), np.array(p)).round(3).tolist()


@pytest.mark.parametrize("aside", [
    "Great question!",                                                  # pleasantry
    "As an AI assistant, I can only go by the documents you shared.",   # about the assistant
    "Here is a summary of the relevant information.",                   # about the answer
    "Would you like to know more?",                                     # a question to the user
    "Sadly no.",                                                        # a bare verdict
    "The context does not say how many of them are engineers.",         # what the context lacks
    "Honestly, that sounds great to me.",                               # the speaker's own view
])
def test_asides_leave_the_score_of_an_answer_that_states_something(aside):
    assert _mask([aside, "Norvik was founded in 2011."], [0.02, 0.9]) == [1.0, 0.9]


def test_framing_alone_is_not_flagged_and_a_decline_alone_is():
    assert _mask(["As an AI assistant, I can only go by the documents you shared."], [0.02]) == [1.0]
    assert _mask(["I don't know."], [0.9]) == [0.0]
    assert _mask(["Which model do you mean?"], [0.3]) == [0.3]  # a question, nothing else: scored
    assert _mask(["Would you like to know more?"], [0.3]) == [1.0]  # an offer of more help: a pleasantry
    assert _mask(["Personally, I think that's a good option."], [0.3]) == [0.3]  # an opinion alone: scored


def test_gibberish_gets_nothing():
    assert _mask(["qwertyuiop asdfghjkl", "Norvik was founded in 2011."], [0.9, 0.9]) == [0.0, 0.9]


@pytest.mark.parametrize("aside", ["Exactly!", "I agree.", "Impressive, right?", "Oh cool!", "lol"])
def test_an_aside_left_out_is_not_read_as_gibberish(aside):
    """A one-word reaction shares no word with the evidence and holds no function word: the
    gibberish rule zeroed it after the aside rule had left it out, and the answer it opened
    failed at score 1.0 ("Impressive, right? Some of those sarsens weigh about 25 tonnes ...")."""
    assert _mask([aside, "Norvik was founded in 2011."], [0.0, 0.9]) == [1.0, 0.9]


def test_framing_is_pleasantries_and_meta_sentences_only():
    assert framing("Let me know if you need anything else!")
    assert framing("Please verify with the original source for the latest details.")
    assert not framing("Norvik was founded in 2011.")
    assert not framing("I don't know.")
