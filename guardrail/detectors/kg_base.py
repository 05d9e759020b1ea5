"""Shared frame of the knowledge-graph contradiction checks (``kg_slots``, ``kg_roles``,
``kg_literals``, ``kg_negation``).

Every check reads the answer one claim unit (sentence) at a time, aligns it with its
evidence sentences (:func:`~guardrail.align.claims.select_evidence`, the verifier's
evidence choice) and returns :class:`Flag` records: the offending answer span, the
context sentence that contradicts it and a human-readable reason. The frame turns them
into a :class:`~guardrail.types.DetectorOutput`:

* ``score = 1 - prod(1 - confidence)`` over the flags, in ``[0, 1]`` (0 when none);
* ``node_support``: every claim-graph node that overlaps a flagged span gets
  ``1 - confidence`` with the contradicting sentence as evidence; the others 1;
* ``details["flags"]``: each flag as a dict (``text``, ``start``, ``end``, ``reason``,
  ``evidence``, ``source``, ``evidence_start``, ``evidence_end``, ``confidence``).

References
----------
KEA Explain (contradictory triple pairs: a claim and evidence that agree on all but one
element); HalluGraph (relation preservation); Sansford et al., GraphEval (2024): claims
checked one at a time against their evidence, with the offending node reported.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral
from typing import Any

from guardrail.align.claims import select_evidence
from guardrail.align.parsed import Sent
from guardrail.align.text_parses import parse_sentences
from guardrail.detectors._params import Interval, validated
from guardrail.detectors.base import AlignmentInput, Detector
from guardrail.types import DetectorOutput, NodeSupport, Span

__all__ = ["Flag", "KGCheckDetector", "flag_for"]


@dataclass(frozen=True)
class Flag:
    """One contradiction found by a check.

    Attributes
    ----------
    start, end : int
        The offending value or name in the answer (character offsets).
    text : str
        ``answer[start:end]``.
    reason : str
        Why, naming the evidence ("the answer says ...; the context says ...").
    evidence : str
        The context sentence that contradicts it.
    evidence_span : Span or None
        Where that sentence sits in the contexts.
    confidence : float
        In ``(0, 1]``.
    """

    start: int
    end: int
    text: str
    reason: str
    evidence: str
    evidence_span: Span | None
    confidence: float


def flag_for(claim: Sent, start: int, end: int, reason: str, ev: Sent | None, confidence: float) -> Flag:
    """A :class:`Flag` for ``claim.text[start:end]`` with ``ev`` as evidence (sentence offsets)."""
    span = Span(start=ev.base, end=ev.base + len(ev.text), source=ev.source) if ev is not None else None
    return Flag(claim.base + start, claim.base + end, claim.text[start:end], reason,
                ev.text if ev is not None else "", span, confidence)


class KGCheckDetector(Detector):
    """Base of the claim-by-claim contradiction checks.

    Parameters
    ----------
    evidence_words : int
        Word budget of each claim's aligned evidence (>= 10; default 80).
    name : str or None
        The registry row's name, when not the class default.

    Raises
    ------
    InvalidInputError
        ``evidence_words`` below 10.
    """

    name = "kg_check"
    uses_encoder = False

    _parameter_constraints = {"evidence_words": [Interval(Integral, 10, None)], "name": [str, None]}

    @validated
    def __init__(self, evidence_words: int = 80, name: str | None = None) -> None:
        self.evidence_words = evidence_words
        if name:
            self.name = name

    @abstractmethod
    def check_claim(self, claim: Sent, evidence: Sequence[Sent], context: Sequence[Sent]) -> list[Flag]:
        """Flags of one claim unit.

        Parameters
        ----------
        claim : Sent
            The parsed answer sentence.
        evidence : sequence of Sent
            Its aligned context sentences (best first).
        context : sequence of Sent
            Every context sentence, in order.
        """

    def evidence_for(self, claim: Sent, context: Sequence[Sent]) -> list[Sent]:
        """The claim's aligned evidence sentences, best first."""
        if not context:
            return []
        ev = select_evidence(claim.text, [c.text for c in context], max_words=self.evidence_words, neighbours=0)
        units = sorted(ev.units, key=lambda u: u != ev.best)
        return [context[u] for u in units]

    def detect(self, item: AlignmentInput) -> DetectorOutput:
        """Check every claim unit of the answer; see the module docstring for the output.

        Raises
        ------
        ExtractionError
            The spaCy model cannot be loaded.
        ImportError
            A normalisation library is missing (the message names the pip command).
        """
        claims = parse_sentences([item.answer], source_of=-1)
        context = parse_sentences(list(item.contexts))
        flags: list[Flag] = []
        for claim in claims:
            flags.extend(self.check_claim(claim, self.evidence_for(claim, context), context))
        return self.output(item, flags, len(claims))

    def output(self, item: AlignmentInput, flags: Sequence[Flag], n_claims: int) -> DetectorOutput:
        """The :class:`DetectorOutput` of ``flags`` (see the module docstring)."""
        keep = 1.0
        for f in flags:
            keep *= 1.0 - f.confidence
        support = []
        for n in item.claim_graph.nodes:
            hit = [f for f in flags if n.span is not None and n.span.source == -1
                   and n.span.start < f.end and n.span.end > f.start]
            if hit:
                f = max(hit, key=lambda x: x.confidence)
                support.append(NodeSupport(node_id=n.id, support=1.0 - f.confidence, evidence=f.evidence,
                                           evidence_span=f.evidence_span))
            else:
                support.append(NodeSupport(node_id=n.id, support=1.0))
        details: dict[str, Any] = {"claims": n_claims, "flags": [_flag_dict(f) for f in flags]}
        return DetectorOutput(name=self.name, score=min(1.0, max(0.0, 1.0 - keep)),
                              node_support=tuple(support), details=details)


def _flag_dict(f: Flag) -> dict[str, Any]:
    sp = f.evidence_span
    return {"text": f.text, "start": f.start, "end": f.end, "reason": f.reason, "evidence": f.evidence,
            "source": sp.source if sp else None, "evidence_start": sp.start if sp else None,
            "evidence_end": sp.end if sp else None, "confidence": round(f.confidence, 4)}
