"""``check --policy refine`` refuses the options it cannot honour: a usage error (exit code 2)
naming ``--policy`` and each conflicting option, raised before any model loads or line is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardrail.cli import app as cli

URL = ["--llm-base-url", "http://127.0.0.1:1/v1"]


@pytest.fixture
def inp(tmp_path: Path) -> Path:
    p = tmp_path / "in.jsonl"
    p.write_text(json.dumps({"id": "a", "answer": "Paris.", "context": "Paris is in France."}) + "\n")
    return p


@pytest.mark.parametrize(("extra", "named"), [
    (["--report", "r.html"], ["--report"]),
    (["--metrics", "m.json"], ["--metrics"]),
    (["--graphs"], ["--graphs"]),
    (["--engine", "ray"], ["--engine ray"]),
    (["--graphs", "--metrics", "m.json", "--report", "r.html"], ["--report", "--metrics", "--graphs"]),
])
def test_refine_with_an_option_it_drops_is_a_usage_error_naming_both(
        inp: Path, tmp_path: Path, extra: list[str], named: list[str]) -> None:
    out = tmp_path / "out.jsonl"
    args = ["check", str(inp), "--out", str(out), "--policy", "refine", *URL,
            *[str(tmp_path / a) if a.endswith((".html", ".json")) else a for a in extra]]
    res = CliRunner().invoke(cli.app, args)
    assert res.exit_code == 2, res.output
    msg = " ".join(res.stderr.replace("│", " ").split())  # rich wraps the message in a box
    assert "--policy" in msg and "cannot be combined" in msg
    assert all(n in msg for n in named), msg
    assert not out.exists()  # refused before any line is checked or written


def test_a_bad_policy_and_a_missing_endpoint_are_usage_errors_before_loading(inp: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    res = CliRunner().invoke(cli.app, ["check", str(inp), "--out", str(out), "--policy", "fix"])
    assert res.exit_code == 2 and "annotate or refine" in " ".join(res.stderr.replace("│", " ").split())
    res = CliRunner().invoke(cli.app, ["check", str(inp), "--out", str(out), "--policy", "refine"])
    assert res.exit_code == 2 and "--llm-base-url" in res.stderr
    assert not out.exists()
