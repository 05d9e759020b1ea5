"""Typed, immutable data carried through the pipeline and returned to users.

Every model here is a frozen pydantic model, so results can be hashed where their
fields allow, compared, and serialised to JSON (``model_dump_json``) and back
(``model_validate_json``) without custom code.

Terms follow the papers in the project brief: a *triple* is (subject, relation,
object); the *claim graph* is built from the answer, the *context graph* from the
retrieved passages; an *answer node* is a node of the claim graph.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from guardrail.errors import InvalidInputError

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


class Span(BaseModel):
    """A half-open character span ``[start, end)`` in a source text.

    Parameters
    ----------
    start : int
        Offset of the first character, ``>= 0``.
    end : int
        Offset one past the last character, ``>= start``.
    source : int
        Which text the offsets refer to: ``-1`` for the answer, ``0..n-1`` for the
        n-th context passage, ``-2`` for the question.
    """

    model_config = _FROZEN
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    source: int = -1

    @model_validator(mode="after")
    def _check_order(self) -> Span:
        if self.end < self.start:
            # a ValueError, as pydantic requires of a validator (it becomes a ValidationError)
            raise InvalidInputError(f"span end {self.end} is before start {self.start}")
        return self

    def slice(self, text: str) -> str:
        """Return ``text[start:end]``."""
        return text[self.start : self.end]


class Node(BaseModel):
    """A node of a knowledge graph: an entity, a noun chunk or a literal.

    Parameters
    ----------
    id : str
        Unique within its graph (e.g. ``"a:12"`` for answer offset 12).
    text : str
        Surface text as it appears in the source.
    label : str
        Normalised text used for matching (lower-cased, determiners stripped).
    kind : str
        spaCy entity label (``PERSON``, ``DATE``, ...), ``"NOUN"`` for a noun chunk,
        ``"TOKEN"`` for a fallback content word, ``"LITERAL"`` for given triples.
    span : Span or None
        Where the node's text sits in its source; ``None`` for nodes given as
        explicit triples without text.
    """

    model_config = _FROZEN
    id: str
    text: str
    label: str
    kind: str = "NOUN"
    span: Span | None = None


class Triple(BaseModel):
    """A (subject, relation, object) triple with provenance.

    Parameters
    ----------
    subject, object : Node
        End points; both are also in the graph's ``nodes``.
    relation : str
        Normalised relation label (lemmatised verb phrase, preposition, ``"is"``...).
    span : Span or None
        Span of the clause or sentence the triple was extracted from.
    pattern : str
        The extraction pattern (``svo``, ``copula``, ``prep``, ``appos``, ``poss``,
        ``given``...), kept for explanations and debugging.
    """

    model_config = _FROZEN
    subject: Node
    relation: str
    object: Node
    span: Span | None = None
    pattern: str = "svo"

    @property
    def text(self) -> str:
        """The "subject relation object" string that KEA Explain embeds."""
        return f"{self.subject.label} {self.relation} {self.object.label}"


class KnowledgeGraph(BaseModel):
    """A labelled directed multigraph made of nodes and triples.

    Parameters
    ----------
    nodes : tuple of Node
        All nodes, including those that take part in no triple (isolated entities).
    triples : tuple of Triple
        Edges; each end point is one of ``nodes``.
    texts : tuple of str
        The source texts the spans refer to (one for a claim graph, one per passage
        for a merged context graph; empty for graphs given as triples).
    """

    model_config = _FROZEN
    nodes: tuple[Node, ...] = ()
    triples: tuple[Triple, ...] = ()
    texts: tuple[str, ...] = ()

    @property
    def is_empty(self) -> bool:
        """True when the graph has no node at all."""
        return not self.nodes

    def node(self, node_id: str) -> Node:
        """Return the node with ``node_id``; raise :class:`~guardrail.errors.InvalidInputError` if absent."""
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise InvalidInputError(f"no node with id {node_id!r} in this graph")

    @classmethod
    def merge(cls, graphs: list[KnowledgeGraph] | tuple[KnowledgeGraph, ...]) -> KnowledgeGraph:
        """Merge per-passage graphs into one context graph.

        Node ids must already be unique across graphs (extractors prefix them with the
        passage index). Texts are concatenated in order, so ``span.source`` indexes
        ``texts`` of the merged graph when each input graph carries one text.
        """
        nodes: list[Node] = []
        triples: list[Triple] = []
        texts: list[str] = []
        seen: set[str] = set()
        for g in graphs:
            for n in g.nodes:
                if n.id not in seen:
                    seen.add(n.id)
                    nodes.append(n)
            triples.extend(g.triples)
            texts.extend(g.texts)
        return cls(nodes=tuple(nodes), triples=tuple(triples), texts=tuple(texts))


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
    details : dict
        Detector-specific numbers (e.g. ``{"EG": 0.8, "RP": 0.5}``), JSON-serialisable.
    """

    model_config = _FROZEN
    name: str
    score: float = Field(ge=0.0, le=1.0)
    node_support: tuple[NodeSupport, ...] = ()
    details: dict[str, Any] = Field(default_factory=dict)


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
    detector_scores : dict of str to float
        Each detector's hallucination score in ``[0, 1]``.
    claim_graph, context_graph : KnowledgeGraph
        The answer's graph and the context graph: relation-selected (KEA Explain: each
        claim triple's most similar context triple) for a flagged answer, the full
        merged context graph for a passing one.
    flagged_nodes : tuple of FlaggedNode
        Unsupported answer nodes, in answer order.
    explanation : Explanation
        Contrastive explanation.
    timings : dict of str to float
        Milliseconds per stage (``validate``, ``extract``, ``encode``, ``detect``, ``explain``...).
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
    detector_scores: dict[str, float] = Field(default_factory=dict)
    claim_graph: KnowledgeGraph = Field(default_factory=KnowledgeGraph)
    context_graph: KnowledgeGraph = Field(default_factory=KnowledgeGraph)
    flagged_nodes: tuple[FlaggedNode, ...] = ()
    explanation: Explanation = Field(default_factory=Explanation)
    timings: dict[str, float] = Field(default_factory=dict)
    total_ms: float = Field(default=0.0, ge=0.0)
    config: str = ""
    history: tuple[RefinementRound, ...] = ()

    def to_json(self, *, compact: bool = False) -> str:
        """Serialise to JSON; ``compact=True`` drops the two graphs (for logs and CLI output)."""
        exclude = {"claim_graph", "context_graph"} if compact else None
        return self.model_dump_json(exclude=exclude)

    def to_dict(self, *, compact: bool = False) -> dict[str, Any]:
        """Return a JSON-compatible dict; see :meth:`to_json`."""
        exclude = {"claim_graph", "context_graph"} if compact else None
        return self.model_dump(mode="json", exclude=exclude)
