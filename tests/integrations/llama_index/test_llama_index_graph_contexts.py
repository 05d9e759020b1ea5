"""Graph contexts: a real PropertyGraphIndex built from explicit triples feeds the guard triples."""

from __future__ import annotations

from typing import Any

import pytest
from llama_index.core import PropertyGraphIndex
from llama_index.core.graph_stores import SimplePropertyGraphStore
from llama_index.core.graph_stores.types import KG_NODES_KEY, KG_RELATIONS_KEY, EntityNode, Relation
from llama_index.core.indices.property_graph import ImplicitPathExtractor, VectorContextRetriever
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import NodeWithScore, TextNode

from guardrail_llama_index import (
    GuardedQueryEngine,
    KGGuardrailEvaluator,
    contexts_from_nodes,
    contexts_from_texts,
    parse_triplet_text,
)

QUESTION = "Where is the head office of the Oberoi Group?"
TRIPLES = [
    ("The Oberoi Group", "has head office in", "Delhi"),
    ("The Oberoi Group", "is", "hotel company"),
    ("The Oberoi family", "is involved in", "The Oberoi Group"),
    ("Arthur's Magazine", "was published in", "Philadelphia"),
    ("Arthur's Magazine", "started in", "1844"),
]
SUPPORTED = "The Oberoi Group has its head office in Delhi."
CONTRADICTED = "The Oberoi Group has its head office in Mumbai."


@pytest.fixture(scope="module")
def graph_index(embed_model: Any) -> PropertyGraphIndex:
    """A PropertyGraphIndex whose only content is TRIPLES (pre-extracted: no LLM extraction)."""
    entities: dict[str, EntityNode] = {}
    for s, _, o in TRIPLES:
        for name in (s, o):
            entities.setdefault(name, EntityNode(name=name, label="ENTITY"))
    relations = [Relation(label=r, source_id=entities[s].id, target_id=entities[o].id) for s, r, o in TRIPLES]
    carrier = TextNode(text="Oberoi and Arthur's Magazine facts.",
                       metadata={KG_NODES_KEY: list(entities.values()), KG_RELATIONS_KEY: relations})
    # ImplicitPathExtractor only reads node relationships: no LLM is involved (an empty
    # kg_extractors list would fall back to the LLM path extractor).
    return PropertyGraphIndex(
        nodes=[carrier], kg_extractors=[ImplicitPathExtractor()], property_graph_store=SimplePropertyGraphStore(),
        embed_model=embed_model, embed_kg_nodes=True, use_async=False,
    )


def _retriever(index: PropertyGraphIndex, embed_model: Any, include_text: bool = False) -> Any:
    sub = VectorContextRetriever(index.property_graph_store, vector_store=index.vector_store, embed_model=embed_model,
                                 include_text=include_text, similarity_top_k=2, path_depth=1)
    return index.as_retriever(sub_retrievers=[sub])


def test_retrieved_triplets_become_triples(graph_index, embed_model):
    nodes = _retriever(graph_index, embed_model).retrieve(QUESTION)
    assert all(" -> " in n.node.get_content() for n in nodes)
    ctx = contexts_from_nodes(nodes)
    assert ("The Oberoi Group", "has head office in", "Delhi") in ctx
    assert set(ctx) <= set(TRIPLES)


def test_include_text_gives_passages(graph_index, embed_model):
    nodes = _retriever(graph_index, embed_model, include_text=True).retrieve(QUESTION)
    ctx = contexts_from_nodes(nodes)
    assert ctx and all(isinstance(c, str) for c in ctx)
    assert any("The Oberoi Group has head office in Delhi." in c for c in ctx)
    assert not any("Here are some facts" in c for c in ctx)


@pytest.mark.parametrize(("answer", "passed"), [(SUPPORTED, True), (CONTRADICTED, False)])
def test_guard_judges_against_graph(graph_index, embed_model, make_llm, guard, answer, passed):
    inner = RetrieverQueryEngine.from_args(_retriever(graph_index, embed_model), llm=make_llm({QUESTION: [answer]}))
    response = GuardedQueryEngine(inner, guard).query(QUESTION)
    result = response.metadata["guard_result"]
    assert result.passed is passed and response.response == answer
    assert result.context_graph.triples, "the context graph comes from the retrieved triples"
    assert {t.pattern for t in result.context_graph.triples} == {"given"}
    assert {n.kind for n in result.context_graph.nodes} == {"LITERAL"}
    assert {(t.subject.text, t.relation, t.object.text) for t in result.context_graph.triples} <= set(TRIPLES)
    if not passed:
        assert result.flagged_nodes


def test_refine_reprompt_shows_triples_as_sentences(graph_index, embed_model, make_llm, guard):
    llm = make_llm({QUESTION: [CONTRADICTED]})
    inner = RetrieverQueryEngine.from_args(_retriever(graph_index, embed_model), llm=llm)
    response = GuardedQueryEngine(inner, guard, policy="refine", max_iterations=1).query(QUESTION)
    assert llm.calls(QUESTION) == 2
    assert "The Oberoi Group has head office in Delhi." in llm.prompts[-1]
    assert "<previous_answer>\n" + CONTRADICTED + "\n</previous_answer>" in llm.prompts[-1]
    assert [h.round for h in response.metadata["guard_result"].history] == [0, 1]


def test_evaluator_reads_triplet_text(guard):
    ctx = [f"{s} -> {r} -> {o}" for s, r, o in TRIPLES[:3]]
    ev = KGGuardrailEvaluator(guard)
    assert ev.evaluate(query=QUESTION, response=CONTRADICTED, contexts=ctx).passing is False
    good = ev.evaluate(query=QUESTION, response=SUPPORTED, contexts=ctx)
    assert good.passing is True and good.contexts[0] == "The Oberoi Group has head office in Delhi."


# ---------------------------------------------------------------- parsing only
def test_parse_triplet_text_strips_properties():
    assert parse_triplet_text("Paris ({'k': 1}) -> capital of -> France") == ("Paris", "capital of", "France")
    assert parse_triplet_text("Paris is in France.") is None
    assert parse_triplet_text("a -> b") is None


def test_metadata_triplets_and_legacy_rel_map():
    e1, e2 = EntityNode(name="Delhi"), EntityNode(name="India")
    rel = Relation(label="is in", source_id=e1.id, target_id=e2.id)
    objects = NodeWithScore(node=TextNode(text="ignored", metadata={"kg_triplets": [(e1, rel, e2)]}))
    legacy = NodeWithScore(node=TextNode(text="The following are knowledge sequence ...",
                                         metadata={"kg_rel_map": {"Delhi": [["Delhi", "capital of", "India"]]}}))
    assert contexts_from_nodes([objects, legacy]) == [("Delhi", "is in", "India"), ("Delhi", "capital of", "India")]


def test_modes():
    texts = ["Paris -> capital of -> France", "Berlin is in Germany."]
    assert contexts_from_texts(texts) == ["Paris capital of France.", "Berlin is in Germany."]
    assert contexts_from_texts(texts, mode="graph") == [("Paris", "capital of", "France")]
    assert contexts_from_texts(texts, mode="text") == texts
    assert contexts_from_texts(["Berlin is in Germany."], mode="graph") == ["Berlin is in Germany."]


def test_property_suffix_parsing_is_linear_on_adversarial_lines():
    """A node line of repeated ``({`` took 19 s at 256 KB and 75 s at 512 KB (regex backtracking)."""
    import time

    from guardrail_llama_index.contexts import MAX_TRIPLET_LINE, _strip_props

    big = "a -> b -> " + "({" * (256 * 1024)  # one 512 KB line
    many = "\n".join(f"a -> b -> c{i} " + "({" * (MAX_TRIPLET_LINE // 2 - 16) + "})" for i in range(32))
    start = time.perf_counter()
    assert parse_triplet_text(big) is None  # over the cap: prose, not a triplet
    assert contexts_from_texts([big]) == [big]
    assert contexts_from_texts([many], mode="graph") == [("a", "b", f"c{i}") for i in range(32)]
    assert _strip_props("x " + "({" * (256 * 1024) + "})") == "x"
    assert time.perf_counter() - start < 5.0


def test_property_suffix_semantics_kept():
    assert parse_triplet_text("Paris ({'a': ({1})}) -> r ({}) -> France  ({'k': 2}) ") == ("Paris", "r", "France")
    assert parse_triplet_text("f(x) ({ -> r -> o}) ") == ("f(x) ({", "r", "o})")  # no suffix to drop
    assert parse_triplet_text("a ({}) b -> r -> o") == ("a ({}) b", "r", "o")  # not at the end
    assert parse_triplet_text("a ({}) ({'k': 1}) -> r -> o") == ("a", "r", "o")  # from the first "({"
    assert parse_triplet_text("a -> r -> o ({)") == ("a", "r", "o ({)")  # no "})" ending
    assert parse_triplet_text("a -> r -> ({})") is None
