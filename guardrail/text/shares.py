"""Shares in the evidence's form: "four in ten" and "40%", "a quarter of" and "25%".

A context that says "about 40% of patients are better after 3 days" and an answer that says
"roughly four in ten people feel better by day three" state the same share; LLMs reword
percentages as proportions ("seven in ten", "one in four", "3 out of 5") and as fractions ("half
of", "a third of", "three quarters of") and back. :func:`match_share_forms` writes each share of
the claim whose value the evidence states in another surface as the evidence writes it, so the
claim verifier compares like with like (the verifier's input only, in training as at inference,
through :func:`~guardrail.text.value_forms.match_value_forms`).

Values are percentages. A proportion or fraction whose value is a whole or one-decimal
percentage ("4 in 10": 40, "1 in 8": 12.5) equals only that percentage; one that is not ("one in
three": 33.33...) equals a percentage within half a point ("33%", "33.3%"), the rounding a writer
applies. Denominators are the ones shares are written with (2-10, 12, 20, 25, 50, 100, 1000), so
"332 in 2023" is not a share. A share is rewritten only when the evidence holds an equal one in
another surface: a wrong share is never made to look right.
"""

from __future__ import annotations

import functools
import re

__all__ = ["match_share_forms", "share_values", "cased_for", "FRACTIONS"]

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "ten": 10, "twelve": 12, "twenty": 20, "hundred": 100, "a hundred": 100, "a thousand": 1000}
_DENOMINATORS = frozenset({2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 20, 25, 50, 100, 1000})
_NUMBER = r"(\d+|" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")"
_PROPORTION = re.compile(r"(?<![\w.,])" + _NUMBER + r"\s+(?:in|out\s+of)\s+(?:every\s+)?" + _NUMBER + r"(?![\w.,]\w)",
                         re.I)
_PARTS = {"third": 3, "quarter": 4, "fifth": 5, "sixth": 6, "eighth": 8, "tenth": 10}
#: Fraction words and their value in per cent (0-100): "a third", "two-thirds", "four fifths", "three
#: eighths", ...: every fraction of a numerator up to nine and one of :data:`_PARTS` (written with a space
#: or a hyphen), and "half". Also read by :func:`guardrail.align.values.number_values` ("half a kilo").
FRACTIONS: dict[str, float] = {"half": 50.0, **{f"{n}{sep}{part}{'' if k == 1 else 's'}": 100.0 * k / d
                               for n, k in [("a", 1), *((w, v) for w, v in _WORDS.items() if v < 10)]
                               for part, d in _PARTS.items() if k < d for sep in (" ", "-")}}
_FRACTION = re.compile(r"(?<![\w-])(" + "|".join(sorted(FRACTIONS, key=len, reverse=True)) + r")(?=\s+of\b)", re.I)
_PERCENT = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)(?:\s*%|\s+per\s?cent\b)", re.I)
_OF = re.compile(r"\s+of\b", re.I)
_NOUN = re.compile(r"\s+(?!(?:are|is|was|were|have|has|had|will|would|can|could|say|said|of|in|to)\b)[a-z]", re.I)


def _number(text: str) -> int | None:
    text = " ".join(text.lower().split())
    return int(text) if text.isdigit() else _WORDS.get(text)


@functools.lru_cache(maxsize=1024)
def share_values(text: str) -> tuple[tuple[int, int, float, bool, str], ...]:
    """The shares of ``text``, in text order (cached: an evidence view is read against every claim).

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    tuple of (int, int, float, bool, str)
        ``(start, end, percent, exact, kind)`` per share: its character span in ``text``, its value
        in per cent (0 < percent < 100 for a proportion or fraction; any non-negative number for a
        percentage), ``exact`` (False for a value that is not a whole or one-decimal percentage,
        "one in three") and ``kind``: ``"proportion"`` ("four in ten"), ``"fraction"`` ("a third",
        before "of") or ``"percent"`` ("25%", "25 per cent"). Empty when there is none.

    Examples
    --------
    >>> [(round(p, 2), exact, kind) for _, _, p, exact, kind in share_values("Four in ten, a third of them, 25%.")]
    [(40.0, True, 'proportion'), (33.33, False, 'fraction'), (25.0, True, 'percent')]
    """
    found: list[tuple[int, int, float, bool, str]] = []
    for m in _PROPORTION.finditer(text):
        n, d = _number(m.group(1)), _number(m.group(2))
        if n is not None and d in _DENOMINATORS and 0 < n < d:
            pct = 100 * n / d
            found.append((m.start(), m.end(), pct, round(pct, 1) == round(pct, 9), "proportion"))
    for m in _FRACTION.finditer(text):
        pct = FRACTIONS[" ".join(m.group(1).lower().split())]
        found.append((m.start(), m.end(), pct, round(pct, 1) == round(pct, 9), "fraction"))
    for m in _PERCENT.finditer(text):
        found.append((m.start(), m.end(), float(m.group(1)), True, "percent"))
    return tuple(sorted(found))


def cased_for(surface: str, text: str, at: int) -> str:
    """``surface`` capitalised as a word at ``text[at]`` is: upper case at a sentence start, else lower.

    Parameters
    ----------
    surface : str
        The words to write in (a value as the evidence writes it).
    text : str
        The text they go into.
    at : int
        Character offset in ``text`` where they go (0 <= at <= len(text)).

    Returns
    -------
    str
        ``surface`` with its first character upper case when ``text`` has only white space or a
        sentence end (``.``, ``!``, ``?``) before ``at``, else lower case.

    Examples
    --------
    >>> cased_for("Seven in ten", "It hit 70% of voters.", 7), cased_for("a quarter", "25% of them.", 0)
    ('seven in ten', 'A quarter')
    """
    first = surface[:1].upper() if text[:at].rstrip()[-1:] in ("", ".", "!", "?") else surface[:1].lower()
    return first + surface[1:]


def _equal(a: tuple[float, bool], b: tuple[float, bool]) -> bool:
    (p, exact_p), (q, exact_q) = a, b
    return abs(p - q) < 1e-9 if exact_p and exact_q else abs(p - q) <= 0.5


def _same(a: str, b: str) -> bool:
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


def match_share_forms(evidence: str, claim: str) -> str:
    """``claim`` with each share the evidence states in another surface written as the evidence writes it.

    Parameters
    ----------
    evidence, claim : str
        One verifier pair.

    Returns
    -------
    str
        The claim; unchanged when no share of it equals one of the evidence written differently.

    Examples
    --------
    >>> match_share_forms("About 40% of patients are better after 3 days.", "Roughly four in ten people feel better.")
    'Roughly 40% of people feel better.'
    >>> match_share_forms("Seven in ten voters agreed.", "70 per cent of voters agreed, not 60%.")
    'Seven in ten voters agreed, not 60%.'
    >>> match_share_forms("A quarter of pupils were absent.", "Absence hit 25% of pupils.")
    'Absence hit a quarter of pupils.'
    """
    mine = share_values(claim)
    said = [(evidence[a:b], (p, exact), kind) for a, b, p, exact, kind in share_values(evidence)] if mine else []
    if not said:
        return claim
    out, last = [], 0
    for a, b, p, exact, own in mine:
        if a < last:
            continue
        equal = [(s, k) for s, v, k in said if _equal(v, (p, exact))]
        if not equal or any(_same(s, claim[a:b]) for s, _ in equal):
            continue  # not stated, or stated as the claim writes it too
        surface, kind = equal[0]
        out += [claim[last:a], cased_for(surface, claim, a)]
        last = b
        of = _OF.match(claim, b)
        if own == "proportion" and kind != "proportion" and not of and _NOUN.match(claim, b):
            out.append(" of")  # "four in ten people" -> "40% of people"
        elif own != "proportion" and kind == "proportion" and of:
            last = of.end()  # "70% of voters" -> "seven in ten voters"
    return "".join(out) + claim[last:] if out else claim
