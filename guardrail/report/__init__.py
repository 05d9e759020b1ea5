"""Self-contained HTML audit reports of guard results (``kg-guardrail report``).

>>> from guardrail.report import report_from_files           # doctest: +SKIP
>>> report_from_files("results.jsonl", "report.html", inputs="input.jsonl")  # doctest: +SKIP

Needs the ``report`` extra (matplotlib; Jinja2): ``pip install 'kg-guardrail[report]'``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from guardrail._optional import require
from guardrail.report.data import join_inputs, load_inputs, load_results, merge_input
from guardrail.report.render import DEFAULT_MAX_GRAPHS, render_html, write_report

__all__ = ["require_report_deps", "report_from_files", "report_from_pairs", "render_html", "write_report",
           "join_inputs", "load_inputs", "load_results", "DEFAULT_MAX_GRAPHS"]


def require_report_deps() -> None:
    """Raise ``ImportError`` naming the extra when matplotlib or Jinja2 is missing."""
    require("jinja2", extra="report")
    require("matplotlib", extra="report")


def report_from_files(results: str | Path, out: str | Path, *, inputs: str | Path | None = None,
                      title: str | None = None, max_graphs: int = DEFAULT_MAX_GRAPHS) -> tuple[Path, int]:
    """Read a results JSONL file (joined with its input file when given), write the report.

    Returns
    -------
    (Path, int)
        The report's path and the number of result lines that could not be read.
    """
    require_report_deps()
    rows, problems = load_results(Path(results))
    if inputs is not None:
        rows = join_inputs(rows, load_inputs(Path(inputs)))
    kwargs: dict[str, Any] = {"source": str(results), "problems": problems, "max_graphs": max_graphs}
    if title:
        kwargs["title"] = title
    return write_report(rows, out, **kwargs), len(problems)


def report_from_pairs(pairs: Iterable[tuple[Mapping[str, Any], Mapping[str, Any]]], out: str | Path, *,
                      source: str = "", title: str | None = None, max_graphs: int = DEFAULT_MAX_GRAPHS) -> Path:
    """Write the report of ``(input object, result row)`` pairs (what ``check`` holds in memory).

    Each row gets its input's ``context``, ``label`` and ``question`` (:func:`merge_input`).
    """
    require_report_deps()
    rows = [merge_input(row, raw) for raw, row in pairs]
    kwargs: dict[str, Any] = {"source": source, "max_graphs": max_graphs}
    if title:
        kwargs["title"] = title
    return write_report(rows, out, **kwargs)
