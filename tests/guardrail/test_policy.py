"""Policies on checked answers (results built directly: the policy logic is what is tested)."""

import pytest

from guardrail.errors import ConfigError, HallucinationError
from guardrail.policy.policies import DEFAULT_REFUSAL, Policy, apply_policy, filter_answer, parse_policy
from guardrail.types import FlaggedNode, GuardResult, Span

ANSWER = "Paris is the capital of France. It was founded in 1999 by Romans."


def _flagged(text: str) -> GuardResult:
    start = ANSWER.index(text)
    node = FlaggedNode(node_id="a", text=text, span=Span(start=start, end=start + len(text)), support=0.1)
    return GuardResult(passed=False, score=0.9, threshold=0.5, answer=ANSWER, flagged_nodes=(node,))


PASSED = GuardResult(passed=True, score=0.1, threshold=0.5, answer=ANSWER)


@pytest.mark.parametrize("name", ["annotate", "FILTER", " raise ", "refine"])
def test_parse_known(name):
    assert parse_policy(name).kind is Policy(name.strip().lower())


@pytest.mark.parametrize("bad", ["annotated", "custom", 3, None])
def test_parse_unknown_is_a_config_error_naming_it(bad):
    with pytest.raises(ConfigError) as info:
        parse_policy(bad)
    assert isinstance(info.value, ValueError)
    if isinstance(bad, str):
        assert repr(bad) in str(info.value) or "callable" in str(info.value)


def test_passed_answers_are_untouched_by_every_policy():
    for p in ("annotate", "filter", "raise", lambda a, r: "changed"):
        out = apply_policy(p, ANSWER, PASSED)
        assert out.answer == ANSWER and out.action == "passed"


def test_annotate_keeps_answer():
    out = apply_policy("annotate", ANSWER, _flagged("1999"))
    assert out.answer == ANSWER and out.action == "annotated" and out.result.flagged_nodes[0].text == "1999"


def test_filter_drops_only_the_flagged_sentence():
    out = apply_policy("filter", ANSWER, _flagged("1999"))
    assert out.answer == "Paris is the capital of France." and out.action == "filtered"
    assert out.original_answer == ANSWER


def test_filter_refuses_when_nothing_is_left():
    res = _flagged("Paris")
    res2 = res.model_copy(update={"flagged_nodes": res.flagged_nodes + _flagged("1999").flagged_nodes})
    out = apply_policy("filter", ANSWER, res2, refusal="No answer.")
    assert out.answer == "No answer." and out.action == "refused"


def test_filter_refuses_abstained():
    res = GuardResult(passed=False, score=0.5, threshold=0.5, abstained=True, abstain_reason="empty context")
    assert filter_answer(ANSWER, res) == (DEFAULT_REFUSAL, True)


def test_raise_carries_result_and_answer():
    with pytest.raises(HallucinationError) as info:
        apply_policy("raise", ANSWER, _flagged("1999"))
    assert info.value.answer == ANSWER and info.value.result.score == 0.9 and "1999" in str(info.value)


def test_custom_callable():
    out = apply_policy(lambda a, r: a + f" [unsupported: {r.flagged_nodes[0].text}]", ANSWER, _flagged("1999"))
    assert out.action == "custom" and out.answer.endswith("[unsupported: 1999]")
    with pytest.raises(ConfigError, match="returned int"):
        apply_policy(lambda a, r: 3, ANSWER, _flagged("1999"))


def test_refine_needs_the_refiner():
    with pytest.raises(ConfigError, match="refine"):
        apply_policy("refine", ANSWER, _flagged("1999"))
