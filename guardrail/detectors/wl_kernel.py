"""Weisfeiler-Lehman subtree-kernel detector (KEA Explain).

Steps, after KEA Explain (Sections "Relation selection", "Semantic clustering" and
"Graph kernel-based comparison"):

1. select the context subgraph relevant to the claim graph
   (:func:`guardrail.align.relations.select_relations`, once per input:
   :meth:`~guardrail.detectors.base.AlignmentInput.selected_context`);
2. cluster the node and edge labels of both graphs (cosine distance, average linkage,
   threshold 0.35; :func:`guardrail.align.relations.cluster_labels`);
3. compare the graphs with GraKeL's ``WeisfeilerLehman(n_iter=5, normalize=True,
   base_graph_kernel=VertexHistogram)``, node labels being cluster ids.

Edge labels: GraKeL's vertex-histogram WL kernel ignores edge labels, so every triple
``(s, r, o)`` becomes the path ``s -> [r] -> o`` through an intermediate *relation node*
labelled with the relation's cluster id. Two graphs then share WL subtree patterns only
when subject cluster, relation cluster and object cluster agree.

Score: ``1 - similarity`` (similarity in ``[0, 1]``; 1 for isomorphic labelled graphs).
An answer whose nodes assert nothing (a bare "yes") scores 0: there is nothing to compare.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any

import numpy as np

from guardrail._optional import without_modules
from guardrail.align.encoder import TextEncoder, cosine_matrix
from guardrail.align.relations import DISTANCE_THRESHOLD, cluster_labels
from guardrail.detectors._params import Interval, validated
from guardrail.detectors.base import AlignmentInput, Detector
from guardrail.errors import DetectorError
from guardrail.text.lexical import has_content
from guardrail.types import DetectorOutput, KnowledgeGraph, NodeSupport

__all__ = ["WLKernelDetector", "wl_similarity", "to_grakel_input"]

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


def wl_similarity(
    claim: KnowledgeGraph, context: KnowledgeGraph, clusters: dict[str, int], iterations: int = 5
) -> float:
    """Normalised WL subtree-kernel similarity of two labelled graphs (GraKeL).

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

    Raises
    ------
    DetectorError
        If GraKeL fails.
    """
    if claim.is_empty or context.is_empty:
        return 0.0
    with without_modules("pandas"):  # GraKeL -> scikit-learn imports pandas (about 60 MB) and never uses it here
        from grakel import Graph
        from grakel.kernels import VertexHistogram, WeisfeilerLehman

    graphs = [Graph(*to_grakel_input(g, clusters)) for g in (claim, context)]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            kern = WeisfeilerLehman(
                n_iter=iterations, normalize=True, base_graph_kernel=VertexHistogram
            )
            k = kern.fit_transform(graphs)
    except Exception as exc:  # pragma: no cover - GraKeL internals
        raise DetectorError(f"WL kernel failed: {exc}") from exc
    val = float(k[0, 1])
    return 0.0 if not np.isfinite(val) else min(1.0, max(0.0, val))


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
