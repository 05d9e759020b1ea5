"""The WL subtree kernel computed by ``wl_kernel`` equals GraKeL's, bit for bit."""

from __future__ import annotations

import random
import warnings

import pytest

from guardrail.detectors.wl_kernel import to_grakel_input, wl_histograms, wl_similarity
from guardrail.types import KnowledgeGraph, Node, Span, Triple

grakel = pytest.importorskip("grakel")


def grakel_similarity(claim: KnowledgeGraph, context: KnowledgeGraph, clusters: dict[str, int],
                      iterations: int = 5) -> float:
    """The former implementation: GraKeL's normalised WL kernel, clipped as ``wl_similarity`` clips."""
    import numpy as np
    from grakel.kernels import VertexHistogram, WeisfeilerLehman

    if claim.is_empty or context.is_empty:
        return 0.0
    graphs = [grakel.Graph(*to_grakel_input(g, clusters)) for g in (claim, context)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        k = WeisfeilerLehman(n_iter=iterations, normalize=True, base_graph_kernel=VertexHistogram).fit_transform(graphs)
    val = float(k[0, 1])
    return 0.0 if not np.isfinite(val) else min(1.0, max(0.0, val))


def _graph(rng: random.Random, source: int, n_nodes: int, n_triples: int, labels: int) -> KnowledgeGraph:
    nodes = tuple(Node(id=f"{source}:{i}", text=f"x{i}", label=f"l{rng.randrange(labels)}", kind="ORG",
                       span=Span(start=i, end=i + 1, source=source)) for i in range(n_nodes))
    triples = []
    for _ in range(n_triples if n_nodes else 0):
        s, o = rng.choice(nodes), rng.choice(nodes)
        triples.append(Triple(subject=s, relation=f"r{rng.randrange(3)}", object=o))
    return KnowledgeGraph(nodes=nodes, triples=tuple(triples), texts=("x",))


def _clusters(rng: random.Random, *graphs: KnowledgeGraph) -> dict[str, int]:
    labels = {n.label for g in graphs for n in g.nodes} | {"rel::" + t.relation for g in graphs for t in g.triples}
    return {lab: rng.randrange(max(1, len(labels) // 2)) for lab in sorted(labels) if rng.random() < 0.8}


@pytest.mark.parametrize("seed", range(4))
def test_equals_grakel_on_random_graphs(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        a = _graph(rng, -1, rng.randrange(0, 6), rng.randrange(0, 6), rng.randrange(1, 5))
        b = _graph(rng, 0, rng.randrange(0, 25), rng.randrange(0, 30), rng.randrange(1, 8))
        clusters = _clusters(rng, a, b)
        for it in (1, 2, 5, 8):
            assert wl_similarity(a, b, clusters, it) == grakel_similarity(a, b, clusters, it)


def test_equals_grakel_on_identical_and_disjoint_graphs() -> None:
    rng = random.Random(7)
    g = _graph(rng, 0, 8, 10, 4)
    clusters = _clusters(rng, g)
    assert wl_similarity(g, g, clusters) == grakel_similarity(g, g, clusters) == pytest.approx(1.0)
    h = KnowledgeGraph(nodes=(Node(id="-1:0", text="zz", label="zz", kind="ORG"),), texts=("zz",))
    assert wl_similarity(h, g, clusters) == grakel_similarity(h, g, clusters) == 0.0


def test_histograms_count_every_vertex_in_every_iteration() -> None:
    adj = {0: [2], 1: [], 2: [1]}
    labels = {0: "a", 1: "a", 2: "r"}
    (h,) = wl_histograms([(adj, labels)], 3)
    assert sum(h.values()) == (3 + 1) * len(labels)  # iteration 0 and 3 refinements, as GraKeL's n_iter=3
