"""Evidence repair: the refinement round that needs no LLM.

When the feedback of a flagged claim is of kind ``value`` and names, for every wrong number or
date, the one number that the quoted evidence sentence states in its place
(:class:`~guardrail.policy.feedback.FeedbackItem`), the correction is known: the wrong words
are replaced by those values inside that claim, and the repaired answer is checked by the same
guard like any other round (KG-Guard's loop, seed 001, with the evidence's value as the edit).
A repair the guard does not pass is a rejected round, and the LLM rounds follow as before.
Numbers in words count ("eighteen staff", evidence "fourteen"; :mod:`guardrail.policy.numbers`):
the replacement keeps the answer's style where that is simple (digits stay digits).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from guardrail.policy.feedback import FeedbackItem
from guardrail.policy.numbers import is_number, numerals, written_like

__all__ = ["evidence_repair"]


def _swap(text: str, wrong: str, value: str) -> tuple[str, str] | None:
    """Replace ``wrong`` in ``text`` by ``value``, in the answer's style (digits stay digits,
    :func:`~guardrail.policy.numbers.written_like`); when ``wrong`` holds one number and
    ``value`` is a bare number, or the same number with the unit ``wrong`` already writes,
    only that number ("roughly 410 metres" -> "roughly 140 metres"). Returns the new text
    and what was written in place of ``wrong``."""
    m = re.search(r"(?<!\w)" + re.escape(wrong) + r"(?!\w)", text)
    if m is None:
        return None
    old, new = numerals(wrong), numerals(value)
    if len(old) == 1 and len(new) == 1:
        o, n = old[0], new[0]
        number = written_like(o, wrong, n, value)
        rest = value[n.end:].strip()
        if not value[:n.start].strip() and (not rest or wrong[o.end:].strip().startswith(rest)):
            value = wrong[:o.start] + number + wrong[o.end:]
        else:
            value = value[:n.start] + number + value[n.end:]
    return text[:m.start()] + value + text[m.end():], value


def evidence_repair(answer: str, items: Sequence[FeedbackItem]) -> tuple[str, str] | None:
    """The answer with each fully known wrong number replaced by the evidence's, and a note.

    Only numbers and dates are written in: for a name, the evidence's candidate (a name sharing
    a neighbouring word) is too weak a match ("based in Mumbai" -> "based in The Oberoi Group").

    Parameters
    ----------
    answer : str
        The flagged answer the items were made from.
    items : sequence of FeedbackItem
        :func:`~guardrail.policy.feedback.feedback_items` of its verdict.

    Returns
    -------
    (str, str) or None
        The repaired answer and a feedback line naming each replacement
        (``'"1921" -> "1911" (evidence: ...)'``); ``None`` when no item can be repaired
        (no ``value`` item with every value known and its claim span in ``answer``).

    Examples
    --------
    >>> item = FeedbackItem("She won it in 1921.", (0, 19), ("1921",), "In 1911 she won it.", "value", ("1911",))
    >>> evidence_repair("She won it in 1921.", [item])[0]
    'She won it in 1911.'
    """
    out, notes, shift = answer, [], 0
    for it in sorted(items, key=lambda i: i.span or (0, 0)):
        if it.kind != "value" or it.span is None or not it.values or not all(it.values):
            continue
        if not all(is_number(w) and is_number(v) for w, v in zip(it.wrong, it.values)):
            continue  # names: a name sharing a neighbouring word is too weak a match to write in
        start, end = it.span[0] + shift, it.span[1] + shift
        claim = out[start:end]
        fixed: str | None = claim
        written = []
        for wrong, value in zip(it.wrong, it.values):
            swapped = _swap(fixed, wrong, value) if fixed is not None else None
            fixed = swapped[0] if swapped is not None else None
            written.append(swapped[1] if swapped is not None else "")
        if fixed is None or fixed == claim:
            continue
        out = out[:start] + fixed + out[end:]
        shift += len(fixed) - len(claim)
        notes.append(", ".join(f'"{w}" -> "{v}"' for w, v in zip(it.wrong, written))
                     + f" (evidence: {' '.join(it.evidence.split())})")
    return (out, "evidence repair: " + "; ".join(notes)) if notes else None
