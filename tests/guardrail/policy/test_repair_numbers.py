"""Number words in the evidence repair (issue 25): a flagged number written in words in the
answer ("eighteen staff") or in the evidence ("fourteen") is recognised and replaced, in the
answer's style (digits stay digits; a number in words takes the evidence's form).

The fast tests use the real value normalisation (quantulum3) on hand-made verdicts; the
loop tests (``slow``) use the real shipped guard and a reprompt function that fails the
test if it is called: the repair needs no LLM.
"""

from __future__ import annotations

import pytest

from guardrail.policy.acceptance import check_corrections
from guardrail.policy.feedback import FeedbackItem, feedback_items
from guardrail.policy.numbers import digits_for, number_value, numerals, written_like
from guardrail.policy.refine import RefinementRequest, Refiner
from guardrail.policy.repair import evidence_repair
from guardrail.types import FlaggedNode, GuardResult, Span

DIGITS_CTX = ["The bakery in Leeds employs 14 staff and opened in 2009."]
WORDS_CTX = ["The bakery in Leeds employs fourteen staff and opened in 2009."]


def _flagged(answer: str, wrong: str) -> GuardResult:
    i = answer.index(wrong)
    node = FlaggedNode(node_id=f"a:{i}", text=wrong, span=Span(start=i, end=i + len(wrong)), support=0.1)
    return GuardResult(passed=False, score=0.7, threshold=0.5, answer=answer, flagged_nodes=(node,))


def test_numerals_read_digits_and_words_without_their_unit() -> None:
    text = "about forty metres, eighteen staff, 1,200 visitors and twenty-one rooms"
    got = [(text[n.start:n.end], n.value, n.words) for n in numerals(text)]
    assert got == [("forty", 40.0, True), ("eighteen", 18.0, True), ("1,200", 1200.0, False),
                   ("twenty-one", 21.0, True)]
    assert numerals("one of the founders") == [] and numerals("a dozen eggs") == []
    assert [n.value for n in numerals("up to seven months a year")] == [7.0]  # "a year" is no number word
    assert number_value("fourteen") == 14.0 and number_value("14 staff") is None
    assert digits_for(1500.0, like="1,200") == "1,500" and digits_for(2.5) == "2.5"


def test_written_like_keeps_digits_and_takes_the_evidence_form_for_words() -> None:
    def w(old: str, new: str) -> str:
        return written_like(numerals(old)[0], old, numerals(new)[0], new)

    assert w("18", "fourteen") == "14"
    assert w("eighteen", "14") == "14"
    assert w("eighteen", "fourteen") == "fourteen"


@pytest.mark.parametrize(("answer", "ctx", "value", "repaired"), [
    ("The bakery in Leeds employs eighteen staff and opened in 2009.", DIGITS_CTX, "14",
     "The bakery in Leeds employs 14 staff and opened in 2009."),
    ("The bakery in Leeds employs 18 staff and opened in 2009.", WORDS_CTX, "fourteen",
     "The bakery in Leeds employs 14 staff and opened in 2009."),
    ("The bakery in Leeds employs eighteen staff and opened in 2009.", WORDS_CTX, "fourteen",
     "The bakery in Leeds employs fourteen staff and opened in 2009."),
])
def test_a_number_in_words_is_a_value_error_and_is_repaired(answer: str, ctx: list[str], value: str,
                                                             repaired: str) -> None:
    wrong = "18" if "18" in answer else "eighteen"
    (item,) = feedback_items(_flagged(answer, wrong), ctx)
    assert item.kind == "value" and item.values == (value,)  # before: "added", no value
    out = evidence_repair(answer, [item])
    assert out is not None and out[0] == repaired
    assert f'"{wrong}" -> "{repaired.split()[5]}"' in out[1]  # the note names what was written


def test_a_value_the_claim_states_in_words_is_not_a_candidate() -> None:
    answer = "The bakery employs fourteen staff and opened in 2019."
    (item,) = feedback_items(_flagged(answer, "2019"), ["The bakery employs 14 staff and opened in 2009."])
    assert item.kind == "value" and item.values == ("2009",)  # not ambiguous with the "14" it states as "fourteen"


def test_a_unit_in_words_keeps_the_answer_style() -> None:
    answer = "The glacier advanced roughly 410 metres last winter."
    (item,) = feedback_items(_flagged(answer, "roughly 410 metres"), ["The glacier advanced about forty metres."])
    out = evidence_repair(answer, [item])
    assert out is not None and out[0] == "The glacier advanced roughly 40 metres last winter."


def test_an_llm_correction_in_digits_of_a_number_in_words_is_accepted() -> None:
    answer = "The bakery in Leeds employs 18 staff and opened in 2009."
    items = feedback_items(_flagged(answer, "18"), WORDS_CTX)
    assert check_corrections(items, answer, answer.replace("18", "14")).accepted
    assert not check_corrections(items, answer, answer.replace("18", "16")).accepted


def _no_llm(req: RefinementRequest) -> str:
    raise AssertionError("the repair needs no LLM call")


@pytest.mark.slow
@pytest.mark.parametrize(("answer", "ctx", "right"), [
    ("The bakery in Leeds employs eighteen staff and opened in 2009.", DIGITS_CTX,
     "The bakery in Leeds employs 14 staff and opened in 2009."),
    ("The bakery in Leeds employs 18 staff and opened in 2009.", WORDS_CTX,
     "The bakery in Leeds employs 14 staff and opened in 2009."),
])
def test_the_real_guard_passes_the_repaired_number(guard, answer: str, ctx: list[str], right: str) -> None:
    out = Refiner(guard, max_iterations=3).refine(answer, ctx, None, _no_llm)
    assert out.action == "refined" and out.answer == right and out.result.passed
    assert [h.round for h in out.result.history] == [0, 1] and out.stop_reason == "passed"


def test_a_year_replaces_the_year_of_a_date() -> None:
    answer = "The licence runs from 1 January 2026."
    item = FeedbackItem(answer, (0, len(answer)), ("1 January 2026",), "It runs from 1 January 2025.", "value",
                        ("2025",))
    out = evidence_repair(answer, [item])
    assert out is not None and out[0] == "The licence runs from 1 January 2025."
