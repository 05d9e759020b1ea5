"""The filter fallback salvages the best answer seen instead of refusing (issue 25).

Fast and deterministic. The loop tests drive :class:`Refiner` with a scripted guard (a fixed
verdict per answer, any other answer passes) and a scripted model (:class:`ScriptedLLM`, played
back). Each model script stands in for one failure the local Qwen 1.5B model produced on the
refinement benchmark, said in the test's docstring: it returns the answer it was given
unchanged (``repeated``: contract-01, science-01), or rewrites it into an answer the guard
flags as much (``no_progress``: sports-01). The evidence repair is off (``repair=False``) so
that the model's script is what the loop sees.
"""

from __future__ import annotations

from _scripted import ScriptedGuard, ScriptedLLM
from _scripted import scripted_result as _result

from guardrail.graph import KnowledgeGraph, Node
from guardrail.policy.policies import DEFAULT_REFUSAL
from guardrail.policy.progress import LoopState, make_round
from guardrail.policy.refine import Refiner, enforce
from guardrail.policy.salvage import candidates, salvage_cuts, states_something
from guardrail.types import Span

LEASE = ["After the first six months of the tenancy, either the tenant or the landlord may end it by giving "
         "two months' written notice. Notice must be given in writing."]
LEASE_ANSWER = ("Yes. Either the tenant or the landlord can end it by giving one month's notice. "
                "Notice must be given in writing.")
LEASE_KEPT = "Yes. Notice must be given in writing."


def test_a_repeated_wrong_answer_ends_with_the_filtered_best_answer_not_the_refusal() -> None:
    """Scripted model that returns the flagged answer unchanged (contract-01, science-01: ``repeated``)."""
    guard = ScriptedGuard({LEASE_ANSWER: (("one month's notice",), 0.8)})
    llm = ScriptedLLM(LEASE_ANSWER)
    out = Refiner(guard, max_iterations=3, repair=False).refine(LEASE_ANSWER, LEASE, None, llm)
    assert out.action == "filtered" and out.answer == LEASE_KEPT and out.answer != DEFAULT_REFUSAL
    assert out.stop_reason == "repeated" and out.fallback_round == 0 and len(llm.requests) == 1
    assert out.result.passed and guard.checked[-1] == LEASE_KEPT  # the cut was checked by the guard
    assert [h.round for h in out.result.history] == [0, 1] and out.original_answer == LEASE_ANSWER


SPORTS = ["Kofi Mensah scored twice for Redhill, from a penalty before the break and in the 67th minute. "
          "Jamie Ortiz came off the bench and added the third goal in stoppage time."]
SPORTS_ANSWER = "Kofi Mensah got two of Redhill's goals and Callum Reid added the third in stoppage time."
SPORTS_ROUND = "Kofi Mensah got two of Redhill's goals. Jamie Ortiz added the third goal in stoppage time."
SPORTS_KEPT = "Jamie Ortiz added the third goal in stoppage time."


def test_a_rounds_answer_is_salvaged_when_the_original_leaves_nothing() -> None:
    """Scripted model whose rewrite the guard flags as much as the original (sports-01: ``no_progress``);
    the original is one flagged sentence, so only the round's answer has a sentence left."""
    guard = ScriptedGuard({SPORTS_ANSWER: (("Kofi Mensah",), 0.7), SPORTS_ROUND: (("Kofi Mensah",), 0.7)})
    out = Refiner(guard, max_iterations=3, repair=False).refine(SPORTS_ANSWER, SPORTS, None,
                                                                 ScriptedLLM(SPORTS_ROUND))
    assert out.stop_reason == "no_progress" and out.rejected_rounds == ()
    assert out.action == "filtered" and out.answer == SPORTS_KEPT and out.fallback_round == 1
    assert out.result.passed and guard.checked[-1] == SPORTS_KEPT


def test_an_answer_whose_every_sentence_is_flagged_is_still_refused() -> None:
    """Scripted model that repeats the flagged one-sentence answer (science-01: ``repeated``)."""
    answer = "The sediments hold 27 tonnes of carbon per square kilometre, roughly triple earlier estimates."
    guard = ScriptedGuard({answer: (("The sediments",), 0.8)})
    out = Refiner(guard, max_iterations=3, repair=False).refine(answer, ["Seagrass sediments store carbon."], None,
                                                                 ScriptedLLM(answer))
    assert out.action == "refused" and out.answer == DEFAULT_REFUSAL and out.stop_reason == "repeated"
    assert out.fallback_round is None and not out.result.passed and guard.checked == [answer, answer]


def test_an_opener_left_alone_is_refused() -> None:
    """Scripted model that repeats the answer (contract-01 ended as a bare "Yes.")."""
    answer = "Yes. Either the tenant or the landlord can end it by giving one month's notice."
    guard = ScriptedGuard({answer: (("one month's notice",), 0.8)})
    out = Refiner(guard, max_iterations=3, repair=False).refine(answer, LEASE, None, ScriptedLLM(answer))
    assert out.action == "refused" and "Yes." not in guard.checked
    assert not states_something("Yes.") and not states_something("The answer is: sure.")
    assert states_something(LEASE_KEPT)


def test_a_round_rejected_as_unsupported_is_never_salvaged() -> None:
    """Scripted model whose first fix passes the guard but writes a value the context never states
    (the 1903-for-1911 failure), then repeats the original."""
    answer = "The bridge opened in 1921."
    invented = "The bridge opened in 1931."
    guard = ScriptedGuard({answer: (("1921",), 0.8)})
    out = Refiner(guard, max_iterations=3, repair=False).refine(answer, ["The bridge opened in 1911."], None,
                                                                 ScriptedLLM(invented, answer))
    assert out.action == "refused" and "1931" not in out.answer and 1 in out.rejected_rounds


def test_the_log_keeps_the_flagged_record_with_the_salvaged_answer() -> None:
    """Scripted model that repeats the flagged answer (``repeated``), through :func:`enforce`."""
    guard = ScriptedGuard({LEASE_ANSWER: (("one month's notice",), 0.8)})
    out = enforce(guard, "refine", LEASE_ANSWER, LEASE, None, reprompt=ScriptedLLM(LEASE_ANSWER), id="q7",
                  refiner=Refiner(guard, repair=False))
    assert out.action == "filtered" and out.answer == LEASE_KEPT
    assert len(guard.records) == 1
    record = guard.records[0]
    assert record.action == "filtered" and record.delivered_answer == LEASE_KEPT and record.event == "flagged"
    assert record.answer == LEASE_ANSWER and [n.text for n in record.flagged_nodes] == ["one month's notice"]


def test_candidates_rank_kept_claims_then_flagged_nodes_then_score() -> None:
    original = "Apple was founded in Cupertino. Apple was founded in 1999."
    at = original.index("Cupertino")
    claims = KnowledgeGraph(nodes=(Node(id="a:21", text="Cupertino", label="cupertino", span=Span(start=at, end=at + 9)),),
                            texts=(original,))
    first = _result(original, ("1999",), 0.8).model_copy(update={"claim_graph": claims})
    state = LoopState(original, first, [make_round(0, original, first, "")], 0.0)
    lossy = _result("Apple was founded in 1976.")  # passes, but lost "Cupertino"
    weaker = _result("Apple was founded in Cupertino. Apple was founded in 1998.", ("1998",), 0.6)
    for i, res in enumerate((lossy, weaker, first), 1):
        state.seen.append((i, res.answer, res))
    ranked = candidates(state)
    assert [c.round for c in ranked] == [2, 0, 1]  # the repeat of the original is left out
    assert ranked[-1].lost > 0 and salvage_cuts(lossy.answer, lossy) == [lossy.answer]
    assert salvage_cuts(original, first) == ["Apple was founded in Cupertino."]
