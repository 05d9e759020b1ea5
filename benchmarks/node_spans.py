"""Is the flagged node the error? (issue 23, item 5: node spans come from the signal that decided)

For wrong answers with a known error span, caught by the shipped default: the share whose
flagged nodes include one inside the span (*hit*), the share of flagged nodes that lie inside it
(*precision*), and flagged nodes per answer; with the verifier's occlusion step
(:mod:`guardrail.detectors.occlusion`) on (shipped) and off.

Sets: the realistic dev answers with one wrong fact or one added detail
(``benchmarks/data/realistic.jsonl``, ``error_span``), and the claims dev split part b
(contexts ending in 5) unsupported claims with an error ``span``.

    python benchmarks/node_spans.py            # writes benchmarks/results/node_spans.{md,json}
"""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.devdata import load_claims  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"


def items() -> list[dict[str, Any]]:
    """``{set, kind, answer, contexts, question, span}`` for every wrong answer with an error span."""
    out = []
    for line in (ROOT / "benchmarks/data/realistic.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line) if line.strip() else None
        if r and r.get("error_span"):
            out.append({"set": "realistic", "kind": r["error_type"] if r.get("error_type") else r["style"],
                        "answer": r["answer"], "contexts": [r["context"]], "question": r["question"],
                        "span": tuple(r["error_span"])})
    for ctx in load_claims("dev"):
        if not ctx["id"].endswith("5"):
            continue
        for c in ctx["claims"]:
            s = c["text"].find(c.get("span") or "\0")
            if int(c["label"]) == 0 and s >= 0:
                out.append({"set": "claims_b", "kind": c["kind"], "answer": c["text"], "contexts": ctx["passages"],
                            "question": ctx.get("question"), "span": (s, s + len(c["span"]))})
    return out


def score(guard: Any, rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per set (and ``all``): caught, hit, precision, flagged nodes per caught answer."""
    acc: dict[str, dict[str, float]] = {}
    for it in rows:
        r = guard.check(it["answer"], it["contexts"], it["question"], log=False)
        if r.passed or r.abstained:
            continue
        s, e = it["span"]
        inside = [n.span is not None and n.span.start < e and n.span.end > s for n in r.flagged_nodes]
        for key in (it["set"], "all"):
            a = acc.setdefault(key, {"caught": 0, "hit": 0, "precision": 0.0, "nodes": 0})
            a["caught"] += 1
            a["hit"] += any(inside)
            a["precision"] += sum(inside) / len(inside) if inside else 0.0
            a["nodes"] += len(inside)
    return {k: {"caught": int(a["caught"]), "hit": round(a["hit"] / a["caught"], 3),
                "precision": round(a["precision"] / a["caught"], 3),
                "nodes_per_answer": round(a["nodes"] / a["caught"], 2)} for k, a in acc.items()}


def main() -> None:
    from guardrail import Guard
    from guardrail.config import load_config

    rows = items()
    base = load_config("default")
    params = {**base.detector_params, "verifier": {**base.detector_params.get("verifier", {}), "occlusion": False}}
    out: dict[str, Any] = {"n": len(rows), "machine": f"{platform.machine()} {platform.python_version()}"}
    for name, cfg in (("occlusion", base), ("no_occlusion", base.model_copy(update={"detector_params": params}))):
        t0 = time.perf_counter()
        out[name] = score(Guard(cfg), rows)
        out[name + "_seconds"] = round(time.perf_counter() - t0, 1)
        print(name, out[name], flush=True)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "node_spans.json").write_text(json.dumps(out, indent=1) + "\n")
    lines = ["# Is the flagged node the error? (`benchmarks/node_spans.py`)", "",
             f"{len(rows)} wrong answers with a known error span; those the shipped default catches are scored. "
             "hit: a flagged node lies in the error span; precision: share of flagged nodes in it.", "",
             "| verifier step | set | caught | hit | precision | flagged nodes per answer |", "|---|---|---|---|---|---|"]
    for name in ("occlusion", "no_occlusion"):
        for key, v in sorted(out[name].items()):
            lines.append(f"| {name} | {key} | {v['caught']} | {v['hit']} | {v['precision']} | {v['nodes_per_answer']} |")
    (RESULTS / "node_spans.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
