"""Step 1 of a check: the inputs, validated once (private to the guard).

:func:`read` type-checks the fields, applies the size limits to their lengths before anything
is copied, cleans the text and decides the early verdicts (too large, declined, unusable);
:class:`Run` carries what is known of the result so far and the stage timings.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from guardrail.config import GuardConfig
from guardrail.extract.given import ContextInput, split_context_input
from guardrail.text.declines import is_declined
from guardrail.text.markup import blank_markup
from guardrail.types import Explanation, GuardResult, KnowledgeGraph
from guardrail.validate import check_fields, clean_input, clean_text, size_reason, validate_input

__all__ = ["DECLINED_SUMMARY", "Inputs", "Run", "read", "ms"]

#: The explanation of a declined answer.
DECLINED_SUMMARY = "The answer declines to answer: it states no fact, so nothing is checked against the context."


def ms(t0: float) -> float:
    """Milliseconds since ``t0`` (a ``time.perf_counter()`` reading)."""
    return (time.perf_counter() - t0) * 1000.0


@dataclass
class Run:
    """One check in flight.

    Parameters
    ----------
    base : dict
        Result fields known before judging (answer, id, question, config, threshold).
    t_all : float
        ``time.perf_counter()`` at the start of the check.
    timings : dict of str to float
        Milliseconds per stage so far, in stage order.
    contexts : tuple of str
        The validated passages (what a log record hashes).
    """

    base: dict[str, Any]
    t_all: float
    timings: dict[str, float] = field(default_factory=dict)
    contexts: tuple[str, ...] = ()

    @contextmanager
    def timed(self, stage: str) -> Iterator[None]:
        """Time the block as ``stage`` (the timing is kept when the block returns)."""
        t0 = time.perf_counter()
        yield
        self.timings[stage] = ms(t0)

    def result(self, **fields: Any) -> GuardResult:
        """The result with ``fields``, the known fields, the timings and the total time."""
        return GuardResult(timings=self.timings, total_ms=ms(self.t_all), **self.base, **fields)

    def abstain(self, reason: str) -> GuardResult:
        """The result of an answer the guard could not judge (``abstained``, not passed, score 0.5)."""
        return self.result(passed=False, score=0.5, abstained=True, abstain_reason=reason)

    def declined(self, cfg: GuardConfig) -> GuardResult:
        """The result of an answer that declines as a whole: ``declined``, no flagged node, passed
        per ``cfg.declined_passes`` (score 0, or the threshold when a decline does not pass)."""
        passes = cfg.declined_passes
        return self.result(passed=passes, declined=True, score=0.0 if passes else cfg.threshold,
                           explanation=Explanation(summary=DECLINED_SUMMARY))


@dataclass(frozen=True)
class Inputs:
    """The validated inputs of one check.

    Parameters
    ----------
    answer : str
        The cleaned answer as the detectors read it: its Markdown, list and citation markup
        blanked (:func:`~guardrail.text.markup.blank_markup`, same length as the answer).
    contexts : tuple of str
        The cleaned non-empty passages.
    question : str or None
        The cleaned question.
    graph : KnowledgeGraph or None
        A context given as a graph (triples), else None.
    """

    answer: str
    contexts: tuple[str, ...]
    question: str | None
    graph: KnowledgeGraph | None


def _base(answer: str, question: str | None, id: str | None, cfg: GuardConfig) -> dict[str, Any]:
    return {"answer": answer, "id": id, "question": question, "config": cfg.name, "threshold": cfg.threshold}


def read(answer: str, contexts: ContextInput, question: str | None, id: str | None,
         cfg: GuardConfig, limits: dict[str, int]) -> tuple[Run, Inputs | GuardResult]:
    """Validate one input: the run, and the inputs or an early verdict.

    Parameters
    ----------
    answer, contexts, question, id
        As :meth:`guardrail.Guard.check` takes them.
    cfg : GuardConfig
        The config of the check (its limits judge the cleaned input).
    limits : dict of str to int
        The guard's size limits, applied to the raw lengths before any work.

    Returns
    -------
    (Run, Inputs or GuardResult)
        An abstention (too large, unusable) or a declined answer's result, else the inputs.

    Raises
    ------
    InvalidInputError
        A field of the wrong type.
    """
    t0 = time.perf_counter()
    check_fields(answer, question, id)  # the annotations are not trusted: callers pass anything
    too_big = size_reason(answer, contexts, **limits)
    if too_big:
        run = Run(_base(clean_text(answer), None if question is None else clean_text(question), id, cfg), t0)
        run.timings["validate"] = ms(t0)
        return run, run.abstain(too_big)
    texts, given_graph = split_context_input(contexts)
    if given_graph is None and cfg.size_limits == limits:  # these texts were just measured with these limits
        v = clean_input(answer, texts, question)
    else:  # texts made from a graph, or a config with limits of its own (a knowledge base's)
        v = validate_input(answer, texts, question, **cfg.size_limits)
    run = Run(_base(v.answer, v.question, id, cfg), t0, contexts=v.contexts)
    run.timings["validate"] = ms(t0)
    answer_read = blank_markup(v.answer)  # same length: spans into it are spans into the answer
    if answer_read.strip() and is_declined(answer_read):  # states no fact: nothing to judge
        return run, run.declined(cfg)
    if v.abstain_reason:
        return run, run.abstain(v.abstain_reason)
    return run, Inputs(answer_read, v.contexts, v.question, given_graph)
