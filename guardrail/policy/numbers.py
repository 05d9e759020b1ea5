"""The numbers of a feedback item, in digits or in words, and a replacement in the answer's style.

A flagged number may be written in words in the answer ("eighteen staff") or in the
evidence ("fourteen"). Values are read with the project's value normalisation
(:func:`guardrail.align.values.number_values`, quantulum3), not a table of our own;
:func:`numerals` keeps the bare number of each value (the unit words of "forty metres"
left out) so that only the number is replaced. :func:`written_like` writes a replacement
in the answer's style where that is simple: digits stay digits ("18" -> "14" even when
the evidence says "fourteen"); a number in words takes the evidence's form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from guardrail.align.values import NumValue, number_values

__all__ = ["Numeral", "numerals", "is_number", "number_value", "digits_for", "written_like"]

_DIGITS = re.compile(r"\d(?:[\d,.]*\d)?")
_PIECE = re.compile(r"\S+")


@dataclass(frozen=True)
class Numeral:
    """One bare number of a text.

    Parameters
    ----------
    start, end : int
        Character span of the number (unit words excluded) in the text.
    value : float
        Its value (``"fourteen"`` -> 14.0, ``"1,200"`` -> 1200.0).
    words : bool
        True when written in words.
    """

    start: int
    end: int
    value: float
    words: bool


def _digit_value(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:  # "1.2.3", a version or a list
        return None


def _word_part(text: str, v: NumValue) -> Numeral | None:
    """The number words of the value ``v`` of ``text``, its unit words left out ("forty metres" -> "forty")."""
    if v.dim == "number" and v.unit != "dimensionless":
        return None  # "a dozen" is read as 1 dozen: not a bare number
    surface = text[v.start:v.end]
    ends = [m.end() for m in _PIECE.finditer(surface)]
    for end in ends:  # the shortest piece with the same value: "forty", not "forty metres"
        piece = surface[:end]
        got = number_values(piece)
        if len(got) == 1 and got[0].words and got[0].start == 0 and got[0].end == len(piece) \
                and got[0].value == v.value and got[0].unit == "dimensionless":  # "a year" is no number word
            return Numeral(v.start, v.start + end, v.value, True)
    return None


def numerals(text: str) -> list[Numeral]:
    """The bare numbers of ``text``, digits and words, in text order.

    Parameters
    ----------
    text : str
        A short text (a node text, a sentence).

    Returns
    -------
    list of Numeral
        Digit numerals ("1,200", "3.5") and numbers in words ("fourteen", "twenty-one"),
        each without its unit words; a word number whose reading is not a plain count
        ("a dozen", "a year") is left out.

    Examples
    --------
    >>> [(n.value, n.words) for n in numerals("eighteen staff since 2009")]
    [(18.0, True), (2009.0, False)]
    """
    out = []
    for m in _DIGITS.finditer(text):
        value = _digit_value(m.group(0))
        if value is not None:
            out.append(Numeral(m.start(), m.end(), value, False))
    for v in number_values(text):
        if v.words and not any(n.start < v.end and v.start < n.end for n in out):
            part = _word_part(text, v)
            if part is not None:
                out.append(part)
    return sorted(out, key=lambda n: n.start)


def is_number(text: str) -> bool:
    """Whether ``text`` holds a number, in digits or in words."""
    return any(c.isdigit() for c in text) or bool(numerals(text))


def number_value(text: str) -> float | None:
    """The value of ``text`` when it is one bare number (``"fourteen"``, ``"14"``), else ``None``."""
    nums = numerals(text)
    if len(nums) != 1 or text[:nums[0].start].strip() or text[nums[0].end:].strip():
        return None
    return nums[0].value


def digits_for(value: float, like: str = "") -> str:
    """``value`` in digits: an integer without a decimal point, with thousands separators
    when ``like`` (the number it replaces) has them.

    Examples
    --------
    >>> digits_for(14.0), digits_for(2.5), digits_for(1500.0, like="1,200")
    ('14', '2.5', '1,500')
    """
    if value == int(value):
        return f"{int(value):,}" if "," in like else str(int(value))
    return f"{value:,}" if "," in like else str(value)


def written_like(old: Numeral, old_text: str, new: Numeral, new_text: str) -> str:
    """The number ``new`` (a numeral of ``new_text``) written in the style of ``old`` (of ``old_text``).

    Digits stay digits: a replacement the evidence writes in words is written in digits.
    A number the answer writes in words takes the evidence's form, words or digits.

    Examples
    --------
    >>> a, b = numerals("18 staff")[0], numerals("fourteen")[0]
    >>> written_like(a, "18 staff", b, "fourteen")
    '14'
    """
    surface = new_text[new.start:new.end]
    if new.words and not old.words:
        return digits_for(new.value, old_text[old.start:old.end])
    return surface
