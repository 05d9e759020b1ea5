"""Tests of SpacyExtractor on real sentences with the real spaCy model."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from guardrail.errors import ExtractionError, InvalidInputError
from guardrail.extract import SpacyExtractor
from guardrail.types import KnowledgeGraph

HALUEVAL = Path(__file__).resolve().parents[3] / "examples" / "data" / "halueval_qa_head.jsonl"


@pytest.fixture(scope="module")
def ex() -> SpacyExtractor:
    return SpacyExtractor()


def facts(g: KnowledgeGraph) -> set[tuple[str, str, str, str]]:
    return {(t.subject.label, t.relation, t.object.label, t.pattern) for t in g.triples}


def check_spans(g: KnowledgeGraph, text: str, source: int) -> None:
    assert g.texts == (text,)
    ids = [n.id for n in g.nodes]
    assert len(ids) == len(set(ids))
    for n in g.nodes:
        assert n.span is not None and n.span.source == source
        assert n.id.startswith(f"{source}:")
        assert n.span.slice(text) == n.text
    for t in g.triples:
        assert t.span is not None and t.span.source == source
        assert t.subject in g.nodes and t.object in g.nodes


def test_svo_and_prep(ex: SpacyExtractor) -> None:
    text = "Steve Jobs founded Apple in 1976."
    g = ex.extract(text, source=0)
    check_spans(g, text, 0)
    assert facts(g) == {
        ("steve jobs", "found", "apple", "svo"),
        ("steve jobs", "found in", "1976", "prep"),
    }
    kinds = {n.label: n.kind for n in g.nodes}
    assert kinds == {"steve jobs": "PERSON", "apple": "ORG", "1976": "DATE"}
    assert [n.id for n in g.nodes] == ["0:0", "0:19", "0:28"]
    assert g.triples[0].span is not None and g.triples[0].span.slice(text) == text


def test_copula_and_noun_prep(ex: SpacyExtractor) -> None:
    g = ex.extract("Paris is the capital of France.")
    assert facts(g) == {("paris", "be", "capital", "copula"), ("capital", "of", "france", "prep")}
    g = ex.extract("The Eiffel Tower is famous for its height.")
    assert ("eiffel tower", "be", "famous", "copula") in facts(g)
    assert ("eiffel tower", "be famous for", "height", "prep") in facts(g)


def test_appositive_possessive_and_conjunction(ex: SpacyExtractor) -> None:
    text = "Tim Cook, the CEO of Apple, was not born in Paris. Apple's CEO visited London and Berlin."
    g = ex.extract(text)
    check_spans(g, text, -1)
    f = facts(g)
    assert ("tim cook", "be", "ceo", "appos") in f
    assert ("ceo", "of", "apple", "prep") in f
    assert ("tim cook", "not be born in", "paris", "prep") in f
    assert ("apple", "have", "ceo", "poss") in f
    assert {("ceo", "visit", "london", "svo"), ("ceo", "visit", "berlin", "svo")} <= f
    poss = next(t for t in g.triples if t.pattern == "poss")
    assert poss.object.text == "CEO" and poss.subject.kind == "ORG"


def test_passive_agent_and_conjoined_subjects(ex: SpacyExtractor) -> None:
    g = ex.extract("The company was founded by Steve Jobs and Steve Wozniak.")
    assert facts(g) == {
        ("company", "be founded by", "steve jobs", "svo"),
        ("company", "be founded by", "steve wozniak", "svo"),
    }
    g = ex.extract("Steve Jobs and Steve Wozniak founded Apple and sold computers.")
    assert facts(g) == {
        (s, rel, o, "svo")
        for s in ("steve jobs", "steve wozniak")
        for rel, o in (("found", "apple"), ("sell", "computers"))
    }


def test_negation(ex: SpacyExtractor) -> None:
    assert facts(ex.extract("The researchers never published the results.")) == {
        ("researchers", "not publish", "results", "svo")
    }
    assert ("tim cook", "not be born in", "paris", "prep") in facts(
        ex.extract("Tim Cook was not born in Paris.")
    )


def test_pronoun_resolution(ex: SpacyExtractor) -> None:
    text = "Marie Curie was born in Warsaw. She won the Nobel Prize."
    g = ex.extract(text)
    curie = next(n for n in g.nodes if n.label == "marie curie")
    won = next(t for t in g.triples if t.relation == "win")
    assert won.subject.id == curie.id
    assert won.subject.span is not None and won.subject.span.slice(text) == "Marie Curie"
    assert won.span is not None and won.span.slice(text) == "She won the Nobel Prize."
    assert not any(n.label == "she" for n in g.nodes)
    g = ex.extract("Apple was founded in 1976. It makes phones.")  # DATE is no antecedent
    assert ("apple", "make", "phones", "svo") in facts(g)
    g = ex.extract("The researchers set up a lab. They never published their results.")
    assert {("researchers", "not publish", "results", "svo"),
            ("researchers", "have", "results", "poss")} <= facts(g)
    g = ex.extract("Matt Groening, who created The Simpsons, was born in Portland.")
    assert ("matt groening", "create", "simpsons", "svo") in facts(g)


def test_pronouns_without_antecedent_or_resolution_are_dropped(ex: SpacyExtractor) -> None:
    assert ex.extract("He decided to move to Paris.").triples == ()
    off = SpacyExtractor(resolve_pronouns=False)
    g = off.extract("Marie Curie was born in Warsaw. She won the Nobel Prize.")
    assert facts(g) == {("marie curie", "be born in", "warsaw", "prep")}


def test_sources_and_merge(ex: SpacyExtractor) -> None:
    p0 = "Steve Jobs founded Apple in 1976."
    p1 = "Steve Jobs was born in San Francisco."
    g0, g1 = ex.extract(p0, source=0), ex.extract(p1, source=1)
    check_spans(g0, p0, 0)
    check_spans(g1, p1, 1)
    merged = KnowledgeGraph.merge([g0, g1])
    assert len(merged.nodes) == len(g0.nodes) + len(g1.nodes)
    assert len({n.id for n in merged.nodes}) == len(merged.nodes)
    assert merged.texts == (p0, p1)
    for n in merged.nodes:
        assert n.span is not None and n.span.slice(merged.texts[n.span.source]) == n.text


def test_extract_many_equals_extract(ex: SpacyExtractor) -> None:
    texts = [
        "Steve Jobs founded Apple in 1976.",
        "Marie Curie was born in Warsaw. She won the Nobel Prize.",
        "Yes.",
        "!!!",
        "Tim Cook, the CEO of Apple, visited Berlin.",
    ]
    assert ex.extract_many(texts) == [ex.extract(t, source=i) for i, t in enumerate(texts)]
    assert ex.extract_many(texts, [-1, 5, 6, 7, 8])[1] == ex.extract(texts[1], source=5)
    assert ex.extract_many([]) == []


def test_long_text_is_chunked_with_correct_offsets(ex: SpacyExtractor) -> None:
    head = "Steve Jobs founded Apple in 1976. Marie Curie was born in Warsaw. "
    tail = "Tim Cook visited London."
    text = head + " " * 1_000_000 + tail  # > nlp.max_length, cheap to parse
    g = ex.extract(text, source=2)
    check_spans(g, text, 2)
    assert {("steve jobs", "found", "apple", "svo"),
            ("tim cook", "visit", "london", "svo")} <= facts(g)
    london = next(n for n in g.nodes if n.label == "london")
    assert london.span is not None and london.span.start == len(text) - len("London.")


def test_small_chunks_give_the_same_graph() -> None:
    text = "Steve Jobs founded Apple in 1976. Marie Curie was born in Warsaw. " * 20
    whole = SpacyExtractor().extract(text)
    chunked = SpacyExtractor(max_chunk_chars=300).extract(text)
    check_spans(chunked, text, -1)
    assert [n.id for n in chunked.nodes] == [n.id for n in whole.nodes]
    assert facts(chunked) == facts(whole)
    assert len(chunked.triples) == len(whole.triples) == 60


def test_fallback_tokens_and_empty_graphs(ex: SpacyExtractor) -> None:
    g = ex.extract("Yes.")
    assert [(n.label, n.kind, n.id) for n in g.nodes] == [("yes", "TOKEN", "-1:0")]
    assert g.triples == ()
    # polar words are kept, so a bare "No" is judged rather than abstained on
    assert [n.label for n in ex.extract("No, it isn't").nodes] == ["no"]
    for text in ("!!!", "", "   ", "It is."):
        g = ex.extract(text)
        assert g.is_empty and g.texts == (text,)


def test_invalid_input(ex: SpacyExtractor) -> None:
    with pytest.raises(InvalidInputError, match="int"):
        ex.extract(123)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="bytes"):
        ex.extract_many(["ok", b"bytes"])  # type: ignore[list-item]
    with pytest.raises(InvalidInputError, match="sources"):
        ex.extract_many(["a", "b"], [0])
    with pytest.raises(InvalidInputError, match="source 0"):
        ex.extract("a", source="0")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="str"):
        ex.extract_many("abc")


@pytest.mark.parametrize(
    ("kwargs", "bad"),
    [({"model": ""}, "''"), ({"resolve_pronouns": "yes"}, "'yes'"),
     ({"max_chunk_chars": 10}, "10"), ({"batch_size": 0}, "0"), ({"max_chunk_chars": 1.5e6}, "1500000.0")],
)
def test_constructor_validation(kwargs: dict, bad: str) -> None:
    with pytest.raises(ValueError, match=bad):
        SpacyExtractor(**kwargs)


def test_missing_model_raises_extraction_error() -> None:
    with pytest.raises(ExtractionError, match="no_such_spacy_model"):
        SpacyExtractor(model="no_such_spacy_model").extract("Hello world.")


def test_model_is_shared_and_async_works(ex: SpacyExtractor) -> None:
    assert SpacyExtractor().nlp is ex.nlp
    g = asyncio.run(ex.aextract("Steve Jobs founded Apple.", source=4))
    assert ("steve jobs", "found", "apple", "svo") in facts(g)
    assert "spacy" == ex.name and "resolve_pronouns=True" in repr(ex)


def _halueval_rows(n: int) -> list[dict]:
    if not HALUEVAL.exists():
        pytest.fail(f"test data missing: {HALUEVAL} (it ships with the repository)")
    with HALUEVAL.open(encoding="utf-8") as fh:
        return [json.loads(next(fh)) for _ in range(n)]


def test_halueval_passages(ex: SpacyExtractor) -> None:
    rows = _halueval_rows(3)
    texts = [r["knowledge"] for r in rows]
    graphs = ex.extract_many(texts)
    for i, (g, text) in enumerate(zip(graphs, texts)):
        check_spans(g, text, i)
        assert g.nodes and g.triples
    first = texts[0]
    if first.startswith("Arthur's Magazine (1844–1846) was an American literary periodical"):
        f = facts(graphs[0])
        assert ("arthur's magazine", "be", "american literary periodical", "copula") in f
        assert ("american literary periodical", "be published in", "philadelphia", "prep") in f


def test_halueval_answers(ex: SpacyExtractor) -> None:
    rows = _halueval_rows(5)
    for r in rows:
        for answer in (r["right_answer"], r["hallucinated_answer"]):
            g = ex.extract(answer)
            check_spans(g, answer, -1)
            assert not g.is_empty
    if rows[1]["hallucinated_answer"] == "The Oberoi family's hotel company is based in Mumbai.":
        f = facts(ex.extract(rows[1]["hallucinated_answer"]))
        assert f == {("oberoi family", "have", "hotel company", "poss"),
                     ("hotel company", "be based in", "mumbai", "prep")}


def test_parse_chunks_maps_a_spacy_failure_to_extraction_error(monkeypatch) -> None:
    """A scripted pipeline stands in here: the test needs spaCy to fail, which the real one does not."""
    import contextlib

    from guardrail.extract import spacy_extractor

    class Broken:
        max_length = 1_000_000

        def memory_zone(self) -> contextlib.AbstractContextManager[None]:
            return contextlib.nullcontext()

        def __call__(self, text: str) -> None:
            raise RuntimeError("boom")

        def pipe(self, texts: object, batch_size: int = 1) -> None:
            raise RuntimeError("boom")

    monkeypatch.setattr(spacy_extractor, "_load_model", lambda name: Broken())
    with pytest.raises(ExtractionError, match="boom"):
        spacy_extractor.parse_chunks("Some text.", lambda parts: parts)
