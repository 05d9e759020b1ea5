"""The CLI functions of ``guardrail.cli.llm`` (wired into the main app as ``llm`` and
``check --policy refine``). The re-prompting client is a stand-in here: this tests the
plumbing (one output line per input line, rounds, errors), the model is tested in
``test_local_llm.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardrail.cli.llm import llm_app, refine_lines, write_refined
from guardrail.io import read_items

pytestmark = pytest.mark.slow

CONTEXT = "Apple was founded by Steve Jobs and Steve Wozniak in 1976 in Cupertino, California."
BAD = "Apple was founded by Steve Jobs and Steve Wozniak in 1999."
GOOD = "Apple was founded by Steve Jobs and Steve Wozniak in 1976."


class StandIn:
    def __init__(self, answer: str) -> None:
        self.answer = answer

    def reprompt(self, request: object) -> str:
        return self.answer


def test_refine_lines_writes_final_answer_and_rounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, guard) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(json.dumps(x) for x in [
        {"id": "a", "answer": BAD, "context": CONTEXT, "question": "When was Apple founded?"},
        {"id": "b", "answer": GOOD, "context": CONTEXT},
        {"id": "c", "context": CONTEXT},
    ]) + "\n")
    import guardrail.llm.client as client_mod

    monkeypatch.setattr(client_mod, "LLMClient", lambda url, model: StandIn(GOOD))
    out = tmp_path / "out.jsonl"
    n = write_refined(refine_lines(guard, read_items(src), "http://127.0.0.1:1/v1"), out)
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert n == 3 and [r["id"] for r in rows] == ["a", "b", "c"]
    assert rows[0]["action"] == "refined" and rows[0]["answer"] == GOOD and rows[0]["original_answer"] == BAD
    assert [h["round"] for h in rows[0]["history"]] == [0, 1]
    assert rows[1]["action"] == "passed" and "error" in rows[2]


def test_serve_help_names_the_options() -> None:
    result = CliRunner().invoke(llm_app, ["serve", "--help"])
    assert result.exit_code == 0 and "--port" in result.output and "--threads" in result.output
