"""The knowledge-base switch (issue 26): ``Guard(kb=...)``, ``GuardConfig.kb``, ``check --kb``.

Fast tests check the arguments (typed errors, profiles, the config field); the slow ones
run the real models: a 10-fact Turtle KB checked through the CLI with no context in the
lines (the bar: right facts pass >= 8/10, swapped facts fail >= 8/10), the KB triple named
in flagged nodes, explanations and log records, KB + text, and KB failures.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardrail import Guard
from guardrail.cli import app as cli
from guardrail.config import load_config
from guardrail.errors import InvalidInputError, KnowledgeBaseError
from guardrail.extract.base import Extractor
from guardrail.kb import RDFS, WIKIDATA, KnowledgeBase, OxigraphKB, SparqlEndpointKB
from guardrail.kb.switch import KBSwitch, kb_config, open_kb, resolve_profile
from guardrail.log.sinks import read_log
from guardrail.types import KnowledgeGraph


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


TEN = Path(__file__).resolve().parent / "data" / "ten_facts.ttl"
EX = "http://kg-guardrail.example/ten/"

#: (right answer, swapped answer, swapped text, the contradicted KB triple)
PAIRS = [
    ("Lina Marwick was born in Tarrow.", "Lina Marwick was born in Dunmore.", "Dunmore",
     (EX + "Lina_Marwick", EX + "bornIn", EX + "Tarrow")),
    ("Lina Marwick wrote The Salt Orchard.", "Lina Marwick wrote Glass Harbour.", "Glass Harbour",
     (EX + "Lina_Marwick", EX + "wrote", EX + "The_Salt_Orchard")),
    ("The Salt Orchard was published in 1994.", "The Salt Orchard was published in 1997.", "1997",
     (EX + "The_Salt_Orchard", EX + "publishedIn", '"1994"')),
    ("Kestrel Foods was founded in 2003.", "Kestrel Foods was founded in 2008.", "2008",
     (EX + "Kestrel_Foods", EX + "foundedIn", '"2003"')),
    ("Kestrel Foods is based in Dunmore.", "Kestrel Foods is based in Tarrow.", "Tarrow",
     (EX + "Kestrel_Foods", EX + "basedIn", EX + "Dunmore")),
    ("Oren Vask founded Kestrel Foods.", "Oren Vask founded Halden University.", "Halden University",
     (EX + "Oren_Vask", EX + "founded", EX + "Kestrel_Foods")),
    ("Oren Vask studied at Halden University.", "Oren Vask studied at Dunmore College.", "Dunmore College",
     (EX + "Oren_Vask", EX + "studiedAt", EX + "Halden_University")),
    ("Brightwater Bridge spans the Ember River.", "Brightwater Bridge spans the Corran River.", "Corran River",
     (EX + "Brightwater_Bridge", EX + "spans", EX + "Ember_River")),
    ("Brightwater Bridge opened in 1911.", "Brightwater Bridge opened in 1921.", "1921",
     (EX + "Brightwater_Bridge", EX + "openedIn", '"1911"')),
    ("Marta Quell coaches the Dunmore Rovers.", "Marta Quell coaches Tarrow Athletic.", "Tarrow Athletic",
     (EX + "Marta_Quell", EX + "coaches", EX + "Dunmore_Rovers")),
]


# ------------------------------------------------------------------ arguments (fast)
@pytest.mark.parametrize("bad", [123, 1.5, ["kb.ttl"], b"kb.ttl", "", "   ", "ftp://host/sparql",
                                 "file:///etc/passwd", "facts.csv", "no/such/file.ttl"])
def test_bad_kb_argument_is_invalid_input(bad: object) -> None:
    with pytest.raises(InvalidInputError):
        open_kb(bad)
    with pytest.raises(InvalidInputError):
        Guard(kb=bad)


def test_kb_kinds_and_profiles() -> None:
    ep = Guard(kb="https://query.wikidata.org/sparql").kb
    assert isinstance(ep, KBSwitch) and isinstance(ep.kb, SparqlEndpointKB) and ep.profile is WIKIDATA
    local = Guard(kb=str(TEN), kb_profile="wikidata").kb
    assert isinstance(local.kb, OxigraphKB) and local.profile is WIKIDATA
    given = OxigraphKB(TEN)
    assert Guard(kb=given).kb.kb is given and Guard(kb=TEN).kb.profile is RDFS
    assert Guard().kb is None
    assert resolve_profile("RDFS") is RDFS
    with pytest.raises(InvalidInputError):
        Guard(kb=TEN, kb_profile="owl")
    with pytest.raises(InvalidInputError):
        Guard(kb_profile=3)


def test_bad_rdf_is_a_kb_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ttl"
    bad.write_text("not turtle <<<", encoding="utf-8")
    with pytest.raises(KnowledgeBaseError):
        Guard(kb=bad)


def test_config_file_names_the_kb_next_to_it(tmp_path: Path) -> None:
    (tmp_path / "facts.ttl").write_text(TEN.read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / "cfg.json"
    path.write_text(json.dumps({**load_config("default").model_dump(), "kb": "facts.ttl", "kb_profile": "rdfs"}),
                    encoding="utf-8")
    cfg = load_config(path)
    assert cfg.kb == str(tmp_path / "facts.ttl")
    switch = Guard(path).kb
    assert isinstance(switch.kb, OxigraphKB) and len(switch.kb) > 20
    with pytest.raises(Exception, match="kb_profile"):
        load_config({**load_config("default").model_dump(), "kb_profile": "owl"})


def test_no_contexts_without_a_kb_is_invalid_input() -> None:
    with pytest.raises(InvalidInputError, match="kb="):
        Guard().check("Paris is in France.")


def test_kb_config_adds_the_kb_facts_veto() -> None:
    base = load_config("default")
    cfg = kb_config(base)
    assert cfg.veto["kb_facts"] == 0.5 and cfg.node_source is None and cfg.name == "default+kb"
    assert cfg.weights["kb_facts"] > max(abs(w) for w in base.weights.values())
    assert kb_config(cfg) is cfg and base.veto == {"kg_exchanged": 0.85, "kg_literals": 0.9}
    assert cfg.veto["kg_exchanged"] == 0.85  # the default's own veto is kept
    assert "kg_literals" not in cfg.veto  # a KB lists a few facts: a figure it does not list is no sign
    # a config that runs kb_facts as a plain detector (Guard(detectors=[...], kb=...) fits it so) gets the veto
    plain = load_config({**base.model_dump(), "detectors": ["verifier", "kb_facts"],
                         "weights": {"verifier": 2.0, "kb_facts": 1.0}})
    assert kb_config(plain).veto["kb_facts"] == 0.5 and kb_config(plain).weights["kb_facts"] > 2.0


@pytest.mark.slow
def test_custom_detectors_with_a_kb_keep_the_veto() -> None:
    from guardrail.detectors.verifier import VerifierDetector

    guard = Guard(detectors=[VerifierDetector()], kb=TEN)
    right, swapped, text, _ = PAIRS[0]
    r = guard.check(swapped)
    assert not r.passed and [n.text for n in r.flagged_nodes] == [text] and r.config == "default+kb"
    assert guard.check(right).passed


class _DownKB(KnowledgeBase):
    """A knowledge base that fails every query (and counts them)."""

    name = "down"

    def __init__(self) -> None:
        self.queries = 0

    def query(self, sparql: str) -> list[dict[str, str]]:
        self.queries += 1
        raise KnowledgeBaseError("the KB is down")


def test_a_declined_answer_does_not_ask_the_kb(tmp_path: Path) -> None:
    kb = _DownKB()
    g = Guard(kb=kb, log=tmp_path / "log.jsonl")
    r = g.check("I don't know.", question="When was Kestrel Foods founded?")
    assert r.declined and r.passed and not r.flagged_nodes and kb.queries == 0
    (rec,) = read_log(tmp_path / "log.jsonl")
    assert rec.event == "declined" and rec.declined
    many = g.check_many([{"answer": "The context does not say.", "question": "Where is Kestrel Foods based?"}])
    assert many[0].declined and kb.queries == 0


def test_with_kb_copies_and_shares(tmp_path: Path) -> None:
    g = Guard(log=tmp_path / "log.jsonl")
    k = g.with_kb(TEN)
    assert k is not g and k.kb is not None and g.kb is None and k._parts.sinks is g._parts.sinks
    assert k.with_kb(None).kb is None


def _names(g: Guard) -> list[str]:
    return [d.name for d in g._parts.detectors_for(g.config)]


def test_with_kb_none_restores_the_guard_without_a_kb() -> None:
    from guardrail.detectors.verifier import VerifierDetector

    plain = Guard(detectors=[VerifierDetector()])
    for g in (plain.with_kb(TEN).with_kb(None), Guard(detectors=[VerifierDetector()], kb=TEN).with_kb(None),
              plain.with_kb(TEN).with_kb(TEN).with_kb(None)):
        assert g.kb is None and g.config == plain.config and _names(g) == _names(plain) == ["verifier"]
    k = plain.with_kb(TEN)
    assert _names(k) == ["verifier", "kb_facts"] and _names(k.with_kb(TEN)) == ["verifier", "kb_facts"]
    # a kb_facts the caller passed stays theirs: with_kb(None) keeps it
    from guardrail.detectors.kb_facts import KBFactsDetector

    own = Guard(detectors=[VerifierDetector(), KBFactsDetector()], kb=TEN).with_kb(None)
    assert _names(own) == ["verifier", "kb_facts"]
    default = Guard()
    assert default.with_kb(TEN).with_kb(None).config == default.config and default.with_kb(None).config == default.config


@pytest.mark.slow
def test_with_kb_none_judges_a_swapped_fact_as_without_a_kb(guard: Guard) -> None:
    from guardrail.detectors.verifier import VerifierDetector

    plain = Guard(detectors=[VerifierDetector()], extractor=guard.extractor, encoder=guard.encoder)
    back = plain.with_kb(TEN).with_kb(None)
    _, swapped, _, _ = PAIRS[4]
    text = ["Kestrel Foods is a grocer in the north; its head office is in Tarrow."]  # the swap, stated here
    want, got = plain.check(swapped, text), back.check(swapped, text)
    assert got.passed == want.passed and got.score == pytest.approx(want.score) and got.config == want.config
    assert "kb_facts" not in got.detector_scores and got.detector_scores == pytest.approx(want.detector_scores)
    assert not plain.with_kb(TEN).check(swapped, text).passed  # with the KB the same answer is vetoed


class _StandInLLMExtractor(Extractor):
    """A scripted stand-in for an LLM extractor (``extractor: "llm"``): entity linking must not
    call it (spaCy finds the mentions), so it raises while ``linking`` is set; otherwise it
    records the call and delegates to the real spaCy extractor, as the guard's check uses it."""

    name = "llm-stand-in"

    def __init__(self, spacy: Extractor, *, linking: bool) -> None:
        self.spacy, self.linking, self.calls = spacy, linking, []

    def extract(self, text: str, *, source: int = -1) -> KnowledgeGraph:
        if self.linking:
            raise AssertionError(f"the LLM extractor was called during entity linking on {text!r}")
        self.calls.append((source, text))
        return self.spacy.extract(text, source=source)


@pytest.mark.slow
def test_entity_linking_never_calls_an_llm_extractor(guard: Guard) -> None:
    right, swapped, wrong, fact = PAIRS[4]
    question = "Where is Kestrel Foods based?"
    stand_in = _StandInLLMExtractor(guard.extractor, linking=True)
    g = Guard(extractor=stand_in, encoder=guard.encoder, kb=TEN)
    ctx = g.kb.context(g, swapped, question)  # linking and fetching only: the stand-in raises if called
    assert "Kestrel Foods" in {e.label for e in ctx.entities} and fact in {f.iris for f in ctx.facts}
    # a whole check calls the LLM extractor just as a check of the same facts given as context does
    stand_in.linking = False
    r = g.check(swapped, question=question)
    with_kb, stand_in.calls = stand_in.calls, []
    Guard(extractor=stand_in, encoder=guard.encoder).check(swapped, ctx.graph, question)
    assert with_kb == stand_in.calls and (-1, swapped) in with_kb
    assert not r.passed and [n.kb_fact for n in r.flagged_nodes if n.text == wrong] == [fact]
    assert g.check(right, question=question).passed


def test_cli_kb_usage_errors(tmp_path: Path) -> None:
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"answer": "Oren Vask founded Kestrel Foods."}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    runner = CliRunner()
    for args in (["--kb", str(TEN), "--kb-endpoint", "http://127.0.0.1:1/sparql"], ["--kb-profile", "rdfs"],
                 ["--kb", str(TEN), "--kb-profile", "owl"], ["--kb", str(tmp_path / "missing.ttl")],
                 ["--kb-endpoint", "ftp://x/sparql"], ["--kb", str(TEN), "--engine", "ray"]):
        res = runner.invoke(cli.app, ["check", str(inp), "--out", str(out), *args])
        assert res.exit_code == 2, (args, res.output)
    res = runner.invoke(cli.app, ["check", str(inp), "--out", str(out)])  # no KB: the context is required
    assert res.exit_code == 1 and "missing 'context'" in json.loads(out.read_text(encoding="utf-8"))["error"]


# ------------------------------------------------------------------ real models (slow)
@pytest.mark.slow
def test_cli_check_with_a_kb_and_no_context(tmp_path: Path) -> None:
    inp, out = tmp_path / "answers.jsonl", tmp_path / "out.jsonl"
    rows = [{"id": f"r{i}", "answer": r, "label": 0} for i, (r, _, _, _) in enumerate(PAIRS)]
    rows += [{"id": f"s{i}", "answer": s, "label": 1} for i, (_, s, _, _) in enumerate(PAIRS)]
    inp.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    res = CliRunner().invoke(cli.app, ["check", str(inp), "--kb", str(TEN), "--out", str(out)])
    assert res.exit_code == 0, res.output
    got = {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    right_pass = sum(got[f"r{i}"]["passed"] for i in range(10))
    swap_fail = sum(not got[f"s{i}"]["passed"] for i in range(10))
    assert right_pass >= 8 and swap_fail >= 8, (right_pass, swap_fail)
    named = 0  # the flagged node is the swapped object and names the contradicted KB triple
    for i, (_, _, wrong, triple) in enumerate(PAIRS):
        nodes = got[f"s{i}"]["flagged_nodes"]
        named += any(wrong in n["text"] and n["kb_fact"] == list(triple) for n in nodes)
    assert named >= 8, named
    assert all(got[f"s{i}"]["config"] == "default+kb" and "kb" in got[f"s{i}"]["timings"] for i in range(10))


@pytest.fixture(scope="module")
def ten(guard: Guard) -> Guard:
    return guard.with_kb(TEN)


@pytest.mark.slow
def test_verdict_explanation_and_log_name_the_kb_triple(guard: Guard, tmp_path: Path) -> None:
    log = tmp_path / "flagged.jsonl"
    g = Guard(log=log, extractor=guard.extractor, encoder=guard.encoder, kb=TEN)
    answer = "The Salt Orchard was published in 1997."
    r = g.check(answer, question="When was The Salt Orchard published?")
    fact = (EX + "The_Salt_Orchard", EX + "publishedIn", '"1994"')
    assert not r.passed and [n.text for n in r.flagged_nodes] == ["1997"]
    assert r.flagged_nodes[0].kb_fact == fact and f"<{fact[0]}>" in r.flagged_nodes[0].reason
    assert f"<{fact[1]}>" in r.explanation.summary and any(f"<{fact[0]}>" in s for s in r.explanation.sentences)
    (rec,) = read_log(log)
    assert rec.answer == answer and rec.flagged_nodes[0].kb_fact == fact


@pytest.mark.slow
def test_kb_and_text_are_merged(ten: Guard) -> None:
    answer = "Kestrel Foods was founded in 2003 and sells frozen dumplings."
    text = ["Kestrel Foods sells frozen dumplings across the north."]
    assert ten.check(answer, text).passed
    assert not ten.check(answer).passed  # the dumplings are in the text, not the KB
    swapped = ten.check("Kestrel Foods was founded in 2008 and sells frozen dumplings.", text)
    assert not swapped.passed and [n.kb_fact for n in swapped.flagged_nodes if n.kb_fact] == [
        (EX + "Kestrel_Foods", EX + "foundedIn", '"2003"')]


@pytest.mark.slow
def test_check_many_and_unknown_entities(ten: Guard) -> None:
    rs = ten.check_many([{"answer": PAIRS[3][0]}, {"answer": PAIRS[3][1], "question": "When was Kestrel Foods founded?"},
                         {"answer": "Zorblax Quantum was founded in 2001."}])
    assert [r.passed for r in rs] == [True, False, False]
    assert rs[2].abstained and "knowledge base" in rs[2].abstain_reason


@pytest.mark.slow
def test_kb_failure_is_typed_and_keeps_the_answer(guard: Guard) -> None:
    dead = SparqlEndpointKB(f"http://127.0.0.1:{free_port()}/sparql", retries=0, timeout=1)
    g = guard.with_kb(dead)
    with pytest.raises(KnowledgeBaseError) as info:
        g.check("Oren Vask founded Kestrel Foods.")
    assert info.value.answer == "Oren Vask founded Kestrel Foods."


@pytest.mark.slow
def test_kb_facts_does_not_match_relations_across_prepositions(ten: Guard) -> None:
    # "be founded by" (a founder) is not the KB's "be founded in" (a year): no contradiction
    r = ten.check("Kestrel Foods was founded by Oren Vask.")
    assert r.detector_scores["kb_facts"] == 0.0
    assert ten.check("Kestrel Foods was founded in 2008.").detector_scores["kb_facts"] == 1.0


@pytest.mark.slow
def test_refinement_with_a_kb_shows_the_llm_the_kb_facts(ten: Guard) -> None:
    from guardrail.policy.prompts import refinement_messages
    from guardrail.policy.refine import RefinementRequest, enforce

    seen: list[RefinementRequest] = []

    def reprompt(req: RefinementRequest) -> str:
        seen.append(req)
        return "Kestrel Foods is based in Dunmore."

    out = enforce(ten, "refine", "Kestrel Foods is based in Tarrow.", [], "Where is Kestrel Foods based?",
                  reprompt=reprompt)
    assert seen and out.action == "refined" and out.answer == "Kestrel Foods is based in Dunmore."
    assert "Kestrel Foods be based in Dunmore." in seen[0].contexts  # the KB fact, as a context sentence
    assert '<context id="1">' in refinement_messages(seen[0])[1][1]
