"""``kg_swaps``: a swapped value that the context states elsewhere, with real spaCy."""

from __future__ import annotations

from typing import Any

import pytest

from guardrail import Guard
from guardrail.config import GuardConfig
from guardrail.detectors import REGISTRY, build_detector
from guardrail.detectors.base import AlignmentInput
from guardrail.errors import InvalidInputError
from guardrail.types import KnowledgeGraph

ARDWYN = ("Ardwyn Optics was founded in 1998 by Mara Quell in the Welsh city of Cardiff. "
          "The company opened its second plant, in Swansea, in 2006. It employs 340 people.")
NORVIK = ("Lena Ortiz is the chief executive of Norvik. "
          "The chief technology officer, Sam Hale, leads the research lab at Norvik.")
MUSEUM = ("The museum closed in March 2016 for renovation. It reopened in May 2019; the work cost "
          "4 million euros. Its director since 2012 is Ida Brun.")


def run(answer: str, *contexts: str) -> Any:
    item = AlignmentInput(answer=answer, contexts=contexts, question=None, claim_graph=KnowledgeGraph(),
                          context_graph=KnowledgeGraph(), encoder=None)  # type: ignore[arg-type]
    return build_detector("kg_swaps").detect(item)


def flagged(out: Any) -> list[str]:
    return [f["text"] for f in out.details["flags"]]


def test_a_year_stated_elsewhere_is_flagged_with_the_sentence_it_contradicts() -> None:
    out = run("Ardwyn Optics was founded in 2006.", ARDWYN)
    assert flagged(out) == ["2006"]
    flag = out.details["flags"][0]
    assert "1998" in flag["reason"] and flag["evidence"].startswith("Ardwyn Optics was founded in 1998")
    assert "said elsewhere" in flag["reason"]  # 2006 is the second plant's year
    assert out.score >= 0.6


def test_a_person_swapped_for_one_named_elsewhere_is_flagged() -> None:
    out = run("Lena Ortiz leads the research lab at Norvik.", NORVIK)
    assert flagged(out) == ["Lena Ortiz"] and "Sam Hale" in out.details["flags"][0]["reason"]


def test_a_place_swapped_for_one_named_elsewhere_is_flagged() -> None:
    context = "Norvik was founded in Oslo in 2001. Its second office opened in Bergen in 2010."
    assert flagged(run("Norvik was founded in Bergen.", context)) == ["Bergen"]
    assert flagged(run("Norvik was founded in Oslo.", context)) == []


def test_a_company_is_not_swapped_for_a_city() -> None:
    # the context calls the company "the company" next to the city: not a rival for its name
    context = "Ardwyn Optics was founded in Cardiff in 1998. The company opened its second plant in Swansea in 2006."
    assert "Ardwyn Optics" not in flagged(run("Ardwyn Optics opened its second plant in Cardiff.", context))


FAITHFUL = [
    # synonym ("set up"), the right values
    ("Ardwyn Optics was set up in 1998 by Mara Quell.", ARDWYN),
    # a synthesis of two sentences, clause order changed, a difference the context licenses
    ("Its second plant, in Swansea, opened in 2006, eight years after Mara Quell founded the firm in Cardiff.",
     ARDWYN),
    # apposition, synonym ("runs"), two facts merged
    ("Sam Hale, Norvik's chief technology officer, runs its research lab; Lena Ortiz is chief executive.", NORVIK),
    # a clause whose subject the context gives by a pronoun, next to another dated clause
    ("The renovation cost 4 million euros and Ida Brun has run the museum since 2012.", MUSEUM),
    # number written out, "1.5 million", passive voice
    ("Fourteen engineers work at Quillo, which was bought by Orbit in March 2022 for $1.5 million.",
     "Orbit acquired Quillo for 1,500,000 dollars in March 2022. Quillo employs 14 engineers."),
    # clause order, number written out
    ("On 15 July the offer ends; until then the price is ten euros.",
     "The offer runs until 15 July. Prices start at 10 euros."),
]


@pytest.mark.parametrize(("answer", "context"), FAITHFUL)
def test_faithful_rewording_is_not_flagged(answer: str, context: str) -> None:
    out = run(answer, context)
    assert out.score == 0.0, out.details["flags"]


def test_registered_and_parameters_checked() -> None:
    assert "kg_swaps" in REGISTRY and build_detector("kg_swaps").name == "kg_swaps"
    cls = build_detector("kg_swaps").__class__
    for bad in ({"margin": -0.1}, {"value_weight": -1.0}, {"margin": True}, {"evidence_words": 3}):
        with pytest.raises(InvalidInputError):
            cls(**bad)


def test_runs_inside_a_guard_and_flags_the_swapped_node() -> None:
    cfg = GuardConfig(name="swaps", detectors=["kg_swaps"], aggregation="max", weights={"kg_swaps": 1.0},
                      threshold=0.5, node_threshold=0.5)
    guard = Guard(config=cfg)
    res = guard.check("Ardwyn Optics was founded in 2006.", [ARDWYN])
    assert not res.passed and any(n.text == "2006" for n in res.flagged_nodes)
    assert guard.check("Ardwyn Optics was founded in 1998.", [ARDWYN]).passed


def test_unrelated_passages_do_not_hide_the_swap() -> None:
    other = ("Cardiff is the capital of Wales. Its population was 362,000 in 2021. "
             "The city hosts a rugby stadium that opened in 1999.")
    for contexts in ([ARDWYN], [ARDWYN, other], [other, ARDWYN, other.replace("Cardiff", "Swansea")]):
        assert flagged(run("Ardwyn Optics was founded in 2006.", *contexts)) == ["2006"], contexts


def test_with_the_verifier_as_node_source_the_swapped_value_is_flagged() -> None:
    # the verifier may pass this claim: the flagged node must then come from kg_swaps (issue 23 item 5)
    cfg = GuardConfig(name="v+swaps", detectors=["verifier", "kg_swaps"], aggregation="max",
                      weights={"verifier": 1.0, "kg_swaps": 1.0}, threshold=0.5, node_threshold=0.5,
                      node_source="verifier")
    res = Guard(config=cfg).check("Ardwyn Optics was founded in 2006.", [ARDWYN])
    assert not res.passed
    assert "2006" in [n.text for n in res.flagged_nodes]
