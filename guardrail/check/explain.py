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
from guardrail.explain.weakest import weakest_claim
from guardrail.types import Explanation, GuardResult

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
        if not verdict.passed and not flagged:
            explanation = _unflagged(item.answer, verdict)
    return run.result(
        passed=verdict.passed, score=verdict.score, detector_scores={o.name: o.score for o in verdict.outputs},
        detectors=verdict.outputs, claim_graph=item.claim_graph, context_graph=selected,
        flagged_nodes=flagged, explanation=explanation,
    )


def _unflagged(answer: str, verdict: Verdict) -> Explanation:
    """The summary of a failed answer with no flagged node: the whole scored at or above the
    threshold while every node's claim stayed above the node threshold; its weakest claim
    (:func:`~guardrail.explain.weakest.weakest_claim`) is named with its evidence."""
    weak = weakest_claim(verdict.outputs)
    summary = f"No single answer node is unsupported, but the answer as a whole scores {verdict.score:.2f}."
    if weak is not None:
        claim = " ".join(answer[weak.start:weak.end].split())
        summary += f" Least supported claim: '{claim}' (support {weak.support:.2f})"
        summary += f"; evidence: '{' '.join(weak.evidence.split())}'" if weak.evidence else "."
    return Explanation(summary=summary)
