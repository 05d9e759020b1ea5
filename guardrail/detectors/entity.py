"""Entity-only grounding detector: HalluGraph's EG over named entities and numbers.

Noun chunks and fallback tokens are left out so that chit-chat and paraphrase in an
answer do not dilute an invented name or figure (entity substitution is the failure mode
HalluGraph targets).
"""

from __future__ import annotations

import numpy as np

from guardrail.detectors.base import AlignmentInput
from guardrail.detectors.grounding import GroundingDetector, _node_support
from guardrail.text.lexical import numbers_in
from guardrail.types import DetectorOutput

__all__ = ["EntityGroundingDetector"]



#: Node kinds that are not named entities or literals.
_GENERIC_KINDS = frozenset({"NOUN", "TOKEN"})


class EntityGroundingDetector(GroundingDetector):
    """Entity grounding restricted to named entities and numbers (HalluGraph's EG proper).

    HalluGraph's EG counts *entities* (spaCy NER); noun chunks and fallback tokens are
    left out here, so chit-chat and paraphrase do not dilute an invented name or figure.
    The score is the weighted share of ungrounded entities (``0`` when the answer names
    none). Parameters are those of :class:`GroundingDetector` (``alpha`` is unused).
    """

    name = "entity"
    needs_question_graph = True

    def detect(self, item: AlignmentInput) -> DetectorOutput:
        """Score the ungrounded share of the answer's entities, in ``[0, 1]``."""
        claim, ctx = item.claim_graph, item.context_graph
        if claim.is_empty:
            return DetectorOutput(name=self.name, score=0.0)
        g = self.grounding(item)  # computed once when the relation detector runs too
        keep = np.array([n.kind not in _GENERIC_KINDS or bool(numbers_in(n.label, words=False))
                         for n in claim.nodes], dtype=float)
        w = g.weight * keep
        score = float(np.dot(w, 1.0 - g.support) / w.sum()) if w.sum() > 0 else 0.0
        support = _node_support(claim, ctx, g, {})
        return DetectorOutput(name=self.name, score=min(1.0, max(0.0, score)), node_support=support,
                              details={"entities": int(keep.sum())})
