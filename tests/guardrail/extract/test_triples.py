"""Tests of graph_from_triples (explicit triples, no model)."""

import pytest

from guardrail.errors import InvalidInputError
from guardrail.extract.given import graph_from_triples
from guardrail.types import KnowledgeGraph


def test_graph_from_triples_shares_nodes() -> None:
    g = graph_from_triples(
        [("Steve Jobs", "Founded", "Apple"), ("Steve Jobs", "born in", "San Francisco"),
         ["Apple", "based  in", "Cupertino"], ("Steve Jobs", "founded", "Apple")],
        source=2,
    )
    assert [n.text for n in g.nodes] == ["Steve Jobs", "Apple", "San Francisco", "Cupertino"]
    assert [n.label for n in g.nodes] == ["steve jobs", "apple", "san francisco", "cupertino"]
    assert all(n.kind == "LITERAL" and n.span is None for n in g.nodes)
    assert len({n.id for n in g.nodes}) == 4
    assert all(n.id.startswith("2:") for n in g.nodes)
    assert [t.text for t in g.triples] == [
        "steve jobs founded apple", "steve jobs born in san francisco", "apple based in cupertino",
    ]
    assert all(t.pattern == "given" and t.span is None for t in g.triples)
    assert g.triples[0].subject.id == g.triples[1].subject.id
    assert g.texts == ()


def test_graph_from_triples_merges_across_sources() -> None:
    g0 = graph_from_triples([("A", "r", "B")], source=0)
    g1 = graph_from_triples([("A", "r", "C")], source=1)
    merged = KnowledgeGraph.merge([g0, g1])
    assert len(merged.nodes) == 4
    assert len(merged.triples) == 2


def test_graph_from_triples_empty() -> None:
    assert graph_from_triples([]).is_empty


@pytest.mark.parametrize(
    ("items", "match"),
    [
        ([("a", "b", "c"), ("a", "b")], "triple 1"),
        ([("a", "", "c")], "triple 0: relation"),
        ([("a", "b", "   ")], "triple 0: object"),
        ([("a", "b", 3)], "triple 0: object"),
        (["abc"], "triple 0"),
        ([None], "triple 0"),
    ],
)
def test_graph_from_triples_invalid_items(items: list, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        graph_from_triples(items)


def test_graph_from_triples_invalid_container_and_source() -> None:
    with pytest.raises(InvalidInputError, match="str"):
        graph_from_triples("a b c")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="int"):
        graph_from_triples(5)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="source"):
        graph_from_triples([("a", "b", "c")], source="0")  # type: ignore[arg-type]
