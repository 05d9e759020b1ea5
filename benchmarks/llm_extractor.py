"""LLM triple extraction against spaCy on claims-data error spans (issue 15, item 3).

For a small sample of unsupported claims of the claims dev split (each with an exact
error ``span``), both extractors build the claim's graph; reported: nodes and triples
per claim, and the share of error spans that a node covers (a node span overlapping
the error span). Results: ``benchmarks/results/llm_extractor.{json,md}``.

    python benchmarks/llm_extractor.py --n 12
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.devdata import load_claims  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"


def sample(n: int) -> list[dict[str, Any]]:
    """``n`` unsupported claims with spans, spread over the dev contexts and kinds."""
    out = []
    for ctx in load_claims("dev"):
        for c in ctx["claims"]:
            if c["label"] == 0 and c.get("span") and c["span"] in c["text"]:
                out.append({"id": f"{ctx['id']}-{c['kind']}", "text": c["text"], "span": c["span"], "kind": c["kind"]})
    step = max(1, len(out) // n)
    return out[::step][:n]


def covered(graph: Any, text: str, span: str) -> bool:
    s = text.index(span)
    e = s + len(span)
    return any(n.span is not None and n.span.start < e and n.span.end > s for n in graph.nodes)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=12)
    args = ap.parse_args(argv)
    from guardrail.extract.llm_extractor import LLMExtractor
    from guardrail.extract.spacy_extractor import SpacyExtractor
    from guardrail.llm import LLMClient
    from guardrail.llm.local import llm_endpoint

    items = sample(args.n)
    spacy = SpacyExtractor()
    rows = []
    with llm_endpoint() as url:
        llm = LLMExtractor(LLMClient(url, max_tokens=200, timeout=600), fallback="raise")
        for k, it in enumerate(items, 1):
            row: dict[str, Any] = {"id": it["id"], "kind": it["kind"], "span": it["span"]}
            for name, ex in (("spacy", spacy), ("llm", llm)):
                t0 = time.perf_counter()
                g = ex.extract(it["text"])
                row[name] = {"nodes": len(g.nodes), "triples": len(g.triples),
                             "covered": covered(g, it["text"], it["span"]), "s": round(time.perf_counter() - t0, 2)}
            rows.append(row)
            print(f"[{k}/{len(items)}] {it['id']}: spacy={row['spacy']} llm={row['llm']}", flush=True)
    summary = {name: {"nodes_per_claim": round(sum(r[name]["nodes"] for r in rows) / len(rows), 2),
                      "triples_per_claim": round(sum(r[name]["triples"] for r in rows) / len(rows), 2),
                      "error_spans_covered": round(sum(r[name]["covered"] for r in rows) / len(rows), 3),
                      "seconds_per_claim": round(sum(r[name]["s"] for r in rows) / len(rows), 2)}
               for name in ("spacy", "llm")}
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "llm_extractor.json").write_text(json.dumps({"n": len(rows), "summary": summary, "items": rows},
                                                           indent=1))
    md = ["# LLM triple extraction vs spaCy (`benchmarks/llm_extractor.py`)", "",
          f"{len(rows)} unsupported claims of the claims dev split, each with an exact error span; local "
          "Qwen2.5-Coder-1.5B-Instruct Q4_K_M on 2 shared CPU cores (seconds are an upper bound).", "",
          "| extractor | nodes / claim | triples / claim | error spans covered by a node | s / claim |",
          "|---|---|---|---|---|"]
    md += [f"| {k} | {v['nodes_per_claim']} | {v['triples_per_claim']} | {v['error_spans_covered']:.0%} | "
           f"{v['seconds_per_claim']} |" for k, v in summary.items()]
    (RESULTS / "llm_extractor.md").write_text("\n".join(md) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
