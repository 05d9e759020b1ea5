"""The plain-Python WL subtree kernel equals GraKeL's, bit for bit."""

from __future__ import annotations

import random
import warnings

import pytest

from guardrail.align.wl import wl_subtree_similarity
from guardrail.errors import InvalidInputError


def _grakel(first, second, iterations):
    grakel = pytest.importorskip("grakel")
    from grakel.kernels import VertexHistogram, WeisfeilerLehman

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        k = WeisfeilerLehman(n_iter=iterations, normalize=True, base_graph_kernel=VertexHistogram)
        return float(k.fit_transform([grakel.Graph(*first), grakel.Graph(*second)])[0, 1])


def _random_graph(rng: random.Random, labels: str):
    """A graph shaped like the WL detector's input: entity vertices, one vertex per triple."""
    n = rng.randint(1, 8)
    adj = {i: [] for i in range(n)}
    lab = {i: f"n{rng.choice(labels)}" for i in range(n)}
    for k in range(rng.randint(0, 9)):
        r = n + k
        adj[rng.randrange(n)].append(r)
        adj[r] = [rng.randrange(n)]
        lab[r] = f"r{rng.choice(labels)}"
    return adj, lab


@pytest.mark.parametrize("iterations", [1, 2, 5])
def test_equals_grakel_on_random_graphs(iterations):
    rng = random.Random(iterations)
    for _ in range(150):
        labels = "abc" if rng.random() < 0.5 else "abcdefgh"
        first, second = _random_graph(rng, labels), _random_graph(rng, labels)
        assert wl_subtree_similarity(first, second, iterations) == _grakel(first, second, iterations)


def test_structure_counts_not_only_labels():
    chain = ({0: [1], 1: [2], 2: []}, {0: "a", 1: "a", 2: "a"})
    star = ({0: [1, 2], 1: [], 2: []}, {0: "a", 1: "a", 2: "a"})
    assert wl_subtree_similarity(chain, chain) == 1.0
    assert 0.0 < wl_subtree_similarity(chain, star) < 1.0
    assert wl_subtree_similarity(chain, star) == _grakel(chain, star, 5)


def test_empty_graph_and_bad_arguments():
    g = ({0: []}, {0: "a"})
    assert wl_subtree_similarity(g, ({}, {})) == 0.0
    with pytest.raises(InvalidInputError):
        wl_subtree_similarity(g, g, iterations=0)
    with pytest.raises(InvalidInputError):
        wl_subtree_similarity(({0: [7]}, {0: "a"}), g)
