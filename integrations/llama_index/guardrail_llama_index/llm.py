"""Re-prompt functions for the core refinement loop, built from a LlamaIndex LLM.

The loop itself is :class:`guardrail.policy.refine.Refiner`; this module only turns its
:class:`~guardrail.policy.refine.RefinementRequest` into ``ChatMessage`` objects (from
:func:`guardrail.policy.refine.refinement_messages`) and calls ``llm.chat`` / ``llm.achat``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, ChatResponse

from guardrail.policy.refine import RefinementRequest, refinement_messages
from guardrail_llama_index.contexts import context_texts

__all__ = ["resolve_llm", "chat_messages", "make_reprompt", "make_areprompt"]

# Where common query engines keep their LLM (RetrieverQueryEngine: the synthesizer's).
_LLM_PATHS = (("_response_synthesizer", "_llm"), ("response_synthesizer", "_llm"), ("_llm",), ("llm",))


def resolve_llm(engine: Any, llm: Any = None) -> Any:
    """The LLM used to re-prompt: ``llm`` if given, else the engine's, else ``Settings``'.

    Parameters
    ----------
    engine : BaseQueryEngine
        The wrapped engine (a ``RetrieverQueryEngine`` yields its synthesizer's LLM).
    llm : LLM or None
        An explicit LLM, which wins.

    Returns
    -------
    LLM or None
        ``None`` when no LLM is found. ``Settings.llm`` is only used when it was set
        explicitly (the default would try to build an OpenAI client).
    """
    if llm is not None:
        return llm
    for path in _LLM_PATHS:
        obj: Any = engine
        for attr in path:
            obj = getattr(obj, attr, None)
        if obj is not None and hasattr(obj, "chat"):
            return obj
    from llama_index.core import Settings

    return getattr(Settings, "_llm", None)


def chat_messages(request: RefinementRequest) -> list[ChatMessage]:
    """The re-prompt as ``ChatMessage`` objects (triple contexts shown as sentences)."""
    if any(not isinstance(c, str) for c in request.contexts):
        request = dataclasses.replace(request, contexts=tuple(context_texts(request.contexts)))
    return [ChatMessage(role=role, content=content) for role, content in refinement_messages(request)]


def _text(response: ChatResponse) -> str:
    return (response.message.content or "").strip()


def make_reprompt(llm: Any) -> Callable[[RefinementRequest], str]:
    """A synchronous ``reprompt(request) -> str`` calling ``llm.chat``."""

    def reprompt(request: RefinementRequest) -> str:
        return _text(llm.chat(chat_messages(request)))

    return reprompt


def make_areprompt(llm: Any) -> Callable[[RefinementRequest], Awaitable[str]]:
    """An async ``reprompt(request) -> str`` awaiting ``llm.achat``."""

    async def areprompt(request: RefinementRequest) -> str:
        return _text(await llm.achat(chat_messages(request)))

    return areprompt
