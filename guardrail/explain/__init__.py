"""Explanations: the explainer role and KEA Explain (contradictory pairs, graph edit operations).

* :mod:`guardrail.explain.base`: :class:`Explainer`, one abstract method.
* :mod:`guardrail.explain.kea`: :class:`~guardrail.explain.kea.KEAExplainer`.
"""

from guardrail.explain.base import Explainer

__all__ = ["Explainer"]
