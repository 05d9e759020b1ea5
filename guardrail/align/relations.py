"""Graph alignment after KEA Explain: relation selection and semantic label clustering.

KEA Explain (Section "Knowledge Graph Relation Selection") keeps, for every claim
triple, the context triple whose "subject relation object" string is most similar
under SBERT cosine; the selected triples form the context subgraph the claim graph is
compared with. Section "Semantic clustering of labels" then clusters the node and edge
labels of both graphs with average-linkage agglomerative clustering on cosine distance
(threshold 0.35), so that synonyms ("film"/"movie") share one symbolic label before the
Weisfeiler-Lehman kernel, which only sees label identity, compares the graphs.

Both functions only call the shared encoder, which caches every string it has seen, so a
context passage shared by many answers is embedded once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from guardrail.align.encoder import TextEncoder, cosine_matrix
from guardrail.errors import InvalidInputError
from guardrail.text.lexical import shortlist
from guardrail.types import KnowledgeGraph, Node, Triple

__all__ = ["select_relations", "match_triples", "cluster_labels", "nearest_nodes", "DISTANCE_THRESHOLD"]

#: KEA Explain's cosine-distance threshold for label clustering.
DISTANCE_THRESHOLD = 0.35


def _dedupe_nodes(nodes: Iterable[Node]) -> tuple[Node, ...]:
    seen: dict[str, Node] = {}
    for n in nodes:
        seen.setdefault(n.id, n)
    return tuple(seen.values())


def nearest_nodes(
    queries: Sequence[Node], candidates: Sequence[Node], encoder: TextEncoder
) -> tuple[list[int], np.ndarray]:
    """Index and cosine of the most similar candidate node (by label) for every query node.

    Parameters
    ----------
    queries, candidates : sequence of Node
        Nodes compared by their ``label``; ``candidates`` must not be empty.
    encoder : TextEncoder
        Embeds the labels (L2-normalised rows).

    Returns
    -------
    (list of int, ndarray)
        ``idx[i]`` is the index into ``candidates`` of the best match of ``queries[i]``;
        the array, shape ``(len(queries),)``, holds its cosine in ``[-1, 1]``.

    Raises
    ------
    ValueError
        If ``candidates`` is empty.
    """
    if not candidates:
        raise InvalidInputError("nearest_nodes needs at least one candidate node")
    if not queries:
        return [], np.zeros(0, dtype=np.float32)
    sims = cosine_matrix(
        encoder.encode([n.label for n in queries]), encoder.encode([n.label for n in candidates])
    )
    idx = sims.argmax(axis=1)
    return [int(i) for i in idx], sims[np.arange(len(queries)), idx]


def select_relations(
    claim: KnowledgeGraph, context: KnowledgeGraph, encoder: TextEncoder,
    *, max_candidates: int = 24,
) -> KnowledgeGraph:
    """Select the context subgraph relevant to the claim graph (KEA Explain relation selection).

    Every claim triple is matched with the context triple maximising the cosine similarity
    of their :attr:`Triple.text` embeddings; the selected triples (deduplicated, in context
    order) and their end nodes form the result. Claim nodes that take part in no claim
    triple (isolated entities, fallback tokens) additionally select their most similar
    context node, so an answer made only of entities still has a counterpart.

    Degenerate sides:

    * claim or context has no node: an empty graph (with the context's ``texts``);
    * claim or context has no triple: no triple is selected, and every claim node selects
      its most similar context node (by label cosine), so the result holds nodes only.

    Parameters
    ----------
    claim : KnowledgeGraph
        Graph of the answer.
    context : KnowledgeGraph
        Merged graph of the context passages.
    encoder : TextEncoder
        Sentence encoder (all-MiniLM-L6-v2 by default; cached).
    max_candidates : int
        Latency bound for long contexts: when the context has more triples (nodes) than
        this, only a character-trigram shortlist of them (about ``max_candidates`` in
        all, at least 2 per claim triple / node) is embedded and searched.

    Returns
    -------
    KnowledgeGraph
        A subgraph of ``context`` (its nodes and triples are context objects, spans kept),
        with ``texts == context.texts``.
    """
    if claim.is_empty or context.is_empty:
        return KnowledgeGraph(texts=context.texts)
    picked: list[Triple] = []
    if claim.triples and context.triples:
        ctx_texts = [t.text for t in context.triples]
        claim_texts = [t.text for t in claim.triples]
        cand = shortlist(claim_texts, ctx_texts, max(2, max_candidates // len(claim_texts)))
        sims = cosine_matrix(encoder.encode(claim_texts), encoder.encode([ctx_texts[j] for j in cand]))
        best = sorted(set(cand[int(j)] for j in sims.argmax(axis=1)))
        picked = [context.triples[j] for j in best]
    in_triples = {n.id for t in claim.triples for n in (t.subject, t.object)}
    loose = [n for n in claim.nodes if n.id not in in_triples] if picked else list(claim.nodes)
    extra: list[Node] = []
    if loose:
        labels = [n.label for n in context.nodes]
        cand = shortlist([n.label for n in loose], labels, max(2, max_candidates // len(loose)))
        idx, _ = nearest_nodes(loose, [context.nodes[j] for j in cand], encoder)
        extra = [context.nodes[cand[i]] for i in idx]
    nodes = _dedupe_nodes([n for t in picked for n in (t.subject, t.object)] + extra)
    order = {n.id: i for i, n in enumerate(context.nodes)}
    nodes = tuple(sorted(nodes, key=lambda n: order.get(n.id, len(order))))
    return KnowledgeGraph(nodes=nodes, triples=tuple(picked), texts=context.texts)


def match_triples(
    queries: Sequence[Triple], context: KnowledgeGraph, encoder: TextEncoder, *, max_candidates: int = 24,
) -> list[Triple | None]:
    """The context triple most similar to each query triple, each matched on its own.

    A query triple is matched as :func:`select_relations` matches the only triple of a claim graph:
    among a character-trigram shortlist of ``max_candidates`` context triples (all of them when the
    context has no more), the one maximising the cosine of the :attr:`Triple.text` embeddings. The
    texts of all queries and of all their candidates are embedded in one batch each.

    Parameters
    ----------
    queries : sequence of Triple
        The triples to match (KEA Explain: a flagged answer's unsupported claim triples).
    context : KnowledgeGraph
        Merged graph of the context passages.
    encoder : TextEncoder
        Sentence encoder (cached).
    max_candidates : int
        Context triples shortlisted per query (at least 2).

    Returns
    -------
    list of Triple or None
        One context triple per query, in query order; ``None`` for every query when the context
        has no triple.
    """
    if not queries or not context.triples:
        return [None] * len(queries)
    ctx_texts = [t.text for t in context.triples]
    texts = [t.text for t in queries]
    cands = [shortlist([q], ctx_texts, max(2, max_candidates)) for q in texts]
    uniq = sorted({j for c in cands for j in c})
    pos = {j: p for p, j in enumerate(uniq)}
    sims = cosine_matrix(encoder.encode(texts), encoder.encode([ctx_texts[j] for j in uniq]))
    return [context.triples[c[int(np.argmax(sims[i, [pos[j] for j in c]]))]] for i, c in enumerate(cands)]


def cluster_labels(
    labels: Sequence[str],
    encoder: TextEncoder,
    distance_threshold: float = DISTANCE_THRESHOLD,
) -> dict[str, int]:
    """Cluster semantically similar labels (KEA Explain semantic clustering).

    Average-linkage agglomerative clustering (SciPy's ``linkage`` / ``fcluster``, the same
    partition as scikit-learn's ``AgglomerativeClustering``) on the cosine distance of the
    label embeddings, cut at ``distance_threshold``; labels in one cluster share an id.

    Parameters
    ----------
    labels : sequence of str
        Node and edge labels of both graphs; duplicates are allowed (clustered once).
    encoder : TextEncoder
        Embeds the labels.
    distance_threshold : float
        Cosine distance in ``[0, 2]`` below which clusters merge (KEA Explain: 0.35).

    Returns
    -------
    dict of str to int
        Cluster id (``0..k-1``, numbered by first appearance) for every distinct label;
        ``{}`` for no label, ``{label: 0}`` for a single distinct label.

    Raises
    ------
    ValueError
        If ``distance_threshold`` is negative.
    """
    if distance_threshold < 0:
        raise InvalidInputError(f"distance_threshold must be >= 0, got {distance_threshold!r}")
    uniq = list(dict.fromkeys(labels))
    if len(uniq) <= 1:
        return {lab: 0 for lab in uniq}
    from scipy.cluster.hierarchy import fcluster, linkage  # 0.3 s to import; scikit-learn's takes 1.4 s

    emb = np.asarray(encoder.encode(uniq), dtype=np.float64)
    raw = fcluster(linkage(emb, method="average", metric="cosine"), t=distance_threshold, criterion="distance")
    renum: dict[int, int] = {}
    out: dict[str, int] = {}
    for lab, c in zip(uniq, raw):
        out[lab] = renum.setdefault(int(c), len(renum))
    return out
