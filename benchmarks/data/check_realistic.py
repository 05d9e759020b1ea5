"""Validate benchmarks/data/realistic.jsonl (see README.md in this folder).

Checks: field names and types, id/group naming, one of each of the four styles per group with
the same domain/question/context, label and error_type consistency, error spans
(answer[start:end] == error_text, occurring once), context length (60-220 words), and that no
paraphrase answer shares a run of 5 words with its context. Prints a summary; exits 1 on any
problem.

    python3 benchmarks/data/check_realistic.py [path/to/realistic.jsonl]
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

DEFAULT = Path(__file__).with_name("realistic.jsonl")
FIELDS = ["id", "group", "domain", "style", "question", "context", "answer", "label",
          "error_type", "error_span", "error_text"]
DOMAINS = {"encyclopedic", "news", "technical_docs", "hr_policy", "product_manual",
           "medical_leaflet", "contract", "financial_report", "sports", "science"}
STYLES = ("paraphrase", "extractive", "single_fact_error", "unsupported_addition")
FACT_ERRORS = {"number", "date", "entity", "negation", "role_swap", "unit_scope"}
NGRAM = 5
MIN_WORDS, MAX_WORDS = 60, 220


def tokens(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def shared_runs(answer: str, context: str, n: int = NGRAM) -> list[str]:
    """Word n-grams of `answer` that also occur in `context` (lower-cased, punctuation ignored)."""
    ctx = tokens(context)
    grams = {tuple(ctx[i:i + n]) for i in range(len(ctx) - n + 1)}
    ans = tokens(answer)
    return [" ".join(ans[i:i + n]) for i in range(len(ans) - n + 1) if tuple(ans[i:i + n]) in grams]


def check_row(row: dict, where: str) -> list[str]:
    problems: list[str] = []
    if list(row) != FIELDS:
        missing = [f for f in FIELDS if f not in row]
        extra = [f for f in row if f not in FIELDS]
        if missing or extra:
            return [f"{where}: missing fields {missing}, unexpected fields {extra}"]
        problems.append(f"{where}: fields out of documented order")
    for f in ("id", "group", "domain", "style", "question", "context", "answer"):
        if not isinstance(row[f], str) or not row[f].strip():
            problems.append(f"{where}: {f} must be a non-empty string")
    if problems:
        return problems
    if row["domain"] not in DOMAINS:
        problems.append(f"{where}: unknown domain {row['domain']!r}")
    if row["style"] not in STYLES:
        problems.append(f"{where}: unknown style {row['style']!r}")
    if not re.fullmatch(re.escape(row["domain"]) + r"-\d{2}", row["group"]):
        problems.append(f"{where}: group {row['group']!r} is not '<domain>-<nn>'")
    if row["id"] != f"{row['group']}-{row['style']}":
        problems.append(f"{where}: id {row['id']!r} is not '<group>-<style>'")
    label, etype, span, etext = row["label"], row["error_type"], row["error_span"], row["error_text"]
    if type(label) is not int or label not in (0, 1):
        problems.append(f"{where}: label must be 0 or 1")
    style = row["style"]
    if style in ("paraphrase", "extractive"):
        if label != 0 or etype is not None or span is not None or etext is not None:
            problems.append(f"{where}: {style} needs label 0 and null error fields")
        return problems
    want_type_ok = (etype in FACT_ERRORS) if style == "single_fact_error" else (etype == "addition")
    if label != 1 or not want_type_ok:
        problems.append(f"{where}: {style} needs label 1 and a matching error_type (got {etype!r})")
    if not (isinstance(span, list) and len(span) == 2 and all(type(x) is int for x in span)):
        return problems + [f"{where}: error_span must be [start, end] ints"]
    if not isinstance(etext, str) or not etext:
        return problems + [f"{where}: error_text must be a non-empty string"]
    start, end = span
    answer = row["answer"]
    if not 0 <= start < end <= len(answer):
        problems.append(f"{where}: error_span {span} out of range for answer of {len(answer)} chars")
    elif answer[start:end] != etext:
        problems.append(f"{where}: answer[{start}:{end}] = {answer[start:end]!r} != error_text {etext!r}")
    if answer.count(etext) != 1:
        problems.append(f"{where}: error_text occurs {answer.count(etext)} times in the answer")
    if etext != etext.strip():
        problems.append(f"{where}: error_text has leading/trailing whitespace")
    return problems


def main(path: Path) -> int:
    problems: list[str] = []
    rows: list[dict] = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                problems.append(f"line {n}: invalid JSON ({exc})")
                continue
            if not isinstance(row, dict):
                problems.append(f"line {n}: not a JSON object")
                continue
            problems += check_row(row, f"line {n} ({row.get('id')})")
            rows.append(row)

    ids = Counter(r.get("id") for r in rows)
    problems += [f"duplicate id {i!r}" for i, c in ids.items() if c > 1]

    groups: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        groups[r.get("group")].append(r)
    for g, members in sorted(groups.items(), key=lambda kv: str(kv[0])):
        styles = sorted(m.get("style") for m in members)
        if styles != sorted(STYLES):
            problems.append(f"group {g}: styles {styles}, want one of each of {list(STYLES)}")
        for f in ("domain", "question", "context"):
            if len({m.get(f) for m in members}) != 1:
                problems.append(f"group {g}: {f} differs between its rows")
        answers = [m.get("answer") for m in members]
        if len(set(answers)) != len(answers):
            problems.append(f"group {g}: two styles have the same answer text")
        words = len(str(members[0].get("context", "")).split())
        if not MIN_WORDS <= words <= MAX_WORDS:
            problems.append(f"group {g}: context has {words} words (want {MIN_WORDS}-{MAX_WORDS})")

    # paraphrases must not copy a 5-word run from the context
    overlap_info: Counter = Counter()
    for r in rows:
        if not isinstance(r.get("answer"), str) or not isinstance(r.get("context"), str):
            continue
        runs = shared_runs(r["answer"], r["context"])
        overlap_info[r.get("style")] += bool(runs)
        if r.get("style") == "paraphrase" and runs:
            problems.append(f"{r['id']}: paraphrase shares {NGRAM}-word runs with its context: {runs}")

    n_groups = len(groups)
    print(f"{path}: {len(rows)} rows, {n_groups} contexts")
    print("  contexts per domain:",
          dict(sorted(Counter(m[0].get("domain") for m in groups.values()).items())))
    print("  rows per style:", dict(Counter(r.get("style") for r in rows)))
    print("  labels:", dict(sorted(Counter(r.get("label") for r in rows).items())))
    print("  error types:", dict(sorted(Counter(
        r.get("error_type") for r in rows if r.get("label") == 1).items(), key=lambda kv: str(kv[0]))))
    print(f"  answers sharing a {NGRAM}-word run with their context, per style:", dict(overlap_info))
    if n_groups < 64:
        problems.append(f"only {n_groups} contexts (want at least 64)")

    if problems:
        print(f"\n{len(problems)} problem(s):")
        for p in problems:
            print("  -", p)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT))
