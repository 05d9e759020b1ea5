"""Refinement never ships a new value, keeps a weakly flagged answer whole, and judges rounds by score (issue 25).

Fast and deterministic. The loop tests drive :class:`Refiner` with a scripted guard and a
scripted model (both stand-ins, played back): each needs one specific failure the real
local model produces only now and then (a correction that passes the guard but writes a
value the context never states; an answer the guard flags just over its threshold; a
right repair that leaves a weak flag on an untouched sentence). The repair tests call
:func:`evidence_repair` on hand-made feedback items shaped like the benchmark's cases.
"""

from __future__ import annotations

import pytest
from _scripted import ScriptedLLM

from guardrail.errors import ConfigError
from guardrail.policy.acceptance import introduced_values, judge_round
from guardrail.policy.feedback import FeedbackItem
from guardrail.policy.progress import compare_rounds, fresh_flags
from guardrail.policy.refine import UNVERIFIED_MARK, Refiner
from guardrail.policy.repair import evidence_repair
from guardrail.policy.rounds import weakly_flagged
from guardrail.types import FlaggedNode, GuardResult, Span

CONTEXT = ["The bridge opened in 1911 in Lyon. It spans 312 metres."]
ANSWER = "The bridge opened in 1921 in Lyon. It spans 312 metres."


def _result(answer: str, wrong: tuple[str, ...] = (), score: float = 0.8, abstained: bool = False) -> GuardResult:
    nodes = tuple(FlaggedNode(node_id=f"a:{answer.index(w)}", text=w, support=0.1,
                              span=Span(start=answer.index(w), end=answer.index(w) + len(w))) for w in wrong)
    passed = not wrong and score < 0.5 and not abstained
    return GuardResult(passed=passed, score=score, threshold=0.5, answer=answer, flagged_nodes=nodes,
                       abstained=abstained)


class ScriptedGuard:
    """Stands in for the guard: a fixed verdict per answer (``verdicts``), else a pass."""

    def __init__(self, verdicts: dict[str, tuple[tuple[str, ...], float]]) -> None:
        self.verdicts = verdicts

    def check(self, answer: str, contexts: object, question: str | None = None, **_: object) -> GuardResult:
        wrong, score = self.verdicts.get(answer, ((), 0.3))
        return _result(answer, wrong, score)

    def log_result(self, *args: object, **kwargs: object) -> None:
        pass


def test_introduced_values_by_value_and_case_blind() -> None:
    after = "The bridge opened in 1911 in Lyon, designed by Gustave Roux. It spans 312 metres."
    assert introduced_values(ANSWER, after, CONTEXT) == ["Gustave", "Roux"]
    assert introduced_values("It has ten arches.", "It has twelve arches.", ["It has 12 arches."]) == []
    # a sentence's first word, "one" in words and values of the original answer are not new values
    assert introduced_values(ANSWER, "Yes. One of them opened in 1921, one year late.", CONTEXT) == []
    assert introduced_values(ANSWER, "It opened in 1911 and cost 40%.", CONTEXT) == ["40"]


def test_a_passing_round_with_a_value_the_context_never_states_is_not_delivered() -> None:
    """Scripted model: its first fix passes the guard but adds "in 2019"; its second is right."""
    new_value = "The bridge opened in 1911 in Lyon and was rebuilt in 2019. It spans 312 metres."
    right = "The bridge opened in 1911 in Lyon. It spans 312 metres."
    guard = ScriptedGuard({ANSWER: (("1921",), 0.8)})
    llm = ScriptedLLM(new_value, right)
    out = Refiner(guard, repair=False).refine(ANSWER, CONTEXT, None, llm)
    assert out.answer == right and out.action == "refined" and out.rejected_rounds == (1,)
    assert "2019" in llm.requests[1].feedback  # told why the first fix was rejected
    assert not judge_round((), ANSWER, new_value, ANSWER, CONTEXT).accepted


def test_repair_that_leaves_a_weak_flag_on_an_untouched_sentence_is_progress() -> None:
    best = _result(ANSWER, ("1921",), 0.8)
    fixed = "The bridge opened in 1911 in Lyon. It spans 312 metres."
    new = _result(fixed, ("312 metres", "spans"), 0.52)  # more nodes, but only in the unchanged sentence
    assert fresh_flags(ANSWER, new) == [] and compare_rounds(best, new)[0] == "better"
    other = _result("The bridge opened in 1931 in Lyon. It spans 312 metres.", ("1931", "Lyon"), 0.6)
    assert compare_rounds(best, other)[0] == "worse"  # what it wrote is flagged: more nodes, worse


def test_fewer_nodes_with_a_higher_score_is_no_progress() -> None:
    best = _result(ANSWER, ("1921", "312 metres"), 0.56)
    cut = _result("The bridge opened in 1921 in Lyon.", ("1921",), 0.6)  # deleted a sentence, scored higher
    assert compare_rounds(best, cut)[0] == "no_progress"
    assert compare_rounds(best, _result("The bridge opened in 1921 in Lyon.", ("1921",), 0.5))[0] == "better"


def test_weakly_flagged_rule() -> None:
    assert weakly_flagged(_result(ANSWER, ("1921",), 0.55), 0.1)
    assert not weakly_flagged(_result(ANSWER, ("1921",), 0.75), 0.1)
    assert weakly_flagged(_result(ANSWER, (), 0.9), 0.1)  # no node to cut on
    assert not weakly_flagged(_result(ANSWER, ("1921",), 0.55), None)
    assert not weakly_flagged(_result(ANSWER, (), 0.9, abstained=True), 0.1)


@pytest.mark.parametrize(("score", "margin", "action"), [(0.55, 0.1, "annotated"), (0.75, 0.1, "filtered"),
                                                          (0.55, None, "filtered")])
def test_filter_fallback_keeps_a_weakly_flagged_answer_whole(score: float, margin: float | None, action: str) -> None:
    """Scripted model that repeats the answer: the loop ends flagged at once."""
    guard = ScriptedGuard({ANSWER: (("1921",), score)})
    out = Refiner(guard, fallback="filter", repair=False, keep_margin=margin).refine(
        ANSWER, CONTEXT, None, ScriptedLLM(ANSWER))
    assert out.action == action and out.stop_reason == "repeated"
    if action == "annotated":
        assert out.answer == UNVERIFIED_MARK + ANSWER
    else:
        assert out.answer == "It spans 312 metres."


def test_keep_margin_is_checked() -> None:
    with pytest.raises(ConfigError):
        Refiner(ScriptedGuard({}), keep_margin=2.0)


def test_repair_writes_the_evidence_unit_not_a_new_measure() -> None:
    answer = "Applying costs €206, and you can usually expect a decision inside two months."
    ev = "Applications cost €206 and are normally decided within eight weeks."
    item = FeedbackItem(answer, (0, len(answer)), ("two months",), ev, "value", ("eight",))
    repaired = evidence_repair(answer, [item])
    assert repaired is not None and repaired[0].endswith("inside eight weeks.")  # not "eight months"
    glacier = "The ice moved forward by roughly 410 metres."
    item = FeedbackItem(glacier, (0, len(glacier)), ("roughly 410 metres",),
                        "The only period of advance, about 140 metres, came later.", "value", ("140",))
    repaired = evidence_repair(glacier, [item])
    assert repaired is not None and repaired[0] == "The ice moved forward by roughly 140 metres."


def test_repair_writes_a_name_only_in_the_same_slot() -> None:
    answer = "She founded Greyfield Coaches with a contract to take workers to the Brayford brickworks."
    ev = "She founded Greyfield Coaches with a contract to take workers to the Ashwell brickworks."
    item = FeedbackItem(answer, (0, len(answer)), ("Brayford",), ev, "value", ("Ashwell",))
    repaired = evidence_repair(answer, [item])
    assert repaired is not None and repaired[0].endswith("the Ashwell brickworks.")
    hotel = "The chain is based in Mumbai."
    loose = FeedbackItem(hotel, (0, len(hotel)), ("Mumbai",), "The chain is run by The Oberoi Group.", "value",
                         ("The Oberoi Group",))
    assert evidence_repair(hotel, [loose]) is None
