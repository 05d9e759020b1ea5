"""One check, steps in call order: inputs -> graphs -> judge -> explain (private to the guard)."""

from __future__ import annotations

import time
from collections.abc import Callable

from guardrail.check.explain import explain
from guardrail.check.graphs import graphs
from guardrail.check.inputs import Run, read
from guardrail.check.judge import judge
from guardrail.check.parts import Parts
from guardrail.config import GuardConfig
from guardrail.detectors import AlignmentInput
from guardrail.extract.given import ContextInput
from guardrail.types import GuardResult

__all__ = ["Judge", "judged", "check_one"]

#: Steps 3 and 4 (``(item, cfg, run) -> result``): :func:`judged`, or a stand-in in tests.
Judge = Callable[[AlignmentInput, GuardConfig, Run], GuardResult]


def judged(parts: Parts, item: AlignmentInput, cfg: GuardConfig, run: Run) -> GuardResult:
    """Steps 3 and 4 on an extracted input: the detectors' verdict, explained."""
    return explain(parts, judge(parts, item, cfg, run), run)


def check_one(parts: Parts, answer: str, contexts: ContextInput, question: str | None, *,
              id: str | None, cfg: GuardConfig, judge_with: Judge | None = None) -> tuple[GuardResult, Run]:
    """The verdict on one input with ``cfg`` (nothing logged); ``judge_with`` replaces steps 3
    and 4 (default :func:`judged`).

    Returns
    -------
    (GuardResult, Run)
        The result, and the run (its ``contexts`` are what a log record hashes).

    Raises
    ------
    InvalidInputError
        A field of the wrong type, before any work.
    """
    t_all = time.perf_counter()
    run, inputs = read(answer, contexts, question, id, cfg, parts.config.size_limits)
    run.t_all = t_all
    if isinstance(inputs, GuardResult):
        return inputs, run
    parse_q = judge_with is None and any(d.needs_question_graph for d in parts.detectors_for(cfg))
    item = graphs(parts, inputs, run, question=parse_q)
    if isinstance(item, GuardResult):
        return item, run
    if judge_with is not None:
        return judge_with(item, cfg, run), run
    return judged(parts, item, cfg, run), run
