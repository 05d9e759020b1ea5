"""Entity grounding and relation preservation detector (HalluGraph).

HalluGraph scores an answer graph ``Ga`` against the context graph ``Gc`` (joined with
the question graph ``Gq``) with

* **EG**, entity grounding: the share of answer nodes that match a context node by
  normalised label and compatible type (here also: the label occurs in the context
  text, most of its content words do, or its embedding is close to a context node's);
  numbers and dates must match exactly ("1999" never grounds on "2004");
* **RP**, relation preservation: the share of answer triples with a supporting context
  triple, i.e. one whose end nodes match the answer triple's (either direction) and
  whose relation is similar;
* **CFI** = ``alpha * EG + (1 - alpha) * RP`` with ``alpha = 0.7``.

The hallucination score is ``1 - CFI``. Nodes named in the question are grounded (the
user supplied them), but restating the question is no evidence, so they weigh
``question_weight`` in EG. Nodes that assert nothing (polar words, pronouns) weigh 0.
Without answer triples ``RP = EG``; without context triples a triple is supported as
far as both its end nodes are grounded.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np

from guardrail.align.encoder import TextEncoder, cosine_matrix
from guardrail.detectors._params import Interval, validated
from guardrail.detectors.base import AlignmentInput, Detector
from guardrail.text.lexical import (
    NUMERIC_KINDS,
    TextIndex,
    contains_phrase,
    kinds_compatible,
    numbers_in,
    shortlist,
    stems,
)
from guardrail.text.lexicon import POLAR_WORDS
from guardrail.types import DetectorOutput, KnowledgeGraph, Node, NodeSupport, Triple

__all__ = ["GroundingDetector", "NodeGrounding", "ground_nodes", "soft", "context_index"]


def soft(cos: np.ndarray | float, low: float, high: float) -> np.ndarray:
    """Map a cosine to ``[0, 1]``: 0 at or below ``low``, 1 at or above ``high``, linear between."""
    return np.clip((np.asarray(cos, dtype=np.float64) - low) / max(high - low, 1e-9), 0.0, 1.0)


@dataclass(frozen=True)
class NodeGrounding:
    """Grounding of the answer nodes against the context.

    Attributes
    ----------
    support : ndarray, shape (n_answer_nodes,)
        Per-node grounding in ``[0, 1]``.
    weight : ndarray, shape (n_answer_nodes,)
        Weight of each node in EG (0 for contentless nodes).
    match : ndarray, shape (n_answer_nodes, n_context_nodes)
        Node-to-node match in ``[0, 1]`` (lexical identity 1, number clash 0, else soft cosine).
    nearest : list of int
        Index of the best type-compatible context node per answer node (-1 if none).
    """

    support: np.ndarray
    weight: np.ndarray
    match: np.ndarray
    nearest: list[int]


_DIGITS = re.compile(r"\d[\d.,]*")


def _number_ok(node: Node, ctx: TextIndex, q: TextIndex | None) -> bool | None:
    nums = numbers_in(node.text, words=node.kind in NUMERIC_KINDS)
    if not nums:
        return None
    known = ctx.numbers | (q.numbers if q else set())
    return nums <= known


def _lexical_match(claim: KnowledgeGraph, context: KnowledgeGraph) -> tuple[np.ndarray, np.ndarray]:
    """(match, compat): 1 where labels are equal or one contains the other (compatible kinds)."""
    n_a, n_c = len(claim.nodes), len(context.nodes)
    match = np.zeros((n_a, n_c))
    compat = np.ones((n_a, n_c), dtype=bool)
    for i, a in enumerate(claim.nodes):
        a_num = bool(numbers_in(a.label, words=False))
        for j, c in enumerate(context.nodes):
            if not kinds_compatible(a.kind, c.kind):
                compat[i, j] = False
            elif a.label == c.label or (
                not a_num and (contains_phrase(c.label, a.label) or contains_phrase(a.label, c.label))
                and min(len(a.label), len(c.label)) >= 3
            ):
                match[i, j] = 1.0
    return match, compat


def _embedding_match(
    claim: KnowledgeGraph, context: KnowledgeGraph, rows: list[int], match: np.ndarray,
    compat: np.ndarray, encoder: TextEncoder, low: float, high: float, k: int,
) -> np.ndarray:
    """Raise ``match[rows]`` to the soft label cosine against a trigram shortlist of context nodes."""
    best_cos = np.full(len(claim.nodes), -1.0)
    if not rows or not context.nodes:
        return best_cos
    ctx_labels = [c.label for c in context.nodes]
    cols = {i: shortlist([claim.nodes[i].label], ctx_labels, k) for i in rows}
    uniq = sorted({j for c in cols.values() for j in c})
    pos = {j: p for p, j in enumerate(uniq)}
    cos_all = cosine_matrix(encoder.encode([claim.nodes[i].label for i in rows]),
                            encoder.encode([ctx_labels[j] for j in uniq]))
    for r, i in enumerate(rows):
        c = cols[i]
        cos = np.where(compat[i, c], cos_all[r, [pos[j] for j in c]], -1.0)
        match[i, c] = np.maximum(match[i, c], soft(cos, low, high))
        best_cos[i] = float(cos.max()) if len(c) else -1.0
    return best_cos


def _nearest(node: Node, context: KnowledgeGraph, row: np.ndarray, clash: bool) -> int:
    """Evidence node: the best match; for a number clash the most similar node of the same kind."""
    if len(row) and row.max() > 0:
        return int(np.argmax(row))
    if clash:
        same = [j for j, c in enumerate(context.nodes) if c.kind == node.kind and numbers_in(c.label)]
        if same:
            labels = [context.nodes[j].label for j in same]
            return same[shortlist([node.label], labels, 1)[0]]
    return -1


def ground_nodes(
    claim: KnowledgeGraph,
    context: KnowledgeGraph,
    ctx_index: TextIndex,
    q_index: TextIndex | None,
    question_graph: KnowledgeGraph | None,
    encoder: TextEncoder,
    *,
    low: float = 0.4,
    threshold: float = 0.8,
    question_weight: float = 0.25,
    token_weight: float = 0.5,
    candidates: int = 6,
) -> NodeGrounding:
    """Ground every answer node (HalluGraph entity grounding).

    Lexical first (HalluGraph's type + normalised-text match, extended to label
    containment and to the label occurring in the context text); only nodes that no
    context node matches lexically are embedded, against a trigram shortlist of
    ``candidates`` context nodes, which keeps latency low on long contexts.

    Parameters
    ----------
    claim, context : KnowledgeGraph
        Answer graph and context graph (the latter may have no node).
    ctx_index, q_index : TextIndex, TextIndex or None
        Indexes of the context passages and of the question.
    question_graph : KnowledgeGraph or None
        Graph of the question; its node labels count as grounded.
    encoder : TextEncoder
        Embeds node labels.
    low, threshold : float
        Label cosine mapped linearly from 0 (at ``low``) to full grounding (at ``threshold``).
    question_weight, token_weight : float
        EG weights of question-named nodes and of fallback ``TOKEN`` nodes (others weigh 1).
    candidates : int
        Context nodes shortlisted per embedded answer node.

    Returns
    -------
    NodeGrounding
    """
    n_a = len(claim.nodes)
    match, compat = _lexical_match(claim, context)
    q_labels = {n.label for n in question_graph.nodes} if question_graph else set()
    support, weight = np.zeros(n_a), np.ones(n_a)
    num_ok = [_number_ok(n, ctx_index, q_index) for n in claim.nodes]
    for i in range(n_a):
        if num_ok[i] is False:
            match[i, :] = 0.0
    need = [i for i in range(n_a) if num_ok[i] is not False and not match[i].any()]
    _embedding_match(claim, context, need, match, compat, encoder, low, threshold, candidates)
    for i, node in enumerate(claim.nodes):
        content = [s for s in stems(node.label) if s not in POLAR_WORDS]
        if not content and num_ok[i] is None:
            support[i], weight[i] = 1.0, 0.0
            continue
        if node.kind == "TOKEN":
            weight[i] = token_weight
        in_q = node.label in q_labels or bool(q_index and q_index.has_phrase(node.label))
        if in_q and num_ok[i] is not False:
            support[i], weight[i] = 1.0, weight[i] * question_weight
        elif num_ok[i] is not False:
            lexical = 1.0 if ctx_index.has_phrase(node.label) else 0.0
            best = float(match[i].max()) if context.nodes else 0.0
            words = _DIGITS.sub(" ", node.label) if num_ok[i] else node.label
            support[i] = max(lexical, ctx_index.token_coverage(words), best)
    nearest = [_nearest(claim.nodes[i], context, match[i], num_ok[i] is False) for i in range(n_a)]
    return NodeGrounding(support, weight, match, nearest)


class GroundingDetector(Detector):
    """HalluGraph's entity grounding (EG), relation preservation (RP) and CFI.

    Parameters
    ----------
    alpha : float
        Weight of EG in ``CFI = alpha * EG + (1 - alpha) * RP``, in ``[0, 1]`` (default 0.7).
    threshold : float
        Label cosine at which an answer node is fully grounded by embedding (default 0.8).
    low : float
        Label cosine at or below which embedding similarity gives no grounding (default 0.4).
    relation_low, relation_high : float
        Relation-label cosine mapped from 0 to 1 between these (defaults 0.3 and 0.7).
    question_weight : float
        EG weight of nodes named in the question, in ``[0, 1]`` (default 0.25).
    token_weight : float
        EG weight of fallback ``TOKEN`` nodes, in ``[0, 1]`` (default 0.5).
    candidates : int
        Context nodes shortlisted (trigram Jaccard) per answer node that needs an
        embedding match (default 6).
    name : str or None
        The registry row's name (``relation`` is this class with ``alpha=0``: RP alone);
        default ``"grounding"``.

    References
    ----------
    HalluGraph: auditable hallucination detection for legal RAG systems via knowledge
    graph alignment, arXiv:2512.01659 (project seed paper 004).
    """

    name = "grounding"
    needs_question_graph = True
    _parameter_constraints = {
        "alpha": [Interval(Real, 0, 1, closed="both")],
        "threshold": [Interval(Real, -1, 1, closed="both")],
        "low": [Interval(Real, -1, 1, closed="both")],
        "relation_low": [Interval(Real, -1, 1, closed="both")],
        "relation_high": [Interval(Real, -1, 1, closed="both")],
        "question_weight": [Interval(Real, 0, 1, closed="both")],
        "token_weight": [Interval(Real, 0, 1, closed="both")],
        "candidates": [Interval(Integral, 1, None)],
        "name": [str, None],
    }
    _parameter_order = (("low", "threshold"), ("relation_low", "relation_high"))

    @validated
    def __init__(
        self,
        alpha: float = 0.7,
        threshold: float = 0.8,
        low: float = 0.4,
        relation_low: float = 0.3,
        relation_high: float = 0.7,
        question_weight: float = 0.25,
        token_weight: float = 0.5,
        candidates: int = 6,
        name: str | None = None,
    ) -> None:
        if name is not None:
            self.name = name
        self.alpha, self.threshold, self.low, self.candidates = alpha, threshold, low, candidates
        self.relation_low, self.relation_high = relation_low, relation_high
        self.question_weight, self.token_weight = question_weight, token_weight

    def detect(self, item: AlignmentInput) -> DetectorOutput:
        """Score ``1 - CFI`` and give per-node grounding with the nearest context evidence.

        Returns
        -------
        DetectorOutput
            ``score`` in ``[0, 1]``; ``details`` holds ``EG``, ``RP``, ``CFI`` and the
            per-triple support list ``triple_support``.
        """
        claim, ctx = item.claim_graph, item.context_graph
        if claim.is_empty:
            return DetectorOutput(name=self.name, score=1.0, details={"EG": 0.0, "RP": 0.0, "CFI": 0.0})
        g = self.grounding(item)
        if g.weight.sum() <= 0 and not claim.triples:  # e.g. a bare "no": nothing the graph confirms
            return DetectorOutput(name=self.name, score=1.0, details={"EG": 0.0, "RP": 0.0, "CFI": 0.0,
                                                                      "no_content": True})
        eg = float(np.dot(g.weight, g.support) / g.weight.sum()) if g.weight.sum() > 0 else 1.0
        rp_list, aligned = self._relations(claim, ctx, g, item.encoder)
        rp = float(np.mean(rp_list)) if rp_list else eg
        cfi = self.alpha * eg + (1.0 - self.alpha) * rp
        support = _node_support(claim, ctx, g, aligned)
        details: dict[str, Any] = {"EG": eg, "RP": rp, "CFI": cfi, "triple_support": [round(x, 4) for x in rp_list]}
        return DetectorOutput(name=self.name, score=min(1.0, max(0.0, 1.0 - cfi)), node_support=support,
                              details=details)

    def grounding(self, item: AlignmentInput) -> NodeGrounding:
        """:func:`ground_nodes` of ``item`` with these parameters, computed once per input
        (:meth:`AlignmentInput.shared`: ``entity`` and ``relation`` ground alike; do not write to it)."""
        key = ("ground_nodes", self.low, self.threshold, self.question_weight, self.token_weight, self.candidates)
        return item.shared(key, lambda: ground_nodes(
            item.claim_graph, item.context_graph, context_index(item.contexts),
            TextIndex([item.question]) if item.question else None, item.question_graph, item.encoder,
            low=self.low, threshold=self.threshold, question_weight=self.question_weight,
            token_weight=self.token_weight, candidates=self.candidates))

    def _relations(
        self, claim: KnowledgeGraph, ctx: KnowledgeGraph, g: NodeGrounding, encoder: TextEncoder
    ) -> tuple[list[float], dict[str, int]]:
        """Support per answer triple and, per answer node, the context node aligned to it."""
        a_idx = {n.id: i for i, n in enumerate(claim.nodes)}
        c_idx = {n.id: j for j, n in enumerate(ctx.nodes)}
        aligned: dict[str, int] = {}
        if not claim.triples:
            return [], aligned
        usable = [t for t in ctx.triples if t.subject.id in c_idx and t.object.id in c_idx]
        if not usable:
            return [float(min(g.support[a_idx[t.subject.id]], g.support[a_idx[t.object.id]]))
                    for t in claim.triples if t.subject.id in a_idx and t.object.id in a_idx], aligned
        cs = np.array([c_idx[t.subject.id] for t in usable])
        co = np.array([c_idx[t.object.id] for t in usable])
        rel = soft(_relation_cos(claim.triples, usable, encoder), self.relation_low, self.relation_high)
        out: list[float] = []
        for k, t in enumerate(claim.triples):
            if t.subject.id not in a_idx or t.object.id not in a_idx:
                continue
            s, o = a_idx[t.subject.id], a_idx[t.object.id]
            fwd = np.minimum(g.match[s, cs], g.match[o, co])
            bwd = np.minimum(g.match[s, co], g.match[o, cs])
            sup = np.minimum(np.maximum(fwd, bwd), rel[k])
            best = int(np.argmax(sup))
            out.append(float(sup[best]))
            _align_ends(aligned, t, usable, g, s, o, cs, co, rel[k])
        return out, aligned


def _relation_cos(claim_triples: tuple[Triple, ...], ctx_triples: list[Triple], encoder: TextEncoder) -> np.ndarray:
    a = [t.relation for t in claim_triples]
    b = [t.relation for t in ctx_triples]
    sims = cosine_matrix(encoder.encode(a), encoder.encode(b))
    same = np.array([[x == y for y in b] for x in a], dtype=bool)
    return np.where(same, 1.0, sims)


def _align_ends(
    aligned: dict[str, int], t: Triple, usable: list[Triple], g: NodeGrounding,
    s: int, o: int, cs: np.ndarray, co: np.ndarray, rel: np.ndarray,
) -> None:
    """Record the context node that sits where an ungrounded end of ``t`` sits in the
    context triple agreeing with ``t`` on the other end and the relation."""
    for end, other, c_end, c_other in ((o, s, co, cs), (s, o, cs, co)):
        if g.support[end] >= 0.5:
            continue
        agree = np.minimum(g.match[other, c_other], rel)
        k = int(np.argmax(agree))
        if agree[k] >= 0.5:
            aligned.setdefault(t.object.id if end == o else t.subject.id, int(c_end[k]))


def _node_support(
    claim: KnowledgeGraph, ctx: KnowledgeGraph, g: NodeGrounding, aligned: dict[str, int]
) -> tuple[NodeSupport, ...]:
    out = []
    for i, n in enumerate(claim.nodes):
        j = aligned.get(n.id, g.nearest[i])
        ev = ctx.nodes[j] if 0 <= j < len(ctx.nodes) else None
        out.append(NodeSupport(
            node_id=n.id, support=float(min(1.0, max(0.0, g.support[i]))),
            evidence=ev.text if ev else "", evidence_span=ev.span if ev else None,
        ))
    return tuple(out)


_INDEX_CACHE: dict[tuple[str, ...], TextIndex] = {}
_INDEX_LOCK = threading.Lock()


def context_index(contexts: tuple[str, ...]) -> TextIndex:
    """Cached :class:`TextIndex` of a context (the last 256 contexts are kept).

    Thread-safe: the cache is read and evicted under a lock; the index itself is built
    outside it (two threads may build the same index once each; one of them is kept).
    """
    key = tuple(contexts)
    with _INDEX_LOCK:
        idx = _INDEX_CACHE.get(key)
    if idx is None:
        built = TextIndex(list(contexts))
        with _INDEX_LOCK:
            idx = _INDEX_CACHE.get(key)
            if idx is None:
                idx = built
                while len(_INDEX_CACHE) >= 256:
                    _INDEX_CACHE.pop(next(iter(_INDEX_CACHE)))
                _INDEX_CACHE[key] = idx
    return idx
