"""Helpers shared by the runnable, the output parser and the callback handlers.

Conversions between LangChain objects and what :mod:`guardrail` takes (answer text,
passage texts, question), the re-prompt functions built from a chat model, and the
one place that calls :func:`guardrail.policy.refine.enforce` / :func:`~guardrail.policy.refine.aenforce`
and dispatches the custom callback event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.callbacks.manager import adispatch_custom_event, dispatch_custom_event
from langchain_core.documents import Document
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig

from guardrail.errors import ConfigError, InvalidInputError
from guardrail.kb.switch import attach_kb
from guardrail.policy.policies import DEFAULT_REFUSAL, Policy, PolicyLike, PolicyOutcome, parse_policy
from guardrail.policy.refine import RefinementRequest, Refiner, aenforce, enforce, refinement_messages
from guardrail.types import GuardResult

__all__ = [
    "GUARD_EVENT",
    "QUESTION_KEYS",
    "CONTEXT_KEYS",
    "ANSWER_KEYS",
    "find_key",
    "answer_text",
    "context_texts",
    "question_text",
    "validate_policy",
    "attach_kb",
    "run_policy",
    "arun_policy",
]

#: Name of the custom callback event that carries ``result.to_dict(compact=True)``.
GUARD_EVENT = "kg_guardrail_result"

#: Keys tried, in order, when no key is configured.
QUESTION_KEYS = ("question", "input", "query")
CONTEXT_KEYS = ("context", "documents", "source_documents", "docs")
ANSWER_KEYS = ("answer", "output", "result", "text")

_ROLES = {"system": SystemMessage, "user": HumanMessage, "human": HumanMessage}


def find_key(data: Mapping[str, Any], key: str | None, candidates: Sequence[str], what: str) -> str | None:
    """Return ``key`` if given, else the first of ``candidates`` present in ``data``.

    Raises
    ------
    InvalidInputError
        ``key`` was given explicitly but is missing from ``data``.
    """
    if key is not None:
        if key not in data:
            raise InvalidInputError(f"{what} key {key!r} not in the chain output (keys: {sorted(data)})")
        return key
    return next((k for k in candidates if k in data), None)


def answer_text(value: Any) -> str:
    """The answer as text: a string, or a message's text (``AIMessage.text``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, BaseMessage):
        return value.text
    raise InvalidInputError(f"the answer must be a str or a chat message, got {type(value).__name__}")


def context_texts(value: Any) -> list[str]:
    """Passage texts from a list of ``Document`` or strings, one string, or ``None``."""
    if value is None:
        return []
    if isinstance(value, (str, Document)):
        value = [value]
    if not isinstance(value, Sequence):
        raise InvalidInputError(
            f"the context must be Documents, strings or one string, got {type(value).__name__}"
        )
    out = []
    for item in value:
        if isinstance(item, Document):
            out.append(item.page_content)
        elif isinstance(item, str):
            out.append(item)
        else:
            raise InvalidInputError(f"context item of type {type(item).__name__}; expected Document or str")
    return out


def question_text(value: Any) -> str | None:
    """The question as text (``None`` when absent; messages give their text)."""
    if value is None:
        return None
    if isinstance(value, BaseMessage):
        return value.text
    return value if isinstance(value, str) else str(value)


def validate_policy(policy: PolicyLike, llm: Any, max_iterations: int, fallback: PolicyLike) -> None:
    """Fail early on a bad policy, a ``refine`` policy without ``llm``, or bad loop settings."""
    spec = parse_policy(policy)
    if spec.kind is Policy.REFINE:
        if not isinstance(llm, BaseChatModel):
            raise ConfigError("policy 'refine' needs llm= a langchain BaseChatModel to re-prompt")
        Refiner(None, max_iterations=max_iterations, fallback=fallback)



def _messages(req: RefinementRequest) -> list[BaseMessage]:
    return [_ROLES[role](content=content) for role, content in refinement_messages(req)]


def _refiner(guard: Any, max_iterations: int, fallback: PolicyLike, refusal: str) -> Refiner:
    return Refiner(guard, max_iterations=max_iterations, fallback=fallback, refusal=refusal)


def run_policy(
    guard: Any, policy: PolicyLike, answer: str, contexts: Sequence[str], question: str | None,
    config: RunnableConfig, *, llm: BaseChatModel | None = None, max_iterations: int = 5,
    fallback: PolicyLike = "filter", refusal: str = DEFAULT_REFUSAL, run_id: str | None = None,
) -> PolicyOutcome:
    """Check and apply ``policy`` (sync), then dispatch :data:`GUARD_EVENT`.

    ``config`` is the child config of the current run: re-prompts of ``llm`` and the
    event are attached to it. ``run_id`` (the LangChain run id) becomes the id of the
    result and of every log record. A ``HallucinationError`` is raised after the event
    is sent.
    """
    reprompt = None
    if llm is not None:
        def reprompt(req: RefinementRequest) -> str:
            return answer_text(llm.invoke(_messages(req), config=config))
    try:
        outcome = enforce(guard, policy, answer, contexts, question, reprompt=reprompt,
                          refiner=_refiner(guard, max_iterations, fallback, refusal), refusal=refusal, id=run_id)
    except Exception as exc:
        _emit(getattr(exc, "result", None), config)
        raise
    _emit(outcome.result, config)
    return outcome


async def arun_policy(
    guard: Any, policy: PolicyLike, answer: str, contexts: Sequence[str], question: str | None,
    config: RunnableConfig, *, llm: BaseChatModel | None = None, max_iterations: int = 5,
    fallback: PolicyLike = "filter", refusal: str = DEFAULT_REFUSAL, run_id: str | None = None,
) -> PolicyOutcome:
    """Async :func:`run_policy`: awaits ``guard.acheck`` and ``llm.ainvoke``."""
    areprompt = None
    if llm is not None:
        async def areprompt(req: RefinementRequest) -> str:
            return answer_text(await llm.ainvoke(_messages(req), config=config))
    try:
        outcome = await aenforce(guard, policy, answer, contexts, question, reprompt=areprompt,
                                 refiner=_refiner(guard, max_iterations, fallback, refusal), refusal=refusal,
                                 id=run_id)
    except Exception as exc:
        await _aemit(getattr(exc, "result", None), config)
        raise
    await _aemit(outcome.result, config)
    return outcome


def _emit(result: GuardResult | None, config: RunnableConfig) -> None:
    if isinstance(result, GuardResult):
        dispatch_custom_event(GUARD_EVENT, result.to_dict(compact=True), config=config)


async def _aemit(result: GuardResult | None, config: RunnableConfig) -> None:
    if isinstance(result, GuardResult):
        await adispatch_custom_event(GUARD_EVENT, result.to_dict(compact=True), config=config)
