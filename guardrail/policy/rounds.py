"""The refinement loop's round bookkeeping, apart from its driver (:mod:`guardrail.policy.refine`).

* which texts a loop quotes and shows the LLM (:func:`loop_texts`, :func:`context_texts`);
* the repair rounds that need no LLM (:func:`repair_round`, :mod:`guardrail.policy.repair`): on
  each new best round, and (values only) on a rejected repair round;
* why the loop stops before a round (:func:`stop_before`: ``max_iterations``,
  ``time_budget``) and the deadline each request carries (:func:`deadline`);
* the outcome of a loop that ended flagged (:func:`fallback_rounds`: a ``filter`` fallback
  first tries the best round with its flagged clauses cut, :func:`fallback_cuts`, delivered
  when the guard passes it; then :func:`fallback_outcome`: the fallback policy on the best
  round, its stop reason, ``annotate`` marked with :data:`UNVERIFIED_MARK`; a weakly flagged
  best round is kept whole rather than cut, :func:`weakly_flagged`).

The round-by-round verdicts (better, worse, no progress, unsupported, repeated) are kept by
:class:`~guardrail.policy.progress.LoopState`.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence
from typing import Any, cast

from guardrail.extract.given import ContextInput, split_context_input
from guardrail.policy.feedback import feedback_items
from guardrail.policy.policies import Policy, PolicyOutcome, PolicySpec, apply_policy, filter_answer
from guardrail.policy.progress import LoopState
from guardrail.policy.pruning import cut_flagged
from guardrail.policy.repair import evidence_repair
from guardrail.types import GuardResult

__all__ = ["UNVERIFIED_MARK", "as_list", "context_texts", "loop_texts", "repair_round", "stop_before", "deadline",
           "fallback_outcome", "fallback_cuts", "fallback_rounds", "cut_outcome", "weakly_flagged", "DEFAULT_KEEP_MARGIN"]

#: Put in front of an answer delivered by the ``annotate`` fallback while still flagged.
UNVERIFIED_MARK = "[unverified] "

#: Default ``keep_margin`` of :func:`fallback_outcome`: off (``None``). A guard that delivers a
#: flagged answer, even marked, is a weaker guard; users opt in (``Refiner(keep_margin=0.1)``).
DEFAULT_KEEP_MARGIN: float | None = None


def as_list(contexts: ContextInput) -> Any:
    """``contexts`` as a guard takes them: a str stays one passage, a graph stays a graph,
    any other sequence becomes a list."""
    if isinstance(contexts, str) or not isinstance(contexts, Sequence):
        return contexts
    return list(contexts)


def context_texts(contexts: ContextInput) -> tuple[str, ...]:
    """The passages of ``contexts`` (a graph's linearised as "subject relation object."), one str each."""
    texts, _ = split_context_input(contexts)
    if isinstance(texts, str):
        return (texts,)
    return tuple(str(t) for t in cast(Sequence[object], texts))


def loop_texts(guard: Any, contexts: ContextInput, first: GuardResult) -> tuple[str, ...]:
    """The passages the loop quotes and shows the LLM: ``contexts``, or for a guard with a
    knowledge base (``Guard(kb=...)``) the texts the first verdict was checked against (the
    passages, then one sentence per KB fact), so a KB-only check is not refined blind."""
    if getattr(guard, "kb", None) is not None and first.context_graph.texts:
        return tuple(first.context_graph.texts)
    return context_texts(contexts)


def repair_round(state: LoopState, texts: Sequence[str], question: str | None = None,
                 last: tuple[str, GuardResult] | None = None, tried: set[str] | None = None) -> str | None:
    """A round's answer with its known errors repaired, or ``None`` when there is no such repair.

    The repair (:func:`~guardrail.policy.repair.evidence_repair`) is made from a round's feedback
    items: the ``last`` round's (``(answer, verdict)``) when it is not yet in ``tried`` and did not
    pass (a rejected repair round's verdict can name the error that a false flag hid: once
    "Once the first [[half-year]] ... has passed," is cut, the guard flags the wrong "one
    month" beside the evidence's "two months'"), else the best round's. A rejected round only has
    its wrong values replaced (``values_only``): deletions on deletions would whittle an answer
    down clause by clause. Each answer is tried once (it is added to ``tried``). The repair's
    note becomes the last round's feedback in the history.
    """
    tried = set() if tried is None else tried
    for answer, result in ((last or (state.best_answer, state.best)), (state.best_answer, state.best)):
        if answer in tried or result.passed or result.answer != answer:
            continue
        tried.add(answer)
        repair = evidence_repair(answer, feedback_items(result, texts, question=question), texts,
                                 answer != state.best_answer)  # a rejected round: its values only
        if repair is not None:
            state.history[-1] = state.history[-1].model_copy(update={"feedback": repair[1]})
            return repair[0]
    return None


def deadline(state: LoopState, time_budget: float | None) -> float | None:
    """The ``time.monotonic()`` value by which the loop's budget is spent (``None``: no budget)."""
    return None if time_budget is None else state.t0 + time_budget


def stop_before(state: LoopState, max_iterations: int, time_budget: float | None) -> str:
    """Why no further round starts: ``"max_iterations"``, ``"time_budget"``, or ``""`` (go on)."""
    if len(state.history) > max_iterations:
        return "max_iterations"
    if time_budget is not None and time.monotonic() - state.t0 >= time_budget:
        return "time_budget"
    return ""


def weakly_flagged(result: GuardResult, margin: float | None) -> bool:
    """Whether a flagged ``result`` is too weak a verdict to cut sentences on.

    True when it names no flagged node with a span (the ``filter`` policy could not say which
    sentence is wrong and would refuse the whole answer), or when its score is below
    ``result.threshold + margin``. An abstained result (it could not be judged) is never weak,
    and ``margin=None`` turns the rule off.
    """
    if margin is None or result.passed or result.abstained:
        return False
    return not any(n.span is not None for n in result.flagged_nodes) or result.score < result.threshold + margin


def fallback_cuts(state: LoopState, fallback: PolicySpec, keep_margin: float | None = DEFAULT_KEEP_MARGIN) -> list[str]:
    """The finer cuts a ``filter`` fallback tries, in order, before it drops whole sentences.

    The one cut is the best round with the clause holding each flagged node cut out, and the
    sentence of a flagged node in a main clause dropped
    (:func:`~guardrail.policy.pruning.cut_flagged`): only unflagged words are left, as with the
    sentence filter, but a right clause beside a flagged one stays ("Primary caregivers receive
    sixteen weeks' leave on full pay, and secondary caregivers receive [[six]]." keeps its first
    clause). A phrase is not cut from its clause ("won the prize [[in 1921]]" is not delivered
    as "won the prize": the clause would no longer say what it was asked for). The loop delivers it only when the guard passes it (:func:`cut_outcome`), else the
    sentence filter: on the refinement benchmark every answer counted as broken had lost right
    facts to the sentence filter or to its refusal. A flagged main clause is never kept, even
    where the guard would pass the shortened answer: a guard that flagged "Radium takes its
    name from Poland" beside a clause about 1898 passed it alone. No cut is tried when it equals
    the sentence filter's answer, for another fallback, an abstained round, or a round that
    :func:`weakly_flagged` keeps whole.
    """
    best = state.best
    if fallback.kind is not Policy.FILTER or best.abstained or weakly_flagged(best, keep_margin):
        return []
    cut = cut_flagged(state.best_answer, best)
    if cut is None or cut == " ".join(filter_answer(state.best_answer, best)[0].split()):
        return []
    return [cut]


def cut_outcome(state: LoopState, cut: str, result: GuardResult) -> PolicyOutcome:
    """The ``filter`` fallback's outcome for a :func:`fallback_cuts` answer the guard passed:
    ``action="filtered"``, its verdict with the loop's history."""
    if state.stop == "max_iterations" and state.problems:
        state.stop = "unsupported"
    final = result.model_copy(update={"history": tuple(state.history)})
    return PolicyOutcome(cut, final, "filtered", state.original, stop_reason=state.stop,
                         rejected_rounds=tuple(state.rejected))


def fallback_rounds(
    state: LoopState, fallback: PolicySpec, refusal: str, keep_margin: float | None = DEFAULT_KEEP_MARGIN,
) -> Generator[tuple[str, Any], Any, PolicyOutcome]:
    """The end of a loop whose best round is still flagged: each :func:`fallback_cuts` answer is
    sent to be checked (``("check", answer)``, the verdict sent back) and the first one passed is
    delivered (:func:`cut_outcome`); else :func:`fallback_outcome`."""
    for cut in fallback_cuts(state, fallback, keep_margin):  # a flagged clause, not its sentence
        res = yield ("check", cut)
        if res.passed:
            return cut_outcome(state, cut, res)
    return fallback_outcome(state, fallback, refusal, keep_margin)


def fallback_outcome(state: LoopState, fallback: PolicySpec, refusal: str,
                     keep_margin: float | None = DEFAULT_KEEP_MARGIN) -> PolicyOutcome:
    """The fallback policy applied to the best round of a loop that ended flagged.

    Rounds used up on corrections the evidence does not state stop as ``"unsupported"``
    rather than ``"max_iterations"``; an ``annotate`` fallback's answer starts with
    :data:`UNVERIFIED_MARK`.

    A ``filter`` fallback on a :func:`weakly_flagged` best round (``keep_margin``) delivers that
    round whole, annotated (marked with :data:`UNVERIFIED_MARK`, ``action="annotated"``),
    instead of dropping its flagged sentences or refusing: on the refinement benchmark every
    answer counted as broken lost its right facts to this cut (a falsely flagged paraphrase
    refused outright, a right first sentence dropped with a flagged one), and the answers it
    happened on were mostly those the guard flagged just over its threshold. A ``raise``
    fallback still raises.

    Raises
    ------
    HallucinationError
        With a ``raise`` fallback.
    """
    if state.stop == "max_iterations" and state.problems:
        state.stop = "unsupported"  # the last round's correction was not the evidence's
    best = state.best.model_copy(update={"history": tuple(state.history)})
    if fallback.kind is Policy.FILTER and weakly_flagged(state.best, keep_margin):
        fallback = PolicySpec(Policy.ANNOTATE)
    out = apply_policy(fallback, state.best_answer, best, refusal=refusal)
    answer = UNVERIFIED_MARK + out.answer if out.action == "annotated" else out.answer
    return PolicyOutcome(answer, out.result, out.action, state.original, stop_reason=state.stop,
                         rejected_rounds=tuple(state.rejected))
