"""Rich renderables for the ``kg-guardrail`` command line (tables, highlighted answers).

Everything here works on plain dicts (the compact JSON of a
:class:`~guardrail.types.GuardResult`, the metrics of :mod:`guardrail.metrics`) and on
:class:`~guardrail.log.sinks.FlaggedRecord`, so it renders both fresh results and logs.

Every string that comes from input or a log (ids, answers, node texts, explanations,
file names) is untrusted: it is rendered as a :class:`~rich.text.Text` (never parsed as
markup) or escaped with :func:`markup` for markup strings, and :func:`clean` replaces
terminal control characters in it, so ``[/bold]`` prints as itself, ``[link=...]``
makes no hidden hyperlink and ``\\x1b[2J`` cannot clear the screen.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from statistics import mean
from typing import Any

from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from guardrail.log.sinks import FlaggedRecord

__all__ = [
    "METRIC_KEYS",
    "json_line",
    "clean",
    "markup",
    "cell",
    "metrics_table",
    "compare_table",
    "verdict_text",
    "highlighted_answer",
    "demo_table",
    "log_table",
    "log_stats",
]

#: Metrics shown in tables, in order.
METRIC_KEYS = ("roc_auc", "balanced_accuracy", "precision", "recall", "f1")

# C0 controls but tab and newline, DEL, C1 controls (CSI \x9b...), bidi and direction
# overrides, and lone surrogates (which no terminal encoding can write).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def clean(value: object) -> str:
    r"""``str(value)`` made safe to print on a terminal.

    Control characters (ESC, CSI, BEL, backspace...), bidirectional overrides and lone
    surrogates each become U+FFFD and a carriage return a space: one character for one,
    so spans into the text still line up. Tabs and newlines are kept.

    Examples
    --------
    >>> clean("a\x1b[2Jb\r") == "a\ufffd[2Jb "
    True
    """
    return _UNSAFE.sub(lambda m: " " if m.group() == "\r" else "\ufffd", str(value))


def markup(value: object) -> str:
    r"""``value`` for a rich markup string: :func:`clean`, then :func:`rich.markup.escape`.

    Examples
    --------
    >>> markup("[/bold] id")
    '\\[/bold] id'
    """
    return escape(clean(value))


def cell(value: object, style: str = "") -> Text:
    """``value`` as a :class:`~rich.text.Text` (no markup parsing), :func:`clean` ed."""
    return Text(clean(value), style=style)


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def metrics_table(metrics: Mapping[str, Any], title: str = "Metrics", caption: str | None = None) -> Table:
    """A two-column table of the main metrics plus counts and the threshold."""
    table = Table(title=cell(title), caption=None if caption is None else cell(caption), show_header=True)
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key in (*METRIC_KEYS, "threshold", "n", "n_positive", "n_abstained"):
        table.add_row(key, _fmt(metrics.get(key)))
    return table


def compare_table(before: Mapping[str, Any], after: Mapping[str, Any], title: str) -> Table:
    """Metrics before and after calibration, side by side."""
    table = Table(title=cell(title))
    table.add_column("metric")
    table.add_column("before", justify="right")
    table.add_column("after", justify="right")
    for key in (*METRIC_KEYS, "threshold", "n", "n_abstained"):
        table.add_row(key, _fmt(before.get(key)), _fmt(after.get(key)))
    return table


def verdict_text(row: Mapping[str, Any]) -> Text:
    """``PASS`` (green), ``FLAG`` (red), ``ABSTAIN`` (yellow) or ``DECLINED`` (blue), with the score."""
    if row.get("abstained"):
        return Text("ABSTAIN", style="bold yellow")
    if row.get("declined"):
        return Text("DECLINED", style="bold blue")
    if row.get("passed"):
        return Text(f"PASS {row.get('score', 0.0):.2f}", style="bold green")
    return Text(f"FLAG {row.get('score', 0.0):.2f}", style="bold red")


def highlighted_answer(answer: str, nodes: Sequence[Mapping[str, Any]], max_chars: int = 400) -> Text:
    """``answer`` with each flagged node's span in bold red on a dark background.

    Parameters
    ----------
    answer : str
        The answer text.
    nodes : sequence of dict
        Flagged nodes (``{"span": {"start", "end"}}`` or ``span=None``).
    max_chars : int
        Longer answers are cut with an ellipsis after the highlighting.
    """
    text = Text(clean(answer))  # same length: spans still line up
    for node in nodes:
        span = node.get("span")
        if span and 0 <= span["start"] < span["end"] <= len(answer):
            text.stylize("bold red on grey15", span["start"], span["end"])
    if len(answer) > max_chars:
        text = text[:max_chars]
        text.append(" ...", style="dim")
    return text


def _explanation(row: Mapping[str, Any]) -> str:
    if row.get("abstained"):
        return f"abstained: {row.get('abstain_reason', '')}"
    expl = row.get("explanation") or {}
    parts = [expl.get("summary", "")] + list(expl.get("sentences", ()))[:3]
    return "\n".join(p for p in parts if p)


def demo_table(rows: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]]) -> Table:
    """Verdict table for ``(item, result_dict)`` pairs (items may carry a ``label``)."""
    table = Table(title="kg-guardrail demo: HaluEval validation sample", show_lines=True)
    table.add_column("id", overflow="fold", max_width=26)
    table.add_column("truth", max_width=8)
    table.add_column("verdict", max_width=11)
    table.add_column("answer (flagged spans highlighted)", ratio=3)
    table.add_column("explanation", ratio=2)
    for item, row in rows:
        label = item.get("label")
        truth = Text("-") if label is None else (
            Text("halluc.", style="red") if label else Text("faithful", style="green"))
        if "error" in row:
            table.add_row(cell(row.get("id")), truth, Text("ERROR", style="bold magenta"),
                          cell(item.get("answer", "")), cell(row["error"]))
            continue
        table.add_row(cell(row.get("id")), truth, verdict_text(row),
                      highlighted_answer(str(row.get("answer", "")), row.get("flagged_nodes") or []),
                      cell(_explanation(row)))
    return table


def log_table(records: Sequence[FlaggedRecord], *, details: bool = False, width: int | None = None) -> Table:
    """The records of a log, one line each, or in full with ``details``.

    The compact table (default) has one row per record, each cell cut to one line with an
    ellipsis: time (to the minute), id, event, score, what was flagged (node texts, or the
    abstain reason), the policy's action and the delivered answer. It fills ``width``
    columns (the terminal's): the flagged and delivered columns share what the fixed ones
    leave (one part to three), and below 100 columns the time drops its year. ``details=True`` adds the answer
    and the explanation, wrapped in full.
    """
    if details:
        return _log_details(records)
    from rich import box

    narrow = width is not None and width < 100
    table = Table(title=f"{len(records)} log record(s)", box=box.SIMPLE_HEAD, pad_edge=False, expand=True,
                  width=width)
    fixed = (("time", 11 if narrow else 16), ("id", 10 if narrow else 14), ("event", 9), ("score", 5),
             ("action", 9))
    for col, w in fixed:
        table.add_column(col, no_wrap=True, overflow="ellipsis", max_width=w, min_width=min(w, 5),
                         justify="right" if col == "score" else "left")
    for col, share in (("flagged", 1), ("delivered", 3)):  # the delivered answer is the longer text
        table.add_column(col, no_wrap=True, overflow="ellipsis", ratio=share, min_width=8)
    for r in records:
        what = f"abstained: {r.abstain_reason}" if r.abstained else "(declined)" if r.declined else (
            ", ".join(n.text for n in r.flagged_nodes) or "-")
        when = r.time[:16].replace("T", " ")
        delivered = "-" if r.delivered_answer is None else " ".join(r.delivered_answer.split()) or '""'
        table.add_row(cell(when[5:] if narrow else when), cell(r.id or "-"),
                      cell(r.event if r.round is None else f"{r.event} #{r.round}"), f"{r.score:.2f}",
                      cell(r.action or "-"), cell(" ".join(what.split())), cell(delivered))
    return table


def _log_details(records: Sequence[FlaggedRecord]) -> Table:
    """Time, id, event, score, answer, flagged node texts and explanation of each record."""
    table = Table(title=f"{len(records)} log record(s)", show_lines=True)
    for col in ("time", "id", "event", "score", "answer", "flagged nodes", "explanation"):
        table.add_column(col, overflow="fold")
    for r in records:
        expl = r.abstain_reason if r.abstained else r.explanation.summary if r.declined else "\n".join(
            p for p in (r.explanation.summary, *r.explanation.sentences[:3]) if p)
        table.add_row(cell(r.time), cell(r.id or "-"),
                      cell(r.event if r.round is None else f"{r.event} #{r.round}"), f"{r.score:.3f}",
                      cell(r.answer), cell(", ".join(n.text for n in r.flagged_nodes) or "-"), cell(expl))
    return table


def _histogram(scores: Sequence[float], bins: int = 10, width: int = 40) -> Table:
    counts = [0] * bins
    for s in scores:
        counts[min(bins - 1, int(s * bins))] += 1
    top = max(counts) or 1
    table = Table(title="score histogram", show_header=True)
    table.add_column("score")
    table.add_column("count", justify="right")
    table.add_column("")
    for i, c in enumerate(counts):
        table.add_row(Text(f"[{i / bins:.1f}, {(i + 1) / bins:.1f})"), str(c), "#" * round(width * c / top))
    return table


def log_stats(records: Sequence[FlaggedRecord], top: int = 10) -> Group:
    """Counts by event, score mean and histogram, and the most frequent flagged nodes.

    Declined answers (``event == "declined"``) are counted by event only: they are left out of
    the scores and the flagged nodes, since they are not flagged answers."""
    events = Counter(r.event for r in records)
    summary = Table(title=f"{len(records)} log record(s)")
    summary.add_column("event")
    summary.add_column("count", justify="right")
    for event, count in events.most_common():
        summary.add_row(cell(event), str(count))
    judged = [r for r in records if not r.declined and r.event != "declined"]
    scores = [r.score for r in judged]
    summary.add_row("mean score", f"{mean(scores):.3f}" if scores else "-")
    nodes = Counter(n.text.strip().lower() for r in judged for n in r.flagged_nodes)
    node_table = Table(title=f"top {top} flagged nodes")
    node_table.add_column("node")
    node_table.add_column("count", justify="right")
    for text, count in nodes.most_common(top):
        node_table.add_row(cell(text), str(count))
    return Group(summary, _histogram(scores), node_table)


def json_line(row: dict[str, Any]) -> str:
    """One JSONL output line; lone surrogates (not encodable as UTF-8) are written as JSON escapes."""
    text = json.dumps(row, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(row, ensure_ascii=True)
    return text + "\n"
