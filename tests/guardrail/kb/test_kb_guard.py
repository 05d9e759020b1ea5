"""End to end with real models: KB contexts through ``Guard.check``, the ``kb_facts``
detector, evidence naming the KB triple, passages merged in, and the same verdicts from
the embedded store and from a real Virtuoso server."""

from __future__ import annotations

import pytest
from conftest import free_port

from guardrail import Guard
from guardrail.config import GuardConfig, shipped_configs
from guardrail.detectors.kb_facts import KBFactsDetector
from guardrail.detectors.verifier import VerifierDetector
from guardrail.kb import KnowledgeBaseError, OxigraphKB, SparqlEndpointKB, kb_context, sparql_literal

pytestmark = pytest.mark.slow
EX = "http://kg-guardrail.example/ardwyn/"

#: Known failure of verifiers v4 and v5 (issue 26 note): this KB is written from context biz-001 of the
#: claims data, a *train* context whose edits (Université Laval swapped into other facts) the verifier
#: learnt; it now reads even the identical sentence "Odile Varnay studied at Université Laval." as
#: unsupported (p 0.2). v5 (fact-list pairs) reads other fact lists better; swaps within a list only partly.
_V4_FACT_LISTS = pytest.mark.xfail(strict=True, reason="verifier memorised biz-001's edits (a train context)")

RIGHT = [
    "Odile Varnay was born in Trois-Rivières.",
    "Ardwyn Optics was founded in 1989.",
    pytest.param("Varnay studied at Université Laval.", marks=_V4_FACT_LISTS),
    "Ardwyn Optics is based in Sherbrooke.",
]
SWAPPED = [
    ("Odile Varnay was born in Sherbrooke.", "Sherbrooke", (EX + "Odile_Varnay", EX + "bornIn", EX + "Trois_Rivieres")),
    ("Ardwyn Optics was founded in 1995.", "1995", (EX + "Ardwyn_Optics", EX + "foundedIn", '"1989"')),
    pytest.param("Varnay studied at Halcott Scientific.", "Halcott Scientific",
                 (EX + "Odile_Varnay", EX + "studiedAt", EX + "Universite_Laval"), marks=_V4_FACT_LISTS),
    ("Ardwyn Optics is based in Monterrey.", "Monterrey", (EX + "Ardwyn_Optics", EX + "basedIn", EX + "Sherbrooke")),
]


@pytest.fixture(scope="module")
def kb_guard(guard: Guard) -> Guard:
    """The shipped verifier with ``kb_facts`` as a veto (node support averaged; the worst of the two decides)."""
    base = next(iter(shipped_configs().values()))
    cfg = GuardConfig(name="kb", detectors=["verifier", "kb_facts"], aggregation="max", threshold=0.5,
                      veto={"kb_facts": 0.5}, detector_params=base.detector_params)
    dets = [VerifierDetector(**cfg.detector_params.get("verifier", {})), KBFactsDetector()]
    return Guard(cfg, detectors=dets, extractor=guard.extractor, encoder=guard.encoder)


def _verdict(guard: Guard, kb: object, answer: str) -> tuple[bool, tuple[str, ...], tuple[tuple[str, str, str], ...]]:
    ctx = kb_context(kb, answer)  # type: ignore[arg-type]
    r = guard.check(answer, ctx.graph, log=False)
    return r.passed, tuple(n.text for n in r.flagged_nodes), tuple(e.fact.iris for e in ctx.evidence(r))


@pytest.mark.parametrize("answer", RIGHT)
def test_right_answers_pass(kb_guard: Guard, oxi: OxigraphKB, answer: str) -> None:
    passed, flagged, _ = _verdict(kb_guard, oxi, answer)
    assert passed and not flagged


@pytest.mark.parametrize(("answer", "wrong", "fact"), SWAPPED)
def test_swapped_facts_flagged_with_the_kb_triple(kb_guard: Guard, oxi: OxigraphKB, answer: str, wrong: str,
                                                  fact: tuple[str, str, str]) -> None:
    passed, flagged, evidence = _verdict(kb_guard, oxi, answer)
    assert not passed and wrong in flagged
    assert fact in evidence


def test_default_guard_takes_a_kb_graph(guard: Guard, oxi: OxigraphKB) -> None:
    ctx = kb_context(oxi, "Odile Varnay was born in Trois-Rivières.", "Where was Odile Varnay born?")
    r = guard.check("Odile Varnay was born in Trois-Rivières.", ctx.graph, "Where was Odile Varnay born?")
    assert not r.abstained and r.passed
    assert ctx.queries <= 3 and ctx.entities


def test_passages_merged(kb_guard: Guard, oxi: OxigraphKB) -> None:
    answer = "Ardwyn Optics opened a plant in Monterrey in 2006."
    ctx = kb_context(oxi, answer).with_passages(
        ["The company opened a second plant, in Monterrey, Mexico, in 2006."], kb_guard)
    g = ctx.graph
    assert g.texts[0].startswith("The company") and len(g.texts) == 1 + len(ctx.facts)
    assert ctx.fact_for_source(0) is None and ctx.fact_for_source(1) == ctx.facts[0]
    assert kb_guard.check(answer, g, log=False).detector_scores["kb_facts"] == 0.0  # no KB fact contradicts it
    # what a user gets (README): the shipped default with the KB veto, the passage given as context
    user = Guard(kb=oxi, extractor=kb_guard.extractor, encoder=kb_guard.encoder)
    assert user.check(answer, ["The company opened a second plant, in Monterrey, Mexico, in 2006."], log=False).passed


@pytest.mark.parametrize("evil", ['" } ; DROP ALL ; #', "Robert\"); DROP ALL; --\n\\", "x\"} UNION {?s ?p ?o}"])
def test_injection_in_entity_names_abstains(kb_guard: Guard, oxi: OxigraphKB, evil: str) -> None:
    before = len(oxi)
    answer = f"The company {evil} was founded in 1989."
    ctx = kb_context(oxi, answer)
    r = kb_guard.check(answer, ctx.graph, log=False)
    assert len(oxi) == before
    assert r.abstained or not r.passed or ctx.entities == ()


def test_unknown_entities_abstain(kb_guard: Guard, oxi: OxigraphKB) -> None:
    ctx = kb_context(oxi, "Zorblax Quantum was founded in 2001.")
    assert ctx.is_empty
    r = kb_guard.check("Zorblax Quantum was founded in 2001.", ctx.graph, log=False)
    assert r.abstained and not r.passed


def test_dead_endpoint_raises_typed_error() -> None:
    kb = SparqlEndpointKB(f"http://127.0.0.1:{free_port()}/sparql", retries=0, timeout=1)
    with pytest.raises(KnowledgeBaseError):
        kb_context(kb, "Odile Varnay was born in Trois-Rivières.")


# ------------------------------------------------------------------ Virtuoso
def test_virtuoso_answers_like_the_embedded_store(oxi: OxigraphKB, virtuoso_kb: SparqlEndpointKB) -> None:
    q = (f"SELECT ?p ?o WHERE {{ <{EX}Odile_Varnay> ?p ?o . "
         "FILTER(?p != <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>) }")
    key = lambda rows: sorted((r["p"].value, r["o"].value, r["o"].lang or "") for r in rows)  # noqa: E731
    assert key(virtuoso_kb.query(q)) == key(oxi.query(q))


@pytest.mark.parametrize("text", ['" } ; DROP ALL ; #', "a\\b\nc \"q\" \t", "\\u0022 } #"])
def test_virtuoso_parses_escaped_literals_as_one_token(virtuoso_kb: SparqlEndpointKB, text: str) -> None:
    rows = virtuoso_kb.query(f"SELECT (STR({sparql_literal(text)}) AS ?v) WHERE {{ }}")
    assert [r["v"].value for r in rows] == [text]
    assert virtuoso_kb.query("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")[0]["n"].value != "0"


def test_same_verdicts_embedded_and_virtuoso(kb_guard: Guard, oxi: OxigraphKB,
                                             virtuoso_kb: SparqlEndpointKB) -> None:
    def plain(row: object) -> tuple[object, ...]:  # a pytest.param row's values, or the row itself
        values = getattr(row, "values", None)
        return tuple(values) if values is not None else (row if isinstance(row, tuple) else (row,))

    answers = [plain(a)[0] for a in RIGHT] + [plain(r)[0] for r in SWAPPED]
    answers += ["Desmond Achebe worked at Halcott Scientific.", "Odile Varnai succeeded Achebe."]
    for answer in answers:
        a = kb_context(oxi, answer)
        b = kb_context(virtuoso_kb, answer)
        assert [e.iri for e in a.entities] == [e.iri for e in b.entities], answer
        assert [f.iris for f in a.facts] == [f.iris for f in b.facts], answer
        assert _verdict(kb_guard, oxi, answer) == _verdict(kb_guard, virtuoso_kb, answer), answer
