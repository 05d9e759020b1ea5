"""Backends: the embedded store, and a SPARQL endpoint over HTTP with its failure modes
(refused connection, timeout, malformed results, HTTP errors) mapped to KnowledgeBaseError."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import free_port

from guardrail.errors import GuardrailError, InvalidInputError
from guardrail.kb import KnowledgeBaseError, OxigraphKB, SparqlEndpointKB, Term

RESULT = {"head": {"vars": ["s", "l"]}, "results": {"bindings": [
    {"s": {"type": "uri", "value": "http://e.org/a"}, "l": {"type": "literal", "value": "A", "xml:lang": "en"}},
    {"s": {"type": "uri", "value": "http://e.org/b"},
     "l": {"type": "literal", "value": "7", "datatype": "http://www.w3.org/2001/XMLSchema#integer"}},
]}}


def test_error_is_a_guardrail_error() -> None:
    assert issubclass(KnowledgeBaseError, GuardrailError)


def test_oxigraph_query(oxi: OxigraphKB) -> None:
    rows = oxi.query('SELECT ?e WHERE { ?e <http://www.w3.org/2000/01/rdf-schema#label> "Sherbrooke" }')
    assert rows == [{"e": Term("iri", "http://kg-guardrail.example/ardwyn/Sherbrooke")}]
    lang = oxi.query('SELECT ?l WHERE { <http://kg-guardrail.example/ardwyn/Odile_Varnay> '
                     '<http://www.w3.org/2000/01/rdf-schema#label> ?l }')
    assert lang == [{"l": Term("literal", "Odile Varnay", lang="en")}]


def test_oxigraph_caps_results(kb_file: Path) -> None:
    kb = OxigraphKB(kb_file, max_results=3)
    assert len(kb.query("SELECT * WHERE { ?s ?p ?o }")) == 3


def test_oxigraph_formats_and_quads(tmp_path: Path) -> None:
    nq = tmp_path / "d.nq"
    nq.write_text('<http://e.org/a> <http://e.org/p> "x" <http://e.org/g> .\n', encoding="utf-8")
    nt = tmp_path / "d.nt"
    nt.write_text('<http://e.org/b> <http://e.org/p> "y" .\n', encoding="utf-8")
    kb = OxigraphKB([nq, nt])
    assert len(kb.query("SELECT ?s WHERE { ?s <http://e.org/p> ?o }")) == 2  # named graph included


def test_oxigraph_load_errors(tmp_path: Path) -> None:
    with pytest.raises(KnowledgeBaseError, match="could not load"):
        OxigraphKB(tmp_path / "missing.ttl")
    bad = tmp_path / "bad.ttl"
    bad.write_text("this is not turtle <<<", encoding="utf-8")
    with pytest.raises(KnowledgeBaseError):
        OxigraphKB(bad)
    with pytest.raises(InvalidInputError, match="unknown RDF format"):
        OxigraphKB(tmp_path / "data.csv")
    with pytest.raises(InvalidInputError):
        OxigraphKB(max_results=0)


def test_oxigraph_bad_query(oxi: OxigraphKB) -> None:
    with pytest.raises(KnowledgeBaseError):
        oxi.query("SELECT WHERE {")
    with pytest.raises(InvalidInputError):
        oxi.query("   ")


@pytest.mark.parametrize("kwargs", [{"timeout": 0}, {"retries": -1}, {"max_results": 0}, {"user_agent": ""},
                                    {"cache_size": -1}])
def test_endpoint_bad_arguments(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidInputError):
        SparqlEndpointKB("http://127.0.0.1:1/sparql", **kwargs)
    with pytest.raises(InvalidInputError):
        SparqlEndpointKB("file:///etc/passwd")


def test_endpoint_parses_results_sends_headers_and_caches(http_server: Any) -> None:
    srv = http_server(lambda body: (200, json.dumps(RESULT).encode(), 0.0))
    kb = SparqlEndpointKB(srv.url, user_agent="kg-guardrail-tests/1", default_graph="urn:g", max_results=1)
    rows = kb.query("SELECT * WHERE { ?s ?l ?o }")
    assert rows == [{"s": Term("iri", "http://e.org/a"), "l": Term("literal", "A", lang="en")}]
    assert kb.query("SELECT * WHERE { ?s ?l ?o }") == rows  # from the cache
    assert len(srv.requests) == 1 and kb.cache.hits == 1
    headers, body = srv.requests[0]
    assert headers["User-Agent"] == "kg-guardrail-tests/1"
    assert b"default-graph-uri=urn%3Ag" in body and b"query=SELECT" in body


def test_connection_refused_is_typed() -> None:
    kb = SparqlEndpointKB(f"http://127.0.0.1:{free_port()}/sparql", retries=1, backoff=0.0, timeout=2)
    with pytest.raises(KnowledgeBaseError, match="2 attempt"):
        kb.query("SELECT * WHERE { ?s ?p ?o }")


def test_timeout_is_typed_after_retries(http_server: Any) -> None:
    srv = http_server(lambda body: (200, json.dumps(RESULT).encode(), 1.5))
    kb = SparqlEndpointKB(srv.url, timeout=0.3, retries=1, backoff=0.0)
    t0 = time.perf_counter()
    with pytest.raises(KnowledgeBaseError, match="timed out|Timeout"):
        kb.query("SELECT * WHERE { ?s ?p ?o }")
    assert time.perf_counter() - t0 < 5 and len(srv.requests) == 2


@pytest.mark.parametrize("payload", [b"<html>not json</html>", b'{"results": 3}', b"{\"results\": {\"bindings\": [1]}}",
                                     b'{"results": {"bindings": [{"s": {"type": "weird", "value": "x"}}]}}',
                                     b"\xff\xfe garbage", b""])
def test_malformed_results_are_typed(http_server: Any, payload: bytes) -> None:
    srv = http_server(lambda body: (200, payload, 0.0))
    kb = SparqlEndpointKB(srv.url, retries=0)
    with pytest.raises(KnowledgeBaseError, match="malformed"):
        kb.query("SELECT * WHERE { ?s ?p ?o }")


def test_server_errors_retry_then_fail(http_server: Any) -> None:
    calls: list[int] = []

    def respond(body: bytes) -> tuple[int, bytes, float]:
        calls.append(1)
        return (503, b"busy", 0.0) if len(calls) < 2 else (200, json.dumps(RESULT).encode(), 0.0)

    srv = http_server(respond)
    assert len(SparqlEndpointKB(srv.url, retries=2, backoff=0.0).query("SELECT * {?s ?p ?o}")) == 2
    bad = http_server(lambda body: (400, b"Virtuoso 37000 Error SP030: SPARQL compiler", 0.0))
    with pytest.raises(KnowledgeBaseError, match="HTTP 400"):
        SparqlEndpointKB(bad.url, retries=3, backoff=0.0).query("SELECT * {?s ?p ?o}")
    assert len(bad.requests) == 1  # client errors are not retried
