"""Evidence repair: the refinement round that needs no LLM.

When the feedback of a flagged claim is of kind ``value`` and names, for every wrong number or
date, the one number that the quoted evidence sentence states in its place
(:class:`~guardrail.policy.feedback.FeedbackItem`), the correction is known: the wrong words
are replaced by those values inside that claim, and the repaired answer is checked by the same
guard like any other round (KG-Guard's loop, seed 001, with the evidence's value as the edit).
A repair the guard does not pass is a rejected round, and the LLM rounds follow as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from guardrail.policy.feedback import FeedbackItem

__all__ = ["evidence_repair"]


def _numeric(text: str) -> bool:
    return any(c.isdigit() for c in text)


_NUM = re.compile(r"\d(?:[\d,.]*\d)?")


def _swap(text: str, wrong: str, value: str) -> str | None:
    """Replace ``wrong`` in ``text`` by ``value``; when ``wrong`` holds one number and ``value`` is
    a bare number, only that number ("roughly 410 metres" -> "roughly 140 metres")."""
    m = re.search(r"(?<!\w)" + re.escape(wrong) + r"(?!\w)", text)
    if m is None:
        return None
    nums = list(_NUM.finditer(wrong))
    if len(nums) == 1 and _NUM.fullmatch(value.strip()):
        n = nums[0]
        value = wrong[:n.start()] + value.strip() + wrong[n.end():]
    return text[:m.start()] + value + text[m.end():]


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
        if not all(_numeric(w) and _numeric(v) for w, v in zip(it.wrong, it.values)):
            continue  # names: a name sharing a neighbouring word is too weak a match to write in
        start, end = it.span[0] + shift, it.span[1] + shift
        claim = out[start:end]
        fixed: str | None = claim
        for wrong, value in zip(it.wrong, it.values):
            fixed = _swap(fixed, wrong, value) if fixed is not None else None
        if fixed is None or fixed == claim:
            continue
        out = out[:start] + fixed + out[end:]
        shift += len(fixed) - len(claim)
        notes.append(", ".join(f'"{w}" -> "{v}"' for w, v in zip(it.wrong, it.values))
                     + f" (evidence: {' '.join(it.evidence.split())})")
    return (out, "evidence repair: " + "; ".join(notes)) if notes else None
