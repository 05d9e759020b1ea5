"""Literals a context states in another form than the answer: what :class:`~guardrail.detectors.
kg_values.LiteralGroundingDetector` (``kg_literals``) accepts after its value comparison fails.

Its first test compares normalised values (:func:`~guardrail.detectors.kg_values.same_value`); a
faithful figure can still be written so that no parsed value matches. :func:`grounded_in_another_form`
accepts these forms:

* **the verifier's value reading** (:func:`~guardrail.text.value_forms.match_value_forms`): the
  figure, rewritten into a context sentence's surface because the two are equal, is found in that
  sentence ("161 minutes" against "two hours and 41 minutes", "6pm" against "18:00");
* **a range or compound read as its parts**: a figure with two numerals or more ("10 to 25
  astronomical units") whose numerals and words all occur in one context sentence ("between 10
  and 25 astronomical units"); a single number is never accepted this way, so "650 metres" stays
  ungrounded next to "450 metres long and 650 feet wide";
* **tokenisation splits**: a figure that a tokenised context writes split after its punctuation
  ("$ 10, 000", "1. 7 million", "the 16 - year - old", as CNN/DM articles ship in summarisation
  data), found once the split is closed and not as written;
* **a count with words between it and its unit**: "five days" against "Up to 5 unused days" (the
  number, in digits or words, with the claim's unit word at most three words after it);
* **an ordinal**: a bare count stated as the same ordinal ("in round three" against "in the third
  round", "3rd"), and a run of periods stated as its last one ("three years running", "for three
  consecutive years" against "for the third consecutive year", "a third straight season");
* **an age**: "54-year-old", "54 years old" or "aged 54" against a number set off after a name
  ("Okafor, 54, is dean"), "(54)", "aged 54" or the same age.

Each test only ever grounds a figure, never flags one: a check that accepts too much misses an
error, one that accepts too little flags a faithful answer, and each form above was a faithful
answer flagged on the development data.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from guardrail.align.parsed import Sent, Slot
from guardrail.text.clock import CLOCK
from guardrail.text.numerals import digits_for_words
from guardrail.text.value_forms import match_value_forms

__all__ = ["grounded_in_another_form"]

_SPLIT_FIGURE = re.compile(r"(\d)([,.]) (\d)")
_SPLIT_HYPHEN = re.compile(r"(\w) - (?=\w)")
_FIGURE = re.compile(r"\d[\w,.-]*(?<=\w)")
_NUMERAL = re.compile(r"\d+(?:[.,]\d+)*")
_WORD = re.compile(r"[^\W\d_]+")
#: Words joining the parts of a range or compound ("10 to 25", "between 10 and 25").
_JOINERS = frozenset("to and or between from through until till".split())


def _figure(text: str) -> re.Pattern[str] | None:
    m = _FIGURE.search(text)
    return re.compile(r"(?<![\w.,])" + re.escape(m.group(0)) + r"(?![\w]|[.,]\d)") if m else None


def _surface(c: Slot, claim: str) -> str:
    """The slot's text, widened to the time of day it is the hour of ("6" of "until 6pm")."""
    for m in CLOCK.finditer(claim):
        if m.start() <= c.start < m.end():
            return m.group(0)
    return c.text


def _in_value_form(text: str, sents: Sequence[Sent]) -> bool:
    """The figure ``text``, in a sentence's surface where the two are equal, is in that sentence."""
    for s in sents:
        evidence, read = match_value_forms(s.text, text)
        if read != text and read.strip(" .,") and read.strip(" .,").lower() in evidence.lower():
            return True
    return False


def _parts_in_text(c: Slot, sents: Sequence[Sent]) -> bool:
    """A range or compound whose numerals and words all occur in one sentence."""
    nums = set(_NUMERAL.findall(c.text))
    if len(_NUMERAL.findall(c.text)) < 2:
        return False
    words = {w.lower() for w in _WORD.findall(c.text)} - _JOINERS
    for s in sents:
        if nums <= set(_NUMERAL.findall(s.text)) and words <= {w.lower() for w in _WORD.findall(s.text)}:
            return True
    return False


def _in_glued_text(c: Slot, sents: Sequence[Sent]) -> bool:
    """The figure is in a sentence (or two consecutive ones: "$ 1." | "7 million") once its
    tokenisation splits are closed, and not as written."""
    figure = _figure(c.text)
    if figure is None:
        return False
    texts = [s.text for s in sents] + [f"{a.text} {b.text}" for a, b in zip(sents, sents[1:])]
    for text in texts:
        glued = _SPLIT_HYPHEN.sub(r"\1-", _SPLIT_FIGURE.sub(r"\1\2\3", text))
        if glued != text and figure.search(glued) and not figure.search(text):
            return True
    return False


_ORDINALS = {w: i for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split(), 1)}
_ORDINAL = re.compile(r"\b(?:(\d+)(?:st|nd|rd|th)|(" + "|".join(_ORDINALS) + r"))\b", re.I)


def _tokens(text: str) -> list[str]:
    return [t.lower() for t in re.findall(r"\d+(?:[.,]\d+)*|[^\W\d_]+", digits_for_words(text))]


def _count_near_unit(c: Slot, sents: Sequence[Sent]) -> bool:
    """A count and its unit word ("five days") that a sentence states with words between them
    ("5 unused days")."""
    words = _tokens(c.text)
    if c.num is None or len(words) < 2 or not words[0][0].isdigit() or not words[-1].isalpha() \
            or sum(w[0].isdigit() for w in words) != 1:  # a range's other end is not this count
        return False
    number, unit = words[0], words[-1].rstrip("s")
    for s in sents:
        toks = _tokens(s.text)
        if any(t == number and any(u.rstrip("s") == unit for u in toks[i + 1:i + 5]) for i, t in enumerate(toks)):
            return True
    return False


def _as_ordinal(c: Slot, sents: Sequence[Sent]) -> bool:
    """A bare count ("round three") that a sentence states as the same ordinal ("the third round")."""
    if c.num is None or c.num.dim != "number" or not float(c.num.value).is_integer():
        return False
    for s in sents:
        for m in _ORDINAL.finditer(s.text):
            value = int(m.group(1)) if m.group(1) else _ORDINALS[m.group(2).lower()]
            if value == c.num.value:
                return True
    return False


#: A run of periods: "running", "in a row", "consecutive", "straight", "successive".
_RUN = re.compile(r"\b(?:running|in a row|consecutive|straight|successive)\b", re.I)


def _run_as_ordinal(c: Slot, sents: Sequence[Sent], claim: str) -> bool:
    """A run of periods ("three years running") that a sentence states as its last one, an ordinal
    within two words of the same unit in a run ("the third consecutive year", "third year in a row")."""
    words = _tokens(c.text)
    if c.num is None or not float(c.num.value).is_integer() or len(words) < 2 or not words[-1].isalpha():
        return False
    if not claim or not _RUN.search(claim[max(0, c.start - 16):c.end + 16]):
        return False
    unit = re.compile(r"^\W+(?:\w+\W+)?" + re.escape(words[-1].rstrip("s")) + r"s?\b", re.I)
    for s in sents:
        for m in _ORDINAL.finditer(s.text):
            value = int(m.group(1)) if m.group(1) else _ORDINALS[m.group(2).lower()]
            if value == c.num.value and unit.match(s.text[m.end():]) and _RUN.search(s.text[m.end():m.end() + 40]):
                return True
    return False


_AGE_AFTER = re.compile(r"^[\w.]+(?:-\w+)?[\s-]+years?[\s-]+old\b", re.I)


def _age(c: Slot, sents: Sequence[Sent], claim: str) -> bool:
    """An age ("54-year-old", "aged 54") that a sentence states as a number set off after a name
    ("Okafor, 54,"), in brackets, after "aged" or as the same age."""
    if c.num is None or not float(c.num.value).is_integer() or not claim:
        return False
    if not (_AGE_AFTER.match(claim[c.start:]) or re.search(r"\baged\s+$", claim[:c.start], re.I)):
        return False
    n = int(c.num.value)
    stated = re.compile(rf"(?:,\s*|\(\s*|\baged\s+){n}(?=\s*[,)]|\.(?:\s|$))|\b{n}[\s-]+years?[\s-]+old\b", re.I)
    return any(stated.search(digits_for_words(s.text)) for s in sents)


def grounded_in_another_form(c: Slot, sents: Sequence[Sent], claim: str = "") -> bool:
    """Whether the context states the claim figure ``c`` in another form (see the module docstring).

    Parameters
    ----------
    c : Slot
        A date or number slot of a claim sentence.
    sents : sequence of Sent
        The context sentences (and the question's, which a figure may also come from).
    claim : str
        The claim sentence ``c`` was read from (its offsets index it): an hour is read with its
        "pm" or ":00" there.

    Returns
    -------
    bool
        True when one of the forms above states it.
    """
    if c.num is None and c.kind != "DATE":
        return False
    return (_in_glued_text(c, sents) or _parts_in_text(c, sents) or _count_near_unit(c, sents)
            or _as_ordinal(c, sents) or _run_as_ordinal(c, sents, claim) or _age(c, sents, claim)
            or _in_value_form(_surface(c, claim), sents))
