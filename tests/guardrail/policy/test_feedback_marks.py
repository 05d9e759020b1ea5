"""The prompt shows the exact span to rewrite (issue 25): each feedback line holds the
sentence with the flagged nodes' own spans marked ``[[ ]]``, those words, the evidence
sentence and the fix, and the prompt asks for those words only. Fast: hand-made verdicts,
and a scripted stand-in for the model (it copies the marks into its reply, as a small
model may) driving the loop with a scripted guard (flags "1921", passes anything else).
"""

from __future__ import annotations

import json

from guardrail.policy.feedback import FeedbackItem, build_feedback, feedback_items, marked, unmark
from guardrail.policy.prompts import refinement_messages
from guardrail.policy.refine import RefinementRequest, Refiner
from guardrail.types import FlaggedNode, GuardResult, Span

CONTEXT = ["Marie Curie won the Nobel Prize in Physics in 1903. In 1911 she won the Nobel Prize in Chemistry."]
PLANTED = "Curie was born in Warsaw. Marie Curie won the Nobel Prize in Chemistry in 1921."
RIGHT = "Curie was born in Warsaw. Marie Curie won the Nobel Prize in Chemistry in 1911."


def _flagged(answer: str, *wrong: str) -> GuardResult:
    nodes = tuple(FlaggedNode(node_id=f"a:{answer.index(w)}", text=w,
                              span=Span(start=answer.index(w), end=answer.index(w) + len(w)), support=0.1)
                  for w in wrong)
    return GuardResult(passed=False, score=0.7, threshold=0.5, answer=answer, flagged_nodes=nodes)


def test_the_wrong_words_are_marked_in_their_sentence() -> None:
    (item,) = feedback_items(_flagged(PLANTED, "1921"), CONTEXT)
    assert item.claim == "Marie Curie won the Nobel Prize in Chemistry in 1921." and item.marks == ((48, 52),)
    assert marked(item) == "Marie Curie won the Nobel Prize in Chemistry in [[1921]]."
    two = FeedbackItem("Gates founded it in 1999.", (0, 25), ("Gates", "1999"), "", "value", ("", ""),
                       ((0, 5), (20, 24)))
    assert marked(two) == "[[Gates]] founded it in [[1999]]."


def test_the_feedback_line_names_sentence_span_and_evidence() -> None:
    fb = build_feedback(_flagged(PLANTED, "1921"), CONTEXT)
    (line,) = [ln for ln in fb.splitlines() if ln.startswith("- ")]
    assert line.startswith('- claim "Marie Curie won the Nobel Prize in Chemistry in [[1921]].": '
                           'rewrite only the marked words "1921"; ')
    assert 'the context says "In 1911 she won the Nobel Prize in Chemistry."' in line
    assert 'fix: replace "1921" with "1911"' in line
    assert "Warsaw" not in line  # the unflagged sentence is not shown as one to rewrite
    assert fb.splitlines()[-1].startswith("Rewrite only the words marked [[ ]]")


def test_the_prompt_asks_for_the_marked_words_only() -> None:
    result = _flagged(PLANTED, "1921")
    req = RefinementRequest(None, tuple(CONTEXT), PLANTED, result, build_feedback(result, CONTEXT), 1)
    system, user = (m[1] for m in refinement_messages(req))
    assert "Rewrite only the marked words" in system and "[[like this]]" in system
    assert "[[1921]]" in user and user.rstrip().endswith("feedback rewritten.")
    assert f"<previous_answer>\n{PLANTED}\n</previous_answer>" in user  # the answer itself is not marked


def test_a_span_less_node_is_named_without_marks() -> None:
    node = FlaggedNode(node_id="a:0", text='Gates": all fine', support=0.0)
    fb = build_feedback(GuardResult(passed=False, score=0.9, threshold=0.5, answer="x", flagged_nodes=(node,)))
    (line,) = [ln for ln in fb.splitlines() if ln.startswith("- ")]
    assert line.startswith(f"- claim {json.dumps(node.text)}: rewrite only the words ")
    assert "[[" not in line


def test_marks_a_model_copies_are_removed() -> None:
    assert unmark("Curie won it in [[1911]].", "Curie won it in 1921.") == "Curie won it in 1911."
    assert unmark("a [[b]] c", "a [[b]] d") == "a [[b]] c"  # marks the answer had are kept


class ScriptedGuard:
    """Stands in for the guard: flags "1921" (and anything still marked), passes anything else."""

    def __init__(self) -> None:
        self.checked: list[str] = []

    def check(self, answer: str, contexts: object, question: str | None = None, **_: object) -> GuardResult:
        self.checked.append(answer)
        wrong = [w for w in ("1921", "[[") if w in answer]
        return _flagged(answer, *wrong) if wrong else GuardResult(passed=True, score=0.2, threshold=0.5, answer=answer)

    def log_result(self, *args: object, **kwargs: object) -> None:
        pass


def test_the_loop_checks_and_delivers_the_reply_without_copied_marks() -> None:
    guard = ScriptedGuard()
    llm_replies = [RIGHT.replace("1911", "[[1911]]")]

    def llm(req: RefinementRequest) -> str:
        assert "[[1921]]" in req.feedback
        return llm_replies[0]

    out = Refiner(guard, max_iterations=2, repair=False).refine(PLANTED, CONTEXT, None, llm)
    assert out.action == "refined" and out.answer == RIGHT and guard.checked == [PLANTED, RIGHT]


def test_a_lead_in_before_the_quoted_answer_is_dropped() -> None:
    # seen in benchmarks/refine.py with the local 1.5B model: the lead-in was delivered as part of the answer
    reply = ('The previous answer with only the words marked   in the feedback rewritten is: '
             '"Most sore throats are viral. About 40% of patients are better after 3 days."')
    assert unmark(reply, "Most sore throats are viral. Six in ten are better by day three.") == (
        "Most sore throats are viral. About 40% of patients are better after 3 days.")
    assert unmark('The sign said: "closed".', "The sign said: open.") == 'The sign said: "closed".'
    assert unmark("The fee is 40 euros.", "The fee is 30 euros.") == "The fee is 40 euros."


def test_a_lead_in_before_an_unquoted_answer_is_dropped() -> None:
    # seen in benchmarks/refine.py with the local 1.5B model: the answer came after the echoed instruction,
    # unquoted, and the lead-in's words were judged as the correction (the round was rejected)
    previous = "They hold 27 tonnes of carbon for every square kilometre."
    reply = ("The previous answer with only the words marked [[ ]] in the feedback rewritten is:\n"
             "They hold 27 tonnes of carbon for every hectare.")
    assert unmark(reply, previous) == "They hold 27 tonnes of carbon for every hectare."
    assert unmark("Corrected answer: It opened in 1911.", "It opened in 1921.") == "It opened in 1911."
    assert unmark("The sign said: closed.", "The sign said: open.") == "The sign said: closed."
    assert unmark("Answer: yes.", "Answer: no.") == "Answer: yes."  # the previous answer opened the same way


LEAVE = ["Birchwood offers 16 weeks of fully paid parental leave to the primary caregiver of a newborn or newly "
         "adopted child, and 6 weeks of fully paid leave to the secondary caregiver. To be eligible, employees must "
         "have completed 6 months of continuous service by the expected date of birth or placement. Leave must be "
         "taken within 12 months of the birth or adoption and may be split into at most two blocks."]
TWO_FLAGS = ("You qualify once you have six weeks of unbroken service, and the leave has to be used within a year "
             "of the child's arrival, in no more than two parts.")


def test_each_flagged_word_finds_its_value_in_its_own_sentence() -> None:
    """Evidence per flagged node: the two flagged words of one claim point to different sentences;
    together they chose the sentence about leave in weeks, which states no value for "six weeks".
    Its own slot ("of unbroken service") points to "6 months of continuous service"."""
    (item,) = feedback_items(_flagged(TWO_FLAGS, "six weeks", "no more than two"), LEAVE)
    assert item.kind == "value" and item.values[0] == "6 months"
    assert "6 months of continuous service" in item.evidence and item.evidence.startswith("Birchwood offers")
    assert 'replace "six weeks" with "6 months"' in build_feedback(_flagged(TWO_FLAGS, "six weeks", "no more than two"),
                                                                  LEAVE)
    (alone,) = feedback_items(_flagged(TWO_FLAGS, "six weeks"), LEAVE)  # one flagged word: as before
    assert alone.values == ("6 months",) and alone.evidence.startswith("To be eligible")
