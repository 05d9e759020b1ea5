"""Dev metrics of a claim-verifier checkpoint, per source (for the model card).

Pairs: ``../shared/data/nli/dev.jsonl`` (split by premise from train) and HaluEval QA /
dialogue **val** items (records never used in training), formatted as at inference.
Reports ROC-AUC and balanced accuracy at p = 0.5 per source.

Usage::

    python training/eval_verifier.py --model guardrail/models/verifier --out training/work/dev_metrics.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.devdata import data_dir, load_dev  # noqa: E402
from guardrail.align.claims import claim_text, select_evidence  # noqa: E402
from guardrail.models.claim_verifier import ClaimVerifier  # noqa: E402
from guardrail.text.sentences import split_sentences  # noqa: E402


def dev_pairs(halueval_limit: int, prefix: bool = False) -> list[dict]:
    """Dev pairs, formatted as at inference (claims as written); with ``prefix`` the question
    is put in front of every claim."""
    rows = [json.loads(line) for line in open(data_dir() / "nli" / "dev.jsonl", encoding="utf-8")]
    out = [{"evidence": r["premise"], "claim": claim_text(r["hypothesis"], r.get("context") if prefix else None),
            "label": r["label"], "source": f"nli:{r['dataset']}"} for r in rows]
    for task in ("qa", "dialogue"):
        for it in load_dev(f"halueval_{task}", split="val", limit=halueval_limit, seed=1):
            claim = claim_text(it["answer"], it["question"] if prefix else None, always=True)
            sents = [it["context"][s:e] for s, e in split_sentences(it["context"])]
            out.append({"evidence": select_evidence(claim, sents).text, "claim": claim,
                        "label": 1 - it["label"], "source": f"halueval_{task}:val"})
    return out


def metrics(pairs: list[dict], p: np.ndarray) -> dict[str, dict[str, float]]:
    from sklearn.metrics import balanced_accuracy_score, roc_auc_score

    by: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(pairs):
        by[r["source"]].append(i)
    by["all"] = list(range(len(pairs)))
    out = {}
    for src, idx in sorted(by.items()):
        y = np.array([pairs[i]["label"] for i in idx])
        q = p[idx]
        row = {"n": len(idx), "bacc@0.5": float(balanced_accuracy_score(y, q >= 0.5)) if len(set(y)) == 2 else float("nan")}
        row["roc_auc"] = float(roc_auc_score(y, q)) if len(set(y)) == 2 else float("nan")
        out[src] = {k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description="Per-source dev metrics of a verifier checkpoint.")
    ap.add_argument("--model", default="guardrail/models/verifier")
    ap.add_argument("--out", default="training/work/dev_metrics.json")
    ap.add_argument("--halueval-limit", type=int, default=600)
    ap.add_argument("--limit", type=int, default=0, help="evaluate only this many pairs (quick look)")
    ap.add_argument("--question-prefix", action="store_true", help="claims as 'Q: question A: claim'")
    args = ap.parse_args()
    pairs = dev_pairs(args.halueval_limit, args.question_prefix)
    if args.limit:
        import random

        random.Random(0).shuffle(pairs)
        pairs = pairs[: args.limit]
    v = ClaimVerifier(args.model, batch_size=32, cache_size=0)
    t0 = time.time()
    p = v.score([r["evidence"] for r in pairs], [r["claim"] for r in pairs])
    res = metrics(pairs, p)
    res["_meta"] = {"pairs": len(pairs), "seconds": round(time.time() - t0, 1), "model": args.model}
    Path(args.out).write_text(json.dumps(res, indent=1))
    for k, v2 in res.items():
        print(f"{k:32s} {v2}")


if __name__ == "__main__":
    main()
