"""Multiples read in the evidence's form (:mod:`guardrail.text.multiples`): fast, no model."""

from __future__ import annotations

import pytest

from guardrail.text.multiples import match_multiple_forms
from guardrail.text.value_forms import match_value_forms

EVIDENCE = "Meadows store about three times more carbon than previously estimated."


@pytest.mark.parametrize(("claim", "expected"), [
    ("They hold roughly triple earlier estimates.", "They hold roughly three times earlier estimates."),
    ("They hold a threefold amount.", "They hold a three times amount."),
    ("They hold 3-fold more.", "They hold three times more."),
    ("They hold twice as much carbon.", "They hold twice as much carbon."),  # another factor: left as written
    ("Divers surveyed them three times in 2023.", "Divers surveyed them three times in 2023."),  # a count
])
def test_a_multiple_the_evidence_states_is_written_in_its_form(claim: str, expected: str) -> None:
    assert match_multiple_forms(EVIDENCE, claim) == expected


def test_only_multiplicative_uses_are_read() -> None:
    assert match_multiple_forms("The room is double the size.", "She visits twice a week.") == (
        "She visits twice a week.")  # a frequency is not a multiple
    assert match_multiple_forms("Prices are twice as high.", "Prices are double the old level.") == (
        "Prices are twice the old level.")
    assert match_multiple_forms("Prices are twice as high.", "Prices are about double.") == "Prices are about twice."
    assert match_multiple_forms("Sales doubled.", "Sales are twice as high.") == "Sales are twice as high."  # verbs
    # a multiple the evidence also writes as the claim does stays as written
    assert match_multiple_forms("A threefold rise: three times more.", "It is three times more.") == (
        "It is three times more.")


def test_value_forms_read_multiples() -> None:
    assert match_value_forms(EVIDENCE, "They hold roughly triple earlier estimates.")[1] == (
        "They hold roughly three times earlier estimates.")
