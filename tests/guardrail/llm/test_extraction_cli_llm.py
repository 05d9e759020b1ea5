"""``kg-guardrail check items.jsonl --extractor llm --llm-base-url URL`` against the real
local model (issue 25): every line gets a verdict, judged on the LLM's triples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytestmark = [pytest.mark.slow, pytest.mark.llm]

CONTEXT = "The Eiffel Tower was completed in 1889 in Paris."


def test_check_with_llm_extraction_gives_verdicts(llm_url: str, tmp_path: Path) -> None:
    from guardrail.cli import app as cli

    inp = tmp_path / "items.jsonl"
    inp.write_text("".join(json.dumps(x) + "\n" for x in [
        {"id": "right", "answer": "The Eiffel Tower was completed in 1889.", "context": CONTEXT},
        {"id": "wrong", "answer": "The Eiffel Tower was completed in 1925.", "context": CONTEXT},
    ]))
    out = tmp_path / "out.jsonl"
    res = CliRunner().invoke(cli.app, ["check", str(inp), "--out", str(out), "--graphs", "--extractor", "llm",
                                       "--llm-base-url", llm_url])
    assert res.exit_code == 0, res.output
    rows = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert set(rows) == {"right", "wrong"} and all("error" not in r for r in rows.values())
    # judged on LLM triples (no fallback to spaCy), and the planted year is caught
    for r in rows.values():
        assert any(t["pattern"] in ("llm", "literal") for t in r["claim_graph"]["triples"]), r["claim_graph"]
    assert not rows["wrong"]["passed"]
