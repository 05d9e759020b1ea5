"""Sentence splitting: a punctuation rule with abbreviations and initials, no model.

Used for answers (claim units), contexts (evidence sentences) and the filter policy.
"""

from __future__ import annotations

import re

from guardrail.text.lexicon import ABBREVIATIONS

__all__ = ["ABBREVIATIONS", "CLAUSE_MIN_WORDS", "split_sentences"]

#: A sentence ends at ``.``/``!``/``?`` (then closing quotes or brackets) before white space or
#: the end, or at a line break; "2.3", "cache.ttl" and "$1.4" do not end one. Passages glued
#: without a space ("... and Jerry Lawler.Michael Gregory Mizanin is ...", as scraped or
#: concatenated text often is) also end one where a word of lower-case letters or digits
#: meets a capitalised word followed by a space or comma (the ``glued`` group).
_BOUNDARY = re.compile(r"[.!?]+[\"')\]]*(?=\s|$)|\n|(?P<glued>(?<=[a-z0-9)\]][a-z0-9)\]])[.!?](?=[A-Z][a-z]+[\s,]))")
_LAST_TOKEN = re.compile(r"[\w.]+$")
_INITIALS = re.compile(r"(?:[a-z]\.)+[a-z]")


#: With ``clauses=True`` a semicolon also ends a sentence when both sides hold at least this many words.
CLAUSE_MIN_WORDS = 4
_SEMICOLON = re.compile(r";(?=\s)")


def split_sentences(text: str, clauses: bool = False) -> list[tuple[int, int]]:
    """Split ``text`` into sentence spans with a punctuation rule (no model).

    A sentence ends at ``.``, ``!`` or ``?`` (with any closing quotes or brackets) followed
    by white space or the end of the text, or at a line break, or between glued sentences
    ("Lawler.Michael Gregory", not "System.Collections.Generic" or "St.Louis"). A period inside a token
    ("2.3", "cache.ttl", "$1.4") or after an abbreviation, an initial or dotted initials
    (:data:`ABBREVIATIONS`, "J.", "U.S.") does not end one. Linear in ``len(text)``.

    Parameters
    ----------
    text : str
        Any text.
    clauses : bool, default False
        Also end a sentence at a semicolon before white space when both sides (within the
        sentence) hold at least :data:`CLAUSE_MIN_WORDS` words: independent clauses joined by
        a semicolon ("It was founded in 2011; it employs 340 people.") are two claims, while
        a semicolon list of short items ("Oslo; Bergen; Tromso") stays one sentence.

    Returns
    -------
    list of (start, end)
        Half-open character spans covering every non-blank sentence, in order.
    """
    spans: list[tuple[int, int]] = []

    def add(s: int, e: int) -> None:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            spans.append((s, e))

    start = 0
    for m in _BOUNDARY.finditer(text):
        if m.group(0).rstrip("\"')]") == "." and _abbreviation(text, start, m.start()):
            continue
        if m.group("glued") and "." in _last_token(text, start, m.start()):
            continue  # a dotted name ("System.Collections.Generic"), not two sentences
        add(start, m.end())
        start = m.end()
    add(start, len(text))
    return [c for s, e in spans for c in _clauses(text, s, e)] if clauses else spans


def _clauses(text: str, s: int, e: int) -> list[tuple[int, int]]:
    """The span ``(s, e)`` cut at each semicolon with :data:`CLAUSE_MIN_WORDS` words or more on
    both sides (a cut's right side counts the words up to the sentence end)."""
    out, start = [], s
    for m in _SEMICOLON.finditer(text, s, e):
        if len(text[start:m.start()].split()) >= CLAUSE_MIN_WORDS and len(text[m.end():e].split()) >= CLAUSE_MIN_WORDS:
            out.append((start, m.end()))
            start = m.end()
            while start < e and text[start].isspace():
                start += 1
    out.append((start, e))
    return out


def _last_token(text: str, start: int, dot: int) -> str:
    """The word (letters, digits, inner periods) right before ``dot``."""
    m = _LAST_TOKEN.search(text, max(start, dot - 64), dot)
    return m.group(0) if m else ""


def _abbreviation(text: str, start: int, dot: int) -> bool:
    """True when the period at ``dot`` closes an abbreviation or an initial ("J.", "U.S.")."""
    raw = _last_token(text, start, dot)
    tok = raw.lower()
    return tok in ABBREVIATIONS or (len(raw) == 1 and raw.isupper()) or bool(_INITIALS.fullmatch(tok))
