"""Knowledge-base grounding benchmark: hand-written answers checked with ``Guard(kb=...)``.

Data (``benchmarks/data/kb_natural/``, written by hand, CC BY 4.0): ``vellmark.ttl``, a KB of
invented people, organisations, works and places (34 facts about 19 entities, plus names
that stand in no fact of their own); ``answers.jsonl``, 128 natural answer sentences, two
restating each of 32 facts in other words ("The food maker Kestrel Foods was founded by
Oren Vask.") and two with one object, date or number swapped, often for a name found
elsewhere in the KB ("Oren Vask founded Tarrow Athletic."); ``passages.json``, one retrieved
passage per entity that neither states nor contradicts the facts checked.

To measure at a realistic size the KB is padded (``--pad-to``, default 5,000 triples) with
generated filler entities (labels and facts of their own, never named by an answer), so the
entity linker's name index and the fact queries run on a KB of that size.

Each answer is checked by ``Guard(kb=...)`` (the shipped config plus the ``kb_facts`` veto)
with the KB alone (``guard.check(answer, question=...)``) and with the KB and the entity's
passage (KB + text). Reported: swaps caught, right answers passed, the flagged node is the
swapped one (among caught swaps), the flagged node names the swapped fact's KB triple,
abstentions, SPARQL queries per answer, the KB step's milliseconds (linking + fetching) and
the whole check's.

Usage: ``python benchmarks/kb.py [--pad-to 5000] [--limit N]``; writes
``benchmarks/results/kb.md`` and ``kb.json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from guardrail import Guard  # noqa: E402
from guardrail.kb import CountingKB, OxigraphKB  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "kb_natural"
OUT = ROOT / "benchmarks" / "results"
NS = "http://kg-guardrail.example/vellmark/"
BARS = {"caught": 85.0, "right_pass": 90.0, "node_is_swap": 80.0}


def filler(n_triples: int, seed: int = 0) -> str:
    """Turtle of generated entities (4 triples each: a label and three facts) filling ``n_triples``."""
    rng = random.Random(seed)
    n = max(0, -(-n_triples // 4))
    lines = [f"@prefix f: <{NS}filler/> .", "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> ."]
    for i in range(n):
        a, b = rng.randrange(n), rng.randrange(n)
        lines.append(f'f:E{i} rdfs:label "Registry item {i:05d}" ; f:linkedTo f:E{a} ; f:filedWith f:E{b} ; '
                     f'f:serial "{rng.randrange(10**6):06d}" .')
    return "\n".join(lines) + "\n"


def load_kb(pad_to: int) -> OxigraphKB:
    """The Vellmark KB, padded with filler entities to about ``pad_to`` triples."""
    base = OxigraphKB(DATA / "vellmark.ttl")
    missing = pad_to - len(base)
    if missing <= 0:
        return base
    return OxigraphKB(DATA / "vellmark.ttl", data=filler(missing))


def _overlaps(node: str, swapped: str) -> bool:
    a, b = node.lower(), swapped.lower()
    return a in b or b in a


def run_one(guard: Guard, counting: CountingKB, row: dict[str, Any], passage: str | None) -> dict[str, Any]:
    """Check one answer; its verdict, flagged nodes, KB triples, queries and timings."""
    before = counting.count
    t0 = time.perf_counter()
    r = guard.check(row["answer"], [passage] if passage else None, row["question"], log=False)
    ms = (time.perf_counter() - t0) * 1000.0
    s, p = (NS + x for x in row["fact"])
    flagged = [n.text for n in r.flagged_nodes]
    facts = [list(n.kb_fact) for n in r.flagged_nodes if n.kb_fact]
    out = {"id": row["id"], "kind": row["kind"], "answer": row["answer"], "passed": r.passed,
           "abstained": r.abstained, "flagged": flagged, "kb_facts": facts, "queries": counting.count - before,
           "kb_ms": r.timings.get("kb", 0.0), "check_ms": ms, "scores": r.detector_scores}
    if row["kind"] == "swap":
        out["node_is_swap"] = any(_overlaps(t, row["swapped"]) for t in flagged) if flagged else None
        out["kb_triple_is_fact"] = any(f[0] == s and f[1] == p for f in facts) if flagged else None
    return out


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Rates (in %) and timings of one setting."""
    right = [r for r in rows if r["kind"] == "right"]
    swap = [r for r in rows if r["kind"] == "swap"]
    caught = [r for r in swap if not r["passed"]]
    with_nodes = [r for r in caught if r["node_is_swap"] is not None]

    def pct(k: int, n: int) -> float:
        return round(100.0 * k / n, 1) if n else 0.0

    kb_ms = sorted(r["kb_ms"] for r in rows)
    return {
        "n_right": len(right), "n_swap": len(swap),
        "caught": pct(len(caught), len(swap)),
        "right_pass": pct(sum(r["passed"] for r in right), len(right)),
        "node_is_swap": pct(sum(bool(r["node_is_swap"]) for r in with_nodes), len(with_nodes)),
        "n_with_nodes": len(with_nodes),
        "kb_triple_is_fact": pct(sum(bool(r["kb_triple_is_fact"]) for r in with_nodes), len(with_nodes)),
        "abstained": pct(sum(r["abstained"] for r in rows), len(rows)),
        "queries_mean": round(statistics.mean(r["queries"] for r in rows), 2),
        "queries_max": max(r["queries"] for r in rows),
        "kb_ms_median": round(statistics.median(kb_ms), 2),
        "kb_ms_p90": round(kb_ms[int(0.9 * (len(kb_ms) - 1))], 2),
        "check_ms_median": round(statistics.median(r["check_ms"] for r in rows), 1),
    }


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and write ``kb.md`` and ``kb.json``."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pad-to", type=int, default=5000, help="Pad the KB to this many triples.")
    ap.add_argument("--limit", type=int, default=0, help="Check only the first N answers (0 = all).")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    rows = [json.loads(x) for x in (DATA / "answers.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    rows = rows[: args.limit or None]
    passages = json.loads((DATA / "passages.json").read_text(encoding="utf-8"))
    kb = load_kb(args.pad_to)
    counting = CountingKB(kb)
    guard = Guard(kb=counting).warm_up()
    t0 = time.perf_counter()
    counting.count = 0
    results: dict[str, list[dict[str, Any]]] = {"kb": [], "kb+text": []}
    for row in rows:
        results["kb"].append(run_one(guard, counting, row, None))
        results["kb+text"].append(run_one(guard, counting, row, passages[row["fact"][0]]))
    summary = {k: summarise(v) for k, v in results.items()}
    meta = {"triples": len(kb), "answers": len(rows), "config": guard.config.name + "+kb",
            "seconds": round(time.perf_counter() - t0, 1), "machine": f"{platform.machine()}, {platform.processor()}",
            "bars": BARS}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "kb.json").write_text(json.dumps({"meta": meta, "summary": summary, "rows": results}, indent=1,
                                                 ensure_ascii=False) + "\n", encoding="utf-8")
    (args.out / "kb.md").write_text(report(meta, summary, results), encoding="utf-8")
    print(report(meta, summary, results))


def report(meta: dict[str, Any], summary: dict[str, Any], results: dict[str, list[dict[str, Any]]]) -> str:
    """The Markdown report."""
    lines = [
        "# Knowledge-base grounding: hand-written answers (`benchmarks/kb.py`)", "",
        f"{meta['answers']} hand-written answers about the Vellmark KB (`benchmarks/data/kb_natural/`, CC BY 4.0): "
        f"half restate a KB fact in other words, half swap one object, date or number (often for a name found "
        f"elsewhere in the KB). Checked by `Guard(kb=...)` (config `{meta['config']}`: the shipped config plus the "
        f"`kb_facts` veto) on the embedded store, the KB padded with filler entities to {meta['triples']:,} triples; "
        f"with the KB alone and with the KB plus one retrieved passage about the entity. Bars (issue 26): swaps "
        f"caught >= {BARS['caught']:.0f} %, right answers pass >= {BARS['right_pass']:.0f} %, flagged node = "
        f"swapped one >= {BARS['node_is_swap']:.0f} %. {meta['seconds']} s in all.", "",
        "| context | swaps caught % | right pass % | flagged = swapped % (n) | flagged node names the fact's KB "
        "triple % | abstained % | SPARQL queries / answer (max) | KB step ms median (p90) | check ms median |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for k, s in summary.items():
        lines.append(f"| {k} | {s['caught']} | {s['right_pass']} | {s['node_is_swap']} ({s['n_with_nodes']}) | "
                     f"{s['kb_triple_is_fact']} | {s['abstained']} | {s['queries_mean']} ({s['queries_max']}) | "
                     f"{s['kb_ms_median']} ({s['kb_ms_p90']}) | {s['check_ms_median']} |")
    lines += ["", "Misses with the KB alone (right answers flagged, swaps passed):", ""]
    for r in results["kb"]:
        if (r["kind"] == "right") != r["passed"]:
            lines.append(f"- [{r['kind']}] {r['answer']!r}: passed={r['passed']} flagged={r['flagged']} "
                         f"scores={ {k: round(v, 2) for k, v in r['scores'].items()} }")
    lines += ["", "Examples (KB alone):", ""]
    for r in results["kb"][:8]:
        lines.append(f"- [{r['kind']}] {r['answer']!r}: passed={r['passed']} flagged={r['flagged']} "
                     f"kb_triple={r['kb_facts'][0] if r['kb_facts'] else None}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
