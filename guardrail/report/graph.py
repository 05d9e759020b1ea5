"""Pictures of an answer's claim graph aligned to its context graph (networkx + matplotlib).

The claim graph is drawn on the left in answer order, the context graph on the right
(networkx ``bipartite_layout``), each context node at the height of the answer nodes it
aligns to, relations as curved labelled arrows inside each column. Flagged
answer nodes are red; dashed links join aligned nodes: green where the labels match,
orange where a claim triple contradicts a context triple (KEA Explain pairs). Context
triples whose two ends are aligned are drawn thicker.
"""

from __future__ import annotations

import io
import re
import textwrap
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from guardrail.text.lexicon import LABEL_STOP_WORDS

__all__ = ["alignment", "graph_svg", "MAX_CONTEXT_NODES"]

#: Context nodes drawn at most (aligned nodes and their neighbours first).
MAX_CONTEXT_NODES = 28

_WORD = re.compile(r"\w+")
_COLORS = {"flagged": "#d62728", "claim": "#4c78a8", "context": "#9aa5b1",
           "match": "#2ca02c", "contradiction": "#ff7f0e"}


def _nodes(graph: Any) -> dict[str, Mapping[str, Any]]:
    nodes = graph.get("nodes") if isinstance(graph, Mapping) else None
    return {str(n["id"]): n for n in nodes or [] if isinstance(n, Mapping) and "id" in n}


def _triples(graph: Any, known: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    out = []
    triples = graph.get("triples") if isinstance(graph, Mapping) else None
    for t in triples or []:
        if not isinstance(t, Mapping):
            continue
        s, o = t.get("subject"), t.get("object")
        if isinstance(s, Mapping) and isinstance(o, Mapping) and str(s.get("id")) in known and str(o.get("id")) in known:
            out.append((str(s["id"]), str(t.get("relation", "")), str(o["id"])))
    return out


def _words(label: Any) -> frozenset[str]:
    return frozenset(w for w in _WORD.findall(str(label).lower()) if w not in LABEL_STOP_WORDS)


def alignment(row: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """``(claim node id, context node id, kind)`` links between the two graphs of a result.

    ``kind`` is ``"contradiction"`` for the corresponding ends of contradicting triple
    pairs, ``"match"`` for nodes whose content words are equal or one contains the other.
    """
    claim, context = _nodes(row.get("claim_graph")), _nodes(row.get("context_graph"))
    links: dict[tuple[str, str], str] = {}
    expl = row.get("explanation")
    pairs = expl.get("contradictions") if isinstance(expl, Mapping) else None
    for pair in pairs if isinstance(pairs, list) else []:
        if not isinstance(pair, Mapping) or not isinstance(pair.get("claim"), Mapping) or not isinstance(pair.get("evidence"), Mapping):
            continue
        for end in ("subject", "object"):
            a, b = pair["claim"].get(end), pair["evidence"].get(end)
            if isinstance(a, Mapping) and isinstance(b, Mapping):
                key = (str(a.get("id")), str(b.get("id")))
                if key[0] in claim and key[1] in context:
                    links[key] = "contradiction"
    ctx_words = {cid: _words(n.get("label", n.get("text", ""))) for cid, n in context.items()}
    for aid, node in claim.items():
        words = _words(node.get("label", node.get("text", "")))
        if not words:
            continue
        for cid, cw in ctx_words.items():
            if cw and (words <= cw or cw <= words) and (aid, cid) not in links:
                links[(aid, cid)] = "match"
    return [(a, c, kind) for (a, c), kind in links.items()]


def _subset(context: Mapping[str, Any], triples: Sequence[tuple[str, str, str]], aligned: set[str],
            limit: int) -> list[str]:
    keep = [c for c in context if c in aligned]
    for s, _, o in triples:
        for a, b in ((s, o), (o, s)):
            if a in aligned and b not in keep:
                keep.append(b)
    keep += [c for c in context if c not in keep]
    return keep[:limit]


def _short(text: Any, width: int = 18) -> str:
    text = " ".join(str(text).split())
    if len(text) > 2 * width:
        text = text[: 2 * width - 1] + "…"
    return "\n".join(textwrap.wrap(text, width)) or "·"


def graph_svg(row: Mapping[str, Any], flagged: Sequence[str] = (), max_context_nodes: int = MAX_CONTEXT_NODES) -> tuple[str, str]:
    """Draw one result's graphs; return ``(svg, note)``, ``svg`` empty when there is nothing to draw.

    Parameters
    ----------
    row : mapping
        A full result (``GuardResult.to_dict()``), with ``claim_graph`` and ``context_graph``.
    flagged : sequence of str
        Ids of the flagged answer nodes (drawn red).
    max_context_nodes : int
        Cap on context nodes drawn; the note says how many were left out.
    """
    if not isinstance(row.get("claim_graph"), Mapping) and not isinstance(row.get("context_graph"), Mapping):
        return "", "no graphs in these results (run check with --graphs, or check --report)"
    claim, context = _nodes(row.get("claim_graph")), _nodes(row.get("context_graph"))
    if not claim and not context:
        return "", "both graphs are empty"
    c_triples, x_triples = _triples(row.get("claim_graph"), claim), _triples(row.get("context_graph"), context)
    links = alignment(row)
    shown = set(_subset(context, x_triples, {c for _, c, _ in links}, max_context_nodes))
    note = f"context graph: {len(shown)} of {len(context)} nodes shown" if len(shown) < len(context) else ""
    x_triples = [t for t in x_triples if t[0] in shown and t[2] in shown]
    links = [lk for lk in links if lk[1] in shown]
    return _draw(claim, {k: v for k, v in context.items() if k in shown}, c_triples, x_triples, links,
                 set(map(str, flagged))), note


def _order(claim: Mapping[str, Any], context: Mapping[str, Any], x_triples: Sequence[tuple[str, str, str]],
           links: Sequence[tuple[str, str, str]]) -> tuple[list[str], list[str]]:
    """Claim nodes in answer order; context nodes at the mean row of what they align to."""
    def start(node: Mapping[str, Any]) -> int:
        span = node.get("span")
        return span.get("start", 0) if isinstance(span, Mapping) and isinstance(span.get("start"), int) else 0

    left = sorted(claim, key=lambda k: start(claim[k]))
    row = {k: i for i, k in enumerate(left)}
    key: dict[str, float] = {}
    for c in context:
        rows = [row[a] for a, cc, _ in links if cc == c and a in row]
        if rows:
            key[c] = sum(rows) / len(rows)
    for c in context:  # unaligned nodes next to their aligned neighbours
        if c not in key:
            near = [key[o if s == c else s] for s, _, o in x_triples if c in (s, o) and (o if s == c else s) in key]
            if near:
                key[c] = sum(near) / len(near) + 0.01
    order = list(context)
    right = sorted(context, key=lambda c: (key.get(c, len(left) + order.index(c)), order.index(c)))
    return left, right


def _draw(claim: Mapping[str, Any], context: Mapping[str, Any], c_triples: Sequence[tuple[str, str, str]],
          x_triples: Sequence[tuple[str, str, str]], links: Sequence[tuple[str, str, str]], flagged: set[str]) -> str:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    import networkx as nx

    left, right = _order(claim, context, x_triples, links)
    g = nx.DiGraph()
    g.add_nodes_from(["a" + k for k in left] + ["c" + k for k in right])
    pos = nx.bipartite_layout(g, ["a" + k for k in left], align="vertical", scale=1.0, aspect_ratio=0.5)
    aligned_ctx = {c for _, c, _ in links}
    rows = max(len(left), len(right), 3)
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "kg-guardrail", "text.parse_math": False,
                         "font.size": 8}):
        fig, ax = plt.subplots(figsize=(9.0, min(14.0, 1.4 + 0.42 * rows)))
        try:
            for kind in ("match", "contradiction"):
                nx.draw_networkx_edges(g, pos, ax=ax, arrows=False, style="dashed", width=1.2, alpha=0.8,
                                       edge_color=_COLORS[kind],
                                       edgelist=[("a" + a, "c" + c) for a, c, k in links if k == kind])
            for prefix, triples, bend in (("a", c_triples, 1.0), ("c", x_triples, -1.0)):
                _draw_triples(ax, g, pos, prefix, triples, bend, aligned_ctx)
            colors = {"a" + k: _COLORS["flagged" if k in flagged else "claim"] for k in left}
            colors.update({"c" + k: _COLORS["context"] for k in right})
            nodes = list(colors)
            drawn = nx.draw_networkx_nodes(g, pos, ax=ax, nodelist=nodes, node_color=[colors[n] for n in nodes],
                                           node_size=160)
            drawn.set_zorder(4)
            for prefix, nodes_map, dx, ha in (("a", claim, -0.04, "right"), ("c", context, 0.04, "left")):
                shifted = {prefix + k: (pos[prefix + k][0] + dx, pos[prefix + k][1]) for k in nodes_map}
                names = {prefix + k: _short(v.get("text", v.get("label", k)), 24) for k, v in nodes_map.items()}
                nx.draw_networkx_labels(g, shifted, labels=names, ax=ax, font_size=7, horizontalalignment=ha,
                                        font_color={"a": "#1f2933", "c": "#3b4652"}[prefix])
            ax.set_title("answer (claim graph)                    ↔                    context graph", fontsize=9)
            _legend(ax)
            xs = [p[0] for p in pos.values()] or [0.0]
            ax.set_xlim(min(xs) - 0.9, max(xs) + 0.9)
            ax.axis("off")
            buf = io.StringIO()
            with warnings.catch_warnings():  # text stays text: the viewer's fonts draw every script
                warnings.filterwarnings("ignore", message="Glyph .* missing from font")
                fig.savefig(buf, format="svg", bbox_inches="tight")
        finally:
            plt.close(fig)
    return buf.getvalue()


def _draw_triples(ax: Any, g: Any, pos: Mapping[str, Any], prefix: str, triples: Sequence[tuple[str, str, str]],
                  bend: float, aligned_ctx: set[str]) -> None:
    """Draw one side's triples as curved edges labelled with their relations."""
    import networkx as nx

    labels: dict[tuple[str, str], list[str]] = {}
    for s, r, o in triples:
        if s != o:
            labels.setdefault((prefix + s, prefix + o), []).append(r)
    for (u, v), rels in labels.items():
        (x1, y1), (x2, y2) = pos[u], pos[v]
        rad = 0.45 * bend * (1 if y2 >= y1 else -1)
        strong = prefix == "c" and u[1:] in aligned_ctx and v[1:] in aligned_ctx
        nx.draw_networkx_edges(g, pos, ax=ax, edgelist=[(u, v)], connectionstyle=f"arc3,rad={rad}",
                               edge_color="#2f6f2f" if strong else "#555555",
                               width=2.4 if strong else 1.0, arrowsize=10, node_size=160)
        cx, cy = (x1 + x2) / 2 + rad * (y2 - y1), (y1 + y2) / 2 - rad * (x2 - x1)
        ax.text(0.25 * x1 + 0.5 * cx + 0.25 * x2, 0.25 * y1 + 0.5 * cy + 0.25 * y2,
                _short("; ".join(dict.fromkeys(rels)), 16), fontsize=6, color="#333333",
                ha="center", va="center",
                bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.85})


def _legend(ax: Any) -> None:
    """The node and edge legend under the picture."""
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], marker="o", ls="", color=_COLORS[k], label=t) for k, t in
               (("flagged", "flagged answer node"), ("claim", "answer node"), ("context", "context node"))]
    handles += [Line2D([], [], ls="--", color=_COLORS["match"], label="aligned (label)"),
                Line2D([], [], ls="--", color=_COLORS["contradiction"], label="contradiction pair"),
                Line2D([], [], color="#2f6f2f", lw=2.4, label="aligned context edge")]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3, fontsize=7,
              frameon=False)
