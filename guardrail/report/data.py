"""Turn result lines (``kg-guardrail check`` output) into what the HTML report shows.

Everything here works on plain dicts, never trusts them (a missing key, a wrong type or
an out-of-range span degrades the item, never the report) and does no escaping: the
template escapes every string.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "Segment",
    "ReportItem",
    "load_results",
    "load_inputs",
    "join_inputs",
    "merge_input",
    "verdict_of",
    "segments",
    "passages_of",
    "evidence_spans",
    "make_item",
]

_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|\n|$)")
_WORD = re.compile(r"\w+")


@dataclass
class Segment:
    """A run of text with the marks that cover it (indexes into the item's flags)."""

    text: str
    marks: tuple[int, ...] = ()
    title: str = ""


@dataclass
class ReportItem:
    """One result as the report shows it.

    ``verdict`` is ``passed``, ``flagged``, ``abstained``, ``declined`` (the answer declines to
    answer, ``GuardResult.declined``) or ``error``; ``outcome`` is
    ``tp``, ``fp``, ``tn``, ``fn`` when the item has a 0/1 label, ``""`` otherwise.
    """

    index: int
    id: str
    verdict: str
    score: float | None = None
    threshold: float | None = None
    label: int | None = None
    outcome: str = ""
    question: str = ""
    answer: list[Segment] = field(default_factory=list)
    flags: list[dict[str, Any]] = field(default_factory=list)
    passages: list[list[Segment]] = field(default_factory=list)
    summary: str = ""
    abstain_reason: str = ""
    error: str = ""
    config: str = ""
    detector_scores: list[tuple[str, float]] = field(default_factory=list)
    graph_svg: str = ""
    graph_note: str = ""


def load_results(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """Read a results JSONL file: (rows, problems); an unreadable line becomes a problem, not a row."""
    rows: list[dict[str, Any]] = []
    problems: list[str] = []
    with path.open(encoding="utf-8", errors="replace") as fh:
        for lineno, text in enumerate(fh, start=1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except (ValueError, RecursionError) as exc:
                problems.append(f"line {lineno}: not JSON ({exc})")
                continue
            if isinstance(obj, dict):
                rows.append(obj)
            else:
                problems.append(f"line {lineno}: expected an object, got {type(obj).__name__}")
    return rows, problems


def load_inputs(path: Path) -> dict[str, dict[str, Any]]:
    """The raw input objects of a ``check`` input file, by id (the line number when absent)."""
    from guardrail.io import read_items

    return {ln.id: ln.raw for ln in read_items(path) if ln.raw}


def merge_input(row: Mapping[str, Any], raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """``row`` plus the input's ``context`` (or ``contexts``), ``label`` and ``question`` where it lacks them."""
    merged = dict(row)
    if isinstance(raw, Mapping):
        for key in ("context", "label", "question"):
            if merged.get(key) is None and raw.get(key) is not None:
                merged[key] = raw[key]
        if merged.get("context") is None and raw.get("contexts") is not None:
            merged["context"] = raw["contexts"]
    return merged


def join_inputs(rows: Iterable[Mapping[str, Any]], inputs: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """:func:`merge_input` of every row with the input of the same id."""
    return [merge_input(row, inputs.get(str(row.get("id")))) for row in rows]


def verdict_of(row: Mapping[str, Any]) -> str:
    """``error``, ``abstained``, ``declined``, ``passed`` or ``flagged``."""
    if "error" in row or "passed" not in row:
        return "error"
    if row.get("abstained"):
        return "abstained"
    if row.get("declined") is True:
        return "declined"
    return "passed" if row.get("passed") is True else "flagged"


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _span(obj: Any) -> tuple[int, int, int] | None:
    """``(start, end, source)`` of a span dict, or None when it is not a usable span."""
    if not isinstance(obj, Mapping):
        return None
    start, end, source = obj.get("start"), obj.get("end"), obj.get("source", -1)
    if not (isinstance(start, int) and isinstance(end, int) and isinstance(source, int)):
        return None
    if any(isinstance(v, bool) for v in (start, end, source)) or start < 0 or end <= start:
        return None
    return start, end, source


def segments(text: str, spans: Sequence[tuple[int, int, int]], titles: Sequence[str] = ()) -> list[Segment]:
    """Cut ``text`` at every span boundary; each segment lists the spans (by index) covering it.

    Spans are ``(start, end, mark)`` character offsets (clamped to the text); overlapping
    spans are allowed. ``titles[mark]``, when given, becomes the segment's hover text.
    """
    n = len(text)
    clean = [(max(0, min(s, n)), max(0, min(e, n)), m) for s, e, m in spans]
    clean = [(s, e, m) for s, e, m in clean if e > s]
    cuts = sorted({0, n, *[s for s, _, _ in clean], *[e for _, e, _ in clean]})
    out: list[Segment] = []
    for a, b in zip(cuts, cuts[1:]):
        marks = tuple(sorted({m for s, e, m in clean if s <= a and b <= e}))
        title = " | ".join(titles[m] for m in marks if 0 <= m < len(titles) and titles[m])
        out.append(Segment(text[a:b], marks, title))
    return out or [Segment(text)]


def passages_of(row: Mapping[str, Any]) -> list[str]:
    """The context passages: the row's ``context`` (str, list of str, or triples), else the graph's texts."""
    ctx = row.get("context", row.get("contexts"))
    if isinstance(ctx, str):
        return [ctx]
    if isinstance(ctx, list) and ctx:
        if all(isinstance(c, str) for c in ctx):
            return list(ctx)
        if all(isinstance(c, list) and len(c) == 3 and all(isinstance(e, str) for e in c) for c in ctx):
            return [" ".join(c) + "." for c in ctx]
    graph = row.get("context_graph")
    texts = graph.get("texts") if isinstance(graph, Mapping) else None
    if isinstance(texts, list) and all(isinstance(t, str) for t in texts):
        return list(texts)
    return []


def _locate(passages: Sequence[str], span: tuple[int, int, int] | None, evidence: str) -> tuple[int, int, int] | None:
    """Where an evidence string sits: its span when the slice matches, else the first occurrence."""
    if span is not None:
        s, e, src = span
        if 0 <= src < len(passages) and e <= len(passages[src]):
            if not evidence or passages[src][s:e].strip() == evidence.strip():
                return span
    if evidence:
        for i, p in enumerate(passages):
            k = p.find(evidence.strip())
            if k >= 0:
                return k, k + len(evidence.strip()), i
    return span if span is not None and 0 <= span[2] < len(passages) else None


def _best_sentence(passages: Sequence[str], answer: str) -> tuple[int, int, int] | None:
    """The passage sentence sharing the most words with the answer (for items without evidence)."""
    words = {w.lower() for w in _WORD.findall(answer) if len(w) > 2}
    best, best_n = None, 0
    for i, p in enumerate(passages):
        for m in _SENTENCE.finditer(p):
            n = len(words & {w.lower() for w in _WORD.findall(m.group())})
            if n > best_n:
                best, best_n = (m.start(), m.end(), i), n
    return best


def evidence_spans(row: Mapping[str, Any], passages: Sequence[str]) -> list[tuple[int, int, int, str]]:
    """Highlights in the passages: ``(start, end, passage, why)``.

    The evidence of each flagged node, then the evidence triples of contradictions;
    when there is none, the sentence with the most words in common with the answer.
    """
    found: list[tuple[int, int, int, str]] = []
    flagged = row.get("flagged_nodes")
    for node in flagged if isinstance(flagged, list) else []:
        if isinstance(node, Mapping):
            loc = _locate(passages, _span(node.get("evidence_span")), str(node.get("evidence") or ""))
            if loc is not None:
                found.append((*loc, f"closest evidence for '{node.get('text', '')}'"))
    expl = row.get("explanation")
    pairs = expl.get("contradictions") if isinstance(expl, Mapping) else None
    for pair in pairs if isinstance(pairs, list) else []:
        ev = pair.get("evidence") if isinstance(pair, Mapping) else None
        loc = _locate(passages, _span(ev.get("span")), "") if isinstance(ev, Mapping) else None
        if loc is not None:
            found.append((*loc, "evidence triple of a contradiction"))
    if not found:
        best = _best_sentence(passages, str(row.get("answer") or ""))
        if best is not None:
            found.append((*best, "sentence sharing the most words with the answer"))
    return found


def _outcome(verdict: str, label: int | None, passed: bool = False) -> str:
    if label is None or verdict == "error":
        return ""
    predicted = verdict != "passed" and not (verdict == "declined" and passed)
    return {(True, 1): "tp", (True, 0): "fp", (False, 0): "tn", (False, 1): "fn"}[(predicted, label)]


def make_item(index: int, row: Mapping[str, Any]) -> ReportItem:
    """Build the :class:`ReportItem` of one result row (graphs are drawn elsewhere)."""
    verdict = verdict_of(row)
    label = row.get("label")
    label = label if label in (0, 1) and not isinstance(label, bool) else None
    item = ReportItem(index=index, id=str(row.get("id", row.get("line", index))), verdict=verdict,
                      score=_num(row.get("score")), threshold=_num(row.get("threshold")), label=label,
                      outcome=_outcome(verdict, label, row.get("passed") is True), question=str(row.get("question") or ""),
                      error=str(row.get("error") or ""), abstain_reason=str(row.get("abstain_reason") or ""),
                      config=str(row.get("config") or ""))
    expl = row.get("explanation")
    item.summary = str(expl.get("summary") or "") if isinstance(expl, Mapping) else ""
    scores = row.get("detector_scores")
    if isinstance(scores, Mapping):
        item.detector_scores = [(str(k), v) for k, v in scores.items() if _num(v) is not None]
    answer = str(row.get("answer") or "")
    spans, titles = [], []
    flagged = row.get("flagged_nodes")
    for node in flagged if isinstance(flagged, list) else []:
        if not isinstance(node, Mapping):
            continue
        k = len(item.flags)
        reason = str(node.get("reason") or "")
        item.flags.append({"text": str(node.get("text") or ""), "reason": reason,
                           "support": _num(node.get("support")), "evidence": str(node.get("evidence") or "")})
        titles.append(reason or f"unsupported: {node.get('text', '')}")
        sp = _span(node.get("span"))
        if sp is not None:
            spans.append((sp[0], sp[1], k))
    item.answer = segments(answer, spans, titles)
    passages = passages_of(row)
    marks = evidence_spans(row, passages)
    whys = [m[3] for m in marks]
    for i, p in enumerate(passages):
        item.passages.append(segments(p, [(s, e, k) for k, (s, e, src, _) in enumerate(marks) if src == i], whys))
    return item
