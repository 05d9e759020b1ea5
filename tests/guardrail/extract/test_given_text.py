"""Triples given as a context are read as text contexts are (issue 30's bad-input corpus)."""

from __future__ import annotations

from guardrail import Guard
from guardrail.extract.given import graph_from_triples


def test_a_lone_surrogate_in_a_triple_becomes_the_replacement_character() -> None:
    g = graph_from_triples([("Paris\udfff", "capital of", "France")])
    assert [n.text for n in g.nodes] == ["Paris\ufffd", "France"]


def test_the_default_guard_judges_a_triple_context_with_a_lone_surrogate() -> None:
    # the default's graph signals encode the triple labels: a lone surrogate used to raise a bare TypeError
    r = Guard().check("Paris is the capital of France.", [("Paris\udfff", "capital of", "France")])
    assert not r.abstained and 0.0 <= r.score <= 1.0
