"""Evidence repair: the refinement round that needs no LLM.

When the feedback of a flagged claim is of kind ``value`` and names, for a wrong number or
date, the one number that the quoted evidence sentence states in its place, with its unit
(:class:`~guardrail.policy.feedback.FeedbackItem`, :mod:`guardrail.policy.candidates`), the
correction is known: the wrong words are replaced by those values inside that claim, and the
repaired answer is checked by the same guard like any other round (KG-Guard's loop, seed 001,
with the evidence's value as the edit). Words flagged beside the wrong value that are neither a
number nor a name ("The maximum" of "The maximum is four tablets") are left for the guard to
re-check; a wrong number or name with no known value leaves the claim to the LLM. A number that
the evidence or any passage states is never replaced (the flag on it may be false: "sixteen
weeks'" leave, stated by a passage, is not rewritten from a sentence about "four weeks" back at
work), nor is a measure written beside another value ("a year and a half").
For an ``added`` item (the evidence has nothing in the wrong words' place), the smallest
optional clause, appositive or prepositional phrase holding them is deleted, unless one of them
is a number a passage states (left to the LLM, like a stated number of a ``value`` item)
(:mod:`guardrail.policy.pruning`) and the rest is kept; a sentence whose main clause holds
them goes as a whole, but never the main clause of a one-sentence answer.
A repair the guard does not pass is a rejected round, and the LLM rounds follow as before.
Numbers in words count ("eighteen staff", evidence "fourteen"; :mod:`guardrail.policy.numbers`):
the replacement keeps the answer's style where that is simple (digits stay digits).

A measure keeps the evidence's unit: when the wrong value has a unit and the evidence states
the replacement with another unit word ("inside two months", evidence "within eight weeks"),
the number and its unit are written as the evidence has them ("inside eight weeks"), never
the evidence's number with the answer's unit ("eight months", a new wrong value the old
rule wrote). A name is written in only when it fills the same slot tightly: the content word
right next to it in the evidence is the one right next to the wrong name in the claim ("to
the Brayford brickworks", evidence "to the Ashwell brickworks"); a looser match ("based in
Mumbai", evidence "... The Oberoi Group") is left to the LLM.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from guardrail.align.values import number_values
from guardrail.policy.candidates import FUNCTION_WORDS, find_words, is_name, is_quantity, number_stated
from guardrail.policy.feedback import FeedbackItem, word_key
from guardrail.policy.numbers import Numeral, numerals, written_like
from guardrail.policy.pruning import prune_added
from guardrail.text.sentences import split_sentences

__all__ = ["evidence_repair"]


def _year(text: str, n: Numeral) -> bool:
    return not n.words and len(text[n.start:n.end]) == 4 and text[n.start:n.end].isdigit()


def _pick(old: list[Numeral], wrong: str, new: list[Numeral], value: str) -> list[Numeral]:
    """Of several numbers of ``wrong`` ("1 January 2026"), the one year when ``value`` is one year ("2025")."""
    if len(old) < 2 or len(new) != 1 or not _year(value, new[0]):
        return old
    years = [n for n in old if _year(wrong, n)]
    return years if len(years) == 1 else old


def _unit_word(text: str, start: int, end: int) -> str:
    """The unit words of the measure ``text[start:end]`` after its number, a possessive ``'`` dropped."""
    nums = numerals(text[start:end])
    return text[start + nums[0].end:end].strip().rstrip("'") if nums else ""


def _with_unit(wrong: str, value: str, evidence: str) -> str | None:
    """``wrong`` with its one measure written as the evidence states ``value`` (number and unit
    words: "two months" -> "eight weeks"), when the two unit words differ; ``None`` otherwise
    (no unit, the same unit words, or ``value`` not one measure of the evidence)."""
    old = [v for v in number_values(wrong) if v.unit != "dimensionless"]
    nums = numerals(value)  # the candidate may carry its unit ("46 days")
    target = nums[0].value if len(nums) == 1 else None
    new = [v for v in number_values(evidence) if v.value == target and v.unit != "dimensionless"]
    if len(old) != 1 or len(new) != 1:
        return None
    o, n = old[0], new[0]
    if word_key(_unit_word(wrong, o.start, o.end)) == word_key(_unit_word(evidence, n.start, n.end)):
        return None
    surface = evidence[n.start:n.end].rstrip().rstrip("'")
    return wrong[:o.start] + surface + wrong[o.end:]


def _next_word(text: str, at: int, before: bool) -> str:
    words = re.findall(r"\w+", text[:at] if before else text[at:])
    return word_key(words[-1 if before else 0]) if words else ""


def _same_slot(claim: str, wrong: str, evidence: str, value: str) -> bool:
    """Whether the content word right before (or after) ``wrong`` in ``claim`` is the one right
    before (or after) ``value`` in ``evidence``."""
    i, j = find_words(claim, wrong), evidence.find(value)
    if i < 0 or j < 0 or value in claim:
        return False
    for before in (True, False):
        a = _next_word(claim, i if before else i + len(wrong), before)
        b = _next_word(evidence, j if before else j + len(value), before)
        if a and a == b and a not in FUNCTION_WORDS:
            return True
    return False


def _swap(text: str, wrong: str, value: str) -> tuple[str, str] | None:
    """Replace ``wrong`` in ``text`` by ``value``, in the answer's style (digits stay digits,
    :func:`~guardrail.policy.numbers.written_like`); when ``wrong`` holds one number and
    ``value`` is a bare number, or the same number with the unit that ``wrong`` (or the text
    right after it) already writes, only that number ("roughly 410 metres" -> "roughly 140
    metres"; "450" of "450 kilograms" -> "540", not "540 kilograms kilograms"). Returns the
    new text and what was written in place of ``wrong``."""
    m = re.search(r"(?<!\w)" + re.escape(wrong) + r"(?!\w)", text)
    if m is None:
        return None
    new = numerals(value)
    old = _pick(numerals(wrong), wrong, new, value)
    if len(old) == 1 and len(new) == 1:
        o, n = old[0], new[0]
        number = written_like(o, wrong, n, value)
        pre, rest = value[:n.start].strip(), value[n.end:].strip()  # "£" of "£3.2 million", "million"
        follows = wrong[o.end:] if wrong[o.end:].strip() else text[m.end():]
        if (not pre or wrong[:o.start].rstrip().endswith(pre)) and (not rest or _same_start(rest, follows)):
            value = wrong[:o.start] + number + wrong[o.end:]
        else:
            value = value[:n.start] + number + value[n.end:]
    return text[:m.start()] + value + text[m.end():], value


def _same_start(unit: str, text: str) -> bool:
    """Whether ``text`` starts with the words of ``unit`` (compared as :func:`word_key` s: "month" is "months")."""
    a, b = re.findall(r"\w+", unit), re.findall(r"\w+", text)[:len(re.findall(r"\w+", unit))]
    return bool(a) and [word_key(w) for w in a] == [word_key(w) for w in b]


def _compound(wrong: str) -> bool:
    """Whether ``wrong`` holds a measure beside another value ("a year and a half": 1 year and 0.5),
    which one replacement cannot rewrite ("18 months and a half")."""
    values = number_values(wrong)
    return len(values) > 1 and any(v.unit != "dimensionless" for v in values)


def _known(claim: str, it: FeedbackItem, contexts: Sequence[str]) -> list[tuple[str, str]] | None:
    """The (wrong, value) pairs of a ``value`` item to write in: each a number for a number or a
    name in the same slot (:func:`_same_slot`) for a name. ``None`` when a pair is not, when a
    wrong number or name has no known value (the LLM's to fix), or when no value is known. A
    wrong word that is neither ("The maximum", "protected bike lanes": words flagged beside the
    wrong value) is left, and so is a number that the evidence or any of ``contexts`` states
    ("nine" votes, evidence "9 to 4"; "sixteen weeks'" leave, which a passage states as "16
    weeks" while the sentence quoted says "four weeks" back at work): a value the context
    states is not certainly wrong, and the LLM, not the repair, is asked about it."""
    pairs = []
    for w, v in zip(it.wrong, it.values):
        number = is_quantity(w)
        if number and any(number_stated(w, t) for t in (it.evidence, *contexts)):
            continue
        if not v:
            if number or is_name(w, claim):
                return None
            continue
        if not (number and is_quantity(v) and not _compound(w) or not number and v[:1].isupper()
                and _same_slot(claim, w, it.evidence, v)):
            return None  # a name only in the same slot: sharing a nearby word is too weak a match
        pairs.append((w, v))
    return pairs or None


def _repair_value(claim: str, it: FeedbackItem, contexts: Sequence[str]) -> tuple[str, str] | None:
    """``claim`` with the known wrong values of a ``value`` item replaced (:func:`_known`), and the
    note; ``None`` when there are none or a wrong word is not found."""
    pairs = _known(claim, it, contexts) if it.kind == "value" else None
    if pairs is None:
        return None
    fixed, written = claim, []
    for wrong, value in pairs:
        measure = _with_unit(wrong, value, it.evidence) if is_quantity(wrong) else None
        swapped = _swap(fixed, wrong, measure or value)
        if swapped is None:
            return None
        fixed = swapped[0]
        written.append(swapped[1])
    note = ", ".join(f'"{w}" -> "{v}"' for (w, _), v in zip(pairs, written))
    return fixed, note + f" (evidence: {' '.join(it.evidence.split())})"


def _repair_added(claim: str, it: FeedbackItem, whole: bool) -> tuple[str, str] | None:
    """``claim`` without the clause holding an added detail (:func:`~guardrail.policy.pruning.prune_added`);
    ``""`` when the whole sentence goes (``whole``: the answer has other sentences)."""
    pruned = prune_added(it, whole=whole) if claim.strip() == it.claim else None
    if pruned is None:
        return None
    wrong = ", ".join(f'"{w}"' for w in it.wrong)
    if not pruned:
        return "", f'deleted "{it.claim}" (the context does not state {wrong})'
    return claim.replace(it.claim, pruned, 1), f'"{it.claim}" -> "{pruned}" (the context does not state {wrong})'


def _cut_sentence(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` widened over the white space after it (before it, at the end of ``text``)."""
    while end < len(text) and text[end].isspace():
        end += 1
    if end == len(text):
        while start > 0 and text[start - 1].isspace():
            start -= 1
    return start, end


def _stated_value(it: FeedbackItem, contexts: Sequence[str]) -> bool:
    """Whether a wrong word of ``it`` is a number that a passage states (value and unit): the
    flag on it may be false (the evidence quoted is not the passage's sentence that states it:
    "After recharging to 80%" against a sentence about battery capacity), so it is not deleted."""
    return any(is_quantity(w) and any(number_stated(w, t) for t in contexts) for w in it.wrong)


def _repair_item(claim: str, it: FeedbackItem, contexts: Sequence[str], whole: bool,
                 values_only: bool) -> tuple[str, str] | None:
    if it.kind == "value":
        return _repair_value(claim, it, contexts)
    if it.kind == "restate":  # no wrong word: nothing the evidence says to write or delete
        return None
    return None if values_only or _stated_value(it, contexts) else _repair_added(claim, it, whole)


def evidence_repair(answer: str, items: Sequence[FeedbackItem], contexts: Sequence[str] = (),
                    values_only: bool = False) -> tuple[str, str] | None:
    """The answer with each fully known wrong number replaced and each added detail deleted, and a note.

    A ``value`` item has its wrong numbers replaced by the evidence's (with the evidence's unit
    when the units differ). A name is written in only when the evidence's candidate fills the
    same slot tightly (the content word next to it is the one next to the wrong name): a name
    sharing only a nearby word is too weak a match ("based in Mumbai" -> "based in The Oberoi
    Group"). An ``added``
    item has the smallest optional constituent holding its wrong words deleted
    (:func:`~guardrail.policy.pruning.prune_added`); when its main clause holds them, the
    whole sentence goes if the answer has others (never the only sentence).

    Parameters
    ----------
    answer : str
        The flagged answer the items were made from.
    items : sequence of FeedbackItem
        :func:`~guardrail.policy.feedback.feedback_items` of its verdict.
    contexts : sequence of str
        The passages: a wrong number that one of them states (value and unit) is not replaced.
    values_only : bool
        Replace wrong values only, delete no added detail.

    Returns
    -------
    (str, str) or None
        The repaired answer and a feedback line naming each replacement
        (``'"1921" -> "1911" (evidence: ...)'``) or deletion; ``None`` when no item can be
        repaired (no ``value`` item with every value known, no ``added`` item with a
        deletable clause, or no claim span in ``answer``).

    Examples
    --------
    >>> item = FeedbackItem("She won it in 1921.", (0, 19), ("1921",), "In 1911 she won it.", "value", ("1911",))
    >>> evidence_repair("She won it in 1921.", [item])[0]
    'She won it in 1911.'
    """
    out, notes, shift = answer, [], 0
    whole = len(split_sentences(answer)) > 1
    for it in sorted(items, key=lambda i: i.span or (0, 0)):
        if it.span is None:
            continue
        start, end = it.span[0] + shift, it.span[1] + shift
        claim = out[start:end]
        done = _repair_item(claim, it, contexts, whole, values_only)
        if done is None or done[0] == claim:
            continue
        if not done[0]:
            start, end = _cut_sentence(out, start, end)
            claim = out[start:end]
        out = out[:start] + done[0] + out[end:]
        shift += len(done[0]) - len(claim)
        notes.append(done[1])
    if not notes or not out.strip():  # never every sentence
        return None
    return out, "evidence repair: " + "; ".join(notes)
