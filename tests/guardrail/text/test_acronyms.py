"""An acronym and the words it stands for read alike (issue 23: faithful rewordings of names).

The expansion is read from the evidence itself; an acronym the evidence does not spell out, or
spells two ways, reads as written, so a wrong name is never made to look right.
"""

from __future__ import annotations

import pytest

from guardrail.text.acronyms import expansions, match_acronyms
from guardrail.text.value_forms import match_value_forms

EVIDENCE = "Maria Lopez is the chief executive of Brightwave. Tom Reed is its chief technology officer."


@pytest.mark.parametrize(("evidence", "claim", "read"), [
    (EVIDENCE, "Tom Reed is the CTO of Brightwave.", "Tom Reed is the chief technology officer of Brightwave."),
    ("The Food and Drug Administration approved it.", "The FDA approved it.",
     "The Food and Drug Administration approved it."),
    ("She works at the World Health Organization.", "She works at the WHO.",
     "She works at the World Health Organization."),
    ("Chief executive officers earn more.", "CEOs earn more.", "Chief executive officers earn more."),
    ("The NHS pays for it.", "The National Health Service pays for it.", "The NHS pays for it."),  # the other way
])
def test_an_acronym_is_read_as_the_evidence_writes_it(evidence: str, claim: str, read: str) -> None:
    assert match_acronyms(evidence, claim) == (evidence, read)


@pytest.mark.parametrize(("evidence", "claim"), [
    ("The chief executive resigned.", "The CEO resigned."),  # "chief executive" spells CE, not CEO
    ("It is the top choice for the team.", "IT is the top choice."),  # stop words never spell a letter
    ("He is not here at all.", "He is NOT here."),  # a shouted stop word is spelt only by capitalised words
    ("The chief technology officer and the chief test officer met.", "The CTO met."),  # two expansions
    (EVIDENCE, "Tom Reed is the CFO of Brightwave."),  # a wrong title stays wrong
    ("It moved to the U.S. in 1990.", "It moved to the US in 1990."),  # single letters spell nothing
    ("Investment income rose, as in Part II.", "II rose."),  # a Roman numeral is no acronym
])
def test_an_acronym_the_evidence_does_not_spell_once_reads_as_written(evidence: str, claim: str) -> None:
    assert match_acronyms(evidence, claim) == (evidence, claim)


def test_expansions_skip_function_words_inside_a_name() -> None:
    assert expansions("DOT", "The Department of Transport said so.") == {"Department of Transport"}


def test_the_verifier_input_reads_acronyms_with_values() -> None:
    ev = "Tom Reed has been its chief technology officer since 1 March 2020."
    assert match_value_forms(ev, "Tom Reed has been CTO since 2020-03-01.")[1] == (
        "Tom Reed has been chief technology officer since 1 March 2020.")
