""":class:`GuardEventHandler`: check answers seen through LlamaIndex instrumentation.

LlamaIndex emits a ``RetrievalEndEvent`` (with the retrieved nodes) from the
retriever's span and a ``SynthesizeEndEvent`` / ``QueryEndEvent`` (with the response)
from the synthesizer's and the query engine's spans. The handler pairs them by
walking each event's span up to the outermost query span, using the parent links
recorded by a small span handler (:class:`SpanParentTracker`), so concurrent queries
never mix. When that query ends, the answer is checked against its own retrieved
nodes; flagged answers go to the guard's log sinks, and every verdict is kept by
root span id.

Register it once::

    from llama_index.core.instrumentation import get_dispatcher

    handler = GuardEventHandler(guard=guard)
    handler.register()                       # event handler + span tracker on the root dispatcher
    # or, by hand:
    get_dispatcher().add_event_handler(handler)
    get_dispatcher().add_span_handler(handler.tracker)
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from collections.abc import AsyncGenerator, Generator
from dataclasses import dataclass, field
from typing import Any, Optional

from llama_index.core.base.response.schema import AsyncStreamingResponse, StreamingResponse
from llama_index.core.instrumentation import get_dispatcher  # type: ignore[attr-defined]  # re-exported
from llama_index.core.instrumentation.event_handlers import BaseEventHandler
from llama_index.core.instrumentation.events import BaseEvent
from llama_index.core.instrumentation.events.query import QueryEndEvent, QueryStartEvent
from llama_index.core.instrumentation.events.retrieval import RetrievalEndEvent
from llama_index.core.instrumentation.events.span import SpanDropEvent  # type: ignore[attr-defined]  # re-exported
from llama_index.core.instrumentation.events.synthesis import SynthesizeEndEvent
from llama_index.core.instrumentation.span.base import BaseSpan  # type: ignore[attr-defined]  # re-exported
from llama_index.core.instrumentation.span_handlers import BaseSpanHandler
from pydantic import Field, PrivateAttr

from guardrail.types import GuardResult
from guardrail.validate import check_guard
from guardrail_llama_index.contexts import ContextMode, GuardContexts, contexts_from_nodes

__all__ = ["GuardEventHandler", "GuardRecord", "SpanParentTracker"]

_log = logging.getLogger("guardrail.llama_index")
_MAX_DEPTH = 256


class SpanParentTracker(BaseSpanHandler[BaseSpan]):
    """Span handler that only remembers the parent of every open span.

    Links are dropped when a span exits, so memory stays bounded by the spans open
    at one time.
    """

    _parents: dict[str, Optional[str]] = PrivateAttr(default_factory=dict)
    _plock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @classmethod
    def class_name(cls) -> str:
        """Class name."""
        return "SpanParentTracker"

    def parent(self, span_id: str) -> Optional[str]:
        """The parent of open span ``span_id`` (``None`` for a root or an unknown span)."""
        with self._plock:
            return self._parents.get(span_id)

    def new_span(self, id_: str, bound_args: Any, instance: Any = None,
                 parent_span_id: Optional[str] = None, tags: Any = None, **kwargs: Any) -> None:
        """Record ``id_ -> parent_span_id`` (no span object is kept)."""
        with self._plock:
            self._parents[id_] = parent_span_id

    def prepare_to_exit_span(self, id_: str, bound_args: Any, instance: Any = None,
                             result: Any = None, **kwargs: Any) -> None:
        """Forget the span."""
        with self._plock:
            self._parents.pop(id_, None)

    def prepare_to_drop_span(self, id_: str, bound_args: Any, instance: Any = None,
                             err: Optional[BaseException] = None, **kwargs: Any) -> None:
        """Forget the span."""
        self.prepare_to_exit_span(id_, bound_args, instance)


@dataclass(frozen=True)
class GuardRecord:
    """One checked query: its root span id, question, answer, contexts and verdict."""

    span_id: str
    query: Optional[str]
    answer: str
    contexts: GuardContexts
    result: GuardResult


@dataclass
class _Group:
    nodes: list[Any] = field(default_factory=list)
    query: Optional[str] = None


def _query_str(query: Any) -> Optional[str]:
    if query is None or isinstance(query, str):
        return query
    return getattr(query, "query_str", None) or str(query)


class GuardEventHandler(BaseEventHandler):
    """Check every RAG answer that passes through LlamaIndex instrumentation.

    Parameters
    ----------
    guard : guardrail.Guard
        The guard; flagged (and abstained) answers are written to its log sinks.
    context_mode : {"auto", "text", "graph"}
        How retrieved nodes become contexts (graph triplets become triples).
    background : bool
        When an event loop is running (``aquery``), run the check as a task in a
        worker thread instead of blocking the loop (default True); await
        :meth:`wait` to collect pending checks.
    max_records : int
        Verdicts kept (oldest dropped first).
    tracker : SpanParentTracker
        The span handler holding parent links; :meth:`register` adds it, and the
        handler adds it to the root dispatcher on its first event if missing.

    Notes
    -----
    Queries whose spans retrieved no nodes are not checked. A response that already
    carries ``metadata["guard_result"]`` (from :class:`GuardedQueryEngine`) is
    recorded without a second check. A streaming response is checked once the
    caller has consumed its generator.
    """

    guard: Any
    context_mode: ContextMode = "auto"
    background: bool = True
    max_records: int = Field(default=1000, ge=1)
    tracker: SpanParentTracker = Field(default_factory=SpanParentTracker)

    _groups: dict[str, _Group] = PrivateAttr(default_factory=dict)
    _query_spans: set[str] = PrivateAttr(default_factory=set)
    _records: OrderedDict[str, GuardRecord] = PrivateAttr(default_factory=OrderedDict)
    _pending: set[asyncio.Task[Any]] = PrivateAttr(default_factory=set)
    _lock: threading.RLock = PrivateAttr(default_factory=threading.RLock)

    def __init__(self, guard: Any = None, **data: Any) -> None:
        check_guard(guard, type(self).__name__)
        super().__init__(guard=guard, **data)  # type: ignore[call-arg]

    @classmethod
    def class_name(cls) -> str:
        """Class name."""
        return "GuardEventHandler"

    # ------------------------------------------------------------ registration
    def register(self, dispatcher: Any = None) -> GuardEventHandler:
        """Add this handler and its span tracker to ``dispatcher`` (default: the root one)."""
        d = dispatcher or get_dispatcher()
        if not any(h is self for h in d.event_handlers):  # identity: pydantic == compares fields
            d.add_event_handler(self)
        self._attach_tracker(d)
        return self

    def unregister(self, dispatcher: Any = None) -> None:
        """Remove this handler and its tracker from ``dispatcher`` (default: the root one)."""
        d = dispatcher or get_dispatcher()
        d.event_handlers = [h for h in d.event_handlers if h is not self]
        root = get_dispatcher()
        for disp in {id(d): d, id(root): root}.values():
            disp.span_handlers = [h for h in disp.span_handlers if h is not self.tracker]

    def _attach_tracker(self, dispatcher: Any = None) -> None:
        d = dispatcher or get_dispatcher()
        if not any(h is self.tracker for h in d.span_handlers):
            d.add_span_handler(self.tracker)

    # ---------------------------------------------------------------- results
    @property
    def records(self) -> dict[str, GuardRecord]:
        """Verdicts by root span id (a copy), oldest first."""
        with self._lock:
            return dict(self._records)

    @property
    def results(self) -> dict[str, GuardResult]:
        """Just the :class:`~guardrail.types.GuardResult` objects, by root span id."""
        return {k: r.result for k, r in self.records.items()}

    def get(self, span_id: str) -> Optional[GuardRecord]:
        """The record of the query whose root span is ``span_id``."""
        with self._lock:
            return self._records.get(span_id)

    def records_for(self, query: str) -> list[GuardRecord]:
        """Records of every checked query with this question text."""
        return [r for r in self.records.values() if r.query == query]

    def clear(self) -> None:
        """Forget all records."""
        with self._lock:
            self._records.clear()

    async def wait(self) -> None:
        """Wait for the checks running in the background (see ``background``)."""
        while True:
            with self._lock:
                pending = [t for t in self._pending if not t.done()]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)

    # ----------------------------------------------------------------- events
    def handle(self, event: BaseEvent, **kwargs: Any) -> None:
        """Collect retrieved nodes per query; check the answer when the query ends."""
        span_id = event.span_id
        if span_id is None:
            return
        if isinstance(event, QueryStartEvent):
            self._attach_tracker()
            with self._lock:
                self._query_spans.add(span_id)
        elif isinstance(event, RetrievalEndEvent):
            key = self._key(span_id)
            with self._lock:
                self._groups.setdefault(key, _Group()).nodes.extend(event.nodes)
        elif isinstance(event, SynthesizeEndEvent):
            key = self._key(span_id)
            if key not in self._query_spans:  # synthesizer used without a query engine
                self._finish(key, event.query, event.response)
        elif isinstance(event, QueryEndEvent):
            key = self._key(span_id)
            with self._lock:
                self._query_spans.discard(span_id)
            if key == span_id:  # the outermost query of this trace ended
                self._finish(key, event.query, event.response)
        elif isinstance(event, SpanDropEvent):
            with self._lock:
                self._groups.pop(span_id, None)
                self._query_spans.discard(span_id)

    def _key(self, span_id: str) -> str:
        """The outermost query span above ``span_id``, else its topmost known ancestor."""
        chain = [span_id]
        while len(chain) < _MAX_DEPTH:
            parent = self.tracker.parent(chain[-1])
            if parent is None:
                break
            chain.append(parent)
        with self._lock:
            queries = [s for s in chain if s in self._query_spans]
        return queries[-1] if queries else chain[-1]

    def _finish(self, key: str, query: Any, response: Any) -> None:
        with self._lock:
            group = self._groups.pop(key, None)
        if group is None or not group.nodes:
            return
        question = _query_str(query)
        contexts = contexts_from_nodes(group.nodes, self.context_mode)
        metadata = getattr(response, "metadata", None) or {}
        given = metadata.get("guard_result")
        if isinstance(given, GuardResult):
            self._store(GuardRecord(key, question, given.answer, contexts, given))
        elif isinstance(response, StreamingResponse) and response.response_txt is None:
            response.response_gen = self._watch(response.response_gen, key, question, contexts)
        elif isinstance(response, AsyncStreamingResponse) and response.response_txt is None:
            response.response_gen = self._awatch(response.response_gen, key, question, contexts)
        else:
            text = getattr(response, "response_txt", None) or getattr(response, "response", None)
            self._check(key, question, "" if text is None else str(text), contexts)

    def _watch(self, gen: Any, key: str, question: Optional[str], contexts: GuardContexts
               ) -> Generator[str, None, None]:
        parts: list[str] = []
        for token in gen:
            parts.append(token)
            yield token
        self._check(key, question, "".join(parts), contexts)

    async def _awatch(self, gen: Any, key: str, question: Optional[str], contexts: GuardContexts
                      ) -> AsyncGenerator[str, None]:
        parts: list[str] = []
        async for token in gen:
            parts.append(token)
            yield token
        self._check(key, question, "".join(parts), contexts)

    def _check(self, key: str, question: Optional[str], answer: str, contexts: GuardContexts) -> None:
        try:
            loop: Optional[asyncio.AbstractEventLoop] = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None and self.background:
            task = loop.create_task(self._acheck(key, question, answer, contexts))
            with self._lock:
                self._pending.add(task)
            task.add_done_callback(self._pending.discard)
            return
        try:
            result = self.guard.check(answer, contexts, question)
        except Exception:  # the dispatcher would swallow it silently
            _log.exception("guard check failed for span %s", key)
            return
        self._store(GuardRecord(key, question, answer, contexts, result))

    async def _acheck(self, key: str, question: Optional[str], answer: str, contexts: GuardContexts) -> None:
        try:
            result = await self.guard.acheck(answer, contexts, question)
        except Exception:
            _log.exception("guard check failed for span %s", key)
            return
        self._store(GuardRecord(key, question, answer, contexts, result))

    def _store(self, record: GuardRecord) -> None:
        with self._lock:
            self._records[record.span_id] = record
            while len(self._records) > self.max_records:
                self._records.popitem(last=False)
