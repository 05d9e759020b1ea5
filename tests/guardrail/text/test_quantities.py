"""match_quantity_forms: one amount in other units reads in the evidence's units; another amount,
one unit spelt two ways and numbers that are not amounts read as written (pint, no models)."""

from __future__ import annotations

import pytest

from guardrail._lazy import Lazy
from guardrail.text import quantities
from guardrail.text.quantities import match_quantity_forms
from guardrail.text.value_forms import match_value_forms


@pytest.mark.parametrize(("evidence", "claim", "expected"), [
    ("A full charge takes 10 hours.", "Charging takes 600 minutes.", "Charging takes 10 hours."),
    ("The final lasted two hours and 41 minutes.", "It went on for 161 minutes.",
     "It went on for 2 hours and 41 minutes."),
    ("The trail is 16 km long.", "The trail is 10 miles long.", "The trail is 16 km long."),
    ("He is 5 feet 11 inches tall.", "He is 1.80 m tall.", "He is 5 feet 11 inches tall."),
    ("The flat is 85 square metres.", "The flat is 915 square feet.", "The flat is 85 square metres."),
    ("Pay within 28 days.", "Pay within four weeks.", "Pay within 28 days."),
    ("The lifter carries 450 kilograms.", "It carries 992 pounds.", "It carries 450 kilograms."),
])
def test_an_amount_in_other_units_reads_in_the_evidence_units(evidence, claim, expected):
    assert match_quantity_forms(evidence, claim)[1] == expected


@pytest.mark.parametrize(("evidence", "claim"), [
    ("A full charge takes 10 hours.", "Charging takes 500 minutes."),  # another amount
    ("A full charge takes 10 hours.", "Charging takes 630 minutes."),  # 10.5 hours
    ("The trail is 16 km long.", "The trail is 10.3 miles long."),  # 16.6 km
    ("The record was 3 minutes 59.4 seconds.", "Both ran under four minutes."),  # finer than the claim
    ("It ran for 40 months.", "It ran for 3 years."),
    ("The ship sailed 2 centuries ago.", "The ship sailed 235 years ago."),  # coarse unit, 17 % off
    ("The ship sailed 3 months ago.", "The ship sailed 12 weeks ago."),  # 8 % off
    ("The drone weighs under 250 g.", "A 249 g drone needs no registration."),  # same unit: exact only
    ("The tower is 276 metres tall.", "The tower is 276 m tall."),  # one unit spelt two ways
    ("It ran 73 miles (117.5 km).", "It ran 73 miles."),  # the claim's surface is the evidence's
    ("Bake at 180 °C.", "Bake at 356 °F."),  # temperatures are left alone
    ("The band formed in 1990.", "The band formed in the 1990s."),  # a decade, not seconds
    ("The company employs 340 people.", "It employs 520 staff."),  # no unit
])
def test_other_amounts_and_non_amounts_read_as_written(evidence, claim):
    assert match_quantity_forms(evidence, claim) == (evidence, claim)


def test_pint_is_not_loaded_without_two_different_unit_words(monkeypatch):
    def no_pint() -> None:
        raise AssertionError("pint was loaded")

    monkeypatch.setattr(quantities, "_UREG", Lazy(no_pint))
    quantities._unit.cache_clear()
    for evidence, claim in [("It weighs 450 kg.", "It weighs 650 kg."), ("Founded in 1976 by Jobs.", "Founded in 1976."),
                            ("No numbers here.", "None here either.")]:
        assert match_quantity_forms(evidence, claim) == (evidence, claim)
    quantities._unit.cache_clear()


def test_value_forms_applies_the_unit_step_last():
    evidence, claim = match_value_forms("Revenue was $1.5 million; a charge lasts 10 hours.",
                                        "Revenue was $1,500,000 and a charge lasts 600 minutes.")
    assert claim == "Revenue was $1.5 million and a charge lasts 10 hours."


@pytest.mark.parametrize(("evidence", "claim", "expected"), [
    ("The link works for 7 days.", "The link is valid for a week.", "The link is valid for 7 days."),
    ("Leave lasts 14 days.", "Leave lasts a fortnight.", "Leave lasts 14 days."),
    ("The meeting lasts 30 minutes.", "The meeting lasts half an hour.", "The meeting lasts 30 minutes."),
    ("The warranty runs for 12 months.", "The warranty runs for a year.", "The warranty runs for 12 months."),
    ("The warranty runs for 24 months.", "The warranty runs for two years.", "The warranty runs for 24 months."),
    ("Refunds arrive within 1 hour.", "Refunds arrive within 60 minutes.", "Refunds arrive within 1 hour."),
])
def test_an_amount_named_by_an_article_or_in_words_is_an_amount(evidence, claim, expected):
    assert match_value_forms(evidence, claim)[1] == expected


@pytest.mark.parametrize(("evidence", "claim"), [
    ("Take 3 tablets every 24 hours.", "Take 3 tablets a day."),  # a rate, not a duration
    ("The shop is open 24 hours, 7 days.", "It is open 24 hours a day."),
    ("Classes meet for 7 days.", "Classes meet twice a week."),
    ("The course lasts 7 days.", "The course lasts two weeks."),  # another amount
    ("The course lasts 7 days.", "The course lasts a month."),
])
def test_a_rate_or_another_amount_named_by_an_article_reads_as_written(evidence, claim):
    assert match_value_forms(evidence, claim)[1] == claim
