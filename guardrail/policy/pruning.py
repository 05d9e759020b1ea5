"""Added-detail repair: delete the clause holding an unsupported detail, keep the rest.

When the evidence has nothing in place of a flagged node (feedback kind ``added``,
:mod:`guardrail.policy.feedback`), the fix is known without an LLM: delete the smallest
optional constituent of its sentence that holds the node. The sentence is parsed with the
project's spaCy pipeline (:func:`guardrail.align.parsed.parse_texts`, cached); from the
node's head token the dependency tree is walked up to the first constituent that can go:

* a relative, adverbial or participial clause (``relcl``, ``advcl``, ``acl``);
* an appositive (``appos``) or a noun-phrase adverbial ("last year", ``npadvmod``);
* a prepositional phrase (``prep``), unless it is the only complement right of its verb
  ("is based in Seattle": an argument, not a detail);
* a coordinated clause (``conj`` of a verb) with its conjunction, or the second of two
  coordinated names ("Jobs and Gates") that are not a subject.

Its whole subtree is deleted, with the punctuation around it tidied (the commas that
bracketed it, the ``and`` that joined it). When the walk reaches the root, the main clause
holds the detail: in an answer of several sentences that sentence goes as a whole (what
the feedback asks: "drop a claim the context does not support"); the main clause of a
one-sentence answer is never deleted, and the LLM rounds handle it. Nor is a constituent
that also states, outside the flagged words, a number or a name the evidence sentence states
(a right fact would go with the detail).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from guardrail.align.parsed import Tok, parse_texts
from guardrail.policy.feedback import FeedbackItem, content_words, word_key
from guardrail.policy.numbers import numerals
from guardrail.text.sentences import split_sentences
from guardrail.types import GuardResult

__all__ = ["DELETABLE_DEPS", "CLAUSE_DEPS", "deletable_span", "prune_added", "cut_flagged"]

#: Dependency labels of the constituents an added detail may be deleted with.
DELETABLE_DEPS = frozenset({"relcl", "advcl", "acl", "appos", "npadvmod", "prep", "conj"})
#: Those of them that state something of their own (a ``conj`` only of a verb): what the
#: ``filter`` fallback cuts (:func:`cut_flagged`).
CLAUSE_DEPS = frozenset({"relcl", "advcl", "acl", "appos", "conj"})

_CLAUSE_POS = frozenset({"VERB", "AUX"})
_SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj", "expl"})
_MIN_WORDS = 3
_WORD = re.compile(r"\w+")
_NAME_WORD = re.compile(r"\b[A-Z][\w'-]*")


def _children(toks: Sequence[Tok]) -> list[list[int]]:
    kids: list[list[int]] = [[] for _ in toks]
    for i, t in enumerate(toks):
        if t.head != i:
            kids[t.head].append(i)
    return kids


def _subtree(i: int, kids: Sequence[Sequence[int]]) -> list[int]:
    out, todo = [], [i]
    while todo:
        j = todo.pop()
        out.append(j)
        todo.extend(kids[j])
    return sorted(out)


def _can_go(i: int, toks: Sequence[Tok], kids: Sequence[Sequence[int]]) -> bool:
    """Whether token ``i``'s constituent is optional in its sentence (see the module docstring)."""
    t = toks[i]
    head = toks[t.head]
    if t.dep not in DELETABLE_DEPS:
        return False
    if t.dep == "prep" and head.pos in _CLAUSE_POS:
        return any(k > t.head and k != i and toks[k].dep not in ("punct", "cc", "conj") for k in kids[t.head])
    if t.dep == "conj" and t.pos not in _CLAUSE_POS:  # two names: "X and Y" -> "X", not a subject, not a list
        own = [k for k in kids[t.head] if toks[k].dep == "conj"]
        between = toks[t.head + 1:_subtree(i, kids)[0]]
        return (own == [i] and head.dep not in _SUBJECTS and not any(toks[k].dep == "conj" for k in kids[i])
                and all(b.dep == "cc" for b in between))
    return True


def _with_joints(span: list[int], toks: Sequence[Tok]) -> list[int]:
    """``span`` (a conjunct's subtree) with the ``and`` and commas that joined it on its left."""
    a = span[0]
    while a - 1 >= 0 and toks[a - 1].dep in ("cc", "punct") and toks[a - 1].text not in ("(", '"'):
        a -= 1
    return list(range(a, span[0])) + span


def _top(toks: Sequence[Tok], start: int, end: int) -> int | None:
    """The token of ``[start, end)`` whose head lies outside it (the words' own head)."""
    inside = [i for i, t in enumerate(toks) if t.start < end and start < t.end]
    tops = [i for i in inside if toks[i].head not in inside or toks[i].head == i]
    return tops[0] if tops else None


def _in_main_clause(text: str, start: int, end: int) -> bool:
    """Whether the walk from the words at ``[start, end)`` up to the root meets no optional constituent."""
    toks = parse_texts([text])[0].toks
    kids = _children(toks)
    i = _top(toks, start, end)
    if i is None:
        return False
    while toks[i].head != i:
        if _can_go(i, toks, kids):
            return False
        i = toks[i].head
    return True


def _is_clause(i: int, toks: Sequence[Tok]) -> bool:
    """Whether token ``i`` heads a clause of its own (:data:`CLAUSE_DEPS`, a ``conj`` only of a verb)."""
    t = toks[i]
    return t.dep in CLAUSE_DEPS and (t.dep != "conj" or t.pos in _CLAUSE_POS)


def deletable_span(text: str, start: int, end: int, *, clauses_only: bool = False) -> tuple[int, int] | None:
    """The characters of ``text`` (one sentence) to delete with the detail at ``[start, end)``.

    Parameters
    ----------
    text : str
        The sentence.
    start, end : int
        Character span of the flagged words in ``text`` (0 <= start < end <= len(text)).
    clauses_only : bool
        Only a constituent that states something of its own (:data:`CLAUSE_DEPS`) may go, not
        a phrase of its clause ("in 1921" of "She won it in 1921": the clause without it no
        longer answers what it was about).

    Returns
    -------
    (int, int) or None
        ``(first, last)`` character offsets of the smallest optional constituent holding
        the words (its joining ``and`` included for a conjunct); ``None`` when the words
        sit in the main clause itself, or the constituent is not contiguous.
    """
    toks = parse_texts([text])[0].toks
    top = _top(toks, start, end)
    if top is None:
        return None
    inside = [j for j, t in enumerate(toks) if t.start < end and start < t.end]
    kids = _children(toks)
    i = top
    while toks[i].head != i:
        if _can_go(i, toks, kids) and (not clauses_only or _is_clause(i, toks)):
            span = _subtree(i, kids)
            while len(span) > 1 and toks[span[-1]].dep == "punct":
                span.pop()  # the sentence's full stop may hang from the clause
            while len(span) > 1 and toks[span[0]].dep == "punct":
                span.pop(0)
            if toks[i].dep == "conj":
                span = _with_joints(span, toks)
            if span != list(range(span[0], span[-1] + 1)) or not all(j in span for j in inside):
                return None
            return toks[span[0]].start, toks[span[-1]].end
        i = toks[i].head
    return None


def _cut(text: str, a: int, b: int) -> str:
    """``text`` without ``[a, b)``, the commas that bracketed it tidied and a space kept between words."""
    left, right = text[:a].rstrip(), text[b:].lstrip()
    if left.endswith((",", ";", "—", "–")) and (right[:1] in (",", ".", ";", "!", "?", ")", "—", "–") or not right):
        left = left[:-1].rstrip()  # ", which ... ." -> "."
        if right[:1] in (",", "—", "–"):
            right = right[1:].lstrip()  # ", which ... ," -> both go
    elif left.endswith("(") and right.startswith(")"):
        left, right = left[:-1].rstrip(), right[1:].lstrip()
    elif not left and right[:1] == ",":
        right = right[1:].lstrip()  # "After a loan from IBM, Apple ..."
    if not left:
        return right[:1].upper() + right[1:]
    if right[:1] in (",", ".", ";", ":", "!", "?", ")") or not right:
        return left + right
    return left + " " + right


def _loses_a_fact(item: FeedbackItem, cuts: Sequence[tuple[int, int]]) -> bool:
    """Whether the deleted text states, outside the wrong words, a number or a name that the
    evidence sentence states too (a right fact that would go with the detail: "at least 15
    weeks old and 76 cm tall", evidence "15 months old and 76 cm tall")."""
    if not item.evidence:
        return False
    text = list(item.claim)
    for a, b in item.marks:
        text[a:b] = " " * (b - a)
    blanked = "".join(text)
    values = {n.value for n in numerals(item.evidence)}
    words = content_words(item.evidence)
    for a, b in cuts:
        part = " " * a + blanked[a:b]
        if any(n.value in values for n in numerals(part)):
            return True
        if any(m.start() > 0 and word_key(m.group(0)) in words for m in _NAME_WORD.finditer(part)):
            return True
    return False


def _merge(cuts: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for a, b in sorted(cuts):
        if merged and a < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def _cut_sentence(sent: str, spans: Sequence[tuple[int, int]]) -> str:
    """``sent`` without the clause holding each flagged span; ``""`` when a span sits in the main
    clause or fewer than 3 words would be left."""
    cuts = []
    for a, b in spans:
        cut = deletable_span(sent, a, b, clauses_only=True)
        if cut is None:
            return ""
        cuts.append(cut)
    for a, b in reversed(_merge(cuts)):
        sent = _cut(sent, a, b)
    return sent if len(_WORD.findall(sent)) >= _MIN_WORDS else ""


def cut_flagged(answer: str, result: GuardResult) -> str | None:
    """``answer`` with the smallest clause holding each flagged node cut out.

    The finer ``filter``: where the sentence filter drops a whole sentence for one flagged
    clause ("..., and secondary caregivers receive six."), this drops that clause (a
    relative, adverbial, participial or coordinated clause, or an appositive:
    :func:`deletable_span` with ``clauses_only``) and keeps the sentence's other statements.
    A flagged node in a sentence's main clause, or in a phrase of it ("in 1921"), takes the
    sentence with it, as with the sentence filter: only unflagged words are left.

    Parameters
    ----------
    answer : str
        The answer ``result`` was computed on (its flagged nodes' spans index it).
    result : GuardResult
        Its (flagged) verdict.

    Returns
    -------
    str or None
        The cut answer, its sentences joined by one space; ``None`` when no flagged node has a
        span in ``answer``, nothing is cut, or nothing would be left.
    """
    spans = [(n.span.start, n.span.end) for n in result.flagged_nodes
             if n.span is not None and n.span.end <= len(answer)]
    if not spans or result.answer != answer:
        return None
    kept = []
    for a, b in split_sentences(answer):
        lead = len(answer[a:b]) - len(answer[a:b].lstrip())
        sent, at = answer[a:b].strip(), a + lead
        inside = [(s - at, min(e, at + len(sent)) - at) for s, e in spans if at <= s < at + len(sent)]
        piece = _cut_sentence(sent, inside) if inside else sent
        if piece:
            kept.append(piece)
    out = " ".join(" ".join(kept).split())
    return out if out and out != " ".join(answer.split()) else None


def prune_added(item: FeedbackItem, *, whole: bool = False) -> str | None:
    """The claim of an ``added`` item with the constituents holding its wrong words deleted.

    Parameters
    ----------
    item : FeedbackItem
        A feedback item of kind ``added`` with the wrong words' spans (:attr:`FeedbackItem.marks`).
    whole : bool
        Whether the whole claim may go when its main clause holds a wrong word (the claim is
        one sentence of several; never for a one-sentence answer).

    Returns
    -------
    str or None
        The claim without those constituents (every wrong word must sit in one; nested
        ones merge); ``""`` when a wrong word sits in the main clause and ``whole`` is
        set; ``None`` for another kind, no marks, a wrong word in the main clause
        (``whole`` not set) or in a constituent that is not contiguous, a deletion that
        would take a number or name the evidence states with it, or fewer than 3 words left.

    Examples
    --------
    >>> claim = "Apple was founded in 1976, and it received a large grant from the Ford Foundation."
    >>> at = claim.index("the Ford Foundation")
    >>> item = FeedbackItem(claim, (0, len(claim)), ("the Ford Foundation",), "", "added", (), ((at, at + 19),))
    >>> prune_added(item)
    'Apple was founded in 1976, and it received a large grant.'
    """
    if item.kind != "added" or not item.marks:
        return None
    cuts: list[tuple[int, int]] = []
    for start, end in item.marks:
        cut = deletable_span(item.claim, start, end)
        if cut is None:
            main = whole and _in_main_clause(item.claim, start, end)
            return "" if main and not _loses_a_fact(item, [(0, len(item.claim))]) else None
        cuts.append(cut)
    merged = _merge(cuts)
    if _loses_a_fact(item, merged):
        return None
    out = item.claim
    for a, b in reversed(merged):
        out = _cut(out, a, b)
    return out if len(_WORD.findall(out)) >= _MIN_WORDS else None
