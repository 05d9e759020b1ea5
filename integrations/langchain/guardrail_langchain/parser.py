"""``GuardOutputParser``: guard a chain that ends in a string, context from the run config."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from langchain_core.callbacks.manager import AsyncCallbackManagerForChainRun, CallbackManagerForChainRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.output_parsers import BaseOutputParser
from langchain_core.runnables import RunnableConfig
from pydantic import ConfigDict

from guardrail.errors import InvalidInputError
from guardrail.policy.policies import DEFAULT_REFUSAL
from guardrail.validate import check_guard
from guardrail_langchain._common import (
    answer_text,
    arun_policy,
    attach_kb,
    context_texts,
    question_text,
    run_policy,
    validate_policy,
)

__all__ = ["GuardOutputParser", "CONTEXT_CONFIG_KEY", "QUESTION_CONFIG_KEY"]

#: Config key holding the passages (``configurable`` first, then ``metadata``).
CONTEXT_CONFIG_KEY = "guard_context"
#: Config key holding the question (optional).
QUESTION_CONFIG_KEY = "guard_question"


class GuardOutputParser(BaseOutputParser[str]):
    """Output parser that checks the final answer text and returns it policy-applied.

    Use it as the last step of a chain that produces the answer (``prompt | llm |
    GuardOutputParser(guard=...)``). A parser only sees the answer, so the context and
    the question are read from the run config, looked up in this order:

    1. ``config["configurable"]["guard_context"]`` / ``["guard_question"]``
    2. ``config["metadata"]["guard_context"]`` / ``["guard_question"]``
    3. the ``context`` / ``question`` given at construction

    ``guard_context`` is a list of ``Document`` or strings, or one string. Both config
    sections are inherited by every step of the chain, so pass them to the outer
    ``invoke``::

        chain.invoke(inputs, config={"configurable": {"guard_context": docs,
                                                      "guard_question": q}})

    The result is not part of the output (a string): it is sent as the custom callback
    event ``"kg_guardrail_result"`` (data: ``result.to_dict(compact=True)``), which a
    handler receives in ``on_custom_event`` (e.g. a
    :class:`~guardrail_langchain.GuardCallbackHandler`, by root run).
    Streaming buffers the chunks and checks once at the end.
    When the retrieval happens inside the chain, prefer
    :class:`~guardrail_langchain.GuardRunnable`, which reads the context from the chain.

    Parameters
    ----------
    guard : Guard
        The guard.
    policy, llm, max_iterations, fallback, refusal
        As for :class:`~guardrail_langchain.GuardRunnable`.
    context : list of Document or str, str, or None
        Default passages when the config holds none.
    question : str or None
        Default question.
    kb : str, Path, KnowledgeBase or None
        Also check against this knowledge base (as ``Guard(kb=...)``); the context is then
        optional (the answer is checked against the KB alone when none is found).
    kb_profile : {"rdfs", "wikidata"} or None
        The KB's vocabulary.

    Raises
    ------
    InvalidInputError
        At parse time, when neither the config nor the parser holds a context and there
        is no knowledge base.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    guard: Any
    policy: Any = "annotate"
    llm: BaseChatModel | None = None
    max_iterations: int = 5
    fallback: Any = "filter"
    refusal: str = DEFAULT_REFUSAL
    context: Any = None
    question: str | None = None
    kb: Any = None
    kb_profile: Any = None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        check_guard(self.guard, type(self).__name__)
        validate_policy(self.policy, self.llm, self.max_iterations, self.fallback)
        self.guard = attach_kb(self.guard, self.kb, self.kb_profile)

    @property
    def _type(self) -> str:
        return "kg_guardrail"

    def _inputs(self, config: RunnableConfig | None) -> tuple[list[str], str | None]:
        cfg = config or {}
        sections = [cfg.get("configurable") or {}, cfg.get("metadata") or {}]
        ctx = next((s[CONTEXT_CONFIG_KEY] for s in sections if CONTEXT_CONFIG_KEY in s), self.context)
        q = next((s[QUESTION_CONFIG_KEY] for s in sections if QUESTION_CONFIG_KEY in s), self.question)
        if ctx is None and getattr(self.guard, "kb", None) is not None:
            ctx = []  # checked against the knowledge base alone
        if ctx is None:
            raise InvalidInputError(
                "GuardOutputParser found no context: pass config={'configurable': "
                "{'guard_context': docs}} (or metadata), or context= at construction"
            )
        return context_texts(ctx), question_text(q)

    def _settings(self) -> dict[str, Any]:
        return {"llm": self.llm, "max_iterations": self.max_iterations,
                "fallback": self.fallback, "refusal": self.refusal}

    def _run(self, text: Any, run_manager: CallbackManagerForChainRun, config: RunnableConfig) -> str:
        contexts, question = self._inputs(config)
        out = run_policy(self.guard, self.policy, answer_text(text), contexts, question, config,
                         run_id=str(run_manager.run_id), **self._settings())
        return out.answer

    async def _arun(
        self, text: Any, run_manager: AsyncCallbackManagerForChainRun, config: RunnableConfig
    ) -> str:
        contexts, question = self._inputs(config)
        out = await arun_policy(self.guard, self.policy, answer_text(text), contexts, question, config,
                                run_id=str(run_manager.run_id), **self._settings())
        return out.answer

    def parse(self, text: str) -> str:
        """Check ``text`` against the construction-time ``context`` (no run config here)."""
        return self.invoke(text)

    def invoke(self, input: str | BaseMessage, config: RunnableConfig | None = None, **kwargs: Any) -> str:
        """Check the answer (string or message) and return the policy-applied text."""
        return self._call_with_config(self._run, input, config, run_type="parser")

    async def ainvoke(
        self, input: str | BaseMessage, config: RunnableConfig | None = None, **kwargs: Any
    ) -> str:
        """Async :meth:`invoke`."""
        return await self._acall_with_config(self._arun, input, config, run_type="parser")

    def transform(
        self, input: Iterator[str | BaseMessage], config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[str]:
        """Buffer the chunks, check the whole answer, yield it as one chunk."""
        final: Any = None
        for chunk in input:
            final = chunk if final is None else final + chunk
        if final is not None:
            yield self.invoke(final, config)

    async def atransform(
        self, input: AsyncIterator[str | BaseMessage], config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[str]:
        """Async :meth:`transform`."""
        final: Any = None
        async for chunk in input:
            final = chunk if final is None else final + chunk
        if final is not None:
            yield await self.ainvoke(final, config)
