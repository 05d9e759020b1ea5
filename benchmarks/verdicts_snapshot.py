"""Snapshot the guard's verdicts on an input file, or compare against a snapshot.

Used to show that a refactor changed no behaviour: run it on the commit before and after,
then compare (same verdicts, scores within ``--tol``, same flagged node texts).

Usage::

    python benchmarks/verdicts_snapshot.py examples/data/halueval_sample.jsonl --out before.json
    python benchmarks/verdicts_snapshot.py examples/data/halueval_sample.jsonl --compare before.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def snapshot(path: str, limit: int | None) -> dict[str, dict]:
    """``{id: {"passed", "score", "abstained", "flagged"}}`` for the items of ``path``."""
    from guardrail import Guard

    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = rows[:limit] if limit else rows
    items = [{"id": r.get("id", str(i)), "answer": r["answer"], "contexts": r["context"],
              "question": r.get("question")} for i, r in enumerate(rows)]
    out = {}
    for it, res in zip(items, Guard().check_many(items)):
        out[it["id"]] = {"passed": res.passed, "score": round(res.score, 6), "abstained": res.abstained,
                         "flagged": sorted(n.text for n in res.flagged_nodes)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("--out")
    ap.add_argument("--compare")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--tol", type=float, default=1e-4)
    a = ap.parse_args()
    snap = snapshot(a.input, a.limit)
    if a.out:
        Path(a.out).write_text(json.dumps(snap, indent=1))
    if a.compare:
        ref = json.loads(Path(a.compare).read_text())
        diff = [k for k in ref if k not in snap or ref[k]["passed"] != snap[k]["passed"]
                or abs(ref[k]["score"] - snap[k]["score"]) > a.tol or ref[k]["flagged"] != snap[k]["flagged"]]
        print(f"{len(ref)} items compared; {len(diff)} differ" + (f": {diff[:10]}" if diff else ""))
        sys.exit(1 if diff else 0)


if __name__ == "__main__":
    main()
