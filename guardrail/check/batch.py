"""Step 5: a batch of checks (private to the guard).

Every item is type-checked before any is judged; each window of items has its new passages
parsed in one batch and its sentence claims scored in one verifier pass, and each group of
:data:`GROUP_ITEMS` items of it has its answers (and questions) parsed in one batch and the
strings of its graphs embedded in one encoder pass, so each check then reads from the caches.
spaCy's parses do not depend on the batch; the encoder's vectors differ from one-by-one
vectors by float rounding only (below 1e-7), so the verdicts are those of one check at a time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from guardrail.check.graphs import prefetch_passages, windows
from guardrail.check.judge import PREFETCH_CONTEXT_MAX
from guardrail.check.parts import Parts
from guardrail.errors import BatchError, GuardrailError, InvalidInputError
from guardrail.extract.given import split_context_input
from guardrail.text.declines import is_declined
from guardrail.text.markup import blank_markup
from guardrail.types import GuardResult, KnowledgeGraph
from guardrail.validate import ValidatedInput, check_fields, size_reason, validate_input

__all__ = ["GROUP_ITEMS", "ENCODE_MAX", "check_items", "prefetch_claims", "prefetch_answers",
           "prefetch_strings", "check_many"]

_log = logging.getLogger(__name__)

#: ``check_many`` parses the answers of this many items at once and holds their graphs
#: until they are judged.
GROUP_ITEMS = 32
#: Most strings one encoder prefetch embeds (well below the encoder's cache of 10,000, so
#: none is evicted before its check reads it).
ENCODE_MAX = 4_000

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


def _judged(parts: Parts, rows: Sequence[_Row]) -> list[tuple[str, ValidatedInput]]:
    """The answers as the detectors read them (markup blanked, as
    :func:`~guardrail.check.inputs.read` does) and the validated inputs of the ``rows`` that a
    check parses and judges with the models (none for a guard with a knowledge base: its
    contexts come check by check)."""
    if parts.kb is not None:
        return []
    out = []
    for _, v in rows:
        if v is not None and not v.abstain_reason:
            answer = blank_markup(v.answer)
            if not (answer.strip() and is_declined(answer)):
                out.append((answer, v))
    return out


def prefetch_answers(parts: Parts, rows: Sequence[_Row]) -> list[tuple[ValidatedInput, KnowledgeGraph]]:
    """Parse the answers of ``rows`` (and their questions, when a detector reads the
    question's graph) in one ``extract_many`` batch; the cache holds the graphs until
    :meth:`~guardrail.extract.cache.PassageCache.drop_own`, and each check takes its own.

    Returns
    -------
    list of (ValidatedInput, KnowledgeGraph)
        Each judged input and its answer's graph.
    """
    todo = _judged(parts, rows)
    ask = any(d.needs_question_graph for d in parts.detectors_for(parts.config))
    pairs = [(answer, -1) for answer, _ in todo]
    pairs += [(v.question, -2) for _, v in todo if ask and v.question]
    graphs = parts.cache.prefetch_own(pairs, parts.extractor.get())
    return [(v, g) for (_, v), g in zip(todo, graphs)]


def _strings(g: KnowledgeGraph) -> list[str]:
    """The strings :func:`guardrail.check.judge.prefetch_embeddings` embeds of a graph."""
    return [n.label for n in g.nodes] + [t.text for t in g.triples] + [t.relation for t in g.triples]


def prefetch_strings(parts: Parts, claims: Sequence[tuple[ValidatedInput, KnowledgeGraph]]) -> None:
    """Embed, in one encoder pass, what each check's
    :func:`~guardrail.check.judge.prefetch_embeddings` would: the strings of the answer's
    graph, and those of the context graph when it has at most
    :data:`~guardrail.check.judge.PREFETCH_CONTEXT_MAX` distinct ones (passages not cached
    are left to their check), at most :data:`ENCODE_MAX` strings in all."""
    if not any(d.uses_encoder for d in parts.detectors_for(parts.config)):
        return
    texts: dict[str, None] = {}
    for v, claim in claims:
        passages = parts.cache.peek(list(v.contexts))
        if claim.is_empty or not passages:
            continue
        texts.update(dict.fromkeys(_strings(claim)))
        if all(g is not None for g in passages):
            ctx = dict.fromkeys(s for g in passages if g is not None for s in _strings(g))
            if len(ctx) <= PREFETCH_CONTEXT_MAX:
                texts.update(ctx)
    if texts:
        parts.encoder.get().encode(list(texts)[:ENCODE_MAX])


def _prefetch_group(parts: Parts, rows: Sequence[_Row]) -> None:
    try:
        prefetch_strings(parts, prefetch_answers(parts, rows))
    except GuardrailError:  # the item it is about raises it again when judged, as a BatchError naming it
        _log.debug("batch prefetch failed; its items are parsed one by one", exc_info=True)


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
        for start in range(0, len(window), GROUP_ITEMS):
            group = window[start:start + GROUP_ITEMS]
            _prefetch_group(parts, group)
            try:
                for r, _ in group:
                    try:
                        out.append(check(r["answer"], _context(r), r.get("question"), id=r.get("id")))
                    except Exception as exc:  # any failure: hand back what was judged (and logged) so far
                        raise BatchError(len(out), out, exc) from exc
            finally:
                parts.cache.drop_own()
    return out
