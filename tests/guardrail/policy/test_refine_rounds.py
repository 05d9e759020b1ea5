"""The loop repairs again after a repair, cuts a flagged clause rather than its sentence, and
tells a short answer to answer anew (issue 25).

Fast and deterministic. The loop tests drive :class:`Refiner` with a scripted guard (a fixed
verdict per answer, any other answer passes): each needs one verdict sequence the real guard
gives only on some benchmark answers (a repair that lets the guard flag another value; a
clause cut the guard passes). The model is a scripted stand-in that records its requests
(most tests assert it is never asked). The clause cut itself runs on the real spaCy parse.
"""

from __future__ import annotations

from _scripted import ScriptedGuard, ScriptedLLM
from _scripted import scripted_result as _result

from guardrail.policy.pruning import cut_flagged
from guardrail.policy.refine import Refiner

NEWS = ["The council approved a £3.2 million network of cycle lanes. Construction is expected to take 18 months."]
NEWS_0 = "Councillors backed a £2.3 million plan for cycle lanes. Work should take 20 months."
NEWS_1 = "Councillors backed a £3.2 million plan for cycle lanes. Work should take 20 months."
NEWS_2 = "Councillors backed a £3.2 million plan for cycle lanes. Work should take 18 months."


def test_an_accepted_repair_is_repaired_again_before_the_llm_is_asked() -> None:
    # news-01: once "£2.3 million" was repaired the guard flagged the second sentence; the LLM
    # was asked about it (and the fallback dropped it) although the evidence states the value
    guard = ScriptedGuard({NEWS_0: (("a £2.3 million plan",), 0.8), NEWS_1: (("20 months",), 0.6)})
    llm = ScriptedLLM(NEWS_1)
    out = Refiner(guard, max_iterations=3).refine(NEWS_0, NEWS, None, llm)
    assert out.action == "refined" and out.answer == NEWS_2 and llm.requests == []
    assert guard.checked == [NEWS_0, NEWS_1, NEWS_2] and len(out.result.history) == 3


LEASE = ["Either party may end the lease with a notice of two months once six months have passed."]
LEASE_0 = "Yes. Once the landlord agrees, either party can end the lease with a notice of one month."
LEASE_1 = "Yes. Either party can end the lease with a notice of one month."
LEASE_2 = "Yes. Either party can end the lease with a notice of two months."


def test_a_rejected_repair_round_has_its_wrong_values_repaired() -> None:
    # contract-01: cutting a falsely flagged clause let the guard flag the real error ("one
    # month"), scored higher, so the round was rejected; its value, which the evidence states,
    # is still repaired (values only: no deletion on a deletion)
    guard = ScriptedGuard({LEASE_0: (("the landlord",), 0.6), LEASE_1: (("one month",), 0.7)})
    llm = ScriptedLLM(LEASE_0)
    out = Refiner(guard, max_iterations=3).refine(LEASE_0, LEASE, None, llm)
    assert guard.checked == [LEASE_0, LEASE_1, LEASE_2]
    assert out.action == "refined" and out.answer == LEASE_2 and llm.requests == []


HR = ["Primary caregivers get 16 weeks of paid leave and secondary caregivers get 6 weeks. HR must be told early."]
HR_ANSWER = "Primary caregivers get sixteen weeks of paid leave, and secondary caregivers get ten. HR must be told early."
HR_CUT = "Primary caregivers get sixteen weeks of paid leave. HR must be told early."


def test_cut_flagged_drops_the_clause_not_the_sentence() -> None:
    assert cut_flagged(HR_ANSWER, _result(HR_ANSWER, ("ten",))) == HR_CUT
    # a flagged phrase of a main clause takes its sentence: the rest would not say what was asked
    answer = "Marie Curie won the Nobel Prize in Chemistry in 1921. She was born in Warsaw."
    assert cut_flagged(answer, _result(answer, ("1921",))) == "She was born in Warsaw."
    assert cut_flagged("It opened in 1921.", _result("It opened in 1921.", ("1921",))) is None  # nothing left


def test_the_filter_fallback_delivers_a_clause_cut_the_guard_passes() -> None:
    # hr_policy-01: the sentence filter dropped "Primary caregivers receive sixteen weeks' leave"
    # with the flagged clause beside it
    guard = ScriptedGuard({HR_ANSWER: (("ten",), 0.8)})
    out = Refiner(guard, max_iterations=2, repair=False).refine(HR_ANSWER, HR, None, ScriptedLLM(HR_ANSWER))
    assert out.action == "filtered" and out.answer == HR_CUT and out.result.passed
    assert out.stop_reason == "repeated" and guard.checked[-1] == HR_CUT


def test_a_clause_cut_the_guard_flags_falls_back_to_the_sentence_filter() -> None:
    guard = ScriptedGuard({HR_ANSWER: (("ten",), 0.8), HR_CUT: (("sixteen weeks",), 0.7)})
    out = Refiner(guard, max_iterations=2, repair=False).refine(HR_ANSWER, HR, None, ScriptedLLM(HR_ANSWER))
    # the sentence filter's answer is checked too: delivered with its own (passing) verdict
    assert out.action == "filtered" and out.answer == "HR must be told early." and out.result.passed
    assert guard.checked[-2:] == [HR_CUT, "HR must be told early."] and out.fallback_round == 0


OZICK = ["Cynthia Ozick (born April 17, 1928) is an American writer. Malcolm Lowry (28 July 1909 - 26 June 1957) "
         "was an English poet and novelist."]


def test_a_short_answer_gets_feedback_that_asks_for_a_new_answer() -> None:
    # the prompt asked a short answer to be answered anew while its feedback said "rewrite only
    # the marked words": the feedback now says the same as the prompt
    answer = "Cynthia Ozick was born first."
    guard = ScriptedGuard({answer: (("first",), 0.7)})
    llm = ScriptedLLM(answer)
    Refiner(guard, max_iterations=1, repair=False).refine(
        answer, OZICK, "Who was born first: Cynthia Ozick or Malcolm Lowry?", llm)
    feedback = llm.requests[0].feedback
    assert "Answer the question anew" in feedback and "Rewrite only" not in feedback
    assert '- your answer "Cynthia Ozick was born first." is wrong ("first" is not supported)' in feedback
    # without a question there is nothing to answer anew: the edit feedback
    Refiner(guard, max_iterations=1, repair=False).refine(answer, OZICK, None, llm)
    assert "Rewrite only the words marked" in llm.requests[1].feedback
