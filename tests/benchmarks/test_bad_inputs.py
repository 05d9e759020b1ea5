"""The worst-input benchmark (``benchmarks/bad_inputs.py``) runs ``kg-guardrail check`` with its one guard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.bad_inputs import Env, _cli_file_rows
from guardrail.errors import ExtractionError
from guardrail.log.records import UnloggedRecords


class _StubGuard:
    """Stands in for the warmed-up guard: every check fails with a typed error naming it."""

    unlogged = UnloggedRecords(maxlen=10)
    kb = None

    def check_many(self, items: Any) -> Any:
        raise ExtractionError("stub guard used")

    def check(self, *args: Any, **kwargs: Any) -> Any:
        raise ExtractionError("stub guard used")


def test_cli_cases_run_with_the_benchmark_guard(tmp_path: Path) -> None:
    env = Env(guard=_StubGuard(), limits={}, prose="", answers=[], tmp=tmp_path)
    data = b'{"id": "a", "answer": "Paris is in France.", "context": "Paris is in France."}\n'
    rows = _cli_file_rows(env, "one", data, {1: "line1"})
    assert len(rows) == 1 and "stub guard used" in str(rows[0]), rows
