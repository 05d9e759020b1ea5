"""Step 4 of a check: the explanation and the result (private to the guard).

Relation selection (KEA Explain: each claim triple's most similar context triple) only
matters for an answer that is flagged; a passing answer carries the full context graph
(no encoder call). The selection is the input's own
(:meth:`~guardrail.detectors.base.AlignmentInput.selected_context`): made once, by whichever of
the ``wl_kernel`` detector and this step reads it first.
"""

from __future__ import annotations

from guardrail.check.inputs import Run
from guardrail.check.judge import Verdict
from guardrail.check.parts import Parts
from guardrail.types import GuardResult

__all__ = ["explain"]


def explain(parts: Parts, verdict: Verdict, run: Run) -> GuardResult:
    """The result of a judged answer: its explanation, the selected context relations, every
    detector's output and the timings.

    Parameters
    ----------
    parts : Parts
        Supplies the explainer.
    verdict : Verdict
        The detectors' outputs, score and flagged nodes.
    run : Run
        The check in flight (its ``explain`` stage is timed here).

    Returns
    -------
    GuardResult
    """
    item = verdict.item
    with run.timed("explain"):
        selected = item.context_graph if verdict.passed else item.selected_context()
        explanation, flagged = parts.explainer.get().explain(item, verdict.outputs, verdict.flagged)
    return run.result(
        passed=verdict.passed, score=verdict.score, detector_scores={o.name: o.score for o in verdict.outputs},
        detectors=verdict.outputs, claim_graph=item.claim_graph, context_graph=selected,
        flagged_nodes=flagged, explanation=explanation,
    )
