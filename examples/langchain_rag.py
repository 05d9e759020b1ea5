"""Guard a LangChain RAG chain with kg-guardrail, refining flagged answers.

Run it as is::

    python examples/langchain_rag.py

It builds a small LCEL RAG chain (``InMemoryVectorStore`` over HaluEval passages from
``examples/data/halueval_sample.jsonl``, offline MiniLM embeddings, a chat prompt and a
chat model), wraps it with ``guard_chain(..., policy="refine")`` and prints the verdict,
the flagged nodes, the explanation and the refinement history.

The chat model:

* ``OPENAI_API_KEY`` set: ``langchain_openai.ChatOpenAI`` (model ``OPENAI_MODEL``, default
  ``gpt-4o-mini``; ``OPENAI_BASE_URL`` for any OpenAI-compatible server).
* otherwise: recorded answers are replayed through ``GenericFakeChatModel`` (HaluEval's
  hallucinated answer first, then the right one), and the script says so.

Needs ``pip install 'kg-guardrail[langchain]'`` (and ``[openai]`` for a real model).
"""

from __future__ import annotations

import itertools
import json
import os
from collections import OrderedDict
from operator import itemgetter
from pathlib import Path
from typing import Any

from langchain_core.documents import Document
from langchain_core.language_models import BaseChatModel, GenericFakeChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore

from guardrail import Guard
from guardrail_langchain import MiniLMEmbeddings, guard_chain

DATA = Path(__file__).resolve().parent / "data" / "halueval_sample.jsonl"
DEMO_GROUP = "qa-149"  # a record where the recorded hallucination is clearly unsupported
N_GROUPS = 20

# Used only when the sample file is missing (HaluEval QA, MIT licence).
INLINE_SAMPLE = [
    {"group": "qa-18", "question": "Dua Lipa's eponymous debut studio album was released in what year?",
     "context": "Her self-titled debut studio album was released on 2 June 2017. \"New Rules\" is a song by "
                "English singer Dua Lipa from her eponymous debut studio album (2017).",
     "right": "2017", "hallucinated": "The album was released in 2018."},
    {"group": "qa-1", "question": "The Oberoi family is part of a hotel company that has a head office in what city?",
     "context": "The Oberoi family is an Indian family that is famous for its involvement in hotels, namely "
                "through The Oberoi Group. The Oberoi Group is a hotel company with its head office in Delhi.",
     "right": "Delhi", "hallucinated": "The Oberoi family's hotel company is based in Mumbai."},
]

PROMPT = ChatPromptTemplate.from_messages([
    ("system", "Answer the question in one sentence using only this context:\n\n{context}"),
    ("human", "{question}"),
])


def load_items() -> list[dict[str, Any]]:
    """QA items ``{group, question, context, right, hallucinated}`` from the sample file."""
    if not DATA.exists():
        print(f"{DATA} not found: using the inline sample")
        return INLINE_SAMPLE
    groups: OrderedDict[str, dict[str, Any]] = OrderedDict()
    with DATA.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if not str(row.get("id", "")).startswith("qa-"):
                continue
            item = groups.setdefault(row["group"], {"group": row["group"], "question": row["question"],
                                                    "context": row["context"].strip()})
            item["hallucinated" if row["label"] else "right"] = row["answer"]
    items = [g for g in groups.values() if "right" in g and "hallucinated" in g][:N_GROUPS]
    demo = [g for g in groups.values() if g["group"] == DEMO_GROUP]
    return demo + [g for g in items if g["group"] != DEMO_GROUP] if demo else items


def make_llm(item: dict[str, Any]) -> BaseChatModel:
    """ChatOpenAI when ``OPENAI_API_KEY`` is set, otherwise a replay of recorded answers."""
    if os.environ.get("OPENAI_API_KEY"):
        from langchain_openai import ChatOpenAI

        model = os.environ.get("OPENAI_MODEL", "gpt-4o-mini")
        print(f"Using ChatOpenAI model {model!r}"
              + (f" at {os.environ['OPENAI_BASE_URL']}" if os.environ.get("OPENAI_BASE_URL") else ""))
        return ChatOpenAI(model=model, base_url=os.environ.get("OPENAI_BASE_URL"), temperature=0)
    print("OPENAI_API_KEY is not set: REPLAYING recorded answers through GenericFakeChatModel\n"
          "  (first HaluEval's hallucinated answer, then the right answer; no LLM is called).")
    # The right answer is repeated in case a refinement round asks more than once.
    return GenericFakeChatModel(messages=itertools.chain([item["hallucinated"]], itertools.repeat(item["right"])))


def main() -> None:
    """Build, guard and run the chain on the demo question; print what the guard found."""
    items = load_items()
    store = InMemoryVectorStore(MiniLMEmbeddings())
    store.add_documents([Document(it["context"], metadata={"group": it["group"]}) for it in items])
    retriever = store.as_retriever(search_kwargs={"k": 2})
    item = items[0]
    llm = make_llm(item)

    def format_docs(docs: list[Document]) -> str:
        return "\n\n".join(d.page_content for d in docs)

    rag = (RunnablePassthrough.assign(context=itemgetter("question") | retriever)
           .assign(answer=RunnablePassthrough.assign(context=lambda x: format_docs(x["context"]))
                   | PROMPT | llm | StrOutputParser()))
    guarded = guard_chain(rag, Guard(), policy="refine", llm=llm, max_iterations=3)

    out = guarded.invoke({"question": item["question"]})
    report(item["question"], out)


def report(question: str, out: dict[str, Any]) -> None:
    """Print the verdict, flagged nodes, explanation and refinement history."""
    result = out["guard_result"]
    print(f"\nQuestion: {question}")
    print(f"Final answer: {out['answer']}")
    print(f"Verdict: {'PASSED' if result.passed else 'FLAGGED'} "
          f"(score {result.score:.2f}, threshold {result.threshold:.2f}, config {result.config!r})")
    print("\nRefinement history:")
    for h in result.history:
        status = "passed" if h.passed else f"flagged {list(h.flagged)}"
        print(f"  round {h.round}: score {h.score:.2f}, {status}: {h.answer!r}")
        if h.feedback:
            print("    feedback sent to the LLM:\n      " + h.feedback.replace("\n", "\n      "))
    first = result.history[0] if result.history else None
    if first is not None and not first.passed:
        print(f"\nFlagged nodes of the first answer: {list(first.flagged)}")
    if result.flagged_nodes:
        print("\nFlagged nodes of the final answer:")
        for n in result.flagged_nodes:
            print(f"  {n.text!r} (support {n.support:.2f}) {n.reason}")
    print(f"\nExplanation: {result.explanation.summary or '(none)'}")
    for sentence in result.explanation.sentences:
        print(f"  - {sentence}")


if __name__ == "__main__":
    main()
