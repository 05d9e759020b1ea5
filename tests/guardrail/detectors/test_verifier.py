"""The claim-verifier detector with a scripted scorer (the real model is tested in
``tests/guardrail/test_verifier_model.py``): aggregation, localisation, graph contexts."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pytest
from _fakes import FakeEncoder, apple_context, node

from guardrail.detectors.base import AlignmentInput
from guardrail.detectors.verifier import VerifierDetector
from guardrail.types import KnowledgeGraph, Span, Triple

CONTEXT = "Apple was founded in 1976 by Steve Jobs."


class ScriptedVerifier:
    """Stands in for the cross-encoder: a claim is supported when every number and
    capitalised word in it occurs in the evidence."""

    def __init__(self) -> None:
        self.calls: list[list[tuple[str, str]]] = []

    def score(self, evidence: Sequence[str], claims: Sequence[str]) -> np.ndarray:
        self.calls.append(list(zip(evidence, claims)))
        out = []
        for ev, c in zip(evidence, claims):
            c = c.split(" A: ", 1)[-1]
            toks = re.findall(r"\b(?:[A-Z][a-z]+|\d+)\b", c)
            out.append(0.95 if all(t in ev for t in toks) else 0.05)
        return np.array(out)


def _claim(answer: str) -> KnowledgeGraph:
    nodes = []
    for m in re.finditer(r"\b(?:Apple|Steve Jobs|Microsoft|\d{4})\b", answer):
        kind = "DATE" if m.group(0).isdigit() else "ORG"
        nodes.append(node(f"-1:{m.start()}", m.group(0), kind, -1, m.start()))
    triples = tuple(Triple(subject=nodes[0], relation="be founded in", object=n,
                           span=Span(start=0, end=len(answer))) for n in nodes[1:])
    return KnowledgeGraph(nodes=tuple(nodes), triples=triples, texts=(answer,))


def _item(answer: str, contexts: tuple[str, ...] = (CONTEXT,), graph: KnowledgeGraph | None = None) -> AlignmentInput:
    return AlignmentInput(answer, contexts, "When was Apple founded?", _claim(answer),
                          graph if graph is not None else apple_context(), FakeEncoder())


def test_supported_answer_scores_low_and_every_node_is_supported():
    out = VerifierDetector(ScriptedVerifier()).detect(_item("Apple was founded in 1976."))
    assert out.score == pytest.approx(0.05)
    assert out.node_support and all(s.support >= 0.5 for s in out.node_support)


def test_wrong_year_fails_and_only_the_year_node_is_below_half():
    out = VerifierDetector(ScriptedVerifier()).detect(_item("Apple was founded in 1999."))
    assert out.score == pytest.approx(0.95)
    low = {s.node_id for s in out.node_support if s.support < 0.5}
    assert low == {"-1:21"}
    ev = next(s for s in out.node_support if s.node_id == "-1:21")
    assert ev.evidence == CONTEXT and ev.evidence_span == Span(start=0, end=len(CONTEXT), source=0)


def test_supported_sentences_do_not_dilute_an_unsupported_one():
    bad = "Apple was founded in 1999."
    alone = VerifierDetector(ScriptedVerifier()).detect(_item(bad))
    padded = VerifierDetector(ScriptedVerifier()).detect(
        _item(bad + " " + CONTEXT + " " + CONTEXT))
    assert padded.score == pytest.approx(alone.score)
    assert len(padded.details["claims"]) == 3


def test_graph_context_without_text_is_linearised_into_evidence():
    sv = ScriptedVerifier()
    out = VerifierDetector(sv).detect(_item("Apple was founded in 1976.", contexts=()))
    evidence = sv.calls[0][0][0]
    assert "Apple be founded in 1976." in evidence
    assert out.score == pytest.approx(0.05)


def test_parameters_are_checked():
    with pytest.raises(ValueError, match="unit_threshold"):
        VerifierDetector(ScriptedVerifier(), unit_threshold=1.5)
    with pytest.raises(ValueError, match="max_evidence_words"):
        VerifierDetector(ScriptedVerifier(), max_evidence_words=0)


LONG_CONTEXT = ("Apple makes phones. It sells them worldwide. Apple was founded in 1976 by Steve Jobs. "
                "Its first product was a kit. The kit sold well.")


@pytest.mark.parametrize(("view", "expected"), [
    ("window", "It sells them worldwide. Apple was founded in 1976 by Steve Jobs. Its first product was a kit."),
    ("passage", LONG_CONTEXT),
    ("sentence", "Apple was founded in 1976 by Steve Jobs.")])
def test_triple_checks_and_occlusion_read_the_explain_view(view: str, expected: str):
    """Scripted verifier (records every pair): an unsupported claim's later pairs read the chosen view."""
    sv = ScriptedVerifier()
    out = VerifierDetector(sv, explain_view=view).detect(_item("Apple was founded in 1999.", contexts=(LONG_CONTEXT,)))
    assert out.score == pytest.approx(0.95)
    later = {ev for call in sv.calls[1:] for ev, _ in call}
    assert later == {expected}


def test_explain_view_is_checked():
    with pytest.raises(ValueError, match="explain_view"):
        VerifierDetector(ScriptedVerifier(), explain_view="document")
