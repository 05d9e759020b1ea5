"""The flagged-answer log record: what a sink writes for one flagged, abstained or
refined answer (see :mod:`guardrail.logsink` for the sinks)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from guardrail.types import GuardResult, Span

__all__ = ["LoggedNode", "LoggedExplanation", "FlaggedRecord", "context_hash", "Event"]

_FROZEN = ConfigDict(frozen=True, extra="forbid")
Event = Literal["flagged", "abstained", "refinement_round"]
_EVENTS = ("flagged", "abstained", "refinement_round")


def _utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def context_hash(contexts: str | Sequence[str]) -> str:
    """SHA-256 hex digest of the contexts joined by a blank line (``"\\n\\n"``).

    Lets a log identify the retrieved passages without storing them.
    """
    texts = [contexts] if isinstance(contexts, str) else [str(c) for c in contexts]
    return hashlib.sha256("\n\n".join(texts).encode("utf-8")).hexdigest()


class LoggedNode(BaseModel):
    """A flagged answer node as kept in the log.

    Parameters
    ----------
    text : str
        Node text as it appears in the answer.
    span : Span or None
        Character span in the answer.
    support : float
        Combined support in ``[0, 1]``.
    evidence : str
        Nearest context evidence, ``""`` if none.
    reason : str
        Contrastive sentence explaining the flag.
    """

    model_config = _FROZEN
    text: str
    span: Span | None = None
    support: float = Field(ge=0.0, le=1.0)
    evidence: str = ""
    reason: str = ""


class LoggedExplanation(BaseModel):
    """The human-readable part of an explanation (summary and one sentence per node)."""

    model_config = _FROZEN
    summary: str = ""
    sentences: tuple[str, ...] = ()


class FlaggedRecord(BaseModel):
    """One log entry: what was checked, the verdict, and why.

    Parameters
    ----------
    time : str
        UTC time of the record, ISO 8601 with milliseconds.
    id : str or None
        The caller's id of the answer.
    event : {"flagged", "abstained", "refinement_round"}
        Why the record was written.
    round : int or None
        Refinement round (``event == "refinement_round"``), else ``None``.
    question : str or None
        The question, when given.
    answer : str
        The answer as checked.
    context_hash : str
        :func:`context_hash` of the passages (the passages themselves are not stored).
    score, threshold : float
        Hallucination score and the threshold used, in ``[0, 1]``.
    passed, abstained : bool
        The verdict.
    abstain_reason : str
        Why the guard abstained, ``""`` otherwise.
    detector_scores : dict of str to float
        Per-detector scores.
    flagged_nodes : tuple of LoggedNode
        Unsupported answer nodes.
    explanation : LoggedExplanation
        Summary and contrastive sentences.
    config : str
        Name of the guard config used.
    """

    model_config = _FROZEN
    time: str = Field(default_factory=_utc_now)
    id: str | None = None
    event: Event = "flagged"
    round: int | None = None
    question: str | None = None
    answer: str = ""
    context_hash: str = ""
    score: float = Field(ge=0.0, le=1.0)
    threshold: float = Field(ge=0.0, le=1.0)
    passed: bool
    abstained: bool = False
    abstain_reason: str = ""
    detector_scores: dict[str, float] = Field(default_factory=dict)
    flagged_nodes: tuple[LoggedNode, ...] = ()
    explanation: LoggedExplanation = Field(default_factory=LoggedExplanation)
    config: str = ""

    @classmethod
    def from_result(
        cls, result: GuardResult, contexts: str | Sequence[str], *, event: str = "flagged",
        round: int | None = None,
    ) -> "FlaggedRecord":
        """Build the record of ``result``.

        Parameters
        ----------
        result : GuardResult
            The verdict to log.
        contexts : str or sequence of str
            The passages checked against (only their hash is stored).
        event : {"flagged", "abstained", "refinement_round"}
            ``"flagged"`` becomes ``"abstained"`` when ``result.abstained``.
        round : int or None
            Refinement round number.
        """
        if event not in _EVENTS:
            raise ValueError(f"unknown log event {event!r}; known: {list(_EVENTS)}")
        if event == "flagged" and result.abstained:
            event = "abstained"
        nodes = tuple(
            LoggedNode(text=n.text, span=n.span, support=n.support, evidence=n.evidence,
                       reason=n.reason)
            for n in result.flagged_nodes
        )
        return cls(
            id=result.id, event=cast(Event, event), round=round, question=result.question,
            answer=result.answer, context_hash=context_hash(contexts), score=result.score,
            threshold=result.threshold, passed=result.passed, abstained=result.abstained,
            abstain_reason=result.abstain_reason, detector_scores=dict(result.detector_scores),
            flagged_nodes=nodes,
            explanation=LoggedExplanation(summary=result.explanation.summary,
                                          sentences=result.explanation.sentences),
            config=result.config,
        )
