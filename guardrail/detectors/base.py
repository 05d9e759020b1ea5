"""The detector role: score how well a claim graph is supported by a context graph.

One abstract method, :meth:`Detector.detect` (the guard batches and schedules the calls).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from guardrail.align.encoder import TextEncoder
from guardrail.align.relations import select_relations
from guardrail.detectors._params import Constraint
from guardrail.types import DetectorOutput, KnowledgeGraph

__all__ = ["Detector", "AlignmentInput"]

T = TypeVar("T")


@dataclass(frozen=True)
class AlignmentInput:
    """Everything a detector may look at for one answer.

    Parameters
    ----------
    answer : str
        The validated answer text.
    contexts : tuple of str
        The validated context passages.
    question : str or None
        The question, when known.
    claim_graph : KnowledgeGraph
        Graph of the answer (node spans refer to ``answer``).
    context_graph : KnowledgeGraph
        Merged graph of all passages (``span.source`` indexes ``contexts``).
    encoder : TextEncoder
        The shared sentence encoder (cached, batched).
    question_graph : KnowledgeGraph or None
        Graph of the question, when given (entities named in the question count as
        grounded by some detectors).
    """

    answer: str
    contexts: tuple[str, ...]
    question: str | None
    claim_graph: KnowledgeGraph
    context_graph: KnowledgeGraph
    encoder: TextEncoder
    question_graph: KnowledgeGraph | None = None

    def selected_context(self) -> KnowledgeGraph:
        """The context subgraph relevant to the claim graph (KEA Explain relation selection,
        :func:`~guardrail.align.relations.select_relations`), selected once per input.

        The one home of the selection: the ``wl_kernel`` detector compares the claim graph with
        it and a flagged result carries it as its ``context_graph``; the second reader gets the
        first one's graph (an input changed with :func:`dataclasses.replace` selects anew).

        Returns
        -------
        KnowledgeGraph
            A subgraph of :attr:`context_graph` (see ``select_relations``).
        """
        selected: KnowledgeGraph | None = self.__dict__.get("_selected")
        if selected is None:
            selected = select_relations(self.claim_graph, self.context_graph, self.encoder)
            object.__setattr__(self, "_selected", selected)  # a memo, not a field: equality unchanged
        return selected

    def shared(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, computed once per input and ``key``: work that several detectors do alike
        (the ``entity`` and ``relation`` detectors ground the answer nodes with the same
        parameters) is done by the first of them and read by the others.

        A memo, not a field (equality unchanged); an input changed with :func:`dataclasses.replace`
        starts empty. ``key`` must name everything ``make`` depends on besides this input.

        Parameters
        ----------
        key : hashable
            Names the work and every parameter it depends on besides this input.
        make : callable
            Computes the value (no arguments); called at most once per ``key``.

        Returns
        -------
        object
            What ``make`` returned for ``key`` the first time.
        """
        memo: dict[Hashable, Any] = self.__dict__.setdefault("_shared", {})
        if key not in memo:
            memo[key] = make()
        return memo[key]  # type: ignore[no-any-return]


class Detector(ABC):
    """Score one answer against its context.

    Subclasses set :attr:`name` and implement :meth:`detect`.
    """

    #: Name used in configs, weights and ``GuardResult.detector_scores``.
    name: str = "detector"
    #: Whether :meth:`detect` reads ``item.question_graph``; the guard parses the
    #: question only when some configured detector does.
    needs_question_graph: bool = False
    #: Whether :meth:`detect` embeds graph labels with ``item.encoder``; the guard batches
    #: those embeddings up front only when some configured detector does.
    uses_encoder: bool = True
    #: Constructor parameter -> the constraints its value must satisfy (any one of them), checked
    #: by :func:`~guardrail.detectors._params.validate_params`; a registered detector covers
    #: every constructor parameter.
    _parameter_constraints: ClassVar[dict[str, list[Constraint]]] = {}
    #: Pairs of parameters ``(lo, hi)`` that must satisfy ``lo < hi``.
    _parameter_order: ClassVar[tuple[tuple[str, str], ...]] = ()

    @abstractmethod
    def detect(self, item: AlignmentInput) -> DetectorOutput:
        """Return the hallucination score (in ``[0, 1]``, higher = less supported) and
        the support of every answer node.

        Raises
        ------
        DetectorError
            When scoring fails for a reason other than bad input.
        """
