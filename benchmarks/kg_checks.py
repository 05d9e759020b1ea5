"""Each knowledge-graph contradiction check alone, per claim kind, on the claims data.

Every claim of the chosen contexts is checked as the whole answer against its passages
(the question is given too) by each check of ``CHECKS`` on its own; a claim counts as
flagged when the check raises at least one flag (score > 0). The table gives the share
flagged per claim kind (for unsupported kinds that is the catch rate, for supported kinds
the false-flag rate) for each check and for their union.

The checks were tuned on the claims *train* contexts and on dev part a (context numbers
ending in 0); part b (ending in 5) is only reported.

Usage::

    python benchmarks/kg_checks.py [--part b|a|train] [--limit N] [--out benchmarks/results/kg_checks]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.devdata import load_claims  # noqa: E402
from guardrail.detectors import build_detector  # noqa: E402
from guardrail.detectors.base import AlignmentInput  # noqa: E402
from guardrail.types import KnowledgeGraph  # noqa: E402

CHECKS = ("kg_slots", "kg_roles", "kg_exchanged", "kg_literals", "kg_negation", "kg_swaps")
UNSUPPORTED = ("entity", "role_swap", "date", "number", "negation", "unit_scope", "extrinsic", "partial",
               "wrong_short", "chat_unsupported")
SUPPORTED = ("paraphrase", "synthesis", "extractive", "short_answer", "chat")


def contexts(part: str, limit: int | None = None) -> list[dict[str, Any]]:
    """Claims-data contexts: ``train``, or dev part ``a`` (number ending in 0) / ``b`` (5)."""
    if part == "train":
        ctxs = load_claims("train")
    else:
        end = {"a": 0, "b": 5}[part]
        ctxs = [c for c in load_claims("dev") if int(c["id"].rsplit("-", 1)[-1]) % 10 == end]
    if limit:
        ctxs = random.Random(0).sample(ctxs, min(limit, len(ctxs)))
    return ctxs


def items(ctxs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One item per claim; ``kind`` and ``label`` (1 = supported) as in the data."""
    return [{"answer": c["text"], "contexts": tuple(x["passages"]), "question": x.get("question") or None,
             "kind": c["kind"], "label": int(c["label"]), "id": x["id"], "span": c.get("span")}
            for x in ctxs for c in x["claims"]]


def alignment(it: dict[str, Any]) -> AlignmentInput:
    """The detector input of one claim (the checks read text, not the graphs or the encoder)."""
    return AlignmentInput(answer=it["answer"], contexts=it["contexts"], question=it["question"],
                          claim_graph=KnowledgeGraph(), context_graph=KnowledgeGraph(),
                          encoder=None)  # type: ignore[arg-type]


def run(part: str, limit: int | None, checks: tuple[str, ...] = CHECKS) -> dict[str, Any]:
    """Flags of every check on every claim of ``part``, shares per kind and latency."""
    from guardrail.align.text_parses import parse_sentences

    its = items(contexts(part, limit))
    t0 = time.perf_counter()
    for it in its:  # parse once (cached), so the checks' times below exclude parsing
        parse_sentences([it["answer"]], source_of=-1)
        parse_sentences(list(it["contexts"]))
    parse_ms = (time.perf_counter() - t0) * 1000 / max(1, len(its))
    flagged: dict[str, list[bool]] = {}
    ms: dict[str, float] = {}
    examples: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for name in checks:
        det = build_detector(name)
        t0 = time.perf_counter()
        outs = [det.detect(alignment(it)) for it in its]
        ms[name] = round((time.perf_counter() - t0) * 1000 / max(1, len(its)), 2)
        flagged[name] = [o.score > 0 for o in outs]
        for it, o in zip(its, outs):
            if o.score > 0 and len(examples[name]) < 400:
                examples[name].append({"kind": it["kind"], "answer": it["answer"],
                                       "flags": [f["reason"] for f in o.details["flags"]]})
    flagged["union"] = [any(flagged[n][i] for n in checks) for i in range(len(its))]
    table: dict[str, dict[str, Any]] = {}
    by_kind: dict[str, list[int]] = defaultdict(list)
    for i, it in enumerate(its):
        by_kind[it["kind"]].append(i)
    for kind in [*UNSUPPORTED, *SUPPORTED]:
        idx = by_kind.get(kind, [])
        if idx:
            table[kind] = {"n": len(idx), **{n: round(sum(flagged[n][i] for i in idx) / len(idx), 3)
                                             for n in [*checks, "union"]}}
    return {"part": part, "checks": list(checks), "claims": len(its), "table": table, "ms_per_claim": ms,
            "parse_ms_per_claim": round(parse_ms, 2), "examples": examples}


def write_md(res: dict[str, Any], path: Path) -> None:
    """The per-kind table as markdown."""
    cols = [*res["checks"], "union"]
    lines = [f"# Knowledge-graph checks alone, claims data part {res['part']} ({res['claims']} claims)", "",
             "Share of claims flagged (at least one flag) by each check alone and by their union. For "
             "unsupported kinds this is the catch rate; for supported kinds (below the rule) the false-flag "
             "rate. Tuned on the claims train contexts and dev part a; part b is only reported.", "",
             f"Machine: {platform.machine()}, Python {platform.python_version()}, 2 shared cores. Parsing "
             f"(spaCy + value normalisation, shared by the checks, cached): {res['parse_ms_per_claim']} ms "
             "per claim; then per check: " + ", ".join(f"{k} {v} ms" for k, v in res["ms_per_claim"].items())
             + ".", "",
             "| kind | n | " + " | ".join(cols) + " |", "|---|---|" + "---|" * len(cols)]
    for kind, row in res["table"].items():
        if kind == SUPPORTED[0]:
            lines.append("| *supported:* | | " + " | ".join("" for _ in cols) + " |")
        lines.append(f"| {kind} | {row['n']} | " + " | ".join(f"{row[c]:.3f}" for c in cols) + " |")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", default="b", choices=["a", "b", "train"])
    ap.add_argument("--limit", type=int, default=None, help="contexts (default all)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "kg_checks"))
    ap.add_argument("--checks", default=",".join(CHECKS), help="comma-separated check names")
    ap.add_argument("--examples", default=None, help="write the flagged claims and reasons to this JSON file")
    a = ap.parse_args()
    res = run(a.part, a.limit, tuple(a.checks.split(",")))
    if a.examples:
        Path(a.examples).write_text(json.dumps(res["examples"], indent=1), encoding="utf-8")
    res.pop("examples")
    Path(a.out + ".json").write_text(json.dumps(res, indent=1), encoding="utf-8")
    write_md(res, Path(a.out + ".md"))
    print(Path(a.out + ".md").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
