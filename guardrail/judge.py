"""The judging step of :meth:`guardrail.Guard.check`: run the detectors on one aligned input,
aggregate their scores, flag answer nodes and explain (private to the guard)."""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING, Any

from guardrail.aggregate import final_score
from guardrail.config import GuardConfig
from guardrail.detectors import AlignmentInput
from guardrail.flag import flag_nodes, prefetch_embeddings
from guardrail.types import GuardResult

if TYPE_CHECKING:  # pragma: no cover
    from guardrail.guard import Guard

__all__ = ["judge"]


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000.0


def judge(
    guard: Guard, item: AlignmentInput, cfg: GuardConfig, base: dict[str, Any],
    timings: dict[str, float], t_all: float,
) -> GuardResult:
    """The verdict on ``item`` with ``cfg``'s detectors (the guard's detector instances).

    Parameters
    ----------
    guard : Guard
        Supplies the detectors, the extractor (question graph) and the explainer.
    item : AlignmentInput
        The validated answer, contexts, question and their graphs.
    cfg : GuardConfig
        Aggregation, thresholds and vetoes.
    base : dict
        Fields of the result known before judging (answer, id, question, config, threshold).
    timings : dict of str to float
        Stage timings so far; the judging stages are added.
    t_all : float
        ``time.perf_counter()`` at the start of the check.

    Returns
    -------
    GuardResult
    """
    detectors = guard.detectors_for(cfg)
    if item.question and any(d.needs_question_graph for d in detectors):
        t0 = time.perf_counter()
        qgraph = guard.extractor.extract(item.question, source=-2)
        timings["extract_question"] = _ms(t0)
        item = dataclasses.replace(item, question_graph=qgraph)
    if any(d.uses_encoder for d in detectors):
        t0 = time.perf_counter()
        prefetch_embeddings(item)
        timings["encode"] = _ms(t0)
    outputs = []
    for det in detectors:
        t0 = time.perf_counter()
        outputs.append(det.detect(item))
        timings[f"detect:{det.name}"] = _ms(t0)
    scores = {o.name: o.score for o in outputs}
    score = final_score(scores, cfg)  # a veto flags the answer whatever the aggregate
    passed = score < cfg.threshold
    flagged = () if passed else flag_nodes(item.claim_graph, outputs, cfg)
    t0 = time.perf_counter()
    from guardrail.align.relations import select_relations

    # relation selection (KEA Explain) only matters for an answer that is flagged;
    # a passing answer carries the full context graph instead (no encoder call)
    selected = item.context_graph if passed else select_relations(
        item.claim_graph, item.context_graph, item.encoder)
    explanation, flagged = guard.explainer.explain(item, outputs, flagged)
    timings["explain"] = _ms(t0)
    return GuardResult(
        passed=passed, score=score, detector_scores=scores, claim_graph=item.claim_graph,
        context_graph=selected, flagged_nodes=flagged, explanation=explanation,
        timings=timings, total_ms=_ms(t_all), **base,
    )
