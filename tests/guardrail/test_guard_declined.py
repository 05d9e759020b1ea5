"""Declined answers are a first-class outcome (issue 25): passed by default, never
flagged, refined or filtered, logged as ``declined`` (not as flagged), left out of the
flagged-node statistics, and shown as declined by ``log show`` and the HTML report."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from guardrail import Guard
from guardrail.cli import app as cli
from guardrail.config import load_config
from guardrail.log.records import MemorySink
from guardrail.log.sinks import read_log
from guardrail.metrics import result_metrics
from guardrail.policy.refine import enforce

pytestmark = pytest.mark.slow

DOCS = ["Marie Curie won the Nobel Prize in Physics in 1903. In 1911 she won the Nobel Prize in Chemistry."]
WRONG = "Marie Curie won the Nobel Prize in Chemistry in 1921."
runner = CliRunner()


def test_i_dont_know_is_declined_passed_and_not_flagged() -> None:
    sink = MemorySink()
    r = Guard(log=sink).check("I don't know.", DOCS)
    assert r.declined and r.passed and not r.abstained and r.flagged_nodes == () and r.score == 0.0
    assert "declines" in r.explanation.summary
    # the log keeps a record of it, as declined, never as a flagged answer
    (rec,) = sink.records
    assert rec.event == "declined" and rec.declined and rec.passed and rec.flagged_nodes == ()
    assert not [x for x in sink.records if x.event == "flagged"]


def test_a_real_answer_with_not_is_judged(guard: Guard) -> None:
    r = guard.check("Marie Curie did not win the Nobel Prize in Chemistry in 1921.", DOCS)
    assert not r.declined


def test_declined_passes_is_configurable() -> None:
    cfg = load_config({**load_config("default").model_dump(), "declined_passes": False})
    r = Guard(cfg).check("The context does not say.", DOCS)
    assert r.declined and not r.passed and r.score == cfg.threshold and r.flagged_nodes == ()


@pytest.mark.parametrize("policy", ["annotate", "filter", "raise", "refine"])
def test_no_policy_touches_a_declined_answer(policy: str) -> None:
    sink = MemorySink()
    asked: list[object] = []
    out = enforce(Guard(log=sink), policy, "I cannot answer from the provided documents.", DOCS,
                  reprompt=lambda req: asked.append(req) or WRONG, id="d1")
    assert out.action == "declined" and out.answer == "I cannot answer from the provided documents."
    assert not asked and out.result.declined and out.result.passed
    (rec,) = sink.records  # logged once, with its outcome
    assert rec.event == "declined" and rec.action == "declined" and rec.delivered_answer == out.answer


def test_log_stats_and_show_keep_declines_apart(tmp_path) -> None:
    log = tmp_path / "log.jsonl"
    g = Guard(log=log)
    g.check("I don't know.", DOCS, id="d")
    g.check(WRONG, DOCS, id="w")
    assert [r.event for r in read_log(log)] == ["declined", "flagged"]
    stats = runner.invoke(cli.app, ["log", "stats", str(log)], env={"COLUMNS": "120"})
    assert stats.exit_code == 0, stats.output
    assert "declined" in stats.stdout and "1921" in stats.stdout and "know" not in stats.stdout
    show = runner.invoke(cli.app, ["log", "show", str(log)], env={"COLUMNS": "160"})
    assert show.exit_code == 0 and "(declined)" in show.stdout


def test_metrics_and_report_do_not_count_a_decline_as_a_flag(tmp_path, guard: Guard) -> None:
    from guardrail.report.data import make_item

    rows = [guard.check("I don't know.", DOCS).to_dict(compact=True),
            guard.check(WRONG, DOCS).to_dict(compact=True)]
    m = result_metrics(rows, [0, 1])
    assert m["fp"] == 0 and m["tp"] == 1
    item = make_item(0, {**rows[0], "label": 0})
    assert item.verdict == "declined" and item.outcome == "tn"
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "d", "answer": "I don't know.", "context": DOCS, "label": 0}) + "\n")
    out, met = tmp_path / "o.jsonl", tmp_path / "m.json"
    res = runner.invoke(cli.app, ["check", str(inp), "--out", str(out), "--metrics", str(met)])
    assert res.exit_code == 0, res.output
    row = json.loads(out.read_text())
    assert row["declined"] and row["passed"] and json.loads(met.read_text())["fp"] == 0
    assert "1 declined" in res.stderr
