"""Stand-ins shared by the refinement tests (a scripted chat model; each test says why it needs one)."""

from __future__ import annotations

from guardrail.policy.refine import RefinementRequest

__all__ = ["ScriptedLLM"]


class ScriptedLLM:
    """Stands in for the chat model: plays back replies in order, records the requests."""

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.requests: list[RefinementRequest] = []

    def __call__(self, req: RefinementRequest) -> str:
        self.requests.append(req)
        return self.replies[min(len(self.requests), len(self.replies)) - 1]
