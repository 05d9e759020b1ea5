"""Cardinal numbers written in words, as digits, for the claim verifier's input.

A context that says "340 people" and an answer that says "three hundred and forty people"
state the same fact, but a cross-encoder compares the two forms poorly: the shipped verifier
read the faithful "a staff of three hundred and forty" as unsupported (p 0.19). Both sides of
every verifier pair are read with their cardinal numbers in digits where that makes the two
agree (:func:`match_number_forms`, applied in
:func:`guardrail.models.claim_verifier.encode_pairs`, so training and inference read alike).

A run of English number words becomes the digits of its value with the maintained
``text2num`` package (``text_to_num.alpha2digit``), only when that is safe:

* the run holds only cardinal number words (and "and" or a hyphen inside it), its value
  is at least :data:`MIN_VALUE` ("one" is too often a pronoun: "one of them", "no one");
* scale words ("million", "billion", "trillion") stay words, so "three million" and "3
  million" both read "3 million", and a run right after a digit ("1.4 billion") is left;
* ordinals ("second", "third": "a second puff") are never converted, and a run that reads as
  more than one number ("nineteen ninety") is left as written.

Only the verifier's input changes: spans, explanations and every other detector read the
text as written.

References
----------
text2num (``text_to_num``), https://github.com/allo-media/text2num.
"""

from __future__ import annotations

import re
from functools import lru_cache

from guardrail._optional import require

__all__ = ["digits_for_words", "match_number_forms", "MIN_VALUE"]

#: Smallest value converted ("one" stays a word).
MIN_VALUE = 2

_UNITS = ("two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
          "seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety one").split()
_WORD = r"(?:" + "|".join(_UNITS) + r"|hundred|thousand)"
_RUN = re.compile(r"(?<![\w.,-])(?<!\d )" + _WORD + r"(?:(?:[ \t]+and[ \t]+|[ \t]+|-)" + _WORD + r")*(?![\w-])",
                  re.IGNORECASE)
_DIGITS = re.compile(r"\d[\d,]*")
_ANY = re.compile(r"\b(?:" + "|".join(_UNITS) + r"|hundred|thousand)\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _convert(run: str) -> str:
    alpha2digit = require("text_to_num").alpha2digit
    out = str(alpha2digit(run, "en", threshold=0))
    if not out.isdigit() or int(out) < MIN_VALUE:
        return run
    return out


def digits_for_words(text: str) -> str:
    """``text`` with each safe run of cardinal number words as digits (see the module).

    Parameters
    ----------
    text : str
        A claim or an evidence text.

    Returns
    -------
    str
        The text with "three hundred and forty" as "340", "twenty-one" as "21", "ten" as
        "10"; text without number words is returned as is. Its length may differ.

    Examples
    --------
    >>> digits_for_words("a staff of three hundred and forty, up from twenty-one")
    'a staff of 340, up from 21'
    >>> digits_for_words("one of them took a second puff after 1.4 billion")
    'one of them took a second puff after 1.4 billion'
    """
    if _ANY.search(text) is None:
        return text
    return _RUN.sub(lambda m: _convert(m.group(0)), text)


def _numbers(text: str) -> set[str]:
    return {m.group(0).replace(",", "") for m in _DIGITS.finditer(text)}


def match_number_forms(evidence: str, claim: str) -> tuple[str, str]:
    """The pair as the verifier reads it: number words as digits only where that makes a match.

    Both texts are read with :func:`digits_for_words` when that gives the claim and the
    evidence a number in common that they did not share as written ("three hundred and
    forty" against "340", "10 hours" against "ten hours"); otherwise both stay as written,
    so a pair that writes its numbers alike on both sides ("eight games" and "eight games")
    reads exactly as the verifier was trained on. Measured on the fit sets of
    ``benchmarks/fit_default.py``, converting every pair lowered the summarisation sets
    (ROC-AUC 0.881 to 0.861), whose articles and summaries write small numbers in words alike.

    Parameters
    ----------
    evidence, claim : str
        One verifier pair.

    Returns
    -------
    tuple of (str, str)
        ``(evidence, claim)``, converted or as given.

    Examples
    --------
    >>> match_number_forms("The company employs 340 people.", "It has three hundred and forty staff.")
    ('The company employs 340 people.', 'It has 340 staff.')
    >>> match_number_forms("He started the last eight games.", "He started eight games.")
    ('He started the last eight games.', 'He started eight games.')
    """
    e2, c2 = digits_for_words(evidence), digits_for_words(claim)
    if (e2, c2) == (evidence, claim):
        return evidence, claim
    ev, cl = _numbers(evidence), _numbers(claim)
    new = [n for n in _numbers(e2) & _numbers(c2) if (n in ev) != (n in cl)]  # words on one side only
    return (e2, c2) if new else (evidence, claim)
