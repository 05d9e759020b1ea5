"""Combine detector scores into one hallucination score, and calibrate the combination.

Calibration fits a logistic regression on per-detector scores of labelled examples
(scikit-learn) and picks the threshold that maximises balanced accuracy, i.e.
Youden's J = TPR - FPR on the ROC curve.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from guardrail.config import GuardConfig
from guardrail.errors import InvalidInputError
from guardrail.types import DetectorOutput, NodeSupport

__all__ = ["aggregate", "final_score", "combine_node_support", "calibrate", "best_threshold", "macro_threshold"]


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def aggregate(scores: Mapping[str, float], config: GuardConfig) -> float:
    """Combine per-detector hallucination scores with the config's rule.

    Parameters
    ----------
    scores : mapping of str to float
        Detector name to score in ``[0, 1]``; must contain every ``config.detectors``.
    config : GuardConfig
        Supplies ``aggregation``, ``weights`` and ``bias``.

    Returns
    -------
    float
        Hallucination score in ``[0, 1]``.

    Raises
    ------
    InvalidInputError
        If a configured detector has no score.
    """
    missing = [d for d in config.detectors if d not in scores]
    if missing:
        raise InvalidInputError(f"no score for configured detector(s) {missing!r}")
    vals = [float(scores[d]) for d in config.detectors]
    if config.aggregation == "max":
        return max(vals)
    if config.aggregation == "mean":
        ws = [max(config.weights.get(d, 1.0), 0.0) for d in config.detectors]
        total = sum(ws) or float(len(ws))
        ws = ws if sum(ws) else [1.0] * len(ws)
        return min(1.0, max(0.0, sum(w * v for w, v in zip(ws, vals)) / total))
    z = config.bias + sum(config.weights.get(d, 0.0) * v for d, v in zip(config.detectors, vals))
    return _sigmoid(z)


def final_score(scores: Mapping[str, float], config: GuardConfig) -> float:
    """The answer's hallucination score as the guard decides on it: :func:`aggregate`,
    raised to ``config.threshold`` when a veto detector reaches its limit.

    The guard, :func:`calibrate`'s threshold search and the CLI's metrics all use this one
    function, so thresholds are fitted on the function that is applied.

    Parameters
    ----------
    scores : mapping of str to float
        Detector name to score in ``[0, 1]`` (configured and veto detectors).
    config : GuardConfig
        Aggregation rule, threshold and ``veto`` limits.

    Returns
    -------
    float
        In ``[0, 1]``; the answer is flagged when it is ``>= config.threshold``.
    """
    score = aggregate(scores, config)
    if any(scores.get(name, 0.0) >= limit for name, limit in config.veto.items()):
        score = max(score, config.threshold)
    return score


def combine_node_support(
    outputs: Sequence[DetectorOutput], config: GuardConfig
) -> dict[str, NodeSupport]:
    """Average the per-node support of the detectors that report it.

    Each detector's support is weighted by ``abs(weight)`` (1 when the config has no
    weight for it). The evidence of the detector with the largest weight that gives
    evidence is kept.

    Returns
    -------
    dict of node id to NodeSupport
        Support in ``[0, 1]`` for every node any detector scored.
    """
    acc: dict[str, list[tuple[float, float]]] = {}
    evidence: dict[str, tuple[float, NodeSupport]] = {}
    for out in outputs:
        w = abs(config.weights.get(out.name, 1.0)) or 1e-6
        for ns in out.node_support:
            acc.setdefault(ns.node_id, []).append((w, ns.support))
            if ns.evidence and (ns.node_id not in evidence or w > evidence[ns.node_id][0]):
                evidence[ns.node_id] = (w, ns)
    combined: dict[str, NodeSupport] = {}
    for node_id, pairs in acc.items():
        total = sum(w for w, _ in pairs)
        support = sum(w * s for w, s in pairs) / total
        ev = evidence.get(node_id)
        combined[node_id] = NodeSupport(
            node_id=node_id,
            support=min(1.0, max(0.0, support)),
            evidence=ev[1].evidence if ev else "",
            evidence_span=ev[1].evidence_span if ev else None,
        )
    return combined


def best_threshold(scores: Sequence[float], labels: Sequence[int]) -> float:
    """Threshold on ``scores`` that maximises balanced accuracy (Youden's J).

    Parameters
    ----------
    scores : sequence of float
        Hallucination scores in ``[0, 1]``.
    labels : sequence of {0, 1}
        1 = hallucinated. Both classes must be present.

    Returns
    -------
    float
        A threshold ``t`` such that ``score >= t`` flags; in ``[0, 1]``.
    """
    from sklearn.metrics import roc_curve

    y = np.asarray(labels, dtype=int)
    if len(set(y.tolist())) != 2:
        raise InvalidInputError("calibration needs both labels 0 and 1")
    fpr, tpr, thr = roc_curve(y, np.asarray(scores, dtype=float))
    j = tpr - fpr
    i = int(np.argmax(j))
    t = float(thr[i])
    if not math.isfinite(t):
        t = 1.0
    return min(1.0, max(0.0, t))


def calibrate(
    score_rows: Sequence[Mapping[str, float]],
    labels: Sequence[int],
    base: GuardConfig,
    *,
    name: str | None = None,
    C: float = 1.0,
    groups: Sequence[str] | None = None,
    targets: Mapping[str, float] | None = None,
) -> GuardConfig:
    """Fit logistic weights and the balanced-accuracy-optimal threshold.

    Parameters
    ----------
    score_rows : sequence of mapping
        Per-example detector scores (``GuardResult.detector_scores``), shape (n,) of
        mappings holding every ``base.detectors`` name.
    labels : sequence of {0, 1}
        1 = hallucinated; same length as ``score_rows``.
    base : GuardConfig
        Supplies the detectors and their parameters; weights, bias, threshold and
        aggregation are replaced.
    name : str or None
        Name of the returned config (default: ``base.name``).
    C : float
        Inverse L2 regularisation strength of the logistic regression.
    groups : sequence of str or None
        Source of each example (e.g. the dataset it comes from), same length as
        ``labels``. When given, every group gets the same total weight in the fit and
        the threshold maximises the *worst* per-group balanced accuracy
        (:func:`macro_threshold`), so a large or easy source cannot set it alone.
    targets : mapping of str to float or None
        With ``groups``: a target balanced accuracy per group; the threshold then
        maximises the smallest margin ``bacc[g] - targets[g]``.

    Returns
    -------
    GuardConfig
        ``aggregation="logistic"`` with fitted ``weights``, ``bias`` and ``threshold``.

    Raises
    ------
    InvalidInputError
        Length mismatch, fewer than 4 examples, or a single class.
    """
    from sklearn.linear_model import LogisticRegression

    if len(score_rows) != len(labels):
        raise InvalidInputError(f"{len(score_rows)} score rows but {len(labels)} labels")
    if len(labels) < 4:
        raise InvalidInputError(f"calibration needs at least 4 labelled examples, got {len(labels)}")
    X = np.array([[float(r[d]) for d in base.detectors] for r in score_rows], dtype=float)
    y = np.asarray(labels, dtype=int)
    if len(set(y.tolist())) != 2:
        raise InvalidInputError("calibration needs both labels 0 and 1")
    weights_ = _group_weights(groups, len(y))
    lr = LogisticRegression(C=C, class_weight="balanced", max_iter=1000).fit(X, y, sample_weight=weights_)
    weights = {d: float(w) for d, w in zip(base.detectors, lr.coef_[0])}
    cfg = base.model_copy(
        update={
            "aggregation": "logistic",
            "weights": weights,
            "bias": float(lr.intercept_[0]),
            "name": name or base.name,
        }
    )
    probs = [aggregate(dict(r), cfg) for r in score_rows]
    vetoed = [any(r.get(k, 0.0) >= v for k, v in cfg.veto.items()) for r in score_rows]
    probs = [1.0 if v else p for p, v in zip(probs, vetoed)]  # a vetoed answer is flagged at any threshold
    if groups is None:
        return cfg.model_copy(update={"threshold": best_threshold(probs, labels)})
    return cfg.model_copy(update={"threshold": macro_threshold(probs, labels, groups, targets=targets)})


def _group_weights(groups: Sequence[str] | None, n: int) -> np.ndarray | None:
    if groups is None:
        return None
    if len(groups) != n:
        raise InvalidInputError(f"{len(groups)} groups but {n} labels")
    g = np.asarray(groups)
    w = np.zeros(n, dtype=float)
    for key in set(groups):
        mask = g == key
        w[mask] = 1.0 / mask.sum()
    return np.asarray(w * (n / w.sum()), dtype=float)


def macro_threshold(
    scores: Sequence[float], labels: Sequence[int], groups: Sequence[str], *, reduce: str = "min",
    targets: Mapping[str, float] | None = None,
) -> float:
    """Threshold maximising the worst (or mean) per-group balanced accuracy.

    Parameters
    ----------
    scores : sequence of float
        Scores in ``[0, 1]``.
    labels : sequence of {0, 1}
        1 = hallucinated.
    groups : sequence of str
        Group of each example; groups with a single class count with accuracy on it.
    reduce : {"min", "mean"}
        ``"min"`` (default) maximises the worst group's balanced accuracy, so no source
        is sacrificed (a mean can be maximised by flagging everything from one source);
        ``"mean"`` maximises the macro average.
    targets : mapping of str to float or None
        Subtracted per group before reducing (a group missing from it gets 0), so
        ``reduce="min"`` maximises the smallest margin to each group's target.

    Returns
    -------
    float
        A threshold in ``[0, 1]`` (``score >= t`` flags).
    """
    if reduce not in ("min", "mean"):
        raise InvalidInputError(f"reduce must be 'min' or 'mean', got {reduce!r}")
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=int)
    g = np.asarray(groups)
    if not (len(s) == len(y) == len(g)):
        raise InvalidInputError(f"scores, labels and groups differ in length: {len(s)}, {len(y)}, {len(g)}")
    cands = np.unique(s)
    pred = s[None, :] >= cands[:, None]  # (n_thresholds, n_examples)
    per_group = []
    for key in sorted(set(groups)):
        m = g == key
        pos, neg = m & (y == 1), m & (y == 0)
        rates = [pred[:, pos].mean(axis=1)] if pos.any() else []
        if neg.any():
            rates.append(1.0 - pred[:, neg].mean(axis=1))
        per_group.append(np.mean(rates, axis=0) - (targets or {}).get(key, 0.0))
    stacked = np.vstack(per_group)
    objective = stacked.min(axis=0) if reduce == "min" else stacked.mean(axis=0)
    # among equally good thresholds take the middle one (more margin on both sides)
    best = np.flatnonzero(objective >= objective.max() - 1e-12)
    best_t = float(cands[int(best[len(best) // 2])])
    return min(1.0, max(0.0, best_t))
