"""strip_hedges: hedges and stance markers frame a claim without changing what it states."""

from __future__ import annotations

import pytest

from guardrail.text.hedges import strip_hedges


@pytest.mark.parametrize(("sentence", "plain"), [
    ("I think Apple was founded in 1999.", "Apple was founded in 1999."),
    ("Apple was founded in 1999, but I'm not sure.", "Apple was founded in 1999."),
    # stance and discourse markers (issue 23: "Funny enough, ..." read 0.11 supported, 0.90 without)
    ("Funny enough, it was French soldiers who found it in 1799.", "it was French soldiers who found it in 1799."),
    ("Fun fact: it was French soldiers.", "it was French soldiers."),
    ("Believe it or not, French soldiers found it.", "French soldiers found it."),
    ("French soldiers found it in 1799, funnily enough.", "French soldiers found it in 1799."),
    ("Interestingly, the CEO, Anna Lind, resigned.", "the CEO, Anna Lind, resigned."),
    ("In fact, it was 1799.", "it was 1799."),
])
def test_hedges_and_stance_markers_are_stripped(sentence, plain):
    assert strip_hedges(sentence) == plain


@pytest.mark.parametrize("sentence", [
    "Still water is calm.",  # a marker only with its comma
    "In fact the claim is fine.",
    "Actually it was 1799.",
    "Funny people run the company.",
    "Interesting results were published in 2020.",
])
def test_words_that_are_part_of_the_claim_stay(sentence):
    assert strip_hedges(sentence) == sentence
