"""One value, one surface: the claim's numbers, percentages and dates in the evidence's form.

A context that says "$1.5 million", "15%" or "3 March 2011" and an answer that says
"$1,500,000", "fifteen per cent" or "2011-03-03" state the same value, but the claim
verifier compares surfaces: the shipped verifier read the faithful "revenue of $1,500,000"
against "revenue of $1.5 million" as unsupported (p 0.05; 0.84 with the same surface).
:func:`match_value_forms` rewrites each value of the claim whose normalised value equals a
value of the evidence into the evidence's surface, after :func:`~guardrail.text.numerals.
match_number_forms` has read number words as digits where that makes the two agree:

* large numbers: digits with or without thousands separators ("1,500,000", "1500000") and a
  number with a scale word ("1.5 million", "2 billion", "40 thousand");
* percentages: "15%", "15 percent", "15 per cent" (after number words became digits), read
  with the shares below;
* dates: ISO ``YYYY-MM-DD``, "3 March 2011", "March 3, 2011" (day, month and year equal;
  month names and abbreviations read with :mod:`calendar`);
* centuries: "the 12th century" and "the 1100s";
* times of day: "18:00", "6pm", "6 p.m.", "noon" (:mod:`guardrail.text.clock`);
* decades without their century: "the nineties", "the '90s" against the one decade of the
  evidence that ends so ("the 1990s"; left as written when it names two, "1890s" and "1990s");
* shares: "four in ten", "4 out of 10", "two thirds of" and "40%", "67%" (:mod:`guardrail.text.shares`);
* multiples: "three times more", "threefold", "roughly triple" (:mod:`guardrail.text.multiples`);
* measured amounts: "600 minutes" against "10 hours", "10 miles" against "16 km", "161
  minutes" against "two hours and 41 minutes", "a week" against "7 days"
  (:mod:`guardrail.text.quantities`, pint).

A value is rewritten only when the evidence holds the same value in another surface, so a
wrong value is never made to look right and a pair that writes its values alike reads
exactly as before. Only the verifier's input changes (in training as at inference,
:func:`guardrail.models.claim_verifier.encode_pairs`); spans and explanations read the
answer as written.
"""

from __future__ import annotations

import calendar
import functools
import re
from collections.abc import Callable, Iterator

from guardrail.text.acronyms import match_acronyms
from guardrail.text.clock import CLOCK, clock_minutes
from guardrail.text.multiples import match_multiple_forms
from guardrail.text.numerals import match_number_forms
from guardrail.text.quantities import match_quantity_forms
from guardrail.text.shares import match_share_forms

__all__ = ["match_value_forms"]

_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_LARGE = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)\s+(thousand|million|billion|trillion)\b|"
                    r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d{5,})(?!\w|,\d|\.\d)", re.I)
_CENTURY = re.compile(r"(?<![\w.,])(?:(\d{1,2})(?:st|nd|rd|th)\s+century|(\d{1,2})00s)\b", re.I)
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTHS["sept"] = 9
_MONTH = r"(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b|"
                   r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r",?\s+(\d{4})\b|"
                   + r"\b" + _MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b", re.I)


def _large(m: re.Match[str]) -> float:
    if m.group(1):
        return float(m.group(1)) * _SCALES[m.group(2).lower()]
    return float(m.group(3).replace(",", ""))


def _century(m: re.Match[str]) -> int:
    """The century number: "12th century" and "the 1100s" are both 12."""
    return int(m.group(1)) if m.group(1) else int(m.group(2)) + 1


def _date(m: re.Match[str]) -> tuple[int, int, int] | None:
    g = m.groups()
    if g[0]:
        y, mo, d = int(g[0]), int(g[1]), int(g[2])
    elif g[3]:
        y, mo, d = int(g[5]), _MONTHS[g[4].lower()], int(g[3])
    else:
        y, mo, d = int(g[8]), _MONTHS[g[6].lower()], int(g[7])
    return (y, mo, d) if 1 <= mo <= 12 and 1 <= d <= 31 else None


_KINDS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], object]], ...] = (
    (_LARGE, _large), (_DATE, _date), (_CENTURY, _century), (CLOCK, clock_minutes))


def _values(pattern: re.Pattern[str], read: Callable[[re.Match[str]], object],
            text: str) -> Iterator[tuple[re.Match[str], object]]:
    for m in pattern.finditer(text):
        value = read(m)
        if value is not None:
            yield m, value


def match_value_forms(evidence: str, claim: str) -> tuple[str, str]:
    """The pair as the verifier reads it: the claim's values in the evidence's surface.

    Parameters
    ----------
    evidence, claim : str
        One verifier pair.

    Returns
    -------
    tuple of (str, str)
        ``(evidence, claim)`` with acronyms and the words they stand for in the evidence's
        surface (:func:`~guardrail.text.acronyms.match_acronyms`), number words as digits where that makes them agree
        (:func:`~guardrail.text.numerals.match_number_forms`), shares and multiples in the evidence's
        form (:func:`~guardrail.text.shares.match_share_forms`,
        :func:`~guardrail.text.multiples.match_multiple_forms`; percentages among them), then each
        large number and date of the claim whose value the evidence states in another surface
        written as the evidence writes it, and each measured amount the evidence states in
        another unit in the evidence's unit
        (:func:`~guardrail.text.quantities.match_quantity_forms`); the pair as given when
        nothing matches.

    Raises
    ------
    ImportError
        ``text2num`` or ``pint`` is missing (the message names the pip command; both are core
        dependencies).

    Examples
    --------
    >>> match_value_forms("Revenue was $1.5 million, up 15%.", "Revenue was $1,500,000, up fifteen per cent.")
    ('Revenue was $1.5 million, up 15%.', 'Revenue was $1.5 million, up 15%.')
    >>> match_value_forms("It was founded on 3 March 2011.", "It was founded on 2011-03-03, not 2012-03-03.")
    ('It was founded on 3 March 2011.', 'It was founded on 3 March 2011, not 2012-03-03.')
    >>> match_value_forms("Open from 10:00 to 18:00.", "Open 10am to 6pm, or until 7 p.m.")[1]
    'Open 10:00 to 18:00, or until 7 p.m.'
    """
    evidence, claim = match_number_forms(*match_acronyms(evidence, claim))
    claim = _match_decades(evidence, match_multiple_forms(evidence, match_share_forms(evidence, claim)))
    if not any(ch.isdigit() for ch in claim):  # "two years", "a week": amounts without digits
        return match_quantity_forms(evidence, claim)
    for pattern, read in _KINDS:
        surfaces: dict[object, str] = {}
        for m, value in _values(pattern, read, evidence):
            surfaces.setdefault(value, m.group(0))
        if not surfaces:
            continue
        claim = pattern.sub(functools.partial(_in_evidence_form, read=read, surfaces=surfaces), claim)
    return match_quantity_forms(evidence, claim)


_DECADE_WORDS = {w: 10 * i for i, w in enumerate(
    "tens twenties thirties forties fifties sixties seventies eighties nineties".split(), 1)}
_DECADE = re.compile(r"(?<![\w'])(?:(1\d|20)(\d)0s|['\u2019](\d)0s|(" + "|".join(_DECADE_WORDS) + r"))\b", re.I)


def _decade(m: re.Match[str]) -> int:
    """The decade within its century: 90 for "1990s", "'90s" and "nineties"."""
    if m.group(4):
        return _DECADE_WORDS[m.group(4).lower()]
    return 10 * int(m.group(2) or m.group(3))


def _match_decades(evidence: str, claim: str) -> str:
    """Each decade the claim names without its century, in the evidence's surface when the evidence
    names exactly one decade ending so (see the module docstring)."""
    full: dict[int, set[str]] = {}
    for m in _DECADE.finditer(evidence):
        if m.group(1):
            full.setdefault(_decade(m), set()).add(m.group(0))

    def one(m: re.Match[str]) -> str:
        found = full.get(_decade(m), set())
        return next(iter(found)) if not m.group(1) and len(found) == 1 else m.group(0)

    return _DECADE.sub(one, claim) if full else claim


def _in_evidence_form(m: re.Match[str], *, read: Callable[[re.Match[str]], object],
                      surfaces: dict[object, str]) -> str:
    value = read(m)
    out = surfaces.get(value, m.group(0)) if value is not None else m.group(0)
    if m.group(0).endswith(".") and not out.endswith(".") and not m.string[m.end():].strip():
        out += "."  # "until 6 p.m." closing the claim keeps its full stop
    elif out.endswith(".") and m.string[m.end():m.end() + 1] == ".":
        out = out[:-1]  # "until 17:00." read as "until 5 p.m." ends with one full stop
    return out
