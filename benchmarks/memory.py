"""Memory over many distinct checks: does RSS plateau?

Checks ``--n`` (default 2,000) distinct items with one default :class:`~guardrail.Guard`
and records the process RSS (``/proc/self/statm``) every ``--every`` items. Items are the
HaluEval sample shipped in ``examples/data/`` made distinct: item ``i`` gets a sentence
of made-up words, names and numbers prepended to its context and appended to its answer,
so that no passage graph, embedding or vocabulary string repeats (the worst case for
caches and for spaCy's string store).

First, the RSS after each load step of a fresh process (``benchmarks/memory_steps.py``, run
in a subprocess over ``--steps`` demo items; 0 skips it), then the spaCy extractor alone over
``--extract-n`` distinct items (string-store size and RSS: the native growth that
``nlp.memory_zone()`` bounds). Writes
``benchmarks/results/memory.md`` (``--out``) after every checkpoint, with the peak RSS of the
process (``resource.getrusage``). Text after the line :data:`NOTES` in an existing ``--out``
file (hand-written findings) is kept. Usage:
``python benchmarks/memory.py [--n 2000] [--extract-n 2000] [--steps 20] [--out FILE]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SAMPLE = ROOT / "examples" / "data" / "halueval_sample.jsonl"
OUT = ROOT / "benchmarks" / "results" / "memory.md"
#: Everything after this line of the output file is kept when the results are rewritten.
NOTES = "<!-- notes: kept by benchmarks/memory.py -->"


def rss_mb() -> float:
    """Resident set size of this process in MB."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def distinct_items(n: int, seed: int = 0) -> list[dict]:
    """``n`` items from the shipped sample, each made distinct by made-up words."""
    base = [json.loads(line) for line in SAMPLE.open(encoding="utf-8")]
    base = [b for b in base if not b["id"].startswith("summarization")]  # keep checks short
    rng = random.Random(seed)

    def word() -> str:
        return "".join(rng.choice("bcdfghklmnprstvz") + rng.choice("aeiou") for _ in range(rng.randint(2, 4)))

    items = []
    for i in range(n):
        b = base[i % len(base)]
        name, place, year = word().capitalize(), word().capitalize(), rng.randint(1000, 2999)
        fact = f"{name} {word()}ed the {word()} of {place} in {year}."
        items.append({"id": f"{b['id']}-{i}", "question": b["question"], "answer": f"{b['answer']} {fact}",
                      "contexts": [f"{fact} {b['context']}"]})
    return items


def extractor_run(n: int) -> list[str]:
    """The spaCy extractor alone over the passages and answers of ``n`` distinct items:
    string-store size and RSS before and after (the native growth the memory zone stops)."""
    from guardrail.extract.spacy_extractor import SpacyExtractor

    ex = SpacyExtractor()
    items = distinct_items(n, seed=2)
    ex.extract_many([it["contexts"][0] for it in items[:50]])  # warm up
    strings, rss0, t0 = len(ex.nlp.vocab.strings), rss_mb(), time.perf_counter()
    for it in items:
        ex.extract_many([it["answer"], it["contexts"][0]])
    return [
        f"- spaCy extractor alone, {n} distinct items (answer and passage each, one call per item, "
        f"{time.perf_counter() - t0:.0f} s): string store {strings} -> {len(ex.nlp.vocab.strings)} "
        f"strings, RSS {rss0:.0f} -> {rss_mb():.0f} MB",
    ]


def steps_table(n: int) -> list[str]:
    """The Markdown table of ``benchmarks/memory_steps.py --n n``, run in a fresh process."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "steps.md"
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "memory_steps.py"), "--n", str(n),
                        "--out", str(out)], check=True, cwd=ROOT)
        table = out.read_text(encoding="utf-8").splitlines()
    return [f"## RSS after each load step (fresh process, `python benchmarks/memory_steps.py --n {n}`)", "",
            *table, ""]


def lingua_state() -> str:
    """Which of lingua's models the checks have loaded: the trigram models (about 14 MB) settle
    most suspect texts; the full ones (about 180 MB more) load for short ones they do not call
    English (:mod:`guardrail.text.language`)."""
    from guardrail.text import language

    loaded = [name for name, lazy in (("trigrams", language._TRIGRAMS), ("full", language._DETECTOR))
              if lazy._value is not None]
    return f"lingua models loaded by the checks: {', '.join(loaded) or 'none'}"


def kept_notes(path: Path) -> list[str]:
    """The lines from :data:`NOTES` on in ``path`` (empty when there are none)."""
    if not path.is_file():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return lines[lines.index(NOTES):] if NOTES in lines else []


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--every", type=int, default=250)
    ap.add_argument("--warm", type=int, default=100, help="items checked before the 'before' reading")
    ap.add_argument("--extract-n", type=int, default=2000, help="items for the extractor-only run (0: skip)")
    ap.add_argument("--steps", type=int, default=20, help="demo items of the load-step breakdown (0: skip)")
    ap.add_argument("--out", type=Path, default=OUT, help="the Markdown file written")
    args = ap.parse_args()
    args.steps_lines = steps_table(args.steps) if args.steps else []
    args.notes = kept_notes(args.out)
    from guardrail import Guard

    args.extract_lines = extractor_run(args.extract_n) if args.extract_n else []
    print(*args.extract_lines, sep="\n", flush=True)
    guard = Guard().warm_up()
    warm = distinct_items(args.warm, seed=1)
    guard.check_many(warm)
    items = distinct_items(args.n)
    t0 = time.perf_counter()
    points = [(0, rss_mb())]
    for start in range(0, args.n, args.every):
        guard.check_many(items[start:start + args.every])
        points.append((min(start + args.every, args.n), rss_mb()))
        print(f"{points[-1][0]:>5} checks  RSS {points[-1][1]:7.1f} MB  {time.perf_counter() - t0:6.0f} s", flush=True)
        write(args, guard, points, time.perf_counter() - t0)  # a cut-off run still leaves its results
    print(f"wrote {args.out}")


def write(args: argparse.Namespace, guard: object, points: list[tuple[int, float]], seconds: float) -> None:
    """Write the results so far to :data:`OUT`."""
    import spacy

    from guardrail.align.encoder import shared_encoder

    before, after = points[0][1], points[-1][1]
    half = len(points) // 2
    late = (points[-1][1] - points[half][1]) / max(1, points[-1][0] - points[half][0])
    lines = [
        "# Memory over distinct checks", "",
        f"Machine: {platform.machine()}, {os.cpu_count()} CPU cores, Python {platform.python_version()}, "
        f"spaCy {spacy.__version__}. One default `Guard()`, {args.warm} warm-up items, then {args.n} "
        f"distinct items (shipped HaluEval sample, each with made-up words) through `check_many` in "
        f"batches of {args.every}; {seconds:.0f} s for {points[-1][0]} checks. "
        f"Generated by `python benchmarks/memory.py --n {args.n} --every {args.every} --warm {args.warm} "
        f"--extract-n {args.extract_n} --steps {args.steps}`.", "",
        f"- RSS before: **{before:.0f} MB**; after {points[-1][0]} checks: **{after:.0f} MB** "
        f"({(after - before) / max(1, points[-1][0]) * 1000:.0f} kB per check over the whole run, "
        f"{late * 1000:.0f} kB per check over the second half); peak RSS of the process "
        f"(`getrusage`): **{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB**",
        f"- encoder cache: {shared_encoder().cache_info()}; passage-graph cache: {len(guard._parts.cache)} graphs; "
        f"{lingua_state()}",
        *args.extract_lines, "",
        "| checks | RSS (MB) |", "|---:|---:|",
        *[f"| {k} | {v:.0f} |" for k, v in points], "",
        *args.steps_lines, *args.notes,
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
