"""Accepted context shapes: passages (str or list of str) or a graph (triples).

When the retrieved context already is a graph (a knowledge-graph retriever's triplets,
or plain ``(subject, relation, object)`` tuples), those triples are used directly as the
context graph instead of re-extracting text; their linearisation ("s r o.") is what
text-based detectors read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Union

from guardrail.types import KnowledgeGraph

__all__ = ["ContextInput", "split_context_input", "linearise"]

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
        from guardrail.extract.triples import graph_from_triples

        graph = graph_from_triples([tuple(c) for c in contexts], source=0)
        texts = linearise(graph)
        return texts, graph.model_copy(update={"texts": tuple(texts)})
    return contexts, None
