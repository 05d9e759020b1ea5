"""Fit the shipped default's threshold on every tune split: HaluEval and QAGS-C tune (the
scores cached by ``benchmarks/quality.py``) and part a of the claims data's dev split
(answers composed of reworded claims, with and without one minimal-edit error).

The threshold maximises the mean balanced accuracy over the five sets (one threshold for
every kind of input). The claims data's part b, the dev *val* splits and the realistic set are
never read here.

Usage::

    python benchmarks/quality.py --limit 160 --long-limit 60 --scores-only --detectors verifier
    python benchmarks/calibrate_default.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from benchmarks.claims import answer_items, claim_items, dev_part  # noqa: E402
from guardrail import Guard  # noqa: E402
from guardrail.aggregate import macro_threshold  # noqa: E402
from guardrail.config import GuardConfig, save_config  # noqa: E402

DEV = ("halueval_qa", "halueval_dialogue", "halueval_summarization", "qags_c")


def main() -> None:
    scores = json.loads((ROOT / "benchmarks" / "results" / "quality_scores.json").read_text())
    rows, labels, groups = [], [], []
    for name in DEV:
        for r in scores[name]["tune"]:
            if not r["abstained"]:
                rows.append(r["scores"]["verifier"])
                labels.append(r["label"])
                groups.append(name)
    guard = Guard(GuardConfig(name="candidates", detectors=["verifier"]))
    ctxs = dev_part("a")
    for kind, items in (("claims_answers", answer_items(ctxs)), ("claims_claims", claim_items(ctxs))):
        res = guard.check_many([{"answer": it["answer"], "contexts": it["contexts"], "question": it["question"]}
                                for it in items])
        for it, r in zip(items, res):
            if not r.abstained and not r.declined:  # the guard scores neither
                rows.append(r.detector_scores["verifier"])
                labels.append(it["label"])
                groups.append(kind)
    t = macro_threshold(rows, labels, groups, reduce="mean")
    cfg = GuardConfig(name="default", detectors=["verifier"], aggregation="max", weights={"verifier": 1.0},
                      threshold=round(t, 4), node_threshold=0.5, node_source="verifier",
                      detector_params={"verifier": {"unit_threshold": round(1.0 - t, 4)}})
    save_config(cfg, ROOT / "guardrail" / "configs" / "default.json")
    print(f"default: verifier, threshold {cfg.threshold:.4f} (claims with p(supported) < {1 - t:.4f} fail); "
          f"{len(rows)} tune rows in {len(set(groups))} sets")


if __name__ == "__main__":
    main()
