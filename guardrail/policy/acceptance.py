"""Whether a refined answer's corrections are stated by the evidence its feedback quoted.

The guard re-checks every refined answer against the whole context, but a value that
the context states *somewhere* can still be the wrong one: asked to fix "Curie won the
Chemistry prize in 1921" (the context: 1911), a model may write 1903, the year of her
Physics prize, which the context also states. :func:`check_corrections` therefore
compares the previous answer with the new one word by word (:mod:`difflib`) and, for
every change inside a flagged claim, requires each new content word to be stated by
that claim's evidence sentence (the one the feedback quoted,
:attr:`~guardrail.policy.feedback.FeedbackItem.evidence`) or to be a word the claim
already had (its wrong words excepted); a number counts as stated when the evidence
states its value in digits or in words ("14" for "fourteen"). Deleting words is always allowed (an
unsupported detail dropped); changes outside the flagged claims are left to the guard's
re-check and to :func:`~guardrail.policy.progress.lost_phrases`.

:func:`introduced_values` is the net over the whole answer: a revision that writes a value
(a number, in digits or words, or a capitalised name) that neither the original answer nor
the context states is never accepted, wherever it stands. A small model asked to fix one
clause sometimes rewrites another one or appends a sentence of its own ("about 40 % of
patients", "in 2019"); the guard may pass such a sentence, and the benchmark counted such
answers as broken, so the loop does not rely on the guard for it (:func:`judge_round`
joins both checks).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from guardrail.policy.candidates import FUNCTION_WORDS
from guardrail.policy.feedback import FeedbackItem, content_words, word_key
from guardrail.policy.numbers import number_value, numerals

__all__ = ["Acceptance", "check_corrections", "introduced_values", "judge_round"]

_TOKEN = re.compile(r"\w+(?:[.,]\d+)*")
_CAPITAL = re.compile(r"(?<![\w'-])[A-Z]\w*")
_OPENERS = ".!?:;\"\u201c(\u2014"
#: Words a new answer may write without evidence: the polar answer to a yes/no question is not a
#: value ("Yes, both are singers."); the guard re-checks what follows it.
_POLAR = frozenset({"yes", "no"})


@dataclass(frozen=True)
class Acceptance:
    """The verdict on a round's corrections.

    Parameters
    ----------
    accepted : bool
        Every change inside a flagged claim is stated by its evidence sentence.
    problems : tuple of str
        One line per rejected change: the words written, where, and the evidence they
        were checked against (fed back to the LLM in the next round).
    """

    accepted: bool
    problems: tuple[str, ...] = ()


def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def _item_at(items: Sequence[FeedbackItem], offsets: Sequence[int]) -> FeedbackItem | None:
    for it in items:
        if it.span is not None and any(it.span[0] <= o < it.span[1] for o in offsets):
            return it
    return None


def _new_words(tokens: Sequence[tuple[str, int, int]]) -> list[str]:
    return [w for w, _, _ in tokens if w.lower() not in FUNCTION_WORDS]


def _problem(item: FeedbackItem, words: Sequence[str]) -> str:
    said = " ".join(words)
    if item.evidence:
        return (f'in the claim "{item.claim}" you wrote "{said}", which the context sentence '
                f'"{item.evidence}" does not state; use what that sentence says, or delete the detail')
    return f'in the claim "{item.claim}" you wrote "{said}", which the context does not state; delete the detail'


def check_corrections(items: Sequence[FeedbackItem], before: str, after: str, question: str | None = None) -> Acceptance:
    """Judge the corrections that turned ``before`` into ``after``.

    Parameters
    ----------
    items : sequence of FeedbackItem
        The feedback items ``before`` was re-prompted with (their spans index ``before``).
    before, after : str
        The answer that was re-prompted and the LLM's new answer.
    question : str or None
        The user's question: its words other than values (numbers, capitalised names) may be
        written too, since an answer restates its question ("Yes, both are singers." for "Are
        Kelly Jones and Martha Reeves both singers?"); a value it names must still be stated by
        the evidence.

    Returns
    -------
    Acceptance
        Not accepted when a change inside a flagged claim writes a content word that is
        neither in the claim's evidence sentence nor among the claim's own words (its
        wrong words excepted); ``problems`` says which.

    Examples
    --------
    >>> from guardrail.policy.feedback import FeedbackItem
    >>> claim = "Curie won the Chemistry prize in 1921."
    >>> it = FeedbackItem(claim, (0, len(claim)), ("1921",), "In 1911 she won the Chemistry prize.", "value", ("1911",))
    >>> check_corrections([it], claim, "Curie won the Chemistry prize in 1911.").accepted
    True
    >>> check_corrections([it], claim, "Curie won the Chemistry prize in 1903.").accepted
    False
    """
    old, new = _tokens(before), _tokens(after)
    matcher = difflib.SequenceMatcher(None, [word_key(t[0]) for t in old], [word_key(t[0]) for t in new],
                                      autojunk=False)
    problems: list[str] = []
    framing = _POLAR | _frame_words(question or "")
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag not in ("replace", "insert") or j1 == j2:
            continue
        near = range(i1, i2) if tag == "replace" else (i1 - 1, i1)  # an insertion: its neighbours
        item = _item_at(items, [old[k][1] for k in near if 0 <= k < len(old)])
        if item is None:
            continue
        allowed = content_words(item.evidence) | (content_words(item.claim) - _wrong_words(item)) | framing
        values = {n.value for n in numerals(item.evidence)}
        bad = [w for w in _new_words(new[j1:j2]) if word_key(w) not in allowed and number_value(w) not in values]
        if bad:
            problems.append(_problem(item, bad))
    return Acceptance(not problems, tuple(problems))


def _frame_words(question: str) -> set[str]:
    """The :func:`~guardrail.policy.feedback.word_key` s of ``question``'s words that are not values
    (no digit, not capitalised)."""
    return {word_key(w) for w, _, _ in _tokens(question)
            if not any(c.isdigit() or c.isupper() for c in w) and w.lower() not in FUNCTION_WORDS}


def _wrong_words(item: FeedbackItem) -> set[str]:
    return set().union(*(content_words(w) for w in item.wrong)) if item.wrong else set()


def _names(text: str) -> list[str]:
    """Capitalised words of ``text`` that do not open a sentence (a sentence's first word is
    capitalised whatever it is)."""
    out = []
    for m in _CAPITAL.finditer(text):
        prefix = text[:m.start()].rstrip()
        if prefix and prefix[-1] not in _OPENERS:
            out.append(m.group(0))
    return out


def introduced_values(before: str, after: str, contexts: Sequence[str]) -> list[str]:
    """The values ``after`` writes that neither ``before`` nor ``contexts`` state.

    A value is a number (digits or words, compared by value: "14" is stated by "fourteen";
    "one" in words is not counted) or a capitalised word not opening a sentence (compared case-blind with the words of
    ``before`` and ``contexts``, so "Norwegian" is stated by a context that writes it).

    Parameters
    ----------
    before : str
        The original answer (its values, right or wrong, are not new).
    after : str
        The revision.
    contexts : sequence of str
        The passages.

    Returns
    -------
    list of str
        The new values, each once: the numbers, then the names, each in ``after``'s order.

    Examples
    --------
    >>> introduced_values("It opened in 1921.", "It opened in 1911 in Paris.", ["Opened in 1911 in Lyon."])
    ['Paris']
    """
    known = " ".join([before, *contexts])
    values = {n.value for n in numerals(known)}
    words = {word_key(w) for w in _TOKEN.findall(known)}
    out = [after[n.start:n.end] for n in numerals(after)
           if n.value not in values and not (n.words and n.value < 2)]  # "one of them", "no one": no value
    out += [w for w in _names(after) if word_key(w) not in words and not any(c.isdigit() for c in w)]
    return list(dict.fromkeys(out))


def judge_round(items: Sequence[FeedbackItem], before: str, after: str, original: str,
                contexts: Sequence[str], question: str | None = None) -> Acceptance:
    """:func:`check_corrections` of ``before`` -> ``after``, joined by :func:`introduced_values`
    of ``original`` -> ``after``: a round is accepted only when both find nothing.

    Parameters
    ----------
    items : sequence of FeedbackItem
        The feedback items ``before`` was re-prompted with.
    before, after : str
        The re-prompted answer and the revision.
    original : str
        The loop's first answer.
    contexts : sequence of str
        The passages the loop quotes.
    question : str or None
        The user's question (:func:`check_corrections`).

    Returns
    -------
    Acceptance
        Its ``problems`` name each rejected correction and each new value.
    """
    verdict = check_corrections(items, before, after, question)
    new = introduced_values(original, after, contexts)
    if not new:
        return verdict
    line = (f"you wrote {', '.join(json.dumps(v, ensure_ascii=False) for v in new)}, which neither the context nor "
            "the answer states; write only values the context states")
    return Acceptance(False, (*verdict.problems, line))
