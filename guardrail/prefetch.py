"""Batch-level prefetching for :meth:`guardrail.Guard.check_many`: parse a window's new
passages in one spaCy pass, and score all its sentence claims in one verifier pass, so each
check then reads from the caches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from guardrail.extract.given import split_context_input
from guardrail.validate import clean_text, size_reason, validate_input

if TYPE_CHECKING:
    from guardrail.guard import Guard

__all__ = ["passages", "claims"]


def passages(guard: Guard, contexts_list: Sequence[Any]) -> None:
    """Parse the new passages of ``contexts_list`` in one batch into the cache.

    Contexts over the size limits, graphs and non-str passages are skipped (the
    check itself abstains on or raises for them); passages are cleaned as
    :meth:`Guard.check` cleans them, so the cache keys match.
    """
    limits = guard._limits()
    texts: list[str] = []
    for ctx in contexts_list:
        if isinstance(ctx, str):
            ctx = [ctx]
        if not isinstance(ctx, (list, tuple)) or size_reason("", ctx, **limits):
            continue
        texts.extend(clean_text(c) for c in ctx if isinstance(c, str) and c.strip())
    guard._cache.prefetch(texts, guard.extractor)

def claims(guard: Guard, rows: Sequence[Mapping[str, Any]]) -> None:
    """Score the sentence claims of all ``rows`` in one verifier batch (detectors with a
    ``prefetch`` method); each check then reads its scores from the verifier's cache.
    Skipped for a guard with a knowledge base: its contexts are only known once the KB
    facts are fetched, check by check."""
    if guard.kb is not None:
        return
    dets = [d for d in guard.detectors_for(guard.config) if hasattr(d, "prefetch")]
    if not dets:
        return
    limits, todo = guard._limits(), []
    for r in rows:
        ctx = r.get("contexts", r.get("context", []))
        if size_reason(r["answer"], ctx, **limits) or split_context_input(ctx)[1] is not None:
            continue
        v = validate_input(r["answer"], split_context_input(ctx)[0], r.get("question"), **limits)
        if not v.abstain_reason:
            todo.append((v.answer, v.contexts, v.question))
    for d in dets:
        d.prefetch(todo)
