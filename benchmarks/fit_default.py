"""Fit the shipped ``default`` config: one logistic model over every useful signal (issue 23).

One command refits it when the verifier's weights change::

    python benchmarks/fit_default.py                    # score (cached), fit, report, write default.json
    python benchmarks/fit_default.py --rescore verifier # after new verifier weights: rescore that signal only
    python benchmarks/fit_default.py --keep-config      # the shipped default.json on the cached scores, no fit

Data, and what each part is used for (the verifier was trained on HaluEval *tune* and the claims
*train* contexts, so its scores there are optimistic and never fitted on):

- **fit**: claims dev part a (context numbers ending in 0: whole claims and composed answers),
  HaluEval QA / dialogue / summarization *val* items whose question hashes to the fit half, QAGS-C
  *tune*;
- **report** (never fitted or selected on): claims dev part b (ending in 5), the other half of
  HaluEval val, QAGS-C val, the hand-written realistic set.

Every candidate detector is scored once per item (``benchmarks/results/default_scores.json``).
The fit is a group-balanced logistic regression (:func:`guardrail.aggregate.calibrate`); a signal
that gets a negative weight (more evidence of error lowering the score) is dropped and the model
refitted. The threshold maximises the mean balanced accuracy over the fit groups (one threshold
for every kind of input). Writes ``guardrail/configs/default.json`` and
``benchmarks/results/default_fit.{json,md}`` (each signal alone and the combination, per set and
per claim kind).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import zlib
from collections import defaultdict
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402

import guardrail.config as gconfig  # noqa: E402
from benchmarks.claims import answer_items, claim_items, dev_part  # noqa: E402
from benchmarks.devdata import load_dev  # noqa: E402
from guardrail import Guard  # noqa: E402
from guardrail.aggregate import aggregate, calibrate, final_score, macro_threshold  # noqa: E402
from guardrail.config import GuardConfig, save_config  # noqa: E402
from guardrail.text.declines import is_declined  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
CACHE = RESULTS / "default_scores.json"
#: Signals scored for every item; torch-free at check time (KG-Guard and GGA need torch).
CANDIDATES = ["verifier", "lexical_worst", "novelty", "entity", "relation", "grounding", "wl_kernel",
              "kg_slots", "kg_roles", "kg_exchanged", "kg_literals", "kg_negation", "kg_swaps"]
#: Signals the shipped default may combine. Left out: the n-gram ``lexical_worst`` / ``novelty``
#: (they reward copied wording) and the ``kg_*`` checks: together they added 0.004 balanced accuracy
#: on the report sets here for about 50 ms per answer (``benchmarks/results/default_fit.md``), so
#: they stay opt-in detectors.
FIT_CANDIDATES = ["verifier", "entity", "relation", "grounding", "wl_kernel"]
#: The shipped vetoes, kept by every refit: an answer whose claim exchanges the parties of a
#: relation the context states ("YouTube acquired Google") is flagged whatever the combination says,
#: and so is one stating a figure the context gives nowhere (in no form) where its evidence states
#: another of the same kind ("within 60 days" against "within 30 days"; ``kg_literals`` >= 0.9, or two
#: figures stated nowhere at all).
VETO = {"kg_exchanged": 0.85, "kg_literals": 0.9}
HALUEVAL = ("halueval_qa", "halueval_dialogue", "halueval_summarization")


def _half(it: dict[str, Any]) -> str:
    key = (it.get("question") or it.get("context", "")[:200]).encode("utf-8")
    return "fit" if zlib.crc32(key) % 2 == 0 else "report"


def _dev(name: str, split: str, limit: int) -> list[dict[str, Any]]:
    return [{"answer": it["answer"], "contexts": [it["context"]], "question": it.get("question"),
             "label": int(it["label"]), "kind": name, "q": it.get("question")}
            for it in load_dev(name, limit=limit, seed=0, split=split)]


def load_sets(limit: int, long_limit: int) -> dict[str, list[dict[str, Any]]]:
    """``{"fit:<set>" | "report:<set>": items}``; each item has answer, contexts, question, label
    (1 = hallucinated) and kind."""
    from benchmarks.quality import load_realistic

    sets: dict[str, list[dict[str, Any]]] = {}
    for part, tag in (("a", "fit"), ("b", "report")):
        ctxs = dev_part(part)
        sets[f"{tag}:claims_claims"] = claim_items(ctxs)
        sets[f"{tag}:claims_answers"] = answer_items(ctxs)
    for name in HALUEVAL:
        items = _dev(name, "val", long_limit if name.endswith("summarization") else limit)
        for tag in ("fit", "report"):
            sets[f"{tag}:{name}"] = [it for it in items if _half({"question": it["q"], "context": it["contexts"][0]})
                                     == tag]
    sets["fit:qags_c"] = _dev("qags_c", "tune", long_limit)
    sets["report:qags_c"] = _dev("qags_c", "val", long_limit)
    sets["report:realistic"] = [{"answer": it["answer"], "contexts": [it["context"]], "question": it.get("question"),
                                 "label": int(it["label"]), "kind": it.get("error_type") or it["style"]}
                                for it in load_realistic()]
    return sets


def score(sets: dict[str, list[dict[str, Any]]], detectors: list[str], cache: dict[str, Any]) -> dict[str, Any]:
    """Score ``detectors`` on every item, merged into ``cache`` (``{set: [row]}``, rows aligned)."""
    guard = Guard(GuardConfig(name="candidates", detectors=detectors))
    for name, items in sets.items():
        t0 = time.perf_counter()
        res = guard.check_many([{"answer": it["answer"], "contexts": it["contexts"], "question": it["question"]}
                                for it in items])
        old = cache.get(name) or [{} for _ in items]
        if len(old) != len(items):
            old = [{} for _ in items]
        cache[name] = [{"label": it["label"], "kind": it["kind"], "abstained": r.abstained, "declined": r.declined,
                        "scores": {**o.get("scores", {}), **dict(r.detector_scores)}}
                       for it, r, o in zip(items, res, old)]
        print(f"scored {name}: {len(items)} items in {time.perf_counter() - t0:.0f}s", flush=True)
        CACHE.write_text(json.dumps(cache))
    return cache


def _rows(cache: dict[str, Any], tag: str) -> tuple[list[dict[str, float]], list[int], list[str], list[str]]:
    rows, y, groups, kinds = [], [], [], []
    for name, items in cache.items():
        if name.startswith(tag + ":"):
            for r in items:
                if not r["abstained"] and not r.get("declined"):  # the guard scores neither
                    rows.append(r["scores"])
                    y.append(r["label"])
                    groups.append(name.split(":", 1)[1])
                    kinds.append(r["kind"])
    return rows, y, groups, kinds


def fit(cache: dict[str, Any], candidates: list[str], C: float) -> GuardConfig:
    """Group-balanced logistic fit on the ``fit:`` rows; negative-weight signals dropped one at a time.

    Parameters
    ----------
    cache : dict
        ``{"fit:<set>" | "report:<set>": [row]}``, each row ``label`` (1 = hallucinated),
        ``kind``, ``abstained`` and ``scores`` (signal -> score in [0, 1]).
    candidates : list of str
        Signals the fit may use (``verifier`` is always kept); those missing from a row are skipped.
    C : float
        Inverse L2 strength of the logistic regression.

    Returns
    -------
    GuardConfig
        ``aggregation="logistic"``, positive weights, the threshold in [0, 1] maximising the mean
        balanced accuracy over the fit sets, and the verifier's ``unit_threshold``.

    Raises
    ------
    InvalidInputError
        Fewer than 4 fit rows or a single class (from :func:`guardrail.aggregate.calibrate`).
    """
    rows, y, groups, _ = _rows(cache, "fit")
    use = [d for d in candidates if all(d in r for r in rows)]
    while True:
        base = GuardConfig(name="default", detectors=use, node_source="verifier", veto=VETO)
        cfg = calibrate(rows, y, base, C=C, groups=groups)
        neg = [d for d in use if cfg.weights[d] <= 0 and d != "verifier"]
        if not neg:
            break
        use = [d for d in use if d != min(neg, key=lambda d: cfg.weights[d])]
    probs = [final_score(r, cfg) for r in rows]
    t = macro_threshold(probs, y, groups, reduce="mean")
    return cfg.model_copy(update={"threshold": round(t, 4), "bias": round(cfg.bias, 4),
                                  "weights": {k: round(v, 4) for k, v in cfg.weights.items()},
                                  "detector_params": {"verifier": {"unit_threshold": _unit_threshold(cfg, rows, t)}}})


def _unit_threshold(cfg: GuardConfig, rows: list[dict[str, float]], t: float) -> float:
    """p(supported) below which the verifier flags a claim: where the combination crosses ``t``
    with the other signals at their median on the fit rows (so flagged claims and failed answers agree)."""
    med = {d: float(np.median([r[d] for r in rows])) for d in cfg.detectors}
    for v in np.linspace(0.0, 1.0, 1001):
        if aggregate({**med, "verifier": float(v)}, cfg) >= t:
            return round(1.0 - float(v), 4)
    return 0.5


def _bacc(y: np.ndarray, flag: np.ndarray) -> float:
    return float(np.mean([np.mean(flag[y == c] == bool(c)) for c in (0, 1) if (y == c).any()]))


def _auc(y: np.ndarray, s: np.ndarray) -> float:
    return round(float(roc_auc_score(y, s)), 4) if len(set(y.tolist())) == 2 else float("nan")


def report(cache: dict[str, Any], cfg: GuardConfig, candidates: list[str]) -> dict[str, Any]:
    """Per set: the combination's balanced accuracy and ROC-AUC, each signal's ROC-AUC, and per
    kind the share judged correctly (errors caught, supported claims passed)."""
    out: dict[str, Any] = {}
    for name, items in cache.items():
        # as the guard delivers them: an abstention is flagged (score 1), a declined answer passes (score 0)
        y = np.array([r["label"] for r in items])
        s = np.array([1.0 if r["abstained"] else 0.0 if r.get("declined") else final_score(r["scores"], cfg)
                      for r in items])
        flag = np.array([bool(r["abstained"]) or (not r.get("declined") and si >= cfg.threshold)
                         for r, si in zip(items, s)])
        ok = [r for r in items if not r["abstained"] and not r.get("declined")]
        y_ok = np.array([r["label"] for r in ok])
        kinds: dict[str, list[bool]] = defaultdict(list)
        for r, f in zip(items, flag):
            kinds[r["kind"]].append(bool(f) == bool(r["label"]))
        out[name] = {"n": len(items), "abstained": sum(bool(r["abstained"]) for r in items),
                     "declined": sum(bool(r.get("declined")) for r in items),
                     "balanced_accuracy": round(_bacc(y, flag), 4), "roc_auc": _auc(y, s),
                     "signals": {d: _auc(y_ok, np.array([r["scores"].get(d, 0.0) for r in ok])) for d in candidates
                                 if all(d in r["scores"] for r in ok)},
                     "by_kind": {k: {"n": len(v), "correct": round(sum(v) / len(v), 4)} for k, v in sorted(kinds.items())}}
    return out


def write_markdown(res: dict[str, Any], cfg: GuardConfig, path: Path, machine: str) -> None:
    """The tables README quotes."""
    sigs = sorted({d for v in res.values() for d in v["signals"]})
    lines = [f"# Shipped default: logistic over {', '.join(cfg.detectors)}", "",
             f"Machine: {machine}. Threshold {cfg.threshold}; weights {cfg.weights}; bias {cfg.bias}.",
             "Fit on the `fit:` sets, never on `report:` ones (see `benchmarks/fit_default.py`).", "",
             "| set | n | balanced accuracy | ROC-AUC | " + " | ".join(sigs) + " |",
             "| --- | --- | --- | --- | " + " | ".join("---" for _ in sigs) + " |"]
    for name, v in res.items():
        lines.append(f"| {name} | {v['n']} | {v['balanced_accuracy']} | {v['roc_auc']} | "
                     + " | ".join(str(v["signals"].get(d, "")) for d in sigs) + " |")
    for name in ("report:claims_claims", "report:claims_answers", "report:realistic"):
        if name in res:
            lines += ["", f"## {name}: share judged correctly per kind (errors caught, supported passed)", "",
                      "| kind | n | correct |", "| --- | --- | --- |"]
            lines += [f"| {k} | {v['n']} | {v['correct']} |" for k, v in res[name]["by_kind"].items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Entry point; see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=300, help="HaluEval QA / dialogue val items (both halves)")
    ap.add_argument("--long-limit", type=int, default=160, help="summarization val and QAGS-C items per part")
    ap.add_argument("--rescore", default="", help="comma-separated signals to score again (default: missing ones)")
    ap.add_argument("--candidates", default=",".join(FIT_CANDIDATES), help="signals the fit may combine")
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--no-write", action="store_true", help="report only; leave default.json as it is")
    ap.add_argument("--keep-config", action="store_true",
                    help="report the shipped default.json on the (re)scored cache, no fit (implies --no-write)")
    args = ap.parse_args(argv)
    RESULTS.mkdir(parents=True, exist_ok=True)
    candidates = args.candidates.split(",")
    sets = load_sets(args.limit, args.long_limit)
    cache = json.loads(CACHE.read_text()) if CACHE.is_file() else {}
    for name, items in sets.items():  # rows cached before declined answers existed: mark them as the guard does
        for it, r in zip(items, cache.get(name, [])):
            r.setdefault("declined", is_declined(it["answer"]))
    have = {d for items in cache.values() for r in items[:1] for d in r["scores"]}
    todo = sorted(set(args.rescore.split(",")) - {""} | (set(CANDIDATES) | set(candidates)) - have)
    if todo or set(sets) - set(cache):
        cache = score(sets, todo or CANDIDATES, cache)
    cfg = gconfig.load_config("default") if args.keep_config else fit(cache, candidates, args.C)
    res = report(cache, cfg, sorted(set(CANDIDATES) | set(candidates)))
    machine = f"{platform.machine()} {os.cpu_count()}-core CPU, no GPU"
    (RESULTS / "default_fit.json").write_text(json.dumps({"config": cfg.model_dump(), "sets": res,
                                                          "machine": machine}, indent=1))
    write_markdown(res, cfg, RESULTS / "default_fit.md", machine)
    if not (args.no_write or args.keep_config):
        save_config(cfg, ROOT / "guardrail" / "configs" / "default.json")
        gconfig._CACHE.clear()
    print(json.dumps({k: (v["balanced_accuracy"], v["roc_auc"]) for k, v in res.items()}, indent=0))
    print("config:", cfg.detectors, cfg.weights, cfg.bias, cfg.threshold)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
