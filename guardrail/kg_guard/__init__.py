"""KG-Guard (seed paper 001): a trained graph encoder that classifies answer nodes.

* :mod:`guardrail.kg_guard.graph`: the augmented graph of one answer (numpy).
* :mod:`guardrail.kg_guard.model`: the graph-transformer network, batching, weights I/O.
* :mod:`guardrail.kg_guard.paths`: linearised KG paths (HaluEval dialogue) back to triples.

The detector is :class:`guardrail.detectors.kg_guard.KGGuardDetector` (``"kg_guard"``).
"""

from __future__ import annotations

from guardrail.kg_guard.graph import (
    EDGE_TYPES,
    SUPPORT_FEATURES,
    VERIFIER_FEATURES,
    AugmentedGraph,
    answer_nodes,
    build_augmented_graph,
)
from guardrail.kg_guard.paths import parse_kg_paths

__all__ = [
    "AugmentedGraph",
    "EDGE_TYPES",
    "SUPPORT_FEATURES",
    "VERIFIER_FEATURES",
    "answer_nodes",
    "build_augmented_graph",
    "parse_kg_paths",
]
