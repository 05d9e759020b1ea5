"""Tests for guardrail.metrics."""

from __future__ import annotations

import pytest

from guardrail.errors import InvalidInputError
from guardrail.metrics import (
    classification_metrics,
    node_location_report,
    node_precision_in_unsupported,
    result_metrics,
)
from guardrail.types import FlaggedNode, GuardResult, Span


def test_threshold_predictions_match_hand_counts():
    m = classification_metrics([0, 0, 1, 1, 1], [0.1, 0.6, 0.7, 0.4, 0.9], 0.5)
    assert (m["tp"], m["fp"], m["tn"], m["fn"]) == (2, 1, 1, 1)
    assert m["precision"] == pytest.approx(2 / 3) and m["recall"] == pytest.approx(2 / 3)
    assert m["f1"] == pytest.approx(2 / 3)
    assert m["balanced_accuracy"] == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert m["roc_auc"] == pytest.approx(5 / 6)
    assert m["n"] == 5 and m["n_positive"] == 3 and m["n_abstained"] == 0 and m["threshold"] == 0.5


def test_passed_overrides_threshold_and_abstain_counts_as_flag():
    m = classification_metrics([0, 1, 0], [0.1, 0.2, 0.5], 0.9, passed=[True, False, False],
                               abstained=[False, False, True])
    assert (m["tp"], m["fp"], m["tn"]) == (1, 1, 1) and m["n_abstained"] == 1


def test_single_class_and_empty():
    m = classification_metrics([1, 1], [0.2, 0.8], 0.5)
    assert m["roc_auc"] is None and m["recall"] == 0.5
    e = classification_metrics([], [], 0.5)
    assert e["n"] == 0 and e["f1"] is None


@pytest.mark.parametrize("kwargs", [
    {"labels": [0, 1], "scores": [0.1], "threshold": 0.5},
    {"labels": [0, 2], "scores": [0.1, 0.2], "threshold": 0.5},
    {"labels": [0, 1], "scores": [0.1, 0.2], "threshold": None},
    {"labels": [0, 1], "scores": [0.1, 0.2], "threshold": 0.5, "passed": [True]},
])
def test_bad_input(kwargs):
    with pytest.raises(InvalidInputError):
        classification_metrics(**kwargs)


def _res(passed: bool, score: float, threshold: float, spans=()) -> GuardResult:
    nodes = tuple(FlaggedNode(node_id=f"a:{s}", text="x", span=None if s is None else Span(start=s, end=s + 3),
                              support=0.1) for s in spans)
    return GuardResult(passed=passed, score=score, threshold=threshold, flagged_nodes=nodes)


def test_result_metrics_objects_and_dicts():
    results = [_res(True, 0.2, 0.5), _res(False, 0.7, 0.5)]
    m = result_metrics(results, [0, 1])
    assert m["balanced_accuracy"] == 1.0 and m["threshold"] == 0.5
    mixed = result_metrics([results[0].to_dict(compact=True), _res(False, 0.7, 0.6).to_dict()], [0, 1])
    assert mixed["threshold"] is None and mixed["f1"] == 1.0
    with pytest.raises(InvalidInputError):
        result_metrics(results, [0])


def test_node_location():
    items = [
        {"answer": "aaaa bbbb", "sentences": [{"start": 0, "end": 4, "unsupported": False},
                                              {"start": 5, "end": 9, "unsupported": True}]},
        {"answer": "no sentences"},
    ]
    results = [_res(False, 0.9, 0.5, spans=(0, 6, None)), _res(False, 0.9, 0.5, spans=(0,))]
    rep = node_location_report(results, items)
    assert rep["precision"] == 0.5 and rep["n_in_unsupported"] == 1
    assert rep["n_flagged_nodes"] == 3 and rep["n_unlocated"] == 1
    assert rep["base_rate"] == pytest.approx(0.5)
    assert node_precision_in_unsupported([r.to_dict() for r in results], items) == 0.5
    assert node_precision_in_unsupported([_res(True, 0.1, 0.5)], items[:1]) is None
    # a node touching the boundary only (end == sentence start) does not overlap
    assert node_precision_in_unsupported([_res(False, 0.9, 0.5, spans=(2,))], items[:1]) == 0.0
    with pytest.raises(InvalidInputError):
        node_location_report(results, items[:1])
