"""Weisfeiler-Lehman subtree-kernel detector (KEA Explain).

Steps, after KEA Explain (Sections "Relation selection", "Semantic clustering" and
"Graph kernel-based comparison"):

1. select the context subgraph relevant to the claim graph
   (:func:`guardrail.align.relations.select_relations`, once per input:
   :meth:`~guardrail.detectors.base.AlignmentInput.selected_context`);
2. cluster the node and edge labels of both graphs (cosine distance, average linkage,
   threshold 0.35; :func:`guardrail.align.relations.cluster_labels`);
3. compare the graphs with the WL subtree kernel of GraKeL's ``WeisfeilerLehman(n_iter=5,
   normalize=True, base_graph_kernel=VertexHistogram)`` (computed here, the same values:
   :func:`wl_similarity`), node labels being cluster ids.

Edge labels: GraKeL's vertex-histogram WL kernel ignores edge labels, so every triple
``(s, r, o)`` becomes the path ``s -> [r] -> o`` through an intermediate *relation node*
labelled with the relation's cluster id. Two graphs then share WL subtree patterns only
when subject cluster, relation cluster and object cluster agree.

Score: ``1 - similarity`` (similarity in ``[0, 1]``; 1 for isomorphic labelled graphs).
An answer whose nodes assert nothing (a bare "yes") scores 0: there is nothing to compare.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from numbers import Integral, Real
from typing import Any

from guardrail.align.encoder import TextEncoder, cosine_matrix
from guardrail.align.relations import DISTANCE_THRESHOLD, cluster_labels
from guardrail.detectors._params import Interval, validated
from guardrail.detectors.base import AlignmentInput, Detector
from guardrail.text.lexical import has_content
from guardrail.types import DetectorOutput, KnowledgeGraph, NodeSupport

__all__ = ["WLKernelDetector", "wl_similarity", "wl_histograms", "to_grakel_input"]

_REL = "rel::"


def to_grakel_input(
    graph: KnowledgeGraph, clusters: dict[str, int]
) -> tuple[dict[int, list[int]], dict[int, str]]:
    """Turn a knowledge graph into GraKeL's (adjacency dict, node-label dict) input.

    Parameters
    ----------
    graph : KnowledgeGraph
        Nodes and triples to convert.
    clusters : dict of str to int
        Cluster id per node label and per relation label (relation keys are prefixed
        with ``"rel::"``); labels missing from it keep their own text as label.

    Returns
    -------
    (dict, dict)
        ``adjacency[i]`` lists the out-neighbours of vertex ``i``; ``labels[i]`` is
        ``"n<cluster>"`` for entity vertices and ``"r<cluster>"`` for relation vertices.
    """
    index: dict[str, int] = {}
    adj: dict[int, list[int]] = {}
    labels: dict[int, str] = {}
    ends = [n for t in graph.triples for n in (t.subject, t.object)]
    for n in list(graph.nodes) + ends:
        if n.id not in index:
            i = index[n.id] = len(index)
            adj[i] = []
            labels[i] = f"n{clusters.get(n.label, n.label)}"
    for k, t in enumerate(graph.triples):
        r = len(index) + k  # one fresh vertex per triple
        adj[index[t.subject.id]].append(r)
        adj[r] = [index[t.object.id]]
        labels[r] = f"r{clusters.get(_REL + t.relation, t.relation)}"
    return adj, labels


def wl_histograms(graphs: Sequence[tuple[dict[int, list[int]], dict[int, str]]],
                  iterations: int) -> list[Counter[int]]:
    """Weisfeiler-Lehman subtree labels of ``graphs``, counted per graph.

    Iteration 0 labels each vertex with its own label; iteration ``h`` with its label at
    ``h - 1`` and the sorted labels at ``h - 1`` of its out-neighbours (GraKeL's relabelling,
    directed edges as given). Labels are numbered jointly for all graphs, each iteration
    with numbers of its own, so one histogram holds every iteration.

    Parameters
    ----------
    graphs : sequence of (dict, dict)
        ``(adjacency, labels)`` pairs as :func:`to_grakel_input` gives them.
    iterations : int
        Refinements after iteration 0 (GraKeL's ``n_iter``: ``n_iter + 1`` label sets in all).

    Returns
    -------
    list of collections.Counter
        Per graph, the number of its vertices holding each label, over all iterations.
    """
    ids: dict[object, int] = {}
    cur = [{v: ids.setdefault(("", lab), len(ids)) for v, lab in labels.items()} for _, labels in graphs]
    hist = [Counter(c.values()) for c in cur]
    for _ in range(iterations):
        cur = [{v: ids.setdefault((c[v], tuple(sorted(c[u] for u in dict.fromkeys(adj.get(v, ()))))), len(ids))
                for v in c} for (adj, _), c in zip(graphs, cur)]
        for h, c in zip(hist, cur):
            h.update(c.values())
    return hist


def wl_similarity(
    claim: KnowledgeGraph, context: KnowledgeGraph, clusters: dict[str, int], iterations: int = 5
) -> float:
    """Normalised WL subtree-kernel similarity of two labelled graphs.

    The value of GraKeL's ``WeisfeilerLehman(n_iter=iterations, normalize=True,
    base_graph_kernel=VertexHistogram)`` on :func:`to_grakel_input`'s graphs, computed here
    (:func:`wl_histograms`): the kernel is the dot product of the two graphs' label counts,
    integers, so the sums are exact and the normalisation is GraKeL's own float64 expression;
    ``tests/guardrail/detectors/test_wl_exact.py`` checks equality with GraKeL bit for bit.
    GraKeL cost a few milliseconds per check on graphs of a few dozen vertices and imports
    scikit-learn (about 60 MB).

    Parameters
    ----------
    claim, context : KnowledgeGraph
        The graphs to compare.
    clusters : dict of str to int
        Label clusters (see :func:`to_grakel_input`).
    iterations : int
        WL refinement iterations (KEA Explain: 5).

    Returns
    -------
    float
        ``k(G1, G2) / sqrt(k(G1, G1) k(G2, G2))`` in ``[0, 1]``; 0 when either graph
        has no node.
    """
    if claim.is_empty or context.is_empty:
        return 0.0
    h1, h2 = wl_histograms([to_grakel_input(g, clusters) for g in (claim, context)], iterations)
    k12 = sum(n * h2[lab] for lab, n in h1.items() if lab in h2)
    k11, k22 = sum(n * n for n in h1.values()), sum(n * n for n in h2.values())
    norm = math.sqrt(float(k11) * float(k22))  # GraKeL: np.sqrt(np.outer(diag, diag)), float64
    val = float(k12) / norm if norm > 0 else 0.0  # GraKeL: nan_to_num(0 / 0) = 0
    return min(1.0, max(0.0, val))


def _graph_labels(g: KnowledgeGraph) -> list[str]:
    return [n.label for n in g.nodes] + [_REL + t.relation for t in g.triples]


def _cluster(
    claim: KnowledgeGraph, selected: KnowledgeGraph, encoder: TextEncoder, threshold: float
) -> dict[str, int]:
    labels = _graph_labels(claim) + _graph_labels(selected)
    # relation labels are embedded without the prefix but clustered separately from nodes
    node_labels = [x for x in labels if not x.startswith(_REL)]
    rel_labels = [x[len(_REL):] for x in labels if x.startswith(_REL)]
    out = dict(cluster_labels(node_labels, encoder, threshold))
    for lab, c in cluster_labels(rel_labels, encoder, threshold).items():
        out[_REL + lab] = c
    return out


class WLKernelDetector(Detector):
    """KEA Explain's graph-kernel detector.

    Parameters
    ----------
    iterations : int
        WL iterations, ``>= 1`` (default 5, as in the paper).
    distance_threshold : float
        Cosine distance threshold for label clustering (default 0.35, as in the paper).

    Notes
    -----
    Per-node support: 1 when the node's label cluster also labels a node of the selected
    context graph, else the (clipped) cosine between the node label and the nearest
    selected context node label; the evidence is that nearest selected node.

    References
    ----------
    KEA Explain: graph kernels and semantic clustering for explaining LLM hallucinations
    (project seed paper 000).
    """

    name = "wl_kernel"
    _parameter_constraints = {
        "iterations": [Interval(Integral, 1, None)],
        "distance_threshold": [Interval(Real, 0, None, closed="left")],
    }

    @validated
    def __init__(self, iterations: int = 5, distance_threshold: float = DISTANCE_THRESHOLD) -> None:
        self.iterations = iterations
        self.distance_threshold = distance_threshold

    def detect(self, item: AlignmentInput) -> DetectorOutput:
        """Score ``1 - WL similarity`` of the claim graph and the selected context graph.

        Returns
        -------
        DetectorOutput
            ``score`` in ``[0, 1]``; ``details`` holds ``similarity``, the number of
            selected context triples and of label clusters.
        """
        claim, ctx = item.claim_graph, item.context_graph
        if claim.is_empty or ctx.is_empty:
            return DetectorOutput(name=self.name, score=1.0, details={"similarity": 0.0})
        if not any(has_content(n.text) for n in claim.nodes):  # e.g. a bare "no": nothing the graph confirms
            return DetectorOutput(name=self.name, score=1.0, details={"similarity": 0.0, "no_content": True})
        selected = item.selected_context()
        clusters = _cluster(claim, selected, item.encoder, self.distance_threshold)
        sim = wl_similarity(claim, selected, clusters, self.iterations)
        support = self._node_support(claim, selected, clusters, item.encoder)
        details: dict[str, Any] = {
            "similarity": sim,
            "selected_triples": len(selected.triples),
            "clusters": len(set(clusters.values())),
        }
        return DetectorOutput(
            name=self.name, score=1.0 - sim, node_support=support, details=details
        )

    @staticmethod
    def _node_support(
        claim: KnowledgeGraph,
        selected: KnowledgeGraph,
        clusters: dict[str, int],
        encoder: TextEncoder,
    ) -> tuple[NodeSupport, ...]:
        if selected.is_empty:
            return tuple(NodeSupport(node_id=n.id, support=0.0) for n in claim.nodes)
        ctx_clusters = {clusters.get(n.label) for n in selected.nodes}
        sims = cosine_matrix(
            encoder.encode([n.label for n in claim.nodes]),
            encoder.encode([n.label for n in selected.nodes]),
        )
        out = []
        for i, n in enumerate(claim.nodes):
            j = int(sims[i].argmax())
            best = selected.nodes[j]
            val = 1.0 if clusters.get(n.label) in ctx_clusters else float(sims[i, j])
            out.append(
                NodeSupport(
                    node_id=n.id,
                    support=min(1.0, max(0.0, val)),
                    evidence=best.text,
                    evidence_span=best.span,
                )
            )
        return tuple(out)
