"""Characters that read as others: decimal digits of every script and homoglyphs inside Latin words.

An answer that writes a wrong number in Arabic-Indic digits (``"٣٠ days"``) or a wrong word
with a Cyrillic letter inside (``"fоur"``) reads the same to a person as its plain form, so
it must be judged as its plain form. Both foldings replace one character by one character,
so every character offset into the folded text is an offset into the original.

* Every Unicode ``Nd`` (decimal digit) character becomes its ASCII digit
  (:func:`unicodedata.decimal`).
* Inside a word that mixes ASCII Latin letters with letters of another script, each letter
  that the Unicode confusables data (the maintained ``confusable_homoglyphs`` package) lists
  as a homoglyph of one ASCII letter becomes that letter. Words wholly in another script
  (Greek, Cyrillic prose) are left alone.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables

__all__ = ["fold_digits", "fold_homoglyphs", "latin_homoglyph"]

_NON_ASCII_DIGIT = re.compile(r"[^\x00-\x7f]")
#: A word with a non-ASCII character next to at least one ASCII letter.
_MIXED_WORD = re.compile(r"\w*(?:[A-Za-z]\w*[^\x00-\x7f]|[^\x00-\x7f]\w*[A-Za-z])\w*")
_ASCII_LETTER = re.compile(r"[A-Za-z]")


def _digit(match: re.Match[str]) -> str:
    ch = match.group(0)
    value = unicodedata.decimal(ch, None)
    return ch if value is None else str(value)


def fold_digits(text: str) -> str:
    """``text`` with every decimal digit of any script (category ``Nd``) as its ASCII digit.

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    str
        The same length as ``text``: ``"٣٠ days"`` gives ``"30 days"``, ``"३०"`` gives ``"30"``.
    """
    if text.isascii():
        return text
    return _NON_ASCII_DIGIT.sub(_digit, text)


@lru_cache(maxsize=4096)
def latin_homoglyph(ch: str) -> str:
    """The ASCII letter that the Unicode confusables data gives for the letter ``ch``, or ``ch``.

    Parameters
    ----------
    ch : str
        One character.

    Returns
    -------
    str
        One ASCII letter (Cyrillic ``о`` gives ``o``, Greek ``ρ`` gives ``p``), or ``ch`` itself
        when it is ASCII, not a letter, or has no single-letter ASCII homoglyph.
    """
    if ch.isascii() or not ch.isalpha():
        return ch
    found = confusables.is_confusable(ch, preferred_aliases=["latin"])
    if not found:
        return ch
    for glyph in found[0]["homoglyphs"]:
        c = glyph["c"]
        if len(c) == 1 and _ASCII_LETTER.fullmatch(c):
            return str(c)
    return ch


def _fold_word(match: re.Match[str]) -> str:
    return "".join(latin_homoglyph(ch) for ch in match.group(0))


def fold_homoglyphs(text: str) -> str:
    """``text`` with look-alike letters inside Latin words as their ASCII letters.

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    str
        The same length as ``text``: ``"fоur wееks"`` (Cyrillic ``о``, ``е``) gives
        ``"four weeks"``; ``"Zürich"`` and all-Cyrillic words are unchanged (``ü`` has no
        ASCII homoglyph; a word without an ASCII letter is not folded).
    """
    if text.isascii():
        return text
    return _MIXED_WORD.sub(_fold_word, text)
