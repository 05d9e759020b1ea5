"""Input validation: typed errors for wrong types, explicit abstentions for unusable text.

The rule of the project: bad input gets a clear, typed error or an explicit *abstain*,
never a silent pass. Wrong *types* raise :class:`~guardrail.errors.InvalidInputError`;
well-typed but unusable *values* (empty, too long, not English) give an abstain reason.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from guardrail.errors import InvalidInputError

__all__ = ["ValidatedInput", "validate_input", "clean_text", "split_sentences"]

# C0/C1 control characters except tab, newline, carriage return.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SENT = re.compile(r"[^.!?\n]+(?:[.!?]+[\"')\]]*|\n|$)")

_EN_STOP = frozenset(
    "the a an and or of to in on at for with by from is are was were be been it this that "
    "he she they we you i his her their its as not no yes but which who what when where "
    "has have had do does did will would can could should there than then so if".split()
)


@dataclass(frozen=True)
class ValidatedInput:
    """A checked (answer, contexts, question) triple.

    ``abstain_reason`` is ``""`` when the guard can judge, else why it cannot.
    Texts have control characters replaced by spaces, so character offsets into
    them equal offsets into the caller's original strings.
    """

    answer: str
    contexts: tuple[str, ...]
    question: str | None
    abstain_reason: str = ""


def clean_text(text: str) -> str:
    """Replace control characters by spaces (offset-preserving) and NFC-normalise width-neutrally.

    Only substitutions of one character by one character are made, so spans computed
    on the cleaned text are valid spans of the original.
    """
    return _CONTROL.sub(" ", text)


def _check_str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidInputError(f"{what} must be a str, got {type(value).__name__}")
    return value


def _latin_share(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 1.0
    latin = sum(1 for c in letters if "LATIN" in unicodedata.name(c, ""))
    return latin / len(letters)


def looks_english(text: str) -> bool:
    """Heuristic language check: mostly Latin letters and, for texts of 12+ words,
    at least 5 % English function words."""
    if _latin_share(text) < 0.6:
        return False
    words = re.findall(r"[A-Za-z']+", text.lower())
    if len(words) < 12:
        return True
    return sum(w in _EN_STOP for w in words) / len(words) >= 0.05


def validate_input(
    answer: object,
    contexts: object,
    question: object = None,
    *,
    max_context_chars: int = 250_000,
    max_answer_chars: int = 100_000,
) -> ValidatedInput:
    """Check types and usability of one guard input.

    Parameters
    ----------
    answer : str
        The generated answer.
    contexts : str or sequence of str
        The retrieved passages (a single str is one passage).
    question : str or None
        The question, if any.
    max_context_chars, max_answer_chars : int
        Size limits in characters; beyond them the guard abstains.

    Returns
    -------
    ValidatedInput
        With ``abstain_reason`` set for empty/whitespace answer or context, oversize
        input, or non-English text.

    Raises
    ------
    InvalidInputError
        When a field has the wrong type (the message names the field and type).
    """
    ans = clean_text(_check_str(answer, "answer"))
    if isinstance(contexts, str):
        ctx_list: Sequence[object] = [contexts]
    elif isinstance(contexts, Sequence) and not isinstance(contexts, (bytes, bytearray)):
        ctx_list = contexts
    else:
        raise InvalidInputError(
            f"contexts must be a str or a sequence of str, got {type(contexts).__name__}"
        )
    ctxs = tuple(clean_text(_check_str(c, f"contexts[{i}]")) for i, c in enumerate(ctx_list))
    q = None if question is None else clean_text(_check_str(question, "question"))
    ctxs_nonempty = tuple(c for c in ctxs if c.strip())
    reason = ""
    if not ans.strip():
        reason = "empty answer"
    elif not ctxs_nonempty:
        reason = "empty context"
    elif len(ans) > max_answer_chars:
        reason = f"answer longer than max_answer_chars={max_answer_chars}"
    elif sum(len(c) for c in ctxs_nonempty) > max_context_chars:
        reason = f"context longer than max_context_chars={max_context_chars}"
    elif not looks_english(ans):
        reason = "answer is not English text (unsupported language)"
    elif not looks_english(" ".join(ctxs_nonempty)[:20_000]):
        reason = "context is not English text (unsupported language)"
    return ValidatedInput(ans, ctxs_nonempty, q, reason)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Split ``text`` into sentence spans with a punctuation rule (no model).

    Returns
    -------
    list of (start, end)
        Half-open character spans covering every non-blank sentence, in order.
    """
    spans = []
    for m in _SENT.finditer(text):
        s, e = m.start(), m.end()
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            spans.append((s, e))
    return spans
