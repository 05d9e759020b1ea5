"""Retries and the time budget of the refinement loop (:class:`~guardrail.policy.refine.Refiner`).

One budget bounds the whole loop: a retry is made only for a transient failure not yet
retried (:func:`retry_worthy`), never when its backoff would end past the deadline
(:class:`stop_before_deadline`), and a failure once the budget is spent ends the loop
instead of raising (:func:`failed`). :func:`call_reprompt` and :func:`acall_reprompt` make
one re-prompt under these rules.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from tenacity import (
    AsyncRetrying,
    RetryError,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
)
from tenacity.stop import stop_base

from guardrail.errors import GuardrailError, RefinementError
from guardrail.llm.client import is_transient
from guardrail.llm.deadline import stop_before_deadline

__all__ = ["stop_before_deadline", "retry_worthy", "failed", "call_reprompt", "acall_reprompt"]


def retry_worthy(exc: BaseException) -> bool:
    """A transient failure not yet retried: connection, timeout, 429, 5xx (not an LLMError,
    which its client already retried, nor a bad reply or a bug)."""
    if isinstance(exc, GuardrailError):
        return False
    return isinstance(exc, (TimeoutError, ConnectionError)) or is_transient(exc)


def failed(exc: BaseException | None, req: Any) -> None:
    """``None`` when the budget is spent (the loop stops on it), else raise :class:`RefinementError`."""
    if req.deadline is not None and time.monotonic() >= req.deadline:
        return None
    if isinstance(exc, RefinementError):
        raise exc
    err = RefinementError(f"LLM re-prompt failed in round {req.round} after retries: {exc!r}")
    err.request = req  # type: ignore[attr-defined]
    raise err from exc


def _retrying_kwargs(attempts: int, wait: float, deadline: float | None) -> dict[str, Any]:
    stop: stop_base = stop_after_attempt(attempts)
    if deadline is not None:
        stop = stop | stop_before_deadline(deadline)
    return {"stop": stop, "wait": wait_exponential(multiplier=wait, max=8),
            "retry": retry_if_exception(retry_worthy), "reraise": False}


def _check_answer(value: object) -> str:
    if not isinstance(value, str):
        raise RefinementError(f"the LLM returned {type(value).__name__}, expected str")
    return value


def call_reprompt(reprompt: Callable[[Any], str], req: Any, attempts: int, wait: float) -> str | None:
    """``reprompt(req)``, retried per :func:`retry_worthy` within ``req.deadline``.

    Parameters
    ----------
    reprompt : callable
        ``fn(RefinementRequest) -> str``.
    req : RefinementRequest
        The request (its ``deadline`` bounds the retries; its ``round`` names a failure).
    attempts : int
        Attempts (>= 1).
    wait : float
        First backoff in seconds (doubles, at most 8 s).

    Returns
    -------
    str or None
        The new answer; ``None`` when the call failed once the budget was spent.

    Raises
    ------
    RefinementError
        The call failed (after the retries) before the deadline, or returned no string.
    """
    try:
        for attempt in Retrying(**_retrying_kwargs(attempts, wait, req.deadline)):
            with attempt:
                return _check_answer(reprompt(req))
    except RetryError as exc:
        failed(exc.last_attempt.exception(), req)
        return None
    except Exception as exc:  # noqa: BLE001 - the caller's reprompt may raise anything: typed here
        failed(exc, req)
        return None
    raise RefinementError("unreachable")  # pragma: no cover


async def acall_reprompt(reprompt: Callable[[Any], Awaitable[str]], req: Any, attempts: int,
                         wait: float) -> str | None:
    """Async :func:`call_reprompt` (``reprompt`` is awaited)."""
    try:
        async for attempt in AsyncRetrying(**_retrying_kwargs(attempts, wait, req.deadline)):
            with attempt:
                return _check_answer(await reprompt(req))
    except RetryError as exc:
        failed(exc.last_attempt.exception(), req)
        return None
    except Exception as exc:  # noqa: BLE001 - the caller's reprompt may raise anything: typed here
        failed(exc, req)
        return None
    raise RefinementError("unreachable")  # pragma: no cover
