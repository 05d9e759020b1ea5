"""LangChain adapter for kg-guardrail.

Add a hallucination guard to an LCEL RAG chain::

    from guardrail import Guard
    from guardrail_langchain import guard_chain

    guarded = guard_chain(rag_chain, Guard(), policy="annotate")
    out = guarded.invoke({"question": "..."})   # out["guard_result"] is a GuardResult

Public names
------------
GuardRunnable
    Runnable that checks ``{question, context, answer}`` dicts and applies a policy.
guard_chain
    One-call wrapper: ``chain | GuardRunnable(...)`` with keys detected from the chain.
GuardOutputParser
    Output parser for chains that end in a string; context comes from the run config.
GuardCallbackHandler, AsyncGuardCallbackHandler
    Observe-and-log handlers: check each root run's answer, never change it.
MiniLMEmbeddings
    LangChain ``Embeddings`` over the offline all-MiniLM-L6-v2 encoder.
GUARD_EVENT
    Name of the custom callback event carrying each result (``"kg_guardrail_result"``).

Requires ``langchain-core`` 1.x: ``pip install 'kg-guardrail[langchain]'``.
"""

from guardrail._optional import require

require("langchain_core", extra="langchain")

from guardrail_langchain._common import GUARD_EVENT  # noqa: E402
from guardrail_langchain.callbacks import (  # noqa: E402
    AsyncGuardCallbackHandler,
    CheckedRun,
    GuardCallbackHandler,
)
from guardrail_langchain.embeddings import MiniLMEmbeddings  # noqa: E402
from guardrail_langchain.parser import GuardOutputParser  # noqa: E402
from guardrail_langchain.runnable import GuardRunnable, guard_chain  # noqa: E402

__all__ = [
    "GUARD_EVENT",
    "GuardRunnable",
    "guard_chain",
    "GuardOutputParser",
    "GuardCallbackHandler",
    "AsyncGuardCallbackHandler",
    "CheckedRun",
    "MiniLMEmbeddings",
]
