"""Detection quality of the guard on the development data (HaluEval, QAGS-C).

Usage::

    python benchmarks/quality.py [--limit N] [--calibrate] [--reuse-scores]

Every dataset is split with :func:`guardrail.datasets.dev_split` (by record, seed 0)
into *tune* and *val*; up to ``--limit`` items of each part are drawn (whole records,
seed 0). The guard runs once over all drawn items with every candidate detector and the
scores are cached in ``benchmarks/results/quality_scores.json``. With ``--calibrate``
the ``short`` config is fitted on the tune items of HaluEval QA + dialogue and the
``long`` config on those of summarization + QAGS-C (logistic regression, balanced-
accuracy threshold) and written to ``guardrail/configs``. The shipped ``auto`` guard is
then run on the val items and its metrics are written to
``benchmarks/results/quality.json`` and ``quality.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
from sklearn.metrics import (  # noqa: E402
    balanced_accuracy_score,
    precision_recall_fscore_support,
    roc_auc_score,
)

import guardrail.config as gconfig  # noqa: E402
from guardrail import Guard  # noqa: E402
from guardrail.aggregate import calibrate  # noqa: E402
from guardrail.config import GuardConfig, save_config  # noqa: E402
from guardrail.datasets import load_dev  # noqa: E402
from guardrail.extract.base import Extractor  # noqa: E402
from guardrail.extract.spacy_extractor import SpacyExtractor  # noqa: E402
from guardrail.types import GuardResult, KnowledgeGraph  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
CONFIGS = ROOT / "guardrail" / "configs"
#: Dataset -> shipped config fitted on it.
DATASETS = {
    "halueval_qa": "short",
    "halueval_dialogue": "short",
    "halueval_summarization": "long",
    "qags_c": "long",
}
#: Balanced-accuracy bars on the val split (project brief).
BARS = {"halueval_qa": 0.93, "halueval_dialogue": 0.65, "halueval_summarization": 0.75, "qags_c": 0.72}
#: Every candidate detector scored in the first pass.
CANDIDATES = [
    "grounding", "relation", "entity", "wl_kernel", "lexical", "lexical_ctx", "lexical_bigram",
    "lexical_worst", "sentence", "novelty_bigram", "novelty_trigram", "novelty_count",
    "novelty_bigram_count",
]
#: Detectors each shipped config uses, chosen on the tune split only by
#: ``benchmarks/select_detectors.py`` (subsets of 2-4 candidates, ranked by the smallest
#: margin of a dataset's tune balanced accuracy to its bar); ``long`` kept the earlier
#: subset, whose pooled calibration did better on tune than any per-dataset one.
CONFIG_DETECTORS = {
    "short": ["grounding", "lexical_ctx", "sentence", "novelty_trigram", "novelty_bigram_count"],
    "long": ["relation", "entity", "lexical", "lexical_bigram"],
}
#: How each config's threshold is chosen on tune. ``short``: every dataset weighs the same
#: in the logistic fit and the threshold maximises the smallest margin to each dataset's
#: bar (a pooled threshold let QA, the easy source, set it and sacrificed dialogue).
#: ``long``: pooled fit and Youden threshold; the per-dataset rule was tried and did worse
#: on tune for every subset (summaries and QAGS-C score on different scales).
PER_DATASET_TARGETS = {"short": True, "long": False}
#: Veto (see GuardConfig.veto): flag an answer when at least one in three of its named
#: entities and numbers is absent from the context (the entity score is soft: partial
#: embedding matches count partly, so one in three sits near 0.3). Chosen for the product (a swapped
#: entity or wrong number in an otherwise copied sentence must be caught; the fitted
#: combination alone let "released in 2018" pass against "2017"); on tune, values
#: 0.34 / 0.5 / 0.67 / 0.99 were within 0.01 of each other in mean balanced accuracy.
VETO = {"entity": 0.3}
SEED = 0


class MemoExtractor(Extractor):
    """Caches the wrapped extractor's graphs by (text, source), shared across guards."""

    name = "memo"

    def __init__(self, inner: Extractor) -> None:
        self.inner = inner
        self.memo: dict[tuple[str, int], KnowledgeGraph] = {}

    def extract(self, text: str, *, source: int = -1) -> KnowledgeGraph:
        key = (text, source)
        if key not in self.memo:
            self.memo[key] = self.inner.extract(text, source=source)
        return self.memo[key]


def load_items(limit: int, long_limit: int) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """``{dataset: {"tune": items, "val": items}}`` with up to ``limit`` items per part
    (``long_limit`` for the long-form datasets, whose items take far longer)."""
    return {
        name: {part: load_dev(name, limit=long_limit if cfg == "long" else limit, seed=SEED, split=part)
               for part in ("tune", "val")}
        for name, cfg in DATASETS.items()
    }


def run_guard(guard: Guard, items: Sequence[dict[str, Any]]) -> list[GuardResult]:
    """Check ``items`` one by one (the caller's extractor memo makes re-runs cheap)."""
    rows = [{"answer": it["answer"], "context": it["context"], "question": it.get("question"),
             "id": it["id"]} for it in items]
    return guard.check_many(rows)


def score_all(data: dict[str, dict[str, list[dict[str, Any]]]], extractor: Extractor) -> dict[str, Any]:
    """Run every candidate detector on every item; return a JSON-able cache of scores."""
    cfg = GuardConfig(name="candidates", detectors=CANDIDATES)
    guard = Guard(cfg, extractor=extractor)
    out: dict[str, Any] = {}
    for name, parts in data.items():
        out[name] = {}
        for part, items in parts.items():
            t0 = time.perf_counter()
            res = run_guard(guard, items)
            out[name][part] = [
                {"id": it["id"], "label": it["label"], "abstained": r.abstained,
                 "scores": r.detector_scores}
                for it, r in zip(items, res)
            ]
            print(f"scored {name}/{part}: {len(items)} items in {time.perf_counter() - t0:.0f}s",
                  flush=True)
    return out


def fit_configs(scores: dict[str, Any]) -> dict[str, GuardConfig]:
    """Calibrate ``short`` and ``long`` on the tune rows of their datasets and save them."""
    fitted = {}
    for cfg_name in ("short", "long"):
        pairs = [(d, r) for d, c in DATASETS.items() if c == cfg_name for r in scores[d]["tune"]
                 if not r["abstained"]]
        rows = [r for _, r in pairs]
        base = gconfig.shipped_configs()[cfg_name].model_copy(update={
            "name": cfg_name, "detectors": CONFIG_DETECTORS[cfg_name],
            "detector_params": {}, "node_threshold": 0.5, "veto": dict(VETO),
        })
        groups = [d for d, _ in pairs]
        per = PER_DATASET_TARGETS[cfg_name]
        cfg = calibrate([r["scores"] for r in rows], [r["label"] for r in rows], base, name=cfg_name,
                        groups=groups if per else None, targets=BARS if per else None)
        save_config(cfg, CONFIGS / f"{cfg_name}.json")
        fitted[cfg_name] = cfg
        print(f"calibrated {cfg_name} on {len(rows)} tune items: {cfg.weights} "
              f"bias={cfg.bias:.3f} threshold={cfg.threshold:.3f}", flush=True)
    gconfig._CACHE.clear()  # make the "auto" guard read the files just written
    return fitted


def _metrics(labels: list[int], preds: list[int], scores: list[float]) -> dict[str, float]:
    p, r, f, _ = precision_recall_fscore_support(labels, preds, average="binary", zero_division=0)
    auc = roc_auc_score(labels, scores) if len(set(labels)) == 2 else float("nan")
    return {"balanced_accuracy": float(balanced_accuracy_score(labels, preds)), "roc_auc": float(auc),
            "precision": float(p), "recall": float(r), "f1": float(f)}


def node_localisation(items: list[dict[str, Any]], results: list[GuardResult]) -> dict[str, float]:
    """QAGS-C: share of flagged nodes whose span lies in a crowd-unsupported sentence."""
    hit = total = 0
    base_chars = bad_chars = 0
    for it, r in zip(items, results):
        bad = [(s["start"], s["end"]) for s in it["sentences"] if s["unsupported"]]
        base_chars += len(it["answer"])
        bad_chars += sum(e - s for s, e in bad)
        for n in r.flagged_nodes:
            if n.span is None:
                continue
            total += 1
            hit += any(s <= n.span.start < e for s, e in bad)
    return {"flagged_nodes": total, "in_unsupported_sentence": hit,
            "share": hit / total if total else float("nan"),
            "chance_share": bad_chars / base_chars if base_chars else float("nan")}


def evaluate(data: dict[str, dict[str, list[dict[str, Any]]]], extractor: Extractor, part: str) -> dict[str, Any]:
    """Run the shipped ``auto`` guard on ``part`` of every dataset and compute the metrics."""
    guard = Guard("auto", extractor=extractor)
    report: dict[str, Any] = {}
    for name, parts in data.items():
        items = parts[part]
        res = run_guard(guard, items)
        labels = [it["label"] for it in items]
        m = _metrics(labels, [int(not r.passed) for r in res], [r.score for r in res])
        m.update({"n": len(items), "positives": int(sum(labels)),
                  "abstained": sum(r.abstained for r in res),
                  "configs": {c: sum(r.config == c for r in res) for c in ("short", "long")},
                  "median_ms": statistics.median(r.total_ms for r in res)})
        if name == "qags_c":
            m["node_localisation"] = node_localisation(items, res)
        report[name] = m
        print(f"{part} {name}: " + ", ".join(f"{k}={v:.3f}" for k, v in m.items()
                                             if isinstance(v, float)), flush=True)
    return report


def measure_latency(data: dict[str, dict[str, list[dict[str, Any]]]], n: int) -> dict[str, Any]:
    """Per-item wall time of a fresh ``auto`` guard (own spaCy, empty encoder cache), one
    ``check`` call per item, on the first ``n`` val items of every dataset."""
    from guardrail.encoder import MiniLMEncoder

    guard = Guard("auto", encoder=MiniLMEncoder()).warm_up()
    out: dict[str, Any] = {}
    for name, parts in data.items():
        ms = []
        for it in parts["val"][:n]:
            r = guard.check(it["answer"], it["context"], it.get("question"))
            ms.append(r.total_ms)
        words = [len(str(it["context"]).split()) for it in parts["val"][:n]]
        out[name] = {"n": len(ms), "median_ms": statistics.median(ms),
                     "p90_ms": float(np.percentile(ms, 90)), "median_context_words": statistics.median(words)}
        print(f"latency {name}: median {out[name]['median_ms']:.0f} ms", flush=True)
    return out


def detector_aucs(scores: dict[str, Any], part: str) -> dict[str, dict[str, float]]:
    """ROC-AUC of every single candidate detector on ``part`` (abstentions left out)."""
    out: dict[str, dict[str, float]] = {}
    for name in DATASETS:
        rows = [r for r in scores[name][part] if not r["abstained"]]
        y = [r["label"] for r in rows]
        out[name] = {d: float(roc_auc_score(y, [r["scores"][d] for r in rows])) for d in CANDIDATES}
    return out


def write_markdown(report: dict[str, Any], path: Path) -> None:
    """Write the human-readable table."""
    lines = [
        "# Detection quality (development data)", "",
        f"Machine: {report['machine']}. Sizes: {report['sizes']}. Seed {SEED}; "
        "split by record with `dev_split(val_fraction=0.3, seed=0)`.", "",
        "Shipped `auto` guard at the shipped thresholds. Abstentions count as flagged.", "",
    ]
    for name, cfg in report.get("configs", {}).items():
        ws = ", ".join(f"{d} {cfg['weights'].get(d, 0.0):+.2f}" for d in cfg["detectors"])
        lines.append(f"- `{name}`: logistic over {ws}; bias {cfg['bias']:+.2f}; "
                     f"threshold {cfg['threshold']:.3f}")
    lines.append("")
    for part in [p for p in ("val", "tune") if p in report]:
        lines += [f"## {part}", "",
                  "| dataset | n | bal. acc | ROC-AUC | precision | recall | F1 | abstained | median ms (warm caches) |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for name, m in report[part].items():
            lines.append(f"| {name} | {m['n']} | {m['balanced_accuracy']:.3f} | {m['roc_auc']:.3f} | "
                         f"{m['precision']:.3f} | {m['recall']:.3f} | {m['f1']:.3f} | "
                         f"{m['abstained']} | {m['median_ms']:.0f} |")
        loc = report[part].get("qags_c", {}).get("node_localisation")
        if loc:
            lines += ["", f"QAGS-C flagged nodes in a crowd-unsupported sentence: "
                          f"{loc['in_unsupported_sentence']}/{loc['flagged_nodes']} = {loc['share']:.3f} "
                          f"(share of summary text in such sentences: {loc['chance_share']:.3f})."]
        lines.append("")
    if "latency" in report:
        lines += ["## Latency (fresh guard, empty encoder cache, one `check` per item)", "",
                  "| dataset | n | median ms | p90 ms | median context words |", "| --- | --- | --- | --- | --- |"]
        for name, m in report["latency"].items():
            lines.append(f"| {name} | {m['n']} | {m['median_ms']:.0f} | {m['p90_ms']:.0f} | "
                         f"{m['median_context_words']:.0f} |")
        lines.append("")
    lines += ["## Single-detector ROC-AUC (val, abstentions left out)", "",
              "| dataset | " + " | ".join(CANDIDATES) + " |", "| --- |" + " --- |" * len(CANDIDATES)]
    for name, row in report["detector_auc_val"].items():
        lines.append(f"| {name} | " + " | ".join(f"{row[d]:.3f}" for d in CANDIDATES) + " |")
    lines += ["", "## Bars (val balanced accuracy)", ""]
    for name, bar in BARS.items():
        got = report["val"][name]["balanced_accuracy"]
        lines.append(f"- {name}: {got:.3f} vs bar {bar:.2f}: {'met' if got >= bar else 'NOT met'}")
    lines += ["", "The `long` config is fitted on summarization and QAGS-C together; their score scales "
              "differ (HaluEval reference summaries are abstractive, QAGS-C model summaries extractive), "
              "so one threshold cannot serve both: summarization keeps ROC-AUC ~0.70 but its balanced "
              "accuracy at the shared threshold is near chance."]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def rewrite_markdown() -> None:
    """Re-render ``quality.md`` from ``quality.json``."""
    report = json.loads((RESULTS / "quality.json").read_text(encoding="utf-8"))
    write_markdown(report, RESULTS / "quality.md")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=300, help="items per dataset and part (tune, val)")
    ap.add_argument("--long-limit", type=int, default=None,
                    help="items per part for summarization and QAGS-C (default: --limit)")
    ap.add_argument("--scores-only", action="store_true", help="stop after scoring")
    ap.add_argument("--calibrate", action="store_true", help="fit and write the shipped configs")
    ap.add_argument("--reuse-scores", action="store_true", help="reuse quality_scores.json")
    ap.add_argument("--latency", type=int, default=0, help="also time N fresh checks per dataset")
    ap.add_argument("--no-tune-report", action="store_true", help="skip the tune-split report")
    args = ap.parse_args(argv)
    RESULTS.mkdir(parents=True, exist_ok=True)
    long_limit = args.long_limit if args.long_limit is not None else args.limit
    data = load_items(args.limit, long_limit)
    extractor = MemoExtractor(SpacyExtractor())
    cache = RESULTS / "quality_scores.json"
    if args.reuse_scores and cache.is_file():
        scores = json.loads(cache.read_text(encoding="utf-8"))
    else:
        scores = score_all(data, extractor)
        cache.write_text(json.dumps(scores), encoding="utf-8")
    if args.scores_only:
        return 0
    if args.calibrate:
        fit_configs(scores)
    report: dict[str, Any] = {
        "machine": f"{platform.machine()} {os.cpu_count()}-core CPU (shared), no GPU",
        "sizes": {n: {p: len(v) for p, v in parts.items()} for n, parts in data.items()},
        "limit": args.limit, "long_limit": long_limit, "seed": SEED,
        "configs": {n: json.loads((CONFIGS / f"{n}.json").read_text()) for n in ("short", "long")
                    if (CONFIGS / f"{n}.json").is_file()},
        "val": evaluate(data, extractor, "val"),
    }
    if not args.no_tune_report:
        report["tune"] = evaluate(data, extractor, "tune")
    if args.latency:
        report["latency"] = measure_latency(data, args.latency)
    report["detector_auc_val"] = detector_aucs(scores, "val")
    report["detector_auc_tune"] = detector_aucs(scores, "tune")
    (RESULTS / "quality.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    write_markdown(report, RESULTS / "quality.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
