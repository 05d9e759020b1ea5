"""guard_chain, GuardOutputParser, MiniLMEmbeddings and the import guard.

Chat models are ``GenericFakeChatModel``: scripted stand-ins for a remote LLM.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import numpy as np
import pytest
from langchain_core.language_models import GenericFakeChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda

from guardrail.errors import InvalidInputError
from guardrail.policy.policies import DEFAULT_REFUSAL
from guardrail_langchain import GUARD_EVENT, GuardOutputParser, GuardRunnable, MiniLMEmbeddings, guard_chain

REC = 18
CORRECTED = "2017"  # HaluEval's right answer for record 18


def scripted(*answers: str) -> GenericFakeChatModel:
    """Scripted stand-in for a remote chat model."""
    return GenericFakeChatModel(messages=iter(answers))


@pytest.fixture(scope="module")
def rec(records: list[dict[str, Any]]) -> dict[str, Any]:
    return records[REC]


def test_guard_chain_on_create_retrieval_chain_shape(make_chain, guard, rec):
    # create_retrieval_chain (package `langchain`) outputs {input, context, answer}; same shape here.
    chain = make_chain(scripted(rec["hallucinated_answer"]), question_key="input")
    guarded = guard_chain(chain, guard, policy="filter")
    assert isinstance(guarded.last, GuardRunnable)
    out = guarded.invoke({"input": rec["question"]})
    assert set(out) == {"input", "context", "answer", "guard_result", "guard_action", "guard_original_answer",
                        "guard_stop_reason"}
    assert out["answer"] == DEFAULT_REFUSAL and out["guard_action"] == "refused"
    assert out["guard_original_answer"] == rec["hallucinated_answer"]
    assert out["guard_result"].question == rec["question"]


def test_guard_chain_with_retriever_for_a_string_chain(guard, retriever, rec):
    prompt = ChatPromptTemplate.from_messages([("human", "{question}")])
    string_chain = {"question": lambda q: q} | prompt | scripted(CORRECTED) | StrOutputParser()
    guarded = guard_chain(string_chain, guard, retriever=retriever)
    out = guarded.invoke(rec["question"])
    assert out["answer"] == CORRECTED and out["question"] == rec["question"]
    assert out["context"][0].page_content == rec["knowledge"]
    assert out["guard_result"].passed


def test_output_parser_reads_context_from_configurable(guard, retriever, rec):
    prompt = ChatPromptTemplate.from_messages([("human", "{question}")])
    chain = prompt | scripted(rec["hallucinated_answer"]) | GuardOutputParser(guard=guard, policy="filter")
    docs = retriever.invoke(rec["question"])
    events: list[dict[str, Any]] = []

    from langchain_core.callbacks import BaseCallbackHandler

    class Collect(BaseCallbackHandler):
        def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
            if name == GUARD_EVENT:
                events.append(data)

    out = chain.invoke({"question": rec["question"]}, config={
        "configurable": {"guard_context": docs, "guard_question": rec["question"]},
        "callbacks": [Collect()],
    })
    assert out == DEFAULT_REFUSAL
    assert len(events) == 1 and not events[0]["passed"] and events[0]["question"] == rec["question"]


def test_output_parser_reads_metadata_and_streams_one_chunk(guard, rec):
    prompt = ChatPromptTemplate.from_messages([("human", "{question}")])
    chain = prompt | scripted(CORRECTED) | GuardOutputParser(guard=guard, policy="raise")
    chunks = list(chain.stream({"question": rec["question"]},
                               config={"metadata": {"guard_context": rec["knowledge"]}}))
    assert chunks == [CORRECTED]


def test_output_parser_without_context_fails_clearly(guard):
    parser = GuardOutputParser(guard=guard)
    with pytest.raises(InvalidInputError, match="guard_context"):
        parser.invoke("Some answer.")


def test_minilm_embeddings_are_unit_vectors(records):
    emb = MiniLMEmbeddings()
    docs = emb.embed_documents([r["knowledge"] for r in records[:3]])
    query = emb.embed_query(records[0]["question"])
    assert len(docs) == 3 and len(query) == 384
    assert np.allclose(np.linalg.norm(np.array(docs), axis=1), 1.0, atol=1e-4)
    assert int(np.argmax(np.array(docs) @ np.array(query))) == 0


def test_missing_langchain_core_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "langchain_core", None)
    monkeypatch.delitem(sys.modules, "guardrail_langchain")
    with pytest.raises(ImportError, match=r"kg-guardrail\[langchain\]"):
        importlib.import_module("guardrail_langchain")


def test_guard_runnable_rejects_non_dict_input(guard):
    with pytest.raises(InvalidInputError, match="dict"):
        GuardRunnable(guard=guard).invoke("just a string")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="answer"):
        RunnableLambda(lambda x: {"question": "q"}).pipe(GuardRunnable(guard=guard)).invoke({})
