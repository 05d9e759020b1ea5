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
