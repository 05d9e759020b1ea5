"""Refinement checks its corrections against the evidence its feedback quoted (issue 25).

Fast and deterministic: :func:`check_corrections` on hand-made feedback items, and the
:class:`Refiner` loop driven by a scripted model and a scripted guard (both stand-ins,
played back in order) that reproduce the reported failure: the guard *passes* a
"correction" to 1903, the year of Curie's Physics prize, which the context also states.
The same case with the real guard is in ``test_refine_evidence.py``; with the real
local model in ``tests/guardrail/llm/test_refine_evidence_llm.py``.
"""

from __future__ import annotations

from _scripted import ScriptedLLM

from guardrail.policy.acceptance import check_corrections
from guardrail.policy.feedback import FeedbackItem, build_feedback, feedback_items
from guardrail.policy.refine import Refiner
from guardrail.types import FlaggedNode, GuardResult, Span

CONTEXT = ["Marie Curie won the Nobel Prize in Physics in 1903. In 1911 she won the Nobel Prize in Chemistry."]
PLANTED = "Marie Curie won the Nobel Prize in Chemistry in 1921."
ELSEWHERE = "Marie Curie won the Nobel Prize in Chemistry in 1903."
RIGHT = "Marie Curie won the Nobel Prize in Chemistry in 1911."


def _flagged(answer: str, wrong: str) -> GuardResult:
    i = answer.index(wrong)
    node = FlaggedNode(node_id=f"a:{i}", text=wrong, span=Span(start=i, end=i + len(wrong)), support=0.1)
    return GuardResult(passed=False, score=0.7, threshold=0.5, answer=answer, flagged_nodes=(node,))


class ScriptedGuard:
    """Stands in for the guard: flags "1921", passes anything else (as the real one passed 1903)."""

    def __init__(self) -> None:
        self.checked: list[str] = []

    def check(self, answer: str, contexts: object, question: str | None = None, **_: object) -> GuardResult:
        self.checked.append(answer)
        if "1921" in answer:
            return _flagged(answer, "1921")
        return GuardResult(passed=True, score=0.28, threshold=0.5, answer=answer)

    def log_result(self, *args: object, **kwargs: object) -> None:
        pass


def test_evidence_is_the_sentence_of_the_wrong_values_slot() -> None:
    (item,) = feedback_items(_flagged(PLANTED, "1921"), CONTEXT)
    assert item.evidence == "In 1911 she won the Nobel Prize in Chemistry."
    assert item.kind == "value" and item.values == ("1911",) and item.span == (0, len(PLANTED))


def test_a_value_stated_elsewhere_in_the_context_is_rejected() -> None:
    items = feedback_items(_flagged(PLANTED, "1921"), CONTEXT)
    bad = check_corrections(items, PLANTED, ELSEWHERE)
    assert not bad.accepted and "1903" in bad.problems[0] and "1911" in bad.problems[0]
    assert check_corrections(items, PLANTED, RIGHT).accepted
    # deleting the unsupported detail is a correction too; rewording with the claim's own words is allowed
    assert check_corrections(items, PLANTED, "Marie Curie won the Nobel Prize in Chemistry.").accepted
    assert check_corrections(items, PLANTED, "In 1911 Marie Curie won the Nobel Prize in Chemistry.").accepted


def test_changes_outside_flagged_claims_are_left_to_the_guard() -> None:
    answer = "Curie was born in Warsaw. " + PLANTED
    result = _flagged(answer, "1921")
    items = feedback_items(result, CONTEXT)
    assert check_corrections(items, answer, "Curie was born in Poland. " + RIGHT).accepted
    assert not check_corrections(items, answer, "Curie was born in Warsaw. " + ELSEWHERE).accepted


def test_feedback_fits_the_error() -> None:
    ctx = ["Apple was founded by Steve Jobs and Steve Wozniak in 1976 in Cupertino."]
    value = build_feedback(_flagged("Apple was founded in 1999 in Cupertino.", "1999"), ctx)
    assert 'replace "1999" with "1976"' in value
    added_answer = "Apple was founded in 1976 in Cupertino with a loan from IBM."
    added = build_feedback(_flagged(added_answer, "IBM"), ctx)
    assert 'does not state "IBM": delete only that detail' in added and "replace" not in added
    swapped = build_feedback(_flagged("Steve Wozniak was founded by Apple in 1976.", "Steve Wozniak"), ctx)
    assert "another role: state who did what" in swapped
    item = FeedbackItem("x", None, ("y",), "", "added")
    assert check_corrections([item], "x", "z").accepted  # no span: nothing to locate, the guard decides


def test_loop_never_delivers_the_elsewhere_value_as_passed() -> None:
    guard, llm = ScriptedGuard(), ScriptedLLM(ELSEWHERE)
    out = Refiner(guard, max_iterations=3, fallback="filter", refusal="No answer.", repair=False).refine(
        PLANTED, CONTEXT, None, llm)
    assert out.action != "refined" and "1903" not in out.answer and not out.result.passed
    assert out.rejected_rounds == (1, 2) and out.stop_reason == "repeated" and len(llm.requests) == 2
    # the second prompt says why the first correction was rejected
    assert "Your last correction was rejected" in llm.requests[1].feedback and "1903" in llm.requests[1].feedback
    assert [h.answer for h in out.result.history] == [PLANTED, ELSEWHERE, ELSEWHERE]


def test_loop_goes_on_after_a_rejected_round_and_accepts_the_evidence_value() -> None:
    guard, llm = ScriptedGuard(), ScriptedLLM(ELSEWHERE, RIGHT)
    out = Refiner(guard, max_iterations=3, repair=False).refine(PLANTED, CONTEXT, None, llm)
    assert out.action == "refined" and out.answer == RIGHT and out.result.passed
    assert out.rejected_rounds == (1,) and guard.checked == [PLANTED, ELSEWHERE, RIGHT]


def test_evidence_repair_fixes_a_known_value_without_the_llm() -> None:
    guard, llm = ScriptedGuard(), ScriptedLLM(ELSEWHERE)
    out = Refiner(guard, max_iterations=3).refine(PLANTED, CONTEXT, None, llm)
    assert out.action == "refined" and out.answer == RIGHT and llm.requests == []
    assert guard.checked == [PLANTED, RIGHT] and out.stop_reason == "passed"
    assert '"1921" -> "1911"' in out.result.history[0].feedback


class FlagsEverything(ScriptedGuard):
    """Stands in for a guard that flags every answer on "Chemistry" (the repair cannot pass)."""

    def check(self, answer: str, contexts: object, question: str | None = None, **_: object) -> GuardResult:
        self.checked.append(answer)
        return _flagged(answer, "1921" if "1921" in answer else "Chemistry")


def test_a_repair_the_guard_does_not_pass_hands_over_to_the_llm() -> None:
    guard, llm = FlagsEverything(), ScriptedLLM(ELSEWHERE)
    out = Refiner(guard, max_iterations=3, fallback="annotate").refine(PLANTED, CONTEXT, None, llm)
    assert guard.checked[:2] == [PLANTED, RIGHT] and len(llm.requests) >= 1
    assert out.action != "refined"


def test_rounds_used_up_on_unsupported_corrections_say_so() -> None:
    llm = ScriptedLLM(ELSEWHERE, "Marie Curie won the Nobel Prize in Chemistry in 1867.")
    out = Refiner(ScriptedGuard(), max_iterations=2, fallback="annotate", repair=False).refine(PLANTED, CONTEXT, None, llm)
    assert out.stop_reason == "unsupported" and out.rejected_rounds == (1, 2)
    assert out.action == "annotated" and out.answer.startswith("[unverified] ") and PLANTED in out.answer


def test_evidence_repair_keeps_the_unit_around_a_replaced_number() -> None:
    from guardrail.policy.repair import evidence_repair

    answer = "The ice moved forward by roughly 410 metres."
    item = FeedbackItem(answer, (0, len(answer)), ("roughly 410 metres",), "It advanced about 140 metres.", "value",
                        ("140",))
    assert evidence_repair(answer, [item]) is not None
    assert evidence_repair(answer, [item])[0] == "The ice moved forward by roughly 140 metres."  # type: ignore[index]
    name = FeedbackItem(answer, (0, len(answer)), ("Oslo",), "x", "value", ("Bergen",))
    assert evidence_repair("He lives in Oslo.", [name]) is None  # names are not written in


def test_a_polar_answer_and_the_questions_words_are_not_unsupported_corrections() -> None:
    # seen in benchmarks/refine.py: "Yes, Kelly Jones and Martha Reeves are both singers." passed the guard but was
    # rejected for writing "Yes", then "both", which the evidence sentence does not state (the question does)
    claim = "Kelly Jones and Martha Reeves sing differently."
    question = "Are Kelly Jones and Martha Reeves both singers?"
    item = FeedbackItem(claim, (0, len(claim)), ("differently",), "Martha Reeves is an American singer.", "added")
    right = "Yes, Kelly Jones and Martha Reeves are both singers."
    assert check_corrections([item], claim, right, question).accepted
    assert not check_corrections([item], claim, right).accepted  # "both" is the question's word, not the evidence's
    assert not check_corrections([item], claim, "Yes, Kelly Jones and Martha Reeves are both drummers.", question).accepted
    # a value the question names is still not the evidence's: "Was it 1921?" does not make 1921 stated
    it = FeedbackItem("It opened in 1931.", (0, 18), ("1931",), "It opened in 1911.", "value", ("1911",))
    assert not check_corrections([it], "It opened in 1931.", "It opened in 1921.", "Did it open in 1921?").accepted


def test_a_particle_is_read_alike_in_the_correction_and_the_evidence() -> None:
    """The evidence's words and the correction's are read with one list of function words: a
    correction copying "back-up" from the evidence is not rejected for writing "up" (the
    evidence's "up" was left out as a particle while the correction's was kept)."""
    from guardrail.policy.acceptance import check_corrections as check
    from guardrail.policy.feedback import FeedbackItem

    claim = "Keep a prescription in case symptoms last past day three."
    it = FeedbackItem(claim, (0, len(claim)), ("day three",),
                      "Consider a back-up prescription if symptoms have not improved within 3 to 5 days.", "value", ("",))
    assert check([it], claim, "Keep a back-up prescription in case symptoms last past 5 days.").accepted
