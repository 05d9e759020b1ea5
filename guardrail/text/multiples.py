"""Multiples in the evidence's form: "triple" and "three times", "twofold" and "twice".

A context that says "about three times more than previously estimated" and an answer that says
"roughly triple earlier estimates" state the same multiple; LLMs move between "N times", "N-fold",
"double / triple / quadruple" and "twice" freely. :func:`match_multiple_forms` writes each multiple
of the claim whose factor the evidence states in another surface as the evidence writes it, so the
claim verifier compares like with like (its input only, in training as at inference, through
:func:`~guardrail.text.value_forms.match_value_forms`).

Only multiplicative uses are read, so that a count or a frequency is never taken for one: "N
times" and "twice" before a comparative, "as", "the", "that" or "more" ("three times larger",
"twice as long", "twice the size"; not "won three times", "twice a week"); "N-fold" and "Nfold";
"double", "triple" and "quadruple" before a determiner or a noun phrase's first word ("triple the
cost", "roughly triple earlier estimates") or after an approximator ("about double"); verb forms
("doubled", "tripled") are not rewritten, since no other surface of them reads as a verb. A
multiple is rewritten only when the evidence holds the same factor in another surface: a wrong
factor is never made to look right.
"""

from __future__ import annotations

import functools
import re

from guardrail.text.shares import cased_for

__all__ = ["match_multiple_forms", "multiple_values"]

_FACTOR_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10}
_FOLD_WORDS = {"twofold": 2, "threefold": 3, "fourfold": 4, "fivefold": 5, "sixfold": 6, "tenfold": 10}
_ADJECTIVES = {"double": 2, "triple": 3, "quadruple": 4}
_COMPARATIVE = (r"(?=\s+(?:as|the|that|what|more|less|higher|lower|larger|bigger|greater|smaller|longer|faster|"
                r"slower|heavier|older|[a-z]+er\s+than)\b)")
_TIMES = re.compile(r"(?<![\w.,-])(\d+(?:\.\d+)?|" + "|".join(_FACTOR_WORDS) + r")\s+times" + _COMPARATIVE, re.I)
_TWICE = re.compile(r"(?<![\w-])(twice|thrice)" + _COMPARATIVE, re.I)
_FOLD = re.compile(r"(?<![\w.,-])(?:(\d+(?:\.\d+)?)-fold|(" + "|".join(_FOLD_WORDS) + r"))(?![\w-])", re.I)
_ADJECTIVE = re.compile(r"(?<![\w-])(" + "|".join(_ADJECTIVES) + r")(?=\s+(?:the|that|what|its|their|his|her|our|"
                        r"earlier|previous|prior|last|former|original)\b)", re.I)
_APPROXIMATED = re.compile(r"\b(?:about|roughly|nearly|almost|around)\s+(" + "|".join(_ADJECTIVES) + r")(?![\w-])",
                           re.I)


def _factor(word: str) -> float | None:
    w = word.lower()
    if w in _FACTOR_WORDS:
        return float(_FACTOR_WORDS[w])
    if w in ("twice", "thrice"):
        return 2.0 if w == "twice" else 3.0
    try:
        return float(w)
    except ValueError:
        return None


@functools.lru_cache(maxsize=1024)
def multiple_values(text: str) -> tuple[tuple[int, int, float], ...]:
    """The multiples of ``text``, in text order (cached: an evidence view is read against every claim).

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    tuple of (int, int, float)
        ``(start, end, factor)`` per multiplicative surface: its character span in ``text`` and its
        factor (> 1: 2.0 for "twice as", 3.0 for "threefold"). Empty when there is none.

    Examples
    --------
    >>> [f for _, _, f in multiple_values("Twice as long, a threefold rise, triple the cost, won three times.")]
    [2.0, 3.0, 3.0]
    """
    found: dict[int, tuple[int, int, float]] = {}
    for pattern in (_TIMES, _TWICE):
        for m in pattern.finditer(text):
            factor = _factor(m.group(1))
            if factor is not None:
                found[m.start()] = (m.start(), m.end(), factor)
    for m in _FOLD.finditer(text):
        factor = float(m.group(1)) if m.group(1) else float(_FOLD_WORDS[m.group(2).lower()])
        found[m.start()] = (m.start(), m.end(), factor)
    for pattern in (_ADJECTIVE, _APPROXIMATED):
        for m in pattern.finditer(text):
            found[m.start(1)] = (m.start(1), m.end(1), float(_ADJECTIVES[m.group(1).lower()]))
    return tuple(sorted(found.values()))


def match_multiple_forms(evidence: str, claim: str) -> str:
    """``claim`` with each multiple the evidence states in another surface written as the evidence writes it.

    Parameters
    ----------
    evidence, claim : str
        One verifier pair.

    Returns
    -------
    str
        The claim; unchanged when no multiple of it equals one of the evidence written differently.

    Examples
    --------
    >>> match_multiple_forms("They store about three times more than previously estimated.",
    ...                      "They hold roughly triple earlier estimates.")
    'They hold roughly three times earlier estimates.'
    >>> match_multiple_forms("Costs rose threefold.", "Costs are twice as high.")
    'Costs are twice as high.'
    """
    mine = multiple_values(claim)
    said: dict[float, list[str]] = {}
    for a, b, factor in multiple_values(evidence) if mine else ():
        said.setdefault(factor, []).append(evidence[a:b].lower())
    if not said:
        return claim
    out, last = [], 0
    for a, b, factor in mine:
        surfaces = said.get(factor, [])
        if a < last or not surfaces or claim[a:b].lower() in surfaces:
            continue  # not stated, or stated as the claim writes it too
        out += [claim[last:a], cased_for(surfaces[0], claim, a)]
        last = b
    return "".join(out) + claim[last:] if out else claim
