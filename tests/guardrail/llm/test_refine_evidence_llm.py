"""Refinement with the real local model never ships a value from elsewhere in the context (issue 25).

The reported failure: a planted 1921 for Marie Curie's Chemistry prize (the context: 1911)
was "refined" to 1903, the year of her Physics prize, which the context also states, and
delivered as refined and passed. Whatever the model writes, the delivered answer must not
pass with 1903, and every round that wrote it must be rejected.
"""

from __future__ import annotations

import pytest

from guardrail.llm.client import LLMClient

pytestmark = [pytest.mark.slow, pytest.mark.llm]

CONTEXT = ["Marie Curie won the Nobel Prize in Physics in 1903, together with Pierre Curie and Henri "
           "Becquerel. In 1911 she won the Nobel Prize in Chemistry for the discovery of polonium and radium."]
QUESTION = "When did Marie Curie win the Nobel Prize in Chemistry?"
PLANTED = "Marie Curie won the Nobel Prize in Chemistry in 1921 for the discovery of polonium and radium."


def test_a_value_named_elsewhere_in_the_context_is_not_delivered_as_passed(llm_url: str) -> None:
    from guardrail import Guard
    from guardrail.policy.refine import Refiner, enforce

    guard = Guard()
    assert not guard.check(PLANTED, CONTEXT, QUESTION).passed
    client = LLMClient(llm_url, max_tokens=96, timeout=900)
    out = enforce(guard, "refine", PLANTED, CONTEXT, QUESTION, reprompt=client.reprompt,
                  refiner=Refiner(guard, max_iterations=3, time_budget=None), id="curie")
    hist = out.result.history
    answers = [h.answer for h in hist]
    assert not (out.result.passed and "1903" in out.answer), answers
    assert all(h.round in out.rejected_rounds for h in hist[1:] if "1903" in h.answer and "1911" not in h.answer), (
        answers, out.rejected_rounds)
    if out.action == "refined":
        assert "1911" in out.answer and "1921" not in out.answer, answers
    else:
        assert "1921" not in out.answer or not out.result.passed, answers
