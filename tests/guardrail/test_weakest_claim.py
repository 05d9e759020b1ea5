"""The least supported claim of a verdict (:mod:`guardrail.explain.weakest`, issue 25): read from
the verifier's claim details; nothing without the verifier. Fast: detector outputs as the verifier
reports them."""

from __future__ import annotations

from guardrail.explain.weakest import ClaimSupport, weakest_claim
from guardrail.types import DetectorOutput


def test_the_claim_with_the_lowest_support_is_returned() -> None:
    out = DetectorOutput(name="verifier", score=0.6, details={"claims": [
        {"start": 0, "end": 10, "p_supported": 0.56, "evidence": "a"},
        {"start": 11, "end": 20, "p_supported": 0.40, "evidence": "b"},
        {"start": 21, "end": 30, "p_supported": 0.40, "evidence": "c"},
        {"start": -1, "end": -1, "p_supported": 0.01, "evidence": "no span"}]})
    assert weakest_claim([DetectorOutput(name="entity", score=0.1), out]) == ClaimSupport(11, 20, 0.40, "b")


def test_no_verifier_or_no_claim_gives_none() -> None:
    assert weakest_claim([DetectorOutput(name="entity", score=0.9)]) is None
    assert weakest_claim([DetectorOutput(name="verifier", score=0.0)]) is None
    assert weakest_claim([]) is None
