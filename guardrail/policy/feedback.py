"""What the refinement feedback says about each flagged claim, and the evidence it quotes.

:func:`feedback_items` turns a flagged verdict into one :class:`FeedbackItem` per flagged
claim (the answer sentence holding flagged nodes): its wrong words, the context sentence
to check it against (the one sharing most words with the claim, its wrong words left
out) and the kind of error, which decides what the LLM is told to do:

* ``value``: the evidence states another value of the same shape (a number, written with
  its unit, for a number; a name for a name: :mod:`guardrail.policy.candidates`) in the
  claim's place: replace the wrong words with it;
* ``role``: the wrong words *are* in the evidence, in another role (a swapped subject
  and object, the wrong actor): state who did what as the evidence does;
* ``added``: the evidence has nothing in their place (or no sentence matches): delete
  the unsupported detail with the smallest clause holding it, keep the rest;
* ``restate``: the answer failed with no node flagged (:mod:`guardrail.explain.weakest`): its
  least supported claim, with no wrong words, is to be restated with its evidence sentence's
  words for each fact (the loop sent empty feedback before, and the model repeated the answer).

The same items, with their evidence, are what :mod:`guardrail.policy.acceptance`
checks a refined answer against, so a correction is judged by the sentence it was
shown. :func:`build_feedback` renders them: each claim with the exact words to rewrite
marked (``in [[1921]]``: the flagged nodes' own spans, :func:`marked`), those words, the
evidence sentence and the fix, every quoted text JSON-escaped onto its line, so a node
text cannot start a feedback item of its own. A short answer, which the loop asks to be
answered anew rather than edited (:func:`~guardrail.policy.prompts.short_answer`), gets
feedback that says so (``short=True``): its wrong words and the evidence sentence that gives
the answer, not "rewrite only the marked words".
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from guardrail.explain.weakest import weakest_claim
from guardrail.policy.candidates import content_words, evidence_sentence, number_stated, value_candidates, word_key
from guardrail.text.sentences import split_sentences
from guardrail.types import FlaggedNode, GuardResult

__all__ = ["FeedbackItem", "ErrorKind", "MARK_OPEN", "MARK_CLOSE", "feedback_items", "marked", "unmark",
           "render_item", "render_short_item", "build_feedback", "edit_instruction", "content_words", "word_key"]

ErrorKind = Literal["value", "role", "added", "restate"]

#: What the feedback puts around the exact words to rewrite in a claim ("in [[1921]]").
MARK_OPEN, MARK_CLOSE = "[[", "]]"


@dataclass(frozen=True)
class FeedbackItem:
    """One flagged claim as the feedback names it.

    Parameters
    ----------
    claim : str
        The answer sentence holding the flagged nodes (a node's own text when it has no span).
    span : tuple of int or None
        ``(start, end)`` of the claim in the answer; ``None`` for a span-less node.
    wrong : tuple of str
        The flagged node texts in the claim.
    evidence : str
        The context sentence the claim is to be checked against (``""``: none found).
    kind : {"value", "role", "added", "restate"}
        The kind of error (see the module docstring).
    values : tuple of str
        For ``value``, one entry per wrong word: the one value of its shape (a number with
        the evidence's unit words, "46 days"; a name) that the evidence states and the claim
        does not, ``""`` when there is none or several; empty for another kind.
    marks : tuple of (int, int)
        Character spans of the wrong words (the flagged nodes' own spans) in ``claim``,
        one per wrong word that has a span there; empty for span-less nodes.
    """

    claim: str
    span: tuple[int, int] | None
    wrong: tuple[str, ...]
    evidence: str
    kind: ErrorKind
    values: tuple[str, ...] = ()
    marks: tuple[tuple[int, int], ...] = ()


def _sentences(texts: Sequence[str]) -> list[str]:
    return [t[a:b].strip() for t in texts for a, b in split_sentences(t)]


def _claims(result: GuardResult, max_nodes: int) -> list[tuple[str, tuple[int, int] | None, list[FlaggedNode]]]:
    """Flagged nodes grouped by the answer sentence holding them (span-less nodes alone)."""
    answer = result.answer
    spans = split_sentences(answer) if answer else []
    groups: dict[str, tuple[tuple[int, int] | None, list[FlaggedNode]]] = {}
    for node in result.flagged_nodes[:max_nodes]:
        claim, where = node.text, None
        if node.span is not None and node.span.end <= len(answer):
            hit = next(((a, b) for a, b in spans if a <= node.span.start < b), None)
            if hit is not None:
                claim, where = answer[hit[0]:hit[1]].strip(), hit
        groups.setdefault(claim, (where, []))[1].append(node)
    return [(claim, where, nodes) for claim, (where, nodes) in groups.items()]


def _marks(answer: str, where: tuple[int, int] | None, nodes: Sequence[FlaggedNode]) -> tuple[tuple[int, int], ...]:
    """The nodes' spans in their claim (the stripped sentence ``answer[where]``), in order."""
    if where is None:
        return ()
    raw = answer[where[0]:where[1]]
    at = where[0] + len(raw) - len(raw.lstrip())
    end = at + len(raw.strip())
    spans = {(n.span.start - at, n.span.end - at) for n in nodes
             if n.span is not None and at <= n.span.start and n.span.end <= end}
    return tuple(sorted(spans))


def _classify(claim: str, wrong: Sequence[str], evidence: str) -> tuple[ErrorKind, tuple[str, ...]]:
    if not evidence:
        return "added", ()
    ev_words = content_words(evidence)
    if any(content_words(w) for w in wrong) and all(content_words(w) <= ev_words or number_stated(w, evidence)
                                                    for w in wrong):
        return "role", ()  # every wrong word is in the evidence ("nine" by its "9"): in another role
    found = [value_candidates(w, claim, evidence) for w in wrong]
    if any(found):
        return "value", tuple(f[0] if len(f) == 1 else "" for f in found)
    return "added", ()


def _own_values(claim: str, wrong: Sequence[str], kind: ErrorKind, values: tuple[str, ...], evidence: str,
                sents: Sequence[str], hint: str, question: str) -> tuple[ErrorKind, tuple[str, ...], str]:
    """Evidence per flagged node: in a claim with several wrong words, one that the claim's
    evidence sentence gives no value for is looked up in its own sentence (the one its own
    slot's words point to: "six weeks of unbroken service" -> "6 months of continuous service",
    while the claim's other flagged words chose a sentence about leave in weeks). A value found
    there is the word's value, that sentence joins the evidence, and the item is a ``value``
    item. A ``role`` item (every wrong word in the evidence) is left as it is."""
    if len(wrong) < 2 or kind == "role":
        return kind, values, evidence
    out = list(values) if values else [""] * len(wrong)
    extra: list[str] = []
    for i, w in enumerate(wrong):
        own = "" if out[i] else evidence_sentence(claim, (w,), hint, sents, question)
        found = value_candidates(w, claim, own) if own and own != evidence else []
        if len(found) == 1:
            out[i] = found[0]
            extra.append(own)
    if not extra:
        return kind, values, evidence
    return "value", tuple(out), " ".join(dict.fromkeys([evidence, *extra]))


def feedback_items(result: GuardResult, contexts: Sequence[str] = (), *, max_nodes: int = 8,
                   question: str | None = None) -> list[FeedbackItem]:
    """One :class:`FeedbackItem` per flagged claim of ``result``, in answer order.

    Parameters
    ----------
    result : GuardResult
        A flagged verdict.
    contexts : sequence of str
        The passages the evidence sentences are taken from (none: the detectors' evidence).
    max_nodes : int
        At most this many flagged nodes are considered.
    question : str or None
        The question: its words help find the evidence sentence of a bare claim ("Palermo.").
    """
    sents = _sentences(contexts)
    items = []
    for claim, where, nodes in _claims(result, max_nodes):
        wrong = tuple(n.text for n in nodes)
        hint = next((n.evidence for n in nodes if n.evidence), "")
        ev = evidence_sentence(claim, wrong, hint, sents, question or "")
        kind, values = _classify(claim, wrong, ev)
        kind, values, ev = _own_values(claim, wrong, kind, values, ev, sents, hint, question or "")
        items.append(FeedbackItem(claim, where, wrong, ev, kind, values, _marks(result.answer, where, nodes)))
    return items or _restate_item(result, sents, question or "")


def _restate_item(result: GuardResult, sents: Sequence[str], question: str) -> list[FeedbackItem]:
    """The ``restate`` item of a failed verdict with no flagged node: its weakest claim
    (:func:`~guardrail.explain.weakest.weakest_claim`) and that claim's evidence sentence."""
    weak = None if result.passed or result.abstained else weakest_claim(result.detectors)
    if weak is None or weak.end > len(result.answer):
        return []
    raw = result.answer[weak.start:weak.end]
    start = weak.start + len(raw) - len(raw.lstrip())
    claim = raw.strip()
    evidence = weak.evidence or evidence_sentence(claim, (), "", sents, question)
    return [FeedbackItem(claim, (start, start + len(claim)), (), evidence, "restate")]


def _q(text: str) -> str:
    return json.dumps(" ".join(text.split()), ensure_ascii=False)


def _instruction(item: FeedbackItem) -> str:
    wrong = ", ".join(_q(w) for w in item.wrong)
    if item.kind == "value":
        parts = [f"{_q(w)} with {_q(v) if v else 'what that sentence states'}" for w, v in zip(item.wrong, item.values)]
        return "replace " + ", ".join(parts) + " (the values that context sentence states)"
    if item.kind == "role":
        return "the context names these words in another role: state who did what exactly as it says"
    if item.kind == "restate":
        return ("restate this sentence with the words that context sentence uses for each fact, keep every name, "
                "number and date it states, and drop what it does not state")
    return f"the context does not state {wrong}: delete only that detail (the smallest clause holding it) " \
           "and keep the rest of the sentence"


def marked(item: FeedbackItem) -> str:
    """The claim with each wrong word's own span between :data:`MARK_OPEN` and :data:`MARK_CLOSE`.

    Examples
    --------
    >>> marked(FeedbackItem("She won it in 1921.", (0, 19), ("1921",), "", "added", (), ((14, 18),)))
    'She won it in [[1921]].'
    """
    out, last = [], 0
    for a, b in sorted(item.marks):
        if a < last:  # overlapping marks: the first one holds it
            continue
        out += [item.claim[last:a], MARK_OPEN, item.claim[a:b], MARK_CLOSE]
        last = b
    return "".join(out) + item.claim[last:]


#: A lead-in a small model writes before quoting its answer ('The corrected answer is: "..."').
_LEAD_IN = re.compile(r'^[^"\u201c\n]{0,200}?:\s*["\u201c](?P<answer>.+)["\u201d]\s*$', re.S)
#: The same lead-in before an unquoted answer; it must name the answer or the edit ("The previous
#: answer with only the words marked in the feedback rewritten is:", "Corrected answer:"), so
#: "The sign said: closed." keeps its colon.
_PLAIN_LEAD_IN = re.compile(
    r'^(?=[^:\n"\u201c]{0,200}?\b(?:answer|corrected|rewritten|revised)\b)'
    r'[^:\n"\u201c]{0,200}?:\s+(?P<answer>\S.*)$', re.S | re.I)


def unmark(reply: str, previous: str) -> str:
    """``reply`` without the marks a model copied from the feedback (those ``previous`` did not
    have) and without a lead-in before its answer ('The previous answer with the marked words
    rewritten is: "..."': the quoted answer is kept; "Corrected answer: ...", a lead-in naming the
    answer or the edit before an unquoted answer, likewise), unless ``previous`` opened the same way."""
    for mark in (MARK_OPEN, MARK_CLOSE):
        if mark in reply and mark not in previous:
            reply = reply.replace(mark, "")
    for lead_in in (_LEAD_IN, _PLAIN_LEAD_IN):
        m = lead_in.match(reply.strip())
        if m and not lead_in.match(previous.strip()):
            return m.group("answer").strip()
    return reply


def render_item(item: FeedbackItem) -> str:
    """One feedback line: the claim with its wrong words marked, the words to rewrite, the
    evidence sentence and what to do."""
    where = f"the context says {_q(item.evidence)}" if item.evidence else "the context does not mention it"
    if item.kind == "restate":
        return f"- claim {_q(item.claim)}: not supported as written; {where}; fix: {_instruction(item)}"
    wrong = ", ".join(_q(w) for w in item.wrong)
    which = f"the marked words {wrong}" if item.marks else f"the words {wrong}"
    return f"- claim {_q(marked(item))}: rewrite only {which}; {where}; fix: {_instruction(item)}"


def render_short_item(item: FeedbackItem) -> str:
    """One feedback line for a short answer answered anew: the answer, its wrong words, the
    evidence sentence that gives the answer, and the value it states in their place if known."""
    wrong = ", ".join(_q(w) for w in item.wrong)
    line = f"- your answer {_q(item.claim)} is " + (
        f"wrong ({wrong} {'is' if len(item.wrong) < 2 else 'are'} not supported)" if item.wrong
        else "not supported as written")
    if not item.evidence:
        return line + "; the context does not mention it"
    values = [f"{_q(v)} in place of {_q(w)}" for w, v in zip(item.wrong, item.values) if v]
    line += f"; the context sentence {_q(item.evidence)} gives the answer to the question"
    return line + (f": it states {', '.join(values)}" if values else "")


def edit_instruction(items: Sequence[FeedbackItem]) -> str:
    """The feedback's last line: rewrite the marked words, or, when every item is a ``restate``
    item (no word marked), restate the quoted sentence and copy the others.

    Parameters
    ----------
    items : sequence of FeedbackItem
        The feedback's items.

    Returns
    -------
    str
        One instruction line.
    """
    if items and all(it.kind == "restate" for it in items):
        return ("Restate only the claim quoted above, from its context sentence; copy every other sentence exactly "
                "as it was.")
    return (f"Rewrite only the words marked {MARK_OPEN} {MARK_CLOSE} (or drop a detail the context does not "
            "support); copy every other word exactly as it was, and do not write the marks.")


def _short_feedback(items: Sequence[FeedbackItem], rejected: Sequence[str]) -> str:
    lines = ["Your answer is not supported by the context:", *(render_short_item(it) for it in items)]
    lines += [f"Your last answer was rejected: {_q(problem)}." for problem in rejected]
    lines.append("Answer the question anew with what that context sentence says, in one sentence; do not "
                 "repeat your answer or keep its wrong words.")
    return "\n".join(lines)


def build_feedback(
    result: GuardResult, contexts: Sequence[str] = (), *, max_nodes: int = 8, rejected: Sequence[str] = (),
    short: bool = False, question: str | None = None,
) -> str:
    """The feedback naming each flagged claim, its wrong words, the evidence sentence and the fix.

    Parameters
    ----------
    result : GuardResult
        The verdict on the answer.
    contexts : sequence of str
        The passages; the evidence quoted for a claim is the context sentence sharing
        most words with it (the wrong words left out), else the detector's evidence.
    max_nodes : int
        At most this many flagged nodes are listed.
    rejected : sequence of str
        Why the last correction was rejected (:attr:`~guardrail.policy.acceptance.Acceptance.problems`),
        one line each, told to the LLM so it does not repeat it.
    short : bool
        The answer is to be answered anew, not edited (a short answer,
        :func:`~guardrail.policy.prompts.short_answer`): each line names the wrong words and
        the evidence sentence that gives the answer (:func:`render_short_item`), and the last
        line asks for a new answer instead of an edit of the marked words.
    question : str or None
        The question (it helps find the evidence sentence of a bare answer, :func:`feedback_items`).

    Returns
    -------
    str
        One header line, one line per flagged claim (``- claim "... in [[1999]].": rewrite
        only the marked words "1999"; the context says "..."; fix: ...``, every quoted text
        JSON-escaped onto that line), the rejected correction if any, and one instruction
        line.
    """
    if result.abstained:
        reason = " ".join((result.abstain_reason or "").split())
        return f"The answer could not be verified ({reason}). Answer only from the context."
    items = feedback_items(result, contexts, max_nodes=max_nodes, question=question)
    if short:
        return _short_feedback(items, rejected)
    lines = ["These claims of your answer are not supported by the context:"]
    lines.extend(render_item(it) for it in items)
    for problem in rejected:
        lines.append(f"Your last correction was rejected: {_q(problem)}.")
    lines.append(edit_instruction(items))
    return "\n".join(lines)
