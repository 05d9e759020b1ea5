"""Latency, throughput, memory and cold start of the default Guard on this machine.

Writes ``benchmarks/results/latency.json`` and ``latency.md``; README.md quotes them.

Measures, on one process:
- cold start: ``import guardrail`` plus model load (spaCy + MiniLM) plus the first check,
  in a fresh subprocess;
- warm latency per answer (median, p90) on HaluEval QA items, HaluEval summaries of
  500-700-word documents and QAGS-C items, each item seen for the first time (no cached
  passage graph, no cached embeddings or verifier scores of it);
- items per second for ``check_many`` over fresh items;
- peak RSS (``resource.getrusage``);
- how time grows with context length (1k, 4k, 16k words of context).

Usage: ``python benchmarks/latency.py [--n 60]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from guardrail import Guard  # noqa: E402
from benchmarks.devdata import load_dev  # noqa: E402

OUT = ROOT / "benchmarks" / "results"


def machine() -> str:
    import os

    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPU cores, no GPU, Python {platform.python_version()}"


def cold_start() -> dict[str, float]:
    code = (
        "import time; t=time.perf_counter(); import guardrail; t1=time.perf_counter();"
        "g=guardrail.Guard().warm_up(); t2=time.perf_counter();"
        "g.check('Paris is in Spain.', ['Paris is the capital of France.']); t3=time.perf_counter();"
        "print(t1-t, t2-t1, t3-t2)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    imp, load, first = (float(x) for x in out.stdout.split()[-3:])
    return {"import_s": imp, "model_load_s": load, "first_check_s": first, "total_s": imp + load + first}


def per_item(guard: Guard, items: list[dict]) -> dict[str, float]:
    times = []
    for it in items:
        t0 = time.perf_counter()
        guard.check(it["answer"], it["context"], it.get("question"))
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return {
        "n": len(times),
        "median_ms": statistics.median(times),
        "p90_ms": times[int(0.9 * (len(times) - 1))],
        "mean_ms": statistics.fmean(times),
    }


def throughput(guard: Guard, items: list[dict]) -> float:
    t0 = time.perf_counter()
    guard.check_many(items)
    return len(items) / (time.perf_counter() - t0)


def context_growth(guard: Guard, docs: list[str]) -> list[dict[str, float]]:
    words = " ".join(docs).split()
    answer = "The prosecutor said that no videos were used in the crash investigation."
    rows = []
    for n in (1_000, 4_000, 16_000):
        ctx = " ".join((words * (n // max(len(words), 1) + 1))[:n])
        # split into ~200-word passages, as a retriever would return them
        ws = ctx.split()
        passages = [" ".join(ws[i : i + 200]) for i in range(0, len(ws), 200)]
        guard._cache.clear()  # measure parsing too: a fresh context each time
        t0 = time.perf_counter()
        guard.check(answer, passages)
        rows.append({"context_words": n, "ms": (time.perf_counter() - t0) * 1000})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=60, help="items per dataset for latency")
    args = ap.parse_args()
    cold = cold_start()
    guard = Guard().warm_up()
    qa = load_dev("halueval_qa", limit=2 * args.n + 200, seed=1)
    qags = load_dev("qags_c", limit=args.n + 60, seed=1)
    summ = [it for it in load_dev("halueval_summarization", limit=600, seed=1)
            if 500 <= len(it["context"].split()) <= 700][: args.n]
    res = {
        "machine": machine(),
        "cold_start": cold,
        "halueval_qa": per_item(guard, qa[: args.n]),
        "qags_c": per_item(guard, qags[: args.n]),
        "summary_600w": per_item(guard, summ),
        "check_many_items_per_s": {
            "halueval_qa": throughput(guard, qa[args.n : args.n + 200]),
            "qags_c": throughput(guard, qags[args.n : args.n + 60]),
        },
        "context_growth": context_growth(guard, [q["context"] for q in qags[:30]]),
    }
    res["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "latency.json").write_text(json.dumps(res, indent=2) + "\n")
    (OUT / "latency.md").write_text(render(res))
    print(render(res))


def render(r: dict) -> str:
    lines = [
        f"Machine: {r['machine']}",
        "",
        "| measure | HaluEval QA | HaluEval summary, 500-700-word document | QAGS-C |",
        "| --- | --- | --- | --- |",
        f"| warm latency median (ms) | {r['halueval_qa']['median_ms']:.0f} | {r['summary_600w']['median_ms']:.0f} | "
        f"{r['qags_c']['median_ms']:.0f} |",
        f"| warm latency p90 (ms) | {r['halueval_qa']['p90_ms']:.0f} | {r['summary_600w']['p90_ms']:.0f} | "
        f"{r['qags_c']['p90_ms']:.0f} |",
        f"| check_many items/s | {r['check_many_items_per_s']['halueval_qa']:.1f} | | "
        f"{r['check_many_items_per_s']['qags_c']:.1f} |",
        "",
        f"Cold start: import {r['cold_start']['import_s']:.1f} s + model load {r['cold_start']['model_load_s']:.1f} s"
        f" + first check {r['cold_start']['first_check_s']:.2f} s; peak RSS {r['peak_rss_mb']:.0f} MB.",
        "",
        "| context words | latency (ms) |",
        "| --- | --- |",
    ]
    lines += [f"| {row['context_words']:,} | {row['ms']:.0f} |" for row in r["context_growth"]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
