"""Guard a LlamaIndex RAG query engine with kg-guardrail, refining flagged answers.

Run it as is::

    python examples/llama_index_rag.py [question-group ...]

It builds a ``VectorStoreIndex`` over HaluEval passages from
``examples/data/halueval_sample.jsonl`` (offline MiniLM embeddings), wraps
``index.as_query_engine()`` in ``GuardedQueryEngine(..., policy="refine")`` and prints,
per question, the verdict, the flagged nodes, the explanation and the refinement history.

The LLM:

* ``OPENAI_API_KEY`` set and ``llama-index-llms-openai`` installed: its ``OpenAI`` LLM
  (model ``OPENAI_MODEL``, default ``gpt-4o-mini``; ``OPENAI_BASE_URL`` for any
  OpenAI-compatible server); without that package it prints how to install it and falls back.
* otherwise: recorded answers from the sample data are replayed (HaluEval's
  hallucinated answer first, then the right one), and the script says so.

Needs ``pip install 'kg-guardrail[llama-index]'``.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from llama_index.core import Document, Settings, VectorStoreIndex
from llama_index.core.llms import CompletionResponse, CustomLLM, LLMMetadata
from llama_index.core.llms.callbacks import llm_completion_callback
from pydantic import PrivateAttr

from guardrail import Guard
from guardrail_llama_index.embedding import MiniLMEmbedding
from guardrail_llama_index.query_engine import GuardedQueryEngine

DATA = Path(__file__).resolve().parent / "data" / "halueval_sample.jsonl"
DEMO_GROUPS = ("qa-149", "qa-263")  # records whose recorded hallucination is clearly unsupported
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


def load_records(limit: int = N_GROUPS) -> list[dict[str, str]]:
    """QA records ``{group, question, context, right, hallucinated}`` from the sample file."""
    if not DATA.is_file():
        print(f"(sample data {DATA} not found: using a tiny inline sample)")
        return list(INLINE_SAMPLE)
    groups: OrderedDict[str, dict[str, str]] = OrderedDict()
    with DATA.open(encoding="utf-8") as fh:
        for line in fh:
            item = json.loads(line)
            if not item["id"].startswith("qa-"):
                continue
            rec = groups.setdefault(item["group"], {"group": item["group"], "question": item["question"],
                                                    "context": item["context"].strip()})
            rec["hallucinated" if item["label"] else "right"] = item["answer"]
    return [r for r in groups.values() if "right" in r and "hallucinated" in r][:limit]


class ReplayLLM(CustomLLM):
    """Replays recorded answers per question: the hallucinated one first, then the right one."""

    script: dict[str, list[str]] = {}
    _counts: dict[str, int] = PrivateAttr(default_factory=dict)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="halueval-replay")

    def _next(self, prompt: str) -> str:
        found = [q for q in self.script if q in prompt]
        if not found:
            return "I don't know."
        q = max(found, key=len)
        with self._lock:
            i = self._counts[q] = self._counts.get(q, -1) + 1
        return self.script[q][min(i, len(self.script[q]) - 1)]

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return CompletionResponse(text=self._next(prompt))

    @llm_completion_callback()
    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> Iterator[CompletionResponse]:
        text = self._next(prompt)
        return iter([CompletionResponse(text=text, delta=text)])


def choose_llm(records: list[dict[str, str]]) -> tuple[Any, str]:
    """An OpenAI-compatible LLM when configured and installed, else the replay LLM."""
    if os.environ.get("OPENAI_API_KEY"):
        try:
            from llama_index.llms.openai import OpenAI  # type: ignore[import-not-found]
        except ImportError:
            print("OPENAI_API_KEY is set, but llama-index-llms-openai is not installed:\n"
                  "    pip install llama-index-llms-openai\n"
                  "Falling back to replaying recorded answers.\n")
        else:
            model = os.environ.get("OPENAI_MODEL", "gpt-4o-mini")
            llm = OpenAI(model=model, api_base=os.environ.get("OPENAI_BASE_URL"), temperature=0.0)
            return llm, f"live LLM ({model} via an OpenAI-compatible API)"
    script = {r["question"]: [r["hallucinated"], r["right"]] for r in records}
    return ReplayLLM(script=script), "replay of recorded HaluEval answers (hallucinated first, then right)"


def show(question: str, response: Any) -> None:
    """Print the verdict, flagged nodes, explanation and refinement history."""
    result = response.metadata["guard_result"]
    print(f"\nQ: {question}")
    print(f"A: {response.response}")
    print(f"verdict: {'passed' if result.passed else 'FLAGGED'} (score {result.score:.3f}, "
          f"threshold {result.threshold:.3f}, action {response.metadata['guard_action']})")
    if response.metadata["guard_original_answer"] != response.response:
        print(f"original answer: {response.metadata['guard_original_answer']}")
    first = result.history[0] if result.history else None
    print("flagged nodes (first answer):", list(first.flagged) if first else [n.text for n in result.flagged_nodes])
    print("explanation:", result.explanation.summary or "-")
    for sentence in result.explanation.sentences:
        print("   -", sentence)
    for h in result.history:
        print(f"  round {h.round}: {'passed' if h.passed else 'flagged'} score={h.score:.3f} "
              f"flagged={list(h.flagged)} answer={h.answer!r}")
        if h.feedback:
            print("    feedback sent to the LLM:", h.feedback.replace("\n", "\n      "))


def main(argv: list[str]) -> None:
    records = load_records()
    embed = MiniLMEmbedding()
    llm, mode = choose_llm(records)
    Settings.llm, Settings.embed_model = llm, embed  # explicit: nothing falls back to OpenAI defaults
    print(f"mode: {mode}")
    index = VectorStoreIndex.from_documents(
        [Document(text=r["context"], id_=r["group"]) for r in records], embed_model=embed)
    engine = GuardedQueryEngine(index.as_query_engine(llm=llm, similarity_top_k=2), Guard(),
                                policy="refine", max_iterations=3)
    by_group = {r["group"]: r for r in records}
    groups = [g for g in (argv or DEMO_GROUPS) if g in by_group] or [records[0]["group"]]
    for group in groups:
        question = by_group[group]["question"]
        show(question, engine.query(question))


if __name__ == "__main__":
    main(sys.argv[1:])
