"""Assemble the self-contained HTML report (Jinja2, autoescaped) from result rows.

The page needs no network: CSS and the small filter/sort script are inline, pictures
are SVG data URIs in ``<img>`` tags (an SVG shown through ``<img>`` never runs
scripts), and a Content-Security-Policy allows only the report's own nonce-tagged
style and script, so markup smuggled into an answer, a context or an id stays text.
"""

from __future__ import annotations

import base64
import datetime as _dt
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from guardrail.report.data import ReportItem, make_item, verdict_of

__all__ = ["summarize", "build_items", "render_html", "write_report", "svg_uri", "DEFAULT_MAX_GRAPHS"]

#: Items beyond this many get no graph picture (drawing costs about 0.2 s each).
DEFAULT_MAX_GRAPHS = 300


def svg_uri(svg: str) -> str:
    """An SVG document as a ``data:`` URI for an ``<img>`` tag (``""`` for no SVG)."""
    if not svg:
        return ""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def _label(row: Mapping[str, Any]) -> int | None:
    y = row.get("label")
    return y if y in (0, 1) and not isinstance(y, bool) else None


def _score(row: Mapping[str, Any]) -> float | None:
    s = row.get("score")
    return float(s) if isinstance(s, (int, float)) and not isinstance(s, bool) else None


def summarize(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Counts, metrics (when labelled), confusion matrix, histogram and ROC pictures.

    Returns
    -------
    dict
        ``n``, ``counts`` (by verdict), ``labelled``, ``metrics`` (or None),
        ``histogram`` and ``roc`` (data URIs, ``""`` when there is nothing to plot),
        ``thresholds``.
    """
    from guardrail.metrics import result_metrics
    from guardrail.report.plots import roc_curve_svg, score_histogram

    verdicts = [verdict_of(r) for r in rows]
    counts = Counter(verdicts)
    judged = [(r, v) for r, v in zip(rows, verdicts) if v != "error" and _score(r) is not None]
    labelled = [(r, _label(r)) for r, _ in judged if _label(r) is not None]
    metrics = None
    if labelled:
        metrics = result_metrics([r for r, _ in labelled], [int(y) for _, y in labelled])  # type: ignore[arg-type]
    thresholds = sorted({float(t) for r, _ in judged if isinstance((t := r.get("threshold")), (int, float))})
    if labelled:
        groups = [f"label {y}" for _, y in labelled]
        hist = score_histogram([_score(r) or 0.0 for r, _ in labelled], groups, thresholds, by="label")
    else:
        hist = score_histogram([_score(r) or 0.0 for r, _ in judged], [v for _, v in judged], thresholds)
    roc = ""
    if labelled:
        roc = roc_curve_svg([int(y) for _, y in labelled], [_score(r) or 0.0 for r, _ in labelled],  # type: ignore[arg-type]
                            metrics.get("roc_auc") if metrics else None)
    return {"n": len(rows), "counts": {k: counts.get(k, 0) for k in ("passed", "flagged", "abstained", "declined", "error")},
            "labelled": len(labelled), "metrics": metrics, "histogram": svg_uri(hist) if judged else "",
            "roc": svg_uri(roc), "thresholds": thresholds}


def build_items(rows: Sequence[Mapping[str, Any]], max_graphs: int = DEFAULT_MAX_GRAPHS) -> list[ReportItem]:
    """One :class:`ReportItem` per row, with graph pictures for the first ``max_graphs`` items."""
    from guardrail.report.graph import graph_svg

    items = []
    for i, row in enumerate(rows):
        item = make_item(i, row)
        if item.verdict != "error":
            if i < max_graphs:
                flagged = row.get("flagged_nodes")
                ids = [str(n.get("node_id")) for n in flagged if isinstance(n, Mapping)] if isinstance(flagged, list) else []
                svg, item.graph_note = graph_svg(row, ids)
                item.graph_svg = svg_uri(svg)
            else:
                item.graph_note = f"graph not drawn: only the first {max_graphs} items get one (--max-graphs)"
        items.append(item)
    return items


def _environment() -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("guardrail.report", "templates"),
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
    )
    env.filters["fmt"] = lambda v, d=3: "–" if v is None else (f"{v:.{d}f}" if isinstance(v, float) else str(v))
    return env


def render_html(rows: Sequence[Mapping[str, Any]], *, title: str = "kg-guardrail audit", source: str = "",
                problems: Iterable[str] = (), max_graphs: int = DEFAULT_MAX_GRAPHS) -> str:
    """The whole report as one HTML string.

    Parameters
    ----------
    rows : sequence of mapping
        Result rows (``GuardResult.to_dict()`` or ``check`` output lines, with ``context``
        and ``label`` joined in where known; error rows ``{"id", "line", "error"}`` too).
    title, source : str
        Page title and where the results came from (shown in the header).
    problems : iterable of str
        Lines of the results file that could not be read.
    max_graphs : int
        Draw graph pictures for this many items at most.
    """
    env = _environment()
    summary = summarize(rows)
    items = build_items(rows, max_graphs)
    return str(env.get_template("report.html.j2").render(
        title=title, source=source, summary=summary, items=items, problems=list(problems),
        nonce=secrets.token_urlsafe(18), has_labels=summary["labelled"] > 0,
        generated=_dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    ))


def write_report(rows: Sequence[Mapping[str, Any]], out: str | Path, **kwargs: Any) -> Path:
    """Render :func:`render_html` to ``out`` (parents created); return the path."""
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(rows, **kwargs), encoding="utf-8")
    return path
