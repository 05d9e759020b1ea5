"""SPARQL term syntax: literals and IRIs built from user text cannot break out of the query."""

from __future__ import annotations

import pytest

from guardrail.errors import InvalidInputError
from guardrail.kb import OxigraphKB, Term, local_name, sparql_iri, sparql_literal

INJECTIONS = [
    '" } ; DROP ALL ; #',
    '"} UNION { ?s ?p ?o } #',
    "line one\nline two\r\n\ttabbed",
    "back\\slash \\\" quote",
    "\\u0022 } DROP ALL #",
    "trailing backslash \\",
    "'single' and \"double\"",
    "nul\x00 and bell\x07",
    "Ünïcödé – Trois-Rivières 東京",
]


def test_literal_escapes_specials() -> None:
    assert sparql_literal('a "b" c') == '"a \\"b\\" c"'
    assert sparql_literal("x\ny") == '"x\\ny"'
    assert sparql_literal("a\\b") == '"a\\\\b"'
    assert sparql_literal("Paris", lang="en-GB") == '"Paris"@en-GB'
    assert sparql_literal("5", datatype="http://www.w3.org/2001/XMLSchema#integer").endswith("#integer>")


@pytest.mark.parametrize("bad", [{"lang": "en fr"}, {"lang": "en\"} DROP"}, {"datatype": "http://x> DROP"},
                                 {"lang": "en", "datatype": "http://x"}])
def test_literal_rejects_bad_tags(bad: dict[str, str]) -> None:
    with pytest.raises(InvalidInputError):
        sparql_literal("x", **bad)


def test_literal_rejects_non_str() -> None:
    with pytest.raises(InvalidInputError):
        sparql_literal(42)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["", "http://a b", "http://a>", "http://a/{x}", 'http://a"', "http://a\n",
                                 "http://a\\b", None])
def test_iri_rejects_breakouts(bad: object) -> None:
    with pytest.raises(InvalidInputError):
        sparql_iri(bad)  # type: ignore[arg-type]


def test_local_name() -> None:
    assert local_name("http://e.org/onto#bornIn") == "bornIn"
    assert local_name("http://e.org/place_of_birth/") == "place of birth"


@pytest.mark.parametrize("text", INJECTIONS)
def test_literal_round_trips_through_a_real_parser(text: str) -> None:
    """The escaped literal is one token: the store binds exactly the text (control
    characters other than tab/CR/LF dropped) and nothing else runs."""
    kb = OxigraphKB(data='<http://e.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "a" .')
    rows = kb.query(f"SELECT ?v WHERE {{ BIND({sparql_literal(text)} AS ?v) }}")
    expected = text.replace("\x00", "").replace("\x07", "")
    assert rows == [{"v": Term("literal", expected)}]
    assert len(kb) == 1  # nothing was dropped or added


def test_term_n3() -> None:
    assert Term("iri", "http://e.org/a").n3() == "<http://e.org/a>"
    assert Term("literal", "x", lang="en").n3() == '"x"@en'
    assert Term("bnode", "b0").n3() == "_:b0"
