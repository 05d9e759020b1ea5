"""Claims a context sentence states word for word (``guardrail.align.verbatim``) and the verifier's
support for them (issue 23: the verifier scored a sentence against itself at p 0.28)."""

from __future__ import annotations

import pytest

from guardrail import Guard, GuardConfig
from guardrail.align.verbatim import stated_verbatim

SHINGLES = ["The shingles vaccine is offered to everyone turning 65 and to people aged 50 and over with a severely "
            "weakened immune system.", "Two doses are given, 6 to 12 months apart."]


@pytest.mark.parametrize("claim", [
    "The shingles vaccine is offered to everyone turning 65.",  # a run of the sentence
    "the shingles vaccine is offered to everyone turning 65 and to people aged 50 and over",  # case, punctuation
    "Two doses are given 6 to 12 months apart.",
])
def test_a_run_of_a_context_sentence_is_stated(claim: str) -> None:
    assert stated_verbatim([claim], SHINGLES) == [True]


@pytest.mark.parametrize(("claim", "context"), [
    ("Three doses are given, 6 to 12 months apart.", SHINGLES),  # a minimal edit
    ("Two doses are given, 6 to 12 weeks apart.", SHINGLES),
    ("The museum is closed on Mondays.", ["It is not true that the museum is closed on Mondays."]),
    ("The museum is closed on Mondays.", ["Critics claim the museum is closed on Mondays."]),
    ("The museum is closed on Mondays.", ["Visitors asked whether the museum is closed on Mondays."]),
    ("The museum is open on Mondays.", ["The museum is open on Mondays not at all, only on Sundays."]),
    ("It is closed on Mondays.", ["It is closed on Mondays."]),  # a pronoun's referent is unknown
    ("Yes, it is.", ["Yes, it is."]),  # too short to tell
])
def test_an_edit_a_negated_reported_or_pronoun_claim_is_not_stated(claim: str, context: list[str]) -> None:
    assert stated_verbatim([claim], context) == [False]


def test_the_verifier_supports_a_copied_claim_and_still_fails_its_edit() -> None:
    guard = Guard(GuardConfig(name="verifier only", detectors=["verifier"]))
    copied = guard.check(SHINGLES[0], SHINGLES, log=False)
    assert copied.detectors[0].details["claims"][0]["p_supported"] >= 0.95
    edited = guard.check(SHINGLES[0].replace("65", "60"), SHINGLES, log=False)
    assert edited.detectors[0].details["claims"][0]["p_supported"] < 0.5
