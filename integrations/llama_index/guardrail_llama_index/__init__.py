"""LlamaIndex adapter for kg-guardrail.

Everything here is a thin layer over the core (:mod:`guardrail`): the policies, the
refinement loop, the log sinks and the result types all live there.

* :class:`GuardedQueryEngine` wraps any query engine and applies a policy to its answers.
* :class:`KGGuardrailEvaluator` is a LlamaIndex evaluator (``BatchEvalRunner``-ready).
* :class:`GuardEventHandler` checks answers seen through LlamaIndex instrumentation.
* :class:`MiniLMEmbedding` exposes the guard's offline MiniLM encoder as an embed model.
* :func:`contexts_from_nodes` turns retrieved nodes into guard contexts (text or triples).

>>> from guardrail import Guard                                   # doctest: +SKIP
>>> from guardrail_llama_index import GuardedQueryEngine          # doctest: +SKIP
>>> engine = GuardedQueryEngine(index.as_query_engine(), Guard(), policy="filter")  # doctest: +SKIP
"""

from guardrail_llama_index._compat import PIP_HINT, require_llama_index

require_llama_index()

from guardrail_llama_index.contexts import (  # noqa: E402
    contexts_from_nodes,
    contexts_from_texts,
    parse_triplet_text,
)
from guardrail_llama_index.embedding import MiniLMEmbedding  # noqa: E402
from guardrail_llama_index.evaluator import KGGuardrailEvaluator  # noqa: E402
from guardrail_llama_index.events import GuardEventHandler, GuardRecord, SpanParentTracker  # noqa: E402
from guardrail_llama_index.llm import make_areprompt, make_reprompt, resolve_llm  # noqa: E402
from guardrail_llama_index.query_engine import GuardedQueryEngine  # noqa: E402

__all__ = [
    "GuardedQueryEngine",
    "KGGuardrailEvaluator",
    "GuardEventHandler",
    "GuardRecord",
    "SpanParentTracker",
    "MiniLMEmbedding",
    "contexts_from_nodes",
    "contexts_from_texts",
    "parse_triplet_text",
    "make_reprompt",
    "make_areprompt",
    "resolve_llm",
    "PIP_HINT",
]
