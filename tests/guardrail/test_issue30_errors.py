"""Issue 30, items 7, 8, 9 and 11: errors that escaped untyped, were hidden, or printed tracebacks.

7. ``check --policy refine`` exits 1 when rows fail or records are unlogged; a lone
   surrogate in an answer is written, not a crash;
8. a failing sink inside a policy logs one clean error, through the one sink loop;
9. wrong constructor arguments raise InvalidInputError at construction; endpoint JSON
   nested too deeply is a KnowledgeBaseError; CLI outputs that cannot be written and a
   port in use end with one ``error:`` line, never a traceback;
11. ``Guard(detectors=...)`` with detectors the config does not name gives a working guard.
"""

from __future__ import annotations

import json
import logging
import socket
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from guardrail import Guard
from guardrail.cli.app import app
from guardrail.detectors import build_detectors
from guardrail.errors import ConfigError, InvalidInputError, LLMError, LogSinkError
from guardrail.log.records import FlaggedRecord, LogSink
from guardrail.policy.refine import enforce

CONTEXT = "Apple was founded by Steve Jobs and Steve Wozniak in 1976 in Cupertino, California."
BAD = "Apple was founded by Steve Jobs and Steve Wozniak in 1999."
GOOD = "Apple was founded by Steve Jobs and Steve Wozniak in 1976."


class Broken(LogSink):
    def write(self, record: FlaggedRecord) -> None:
        raise LogSinkError("disk full")


# ------------------------------------------------------------------ item 7: refine CLI exit codes
class FlakyLLM:
    """Re-prompts: the right answer, except for answers naming 1999 twice (an LLM error)."""

    def __init__(self, url: str, model: str) -> None:
        pass

    def reprompt(self, request: Any) -> str:
        if request.answer.count("1999") > 1:
            raise LLMError("server gone")
        return GOOD


def _refine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rows: list[dict[str, str]],
            *extra: str) -> tuple[Any, list[dict[str, Any]]]:
    import guardrail.llm.client as client_mod
    import guardrail.policy.rounds as rounds_mod

    monkeypatch.setattr(client_mod, "LLMClient", FlakyLLM)
    # the evidence repair would fix the planted year without the LLM: off, so the LLM path is tested
    monkeypatch.setattr(rounds_mod, "evidence_repair", lambda *a: None)
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    res = CliRunner().invoke(app, ["check", str(src), "--out", str(out), "--policy", "refine",
                                   "--llm-base-url", "http://127.0.0.1:9/v1", *extra])
    lines = out.read_text(encoding="utf-8").splitlines() if out.exists() else []
    return res, [json.loads(x) for x in lines]


@pytest.mark.slow
def test_refine_exits_1_when_rows_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    res, rows = _refine(tmp_path, monkeypatch, [
        {"id": "a", "answer": BAD, "context": CONTEXT},
        {"id": "b", "answer": BAD + " It was 1999.", "context": CONTEXT}])
    assert res.exit_code == 1, res.output
    assert [r["id"] for r in rows] == ["a", "b"] and rows[0]["answer"] == GOOD and "error" in rows[1]
    assert "Traceback" not in res.output


@pytest.mark.slow
def test_refine_exits_1_when_records_are_unlogged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    full = tmp_path / "flagged.jsonl"
    full.symlink_to("/dev/full")  # opens, then every write fails (no space left)
    res, rows = _refine(tmp_path, monkeypatch, [{"id": "a", "answer": BAD, "context": CONTEXT}],
                        "--log", str(full))
    assert res.exit_code == 1, res.output
    assert rows[0]["action"] == "refined"


@pytest.mark.slow
def test_refine_writes_a_lone_surrogate_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    res, rows = _refine(tmp_path, monkeypatch, [{"id": "a", "answer": "x", "context": CONTEXT}])
    assert res.exit_code == 0  # the plain case
    src = tmp_path / "s.jsonl"
    src.write_text(json.dumps({"id": "s", "answer": BAD[:-1] + " \ud800.", "context": CONTEXT}) + "\n")
    res = CliRunner().invoke(app, ["check", str(src), "--out", str(tmp_path / "s-out.jsonl"), "--policy",
                                   "refine", "--llm-base-url", "http://127.0.0.1:9/v1"])
    out = [json.loads(x) for x in (tmp_path / "s-out.jsonl").read_text().splitlines()]
    assert res.exit_code == 0, res.output
    assert out[0]["original_answer"].endswith("\ud800.") and out[0]["answer"] == GOOD


def test_llm_client_sends_lone_surrogates_as_replacement_characters(monkeypatch: pytest.MonkeyPatch):
    from guardrail.llm.client import LLMClient

    client = LLMClient("http://127.0.0.1:9/v1")
    sent: list[Any] = []

    class Completions:
        def create(self, **kw: Any) -> Any:
            sent.append(kw["messages"])
            raise LLMError("stop here")

    monkeypatch.setattr(client._client.chat, "completions", Completions())
    with pytest.raises(LLMError):
        client.chat([("user", "a \ud800 b")])
    assert sent[0][0]["content"] == "a \ufffd b"


# ------------------------------------------------------------------ item 8: one sink loop
@pytest.mark.slow
def test_a_failing_sink_in_a_policy_logs_one_clean_error(monkeypatch: pytest.MonkeyPatch,
                                                         caplog: pytest.LogCaptureFixture,
                                                         capsys: pytest.CaptureFixture[str]):
    import guardrail.log.sinks as sinks

    calls: list[str] = []
    real = sinks.write_to_sinks
    monkeypatch.setattr(sinks, "write_to_sinks", lambda s, r: calls.append(r.action or "") or real(s, r))
    guard = Guard(log=[Broken()])
    with caplog.at_level(logging.ERROR):
        out = enforce(guard, "filter", BAD, CONTEXT, "When was Apple founded?")
    assert "Logging error" not in capsys.readouterr().err
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "disk full" in errors[0], errors
    assert calls == [out.action] and [r.action for r in guard.unlogged] == [out.action]


# ------------------------------------------------------------------ item 9: typed errors
@pytest.mark.parametrize("kwargs", [{"config": None}, {"config": 123}, {"context_cache_size": None},
                                    {"context_cache_chars": 1.5}, {"log": 123}, {"log": [None]},
                                    {"detectors": ["verifier"]}, {"detectors": []}])
def test_wrong_guard_arguments_raise_invalid_input(kwargs: dict[str, Any]):
    with pytest.raises(InvalidInputError):
        Guard(**kwargs)


def test_adapters_reject_a_missing_guard_at_construction():
    from guardrail_langchain import GuardOutputParser, GuardRunnable
    from guardrail_llama_index import KGGuardrailEvaluator

    for make in (lambda: GuardRunnable(guard=None), lambda: GuardOutputParser(guard=None),
                 lambda: KGGuardrailEvaluator(None)):
        with pytest.raises(InvalidInputError, match="needs a guardrail.Guard"):
            make()


def test_llm_client_needs_a_base_url():
    from guardrail.llm.client import LLMClient

    for url in (None, "", "  "):
        with pytest.raises(InvalidInputError, match="base_url"):
            LLMClient(url)  # type: ignore[arg-type]


def test_deeply_nested_endpoint_json_is_a_knowledge_base_error():
    import http.server
    import threading

    from guardrail.kb import KnowledgeBaseError, SparqlEndpointKB

    body = b"[" * 100_000 + b"]" * 100_000

    class H(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        kb = SparqlEndpointKB(f"http://127.0.0.1:{httpd.server_address[1]}/sparql", retries=0)
        with pytest.raises(KnowledgeBaseError, match="nested too deeply"):
            kb.query("SELECT * WHERE { ?s ?p ?o }")
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.mark.parametrize("args", [
    ["check", "{src}", "--out", "/proc/no-such-dir/out.jsonl"],
    ["check", "{src}", "--out", "/dev/full"],
    ["check", "{src}", "--out", "{tmp}/out.jsonl", "--metrics", "/proc/no-such-dir/m.json"],
])
@pytest.mark.slow
def test_unwritable_outputs_end_with_one_error_line(tmp_path: Path, args: list[str]):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "a", "answer": GOOD, "context": CONTEXT, "label": 0}) + "\n")
    argv = [a.format(src=src, tmp=tmp_path) for a in args]
    res = CliRunner().invoke(app, argv)
    assert res.exit_code == 2, res.output
    assert "error:" in res.output and "Traceback" not in res.output
    assert not isinstance(res.exception, OSError)


def test_report_out_that_cannot_be_created_is_a_usage_error(tmp_path: Path):
    pytest.importorskip("jinja2")
    results = tmp_path / "r.jsonl"
    results.write_text(json.dumps({"id": "a", "passed": True, "score": 0.1}) + "\n")
    res = CliRunner().invoke(app, ["report", str(results), "--out", "/proc/no-such-dir/r.html"])
    assert res.exit_code == 2 and "cannot be created" in res.output, res.output


def test_llm_serve_on_a_port_in_use_is_one_error_line():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        res = CliRunner().invoke(app, ["llm", "serve", "--port", str(port)])
    assert res.exit_code == 2, res.output
    assert "in use" in res.output and "Traceback" not in res.output


# ------------------------------------------------------------------ item 11: passed detectors
@pytest.mark.slow
def test_guard_with_detectors_the_config_does_not_name_scores_with_them():
    guard = Guard(detectors=build_detectors(["kg_guard"], {}))
    assert guard.config.detectors == ["kg_guard"] and guard.config.node_source is None
    bad = guard.check("Apple was founded in 1999.", ["Apple was founded in 1976 by Steve Jobs."])
    good = guard.check("Apple was founded in 1976.", ["Apple was founded in 1976 by Steve Jobs."])
    assert list(bad.detector_scores) == ["kg_guard"] and not bad.passed and good.passed
    assert [f.text for f in bad.flagged_nodes] == ["1999"]


def test_a_logistic_config_must_weigh_a_passed_detector():
    from guardrail.config import GuardConfig

    cfg = GuardConfig(detectors=["grounding"], aggregation="logistic", weights={"grounding": 2.0})
    with pytest.raises(ConfigError, match="logistic"):
        Guard(cfg, detectors=build_detectors(["kg_guard"], {}))
