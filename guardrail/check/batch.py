"""Step 5: a batch of checks (private to the guard).

Every item is type-checked before any is judged; each window of items has its new passages
parsed in one batch and its sentence claims scored in one verifier pass, so each check then
reads from the caches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from guardrail.check.graphs import prefetch_passages, windows
from guardrail.check.parts import Parts
from guardrail.errors import BatchError, InvalidInputError
from guardrail.extract.given import split_context_input
from guardrail.text.markup import blank_markup
from guardrail.types import GuardResult
from guardrail.validate import ValidatedInput, check_fields, size_reason, validate_input

__all__ = ["check_items", "prefetch_claims", "check_many"]

#: An item's validated input, or None when it is over the limits or its context is a graph.
_Row = tuple[dict[str, Any], ValidatedInput | None]


def _context(row: Mapping[str, Any]) -> Any:
    return row.get("contexts", row.get("context", []))


def _as_rows(items: object) -> list[dict[str, Any]]:
    if isinstance(items, (str, bytes, bytearray, Mapping)) or not isinstance(items, Iterable):
        raise InvalidInputError(f"items must be an iterable of mappings, got {type(items).__name__}")
    rows: list[dict[str, Any]] = []
    for i, it in enumerate(items):
        if not isinstance(it, Mapping):
            raise InvalidInputError(f"item {i} must be a mapping, got {type(it).__name__}")
        rows.append(dict(it))
    return rows


def check_items(items: object, limits: dict[str, int]) -> list[_Row]:
    """The items of :meth:`~guardrail.Guard.check_many` as dicts, every one type-checked.

    An item's context may be left out (``[]``): the guard abstains on it, or checks it
    against its knowledge base.

    Returns
    -------
    list of (dict, ValidatedInput or None)
        Each item, and its validated input when it is within the limits.

    Raises
    ------
    InvalidInputError
        ``items`` is not an iterable of mappings, or an item lacks ``answer`` or has a field
        of the wrong type (the message names the item's index).
    """
    out: list[_Row] = []
    for i, r in enumerate(_as_rows(items)):
        if "answer" not in r:
            raise InvalidInputError(f"item {i} has no 'answer'")
        ctx, v = _context(r), None
        try:
            check_fields(r["answer"], r.get("question"), r.get("id"))
            if not size_reason(r["answer"], ctx, **limits):
                texts, graph = split_context_input(ctx)
                v = validate_input(r["answer"], texts, r.get("question"), **limits)
                v = None if graph is not None else v
        except InvalidInputError as exc:
            raise InvalidInputError(f"item {i}: {exc}") from exc
        out.append((r, v))
    return out


def prefetch_claims(parts: Parts, rows: Sequence[_Row]) -> None:
    """Score the sentence claims of all ``rows`` in one verifier batch (detectors with a
    ``prefetch`` method); each check then reads its scores from the verifier's cache.
    Skipped for a guard with a knowledge base: its contexts are only known once the KB
    facts are fetched, check by check."""
    if parts.kb is not None:
        return
    dets = [d for d in parts.detectors_for(parts.config) if hasattr(d, "prefetch")]
    todo = [(blank_markup(v.answer), v.contexts, v.question) for _, v in rows if v is not None and not v.abstain_reason]
    for d in dets:
        d.prefetch(todo, parts.encoder.get() if getattr(d, "sentence_by_meaning", False) else None)


def check_many(parts: Parts, check: Callable[..., GuardResult], items: object) -> list[GuardResult]:
    """``check`` (the guard's :meth:`~guardrail.Guard.check`) on every item, window by window.

    Raises
    ------
    InvalidInputError
        A bad item, before any item is judged.
    BatchError
        An item failed while it was judged; it holds the results before it.
    """
    rows = check_items(items, parts.config.size_limits)  # all type errors surface before any item is judged
    out: list[GuardResult] = []
    for window in windows(rows, lambda row: _context(row[0])):
        prefetch_passages(parts, [_context(r) for r, _ in window])
        prefetch_claims(parts, window)
        for r, _ in window:
            try:
                out.append(check(r["answer"], _context(r), r.get("question"), id=r.get("id")))
            except Exception as exc:  # any failure: hand back what was judged (and logged) so far
                raise BatchError(len(out), out, exc) from exc
    return out
