"""A LlamaIndex query engine on the offline local LLM, guarded with ``policy="refine"``.

Run it as is (after ``make demo``, or ``pip install 'kg-guardrail[llama-index,local-llm]'``
plus ``llama-index-llms-openai-like``)::

    python examples/llama_index_rag.py

* The LLM is ``OpenAILike`` pointed at the local OpenAI-compatible endpoint (the pinned
  Qwen2.5-Coder-1.5B-Instruct served on 127.0.0.1, started here, or the one in
  ``$KG_GUARDRAIL_LLM_BASE_URL``).
* The index is a ``VectorStoreIndex`` over the four documents in ``examples/data/docs/``
  with offline MiniLM embeddings.
* ``GuardedQueryEngine(..., policy="refine")`` checks each answer, re-prompts the engine's
  LLM with the flagged claims when needed, and logs flagged answers and rounds to
  ``build/llama_index_flagged.jsonl`` with the LlamaIndex span id of the query.

A second engine plants a wrong year into the answer (a stand-in for a hallucination,
labelled as such) to show a refinement.
"""

from __future__ import annotations

import re
from pathlib import Path

from llama_index.core import Document, Settings, VectorStoreIndex
from llama_index.core.base.response.schema import Response
from llama_index.core.query_engine import CustomQueryEngine
from llama_index.llms.openai_like import OpenAILike

from guardrail import Guard
from guardrail.llm.local import llm_endpoint
from guardrail.log.sinks import read_log
from guardrail_llama_index import GuardedQueryEngine, MiniLMEmbedding

DOCS = Path(__file__).resolve().parent / "data" / "docs"
LOG = Path("build/llama_index_flagged.jsonl")
QUESTIONS = ["When was the Great Barrier Reef selected as a World Heritage Site?",
             "When did Marie Curie win the Nobel Prize in Chemistry?"]


class PlantedError(CustomQueryEngine):
    """Demo only: the wrapped engine's answer with its first year replaced by a wrong one."""

    engine: object

    def custom_query(self, query_str: str) -> Response:
        resp = self.engine.query(query_str)  # type: ignore[attr-defined]
        text = re.sub(r"\b1[89]\d\d\b", "1921", str(resp.response), count=1)
        return Response(text, source_nodes=resp.source_nodes)


def show(title: str, response: Response) -> None:
    """Print the delivered answer, what the guard did, and every round."""
    m = response.metadata or {}
    print(f"\n== {title}\n   answer  : {response.response}\n   action  : {m['guard_action']} "
          f"(stop: {m['guard_stop_reason'] or '-'})")
    if m["guard_original_answer"] != response.response:
        print(f"   original: {m['guard_original_answer']}")
    for h in m["guard_result"].history:
        print(f"   round {h.round}: passed={h.passed} score={h.score:.2f} flagged={list(h.flagged)}")


def main() -> None:
    """Build the index, run the guarded engine, then show the log records."""
    LOG.parent.mkdir(exist_ok=True)
    LOG.unlink(missing_ok=True)
    guard = Guard(log=LOG)
    docs = [Document(text=p.read_text(encoding="utf-8").strip(), id_=p.stem) for p in sorted(DOCS.glob("*.txt"))]
    with llm_endpoint() as base_url:
        llm = OpenAILike(api_base=base_url, api_key="not-needed", model="local", is_chat_model=True,
                         context_window=4096, max_tokens=80, temperature=0.0, timeout=600)
        embed = MiniLMEmbedding()
        Settings.llm, Settings.embed_model = llm, embed  # explicit: nothing falls back to OpenAI defaults
        index = VectorStoreIndex.from_documents(docs, embed_model=embed)
        base = index.as_query_engine(llm=llm, similarity_top_k=2)
        engine = GuardedQueryEngine(base, guard, policy="refine", max_iterations=3)
        for q in QUESTIONS:
            show(q, engine.query(q))
        planted = GuardedQueryEngine(PlantedError(engine=base), guard, policy="refine", llm=llm,
                                     max_iterations=3)
        show(f"{QUESTIONS[1]} (wrong year planted)", planted.query(QUESTIONS[1]))
    print(f"\nlog records in {LOG}:")
    for r in read_log(LOG):
        print(f"   id={r.id} event={r.event} round={r.round} action={r.action} "
              f"delivered={r.delivered_answer!r}")


if __name__ == "__main__":
    main()
