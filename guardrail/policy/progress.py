"""When a refinement round counts as progress, and which answers are never refined.

A round is compared with the best round so far (the original answer to begin with):

* **worse** (rejected): it lost a supported claim (a word group of an answer sentence
  that held no flagged node is gone), or it has more flagged nodes (unless it is better
  by score as below);
* **better** (accepted): not worse, and it passes; or it has fewer flagged nodes and a score
  no higher than the best's (the guard's own verdict does not get worse: a repair that deleted
  a falsely flagged sentence and left the answer scored higher is no progress); or it has a
  lower score and none of its flagged nodes stands in a sentence it changed
  (:func:`fresh_flags`): what it rewrote is no longer flagged, and what is still flagged is
  text the best round already had. A correct evidence repair of a flagged value ("£2.3
  million" -> "£3.2 million") can leave the answer just over the threshold with a weak flag
  on an untouched sentence that was not flagged before; counting nodes called it worse and
  the loop went on from (and fell back on) the answer with the wrong value;
* otherwise **no progress**: the same number of flagged nodes (the same error, or
  another one in its place).

The last round accepted is therefore also the best-scored one of those that changed nothing
the guard still flags; the loop delivers it (or the fallback applied to it), never merely
the last round.

A round that would be better is still rejected as **unsupported** when one of its
corrections is not stated by the evidence sentence its feedback quoted
(:func:`~guardrail.policy.acceptance.check_corrections`): the loop then goes on from the
best round, telling the LLM what was rejected. It stops at the first round that is worse
or no progress, and at once when an answer repeats an earlier one (see
:class:`~guardrail.policy.refine.Refiner`). :func:`is_declined` is
:func:`guardrail.text.declines.is_declined`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from guardrail.policy.acceptance import Acceptance
from guardrail.policy.policies import PolicyOutcome
from guardrail.text.declines import is_declined
from guardrail.text.sentences import split_sentences
from guardrail.types import GuardResult, RefinementRound

__all__ = ["LoopState", "make_round", "Verdict", "compare_rounds", "fresh_flags", "supported_phrases", "lost_phrases", "is_declined", "same_answer"]

Verdict = Literal["better", "worse", "no_progress", "unsupported"]

_WORD = re.compile(r"\w+")


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


def same_answer(a: str, b: str) -> bool:
    """Whether two answers are the same up to case, punctuation and white space."""
    return _norm(a) == _norm(b)


def supported_phrases(result: GuardResult) -> list[str]:
    """Node texts of the answer sentences that hold no flagged node (its supported claims)."""
    answer = result.answer
    flagged = [(n.span.start, n.span.end) for n in result.flagged_nodes if n.span is not None]
    bad = [(a, b) for a, b in split_sentences(answer) if any(a <= s < b for s, _ in flagged)]
    out = []
    for node in result.claim_graph.nodes:
        sp = node.span
        if sp is None or sp.source != -1 or any(a <= sp.start < b for a, b in bad):
            continue
        if len(_norm(node.text)) >= 2:
            out.append(node.text)
    return out


def lost_phrases(before: GuardResult, after: str) -> list[str]:
    """The supported phrases of ``before`` that ``after`` no longer contains."""
    text = f" {_norm(after)} "
    return [p for p in supported_phrases(before) if f" {_norm(p)} " not in text]


def fresh_flags(best_answer: str, new: GuardResult) -> list[str]:
    """Flagged node texts of ``new`` that stand in a sentence ``best_answer`` does not have
    (compared up to case, punctuation and white space): the flags on what the round wrote."""
    old = {_norm(best_answer[a:b]) for a, b in split_sentences(best_answer)}
    spans = [(a, b) for a, b in split_sentences(new.answer) if _norm(new.answer[a:b]) not in old]
    return [n.text for n in new.flagged_nodes
            if n.span is None or any(a <= n.span.start < b for a, b in spans)]


def compare_rounds(best: GuardResult, new: GuardResult) -> tuple[Verdict, list[str]]:
    """Judge ``new`` against ``best``; returns the verdict and the lost phrases (module docstring)."""
    lost = lost_phrases(best, new.answer)
    if lost or new.abstained and not best.abstained:
        return "worse", lost
    fewer = len(new.flagged_nodes) < len(best.flagged_nodes) and new.score <= best.score
    if new.passed or fewer or (new.score < best.score and not fresh_flags(best.answer, new)):
        return "better", lost
    if len(new.flagged_nodes) > len(best.flagged_nodes):
        return "worse", lost
    return "no_progress", lost


def make_round(i: int, answer: str, result: GuardResult, feedback: str) -> RefinementRound:
    """The history entry of round ``i``."""
    return RefinementRound(round=i, answer=answer, score=result.score, passed=result.passed,
                           flagged=tuple(n.text for n in result.flagged_nodes), feedback=feedback)


@dataclass
class LoopState:
    """The refinement loop's memory: the best round so far, every round, why it stopped.

    ``problems`` holds why the last round's corrections were rejected (``unsupported``);
    empty when the last round was not. ``seen`` holds ``(round, answer, verdict)`` of the
    original answer and of every round whose corrections were accepted (rejected rounds too,
    when rejected as worse or no progress, not as unsupported): what the ``filter`` fallback
    may salvage (:mod:`guardrail.policy.salvage`)."""

    original: str
    best: GuardResult
    history: list[RefinementRound]
    t0: float
    stop: str = ""
    rejected: list[int] = field(default_factory=list)
    best_answer: str = ""
    problems: tuple[str, ...] = ()
    seen: list[tuple[int, str, GuardResult]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.best_answer = self.best_answer or self.original
        if not self.seen:
            self.seen.append((0, self.original, self.best))

    def step(self, i: int, answer: str, result: GuardResult, acceptance: Acceptance | None = None) -> Verdict:
        """Record round ``i``; accept it as the best, or set :attr:`stop`; returns its verdict.

        A better round whose ``acceptance`` is not accepted is rejected as ``unsupported``:
        the loop goes on from the best round (:attr:`problems` says why), unless the answer
        repeats an earlier one.
        """
        repeated = any(same_answer(answer, h.answer) for h in self.history)
        verdict, _ = compare_rounds(self.best, result)
        if verdict == "better" and acceptance is not None and not acceptance.accepted:
            verdict = "unsupported"
        self.history.append(make_round(i, answer, result, ""))
        if acceptance is None or acceptance.accepted:
            self.seen.append((i, answer, result))
        self.problems = acceptance.problems if acceptance is not None and verdict == "unsupported" else ()
        if verdict == "better" and not repeated:
            self.best, self.best_answer = result, answer
            self.stop = "passed" if result.passed else ""
            return verdict
        if verdict in ("worse", "unsupported"):
            self.rejected.append(i)
        self.stop = "repeated" if repeated else "" if verdict == "unsupported" else verdict
        return verdict

    def finish(self, action: str) -> PolicyOutcome:
        """The outcome with the best answer and the full history."""
        final = self.best.model_copy(update={"history": tuple(self.history)})
        return PolicyOutcome(self.best_answer, final, action, self.original,  # type: ignore[arg-type]
                             stop_reason=self.stop or action, rejected_rounds=tuple(self.rejected))
