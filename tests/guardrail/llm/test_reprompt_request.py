"""``LLMClient.reprompt`` sends what the refinement step built: the request's messages, its reply
length (capped at the client's ``max_tokens``) and its deadline (no model, no server)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from guardrail.llm.client import LLMClient, Message
from guardrail.policy.prompts import refinement_messages
from guardrail.policy.refine import RefinementRequest
from guardrail.types import GuardResult

CONTEXT = ("Apple was founded by Steve Jobs and Steve Wozniak in 1976 in Cupertino, California.",)
BAD = "Apple was founded by Bill Gates in 1999."


def _request(answer: str = BAD, deadline: float | None = None) -> RefinementRequest:
    # a bare verdict: the client reads none of it (the prompt reads its flagged nodes, here none)
    result = GuardResult(passed=False, score=0.7, threshold=0.5, answer=answer)
    return RefinementRequest("Who founded Apple?", CONTEXT, answer, result, '- "1999": [[1999]]', 1, deadline)


class _Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[list[Message], dict[str, Any]]] = []

    def __call__(self, messages: list[Message], **kw: Any) -> str:
        self.calls.append((list(messages), kw))
        return "  Apple was founded in 1976.\n"


@pytest.fixture
def client() -> tuple[LLMClient, _Recorder]:
    c = LLMClient("http://127.0.0.1:9/v1", max_tokens=100)
    rec = _Recorder()
    c.chat = rec  # type: ignore[method-assign,assignment]
    return c, rec


def test_request_builds_the_prompt_and_sizes_the_reply() -> None:
    req = _request()
    assert req.messages() == refinement_messages(req)
    assert req.reply_tokens == 64  # 7 words: the floor
    assert _request(" ".join(["word"] * 40)).reply_tokens == 96


def test_reprompt_sends_the_request_messages_cap_and_deadline(client: tuple[LLMClient, _Recorder]) -> None:
    c, rec = client
    req = _request(deadline=123.0)
    assert c.reprompt(req) == "Apple was founded in 1976."
    assert rec.calls == [(refinement_messages(req), {"max_tokens": 64, "deadline": 123.0})]
    long = _request(" ".join(["word"] * 60))  # 136 tokens asked, the client's 100 sent
    c.reprompt(long)
    assert rec.calls[-1][1] == {"max_tokens": 100, "deadline": None}


def test_reprompt_reads_any_request_of_the_protocol(client: tuple[LLMClient, _Recorder]) -> None:
    class Plain:
        deadline = None
        reply_tokens = 70

        def messages(self) -> list[Message]:
            return [("user", "fix it")]

    c, rec = client
    assert asyncio.run(c.areprompt(Plain())) == "Apple was founded in 1976."
    assert rec.calls == [([("user", "fix it")], {"max_tokens": 70, "deadline": None})]
