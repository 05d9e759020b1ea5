"""The KG-Guard augmented graph of one answer (seed paper 001, Section 3.2).

For an answer with its claim graph, the context graph and the question, the augmented
graph holds:

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

Everything here is numpy; :mod:`guardrail.models.kg_guard_network` turns it into tensors.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from guardrail.align.encoder import TextEncoder, cosine_matrix
from guardrail.extract.given import linearise
from guardrail.text.lexical import NUMERIC_KINDS, numbers_in, shortlist
from guardrail.text.sentences import split_sentences
from guardrail.types import KnowledgeGraph, Node

__all__ = [
    "AugmentedGraph",
    "EDGE_TYPES",
    "SUPPORT_FEATURES",
    "VERIFIER_FEATURES",
    "build_augmented_graph",
    "answer_nodes",
]

#: Edge types (index = position).
EDGE_TYPES: tuple[str, ...] = (
    "context", "context_rev", "claim", "claim_rev", "align_to_answer", "align_to_context",
    "question_to_topic", "topic_to_question",
)
#: Support features of an answer node, without the verifier.
SUPPORT_FEATURES: tuple[str, ...] = (
    "align_max", "align_exact", "text_in_context", "word_share", "has_number", "numbers_grounded",
    "is_entity", "is_numeric", "in_question", "cooccur", "triple_align", "has_triple",
)
#: Extra support features when the claim verifier is used.
VERIFIER_FEATURES: tuple[str, ...] = ("verifier_claim_p", "verifier_node_support")

_GENERIC = frozenset({"NOUN", "TOKEN", "ADJ", "NUM", "LITERAL"})
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class AugmentedGraph:
    """One answer's augmented graph, as arrays.

    Attributes
    ----------
    node_emb : ndarray, shape (N, 384), float32
        Label embeddings; the last row is the virtual question node (question embedding,
        zeros without a question).
    support : ndarray, shape (N, S), float32
        Support features (zeros for context and question nodes).
    answer_mark, topic_mark, is_question : ndarray, shape (N,), int64
        0/1 marks.
    edge_index : ndarray, shape (2, E), int64
        Source and target node of each edge.
    edge_type : ndarray, shape (E,), int64
        Index into :data:`EDGE_TYPES`.
    edge_rel : ndarray, shape (E,), int64
        Row of ``rel_emb`` with the relation embedding (0 = no relation).
    edge_cos : ndarray, shape (E,), float32
        Alignment cosine (0 for other edges).
    rel_emb : ndarray, shape (R + 1, 384), float32
        Row 0 zeros, then one embedding per distinct relation label.
    question_emb : ndarray, shape (384,), float32
        The question embedding (zeros without a question).
    answer_index : ndarray, shape (A,), int64
        Rows of the answer nodes, in the order of ``answer_ids``.
    answer_ids : tuple of str
        Claim-graph node ids of the answer nodes.
    context_ids : tuple of str
        Context-graph node ids of the first ``len(context_ids)`` rows.
    """

    node_emb: np.ndarray
    support: np.ndarray
    answer_mark: np.ndarray
    topic_mark: np.ndarray
    is_question: np.ndarray
    edge_index: np.ndarray
    edge_type: np.ndarray
    edge_rel: np.ndarray
    edge_cos: np.ndarray
    rel_emb: np.ndarray
    question_emb: np.ndarray
    answer_index: np.ndarray
    answer_ids: tuple[str, ...]
    context_ids: tuple[str, ...] = ()

    @property
    def num_nodes(self) -> int:
        """N, including the virtual question node."""
        return int(self.node_emb.shape[0])


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
    from guardrail.align.claims import last_turn

    nodes = answer_nodes(claim, max_answer_nodes)
    q_text = last_turn(question) if question and question.strip() else ""
    ctx_nodes = list(context.nodes)
    if len(ctx_nodes) > 4 * max_context_nodes:  # long contexts: a lexical shortlist first
        keep = shortlist([n.label for n in nodes] + ([q_text.lower()] if q_text else []),
                         [n.label for n in ctx_nodes], max(4, 2 * max_context_nodes // max(1, len(nodes))))
        ctx_nodes = [ctx_nodes[j] for j in keep]
    ctx_labels = [n.label for n in ctx_nodes]
    emb_ans = encoder.encode([n.label for n in nodes])
    emb_ctx = encoder.encode(ctx_labels)
    sims = cosine_matrix(emb_ans, emb_ctx)
    ql = q_text.lower()
    topic = [j for j, lab in enumerate(ctx_labels) if ql and len(lab) >= 3 and _in_text(lab, ql)]
    # the neighbourhood: aligned nodes, topic entities, then their one-hop neighbours
    order: list[int] = []
    if sims.size:
        top = np.argsort(-sims, axis=1)[:, :align_k]
        order.extend(int(j) for j in top.flatten())
        order.extend(int(j) for j in np.argsort(-sims.max(axis=0)))
    order = topic + order
    idx_of = {n.id: j for j, n in enumerate(ctx_nodes)}
    seeds = list(dict.fromkeys(order[: max(1, len(nodes)) * align_k + len(topic)]))
    seed_ids = {ctx_nodes[j].id for j in seeds}
    nbrs = [idx_of[o.id] for t in context.triples for s, o in ((t.subject, t.object), (t.object, t.subject))
            if s.id in seed_ids and o.id in idx_of]
    kept = list(dict.fromkeys(seeds + nbrs + order))[:max_context_nodes]
    row = {j: r for r, j in enumerate(kept)}
    n_ctx, n_ans = len(kept), len(nodes)
    q_row = n_ctx + n_ans
    q_emb = encoder.encode([q_text])[0] if q_text else np.zeros(emb_ans.shape[1] if emb_ans.size else 384, np.float32)
    node_emb = np.concatenate([emb_ctx[kept] if kept else np.zeros((0, q_emb.shape[0]), np.float32),
                               emb_ans, q_emb[None, :]]).astype(np.float32)
    n_tot = node_emb.shape[0]
    sentences = _context_sentences(contexts, context)
    sup = _node_support(nodes, sims, ctx_labels, sentences, q_text, claim, _triple_cos(claim, context, encoder, 24))
    if verifier_features is not None:
        sup = np.concatenate([sup, np.asarray(verifier_features, dtype=np.float32).reshape(n_ans, -1)], axis=1)
    support = np.zeros((n_tot, sup.shape[1]), dtype=np.float32)
    support[n_ctx:n_ctx + n_ans] = sup
    answer_mark = np.zeros(n_tot, np.int64)
    answer_mark[n_ctx:n_ctx + n_ans] = 1
    topic_mark = np.zeros(n_tot, np.int64)
    for j in topic:
        if j in row:
            topic_mark[row[j]] = 1
    is_question = np.zeros(n_tot, np.int64)
    is_question[q_row] = 1

    rels: dict[str, int] = {}
    src: list[int] = []
    dst: list[int] = []
    etype: list[int] = []
    erel: list[int] = []
    ecos: list[float] = []

    def edge(a: int, b: int, t: int, r: int = 0, c: float = 0.0) -> None:
        src.append(a)
        dst.append(b)
        etype.append(t)
        erel.append(r)
        ecos.append(c)

    ctx_row = {ctx_nodes[j].id: r for j, r in row.items()}
    for t in context.triples:
        a, b = ctx_row.get(t.subject.id), ctx_row.get(t.object.id)
        if a is not None and b is not None and a != b:
            r = rels.setdefault(t.relation, len(rels) + 1)
            edge(a, b, 0, r)
            edge(b, a, 1, r)
    ans_row = {n.id: n_ctx + i for i, n in enumerate(nodes)}
    for t in claim.triples:
        a, b = ans_row.get(t.subject.id), ans_row.get(t.object.id)
        if a is not None and b is not None and a != b:
            r = rels.setdefault(t.relation, len(rels) + 1)
            edge(a, b, 2, r)
            edge(b, a, 3, r)
    for i in range(n_ans):
        for j in (np.argsort(-sims[i])[:align_k] if sims.size else []):
            if int(j) in row:
                c = float(sims[i, j])
                edge(row[int(j)], n_ctx + i, 4, 0, c)
                edge(n_ctx + i, row[int(j)], 5, 0, c)
    for j in topic:
        if j in row:
            edge(q_row, row[j], 6)
            edge(row[j], q_row, 7)
    rel_labels = list(rels)
    rel_emb = np.zeros((len(rel_labels) + 1, node_emb.shape[1]), np.float32)
    if rel_labels:
        rel_emb[1:] = encoder.encode(rel_labels)
    return AugmentedGraph(
        node_emb=node_emb, support=support, answer_mark=answer_mark, topic_mark=topic_mark,
        is_question=is_question, edge_index=np.array([src, dst], dtype=np.int64).reshape(2, -1),
        edge_type=np.array(etype, np.int64), edge_rel=np.array(erel, np.int64),
        edge_cos=np.array(ecos, np.float32), rel_emb=rel_emb, question_emb=q_emb.astype(np.float32),
        answer_index=np.arange(n_ctx, n_ctx + n_ans, dtype=np.int64),
        answer_ids=tuple(n.id for n in nodes), context_ids=tuple(ctx_nodes[j].id for j in kept),
    )
