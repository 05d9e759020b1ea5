"""A flagged answer with no flagged node gets feedback all the same (issue 25): the verdict is an
aggregate, so an answer can fail while every claim stays above the node threshold. The loop used to
send a header with no claim line and the model repeated the answer; now its weakest claim (the
verifier's least supported sentence) is to be restated from its evidence sentence. Fast: hand-made
verdicts carrying the verifier's claim details, as the verifier reports them.
"""

from __future__ import annotations

from guardrail.policy.feedback import build_feedback, feedback_items, render_short_item
from guardrail.policy.prompts import refinement_messages
from guardrail.policy.refine import RefinementRequest
from guardrail.policy.repair import evidence_repair
from guardrail.policy.rounds import splice_restated
from guardrail.types import DetectorOutput, GuardResult

FIRST = "Solberg, who lived from 1889 to 1962, was a botanist from Norway."
SECOND = "In 1915 she obtained a doctorate in botany from the University of Oslo."
ANSWER = f"{FIRST} {SECOND}"
EVIDENCE = "Born in Tromso, she studied at the University of Oslo, where in 1915 she became the first woman to earn a doctorate in botany."
CONTEXT = ["Margarethe Solberg (1889-1962) was a Norwegian botanist. " + EVIDENCE]


def _verdict(passed: bool = False, answer: str = ANSWER) -> GuardResult:
    claims = [{"start": 0, "end": len(FIRST), "p_supported": 0.56, "evidence": CONTEXT[0].split(". ")[0] + "."},
              {"start": len(FIRST) + 1, "end": len(answer), "p_supported": 0.3997, "evidence": EVIDENCE}]
    out = DetectorOutput(name="verifier", score=0.6, details={"claims": claims})
    return GuardResult(passed=passed, score=0.3 if passed else 0.495, threshold=0.487, answer=answer,
                       detectors=(out,))


def test_the_weakest_claim_is_named_with_its_evidence() -> None:
    (item,) = feedback_items(_verdict(), CONTEXT)
    assert (item.kind, item.claim, item.wrong, item.evidence) == ("restate", SECOND, (), EVIDENCE)
    assert ANSWER[item.span[0]:item.span[1]] == SECOND
    fb = build_feedback(_verdict(), CONTEXT)
    (line,) = [ln for ln in fb.splitlines() if ln.startswith("- ")]
    assert line.startswith(f'- claim "{SECOND}": not supported as written; the context says "{EVIDENCE}"')
    assert "restate this sentence" in line
    assert fb.splitlines()[-1].startswith("Restate only the claim quoted above")


def test_a_passed_verdict_or_one_without_the_verifier_has_no_item() -> None:
    assert feedback_items(_verdict(passed=True), CONTEXT) == []
    bare = GuardResult(passed=False, score=0.6, threshold=0.5, answer=ANSWER)
    assert feedback_items(bare, CONTEXT) == []
    assert build_feedback(bare, CONTEXT).splitlines()[-1].startswith("Rewrite only the words marked")


def test_the_prompt_asks_for_the_claim_restated_and_nothing_is_repaired() -> None:
    items = feedback_items(_verdict(), CONTEXT)
    req = RefinementRequest("Who was Solberg?", tuple(CONTEXT), ANSWER, _verdict(), build_feedback(_verdict(), CONTEXT), 1)
    last = refinement_messages(req)[-1][1].splitlines()[-1]
    assert last == ("Write the corrected answer: the previous answer with only the claim quoted in the feedback "
                    "restated from its context sentence.")
    assert evidence_repair(ANSWER, items, CONTEXT) is None  # no wrong word: nothing to write or delete
    assert "not supported as written" in render_short_item(items[0])


def test_a_restated_sentence_alone_is_put_back_in_its_place() -> None:
    items = feedback_items(_verdict(), CONTEXT)
    new = "In 1915 she became the first woman to earn a doctorate in botany at the University of Oslo."
    assert splice_restated(ANSWER, items, new) == f"{FIRST} {new}"
    assert splice_restated(ANSWER, items, f"{FIRST} {new}") == f"{FIRST} {new}"  # a whole answer stays
    assert splice_restated(ANSWER, items, SECOND) == SECOND  # copied unchanged: judged alone, not spliced
    one = feedback_items(_verdict(answer=SECOND), CONTEXT)
    assert splice_restated(SECOND, one, new) == new
