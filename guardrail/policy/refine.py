"""Refinement (KG-Guard): re-prompt the LLM with the flagged nodes until none is flagged.

The loop is a component separate from detection, with a hard round cap
(``max_iterations``, default 5 as in KG-Guard) and a recorded history. It is
framework-free: it calls a *reprompt* function ``fn(RefinementRequest) -> str``
(or an async one) that the LangChain / LlamaIndex adapters build from their chat
model. One generator drives both the sync and the really-async loop.

LLM errors are retried with exponential backoff (tenacity) and then surface as
:class:`~guardrail.errors.RefinementError`. The prompts (untrusted text in delimited
blocks) are built in :mod:`guardrail.policy.prompts`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, cast

from tenacity import AsyncRetrying, RetryError, Retrying, stop_after_attempt, wait_exponential

from guardrail.extract.given import ContextInput, split_context_input
from guardrail.errors import ConfigError, RefinementError
from guardrail.policy.policies import (
    DEFAULT_REFUSAL,
    Policy,
    PolicyLike,
    PolicyOutcome,
    apply_policy,
    parse_policy,
)
from guardrail.policy.prompts import build_feedback, refinement_messages
from guardrail.types import GuardResult, RefinementRound

__all__ = [
    "RefinementRequest",
    "BaseRefiner",
    "Refiner",
    "build_feedback",
    "refinement_messages",
    "enforce",
    "aenforce",
]

MAX_ROUNDS_LIMIT = 20


@dataclass(frozen=True)
class RefinementRequest:
    """What the LLM is asked in one refinement round.

    Parameters
    ----------
    question : str or None
        The user's question.
    contexts : tuple of str
        The retrieved passages (graph contexts linearised as "subject relation object.").
    answer : str
        The last (flagged) answer.
    result : GuardResult
        Its verdict, with the flagged nodes.
    feedback : str
        The feedback message (see :func:`build_feedback`).
    round : int
        1 for the first re-prompt, up to ``max_iterations``.
    """

    question: str | None
    contexts: tuple[str, ...]
    answer: str
    result: GuardResult
    feedback: str
    round: int


Reprompt = Callable[[RefinementRequest], str]
AsyncReprompt = Callable[[RefinementRequest], Awaitable[str]]


class BaseRefiner(ABC):
    """The refinement role: one abstract method, :meth:`refine`."""

    @abstractmethod
    def refine(
        self, answer: str, contexts: ContextInput, question: str | None, reprompt: Reprompt,
        *, first: GuardResult | None = None,
    ) -> PolicyOutcome:
        """Re-prompt until the answer passes or the cap is reached; see :class:`Refiner`."""


# A step is ("check", answer) or ("llm", RefinementRequest); the driver sends back the
# GuardResult or the new answer.
_Step = tuple[str, Any]


class Refiner(BaseRefiner):
    """The KG-Guard refinement loop.

    Parameters
    ----------
    guard : Guard
        Checks every round's answer.
    max_iterations : int
        Hard cap on re-prompts, 1..20 (default 5, as in KG-Guard).
    fallback : {"annotate", "filter", "raise"} or callable
        Policy applied when the cap is reached with the answer still flagged; it is
        applied to the best round (lowest score).
    retry_attempts : int
        Attempts per LLM call (>= 1) before :class:`RefinementError`.
    retry_wait : float
        Initial backoff in seconds (doubles per attempt, capped at 8 s).
    refusal : str
        Message for the ``filter`` fallback when nothing supported is left.
    """

    def __init__(
        self, guard: Any, *, max_iterations: int = 5, fallback: PolicyLike = "annotate",
        retry_attempts: int = 3, retry_wait: float = 0.5, refusal: str = DEFAULT_REFUSAL,
    ) -> None:
        if not isinstance(max_iterations, int) or not 1 <= max_iterations <= MAX_ROUNDS_LIMIT:
            raise ConfigError(f"max_iterations must be an int in 1..{MAX_ROUNDS_LIMIT}, got {max_iterations!r}")
        if retry_attempts < 1:
            raise ConfigError(f"retry_attempts must be >= 1, got {retry_attempts!r}")
        self.fallback = parse_policy(fallback)
        if self.fallback.kind is Policy.REFINE:
            raise ConfigError("fallback cannot be 'refine'")
        self.guard = guard
        self.max_iterations = max_iterations
        self.retry_attempts = retry_attempts
        self.retry_wait = retry_wait
        self.refusal = refusal

    def _rounds(
        self, answer: str, contexts: ContextInput, question: str | None, first: GuardResult | None
    ) -> Generator[_Step, Any, PolicyOutcome]:
        result: GuardResult = first if first is not None else (yield ("check", answer))
        original = answer
        texts = _texts(contexts)  # what the LLM sees and the log hashes, derived once
        history: list[RefinementRound] = [_round(0, answer, result, "")]
        rounds = [(answer, result)]
        i = 0
        while not result.passed and i < self.max_iterations:
            i += 1
            feedback = build_feedback(result)
            history[-1] = history[-1].model_copy(update={"feedback": feedback})
            req = RefinementRequest(question, texts, answer, result, feedback, i)
            answer = yield ("llm", req)
            result = yield ("check", answer)
            history.append(_round(i, answer, result, ""))
            rounds.append((answer, result))
            self.guard.log_result(result, texts, event="refinement_round", round=i)
        if result.passed:
            final = result.model_copy(update={"history": tuple(history)})
            action = "refined" if i else "passed"
            return PolicyOutcome(answer, final, action, original)  # type: ignore[arg-type]
        best_answer, best = min(rounds, key=lambda p: p[1].score)
        best = best.model_copy(update={"history": tuple(history)})
        out = apply_policy(self.fallback, best_answer, best, refusal=self.refusal)
        return PolicyOutcome(out.answer, out.result, out.action, original)

    def refine(
        self, answer: str, contexts: ContextInput, question: str | None, reprompt: Reprompt,
        *, first: GuardResult | None = None,
    ) -> PolicyOutcome:
        """Run the loop synchronously.

        Parameters
        ----------
        answer : str
            The LLM's first answer.
        contexts : sequence of str
            Retrieved passages.
        question : str or None
            The question.
        reprompt : callable
            ``fn(RefinementRequest) -> str`` returning the LLM's new answer.
        first : GuardResult or None
            The first answer's verdict, if already computed.

        Returns
        -------
        PolicyOutcome
            ``action="refined"`` when a round passed; otherwise the fallback's outcome.
            ``result.history`` holds every round (answer, score, flagged nodes, feedback).

        Raises
        ------
        RefinementError
            The LLM kept failing after ``retry_attempts``.
        HallucinationError
            With ``fallback="raise"`` when the cap is reached.
        """
        ctx = _as_list(contexts)
        gen = self._rounds(answer, ctx, question, first)
        value: Any = None
        try:
            while True:
                kind, arg = gen.send(value)
                if kind == "check":
                    value = self.guard.check(arg, ctx, question, log=False)
                else:
                    value = self._call(reprompt, arg)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    async def arefine(
        self, answer: str, contexts: ContextInput, question: str | None, reprompt: AsyncReprompt,
        *, first: GuardResult | None = None,
    ) -> PolicyOutcome:
        """Async :meth:`refine`: awaits ``reprompt`` and ``guard.acheck`` (no blocking call)."""
        ctx = _as_list(contexts)
        gen = self._rounds(answer, ctx, question, first)
        value: Any = None
        try:
            while True:
                kind, arg = gen.send(value)
                if kind == "check":
                    value = await self.guard.acheck(arg, ctx, question, log=False)
                else:
                    value = await self._acall(reprompt, arg)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    def _retrying_kwargs(self) -> dict[str, Any]:
        return {
            "stop": stop_after_attempt(self.retry_attempts),
            "wait": wait_exponential(multiplier=self.retry_wait, max=8),
            "reraise": False,
        }

    def _call(self, reprompt: Reprompt, req: RefinementRequest) -> str:
        try:
            for attempt in Retrying(**self._retrying_kwargs()):
                with attempt:
                    return _check_answer(reprompt(req))
        except RetryError as exc:
            raise _refinement_error(exc, req) from exc.last_attempt.exception()
        raise RefinementError("unreachable")  # pragma: no cover

    async def _acall(self, reprompt: AsyncReprompt, req: RefinementRequest) -> str:
        try:
            async for attempt in AsyncRetrying(**self._retrying_kwargs()):
                with attempt:
                    return _check_answer(await reprompt(req))
        except RetryError as exc:
            raise _refinement_error(exc, req) from exc.last_attempt.exception()
        raise RefinementError("unreachable")  # pragma: no cover


def _as_list(contexts: ContextInput) -> Any:
    """A str stays one passage; a graph stays a graph; sequences become lists."""
    if isinstance(contexts, str) or not isinstance(contexts, Sequence):
        return contexts
    return list(contexts)


def _texts(contexts: ContextInput) -> tuple[str, ...]:
    texts, _ = split_context_input(contexts)
    if isinstance(texts, str):
        return (texts,)
    return tuple(str(t) for t in cast(Sequence[object], texts))


def _check_answer(value: object) -> str:
    if not isinstance(value, str):
        raise RefinementError(f"the LLM returned {type(value).__name__}, expected str")
    return value


def _refinement_error(exc: RetryError, req: RefinementRequest) -> RefinementError:
    last = exc.last_attempt.exception()
    err = RefinementError(f"LLM re-prompt failed in round {req.round} after retries: {last!r}")
    err.request = req  # type: ignore[attr-defined]
    return err


def _round(i: int, answer: str, result: GuardResult, feedback: str) -> RefinementRound:
    return RefinementRound(round=i, answer=answer, score=result.score, passed=result.passed,
                           flagged=tuple(n.text for n in result.flagged_nodes), feedback=feedback)


def enforce(
    guard: Any, policy: PolicyLike, answer: str, contexts: ContextInput, question: str | None = None,
    *, reprompt: Reprompt | None = None, refiner: Refiner | None = None, refusal: str = DEFAULT_REFUSAL,
    id: str | None = None,
) -> PolicyOutcome:
    """Check ``answer`` and apply ``policy``: the one call both framework adapters use.

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

    Returns
    -------
    PolicyOutcome

    Raises
    ------
    ConfigError
        ``refine`` without ``reprompt``.
    HallucinationError
        ``raise`` (or a ``raise`` fallback) on a flagged answer.
    """
    spec = parse_policy(policy)
    result = guard.check(answer, _as_list(contexts), question, id=id)
    if spec.kind is not Policy.REFINE or result.passed:
        return apply_policy(spec if spec.kind is not Policy.REFINE else "annotate", answer, result, refusal=refusal)
    if reprompt is None:
        raise ConfigError("policy 'refine' needs a reprompt function (the chain's chat model)")
    return (refiner or Refiner(guard, refusal=refusal)).refine(answer, contexts, question, reprompt, first=result)


async def aenforce(
    guard: Any, policy: PolicyLike, answer: str, contexts: ContextInput, question: str | None = None,
    *, reprompt: AsyncReprompt | None = None, refiner: Refiner | None = None,
    refusal: str = DEFAULT_REFUSAL, id: str | None = None,
) -> PolicyOutcome:
    """Async :func:`enforce` (``reprompt`` is awaited; the guard runs in a worker thread)."""
    spec = parse_policy(policy)
    result = await guard.acheck(answer, _as_list(contexts), question, id=id)
    if spec.kind is not Policy.REFINE or result.passed:
        return apply_policy(spec if spec.kind is not Policy.REFINE else "annotate", answer, result, refusal=refusal)
    if reprompt is None:
        raise ConfigError("policy 'refine' needs a reprompt function (the chain's chat model)")
    return await (refiner or Refiner(guard, refusal=refusal)).arefine(
        answer, contexts, question, reprompt, first=result
    )

