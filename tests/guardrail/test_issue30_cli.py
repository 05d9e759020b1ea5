"""Issue 30, item 14: ``report`` refuses a SQLite log; ``log show`` has the policy's action and
the delivered answer, and fills the terminal's width."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from guardrail.cli import app as cli
from guardrail.cli.render import log_table
from guardrail.log.records import FlaggedRecord
from guardrail.log.sinks import open_sink, read_log
from guardrail.types import FlaggedNode, GuardResult, Span

LONG = "Apple was founded in 1976 by Steve Jobs and Steve Wozniak in a garage in Los Altos. " * 3


def _records(path: Path, n: int = 3) -> None:
    node = FlaggedNode(node_id="a:21", text="1999", span=Span(start=21, end=25), support=0.1)
    with open_sink(path) as sink:
        for i in range(n):
            res = GuardResult(passed=False, score=0.9, threshold=0.6, answer="Apple was founded in 1999.",
                              id=f"q{i}", flagged_nodes=(node,))
            sink.write(FlaggedRecord.from_result(res, ["Apple was founded in 1976."], action="refined",
                                                 delivered_answer=LONG))


def test_report_refuses_a_sqlite_log(tmp_path: Path):
    pytest.importorskip("jinja2")
    log = tmp_path / "flagged.sqlite"
    _records(log)
    res = CliRunner().invoke(cli.app, ["report", str(log), "--out", str(tmp_path / "r.html")])
    assert res.exit_code == 2, res.output
    assert "SQLite" in res.output and "log show" in res.output
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("width", [80, 120, 200])
def test_log_table_has_action_and_delivered_columns_and_fits_the_width(tmp_path: Path, width: int):
    log = tmp_path / "flagged.sqlite"
    _records(log)
    console = Console(width=width, record=True, color_system=None)
    console.print(log_table(read_log(log), width=width))
    lines = console.export_text().rstrip("\n").splitlines()
    assert max(len(x) for x in lines) <= width
    header = next(x for x in lines if "score" in x)
    assert "action" in header and "delivered" in header
    rows = [x for x in lines if "q0" in x or "q1" in x or "q2" in x]
    assert len(rows) == 3 and all("refined" in x and "1999" in x and "Apple was" in x for x in rows)
    assert max(len(x) for x in lines) >= width - 2  # the table fills the terminal


def test_log_table_shows_more_of_the_delivered_answer_on_a_wider_terminal(tmp_path: Path):
    log = tmp_path / "flagged.jsonl"
    _records(log, 1)
    shown = []
    for width in (80, 200):
        console = Console(width=width, record=True, color_system=None)
        console.print(log_table(read_log(log), width=width))
        row = next(x for x in console.export_text().splitlines() if "q0" in x)
        shown.append(len(row[row.index("Apple was"):].rstrip()))
    assert shown[1] > shown[0] + 60
