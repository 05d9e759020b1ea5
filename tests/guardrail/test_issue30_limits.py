"""Issue 30, item 6: a timeout bounds the whole request, a budget bounds the whole loop.

A local server that trickles its response one byte at a time stands in for a slow or
hostile endpoint; the clients must give up at their timeout, and the refinement loop at
its time budget, with typed errors or its fallback.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from guardrail import Guard
from guardrail.errors import LLMError, RefinementError
from guardrail.policy.refine import RefinementRequest, Refiner

CONTEXT = ["Apple was founded by Steve Jobs and Steve Wozniak in 1976 in Cupertino, California."]
QUESTION = "Who founded Apple, and when?"
BAD = "Apple was founded by Bill Gates in 1999 in Seattle."
REPLY = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": [
    {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": BAD}}]}).encode()


class Trickle(http.server.BaseHTTPRequestHandler):
    """Sends its headers at once, then the body one byte every 0.05 s."""

    body = REPLY
    delay = 0.05

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        try:
            for b in self.body:
                self.wfile.write(bytes([b]))
                self.wfile.flush()
                time.sleep(self.delay)
        except OSError:
            pass

    def log_message(self, *args: object) -> None:
        pass


class Fast(Trickle):
    delay = 0.0


def _serve(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def trickle() -> Iterator[str]:
    yield from _serve(Trickle)


@pytest.fixture
def fast() -> Iterator[str]:
    yield from _serve(Fast)


def test_llm_client_reads_a_prompt_response_through_the_deadline_transport(fast: str):
    from guardrail.llm.client import LLMClient

    assert LLMClient(f"{fast}/v1", timeout=5.0).chat([("user", "hi")]) == BAD


def test_llm_client_timeout_bounds_a_trickled_response(trickle: str):
    from guardrail.llm.client import LLMClient

    client = LLMClient(f"{trickle}/v1", timeout=1.0, retries=1)
    t0 = time.monotonic()
    with pytest.raises(LLMError):
        client.chat([("user", "hi")])
    assert time.monotonic() - t0 < 3.0  # the body alone takes 0.05 s x ~300 bytes = 15 s


def test_sparql_endpoint_timeout_bounds_a_trickled_response(trickle: str):
    from guardrail.kb import KnowledgeBaseError, SparqlEndpointKB

    kb = SparqlEndpointKB(f"{trickle}/sparql", timeout=1.0, retries=0)
    t0 = time.monotonic()
    with pytest.raises(KnowledgeBaseError):
        kb.query("SELECT * WHERE { ?s ?p ?o }")
    assert time.monotonic() - t0 < 3.0


class Failing:
    def __init__(self, exc: BaseException) -> None:
        self.exc, self.calls = exc, 0

    def __call__(self, req: RefinementRequest) -> str:
        self.calls += 1
        raise self.exc


@pytest.mark.slow
def test_refiner_does_not_retry_an_llm_error_its_client_already_retried(guard: Guard):
    llm = Failing(LLMError("failed after 3 attempts", transient=True))
    with pytest.raises(RefinementError):
        Refiner(guard, retry_attempts=3, retry_wait=0.01).refine(BAD, CONTEXT, QUESTION, llm)
    assert llm.calls == 1


@pytest.mark.slow
def test_refiner_does_not_retry_a_bug(guard: Guard):
    llm = Failing(KeyError("bug"))
    with pytest.raises(RefinementError):
        Refiner(guard, retry_attempts=3, retry_wait=0.01).refine(BAD, CONTEXT, QUESTION, llm)
    assert llm.calls == 1


@pytest.mark.slow
def test_refiner_backoff_never_waits_past_the_budget(guard: Guard):
    llm = Failing(ConnectionError("down"))
    t0 = time.monotonic()
    with pytest.raises(RefinementError):
        Refiner(guard, retry_attempts=10, retry_wait=1.0, time_budget=1.5).refine(BAD, CONTEXT, QUESTION, llm)
    assert time.monotonic() - t0 < 2.0 and llm.calls >= 1


@pytest.mark.slow
def test_refiner_budget_bounds_a_trickling_llm(guard: Guard, trickle: str):
    from guardrail.llm.client import LLMClient

    client = LLMClient(f"{trickle}/v1", timeout=60.0, retries=3)
    t0 = time.monotonic()
    out: Any = Refiner(guard, time_budget=2.0).refine(BAD, CONTEXT, QUESTION, client.reprompt)
    assert time.monotonic() - t0 < 4.0
    assert out.stop_reason == "time_budget" and out.action in ("filtered", "refused")
