"""The reported failure with the real guard (issue 25): the guard passes Curie's Chemistry
prize "corrected" from a planted 1921 to 1903 (her Physics prize, also in the context);
the refinement loop must not deliver it as passed. The model is a scripted stand-in
(replies played back in order) so the case is the same on every run; the real local
model is in ``tests/guardrail/llm/test_refine_evidence_llm.py``."""

from __future__ import annotations

import pytest
from _scripted import ScriptedLLM

from guardrail import Guard
from guardrail.policy.refine import Refiner, enforce

pytestmark = pytest.mark.slow

CONTEXT = ["Marie Curie won the Nobel Prize in Physics in 1903. In 1911 she won the Nobel Prize in Chemistry."]
QUESTION = "When did Marie Curie win the Nobel Prize in Chemistry?"
PLANTED = "Marie Curie won the Nobel Prize in Chemistry in 1921."
ELSEWHERE = "Marie Curie won the Nobel Prize in Chemistry in 1903."
RIGHT = "Marie Curie won the Nobel Prize in Chemistry in 1911."


def test_the_guard_alone_would_pass_the_elsewhere_value(guard: Guard) -> None:
    # why the acceptance check is needed: the whole-answer check does not catch it
    assert not guard.check(PLANTED, CONTEXT, QUESTION).passed
    assert guard.check(ELSEWHERE, CONTEXT, QUESTION).passed


def test_elsewhere_value_is_not_delivered_as_passed(guard: Guard) -> None:
    llm = ScriptedLLM(ELSEWHERE)
    out = enforce(guard, "refine", PLANTED, CONTEXT, QUESTION, reprompt=llm,
                  refiner=Refiner(guard, max_iterations=3, repair=False))
    assert out.action != "refined" and not out.result.passed and "1903" not in out.answer
    assert 1 in out.rejected_rounds
    first = llm.requests[0].feedback
    # a one-sentence answer to a question is answered anew: the feedback names the evidence and its value
    assert '"In 1911 she won the Nobel Prize in Chemistry."' in first and '"1911" in place of "1921"' in first


def test_the_evidence_value_is_accepted_after_a_rejected_round(guard: Guard) -> None:
    out = enforce(guard, "refine", PLANTED, CONTEXT, QUESTION, reprompt=ScriptedLLM(ELSEWHERE, RIGHT),
                  refiner=Refiner(guard, max_iterations=3, repair=False))
    assert out.action == "refined" and out.answer == RIGHT and out.result.passed
    assert out.rejected_rounds == (1,)
