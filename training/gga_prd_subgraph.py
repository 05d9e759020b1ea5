"""Add PRD with ``complement="subgraph"`` to generated GGA rows (issue 29, item 2), resumable.

The shipped rows (``training/gga_generate.py``) measure PRD against every other prompt token
(``complement="prompt"``, the paper's literal N). This pass recomputes it with N restricted to the
other subgraph tokens, for the same question, triples and generated answer, and writes
``prd_subgraph`` into each row (one teacher-forced pass per row, about 2.5 s on 2 CPU threads).

Usage::

    python training/gga_prd_subgraph.py --items benchmarks/data/gga_items_qwen05b.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from guardrail.models.gga_features import GGAFeatureExtractor  # noqa: E402
from guardrail.models.gga_local import load_local_model  # noqa: E402

__all__ = ["main"]


def main(argv: list[str] | None = None) -> None:
    """Command-line entry point (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--items", type=Path, required=True)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    rows = [json.loads(x) for x in args.items.read_text(encoding="utf-8").splitlines() if x.strip()]
    todo = [r for r in rows if "prd_subgraph" not in r]
    print(f"{len(rows)} rows, {len(todo)} to do", flush=True)
    if not todo:
        return
    model, tok = load_local_model(threads=args.threads)
    fx = GGAFeatureExtractor(model, tok, complement="subgraph")
    t0 = time.perf_counter()
    for k, r in enumerate(todo, 1):
        f = fx.features(r["question"], [tuple(t) for t in r["triples"]], r["output"])
        r["prd_subgraph"] = f.prd
        if k % 25 == 0 or k == len(todo):  # state saved as it goes: a cut run resumes
            args.items.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in rows), encoding="utf-8")
            print(f"{k}/{len(todo)} elapsed={time.perf_counter() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
