"""LLM triple extraction a user can switch on (issue 25): ``extractor: "llm"`` in a config,
``check --extractor llm --llm-base-url URL``, one call per passage (cached), timeouts
sized to the reply, and a WARNING when it falls back to spaCy.

The endpoint here is a scripted OpenAI-compatible stand-in (an HTTP server on 127.0.0.1
that answers every chat completion with triples cut from the text by a fixed rule), so
the wiring is tested without a model; ``tests/guardrail/llm/test_extraction_cli_llm.py``
runs the same command against the real local model.
"""

from __future__ import annotations

import http.server
import json
import logging
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from guardrail import Guard
from guardrail.cli import app as cli
from guardrail.config import load_config
from guardrail.errors import ConfigError
from guardrail.extract.llm_extractor import LLMExtractor, call_timeout, reply_tokens

PASSAGE = "Apple was founded by Steve Jobs in 1976. Apple is based in Cupertino."


class StandIn(http.server.BaseHTTPRequestHandler):
    """A scripted chat-completions endpoint: (first two words, "is", last word) per sentence."""

    texts: list[str] = []
    status = 200

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        text = body["messages"][-1]["content"].split("Text:\n", 1)[-1].split("\n\nReply with JSON")[0]
        type(self).texts.append(text)
        if self.status != 200:
            self.send_response(self.status)
            self.end_headers()
            return
        triples = []
        for sent in re.split(r"(?<=\.)\s+", text.strip()):
            words = sent.rstrip(".").split()
            if len(words) >= 3:
                triples.append({"subject": " ".join(words[:2]), "relation": "is", "object": words[-1]})
        reply = {"id": "x", "object": "chat.completion", "created": 0, "model": "stand-in",
                 "choices": [{"index": 0, "finish_reason": "stop",
                              "message": {"role": "assistant", "content": json.dumps({"triples": triples})}}],
                 "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _serve(status: int) -> Iterator[tuple[str, list[str]]]:
    handler = type("Handler", (StandIn,), {"texts": [], "status": status})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", handler.texts
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def endpoint() -> Iterator[tuple[str, list[str]]]:
    yield from _serve(200)


@pytest.fixture
def broken() -> Iterator[tuple[str, list[str]]]:
    yield from _serve(500)


def _llm_config(**extra: Any) -> Any:
    return load_config({**load_config("default").model_dump(), "extractor": "llm", **extra})


def test_config_selects_the_llm_extractor(endpoint, monkeypatch) -> None:
    url, _ = endpoint
    g = Guard(_llm_config(llm_base_url=url, llm_model="m", llm_timeout=7.0))
    assert isinstance(g.extractor, LLMExtractor) and g.extractor.client.base_url == url
    assert g.extractor.client.model == "m" and g.extractor.timeout == 7.0
    monkeypatch.delenv("KG_GUARDRAIL_LLM_BASE_URL", raising=False)
    with pytest.raises(ConfigError, match="llm_base_url"):
        Guard(_llm_config())
    monkeypatch.setenv("KG_GUARDRAIL_LLM_BASE_URL", url)
    assert Guard(_llm_config()).extractor.client.base_url == url
    with pytest.raises(ConfigError):
        _llm_config(extractor="bert")
    assert Guard().config.extractor == "spacy"


def test_one_call_per_text_sized_timeouts(endpoint) -> None:
    url, texts = endpoint
    ex = LLMExtractor(base_url=url)
    g1 = ex.extract(PASSAGE, source=0)
    assert ex.extract(PASSAGE, source=0) == g1 and texts == [PASSAGE]  # the whole passage, once
    assert {t.pattern for t in g1.triples} >= {"llm"}
    assert reply_tokens("word " * 10, 1024) == 96 and reply_tokens("word " * 400, 1024) == 1024
    assert call_timeout("word " * 400, 1024) > call_timeout("word " * 10, 96) > 60.0


def test_fallback_to_spacy_is_logged(broken, caplog) -> None:
    url, texts = broken
    ex = LLMExtractor(base_url=url, max_failures=2)
    ex.client.retry_wait = 0.01
    with caplog.at_level(logging.WARNING, logger="guardrail.extract.llm_extractor"):
        graphs = [ex.extract(f"Apple was founded in {1970 + i}.") for i in range(3)]
    assert all(not g.is_empty for g in graphs) and ex.fallbacks == 3
    msgs = [r.getMessage() for r in caplog.records]
    assert sum("falling back to spaCy" in m for m in msgs) == 2 and url in msgs[0]
    assert any("using spaCy for every further text" in m for m in msgs)
    assert ex.client.retries == 1 and len(texts) == 2  # the third text did not ask the endpoint


@pytest.mark.slow
def test_cli_check_with_llm_extraction_gives_verdicts(endpoint, tmp_path) -> None:
    url, texts = endpoint
    inp = tmp_path / "items.jsonl"
    inp.write_text("".join(json.dumps(x) + "\n" for x in [
        {"id": "a", "answer": "Apple was founded by Steve Jobs in 1976.", "context": PASSAGE},
        {"id": "b", "answer": "Apple was founded by Steve Jobs in 1999.", "context": PASSAGE},
    ]))
    out = tmp_path / "out.jsonl"
    res = CliRunner().invoke(cli.app, ["check", str(inp), "--out", str(out), "--graphs", "--extractor", "llm",
                                       "--llm-base-url", url, "--llm-timeout", "30"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["a", "b"] and all(isinstance(r["passed"], bool) for r in rows)
    assert all(any(t["pattern"] == "llm" for t in r["claim_graph"]["triples"]) for r in rows)
    assert texts.count(PASSAGE) == 1  # the shared passage was extracted once
    bad = CliRunner().invoke(cli.app, ["check", str(inp), "--out", str(out), "--extractor", "bert"])
    assert bad.exit_code == 2
