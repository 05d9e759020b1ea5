"""Benchmark GGA (seed paper 003) on the held-back test split (writes benchmarks/results/gga.md).

Rows come from ``training/gga_generate.py`` (answers of the local Qwen2.5-Coder-0.5B to
graph-context questions, SQuAD labels, PRD/SAS/perplexity from one teacher-forced pass).
Methods, all scored on the ``test`` rows (never used for fitting or thresholds):

* GGA-Full: the shipped classifier (PRD + SAS + surface cues), its validation threshold;
* GGA-Core (PRD + SAS), SAS-only, PRD-only, surface cues only: same classifier recipe,
  fitted on ``train``, F1-best threshold on ``val``;
* perplexity of the answer (the paper's confidence baseline), threshold on ``val``;
* the project's verifier: ``Guard().check(answer, contexts=[linearised triples], question=q)``
  (the answer without its ``ans:`` prefix), at the guard's own threshold.

AUC with a bootstrap 95 % interval, class-1 F1, macro F1, and time per answer.

Usage::

    python benchmarks/gga.py            # the shipped rows, benchmarks/data/gga_items_qwen05b.jsonl
    python benchmarks/gga.py --items ~/.cache/kg-guardrail/gga/items_qwen05b.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "training"))

import numpy as np  # noqa: E402
from train_gga import best_threshold, fit, load_rows, matrix  # noqa: E402

from guardrail.detectors.gga import FEATURES, load_classifier  # noqa: E402
from guardrail.models.gga_features import SURFACE_CUES  # noqa: E402
from guardrail.models.gga_graph import linearise, strip_ans  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
#: The generated answers behind the shipped results (HaluEval text MIT, claims data CC BY 4.0).
DEFAULT_ITEMS = ROOT / "benchmarks" / "data" / "gga_items_qwen05b.jsonl"
NOTES = """Notes:

- 550 answers of the local 0.5B model (the paper: 37.5k training examples, 7B models), split by
  question: HaluEval *val* records and claims *dev* contexts are test. GGA-Full's test interval lies
  entirely below the issue's bar (0.75) and below the paper's 0.83-0.85: a negative result at this size.
  Causes, as far as these rows show: (1) the 0.5B model's internals separate its own errors weakly
  (SAS-only and PRD-only near 0.57-0.60; the paper's SAS-only 0.63 and PRD-only 0.51-0.55 on 7B
  models are not far above); (2) the surface cues carry most of what GGA-Full gets (answer length
  and shape), which the paper's surface baseline also shows; (3) labels are SQuAD EM/F1 against short
  gold answers, so a long right answer can count as a hallucination (claims rows: rate 0.87);
  (4) a semantic baseline reading no internals (embedding divergence, reversed) matches GGA-Full here
  (0.656 vs 0.643), where the paper has GGA 0.14 above the best semantic baseline: at 0.5B the
  internals add nothing measurable over the answer's text.
- Ablations, perplexity, embedding divergence and GGA-Full use the same train rows and val-chosen
  (macro-F1-best) thresholds; the verifier uses the guard's own threshold.
- PRD with the literal complement (N = every other prompt token: the chat template, the
  instruction, the attention-sink first token) is negative (m_N dominates); `complement="subgraph"`
  restricts N to the other subgraph tokens (`training/gga_prd_subgraph.py`, field `prd_subgraph`).
- Embedding divergence: 1 - cosine between the answer's and the linearised subgraph's MiniLM
  embeddings (the project's encoder), a semantic baseline that reads no model internals; its direction
  (and PRD-subgraph's) is chosen on train: this model's wrong answers sit *closer* to the subgraph
  (they copy triple words), as SAS also shows.
- Times: the first 113 answers were generated on one thread under heavy load, the other 437 on two
  threads with the machine otherwise quiet; medians over the test rows."""
ABLATIONS = {"GGA-Core (PRD + SAS)": ("prd", "sas"), "SAS-only": ("sas",),
             "PRD-only": ("prd",), "Surface cues only": SURFACE_CUES}


def metrics(y: np.ndarray, score: np.ndarray, thr: float, seed: int = 0) -> dict[str, Any]:
    """AUC (with a 1000-resample bootstrap 95 % interval), class-1 / macro F1, P, R."""
    from sklearn.metrics import f1_score, precision_score, recall_score, roc_auc_score

    pred = score >= thr
    rng = np.random.default_rng(seed)
    boots = []
    for _ in range(1000):
        idx = rng.integers(0, len(y), len(y))
        if len(set(y[idx])) > 1:
            boots.append(roc_auc_score(y[idx], score[idx]))
    return {"auc": float(roc_auc_score(y, score)),
            "auc_ci95": [float(np.quantile(boots, 0.025)), float(np.quantile(boots, 0.975))],
            "f1": float(f1_score(y, pred, zero_division=0)),
            "macro_f1": float(f1_score(y, pred, average="macro", zero_division=0)),
            "precision": float(precision_score(y, pred, zero_division=0)),
            "recall": float(recall_score(y, pred, zero_division=0)), "threshold": float(thr)}


def _verifier(rows: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, float]:
    from guardrail import Guard

    guard = Guard().warm_up()
    scores, flagged, secs = [], [], []
    for r in rows:
        text = "\n".join(f"{line}." for line in linearise([tuple(t) for t in r["triples"]]))
        answer = strip_ans(r["output"]) or r["output"] or "(empty)"
        t0 = time.perf_counter()
        res = guard.check(answer, contexts=[text], question=r["question"])
        secs.append(time.perf_counter() - t0)
        scores.append(res.score)
        flagged.append(not res.passed)
    return np.asarray(scores), np.asarray(flagged), float(np.median(secs))


def run(rows: list[dict[str, Any]], seed: int, with_verifier: bool,
        weights: Path | None = None) -> dict[str, Any]:
    """All methods on the test rows; returns the results dict."""
    parts = {s: [r for r in rows if r["split"] == s] for s in ("train", "val", "test")}
    xte, yte = matrix(parts["test"])
    bundle = load_classifier(weights) if weights else load_classifier()
    t0 = time.perf_counter()
    p_full = bundle["model"].predict_proba(xte)[:, 1]
    clf_ms = (time.perf_counter() - t0) / max(len(xte), 1) * 1000
    out: dict[str, Any] = {"GGA-Full (PRD + SAS + surface cues)":
                           metrics(yte, p_full, bundle["threshold"], seed)}
    for name, cols in ABLATIONS.items():
        xtr, ytr = matrix(parts["train"], cols)
        xva, yva = matrix(parts["val"], cols)
        clf = fit(xtr, ytr, seed)
        thr = best_threshold(clf.predict_proba(xva)[:, 1], yva)
        out[name] = metrics(yte, clf.predict_proba(matrix(parts["test"], cols)[0])[:, 1], thr, seed)
    if all("prd_subgraph" in r for r in rows):
        out["PRD-only (subgraph complement)"] = _single(parts, "prd_subgraph", yte, seed)
    out["Embedding divergence"] = _divergence(parts, yte, seed)
    ppl_va = np.log([r["perplexity"] for r in parts["val"]])
    ppl_te = np.log([r["perplexity"] for r in parts["test"]])
    thr = best_threshold(ppl_va, np.asarray([r["label"] for r in parts["val"]]))
    out["Perplexity (log)"] = metrics(yte, ppl_te, thr, seed)
    timing = {"gga_features_s_median": float(np.median([r["feat_s"] for r in parts["test"]])),
              "gga_classifier_ms": clf_ms,
              "generation_s_median": float(np.median([r["gen_s"] for r in parts["test"]]))}
    if with_verifier:
        vs, vflag, vsec = _verifier(parts["test"])
        out["Project verifier (Guard default)"] = metrics(yte, vs, 0.5, seed)
        out["Project verifier (Guard default)"].update(
            {"f1": float(_f1(yte, vflag)), "macro_f1": float(_f1(yte, vflag, "macro")),
             "threshold": "guard's own"})
        timing["verifier_s_median"] = vsec
    return {"methods": out, "timing": timing, "n": {s: len(v) for s, v in parts.items()},
            "hallucination_rate": {s: float(np.mean([r["label"] for r in v])) for s, v in parts.items() if v},
            "test_by_source": _by_source(parts["test"], p_full),
            "features": list(FEATURES), "generator": bundle.get("generator")}


def _single(parts: dict[str, list[dict[str, Any]]], key: str, yte: np.ndarray, seed: int) -> dict[str, Any]:
    """One raw feature as the score (its sign chosen on train), threshold F1-best on val."""
    from sklearn.metrics import roc_auc_score

    tr = np.asarray([r[key] for r in parts["train"]])
    sign = 1.0 if roc_auc_score([r["label"] for r in parts["train"]], tr) >= 0.5 else -1.0
    va = sign * np.asarray([r[key] for r in parts["val"]])
    thr = best_threshold(va, np.asarray([r["label"] for r in parts["val"]]))
    return metrics(yte, sign * np.asarray([r[key] for r in parts["test"]]), thr, seed)


def _divergence(parts: dict[str, list[dict[str, Any]]], yte: np.ndarray, seed: int) -> dict[str, Any]:
    """1 - cos(answer, linearised subgraph) with the shared MiniLM encoder; threshold on val."""
    from guardrail.align.encoder import shared_encoder

    enc = shared_encoder()

    def score(rows: list[dict[str, Any]]) -> np.ndarray:
        ans = [strip_ans(r["output"]) or r["output"] or "(empty)" for r in rows]
        ctx = [" ".join(f"{line}." for line in linearise([tuple(t) for t in r["triples"]])) for r in rows]
        a, c = enc.encode(ans), enc.encode(ctx)
        a = a / np.linalg.norm(a, axis=1, keepdims=True)
        c = c / np.linalg.norm(c, axis=1, keepdims=True)
        return np.asarray(1.0 - (a * c).sum(axis=1))

    from sklearn.metrics import roc_auc_score

    # the direction is chosen on train (hallucinated answers of this model sit *closer* to the subgraph)
    sign = 1.0 if roc_auc_score([r["label"] for r in parts["train"]], score(parts["train"])) >= 0.5 else -1.0
    thr = best_threshold(sign * score(parts["val"]), np.asarray([r["label"] for r in parts["val"]]))
    return metrics(yte, sign * score(parts["test"]), thr, seed)


def _f1(y: np.ndarray, pred: np.ndarray, average: str = "binary") -> float:
    from sklearn.metrics import f1_score

    return float(f1_score(y, pred, average=average, zero_division=0))


def _by_source(rows: list[dict[str, Any]], p: np.ndarray) -> dict[str, Any]:
    from sklearn.metrics import roc_auc_score

    out: dict[str, Any] = {}
    for src in sorted({r["source"] for r in rows}):
        idx = [k for k, r in enumerate(rows) if r["source"] == src]
        y = np.asarray([rows[k]["label"] for k in idx])
        auc = float(roc_auc_score(y, p[idx])) if len(set(y)) > 1 else None
        out[src] = {"n": len(idx), "hallucination_rate": float(y.mean()), "gga_full_auc": auc}
    return out


def _markdown(res: dict[str, Any]) -> str:
    lines = ["# GGA (seed paper 003) on a local Qwen2.5-Coder-0.5B-Instruct", "",
             "Produced by `benchmarks/gga.py` from answers generated by `training/gga_generate.py`; "
             "see `guardrail/models/gga/MODEL_CARD.md` for the data and protocol.", "",
             f"Rows: {res['n']}; hallucination rate: "
             + ", ".join(f"{k} {v:.2f}" for k, v in res["hallucination_rate"].items()) + ".", "",
             "| Method | AUC | AUC 95% CI | F1 (class 1) | macro F1 | precision | recall |",
             "|---|---|---|---|---|---|---|"]
    for name, m in res["methods"].items():
        lo, hi = m["auc_ci95"]
        lines.append(f"| {name} | {m['auc']:.3f} | {lo:.3f}-{hi:.3f} | {m['f1']:.3f} | "
                     f"{m['macro_f1']:.3f} | {m['precision']:.3f} | {m['recall']:.3f} |")
    t = res["timing"]
    lines += ["", "Test split by source (GGA-Full AUC):", ""]
    for src, v in res["test_by_source"].items():
        auc = "n/a" if v["gga_full_auc"] is None else f"{v['gga_full_auc']:.3f}"
        lines.append(f"- {src}: n={v['n']}, hallucination rate {v['hallucination_rate']:.2f}, AUC {auc}")
    lines += ["", "Time per answer (CPU, medians; see the notes): GGA features "
              f"{t['gga_features_s_median']:.2f} s (teacher-forced pass + triple embeddings) + "
              f"classifier {t['gga_classifier_ms']:.3f} ms; generation {t['generation_s_median']:.2f} s"
              + (f"; verifier {t['verifier_s_median']:.2f} s" if "verifier_s_median" in t else "") + ".",
              "", NOTES, ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Command-line entry point (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--items", type=Path, default=DEFAULT_ITEMS)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-verifier", action="store_true")
    ap.add_argument("--weights", type=Path, default=None, help="classifier bundle (default: shipped)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="results directory")
    args = ap.parse_args(argv)
    res = run(load_rows(args.items), args.seed, not args.no_verifier, args.weights)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "gga.json").write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    (args.out / "gga.md").write_text(_markdown(res), encoding="utf-8")
    print(_markdown(res))


if __name__ == "__main__":
    main()
