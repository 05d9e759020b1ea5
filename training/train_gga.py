"""Fit the GGA classifier (PRD + SAS + surface cues -> HistGradientBoosting), seeded.

Reads the rows written by ``training/gga_generate.py`` (one answer each, with ``split``,
``label``, ``prd``, ``sas`` and ``output``), fits on ``train``, picks the F1-best threshold
on ``val``, and writes ``guardrail/models/gga/gga_qwen05b.pkl`` with its ``.sha256`` and
``training/gga_metrics.json``. The test split is left to ``benchmarks/gga.py``.

Usage::

    python training/train_gga.py --items ~/.cache/kg-guardrail/gga/items_qwen05b.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "training"))

from gga_data import split_for  # noqa: E402

from guardrail.detectors.gga import DEFAULT_WEIGHTS, FEATURES, feature_vector  # noqa: E402

__all__ = ["load_rows", "matrix", "fit", "best_threshold", "main", "PARAMS"]

#: Classifier hyper-parameters (small trees: a few hundred examples).
PARAMS: dict[str, Any] = {"max_iter": 150, "learning_rate": 0.05, "max_depth": 3,
                          "min_samples_leaf": 10, "l2_regularization": 1.0,
                          "class_weight": "balanced"}


def load_rows(path: str | Path) -> list[dict[str, Any]]:
    """Rows of a generation file (last row wins for a repeated id).

    The train/val assignment is re-derived with :func:`gga_data.split_for` (test rows stay
    test), so files written before its salt was fixed split the same way.
    """
    rows: dict[str, dict[str, Any]] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            r["split"] = split_for(r["id"], r["split"] == "test")
            rows[r["id"]] = r
    return list(rows.values())


def matrix(rows: Sequence[dict[str, Any]], columns: Sequence[str] = FEATURES
           ) -> tuple[np.ndarray, np.ndarray]:
    """Feature matrix (the named columns of :data:`FEATURES`) and labels."""
    idx = [FEATURES.index(c) for c in columns]
    x = np.asarray([[feature_vector(r["prd"], r["sas"], r["output"])[i] for i in idx]
                    for r in rows], dtype=float)
    return x, np.asarray([r["label"] for r in rows], dtype=int)


def fit(x: np.ndarray, y: np.ndarray, seed: int = 0) -> Any:
    """A seeded ``HistGradientBoostingClassifier`` fitted on ``(x, y)``."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(random_state=seed, **PARAMS).fit(x, y)


def best_threshold(scores: np.ndarray, y: np.ndarray, average: str = "macro") -> float:
    """Threshold with the best F1 on a 99-step grid (the paper's grid search).

    ``average="macro"`` (default) maximises macro F1: with most answers of a 0.5B model
    hallucinated, class-1 F1 alone is maximised by flagging everything.
    """
    from sklearn.metrics import f1_score

    grid = np.quantile(scores, np.linspace(0.01, 0.99, 99))
    f1 = [f1_score(y, scores >= t, average=average, zero_division=0) for t in grid]
    return float(grid[int(np.argmax(f1))])


def _write(bundle: dict[str, Any], out: Path) -> str:
    data = pickle.dumps(bundle, protocol=4)
    digest = hashlib.sha256(data).hexdigest()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    out.with_name(out.name + ".sha256").write_text(f"{digest}  {out.name}\n", encoding="utf-8")
    return digest


def main(argv: list[str] | None = None) -> None:
    """Command-line entry point (see the module docstring)."""
    import sklearn
    from sklearn.metrics import f1_score, roc_auc_score

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--items", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=DEFAULT_WEIGHTS)
    args = ap.parse_args(argv)
    rows = load_rows(args.items)
    parts = {s: [r for r in rows if r["split"] == s] for s in ("train", "val", "test")}
    xtr, ytr = matrix(parts["train"])
    xva, yva = matrix(parts["val"])
    clf = fit(xtr, ytr, args.seed)
    pva = clf.predict_proba(xva)[:, 1]
    thr = best_threshold(pva, yva)
    meta = {"features": list(FEATURES), "params": PARAMS, "seed": args.seed,
            "threshold": thr, "sklearn": sklearn.__version__,
            "generator": "Qwen2.5-Coder-0.5B-Instruct Q4_K_M (transformers, fp32)",
            "n": {s: len(v) for s, v in parts.items()},
            "hallucination_rate": {s: float(np.mean([r["label"] for r in v])) if v else None
                                   for s, v in parts.items()},
            "val_auc": float(roc_auc_score(yva, pva)) if len(set(yva)) > 1 else None,
            "val_f1": float(f1_score(yva, pva >= thr, zero_division=0)),
            "val_macro_f1": float(f1_score(yva, pva >= thr, average="macro", zero_division=0))}
    digest = _write({"model": clf, **meta, "features": FEATURES}, args.out)
    meta["sha256"] = digest
    if args.out == DEFAULT_WEIGHTS:
        (ROOT / "training" / "gga_metrics.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(json.dumps(meta, indent=2))


if __name__ == "__main__":
    main()
