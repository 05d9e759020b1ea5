"""Where the resident memory of a warm guard goes: RSS after each import and load step.

``tracemalloc`` sees Python objects only; spaCy's vocab, ONNX Runtime's sessions and arenas
and lingua's models are native memory. This script reads ``VmRSS`` (resident now) and
``VmHWM`` (peak so far) from ``/proc/self/status`` after each step of a real start-up, in the
order a service goes through them: the imports, spaCy's model, the two ONNX sessions, a
``Guard()``, its warm-up, one check, ``check_many`` over ``--n`` demo items, then the lingua
language models (loaded by a check only for a text that looks foreign; forced here last to
show their size). It also lists the heavy modules imported by then (which ones a check pulls in).

Usage: ``python benchmarks/memory_steps.py [--n 20] [--out FILE]`` (prints the Markdown table;
``--out`` also writes it to FILE).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SAMPLE = ROOT / "examples" / "data" / "halueval_sample.jsonl"
#: Modules whose presence in ``sys.modules`` is worth reporting (each costs memory).
HEAVY = ("torch", "sklearn", "scipy", "grakel", "networkx", "lingua", "transformers", "pandas",
         "onnxruntime", "spacy", "tokenizers", "safetensors", "matplotlib", "ray")


def status_mb() -> tuple[float, float]:
    """``(VmRSS, VmHWM)`` of this process in MB, from ``/proc/self/status``."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["VmHWM"]


def demo_items(n: int) -> list[dict[str, Any]]:
    """The first ``n`` items of the shipped demo sample, every kind in turn (QA, dialogue, summary)."""
    rows = [json.loads(line) for line in SAMPLE.open(encoding="utf-8")]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_kind.setdefault(r["id"].split("-")[0], []).append(r)
    mixed = [r for group in zip(*by_kind.values()) for r in group][:n]
    return [{"id": r["id"], "answer": r["answer"], "contexts": [r["context"]], "question": r.get("question")}
            for r in mixed]


def steps(n: int) -> list[tuple[str, Callable[[], object]]]:
    """The measured steps, in order (each a label and a call)."""
    state: dict[str, Any] = {}

    def guard() -> None:
        from guardrail import Guard
        state["guard"] = Guard()

    def spacy_import() -> None:
        from guardrail.models.runtime import without_torch
        with without_torch():
            import spacy  # noqa: F401

    def lingua() -> None:
        from guardrail.text import language
        language._lingua_says_english("Sí, la empresa fue fundada en 1976 por dos amigos de la universidad.")

    items = demo_items(n)
    return [
        ("import numpy", lambda: __import__("numpy")),
        ("import guardrail", lambda: __import__("guardrail")),
        ("import onnxruntime, tokenizers", lambda: (__import__("onnxruntime"), __import__("tokenizers"))),
        ("import spacy (torch blocked)", spacy_import),
        ("spaCy en_core_web_sm loaded", lambda: __import__("guardrail.extract.spacy_extractor", fromlist=["x"])
         .SpacyExtractor().extract("Load the parser.")),
        ("encoder session (MiniLM, ONNX)", lambda: __import__("guardrail.align.encoder", fromlist=["x"])
         .shared_encoder().load()),
        ("verifier session (cross-encoder, ONNX)", lambda: __import__("guardrail.models.claim_verifier",
                                                                      fromlist=["x"]).shared_verifier().load()),
        ("Guard()", guard),
        ("Guard().warm_up()", lambda: state["guard"].warm_up()),
        ("first check (1 demo item)", lambda: state["guard"].check(items[0]["answer"], items[0]["contexts"],
                                                                   items[0]["question"], log=False)),
        (f"check_many ({n} demo items)", lambda: state["guard"].check_many(items)),
        ("lingua models (forced; a check loads them only for a foreign-looking text)", lingua),
    ]


def measure(n: int) -> tuple[list[tuple[str, float, float, float]], list[str], bool]:
    """Rows ``(step, RSS, delta RSS, HWM)``, the heavy modules imported before the forced lingua
    step, and whether a check had loaded lingua by then."""
    rows = []
    rss0, hwm0 = status_mb()
    rows.append(("python started", rss0, 0.0, hwm0))
    before_lingua: list[str] = []
    lingua_by_checks = False
    for label, call in steps(n):
        if label.startswith("lingua"):
            before_lingua = sorted(m for m in HEAVY if m in sys.modules)
            from guardrail.text import language
            lingua_by_checks = language._DETECTOR._value is not None
        call()
        rss, hwm = status_mb()
        rows.append((label, rss, rss - rows[-1][1], hwm))
        print(f"{label:<60} RSS {rss:7.1f} MB  (+{rss - rows[-2][1]:6.1f})  peak {hwm:7.1f} MB", flush=True)
    return rows, before_lingua, lingua_by_checks


def table(rows: list[tuple[str, float, float, float]], modules: list[str], lingua_by_checks: bool) -> str:
    """The Markdown table of :func:`measure`'s rows."""
    lines = ["| step | RSS after (MB) | added (MB) | peak so far (MB) |", "|---|---:|---:|---:|"]
    lines += [f"| {s} | {r:.0f} | {d:+.0f} | {h:.0f} |" for s, r, d, h in rows]
    lines += ["", f"Heavy modules imported after the checks: {', '.join(modules) or 'none'}; "
              f"lingua models loaded by the checks: {'yes' if lingua_by_checks else 'no'}."]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20, help="demo items for the check_many step")
    ap.add_argument("--out", type=Path, default=None, help="write the Markdown table here")
    args = ap.parse_args()
    rows, modules, lingua_by_checks = measure(args.n)
    text = table(rows, modules, lingua_by_checks)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
