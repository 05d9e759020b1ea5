"""Relation selection and label clustering (KEA Explain)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "detectors"))
from _fakes import FakeEncoder, apple_claim, apple_context, node  # noqa: E402

from guardrail.align.relations import cluster_labels, nearest_nodes, select_relations  # noqa: E402
from guardrail.types import KnowledgeGraph, Triple  # noqa: E402


def test_selects_most_similar_context_triple():
    ctx = apple_context()
    claim = apple_claim("1976")
    claim = claim.model_copy(update={"nodes": claim.nodes[:2], "triples": claim.triples[:1]})
    enc = FakeEncoder()
    sel = select_relations(claim, ctx, enc)
    assert [t.relation for t in sel.triples] == ["be founded in"]
    assert {n.label for n in sel.nodes} == {"apple", "1976"}
    assert sel.texts == ctx.texts


def test_loose_claim_nodes_select_their_nearest_context_node():
    claim = apple_claim("1976")
    claim = claim.model_copy(update={"triples": claim.triples[:1]})  # "Steve Jobs" is loose
    sel = select_relations(claim, apple_context(), FakeEncoder())
    assert {n.label for n in sel.nodes} == {"apple", "1976", "steve jobs"}


def test_selection_dedupes_and_keeps_context_objects():
    ctx = apple_context()
    sel = select_relations(apple_claim("1976"), ctx, FakeEncoder())
    assert len(sel.triples) == len({t.text for t in sel.triples})
    assert all(n in ctx.nodes for n in sel.nodes)


def test_claim_without_triples_selects_nearest_nodes():
    claim = KnowledgeGraph(nodes=(node("-1:0", "Steve Jobs", "PERSON"),), texts=("Steve Jobs",))
    sel = select_relations(claim, apple_context(), FakeEncoder())
    assert sel.triples == ()
    assert [n.label for n in sel.nodes] == ["steve jobs"]


def test_context_without_triples_selects_nodes():
    ctx = KnowledgeGraph(nodes=apple_context().nodes, texts=apple_context().texts)
    sel = select_relations(apple_claim("1976"), ctx, FakeEncoder())
    assert sel.triples == ()
    assert {n.label for n in sel.nodes} == {"apple", "1976", "steve jobs"}


def test_empty_sides_give_empty_graph():
    assert select_relations(KnowledgeGraph(), apple_context(), FakeEncoder()).is_empty
    assert select_relations(apple_claim("1976"), KnowledgeGraph(), FakeEncoder()).is_empty


def test_long_context_is_shortlisted():
    a = node("0:0", "Apple", "ORG", 0, 0)
    many = tuple(node(f"0:{i + 10}", f"thing {i}", "NOUN", 0, i + 10) for i in range(100))
    triples = tuple(Triple(subject=a, relation="own", object=m) for m in many)
    ctx = KnowledgeGraph(nodes=(a, *many), triples=triples, texts=("x",))
    enc = FakeEncoder()
    sel = select_relations(apple_claim("1976"), ctx, enc, max_candidates=8)
    assert 1 <= len(sel.triples) <= 2


def test_cluster_labels_edge_cases():
    enc = FakeEncoder(groups=[("film", "movie")])
    assert cluster_labels([], enc) == {}
    assert cluster_labels(["x", "x"], enc) == {"x": 0}
    out = cluster_labels(["film", "movie", "apple", "film"], enc)
    assert out["film"] == out["movie"] != out["apple"]
    assert sorted(set(out.values())) == [0, 1]
    with pytest.raises(ValueError):
        cluster_labels(["a", "b"], enc, distance_threshold=-1)


def test_nearest_nodes():
    ctx = apple_context()
    idx, sims = nearest_nodes([node("-1:0", "Apple", "ORG")], ctx.nodes, FakeEncoder())
    assert idx == [0] and sims[0] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        nearest_nodes(ctx.nodes, [], FakeEncoder())


@pytest.mark.slow
def test_real_minilm_merges_synonyms_at_kea_threshold():
    from guardrail.align.encoder import shared_encoder

    out = cluster_labels(["film", "movie", "Paris", "banana"], shared_encoder(), 0.35)
    assert out["film"] == out["movie"]
    assert len({out["film"], out["Paris"], out["banana"]}) == 3


def test_an_input_selects_its_relations_once(monkeypatch) -> None:
    """The one home of the selection: ``wl_kernel`` and the explain step read the same graph."""
    import guardrail.detectors.base as base
    from guardrail.detectors.base import AlignmentInput
    from guardrail.detectors.wl_kernel import WLKernelDetector

    calls: list[int] = []
    real = base.select_relations
    monkeypatch.setattr(base, "select_relations", lambda *a, **k: calls.append(1) or real(*a, **k))
    claim, ctx = apple_claim("1999"), apple_context()
    item = AlignmentInput(claim.texts[0], ctx.texts, None, claim, ctx, FakeEncoder())
    WLKernelDetector().detect(item)
    assert item.selected_context() == select_relations(claim, ctx, FakeEncoder())
    assert item.selected_context() is item.selected_context()
    assert calls == [1]
    assert item == AlignmentInput(claim.texts[0], ctx.texts, None, claim, ctx, item.encoder)  # a memo, not a field


def test_names_only_parse_reads_no_values_and_keep_skips_sentences() -> None:
    from guardrail.align.text_parses import parse_sentences

    text = "Google acquired YouTube on 3 March 2006 for $1.65 billion. It rained. Google grew."
    names = parse_sentences([text], values=False, keep=lambda t: "Google" in t)
    assert [s.text for s in names] == ["Google acquired YouTube on 3 March 2006 for $1.65 billion.", "Google grew."]
    assert {sl.kind for sl in names[0].slots} == {"ORG"}  # no DATE or NUM slot without values
    full = parse_sentences([text])
    assert {"DATE", "NUM"} <= {sl.kind for sl in full[0].slots}
    assert names[1].base == text.index("Google grew.")  # offsets stay those of the passage
    # one parse of the text serves both: the names-only sentence is the valued one without its values
    again = parse_sentences([text], values=False)[0]
    assert again.toks == full[0].toks
    assert again.slots == tuple(sl for sl in full[0].slots if sl.kind not in ("DATE", "NUM", "TIME"))


def test_value_sentences_read_the_texts_values_without_a_parse(monkeypatch) -> None:
    """The first pass of ``kg_literals``: values by regular expression and quantulum3, no spaCy;
    a sentence with no digit, number or month word is not read."""
    from guardrail.align import parsed

    monkeypatch.setattr(parsed, "_parse_batch", lambda *a, **k: (_ for _ in ()).throw(AssertionError("parsed")))
    text = "Google acquired YouTube on 3 March 2006 for $1.65 billion. It rained all spring. Open until 16:45."
    first, rained, until = parsed.value_sentences([text])
    assert {sl.kind for sl in first.slots} == {"DATE", "NUM"} and first.toks == ()
    assert any(sl.num is not None and sl.num.value == 1.65e9 for sl in first.slots)
    assert rained.slots == () and rained.base == text.index("It rained")
    assert [sl.kind for sl in until.slots] == ["TIME"]


def test_values_added_to_a_names_only_parse_equal_a_parse_with_values() -> None:
    """A sentence parsed for names first gets its values without a second spaCy pass, slot for slot as
    a parse with values reads them (adjacent date entities stay two: "January 31, 1909 –" and "December 11, 1974")."""
    from guardrail.align import parsed

    texts = ("Walter Darwin Coy (January 31, 1909 – December 11, 1974) was an American actor.",
             "The grant of $12,000 is paid on 3 March 2024 and again at 16:45 on Friday, after two weeks.")
    full = parsed._parse_batch(texts, True)
    names = parsed._parse_batch(texts, False)
    assert [parsed.with_values(n).slots for n in names] == [f.slots for f in full]
    assert sum(sl.kind == "DATE" for sl in full[0].slots) == 2


def test_same_relation_reads_synonym_groups_only() -> None:
    from guardrail.align.clauses import same_relation

    assert same_relation("acquire", "buy") and same_relation("set up", "found") and same_relation("win", "win")
    assert not same_relation("buy", "sell") and not same_relation("win", "lose") and not same_relation("x", "y")


def test_kg_checks_read_the_extractors_parse_of_a_text(monkeypatch) -> None:
    """The extractor's parse of a passage is the one the knowledge-graph checks read: after extraction no
    second spaCy pass runs, and the sentences equal those of a fresh parse of the whole text (the
    verdict does not depend on what was cached)."""
    from guardrail.align import text_parses
    from guardrail.extract import spacy_extractor
    from guardrail.extract.spacy_extractor import SpacyExtractor

    text = ("Orland County approved a $214 million bus line on 3 March 2024. It links Westgate to the airport. "
            "Mayor Dana Ruiz said the line opens in 2027.")
    monkeypatch.setattr(text_parses, "_CACHE", type(text_parses._CACHE)())
    monkeypatch.setattr(text_parses, "_HELD", [0])
    fresh = text_parses.parse_sentences([text])
    monkeypatch.setattr(text_parses, "_CACHE", type(text_parses._CACHE)())
    monkeypatch.setattr(text_parses, "_HELD", [0])
    SpacyExtractor().extract(text, source=0)

    def no_parse(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed a second time")

    monkeypatch.setattr(text_parses, "parse_chunks", no_parse)
    monkeypatch.setattr(spacy_extractor, "_load_model", no_parse)
    shared = text_parses.parse_sentences([text])
    assert shared == fresh
    assert [s.text for s in shared] == [text[s.base:s.base + len(s.text)] for s in shared]
    assert ("PERSON", "Dana Ruiz") in {(sl.kind, sl.text) for s in shared for sl in s.slots}
    assert all(t.head < len(s.toks) for s in shared for t in s.toks)  # heads stay inside the sentence


def test_a_sentence_the_tokens_do_not_tile_is_parsed_on_its_own() -> None:
    """A sentence boundary inside a token of the text's parse: that sentence is not cut from it."""
    from guardrail.align.text_parses import _Parse
    from guardrail.extract.spacy_extractor import parse_chunks

    text = "Ada wrote the notes in 1843. Babbage read them."
    cut = text.index("notes") + 2  # inside "notes"
    got = parse_chunks(text, lambda parts: [_Parse(parts).sentence(text, 0, cut),
                                             _Parse(parts).sentence(text, 0, text.index(" Babbage"))])
    assert got[0] is None
    assert got[1] is not None and [t.text for t in got[1].toks][-2:] == ["1843", "."]


def test_the_text_parse_cache_holds_a_bounded_number_of_sentences(monkeypatch) -> None:
    from guardrail.align import text_parses

    monkeypatch.setattr(text_parses, "_CACHE", type(text_parses._CACHE)())
    monkeypatch.setattr(text_parses, "_HELD", [0])
    monkeypatch.setattr(text_parses, "_CACHE_MAX_SENTENCES", 5)
    texts = [f"Ada met Bob in {1900 + i}. They wrote a paper." for i in range(4)]
    for t in texts:
        text_parses.parse_sentences([t])
    # each text: its names-only and its valued sentences (2 + 2); the older texts went
    assert list(text_parses._CACHE) == [(False, texts[3]), (True, texts[3])]
    assert text_parses._HELD[0] == 4 == sum(len(v) for v in text_parses._CACHE.values())


def test_a_passage_another_extractor_parsed_is_parsed_whole_the_same_way(monkeypatch) -> None:
    """An extractor with other settings hands nothing over: the checks parse the passage themselves,
    whole and in the default chunks, and read the same sentences as after a default extraction."""
    from guardrail.align import text_parses
    from guardrail.extract.spacy_extractor import SpacyExtractor

    text = "Nordvik Foods is buying Kroll for NOK 1.4 billion. Kroll was founded in 1961 in Aarhus."
    monkeypatch.setattr(text_parses, "_CACHE", type(text_parses._CACHE)())
    monkeypatch.setattr(text_parses, "_HELD", [0])
    SpacyExtractor(max_chunk_chars=5_000).extract(text, source=0)
    assert not text_parses._CACHE  # not the default chunking: not shared
    own = text_parses.parse_sentences([text], values=False)
    monkeypatch.setattr(text_parses, "_CACHE", type(text_parses._CACHE)())
    monkeypatch.setattr(text_parses, "_HELD", [0])
    SpacyExtractor().extract(text, source=0)
    assert (False, text) in text_parses._CACHE
    assert text_parses.parse_sentences([text], values=False) == own
