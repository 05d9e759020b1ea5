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
  most :data:`TITLE_MAX_WORDS` words with no digit and no auxiliary verb (a title: "Summary",
  "Key facts") is blanked whole, while one that states something ("## Norvik is owned by
  Siemens") is read as a sentence, and so is a line that is only a bold title ("**Key facts**");
* horizontal rules and a table's separator row (``|---|---|``) and the header row above it, and a
  row-number column (first cells counting 1, 2, 3 ... under a "#" or "No." header, or none);
  the outer cell borders of a table row become spaces and its inner borders commas;
* citation markers: ``[1]``, ``[1, 2]``, ``[^3]``, ``[Doc 2]``, ``[source 1]``, ``【4†source】``,
  superscript footnote digits after punctuation or a word ("river.¹"; a unit's "m²" stays),
  parenthesised source notes ("(Source: passage 1)", "(see the fact sheet)", "(Document 1, page 3)"),
  a self-assessment ("(Confidence: high)", a "Confidence: high" label) and a trailing
  source list (a line opening with "Sources:" or "References:", and the ``[n] ...`` lines under it);
* answer scaffolding that states no fact: a label opening a line ("Answer:", "Final answer:",
  "TL;DR:", "Summary:", "Step 2:", "Point 1:", "A:", "P.S."), "(1)" markers opening a sentence,
  hashtags closing a line ("#policy #faq"; one inside the text may be its subject and stays), a restated question line ("Q: ...", "Question: ..."),
  a lead-in line that introduces a list ("Here are the key facts:"), an attribution opening
  or closing a sentence ("According to the provided context,", "Based on the documents,", "The
  context states that", "I found the following in the documents:", "..., according to the
  context.", "We found that"), an opener that only introduces the answer ("To answer your question,",
  "In short,", "Sure thing \u2014", "Certainly,") and a clause on what the context does not say before the answer ("The documents
  do not mention her age, but ...");
* links and tags: a Markdown link's or image's brackets and target (its text is kept, unless
  it names a source: ``[source](https://...)``, ``[1](...)``, ``[here](...)``), a URL alone in brackets,
  ``<https://...>`` autolinks, brackets left empty by a blanked link or citation, and HTML tags (``<p>``, ``<b>``, ``<br/>``); a source aside in
  parentheses ("(per the company profile)", no digit) and a footnote definition line
  (``[^1]: Norvik fact sheet.``);
* emoji and other pictographs (Unicode category So and their modifiers; a degree sign stays);
* the double quotes around a whole answer, or around all of it after a lead-in colon ('The context
  says: "..."');
* an answer that is one JSON object or array (``{"answer": "...", "sources": [...]}``) is read
  as its string values: keys, punctuation, non-string values and the values of source or score
  keys are blanked.

References
----------
CommonMark Spec 0.31.2, sections 4.2 (ATX headings), 5.1-5.3 (block quotes, lists) and
6.2 (emphasis); GitHub Flavored Markdown Spec, section 4.10 (tables).
"""

from __future__ import annotations

import json
import re
import unicodedata

from guardrail.text.passage_marks import blank_footnote_marks

__all__ = ["blank_markup", "TITLE_MAX_WORDS"]

#: A header line of at most this many words, with no digit and no auxiliary verb, is a title, not a claim.
TITLE_MAX_WORDS = 6
#: Words that make a header line a statement ("## Norvik is owned by Siemens"): it is read, not blanked.
_STATEMENT_WORDS = frozenset("is are was were be been has have had will would can could does did do".split())

_FENCE = re.compile(r"^[ \t]*(?:```|~~~)[^\n`]*$")
_HEADER = re.compile(r"^([ \t]{0,3}#{1,6})([ \t]+|$)")
_QUOTE = re.compile(r"^[ \t]{0,3}(?:>[ \t]?)+")
_BULLET = re.compile(r"^[ \t]*(?:[-*+\u2022\u25aa\u2023\u25e6]|\d{1,3}[.)]|[a-z]\))[ \t]+(?=\S)")
_RULE = re.compile(r"^[ \t]*(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$")
_TABLE_SEP = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*$"
                        r"|^[ \t]*\|[ \t]*:?-{3,}:?[ \t]*\|[ \t]*$")  # one column: "|---|"
#: A line that is only a bold phrase: a title ("**Key facts**"), blanked like a header when short.
_BOLD_TITLE = re.compile(r"^[ \t]*(\*\*|__)([^*_\n]+?)\1[ \t]*:?[ \t]*$")
#: An inline enumeration marker at a sentence start: "(1) ... (2) ...".
_INLINE_ENUM = re.compile(r"(?:^[ \t]*|(?<=[.!?:;][ \t]))\(\d{1,2}\)[ \t]+")
#: Hashtags closing a line ("... #policy #faq"), not a number ("#1"), a name's sign ("C#") or a
#: hashtag inside the text, which may be its subject ("#tacocannon trends in Omaha").
_HASHTAG = re.compile(r"(?:[ \t]+#[A-Za-z][\w-]*)+[ \t]*$")
#: A postscript mark opening a line: "P.S.", "PS:".
_POSTSCRIPT = re.compile(r"^[ \t]*(?:P\.[ \t]?S\.|PS[ \t]*:)[ \t]*")  # not "PS Vita", "PS4"
_TABLE_ROW = re.compile(r"^[ \t]*\|.*\|[ \t]*$")
_STRONG = re.compile(r"(?<![\w*])\*\*(?=\S)([^\n]*?\S)\*\*(?![\w*])|(?<![\w_])__(?=\S)([^\n]*?\S)__(?![\w_])")
_EM = re.compile(r"(?<![\w*\\])\*(?=[^\s*])([^*\n]*?[^\s*\\])\*(?![\w*])|(?<![\w_\\])_(?=[^\s_])([^_\n]*?[^\s_\\])_(?![\w_])")
_SOURCE_NOTE = re.compile(r"\((?:sources?|see|refs?|references?|cf\.|citations?)\b[^()\n]{0,80}\)"
                          # a source note after a dash closing a line: "... \u2014 Source: company handbook"
                          r"|[ \t]+[\u2014\u2013-][ \t]*(?:sources?|refs?|references?)[ \t]*:[^\n]{0,80}$", re.IGNORECASE)
#: "(per the company profile)", "(according to the fact sheet)": an attribution to a source, no digit.
_SOURCE_ASIDE = re.compile(
    r"\((?:per|as per|according to|as (?:stated|noted|mentioned|described|reported|shown) in|based on)[ \t]+"
    r"(?:the|this|that|its|their|our|your)\b[^()\n\d]{0,50}\)", re.IGNORECASE)
_POINTER_WORD = r"(?:documents?|docs?\.?|passages?|pages?|pp?\.|chunks?|excerpts?|contexts?|sources?|refs?\.?)"
#: A parenthesised pointer into the sources ("(Document 1, page 3)", "(doc 2)", "(pp. 4-5)", "(passage 1 and 3)").
_SOURCE_POINTER = re.compile(
    r"\([ \t]*" + _POINTER_WORD + r"[ \t]*#?\d{1,4}(?:[ \t]*(?:[-\u2013,;&]|and)[ \t]*(?:" + _POINTER_WORD
    + r"[ \t]*)?#?\d{1,4})*[ \t]*\)", re.IGNORECASE)
#: A self-assessment of the answer ("(Confidence: high)", "(confidence 0.9)", "(85% confidence)").
_CONFIDENCE = re.compile(
    r"\([ \t]*(?:confidence(?:[ \t]+(?:level|score))?[ \t]*[:=]?[ \t]*(?:very[ \t]+)?(?:high|medium|moderate|low|"
    r"\d{1,3}(?:\.\d+)?[ \t]*%?)|\d{1,3}(?:\.\d+)?[ \t]*%[ \t]+confiden(?:ce|t)|(?:very[ \t]+)?(?:high|medium|low)"
    r"[ \t]+confidence)[ \t]*\)", re.IGNORECASE)
#: A table row's first cell: group 1 from the opening border to the next one (excluded), group 2 its text.
_FIRST_CELL = re.compile(r"^[ \t]*(\|[ \t]*(\d{1,3})\.?[ \t]*)\|")
_FIRST_CELL_TEXT = re.compile(r"^[ \t]*\|([^|\n]*)\|")
#: Header texts of a row-number column.
_ROW_NUMBER_HEADERS = frozenset({"", "#", "no", "no.", "nr", "nr.", "n\u00ba", "s/n", "item", "step"})
#: An answer in double quotes, or one whose quote follows a colon ('The context says: "..."').
_QUOTED = re.compile(r"^(?:[^\n\"\u201c\u201d]{0,60}:)?[ \t]*([\"\u201c])(.+)([\"\u201d])[ \t]*\.?[ \t]*$", re.DOTALL)
#: A line that only rates the answer ("Confidence: high", "**Confidence level:** 85%").
_CONFIDENCE_LINE = re.compile(
    r"^[ \t]*[*_]{0,2}confidence(?:[ \t]+(?:level|score))?[ \t]*:[*_]{0,2}[ \t]*[*_]{0,2}(?:very[ \t]+)?"
    r"(?:high|medium|moderate|low|\d{1,3}(?:\.\d+)?[ \t]*%?)[*_]{0,2}[ \t]*\.?[ \t]*$", re.IGNORECASE)
#: A Markdown link or image ``[text](url "title")``: the brackets and target go, the text stays.
_LINK = re.compile(r"(!?\[)([^\[\]\n]{1,200})(\]\([^()\s]{1,500}(?:[ \t]+\"[^\"\n]{0,100}\")?\))")
#: A link text that names a source, not a fact ("[source](https://...)", "[1](...)", "[here](...)"):
#: the whole link is blanked.
_LINK_CITATION = re.compile(
    r"^[ \t]*(?:\^?\d{1,3}|(?:sources?|link|links|ref|refs|reference|references|citation|here|this|more|"
    r"read more|learn more|details|docs?|documentation|documents?|passages?|page|article|website|site|"
    r"(?:https?://|www\.)\S*)(?:[ \t]*#?\d{1,3})?)[ \t]*$", re.IGNORECASE)
#: A bare URL alone in brackets ("(https://example.com/page)"): a source note. A URL in running text
#: ("Download it from https://...") may be the answer and is read.
_BARE_URL = re.compile(r"[(\[][ \t]*(?:https?://|www\.)[^\s<>()\[\]]{1,500}[ \t]*[)\]]", re.IGNORECASE)
#: Brackets left with nothing inside once a citation or link is blanked ("Yes (   ).").
_EMPTY_BRACKETS = re.compile(r"\([ \t]*\)|\[[ \t]*\]")
_AUTOLINK = re.compile(r"<(?:https?|ftp|mailto):[^<>\s]{1,500}>", re.IGNORECASE)
_HTML_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]{0,10}(?:[ \t][^<>\n]{0,200})?/?>")
#: A footnote definition line ``[^1]: Norvik fact sheet.`` (GFM footnotes): a source, not a claim.
_FOOTNOTE_DEF = re.compile(r"^[ \t]{0,3}\[\^[^\]\n]{1,20}\]:")
#: Symbols kept although of Unicode category So: they carry a unit ("25 \u00b0C").
_KEPT_SYMBOLS = frozenset("\u00b0\u2103\u2109\u2116")
#: JSON keys whose string values are sources or scores, not statements.
_JSON_META_KEYS = frozenset("source sources citation citations reference references confidence score id doc docs "
                            "document documents url urls".split())
_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
#: A JSON string escape: a surrogate pair, one ``\\uXXXX``, or a one-character escape.
_JSON_ESCAPE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\.")
_SOURCE_LIST = re.compile(r"^[ \t]*(?:sources?|references?|citations?)[ \t]*:", re.IGNORECASE)
_SOURCE_ITEM = re.compile(r"^[ \t]*(?:[-*][ \t]*)?\[\d{1,3}\]")
_QUESTION_LINE = re.compile(r"^[ \t]*(?:Q|Question)[ \t]*[:.][ \t]")
_LABEL = re.compile(
    r"^[ \t]*(?:A|Answer|Short answer|Final answer|TL;?DR|Summary|In short|In summary|Bottom line|"
    r"(?:Step|Point|Item|Fact|Reason|Finding|Tip|Takeaway)[ \t]+\d{1,3}|Note|Key (?:points|facts|findings|details)|"
    r"Main points|Highlights|Overview|Response|Explanation|Reasoning|Rationale|Justification|Correction|"
    r"Update|Clarification|Details|One more thing)"
    r"[ \t]*:[ \t]*", re.IGNORECASE)
_LEAD_IN = re.compile(r"^[ \t]*(?:here (?:is|are)|the following|below (?:is|are))\b[^\n]{0,80}:[ \t]*$", re.IGNORECASE)
_SOURCE_WORDS = (r"(?:the[ \t]+)?(?:provided[ \t]+|given[ \t]+|retrieved[ \t]+|above[ \t]+|available[ \t]+)?"
                 r"(?:context|contexts|documents?|docs?|passages?|sources?|information|text|excerpts?|articles?|chunks?)"
                 r"(?:[ \t]+#?\d{1,3}(?:[ \t]*(?:,|and|&)[ \t]*#?\d{1,3})*)?")  # "Document 2", "Documents 1 and 3"
_ATTRIBUTION = re.compile(
    r"(?:^|(?<=[.!?][ \t])|(?<=[.!?][ \t]{2}))[ \t]*(?:"
    r"(?:according to|based on|as (?:stated|mentioned|described|noted|explained) in|from|per|as per)[ \t]+"
    r"(?:(?:my|our|a)[ \t]+(?:analysis|reading|review)[ \t]+of[ \t]+)?" + _SOURCE_WORDS + r"(?:[ \t]+provided)?[ \t]*[,:][ \t]*"
    r"|" + _SOURCE_WORDS + r"[ \t]+(?:says|states|mentions|notes|indicates|explains|shows)(?:[ \t]+that)?[ \t]*:?[ \t]+"
    r"|(?:i found the following|here is what i found|here's what i found|here is what|here's what)[^:\n]{0,60}:[ \t]*"
    r"|(?:i|we)[ \t]+found[ \t]+that[ \t]+"
    r"|from what (?:i|we) (?:can (?:see|tell|find)|understand|gather)(?:[ \t]+in[ \t]+" + _SOURCE_WORDS + r")?[ \t]*,[ \t]*"
    r"|(?:i|we) can confirm(?:[ \t]+that)?[ \t]+"
    r"|(?:in conclusion|in other words)[ \t]*,[ \t]*"
    r"|one (?:more|last|final) thing[ \t]*:[ \t]*"
    r"|let me (?:break (?:this|it) down|explain|walk you through (?:this|it)|summari[sz]e)[ \t]*(?::|,|[ \t]\u2014)[ \t]*"
    r"|(?:you asked|your question(?: was)?)[ \t]*:?[ \t]*[^?\n]{1,300}\?[ \t]*"
    r"|(?:to answer your question|in short|in brief|simply put|put simply|long story short|sure thing|sure|"
    r"certainly|of course|absolutely|oh wow|wow|oh|ah|ooh|haha|hmm)[ \t]*(?:,|[ \t]\u2014|[ \t]\u2013|[ \t]-)[ \t]*"
    r"|" + _SOURCE_WORDS + r"[ \t]+(?:do|does|did)[ \t]+not[ \t]+(?:mention|say|specify|state|include|provide|"
    r"contain|give|indicate|list|cover)\b[^,.;:!?\n]{0,80},[ \t]*(?:but|however,?)[ \t]+"
    r")", re.IGNORECASE)
#: An attribution closing a sentence: "..., according to the context."
_TRAILING_ATTRIBUTION = re.compile(
    r"[ \t]*,?[ \t]*(?:according to|as (?:stated|mentioned|described|noted) in|as per|per)[ \t]+"
    + _SOURCE_WORDS + r"(?=[ \t]*[.!?](?:[ \t]|$)|[ \t]*$)", re.IGNORECASE)
_CODE = re.compile(r"(?<!`)(`{1,3})(?=[^\s`])([^`\n]*?[^\s`])\1(?!`)")
_CITATION = re.compile(
    r"\[\^?\d{1,3}(?:[ \t]*[,;\u2013-][ \t]*\d{1,3})*\]"
    r"|\[(?:doc|docs|document|source|sources|passage|context|ref|reference|chunk)[ \t]*#?\d{1,3}\]"
    r"|\u3010\d{1,3}(?:\u2020[^\u3011\n]{0,40})?\u3011"
    r"|\[citation needed\]",
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


def _title(text: str) -> bool:
    """A title, not a statement: at most :data:`TITLE_MAX_WORDS` words, no digit, no auxiliary verb."""
    words = text.lower().split()
    return len(words) <= TITLE_MAX_WORDS and not any(c.isdigit() for c in text) and not _STATEMENT_WORDS & set(words)


def _line(line: str, is_header_row: bool) -> str:
    bold = _BOLD_TITLE.match(line)
    if bold is not None and _title(bold.group(2)):
        return _spaces(line)
    if (_FENCE.match(line) or _RULE.match(line) or _TABLE_SEP.match(line) or is_header_row
            or _QUESTION_LINE.match(line) or _LEAD_IN.match(line) or _CONFIDENCE_LINE.match(line)):
        return _spaces(line)
    if _TABLE_ROW.match(line):
        line = _table_row(line)
    m = _HEADER.match(line)
    if m:
        if _title(line[m.end():]):
            return _spaces(line)
        line = " " * m.end(1) + line[m.end(1):]
    for pat in (_QUOTE, _BULLET):
        line = pat.sub(lambda x: " " * len(x.group(0)), line, count=1)
    line = _pairs(_STRONG, line, 2)
    line = _pairs(_EM, line, 1)
    line = _CODE.sub(lambda x: " " * len(x.group(1)) + x.group(2) + " " * len(x.group(1)), line)
    line = _LABEL.sub(lambda x: " " * len(x.group(0)), line, count=1)
    line = _POSTSCRIPT.sub(lambda x: " " * len(x.group(0)), line, count=1)
    line = _LINK.sub(_link, line)
    for pat in (_AUTOLINK, _BARE_URL, _HTML_TAG, _CITATION, _SOURCE_NOTE, _SOURCE_POINTER, _CONFIDENCE, _INLINE_ENUM,
                _HASHTAG,
                _SOURCE_ASIDE, _ATTRIBUTION, _TRAILING_ATTRIBUTION, _EMPTY_BRACKETS):
        line = pat.sub(lambda x: " " * len(x.group(0)), line)
    return _blank_symbols(blank_footnote_marks(line))


def _link(m: re.Match[str]) -> str:
    """A Markdown link's brackets and target blanked, its text kept unless it names a source (:data:`_LINK_CITATION`)."""
    if _LINK_CITATION.match(m.group(2)):
        return " " * len(m.group(0))
    return " " * len(m.group(1)) + m.group(2) + " " * len(m.group(3))


def _blank_symbols(line: str) -> str:
    """Emoji and pictographs (Unicode category So, their modifiers and joiners) as spaces."""
    if line.isascii():
        return line
    return "".join(" " if (unicodedata.category(c) in ("So", "Sk") and c not in _KEPT_SYMBOLS and not c.isascii())
                   or c in "\u200d\ufe0f\ufe0e" else c for c in line)


def _json_keeps(value: object, meta: bool = False) -> list[bool]:
    """For each string token of ``value`` as serialised (keys and strings, document order),
    whether it is kept: string values are, keys and the values under source or score keys
    (:data:`_JSON_META_KEYS`) are not."""
    if isinstance(value, str):
        return [not meta]
    if isinstance(value, dict):
        out: list[bool] = []
        for k, v in value.items():
            out += [False] + _json_keeps(v, meta or k.strip().lower() in _JSON_META_KEYS)
        return out
    if isinstance(value, list):
        return [keep for v in value for keep in _json_keeps(v, meta)]
    return []


def _unescape(m: re.Match[str]) -> str:
    """A JSON escape read as its character, padded with spaces to the escape's length
    ("\\u2013" -> "\u2013" and five spaces, "\\n" -> a space and a line break, any other escape
    -> two spaces)."""
    esc = m.group(0)
    if esc[1] == "u":
        units = [int(esc[k:k + 4], 16) for k in range(2, len(esc), 6)]
        char = chr(0x10000 + (units[0] - 0xD800) * 0x400 + units[1] - 0xDC00) if len(units) == 2 else chr(units[0])
        char = char if char.isprintable() else " "
        pad = " " * (len(esc) - 1)  # beside the word the character belongs to: "\u00a33.2" -> "     \u00a33.2"
        return pad + char if unicodedata.category(char) in ("Sc", "Ps", "Pi") else char + pad
    return " \n" if esc[1] == "n" else "  "  # a quote, backslash or slash escaped: blanked


def _json_answer(text: str) -> str | None:
    """A JSON object or array answer (``{"answer": "..."}``) reduced to its string values:
    keys, quotes, braces, colons, commas and non-string values blanked, escapes' backslashes
    blanked, and the values of source or score keys (:data:`_JSON_META_KEYS`) blanked whole.
    ``None`` when ``text`` is not one JSON object or array (or holds duplicate keys)."""
    body = text.strip()
    if not (body[:1] in "{[" and body[-1:] in "}]"):
        return None
    try:
        keeps = _json_keeps(json.loads(body))
    except ValueError:
        return None
    tokens = list(_JSON_STRING.finditer(text))
    if len(tokens) != len(keeps):  # duplicate keys: the decoded object lost some
        return None
    out, pos = [], 0
    for m, keep in zip(tokens, keeps):
        out.append(_spaces(text[pos:m.start()]))
        out.append(" " + _JSON_ESCAPE.sub(_unescape, m.group(0)[1:-1]) + " " if keep else " " * len(m.group(0)))
        pos = m.end()
    out.append(_spaces(text[pos:]))
    return "".join(out)


def _blank_row_numbers(lines: list[str]) -> list[str]:
    """``lines`` with a table's row-number column blanked: the first cells of a table's body rows
    that count 1, 2, 3 ... under a header of :data:`_ROW_NUMBER_HEADERS` ("#", "No.") or none,
    with the border after them. A row number is not a value the answer states ("| 1 | It opened
    in 1932 |"); a "Rank" column is, and stays."""
    out = list(lines)
    k = 0
    while k < len(out):
        end = k
        while end < len(out) and _TABLE_ROW.match(out[end]):
            end += 1
        if end > k:
            _blank_first_column(out, k, end)
        k = max(end, k + 1)
    return out


def _blank_first_column(lines: list[str], start: int, end: int) -> None:
    """Blank, in place, the row numbers of the table ``lines[start:end]`` (see :func:`_blank_row_numbers`)."""
    sep = next((j for j in range(start, end) if _TABLE_SEP.match(lines[j])), None)
    if sep is not None:
        label = _FIRST_CELL_TEXT.match(lines[sep - 1]) if sep > start else None
        if label is None or label.group(1).strip().lower() not in _ROW_NUMBER_HEADERS:
            return
    body = range(start if sep is None else sep + 1, end)
    cells = [_FIRST_CELL.match(lines[j]) for j in body]
    numbers = [m.group(2) if m else "" for m in cells]
    if len(body) < 2 or numbers != [str(n) for n in range(1, len(body) + 1)]:
        return
    for j, m in zip(body, cells):
        if m is not None:
            lines[j] = lines[j][:m.start(1)] + " " * (m.end(1) - m.start(1)) + lines[j][m.end(1):]


def _unquote(text: str) -> str:
    """``text`` without the double quotes around all of it or around all after a colon ('The
    context says: "..."'), when it holds no other double quote."""
    m = _QUOTED.match(text)
    if m is None or any(q in m.group(2) for q in '"\u201c\u201d'):
        return text
    return text[:m.start(1)] + " " + m.group(2) + " " + text[m.end(3):]


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
        is an offset into ``text``.

    Examples
    --------
    >>> blank_markup("1. It employs **340** people [2].")
    '   It employs   340   people    .'
    """
    as_json = _json_answer(text)
    if as_json is not None:
        text = as_json
    text = _unquote(text)
    lines = _blank_row_numbers(text.split("\n"))
    out = []
    sources = False
    for k, line in enumerate(lines):
        sources = _SOURCE_LIST.match(line) is not None or _FOOTNOTE_DEF.match(line) is not None or (sources and (_SOURCE_ITEM.match(line) is not None
                                                                        or not line.strip()))
        header_row = (_TABLE_ROW.match(line) is not None and k + 1 < len(lines)
                      and _TABLE_SEP.match(lines[k + 1]) is not None)
        out.append(_spaces(line) if sources else _line(line, header_row))
    return "\n".join(out)
