"""Does refinement with the local LLM fix answers without breaking good ones? (issue 15, item 7)

Items (small, so that a run finishes on 2 shared CPU cores; sizes are flags):

* ``realistic``: single-fact-error answers of ``benchmarks/data/realistic.jsonl``
  (the right fact: the words of the group's closest supported answer that the error
  answer lacks);
* ``claims``: answers composed from the claims dev split (contexts ending in 0 or 5):
  one supported claim, then a ``date`` / ``number`` / ``entity`` edit of another one
  (the right fact: the words of the edited claim the wrong one lacks; the faithful part:
  the first claim);
* ``halueval``: HaluEval QA val hallucinated answers (the right fact: the right answer);
* ``faithful``: supported answers (realistic paraphrases, composed supported claims);
  when one is wrongly flagged and refined, did the refinement change a fact (a number
  or capitalised name not in the original)?

Per item: caught (flagged), fixed (the final answer passes, drops the wrong words and
states the right fact; a number of a share, "4" of "four in ten", is stated by the same share, "40%"), broken (a
fact of the original outside the error span lost or changed, the faithful part lost — its numbers and names, or
70 % of its words when it has none: :func:`_kept` — or a refusal), rounds (LLM
calls), seconds. A fact counts as kept when the final answer states it in another number
form ("3" / "three", "1.5 million" / "1,500,000": :func:`_stated`); an answer opener ("Yes.",
"The answer is") and a sentence's first function word ("Once") are not facts. The guard is the default ``Guard()``; refinement is
``Refiner(max_iterations=3, fallback="filter", time_budget=180)`` re-prompting the local
model through :class:`guardrail.llm.LLMClient`. Results go to
``benchmarks/results/refine.{json,md}``, rewritten after every item (a cut run keeps
what it measured).

    python benchmarks/refine.py --n 8           # per source; about 1 minute per refined item here
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.devdata import load_claims, load_dev  # noqa: E402
from guardrail.align.values import number_values, numbers_equal  # noqa: E402
from guardrail.text.numerals import digits_for_words  # noqa: E402
from guardrail.text.quantities import match_quantity_forms  # noqa: E402
from guardrail.text.shares import share_values  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
_WORD = re.compile(r"[A-Za-z0-9][\w,.%-]*[A-Za-z0-9%]|\w")
_STOP = set("a an the of in on at to and or is was were be been by for with as it its that this from are "
            "has have had which who".split())
_FACT = re.compile(r"\b\d[\d,.]*\b|\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\b")
_NOT_FACT = _STOP | set("i you he she they we his her their our its there here in on at but however also "
                        "yes no according based after before during while when once if since until unless "
                        "although though because whereas where what why how then so thus therefore instead "
                        "meanwhile overall sure certainly indeed these those some many most all each every both "
                        "either neither any other such only even just still first finally".split())
#: An answer opener ("Yes.", "No,", "Sure!", "The answer is", "According to the context,"): it is
#: not a fact, so an answer that loses it has lost nothing.
_OPENER = re.compile(r"^\s*(?:(?:yes|no|sure|certainly|indeed|okay|ok)\b[.,!:;]*\s*|the answer is\b[:,]?\s*"
                     r"|according to the (?:context|passage|text|document)\b[:,]?\s*)+", re.IGNORECASE)


def _without_opener(text: str) -> str:
    """``text`` without its leading answer opener(s)."""
    return _OPENER.sub("", text, count=1)


def _facts(text: str) -> set[str]:
    """Numbers and capitalised names of ``text`` (a sentence's first function word and an answer's
    opener are not one)."""
    return {f.strip(".,") for f in _FACT.findall(_without_opener(text))
            if not all(w.lower() in _NOT_FACT for w in f.split())}


def _words(text: str) -> set[str]:
    """Content words, number words as digits ("three" and "3" are one word)."""
    return {w.lower().strip(".,") for w in _WORD.findall(digits_for_words(text))} - _STOP


def _values(text: str) -> tuple[Any, ...]:
    try:
        return number_values(text)
    except (ValueError, IndexError):  # quantulum3 on an odd text: no values read
        return ()


def _stated(fact: str, final: str, where: str = "") -> bool:
    """Whether ``final`` states ``fact``: as written (case-blind), with number words as digits on
    both sides (:func:`~guardrail.text.numerals.digits_for_words`: "3" and "three"), or as the
    same value (:func:`~guardrail.align.values.numbers_equal`; ``where`` is the text ``fact``
    was read from, so that its unit counts: "1.5 million" and "1,500,000", "£3.2m" and "£3.2
    million"; a time in other units, "a quarter of an hour" for "15 minutes", is equal only
    where those values can tell, which they cannot today)."""
    if not re.search(r"\d", fact) and fact.lower() in final.lower():
        return True  # a number is matched whole below: "27" is not stated by "127"
    f, t = digits_for_words(fact).lower(), digits_for_words(final).lower()
    if re.search(r"(?<![\w.,])" + re.escape(f) + r"(?![\w]|[.,]\d)", t):
        return True
    if not re.search(r"\d", f):
        return False
    src = where or fact
    at = src.find(fact)
    mine = [v for v in _values(src) if at < 0 or v.start <= at < max(v.end, v.start + 1)] or list(_values(fact))
    return any(numbers_equal(v, w) for v in mine for w in _values(final))


def _share_stated(fact: str, final: str, where: str) -> bool:
    """Whether ``fact``, a number inside a share of ``where`` ("4" of "four in ten"), is stated by ``final``
    as a share of the same value ("40%"; :mod:`guardrail.text.shares`)."""
    if not where or not re.search(r"\d", fact):
        return False
    src = digits_for_words(where)
    at = [m.start() for m in re.finditer(r"(?<![\w.,])" + re.escape(fact) + r"(?![\w])", src)]
    mine = [p for a, b, p, _, _ in share_values(src) if any(a <= i < b for i in at)]
    return any(abs(p - q) <= 0.5 for p in mine for _, _, q, _, _ in share_values(digits_for_words(final)))


def _amount_stated(item: dict[str, Any], final: str) -> bool:
    """Whether ``final`` states the right fact as an equal amount in other units: the right answer's
    "half a year" read in ``final``'s units (:func:`~guardrail.text.quantities.match_quantity_forms`,
    "6 months") is stated by ``final`` ("six months") and not by the answer; "half a" is read as 0.5 first
    (the verifier's reader takes it only after a preposition: "within half an hour")."""
    right = re.sub(r"\bhalf an? (?=\w)", "0.5 ", digits_for_words(item.get("right_from", "")))
    converted = match_quantity_forms(digits_for_words(final), right)[1] if right else right
    amount = re.compile(r"\d[\d.,]*\s+[a-z]+")
    read = set(amount.findall(converted)) - set(amount.findall(right))  # the amounts read in final's units
    return any(_stated(a, final) and not _stated(a, item["answer"]) for a in read)


def _right_words(wrong: str, right: str) -> list[str]:
    return sorted(_words(right) - _words(wrong))


def realistic_items(n: int) -> list[dict[str, Any]]:
    rows = [json.loads(x) for x in (ROOT / "benchmarks/data/realistic.jsonl").read_text().splitlines() if x]
    by_group: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_group.setdefault(r["group"], []).append(r)
    out = []
    for group in sorted(by_group)[::max(1, len(by_group) // max(n, 1))][:n]:
        rs = by_group[group]
        bad = next(r for r in rs if r["style"] == "single_fact_error")
        good = max((r for r in rs if r["label"] == 0), key=lambda r: len(_words(r["answer"]) & _words(bad["answer"])))
        out.append({"source": "realistic", "id": bad["id"], "question": bad["question"], "context": [bad["context"]],
                    "answer": bad["answer"], "wrong": bad["error_text"] or "",
                    "right": _right_words(bad["answer"], good["answer"]), "right_from": good["answer"], "keep": ""})
    return out


def claims_items(n: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    bad_items: list[dict[str, Any]] = []
    good_items: list[dict[str, Any]] = []
    for ctx in load_claims("dev")[::3]:
        cl = ctx["claims"]
        wrong = next((c for c in cl if c["label"] == 0 and c["kind"] in ("date", "number", "entity")
                      and c.get("of") is not None and cl[c["of"]]["kind"] in ("extractive", "paraphrase")), None)
        keep = next((c for i, c in enumerate(cl) if c["label"] == 1 and c["kind"] in ("extractive", "paraphrase")
                     and wrong is not None and i != wrong["of"]), None)
        if wrong is None or keep is None:
            continue
        base = {"question": ctx["question"], "context": list(ctx["passages"])}
        if len(bad_items) < n:
            bad_items.append({**base, "source": "claims", "id": f"{ctx['id']}-{wrong['kind']}",
                              "answer": f"{keep['text']} {wrong['text']}", "wrong": wrong.get("span", ""),
                              "right": _right_words(wrong["text"], cl[wrong["of"]]["text"]),
                              "right_from": cl[wrong["of"]]["text"], "keep": keep["text"]})
        elif len(good_items) < max(1, n // 2):
            good_items.append({**base, "source": "faithful", "id": f"{ctx['id']}-ok",
                               "answer": f"{keep['text']} {cl[wrong['of']]['text']}", "keep": keep["text"]})
    return bad_items, good_items


def halueval_items(n: int) -> list[dict[str, Any]]:
    items = load_dev("halueval_qa", 4 * n, split="val")
    right = {i["group"]: i["answer"] for i in items if i["label"] == 0}
    return [{"source": "halueval", "id": i["id"], "question": i["question"], "context": [i["context"]],
             "answer": i["answer"], "wrong": "", "right": [right[i["group"]]], "keep": ""}
            for i in items if i["label"] == 1][:n]


def faithful_items(n: int) -> list[dict[str, Any]]:
    rows = [json.loads(x) for x in (ROOT / "benchmarks/data/realistic.jsonl").read_text().splitlines() if x]
    good = [r for r in rows if r["style"] == "paraphrase"][1::7][:n]
    return [{"source": "faithful", "id": r["id"], "question": r["question"], "context": [r["context"]],
             "answer": r["answer"], "keep": r["answer"]} for r in good]


def _kept(keep: str, final: str) -> bool:
    """Whether ``final`` keeps the faithful part ``keep``: every fact of it (number, capitalised
    name: :func:`_facts`) stated, in any form (:func:`_stated`); a part without such a fact keeps
    70 % of its content words. (Until the fifteenth session every part was judged by the 70 % word
    overlap, which counted a faithful rewording that kept every number and name as broken.)"""
    facts = _facts(keep)
    if facts:
        return all(_stated(f, final, keep) for f in facts)
    words = _words(keep)
    return not words or len(words & _words(final)) >= 0.7 * len(words)


def _lost_facts(item: dict[str, Any], final: str) -> list[str]:
    """Facts of the original answer outside its error span that the final answer lacks (right facts
    lost or changed by the refinement)."""
    original = item["answer"].replace(item.get("wrong") or "\0", " ")
    return sorted(f for f in _facts(original) - _facts(item.get("wrong") or "") if not _stated(f, final, original))


def _score(item: dict[str, Any], first: Any, out: Any, seconds: float) -> dict[str, Any]:
    final = out.answer
    row = {"source": item["source"], "id": item["id"], "caught": not first.passed, "action": out.action,
           "stop": out.stop_reason, "rounds": max(0, len(out.result.history) - 1), "seconds": round(seconds, 1),
           "original": item["answer"], "final": final, "passed": out.result.passed,
           "declined": bool(getattr(first, "declined", False))}
    known = bool(item.get("wrong")) or item["source"] == "faithful"  # which facts were right is known
    lost = _lost_facts(item, final) if not first.passed and known else []
    row["lost_facts"] = lost
    if item["source"] == "faithful":
        new_facts = _facts(digits_for_words(final)) - _facts(digits_for_words(item["answer"]))
        row["changed_fact"] = bool(not first.passed and out.action == "refined" and new_facts)
        row["broken"] = bool(lost) or not _kept(item["keep"], final) or out.action == "refused"
        return row
    right_ok = not item["right"] or _amount_stated(item, final) or any(
        _stated(w, final) or _share_stated(w, final, item.get("right_from", "")) for w in item["right"])
    wrong_gone = not item["wrong"] or not _stated(item["wrong"], final)
    row["fixed"] = bool(out.result.passed and out.action in ("refined", "passed") and right_ok and wrong_gone)
    row["broken"] = bool(lost) or (bool(item["keep"]) and (not _kept(item["keep"], final) or out.action == "refused"))
    return row


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    errs = [r for r in rows if r["source"] != "faithful"]
    caught = [r for r in errs if r["caught"]]
    refined = [r for r in rows if r["caught"]]
    good = [r for r in rows if r["source"] == "faithful"]
    fixed_3 = [r for r in caught if r["fixed"] and r["rounds"] <= 3]
    return {
        "errors": len(errs), "caught": len(caught), "fixed": len(fixed_3),
        "fixed_share_of_caught": round(len(fixed_3) / len(caught), 3) if caught else None,
        "broken": sum(r["broken"] for r in rows), "items": len(rows),
        "lost_right_fact": sum(bool(r.get("lost_facts")) for r in rows),
        "declined": sum(r.get("declined", False) for r in rows),
        "broken_share": round(sum(r["broken"] for r in rows) / len(rows), 3) if rows else None,
        "faithful": len(good), "faithful_flagged": sum(r["caught"] for r in good),
        "faithful_fact_changed": sum(r.get("changed_fact", False) for r in good),
        "median_rounds": statistics.median(r["rounds"] for r in refined) if refined else None,
        "median_seconds": statistics.median(r["seconds"] for r in refined) if refined else None,
        "max_rounds": max((r["rounds"] for r in refined), default=0),
        "stop_reasons": {s: sum(r["stop"] == s for r in refined) for s in sorted({r["stop"] for r in refined})},
        "per_source": {s: {"n": sum(r["source"] == s for r in rows),
                           "caught": sum(r["caught"] for r in rows if r["source"] == s),
                           "fixed": sum(r.get("fixed", False) for r in rows if r["source"] == s)}
                       for s in ("realistic", "claims", "halueval", "faithful")},
    }


def _write(rows: list[dict[str, Any]], meta: dict[str, Any]) -> None:
    s = _summary(rows)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "refine.json").write_text(json.dumps({"meta": meta, "summary": s, "items": rows}, indent=1))
    lines = ["# Refinement with the local LLM (`benchmarks/refine.py`)", "",
             f"{meta['note']} Model: {meta['model']}; LLM speed: {meta.get('llm_speed')}.", "",
             "Fixed = the final answer passes, the error span's wrong words are gone and the right fact is stated; "
             "broken = a fact of the original outside the error span is lost or changed, or the faithful part is "
             "lost (its numbers and names, or 70 % of its words when it has none) or refused (HaluEval answers have no error span: only a lost faithful part counts there); a fact stated in "
             "another number form (3 / three) is kept, an opener (Yes., The answer is) is not a fact. The refiner "
             "tries the evidence repair (no LLM) first, then the LLM; a loop that ends flagged delivers the best "
             "answer seen with its flagged clauses cut when the guard passes that, else the refusal.", "", "| measure | value |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in s.items() if k != "per_source"]
    lines += ["", "| source | items | caught | fixed |", "|---|---|---|---|"]
    lines += [f"| {k} | {v['n']} | {v['caught']} | {v['fixed']} |" for k, v in s["per_source"].items()]
    lines += ["", "| item | caught | action | stop | rounds | s | fixed | broken | final answer |",
              "|---|---|---|---|---|---|---|---|---|"]
    lines += [f"| {r['id']} | {r['caught']} | {r['action']} | {r['stop']} | {r['rounds']} | {r['seconds']} | "
              f"{r.get('fixed', r.get('changed_fact', ''))} | {r['broken']} | "
              f"{r['final'][:90].replace('|', '/')} |" for r in rows]
    (RESULTS / "refine.md").write_text("\n".join(lines) + "\n")


def tokens_per_s(url: str) -> dict[str, float]:
    """The local model's reply speed: one fixed 120-token request, timed (``usage`` from the server)."""
    import openai

    client = openai.OpenAI(base_url=url, api_key="local", timeout=600)
    t0 = time.perf_counter()
    r = client.chat.completions.create(model="local", max_tokens=120, temperature=0.0, messages=[
        {"role": "user", "content": "Describe in three sentences how a river delta forms."}])
    dt = time.perf_counter() - t0
    used = r.usage
    out = used.completion_tokens if used else 0
    return {"seconds": round(dt, 2), "prompt_tokens": used.prompt_tokens if used else 0,
            "completion_tokens": out, "tokens_per_s": round(out / dt, 2) if dt else 0.0}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=6, help="items per error source (faithful: the same)")
    ap.add_argument("--max-iterations", type=int, default=3)
    ap.add_argument("--budget", type=float, default=180.0, help="seconds per refinement loop")
    ap.add_argument("--note", default="nothing else heavy ran on the 2 CPU cores", help="machine state, for the report")
    args = ap.parse_args(argv)
    from guardrail import Guard
    from guardrail.llm import LLMClient
    from guardrail.llm.local import llm_endpoint
    from guardrail.policy.refine import Refiner, enforce

    claims_bad, claims_good = claims_items(args.n)
    items = (realistic_items(args.n) + halueval_items(args.n) + faithful_items(max(1, args.n - args.n // 2))
             + claims_bad + claims_good)  # short contexts first: a cut run keeps the cheap items
    guard = Guard()
    meta = {"n_per_source": args.n, "max_iterations": args.max_iterations, "budget_s": args.budget,
            "model": "Qwen2.5-Coder-1.5B-Instruct Q4_K_M (local, xllamacpp, 2 threads)",
            "note": f"{len(items)} items ({args.n} per error source); 2 CPU cores, {args.note}."}
    rows: list[dict[str, Any]] = []
    with llm_endpoint() as url:
        meta["llm_speed"] = tokens_per_s(url)
        print("LLM speed", meta["llm_speed"], flush=True)
        client = LLMClient(url, max_tokens=120, timeout=1200)
        for k, item in enumerate(items, 1):
            t0 = time.perf_counter()
            first = guard.check(item["answer"], item["context"], item["question"], log=False)
            refiner = Refiner(guard, max_iterations=args.max_iterations, fallback="filter", time_budget=args.budget)
            out = enforce(guard, "refine", item["answer"], item["context"], item["question"],
                          reprompt=client.reprompt, refiner=refiner)
            rows.append(_score(item, first, out, time.perf_counter() - t0))
            _write(rows, meta)
            print(f"[{k}/{len(items)}] {item['id']}: caught={rows[-1]['caught']} {out.action} "
                  f"rounds={rows[-1]['rounds']} {rows[-1]['seconds']} s", flush=True)
    print(json.dumps(_summary(rows), indent=1))


if __name__ == "__main__":
    main()
