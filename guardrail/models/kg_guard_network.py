"""The KG-Guard network: a 2-layer graph transformer and an MLP over answer nodes.

Architecture (seed paper 001, Section 3.2, Figure 2)::

    x_v   = W_t phi(t_v) + M_A[alpha_v] + M_T[tau_v] + M_Q[v = v_q] + W_s s_v      (hidden H)
    e_uv  = W_r phi(r_uv) + M_E[type_uv] + w_c cos_uv                               (edge dim D)
    h     = TransformerConv x 2 (heads, edge features e, residual, LayerNorm, ReLU)
    p(a)  = sigmoid(MLP([h_a || W_q z_q || s_a]))

A sum of projections equals a linear layer on the concatenation
``[phi(t_v) || M_T[tau_v] || M_A[alpha_v] || s_v]`` of the paper. ``s_v`` are the
per-node support features of :mod:`guardrail.detectors.kg_guard_graph` (zeros for non-answer
nodes), also given to the MLP directly.

The network's input, one answer's graph as numpy arrays, is :class:`AugmentedGraph`
(edge types :data:`EDGE_TYPES`); :func:`~guardrail.detectors.kg_guard_graph.build_augmented_graph`
builds it from the align and extract steps' output.

torch-geometric is imported lazily (``pip install 'kg-guardrail[kg-guard]'``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from guardrail._optional import pip_hint, require
from guardrail.errors import DetectorError
from guardrail.models.weights import checked_files, sha256_file, write_sums

__all__ = ["AugmentedGraph", "EDGE_TYPES", "MODEL_DIR", "INSTALL_HINT", "require_pyg", "build_network", "collate",
           "load_model", "save_model", "sha256_file"]

#: Edge types (index = position).
EDGE_TYPES: tuple[str, ...] = (
    "context", "context_rev", "claim", "claim_rev", "align_to_answer", "align_to_context",
    "question_to_topic", "topic_to_question",
)


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


#: Directory of the shipped KG-Guard weights.
MODEL_DIR = Path(__file__).resolve().parent / "kg_guard"
#: What to install when torch-geometric is missing.
INSTALL_HINT = pip_hint("kg-guard")


def require_pyg() -> Any:
    """Import and return ``torch_geometric.nn``; raise ImportError naming the extra when missing."""
    return require("torch_geometric.nn", extra="kg-guard", purpose="the kg_guard detector")


def build_network(config: dict[str, Any]) -> Any:
    """The untrained network for ``config`` (keys ``emb_dim``, ``support_dim``, ``hidden``,
    ``edge_dim``, ``heads``, ``layers``, ``dropout``)."""
    import torch
    from torch import nn

    pyg_nn = require_pyg()
    emb, sdim, hid = int(config["emb_dim"]), int(config["support_dim"]), int(config["hidden"])
    edim, heads, layers = int(config["edge_dim"]), int(config["heads"]), int(config["layers"])
    drop = float(config.get("dropout", 0.1))

    class KGGuardNet(nn.Module):
        """Graph encoder + answer-node MLP; ``forward`` returns one logit per answer node."""

        def __init__(self) -> None:
            super().__init__()
            self.text = nn.Linear(emb, hid)
            self.support = nn.Linear(sdim, hid)
            self.answer_mark = nn.Embedding(2, hid)
            self.topic_mark = nn.Embedding(2, hid)
            self.question_mark = nn.Embedding(2, hid)
            self.rel = nn.Linear(emb, edim)
            self.edge_type = nn.Embedding(len(EDGE_TYPES), edim)
            self.edge_cos = nn.Linear(1, edim, bias=False)
            self.convs = nn.ModuleList(
                pyg_nn.TransformerConv(hid, hid // heads, heads=heads, edge_dim=edim, dropout=drop)
                for _ in range(layers))
            self.norms = nn.ModuleList(nn.LayerNorm(hid) for _ in range(layers))
            self.question = nn.Linear(emb, hid)
            self.head = nn.Sequential(nn.Linear(2 * hid + sdim, hid), nn.ReLU(), nn.Dropout(drop), nn.Linear(hid, 1))
            self.drop = nn.Dropout(drop)

        def forward(self, b: dict[str, Any]) -> Any:
            x = (self.text(b["node_emb"]) + self.support(b["support"]) + self.answer_mark(b["answer_mark"])
                 + self.topic_mark(b["topic_mark"]) + self.question_mark(b["is_question"]))
            e = self.rel(b["edge_rel_emb"]) + self.edge_type(b["edge_type"]) + self.edge_cos(b["edge_cos"][:, None])
            h = torch.relu(x)
            for conv, norm in zip(self.convs, self.norms):
                h = norm(h + self.drop(torch.relu(conv(h, b["edge_index"], e))))
            a = b["answer_index"]
            z = self.question(b["question_emb"])[b["answer_graph"]]
            return self.head(torch.cat([h[a], z, b["support"][a]], dim=-1)).squeeze(-1)

    return KGGuardNet()


def collate(graphs: Sequence[AugmentedGraph]) -> dict[str, Any]:
    """Stack augmented graphs into one disjoint batch of tensors.

    Returns
    -------
    dict of str to torch.Tensor
        ``node_emb`` (N, 384), ``support`` (N, S), marks (N,), ``edge_index`` (2, E),
        ``edge_type`` (E,), ``edge_rel_emb`` (E, 384), ``edge_cos`` (E,),
        ``question_emb`` (G, 384), ``answer_index`` (A,), ``answer_graph`` (A,): the graph of
        each answer node.
    """
    import torch

    off = 0
    parts: dict[str, list[np.ndarray]] = {k: [] for k in (
        "node_emb", "support", "answer_mark", "topic_mark", "is_question", "edge_index", "edge_type",
        "edge_rel_emb", "edge_cos", "question_emb", "answer_index", "answer_graph")}
    for g_i, g in enumerate(graphs):
        for k in ("node_emb", "support", "answer_mark", "topic_mark", "is_question", "edge_type", "edge_cos"):
            parts[k].append(getattr(g, k))
        parts["edge_index"].append(g.edge_index + off)
        parts["edge_rel_emb"].append(g.rel_emb[g.edge_rel])
        parts["question_emb"].append(g.question_emb[None, :])
        parts["answer_index"].append(g.answer_index + off)
        parts["answer_graph"].append(np.full(len(g.answer_index), g_i, np.int64))
        off += g.num_nodes
    out: dict[str, Any] = {}
    for k, v in parts.items():
        arr = np.concatenate(v, axis=1 if k == "edge_index" else 0)
        out[k] = torch.from_numpy(np.ascontiguousarray(arr, dtype=np.float32 if arr.dtype.kind == "f" else np.int64))
    return out


def save_model(net: Any, config: dict[str, Any], out_dir: Path) -> str:
    """Write ``model.safetensors``, ``config.json`` and ``SHA256`` (both files) to ``out_dir``.

    Returns
    -------
    str
        SHA-256 of ``model.safetensors``.
    """
    from safetensors.torch import save_file

    out_dir.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().cpu().contiguous() for k, v in net.state_dict().items()}
    save_file(state, str(out_dir / "model.safetensors"))
    (out_dir / "config.json").write_text(json.dumps(config, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return write_sums(out_dir, ["model.safetensors", "config.json"])["model.safetensors"]


def load_model(model_dir: str | Path | None = None) -> tuple[Any, dict[str, Any]]:
    """Load the network and its config, checking both files against ``SHA256``.

    Parameters
    ----------
    model_dir : str or Path or None
        Directory with ``model.safetensors``, ``config.json`` and ``SHA256`` (default the
        shipped :data:`MODEL_DIR`).

    Returns
    -------
    (torch.nn.Module, dict)
        The network in eval mode, and its config (features, threshold, metrics).

    Raises
    ------
    DetectorError
        A file is missing, unreadable or does not match its SHA-256.
    ImportError
        torch-geometric is not installed (the message names the extra).
    """
    d = Path(model_dir) if model_dir is not None else MODEL_DIR
    checked_files(d, ["model.safetensors", "config.json"], what="kg_guard")
    require_pyg()
    from safetensors.torch import load_file

    config = json.loads((d / "config.json").read_text(encoding="utf-8"))
    net = build_network(config)
    try:
        net.load_state_dict(load_file(str(d / "model.safetensors")))
    except (RuntimeError, OSError) as exc:
        raise DetectorError(f"kg_guard weights in {str(d)!r} do not fit the network: {exc}") from exc
    net.eval()
    return net, config
