"""Fact-list pairs for the verifier (``training/fact_lists.py``): KB-style evidence, one claim each side."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))

POOLS = {
    "PERSON": ["Marta Quensel", "Piet Hallum", "Ines Vortag", "Carl Bremmer"],
    "ORG": ["Fjordlight AS", "Norsk Vannkraft", "Tellby Labs", "Orrin Mutual"],
    "GPE": ["Stavanger", "Tromsø", "Bergen", "Oslo"],
}


def test_every_supported_claim_is_paired_with_an_edit_that_no_fact_states() -> None:
    from fact_lists import RELATIONS, fact_list_pairs

    pairs = fact_list_pairs(POOLS, random.Random(0), n=60)
    assert len(pairs) == 120
    assert [p["label"] for p in pairs] == [1, 0] * 60
    natural = [t for r in RELATIONS for t in r[3]]
    for pos, neg in zip(pairs[::2], pairs[1::2]):
        assert pos["source"] == "hard:facts:hn_factlist:orig" and neg["source"] == "hard:facts:hn_factlist"
        assert pos["claim"] != neg["claim"]
        # the claim is ordinary English (one of the templates), the evidence linearised facts
        assert any(re.fullmatch(re.escape(t).replace(r"\{s\}", ".+").replace(r"\{o\}", ".+"), pos["claim"])
                   for t in natural)
        assert pos["claim"] not in pos["evidence"]
        facts = [f for f in re.split(r"(?<=\.) ", pos["evidence"]) if f]
        assert len(facts) >= 2


def test_swapped_objects_are_mostly_named_elsewhere_in_the_list() -> None:
    from fact_lists import fact_list_pairs

    pairs = fact_list_pairs(POOLS, random.Random(1), n=200)
    names = [n for v in POOLS.values() for n in v]
    named = 0
    for pos, neg in zip(pairs[::2], pairs[1::2]):
        new = [n for n in names if n in neg["claim"] and n not in pos["claim"]]
        named += bool(new) and all(n in neg["evidence"] for n in new)
    assert named / 200 > 0.3  # the swap no word-overlap signal can see


def test_seeded_and_reproducible() -> None:
    from fact_lists import fact_list_pairs

    assert fact_list_pairs(POOLS, random.Random(3), n=5) == fact_list_pairs(POOLS, random.Random(3), n=5)
