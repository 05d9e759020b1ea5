"""Pipeline steps of :class:`guardrail.Guard` that need no guard state.

Private module: re-homing cached passage graphs, batching embeddings, flagging nodes,
building abstentions.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from guardrail.aggregate import combine_node_support
from guardrail.config import GuardConfig
from guardrail.detectors import AlignmentInput
from guardrail.types import DetectorOutput, Explanation, FlaggedNode, GuardResult, KnowledgeGraph, Node

__all__ = ["PREFETCH_CONTEXT_MAX", "prefetch_embeddings", "abstain", "declined", "flag_nodes", "with_source"]


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000.0


#: Context-side strings are prefetched only up to this many; beyond it the detectors'
#: own shortlists (a few candidates per claim element) embed less than the whole context.
PREFETCH_CONTEXT_MAX = 64


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


def abstain(base: dict[str, Any], reason: str, timings: dict[str, float], t_all: float) -> GuardResult:
    """The result of an answer the guard could not judge (``abstained``, not passed, score 0.5)."""
    return GuardResult(passed=False, score=0.5, abstained=True, abstain_reason=reason,
                       timings=timings, total_ms=_ms(t_all), **base)


#: The explanation of a declined answer.
DECLINED_SUMMARY = "The answer declines to answer: it states no fact, so nothing is checked against the context."


def declined(base: dict[str, Any], cfg: GuardConfig, timings: dict[str, float], t_all: float) -> GuardResult:
    """The result of an answer that declines as a whole: ``declined``, no flagged node, passed
    per ``cfg.declined_passes`` (score 0, or the threshold when a decline does not pass)."""
    passes = cfg.declined_passes
    return GuardResult(passed=passes, declined=True, score=0.0 if passes else cfg.threshold,
                       explanation=Explanation(summary=DECLINED_SUMMARY), timings=timings,
                       total_ms=_ms(t_all), **base)


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


def flag_nodes(claim: KnowledgeGraph, outputs: Sequence[DetectorOutput], cfg: GuardConfig) -> tuple[FlaggedNode, ...]:
    """Answer nodes of a failed answer whose support is below ``cfg.node_threshold``.

    With ``cfg.node_source`` (e.g. ``"verifier"``), that detector's node support alone
    decides, and when it finds every claim supported (the answer failed on another
    detector or a veto) the nodes the ``entity`` detector finds ungrounded are flagged;
    nothing else is. Without it, node supports of all detectors are averaged
    (:func:`~guardrail.aggregate.combine_node_support`) and the weakest node is flagged
    when none falls below the bar.
    """
    by_name = {o.name: o for o in outputs}
    if cfg.node_source is not None and cfg.node_source in by_name:
        support = {s.node_id: s for s in by_name[cfg.node_source].node_support}
        low = [(n, support[n.id]) for n in claim.nodes
               if n.id in support and support[n.id].support < cfg.node_threshold]
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


def with_source(g: KnowledgeGraph, source: int) -> KnowledgeGraph:
    """Re-home a passage graph extracted as source 0 to position ``source``."""
    def node(n: Node) -> Node:
        span = n.span.model_copy(update={"source": source}) if n.span else None
        return n.model_copy(update={"id": f"{source}:{n.id.split(':', 1)[-1]}", "span": span})

    nodes = {n.id: node(n) for n in g.nodes}
    triples = tuple(
        t.model_copy(update={
            "subject": nodes.get(t.subject.id, node(t.subject)),
            "object": nodes.get(t.object.id, node(t.object)),
            "span": t.span.model_copy(update={"source": source}) if t.span else None,
        })
        for t in g.triples
    )
    return KnowledgeGraph(nodes=tuple(nodes.values()), triples=triples, texts=g.texts)
