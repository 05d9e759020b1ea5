"""KG-Guard detector: a trained graph encoder gives p(hallucinated) per answer node.

Seed paper 001 (Sawczyn, Bielak, Kajdanowicz, "KG-Guard: Graph-Based Hallucination
Detection for Knowledge Base Question Answering"): each answer is turned into an
augmented graph (:mod:`guardrail.detectors.kg_guard_graph`: context neighbourhood, marked answer
nodes and topic entities, a virtual question node, alignment edges), a 2-layer graph
transformer encodes it, and an MLP on ``[answer node || question]`` classifies every
answer node. The weights ship in ``guardrail/models/kg_guard`` (model card there) and are
checked by SHA-256 when they load.

Output: the node support is ``1 - p`` with ``p`` calibrated so that the model's tuned
node threshold maps to 0.5 (the guard's default ``node_threshold``), so the nodes the
guard flags, and the refinement loop feeds back, are the nodes the classifier flags.
The answer score is the largest ``p`` (answer label = max over its nodes, as trained).
Works on graph contexts without any text (their linearised triples serve as text).
"""

from __future__ import annotations

import math
import threading
from pathlib import Path
from typing import Any

import numpy as np

from guardrail.detectors._params import validated
from guardrail.detectors.base import AlignmentInput, Detector
from guardrail.detectors.kg_guard_graph import AugmentedGraph, answer_nodes, build_augmented_graph
from guardrail.errors import DetectorError
from guardrail.types import DetectorOutput, KnowledgeGraph, NodeSupport, Span

__all__ = ["KGGuardDetector", "verifier_node_features"]


def verifier_node_features(item: AlignmentInput, verifier_detector: Any, max_answer_nodes: int = 32) -> np.ndarray:
    """The verifier features of the answer nodes (``VERIFIER_FEATURES``).

    Parameters
    ----------
    item : AlignmentInput
        The answer, its graphs and contexts.
    verifier_detector : VerifierDetector
        Runs the claim verifier (its pair cache makes a second call on the same item cheap).
    max_answer_nodes : int
        As in :func:`~guardrail.detectors.kg_guard_graph.build_augmented_graph`.

    Returns
    -------
    ndarray, shape (A, 2)
        Per answer node: p(supported) of the sentence claim holding it, and the verifier
        detector's node support (1 when it gives none).
    """
    out = verifier_detector.detect(item)
    claims = out.details.get("claims", [])
    sup = {ns.node_id: ns.support for ns in out.node_support}
    nodes = answer_nodes(item.claim_graph, max_answer_nodes)
    feats = np.ones((len(nodes), 2), dtype=np.float32)
    for i, n in enumerate(nodes):
        pos = n.span.start if n.span else 0
        hit = [c["p_supported"] for c in claims if c["start"] <= pos < c["end"]]
        feats[i, 0] = hit[0] if hit else (min((c["p_supported"] for c in claims), default=1.0))
        feats[i, 1] = sup.get(n.id, 1.0)
    return feats


def _evidence(graph: AugmentedGraph, context: KnowledgeGraph, ans_row: int) -> tuple[str, Span | None]:
    """The context triple (or node) nearest to an answer node, for the explanation."""
    best, cos = None, -2.0
    for k in np.nonzero((graph.edge_type == 4) & (graph.edge_index[1] == ans_row))[0]:
        if graph.edge_cos[k] > cos:
            best, cos = int(graph.edge_index[0, k]), float(graph.edge_cos[k])
    if best is None or best >= len(graph.context_ids):
        return "", None
    node_id = graph.context_ids[best]
    for t in context.triples:
        if node_id in (t.subject.id, t.object.id):
            return f"{t.subject.text} {t.relation} {t.object.text}", t.span
    node = context.node(node_id)
    return node.text, node.span


class KGGuardDetector(Detector):
    """Answer-node classifier of KG-Guard, with the shipped weights.

    Parameters
    ----------
    model_dir : str or Path or None
        Weights directory (default the shipped ``guardrail/models/kg_guard``).
    verifier : VerifierDetector or None
        Used for the verifier features when the weights were trained with them
        (default: a :class:`~guardrail.detectors.verifier.VerifierDetector` on the shared verifier).

    Raises
    ------
    DetectorError
        On first use: missing or corrupted weights (SHA-256 mismatch).
    ImportError
        On first use: torch-geometric missing (``pip install 'kg-guardrail[kg-guard]'``).

    Notes
    -----
    ``details`` holds ``p_raw`` and ``p`` (calibrated) per answer node id and the model's
    ``threshold``.
    """

    name = "kg_guard"

    _parameter_constraints = {"model_dir": [str, Path, None], "verifier": ["no_validation"]}

    @validated
    def __init__(self, model_dir: str | Path | None = None, *, verifier: Any = None) -> None:
        self.model_dir = model_dir
        self._verifier = verifier
        self._net: Any = None
        self._config: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _load(self) -> tuple[Any, dict[str, Any]]:
        with self._lock:
            if self._net is None:
                from guardrail.models.kg_guard_network import load_model

                self._net, self._config = load_model(self.model_dir)
            return self._net, self._config

    @property
    def config(self) -> dict[str, Any]:
        """The model's config (features, hyper-parameters, threshold, metrics); loads the weights."""
        return dict(self._load()[1])

    def graph(self, item: AlignmentInput) -> AugmentedGraph:
        """The augmented graph the classifier reads for ``item``."""
        _, cfg = self._load()
        feats = None
        if cfg.get("use_verifier"):
            if self._verifier is None:
                from guardrail.detectors.verifier import VerifierDetector

                self._verifier = VerifierDetector()
            feats = verifier_node_features(item, self._verifier, cfg["max_answer_nodes"])
        return build_augmented_graph(
            item.claim_graph, item.context_graph, item.encoder, question=item.question,
            contexts=item.contexts, verifier_features=feats, align_k=cfg["align_k"],
            max_context_nodes=cfg["max_context_nodes"], max_answer_nodes=cfg["max_answer_nodes"])

    def node_logits(self, graph: AugmentedGraph) -> np.ndarray:
        """Raw logits, shape (A,), of the answer nodes of ``graph``."""
        import torch

        from guardrail.models.kg_guard_network import collate

        net, _ = self._load()
        if not len(graph.answer_index):
            return np.zeros(0)
        try:
            with torch.inference_mode():
                return np.asarray(net(collate([graph])).double().numpy(), dtype=float)
        except RuntimeError as exc:  # shape errors: weights and features disagree
            raise DetectorError(f"kg_guard forward pass failed: {exc}") from exc

    def detect(self, item: AlignmentInput) -> DetectorOutput:
        """Score the answer: the largest calibrated p(hallucinated) over its nodes."""
        if not item.claim_graph.nodes:  # nothing to classify (the augmented graph needs answer nodes)
            return DetectorOutput(name=self.name, score=0.0, details={"nodes": {}})
        graph = self.graph(item)
        logits = self.node_logits(graph)
        if not logits.size:
            return DetectorOutput(name=self.name, score=0.0, details={"nodes": {}})
        t = float(self._config.get("threshold", 0.5))
        shift = math.log(t / (1.0 - t))
        p_raw = 1.0 / (1.0 + np.exp(-logits))
        p = 1.0 / (1.0 + np.exp(-(logits - shift)))
        support = []
        for i, node_id in enumerate(graph.answer_ids):
            ev, span = _evidence(graph, item.context_graph, int(graph.answer_index[i]))
            support.append(NodeSupport(node_id=node_id, support=float(np.clip(1.0 - p[i], 0.0, 1.0)),
                                       evidence=ev, evidence_span=span))
        details = {"threshold": t, "nodes": {nid: {"p": round(float(p[i]), 4), "p_raw": round(float(p_raw[i]), 4)}
                                             for i, nid in enumerate(graph.answer_ids)}}
        return DetectorOutput(name=self.name, score=float(np.clip(p.max(), 0.0, 1.0)),
                              node_support=tuple(support), details=details)
