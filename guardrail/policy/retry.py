"""Retries and the time budget of the refinement loop (:class:`~guardrail.policy.refine.Refiner`).

One budget bounds the whole loop: a retry is made only for a transient failure not yet
retried (:func:`retry_worthy`), never when its backoff would end past the deadline
(:class:`stop_before_deadline`), and a failure once the budget is spent ends the loop
instead of raising (:func:`failed`).
"""

from __future__ import annotations

import time
from typing import Any

from tenacity import RetryCallState
from tenacity.stop import stop_base

from guardrail.errors import GuardrailError, RefinementError
from guardrail.llm.client import is_transient

__all__ = ["stop_before_deadline", "retry_worthy", "failed"]


class stop_before_deadline(stop_base):  # noqa: N801 - named like tenacity's stop conditions
    """A tenacity stop condition: no retry whose backoff would end past ``deadline``.

    Parameters
    ----------
    deadline : float
        A ``time.monotonic()`` value.
    """

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline

    def __call__(self, retry_state: RetryCallState) -> bool:
        """True once ``now`` plus the next backoff reaches the deadline."""
        return time.monotonic() + retry_state.upcoming_sleep >= self.deadline


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
