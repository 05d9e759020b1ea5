"""The log record of a policy's outcome: the first verdict plus the action and the delivered answer."""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

from guardrail.errors import HallucinationError
from guardrail.types import GuardResult

if TYPE_CHECKING:  # pragma: no cover
    from guardrail.policy.policies import PolicyOutcome

__all__ = ["OutcomeLog", "write_outcome"]


def write_outcome(
    guard: Any, result: GuardResult, contexts: Sequence[str], *, action: str | None,
    delivered_answer: str | None,
) -> None:
    """Write ``result``'s record with ``action`` and ``delivered_answer`` to the guard's sinks.

    Goes through :meth:`guardrail.Guard.log_record` (a failing sink keeps the record in
    ``guard.unlogged``); a guard-like object without that method logs nothing.
    """
    from guardrail.log.records import FlaggedRecord

    writer = getattr(guard, "log_record", None)
    if callable(writer):
        writer(FlaggedRecord.from_result(result, contexts, action=action, delivered_answer=delivered_answer))


class OutcomeLog:
    """Context manager: on exit, log a flagged (or declined) first verdict with what the policy did.

    Set :attr:`outcome` inside the block; an exception leaves ``action="raised"``
    (:class:`HallucinationError`) or ``"error"`` and no delivered answer.
    """

    def __init__(self, guard: Any, result: GuardResult, contexts: Any) -> None:
        self.guard, self.result, self.contexts = guard, result, contexts
        self.outcome: PolicyOutcome | None = None

    def __enter__(self) -> OutcomeLog:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.result.passed and not self.result.declined:
            return
        from guardrail.policy.rounds import context_texts

        action: str
        delivered: str | None
        if self.outcome is not None and exc_type is None:
            action, delivered = self.outcome.action, self.outcome.answer
        else:
            action = "raised" if exc_type is HallucinationError else "error"
            delivered = None
        write_outcome(self.guard, self.result, context_texts(self.contexts), action=action,
                      delivered_answer=delivered)
