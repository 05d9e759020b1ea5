""":class:`GuardedQueryEngine`: any LlamaIndex query engine, with its answers guarded.

The wrapped engine answers as usual; its answer and retrieved source nodes go through
:func:`guardrail.policy.refine.enforce` (or :func:`~guardrail.policy.refine.aenforce`) with the chosen
policy, and the :class:`~guardrail.types.GuardResult` is attached to the response's
``metadata``. Policies, the refinement loop and logging all live in the core.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncGenerator, Generator, Sequence
from typing import Any, cast

from llama_index.core.async_utils import asyncio_run
from llama_index.core.base.base_query_engine import BaseQueryEngine
from llama_index.core.base.response.schema import (
    RESPONSE_TYPE,
    AsyncStreamingResponse,
    PydanticResponse,
    Response,
    StreamingResponse,
)
from llama_index.core.prompts.mixin import PromptMixinType
from llama_index.core.schema import NodeWithScore, QueryBundle

from guardrail.errors import ConfigError
from guardrail.policy.policies import DEFAULT_REFUSAL, Policy, PolicyLike, PolicyOutcome, parse_policy
from guardrail.policy.refine import Refiner, aenforce, enforce
from guardrail_llama_index.contexts import ContextMode, GuardContexts, check_mode, contexts_from_nodes
from guardrail_llama_index.llm import make_areprompt, make_reprompt, resolve_llm

__all__ = ["GuardedQueryEngine", "guard_metadata", "trace_id"]

_CHUNKS = re.compile(r"\S+\s*|\s+")


def trace_id() -> str | None:
    """The LlamaIndex instrumentation span id of the running query (``None`` outside one).

    It names the ``GuardedQueryEngine._query`` span (``"GuardedQueryEngine._query-<uuid>"``),
    so a log record can be found next to the trace of the same query.
    """
    from llama_index.core.instrumentation.span import active_span_id

    value = active_span_id.get()
    return None if value is None else str(value)


def guard_metadata(outcome: PolicyOutcome) -> dict[str, Any]:
    """The ``Response.metadata`` entries written for ``outcome``.

    ``guard_result`` (the :class:`~guardrail.types.GuardResult` object), ``guard_passed``,
    ``guard_score`` (hallucination score, higher = less supported), ``guard_action``
    (``passed``/``annotated``/``filtered``/``refused``/``refined``/``declined``/``custom``),
    ``guard_original_answer`` (the engine's answer before the policy) and
    ``guard_stop_reason`` (why a refinement loop ended, ``""`` without one). The same
    names, without the ``guard_`` prefix, are the LangChain adapter's output keys.
    """
    return {
        "guard_result": outcome.result,
        "guard_passed": outcome.result.passed,
        "guard_score": outcome.result.score,
        "guard_action": outcome.action,
        "guard_original_answer": outcome.original_answer,
        "guard_stop_reason": outcome.stop_reason,
    }


class GuardedQueryEngine(BaseQueryEngine):
    """Wrap a query engine and apply a kg-guardrail policy to every answer.

    Parameters
    ----------
    query_engine : BaseQueryEngine
        Any engine whose responses carry ``source_nodes`` (e.g. ``index.as_query_engine()``).
    guard : guardrail.Guard
        The guard; its log sinks record flagged answers and refinement rounds.
    policy : {"annotate", "filter", "raise", "refine"} or callable
        What to do with a flagged answer (see :mod:`guardrail.policy.policies`); a callable
        ``fn(answer, result) -> str`` is a custom policy.
    llm : LLM or None
        LLM re-prompted by ``refine``; default the engine's (for a
        ``RetrieverQueryEngine``, its response synthesizer's LLM), else ``Settings.llm``
        when it was set explicitly.
    max_iterations : int
        Cap on refinement re-prompts (1..20, default 5).
    fallback : {"filter", "raise", "annotate"} or callable
        Applied to the best round when refinement ends still flagged: ``filter``
        (default) drops the flagged sentences, ``raise`` raises; ``annotate`` delivers
        the answer prefixed with ``[unverified]`` (never silently).
    refusal : str
        Answer returned by ``filter`` when nothing supported is left.
    context_mode : {"auto", "text", "graph"}
        How source nodes become contexts (:func:`~guardrail_llama_index.contexts_from_nodes`):
        graph retrievers' triplets are passed to the guard as triples.
    callback_manager : CallbackManager or None
        Default: the wrapped engine's.

    Notes
    -----
    The returned response has the (policy-applied) answer, the wrapped engine's source
    nodes, and ``metadata`` with the keys of :func:`guard_metadata`. A streaming
    response is collected, checked, and returned as a streaming response whose
    generator yields the final text. ``aquery`` is fully async.

    Examples
    --------
    >>> engine = GuardedQueryEngine(index.as_query_engine(llm=llm), Guard(), policy="refine")  # doctest: +SKIP
    >>> response = engine.query("Where is the Oberoi Group's head office?")  # doctest: +SKIP
    >>> response.metadata["guard_passed"], response.metadata["guard_result"].history  # doctest: +SKIP
    """

    def __init__(
        self,
        query_engine: BaseQueryEngine,
        guard: Any,
        policy: PolicyLike = "annotate",
        llm: Any = None,
        max_iterations: int = 5,
        fallback: PolicyLike = "filter",
        refusal: str = DEFAULT_REFUSAL,
        context_mode: ContextMode = "auto",
        callback_manager: Any = None,
    ) -> None:
        self._engine = query_engine
        self._guard = guard
        self._policy = parse_policy(policy)
        self._refusal = refusal
        self._context_mode: ContextMode = check_mode(context_mode)
        self._refiner = Refiner(guard, max_iterations=max_iterations, fallback=fallback, refusal=refusal)
        self._reprompt_llm = resolve_llm(query_engine, llm) if self._policy.kind is Policy.REFINE else llm
        if self._policy.kind is Policy.REFINE and self._reprompt_llm is None:
            raise ConfigError(
                "policy 'refine' needs an LLM: pass llm=..., or wrap an engine that has one"
            )
        super().__init__(callback_manager=callback_manager or getattr(query_engine, "callback_manager", None))

    # ----------------------------------------------------------------- access
    @property
    def query_engine(self) -> BaseQueryEngine:
        """The wrapped engine."""
        return self._engine

    @property
    def guard(self) -> Any:
        """The guard."""
        return self._guard

    @property
    def refiner(self) -> Refiner:
        """The core refinement loop used by ``refine`` (its settings: cap, fallback)."""
        return self._refiner

    def _get_prompt_modules(self) -> PromptMixinType:
        return {"query_engine": self._engine}

    def retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        """Delegate retrieval to the wrapped engine (no guard involved)."""
        return self._engine.retrieve(query_bundle)

    # ------------------------------------------------------------------ query
    def _query(self, query_bundle: QueryBundle) -> RESPONSE_TYPE:
        response = self._engine.query(query_bundle)
        answer = _answer_text(response)
        contexts = contexts_from_nodes(response.source_nodes, self._context_mode)
        outcome = enforce(  # the core types contexts as Sequence[str]; triples are accepted too
            self._guard, self._policy, answer, cast(Sequence[str], contexts), query_bundle.query_str,
            reprompt=self._sync_reprompt(), refiner=self._refiner, refusal=self._refusal, id=trace_id(),
        )
        return _rebuild(response, outcome)

    async def _aquery(self, query_bundle: QueryBundle) -> RESPONSE_TYPE:
        response = await self._engine.aquery(query_bundle)
        answer = await _aanswer_text(response)
        contexts = contexts_from_nodes(response.source_nodes, self._context_mode)
        outcome = await aenforce(
            self._guard, self._policy, answer, cast(Sequence[str], contexts), query_bundle.query_str,
            reprompt=self._async_reprompt(), refiner=self._refiner, refusal=self._refusal, id=trace_id(),
        )
        return _rebuild(response, outcome)

    def _sync_reprompt(self) -> Any:
        return make_reprompt(self._reprompt_llm) if self._policy.kind is Policy.REFINE else None

    def _async_reprompt(self) -> Any:
        return make_areprompt(self._reprompt_llm) if self._policy.kind is Policy.REFINE else None

    def contexts_for(self, source_nodes: Sequence[Any]) -> GuardContexts:
        """The contexts this engine would give the guard for ``source_nodes``."""
        return contexts_from_nodes(source_nodes, self._context_mode)


# --------------------------------------------------------------------- helpers
def _drain(response: StreamingResponse) -> str:
    if response.response_txt is None and response.response_gen is not None:
        response.response_txt = "".join(response.response_gen)
    return response.response_txt or ""


def _answer_text(response: RESPONSE_TYPE) -> str:
    if isinstance(response, StreamingResponse):
        return _drain(response)
    if isinstance(response, AsyncStreamingResponse):
        text: str = asyncio_run(_acollect(response))  # asyncio_run is untyped
        return text
    if isinstance(response, PydanticResponse):
        return response.response.model_dump_json() if response.response is not None else ""
    return response.response or ""


async def _acollect(response: AsyncStreamingResponse) -> str:
    async for _ in response.async_response_gen():
        pass
    return response.response_txt or ""


async def _aanswer_text(response: RESPONSE_TYPE) -> str:
    if isinstance(response, AsyncStreamingResponse):
        return await _acollect(response)
    if isinstance(response, StreamingResponse):  # a sync generator: drain it off the loop
        return await asyncio.to_thread(_drain, response)
    return _answer_text(response)


def _chunks(text: str) -> Generator[str, None, None]:
    yield from _CHUNKS.findall(text)


async def _achunks(text: str) -> AsyncGenerator[str, None]:
    for chunk in _CHUNKS.findall(text):
        yield chunk


def _rebuild(response: RESPONSE_TYPE, outcome: PolicyOutcome) -> RESPONSE_TYPE:
    """A response of the same kind with the final answer, same sources, guard metadata."""
    metadata = dict(response.metadata or {})
    metadata.update(guard_metadata(outcome))
    nodes = list(response.source_nodes)
    if isinstance(response, StreamingResponse):
        return StreamingResponse(response_gen=_chunks(outcome.answer), source_nodes=nodes, metadata=metadata)
    if isinstance(response, AsyncStreamingResponse):
        return AsyncStreamingResponse(response_gen=_achunks(outcome.answer), source_nodes=nodes, metadata=metadata)
    if isinstance(response, PydanticResponse) and outcome.answer == outcome.original_answer:
        return PydanticResponse(response.response, nodes, metadata)
    return Response(outcome.answer, nodes, metadata)
