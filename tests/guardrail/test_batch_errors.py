"""Issue 20, item 6: a failing item in ``check_many`` keeps the batch's results (no re-check,
no duplicate log records), and ``report --input`` refuses to join by repeated ids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardrail import Guard
from guardrail.cli import app as cli
from guardrail.cli import common as cli_common
from guardrail.errors import BatchError
from guardrail.io import read_items
from guardrail.log.records import MemorySink
from guardrail.types import GuardResult


class Scripted(Guard):
    """Judges without models: an answer containing "boom" raises, every other one is flagged
    (so it is logged); counts its checks."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.calls: list[str] = []

    def check(self, answer, contexts, question=None, *, id=None, log=True):  # type: ignore[override]
        self.calls.append(answer)
        if "boom" in answer:
            raise RuntimeError("Truncation error")
        r = GuardResult(passed=False, score=0.9, threshold=0.5, answer=answer, id=id, config="x")
        return self._finish(r, [contexts] if isinstance(contexts, str) else contexts, log)


def _items(n: int, bad: int) -> list[dict]:
    return [{"answer": "boom" if i == bad else f"answer {i}", "context": "ctx", "id": f"i{i}"} for i in range(n)]


def test_check_many_hands_back_the_results_before_a_failing_item():
    g = Scripted(log=MemorySink())
    with pytest.raises(BatchError) as info:
        g.check_many(_items(5, bad=2))
    assert info.value.index == 2 and [r.id for r in info.value.results] == ["i0", "i1"]
    assert isinstance(info.value.__cause__, RuntimeError)


def test_cli_batch_with_a_failing_line_checks_and_logs_every_other_line_once(tmp_path: Path):
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps(it) + "\n" for it in _items(6, bad=3)), encoding="utf-8")
    sink = MemorySink()
    g = Scripted(log=sink)
    rows = cli._check_batch(g, read_items(inp))
    assert [r.get("id") for r in rows] == ["i0", "i1", "i2", "3", "i4", "i5"] or \
        [r.get("id") for r in rows] == ["i0", "i1", "i2", "i3", "i4", "i5"]
    assert "Truncation error" in rows[3]["error"]
    assert sorted(g.calls) == sorted(f"answer {i}" for i in range(6) if i != 3) + ["boom"]
    assert sorted(r.id for r in sink.read()) == ["i0", "i1", "i2", "i4", "i5"]  # no duplicates


def test_report_input_with_repeated_ids_is_refused(tmp_path: Path):
    inp = tmp_path / "in.jsonl"
    inp.write_text('{"id": "a", "answer": "x", "context": "c", "label": 0}\n'
                   '{"id": "a", "answer": "y", "context": "d", "label": 1}\n', encoding="utf-8")
    res = tmp_path / "r.jsonl"
    res.write_text('{"id": "a", "passed": true, "score": 0.1}\n{"id": "a", "passed": false, "score": 0.9}\n',
                   encoding="utf-8")
    out = CliRunner().invoke(cli.app, ["report", str(res), "--out", str(tmp_path / "r.html"),
                                       "--input", str(inp)])
    assert out.exit_code == 2, out.output
    assert "repeat" in out.output and not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("option", ["--out", "--metrics", "--report", "--log"])
def test_output_path_that_is_a_directory_is_a_usage_error_before_any_work(tmp_path: Path, monkeypatch, option):
    inp = tmp_path / "in.jsonl"
    inp.write_text('{"answer": "x", "context": "c", "label": 0}\n', encoding="utf-8")
    monkeypatch.setattr(cli_common, "make_guard", lambda *a, **k: pytest.fail("the guard was built"))
    args = {"--out": str(tmp_path / "r.jsonl")}
    args[option] = str(tmp_path)  # a directory
    argv = ["check", str(inp)] + [x for kv in args.items() for x in kv]
    out = CliRunner().invoke(cli.app, argv)
    assert out.exit_code == 2, out.output
    assert "is a directory" in out.output and out.exception is None or isinstance(out.exception, SystemExit)
