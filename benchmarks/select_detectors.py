"""Rank detector subsets for a shipped config on the TUNE split (cached scores).

Reads ``benchmarks/results/quality_scores.json`` (written by ``quality.py``), fits a
logistic combination per subset with equal weight per dataset, picks the threshold
that maximises the smallest margin to each dataset's bar, and prints the best subsets
with their tune and val balanced accuracy / ROC-AUC. Selection uses tune only; val is
printed for the report.

Usage: ``python benchmarks/select_detectors.py [short|long] [--top 5]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import balanced_accuracy_score, roc_auc_score

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from quality import BARS, DATASETS, RESULTS  # noqa: E402


def _matrix(rows: list[dict], dets: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.array([[r["scores"].get(k, 0.0) for k in dets] for r in rows])
    return x, np.array([r["label"] for r in rows]), np.array([r["abstained"] for r in rows])


def rank(scores: dict, names: list[str], dets: tuple[str, ...]) -> tuple[float, dict]:
    """Fit on tune; return (smallest tune margin to the bars, metrics per part/dataset)."""
    xs, ys, gs = [], [], []
    for d in names:
        x, y, ab = _matrix(scores[d]["tune"], dets)
        xs.append(x[~ab]), ys.append(y[~ab])
        gs += [d] * int((~ab).sum())
    X, y, g = np.vstack(xs), np.concatenate(ys), np.array(gs)
    w = np.array([1.0 / (g == k).sum() for k in g])
    lr = LogisticRegression(class_weight="balanced", max_iter=1000).fit(X, y, sample_weight=w * len(w) / w.sum())
    p = lr.predict_proba(X)[:, 1]
    ts = np.unique(p)
    pred = p[None, :] >= ts[:, None]
    margins = []
    for d in names:
        pos, neg = (g == d) & (y == 1), (g == d) & (y == 0)
        margins.append((pred[:, pos].mean(1) + 1 - pred[:, neg].mean(1)) / 2 - BARS[d])
    objective = np.min(margins, axis=0)
    t = ts[int(np.argmax(objective))]
    out = {}
    for part in ("tune", "val"):
        for d in names:
            x, yy, ab = _matrix(scores[d][part], dets)
            s = lr.predict_proba(x)[:, 1]
            s[ab] = 1.0
            out[f"{part}:{d}"] = (round(balanced_accuracy_score(yy, s >= t), 3), round(roc_auc_score(yy, s), 3))
    return float(objective.max()), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("config", choices=["short", "long"])
    ap.add_argument("--top", type=int, default=5)
    args = ap.parse_args()
    scores = json.loads((RESULTS / "quality_scores.json").read_text())
    names = [d for d, c in DATASETS.items() if c == args.config]
    cands = list(scores[names[0]]["tune"][0]["scores"])
    res = [(*rank(scores, names, dets), dets) for k in (2, 3, 4) for dets in itertools.combinations(cands, k)]
    res.sort(key=lambda r: -r[0])
    for margin, out, dets in res[: args.top]:
        print(f"{margin:+.3f} {dets} {out}")


if __name__ == "__main__":
    main()
