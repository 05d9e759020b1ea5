"""Step 3 of a check: the detectors, their aggregate score and the flagged answer nodes
(private to the guard)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from guardrail.aggregate import combine_node_support, final_score
from guardrail.check.inputs import Run
from guardrail.check.parts import Parts
from guardrail.config import GuardConfig
from guardrail.detectors import AlignmentInput
from guardrail.types import DetectorOutput, FlaggedNode, KnowledgeGraph, Node

__all__ = ["PREFETCH_CONTEXT_MAX", "Verdict", "judge", "prefetch_embeddings", "flag_nodes"]

#: Context-side strings are prefetched only up to this many; beyond it the detectors'
#: own shortlists (a few candidates per claim element) embed less than the whole context.
PREFETCH_CONTEXT_MAX = 64


@dataclass(frozen=True)
class Verdict:
    """What the detectors decided about one answer.

    Parameters
    ----------
    item : AlignmentInput
        The judged input (with the question's graph when a detector reads it).
    outputs : tuple of DetectorOutput
        Every detector's output, in run order.
    score : float
        The aggregate hallucination score (vetoes applied).
    passed : bool
        ``score < threshold``.
    flagged : tuple of FlaggedNode
        The unsupported answer nodes of a failed answer.
    """

    item: AlignmentInput
    outputs: tuple[DetectorOutput, ...]
    score: float
    passed: bool
    flagged: tuple[FlaggedNode, ...]


def judge(parts: Parts, item: AlignmentInput, cfg: GuardConfig, run: Run) -> Verdict:
    """Run ``cfg``'s detectors on ``item``, aggregate their scores and flag answer nodes.

    Parameters
    ----------
    parts : Parts
        Supplies the detectors and the extractor (question graph).
    item : AlignmentInput
        The validated answer, contexts, question and their graphs.
    cfg : GuardConfig
        Aggregation, thresholds and vetoes.
    run : Run
        The check in flight; the judging stages' timings are added.

    Returns
    -------
    Verdict
    """
    detectors = parts.detectors_for(cfg)
    if item.question and item.question_graph is None and any(d.needs_question_graph for d in detectors):
        with run.timed("extract_question"):
            qgraph = parts.extractor.get().extract(item.question, source=-2)
        item = dataclasses.replace(item, question_graph=qgraph)
    if any(d.uses_encoder for d in detectors):
        with run.timed("encode"):
            prefetch_embeddings(item)
    outputs = []
    for det in detectors:
        with run.timed(f"detect:{det.name}"):
            outputs.append(det.detect(item))
    score = final_score({o.name: o.score for o in outputs}, cfg)  # a veto flags the answer whatever the aggregate
    passed = score < cfg.threshold
    flagged = () if passed else flag_nodes(item.claim_graph, outputs, cfg)
    return Verdict(item, tuple(outputs), score, passed, flagged)


def _graph_strings(g: KnowledgeGraph) -> list[str]:
    out = [n.label for n in g.nodes]
    out.extend(t.text for t in g.triples)
    out.extend(t.relation for t in g.triples)
    return out


def prefetch_embeddings(item: AlignmentInput) -> None:
    """Embed the claim graph's labels and triple strings, and those of a small context
    graph, in one batch (one forward pass instead of one per detector call); the
    detectors then read them from the encoder's cache. Sentences are left out: batched
    with short labels they pad every label to sentence length and cost more."""
    texts = _graph_strings(item.claim_graph)
    ctx = list(dict.fromkeys(_graph_strings(item.context_graph)))
    if len(ctx) <= PREFETCH_CONTEXT_MAX:
        texts.extend(ctx)
    if texts:
        item.encoder.encode(list(dict.fromkeys(texts)))


def _one_per_span(low: list[tuple[Node, Any]]) -> list[tuple[Node, Any]]:
    """One node per error span: of nodes whose answer spans overlap ("48 million" and
    "48 million euros"), the least supported is kept, the longest on a tie; in answer order."""
    def rank(p: tuple[Node, Any]) -> tuple[float, int]:
        span = p[0].span
        return (p[1].support, -(span.end - span.start) if span else 0)

    kept: list[tuple[Node, Any]] = []
    for n, s in sorted(low, key=rank):
        if n.span is None or not any(
                k.span is not None and n.span.start < k.span.end and k.span.start < n.span.end for k, _ in kept):
            kept.append((n, s))
    kept.sort(key=lambda p: p[0].span.start if p[0].span else 0)
    return kept


def _check_nodes(claim: KnowledgeGraph, outputs: Sequence[DetectorOutput], cfg: GuardConfig,
                 seen: set[str]) -> list[tuple[Node, Any]]:
    """Nodes a knowledge-graph check (an output with ``details["flags"]``: ``kg_swaps``,
    ``kg_slots``...) flagged below ``cfg.node_threshold``: the value it found swapped or
    ungrounded, with the sentence that contradicts it."""
    out: list[tuple[Node, Any]] = []
    for o in outputs:
        if o.name == cfg.node_source or not o.details.get("flags"):
            continue
        sup = {s.node_id: s for s in o.node_support}
        out += [(n, sup[n.id]) for n in claim.nodes if n.id in sup and n.id not in seen
                and sup[n.id].support < cfg.node_threshold]
        seen |= {n.id for n, _ in out}
    return out


def flag_nodes(claim: KnowledgeGraph, outputs: Sequence[DetectorOutput], cfg: GuardConfig) -> tuple[FlaggedNode, ...]:
    """Answer nodes of a failed answer whose support is below ``cfg.node_threshold``.

    With ``cfg.node_source`` (e.g. ``"verifier"``), that detector's node support decides,
    joined by the values a knowledge-graph check flagged (its contradicted node, issue 23
    item 5); when neither flags a node (the answer failed on another detector or a veto)
    the nodes the ``entity`` detector finds ungrounded are flagged; nothing else is. Without it, node supports of all detectors are averaged
    (:func:`~guardrail.aggregate.combine_node_support`) and the weakest node is flagged
    when none falls below the bar.
    """
    by_name = {o.name: o for o in outputs}
    if cfg.node_source is not None and cfg.node_source in by_name:
        support = {s.node_id: s for s in by_name[cfg.node_source].node_support}
        low = [(n, support[n.id]) for n in claim.nodes
               if n.id in support and support[n.id].support < cfg.node_threshold]
        low += _check_nodes(claim, outputs, cfg, {n.id for n, _ in low})
        if not low and "entity" in by_name:
            ent = {s.node_id: s for s in by_name["entity"].node_support}
            low = [(n, ent[n.id]) for n in claim.nodes if n.id in ent and n.kind not in ("NOUN", "TOKEN")
                   and ent[n.id].support < cfg.node_threshold]
    else:
        combined = combine_node_support(outputs, cfg)
        scored = [(n, combined[n.id]) for n in claim.nodes if n.id in combined]
        low = [(n, s) for n, s in scored if s.support < cfg.node_threshold]
        if not low and scored:  # answer failed but every node clears the bar: flag the weakest
            low = [min(scored, key=lambda p: p[1].support)]
    low = _one_per_span(low)
    return tuple(
        FlaggedNode(node_id=n.id, text=n.text, span=n.span, support=s.support,
                    evidence=s.evidence, evidence_span=s.evidence_span)
        for n, s in low
    )
