"""Accepted context shapes: passages (str or list of str) or a graph (triples).

When the retrieved context already is a graph (a knowledge-graph retriever's triplets,
or plain ``(subject, relation, object)`` tuples), those triples are used directly as the
context graph instead of re-extracting text; their linearisation ("s r o.") is what
text-based detectors read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Union

from guardrail.errors import InvalidInputError
from guardrail.extract.normalize import normalize_label
from guardrail.types import KnowledgeGraph, Node, Triple
from guardrail.validate import clean_text

__all__ = ["ContextInput", "split_context_input", "linearise", "graph_from_triples"]

#: What ``Guard.check`` accepts as ``contexts``.
ContextInput = Union[str, Sequence[str], KnowledgeGraph, Sequence[Sequence[str]]]


def linearise(graph: KnowledgeGraph) -> list[str]:
    """One sentence per triple: ``"subject relation object."`` (surface texts)."""
    return [f"{t.subject.text} {t.relation} {t.object.text}." for t in graph.triples]


def _is_triple(x: object) -> bool:
    return (
        isinstance(x, (tuple, list))
        and len(x) == 3
        and all(isinstance(e, str) for e in x)
    )


def split_context_input(contexts: object) -> tuple[object, KnowledgeGraph | None]:
    """Split ``contexts`` into (texts for validation, given context graph or None).

    Parameters
    ----------
    contexts : str, sequence of str, KnowledgeGraph, or sequence of 3-sequences of str

    Returns
    -------
    (texts, graph)
        ``texts`` is passed on to :func:`guardrail.validate.validate_input` (which raises
        on wrong types); ``graph`` is the ready-made context graph, if one was given.
    """
    if isinstance(contexts, KnowledgeGraph):
        return (list(contexts.texts) or linearise(contexts)), contexts
    if (
        isinstance(contexts, Sequence)
        and not isinstance(contexts, str)
        and len(contexts) > 0
        and all(_is_triple(c) for c in contexts)
    ):

        graph = graph_from_triples([tuple(c) for c in contexts], source=0)
        texts = linearise(graph)
        return texts, graph.model_copy(update={"texts": tuple(texts)})
    return contexts, None


def _check_item(index: int, item: object) -> tuple[str, str, str]:
    """Return ``item`` as a 3-tuple of stripped non-empty strings or raise."""
    if isinstance(item, (str, bytes)) or not isinstance(item, Sequence) or len(item) != 3:
        raise InvalidInputError(
            f"triple {index} must be a (subject, relation, object) sequence of 3 str, "
            f"got {item!r}"
        )
    parts = tuple(item)
    for name, part in zip(("subject", "relation", "object"), parts):
        if not isinstance(part, str) or not part.strip():
            raise InvalidInputError(
                f"triple {index}: {name} must be a non-empty str, got {part!r}"
            )
    subj, rel, obj = (clean_text(p).strip() for p in parts)  # as text contexts are read (lone surrogates -> U+FFFD)
    return subj, rel, obj


def graph_from_triples(
    triples: Iterable[Sequence[str]], *, source: int = 0
) -> KnowledgeGraph:
    """Build a graph whose nodes are the given subject and object strings.

    Parameters
    ----------
    triples : iterable of (str, str, str)
        ``(subject, relation, object)`` items; each element a non-empty string
        (surrounding whitespace is stripped). An empty iterable gives an empty graph.
    source : int
        Source index written into node ids (``f"{source}:t{k}"`` for the k-th
        distinct node) so graphs from several sources merge; default 0.

    Returns
    -------
    KnowledgeGraph
        Nodes of kind ``"LITERAL"`` without spans, one per distinct (stripped)
        subject/object string, in first-seen order, labelled with
        :func:`~guardrail.extract.normalize.normalize_label`; triples with
        ``pattern="given"``, the relation lower-cased with whitespace collapsed,
        and no span (exact duplicates kept once); ``texts`` is empty.

    Raises
    ------
    InvalidInputError
        When ``triples`` is not iterable (or is a str), when item ``i`` is not a
        3-sequence of non-empty strings (the message names ``i``), or when
        ``source`` is not an int.

    Examples
    --------
    >>> g = graph_from_triples([("Steve Jobs", "founded", "Apple")])
    >>> [t.text for t in g.triples]
    ['steve jobs founded apple']
    """
    if isinstance(source, bool) or not isinstance(source, int):
        raise InvalidInputError(f"source must be an int, got {source!r}")
    if isinstance(triples, (str, bytes)) or not isinstance(triples, Iterable):
        raise InvalidInputError(
            f"triples must be an iterable of (subject, relation, object), "
            f"got {type(triples).__name__}"
        )
    nodes: dict[str, Node] = {}
    out: list[Triple] = []
    seen: set[tuple[str, str, str]] = set()

    def node(text: str) -> Node:
        """The node for ``text``, created on first sight."""
        if text not in nodes:
            nodes[text] = Node(
                id=f"{source}:t{len(nodes)}", text=text,
                label=normalize_label(text), kind="LITERAL",
            )
        return nodes[text]

    for i, item in enumerate(triples):
        subj, rel, obj = _check_item(i, item)
        relation = " ".join(rel.lower().split())
        s_node, o_node = node(subj), node(obj)
        key = (s_node.id, relation, o_node.id)
        if key not in seen:
            seen.add(key)
            out.append(Triple(subject=s_node, relation=relation, object=o_node,
                              pattern="given"))
    return KnowledgeGraph(nodes=tuple(nodes.values()), triples=tuple(out))
