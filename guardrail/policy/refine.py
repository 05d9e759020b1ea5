"""Refinement (KG-Guard): re-prompt the LLM with the flagged nodes until none is flagged.

The loop is a component separate from detection, with a hard round cap (``max_iterations``, default 5
as in KG-Guard) and a recorded history. It is framework-free: it calls a *reprompt* function
``fn(RefinementRequest) -> str`` (or an async one) that the LangChain / LlamaIndex adapters build from
their chat model. One generator drives both the sync and the really-async loop.

LLM errors are retried with exponential backoff (tenacity) and then surface as
:class:`~guardrail.errors.RefinementError`. The prompts (untrusted text in delimited
blocks) are built in :mod:`guardrail.policy.prompts`; the round bookkeeping (stop reasons,
deadline, the repair round, the fallback outcome) is in :mod:`guardrail.policy.rounds`.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from guardrail.errors import ConfigError
from guardrail.extract.given import ContextInput
from guardrail.policy.acceptance import judge_round
from guardrail.policy.feedback import FeedbackItem, build_feedback, feedback_items, unmark
from guardrail.policy.outcome_log import OutcomeLog as _OutcomeLog
from guardrail.policy.policies import (
    DEFAULT_REFUSAL,
    Policy,
    PolicyLike,
    PolicyOutcome,
    PolicySpec,
    apply_policy,
    parse_policy,
)
from guardrail.policy.progress import LoopState as _LoopState
from guardrail.policy.progress import is_declined
from guardrail.policy.progress import make_round as _round
from guardrail.policy.prompts import refinement_messages, short_answer
from guardrail.policy.retry import acall_reprompt, call_reprompt
from guardrail.policy.rounds import (
    DEFAULT_KEEP_MARGIN,
    UNVERIFIED_MARK,
    as_list,
    deadline,
    fallback_rounds,
    loop_texts,
    repair_round,
    splice_restated,
    stop_before,
)
from guardrail.types import GuardResult

__all__ = ["RefinementRequest", "BaseRefiner", "Refiner", "build_feedback", "refinement_messages", "enforce",
           "aenforce", "UNVERIFIED_MARK"]

MAX_ROUNDS_LIMIT = 20


@dataclass(frozen=True)
class RefinementRequest:
    """What the LLM is asked in one refinement round.

    Parameters
    ----------
    question : str or None
        The user's question.
    contexts : tuple of str
        The retrieved passages (graph contexts linearised as "subject relation object."); with a
        knowledge-base guard (``Guard(kb=...)``), the passages then one sentence per KB fact.
    answer : str
        The last (flagged) answer.
    result : GuardResult
        Its verdict, with the flagged nodes.
    feedback : str
        The feedback message (see :func:`build_feedback`).
    round : int
        1 for the first re-prompt, up to ``max_iterations``.
    deadline : float or None
        ``time.monotonic()`` value by which the loop's ``time_budget`` is spent (``None``: no budget);
        a reprompt should not wait past it (:meth:`guardrail.llm.client.LLMClient.reprompt` does not).
    """

    question: str | None
    contexts: tuple[str, ...]
    answer: str
    result: GuardResult
    feedback: str
    round: int
    deadline: float | None = None

    @property
    def reply_tokens(self) -> int:
        """The reply length to ask for: twice the answer's words plus 16, at least 64 tokens (an edit of it)."""
        return max(64, 2 * len(self.answer.split()) + 16)

    def messages(self) -> list[tuple[str, str]]:
        """This round's chat messages (:func:`~guardrail.policy.prompts.refinement_messages`)."""
        return refinement_messages(self)


Reprompt = Callable[[RefinementRequest], str]
AsyncReprompt = Callable[[RefinementRequest], Awaitable[str]]


class BaseRefiner(ABC):
    """The refinement role: one abstract method, :meth:`refine`."""

    @abstractmethod
    def refine(
        self, answer: str, contexts: ContextInput, question: str | None, reprompt: Reprompt,
        *, first: GuardResult | None = None, id: str | None = None,
    ) -> PolicyOutcome:
        """Re-prompt until the answer passes or the loop stops; see :class:`Refiner`."""


# A step is ("check", answer) or ("llm", RefinementRequest); the driver sends back the
# GuardResult or the new answer.
_Step = tuple[str, Any]


class Refiner(BaseRefiner):
    """The KG-Guard refinement loop, made to converge.

    Each round re-prompts the LLM with the flagged claims, their wrong words, the
    evidence sentence and the fix that fits the error (:func:`build_feedback`: the value
    the evidence states, delete an added detail, or who did what), then checks the whole
    new answer with the same guard. A round is accepted only when it is better than the
    best so far *and* every correction inside a flagged claim is stated by the evidence
    sentence its feedback quoted (:func:`~guardrail.policy.acceptance.check_corrections`):
    a replacement the context states elsewhere (another year, another person) is rejected
    as ``unsupported`` even when the guard passes it, and the loop goes on from the best
    round, told why; so is a round that writes a value (number, name) anywhere that neither
    the original answer nor the context states (:func:`~guardrail.policy.acceptance.judge_round`),
    repair rounds included. The loop stops when an accepted answer passes; when the new answer
    repeats an earlier one; when a round is worse or no progress
    (:func:`~guardrail.policy.progress.compare_rounds`: a worse round, one that lost a
    supported claim or has more flagged nodes, is rejected, and the next prompt never
    builds on it); when ``time_budget`` seconds have passed; or at ``max_iterations``.
    An answer that declines as a whole ("I don't know."; ``GuardResult.declined``) is
    never refined: it is returned as it is, with ``action="declined"``.

    Parameters
    ----------
    guard : Guard
        Checks every round's answer.
    max_iterations : int
        Hard cap on re-prompts, 1..20 (default 5, as in KG-Guard).
    fallback : {"filter", "raise", "annotate"} or callable
        Applied to the best round when the loop ends with the answer still flagged.
        ``filter`` (default) delivers the best answer seen (the original or a round's) with its
        flagged clauses or sentences cut, when the guard passes the cut and it states something
        (:mod:`guardrail.policy.salvage`), else the refusal; ``raise`` raises
        :class:`~guardrail.errors.HallucinationError`; ``annotate`` delivers the best
        answer prefixed with :data:`UNVERIFIED_MARK`, so a flagged answer never reaches
        the user unmarked.
    retry_attempts : int
        Attempts per LLM call (>= 1) before :class:`RefinementError`. Only transient
        failures are retried (connection errors, timeouts, 429 and 5xx: see
        :func:`~guardrail.llm.client.is_transient`); an :class:`~guardrail.errors.LLMError`
        has already been retried by the client that raised it and any other exception is a
        bad reply or a bug, so neither is retried again.
    retry_wait : float
        Initial backoff in seconds (doubles per attempt, capped at 8 s).
    refusal : str
        Message for the ``filter`` fallback when nothing supported is left.
    time_budget : float or None
        Seconds the whole loop may take (default 120; ``None``: no limit): no round starts,
        no retry is made and no backoff waits past it, and each request carries the
        deadline (:attr:`RefinementRequest.deadline`). An LLM failure once it is spent ends
        the loop with ``stop_reason="time_budget"`` and the fallback.
    repair : bool
        Before the LLM is asked about a best round, try the evidence repair on it once
        (:func:`~guardrail.policy.repair.evidence_repair`: each wrong value, in digits or words,
        replaced by the one value of its kind that the quoted evidence sentence states, with
        its unit; each added detail deleted with the smallest clause, appositive or
        prepositional phrase holding it), checked by the guard like any round (default True).
        It counts as a round; when it is accepted without passing, the new best round is
        repaired in turn (a repair can let the guard judge another sentence), and when it is
        not, the LLM rounds follow.
    keep_margin : float or None
        A ``filter`` fallback on a best round that is only weakly flagged (score below the
        guard's threshold plus this margin, or no flagged node to cut) delivers it whole and
        annotated instead of cutting sentences (:func:`~guardrail.policy.rounds.weakly_flagged`;
        default ``None``: always cut; opt in with e.g. 0.1).
    """

    def __init__(
        self, guard: Any, *, max_iterations: int = 5, fallback: PolicyLike = "filter",
        retry_attempts: int = 3, retry_wait: float = 0.5, refusal: str = DEFAULT_REFUSAL,
        time_budget: float | None = 120.0, repair: bool = True, keep_margin: float | None = DEFAULT_KEEP_MARGIN,
    ) -> None:
        if not isinstance(max_iterations, int) or not 1 <= max_iterations <= MAX_ROUNDS_LIMIT:
            raise ConfigError(f"max_iterations must be an int in 1..{MAX_ROUNDS_LIMIT}, got {max_iterations!r}")
        if retry_attempts < 1:
            raise ConfigError(f"retry_attempts must be >= 1, got {retry_attempts!r}")
        if time_budget is not None and not time_budget > 0:
            raise ConfigError(f"time_budget must be > 0 seconds or None, got {time_budget!r}")
        if not isinstance(repair, bool):
            raise ConfigError(f"repair must be a bool, got {repair!r}")
        if keep_margin is not None and not 0.0 <= keep_margin <= 1.0:
            raise ConfigError(f"keep_margin must be in 0..1 or None, got {keep_margin!r}")
        self.fallback = parse_policy(fallback)
        if self.fallback.kind is Policy.REFINE:
            raise ConfigError("fallback cannot be 'refine'")
        self.guard = guard
        self.max_iterations = max_iterations
        self.retry_attempts = retry_attempts
        self.retry_wait = retry_wait
        self.refusal = refusal
        self.time_budget = time_budget
        self.repair = repair
        self.keep_margin = keep_margin

    def _check_round(self, state: _LoopState, new: str, items: Sequence[FeedbackItem], texts: tuple[str, ...],
                     original: str, question: str | None) -> Generator[_Step, Any, GuardResult]:
        """Check round ``new`` with the same guard (the whole answer), log it, judge it; its verdict."""
        i = len(state.history)
        res: GuardResult = yield ("check", new)
        self.guard.log_result(res, texts, event="refinement_round", round=i)
        state.step(i, new, res, judge_round(items, state.best_answer, new, original, texts, question))
        return res

    def _rounds(
        self, answer: str, contexts: ContextInput, question: str | None, first: GuardResult | None,
    ) -> Generator[_Step, Any, PolicyOutcome]:
        result: GuardResult = first if first is not None else (yield ("check", answer))
        texts = loop_texts(self.guard, contexts, result)  # what the LLM sees and the log hashes, derived once
        state = _LoopState(answer, result, [_round(0, answer, result, "")], time.monotonic())
        if result.declined or is_declined(answer):
            return state.finish("declined")
        if result.passed:
            return state.finish("passed")
        last, tried = (answer, result), set[str]()  # the last round; the answers the evidence repair was tried on
        while state.stop == "":
            state.stop = stop_before(state, self.max_iterations, self.time_budget)
            if state.stop:
                break
            repaired = repair_round(state, texts, question, last, tried) if self.repair else None
            if repaired is not None:  # the evidence says what to write or delete: no LLM needed
                last = (repaired, (yield from self._check_round(state, repaired, (), texts, answer, question)))
                state.stop = "passed" if state.best.passed else ""  # a failed repair: the LLM rounds follow
                continue
            items = feedback_items(state.best, texts, question=question)
            feedback = build_feedback(state.best, texts, rejected=state.problems, question=question,
                                      short=short_answer(question, state.best_answer, state.best))
            state.history[-1] = state.history[-1].model_copy(update={"feedback": feedback})
            new = yield ("llm", RefinementRequest(question, texts, state.best_answer, state.best, feedback,
                                                  len(state.history), deadline(state, self.time_budget)))
            if new is None:  # the LLM failed once the budget was spent
                state.stop = "time_budget"
                break
            new = splice_restated(state.best_answer, items, unmark(new, state.best_answer))  # marks, lead-in out
            last = (new, (yield from self._check_round(state, new, items, texts, answer, question)))
        if state.best.passed:
            return state.finish("refined")
        return (yield from fallback_rounds(state, self.fallback, self.refusal, self.keep_margin))

    def refine(
        self, answer: str, contexts: ContextInput, question: str | None, reprompt: Reprompt,
        *, first: GuardResult | None = None, id: str | None = None,
    ) -> PolicyOutcome:
        """Run the loop synchronously.

        Parameters
        ----------
        answer, contexts, question
            The LLM's first answer, the retrieved passages and the question.
        reprompt : callable
            ``fn(RefinementRequest) -> str`` returning the LLM's new answer.
        first : GuardResult or None
            The first answer's verdict, if already computed.
        id : str or None
            The request's id (a framework run / trace id), carried by every round's result and log record.

        Returns
        -------
        PolicyOutcome
            ``action="refined"`` when a round passed, ``"declined"`` for an answer that declines as a
            whole; otherwise the fallback's outcome (``fallback_round``: whose answer ``filter`` cut).
            ``result.history`` holds every round (rejected ones too), ``stop_reason`` why the loop
            ended (kept by the fallback), ``rejected_rounds`` the rounds that were worse.

        Raises
        ------
        RefinementError
            The LLM kept failing after ``retry_attempts``.
        HallucinationError
            With ``fallback="raise"`` when the cap is reached.
        """
        ctx = as_list(contexts)
        gen = self._rounds(answer, ctx, question, first)
        value: Any = None
        try:
            while True:
                kind, arg = gen.send(value)
                if kind == "check":
                    value = self.guard.check(arg, ctx, question, id=id, log=False)
                else:
                    value = call_reprompt(reprompt, arg, self.retry_attempts, self.retry_wait)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    async def arefine(
        self, answer: str, contexts: ContextInput, question: str | None, reprompt: AsyncReprompt,
        *, first: GuardResult | None = None, id: str | None = None,
    ) -> PolicyOutcome:
        """Async :meth:`refine`: awaits ``reprompt`` and ``guard.acheck`` (no blocking call)."""
        ctx = as_list(contexts)
        gen = self._rounds(answer, ctx, question, first)
        value: Any = None
        try:
            while True:
                kind, arg = gen.send(value)
                if kind == "check":
                    value = await self.guard.acheck(arg, ctx, question, id=id, log=False)
                else:
                    value = await acall_reprompt(reprompt, arg, self.retry_attempts, self.retry_wait)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]


def enforce(
    guard: Any, policy: PolicyLike, answer: str, contexts: ContextInput, question: str | None = None,
    *, reprompt: Reprompt | None = None, refiner: Refiner | None = None, refusal: str = DEFAULT_REFUSAL,
    id: str | None = None,
) -> PolicyOutcome:
    """Check ``answer`` and apply ``policy``: the one call both framework adapters use.

    A flagged (or abstained) answer gets one log record once the policy has run, with
    the ``action`` taken and the ``delivered_answer`` (``None`` when the policy raised);
    refinement rounds are logged as they happen. All carry ``id``.

    Parameters
    ----------
    guard : Guard
        The guard (its log sinks record flagged answers and refinement rounds).
    policy : PolicyLike
        ``annotate``, ``filter``, ``raise``, ``refine`` or a callable.
    answer, contexts, question
        As for :meth:`Guard.check`.
    reprompt : callable or None
        Required for ``refine``: ``fn(RefinementRequest) -> str``.
    refiner : Refiner or None
        Loop settings for ``refine`` (default ``Refiner(guard)``).
    refusal : str
        Message for ``filter`` when nothing supported is left.
    id : str or None
        The request id (LangChain run id, LlamaIndex trace id), carried into every result
        and log record.

    Returns
    -------
    PolicyOutcome

    Raises
    ------
    ConfigError
        ``refine`` without ``reprompt``.
    HallucinationError
        ``raise`` (or a ``raise`` fallback) on a flagged answer.
    RefinementError
        The LLM kept failing.
    """
    spec = parse_policy(policy)
    ctx = as_list(contexts)
    result = guard.check(answer, ctx, question, id=id, log=False)
    with _OutcomeLog(guard, result, contexts) as log:
        if spec.kind is not Policy.REFINE or result.passed:
            log.outcome = _simple(spec, answer, result, refusal)
            return log.outcome
        if reprompt is None:
            raise ConfigError("policy 'refine' needs a reprompt function (the chain's chat model)")
        log.outcome = (refiner or Refiner(guard, refusal=refusal)).refine(
            answer, contexts, question, reprompt, first=result, id=id)
        return log.outcome


async def aenforce(
    guard: Any, policy: PolicyLike, answer: str, contexts: ContextInput, question: str | None = None,
    *, reprompt: AsyncReprompt | None = None, refiner: Refiner | None = None,
    refusal: str = DEFAULT_REFUSAL, id: str | None = None,
) -> PolicyOutcome:
    """Async :func:`enforce` (``reprompt`` is awaited; the guard runs in a worker thread)."""
    spec = parse_policy(policy)
    result = await guard.acheck(answer, as_list(contexts), question, id=id, log=False)
    with _OutcomeLog(guard, result, contexts) as log:
        if spec.kind is not Policy.REFINE or result.passed:
            log.outcome = _simple(spec, answer, result, refusal)
            return log.outcome
        if reprompt is None:
            raise ConfigError("policy 'refine' needs a reprompt function (the chain's chat model)")
        log.outcome = await (refiner or Refiner(guard, refusal=refusal)).arefine(
            answer, contexts, question, reprompt, first=result, id=id)
        return log.outcome


def _simple(spec: PolicySpec, answer: str, result: GuardResult, refusal: str) -> PolicyOutcome:
    kind = spec if spec.kind is not Policy.REFINE else parse_policy("annotate")
    return apply_policy(kind, answer, result, refusal=refusal)
