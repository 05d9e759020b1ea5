"""Swapped values named elsewhere: the check that reads the claim *without* the value.

A swapped name, date or number that the context states in another sentence passes a
check that aligns the claim with its evidence by word overlap: the swapped-in value
itself pulls the sentence that states it into the evidence ("Ardwyn Optics was founded
in 2006" aligns with the sentence about the second plant, opened in 2006). This check
(``"kg_swaps"``) aligns each value's *frame* instead, the claim's other content words
with every value of the claim masked out:

1. each context sentence gets the share of the frame it covers: the IDF weight (over the
   context sentences) of the frame words it contains, plus ``value_weight`` for each
   *other* value of the claim it states, divided by the frame's total, in ``[0, 1]``;
2. ``stated`` is the best share among the sentences stating the claim value (same
   normalised value, see :func:`~guardrail.detectors.kg_values.same_value`), 0 if none;
3. ``rival`` is the best share among sentences holding a *different* value that could
   fill the slot (names of compatible labels, a person never a place; dates sharing a
   calendar component; numbers of compatible units), not itself a value of the claim, whose role
   (:func:`~guardrail.align.parsed.anchors`) shares a content word with the claim value's;
4. the value is flagged when ``rival >= 2 * stated + margin``: the claim's frame is
   about the rival's sentence, and a sentence stating the claim's value, if any, covers
   less than half as much of it (a value stated elsewhere needs the stronger evidence: with
   ``rival >= stated + margin`` the check flagged 45 % of the faithful HaluEval summaries of
   the fit split, with this rule 25 %, both measured when any two names were compatible).
   Confidence ``min(0.95, 0.6 + rival - 2 stated - margin)``.

A synthesis that takes each value from the sentence about it is not flagged (its values
are stated where the frame aligns); a number that one arithmetic step derives from the
context's numbers is left to :class:`~guardrail.detectors.kg_values.LiteralGroundingDetector`.

Measured alone on the claims dev part a (tuning data; ``benchmarks/kg_checks.py``
reports part b): see ``benchmarks/results/kg_checks.md``.

References
----------
KEA Explain (000): contradictory triple pairs, a claim and evidence that agree on all
but one element; HalluGraph (004): entity grounding; VitaminC (Schuster et al., 2021):
contrastive evidence where one value changes the verdict.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from numbers import Real

from guardrail.align.parsed import _CONTENT_POS, NAME_LABELS, Sent, Slot, anchors, slot_marks
from guardrail.detectors._params import Interval, validated
from guardrail.detectors.kg_base import Flag, KGCheckDetector, flag_for
from guardrail.detectors.kg_values import _arithmetic, _in_text, _numbers, _trivial, same_type, same_value
from guardrail.text.lexicon import STOP_WORDS

__all__ = ["SwapDetector", "frame_terms"]

def frame_terms(sent: Sent) -> frozenset[str]:
    """Lower-cased content lemmas of ``sent`` outside its values (names, dates, numbers).

    Returns
    -------
    frozenset of str
        Empty for a sentence without tokens.
    """
    masked = {i for sl in sent.slots for i in range(*sl.toks)}
    return frozenset(t.lemma.lower() for i, t in enumerate(sent.toks)
                     if i not in masked and t.pos in _CONTENT_POS and t.lemma.lower() not in STOP_WORDS)


#: Name labels that can fill each other's slot: spaCy's small model labels one name PERSON in one
#: sentence and ORG in the next; places go together; a person or organisation is never a place
#: (a company the context calls "the company" next to a city would otherwise be "swapped" for
#: the city), a nationality (NORP) only a nationality.
_COMPATIBLE = {"PERSON": {"PERSON", "ORG"}, "ORG": {"ORG", "PERSON"},
               "GPE": {"GPE", "LOC", "FAC"}, "LOC": {"GPE", "LOC", "FAC"},
               "FAC": {"GPE", "LOC", "FAC"}, "NORP": {"NORP"}}


def _fills(c: Slot, e: Slot) -> bool:
    """Whether ``e`` could fill the slot of claim value ``c``: names of compatible labels
    (:data:`_COMPATIBLE`; other labels: the same label), else
    :func:`~guardrail.detectors.kg_values.same_type`."""
    if c.num is None and e.num is None and c.kind in NAME_LABELS and e.kind in NAME_LABELS:
        return e.kind in _COMPATIBLE.get(c.kind, {c.kind})
    return same_type(c, e)


def _role_words(a: frozenset[str]) -> frozenset[str]:
    return frozenset(x for x in a if x.startswith("w:"))


class SwapDetector(KGCheckDetector):
    """A claim value whose frame aligns with a sentence holding another value (see the
    module docstring).

    Parameters
    ----------
    margin : float
        How much more of the claim's frame (a share, in [0, 1]; default 0.1) the rival's
        sentence must cover than the best sentence stating the claim's value.
    value_weight : float
        Weight of each other claim value a sentence states, against the IDF weights of
        frame words (>= 0, default 1.0).
    evidence_words : int
        Word budget of the aligned evidence (kept for the shared frame; default 80).
    name : str or None
        The registry row's name.

    Raises
    ------
    InvalidInputError
        ``margin`` outside [0, 1], a negative ``value_weight``, or a bad ``evidence_words``
        (from :func:`~guardrail.detectors._params.validate_params`).
    """

    name = "kg_swaps"

    _parameter_constraints = {**KGCheckDetector._parameter_constraints,
                              "margin": [Interval(Real, 0, 1, closed="both")],
                              "value_weight": [Interval(Real, 0, None)]}

    @validated
    def __init__(self, margin: float = 0.1, value_weight: float = 1.0, evidence_words: int = 80,
                 name: str | None = None) -> None:
        super().__init__(evidence_words=evidence_words, name=name)
        self.margin = float(margin)
        self.value_weight = float(value_weight)

    def evidence_for(self, claim: Sent, context: Sequence[Sent]) -> list[Sent]:
        """Not used: every context sentence is a candidate (see :meth:`check_claim`)."""
        return []

    def check_claim(self, claim: Sent, evidence: Sequence[Sent], context: Sequence[Sent]) -> list[Flag]:
        """Flag each claim value whose frame aligns better with a rival value's sentence."""
        if not context or not claim.slots:
            return []
        frame = frame_terms(claim)
        terms = [frame_terms(s) for s in context]
        df = Counter(w for t in terms for w in t)
        idf = {w: math.log((len(context) + 1) / (df[w] + 0.5)) for w in frame}
        stated = [[_states(s, o) for o in claim.slots] for s in context]
        slots = [(i, e, _role_words(anchors(s, e))) for i, s in enumerate(context) for e in s.slots]
        nums: list[float] | None = None
        flags: list[Flag] = []
        for k, c in enumerate(claim.slots):
            if _trivial(c):
                continue
            if c.num is not None:
                nums = _numbers(context) if nums is None else nums
                if _arithmetic(c.num, nums):
                    continue
            role = anchors(claim, c)
            score = self._shares(claim, k, role, idf, terms, stated)
            flag = self._check_value(claim, c, role, context, slots, score, [st[k] for st in stated])
            if flag is not None:
                flags.append(flag)
        return flags

    def _shares(self, claim: Sent, k: int, role: frozenset[str], idf: dict[str, float],
                terms: list[frozenset[str]], stated: list[list[bool]]) -> list[float]:
        """Share of value ``k``'s frame each context sentence covers; the words and values of
        its role (its clause) count twice."""
        wt = {w: v * (2.0 if f"w:{w}" in role else 1.0) for w, v in idf.items()}
        vt = [0.0 if j == k else self.value_weight * (2.0 if slot_marks(o) & role else 1.0)
              for j, o in enumerate(claim.slots)]
        total = sum(wt.values()) + sum(vt)
        if total <= 0:
            return [0.0] * len(terms)
        return [(sum(wt[w] for w in t if w in wt) + sum(v for v, ok in zip(vt, st) if ok)) / total
                for t, st in zip(terms, stated)]

    def _check_value(self, claim: Sent, c: Slot, anchored: frozenset[str], context: Sequence[Sent],
                     slots: list[tuple[int, Slot, frozenset[str]]], score: list[float],
                     states: list[bool]) -> Flag | None:
        """The flag of claim value ``c`` (``slots``: every context value with its sentence index
        and role words), or None."""
        role = _role_words(anchored)
        stated = max((score[i] for i, ok in enumerate(states) if ok), default=0.0)
        best: tuple[float, int, Slot] | None = None
        for i, e, e_role in slots:
            if (best is not None and score[i] <= best[0]) or not role & e_role or not _fills(c, e) \
                    or same_value(c, e) or any(same_value(o, e) for o in claim.slots) or _in_text(e, [claim]):
                continue
            best = (score[i], i, e)
        if best is None or best[0] < 2.0 * stated + self.margin:
            return None
        val, i, e = best
        s = context[i]
        reason = (f"the answer says '{c.text}' where the context says '{e.text}' about the same thing: "
                  f"'{s.text}'" + (f" ('{c.text}' is said elsewhere, about something else)" if any(states) else ""))
        conf = min(0.95, 0.6 + (val - 2.0 * stated - self.margin))
        return flag_for(claim, c.start, c.end, reason, s, conf)


def _states(s: Sent, c: Slot) -> bool:
    """Whether context sentence ``s`` states claim value ``c``."""
    return _in_text(c, [s]) or any(same_value(c, e) for e in s.slots)
