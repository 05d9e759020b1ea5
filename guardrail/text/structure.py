"""Structured passages: HTML, Markdown, tables, lists, key-value records and PDF text, read as prose.

Retrieved passages are often not prose. A RAG loader hands over Markdown files (headers,
bullet lists, tables), HTML pages, records ("Headquarters: Trondheim"), FAQs ("Q: ... / A:
...") and PDF text broken at every line ("The museum was estab-" / "lished in 1897 by the
city"). The sentence splitter ends a sentence at each line break, so a PDF paragraph becomes
fragments and a list item or a table row becomes a "sentence" without its subject
("Weight: 450 kg", "| Anna Lind | Chief Executive Officer | 2015 |"). Measured with the
shipped verifier, a claim read against such a fragment is rejected (a faithful "Norvik
Robotics is headquartered in Trondheim, Norway." 0.10 against "Headquarters: Trondheim,
Norway") while the same line read with its subject is supported (0.84) and a wrong city
against it is not (0.27).

Two steps, each with one job:

* :func:`normalize_passage` (same length as the passage, so every span into it is a span
  into the passage as given): HTML tags are blanked, block tags ending a line (``<li>`` a
  bullet, ``<h2>`` a header, ``<td>`` a cell border), character references read as their
  character; Markdown ``**`` emphasis markers are blanked; a line break inside a wrapped paragraph
  becomes a space and a word hyphenated across it is rejoined.
* :func:`read_sentences`: the text the claim verifier reads for each context sentence. A
  list item, a key-value line or a table row is read with the passage's title and the
  nearest header above it ("Norvik R2 delivery robot, Specifications: Weight: 450 kg."), a
  table row as "header: cell" pairs, an FAQ answer after its question; markers (``#``,
  bullets, pipes) are dropped. Prose sentences are read as they are.

Where the prefix goes was chosen on the claims data's dev part a, whose support, statistics
and workplace passages hold such lines (82 claims read differently; verifier ROC-AUC on
them 0.624 before this module): a prefix on every structured line 0.610, the title alone
0.610, no prefix 0.625, a prefix only on lines of at most six words 0.623 (shipped; on part
b 0.679 against 0.680 before, its composed answers 0.641 against 0.594). Long lines (a
table row "Division: Food; Annual rate, Sep: 4.9%; ...") name their own subject, and a
caption read before each of them lends support to claims they do not make; a short line
("Headquarters: Trondheim, Norway") has no subject without it (0.10 against 0.84 with it
for the faithful claim above).

References
----------
CommonMark Spec 0.31.2, sections 4.2 (ATX headings) and 5.2-5.3 (lists); GitHub Flavored
Markdown Spec, section 4.10 (tables); HTML Living Standard, section 13.5 (named character
references). Table rows read as "header: cell" pairs follow the linearisation of TAPAS-style
table-to-text readers (Herzig et al., "TaPas: Weakly Supervised Table Parsing via
Pre-training", ACL 2020).
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Sequence
from functools import lru_cache

from guardrail.text.passage_marks import blank_passage_marks

__all__ = ["Header", "normalize_passage", "read_sentences", "PREFIX_MAX_WORDS", "TITLE_MAX_WORDS"]


#: A line of at most this many words, with no sentence-final period, is a header (a title).
TITLE_MAX_WORDS = 12

#: A structured line of at most this many words is read with its title and header; a longer one
#: usually names its own subject (the module docstring has the measurement).
PREFIX_MAX_WORDS = 6

_BLOCK_TAGS = ("p|div|section|article|header|footer|main|aside|nav|ul|ol|dl|dt|dd|table|thead|tbody|tfoot"
               "|tr|br|hr|blockquote|pre|figure|figcaption|caption|title|html|head|body")
#: HTML element names read as tags; any other ``<name>`` is text.
_ELEMENTS = frozenset((_BLOCK_TAGS + "|li|h1|h2|h3|h4|h5|h6|td|th|span|b|i|u|s|em|strong|a|img|code|sup|sub|small|big"
                       "|font|mark|abbr|cite|q|time|label|button|input|form|link|meta|noscript|iframe|svg|wbr|del"
                       "|ins|kbd|var|samp|dfn|center").split("|"))
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)\b[^<>]*>")
_HTML_HINT = re.compile(r"</?(?:" + _BLOCK_TAGS + r"|li|h[1-6]|td|th|span|b|i|em|strong|a)\b[^<>]*>", re.I)
_SCRIPT = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>", re.I | re.S)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});")
_EMPHASIS = re.compile(r"(?<![\w*])(\*\*)(?=\S)(.+?)(?<=\S)\*\*(?![\w*])")
_BULLET = re.compile(r"[ \t]*(?:[-*+\u2022\u25aa\u2023]|\d{1,3}[.)]|[a-z][.)])[ \t]+(?=\S)")
_HEADER = re.compile(r"[ \t]*#{1,6}[ \t]+(?=\S)")
_KEY_VALUE = re.compile(r"[ \t]*(?P<key>[A-Z][^:\n|]{0,40}?):[ \t]+(?=\S)")
_SEPARATOR_ROW = re.compile(r"[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$")
_FINAL = re.compile(r"[.!?][\"')\]]*$")
_FAQ_KEYS = frozenset({"Q", "A", "Question", "Answer"})
_FUNCTION_END = re.compile(r"\b(?:the|a|an|of|and|or|by|in|to|for|with|at|on|from|as|that|which|is|was|were|are)$")


class Header(str):
    """A context sentence that is a header line ("Career", "## Specifications" read as
    "Specifications"): a ``str`` that evidence views step over when they look for a sentence's
    neighbours or for the name a pronoun refers to (:mod:`guardrail.align.views`)."""

    __slots__ = ()


def _pad(new: str, width: int) -> str:
    """``new`` padded with spaces (or cut) to ``width`` characters."""
    return (new + " " * width)[:width]


def _html_tag(m: re.Match[str]) -> str:
    closing, name = m.group(1), m.group(2).lower()
    width = len(m.group(0))
    if name not in _ELEMENTS:  # "List<String>" in code documentation is no tag
        return m.group(0)
    if name == "li" and not closing:
        return _pad("\n- ", width)
    if re.fullmatch(r"h[1-6]", name) and not closing:
        return _pad("\n# ", width)
    if name in ("td", "th"):
        return _pad("|" if not closing else "", width)
    if re.fullmatch(r"h[1-6]|li|" + _BLOCK_TAGS, name):
        return _pad("\n", width)
    return " " * width


def _entity(m: re.Match[str]) -> str:
    char = html.unescape(m.group(0))
    return _pad(" " if len(char) != 1 or char == "\xa0" else char, len(m.group(0)))


def _blank_html(text: str) -> str:
    text = _SCRIPT.sub(lambda m: " " * len(m.group(0)), text)
    text = _TAG.sub(_html_tag, text)
    return _ENTITY.sub(_entity, text)


def _line_kind(line: str) -> str:
    """``"blank"``, ``"header"`` (``#``), ``"table"``, ``"item"`` (bullet or number), ``"kv"`` or ``"prose"``."""
    if not line.strip():
        return "blank"
    if _HEADER.match(line):
        return "header"
    if line.count("|") >= 2 or _SEPARATOR_ROW.match(line):
        return "table"
    if _BULLET.match(line):
        return "item"
    m = _KEY_VALUE.match(line)
    if m and len(m.group("key").split()) <= 5:
        return "kv"
    return "prose"


def _joins(a: str, b: str, width: int) -> bool:
    """Whether the line break between prose lines ``a`` and ``b`` wraps one paragraph."""
    a, b = a.rstrip(), b.lstrip()
    if not a or not b or _FINAL.search(a) or a.endswith((":", ";")):
        return False
    if b[0].islower() or a.endswith((",", "-")) or _FUNCTION_END.search(a):
        return True
    return width >= 30 and len(a) >= 0.6 * width and not b[0].isdigit()


def _unwrap(text: str) -> str:
    """Join the lines of wrapped prose paragraphs (same length; hyphenated words rejoined)."""
    lines = text.split("\n")
    if len(lines) < 2:
        return text
    width = max(len(ln.rstrip()) for ln in lines)
    kinds = [_line_kind(ln) for ln in lines]
    out = [lines[0]]  # each entry is a line followed by "\n" in the result, or a piece of one
    for k in range(1, len(lines)):
        a, b = lines[k - 1], lines[k]
        if not (kinds[k - 1] == kinds[k] == "prose" and _joins(a, b, width)):
            out.append("\n" + b)
            continue
        hy, head = re.search(r"[a-z]-[ \t]*$", a), re.match(r"[ \t]*([a-z]+)", b)
        tail = a[hy.start() + 1:] if hy else ""  # the hyphen and the blanks after it
        if hy and head and out[-1].endswith(tail):  # "estab-" + "lished in" -> "established" + spaces
            gap = len(tail) + 1 + head.start(1)  # hyphen, blanks, line break, indent
            out[-1] = out[-1][:len(out[-1]) - len(tail)] + head.group(1)
            out.append(" " * gap + b[head.end():])
        else:
            out.append(" " + b)
    return "".join(out)


def normalize_passage(text: str) -> str:
    """A retrieved passage as the detectors read it: markup blanked, wrapped lines joined.

    Only substitutions that keep the length are made, so a span into the result is a span
    into ``text``: HTML tags become spaces (a block tag a line break, ``<li>`` a ``-``
    bullet, ``<h1>``-``<h6>`` a ``#`` header, ``<td>``/``<th>`` a ``|`` cell border),
    ``<script>``/``<style>`` blocks spaces, character references (``&amp;``) their character;
    citation markers ("in 2011.[1]"), superscript footnote digits and a transcript's timestamps
    spaces, and a word with a soft hyphen inside is read without it
    (:func:`~guardrail.text.passage_marks.blank_passage_marks`);
    Markdown ``**`` emphasis markers spaces (not ``__``: ``__init__`` is a name in code documentation); a line break inside a wrapped prose
    paragraph (the line does not end a sentence, and the next line starts in lower case, or
    the line ends with a comma or a function word, or it is as long as the paragraph's lines
    are) a space, and a word hyphenated across it ("estab-" / "lished") is rejoined with the
    spaces after it. Lists, headers, tables and key-value lines keep their line breaks.

    Parameters
    ----------
    text : str
        One passage (cleaned, :func:`guardrail.validate.clean_text`).

    Returns
    -------
    str
        The passage as read, ``len(result) == len(text)``.

    Examples
    --------
    >>> normalize_passage("It was estab-\\nlished in 1897.")
    'It was established   in 1897.'
    >>> normalize_passage("<p>Opened in <b>1932</b>.</p>")
    '\\n  Opened in    1932    .\\n   '
    """
    if "<" in text and _HTML_HINT.search(text):
        text = _blank_html(text)
    elif "&" in text:
        text = _ENTITY.sub(_entity, text)
    text = blank_passage_marks(text)
    if "**" in text:
        text = _EMPHASIS.sub(lambda m: " " * len(m.group(1)) + m.group(2) + " " * len(m.group(1)), text)
    return _unwrap(text) if "\n" in text else text


def _cells(line: str) -> list[str]:
    cells = [c.strip() for c in line.strip().split("|")]
    if cells and not cells[0]:
        cells = cells[1:]
    if cells and not cells[-1]:
        cells = cells[:-1]
    return cells


def _is_title(line: str, nxt: str | None) -> bool:
    """A prose line that names rather than states: short, no sentence-final period, text after it."""
    words = line.split()
    return (nxt is not None and bool(nxt.strip()) and 0 < len(words) <= TITLE_MAX_WORDS
            and not _FINAL.search(line.rstrip()) and not line.rstrip().endswith((",", ";")))


def _content(line: str, kind: str) -> str:
    m = _HEADER.match(line) if kind == "header" else _BULLET.match(line) if kind == "item" else None
    return line[m.end():].strip() if m else line.strip()


class _Layout:
    """Lines of one passage with their kinds, headers and tables (what :func:`read_sentences` needs)."""

    def __init__(self, text: str) -> None:
        self.starts: list[int] = []
        self.lines, pos = text.split("\n"), 0
        for ln in self.lines:
            self.starts.append(pos)
            pos += len(ln) + 1
        self.kinds = [_line_kind(ln) for ln in self.lines]
        for i, ln in enumerate(self.lines):
            nxt = self.lines[i + 1] if i + 1 < len(self.lines) else None
            if self.kinds[i] == "prose" and _is_title(ln, nxt):
                self.kinds[i] = "header"
        self.near_head: list[int] = []  # the nearest header above each line, -1 for none
        self.table_top: list[int] = []  # the first row of the table holding each line
        near = -1
        for i, kind in enumerate(self.kinds):
            self.near_head.append(near)
            near = i if kind == "header" else near
            above = i > 0 and kind == "table" and self.kinds[i - 1] == "table"
            self.table_top.append(self.table_top[i - 1] if above else i)
        self.first_head = next((i for i, k in enumerate(self.kinds) if k == "header"), -1)
        self.record = ""  # a passage that opens with key-value lines: the first value names its subject
        first = _KEY_VALUE.match(self.lines[0])
        if first and self.kinds[0] == "kv" and len(self.lines) > 1 and self.kinds[1] == "kv" and \
                first.group("key").strip() not in _FAQ_KEYS:
            value = self.lines[0][first.end():].strip()
            if len(value.split()) <= 6 and not _FINAL.search(value):
                self.record = value

    def line_of(self, pos: int) -> int:
        """The line holding character ``pos``."""
        return bisect.bisect_right(self.starts, pos) - 1

    def prefix(self, i: int) -> str:
        """The passage's title and the nearest header above line ``i``, joined by a comma."""
        first, near = self.first_head, self.near_head[i]
        heads = [] if near < 0 else [first] + ([near] if near != first else [])
        names = [_content(self.lines[k], "header") for k in heads]
        if heads and heads[0] != 0 and self.record:
            names.insert(0, self.record)
        elif not heads and self.record and i > 0:
            names = [self.record]
        out: list[str] = []
        for n in names:
            n = n.rstrip(":").strip()
            if n and n not in out:
                out.append(n)
        return ", ".join(out)

    def table_header(self, i: int) -> list[str] | None:
        """The header cells of the table holding line ``i``, None when ``i`` is the header row."""
        top = self.table_top[i]
        return None if top == i else _cells(self.lines[top])

    def read(self, i: int) -> str | None:
        """Line ``i`` as read, or None when it is read as it is (prose, a header)."""
        kind, line = self.kinds[i], self.lines[i]
        if kind == "header":
            return Header(_content(line, kind) or line.strip())
        if kind not in ("item", "kv", "table"):
            return None
        if kind == "table":
            if _SEPARATOR_ROW.match(line):
                return None
            cells, head = _cells(line), self.table_header(i)
            if head is None or len(head) != len(cells):
                body = ", ".join(c for c in cells if c)
            else:
                body = "; ".join(f"{h}: {c}" if h and h != c else c for h, c in zip(head, cells) if c)
        else:
            body = _content(line, kind)
            kv = _KEY_VALUE.match(line)
            if kind == "kv" and kv and kv.group("key").strip() in ("Q", "Question"):
                return None  # a question states nothing
            if kind == "kv" and kv and kv.group("key").strip() in ("A", "Answer") and i > 0 and \
                    (q := _KEY_VALUE.match(self.lines[i - 1])) and q.group("key").strip() in ("Q", "Question"):
                return f"{self.lines[i - 1][q.end():].strip()} {line[kv.end():].strip()}"
        head_text = self.prefix(i) if len(body.split()) <= PREFIX_MAX_WORDS else ""
        body = body if _FINAL.search(body) else body + "."
        return f"{head_text}: {body}" if head_text else body


@lru_cache(maxsize=16)
def _layout(text: str) -> _Layout:
    return _Layout(text)


def read_sentences(text: str, spans: Sequence[tuple[int, int]]) -> list[str]:
    """The text the claim verifier reads for each sentence of a passage.

    A header line is read as a :class:`Header` (its ``#`` markers dropped). A sentence that is
    a whole list item, key-value line or table row is read without its bullet, ``#`` or pipes
    and closed by a period: a table row as its header's "column: cell" pairs joined by
    semicolons, an FAQ answer line ("A: ...") after its question, a question line as it is;
    one of at most :data:`PREFIX_MAX_WORDS` words gets the passage's title and the nearest
    header above it as a prefix ("Norvik R2 delivery robot, Specifications: Weight: 450 kg.";
    a passage that opens with key-value lines takes the first value as its title, "Norvik
    Robotics: Headquarters: Trondheim, Norway."). A header is a ``#`` line or a prose line of
    at most :data:`TITLE_MAX_WORDS` words with no sentence-final period and text after it.
    Every other sentence is read as it is.

    Parameters
    ----------
    text : str
        The passage (as :func:`normalize_passage` gives it).
    spans : sequence of (start, end)
        Its sentences (:func:`guardrail.text.sentences.split_sentences`).

    Returns
    -------
    list of str
        One text per span.

    Examples
    --------
    >>> p = "Company: Norvik Robotics\\nHeadquarters: Trondheim, Norway"
    >>> read_sentences(p, [(0, 24), (25, 56)])[1]
    'Norvik Robotics: Headquarters: Trondheim, Norway.'
    """
    if "\n" not in text.strip():
        return [text[s:e] for s, e in spans]
    lay = _layout(text)
    out = []
    for s, e in spans:
        i = lay.line_of(s)
        line_end = lay.starts[i] + len(lay.lines[i])
        whole = text[lay.starts[i]:s].strip(" \t-*+#|\u2022") == "" and text[e:line_end].strip() == ""
        read = lay.read(i) if whole else None
        out.append(read if read else text[s:e])
    return out
