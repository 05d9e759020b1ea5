"""Score aggregation and calibration."""

import math

import numpy as np
import pytest

from guardrail.aggregate import aggregate, best_threshold, calibrate, combine_node_support
from guardrail.config import GuardConfig
from guardrail.errors import InvalidInputError
from guardrail.types import DetectorOutput, NodeSupport


def test_mean_max_logistic():
    s = {"a": 0.2, "b": 0.8}
    assert aggregate(s, GuardConfig(detectors=["a", "b"], aggregation="mean")) == pytest.approx(0.5)
    assert aggregate(s, GuardConfig(detectors=["a", "b"], aggregation="mean", weights={"a": 3, "b": 1})) == pytest.approx(0.35)
    assert aggregate(s, GuardConfig(detectors=["a", "b"], aggregation="max")) == 0.8
    cfg = GuardConfig(detectors=["a", "b"], aggregation="logistic", weights={"a": 1.0, "b": 2.0}, bias=-1.0)
    assert aggregate(s, cfg) == pytest.approx(1 / (1 + math.exp(-(-1 + 0.2 + 1.6))))


def test_missing_detector_score_is_an_error():
    with pytest.raises(InvalidInputError, match="b"):
        aggregate({"a": 0.1}, GuardConfig(detectors=["a", "b"]))


def test_combine_node_support_weights_and_evidence():
    outs = [
        DetectorOutput(name="a", score=0.5, node_support=(NodeSupport(node_id="n", support=0.0, evidence="ev-a"),)),
        DetectorOutput(name="b", score=0.5, node_support=(NodeSupport(node_id="n", support=1.0, evidence="ev-b"),)),
    ]
    comb = combine_node_support(outs, GuardConfig(detectors=["a", "b"], weights={"a": 3.0, "b": 1.0}))
    assert comb["n"].support == pytest.approx(0.25)
    assert comb["n"].evidence == "ev-a"


def test_best_threshold_separates():
    assert 0.3 < best_threshold([0.1, 0.2, 0.3, 0.7, 0.8, 0.9], [0, 0, 0, 1, 1, 1]) <= 0.7
    with pytest.raises(InvalidInputError):
        best_threshold([0.1, 0.2], [1, 1])


def test_calibrate_learns_the_informative_detector():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    rows = [{"good": float(0.7 * yi + 0.3 * rng.random()), "noise": float(rng.random())} for yi in y]
    cfg = calibrate(rows, y.tolist(), GuardConfig(detectors=["good", "noise"]), name="cal")
    assert cfg.aggregation == "logistic" and cfg.name == "cal"
    assert cfg.weights["good"] > 5 * abs(cfg.weights["noise"])
    preds = [aggregate(r, cfg) >= cfg.threshold for r in rows]
    assert np.mean(np.array(preds) == y.astype(bool)) > 0.95


def test_calibrate_rejects_bad_input():
    with pytest.raises(InvalidInputError):
        calibrate([{"a": 0.1}], [0, 1], GuardConfig(detectors=["a"]))
    with pytest.raises(InvalidInputError):
        calibrate([{"a": 0.1}] * 5, [0] * 5, GuardConfig(detectors=["a"]))


def test_macro_threshold_does_not_sacrifice_a_group():
    from guardrail.aggregate import macro_threshold

    # group a separates at 0.5, group b (scores shifted down) at 0.2
    scores = [0.1, 0.2, 0.6, 0.7] + [0.0, 0.05, 0.3, 0.35]
    labels = [0, 0, 1, 1] * 2
    groups = ["a"] * 4 + ["b"] * 4
    t = macro_threshold(scores, labels, groups)
    assert 0.05 < t <= 0.3  # both groups at least 0.75 balanced accuracy
    assert macro_threshold(scores, labels, groups, targets={"a": 0.0, "b": 0.0}) == t
    with pytest.raises(InvalidInputError):
        macro_threshold(scores, labels, groups, reduce="median")


def test_calibrate_with_groups_weights_each_group_equally():
    rng = np.random.default_rng(1)
    rows, labels, groups = [], [], []
    for g, shift, n in (("big", 0.0, 400), ("small", 0.3, 40)):
        for _ in range(n):
            y = int(rng.integers(0, 2))
            rows.append({"s": float(np.clip(0.3 * y + shift + 0.1 * rng.random(), 0, 1))})
            labels.append(y)
            groups.append(g)
    from sklearn.metrics import balanced_accuracy_score

    def worst_group(cfg):
        pred = np.array([aggregate(r, cfg) >= cfg.threshold for r in rows])
        g, y = np.array(groups), np.array(labels)
        return min(balanced_accuracy_score(y[g == k], pred[g == k]) for k in ("big", "small"))

    grouped = calibrate(rows, labels, GuardConfig(detectors=["s"]), groups=groups)
    pooled = calibrate(rows, labels, GuardConfig(detectors=["s"]))
    assert worst_group(grouped) > worst_group(pooled)
    with pytest.raises(InvalidInputError):
        calibrate(rows, labels, GuardConfig(detectors=["s"]), groups=groups[:-1])


def test_final_score_applies_the_veto_and_calibrate_fits_on_it():
    from guardrail.aggregate import final_score

    cfg = GuardConfig(detectors=["a"], aggregation="max", threshold=0.6, veto={"v": 0.5})
    assert final_score({"a": 0.2, "v": 0.4}, cfg) == 0.2
    assert final_score({"a": 0.2, "v": 0.5}, cfg) == 0.6  # vetoed: raised to the threshold, flagged
    # vetoed rows are flagged at any threshold, so the threshold is fitted on the others;
    # a fit blind to the veto lowers the threshold to catch the vetoed low-scoring positives
    # and then flags the 0.5 negative
    rows = [{"a": 0.1, "v": 0.9}] * 3 + [{"a": 0.8, "v": 0.0}] + [{"a": 0.05, "v": 0.0}] * 2 + [{"a": 0.5, "v": 0.0}]
    labels = [1, 1, 1, 1, 0, 0, 0]
    fitted = calibrate(rows, labels, GuardConfig(detectors=["a"], veto={"v": 0.5}))
    assert [int(final_score(r, fitted) >= fitted.threshold) for r in rows] == labels
    blind = calibrate(rows, labels, GuardConfig(detectors=["a"]))
    assert [int(final_score(r, blind.model_copy(update={"veto": {"v": 0.5}})) >= blind.threshold)
            for r in rows] != labels
