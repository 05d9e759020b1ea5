"""Claim-level and answer-level quality on the claims data's dev split.

The claims data (``../shared/data/claims``, CC BY 4.0, "kg-guardrail claims data") holds
hand-written supported claims reworded as LLM answers are and unsupported minimal edits of
them. Its dev split (contexts whose number ends in 0 or 5) is never trained on.

* **claim level**: every dev claim is checked as the whole answer, against its passages and
  question; pass rate per supported kind, catch rate per unsupported kind, balanced accuracy
  and ROC-AUC of the guard's score.
* **answer level**: for each dev context, 2-3 supported claims joined into one faithful answer
  (label 0), and the same answer with one claim swapped for an unsupported edit of it (label 1,
  error span = the edit's ``span``): balanced accuracy, faithful pass rate, error caught, and
  whether a flagged node lies inside the error span.

Usage::

    python benchmarks/claims.py [--limit N] [--weights DIR] [--out benchmarks/results/claims]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.devdata import load_claims  # noqa: E402
from guardrail import Guard  # noqa: E402
from guardrail.metrics import classification_metrics  # noqa: E402

SUPPORTED = ("extractive", "paraphrase", "synthesis", "short_answer", "chat")
REWORDED = ("paraphrase", "synthesis", "chat")


def claim_items(contexts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One check item per dev claim: the claim is the whole answer (label 1 = unsupported)."""
    return [{"answer": c["text"], "contexts": ctx["passages"], "question": ctx.get("question") or None,
             "label": 1 - int(c["label"]), "kind": c["kind"], "file": ctx["file"]}
            for ctx in contexts for c in ctx["claims"]]


def answer_items(contexts: list[dict[str, Any]], seed: int = 0) -> list[dict[str, Any]]:
    """Per context: a faithful answer of 2-3 supported claims, and the same answer with one
    claim replaced by an unsupported edit of it (with its error span)."""
    rng = random.Random(seed)
    out = []
    for ctx in contexts:
        claims = ctx["claims"]
        sup = [i for i, c in enumerate(claims) if c["label"] == 1 and c["kind"] in ("paraphrase", "synthesis",
                                                                                      "extractive", "chat")]
        edits = [c for c in claims if c["label"] == 0 and c.get("of") is not None and c.get("span")
                 and 0 <= c["of"] < len(claims) and c["of"] in sup]
        if len(sup) < 2 or not edits:
            continue
        edit = rng.choice(edits)
        others = [i for i in sup if i != edit["of"]]
        picked = [edit["of"]] + rng.sample(others, min(len(others), rng.choice([1, 2])))
        rng.shuffle(picked)
        base = dict(contexts=ctx["passages"], question=ctx.get("question") or None, file=ctx["file"])
        out.append({**base, "answer": " ".join(claims[i]["text"] for i in picked), "label": 0, "kind": "faithful"})
        parts = [edit["text"] if i == edit["of"] else claims[i]["text"] for i in picked]
        start = sum(len(p) + 1 for p in parts[:picked.index(edit["of"])])
        s = start + edit["text"].index(edit["span"])
        out.append({**base, "answer": " ".join(parts), "label": 1, "kind": edit["kind"],
                    "error_span": [s, s + len(edit["span"])]})
    return out


def _run(guard: Guard, items: list[dict[str, Any]]) -> list[Any]:
    keys = ("answer", "contexts", "question")
    return guard.check_many([{k: it[k] for k in keys} for it in items])


def _rates(items: list[dict[str, Any]], res: list[Any]) -> dict[str, dict[str, float]]:
    by: dict[str, list[bool]] = defaultdict(list)
    for it, r in zip(items, res):
        by[it["kind"]].append(r.passed if it["label"] == 0 else not r.passed)
    return {k: {"n": len(v), "correct": round(sum(v) / len(v), 4)} for k, v in sorted(by.items())}


def _summary(items: list[dict[str, Any]], res: list[Any]) -> dict[str, Any]:
    m = classification_metrics([it["label"] for it in items], [r.score for r in res], None,
                               passed=[r.passed for r in res])
    return {"n": len(items), "balanced_accuracy": m["balanced_accuracy"], "roc_auc": m["roc_auc"],
            "abstained": sum(r.abstained for r in res), "by_kind": _rates(items, res)}


def span_hit(items: list[dict[str, Any]], res: list[Any]) -> dict[str, float]:
    """Caught wrong answers with an error span: share with a flagged node overlapping it."""
    hit = total = 0
    for it, r in zip(items, res):
        if it.get("error_span") and not r.passed and not r.abstained:
            s, e = it["error_span"]
            total += 1
            hit += any(n.span is not None and n.span.start < e and n.span.end > s for n in r.flagged_nodes)
    return {"caught_with_span": total, "node_in_span": hit, "share": round(hit / total, 4) if total else float("nan")}


def make_guard(weights: str | None) -> Guard:
    """The shipped default guard, or the same config with another verifier's weights."""
    if not weights:
        return Guard()
    from guardrail.detectors.verifier import VerifierDetector
    from guardrail.models.claim_verifier import ClaimVerifier

    base = Guard()
    params = dict(base.config.detector_params.get("verifier", {}))
    return Guard(base.config, detectors=[VerifierDetector(verifier=ClaimVerifier(weights), **params)])


def dev_part(part: str) -> list[dict[str, Any]]:
    """Dev contexts: ``"a"`` (number ending in 0: the calibration half), ``"b"`` (ending in 5:
    the report half) or ``"all"``."""
    ctxs = load_claims("dev")
    if part == "all":
        return ctxs
    end = {"a": 0, "b": 5}[part]
    return [c for c in ctxs if int(c["id"].rsplit("-", 1)[-1]) % 10 == end]


def evaluate(guard: Guard, limit: int | None, part: str = "b") -> dict[str, Any]:
    """Claim-level and answer-level metrics on a part of the dev split (``limit`` contexts at most)."""
    ctxs = dev_part(part)
    if limit:
        ctxs = random.Random(0).sample(ctxs, min(limit, len(ctxs)))
    ci, ai = claim_items(ctxs), answer_items(ctxs)
    t0 = time.perf_counter()
    cr = _run(guard, ci)
    ar = _run(guard, ai)
    claim = _summary(ci, cr)
    sup = [c for k, c in claim["by_kind"].items() if k in REWORDED]
    claim["reworded_pass"] = round(sum(c["correct"] * c["n"] for c in sup) / max(1, sum(c["n"] for c in sup)), 4)
    answer = _summary(ai, ar)
    answer["faithful_pass"] = answer["by_kind"].get("faithful", {}).get("correct")
    answer["error_span"] = span_hit(ai, ar)
    return {"contexts": len(ctxs), "part": part, "claim_level": claim, "answer_level": answer,
            "seconds": round(time.perf_counter() - t0, 1),
            "median_ms": round(statistics.median(r.total_ms for r in cr + ar), 1)}


def write_md(res: dict[str, Any], path: Path, weights: str | None) -> None:
    """A markdown table of :func:`evaluate`'s result."""
    c, a = res["claim_level"], res["answer_level"]
    lines = [f"# Claims dev split, part {res['part']} ({res['contexts']} contexts; weights: {weights or 'shipped'})", "",
             "Part a (context numbers ending in 0) joined the threshold calibration; part b (ending in 5) "
             "is only reported.", "",
             f"Machine: {platform.machine()}, {platform.python_version()}; {res['seconds']} s, median "
             f"{res['median_ms']} ms per check.", "",
             "| level | n | balanced accuracy | ROC-AUC |", "|---|---|---|---|",
             f"| claim | {c['n']} | {c['balanced_accuracy']:.3f} | {c['roc_auc']:.3f} |",
             f"| answer | {a['n']} | {a['balanced_accuracy']:.3f} | {a['roc_auc']:.3f} |", "",
             f"Reworded claims pass: {c['reworded_pass']:.3f}. Faithful composed answers pass: "
             f"{a['faithful_pass']}. Error span hit by a flagged node: {a['error_span']['share']} "
             f"({a['error_span']['node_in_span']}/{a['error_span']['caught_with_span']}).", "",
             "| claim kind | n | judged correctly (pass if supported, caught if not) |", "|---|---|---|"]
    lines += [f"| {k} | {v['n']} | {v['correct']:.3f} |" for k, v in c["by_kind"].items()]
    lines += ["", "| answer kind | n | judged correctly |", "|---|---|---|"]
    lines += [f"| {k} | {v['n']} | {v['correct']:.3f} |" for k, v in a["by_kind"].items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="dev contexts (default all 128)")
    ap.add_argument("--weights", default=None, help="a verifier directory instead of the shipped one")
    ap.add_argument("--part", default="b", choices=["a", "b", "all"],
                    help="dev contexts: a (calibration half), b (report half, default) or all")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "claims"))
    a = ap.parse_args()
    res = evaluate(make_guard(a.weights), a.limit, a.part)
    Path(a.out + ".json").write_text(json.dumps(res, indent=1), encoding="utf-8")
    write_md(res, Path(a.out + ".md"), a.weights)
    print(Path(a.out + ".md").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
