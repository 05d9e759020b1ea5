"""Occlusion names the culprit of an unsupported claim (issue 23, item 5)."""

from __future__ import annotations

import numpy as np
import pytest

from guardrail import Guard
from guardrail.detectors.occlusion import MAX_OCCLUSIONS, occlusion_gains, without


@pytest.mark.parametrize(("claim", "text", "expected"), [
    ("Ardwyn was founded in 1995 in Sherbrooke.", "1995", "Ardwyn was founded in Sherbrooke."),
    ("Ardwyn was founded in 1995 in Sherbrooke.", "Sherbrooke", "Ardwyn was founded in 1995."),
    ("Odile Varnay succeeded Desmond Achebe.", "Odile Varnay", "succeeded Desmond Achebe."),
    ("It weighs 450 kg.", "45", None),  # whole words only
    ("Paris.", "Paris", None),  # nothing would be left
    ("Ardwyn makes lenses.", "Monterrey", None),
])
def test_without_removes_the_value_and_its_preposition(claim: str, text: str, expected: str | None) -> None:
    assert without(claim, text) == expected


@pytest.mark.parametrize(("claim", "text", "kind", "expected"), [
    ("Odile Varnay succeeded Desmond Achebe.", "Odile Varnay", "PERSON", "Someone succeeded Desmond Achebe."),
    ("Kofi Mensah scored twice, and Callum Reid added the third.", "Callum Reid", "PERSON",
     "Kofi Mensah scored twice, and someone added the third."),
    ("On Monday the Norwegian will climb eight places.", "Norwegian", "NORP", "On Monday someone will climb eight places."),
    ("Google acquired YouTube.", "YouTube", "ORG", "Google acquired an organisation."),
    ("Ardwyn was founded in 1995 in Sherbrooke.", "Sherbrooke", "GPE", "Ardwyn was founded in 1995."),  # a preposition's
    ("Ardwyn was founded in 1995.", "1995", "DATE", "Ardwyn was founded."),  # values are removed, not replaced
])
def test_a_name_no_preposition_governs_gets_a_stand_in(claim: str, text: str, kind: str, expected: str) -> None:
    """Deleting a subject leaves a fragment the verifier reads as vaguer, hence better supported:
    "Kofi Mensah" was named the culprit of "Kofi Mensah got two goals ... and Callum Reid added the third"
    (gain 0.16 against Reid's 0.14) until a stand-in kept the sentence whole (0.04 against 0.16)."""
    assert without(claim, text, kind) == expected


class _Scripted:
    """A scripted verifier (stands in for the cross-encoder to pin the arithmetic): p = 0.9 once
    the word "1995" is gone, else 0.2."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def score(self, evidence: list[str], claims: list[str]) -> list[float]:
        self.calls.append(list(claims))
        return [0.2 if "1995" in c else 0.9 for c in claims]


def test_gains_are_measured_against_the_claims_own_p_and_capped() -> None:
    v = _Scripted()
    claims = ["Ardwyn was founded in 1995 in Sherbrooke."]
    gains = occlusion_gains(v, claims, ["ev"], np.array([0.2]), [(0, "a", "1995"), (0, "b", "Sherbrooke"),
                                                                 (0, "c", "Quebec")])
    assert gains == pytest.approx({"a": 0.7, "b": 0.0})  # "Quebec" is not in the claim: left out
    many = [(0, str(i), "1995") for i in range(MAX_OCCLUSIONS + 5)]
    occlusion_gains(v, claims, ["ev"], np.array([0.2]), many)
    assert len(v.calls[-1]) == MAX_OCCLUSIONS


CONTEXT = ["Ardwyn Optics was founded in 1989 by Odile Varnay in Sherbrooke, Quebec. It opened a second plant "
           "in Monterrey in 2006. The company makes precision lenses."]


@pytest.mark.slow
@pytest.mark.parametrize(("answer", "culprit"), [
    ("Ardwyn Optics was founded in 1995 by Odile Varnay in Sherbrooke.", "1995"),
    ("Ardwyn Optics opened a second plant in Monterrey in 2011.", "2011"),
])
def test_the_real_guard_flags_the_swapped_value_not_the_names_around_it(guard: Guard, answer: str,
                                                                        culprit: str) -> None:
    r = guard.check(answer, CONTEXT, log=False)
    assert not r.passed
    assert [n.text for n in r.flagged_nodes] == [culprit]


def _item(answer: str, context: str, values: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _fakes import FakeEncoder

    from guardrail.detectors.base import AlignmentInput
    from guardrail.types import KnowledgeGraph, Node, Span

    nodes = tuple(Node(id=f"-1:{answer.index(t)}", text=t, label=t.lower(), kind=kind,
                       span=Span(start=answer.index(t), end=answer.index(t) + len(t), source=-1)) for t, kind in values)
    return AlignmentInput(answer, (context,), None, KnowledgeGraph(nodes=nodes), KnowledgeGraph(texts=(context,)),
                          FakeEncoder())


@pytest.mark.parametrize("occlusion", [True, False])
def test_only_the_culprit_is_flagged_with_occlusion(occlusion: bool) -> None:
    """Scripted verifier (as above): both "1995" and "Monterrey" are ungrounded in the evidence, so
    without occlusion both get support below 0.5; occlusion finds that only removing "1995" helps."""
    from guardrail.detectors.verifier import VerifierDetector

    answer = "Ardwyn was founded in 1995 in Monterrey."
    item = _item(answer, "Ardwyn was founded in 1989 in Quebec.", [("1995", "DATE"), ("Monterrey", "GPE")])
    out = VerifierDetector(_Scripted(), occlusion=occlusion).detect(item)
    low = sorted(s.node_id for s in out.node_support if s.support < 0.5)
    culprit = f"-1:{answer.index('1995')}"
    assert low == ([culprit] if occlusion else sorted([culprit, f"-1:{answer.index('Monterrey')}"]))
    assert out.score == pytest.approx(0.8)  # the answer's score does not change


def test_bad_switches_are_typed_errors() -> None:
    from guardrail.detectors.verifier import VerifierDetector
    from guardrail.errors import ConfigError, InvalidInputError
    from guardrail.policy.refine import Refiner

    with pytest.raises(InvalidInputError):
        VerifierDetector(_Scripted(), occlusion="yes")  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        Refiner(None, repair=1)  # type: ignore[arg-type]


MATCH = ["Redhill United came from behind to beat Ashford Town 3-1 at Meadow Park on Saturday. Ashford took the lead "
         "in the 12th minute through a header from captain Leon Barker. Redhill equalised just before half-time when "
         "striker Kofi Mensah converted a penalty, and Mensah added a second in the 67th minute. Substitute Jamie "
         "Ortiz sealed the win in stoppage time. Ashford finished with ten men after defender Callum Reid was sent "
         "off for a second yellow card in the 78th minute."]


@pytest.mark.slow
def test_the_swapped_scorer_is_flagged_not_the_subject_of_the_claim(guard: Guard) -> None:
    """The subject is replaced by a stand-in, not deleted: deleting "Kofi Mensah" left a fragment the
    verifier found better supported than the claim without the swapped-in "Callum Reid" (sent off, in
    the context), and the right scorer was flagged."""
    answer = ("Kofi Mensah got two of Redhill's goals, a penalty before the break and another in the 67th minute, "
              "and Callum Reid, on as a substitute, added the third in stoppage time.")
    r = guard.check(answer, MATCH, log=False)
    assert not r.passed
    assert [n.text for n in r.flagged_nodes] == ["Callum Reid"]
