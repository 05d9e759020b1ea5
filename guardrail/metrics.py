"""Evaluation metrics: answer-level classification quality and where flagged nodes land.

Convention: label 1 = hallucinated, and the guard *predicts* 1 for every answer that
did not pass. An abstention therefore counts as a flag (``passed`` is False when the
guard abstains): a guard that abstains on everything has perfect recall and poor
precision, never a silently better score.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from guardrail.errors import InvalidInputError
from guardrail.types import GuardResult

__all__ = [
    "classification_metrics",
    "result_metrics",
    "node_location_report",
    "node_precision_in_unsupported",
]


def _check_labels(labels: Sequence[int]) -> list[int]:
    out = []
    for i, y in enumerate(labels):
        if y not in (0, 1):
            raise InvalidInputError(f"labels[{i}] must be 0 or 1, got {y!r}")
        out.append(int(y))
    return out


def classification_metrics(
    labels: Sequence[int],
    scores: Sequence[float],
    threshold: float | None,
    passed: Sequence[bool] | None = None,
    abstained: Sequence[bool] | None = None,
) -> dict[str, Any]:
    """Answer-level metrics of hallucination scores against 0/1 labels.

    Parameters
    ----------
    labels : sequence of {0, 1}
        1 = hallucinated.
    scores : sequence of float
        Hallucination scores in ``[0, 1]`` (used for ROC-AUC, and for the predictions
        when ``passed`` is not given).
    threshold : float or None
        Decision threshold: without ``passed``, ``score >= threshold`` is predicted
        hallucinated. With ``passed`` it is only reported (results from ``auto`` mode
        may use several thresholds).
    passed : sequence of bool or None
        The guard's verdicts; the prediction is ``not passed`` (abstentions count as flags).
    abstained : sequence of bool or None
        Which answers the guard abstained on (only counted, in ``n_abstained``).

    Returns
    -------
    dict
        ``roc_auc`` (None when only one class is present), ``balanced_accuracy``,
        ``precision``, ``recall``, ``f1``, ``accuracy``, ``threshold``, ``n``,
        ``n_positive``, ``n_abstained``, ``tp``, ``fp``, ``tn``, ``fn``. Rates are None
        for empty input.

    Raises
    ------
    InvalidInputError
        Sequences of different lengths, a label other than 0/1, or neither
        ``threshold`` nor ``passed``.
    """
    from sklearn import metrics as skm

    y = _check_labels(labels)
    s = [float(v) for v in scores]
    for name, seq in (("scores", s), ("passed", passed), ("abstained", abstained)):
        if seq is not None and len(seq) != len(y):
            raise InvalidInputError(f"{len(y)} labels but {len(seq)} {name}")
    if passed is not None:
        pred = [0 if p else 1 for p in passed]
    elif threshold is not None:
        pred = [1 if v >= threshold else 0 for v in s]
    else:
        raise InvalidInputError("classification_metrics needs a threshold or the verdicts")
    tp = sum(1 for a, b in zip(y, pred) if a == 1 and b == 1)
    fp = sum(1 for a, b in zip(y, pred) if a == 0 and b == 1)
    out: dict[str, Any] = {
        "n": len(y), "n_positive": sum(y), "n_abstained": sum(bool(a) for a in abstained or ()),
        "threshold": threshold, "tp": tp, "fp": fp, "fn": sum(y) - tp,
        "tn": len(y) - sum(y) - fp, "roc_auc": None, "balanced_accuracy": None,
        "precision": None, "recall": None, "f1": None, "accuracy": None,
    }
    if not y:
        return out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if len(set(y)) == 2:
            out["roc_auc"] = float(skm.roc_auc_score(y, s))
        out["balanced_accuracy"] = float(skm.balanced_accuracy_score(y, pred))
        out["precision"] = float(skm.precision_score(y, pred, zero_division=0))
        out["recall"] = float(skm.recall_score(y, pred, zero_division=0))
        out["f1"] = float(skm.f1_score(y, pred, zero_division=0))
        out["accuracy"] = float(skm.accuracy_score(y, pred))
    return out


def _get(result: GuardResult | Mapping[str, Any], key: str, default: Any = None) -> Any:
    if isinstance(result, Mapping):
        return result.get(key, default)
    return getattr(result, key, default)


def result_metrics(
    results: Sequence[GuardResult | Mapping[str, Any]], labels: Sequence[int]
) -> dict[str, Any]:
    """:func:`classification_metrics` of guard results (objects or their JSON dicts).

    The threshold reported is the results' common threshold, or None when they differ
    (``auto`` mode); predictions are ``not passed`` either way.
    """
    if len(results) != len(labels):
        raise InvalidInputError(f"{len(results)} results but {len(labels)} labels")
    thresholds = {float(_get(r, "threshold", 0.5)) for r in results}
    return classification_metrics(
        labels, [float(_get(r, "score", 0.5)) for r in results],
        thresholds.pop() if len(thresholds) == 1 else None,
        passed=[bool(_get(r, "passed", False)) for r in results],
        abstained=[bool(_get(r, "abstained", False)) for r in results],
    )


def _span_of(node: Any) -> tuple[int, int] | None:
    span = node.get("span") if isinstance(node, Mapping) else getattr(node, "span", None)
    if span is None:
        return None
    if isinstance(span, Mapping):
        return int(span["start"]), int(span["end"])
    return int(span.start), int(span.end)


def node_location_report(
    results: Sequence[GuardResult | Mapping[str, Any]], items: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """Where flagged nodes fall with respect to sentence labels (QAGS-C).

    Parameters
    ----------
    results : sequence of GuardResult or dict
        Guard results, aligned with ``items`` by position.
    items : sequence of dict
        Items with ``"sentences": [{"start", "end", "unsupported"}]`` (spans into the
        answer), as made by :func:`benchmarks.devdata.load_qags`; items without
        sentences are skipped.

    Returns
    -------
    dict
        ``precision``: share of located flagged nodes whose span overlaps an
        unsupported sentence (None when there is none); ``base_rate``: the precision
        expected from spans placed at random (mean share of answer characters in
        unsupported sentences, per flagged node); ``n_flagged_nodes``,
        ``n_in_unsupported``, ``n_unlocated`` (nodes without a span, not counted).
    """
    if len(results) != len(items):
        raise InvalidInputError(f"{len(results)} results but {len(items)} items")
    hits = located = unlocated = 0
    base = 0.0
    for res, item in zip(results, items):
        sents = item.get("sentences") or []
        if not sents:
            continue
        bad = [(int(s["start"]), int(s["end"])) for s in sents if s.get("unsupported")]
        total = sum(int(s["end"]) - int(s["start"]) for s in sents) or 1
        share = sum(e - b for b, e in bad) / total
        for node in _get(res, "flagged_nodes", ()) or ():
            span = _span_of(node)
            if span is None:
                unlocated += 1
                continue
            located += 1
            base += share
            hits += any(span[0] < e and b < span[1] for b, e in bad)
    return {
        "precision": hits / located if located else None,
        "base_rate": base / located if located else None,
        "n_flagged_nodes": located + unlocated,
        "n_in_unsupported": hits,
        "n_unlocated": unlocated,
    }


def node_precision_in_unsupported(
    results: Sequence[GuardResult | Mapping[str, Any]], items: Sequence[Mapping[str, Any]]
) -> float | None:
    """Share of flagged nodes whose span overlaps an unsupported sentence.

    See :func:`node_location_report` for the details and the chance level.

    Returns
    -------
    float or None
        In ``[0, 1]``; None when no flagged node has a span.
    """
    value: float | None = node_location_report(results, items)["precision"]
    return value
