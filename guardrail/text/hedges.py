"""Hedges: the words that soften a claim without changing what it states.

"I think Apple was founded in 1999", "Apple was founded in 1999, but I'm not sure." and
"Apple was, if I remember correctly, founded in 1999." all state that Apple was founded in
1999. The claim verifier reads a sentence without its hedges (:func:`strip_hedges`), so a
hedge anywhere in the sentence (in front, at the end, in the middle between commas or
brackets, or a hedging adverb) never turns a wrong claim into a supported one. Stance and
discourse markers in front of or after the claim ("Funny enough, ...", "Fun fact: ...",
"..., believe it or not.") are read the same way: they frame a claim without changing it.
"""

from __future__ import annotations

import re

__all__ = ["strip_hedges", "hedge_spans"]

#: The hedge phrases themselves (lower-cased match; ``'`` for the typographic apostrophe).
_CORE = (
    r"(?:i'?m|i am) not (?:entirely |completely |totally |really |quite |absolutely |100% )?(?:sure|certain)"
    r"(?: about (?:this|that|it))?(?: though)?"
    r"|not (?:entirely |completely |totally |really |quite |100% )?(?:sure|certain)(?: though)?"
    r"|i (?:think|believe|guess|suppose|reckon|assume|imagine)(?: so)?"
    r"|i (?:could|might|may) be (?:wrong|mistaken)"
    r"|(?:if|unless) i'?m not mistaken|unless i'?m mistaken|if i am not mistaken"
    r"|if i (?:remember|recall) (?:correctly|right|rightly)|if memory serves(?: me)?(?: right| correctly| well)?"
    r"|as far as i (?:know|remember|recall|can tell)"
    r"|to (?:the best of )?my (?:knowledge|recollection)"
    r"|don'?t quote me(?: on (?:that|this|it))?"
    r"|(?:it )?seems like|it seems|i'?d say"
    r"|maybe|perhaps|probably|possibly|apparently|presumably|supposedly"
)
#: Stance and discourse markers: they frame a claim without changing what it states ("Funny
#: enough, it was French soldiers who found it" read 0.11 supported, 0.90 without the marker).
_STANCE = (
    r"(?:funny|funnily|oddly|strangely|curiously|interestingly|surprisingly|amazingly|ironically)(?: enough)?"
    r"|(?:the )?funny thing is|fun fact(?: is)?|believe it or not|as it (?:happens|turns out)|in fact|of course"
    r"|actually|basically|essentially|incidentally|notably|remarkably|admittedly|anyway|still|plus|also"
)
#: A hedge in front of the claim ("I'm not sure, but I think ...", "Well, maybe ...").
_LEADING = re.compile(
    rf"^\s*(?:(?:no|well|hmm|honestly|sorry|so|ok|okay|{_STANCE})\s*[,:]\s*"
    rf"|(?:{_CORE})(?: that)?\s*[,;:.\-\u2013\u2014]?\s*(?:but\s*,?\s*)?)+",
    re.I,
)
#: A stance marker after the claim (", funnily enough.", ", believe it or not!").
_TRAILING_STANCE = re.compile(rf"\s*,\s*(?:{_STANCE})(?=[\s.!?\"')\]]*$)", re.I)
#: A hedge after the claim (", but I'm not sure.", " I think.", "(if I remember correctly)").
_TRAILING = re.compile(
    rf"(?:\s*[,;:\-\u2013\u2014(]\s*|\s+)(?:(?:but|though|although|and|or)\s+)?(?:{_CORE})\s*\)?"
    r"(?=[\s.!?\"')\]]*$)",
    re.I,
)
#: A hedge inside the claim, set off by commas, dashes or brackets (", I think, ").
_INNER = re.compile(rf"\s*([,(\u2013\u2014]|\s-)\s*(?:{_CORE})\s*[,)\u2013\u2014]?(?=\s)", re.I)
#: A hedging adverb anywhere ("Apple was probably founded in 1999").
_ADVERB = re.compile(r"\b(?:maybe|perhaps|probably|possibly|apparently|presumably|supposedly)\b\s*,?", re.I)
_WORD = re.compile(r"[A-Za-z0-9]")


def _apostrophes(text: str) -> str:
    return text.replace("\u2019", "'")


def hedge_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the hedges in ``text`` (leading, trailing, inner and adverbs).

    Parameters
    ----------
    text : str
        One sentence.

    Returns
    -------
    list of (int, int)
        ``(start, end)`` offsets into ``text``, in order and not overlapping.
    """
    plain = _apostrophes(text)
    found: list[tuple[int, int]] = []
    for pattern in (_LEADING, _TRAILING, _TRAILING_STANCE, _INNER, _ADVERB):
        for m in pattern.finditer(plain):
            if m.end() > m.start() and _WORD.search(m.group(0)):
                found.append((m.start(), m.end()))
    found.sort()
    merged: list[tuple[int, int]] = []
    for s, e in found:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return merged


def strip_hedges(text: str) -> str:
    """``text`` without its hedges (:func:`hedge_spans`); unchanged when nothing would be left.

    Parameters
    ----------
    text : str
        One sentence.

    Returns
    -------
    str
        The sentence as a plain statement: ``"Apple was founded in 1999, but I'm not sure."``
        gives ``"Apple was founded in 1999."``.
    """
    spans = hedge_spans(text)
    if not spans:
        return text
    plain = _apostrophes(text)
    parts, pos = [], 0
    for s, e in spans:
        parts.append(plain[pos:s])
        parts.append(" ")
        pos = e
    parts.append(plain[pos:])
    rest = re.sub(r"\s+([.,;:!?])", r"\1", re.sub(r"\s{2,}", " ", "".join(parts))).strip()
    rest = re.sub(r"^[,;:\s]+", "", rest)
    if not _WORD.search(rest):
        return text
    return rest
