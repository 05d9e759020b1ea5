"""Marks in passages (and answers) that state nothing: citation markers, footnote digits, timestamps, invisible characters.

Passages copied from an encyclopedia carry citation markers ("in 1932.[1]", "Gothenburg[2]",
"[citation needed]"), PDF and HTML text superscript footnote digits and soft hyphens inside words
("dehumidi\u00adfier"), and transcripts a timestamp on every line ("[00:00:11] Quist: ..."). Read as
text they are numbers the passage does not state, or words the answer cannot match.
:func:`blank_passage_marks` replaces them, one character for one, so a span into the result is a
span into the passage (:func:`guardrail.text.structure.normalize_passage` calls it first).
"""

from __future__ import annotations

import re

__all__ = ["blank_passage_marks", "footnote_marks", "blank_footnote_marks"]

#: Superscript digits marking a footnote: after punctuation, or after a word of three or more letters
#: ("...river.\u00b9", "Solberg\u00b2"); a unit's power ("m\u00b2", "km\u00b3") stays.
_SUPERSCRIPT_NOTE = re.compile(r"(?:(?<=[.,;:!?)\]\"'\u2019\u201d])|(?<=[^\W\d_]{3}))[\u00b9\u00b2\u00b3\u2070\u2074-\u2079]+")
#: A citation marker of an encyclopedia copy: "[1]", "[12]", "[a]", "[note 3]", "[citation needed]",
#: followed by white space, punctuation, another marker or the end.
_CITATION_MARK = re.compile(
    r"(?<=[\w.,;:!?)\"'\u2019\u201d\]])\[(?:\d{1,3}|[a-z]|(?:note|nb|n)[ \t]?\d{1,3}|citation needed|"
    r"clarification needed|dubious(?: \u2013 discuss)?|when\?|who\?|which\?|by whom\?|according to whom\?)\]"
    r"(?=[\s.,;:!?\[]|$)")
#: A transcript's timestamp opening a line ("[00:01:23] Speaker 1: ..."): when, not what was said.
_TIMESTAMP = re.compile(r"^[ \t]*\[(?:\d{1,2}:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?\][ \t]*", re.MULTILINE)
#: Invisible characters that HTML and PDF text leave inside words: soft hyphens, zero-width spaces and joiners.
_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")
#: A word with one of them inside ("Gothen\u00adburg"): read as the word, the spaces after it.
_INVISIBLE_IN_WORD = re.compile("\\w+(?:[\u00ad\u200b\u200c\u200d\u2060\ufeff]+\\w+)+")
#: The characters after which a citation marker cannot be code.
_CITATION_AFTER = frozenset(".,;:!?)\"'\u2019\u201d]")
#: Sentence punctuation after a citation marker ("Gothenburg[2].").
_CITATION_BEFORE = frozenset(".,;:!?")


def footnote_marks(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` offsets of the superscript footnote digits of ``text``.

    A superscript run right after punctuation or after a word of three or more letters
    ("... the river.\u00b9", "Solberg\u00b2") marks a footnote; one after a short unit
    ("m\u00b2", "km\u00b3") is a power and is not one. NFKC normalisation
    (:func:`guardrail.validate.clean_text`) keeps these as written, since read as plain digits
    ("river.1 She") they are a number the context never states.

    Parameters
    ----------
    text : str
        An answer or a passage, as written.

    Returns
    -------
    list of (int, int)
        Character offsets into ``text``, in order; empty for ASCII text.

    Examples
    --------
    >>> footnote_marks("It spans 312 metres.\u00b9 It covers 3 km\u00b2.")
    [(20, 21)]
    """
    return [] if text.isascii() else [m.span() for m in _SUPERSCRIPT_NOTE.finditer(text)]


def blank_footnote_marks(text: str) -> str:
    """``text`` with its superscript footnote digits (:func:`footnote_marks`) as spaces, same length.

    Parameters
    ----------
    text : str
        An answer or a passage.

    Returns
    -------
    str
        ``len(result) == len(text)``.

    Examples
    --------
    >>> blank_footnote_marks("It spans 312 metres.\u00b9 It covers 3 km\u00b2.")
    'It spans 312 metres.  It covers 3 km\u00b2.'
    """
    return text if text.isascii() else _SUPERSCRIPT_NOTE.sub(lambda m: " " * len(m.group(0)), text)


def blank_passage_marks(text: str) -> str:
    """``text`` with its citation markers, footnote digits, timestamps and invisible characters read away.

    * superscript footnote digits (:func:`blank_footnote_marks`) become spaces;
    * encyclopedia citation markers ("[1]", "[a]", "[note 3]", "[citation needed]") become spaces when
      the passage has one after punctuation or two before it, so code's ``arr[1]`` stays;
    * a timestamp opening a line ("[00:01:23]") becomes spaces;
    * a word with a soft hyphen or zero-width character inside is written without it, the
      spaces after it.

    Parameters
    ----------
    text : str
        One passage (cleaned, :func:`guardrail.validate.clean_text`).

    Returns
    -------
    str
        ``len(result) == len(text)``.

    Examples
    --------
    >>> blank_passage_marks("It opened in 1932.[1] It is estab\u00adlished.")
    'It opened in 1932.    It is established .'
    """
    text = blank_footnote_marks(text)
    if "[" in text:
        text = _TIMESTAMP.sub(_spaces, _blank_citations(text))
    if _INVISIBLE_IN_WORD.search(text):
        text = _INVISIBLE_IN_WORD.sub(_visible_word, text)
    return text


def _spaces(m: re.Match[str]) -> str:
    return " " * len(m.group(0))


def _visible_word(m: re.Match[str]) -> str:
    """A word without its invisible characters ("Gothen\u00adburg"), padded with spaces to its length."""
    word = _INVISIBLE.sub("", m.group(0))
    return word + " " * (len(m.group(0)) - len(word))


def _blank_citations(text: str) -> str:
    """``text`` with encyclopedia-style citation markers as spaces ("in 2011.[1]", "Gothenburg[2][a]",
    "[citation needed]") when the passage has one after punctuation or two before it ("Gothenburg[2].");
    a passage with neither keeps ``arr[1]`` (code documentation)."""
    marks = list(_CITATION_MARK.finditer(text))
    after_punct = any(m.start() and text[m.start() - 1] in _CITATION_AFTER for m in marks)
    before_punct = sum(text[m.end():m.end() + 1] in _CITATION_BEFORE for m in marks)
    if not after_punct and before_punct < 2:
        return text
    return _CITATION_MARK.sub(_spaces, text)
