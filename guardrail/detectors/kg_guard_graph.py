"""Building the KG-Guard augmented graph of one answer (seed paper 001, Section 3.2).

For an answer with its claim graph, the context graph and the question, the augmented
graph (:class:`~guardrail.models.kg_guard_network.AugmentedGraph`, the network's input)
holds:

* the **context nodes** (a bounded neighbourhood of the answer: the context nodes most
  similar to each answer node, the topic entities, and their one-hop neighbours);
* the **answer nodes** (the claim graph's nodes), marked with the answer mark;
* the **topic entities** (context nodes named in the question), marked with the topic mark;
* a **virtual question node** carrying the question embedding, linked to the topic entities;
* edges: context triples and claim triples in both directions (relation label embedded as
  an edge feature), and **alignment edges** between each answer node and its
  ``align_k`` most similar context nodes (cosine as an edge feature).

Node features are the MiniLM embedding of the label, the marks (turned into learned
embeddings by the model) and, for answer nodes, the support features of
:data:`SUPPORT_FEATURES` (grounding of the node's text, words and numbers, its alignment
cosine, co-occurrence with the other answer nodes in one context sentence, and,
optionally, the claim verifier's scores).

The graph is built from the output of the align and extract steps, so it lives with the
detector; everything here is numpy, and :mod:`guardrail.models.kg_guard_network` (which
defines the graph's arrays and :data:`EDGE_TYPES`) turns it into tensors.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from guardrail.align.claims import last_turn
from guardrail.align.encoder import TextEncoder, cosine_matrix
from guardrail.extract.given import linearise
from guardrail.models.kg_guard_network import EDGE_TYPES, AugmentedGraph
from guardrail.text.lexical import NUMERIC_KINDS, numbers_in, shortlist
from guardrail.text.sentences import split_sentences
from guardrail.types import KnowledgeGraph, Node, Triple

__all__ = [
    "AugmentedGraph",
    "EDGE_TYPES",
    "SUPPORT_FEATURES",
    "VERIFIER_FEATURES",
    "build_augmented_graph",
    "answer_nodes",
]

#: Support features of an answer node, without the verifier.
SUPPORT_FEATURES: tuple[str, ...] = (
    "align_max", "align_exact", "text_in_context", "word_share", "has_number", "numbers_grounded",
    "is_entity", "is_numeric", "in_question", "cooccur", "triple_align", "has_triple",
)
#: Extra support features when the claim verifier is used.
VERIFIER_FEATURES: tuple[str, ...] = ("verifier_claim_p", "verifier_node_support")

_GENERIC = frozenset({"NOUN", "TOKEN", "ADJ", "NUM", "LITERAL"})
_WORD = re.compile(r"[a-z0-9]+")
# edge types, as indices into EDGE_TYPES
_CONTEXT, _CLAIM, _ALIGN, _QUESTION = 0, 2, 4, 6


def answer_nodes(claim: KnowledgeGraph, max_nodes: int = 32) -> list[Node]:
    """The claim nodes that are classified: those with a span (at most ``max_nodes``)."""
    return [n for n in claim.nodes if n.span is not None][:max_nodes]


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if len(w) > 2}


def _in_text(label: str, lowered: str) -> bool:
    if not label or len(label) < 2:
        return False
    return re.search(r"(?<![a-z0-9])" + re.escape(label) + r"(?![a-z0-9])", lowered) is not None


def _context_sentences(contexts: Sequence[str], context: KnowledgeGraph) -> list[str]:
    texts = list(contexts) or list(context.texts) or linearise(context)
    out = [t[s:e].lower() for t in texts for s, e in split_sentences(t)]
    return out or [t.lower() for t in texts]


def _node_support(
    nodes: list[Node], sims: np.ndarray, ctx_labels: list[str], sentences: list[str],
    question: str, claim: KnowledgeGraph, triple_cos: dict[str, float],
) -> np.ndarray:
    """Support features (:data:`SUPPORT_FEATURES`) of the answer nodes, shape (A, 12)."""
    joined = " ".join(sentences)
    ctx_words = _words(joined)
    ctx_numbers = numbers_in(joined, words=False)
    label_set = set(ctx_labels)
    q = question.lower()
    specific = [n for n in nodes if n.kind not in _GENERIC or numbers_in(n.text, words=False)]
    hits = {n.id: {i for i, s in enumerate(sentences) if _in_text(n.label, s)} for n in nodes}
    out = np.zeros((len(nodes), len(SUPPORT_FEATURES)), dtype=np.float32)
    for i, n in enumerate(nodes):
        words = _words(n.label)
        nums = numbers_in(n.text, words=False)
        others = [m for m in specific if m.id != n.id and m.label != n.label]
        if hits[n.id] and others:
            cooc = max(sum(1 for m in others if s in hits[m.id]) / len(others) for s in hits[n.id])
        else:
            cooc = float(bool(hits[n.id]))
        out[i] = (
            float(sims[i].max()) if sims.size else 0.0,
            float(n.label in label_set),
            float(_in_text(n.label, joined)),
            (sum(w in ctx_words for w in words) / len(words)) if words else 1.0,
            float(bool(nums)),
            float(all(x in ctx_numbers for x in nums)) if nums else 1.0,
            float(n.kind not in _GENERIC),
            float(n.kind in NUMERIC_KINDS or bool(nums)),
            float(bool(q) and _in_text(n.label, q)),
            cooc,
            triple_cos.get(n.id, 0.0),
            float(n.id in triple_cos),
        )
    return out


def _triple_cos(claim: KnowledgeGraph, context: KnowledgeGraph, encoder: TextEncoder, k: int) -> dict[str, float]:
    """Per answer node: the best cosine of its claim triples with a context triple."""
    if not claim.triples or not context.triples:
        return {}
    ctx_texts = [t.text for t in context.triples]
    claim_texts = [t.text for t in claim.triples]
    cand = shortlist(claim_texts, ctx_texts, max(2, k // len(claim_texts)))
    sims = cosine_matrix(encoder.encode(claim_texts), encoder.encode([ctx_texts[j] for j in cand])).max(axis=1)
    out: dict[str, float] = {}
    for t, s in zip(claim.triples, sims):
        for n in (t.subject, t.object):
            out[n.id] = max(out.get(n.id, -1.0), float(s))
    return out


@dataclass(frozen=True)
class _Neighbourhood:
    """The answer nodes and the context nodes kept around them, with their embeddings.

    ``ctx_nodes`` are the context nodes considered (after the lexical shortlist); ``sims``
    the (A, C) cosines of answer and considered context nodes; ``topic`` and ``kept`` index
    ``ctx_nodes`` (``kept`` in row order: row ``r`` of the graph is ``ctx_nodes[kept[r]]``).
    """

    nodes: list[Node]
    ctx_nodes: list[Node]
    emb_ans: np.ndarray
    emb_ctx: np.ndarray
    sims: np.ndarray
    topic: list[int]
    kept: list[int]
    row: dict[int, int] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "row", {j: r for r, j in enumerate(self.kept)})

    @property
    def n_ctx(self) -> int:
        """Context rows of the graph (the first ones)."""
        return len(self.kept)

    @property
    def q_row(self) -> int:
        """Row of the virtual question node (the last one)."""
        return len(self.kept) + len(self.nodes)


def _candidate_context(nodes: list[Node], context: KnowledgeGraph, q_text: str, max_context_nodes: int) -> list[Node]:
    """The context nodes considered: all of them, or a lexical shortlist for long contexts."""
    ctx_nodes = list(context.nodes)
    if len(ctx_nodes) > 4 * max_context_nodes:  # long contexts: a lexical shortlist first
        keep = shortlist([n.label for n in nodes] + ([q_text.lower()] if q_text else []),
                         [n.label for n in ctx_nodes], max(4, 2 * max_context_nodes // max(1, len(nodes))))
        ctx_nodes = [ctx_nodes[j] for j in keep]
    return ctx_nodes


def _kept_context(
    ctx_nodes: list[Node], context: KnowledgeGraph, sims: np.ndarray, topic: list[int], n_answer: int,
    align_k: int, max_context_nodes: int,
) -> list[int]:
    """Indices of the context nodes kept: aligned nodes, topic entities, then their one-hop neighbours."""
    order: list[int] = []
    if sims.size:
        top = np.argsort(-sims, axis=1)[:, :align_k]
        order.extend(int(j) for j in top.flatten())
        order.extend(int(j) for j in np.argsort(-sims.max(axis=0)))
    order = topic + order
    idx_of = {n.id: j for j, n in enumerate(ctx_nodes)}
    seeds = list(dict.fromkeys(order[: max(1, n_answer) * align_k + len(topic)]))
    seed_ids = {ctx_nodes[j].id for j in seeds}
    nbrs = [idx_of[o.id] for t in context.triples for s, o in ((t.subject, t.object), (t.object, t.subject))
            if s.id in seed_ids and o.id in idx_of]
    return list(dict.fromkeys(seeds + nbrs + order))[:max_context_nodes]


def _neighbourhood(
    claim: KnowledgeGraph, context: KnowledgeGraph, encoder: TextEncoder, q_text: str, *,
    align_k: int, max_context_nodes: int, max_answer_nodes: int,
) -> _Neighbourhood:
    """The answer nodes, the context nodes kept around them and the cosines between them."""
    nodes = answer_nodes(claim, max_answer_nodes)
    ctx_nodes = _candidate_context(nodes, context, q_text, max_context_nodes)
    ctx_labels = [n.label for n in ctx_nodes]
    emb_ans = encoder.encode([n.label for n in nodes])
    emb_ctx = encoder.encode(ctx_labels)
    sims = cosine_matrix(emb_ans, emb_ctx)
    ql = q_text.lower()
    topic = [j for j, lab in enumerate(ctx_labels) if ql and len(lab) >= 3 and _in_text(lab, ql)]
    kept = _kept_context(ctx_nodes, context, sims, topic, len(nodes), align_k, max_context_nodes)
    return _Neighbourhood(nodes, ctx_nodes, emb_ans, emb_ctx, sims, topic, kept)


def _node_arrays(
    hood: _Neighbourhood, claim: KnowledgeGraph, context: KnowledgeGraph, encoder: TextEncoder, q_text: str,
    contexts: Sequence[str], verifier_features: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Node embeddings (N, 384), support features (N, S) and the question embedding (384,)."""
    n_ctx, n_ans = hood.n_ctx, len(hood.nodes)
    dim = hood.emb_ans.shape[1] if hood.emb_ans.size else 384
    q_emb = encoder.encode([q_text])[0] if q_text else np.zeros(dim, np.float32)
    ctx_emb = hood.emb_ctx[hood.kept] if hood.kept else np.zeros((0, q_emb.shape[0]), np.float32)
    node_emb = np.concatenate([ctx_emb, hood.emb_ans, q_emb[None, :]]).astype(np.float32)
    sentences = _context_sentences(contexts, context)
    sup = _node_support(hood.nodes, hood.sims, [n.label for n in hood.ctx_nodes], sentences, q_text, claim,
                        _triple_cos(claim, context, encoder, 24))
    if verifier_features is not None:
        sup = np.concatenate([sup, np.asarray(verifier_features, dtype=np.float32).reshape(n_ans, -1)], axis=1)
    support = np.zeros((node_emb.shape[0], sup.shape[1]), dtype=np.float32)
    support[n_ctx:n_ctx + n_ans] = sup
    return node_emb, support, q_emb


def _marks(hood: _Neighbourhood) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The answer mark, the topic mark and the question mark of each node, shape (N,) each."""
    n_ctx, n_tot = hood.n_ctx, hood.q_row + 1
    answer_mark = np.zeros(n_tot, np.int64)
    answer_mark[n_ctx:hood.q_row] = 1
    topic_mark = np.zeros(n_tot, np.int64)
    for j in hood.topic:
        if j in hood.row:
            topic_mark[hood.row[j]] = 1
    is_question = np.zeros(n_tot, np.int64)
    is_question[hood.q_row] = 1
    return answer_mark, topic_mark, is_question


@dataclass
class _Edges:
    """The edge lists of a graph being built, and the relation labels met so far (row = index + 1)."""

    rels: dict[str, int] = field(default_factory=dict)
    src: list[int] = field(default_factory=list)
    dst: list[int] = field(default_factory=list)
    etype: list[int] = field(default_factory=list)
    erel: list[int] = field(default_factory=list)
    ecos: list[float] = field(default_factory=list)

    def add(self, a: int, b: int, t: int, r: int = 0, c: float = 0.0) -> None:
        """One edge ``a -> b`` of type ``t``, relation row ``r``, cosine ``c``."""
        self.src.append(a)
        self.dst.append(b)
        self.etype.append(t)
        self.erel.append(r)
        self.ecos.append(c)

    def add_triples(self, triples: Sequence[Triple], rows: dict[str, int], t: int) -> None:
        """Each triple between two distinct rows, forward (type ``t``) and reversed (``t + 1``)."""
        for tr in triples:
            a, b = rows.get(tr.subject.id), rows.get(tr.object.id)
            if a is not None and b is not None and a != b:
                r = self.rels.setdefault(tr.relation, len(self.rels) + 1)
                self.add(a, b, t, r)
                self.add(b, a, t + 1, r)


def _edges(hood: _Neighbourhood, claim: KnowledgeGraph, context: KnowledgeGraph, align_k: int) -> _Edges:
    """Context and claim triples, alignment edges and question-topic edges, both ways each."""
    edges = _Edges()
    n_ctx = hood.n_ctx
    edges.add_triples(context.triples, {hood.ctx_nodes[j].id: r for j, r in hood.row.items()}, _CONTEXT)
    edges.add_triples(claim.triples, {n.id: n_ctx + i for i, n in enumerate(hood.nodes)}, _CLAIM)
    for i in range(len(hood.nodes)):
        for j in (np.argsort(-hood.sims[i])[:align_k] if hood.sims.size else []):
            if int(j) in hood.row:
                c = float(hood.sims[i, j])
                edges.add(hood.row[int(j)], n_ctx + i, _ALIGN, 0, c)
                edges.add(n_ctx + i, hood.row[int(j)], _ALIGN + 1, 0, c)
    for j in hood.topic:
        if j in hood.row:
            edges.add(hood.q_row, hood.row[j], _QUESTION)
            edges.add(hood.row[j], hood.q_row, _QUESTION + 1)
    return edges


def build_augmented_graph(
    claim: KnowledgeGraph,
    context: KnowledgeGraph,
    encoder: TextEncoder,
    *,
    question: str | None = None,
    contexts: Sequence[str] = (),
    verifier_features: np.ndarray | None = None,
    align_k: int = 3,
    max_context_nodes: int = 64,
    max_answer_nodes: int = 32,
) -> AugmentedGraph:
    """Build the augmented graph of one answer.

    Parameters
    ----------
    claim : KnowledgeGraph
        The answer's claim graph; its nodes with spans are the answer nodes.
    context : KnowledgeGraph
        The context graph (extracted from passages, or given as triples).
    encoder : TextEncoder
        Embeds labels, relations and the question (cached).
    question : str or None
        The question or dialogue history (its last turn is embedded).
    contexts : sequence of str
        The passages (for text grounding); empty for graph contexts, whose
        linearised triples are used instead.
    verifier_features : ndarray, shape (A, 2), or None
        Per answer node, in :func:`answer_nodes` order: the verifier's p(supported)
        of the claim holding the node, and the verifier detector's node support.
    align_k : int
        Alignment edges per answer node (>= 1).
    max_context_nodes : int
        Bound on the context nodes kept (the answer's neighbourhood).
    max_answer_nodes : int
        Bound on the answer nodes classified.

    Returns
    -------
    AugmentedGraph
        With ``A >= 0`` answer nodes; ``A == 0`` when the claim graph has no node with a span.
    """
    q_text = last_turn(question) if question and question.strip() else ""
    hood = _neighbourhood(claim, context, encoder, q_text, align_k=align_k, max_context_nodes=max_context_nodes,
                          max_answer_nodes=max_answer_nodes)
    node_emb, support, q_emb = _node_arrays(hood, claim, context, encoder, q_text, contexts, verifier_features)
    answer_mark, topic_mark, is_question = _marks(hood)
    edges = _edges(hood, claim, context, align_k)
    rel_emb = np.zeros((len(edges.rels) + 1, node_emb.shape[1]), np.float32)
    if edges.rels:
        rel_emb[1:] = encoder.encode(list(edges.rels))
    return AugmentedGraph(
        node_emb=node_emb, support=support, answer_mark=answer_mark, topic_mark=topic_mark,
        is_question=is_question, edge_index=np.array([edges.src, edges.dst], dtype=np.int64).reshape(2, -1),
        edge_type=np.array(edges.etype, np.int64), edge_rel=np.array(edges.erel, np.int64),
        edge_cos=np.array(edges.ecos, np.float32), rel_emb=rel_emb, question_emb=q_emb.astype(np.float32),
        answer_index=np.arange(hood.n_ctx, hood.q_row, dtype=np.int64),
        answer_ids=tuple(n.id for n in hood.nodes), context_ids=tuple(hood.ctx_nodes[j].id for j in hood.kept),
    )
