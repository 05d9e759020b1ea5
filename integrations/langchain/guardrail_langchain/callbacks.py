"""Observe-and-log callback handlers: check each root run's answer when the run ends.

A callback cannot change what a chain returns: these handlers only *observe* (they
record results and write flagged answers to the guard's log sinks). Use
:class:`~guardrail_langchain.GuardRunnable` to act on a verdict. LangChain catches and
logs exceptions raised in callbacks unless the handler has ``raise_error = True``
(constructor argument here), so a failing check does not break the chain by default.

State is kept per *root run* (walked up from each event's ``parent_run_id``), never
per handler instance, so one handler can serve concurrent runs (``abatch``, many
requests) without mixing their contexts.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from langchain_core.callbacks import AsyncCallbackHandler, BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.messages import BaseMessage

from guardrail.types import GuardResult
from guardrail.validate import check_guard
from guardrail_langchain._common import (
    ANSWER_KEYS,
    CONTEXT_KEYS,
    GUARD_EVENT,
    QUESTION_KEYS,
    context_texts,
    question_text,
)

__all__ = ["CheckedRun", "GuardCallbackHandler", "AsyncGuardCallbackHandler"]


@dataclass(frozen=True)
class CheckedRun:
    """What a handler checked for one root run.

    Parameters
    ----------
    run_id : UUID
        The root run's id (pass ``config={"run_id": ...}`` to choose it).
    question : str or None
        The question read from the root run's input.
    contexts : tuple of str
        The passages retrieved during the run (in retrieval order).
    answer : str
        The final answer read from the root run's output.
    result : GuardResult
        The verdict.
    events : tuple of dict
        ``"kg_guardrail_result"`` custom events received during the run.
    """

    run_id: UUID
    question: str | None
    contexts: tuple[str, ...]
    answer: str
    result: GuardResult
    events: tuple[dict[str, Any], ...] = ()

    @property
    def context_hash(self) -> str:
        """:func:`guardrail.log.sinks.context_hash` of the passages (as in the log records)."""
        from guardrail.log.sinks import context_hash

        return context_hash(self.contexts)


@dataclass
class _RunState:
    question: str | None = None
    docs: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    members: list[UUID] = field(default_factory=list)


class _RunBook:
    """Thread-safe bookkeeping shared by the sync and the async handler."""

    def _init_book(self, guard: Any, answer_key: str | None, max_results: int) -> None:
        check_guard(guard, type(self).__name__)
        self.guard = guard
        self.answer_key = answer_key
        self.max_results = max_results
        self.results: OrderedDict[UUID, CheckedRun] = OrderedDict()
        self._root: dict[UUID, UUID] = {}
        self._states: dict[UUID, _RunState] = {}
        self._lock = threading.Lock()

    def _start(self, run_id: UUID, parent_run_id: UUID | None, inputs: Any = None,
               chain: bool = False) -> None:
        with self._lock:
            root = self._root.get(parent_run_id, run_id) if parent_run_id is not None else run_id
            self._root[run_id] = root
            state = self._states.get(root)
            if state is None and root == run_id:
                state = self._states[root] = _RunState(question=_question(inputs)) if chain else _RunState()
            if state is not None:
                state.members.append(run_id)

    def _state_of(self, run_id: UUID, parent_run_id: UUID | None) -> _RunState | None:
        root = self._root.get(run_id) or (self._root.get(parent_run_id) if parent_run_id else None)
        return self._states.get(root) if root is not None else None

    def _docs(self, documents: Sequence[Document], run_id: UUID, parent_run_id: UUID | None) -> None:
        with self._lock:
            state = self._state_of(run_id, parent_run_id)
            if state is not None:
                state.docs.extend(context_texts(list(documents)))
            elif self._root.get(run_id) == run_id:  # a retriever invoked on its own
                del self._root[run_id]

    def _event(self, name: str, data: Any, run_id: UUID) -> None:
        if name != GUARD_EVENT:
            return
        with self._lock:
            state = self._state_of(run_id, None)
            if state is not None:
                state.events.append(dict(data))

    def _end(self, run_id: UUID, outputs: Any, inputs: Any) -> tuple[_RunState, str, list[str]] | None:
        """Forget a finished root run; return (state, answer, contexts) when it can be checked."""
        with self._lock:
            if self._root.get(run_id) != run_id:
                return None
            self._root.pop(run_id, None)
            state = self._states.pop(run_id, _RunState())
            for member in state.members:
                self._root.pop(member, None)
        if inputs is not None and _question(inputs) is not None:
            state.question = _question(inputs)
        answer = self._answer(outputs)
        contexts = state.docs or _output_contexts(outputs)
        if answer is None or not contexts:
            return None
        return state, answer, contexts

    def _answer(self, outputs: Any) -> str | None:
        if isinstance(outputs, Mapping):
            keys = (self.answer_key,) if self.answer_key else ANSWER_KEYS
            outputs = next((outputs[k] for k in keys if k in outputs), None)
        if isinstance(outputs, BaseMessage):
            return outputs.text
        return outputs if isinstance(outputs, str) else None

    def _record(self, run_id: UUID, state: _RunState, answer: str, contexts: list[str],
                result: GuardResult) -> None:
        checked = CheckedRun(run_id, state.question, tuple(contexts), answer, result, tuple(state.events))
        with self._lock:
            self.results[run_id] = checked
            while len(self.results) > self.max_results:
                self.results.popitem(last=False)

    def _existing(self, outputs: Any) -> GuardResult | None:
        if isinstance(outputs, Mapping):
            return next((v for v in outputs.values() if isinstance(v, GuardResult)), None)
        return None

    # ----------------------------------------------------------------- public
    def result_for(self, run_id: UUID) -> CheckedRun | None:
        """The check of the root run ``run_id``, or ``None`` (not checked, or evicted)."""
        with self._lock:
            return self.results.get(run_id)

    @property
    def last(self) -> CheckedRun | None:
        """The most recently finished check, or ``None``."""
        with self._lock:
            return next(reversed(self.results.values()), None)

    @property
    def pending(self) -> int:
        """Number of root runs started and not yet ended (0 once all runs finished)."""
        with self._lock:
            return len(self._states)


def _question(inputs: Any) -> str | None:
    if isinstance(inputs, Mapping):
        key = next((k for k in QUESTION_KEYS if k in inputs), None)
        return question_text(inputs[key]) if key and inputs[key] != "" else None
    return question_text(inputs) if isinstance(inputs, (str, BaseMessage)) else None


def _output_contexts(outputs: Any) -> list[str]:
    if isinstance(outputs, Mapping):
        key = next((k for k in CONTEXT_KEYS if k in outputs), None)
        if key is not None:
            try:
                return context_texts(outputs[key])
            except ValueError:
                return []
    return []


_DOC = """{kind} that checks each root run's final answer against the passages its retrievers returned.

    Events are grouped by root run (walking ``parent_run_id`` up to the first run this
    handler saw start), so concurrent runs sharing the handler never mix. When a root
    chain run ends, its answer (``answer_key`` or ``answer``/``output``/``result``/``text``
    of a dict output, a string, or a message's text) is checked against the passages
    retrieved in that run (``on_retriever_end``; else a ``context`` key of the output)
    {how}. Runs without an answer or without passages are skipped. If the output already
    holds a :class:`~guardrail.GuardResult` (a ``GuardRunnable`` ran), it is reused.
    Flagged answers are written by the guard to its log sinks (build it with ``log=``).
    Results stay available by root run id: :meth:`result_for`, :attr:`last`, :attr:`results`.

    A callback cannot change the chain's output: this handler observes and logs only.
    LangChain catches exceptions raised in callbacks (it logs a warning) unless
    ``raise_error=True``; pass it to make a failing check fail the run.

    Parameters
    ----------
    guard : Guard
        The guard; its ``log=`` sinks receive flagged answers.
    answer_key : str or None
        Key of the answer in a dict output (default: detect).
    max_results : int
        Checks kept, oldest evicted first (default 1000).
    raise_error : bool
        Let LangChain re-raise errors from this handler (default False).
    """


class GuardCallbackHandler(_RunBook, BaseCallbackHandler):
    __doc__ = _DOC.format(kind="Sync callback handler", how="with ``guard.check``")

    def __init__(self, guard: Any, *, answer_key: str | None = None, max_results: int = 1000,
                 raise_error: bool = False) -> None:
        self._init_book(guard, answer_key, max_results)
        self.raise_error = raise_error

    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: UUID,
                       parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        """Register the run; a root run's input gives the question."""
        self._start(run_id, parent_run_id, inputs, chain=True)

    def on_retriever_start(self, serialized: Any, query: str, *, run_id: UUID,
                           parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        """Register the retriever run under its root."""
        self._start(run_id, parent_run_id)

    def on_retriever_end(self, documents: Sequence[Document], *, run_id: UUID,
                         parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        """Collect the retrieved passages for the root run."""
        self._docs(documents, run_id, parent_run_id)

    def on_custom_event(self, name: str, data: Any, *, run_id: UUID, **kwargs: Any) -> None:
        """Keep ``kg_guardrail_result`` events with their root run."""
        self._event(name, data, run_id)

    def on_chain_end(self, outputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None,
                     **kwargs: Any) -> None:
        """At the end of a root run, check its answer and record the result."""
        done = self._end(run_id, outputs, kwargs.get("inputs"))
        if done is None:
            return
        state, answer, contexts = done
        result = self._existing(outputs) or self.guard.check(answer, contexts, state.question, id=str(run_id))
        self._record(run_id, state, answer, contexts, result)

    def on_chain_error(self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None,
                       **kwargs: Any) -> None:
        """Forget a failed root run."""
        self._end(run_id, None, None)


class AsyncGuardCallbackHandler(_RunBook, AsyncCallbackHandler):
    __doc__ = _DOC.format(kind="Async callback handler",
                          how="with ``await guard.acheck`` (the event loop is not blocked)")

    def __init__(self, guard: Any, *, answer_key: str | None = None, max_results: int = 1000,
                 raise_error: bool = False) -> None:
        self._init_book(guard, answer_key, max_results)
        self.raise_error = raise_error

    async def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: UUID,
                             parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        """Register the run; a root run's input gives the question."""
        self._start(run_id, parent_run_id, inputs, chain=True)

    async def on_retriever_start(self, serialized: Any, query: str, *, run_id: UUID,
                                 parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        """Register the retriever run under its root."""
        self._start(run_id, parent_run_id)

    async def on_retriever_end(self, documents: Sequence[Document], *, run_id: UUID,
                               parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        """Collect the retrieved passages for the root run."""
        self._docs(documents, run_id, parent_run_id)

    async def on_custom_event(self, name: str, data: Any, *, run_id: UUID, **kwargs: Any) -> None:
        """Keep ``kg_guardrail_result`` events with their root run."""
        self._event(name, data, run_id)

    async def on_chain_end(self, outputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None,
                           **kwargs: Any) -> None:
        """At the end of a root run, check its answer and record the result."""
        done = self._end(run_id, outputs, kwargs.get("inputs"))
        if done is None:
            return
        state, answer, contexts = done
        result = self._existing(outputs) or await self.guard.acheck(
            answer, contexts, state.question, id=str(run_id))
        self._record(run_id, state, answer, contexts, result)

    async def on_chain_error(self, error: BaseException, *, run_id: UUID,
                             parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        """Forget a failed root run."""
        self._end(run_id, None, None)
