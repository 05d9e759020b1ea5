"""Claim formatting and evidence selection (no model)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from guardrail.align.claims import claim_text, context_sentences, last_turn, select_evidence


def test_claim_text_puts_the_question_in_front():
    assert claim_text("1976", "When was Apple founded?") == "Q: When was Apple founded? A: 1976"
    assert claim_text("  Apple   was founded.  ") == "Apple was founded."
    assert claim_text("x", "   ") == "x"


def test_claim_text_keeps_only_the_last_dialogue_turn():
    hist = "[Human]: Do you like Iron Man? [Assistant]: Sure! [Human]: Who starred in it?"
    assert last_turn(hist) == "Who starred in it?"
    assert claim_text("Robert Downey Jr.", hist) == "Q: Who starred in it? A: Robert Downey Jr."


def test_short_context_is_evidence_whole():
    sents = ["Apple was founded in 1976.", "It is based in Cupertino."]
    ev = select_evidence("Apple was founded in 1976.", sents)
    assert ev.text == " ".join(sents) and ev.units == (0, 1) and ev.best == 0


def test_long_context_keeps_the_matching_sentence_and_its_neighbours_within_budget():
    filler = [f"Filler sentence number {i} talks about weather and gardens." for i in range(60)]
    sents = filler[:30] + ["The bridge opened in 1932 after six years of work."] + filler[30:]
    ev = select_evidence("When did the bridge open? It opened in 1932.", sents, max_words=40)
    assert ev.best == 30
    assert {29, 30, 31} <= set(ev.units)
    assert len(ev.text.split()) <= 40 + 2  # "..." separators
    assert "1932" in ev.text


def test_dense_scores_can_pick_a_paraphrased_sentence():
    sents = ["Alpha beta gamma.", "Delta epsilon zeta."] * 20
    dense = np.zeros(len(sents))
    dense[7] = 1.0
    ev = select_evidence("something unrelated", sents, max_words=5, dense=dense, dense_weight=1.0, neighbours=0)
    assert ev.best == 7 and ev.units == (7,)


def test_select_evidence_rejects_bad_arguments():
    with pytest.raises(ValueError, match="dense has 1 scores for 2 sentences"):
        select_evidence("a", ["b.", "c."], dense=np.zeros(1))
    with pytest.raises(ValueError, match="max_words"):
        select_evidence("a", ["b."], max_words=0)
    assert select_evidence("a", []).best == -1


def test_context_sentences_keep_passage_and_offsets():
    out = context_sentences(["One. Two.", "Three."])
    assert [(src, s, e, t) for src, s, e, t in out] == [(0, 0, 4, "One."), (0, 5, 9, "Two."), (1, 0, 6, "Three.")]


def test_diverse_evidence_covers_both_halves_of_a_synthesis_claim():
    sents = ["Alpha Corp was founded in Oslo in 1990 by a team.",
             "Alpha Corp grew in Oslo after 1990 and was founded again.",
             "Berg moved it to Bergen."] + [f"Filler {i} about rain." for i in range(5)]
    claim = "Kari Berg founded Alpha Corp in Oslo in 1990 and moved it to Bergen."
    plain = select_evidence(claim, sents, max_words=22, neighbours=0)
    diverse = select_evidence(claim, sents, max_words=22, neighbours=0, diverse=True)
    assert 2 not in plain.units  # the near-duplicate second sentence crowds out the Bergen one
    assert {0, 2} <= set(diverse.units) and diverse.best == plain.best


def test_sources_of_the_wrong_length_are_rejected_and_one_passage_reads_as_before():
    with pytest.raises(ValueError, match="sources has 1 entries for 2 sentences"):
        select_evidence("a", ["b.", "c."], sources=[0])
    filler = [f"Filler sentence number {i} talks about weather and gardens." for i in range(30)]
    sents = filler[:15] + ["The bridge opened in 1932."] + filler[15:]
    claim = "The bridge opened in 1932."
    assert select_evidence(claim, sents, max_words=40, sources=[0] * len(sents)) == select_evidence(
        claim, sents, max_words=40)


def test_evidence_scores_do_not_depend_on_the_hash_seed() -> None:
    # summing IDF weights over a set in its iteration order made the scores differ in the last
    # bit between processes, so tied sentences swapped and verdicts changed (0.48 / 0.52 on one
    # answer); the sums are exact now (math.fsum)
    code = ("from guardrail.align.claims import _lexical_scores\n"
            "s = ['Harbour Bridge The Harbour Bridge opened to traffic in 1932.', 'Harbour Bridge: Length: 1,149 m.',\n"
            "     'Harbour Bridge: Designer: John Bradfield.', 'The Harbour Bridge opened to traffic in 1932.']\n"
            "print(repr(_lexical_scores('The Harbour Bridge opened in 1932 and is 1,149 metres long.', s).tolist()))\n")
    root = str(Path(__file__).resolve().parents[2])
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root,
                           env={**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": root}).stdout
            for seed in range(8)}
    assert len(outs) == 1, outs
