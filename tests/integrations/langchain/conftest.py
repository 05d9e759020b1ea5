"""Fixtures for the LangChain adapter tests: a real LCEL RAG chain over HaluEval passages.

One :class:`~guardrail.Guard`, one vector store and one retriever are shared by the
whole session (loading spaCy and MiniLM once). The chat model is langchain-core's
``GenericFakeChatModel``: a scripted stand-in for a remote LLM that plays back recorded
answers (the HaluEval hallucinated answer, then a correct one), so no network is used.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from operator import itemgetter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain_core")

_PKG_DIR = Path(__file__).resolve().parents[3] / "integrations" / "langchain"


def _import_adapter() -> Any:
    """Import ``guardrail_langchain``; fall back to the source tree if the editable
    install registered it as an empty namespace package (installed before it existed)."""
    mod = importlib.import_module("guardrail_langchain")
    if getattr(mod, "__file__", None) is None:
        sys.path.insert(0, str(_PKG_DIR))
        stale = [n for n in sys.modules if n.split(".")[0] == "guardrail_langchain"]
        for name in stale:
            del sys.modules[name]
        mod = importlib.import_module("guardrail_langchain")
    return mod


_import_adapter()

from langchain_core.documents import Document  # noqa: E402
from langchain_core.output_parsers import StrOutputParser  # noqa: E402
from langchain_core.prompts import ChatPromptTemplate  # noqa: E402
from langchain_core.runnables import Runnable, RunnableLambda, RunnablePassthrough  # noqa: E402
from langchain_core.vectorstores import InMemoryVectorStore  # noqa: E402

PROMPT = ChatPromptTemplate.from_messages([
    ("system", "Answer the question using only this context:\n\n{context}"),
    ("human", "{question}"),
])


def format_docs(docs: list[Document]) -> str:
    """Join retrieved passages for the prompt."""
    return "\n\n".join(d.page_content for d in docs)


@pytest.fixture(scope="session")
def records(halueval_qa_records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first 20 HaluEval QA dev records, shipped in examples/data/ (missing data fails)."""
    return halueval_qa_records


@pytest.fixture(scope="session")
def guard() -> Any:
    """One real guard for the whole session (spaCy + MiniLM loaded once)."""
    from guardrail import Guard

    return Guard().warm_up()


@pytest.fixture(scope="session")
def retriever(records: list[dict[str, Any]]) -> Any:
    """A real ``InMemoryVectorStore`` retriever (k=2) over the records' knowledge."""
    from guardrail_langchain import MiniLMEmbeddings

    store = InMemoryVectorStore(MiniLMEmbeddings())
    store.add_documents([Document(r["knowledge"], metadata={"idx": i}) for i, r in enumerate(records)])
    return store.as_retriever(search_kwargs={"k": 2})


@pytest.fixture(scope="session")
def make_chain(retriever: Any) -> Callable[..., Runnable]:
    """Build the standard LCEL RAG chain ``{question} -> {question, context, answer}``.

    ``llm`` is a chat model, or a dict ``{question: chat model}`` (each input is routed to
    its own scripted model, so concurrent runs get their own answers whatever the
    scheduling order). ``question_key="input"`` gives the ``create_retrieval_chain``
    shape ``{input, context, answer}``. ``parse=False`` keeps the ``AIMessage`` answer.
    """
    def build(llm: Any, *, parse: bool = True, question_key: str = "question") -> Runnable:
        def generate_with(model: Runnable) -> Runnable:
            gen = (RunnablePassthrough.assign(context=lambda x: format_docs(x["context"]),
                                              question=itemgetter(question_key))
                   | PROMPT | model)
            return gen | StrOutputParser() if parse else gen

        if isinstance(llm, dict):
            generate: Runnable = RunnableLambda(lambda x: generate_with(llm[x[question_key]]))
        else:
            generate = generate_with(llm)
        return (RunnablePassthrough.assign(context=itemgetter(question_key) | retriever)
                .assign(answer=generate))

    return build
