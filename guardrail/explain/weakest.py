"""The least supported claim of a verdict: what a flagged answer without a flagged node names.

A verdict is an aggregate (a logistic over the verifier and the graph signals), while a node
is flagged only when its own claim's support falls below the node threshold. So an answer can
fail with no node flagged: every claim just above the node threshold, the graph signals tipping
the whole over the answer threshold (a faithful paraphrase on the refinement benchmark scored
0.495 against 0.487, its weakest claim supported at 0.3997 against 0.398). Such a verdict still
has a weakest claim, the verifier's answer sentence with the lowest probability of being
supported, and the evidence sentence it was read against: :func:`weakest_claim` returns it, so
the explanation can name it instead of saying that every node is supported, and the refinement
loop can ask for that sentence to be restated from its evidence instead of sending empty feedback.

The verifier reports its claims in ``details["claims"]`` (answer offsets, ``p_supported``,
evidence sentence; :class:`guardrail.detectors.verifier.VerifierDetector`); other detectors have
no claim-level support, so a verdict without the verifier has no weakest claim.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from guardrail.types import DetectorOutput

__all__ = ["ClaimSupport", "weakest_claim"]


@dataclass(frozen=True)
class ClaimSupport:
    """One answer claim as the verifier read it.

    Parameters
    ----------
    start, end : int
        Character offsets of the claim in the answer (``answer[start:end]``).
    support : float
        The verifier's probability that the claim is supported, in [0, 1].
    evidence : str
        The context sentence it was read against (``""``: none).
    """

    start: int
    end: int
    support: float
    evidence: str


def weakest_claim(outputs: Sequence[DetectorOutput], detector: str = "verifier") -> ClaimSupport | None:
    """The claim with the lowest support in ``detector``'s ``details["claims"]``.

    Parameters
    ----------
    outputs : sequence of DetectorOutput
        A verdict's detector outputs (:attr:`guardrail.types.GuardResult.detectors`).
    detector : str
        The detector whose claims are read (default ``"verifier"``).

    Returns
    -------
    ClaimSupport or None
        The least supported claim (the first of equals), or ``None`` when that detector did not
        run or reported no claim with a span.

    Examples
    --------
    >>> out = DetectorOutput(name="verifier", score=0.6, details={"claims": [
    ...     {"start": 0, "end": 10, "p_supported": 0.56, "evidence": "a"},
    ...     {"start": 11, "end": 20, "p_supported": 0.40, "evidence": "b"}]})
    >>> weakest_claim([out])
    ClaimSupport(start=11, end=20, support=0.4, evidence='b')
    """
    claims = next((o.details.get("claims") for o in outputs if o.name == detector), None) or ()
    best: ClaimSupport | None = None
    for c in claims:
        start, end = int(c.get("start", -1)), int(c.get("end", -1))
        if 0 <= start < end:
            here = ClaimSupport(start, end, float(c.get("p_supported", 1.0)), str(c.get("evidence") or ""))
            if best is None or here.support < best.support:
                best = here
    return best
