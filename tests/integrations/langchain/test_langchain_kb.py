"""``kb=`` in the LangChain adapter (issue 26): a real LCEL chain whose LLM is a
``RunnableLambda`` stand-in (it plays back a fixed answer: no network), guarded against the
10-fact Turtle KB of the core tests, with no retrieved context at all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.runnables import RunnableLambda, RunnablePassthrough

from guardrail.errors import InvalidInputError
from guardrail_langchain import GuardOutputParser, GuardRunnable, guard_chain

pytestmark = pytest.mark.slow
KB = Path(__file__).resolve().parents[2] / "guardrail" / "kb" / "data" / "ten_facts.ttl"
EX = "http://kg-guardrail.example/ten/"
QUESTION = "When was Kestrel Foods founded?"


def _llm(answer: str) -> RunnableLambda:
    """The LLM stand-in: answers every prompt with ``answer`` (a scripted remote model)."""
    return RunnableLambda(lambda _prompt: answer, name="scripted_llm")


def _chain(answer: str) -> Any:
    return RunnablePassthrough.assign(answer=(lambda d: d["question"]) | _llm(answer))


def test_guard_chain_with_kb_flags_a_swapped_fact(guard: Any) -> None:
    out = guard_chain(_chain("Kestrel Foods was founded in 2008."), guard, kb=KB).invoke({"question": QUESTION})
    result = out["guard_result"]
    assert not result.passed and out["guard_action"] == "annotated"
    assert out["answer"] == "Kestrel Foods was founded in 2008."  # annotate: the answer is kept
    (node,) = result.flagged_nodes
    assert node.text == "2008" and node.kb_fact == (EX + "Kestrel_Foods", EX + "foundedIn", '"2003"')
    right = guard_chain(_chain("Kestrel Foods was founded in 2003."), guard, kb=KB).invoke({"question": QUESTION})
    assert right["guard_result"].passed


def test_output_parser_with_kb_needs_no_context(guard: Any) -> None:
    chain = _llm("Oren Vask studied at Dunmore College.") | GuardOutputParser(
        guard=guard, kb=KB, policy="filter", refusal="No supported answer.")
    assert chain.invoke("Where did Oren Vask study?") == "No supported answer."
    with pytest.raises(InvalidInputError):
        (_llm("x") | GuardOutputParser(guard=guard)).invoke("q")  # no KB: the context is required
    with pytest.raises(InvalidInputError):
        GuardRunnable(guard=guard, kb=42)
