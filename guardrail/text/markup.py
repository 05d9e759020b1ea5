"""Answer markup that states nothing: Markdown, list markers and citation markers, blanked.

LLM answers arrive formatted: ``**bold**`` values, numbered and bulleted lists, ``## headers``,
Markdown tables, `` `code` `` and citation markers such as ``[1]`` or ``[Doc 2]``. A person reads
past the markup; the detectors would not: a list number ``"1."`` or a marker ``"[2]"`` reads as
a number that the context never states, ``"**"`` splits a name in two, and a header ("Summary")
becomes a claim of its own. Each was measured to flip a faithful answer to flagged.

:func:`blank_markup` replaces such markup by spaces (a table's inner cell border by a comma),
one character for one, so the text the detectors read has the same length as the answer and
every character offset into it (a flagged node's span) is an offset into the answer as
written. The user's answer itself is never changed: policies deliver it with its formatting.

What is blanked (and nothing else):

* emphasis markers: ``**`` and ``__`` around words, a single ``*`` or ``_`` pair around words
  (never inside a word: ``cache_ttl``, ``2*3`` stay);
* the backticks around inline code (a PTB opening quote ```` `` ```` is no code) and the fence lines of a code block (the code itself is kept);
* at the start of a line: bullets (``-``, ``*``, ``+``, ``•``), numbers (``1.``, ``2)``),
  letters (``a)``), blockquote ``>`` markers and header ``#`` markers; a header line of at
  most :data:`TITLE_MAX_WORDS` words with no digit (a title: "Summary", "Key facts") is
  blanked whole;
* horizontal rules and a table's separator row (``|---|---|``) and the header row above it;
  the outer cell borders of a table row become spaces and its inner borders commas;
* citation markers: ``[1]``, ``[1, 2]``, ``[^3]``, ``[Doc 2]``, ``[source 1]``, ``【4†source】``.

References
----------
CommonMark Spec 0.31.2, sections 4.2 (ATX headings), 5.1-5.3 (block quotes, lists) and
6.2 (emphasis); GitHub Flavored Markdown Spec, section 4.10 (tables).
"""

from __future__ import annotations

import re

__all__ = ["blank_markup", "TITLE_MAX_WORDS"]

#: A header line of at most this many words and no digit is a title, not a claim.
TITLE_MAX_WORDS = 8

_FENCE = re.compile(r"^[ \t]*(?:```|~~~)[^\n`]*$")
_HEADER = re.compile(r"^([ \t]{0,3}#{1,6})([ \t]+|$)")
_QUOTE = re.compile(r"^[ \t]{0,3}(?:>[ \t]?)+")
_BULLET = re.compile(r"^[ \t]*(?:[-*+\u2022\u25aa\u2023\u25e6]|\d{1,3}[.)]|[a-z]\))[ \t]+(?=\S)")
_RULE = re.compile(r"^[ \t]*(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$")
_TABLE_SEP = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*$")
_TABLE_ROW = re.compile(r"^[ \t]*\|.*\|[ \t]*$")
_STRONG = re.compile(r"(?<![\w*])\*\*(?=\S)([^\n]*?\S)\*\*(?![\w*])|(?<![\w_])__(?=\S)([^\n]*?\S)__(?![\w_])")
_EM = re.compile(r"(?<![\w*\\])\*(?=[^\s*])([^*\n]*?[^\s*\\])\*(?![\w*])|(?<![\w_\\])_(?=[^\s_])([^_\n]*?[^\s_\\])_(?![\w_])")
_CODE = re.compile(r"(?<!`)(`{1,3})(?=[^\s`])([^`\n]*?[^\s`])\1(?!`)")
_CITATION = re.compile(
    r"\[\^?\d{1,3}(?:[ \t]*[,;\u2013-][ \t]*\d{1,3})*\]"
    r"|\[(?:doc|docs|document|source|sources|passage|context|ref|reference|chunk)[ \t]*#?\d{1,3}\]"
    r"|\u3010\d{1,3}(?:\u2020[^\u3011\n]{0,40})?\u3011",
    re.IGNORECASE,
)


def _spaces(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def _pairs(pattern: re.Pattern[str], line: str, width: int) -> str:
    """``line`` with the delimiters (``width`` characters each side) of every match blanked."""
    def sub(m: re.Match[str]) -> str:
        s = m.group(0)
        return " " * width + s[width:-width] + " " * width
    return pattern.sub(sub, line)


def _table_row(line: str) -> str:
    """A table row's cell borders: the outer ones blanked, the inner ones commas."""
    first, last = line.index("|"), line.rindex("|")
    inner = line[first + 1:last].replace("|", ",")
    return line[:first] + " " + inner + " " + line[last + 1:]


def _line(line: str, is_header_row: bool) -> str:
    if _FENCE.match(line) or _RULE.match(line) or _TABLE_SEP.match(line) or is_header_row:
        return _spaces(line)
    if _TABLE_ROW.match(line):
        line = _table_row(line)
    m = _HEADER.match(line)
    if m:
        rest = line[m.end():]
        if len(rest.split()) <= TITLE_MAX_WORDS and not any(c.isdigit() for c in rest):
            return _spaces(line)
        line = " " * m.end(1) + line[m.end(1):]
    for pat in (_QUOTE, _BULLET):
        line = pat.sub(lambda x: " " * len(x.group(0)), line, count=1)
    line = _pairs(_STRONG, line, 2)
    line = _pairs(_EM, line, 1)
    line = _CODE.sub(lambda x: " " * len(x.group(1)) + x.group(2) + " " * len(x.group(1)), line)
    return _CITATION.sub(lambda x: " " * len(x.group(0)), line)


def blank_markup(text: str) -> str:
    """``text`` with its Markdown, list and citation markup replaced by spaces (see the module).

    Parameters
    ----------
    text : str
        An answer as written.

    Returns
    -------
    str
        Of the same length as ``text`` (line breaks kept), so every character offset into it
        is an offset into ``text``. Text without markup characters is returned as is.

    Examples
    --------
    >>> blank_markup("1. It employs **340** people [2].")
    '   It employs   340   people    .'
    """
    if not any(c in text for c in "*_`#>|[)-+\u2022\u25aa\u2023\u25e6\u3010~") and not re.search(r"^\s*\d{1,3}[.)]\s", text, re.M):
        return text
    lines = text.split("\n")
    out = []
    for k, line in enumerate(lines):
        header_row = (_TABLE_ROW.match(line) is not None and k + 1 < len(lines)
                      and _TABLE_SEP.match(lines[k + 1]) is not None)
        out.append(_line(line, header_row))
    return "\n".join(out)
