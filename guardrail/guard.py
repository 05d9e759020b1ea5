"""The :class:`Guard`: one call from (answer, contexts, question) to a :class:`GuardResult`.

A façade over :mod:`guardrail.check`, whose modules run in call order: validate the inputs
-> extract the claim graph and the per-passage context graphs (cached) -> run the detectors,
aggregate their scores, flag answer nodes below the node threshold -> explain; then log.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from guardrail import check as steps
from guardrail.align.encoder import TextEncoder
from guardrail.check import docs
from guardrail.config import GuardConfig
from guardrail.detectors import Detector
from guardrail.errors import InvalidInputError
from guardrail.explain.base import Explainer
from guardrail.extract.base import Extractor
from guardrail.extract.cache import CACHE_MAX_CHARS
from guardrail.extract.given import ContextInput
from guardrail.log.records import FlaggedRecord, UnloggedRecords
from guardrail.types import GuardResult, KnowledgeGraph

__all__ = ["Guard"]


@docs.details(docs.GUARD)
class Guard:
    """Post-generation hallucination guard.

    Parameters, raises and examples: :mod:`guardrail.check.docs` (appended here at import)."""

    #: Default bound of :attr:`unlogged` (records kept when no sink accepts them).
    unlogged_limit: int = 10_000
    #: Steps 3 and 4 replaced, ``(item, cfg, run) -> GuardResult`` (a seam for tests: a subclass
    #: defines ``_judge`` to judge without models, the rest of the check stays real); ``None``:
    #: :func:`guardrail.check.judged`.
    _judge: steps.Judge | None = None

    def __init__(
        self, config: GuardConfig | str | Path = "auto", *, extractor: Extractor | None = None,
        detectors: Sequence[Detector] | None = None, encoder: TextEncoder | None = None,
        explainer: Explainer | None = None, log: Any = None, context_cache_size: int = 1024,
        context_cache_chars: int = CACHE_MAX_CHARS, threads: int | None = None, kb: Any = None,
        kb_profile: Any = None,
    ) -> None:
        if threads is not None:
            from guardrail.models.runtime import set_threads

            set_threads(threads)
        self._parts = steps.make_parts(
            config, extractor=extractor, detectors=detectors, encoder=encoder, explainer=explainer, log=log,
            sizes=(context_cache_size, context_cache_chars), kb=kb, kb_profile=kb_profile)
        #: Records that no sink accepted, oldest first: at most ``Guard.unlogged_limit``;
        #: beyond that the oldest is dropped, counted in ``unlogged.dropped`` and logged
        #: at ERROR (``guard.unlogged = UnloggedRecords(maxlen=n)`` sets another bound).
        self.unlogged = UnloggedRecords(maxlen=self.unlogged_limit)

    # ------------------------------------------------------------------ parts
    @property
    def extractor(self) -> Extractor:
        """The triple extractor (the config's ``extractor``: spaCy by default; created on first use)."""
        return self._parts.extractor.get()

    @property
    def encoder(self) -> TextEncoder:
        """The shared sentence encoder."""
        return self._parts.encoder.get()

    @property
    def explainer(self) -> Explainer:
        """The explainer (KEA Explain by default)."""
        return self._parts.explainer.get()

    @property
    def kb(self) -> Any:
        """The :class:`~guardrail.kb.switch.KBSwitch` (knowledge base, profile), or None."""
        return self._parts.kb

    def with_kb(self, kb: Any, profile: Any = None) -> Guard:
        """A copy of this guard checking against ``kb`` (as ``Guard(kb=...)``; ``None``: no KB),
        sharing its models, caches and log sinks; a bad ``kb`` raises InvalidInputError."""
        new = copy.copy(self)
        new._parts = self._parts.with_kb(kb, profile)
        return new

    @property
    def configs(self) -> dict[str, GuardConfig]:
        """The configs this guard may use, by name (its one config)."""
        return {self.config.name: self.config}

    @property
    def config(self) -> GuardConfig:
        """The config every input is checked with (one threshold for every kind of input)."""
        return self._parts.config

    def detectors_for(self, config: GuardConfig) -> list[Detector]:
        """The detector instances of ``config`` (built once per config)."""
        return self._parts.detectors_for(config)

    def warm_up(self) -> Guard:
        """Load the models now (spaCy, the MiniLM encoder, the claim verifier: about 1 s)
        instead of on the first check, by checking one tiny answer (not logged).

        Call it once at service start-up, before the first request; returns ``self``."""
        self.extractor.extract("Warm up the parser.")
        self.encoder.encode(["warm up"])
        self.check("The guard was warmed up in 2026.", ["The guard was warmed up in 2026 by its owner."],
                   "When was the guard warmed up?", log=False)
        return self

    def context_graph(self, contexts: Sequence[str]) -> KnowledgeGraph:
        """Merged graph of ``contexts`` (passage graphs come from the cache when seen before;
        the others are parsed together in one ``extract_many`` batch)."""
        return steps.context_graph(self._parts, contexts)

    # ------------------------------------------------------------------ check
    @docs.details(docs.CHECK)
    def check(
        self, answer: str, contexts: ContextInput | None = None, question: str | None = None, *,
        id: str | None = None, log: bool = True,
    ) -> GuardResult:
        """Judge whether ``answer`` is supported by ``contexts``.

        Parameters, returns and raises: :mod:`guardrail.check.docs` (appended here at import)."""
        if self._parts.kb is not None:
            return self._parts.kb.check(self, answer, contexts, question, id=id, log=log)  # type: ignore[no-any-return]
        if contexts is None:
            raise InvalidInputError("contexts are required: pass the retrieved passages, or give the guard a "
                                    "knowledge base (Guard(kb=...))")
        return self._check(answer, contexts, question, id=id, log=log, cfg=self.config)

    def _check(self, answer: str, contexts: ContextInput, question: str | None, *, id: str | None,
               log: bool, cfg: GuardConfig) -> GuardResult:
        """One check with ``cfg`` (the knowledge-base switch checks with its own config)."""
        result, run = steps.check_one(self._parts, answer, contexts, question, id=id, cfg=cfg,
                                       judge_with=self._judge)
        return self._finish(result, run.contexts, log)

    def _finish(self, result: GuardResult, contexts: Sequence[str], log: bool) -> GuardResult:
        if log and (not result.passed or result.declined):  # a declined record keeps its event
            self.log_result(result, contexts)
        return result

    def log_result(self, result: GuardResult, contexts: Sequence[str], *, event: str = "flagged",
                   round: int | None = None) -> None:
        """Write ``result`` to every log sink; a sink failure keeps the record in :attr:`unlogged`.

        :attr:`unlogged` is bounded: when it is full, its oldest record is dropped,
        counted in ``unlogged.dropped`` and reported at ERROR level.
        """
        if self._parts.sinks:
            self.log_record(FlaggedRecord.from_result(result, contexts, event=event, round=round))

    @docs.details(docs.LOG_RECORD)
    def log_record(self, record: FlaggedRecord) -> bool:
        """Write a built ``record`` to every log sink (the one sink loop: policies use it too).

        Parameters, returns and raises: :mod:`guardrail.check.docs` (appended here at import)."""
        from guardrail.log.sinks import write_to_sinks

        if not self._parts.sinks or write_to_sinks(list(self._parts.sinks), record):
            return True
        self.unlogged.keep(record)
        return False

    @docs.details(docs.CHECK_MANY)
    def check_many(self, items: Iterable[Mapping[str, Any]]) -> list[GuardResult]:
        """Check a batch of ``{"answer", "contexts"|"context", "question"?, "id"?}`` mappings.

        Parameters, returns and raises: :mod:`guardrail.check.docs` (appended here at import)."""
        return steps.check_many(self._parts, self.check, items)

    async def acheck(
        self, answer: str, contexts: ContextInput | None = None, question: str | None = None,
        *, id: str | None = None, log: bool = True,
    ) -> GuardResult:
        """Async :meth:`check`: the CPU-bound work runs in a worker thread."""
        return await asyncio.to_thread(self.check, answer, contexts, question, id=id, log=log)

    async def acheck_many(self, items: Iterable[Mapping[str, Any]]) -> list[GuardResult]:
        """Async :meth:`check_many` (one worker thread for the whole batch; same errors)."""
        return await asyncio.to_thread(self.check_many, items)
