"""Typed, immutable data carried through the pipeline and returned to users.

Every model here is a frozen pydantic model, so results can be hashed where their
fields allow, compared, and serialised to JSON (``model_dump_json``) and back
(``model_validate_json``) without custom code.

Terms follow the papers in the project brief: a *triple* is (subject, relation,
object); the *claim graph* is built from the answer, the *context graph* from the
retrieved passages; an *answer node* is a node of the claim graph.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from guardrail._frozen import FrozenDict, ReadOnlyDetails, ReadOnlyFloats, freeze
from guardrail.graph import KnowledgeGraph, Node, Span, Triple

__all__ = [
    "Span",
    "Node",
    "Triple",
    "KnowledgeGraph",
    "NodeSupport",
    "DetectorOutput",
    "FlaggedNode",
    "ContradictionPair",
    "EditOperation",
    "Explanation",
    "GuardResult",
    "RefinementRound",
]

_FROZEN = ConfigDict(frozen=True, extra="forbid")
#: Fields left out of compact dumps (logs, CLI output).
_COMPACT = {"claim_graph", "context_graph", "detectors"}


class NodeSupport(BaseModel):
    """How well one answer node is supported by the context, per detector.

    Parameters
    ----------
    node_id : str
        Id of the answer node.
    support : float
        In ``[0, 1]``; 1 = fully supported.
    evidence : str
        Text of the nearest context evidence (a triple string or passage snippet), or ``""``.
    evidence_span : Span or None
        Where that evidence sits in the context.
    """

    model_config = _FROZEN
    node_id: str
    support: float = Field(ge=0.0, le=1.0)
    evidence: str = ""
    evidence_span: Span | None = None


class DetectorOutput(BaseModel):
    """What one detector says about one answer.

    Parameters
    ----------
    name : str
        Detector name (``"wl_kernel"``, ``"grounding"``, ...).
    score : float
        Hallucination score in ``[0, 1]``; higher = less supported.
    node_support : tuple of NodeSupport
        Support per answer node (may be empty for answer-level detectors).
    details : mapping
        Detector-specific numbers (e.g. ``{"EG": 0.8, "RP": 0.5}``), JSON-serialisable; read-only.
    """

    model_config = _FROZEN
    name: str
    score: float = Field(ge=0.0, le=1.0)
    node_support: tuple[NodeSupport, ...] = ()
    details: ReadOnlyDetails = Field(default_factory=FrozenDict)


class FlaggedNode(BaseModel):
    """An answer node judged unsupported.

    Parameters
    ----------
    text : str
        The node's text as it appears in the answer.
    span : Span or None
        Character span in the answer (``source == -1``).
    support : float
        Combined support in ``[0, 1]`` (below the node threshold).
    evidence : str
        Nearest context evidence, ``""`` if none.
    evidence_span : Span or None
        Where the evidence sits in the context.
    reason : str
        One contrastive sentence ("the answer says ...; the context says ...").
    kb_fact : tuple of (str, str, str) or None
        With a knowledge base (``Guard(kb=...)``): the ``(subject, predicate, object)``
        IRIs of the KB triple this node contradicts (a literal object in N-Triples form,
        ``'"1989"'``); ``None`` otherwise.
    """

    model_config = _FROZEN
    node_id: str
    text: str
    span: Span | None = None
    support: float = Field(ge=0.0, le=1.0)
    evidence: str = ""
    evidence_span: Span | None = None
    reason: str = ""
    kb_fact: tuple[str, str, str] | None = None


class ContradictionPair(BaseModel):
    """A claim triple and a context triple that agree on two elements and differ on one.

    ``differs`` names the element that differs: ``"subject"``, ``"relation"`` or ``"object"``
    (KEA Explain, section on contrastive explanations).
    """

    model_config = _FROZEN
    claim: Triple
    evidence: Triple
    differs: Literal["subject", "relation", "object"]
    similarity: float = Field(ge=-1.0, le=1.0)


class EditOperation(BaseModel):
    """One graph edit turning the claim graph into the evidence graph.

    Parameters
    ----------
    op : {"remove_edge", "add_edge", "relabel_node", "remove_node", "add_node"}
        The operation.
    triple : Triple or None
        The edge removed or added.
    node : str
        The node relabelled, removed or added (its text), if any.
    to : str
        The new label for ``relabel_node``.
    """

    model_config = _FROZEN
    op: Literal["remove_edge", "add_edge", "relabel_node", "remove_node", "add_node"]
    triple: Triple | None = None
    node: str = ""
    to: str = ""


class Explanation(BaseModel):
    """Why an answer was (not) flagged.

    Parameters
    ----------
    summary : str
        One or two sentences for humans.
    sentences : tuple of str
        One contrastive sentence per flagged node, in answer order.
    contradictions : tuple of ContradictionPair
        Claim/evidence triple pairs that differ in exactly one element.
    edits : tuple of EditOperation
        Edit operations from the claim graph to the evidence (KEA Explain).
    """

    model_config = _FROZEN
    summary: str = ""
    sentences: tuple[str, ...] = ()
    contradictions: tuple[ContradictionPair, ...] = ()
    edits: tuple[EditOperation, ...] = ()


class RefinementRound(BaseModel):
    """One round of the refinement loop (KG-Guard, section on iterative refinement).

    Parameters
    ----------
    round : int
        0 for the original answer, 1.. for re-prompted answers.
    answer : str
        The answer checked in this round.
    score : float
        Its hallucination score in ``[0, 1]``.
    passed : bool
        Whether it passed.
    flagged : tuple of str
        Texts of its flagged nodes.
    feedback : str
        The feedback message sent to the LLM after this round (``""`` for the last).
    """

    model_config = _FROZEN
    round: int = Field(ge=0)
    answer: str
    score: float = Field(ge=0.0, le=1.0)
    passed: bool
    flagged: tuple[str, ...] = ()
    feedback: str = ""


class GuardResult(BaseModel):
    """The verdict on one answer.

    Parameters
    ----------
    passed : bool
        True when the answer is judged supported (``score < threshold`` and not abstained).
    score : float
        Hallucination score in ``[0, 1]``; higher = less supported. Abstentions carry 0.5.
    threshold : float
        The decision threshold used, in ``[0, 1]``.
    abstained : bool
        True when the guard could not judge (empty answer, empty context, nothing
        extracted, unsupported language); ``passed`` is then False.
    abstain_reason : str
        Why it abstained, ``""`` otherwise.
    declined : bool
        True when the answer declines to answer as a whole ("I don't know.", "The context
        does not say."; :func:`guardrail.text.declines.is_declined`): it states no fact, so
        nothing is flagged and it is not judged; ``passed`` is then
        ``GuardConfig.declined_passes`` (True by default).
    answer : str
        The answer as checked (never dropped).
    id : str or None
        Caller-supplied id.
    question : str or None
        The question, when given.
    detector_scores : mapping of str to float
        Each detector's hallucination score in ``[0, 1]`` (read-only).
    detectors : tuple of DetectorOutput
        Every detector's full output (node support, details such as GGA's PRD and SAS), in run
        order; left out of :meth:`to_json` / :meth:`to_dict` with ``compact=True``.
    claim_graph, context_graph : KnowledgeGraph
        The answer's graph and the context graph: relation-selected (KEA Explain: each
        claim triple's most similar context triple) for a flagged answer, the full
        merged context graph for a passing one.
    flagged_nodes : tuple of FlaggedNode
        Unsupported answer nodes, in answer order.
    explanation : Explanation
        Contrastive explanation.
    timings : mapping of str to float
        Read-only milliseconds per stage (``validate``, ``extract``, ``encode``, ``detect``, ``explain``...).
    total_ms : float
        Wall time of the whole check in milliseconds.
    config : str
        Name of the configuration used (e.g. ``"short"`` or ``"long"``).
    history : tuple of RefinementRound
        Filled by the refinement loop; empty otherwise.
    """

    model_config = _FROZEN
    passed: bool
    score: float = Field(ge=0.0, le=1.0)
    threshold: float = Field(ge=0.0, le=1.0)
    abstained: bool = False
    abstain_reason: str = ""
    declined: bool = False
    answer: str = ""
    id: str | None = None
    question: str | None = None
    detector_scores: ReadOnlyFloats = Field(default_factory=FrozenDict)
    detectors: tuple[DetectorOutput, ...] = ()
    claim_graph: KnowledgeGraph = Field(default_factory=KnowledgeGraph)
    context_graph: KnowledgeGraph = Field(default_factory=KnowledgeGraph)
    flagged_nodes: tuple[FlaggedNode, ...] = ()
    explanation: Explanation = Field(default_factory=Explanation)
    timings: ReadOnlyFloats = Field(default_factory=FrozenDict)
    total_ms: float = Field(default=0.0, ge=0.0)
    config: str = ""
    history: tuple[RefinementRound, ...] = ()

    def __hash__(self) -> int:
        """A hash of the verdict's fields (equal results hash equal; detector details are left out)."""
        return hash((self.passed, self.score, self.threshold, self.abstained, self.abstain_reason, self.declined,
                     self.answer, self.id, self.question, self.config, self.detector_scores, self.flagged_nodes))

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> GuardResult:
        """A copy with ``update`` applied (its mappings made read-only, as validation makes them)."""
        if update:
            update = {k: freeze(v) if k in ("detector_scores", "timings") else v for k, v in update.items()}
        return super().model_copy(update=update, deep=deep)

    def to_json(self, *, compact: bool = False) -> str:
        """Serialise to JSON; ``compact=True`` drops the two graphs and the detector outputs (for logs
        and CLI output)."""
        return self.model_dump_json(exclude=_COMPACT if compact else None)

    def to_dict(self, *, compact: bool = False) -> dict[str, Any]:
        """Return a JSON-compatible dict; see :meth:`to_json`."""
        return self.model_dump(mode="json", exclude=_COMPACT if compact else None)
