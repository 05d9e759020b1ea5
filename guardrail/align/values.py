"""Typed literal values of a sentence, normalised so that a rewording compares equal.

The knowledge-graph contradiction checks (:mod:`guardrail.detectors.kg_values`) compare
the dates, numbers, money amounts, quantities and percentages of a claim with those of
its evidence. Values are normalised with maintained libraries, not tables of our own:

* numbers, quantities, money and percentages with ``quantulum3`` ("fourteen" = 14,
  "1.5 million" = 1,500,000, "5 to 10" = the range 5..10, "20-litre" = 20 litre),
  after rewriting the compact multipliers it misreads ("1.5bn", "$3.2m");
* dates with ``dateparser``: each explicit component (year, month, day) is an *atom*,
  so "4 to 22 November 2024" is ``{y2024, m11, d4, d22}`` and "March 2022" matches
  "15 March 2022" (components the text does not state are found by parsing twice
  against two different reference dates and keeping what does not move).

A value's *precision* follows its surface: "1.2 million" stands for anything that rounds
to it (1,150,000 to 1,250,000), "45" for 44.5 to 45.5; a hedge ("about", "nearly")
widens that to 10 %.

References
----------
Sansford et al., "GraphEval: A Knowledge-Graph Based LLM Hallucination Evaluation
Framework", 2024 (literal nodes compared after normalisation).
"""

from __future__ import annotations

import datetime as _dt
import functools
import math
import re
import threading
from dataclasses import dataclass, replace
from typing import Any

from guardrail._optional import require
from guardrail.text.lexicon import HEDGES
from guardrail.text.shares import FRACTIONS, share_values

__all__ = ["NumValue", "number_values", "date_atoms", "numbers_equal", "units_compatible", "HEDGES"]


_MULT = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)*)\s?(bn|mn|m|k|tn)\b", re.I)
_MULT_WORD = {"bn": "billion", "mn": "million", "m": "million", "k": "thousand", "tn": "trillion"}
_DIGITS = re.compile(r"\d[\d,]*(?:\.\d+)?")
_RANGE_SPLIT = re.compile(r"\s*(?:\bto\b|\buntil\b|\btill\b|\bthrough\b|\band\b|[-–—])\s*")
_LOCK = threading.Lock()


@dataclass(frozen=True)
class NumValue:
    """One number of a text, normalised.

    Attributes
    ----------
    value : float
        The value in the unit of the text (a range endpoint for ranges).
    unit : str
        quantulum3's unit name (``"dimensionless"``, ``"litre"``, ``"percentage"``, ...).
    dim : str
        ``"percent"``, ``"currency"``, ``"number"`` or quantulum3's physical entity
        (``"length"``, ``"time"``, ...): what the value measures.
    start, end : int
        Character span of its surface in the text (both endpoints of a range share it).
    tol : float
        Half-width within which another value counts as the same (>= 0).
    words : bool
        True when written without digits ("fourteen").
    """

    value: float
    unit: str
    dim: str
    start: int
    end: int
    tol: float
    words: bool


def _quantulum() -> Any:
    parser = require("quantulum3.parser")
    clf = require("quantulum3.classifier")
    setattr(clf, "USE_CLF", False)  # noqa: B010 - its pickled classifier needs another scikit-learn
    return parser


def _rewrite_multipliers(text: str) -> tuple[str, list[int]]:
    """"1.5bn" -> "1.5 billion"; also the map from new offsets to old ones."""
    out: list[str] = []
    pos: list[int] = []
    last = 0
    for m in _MULT.finditer(text):
        out.append(text[last:m.start(2)])
        pos.extend(range(last, m.start(2)))
        word = " " + _MULT_WORD[m.group(2).lower()] if not text[m.end(1):m.start(2)] else _MULT_WORD[m.group(2).lower()]
        out.append(word)
        pos.extend([m.start(2)] * (len(word) - 1) + [m.end(2) - 1])
        last = m.end(2)
    out.append(text[last:])
    pos.extend(range(last, len(text) + 1))
    return "".join(out), pos


def _dim(q: Any) -> str:
    name = str(q.unit.name).replace(" ", "").lower()
    if "percent" in name or name == "percentage":
        return "percent"
    entity = str(q.unit.entity.name)
    if entity == "currency":
        return "currency"
    if entity in ("dimensionless", "unknown"):
        return "number"
    return entity


def _tolerance(surface: str, value: float, approx: bool) -> float:
    m = _DIGITS.search(surface)
    half = 0.5
    if m:
        digits = m.group(0).replace(",", "")
        try:
            base = float(digits)
        except ValueError:
            base = 0.0
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        ratio = abs(value / base) if base else 1.0
        mult = 10.0 ** round(math.log10(ratio)) if ratio >= 5 else 1.0  # "1.5 million"
        half = 0.5 * 10.0 ** (-decimals) * mult
    return max(half, 0.1 * abs(value)) if approx else half


def _hedged(text: str, start: int) -> bool:
    before = text[max(0, start - 20):start].lower().split()
    return bool(before) and (before[-1] in HEDGES or " ".join(before[-2:]) in HEDGES)


_NUMERAL = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])\d+(?:\.\d+)?")


def _numerals(text: str) -> list[tuple[int, int, float]]:
    """Digit numerals of ``text`` that are not part of a word ("30M", "1500s", "COVID-19")."""
    out = []
    for m in _NUMERAL.finditer(text):
        after = text[m.end():m.end() + 1]
        before = text[max(0, m.start() - 2):m.start()]
        if after.isalpha() and after.islower() and after in "s" or re.search(r"[A-Za-z]-$", before):
            continue
        out.append((m.start(), m.end(), float(m.group(0).replace(",", ""))))
    return out


def _consistent(q: Any, digits: list[tuple[int, int, float]]) -> bool:
    """quantulum3's reading agrees with the digits of its surface (one numeral, a power of
    1000 apart, or a range); it sometimes merges "2002 to C$410 million" into one."""
    if q.uncertainty:
        return len(digits) == 2
    if len(digits) != 1:
        return not digits
    ratio = abs(float(q.value)) / digits[0][2] if digits[0][2] else 1.0
    return any(abs(ratio - k) <= 1e-6 * k for k in (1.0, 1e3, 1e6, 1e9, 1e12))


#: An article right before a currency amount: quantulum3 reads "a £1.2 million grant" as 1 (the
#: article) pound to the power 1.2e6 and the amount is lost; blanked (same length) before parsing.
_ARTICLE = re.compile(r"(?<!\w)an? (?=[£$€¥]\s?\d)", re.I)


@functools.lru_cache(maxsize=4096)
def _parse_numbers(text: str) -> tuple[NumValue, ...]:
    parser = _quantulum()
    clean = text.translate(str.maketrans("()[]", "    "))  # "(£500)" is not -500
    clean = _ARTICLE.sub(lambda m: " " * len(m.group(0)), clean)  # "a £1.2 million grant" is not 1 pound^1.2e6
    new, pos = _rewrite_multipliers(clean)
    with _LOCK:
        quants = parser.parse(new)
    numerals = _numerals(text)
    out: list[NumValue] = []
    for q in quants:
        s, e = q.span
        surface = str(q.surface)
        start, end = pos[s], pos[max(s, e - 1)] + 1
        digits = [n for n in numerals if n[0] < end and n[1] > start]
        sep = " and " if " and " in surface else " to "
        if surface.lower().endswith(" at") and str(q.unit.name).endswith("ampere-turn"):
            out.extend(_parse_pieces(new, pos, s, e - 3, "\0"))  # "nine weeks at number one": "at" is no unit
            continue
        if sep in surface and (q.uncertainty is None or not _range_ok(q, digits)):
            out.extend(_parse_pieces(new, pos, s, e, sep))  # "1918 and thirteen years" summed
            continue
        if not _consistent(q, digits) or (not digits and any(ch.isdigit() for ch in surface)):
            continue
        end = max([end, *(n[1] for n in digits)])  # "a £1.50" read as "a £1"
        value = float(q.value)
        if len(digits) == 1 and not q.uncertainty:
            ratio = abs(value) / digits[0][2] if digits[0][2] else 1.0
            value = digits[0][2] * round(ratio) if ratio >= 1 else value
        tol = _tolerance(text[start:end], value, _hedged(text, start))
        words = not digits
        vals = [value] if not q.uncertainty else [float(q.value - q.uncertainty), float(q.value + q.uncertainty)]
        for v in vals:
            out.append(NumValue(v, str(q.unit.name), _dim(q), start, end, tol, words))
    for s, e, v in numerals:  # digits quantulum3 left out or misread: plain numbers
        if not any(x.start <= s and e <= x.end for x in out):
            out.append(NumValue(v, "dimensionless", "number", s, e, _tolerance(text[s:e], v, _hedged(text, s)), False))
    return tuple(sorted(_with_shares(text, _fractions_of_measures(text, out)), key=lambda x: x.start))


#: A fraction before "a" / "an" and what it is a fraction of ("half a kilo", "a quarter of an hour").
_FRACTION_LEAD = re.compile(r"(" + "|".join(re.escape(f).replace(r"\ ", r"\s+") for f in sorted(FRACTIONS, key=len, reverse=True))
                            + r")(?:\s+of)?\s+(?=an?\s)", re.I)
_A_WORD = re.compile(r"an?\s+[\w-]+")


def _fractions_of_measures(text: str, out: list[NumValue]) -> list[NumValue]:
    """``out`` with a fraction of a measure read as one value: quantulum3 reads "half a kilo" as 0.5 per
    kilogram, "half a million" as 1,500,000, and "a quarter of an hour" as 0.25 and one hour."""
    res: list[NumValue] = []
    used: set[int] = set()
    for i, v in enumerate(out):
        m = _FRACTION_LEAD.match(text, v.start)
        if i in used or m is None:
            if i not in used:
                res.append(v)
            continue
        frac = FRACTIONS[" ".join(m.group(1).lower().split())] / 100.0
        if v.end > m.end():  # one value over the whole phrase: read what follows the fraction alone
            base, end = next(iter(number_values(text[m.end():v.end])), None), v.end
        else:  # the fraction alone, then the measure ("an hour") as the next value, or read alone
            nxt = next((j for j in range(i + 1, len(out)) if out[j].start == m.end()), None)
            word = _A_WORD.match(text, m.end())
            base = out[nxt] if nxt is not None else next(iter(number_values(word.group(0))), None) if word else None
            end = base.end if nxt is not None and base is not None else (m.end() + base.end if base else v.end)
            used |= {nxt} if nxt is not None else set()
        if base is None or base.dim == "percent":
            res.append(v)
            continue
        if base.unit.endswith("dozen"):  # "half a dozen": six
            base = replace(base, value=12.0 * base.value, unit="dimensionless", tol=0.5)
        res.append(NumValue(frac * base.value, base.unit, base.dim, v.start, end, frac * base.tol, True))
    return res


#: "a quarter of a kilo", "a third of an hour": a fraction of a measure, not a share (left as quantulum3 reads it).
_OF_A_MEASURE = re.compile(r"\s+of\s+an?\s", re.I)


def _with_shares(text: str, out: list[NumValue]) -> list[NumValue]:
    """``out`` with each fraction or proportion of ``text`` ("a quarter of", "one in four",
    :func:`~guardrail.text.shares.share_values`) read as the percentage it is, within half a
    point: quantulum3 reads "a quarter of the cost" as the bare number 0.25, which no "20%" contradicts."""
    shares = [(s, e, pct) for s, e, pct, _, kind in share_values(text)
              if kind != "percent" and not _OF_A_MEASURE.match(text, e)]
    if not shares:
        return out
    kept = [v for v in out if not any(v.start < e and s < v.end for s, e, _ in shares)]
    return kept + [NumValue(pct, "percentage", "percent", s, e, 0.5, not any(ch.isdigit() for ch in text[s:e]))
                   for s, e, pct in shares]


def _range_ok(q: Any, digits: list[tuple[int, int, float]]) -> bool:
    """Both ends of a range are its numerals times one same power of 1000."""
    if len(digits) != 2 or not digits[0][2] or not digits[1][2]:
        return False
    lo, hi = float(q.value - q.uncertainty), float(q.value + q.uncertainty)
    r1, r2 = abs(lo) / digits[0][2], abs(hi) / digits[1][2]
    return abs(r1 - r2) <= 1e-6 * max(r1, r2)


def _parse_pieces(new: str, pos: list[int], s: int, e: int, sep: str) -> list[NumValue]:
    """Parse each side of a surface that quantulum3 joined ("1918 and thirteen years")."""
    out: list[NumValue] = []
    off = s
    for piece in new[s:e].split(sep):
        for v in _parse_numbers(piece):
            a, b = pos[off + v.start], pos[max(off + v.start, off + v.end - 1)] + 1
            out.append(NumValue(v.value, v.unit, v.dim, a, b, v.tol, v.words))
        off += len(piece) + len(sep)
    return out


def number_values(text: str) -> tuple[NumValue, ...]:
    """The numbers, quantities, money amounts and percentages of ``text``.

    Parameters
    ----------
    text : str
        One sentence (or any short text).

    Returns
    -------
    tuple of NumValue
        In text order; a range gives its two endpoints (same span).

    Raises
    ------
    ImportError
        When ``quantulum3`` is missing (the message names the pip command).
    """
    return _parse_numbers(text)


def units_compatible(a: NumValue, b: NumValue) -> bool:
    """Whether two values measure the same thing (same dimension, and the same unit when
    both name a physical unit; a bare number is compatible with a count or money; a bare
    "degrees", which quantulum3 reads as an angle, with a temperature)."""
    if a.dim == "number" or b.dim == "number":
        return a.dim == b.dim or {a.dim, b.dim} <= {"number", "currency"}
    if {a.dim, b.dim} == {"angle", "temperature"}:  # "highs of 18 degrees" against "18°C": quantulum3 reads an angle
        return "degree angle" in (a.unit, b.unit)
    if a.dim != b.dim:
        return False
    if a.dim in ("percent", "currency"):
        return True
    return a.unit == b.unit


def numbers_equal(claim: NumValue, ctx: NumValue) -> bool:
    """``claim`` states ``ctx`` (within the claim's precision, and compatible units). Magnitudes are
    compared: a sign is as often written in words ("lagged by 0.28%" / "-0.28%", "minus five degrees" /
    "-5°C", which quantulum3 reads as 5), and the direction is the verifier's to check."""
    return units_compatible(claim, ctx) and abs(abs(claim.value) - abs(ctx.value)) <= max(claim.tol, 1e-9 * abs(ctx.value))


def _dateparser() -> Any:
    return require("dateparser")


_BASES = ((_dt.datetime(1901, 2, 3), "first"), (_dt.datetime(1987, 11, 27), "last"))


@functools.lru_cache(maxsize=8192)
def _piece_atoms(piece: str) -> frozenset[str]:
    dp = _dateparser()
    parsed = []
    for base, prefer in _BASES:
        d = dp.parse(piece, languages=["en"], settings={
            "RELATIVE_BASE": base, "PREFER_DAY_OF_MONTH": prefer, "PREFER_DATES_FROM": "current_period",
            "REQUIRE_PARTS": [], "STRICT_PARSING": False})
        if d is None:  # "the end of 2025": keep the year
            return frozenset(f"y{y}" for y in _YEAR.findall(piece))
        parsed.append(d)
    a, b = parsed
    atoms = set()
    if a.year == b.year and re.search(r"\b\d{4}\b", piece):
        atoms.add(f"y{a.year}")
    if a.month == b.month:
        atoms.add(f"m{a.month}")
    if a.day == b.day and a.month == b.month:
        atoms.add(f"d{a.day}")
    return frozenset(atoms)


_YEAR = re.compile(r"\b(1\d{3}|20\d{2})\b")
_DAY = re.compile(r"^\D*?(\d{1,2})\D*$")
_MONTHISH = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b1\d{3}\b|\b20\d{2}\b", re.I)


def date_atoms(text: str) -> frozenset[str]:
    """Explicit calendar components of a date expression, as atoms ``y<year>``,
    ``m<month>``, ``d<day>`` (a range contributes both ends: "4 to 22 November" ->
    ``{m11, d4, d22}``).

    Only expressions naming a month or a four-digit year are read; relative ones
    ("next spring", "Tuesday") and durations ("ten years") give an empty set.

    Raises
    ------
    ImportError
        When ``dateparser`` is missing (the message names the pip command).
    """
    if not _MONTHISH.search(text):
        return frozenset()
    pieces = [p for p in _RANGE_SPLIT.split(text) if p.strip()]
    atoms: set[str] = set()
    context = [p for p in pieces if _MONTHISH.search(p)]
    for p in pieces:
        if _MONTHISH.search(p):
            atoms |= _piece_atoms(p.strip(" ,."))
        elif context and (m := _DAY.match(p)):  # "4" of "4 to 22 November"
            atoms.add(f"d{int(m.group(1))}")
    return frozenset(atoms)
