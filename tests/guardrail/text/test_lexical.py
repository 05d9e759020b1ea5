"""Lexical matching: the fast paths (substring test, cached patterns, cached candidate index)
give what the plain word-boundary regex and trigram Jaccard give."""

from __future__ import annotations

import random
import re

import numpy as np

from guardrail.text.lexical import TextIndex, contains_phrase, shortlist, trigrams


def _regex(longer: str, shorter: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(shorter) + r"(?!\w)", longer) is not None


def test_contains_phrase_is_the_word_boundary_regex():
    cases = [("new york city", "york"), ("new yorker", "york"), ("u.s. army", "u.s."), ("a+b", "a+"),
             ("steve jobs", "steve jobs"), ("jobs", "steve jobs"), ("1976", "197"), ("in 1976.", "1976"),
             ("the nobel prize", "nobel prize"), ("", ""), ("abc", "")]
    for longer, shorter in cases:
        want = bool(shorter) and len(shorter) <= len(longer) and (shorter == longer or _regex(longer, shorter))
        assert contains_phrase(longer, shorter) is want, (longer, shorter)


def test_has_phrase_on_word_boundaries_only():
    idx = TextIndex(["Apple was founded in Cupertino.", "The New  York Times"])
    assert idx.has_phrase("new york") and idx.has_phrase("founded in")
    assert not idx.has_phrase("new yor") and not idx.has_phrase("pple") and not idx.has_phrase("  ")


def _jaccard_shortlist(queries, candidates, k):
    """The reference: trigram Jaccard of every pair, top ``k`` per query (stable), union."""
    if len(candidates) <= k:
        return list(range(len(candidates)))
    keep = set()
    for q in queries:
        tq = trigrams(q)
        scores = np.array([len(tq & trigrams(c)) / (len(tq | trigrams(c)) or 1) for c in candidates])
        keep.update(int(i) for i in np.argsort(-scores, kind="stable")[:k])
    return sorted(keep)


def test_shortlist_with_a_reused_candidate_index_is_trigram_jaccard():
    rng = random.Random(0)
    words = "apple steve jobs founded cupertino california 1976 wozniak company computer".split()
    cands = [" ".join(rng.sample(words, rng.randint(1, 3))) for _ in range(40)]
    for _ in range(5):  # the same candidates each time: the cached index is reused
        queries = [" ".join(rng.sample(words, 2)) for _ in range(3)] + ["zzz unseen"]
        assert shortlist(queries, cands, 3) == _jaccard_shortlist(queries, cands, 3)
    assert shortlist(["x"], cands[:2], 3) == [0, 1]
