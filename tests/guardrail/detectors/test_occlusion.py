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
