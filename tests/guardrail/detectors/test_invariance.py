"""Invariance: renaming node ids (and reordering nodes and triples) changes no score.

Graph kernels and grounding compare labels and structure, never identifiers or list order;
a detector whose score moved under a relabelling would be reading an artefact.
"""

from __future__ import annotations

import pytest
from _fakes import apple_claim, apple_context

from guardrail.detectors import AlignmentInput, build_detector
from guardrail.testing import FakeEncoder
from guardrail.types import KnowledgeGraph, Node, Triple


def _relabel(g: KnowledgeGraph, prefix: str) -> KnowledgeGraph:
    """The same graph with every node id replaced and nodes and triples in reverse order."""
    new = {n.id: n.model_copy(update={"id": f"{prefix}{i}"}) for i, n in enumerate(g.nodes)}
    nodes: tuple[Node, ...] = tuple(reversed([new[n.id] for n in g.nodes]))
    triples = tuple(reversed([Triple(subject=new[t.subject.id], relation=t.relation, object=new[t.object.id],
                                     span=t.span) for t in g.triples]))
    return KnowledgeGraph(nodes=nodes, triples=triples, texts=g.texts)


def _score(name: str, claim: KnowledgeGraph, ctx: KnowledgeGraph) -> float:
    item = AlignmentInput(claim.texts[0], ctx.texts, None, claim, ctx, FakeEncoder(), None)
    return build_detector(name).detect(item).score


@pytest.mark.parametrize("name", ["wl_kernel", "grounding", "relation", "entity"])
@pytest.mark.parametrize("year", ["1976", "1999"])
def test_relabelling_nodes_keeps_the_score(name, year):
    claim, ctx = apple_claim(year), apple_context()
    before = _score(name, claim, ctx)
    after = _score(name, _relabel(claim, "a"), _relabel(ctx, "c"))
    assert after == pytest.approx(before, abs=1e-9)


def test_wl_kernel_tells_the_wrong_year_apart():
    """The invariance test above must not pass because the score is constant."""
    ctx = apple_context()
    assert _score("wl_kernel", apple_claim("1999"), ctx) > _score("wl_kernel", apple_claim("1976"), ctx)
