"""Step 2 of a check: the claim graph and the context graph (private to the guard).

Passage graphs come from the guard's cache (parsed once, as source 0, re-homed per use);
a batch parses the new passages of each window of items in one ``extract_many`` pass.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from guardrail.check.inputs import Inputs, Run
from guardrail.check.parts import Parts
from guardrail.detectors import AlignmentInput
from guardrail.text.structure import normalize_passage
from guardrail.types import GuardResult, KnowledgeGraph, Node
from guardrail.validate import clean_text, context_size, size_reason

__all__ = ["PREFETCH_WINDOW_CHARS", "with_source", "context_graph", "graphs", "windows", "prefetch_passages"]

T = TypeVar("T")

#: ``check_many`` parses the new passages of about this many context characters at once.
PREFETCH_WINDOW_CHARS = 200_000


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


def _merged(found: Sequence[KnowledgeGraph]) -> KnowledgeGraph:
    return KnowledgeGraph.merge([g if i == 0 else with_source(g, i) for i, g in enumerate(found)])


def context_graph(parts: Parts, contexts: Sequence[str]) -> KnowledgeGraph:
    """Merged graph of ``contexts`` (cached passage graphs reused, the others parsed in one batch)."""
    return _merged(parts.cache.graphs(list(contexts), parts.extractor.get()))


def graphs(parts: Parts, inputs: Inputs, run: Run, *, question: bool = False) -> AlignmentInput | GuardResult:
    """The answer's claim graph and the context graph (and the question's graph with
    ``question``), or an abstention when either of the first two is empty.

    The answer, the question and the passages not cached are parsed in one ``extract_many``
    pass (timed as ``extract_answer``); ``extract_context`` times the merge of the passage graphs.
    """
    extra = [(inputs.answer, -1)] + ([(inputs.question, -2)] if question and inputs.question else [])
    texts = list(inputs.contexts) if inputs.graph is None else []
    with run.timed("extract_answer"):
        found, own = parts.cache.graphs_with(texts, parts.extractor.get(), extra)
    claim, qgraph = own[0], (own[1] if len(own) > 1 else None)
    with run.timed("extract_context"):
        ctx = inputs.graph if inputs.graph is not None else _merged(found)
    if claim.is_empty:
        return run.abstain("nothing extracted from the answer")
    if ctx.is_empty:
        return run.abstain("nothing extracted from the context")
    return AlignmentInput(inputs.answer, inputs.contexts, inputs.question, claim, ctx, parts.encoder.get(),
                          question_graph=qgraph)


def windows(rows: Sequence[T], context: Callable[[T], object],
            chars: int = PREFETCH_WINDOW_CHARS) -> Iterator[list[T]]:
    """Consecutive runs of ``rows`` holding about ``chars`` context characters each (at least one
    row); ``context(row)`` is a row's raw context."""
    start = 0
    while start < len(rows):
        end, total = start, 0
        while end < len(rows) and (end == start or total < chars):
            total += context_size(context(rows[end]))[1]
            end += 1
        yield list(rows[start:end])
        start = end


def prefetch_passages(parts: Parts, contexts_list: Sequence[Any]) -> None:
    """Parse the new passages of ``contexts_list`` in one batch into the cache.

    Contexts over the size limits, graphs and non-str passages are skipped (the check itself
    abstains on or raises for them); passages are cleaned as the check cleans them, so the
    cache keys match.
    """
    limits = parts.config.size_limits
    texts: list[str] = []
    for ctx in contexts_list:
        if isinstance(ctx, str):
            ctx = [ctx]
        if not isinstance(ctx, (list, tuple)) or size_reason("", ctx, **limits):
            continue
        texts.extend(normalize_passage(clean_text(c)) for c in ctx if isinstance(c, str) and c.strip())
    parts.cache.prefetch(texts, parts.extractor.get())
