"""Issue 20: ``kg-guardrail log show`` prints one line per record in 80 columns by default,
the full records with ``--details``."""

from __future__ import annotations

from typer.testing import CliRunner

from guardrail.cli import app as cli
from guardrail.log.records import FlaggedRecord
from guardrail.log.sinks import open_sink
from guardrail.types import Explanation, FlaggedNode, GuardResult, Span

runner = CliRunner()
LONG = "Apple was founded in 1999 by Steve Jobs in a garage in Los Altos, California. " * 8


def _write(path, n: int = 20) -> None:
    node = FlaggedNode(node_id="a:21", text="1999", span=Span(start=21, end=25), support=0.1,
                       evidence="Apple was founded in 1976.", reason="the answer says 1999; the context says 1976")
    with open_sink(path) as sink:
        for i in range(n):
            res = GuardResult(passed=False, score=0.93, threshold=0.58, answer=LONG, id=f"request-{i:04d}-abcdef",
                              config="default", flagged_nodes=(node,),
                              explanation=Explanation(summary="1 claim is not supported. " * 5,
                                                      sentences=("the answer says 1999; the context says 1976",)))
            sink.write(FlaggedRecord.from_result(res, ["Apple was founded in 1976. " * 20]))


def test_log_show_is_one_line_per_record_in_80_columns(tmp_path):
    log = tmp_path / "flagged.jsonl"
    _write(log)
    res = runner.invoke(cli.app, ["log", "show", str(log)], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    lines = res.stdout.rstrip("\n").splitlines()
    assert len(lines) <= 20 + 5, res.stdout
    assert max(len(x) for x in lines) <= 80
    assert sum("1999" in x for x in lines) == 20


def test_log_show_details_has_the_full_record(tmp_path):
    log = tmp_path / "flagged.jsonl"
    _write(log, 2)
    res = runner.invoke(cli.app, ["log", "show", str(log), "--details"], env={"COLUMNS": "200"})
    assert res.exit_code == 0 and "the context says 1976" in res.stdout and "garage" in res.stdout
