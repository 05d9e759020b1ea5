"""Agreement of the ONNX verifier (the shipped default) with the torch weights it was exported from.

Checks dev items (``benchmarks.devdata.load_dev``: HaluEval QA, dialogue, summarisation and
QAGS-C) with two guards of the shipped default config that differ only in the verifier's
network: ONNX Runtime (``models/verifier/model.onnx``) and torch
(``models/verifier/model.safetensors``, :class:`~guardrail.models.torch_reference.TorchClaimVerifier`;
the same tokenisation). Bars (issue 17): the same verdict on >= 99 % of items, scores
within 0.02.

Writes ``benchmarks/results/onnx_agreement.json`` and ``.md``. Needs the ``train`` extra
(torch, transformers). Usage: ``python benchmarks/onnx_agreement.py [--n 100]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.devdata import load_dev  # noqa: E402
from guardrail import Guard  # noqa: E402
from guardrail.detectors import build_detectors  # noqa: E402

OUT = ROOT / "benchmarks" / "results"
DATASETS = ("halueval_qa", "halueval_dialogue", "halueval_summarization", "qags_c")


def torch_guard() -> Guard:
    """The default config with the verifier's network run by torch."""
    from guardrail.models.torch_reference import TorchClaimVerifier

    cfg = Guard().config
    names = list(cfg.detectors) + [v for v in cfg.veto if v not in cfg.detectors]
    dets = build_detectors(names, dict(cfg.detector_params))
    shared = TorchClaimVerifier()
    for d in dets:
        if getattr(d, "name", "") == "verifier":
            d._verifier = shared
    return Guard(cfg, detectors=dets)


def compare(items: list[dict], onnx: Guard, ref: Guard) -> dict[str, float]:
    """Verdict agreement and score differences over ``items``."""
    a = onnx.check_many(items)
    b = ref.check_many(items)
    same = [x.passed == y.passed for x, y in zip(a, b)]
    diff = np.array([abs(x.score - y.score) for x, y in zip(a, b)], dtype=float)
    return {"n": len(items), "verdict_agreement": float(np.mean(same)), "max_score_diff": float(diff.max()),
            "mean_score_diff": float(diff.mean()), "share_within_0.02": float(np.mean(diff <= 0.02))}


def main(argv: list[str] | None = None) -> None:
    """Command line: compare on ``--n`` items per dataset, write and print the results."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100, help="items per dataset")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)
    onnx, ref = Guard(), torch_guard()
    res = {name: compare(load_dev(name, limit=args.n, seed=args.seed), onnx, ref) for name in DATASETS}
    n = sum(r["n"] for r in res.values())
    res["all"] = {"n": n,
                  "verdict_agreement": sum(r["verdict_agreement"] * r["n"] for r in res.values()) / n,
                  "max_score_diff": max(r["max_score_diff"] for r in res.values()),
                  "share_within_0.02": sum(r["share_within_0.02"] * r["n"] for r in res.values()) / n}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "onnx_agreement.json").write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    md = ["| dataset | n | same verdict | max score diff | scores within 0.02 |", "| --- | ---: | ---: | ---: | ---: |"]
    md += [f"| {k} | {r['n']} | {100 * r['verdict_agreement']:.1f} % | {r['max_score_diff']:.4f} | "
           f"{100 * r['share_within_0.02']:.1f} % |" for k, r in res.items()]
    (OUT / "onnx_agreement.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))


if __name__ == "__main__":
    main()
