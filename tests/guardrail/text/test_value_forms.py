"""The claim's values in the evidence's surface (issue 23): :mod:`guardrail.text.value_forms`."""

from __future__ import annotations

import pytest

from guardrail.text.value_forms import match_value_forms

EVIDENCE = "Founded on 3 March 2011, Norvik reported revenue of $1.5 million in 2023, up 15%, with 40 thousand users."


@pytest.mark.parametrize(("claim", "read"), [
    ("Revenue was $1,500,000.", "Revenue was $1.5 million."),
    ("Revenue was $1500000.", "Revenue was $1.5 million."),
    ("It grew fifteen per cent.", "It grew 15%."),
    ("It grew 15 percent.", "It grew 15%."),
    ("It was founded on 2011-03-03.", "It was founded on 3 March 2011."),
    ("It was founded on March 3, 2011.", "It was founded on 3 March 2011."),
    ("It was founded on the 3rd of March 2011.", "It was founded on the 3 March 2011."),
    ("It has 40,000 users.", "It has 40 thousand users."),
])
def test_an_equal_value_is_read_in_the_evidence_surface(claim, read):
    assert match_value_forms(EVIDENCE, claim) == (EVIDENCE, read)


@pytest.mark.parametrize("claim", [
    "Revenue was $2,500,000.",          # another value
    "It grew 25 percent.",
    "It was founded on 2011-03-13.",
    "It was founded on March 3, 2012.",
    "It has 41,000 users.",
    "Revenue was $1.5 million in 2023.",  # already the evidence's surface
    "Norvik is a robot maker.",          # no value
])
def test_other_values_and_equal_surfaces_stay_as_written(claim):
    assert match_value_forms(EVIDENCE, claim) == (EVIDENCE, claim)


def test_the_evidence_is_never_rewritten_and_years_are_no_large_numbers():
    ev = "The bridge opened in 1932 and cost 10 million pounds."
    assert match_value_forms(ev, "It opened in 1932 at a cost of 10,000,000 pounds.") == (
        ev, "It opened in 1932 at a cost of 10 million pounds.")


@pytest.mark.parametrize(("evidence", "claim", "read"), [
    ("It became Buddhist at the end of the 12th century.", "It turned Buddhist late in the 1100s.",
     "It turned Buddhist late in the 12th century."),
    ("The mill was built in the 1800s.", "The mill dates from the 19th century.", "The mill dates from the 1800s."),
    ("The mill was built in the 1880s.", "The mill dates from the 19th century.",
     "The mill dates from the 19th century."),  # a decade is no century
    ("The mill was built in the 1800s.", "The mill dates from the 18th century.",
     "The mill dates from the 18th century."),  # another century
])
def test_a_century_reads_in_the_evidence_surface(evidence, claim, read):
    assert match_value_forms(evidence, claim) == (evidence, read)


def test_a_decade_without_its_century_takes_the_evidences_one_decade() -> None:
    from guardrail.text.value_forms import match_value_forms

    ev = "The band was most popular in the 1990s."
    assert match_value_forms(ev, "It peaked in the nineties.")[1] == "It peaked in the 1990s."
    assert match_value_forms(ev, "It peaked in the '90s.")[1] == "It peaked in the 1990s."
    assert match_value_forms(ev, "It peaked in the eighties.")[1] == "It peaked in the eighties."
    assert match_value_forms(ev, "It peaked in the 1890s.")[1] == "It peaked in the 1890s."  # a century is a value
    two = "It was popular in the 1890s and again in the 1990s."
    assert match_value_forms(two, "It peaked in the nineties.")[1] == "It peaked in the nineties."  # which one?
