"""Do verdicts depend on case or tokenisation? Lower-case and PTB-tokenise the realistic set.

Every answer and context of ``benchmarks/data/realistic.jsonl`` is rewritten the way SummaC,
CNN/DM and XSum ship their text (lower case; ``-lrb-``/``-rrb-``; `` 's``; spaces around
punctuation), checked again, and compared with the verdict on the original text.

Usage::

    python benchmarks/surface.py [--limit N] [--out benchmarks/results/surface]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from guardrail import Guard  # noqa: E402

_PUNCT = re.compile(r"([.,;:!?])(?=\s|$)")


def tokenise(text: str) -> str:
    """A lower-cased, PTB-tokenised copy of ``text``."""
    out = text.lower().replace("(", " -lrb- ").replace(")", " -rrb- ")
    out = re.sub(r"(\w)'s\b", r"\1 's", out)
    out = re.sub(r"(\w)n't\b", r"\1 n't", out)
    out = _PUNCT.sub(r" \1", out)
    return " ".join(out.split())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "surface"))
    a = ap.parse_args()
    rows = [json.loads(line) for line in (ROOT / "benchmarks" / "data" / "realistic.jsonl").open(encoding="utf-8")]
    rows = rows[: a.limit] if a.limit else rows
    guard = Guard()
    plain = guard.check_many([{"answer": r["answer"], "contexts": r["context"], "question": r["question"]}
                              for r in rows])
    tok = guard.check_many([{"answer": tokenise(r["answer"]), "contexts": tokenise(r["context"]),
                             "question": tokenise(r["question"])} for r in rows])
    agree = sum(p.passed == t.passed for p, t in zip(plain, tok)) / len(rows)
    diffs = [abs(p.score - t.score) for p, t in zip(plain, tok)]
    res = {"n": len(rows), "verdict_agreement": round(agree, 4), "median_score_diff": round(statistics.median(diffs), 4),
           "max_score_diff": round(max(diffs), 4),
           "correct_plain": round(sum(p.passed == (r["label"] == 0) for p, r in zip(plain, rows)) / len(rows), 4),
           "correct_tokenised": round(sum(t.passed == (r["label"] == 0) for t, r in zip(tok, rows)) / len(rows), 4)}
    Path(a.out + ".json").write_text(json.dumps(res, indent=1), encoding="utf-8")
    md = ["# Case and tokenisation (realistic set, lower-cased and PTB-tokenised)", "",
          "| n | verdict agreement | median / max score difference | correct (original) | correct (tokenised) |",
          "|---|---|---|---|---|",
          f"| {res['n']} | {res['verdict_agreement']:.3f} | {res['median_score_diff']:.3f} / {res['max_score_diff']:.3f} "
          f"| {res['correct_plain']:.3f} | {res['correct_tokenised']:.3f} |"]
    Path(a.out + ".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))


if __name__ == "__main__":
    main()
