"""Tests for the kg-guardrail command line.

Most tests replace :func:`guardrail.cli.common.make_guard` with a real :class:`Guard` whose
extractor and judge are tiny fakes (capitalised words; share of answer words missing
from the context), so they exercise input handling, batching, logging and rendering
without loading models. ``test_end_to_end_real_guard`` runs the real pipeline (slow).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from benchmarks.devdata import dev_split
from guardrail.cli import app as cli
from guardrail.cli import common as cli_common
from guardrail.config import GuardConfig, load_config, save_config
from guardrail.extract.base import Extractor
from guardrail.guard import Guard
from guardrail.log.sinks import read_log
from guardrail.types import Explanation, FlaggedNode, KnowledgeGraph, Node, Span

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()
FAKE_CONFIG = GuardConfig(name="fake", detectors=["overlap", "length"], aggregation="max", threshold=0.5)


class CapitalWords(Extractor):
    """Nodes = capitalised words; no triples."""

    name = "capital-words"

    def extract(self, text: str, *, source: int = -1) -> KnowledgeGraph:
        nodes = tuple(
            Node(id=f"{source}:{m.start()}", text=m.group(), label=m.group().lower(), kind="PROPN",
                 span=Span(start=m.start(), end=m.end(), source=source))
            for m in re.finditer(r"\b[A-Z][a-z]+\b", text)
        )
        return KnowledgeGraph(nodes=nodes, texts=(text,))


class FakeEncoder:
    def encode(self, texts: Any) -> np.ndarray:
        return np.ones((len(texts), 4), dtype=np.float32)


class OverlapGuard(Guard):
    """A real Guard (validation, abstention, batching, logging) with a fake judge."""

    def _judge(self, item, cfg, run):  # type: ignore[no-untyped-def]
        ctx = {n.label for n in item.context_graph.nodes}
        missing = [n for n in item.claim_graph.nodes if n.label not in ctx]
        overlap = len(missing) / len(item.claim_graph.nodes)
        scores = {"overlap": overlap, "length": min(1.0, len(item.answer) / 1000)}
        score = max(scores.values())
        passed = score < cfg.threshold
        flagged = () if passed else tuple(
            FlaggedNode(node_id=n.id, text=n.text, span=n.span, support=0.0,
                        reason=f"the answer says {n.text!r}; the context does not")
            for n in missing)
        expl = Explanation(summary=f"{len(missing)} unsupported node(s).",
                           sentences=tuple(f.reason for f in flagged))
        return run.result(passed=passed, score=score, detector_scores=scores, flagged_nodes=flagged,
                          explanation=expl)


def fake_guard(config: str | None = None, log: Any = None) -> Guard:
    cfg = FAKE_CONFIG if config is None else load_config(config)
    return OverlapGuard(cfg, extractor=CapitalWords(), encoder=FakeEncoder(), log=log)


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(cli_common, "make_guard", fake_guard)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


GOOD = [
    {"id": "ok", "question": "Where is Paris?", "context": ["Paris is in France."], "answer": "Paris is in France.", "label": 0},
    {"context": "Paris is in France.", "answer": "Paris is in Spain.", "label": 1},
    {"id": 7, "context": "Rome is in Italy.", "answer": "Rome is in Italy.", "label": 0},
    {"id": "empty", "context": "   ", "answer": "Berlin is in Germany.", "label": 1},
]


def _write_input(path: Path, rows: list[Any], extra: str = "") -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + extra, encoding="utf-8")
    return path


def test_check_writes_results_metrics_and_log(tmp_path, fake):
    inp = _write_input(tmp_path / "in.jsonl", GOOD)
    out, met, log = tmp_path / "out.jsonl", tmp_path / "m.json", tmp_path / "flagged.jsonl"
    res = runner.invoke(cli.app, ["check", str(inp), "--out", str(out), "--metrics", str(met),
                                  "--log", str(log), "--batch-size", "3"])
    assert res.exit_code == 0, res.output
    rows = _lines(out)
    assert [r["id"] for r in rows] == ["ok", "2", "7", "empty"]
    assert [r["passed"] for r in rows] == [True, False, True, False]
    assert rows[3]["abstained"] and "claim_graph" not in rows[0]
    assert rows[1]["flagged_nodes"][0]["text"] == "Spain"
    m = json.loads(met.read_text())
    assert m["balanced_accuracy"] == 1.0 and m["roc_auc"] == 1.0 and m["n"] == 4 and m["n_abstained"] == 1
    assert {"precision", "recall", "f1", "threshold"} <= set(m)
    assert "balanced_accuracy" in res.stdout
    records = read_log(log)
    assert [(r.id, r.event) for r in records] == [("2", "flagged"), ("empty", "abstained")]


def test_check_malformed_lines_keep_order_and_fail(tmp_path, fake):
    bad = [{"answer": "no context"}, {"context": "c"}, {"answer": 5, "context": "Paris."},
           {"answer": "Paris.", "context": [1, 2]}, {"answer": "Paris.", "context": "Paris.", "label": 2},
           [1, 2]]
    inp = _write_input(tmp_path / "in.jsonl", [GOOD[0], *bad], extra="{oops\n\n" + json.dumps(GOOD[1]) + "\n")
    out = tmp_path / "out.jsonl"
    res = runner.invoke(cli.app, ["check", str(inp), "--out", str(out)])
    assert res.exit_code == 1
    rows = _lines(out)
    assert len(rows) == 9 and rows[0]["id"] == "ok" and rows[-1]["id"] == "10"
    errors = rows[1:8]
    assert [r["line"] for r in errors] == [2, 3, 4, 5, 6, 7, 8]
    assert "missing 'answer'" in errors[1]["error"] and "missing 'context'" in errors[0]["error"]
    assert "answer must be a str" in errors[2]["error"] and "contexts[0]" in errors[3]["error"]
    assert "label" in errors[4]["error"] and "JSON object" in errors[5]["error"]
    assert "invalid JSON" in errors[6]["error"]
    for n in range(2, 9):
        assert f"in.jsonl:{n}" in res.stderr


def test_check_guard_error_isolated_to_its_line(tmp_path, monkeypatch):
    class Exploding(CapitalWords):
        def extract(self, text: str, *, source: int = -1) -> KnowledgeGraph:
            if "Boom" in text:
                from guardrail.errors import ExtractionError
                raise ExtractionError("parser crashed")
            return super().extract(text, source=source)

    monkeypatch.setattr(cli_common, "make_guard", lambda config=None, log=None: OverlapGuard(
        FAKE_CONFIG, extractor=Exploding(), encoder=FakeEncoder(), log=log))
    inp = _write_input(tmp_path / "in.jsonl", [GOOD[0], {"context": "Paris.", "answer": "Boom Paris."}, GOOD[2]])
    out = tmp_path / "out.jsonl"
    res = runner.invoke(cli.app, ["check", str(inp), "--out", str(out)])
    assert res.exit_code == 1
    rows = _lines(out)
    assert rows[0]["passed"] and rows[2]["passed"] and "parser crashed" in rows[1]["error"]


def test_check_progress_bar_for_many_items_and_sqlite_log(tmp_path, fake):
    items = [{"context": "Paris is in France.", "answer": f"Paris is in {'Spain' if i % 2 else 'France'}.",
              "label": i % 2} for i in range(60)]
    inp = _write_input(tmp_path / "in.jsonl", items)
    log = tmp_path / "f.sqlite"
    res = runner.invoke(cli.app, ["check", str(inp), "--out", str(tmp_path / "o.jsonl"), "--log", str(log)])
    assert res.exit_code == 0, res.output
    assert "checking" in res.stderr and "60/60" in res.stderr
    assert len(read_log(log)) == 30


def test_check_config_file_and_usage_errors(tmp_path, fake):
    inp = _write_input(tmp_path / "in.jsonl", GOOD[:2])
    cfg = save_config(FAKE_CONFIG.model_copy(update={"threshold": 0.99, "name": "strict"}), tmp_path / "c.json")
    out = tmp_path / "o.jsonl"
    assert runner.invoke(cli.app, ["check", str(inp), "--out", str(out), "--config", str(cfg)]).exit_code == 0
    assert {r["config"] for r in _lines(out)} == {"strict"} and all(r["threshold"] == 0.99 for r in _lines(out))
    res = runner.invoke(cli.app, ["check", str(inp), "--out", str(out), "--config", str(tmp_path / "nope.json")])
    assert res.exit_code == 2 and "not found" in res.stderr
    res = runner.invoke(cli.app, ["check", str(inp), "--out", str(out), "--log", str(tmp_path / "x.txt")])
    assert res.exit_code == 2 and "x.txt" in res.output + res.stderr
    assert runner.invoke(cli.app, ["check", str(tmp_path / "missing.jsonl"), "--out", str(out)]).exit_code == 2


def test_calibrate_saves_logistic_config(tmp_path, fake):
    items = [{"context": "Paris is in France. Rome is in Italy.", "answer": a, "label": y} for a, y in [
        ("Paris is in France.", 0), ("Rome is in Italy.", 0), ("Paris and Rome exist.", 0),
        ("Paris is in Spain.", 1), ("Rome is in Greece.", 1), ("Madrid is in Spain.", 1),
        ("Italy has Rome.", 0), ("Berlin is in Germany.", 1)]]
    inp = _write_input(tmp_path / "in.jsonl", items)
    base = save_config(FAKE_CONFIG, tmp_path / "base.json")
    out = tmp_path / "cal" / "tuned.json"
    res = runner.invoke(cli.app, ["calibrate", str(inp), "--out", str(out), "--base", str(base)])
    assert res.exit_code == 0, res.output
    cfg = load_config(out)
    assert cfg.aggregation == "logistic" and cfg.name == "tuned" and set(cfg.weights) == {"overlap", "length"}
    assert "before" in res.stdout and "after" in res.stdout
    one_class = _write_input(tmp_path / "one.jsonl", [dict(items[0])] * 5)
    res = runner.invoke(cli.app, ["calibrate", str(one_class), "--out", str(out), "--base", str(base)])
    assert res.exit_code == 2 and "both labels" in res.stderr
    assert runner.invoke(cli.app, ["calibrate", str(inp), "--out", str(out), "--base", "auto"]).exit_code == 2


def test_check_with_a_config_naming_a_kb_takes_lines_without_context(tmp_path, fake):
    kb = REPO / "tests" / "guardrail" / "kb" / "data" / "ten_facts.ttl"
    cfg = save_config(FAKE_CONFIG.model_copy(update={"kb": str(kb)}), tmp_path / "kb.json")
    inp = _write_input(tmp_path / "in.jsonl", [{"id": "k", "answer": "Kestrel Foods was founded in 2003."}])
    out = tmp_path / "out.jsonl"
    res = runner.invoke(cli.app, ["check", str(inp), "--out", str(out), "--config", str(cfg)])
    (row,) = _lines(out)
    assert "error" not in row and row["config"] == "fake+kb" and "kb" in row["timings"], (row, res.output)


def test_calibrate_leaves_declined_answers_out(tmp_path, fake):
    # a declined answer has no detector scores: it is neither fitted on nor re-scored
    items = [{"context": "Paris is in France. Rome is in Italy.", "answer": a, "label": y} for a, y in [
        ("Paris is in France.", 0), ("Rome is in Italy.", 0), ("Paris is in Spain.", 1), ("Rome is in Greece.", 1),
        ("Madrid is in Spain.", 1), ("Italy has Rome.", 0), ("I don't know.", 0), ("The context does not say.", 0)]]
    inp = _write_input(tmp_path / "in.jsonl", items)
    base = save_config(FAKE_CONFIG, tmp_path / "base.json")
    out = tmp_path / "tuned.json"
    res = runner.invoke(cli.app, ["calibrate", str(inp), "--out", str(out), "--base", str(base)])
    assert res.exit_code == 0, (res.output, res.exception)
    assert "calibrated on 6 item(s) (2 abstained or declined)" in res.stderr
    assert load_config(out).aggregation == "logistic"


@pytest.mark.parametrize("suffix", [".jsonl", ".sqlite"])
def test_log_show_and_stats(tmp_path, fake, suffix):
    inp = _write_input(tmp_path / "in.jsonl", GOOD)
    log = tmp_path / f"flagged{suffix}"
    runner.invoke(cli.app, ["check", str(inp), "--out", str(tmp_path / "o.jsonl"), "--log", str(log)])
    res = runner.invoke(cli.app, ["log", "show", str(log), "--limit", "5"], env={"COLUMNS": "200"})
    assert res.exit_code == 0 and "Spain" in res.stdout and "empty context" in res.stdout
    res = runner.invoke(cli.app, ["log", "stats", str(log)], env={"COLUMNS": "200"})
    assert res.exit_code == 0
    assert "abstained" in res.stdout and "spain" in res.stdout and "histogram" in res.stdout
    res = runner.invoke(cli.app, ["log", "show", str(tmp_path / "none.jsonl")])
    assert res.exit_code == 2 and "not found" in res.stderr


def test_demo_with_fake_guard(fake):
    res = runner.invoke(cli.app, ["demo", "--limit", "6"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "FLAG" in res.stdout and "balanced_accuracy" in res.stdout
    for task in ("qa-", "dialogue-", "summarization-"):
        assert task in res.stdout


def test_demo_selection_round_robin():
    lines = cli.read_items(cli.DEMO_DATA)
    chosen = cli._demo_selection(lines, 7)
    assert len(chosen) == 7 and [ln.line for ln in chosen] == sorted(ln.line for ln in chosen)
    assert {ln.id.split("-")[0] for ln in chosen} == {"qa", "dialogue", "summarization"}
    assert len(cli._demo_selection(lines, 0)) == len(lines)


def test_shipped_sample_is_validation_halueval():
    data = REPO / "examples" / "data"
    items = [json.loads(x) for x in (data / "halueval_sample.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(items) == 350 and sum(it["label"] for it in items) == 175
    tune, val = dev_split(items)
    assert tune == [] and len(val) == 350
    assert (data / "LICENSE-HaluEval-MIT").read_text().startswith("MIT License")
    assert not any(it["id"].startswith("qags") for it in items)


def test_python_m_guardrail_help():
    proc = subprocess.run([sys.executable, "-m", "guardrail", "--help"], capture_output=True, text=True,
                          timeout=120, cwd=REPO, env={**os.environ, "COLUMNS": "120"})
    assert proc.returncode == 0 and "calibrate" in proc.stdout and "demo" in proc.stdout


@pytest.mark.slow
def test_end_to_end_real_guard(tmp_path):
    """The real pipeline (spaCy + MiniLM) through the CLI on a few shipped items."""
    items = [it for it in (json.loads(x) for x in cli.DEMO_DATA.read_text(encoding="utf-8").splitlines())
             if it["id"].startswith("qa-")][:6]
    inp = _write_input(tmp_path / "in.jsonl", items + [{"answer": 3, "context": "x"}])
    out, log, met = tmp_path / "out.jsonl", tmp_path / "f.jsonl", tmp_path / "m.json"
    res = runner.invoke(cli.app, ["check", str(inp), "--out", str(out), "--log", str(log), "--metrics", str(met)])
    assert res.exit_code == 1, res.output  # the last line is malformed
    rows = _lines(out)
    assert len(rows) == 7 and "error" in rows[-1]
    assert all(0.0 <= r["score"] <= 1.0 and r["detector_scores"] for r in rows[:-1] if not r["abstained"])
    assert json.loads(met.read_text())["n"] == 6
    flagged = [r for r in rows[:-1] if not r["passed"]]
    assert len(read_log(log)) == len(flagged) if flagged else not log.exists()
    res = runner.invoke(cli.app, ["demo", "--limit", "3"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    proc = subprocess.run([sys.executable, str(REPO / "examples" / "quickstart.py")], capture_output=True,
                          text=True, timeout=600, cwd=REPO)
    assert proc.returncode == 0, proc.stderr


def test_conftest_blocks_network_but_not_loopback():
    import socket

    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    client = socket.create_connection(server.getsockname(), timeout=5)
    client.close()
    server.close()
    with pytest.raises(OSError, match="blocked"):
        socket.getaddrinfo("example.com", 443)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        with pytest.raises(OSError, match="blocked"):
            s.connect(("93.184.216.34", 80))
    finally:
        s.close()
    assert os.environ["HF_HUB_OFFLINE"] == "1" and os.environ["TRANSFORMERS_OFFLINE"] == "1"


# ---------------------------------------------------------------- robustness: input bytes, escapes
def test_check_never_loses_the_file_to_one_bad_line(tmp_path, fake):
    """Undecodable bytes, a UTF-16 line, 100,000-deep JSON, a huge int, a BOM: one error line each."""
    good = [json.dumps(r).encode() for r in GOOD[:3]]
    data = b"\n".join([
        b"\xef\xbb\xbf" + good[0],                          # 1: UTF-8 BOM, judged
        b'{"context": "caf\xe9", "answer": "Paris."}',      # 2: Latin-1 byte
        good[1],                                            # 3
        b"[" * 100_000,                                     # 4: RecursionError in json
        json.dumps(GOOD[2]).encode("utf-16-le"),            # 5: a UTF-16 line
        b'{"answer": "a", "context": "b", "id": ' + b"9" * 5000 + b"}",  # 6: int too long
        good[2],                                            # 7
    ]) + b"\n"
    inp = tmp_path / "in.jsonl"
    inp.write_bytes(data)
    out = tmp_path / "out.jsonl"
    res = runner.invoke(cli.app, ["check", str(inp), "--out", str(out)])
    assert res.exit_code == 1, res.output
    rows = _lines(out)
    assert [r.get("line") for r in rows] == [None, 2, None, 4, 5, 6, None]
    assert [r["id"] for r in rows if "error" not in r] == ["ok", "3", "7"]
    assert "not UTF-8 (byte 0xe9 at column 17)" in rows[1]["error"]
    assert "nested too deeply" in rows[3]["error"] and "UTF-16" in rows[4]["error"]
    assert "invalid JSON" in rows[5]["error"]
    assert all(f"in.jsonl:{n}" in res.stderr for n in (2, 4, 5, 6))


def test_check_utf16_file_gives_error_lines_not_a_crash(tmp_path, fake):
    inp = tmp_path / "in.jsonl"
    inp.write_bytes("".join(json.dumps(r) + "\n" for r in GOOD[:2]).encode("utf-16"))
    out = tmp_path / "out.jsonl"
    res = runner.invoke(cli.app, ["check", str(inp), "--out", str(out)])
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output
    rows = _lines(out)
    assert [r["line"] for r in rows] == [1, 2]
    assert "UTF-16 byte-order mark" in rows[0]["error"] and "UTF-16" in rows[1]["error"]


def test_check_lone_surrogate_never_aborts_the_run(tmp_path, fake):
    bad = '{"id": "s", "context": ["Paris \\udfff is in France."], "answer": "Paris \\ud800 is in France."}'
    inp = _write_input(tmp_path / "in.jsonl", [GOOD[0]], extra=bad + "\n" + json.dumps(GOOD[1]) + "\n")
    out, log = tmp_path / "out.jsonl", tmp_path / "flagged.jsonl"
    res = runner.invoke(cli.app, ["check", str(inp), "--out", str(out), "--log", str(log)])
    assert res.exit_code in (0, 1) and not isinstance(res.exception, UnicodeError), res.output
    rows = _lines(out)  # valid UTF-8 JSON throughout
    assert [r["id"] for r in rows] == ["ok", "s", "3"]
    assert rows[0]["passed"] and rows[2]["passed"] is False  # the neighbours were judged


def test_check_unexpected_exception_is_one_error_line(tmp_path, monkeypatch):
    class Buggy(CapitalWords):
        def extract(self, text: str, *, source: int = -1) -> KnowledgeGraph:
            if "Boom" in text:
                raise KeyError("not a GuardrailError")
            return super().extract(text, source=source)

    monkeypatch.setattr(cli_common, "make_guard", lambda config=None, log=None: OverlapGuard(
        FAKE_CONFIG, extractor=Buggy(), encoder=FakeEncoder(), log=log))
    inp = _write_input(tmp_path / "in.jsonl", [GOOD[0], {"context": "Paris.", "answer": "Boom Paris."}, GOOD[2]])
    out = tmp_path / "out.jsonl"
    res = runner.invoke(cli.app, ["check", str(inp), "--out", str(out)])
    assert res.exit_code == 1, res.output
    rows = _lines(out)
    assert rows[0]["passed"] and rows[2]["passed"]
    assert rows[1]["line"] == 2 and "KeyError" in rows[1]["error"]


HOSTILE_ID = "[/bold]\x1b[2J"


def _hostile_log(path: Path) -> None:
    from guardrail.log.sinks import FlaggedRecord, LoggedExplanation, LoggedNode, open_sink

    rec = FlaggedRecord(
        id=HOSTILE_ID, score=0.9, threshold=0.5, passed=False, answer="x",
        flagged_nodes=(LoggedNode(text="[link=https://evil.example]click[/link]", support=0.0),),
        explanation=LoggedExplanation(summary="\x1b]8;;https://evil.example\x07hi\x1b[31m[red]x[/red]"),
    )
    with open_sink(path) as sink:
        sink.write(rec)


@pytest.mark.parametrize("command", ["show", "stats"])
def test_log_commands_escape_markup_and_control_characters(tmp_path, command):
    log = tmp_path / "flagged.jsonl"
    _hostile_log(log)
    extra = ["--details"] if command == "show" else []
    res = runner.invoke(cli.app, ["log", command, str(log), *extra], env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output
    assert "\x1b" not in res.stdout and "\x07" not in res.stdout
    assert "[link=https://evil.example]click[/link]" in res.stdout.replace("\n", "")  # shown, not a link
    if command == "show":
        assert "[/bold]" in res.stdout and "[red]x[/red]" in res.stdout


def test_log_show_skips_and_reports_damaged_lines(tmp_path, fake):
    inp = _write_input(tmp_path / "in.jsonl", GOOD)
    log = tmp_path / "flagged.jsonl"
    runner.invoke(cli.app, ["check", str(inp), "--out", str(tmp_path / "o.jsonl"), "--log", str(log)])
    good = log.read_bytes()
    log.write_bytes(good[:-1] + b'\n{"time": "2025", "id": "half' + b"\n" + b"[/bold]\xff\n")
    res = runner.invoke(cli.app, ["log", "show", str(log)], env={"COLUMNS": "200"})
    assert res.exit_code == 1 and "Spain" in res.stdout and "empty context" in res.stdout
    assert "flagged.jsonl:3" in res.stderr and "flagged.jsonl:4" in res.stderr
    assert "2 damaged record(s) skipped" in res.stderr


def test_render_helpers_neutralise_untrusted_text():
    from rich.console import Console

    from guardrail.cli.render import clean, highlighted_answer, markup

    assert clean("a\x1b[2J\x9b\u202eb\udfff\r\n\t") == "a\ufffd[2J\ufffd\ufffdb\ufffd \n\t"
    console = Console(record=True, width=100)
    hostile = "[/bold] [link=x]y[/link] \\"  # ends with a backslash, which would escape "[/red]"
    console.print("[red]" + markup(hostile) + "[/red]")
    assert console.export_text() == hostile + "\n"
    text = highlighted_answer("\x1b[2JParis is in Spain.", [{"span": {"start": 16, "end": 21}}])
    assert text.plain[16:21] == "Spain" and "\x1b" not in text.plain
