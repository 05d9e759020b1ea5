"""Negation and antonym check (``"kg_negation"``): a claim whose predicate has the opposite
polarity in its aligned evidence.

For each predicate of a claim (a verb, adjective or noun, with its polarity: negated by
``not``, ``never``, ``no``, ``without``..., or by a negating governor such as "stopped
offering"), the check looks in the claim's best evidence sentences for

* the same predicate (lemma) with the opposite polarity ("is allowed" / "is not
  allowed"), or
* an antonym with the same polarity ("raised" / "lowered"; "legal" / "illegal"), from
  :data:`~guardrail.text.lexicon.ANTONYM_PAIRS` or a negative prefix,

in an evidence sentence that shares enough of the claim's other content words to be
about the same fact. A predicate that some context sentence about the same fact states
with the claim's own polarity is not flagged (the passage may say both, in different
clauses).

References
----------
KEA Explain: contradictory triple pairs (a claim and evidence triple that differ in the
relation only); Sansford et al., GraphEval (2024).
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral, Real

from guardrail.align.parsed import Sent
from guardrail.detectors._params import Interval, validated
from guardrail.detectors.kg_base import Flag, KGCheckDetector, flag_for
from guardrail.text.lexicon import ANTONYM_PAIRS, LIGHT_VERBS, NEGATING_VERBS, NEGATION_WORDS, STOP_WORDS

_CUES = NEGATION_WORDS - {"none", "nor", "neither", "nobody", "nothing"}

__all__ = ["NegationDetector", "predicates", "antonyms"]

_PRED_POS = frozenset({"VERB", "ADJ", "NOUN"})
_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non", "non-")
_PAIRS = ANTONYM_PAIRS | {(b, a) for a, b in ANTONYM_PAIRS}


def antonyms(a: str, b: str) -> bool:
    """Whether lemmas ``a`` and ``b`` are opposites (listed pair, or a negative prefix:
    "legal" / "illegal", "able" / "unable")."""
    if a == b:
        return False
    if (a, b) in _PAIRS:
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 4 and any(long_ == p + short for p in _PREFIXES)


def _negated(sent: Sent, i: int) -> bool:
    toks = sent.toks
    neg = any(t.head == i and j != i and (t.dep == "neg" or (t.dep in ("det", "advmod") and t.text.lower() in _CUES))
              for j, t in enumerate(toks))
    h = toks[i].head
    if h != i and (toks[h].lemma in NEGATING_VERBS or toks[h].text.lower() == "without"):
        neg = not neg
    if h != i and toks[h].head != h and toks[toks[h].head].lemma in NEGATING_VERBS and toks[h].dep == "aux":
        neg = not neg
    return neg


def predicates(sent: Sent) -> list[tuple[int, str, bool]]:
    """``(token index, lemma, negated)`` of the content predicates of ``sent``."""
    out = []
    for i, t in enumerate(sent.toks):
        if t.pos not in _PRED_POS or t.lemma in LIGHT_VERBS or t.lemma in STOP_WORDS or t.ent:
            continue
        if t.pos == "NOUN" and not _negated(sent, i):
            continue
        out.append((i, t.lemma, _negated(sent, i)))
    return out


class NegationDetector(KGCheckDetector):
    """Opposite polarity (negation) or an antonym between a claim and its aligned evidence
    (see the module docstring).

    Parameters
    ----------
    min_overlap : float
        Least share of the claim's other content words an evidence sentence must contain
        to be about the same fact, in ``(0, 1]`` (default 0.4).
    sentences : int
        How many of the best evidence sentences are compared (>= 1; default 2).
    evidence_words : int
        Word budget of each claim's aligned evidence (default 80).
    name : str or None
        The registry row's name.

    Raises
    ------
    InvalidInputError
        A parameter out of range.
    """

    name = "kg_negation"

    _parameter_constraints = {
        **KGCheckDetector._parameter_constraints,
        "min_overlap": [Interval(Real, 0, 1, closed="right")],
        "sentences": [Interval(Integral, 1, None)],
    }

    @validated
    def __init__(self, min_overlap: float = 0.4, sentences: int = 2, evidence_words: int = 80,
                 name: str | None = None) -> None:
        super().__init__(evidence_words=evidence_words, name=name)
        self.min_overlap = float(min_overlap)
        self.sentences = sentences

    def _about(self, claim: Sent, words: set[str], ev: Sent, lemma: str) -> bool:
        rest = words - {lemma}
        return bool(rest) and len(rest & ev.lemmas()) >= max(2.0, self.min_overlap * len(rest))

    def check_claim(self, claim: Sent, evidence: Sequence[Sent], context: Sequence[Sent]) -> list[Flag]:
        """Flag claim predicates whose evidence states the opposite."""
        flags: list[Flag] = []
        words = claim.lemmas()
        for i, lemma, neg in predicates(claim):
            about = [s for s in context if self._about(claim, words, s, lemma)]
            if any(lem == lemma and n == neg for s in about for _, lem, n in predicates(s)):
                continue  # stated with the claim's polarity
            for ev in evidence[: self.sentences]:
                if ev not in about:
                    continue
                hit = next(((j, lem, n) for j, lem, n in predicates(ev)
                            if (lem == lemma and n != neg) or (antonyms(lem, lemma) and n == neg)), None)
                if hit is None:
                    continue
                t = claim.toks[i]
                said = ("not " if hit[2] else "") + ev.toks[hit[0]].text
                reason = (f"the answer says '{'not ' if neg else ''}{t.text}' where the context says "
                          f"'{said}': '{ev.text}'")
                flags.append(flag_for(claim, t.start, t.end, reason, ev, 0.8 if hit[1] == lemma else 0.6))
                break
        return flags
