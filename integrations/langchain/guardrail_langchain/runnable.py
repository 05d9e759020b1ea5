"""``GuardRunnable`` and ``guard_chain``: guard the dict output of an LCEL RAG chain."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

from langchain_core.callbacks.manager import AsyncCallbackManagerForChainRun, CallbackManagerForChainRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import (
    Runnable,
    RunnableConfig,
    RunnableLambda,
    RunnableParallel,
    RunnableSerializable,
)
from langchain_core.runnables.utils import AddableDict
from pydantic import ConfigDict

from guardrail.errors import InvalidInputError
from guardrail.policy.policies import DEFAULT_REFUSAL, PolicyLike, PolicyOutcome
from guardrail.validate import check_guard
from guardrail_langchain._common import (
    ANSWER_KEYS,
    CONTEXT_KEYS,
    QUESTION_KEYS,
    answer_text,
    arun_policy,
    context_texts,
    find_key,
    question_text,
    run_policy,
    validate_policy,
)

__all__ = ["GuardRunnable", "guard_chain"]


class GuardRunnable(RunnableSerializable[dict[str, Any], dict[str, Any]]):
    """Check the answer of a RAG chain's output dict against its retrieved context.

    Put it after a chain that outputs ``{question, context, answer}`` (the
    ``RunnablePassthrough.assign(context=retriever).assign(answer=...)`` shape, or a
    ``create_retrieval_chain``-style ``{input, context, answer}``). It returns the same
    dict with the answer as the policy left it and the :class:`~guardrail.GuardResult`
    under ``result_key``; the result is also sent as the custom callback event
    ``"kg_guardrail_result"`` (data: ``result.to_dict(compact=True)``).

    Parameters
    ----------
    guard : Guard
        The guard; give it ``log=`` to record flagged answers and refinement rounds.
    policy : {"annotate", "filter", "raise", "refine"} or callable
        ``annotate`` (default): answer unchanged; ``filter``: flagged sentences dropped
        (or ``refusal``); ``raise``: :class:`~guardrail.errors.HallucinationError`;
        ``refine``: re-prompt ``llm`` with the flagged nodes (KG-Guard loop); a callable
        ``fn(answer, result) -> str``.
    llm : BaseChatModel or None
        Chat model re-prompted by ``refine`` (``invoke`` / awaited ``ainvoke``).
    question_key, context_key, answer_key : str or None
        Input keys; ``None`` (default) tries ``question``/``input``/``query``,
        ``context``/``documents``/``source_documents``/``docs`` and
        ``answer``/``output``/``result``/``text``. The answer may be a string or a chat
        message (its text is checked); the context a list of ``Document`` or strings,
        or one string.
    result_key : str
        Output key of the result (default ``"guard_result"``). The output also holds
        ``guard_action`` (``passed``/``annotated``/``filtered``/``refused``/``refined``/
        ``declined``/``custom``), ``guard_original_answer`` (the chain's answer before the
        policy) and ``guard_stop_reason``: the same fields as the LlamaIndex adapter's
        response metadata.
    max_iterations : int
        Re-prompt cap of ``refine`` (default 5).
    fallback : {"filter", "raise", "annotate"} or callable
        Applied by ``refine`` to the best round when the loop ends still flagged:
        ``filter`` (default) or ``raise``; ``annotate`` delivers the answer prefixed with
        ``[unverified]``, never silently.

    Notes
    -----
    The LangChain run id of this runnable's run is the id of the guard's result and log
    records (``str(run_id)``), so a flagged-answer record can be matched to its trace.
    Streaming (``stream``/``transform``) yields one final chunk: an answer can only be
    checked once it is complete, and a policy may change it, so streaming its tokens
    before the check would deliver text the guard has not seen.
    refusal : str
        Returned by ``filter`` when no supported sentence is left.

    Raises
    ------
    ConfigError
        At construction: unknown policy, ``refine`` without ``llm``, bad ``max_iterations``.

    Examples
    --------
    >>> chain = rag | GuardRunnable(guard=Guard(), policy="filter")  # doctest: +SKIP
    >>> chain.invoke({"question": "Who ...?"})["guard_result"].passed  # doctest: +SKIP
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    guard: Any
    policy: Any = "annotate"
    llm: BaseChatModel | None = None
    question_key: str | None = None
    context_key: str | None = None
    answer_key: str | None = None
    result_key: str = "guard_result"
    max_iterations: int = 5
    fallback: Any = "filter"
    refusal: str = DEFAULT_REFUSAL

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_guard(self.guard, type(self).__name__)
        validate_policy(self.policy, self.llm, self.max_iterations, self.fallback)

    # ----------------------------------------------------------------- helpers
    def _unpack(self, data: Any) -> tuple[Any, str, list[str], str | None, str]:
        if not isinstance(data, Mapping):
            hint = (" The chain returns the answer alone: pass retriever= to guard_chain(...) so that "
                    "the question and the retrieved documents are checked with it, or make the chain "
                    "output a dict ({'question', 'context', 'answer'})."
                    if isinstance(data, (str, BaseMessage)) or hasattr(data, "text") else "")
            raise InvalidInputError(f"GuardRunnable takes a dict, got {type(data).__name__}.{hint}")
        akey = find_key(data, self.answer_key, ANSWER_KEYS, "answer")
        if akey is None:
            raise InvalidInputError(f"no answer key in the chain output (keys: {sorted(data)})")
        ckey = find_key(data, self.context_key, CONTEXT_KEYS, "context")
        qkey = find_key(data, self.question_key, QUESTION_KEYS, "question")
        raw = data[akey]
        contexts = context_texts(data[ckey]) if ckey else []
        question = question_text(data[qkey]) if qkey else None
        return raw, answer_text(raw), contexts, question, akey

    def _pack(self, data: Mapping[str, Any], raw: Any, akey: str, outcome: PolicyOutcome) -> dict[str, Any]:
        out = dict(data)
        if outcome.answer != answer_text(raw):
            out[akey] = (raw.model_copy(update={"content": outcome.answer})
                         if isinstance(raw, BaseMessage) else outcome.answer)
        out[self.result_key] = outcome.result
        out["guard_action"] = outcome.action
        out["guard_original_answer"] = outcome.original_answer
        out["guard_stop_reason"] = outcome.stop_reason
        return out

    def _settings(self) -> dict[str, Any]:
        return {"llm": self.llm, "max_iterations": self.max_iterations,
                "fallback": self.fallback, "refusal": self.refusal}

    def _run(self, data: dict[str, Any], run_manager: CallbackManagerForChainRun, config: RunnableConfig) -> dict[str, Any]:
        raw, answer, contexts, question, akey = self._unpack(data)
        outcome = run_policy(self.guard, self.policy, answer, contexts, question, config,
                             run_id=str(run_manager.run_id), **self._settings())
        return self._pack(data, raw, akey, outcome)

    async def _arun(
        self, data: dict[str, Any], run_manager: AsyncCallbackManagerForChainRun, config: RunnableConfig
    ) -> dict[str, Any]:
        raw, answer, contexts, question, akey = self._unpack(data)
        outcome = await arun_policy(self.guard, self.policy, answer, contexts, question, config,
                                    run_id=str(run_manager.run_id), **self._settings())
        return self._pack(data, raw, akey, outcome)

    # --------------------------------------------------------------- runnable
    def invoke(self, input: dict[str, Any], config: RunnableConfig | None = None, **kwargs: Any) -> dict[str, Any]:
        """Check ``input``'s answer and apply the policy (traced as one chain run)."""
        return self._call_with_config(self._run, input, config, **kwargs)

    async def ainvoke(self, input: dict[str, Any], config: RunnableConfig | None = None, **kwargs: Any) -> dict[str, Any]:
        """Async :meth:`invoke`: awaits the guard (worker thread) and ``llm.ainvoke``."""
        return await self._acall_with_config(self._arun, input, config, **kwargs)

    def transform(
        self, input: Iterator[dict[str, Any]], config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[dict[str, Any]]:
        """Buffer the streamed dict chunks, check once at the end, yield one chunk."""
        final = _merge(input)
        if final is not None:
            yield self.invoke(dict(final), config, **kwargs)

    async def atransform(
        self, input: AsyncIterator[dict[str, Any]], config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[dict[str, Any]]:
        """Async :meth:`transform`."""
        final: Any = None
        async for chunk in input:
            final = AddableDict(chunk) if final is None else final + AddableDict(chunk)
        if final is not None:
            yield await self.ainvoke(dict(final), config, **kwargs)

    def stream(self, input: dict[str, Any], config: RunnableConfig | None = None, **kwargs: Any) -> Iterator[dict[str, Any]]:
        """Yield one chunk: the checked dict.

        An answer cannot be checked before it is complete, and the policy may change it
        (filter, refine), so no token is streamed before the check.
        """
        yield self.invoke(input, config, **kwargs)

    async def astream(
        self, input: dict[str, Any], config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[dict[str, Any]]:
        """Async :meth:`stream`."""
        yield await self.ainvoke(input, config, **kwargs)


def _merge(chunks: Iterator[dict[str, Any]]) -> AddableDict | None:
    final: AddableDict | None = None
    for chunk in chunks:
        final = AddableDict(chunk) if final is None else final + AddableDict(chunk)
    return final


def _schema_keys(chain: Runnable[Any, Any]) -> set[str]:
    try:
        props = chain.get_output_jsonschema().get("properties", {})
    except Exception:  # noqa: BLE001 - an unschematised chain: detect keys at run time
        return set()
    return set(props)


def guard_chain(
    chain: Runnable[Any, Any], guard: Any, policy: PolicyLike = "annotate", llm: BaseChatModel | None = None,
    *, retriever: BaseRetriever | Runnable[Any, Any] | None = None, **keys: Any,
) -> Runnable[Any, Any]:
    """Return ``chain | GuardRunnable(...)``: the one-call way to guard a RAG chain.

    Parameters
    ----------
    chain : Runnable
        A chain whose output is a dict holding the question, the retrieved documents
        and the answer (``RunnablePassthrough.assign(context=...).assign(answer=...)``
        or ``create_retrieval_chain``-style ``{input, context, answer}``); or a chain
        that outputs the answer string, when ``retriever`` is given.
    guard : Guard
        The guard.
    policy, llm
        As for :class:`GuardRunnable`.
    retriever : BaseRetriever or Runnable or None
        For a string-output chain: the chain is run as
        ``RunnableParallel(question=..., context=retriever, answer=chain)``, so the
        retriever runs once more on the question (the chain's own retrieval is not
        visible from outside). The chain's input may be the question string or a dict
        holding it under ``question``/``input``/``query``.
    **keys
        Other :class:`GuardRunnable` fields (``question_key``, ``context_key``,
        ``answer_key``, ``result_key``, ``max_iterations``, ``fallback``, ``refusal``).
        Keys not given are taken from the chain's output schema when it names them,
        otherwise detected in each output at run time.

    Returns
    -------
    Runnable
        The guarded chain (input as ``chain``'s, output the dict plus ``result_key``).
    """
    if retriever is not None:
        get_q = RunnableLambda(_question_of).with_config(run_name="question")
        chain = RunnableParallel(question=get_q, context=get_q | retriever, answer=chain)
        keys.setdefault("question_key", "question")
        keys.setdefault("context_key", "context")
        keys.setdefault("answer_key", "answer")
    else:
        found = _schema_keys(chain)
        for field, candidates in (("question_key", QUESTION_KEYS), ("context_key", CONTEXT_KEYS),
                                  ("answer_key", ANSWER_KEYS)):
            hit = next((k for k in candidates if k in found), None)
            if hit is not None:
                keys.setdefault(field, hit)
    return chain | GuardRunnable(guard=guard, policy=policy, llm=llm, **keys)


def _question_of(value: Any) -> str:
    if isinstance(value, Mapping):
        key = next((k for k in QUESTION_KEYS if k in value), None)
        if key is None:
            raise InvalidInputError(f"no question key in the chain input (keys: {sorted(value)})")
        value = value[key]
    text = question_text(value)
    if text is None:
        raise InvalidInputError("the chain input holds no question")
    return text
