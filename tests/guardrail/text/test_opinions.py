"""The speaker's own evaluation is no claim (``guardrail.text.opinions``), and a faithful answer
that closes with one passes the real guard."""

from __future__ import annotations

import pytest

from guardrail import Guard
from guardrail.text.opinions import opinion_sentence


@pytest.mark.parametrize("sentence", [
    "Personally, I think that's a really good option.",
    "Honestly, that sounds great to me.",
    "That seems fair to me.",
    "I love how simple that is.",
    "I find that really helpful.",
    "In my opinion, it\u2019s a sensible approach.",
    "Pretty cool, right?", "Fantastic, isn't it?",
])
def test_an_evaluation_the_speaker_gives_as_their_own_is_an_opinion(sentence: str) -> None:
    assert opinion_sentence(sentence)


@pytest.mark.parametrize("sentence", [
    "It is very easy.",                                   # no speaker's mark: the answer to "Is it hard?"
    "I think the warranty is good for two years.",        # a number: a claim
    "I like Paris.",                                      # a name
    "Personally, I think the battery is a good size.",    # a content word of its own
    "That's not true.",                                   # a verdict on a claim, no evaluation
    "The hotel is great for families.",                   # a claim about the hotel
])
def test_a_sentence_with_anything_to_check_is_not(sentence: str) -> None:
    assert not opinion_sentence(sentence)


CONTEXT = ["Birchwood offers 16 weeks of fully paid parental leave to the primary caregiver and 6 weeks to the "
           "secondary caregiver. Employees must notify HR in writing at least 8 weeks before the leave starts."]
ANSWER = ("Birchwood gives the primary caregiver 16 weeks of fully paid parental leave. Employees must notify HR "
          "in writing at least 8 weeks before the leave starts.")


@pytest.mark.slow
@pytest.mark.parametrize("remark", ["Honestly, that sounds great to me.", "That seems fair to me.",
                                    "Personally, I think that's a really good option."])
def test_a_faithful_answer_closing_with_an_opinion_passes(guard: Guard, remark: str) -> None:
    """Before the rule each remark flagged the faithful answer it closed (p near 0 against the
    evidence; "That seems fair to me." was also read after the sentence before it, for its "That")."""
    assert guard.check(ANSWER, CONTEXT, log=False).passed
    assert guard.check(f"{ANSWER} {remark}", CONTEXT, log=False).passed
    assert not guard.check(f"{ANSWER.replace('8 weeks', '3 weeks')} {remark}", CONTEXT, log=False).passed
