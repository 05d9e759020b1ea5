"""The explainer role (KEA Explain): contrastive sentences, contradictory pairs, edit operations.

This module holds the abstract role; the default implementation lives in
:mod:`guardrail.explain.kea`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from guardrail.detectors.base import AlignmentInput
from guardrail.types import DetectorOutput, Explanation, FlaggedNode

__all__ = ["Explainer"]


class Explainer(ABC):
    """Explain a verdict.

    Subclasses implement :meth:`explain`, one abstract method.
    """

    name: str = "explainer"

    @abstractmethod
    def explain(
        self,
        item: AlignmentInput,
        outputs: Sequence[DetectorOutput],
        flagged: Sequence[FlaggedNode],
    ) -> tuple[Explanation, tuple[FlaggedNode, ...]]:
        """Build the explanation.

        Parameters
        ----------
        item : AlignmentInput
            The answer, contexts and both graphs.
        outputs : sequence of DetectorOutput
            What each detector said.
        flagged : sequence of FlaggedNode
            The flagged answer nodes (``reason`` still empty).

        Returns
        -------
        (Explanation, tuple of FlaggedNode)
            The explanation and the flagged nodes with ``reason`` filled in, same order.
        """
