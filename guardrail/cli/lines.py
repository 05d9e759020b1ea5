"""Checking input lines in batches for the command line and the Ray workers.

One line never aborts a run: a line that cannot be judged becomes an error row
(``{"id", "line", "error"}``) and every other line is checked, and logged, once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from guardrail.errors import BatchError, GuardrailError
from guardrail.guard import Guard
from guardrail.io import InputLine

__all__ = ["check_batch", "error_row"]

_log = logging.getLogger("guardrail.cli.app")


def error_row(line: InputLine) -> dict[str, Any]:
    """The output row of a line that could not be judged."""
    return {"id": line.id, "line": line.line, "error": line.error}


def check_batch(guard: Guard, batch: Sequence[InputLine], compact: bool = True) -> list[dict[str, Any]]:
    """Results (or error rows) of ``batch``, in order; a line that fails is one error row.

    ``check_many`` runs on the batch; when an item fails while judged (:class:`BatchError`),
    the results before it are kept (they are logged already), the item becomes an error
    row and ``check_many`` goes on after it, so no result is computed or logged twice.
    """
    by_line: dict[int, dict[str, Any]] = {}
    todo = [ln for ln in batch if ln.item is not None]
    while todo:
        try:
            results = guard.check_many([ln.item for ln in todo if ln.item is not None])
        except BatchError as exc:
            by_line.update((ln.line, r.to_dict(compact=compact)) for ln, r in zip(todo, exc.results))
            _line_error(todo[exc.index], exc.cause)
            todo = todo[exc.index + 1:]
            continue
        except Exception:  # raised before any item was judged: isolate the line it is about
            _log.debug("batch rejected; checking its lines one by one", exc_info=True)
            by_line.update(_check_one_by_one(guard, todo, compact))
            break
        by_line.update((ln.line, r.to_dict(compact=compact)) for ln, r in zip(todo, results))
        break
    return [by_line[ln.line] if ln.line in by_line else error_row(ln) for ln in batch]


def _line_error(ln: InputLine, exc: BaseException) -> None:
    if isinstance(exc, GuardrailError):
        ln.error = f"{type(exc).__name__}: {exc}"
    else:  # a bug or an unexpected input: record it, judge the rest
        _log.debug("line %d could not be judged", ln.line, exc_info=exc)
        ln.error = f"internal error ({type(exc).__name__}): {exc}"


def _check_one_by_one(guard: Guard, todo: Sequence[InputLine], compact: bool) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for ln in todo:
        it = ln.item
        if it is None:
            continue
        try:
            out[ln.line] = guard.check(it["answer"], it["context"], it["question"],
                                       id=it["id"]).to_dict(compact=compact)
        except Exception as exc:  # one line never aborts the run; the error is its output row
            _line_error(ln, exc)
    return out
