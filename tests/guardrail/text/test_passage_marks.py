"""Marks in passages that state nothing (``guardrail.text.passage_marks``), blanked at the same length."""

from __future__ import annotations

import pytest

from guardrail.text.passage_marks import blank_passage_marks
from guardrail.text.structure import normalize_passage


@pytest.mark.parametrize(("text", "read"), [
    ("It was founded in 2011.[1] Its seat is Gothenburg[2][a]. It grew.[citation needed]",
     "It was founded in 2011. Its seat is Gothenburg . It grew."),
    ("Use arr[1] to get the second item.", "Use arr[1] to get the second item."),  # code: no marker after punctuation
    ("It was estab\u00adlished in Gothen\u00adburg.", "It was established in Gothenburg ."),
    ("[00:01:23] Speaker 1: It opened in 1932.\n[01:02] Speaker 2: Thanks.", "Speaker 1: It opened in 1932. Speaker 2: Thanks."),
])
def test_citation_markers_and_invisible_characters(text, read):
    out = blank_passage_marks(text)
    assert len(out) == len(text) and " ".join(out.split()) == read


def test_normalize_passage_reads_them_away():
    assert " ".join(normalize_passage("It opened in 1932.[1]\nIt is estab\u00adlished.").split()) == (
        "It opened in 1932. It is established .")
