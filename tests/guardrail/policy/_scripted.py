"""Stand-ins shared by the refinement tests (a scripted chat model and a scripted guard; each test says why it needs one)."""

from __future__ import annotations

from typing import Any

from guardrail.policy.refine import RefinementRequest
from guardrail.types import FlaggedNode, GuardResult, Span

__all__ = ["ScriptedGuard", "ScriptedLLM", "scripted_result"]


class ScriptedLLM:
    """Stands in for the chat model: plays back replies in order, records the requests."""

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.requests: list[RefinementRequest] = []

    def __call__(self, req: RefinementRequest) -> str:
        self.requests.append(req)
        return self.replies[min(len(self.requests), len(self.replies)) - 1]


def scripted_result(answer: str, wrong: tuple[str, ...] = (), score: float = 0.8) -> GuardResult:
    """A guard verdict on ``answer``: flagged at ``score`` with a node per ``wrong`` phrase, else passed."""
    nodes = tuple(FlaggedNode(node_id=f"a:{answer.index(w)}", text=w, support=0.1,
                              span=Span(start=answer.index(w), end=answer.index(w) + len(w))) for w in wrong)
    return GuardResult(passed=not wrong, score=score if wrong else 0.3, threshold=0.5, answer=answer,
                       flagged_nodes=nodes)


class ScriptedGuard:
    """Stands in for the guard: a fixed verdict per answer (``verdicts``), else a pass; records
    what it checked and the log records the policy wrote."""

    def __init__(self, verdicts: dict[str, tuple[tuple[str, ...], float]]) -> None:
        self.verdicts = verdicts
        self.checked: list[str] = []
        self.records: list[Any] = []

    def check(self, answer: str, contexts: object, question: str | None = None, **_: object) -> GuardResult:
        self.checked.append(answer)
        wrong, score = self.verdicts.get(answer, ((), 0.3))
        return scripted_result(answer, wrong, score)

    def log_result(self, *args: object, **kwargs: object) -> None:
        pass

    def log_record(self, record: Any) -> None:
        self.records.append(record)
