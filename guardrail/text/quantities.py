"""One quantity, one surface: the claim's measured amounts in the evidence's unit.

A context that says "a final lasting two hours and 41 minutes", "10 hours" or "16 km" and an
answer that says "161 minutes", "600 minutes" or "10 miles" state the same amount in another
unit, and the claim verifier, which compares surfaces, reads the faithful claim as unsupported
(the shipped verifier: p 0.00 for "161 minutes" against "two hours and 41 minutes").
:func:`match_quantity_forms` reads every number followed by a unit in both texts with
`pint <https://pint.readthedocs.io>`_ (lengths, masses, durations, areas, volumes, speeds, ...;
temperatures and dimensionless units such as degrees of angle or dozens are left alone),
adds up compound amounts ("2 hours and 41 minutes", "5 feet 11 inches") and writes a claim
amount in the evidence's surface when, converted to the evidence's units, it rounds to the
evidence's figure at the precision the evidence writes it and differs from it by at most
:data:`RELATIVE_TOLERANCE` (10 miles are 16.09 km: "16 km" matches, "16.5 km" does not).

As with :func:`~guardrail.text.value_forms.match_value_forms`, which calls this last, only
an amount the evidence states in another unit is rewritten, never a different amount, so a
wrong quantity ("500 minutes" for "10 hours") reads as before. pint is imported only when the
claim and the evidence hold a number followed by different unit-like words.

References
----------
pint, the Python units library (BSD-3-Clause): ``UnitRegistry.parse_units``,
``Quantity.to_base_units``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from guardrail._lazy import Lazy
from guardrail._optional import require
from guardrail.text.lexicon import STOP_WORDS
from guardrail.text.numerals import digits_for_words

__all__ = ["match_quantity_forms", "RELATIVE_TOLERANCE"]

#: Most relative difference between a claim amount and the evidence amount it is read as
#: (also within the evidence's precision): a converted amount is written rounded ("10 miles"
#: are 16.09 km, "6 feet" 1.83 m: 0.6 %, 1.6 %), "twelve weeks" are not "3 months" (8 %).
RELATIVE_TOLERANCE = 0.02

_UNIT = r"(?:(?:square|cubic|sq\.?)\s+)?[A-Za-z]+(?:\s*/\s*[A-Za-z]+|\s+per\s+[A-Za-z]+)?"
_AMOUNT = re.compile(r"(?<![\w.,$£€¥])(\d+(?:,\d{3})*(?:\.\d+)?)(\s*)(" + _UNIT + r")", re.I)
_JOIN = re.compile(r"\s*(?:,\s*(?:and\s+)?|and\s+|)$", re.I)
#: Units an LLM names with an article instead of a number ("for a week", "within an hour",
#: "half a mile"): read as one (half) of the unit by :func:`_article_amounts`.
_ARTICLE_UNITS = ("second", "minute", "hour", "day", "week", "fortnight", "month", "year", "decade", "century",
                  "kilometre", "kilometer", "mile", "metre", "meter", "litre", "liter", "kilogram", "tonne")
_ARTICLE = re.compile(r"(?<![\w-])(?:(half)\s+)?(?:an?|one)\s+(" + "|".join(_ARTICLE_UNITS) + r")(?![\w-])", re.I)
#: The word before an article amount, when it is one: a duration or distance after a
#: preposition or a verb of extent ("for a week", "lasts an hour"), or opening a sentence.
#: A rate ("twice a year", "£40 a month", "24 hours a day") has another word there.
_BEFORE_ARTICLE = frozenset(("for", "in", "within", "after", "over", "about", "around", "nearly", "almost",
                             "roughly", "approximately", "than", "under", "least", "most", "only", "just",
                             "last", "lasts", "lasted", "take", "takes", "took", "taking", "is", "was", "be",
                             "of", "to", "by", "and", "or", "before", "until"))


@dataclass(frozen=True)
class _Amount:
    start: int
    end: int
    base: float  # magnitude in SI base units
    dims: str  # pint dimensionality, as text
    factors: tuple[float, ...]  # the SI factor of each unit written (one per part of a compound)
    half_ulp: float  # half a unit of the last digit written, in SI base units (the precision)


def _registry() -> Any:
    return require("pint").UnitRegistry()


_UREG: Lazy[Any] = Lazy(_registry)


@lru_cache(maxsize=4096)
def _unit(text: str) -> tuple[float, str] | None:
    """``(factor to SI base units, dimensionality)`` of a unit phrase, or None when pint does
    not read it as a physical unit (no unit, dimensionless, a temperature)."""
    pint = require("pint")
    words = text.lower().replace("sq.", "square").split()
    if not words or words[0] in STOP_WORDS or (len(words) == 1 and len(words[0]) == 1 and words[0] not in "mgsh"):
        return None
    try:
        q = _UREG.get().Quantity(1.0, _UREG.get().parse_units(" ".join(words).replace(" / ", "/")))
        base = q.to_base_units()
    except (pint.PintError, AttributeError, TypeError, ValueError, SyntaxError):
        return None
    dims = str(base.dimensionality)
    if base.dimensionless or "temperature" in dims or "currency" in dims:
        return None
    return float(base.magnitude), dims


def _singles(text: str) -> Iterator[_Amount]:
    for m in _AMOUNT.finditer(text):
        number, space, unit = m.group(1), m.group(2), m.group(3)
        if not space and len(unit) < 2:  # "1990s": a decade, not 1,990 seconds
            continue
        read = _unit(unit)
        if read is None and " " in unit:  # "hours of work": the first word alone
            unit = unit.split()[0]
            read = _unit(unit)
        if read is not None:
            end = m.start(3) + len(unit)
            decimals = len(number.partition(".")[2])
            yield _Amount(m.start(), end, float(number.replace(",", "")) * read[0], read[1], (read[0],),
                          0.5 * 10.0 ** -decimals * read[0])


def _amounts(text: str) -> list[_Amount]:
    """The amounts of ``text``, a compound one ("2 hours and 41 minutes") as one, summed."""
    out: list[_Amount] = []
    for a in _singles(text):
        prev = out[-1] if out else None
        if prev is not None and prev.dims == a.dims and _JOIN.match(text[prev.end:a.start]) is not None:
            out[-1] = _Amount(prev.start, a.end, prev.base + a.base, a.dims, prev.factors + a.factors, a.half_ulp)
        else:
            out.append(a)
    return out


def _converted(claim: _Amount, evidence: _Amount) -> bool:
    """Whether the claim amount is the evidence amount in other units: one dimension, other
    units (one unit spelt two ways, "276 m" and "276 metres", is not a conversion), and the claim
    amount written in the evidence's units and precision is the evidence's ("10 miles" are 16.09 km:
    "16 km"; "four minutes" are not "3 minutes 59.4 seconds", nor "3 years" "40 months"), and
    within :data:`RELATIVE_TOLERANCE` of it (a coarse unit: "235 years" are not "2 centuries")."""
    if claim.dims != evidence.dims or claim.factors == evidence.factors:
        return False
    gap = abs(claim.base - evidence.base)
    return gap <= evidence.half_ulp * (1 + 1e-9) and gap <= RELATIVE_TOLERANCE * abs(evidence.base)


def _article_amounts(text: str) -> str:
    """``text`` with each duration or distance named by an article written as a number:
    "for a week" as "for 1 week", "within half an hour" as "within 0.5 hour"; a rate
    ("twice a week", "3 tablets a day") is left alone (see :data:`_BEFORE_ARTICLE`)."""
    def one(m: re.Match[str]) -> str:
        before = re.findall(r"[\w£$€%]+", text[max(0, m.start() - 24):m.start()])
        if before and before[-1].lower() not in _BEFORE_ARTICLE:
            return m.group(0)
        return ("0.5 " if m.group(1) else "1 ") + m.group(2)

    return _ARTICLE.sub(one, text) if _ARTICLE.search(text) else text


def _unit_words(text: str) -> set[str]:
    """The unit-like phrases after the numbers of ``text``, lower-cased, without a plural s."""
    phrases = (m.group(3).lower() for m in _AMOUNT.finditer(text))
    return {u.rstrip("s") for u in phrases if u.split()[0] not in STOP_WORDS}


def match_quantity_forms(evidence: str, claim: str) -> tuple[str, str]:
    """The pair as the verifier reads it: each claim amount in the evidence's unit where equal.

    Parameters
    ----------
    evidence, claim : str
        One verifier pair.

    Returns
    -------
    tuple of (str, str)
        ``(evidence, claim)``; when an amount of the claim equals an amount the evidence
        writes in other units (at the evidence's precision), the claim with that amount
        written as the evidence writes it, number words read as digits on both sides
        (:func:`~guardrail.text.numerals.digits_for_words`) and a duration or distance named
        by an article as one ("for a week" as "for 1 week", "half an hour" as "0.5 hour");
        else the pair as given.

    Raises
    ------
    ImportError
        ``pint`` is missing (the message names the pip command; it is a core dependency).

    Examples
    --------
    >>> match_quantity_forms("The final lasted two hours and 41 minutes.", "The match went on for 161 minutes.")
    ('The final lasted 2 hours and 41 minutes.', 'The match went on for 2 hours and 41 minutes.')
    >>> match_quantity_forms("The link works for 7 days.", "The link is valid for a week.")
    ('The link works for 7 days.', 'The link is valid for 7 days.')
    >>> match_quantity_forms("A full charge takes 10 hours.", "Charging takes 500 minutes.")
    ('A full charge takes 10 hours.', 'Charging takes 500 minutes.')
    """
    c2 = _article_amounts(digits_for_words(claim))
    words = _unit_words(c2) if any(ch.isdigit() for ch in c2) else set()
    if not words:  # no number followed by a unit-like word: nothing to convert (the common case)
        return evidence, claim
    e2 = _article_amounts(digits_for_words(evidence))
    if not (_unit_words(e2) - words):  # the same unit-like words on both sides
        return evidence, claim
    found = _amounts(e2)
    if not found:
        return evidence, claim
    out, last, changed = [], 0, False
    for a in _amounts(c2):
        match = next((b for b in found if _converted(a, b)), None)
        if match is None or e2[match.start:match.end] in c2 or c2[a.start:a.end] in e2:
            continue  # either surface on both sides already ("73 miles (117.5 km)")
        out += [c2[last:a.start], e2[match.start:match.end]]
        last, changed = a.end, True
    if not changed:
        return evidence, claim
    return e2, "".join(out) + c2[last:]
