"""One check, steps in call order: inputs -> graphs -> judge -> explain (private to the guard)."""

from __future__ import annotations

import time

from guardrail.check.explain import explain
from guardrail.check.graphs import graphs
from guardrail.check.inputs import Run, read
from guardrail.check.judge import judge
from guardrail.check.parts import Parts
from guardrail.config import GuardConfig
from guardrail.extract.given import ContextInput
from guardrail.types import GuardResult

__all__ = ["check_one"]


def check_one(parts: Parts, answer: str, contexts: ContextInput, question: str | None, *,
              id: str | None, cfg: GuardConfig) -> tuple[GuardResult, Run]:
    """The verdict on one input with ``cfg`` (nothing logged).

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
    item = graphs(parts, inputs, run)
    if isinstance(item, GuardResult):
        return item, run
    return explain(parts, judge(parts, item, cfg, run), run), run
