"""Worst inputs the default Guard accepts: time and peak RSS per input.

Each case runs in a fresh subprocess (so its peak RSS is its own): the guard is built
and warmed up first, then the clock runs over the one call under test. Cases sit at the
guard's own limits (the loosest of its configs' ``max_answer_chars``,
``max_context_chars`` and ``max_passages``), built from the HaluEval sample shipped in
``examples/data/`` (distinct passages, concatenated and cut to size), plus degenerate
and oversize inputs that must abstain at once. The bar: every case finishes within
30 s and 2 GB RSS on 2 CPU cores.

Writes ``benchmarks/results/robustness.md``. Usage:
``python benchmarks/robustness.py [--timeout 120] [--only CASE ...]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SAMPLE = ROOT / "examples" / "data" / "halueval_sample.jsonl"
OUT = ROOT / "benchmarks" / "results" / "robustness.md"
BAR_S, BAR_MB = 30.0, 2048

CASES = {
    "answer_at_limit": "answer of max_answer_chars of prose, 2,000-char context, with a question",
    "context_at_limit": "context of max_context_chars of prose (one passage), short answer, no question",
    "both_at_limit": "answer and context both at their limits",
    "max_passages_check": "max_passages distinct one-sentence passages, check()",
    "max_passages_check_many": "check_many of 20 items sharing max_passages passages",
    "repeated_token_context": '"a " repeated up to max_context_chars (degenerate: abstains)',
    "repeated_token_answer": '"a " repeated up to max_answer_chars (degenerate: abstains)',
    "oversize_context_10mb": "10 MB context (over the limit: abstains before any work)",
    "oversize_answer_1mb": "1 MB answer (over the limit: abstains before any work)",
    "too_many_passages": "100,000 passages (over max_passages: abstains before any work)",
}


def _prose() -> tuple[str, list[str]]:
    rows = [json.loads(line) for line in SAMPLE.open(encoding="utf-8")]
    passages = list(dict.fromkeys(r["context"].strip() for r in rows))
    answers = list(dict.fromkeys(r["answer"].strip() for r in rows))
    return " ".join(passages), answers


def _fit(text: str, n: int) -> str:
    """``text`` repeated and cut to exactly ``n`` characters (at a space when possible)."""
    out = (text + " ") * (n // (len(text) + 1) + 1)
    cut = out.rfind(" ", 0, n)
    return out[: cut if cut > n // 2 else n]


def make_guard(default_limits: bool):
    """``Guard()``; with ``default_limits`` its shipped configs take GuardConfig's default limits."""
    from guardrail import Guard
    from guardrail.config import GuardConfig, load_config

    cfg = load_config("default")
    if default_limits:
        d = GuardConfig()
        keep = {k: getattr(d, k) for k in ("max_answer_chars", "max_context_chars", "max_passages")}
        cfg = cfg.model_copy(update=keep)
    return Guard(cfg).warm_up()


def run_case(name: str, default_limits: bool = False) -> dict:
    """Run one case in this process and return its measurements."""
    guard = make_guard(default_limits)
    lim = guard.config.size_limits
    prose, answers = _prose()
    sentences = [s.strip() + "." for s in prose.split(". ") if len(s.split()) >= 4]
    q = "What does the text say?"
    if name == "answer_at_limit":
        call = lambda: guard.check(_fit(" ".join(answers), lim["max_answer_chars"]), [prose[:2000]], q)
    elif name == "context_at_limit":
        call = lambda: guard.check(answers[0], [_fit(prose, lim["max_context_chars"])])
    elif name == "both_at_limit":
        call = lambda: guard.check(_fit(" ".join(answers), lim["max_answer_chars"]),
                                   [_fit(prose, lim["max_context_chars"])])
    elif name == "max_passages_check":
        ps = [f"{s} ({i})" for i, s in zip(range(lim["max_passages"]), sentences * 10)]
        call = lambda: guard.check(answers[0], ps, q)
    elif name == "max_passages_check_many":
        ps = [f"{s} ({i})" for i, s in zip(range(lim["max_passages"]), sentences * 10)]
        items = [{"answer": a, "contexts": ps, "question": q} for a in answers[:20]]
        call = lambda: guard.check_many(items)
    elif name == "repeated_token_context":
        call = lambda: guard.check(answers[0], ["a " * (lim["max_context_chars"] // 2)])
    elif name == "repeated_token_answer":
        call = lambda: guard.check("a " * (lim["max_answer_chars"] // 2), [prose[:2000]])
    elif name == "oversize_context_10mb":
        call = lambda: guard.check(answers[0], [_fit(prose, 10_000_000)])
    elif name == "oversize_answer_1mb":
        call = lambda: guard.check(_fit(prose, 1_000_000), [prose[:2000]])
    elif name == "too_many_passages":
        call = lambda: guard.check(answers[0], [f"Passage {i}." for i in range(100_000)])
    else:
        raise SystemExit(f"unknown case {name!r}")
    load = os.getloadavg()[0]
    t0, c0 = time.perf_counter(), time.process_time()
    result = call()
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    first = result[0] if isinstance(result, list) else result
    return {
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu, 2),
        "load": round((load + os.getloadavg()[0]) / 2, 1),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "abstained": first.abstained,
        "reason": first.abstain_reason,
        "limits": lim,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per case before it counts as failed")
    ap.add_argument("--only", nargs="*", default=None, help="case names to run")
    ap.add_argument("--default-limits", action="store_true",
                    help="give the shipped configs GuardConfig's default size limits first")
    ap.add_argument("--case", default=None, help=argparse.SUPPRESS)  # child mode
    args = ap.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.default_limits)))
        return
    rows = []
    for name in args.only or list(CASES):
        try:
            cmd = [sys.executable, __file__, "--case", name] + (["--default-limits"] if args.default_limits else [])
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
            res = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.returncode == 0 else {
                "error": proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"rc={proc.returncode}"}
        except subprocess.TimeoutExpired:
            res = {"error": f"timed out after {args.timeout:.0f} s"}
        res["case"] = name
        print(json.dumps(res), flush=True)
        rows.append(res)
    lim = next((r["limits"] for r in rows if "limits" in r), {})
    lines = [
        "# Robustness: worst accepted inputs", "",
        f"Machine: {platform.machine()}, {__import__('os').cpu_count()} CPU cores, Python "
        f"{platform.python_version()}. Limits of `Guard()`"
        f"{' (shipped configs given the GuardConfig defaults, --default-limits)' if args.default_limits else ''}: "
        f"{lim}. Bar: <= {BAR_S:.0f} s and "
        f"<= {BAR_MB} MB peak RSS per input (RSS includes the loaded models). "
        "Time excludes model loading; `load` is the machine's 1-minute load average during the "
        "case (other jobs share the 2 cores: wall time grows with it, CPU time much less). "
        "Generated by `python benchmarks/robustness.py`.", "",
        "| case | input | wall s | CPU s | load | peak RSS (MB) | abstained | within bar |",
        "|---|---|---:|---:|---:|---:|---|---|",
    ]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['case']} | {CASES[r['case']]} | - | - | - | - | {r['error']} | no |")
            continue
        ok = r["seconds"] <= BAR_S and r["peak_rss_mb"] <= BAR_MB
        why = f"yes: {r['reason']}" if r["abstained"] else "no"
        lines.append(f"| {r['case']} | {CASES[r['case']]} | {r['seconds']:.2f} | {r['cpu_seconds']:.2f} | "
                     f"{r['load']} | {r['peak_rss_mb']} | "
                     f"{why} | {'yes' if ok else 'no'} |")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
