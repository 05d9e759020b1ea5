"""Added latency of the LangChain guard over the bare RAG chain.

Builds the RAG chain of ``examples/langchain_rag.py`` (InMemoryVectorStore over the QA
items of ``examples/data/halueval_sample.jsonl``, MiniLM embeddings, a chat prompt, a
``GenericFakeChatModel`` replaying each question's recorded answer), then times the bare
chain and ``guard_chain(chain, Guard())`` (policy ``annotate``) on the same inputs,
interleaved, after one warm-up pass (models loaded, passage graphs cached).

Reports per invocation: median bare latency, median guarded latency, the median added
latency (paired per input), the guard's own check time (``GuardResult.total_ms``) and
what remains for the adapter's LangChain plumbing. Writes
``benchmarks/results/langchain_overhead.json``.

Run: ``python benchmarks/langchain_overhead.py [--n 30] [--answers mixed|right|hallucinated]``
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import statistics
import sys
import time
from operator import itemgetter
from pathlib import Path
from typing import Any

from langchain_core.documents import Document
from langchain_core.language_models import GenericFakeChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable, RunnableLambda, RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore

from guardrail import Guard
from guardrail_langchain import MiniLMEmbeddings, guard_chain

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "examples" / "data" / "halueval_sample.jsonl"
OUT = ROOT / "benchmarks" / "results" / "langchain_overhead.json"
PROMPT = ChatPromptTemplate.from_messages([
    ("system", "Answer the question in one sentence using only this context:\n\n{context}"),
    ("human", "{question}"),
])


def load_items(limit: int, answers: str) -> list[dict[str, Any]]:
    """QA items with the answer the fake model gives (right, hallucinated, or alternating)."""
    groups: dict[str, dict[str, Any]] = {}
    with DATA.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if str(row["id"]).startswith("qa-"):
                g = groups.setdefault(row["group"], {"question": row["question"], "context": row["context"]})
                g[row["label"]] = row["answer"]
    items = [g for g in groups.values() if 0 in g and 1 in g][:limit]
    for i, g in enumerate(items):
        label = {"right": 0, "hallucinated": 1}.get(answers, i % 2)
        g["answer"] = g[label]
    return items


def build_chain(items: list[dict[str, Any]]) -> Runnable:
    """The RAG chain; each question is answered by its own replaying fake chat model."""
    store = InMemoryVectorStore(MiniLMEmbeddings())
    store.add_documents([Document(it["context"]) for it in items])
    retriever = store.as_retriever(search_kwargs={"k": 2})
    models = {it["question"]: GenericFakeChatModel(messages=itertools.repeat(it["answer"])) for it in items}

    def generate(x: dict[str, Any]) -> Runnable:
        return (RunnablePassthrough.assign(context=lambda y: "\n\n".join(d.page_content for d in y["context"]))
                | PROMPT | models[x["question"]] | StrOutputParser())

    return (RunnablePassthrough.assign(context=itemgetter("question") | retriever)
            .assign(answer=RunnableLambda(generate)))


def machine() -> dict[str, Any]:
    """Where the numbers were taken."""
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            cpu = next((ln.split(":", 1)[1].strip() for ln in fh if ln.startswith("model name")), cpu)
    except OSError:
        pass
    import langchain_core

    return {
        "cpu": cpu, "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "gpu": None, "platform": platform.platform(), "python": sys.version.split()[0],
        "langchain_core": langchain_core.__version__,
        "load_average_at_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "note": "2-core CPU VM shared with other processes; no GPU",
    }


def run(n: int, answers: str, limit: int) -> dict[str, Any]:
    """Time bare and guarded invocations (interleaved, paired per input)."""
    items = load_items(limit, answers)
    bare = build_chain(items)
    guarded = guard_chain(bare, Guard().warm_up())
    for it in items:  # warm-up: load models, cache passage graphs and embeddings
        bare.invoke({"question": it["question"]})
        guarded.invoke({"question": it["question"]})
    t_bare, t_guard, t_check, flagged = [], [], [], 0
    for it in itertools.islice(itertools.cycle(items), n):
        x = {"question": it["question"]}
        t0 = time.perf_counter()
        bare.invoke(x)
        t_bare.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        out = guarded.invoke(x)
        t_guard.append((time.perf_counter() - t0) * 1000)
        t_check.append(out["guard_result"].total_ms)
        flagged += not out["guard_result"].passed
    added = [g - b for g, b in zip(t_guard, t_bare)]
    plumbing = [a - c for a, c in zip(added, t_check)]
    return {
        "invocations": n, "distinct_questions": len(items), "answers": answers, "flagged": flagged,
        "policy": "annotate",
        "median_bare_ms": round(statistics.median(t_bare), 2),
        "median_guarded_ms": round(statistics.median(t_guard), 2),
        "median_added_ms": round(statistics.median(added), 2),
        "p90_added_ms": round(sorted(added)[int(0.9 * (n - 1))], 2),
        "median_guard_check_ms": round(statistics.median(t_check), 2),
        "median_adapter_plumbing_ms": round(statistics.median(plumbing), 2),
    }


def main() -> None:
    """Parse arguments, run, print and write the JSON."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=30, help="timed invocations per chain (default 30)")
    ap.add_argument("--answers", choices=["mixed", "right", "hallucinated"], default="mixed")
    ap.add_argument("--questions", type=int, default=10, help="distinct questions cycled (default 10)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    report = {"benchmark": "langchain_overhead", "machine": machine(),
              "result": run(args.n, args.answers, args.questions),
              "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report["result"], indent=2))
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
