"""Training pairs of the claims data (``training/build_pairs.py``): the evidence budgets and their mix groups."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "training"))

PASSAGE = ("Odile Varnay studied physics at Laval. In 1989 she left Halcott and started Ardwyn in Sherbrooke. "
           "The company moved into machine vision in 1998. It opened a second plant in Monterrey in 2006.")


def test_one_sentence_copies_go_to_their_own_group_when_asked(monkeypatch) -> None:
    import build_pairs

    ctx = {"file": "enc", "passages": [PASSAGE], "question": None,
           "claims": [{"text": "Ardwyn was started in 1989.", "label": 1, "kind": "paraphrase"},
                      {"text": "Ardwyn was started in 1988.", "label": 0, "kind": "date"}]}
    monkeypatch.setattr(build_pairs, "load_claims", lambda split: [ctx])
    same = build_pairs.claims_pairs(random.Random(0), copies=4)
    apart = build_pairs.claims_pairs(random.Random(0), copies=4, short_group="claimshort")
    assert len(same) == len(apart) == 8 and {p["source"].split(":")[0] for p in same} == {"claims"}
    short = [p for p in apart if p["source"].startswith("claimshort:")]
    assert len(short) == 2 and {p["label"] for p in short} == {0, 1}
    assert all(len(p["evidence"].split()) <= 30 for p in short)
    strip = [(p["evidence"], p["claim"], p["label"], p["source"].split(":", 1)[1]) for p in same]
    assert strip == [(p["evidence"], p["claim"], p["label"], p["source"].split(":", 1)[1]) for p in apart]
    assert len(build_pairs.claims_pairs(random.Random(0), copies=3)) == 6
