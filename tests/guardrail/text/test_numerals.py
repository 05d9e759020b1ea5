"""Number words read as digits by the claim verifier (guardrail.text.numerals)."""

from __future__ import annotations

import pytest

from guardrail.models.claim_verifier import encode_pairs, shared_verifier
from guardrail.text.numerals import digits_for_words


@pytest.mark.parametrize(("text", "read"), [
    ("a staff of three hundred and forty", "a staff of 340"),
    ("Fourteen people and twenty-one dogs", "14 people and 21 dogs"),
    ("It runs for ten hours on one charge.", "It runs for 10 hours on one charge."),
    ("two thousand and eleven", "2011"),
    ("three million euros", "3 million euros"),
])
def test_cardinal_words_become_digits(text, read):
    assert digits_for_words(text) == read


@pytest.mark.parametrize("text", [
    "one of them",              # "one" is too often a pronoun
    "No one knows.",
    "a second puff",            # an ordinal, not a number
    "1.4 billion",              # a scale word after a digit
    "nineteen ninety",          # two numbers, not one
    "Ten-year plan",            # part of a compound word
    "It employs 340 people.",   # digits already
])
def test_other_words_are_left(text):
    assert digits_for_words(text) == text


def test_the_verifier_reads_both_forms_alike():
    tok = shared_verifier().load()._tok
    words = encode_pairs(tok, ["The company employs three hundred and forty people."], ["It has 340 staff."])
    digits = encode_pairs(tok, ["The company employs 340 people."], ["It has 340 staff."])
    assert words == digits
