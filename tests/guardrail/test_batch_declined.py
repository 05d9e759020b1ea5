"""The Ray audit's output and counts carry ``declined`` (issue 28). The writer and the counts are
checked on rows the real guard produced (``io.check_batch``, as each Ray worker runs it), without
starting Ray."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from guardrail.batch import AuditResult, _count, _Writer
from guardrail.guard import Guard
from guardrail.io import _parse_line, check_batch

CONTEXT = "Apple was founded by Steve Jobs and Steve Wozniak in 1976 in Cupertino, California."
ITEMS = [
    {"id": "idk", "answer": "I don't know.", "context": CONTEXT, "question": "When was Apple founded?"},
    {"id": "ok", "answer": "Apple was founded in 1976.", "context": CONTEXT, "question": "When was Apple founded?"},
    {"id": "bad", "answer": "Apple was founded in 1999 in Paris by Bill Gates.", "context": CONTEXT,
     "question": "When was Apple founded?"},
    {"id": "broken", "answer": 1},
]


@pytest.fixture(scope="module")
def rows(guard: Guard) -> list[dict[str, object]]:
    lines = [_parse_line(i, json.dumps(x)) for i, x in enumerate(ITEMS, 1)]
    return check_batch(guard, lines)


def test_parquet_audit_has_a_declined_column(rows: list[dict[str, object]], tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "audit.parquet"
    writer = _Writer(out)
    for i, row in enumerate(rows, 1):
        writer.write(row, i)
    writer.close()
    table = pq.read_table(out)
    assert "declined" in table.column_names
    got = {r["id"]: r["declined"] for r in table.to_pylist()}
    assert got == {"idk": True, "ok": False, "bad": False, "broken": None}


def test_audit_counts_declined_apart_from_flagged(rows: list[dict[str, object]]) -> None:
    res = AuditResult()
    for row in rows:
        if "error" not in row:
            _count(res, row)
    assert (res.n_declined, res.n_passed, res.n_flagged, res.n_abstained) == (1, 2, 1, 0)
    # with declined_passes=False a declined answer is not passed, and still not counted as flagged
    res = AuditResult()
    _count(res, {**rows[0], "passed": False})
    assert (res.n_declined, res.n_passed, res.n_flagged) == (1, 0, 0)
    assert "n_declined" in res.to_dict()
