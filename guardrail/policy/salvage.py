"""The ``filter`` fallback of a refinement loop that ended flagged: the best answer seen, cut.

When the loop stops without a passing answer (``repeated``, ``worse``, ``no_progress``,
``unsupported``, ``time_budget``, ``max_iterations``), refusing throws away every right fact
of the answer: on the refinement benchmark most answers counted as broken were refusals after
such a stop, two of them faithful answers the guard had flagged. :func:`salvage_rounds`
therefore delivers the best answer seen with its flagged clauses or sentences cut, and refuses
only when no such cut passes.

**Candidates** (:func:`candidates`) are the original answer and every round whose corrections
were accepted (:attr:`~guardrail.policy.progress.LoopState.seen`): a round rejected as
``unsupported`` (a replacement its evidence does not state, or a value neither the answer nor
the context states) is never salvaged, while a round rejected as worse or no progress may be.
Abstained verdicts and repeated answers are left out.

**Best** means, in this order: the fewest supported claims of the original lost
(:func:`~guardrail.policy.progress.lost_phrases`: a round that dropped a right claim comes
after the answers that kept it, so a passing round that lost one is delivered only when
nothing better is left); the fewest flagged nodes; the lowest score (the guard's
hallucination score: the best supported); the earliest round.

**Cuts** (:func:`salvage_cuts`) of a candidate, tried in order: the candidate itself when the
guard passed it; the clause holding each flagged node cut
(:func:`~guardrail.policy.pruning.cut_flagged`); its flagged sentences dropped
(:func:`~guardrail.policy.policies.filter_answer`). A cut that states nothing
(:func:`states_something`: only an opener such as "Yes." or "The answer is", a pleasantry or
a decline) is not tried. Each cut is checked by the same guard, and the first that passes (and
is not declined) is delivered with ``action="filtered"``, its own verdict, the loop's stop
reason and :attr:`~guardrail.policy.policies.PolicyOutcome.fallback_round` (which round's
answer was cut; 0 is the original). When none passes, the refusal is delivered
(``action="refused"``) with the best round's verdict.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from guardrail.policy.policies import OutcomeAction, PolicyOutcome, filter_answer
from guardrail.policy.progress import LoopState, lost_phrases, same_answer
from guardrail.policy.pruning import cut_flagged
from guardrail.text.declines import declined_sentence, non_answer_sentence, normalize_decline_text, pleasantry_sentence
from guardrail.text.sentences import split_sentences
from guardrail.types import GuardResult

__all__ = ["Candidate", "OPENER_WORDS", "candidates", "salvage_cuts", "states_something", "salvage_rounds",
           "loop_outcome"]

#: Words of an answer opener ("Yes.", "Sure!", "The answer is", "According to the context,"):
#: a sentence made only of them states nothing once the rest of the answer is cut.
OPENER_WORDS: frozenset[str] = frozenset(
    "yes no yeah yep nope sure certainly absolutely indeed of course okay ok well so right correct true false "
    "the answer is in short according to context passage text document provided given based on here".split())

_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class Candidate:
    """An answer the fallback may salvage.

    Parameters
    ----------
    round : int
        The round that wrote it (0: the original answer).
    answer : str
        The answer.
    result : GuardResult
        Its verdict.
    lost : int
        How many supported claims of the original answer it lost.
    """

    round: int
    answer: str
    result: GuardResult
    lost: int

    @property
    def rank(self) -> tuple[int, int, float, int]:
        """The sort key, best first: lost claims, flagged nodes, score, round."""
        return self.lost, len(self.result.flagged_nodes), self.result.score, self.round


def candidates(state: LoopState) -> list[Candidate]:
    """The answers of ``state.seen`` a ``filter`` fallback may salvage, best first (see the module)."""
    first = state.seen[0][2]
    out: list[Candidate] = []
    for i, answer, result in state.seen:
        if result.abstained or any(same_answer(answer, c.answer) for c in out):
            continue
        out.append(Candidate(i, answer, result, len(lost_phrases(first, answer))))
    return sorted(out, key=lambda c: c.rank)


def states_something(text: str) -> bool:
    """Whether ``text`` has a sentence that is not only an opener, a pleasantry or a decline.

    Examples
    --------
    >>> states_something("Yes.")
    False
    >>> states_something("Yes. Either party can end it with two months' notice.")
    True
    """
    for a, b in split_sentences(text):
        sentence = text[a:b]
        words = _WORD.findall(sentence.lower())
        if not words or all(w in OPENER_WORDS for w in words):
            continue
        if pleasantry_sentence(sentence) or non_answer_sentence(sentence):
            continue
        if declined_sentence(normalize_decline_text(sentence)) == "other":
            return True
    return False


def salvage_cuts(answer: str, result: GuardResult) -> list[str]:
    """The texts to try for one candidate, in order (see the module); only those that state something.

    Parameters
    ----------
    answer : str
        The candidate answer.
    result : GuardResult
        Its verdict (its flagged nodes' spans index ``answer``).

    Returns
    -------
    list of str
        The answer itself when it passed; else its clause cut and its sentence filter (white
        space collapsed, without repeats); empty when nothing is left or the spans do not
        index ``answer``.
    """
    if result.passed:
        return [answer] if states_something(answer) else []
    if result.abstained or result.answer != answer:
        return []
    cuts = [c for c in (cut_flagged(answer, result),) if c]
    text, refused = filter_answer(answer, result)
    if not refused and " ".join(text.split()) not in cuts:
        cuts.append(" ".join(text.split()))
    return [c for c in cuts if states_something(c)]


def loop_outcome(state: LoopState, answer: str, result: GuardResult, action: OutcomeAction,
                 fallback_round: int | None = None) -> PolicyOutcome:
    """The outcome of a loop that ended flagged, delivering ``answer`` with its verdict ``result``.

    Rounds used up on corrections the evidence does not state stop as ``"unsupported"`` rather
    than ``"max_iterations"`` (``state.stop`` is updated); ``result`` carries the loop's history.
    Used by the salvage here and by every other fallback
    (:func:`~guardrail.policy.rounds.fallback_outcome`).

    Parameters
    ----------
    state : LoopState
        The ended loop (its original answer, stop reason, rejected rounds and history).
    answer : str
        The answer delivered.
    result : GuardResult
        Its verdict.
    action : OutcomeAction
        What the fallback did (``"filtered"``, ``"refused"``, ``"annotated"``, ...).
    fallback_round : int or None, default None
        The round whose answer was cut (0: the original), for a salvaged answer.

    Returns
    -------
    PolicyOutcome
        ``original_answer`` is the loop's original answer.
    """
    if state.stop == "max_iterations" and state.problems:
        state.stop = "unsupported"  # the last round's correction was not the evidence's
    final = result.model_copy(update={"history": tuple(state.history)})
    return PolicyOutcome(answer, final, action, state.original, stop_reason=state.stop,
                         rejected_rounds=tuple(state.rejected), fallback_round=fallback_round)


def salvage_rounds(state: LoopState, refusal: str) -> Generator[tuple[str, Any], Any, PolicyOutcome]:
    """The ``filter`` fallback: each cut (:func:`salvage_cuts`) of each candidate (:func:`candidates`),
    best first, is sent to be checked (``("check", text)``, the verdict sent back; a verdict already
    known is not asked again), and the first one passed is delivered; else ``refusal``.

    Parameters
    ----------
    state : LoopState
        The ended loop.
    refusal : str
        Delivered when no cut passes.

    Returns
    -------
    PolicyOutcome
        ``action="filtered"`` with the cut's verdict and ``fallback_round``, or ``"refused"``
        with the best round's verdict; the loop's stop reason either way.
    """
    cands = candidates(state)
    known = {" ".join(c.answer.split()): c.result for c in cands}
    for cand in cands:
        for cut in salvage_cuts(cand.answer, cand.result):
            key = " ".join(cut.split())
            res = known.get(key)
            if res is None:
                res = known[key] = yield ("check", cut)
            if res.passed and not res.declined:
                return loop_outcome(state, cut, res, "filtered", cand.round)
    return loop_outcome(state, refusal, state.best, "refused")
