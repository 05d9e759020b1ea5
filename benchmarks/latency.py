"""Latency, throughput, memory and cold start of the default Guard on this machine.

Writes ``benchmarks/results/latency.json`` and ``latency.md``; README.md quotes them.

Measures (the bars of issue 17 in brackets):
- cold start: a new Python process, from its launch to the first verdict of
  ``Guard().check(...)`` (import, model loads, first check) [<= 2.5 s], with the import,
  load and first-check parts, and the torch modules that process imported (none expected);
- warm latency per answer, each item seen for the first time (no cached passage graph,
  embedding or verifier score of it): HaluEval QA items [median <= 15 ms], a 3-sentence
  RAG answer with a 400-word context (HaluEval summarisation documents cut to 400 words,
  the answer three of their sentences, lightly edited) [<= 50 ms], a summary of a
  500-700-word document [<= 120 ms];
- ``check_many`` items per second on the shipped demo sample
  ``examples/data/halueval_sample.jsonl`` (a fresh Guard, warm models);
- peak RSS of the measuring process (``resource.getrusage``) [<= 600 MB].

Usage: ``python benchmarks/latency.py [--n 60] [--threads N]``. Numbers mean something only
on a quiet machine: the load average is recorded with them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.devdata import load_dev  # noqa: E402
from guardrail import Guard  # noqa: E402

OUT = ROOT / "benchmarks" / "results"
SAMPLE = ROOT / "examples" / "data" / "halueval_sample.jsonl"

_COLD = (
    "import time, sys, json; t=time.perf_counter(); import guardrail; t1=time.perf_counter();"
    "g=guardrail.Guard(); g.check('Paris is in Spain.', ['Paris is the capital of France.']); t2=time.perf_counter();"
    "first_wall=time.time();"
    "g.check('Lyon is in France.', ['Lyon is a city in France.']); t3=time.perf_counter();"
    "heavy=[m for m in ('torch','transformers','sentence_transformers') if m in sys.modules];"
    "print(json.dumps({'import_s': t1-t, 'first_verdict_s': t2-t1, 'second_check_s': t3-t2, 'heavy': heavy,"
    "'first_wall': first_wall}))"
)


def machine() -> str:
    """CPU, cores and the current load average."""
    load = os.getloadavg()[0]
    return (f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPU cores, no GPU, "
            f"Python {platform.python_version()}, load average {load:.1f} at the start")


def cold_start(repeats: int = 3) -> dict[str, object]:
    """Median over ``repeats`` fresh processes of launch -> first verdict (wall-clock time from
    before the launch to the child's clock right after its first verdict; ``process_wall_s`` is the
    whole process, its second check and its exit included: tearing down the models takes a few
    tenths of a second that no caller waits for before the first verdict)."""
    runs = []
    for _ in range(repeats):
        t0, launch = time.perf_counter(), time.time()
        out = subprocess.run([sys.executable, "-c", _COLD], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
        wall = time.perf_counter() - t0
        row = json.loads(out.stdout.strip().splitlines()[-1])
        row["process_to_first_verdict_s"] = row.pop("first_wall") - launch
        row["process_wall_s"] = wall
        row["stderr_chars"] = len(out.stderr)
        runs.append(row)
    best = sorted(runs, key=lambda r: r["process_to_first_verdict_s"])[len(runs) // 2]
    return best


def per_item(guard: Guard, items: list[dict]) -> dict[str, float]:
    """Median, p90 and mean latency in ms of ``guard.check`` over ``items``."""
    times = []
    for it in items:
        t0 = time.perf_counter()
        guard.check(it["answer"], it["context"], it.get("question"), log=False)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    if not times:
        return {"n": 0, "median_ms": float("nan"), "p90_ms": float("nan"), "mean_ms": float("nan")}
    return {"n": len(times), "median_ms": statistics.median(times), "p90_ms": times[int(0.9 * (len(times) - 1))],
            "mean_ms": statistics.fmean(times)}


def rag_items(docs: list[dict], words: int = 400) -> list[dict]:
    """A 3-sentence answer over a ``words``-word context, from summarisation documents."""
    out = []
    for d in docs:
        ws = d["context"].split()
        if len(ws) < words:
            continue
        ctx = " ".join(ws[:words])
        sents = [s for s in re.split(r"(?<=[.!?])\s+", ctx) if 6 <= len(s.split()) <= 40]
        if len(sents) < 6:
            continue
        picked = [sents[1], sents[len(sents) // 2], sents[-2]]
        picked[1] = re.sub(r"\b(\d+)\b", lambda m: str(int(m.group(1)) + 1), picked[1], count=1)
        out.append({"question": "What happened?", "context": ctx, "answer": " ".join(picked)})
    return out


def throughput(items: list[dict], config: str = "default") -> dict[str, float]:
    """``check_many`` items/s on ``items`` with a fresh Guard (models already warm)."""
    guard = Guard(config)
    t0 = time.perf_counter()
    guard.check_many(items)
    dt = time.perf_counter() - t0
    return {"n": len(items), "seconds": dt, "items_per_s": len(items) / dt}


def main(argv: list[str] | None = None) -> None:
    """Command line: run every measure, write the results, print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=60, help="items per kind for the warm latencies")
    ap.add_argument("--sample-n", type=int, default=0, help="demo-sample items for check_many (0: all)")
    ap.add_argument("--cold-repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None, help="intra-op threads (default: the library's)")
    ap.add_argument("--config", default="default",
                    help="a shipped config name or a config file (another than the default writes latency_<stem>.*)")
    args = ap.parse_args(argv)
    if args.threads:
        os.environ["KG_GUARDRAIL_THREADS"] = str(args.threads)
    res: dict[str, object] = {"machine": machine(), "cold_start": cold_start(args.cold_repeats)}
    guard = Guard(args.config).warm_up()
    res["config"] = args.config
    qa = load_dev("halueval_qa", limit=args.n, seed=1)
    docs = load_dev("halueval_summarization", limit=max(600, 4 * args.n), seed=1)
    summ = [it for it in docs if 500 <= len(it["context"].split()) <= 700][: args.n]
    res["halueval_qa"] = per_item(guard, qa)
    res["rag_3_sentences_400w"] = per_item(guard, rag_items(docs[::-1])[: args.n])
    res["summary_600w"] = per_item(guard, summ)
    sample = [json.loads(line) for line in SAMPLE.open(encoding="utf-8")]
    res["check_many_demo_sample"] = throughput(sample[: args.sample_n or None], args.config)
    res["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    res["threads"] = __import__("guardrail.models.runtime", fromlist=["threads"]).threads()
    OUT.mkdir(parents=True, exist_ok=True)
    stem = "latency" if args.config == "default" else f"latency_{Path(args.config).stem}"
    (OUT / f"{stem}.json").write_text(json.dumps(res, indent=2) + "\n")
    (OUT / f"{stem}.md").write_text(render(res))
    print(render(res))


def render(r: dict) -> str:
    """Markdown table of the results."""
    c, m = r["cold_start"], r["check_many_demo_sample"]
    rows = [("HaluEval QA", r["halueval_qa"], 15), ("3-sentence RAG answer, 400-word context",
                                                    r["rag_3_sentences_400w"], 50),
            ("summary of a 500-700-word document", r["summary_600w"], 120)]
    lines = [f"Machine: {r['machine']}; {r['threads']} intra-op threads; config {r.get('config', 'default')}.", "",
             "| input | n | warm median (ms) | p90 (ms) | bar (ms) |", "| --- | ---: | ---: | ---: | ---: |"]
    lines += [f"| {name} | {d['n']} | {d['median_ms']:.0f} | {d['p90_ms']:.0f} | {bar} |" for name, d, bar in rows]
    lines += ["",
              f"Cold start (new process to first verdict): **{c['process_to_first_verdict_s']:.2f} s** "
              f"(import {c['import_s']:.2f} s, Guard() + first check {c['first_verdict_s']:.2f} s; the whole process, "
              f"a second check and its exit included, {c['process_wall_s']:.2f} s; torch-family "
              f"modules imported: {c['heavy'] or 'none'}; {c['stderr_chars']} characters on stderr).",
              f"`check_many` on the demo sample: {m['n']} items in {m['seconds']:.1f} s = "
              f"**{m['items_per_s']:.1f} items/s**. Peak RSS: **{r['peak_rss_mb']:.0f} MB**."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
