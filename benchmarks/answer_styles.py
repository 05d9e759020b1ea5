"""Does the verdict survive the answer's style? (issue 23: answer styles not in the dev data)

The realistic set's answers (``benchmarks/data/realistic.jsonl``) are plain prose. LLM answers
in a RAG service arrive formatted: as a bulleted or numbered list, with bold values, citation
markers, a header, an attribution ("According to the provided context, ..."), pleasantries,
a trailing source list or a question back to the user; or framed: source links, an "As an AI
assistant" disclaimer, a "Here is a summary" lead-in, a JSON object, a self-rating, footnote
superscripts, "(Document 1, page 3)" pointers, "Point 1:" labels, a "To answer your question,"
opener, "According to Document 2,", "Let's think step by step." or a closing caveat. Each style here is a mechanical
rewrite of the same answer that adds no fact, so a guard that reads meaning gives every style
the plain answer's verdict. Reported per style: the share of faithful answers passed and of
wrong answers caught by the shipped default, and the share of items whose verdict equals the
plain answer's.

    python benchmarks/answer_styles.py --n 40   # 40 faithful + 40 wrong items (every k-th)
    python benchmarks/answer_styles.py --styles json,opener --tag x   # some styles only

Writes ``benchmarks/results/answer_styles.{md,json}`` (``--tag`` appends to the file names, for a
run of another commit from a worktree).
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from guardrail import Guard  # noqa: E402
from guardrail.text.sentences import split_sentences  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"


def _sents(text: str) -> list[str]:
    return [text[s:e].rstrip(".") for s, e in split_sentences(text)]


def _bold(sentence: str) -> str:
    """The first number or capitalised name after the first word, in bold."""
    m = re.search(r"(?<=\s)(\d[\d,.]*|[A-Z][a-z]+(?:\s[A-Z][a-z]+)*)", sentence)
    return sentence if m is None else sentence[:m.start()] + f"**{m.group(0)}**" + sentence[m.end():]


def _superscript(n: int) -> str:
    return str(n).translate(str.maketrans("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"))


def _lower_first(text: str) -> str:
    return text if text[:2].isupper() else text[:1].lower() + text[1:]


STYLES: dict[str, Callable[[str], str]] = {
    "plain": lambda a: a,
    "bullets": lambda a: "\n".join(f"- {s}" for s in _sents(a)),
    "numbered": lambda a: "\n".join(f"{i}. {s}." for i, s in enumerate(_sents(a), 1)),
    "bold": lambda a: ". ".join(_bold(s) for s in _sents(a)) + ".",
    "citations": lambda a: " ".join(f"{s} [{i}]." for i, s in enumerate(_sents(a), 1)),
    "header": lambda a: "## Answer\n" + a,
    "attribution": lambda a: "According to the provided context, " + _lower_first(a),
    "chatty": lambda a: "Great question! " + a + " Let me know if you need anything else!",
    "sources": lambda a: a + "\n\nSources: [1] retrieved passage",
    "question_back": lambda a: a + " Would you like more details?",
    # added 2026-11-29 (tenth session): what else LLM answers wrap around the facts
    "source_links": lambda a: " ".join(f"{s} ([source](https://docs.example.com/page-{i}))."
                                       for i, s in enumerate(_sents(a), 1)),
    "ai_disclaimer": lambda a: "As an AI assistant, I can only go by the documents you shared. " + a,
    "meta_intro": lambda a: "Here is a summary of the relevant information. " + a,
    "json": lambda a: json.dumps({"answer": a}),
    "confidence": lambda a: a + " (Confidence: high)",
    "footnotes": lambda a: " ".join(f"{s}.{_superscript(i)}" for i, s in enumerate(_sents(a), 1)),
    "doc_pointers": lambda a: " ".join(f"{s} (Document {i}, page {i + 2})." for i, s in enumerate(_sents(a), 1)),
    "point_labels": lambda a: "\n".join(f"**Point {i}:** {s}." for i, s in enumerate(_sents(a), 1)),
    "opener": lambda a: "To answer your question, " + _lower_first(a),
    "numbered_source": lambda a: "According to Document 2, " + _lower_first(a),
    "reasoning_aloud": lambda a: "Let's think step by step. " + a,
    "caveat": lambda a: a + " Please verify with the original source for the latest details.",
    # added 2026-11-29 (fourteenth session): the speaker's own view of what it reports
    "opinion": lambda a: a + " Honestly, that sounds great to me.",
    "opinion_think": lambda a: a + " Personally, I think that's a really good option.",
    "break_down": lambda a: "Let me break this down: " + a,
    "analysis_opener": lambda a: "Based on my analysis of the documents, " + _lower_first(a),
    "disclaimer": lambda a: a + " Note that details may vary. Disclaimer: this is not legal advice.",
    "advice_closing": lambda a: a + " Always consult a professional before making decisions.",
    "offer_closing": lambda a: a + " Feel free to reach out if you have any other questions.",
    "sign_off": lambda a: a + " Thanks for your patience!\n\nBest regards,\nAssistant",
}


def items(n: int) -> list[dict[str, Any]]:
    """``n`` faithful and ``n`` wrong realistic answers, every k-th of each, in file order."""
    rows = [json.loads(line) for line in (ROOT / "benchmarks/data/realistic.jsonl").read_text().splitlines()
            if line.strip()]
    out = []
    for label in (0, 1):
        pool = [r for r in rows if int(r["label"]) == label]
        step = max(len(pool) // n, 1)
        out += pool[::step][:n]
    return out


def run(n: int) -> dict[str, Any]:
    guard = Guard().warm_up()
    data = items(n)
    res: dict[str, Any] = {}
    plain: list[bool] = []
    for style, rewrite in STYLES.items():
        t0 = time.perf_counter()
        out = guard.check_many([{"answer": rewrite(r["answer"]), "contexts": [r["context"]],
                                 "question": r["question"]} for r in data])
        passed = [o.passed for o in out]
        plain = plain or passed
        faithful = [p for p, r in zip(passed, data) if int(r["label"]) == 0]
        wrong = [not p for p, r in zip(passed, data) if int(r["label"]) == 1]
        res[style] = {"faithful_passed": round(sum(faithful) / len(faithful), 3),
                      "wrong_caught": round(sum(wrong) / len(wrong), 3),
                      "same_as_plain": round(sum(a == b for a, b in zip(passed, plain)) / len(passed), 3),
                      "seconds": round(time.perf_counter() - t0, 1)}
        print(style, res[style], flush=True)
    return res


def main(argv: list[str] | None = None) -> int:
    """Entry point; see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=40, help="faithful and wrong items each")
    ap.add_argument("--tag", default="", help="suffix of the result files")
    ap.add_argument("--styles", default="", help="comma-separated styles to run (plain is always run); default all")
    args = ap.parse_args(argv)
    if args.styles:
        keep = {"plain", *args.styles.split(",")}
        for name in [k for k in STYLES if k not in keep]:
            del STYLES[name]
    res = run(args.n)
    machine = f"{platform.machine()}, Python {platform.python_version()}, 2 CPU cores"
    RESULTS.mkdir(parents=True, exist_ok=True)
    name = "answer_styles" + (f"_{args.tag}" if args.tag else "")
    (RESULTS / f"{name}.json").write_text(json.dumps({"n": args.n, "machine": machine, "styles": res}, indent=1))
    lines = [f"# Answer styles: {args.n} faithful and {args.n} wrong realistic answers, rewritten", "",
             f"Machine: {machine}. Shipped default; each style adds no fact (`benchmarks/answer_styles.py`).", "",
             "| style | faithful passed | wrong caught | verdict as plain |", "|---|---|---|---|"]
    lines += [f"| {s} | {r['faithful_passed']:.3f} | {r['wrong_caught']:.3f} | {r['same_as_plain']:.3f} |"
              for s, r in res.items()]
    (RESULTS / f"{name}.md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
