"""The knowledge-graph types: spans, nodes, triples and graphs (frozen pydantic models).

A *triple* is (subject, relation, object); the *claim graph* is built from the answer, the
*context graph* from the retrieved passages. Re-exported by :mod:`guardrail.types`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from guardrail.errors import InvalidInputError

__all__ = ["Span", "Node", "Triple", "KnowledgeGraph"]

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
