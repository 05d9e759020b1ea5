"""The check behind :class:`guardrail.Guard`, one module per step in call order (private).

``inputs`` (validated once) -> ``graphs`` (passage cache, windows) -> ``judge`` (detectors,
flagged nodes) -> ``explain`` -> ``batch``, over one frozen bundle of :class:`Parts`;
``pipeline`` runs the steps of one check. Only :mod:`guardrail.guard` imports this package.
"""

from __future__ import annotations

from guardrail.check.batch import check_many
from guardrail.check.graphs import PREFETCH_WINDOW_CHARS, context_graph
from guardrail.check.inputs import Run
from guardrail.check.parts import Parts, make_parts
from guardrail.check.pipeline import Judge, check_one, judged

__all__ = ["PREFETCH_WINDOW_CHARS", "Parts", "Run", "Judge", "make_parts", "check_one", "judged", "check_many",
           "context_graph"]
