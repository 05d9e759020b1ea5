"""The log record of a policy's outcome: the first verdict plus the action and the delivered answer."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

from guardrail.errors import HallucinationError, LogSinkError
from guardrail.types import GuardResult

if TYPE_CHECKING:  # pragma: no cover
    from guardrail.policy.policies import PolicyOutcome

__all__ = ["OutcomeLog", "write_outcome"]

_log = logging.getLogger("guardrail.log.sinks")


def write_outcome(
    guard: Any, result: GuardResult, contexts: Sequence[str], *, action: str | None,
    delivered_answer: str | None,
) -> None:
    """Write ``result``'s record with ``action`` and ``delivered_answer`` to the guard's sinks.

    Uses ``guard.log_record(record)`` when the guard has it; otherwise writes to the
    guard's sinks the way :meth:`Guard.log_result` does (a failing sink keeps the
    record in ``guard.unlogged``).
    """
    from guardrail.log.records import FlaggedRecord

    record = FlaggedRecord.from_result(result, contexts, action=action, delivered_answer=delivered_answer)
    writer = getattr(guard, "log_record", None)
    if callable(writer):
        writer(record)
        return
    failed = False
    for sink in getattr(guard, "_sinks", ()):
        try:
            sink.write(record)
        except Exception as exc:  # noqa: BLE001 - a sink must not lose the answer
            kind = "failed" if isinstance(exc, LogSinkError) else f"raised {type(exc).__name__} (a bug)"
            _log.error("flagged-answer log %r %s-answer log %r %s: %s; record kept in Guard.unlogged", sink, kind, exc)
            failed = True
    if failed and hasattr(guard, "unlogged"):
        guard.unlogged.keep(record)


class OutcomeLog:
    """Context manager: on exit, log a flagged first verdict with what the policy did.

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
        if self.result.passed:
            return
        from guardrail.policy.refine import _texts

        action: str
        delivered: str | None
        if self.outcome is not None and exc_type is None:
            action, delivered = self.outcome.action, self.outcome.answer
        else:
            action = "raised" if exc_type is HallucinationError else "error"
            delivered = None
        write_outcome(self.guard, self.result, _texts(self.contexts), action=action,
                      delivered_answer=delivered)
