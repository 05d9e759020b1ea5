"""The refinement loop's round bookkeeping, apart from its driver (:mod:`guardrail.policy.refine`).

* which texts a loop quotes and shows the LLM (:func:`loop_texts`, :func:`context_texts`);
* the repair rounds that need no LLM (:func:`repair_round`, :mod:`guardrail.policy.repair`): on
  each new best round, and (values only) on a rejected repair round;
* a reply to a ``restate`` feedback that is the restated claim alone, put back in its place
  (:func:`splice_restated`);
* why the loop stops before a round (:func:`stop_before`: ``max_iterations``,
  ``time_budget``) and the deadline each request carries (:func:`deadline`);
* the outcome of a loop that ended flagged (:func:`fallback_rounds`: a ``filter`` fallback
  delivers the best answer seen with its flagged clauses or sentences cut, when the guard
  passes the cut, else the refusal, :mod:`guardrail.policy.salvage`; :func:`fallback_outcome`:
  any other fallback on the best round, its stop reason, ``annotate`` marked with
  :data:`UNVERIFIED_MARK`; a weakly flagged best round is kept whole rather than cut,
  :func:`weakly_flagged`).

The round-by-round verdicts (better, worse, no progress, unsupported, repeated) are kept by
:class:`~guardrail.policy.progress.LoopState`.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence
from typing import Any, cast

from guardrail.extract.given import ContextInput, split_context_input
from guardrail.policy.feedback import FeedbackItem, feedback_items
from guardrail.policy.policies import Policy, PolicyOutcome, PolicySpec, apply_policy
from guardrail.policy.progress import LoopState
from guardrail.policy.repair import evidence_repair
from guardrail.policy.salvage import loop_outcome, salvage_rounds
from guardrail.text.sentences import split_sentences
from guardrail.types import GuardResult

__all__ = ["UNVERIFIED_MARK", "as_list", "splice_restated", "context_texts", "loop_texts", "repair_round", "stop_before", "deadline",
           "fallback_outcome", "fallback_rounds", "weakly_flagged", "DEFAULT_KEEP_MARGIN"]

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


def splice_restated(answer: str, items: Sequence[FeedbackItem], reply: str) -> str:
    """``reply`` put in place of the claim it restates, when it is that claim alone.

    A ``restate`` feedback (:mod:`guardrail.policy.feedback`) asks for one sentence of a longer
    answer to be restated from its evidence and the rest copied; a small model often returns the
    restated sentence alone (the refinement benchmark: a faithful two-sentence answer came back
    as its second sentence, losing the first one's facts).

    Parameters
    ----------
    answer : str
        The answer the feedback was made from (the items' spans index it).
    items : sequence of FeedbackItem
        The feedback's items.
    reply : str
        The LLM's answer, marks and lead-in already removed.

    Returns
    -------
    str
        ``answer`` with the one ``restate`` item's claim replaced by ``reply``, when every item is
        a ``restate`` item, ``answer`` has more than one sentence and ``reply`` has one, other than
        the claim as it was; else ``reply`` unchanged (a claim copied unchanged stays the reply: the
        guard judges that sentence alone, and the ``filter`` fallback may deliver it).
    """
    if len(items) != 1 or items[0].kind != "restate" or items[0].span is None:
        return reply
    if len(split_sentences(answer)) < 2 or len(split_sentences(reply)) != 1:
        return reply
    start, end = items[0].span
    if " ".join(reply.split()) == " ".join(answer[start:end].split()):
        return reply  # the claim copied unchanged: spliced, the answer would come back as it was
    return answer[:start] + reply.strip() + answer[end:]


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


def fallback_rounds(
    state: LoopState, fallback: PolicySpec, refusal: str, keep_margin: float | None = DEFAULT_KEEP_MARGIN,
) -> Generator[tuple[str, Any], Any, PolicyOutcome]:
    """The end of a loop whose best round is still flagged.

    A ``filter`` fallback salvages the best answer seen (the original or a round's answer) with
    its flagged clauses or sentences cut, each cut checked by the guard (``("check", answer)``
    is yielded, the verdict sent back), and refuses only when no cut passes
    (:func:`~guardrail.policy.salvage.salvage_rounds`): on the refinement benchmark most answers
    counted as broken were refusals that lost every right fact of the answer. A best round that
    :func:`weakly_flagged` keeps whole, and every other fallback, go to :func:`fallback_outcome`.
    """
    if fallback.kind is Policy.FILTER and not weakly_flagged(state.best, keep_margin):
        return (yield from salvage_rounds(state, refusal))
    return fallback_outcome(state, fallback, refusal, keep_margin)


def fallback_outcome(state: LoopState, fallback: PolicySpec, refusal: str,
                     keep_margin: float | None = DEFAULT_KEEP_MARGIN) -> PolicyOutcome:
    """The fallback policy applied to the best round of a loop that ended flagged (a ``filter``
    fallback on a best round that is not weakly flagged is :func:`fallback_rounds`' salvage).

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
    best = state.best.model_copy(update={"history": tuple(state.history)})  # a raised error carries it too
    if fallback.kind is Policy.FILTER and weakly_flagged(state.best, keep_margin):
        fallback = PolicySpec(Policy.ANNOTATE)
    out = apply_policy(fallback, state.best_answer, best, refusal=refusal)
    answer = UNVERIFIED_MARK + out.answer if out.action == "annotated" else out.answer
    return loop_outcome(state, answer, out.result, out.action)
