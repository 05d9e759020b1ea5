"""Entity linking and fact fetching on the example KB (no models needed)."""

from __future__ import annotations

from guardrail.kb import RDFS, CountingKB, EntityLinker, Mention, OxigraphKB, facts_graph, fetch_facts, sparql_literal

EX = "http://kg-guardrail.example/ardwyn/"


def test_exact_alias_case_and_fuzzy(oxi: OxigraphKB) -> None:
    lk = EntityLinker(oxi)
    got = lk.link([Mention("ardwyn optics", "ORG"), Mention("Varnay", "PERSON"), Mention("the Sherbrooke"),
                   Mention("Desmond Achebbe", "PERSON"), Mention("Nowhere Town", "GPE")])
    by = {e.iri: e for e in got}
    assert by[EX + "Ardwyn_Optics"].method == "exact"
    assert by[EX + "Odile_Varnay"].method == "exact"  # via skos:altLabel
    assert EX + "Sherbrooke" in by
    assert by[EX + "Desmond_Achebe"].method == "fuzzy" and 0.9 <= by[EX + "Desmond_Achebe"].score < 1.0
    assert len(got) == 4


def test_injection_mentions_link_nothing_and_break_nothing(oxi: OxigraphKB) -> None:
    evil = [Mention('" } ; DROP ALL ; #'), Mention("x\"} UNION { ?s ?p ?o } #"), Mention("a\\\nb")]
    before = len(oxi)
    assert EntityLinker(oxi).link(evil) == []
    # the query path (no local index) escapes them too
    lk = EntityLinker(oxi, index_limit=1)
    assert lk.link(evil) == [] and lk.load_index() is False
    assert len(oxi) == before


def test_query_path_matches_exactly(oxi: OxigraphKB) -> None:
    lk = EntityLinker(oxi, index_limit=1)  # KB larger than the index: VALUES queries
    got = lk.link([Mention("Monterrey"), Mention("halcott scientific"), Mention("Varnay")])
    assert [e.iri for e in got] == [EX + "Monterrey", EX + "Halcott_Scientific", EX + "Odile_Varnay"]


def test_fetch_one_and_two_hops(oxi: OxigraphKB) -> None:
    counting = CountingKB(oxi)
    one = fetch_facts(counting, [EX + "Sherbrooke"], hops=1)
    assert {f.iris for f in one} == {
        (EX + "Sherbrooke", EX + "locatedIn", EX + "Quebec"),
        (EX + "Ardwyn_Optics", EX + "basedIn", EX + "Sherbrooke"),
    }
    two = fetch_facts(counting, [EX + "Sherbrooke"], hops=2)
    assert (EX + "Quebec", EX + "locatedIn", EX + "Canada") in {f.iris for f in two}
    assert all(f.hop == 2 for f in two[len(one):]) and counting.count == 3
    capped = fetch_facts(oxi, [EX + "Odile_Varnay"], hops=2, max_facts=4)
    assert len(capped) == 4 and all(f.hop == 1 for f in capped)
    assert fetch_facts(oxi, []) == []


def test_facts_graph_uses_iris_and_labels(oxi: OxigraphKB) -> None:
    facts = fetch_facts(oxi, [EX + "Odile_Varnay"], hops=1)
    g = facts_graph(facts)
    born = next(t for t, f in zip(g.triples, facts) if f.predicate == EX + "bornIn")
    assert born.subject.id == EX + "Odile_Varnay" and born.subject.text == "Odile Varnay"
    assert born.relation == "be born in" and born.object.text == "Trois-Rivières"
    assert g.texts[facts.index(next(f for f in facts if f.predicate == EX + "bornIn"))] == \
        "Odile Varnay be born in Trois-Rivières."
    lit = next(f for f in facts if f.predicate == EX + "bornOn")
    assert lit.iris[2] == sparql_literal("14 March 1961")
    assert len(g.texts) == len(g.triples) == len(facts)


def test_profile_language_filter(kb_file: object) -> None:
    from dataclasses import replace

    kb = OxigraphKB(data='<http://e.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "Aa"@fr , "Ab"@en .')
    lk = EntityLinker(kb, replace(RDFS, language="en"))
    assert [e.label for e in lk.link([Mention("Ab"), Mention("Aa")])] == ["Ab"]


def test_query_path_links_language_tagged_labels_with_the_rdfs_profile() -> None:
    """Issue 30, item 10: ``"Odile Varnay"@en`` links through the VALUES query of large KBs."""
    kb = OxigraphKB(data=(
        '<http://e.org/ov> <http://www.w3.org/2000/01/rdf-schema#label> "Odile Varnay"@en .\n'
        '<http://e.org/hs> <http://www.w3.org/2000/01/rdf-schema#label> "Halcott Scientific"@en-GB .\n'
        '<http://e.org/mo> <http://www.w3.org/2000/01/rdf-schema#label> "Monterrey" .\n'))
    lk = EntityLinker(kb, RDFS, index_limit=1)  # more names than the index: the query path
    got = lk.link([Mention("Odile Varnay"), Mention("halcott scientific"), Mention("Monterrey")])
    assert [e.iri for e in got] == ["http://e.org/ov", "http://e.org/hs", "http://e.org/mo"]
    assert EntityLinker(kb, RDFS).link([Mention("Odile Varnay")])[0].iri == "http://e.org/ov"  # the index path
