"""The :class:`Guard`: one call from (answer, contexts, question) to a :class:`GuardResult`.

Pipeline (see the papers in the project brief): validate -> extract the claim graph
and the per-passage context graphs (cached) -> run the detectors -> aggregate their
scores -> flag answer nodes below the node threshold -> explain -> log.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from guardrail import prefetch
from guardrail._guard_args import (
    check_detectors,
    check_items,
    check_log,
    check_sizes,
    fit_config,
    kb_switch,
    resolve_configs,
)
from guardrail.align.encoder import TextEncoder, shared_encoder
from guardrail.config import GuardConfig
from guardrail.detectors import AlignmentInput, Detector, build_detectors, check_params
from guardrail.errors import BatchError, InvalidInputError
from guardrail.explain.base import Explainer
from guardrail.extract.base import Extractor
from guardrail.extract.cache import CACHE_MAX_CHARS, PassageCache, check_fields, windows
from guardrail.extract.given import ContextInput, split_context_input
from guardrail.flag import abstain, declined, with_source
from guardrail.log.records import FlaggedRecord, UnloggedRecords
from guardrail.log.sinks import open_sinks
from guardrail.text.declines import is_declined
from guardrail.types import GuardResult, KnowledgeGraph
from guardrail.validate import clean_text, size_reason, validate_input

__all__ = ["Guard"]

_log = logging.getLogger("guardrail")


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000.0


class Guard:
    """Post-generation hallucination guard.

    Parameters
    ----------
    config : GuardConfig, str, Path or "auto"
        ``"auto"`` (default) or ``"default"``: the shipped calibrated config (claim
        verifier, one threshold for every kind of input); a path to a JSON config, or a
        config object.
    extractor : Extractor or None
        Triple extractor; default the config's ``extractor`` (spaCy, or an
        :class:`~guardrail.extract.llm_extractor.LLMExtractor` at its ``llm_base_url``).
    detectors : sequence of Detector or None
        Overrides the detectors named by the config: the config is fitted to them
        (:func:`guardrail._guard_args.fit_config`: their names become its detectors, weights,
        vetoes and ``node_source`` of other detectors are dropped, its thresholds kept), so
        ``Guard(detectors=build_detectors(["kg_guard"], {}))`` scores with KG-Guard alone.
        A ``logistic`` config must weigh at least one of them.
    encoder : TextEncoder or None
        Sentence encoder; default the process-wide MiniLM encoder.
    explainer : Explainer or None
        Default the KEA Explain explainer.
    log : LogSink, path, or sequence of them, or None
        Where flagged answers are written (``.jsonl`` or ``.sqlite``/``.db`` paths).
    context_cache_size : int
        Number of passage graphs kept, so the same retrieved passage is parsed once.
    context_cache_chars : int
        Most passage characters whose graphs are kept (default 2,000,000, 150 to 250 MB of
        graphs): memory stays bounded however long the passages are.
    threads : int or None
        Intra-op threads of the ONNX models, for the whole process (the models are
        shared); ``None`` keeps ``KG_GUARDRAIL_THREADS`` or the default ``min(2, cores)``
        (see :mod:`guardrail.models.runtime`).
    kb, kb_profile : str, Path, KnowledgeBase or None; "rdfs", "wikidata" or None
        A knowledge base to check against (an RDF file, an http(s) SPARQL endpoint, a
        :class:`~guardrail.kb.KnowledgeBase`; default the config's) and its vocabulary: contexts
        become optional and a flagged node names the KB triple it contradicts (:mod:`guardrail.kb.switch`).

    Raises
    ------
    ConfigError
        The config cannot be loaded, gives a registered detector a parameter it does not
        take or a value it rejects, or sets ``extractor: "llm"`` without an endpoint.
    InvalidInputError
        An argument has the wrong type (``config=None``, ``log=123``, ``detectors`` that are
        not :class:`~guardrail.detectors.Detector` instances, a size that is not an int), ``log``
        names a path whose format cannot be told from its suffix (``.jsonl``, ``.json``,
        ``.sqlite``, ``.sqlite3``, ``.db``), ``context_cache_size < 0``, or a bad ``kb``
        (another type, a missing file, an unknown suffix or URL scheme).
    KnowledgeBaseError
        The ``kb`` file is not valid RDF.

    Examples
    --------
    >>> guard = Guard()                                    # doctest: +SKIP
    >>> r = guard.check("Paris is in Spain.", ["Paris is the capital of France."])  # doctest: +SKIP
    >>> r.passed, [n.text for n in r.flagged_nodes]       # doctest: +SKIP
    (False, ['Spain'])
    """

    #: Default bound of :attr:`unlogged` (records kept when no sink accepts them).
    unlogged_limit: int = 10_000

    def __init__(
        self,
        config: GuardConfig | str | Path = "auto",
        *,
        extractor: Extractor | None = None,
        detectors: Sequence[Detector] | None = None,
        encoder: TextEncoder | None = None,
        explainer: Explainer | None = None,
        log: Any = None,
        context_cache_size: int = 1024,
        context_cache_chars: int = CACHE_MAX_CHARS,
        threads: int | None = None,
        kb: Any = None,
        kb_profile: Any = None,
    ) -> None:
        check_sizes(context_cache_size=context_cache_size, context_cache_chars=context_cache_chars)
        check_log(log)
        self._custom_detectors = check_detectors(detectors)
        if threads is not None:
            from guardrail.models.runtime import set_threads

            set_threads(threads)
        self._configs = resolve_configs(config)
        self._kb = kb_switch(kb, kb_profile, self.config)
        if self._kb is not None and self._custom_detectors is not None:
            from guardrail.kb.switch import with_kb_detector

            self._custom_detectors = with_kb_detector(self._custom_detectors)
        if self._custom_detectors is None:
            check_params(self._configs.values())
        else:
            names = [d.name for d in self._custom_detectors]
            self._configs = {k: fit_config(c, names) for k, c in self._configs.items()}
        self._detectors: dict[str, list[Detector]] = {}
        self._lock = threading.RLock()
        self._extractor = extractor
        if extractor is None and self.config.extractor != "spacy":  # fail now, not at the first check
            from guardrail.extract.llm_extractor import extractor_for

            self._extractor = extractor_for(self.config)
        self._encoder = encoder
        self._explainer = explainer
        self._sinks = open_sinks(log)
        self._cache = PassageCache(context_cache_size, self._lock, context_cache_chars)
        #: Records that no sink accepted, oldest first: at most ``Guard.unlogged_limit``;
        #: beyond that the oldest is dropped, counted in ``unlogged.dropped`` and logged
        #: at ERROR (``guard.unlogged = UnloggedRecords(maxlen=n)`` sets another bound).
        self.unlogged = UnloggedRecords(maxlen=self.unlogged_limit)

    # ------------------------------------------------------------------ parts
    @property
    def extractor(self) -> Extractor:
        """The triple extractor (the config's ``extractor``: spaCy by default; created on first use)."""
        if self._extractor is None:
            from guardrail.extract.llm_extractor import extractor_for

            self._extractor = extractor_for(self.config)
        return self._extractor

    @property
    def encoder(self) -> TextEncoder:
        """The shared sentence encoder."""
        if self._encoder is None:
            self._encoder = shared_encoder()
        return self._encoder

    @property
    def explainer(self) -> Explainer:
        """The explainer (KEA Explain by default)."""
        if self._explainer is None:
            from guardrail.explain.kea import KEAExplainer

            self._explainer = KEAExplainer()
        return self._explainer

    @property
    def kb(self) -> Any:
        """The :class:`~guardrail.kb.switch.KBSwitch` (knowledge base, profile), or None."""
        return self._kb

    def with_kb(self, kb: Any, profile: Any = None) -> Guard:
        """A copy of this guard checking against ``kb`` (as ``Guard(kb=...)``; ``None``: no KB),
        sharing its models, caches and log sinks; a bad ``kb`` raises InvalidInputError."""
        from guardrail.kb.switch import attach

        return attach(self, kb, profile)

    @property
    def configs(self) -> dict[str, GuardConfig]:
        """The configs this guard may use, by name."""
        return dict(self._configs)

    @property
    def config(self) -> GuardConfig:
        """The config every input is checked with (one threshold for every kind of input)."""
        return next(iter(self._configs.values()))

    def detectors_for(self, config: GuardConfig) -> list[Detector]:
        """The detector instances of ``config`` (built once per config)."""
        if self._custom_detectors is not None:
            return self._custom_detectors
        with self._lock:
            if config.name not in self._detectors:
                names = list(config.detectors) + [v for v in config.veto if v not in config.detectors]
                self._detectors[config.name] = build_detectors(names, dict(config.detector_params))
            return self._detectors[config.name]

    def warm_up(self) -> Guard:
        """Load the models now (spaCy, the MiniLM encoder, the claim verifier: about 1 s)
        instead of on the first check, by checking one tiny answer (not logged).

        Call it once at service start-up, before the first request; returns ``self``."""
        self.extractor.extract("Warm up the parser.")
        self.encoder.encode(["warm up"])
        self.check("The guard was warmed up in 2026.", ["The guard was warmed up in 2026 by its owner."],
                   "When was the guard warmed up?", log=False)
        return self

    # ------------------------------------------------------------- extraction
    def _limits(self) -> dict[str, int]:
        """The loosest size limits of this guard's configs (checked before any work)."""
        cfgs = list(self._configs.values())
        return {
            "max_context_chars": max(c.max_context_chars for c in cfgs),
            "max_answer_chars": max(c.max_answer_chars for c in cfgs),
            "max_passages": max(c.max_passages for c in cfgs),
            "max_claims": max(c.max_claims for c in cfgs),
        }

    def _passage_graphs(self, texts: Sequence[str]) -> list[KnowledgeGraph]:
        """Source-0 graphs of ``texts``: cached ones reused, the rest parsed in one batch."""
        return self._cache.graphs(texts, self.extractor)

    def context_graph(self, contexts: Sequence[str]) -> KnowledgeGraph:
        """Merged graph of ``contexts`` (passage graphs come from the cache when seen before;
        the others are parsed together in one ``extract_many`` batch)."""
        graphs = self._passage_graphs(list(contexts))
        return KnowledgeGraph.merge([g if i == 0 else with_source(g, i) for i, g in enumerate(graphs)])

    # ------------------------------------------------------------------ check
    def check(
        self,
        answer: str,
        contexts: ContextInput | None = None,
        question: str | None = None,
        *,
        id: str | None = None,
        log: bool = True,
    ) -> GuardResult:
        """Judge whether ``answer`` is supported by ``contexts``.

        Parameters
        ----------
        answer : str
            The generated answer.
        contexts : str, sequence of str, KnowledgeGraph, sequence of (s, r, o), or None
            Retrieved passages, or a context that already is a graph (triples); optional
            (``None`` or ``[]``) when the guard has a knowledge base (``kb=``).
        question : str or None
            The user question; entities it names are not held against the answer.
        id : str or None
            Carried into the result and the log.
        log : bool
            Write a flagged or abstained result to the log sinks (default True; the
            refinement loop logs its rounds itself).

        Returns
        -------
        GuardResult
            ``passed``, ``score`` in [0, 1], flagged nodes with spans, explanation, timings.
            Unusable input gives ``abstained=True`` with a reason (and ``passed=False``).

        Raises
        ------
        InvalidInputError
            A field of the wrong type (checked before any work is done), or no
            ``contexts`` and no knowledge base.
        KnowledgeBaseError
            The knowledge base failed (``exc.answer`` holds the answer).

        Notes
        -----
        The size limits (``max_answer_chars``, ``max_context_chars``, ``max_passages``,
        ``max_claims``) are applied to the lengths of the inputs before anything is copied, split or
        parsed; an input over them gets an abstain.
        """
        if self._kb is not None:
            return self._kb.check(self, answer, contexts, question, id=id, log=log)  # type: ignore[no-any-return]
        if contexts is None:
            raise InvalidInputError("contexts are required: pass the retrieved passages, or give the guard a "
                                    "knowledge base (Guard(kb=...))")
        return self._check(answer, contexts, question, id=id, log=log, cfg=self.config)

    def _check(self, answer: str, contexts: ContextInput, question: str | None, *, id: str | None,
               log: bool, cfg: GuardConfig) -> GuardResult:
        t_all = time.perf_counter()
        timings: dict[str, float] = {}
        t0 = time.perf_counter()
        check_fields(answer, question, id)
        too_big = size_reason(answer, contexts, **self._limits())
        if too_big:
            base = {"answer": clean_text(answer), "id": id, "config": cfg.name, "threshold": cfg.threshold,
                    "question": None if question is None else clean_text(question)}
            timings["validate"] = _ms(t0)
            return self._finish(abstain(base, too_big, timings, t_all), (), log)
        texts, given_graph = split_context_input(contexts)
        v = validate_input(
            answer, texts, question,
            max_context_chars=cfg.max_context_chars, max_answer_chars=cfg.max_answer_chars,
            max_passages=cfg.max_passages, max_claims=cfg.max_claims,
        )
        timings["validate"] = _ms(t0)
        base = {"answer": v.answer, "id": id, "question": v.question, "config": cfg.name,
                "threshold": cfg.threshold}
        if v.answer and is_declined(v.answer):  # states no fact: nothing to judge
            return self._finish(declined(base, cfg, timings, t_all), v.contexts, log)
        if v.abstain_reason:
            return self._finish(abstain(base, v.abstain_reason, timings, t_all), v.contexts, log)
        t0 = time.perf_counter()
        claim = self.extractor.extract(v.answer, source=-1)
        timings["extract_answer"] = _ms(t0)
        t0 = time.perf_counter()
        ctx_graph = given_graph if given_graph is not None else self.context_graph(v.contexts)
        timings["extract_context"] = _ms(t0)
        if claim.is_empty:
            return self._finish(abstain(base, "nothing extracted from the answer", timings, t_all), v.contexts, log)
        if ctx_graph.is_empty:
            return self._finish(abstain(base, "nothing extracted from the context", timings, t_all), v.contexts, log)
        item = AlignmentInput(v.answer, v.contexts, v.question, claim, ctx_graph, self.encoder)
        return self._finish(self._judge(item, cfg, base, timings, t_all), v.contexts, log)

    def _judge(self, item: AlignmentInput, cfg: GuardConfig, base: dict[str, Any], timings: dict[str, float],
               t_all: float) -> GuardResult:
        from guardrail.judge import judge  # detectors, aggregation, flagged nodes, explanation

        return judge(self, item, cfg, base, timings, t_all)

    def _finish(self, result: GuardResult, contexts: Sequence[str], log: bool) -> GuardResult:
        if log and (not result.passed or result.declined):  # a declined record keeps its event
            self.log_result(result, contexts)
        return result

    def log_result(
        self, result: GuardResult, contexts: Sequence[str], *, event: str = "flagged",
        round: int | None = None,
    ) -> None:
        """Write ``result`` to every log sink; a sink failure keeps the record in :attr:`unlogged`.

        :attr:`unlogged` is bounded: when it is full, its oldest record is dropped,
        counted in ``unlogged.dropped`` and reported at ERROR level.
        """
        if not self._sinks:
            return
        from guardrail.log.sinks import FlaggedRecord

        self.log_record(FlaggedRecord.from_result(result, contexts, event=event, round=round))

    def log_record(self, record: FlaggedRecord) -> bool:
        """Write a built ``record`` to every log sink (the one sink loop: policies use it too).

        Parameters
        ----------
        record : FlaggedRecord
            The record, e.g. with a policy's ``action`` and ``delivered_answer``.

        Returns
        -------
        bool
            ``True`` when every sink took it (or there is none); else the record is kept in
            :attr:`unlogged` and each failure was logged once at ERROR level.
        """
        from guardrail.log.sinks import write_to_sinks

        if not self._sinks or write_to_sinks(self._sinks, record):
            return True
        self.unlogged.keep(record)
        return False

    def check_many(
        self, items: Iterable[Mapping[str, Any]]
    ) -> list[GuardResult]:
        """Check a batch of ``{"answer", "contexts"|"context", "question"?, "id"?}`` mappings.

        Passages are parsed in one ``extract_many`` pass and cached, so a passage shared
        by several items is parsed once; the encoder and its cache are shared.

        Returns
        -------
        list of GuardResult
            Same order as ``items``.

        Raises
        ------
        InvalidInputError
            ``items`` is not an iterable of mappings, or an item lacks ``answer`` or has a
            field of the wrong type (the message names the item's index); raised before any
            item is judged, so nothing is logged twice when the caller fixes the batch and
            retries.
        BatchError
            An item failed while it was judged (a model error, a bug): ``exc.results`` holds
            the results of the items before it, which are logged already, and ``exc.index``
            the failed item's position, so the caller goes on after it without judging or
            logging those items again.

        Notes
        -----
        Items are judged in windows of about :data:`PREFETCH_WINDOW_CHARS` context
        characters: each window's new passages are parsed in one batch, so memory stays
        bounded however long the batch is. Items over the size limits are not parsed.
        """
        rows = check_items(items, self._limits())  # all type errors surface before any item is judged
        out: list[GuardResult] = []
        for window in windows(rows):
            prefetch.passages(self, [r.get("contexts", r.get("context")) for r in window])
            prefetch.claims(self, window)
            for r in window:
                try:
                    out.append(self.check(r["answer"], r.get("contexts", r.get("context", [])),
                                          r.get("question"), id=r.get("id")))
                except Exception as exc:  # any failure: hand back what was judged (and logged) so far
                    raise BatchError(len(out), out, exc) from exc
        return out

    async def acheck(
        self, answer: str, contexts: ContextInput | None = None, question: str | None = None,
        *, id: str | None = None, log: bool = True,
    ) -> GuardResult:
        """Async :meth:`check`: the CPU-bound work runs in a worker thread."""
        return await asyncio.to_thread(self.check, answer, contexts, question, id=id, log=log)

    async def acheck_many(self, items: Iterable[Mapping[str, Any]]) -> list[GuardResult]:
        """Async :meth:`check_many` (one worker thread for the whole batch; same errors)."""
        return await asyncio.to_thread(self.check_many, items)
