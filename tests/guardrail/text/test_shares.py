"""Shares read in the evidence's form (:mod:`guardrail.text.shares`): fast, no model."""

from __future__ import annotations

import pytest

from guardrail.text.shares import match_share_forms
from guardrail.text.value_forms import match_value_forms

EVIDENCE = "About 40% of patients are better after 3 days, and 85% after 7 days."


@pytest.mark.parametrize(("claim", "expected"), [
    ("Roughly four in ten people feel better by day three.", "Roughly 40% of people feel better by day three."),
    ("4 out of 10 are better after 3 days.", "40% are better after 3 days."),
    ("Roughly six in ten people feel better.", "Roughly six in ten people feel better."),  # 60%: not stated
    ("Forty per cent are better.", "Forty per cent are better."),  # words, not a share surface it reads
    ("332 in 2023 were better.", "332 in 2023 were better."),  # not a share
])
def test_a_share_the_evidence_states_is_written_in_its_form(claim: str, expected: str) -> None:
    assert match_share_forms(EVIDENCE, claim) == expected


def test_fractions_and_rounded_shares() -> None:
    assert match_share_forms("A third of staff work remotely.", "33% of staff work remotely.") == (
        "A third of staff work remotely.")
    assert match_share_forms("Half of the pupils passed.", "50% of the pupils passed.") == "Half of the pupils passed."
    assert match_share_forms("33% of staff work remotely.", "One in three staff work remotely.") == (
        "33% of staff work remotely.")
    assert match_share_forms("34% of staff work remotely.", "One in three staff work remotely.") == (
        "One in three staff work remotely.")  # 34 is not a rounded third
    assert match_share_forms("Four in ten agreed.", "40.4% agreed.") == "40.4% agreed."  # exact shares must agree


def test_of_is_changed_only_between_a_proportion_and_a_percentage() -> None:
    # a percentage read as another percentage keeps its words: "15 per cent growth" is not "15% of growth"
    assert match_share_forms("Sales rose 15% in 2024.", "Sales saw 15 per cent growth.") == "Sales saw 15% growth."
    assert match_share_forms("A quarter of pupils were absent.", "Absence hit 25% of pupils.") == (
        "Absence hit a quarter of pupils.")
    assert match_share_forms("One in four pupils were absent.", "Absence hit 25% of pupils.") == (
        "Absence hit one in four pupils.")
    # a share the evidence also writes as the claim does stays as written
    assert match_share_forms("A quarter of pupils, 25% of them, were absent.", "Absence hit 25% of pupils.") == (
        "Absence hit 25% of pupils.")


def test_value_forms_read_shares_even_without_digits() -> None:
    ev, claim = match_value_forms("Seven in ten voters backed the plan.", "70% of voters backed the plan.")
    assert claim == "Seven in ten voters backed the plan."
    assert match_value_forms(EVIDENCE, "Four in ten are better after three days.")[1] == (
        "40% are better after 3 days.")


def test_any_fraction_of_a_small_numerator_is_a_share() -> None:
    from guardrail.text.shares import match_share_forms, share_values

    assert match_share_forms("The policy covers up to 80% of the cost.", "It covers up to four fifths of the cost.") \
        == "It covers up to 80% of the cost."
    assert [round(p, 1) for _, _, p, _, _ in share_values("three eighths of them and two-fifths of us")] == [37.5, 40.0]
    assert match_share_forms("The policy covers up to 80% of the cost.", "It covers up to three fifths of the cost.") \
        == "It covers up to three fifths of the cost."
