"""``kb=`` in the LlamaIndex adapter (issue 26): a real query engine over a real
VectorStoreIndex (HaluEval passages, unrelated to the KB) with the scripted stand-in LLM,
guarded against the 10-fact Turtle KB: KB facts merged with the retrieved text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from guardrail.errors import InvalidInputError
from guardrail_llama_index import GuardedQueryEngine, KGGuardrailEvaluator

pytestmark = pytest.mark.slow
KB = Path(__file__).resolve().parents[2] / "guardrail" / "kb" / "data" / "ten_facts.ttl"
EX = "http://kg-guardrail.example/ten/"
QUESTION = "Which river does Brightwater Bridge span?"


def test_query_engine_with_kb_flags_a_swapped_fact(vector_index: Any, make_llm: Any, guard: Any) -> None:
    llm = make_llm({QUESTION: ["Brightwater Bridge spans the Corran River."]})
    engine = GuardedQueryEngine(vector_index.as_query_engine(llm=llm, similarity_top_k=1), guard, kb=KB)
    response = engine.query(QUESTION)
    result = response.metadata["guard_result"]
    assert response.metadata["guard_passed"] is False and response.response == "Brightwater Bridge spans the Corran River."
    assert [n.kb_fact for n in result.flagged_nodes if n.kb_fact] == [
        (EX + "Brightwater_Bridge", EX + "spans", EX + "Ember_River")]
    assert any("Corran River" in n.text for n in result.flagged_nodes)
    ok = GuardedQueryEngine(vector_index.as_query_engine(
        llm=make_llm({QUESTION: ["Brightwater Bridge spans the Ember River."]}), similarity_top_k=1), guard, kb=KB)
    assert ok.query(QUESTION).metadata["guard_passed"] is True


def test_evaluator_with_kb_takes_no_contexts(guard: Any) -> None:
    ev = KGGuardrailEvaluator(guard, kb=KB)
    bad = ev.evaluate(query="When did Brightwater Bridge open?", response="Brightwater Bridge opened in 1921.")
    assert bad.passing is False and "knowledge base" in (bad.feedback or "")
    assert ev.evaluate(response="Brightwater Bridge opened in 1911.").passing is True
    with pytest.raises(InvalidInputError):
        KGGuardrailEvaluator(guard).evaluate(response="Brightwater Bridge opened in 1911.")
    with pytest.raises(InvalidInputError):
        GuardedQueryEngine(None, guard, kb=3.5)  # type: ignore[arg-type]
