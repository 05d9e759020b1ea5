"""Items per second: one process (``run_guard``) against Ray Data (``guardrail.batch.audit``).

Writes ``benchmarks/results/ray.json`` and ``ray.md``. Both paths check the same HaluEval QA
dev items (``load_dev("halueval_qa")``, passages not seen before by either process) with the
same config; each starts cold, so start-up (model load; for Ray also ``ray.init`` and one
model load per worker) is measured separately from the steady rate.

Usage: ``python benchmarks/ray_throughput.py [--n 2000] [--num-cpus 2] [--config FILE]``
(needs the ``ray`` extra). Without ``--config`` the detectors are ``grounding`` + ``entity``
(spaCy + MiniLM only), so the figures do not depend on trained weights; ``--config
guardrail/configs/default.json`` measures the shipped default (the ONNX claim verifier).
The one-process run uses the library's default threads (``min(2, cores)``), each Ray worker
one thread (``KG_GUARDRAIL_THREADS=1``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.devdata import load_dev, write_jsonl  # noqa: E402
from guardrail.cli.app import read_items, run_guard  # noqa: E402
from guardrail.guard import Guard  # noqa: E402

OUT = ROOT / "benchmarks" / "results"
CONFIG = {"name": "bench-grounding-entity", "detectors": ["grounding", "entity"], "aggregation": "mean",
          "threshold": 0.3}


def local_run(path: Path, config: str, batch_size: int) -> dict[str, float]:
    t0 = time.perf_counter()
    guard = Guard(config).warm_up()
    start = time.perf_counter() - t0
    lines = read_items(path)
    t1 = time.perf_counter()
    n = sum(1 for _ in run_guard(guard, lines, batch_size, progress=False))
    run = time.perf_counter() - t1
    return {"n": n, "startup_s": start, "run_s": run, "total_s": start + run, "items_per_s": n / run,
            "items_per_s_with_startup": n / (start + run)}


def ray_run(path: Path, config: str, batch_size: int, num_cpus: int) -> dict[str, float]:
    from guardrail.batch import audit, init_ray

    # one intra-op thread per Ray worker (workers inherit the driver's environment at
    # ray.init): num_cpus workers x the default 2 threads would oversubscribe the cores
    os.environ.setdefault("KG_GUARDRAIL_THREADS", "1")
    t0 = time.perf_counter()
    init_ray(num_cpus=num_cpus)
    init = time.perf_counter() - t0
    res = audit(path, config, num_cpus=num_cpus, batch_size=batch_size)
    total = init + res.elapsed_s
    steady = res.elapsed_s - res.startup_s
    # results reach the driver a block at a time: a rate after the first result means
    # something only when that result came well before the end
    rate = (res.n - 1) / steady if steady > 0.25 * res.elapsed_s else float("nan")
    return {"n": res.n, "ray_init_s": init, "first_result_s": init + res.startup_s, "run_s": res.elapsed_s,
            "total_s": total, "items_per_s": rate, "items_per_s_with_startup": res.n / total,
            "workers": res.workers}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--num-cpus", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--config", default=None)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    config = args.config
    if config is None:
        config = str(tmp / "config.json")
        Path(config).write_text(json.dumps(CONFIG), encoding="utf-8")
    items = load_dev("halueval_qa", limit=2 * args.n, seed=1)
    a, b = tmp / "a.jsonl", tmp / "b.jsonl"  # disjoint halves: neither run sees the other's passages
    write_jsonl(items[: args.n], a)
    write_jsonl(items[args.n : 2 * args.n], b)
    local = local_run(a, config, args.batch_size)
    print("local", local, flush=True)
    ray = ray_run(b, config, args.batch_size, args.num_cpus)
    print("ray", ray, flush=True)
    load = os.getloadavg()
    result = {"n": args.n, "num_cpus": args.num_cpus, "batch_size": args.batch_size, "config": args.config or CONFIG,
              "machine": f"{platform.machine()}, {os.cpu_count()} CPU cores, load average {load[0]:.1f}",
              "python": platform.python_version(), "local": local, "ray": ray}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "ray.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    rows = [("items checked", local["n"], ray["n"]),
            ("start-up (s): model load; Ray: ray.init, then first result", f"{local['startup_s']:.1f}",
             f"{ray['ray_init_s']:.1f}, {ray['first_result_s']:.1f}"),
            ("steady rate (items/s)", f"{local['items_per_s']:.2f}", f"{ray['items_per_s']:.2f}"),
            ("wall time incl. start-up (s)", f"{local['total_s']:.1f}", f"{ray['total_s']:.1f}"),
            ("rate incl. start-up (items/s)", f"{local['items_per_s_with_startup']:.2f}",
             f"{ray['items_per_s_with_startup']:.2f}")]
    md = [f"# Ray Data vs one process ({args.n} HaluEval QA items, {args.num_cpus} Ray workers)", "",
          f"`python benchmarks/ray_throughput.py --n {args.n} --num-cpus {args.num_cpus}"
          f"{' --config ' + args.config if args.config else ''}` on {result['machine']}, "
          f"Python {result['python']}.", "", "| measure | one process | Ray Data |", "| --- | --- | --- |"]
    md += [f"| {k} | {x} | {y} |" for k, x, y in rows]
    (OUT / "ray.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))


if __name__ == "__main__":
    main()
