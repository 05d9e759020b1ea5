"""The learned default's fit (``benchmarks/fit_default.py``) on scores made up for the test."""

from __future__ import annotations

import numpy as np

from benchmarks.fit_default import fit, report


def _cache(seed: int = 0) -> dict[str, list[dict]]:
    """Two fit sets and one report set: ``verifier`` and ``relation`` rise with the label, ``anti``
    falls with it (more "evidence of error" on right answers: a weight the fit must not keep)."""
    rng = np.random.default_rng(seed)
    cache: dict[str, list[dict]] = {}
    for name in ("fit:qa", "fit:claims", "report:claims"):
        rows = []
        for i in range(120):
            y = i % 2
            rows.append({"label": y, "kind": "number" if y else "paraphrase", "abstained": i == 7,
                         "scores": {"verifier": float(np.clip(0.3 + 0.4 * y + rng.normal(0, 0.15), 0, 1)),
                                    "relation": float(np.clip(0.4 + 0.2 * y + rng.normal(0, 0.2), 0, 1)),
                                    "anti": float(np.clip(0.7 - 0.4 * y + rng.normal(0, 0.1), 0, 1))}})
        cache[name] = rows
    return cache


def test_fit_drops_a_negative_weight_and_sets_one_threshold() -> None:
    cfg = fit(_cache(), ["verifier", "relation", "anti"], C=1.0)
    assert "anti" not in cfg.detectors and cfg.detectors[0] == "verifier"
    assert cfg.aggregation == "logistic" and all(cfg.weights[d] > 0 for d in cfg.detectors)
    assert 0.0 < cfg.threshold < 1.0
    assert 0.0 < cfg.detector_params["verifier"]["unit_threshold"] <= 1.0


def test_report_gives_the_combination_and_every_signal_per_set_and_kind() -> None:
    cache = _cache()
    cfg = fit(cache, ["verifier", "relation"], C=1.0)
    res = report(cache, cfg, ["verifier", "relation", "anti"])
    r = res["report:claims"]
    assert r["n"] == 120 and r["abstained"] == 1
    assert r["balanced_accuracy"] > 0.8 and r["roc_auc"] > 0.9
    assert r["signals"]["anti"] < 0.5 < r["signals"]["verifier"]
    assert set(r["by_kind"]) == {"number", "paraphrase"}
