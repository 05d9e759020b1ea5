"""Input validation: typed errors for wrong types, explicit abstentions for unusable text.

The rule of the project: bad input gets a clear, typed error or an explicit *abstain*,
never a silent pass. Wrong *types* raise :class:`~guardrail.errors.InvalidInputError`;
well-typed but unusable *values* (empty, too long, degenerate, not English) give an
abstain reason. Sizes are checked on lengths alone, before any text is copied or parsed.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from guardrail.errors import InvalidInputError
from guardrail.text.homoglyphs import fold_digits, fold_homoglyphs
from guardrail.text.language import looks_english
from guardrail.text.passage_marks import footnote_marks
from guardrail.text.structure import normalize_passage

__all__ = [
    "ValidatedInput", "validate_input", "clean_input", "clean_text", "nfkc_chars", "size_reason",
    "is_degenerate", "looks_english", "count_claims", "MAX_CONTEXT_CHARS", "MAX_ANSWER_CHARS",
    "MAX_PASSAGES", "MAX_CLAIMS", "check_guard", "check_fields", "context_size",
]

# C0/C1 control characters except tab, newline, carriage return.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# Lone surrogates (a valid astral character is one code point in a Python str).
_SURROGATE = re.compile("[\ud800-\udfff]")
_TOKEN = re.compile(r"\S+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
#: Per-character NFKC forms that are one character long (others map to themselves).
_NFKC_ONE: dict[str, str] = {}

#: Default size limits, also the defaults of :class:`~guardrail.config.GuardConfig`
#: (measured in ``benchmarks/results/robustness.md``: inputs within them are judged in
#: under 30 s and 2 GB on 2 CPU cores).
MAX_CONTEXT_CHARS = 250_000
MAX_ANSWER_CHARS = 5_000
MAX_PASSAGES = 1_000
#: Most sentences (claims) in an answer: each is verified against its own evidence.
MAX_CLAIMS = 100

#: Texts of at least this many tokens are checked for degeneracy.
DEGENERATE_MIN_TOKENS = 200


@dataclass(frozen=True)
class ValidatedInput:
    """A checked (answer, contexts, question) triple.

    ``abstain_reason`` is ``""`` when the guard can judge, else why it cannot.
    Texts have control characters replaced by spaces and lone surrogates by U+FFFD, and
    passages their HTML and emphasis markup blanked and wrapped lines joined
    (:func:`~guardrail.text.structure.normalize_passage`), so character offsets into them
    equal offsets into the caller's original strings.
    """

    answer: str
    contexts: tuple[str, ...]
    question: str | None
    abstain_reason: str = ""


def _nfkc_char(match: re.Match[str]) -> str:
    ch = match.group(0)
    out = _NFKC_ONE.get(ch)
    if out is None:
        norm = unicodedata.normalize("NFKC", ch)
        out = norm if len(norm) == 1 else ch
        if len(_NFKC_ONE) < 65_536:  # bounded: at most one entry per code point seen
            _NFKC_ONE[ch] = out
    return out


def nfkc_chars(text: str) -> str:
    """NFKC-normalise ``text`` character by character, where a character's form is one character.

    Full-width (``３０``), mathematical (``𝟥𝟢``), superscript and subscript digits and
    letters, no-break spaces and other compatibility characters become their plain
    forms, so a wrong number written in them is read as that number. A character whose
    NFKC form is longer (ligatures such as ``ﬁ``) or that composes with its neighbour is
    kept, so the result has the same length as ``text`` and every character offset into
    it is an offset into ``text``. ASCII text is returned as is.
    """
    if text.isascii():
        return text
    return _NON_ASCII.sub(_nfkc_char, text)


def clean_text(text: str) -> str:
    """Replace control characters by spaces, lone surrogates by U+FFFD, compatibility
    characters by their NFKC forms (:func:`nfkc_chars`), decimal digits of every script by
    ASCII digits and look-alike letters inside Latin words by their ASCII letters
    (:mod:`guardrail.text.homoglyphs`). Superscript footnote digits ("river.\u00b9",
    :func:`~guardrail.text.passage_marks.footnote_marks`) are kept as written, not read as "river.1":
    :func:`~guardrail.text.markup.blank_markup` blanks them in answers and
    :func:`~guardrail.text.structure.normalize_passage` in passages.

    Only substitutions of one character by one character are made, so spans computed
    on the cleaned text are valid spans of the original. A lone surrogate (which cannot
    be encoded as UTF-8) becomes the replacement character, and the text is judged.
    """
    text = _CONTROL.sub(" ", text)
    if _SURROGATE.search(text):
        text = _SURROGATE.sub("\ufffd", text)
    out = fold_homoglyphs(fold_digits(nfkc_chars(text)))
    for a, b in footnote_marks(text):  # kept as written: the answer's markup reader blanks them
        out = out[:a] + text[a:b] + out[b:]
    return out


def _check_str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidInputError(f"{what} must be a str, got {type(value).__name__}")
    return value


def check_guard(guard: object, owner: str) -> None:
    """Raise at construction when ``guard`` is not a guard (adapters call it in their constructors).

    Parameters
    ----------
    guard : object
        What the caller passed as ``guard=``: a :class:`~guardrail.Guard`, or an object with
        callable ``check`` (and, for async use, ``acheck``) methods.
    owner : str
        The class taking it (``"GuardRunnable"``), named in the message.

    Raises
    ------
    InvalidInputError
        ``guard`` is ``None`` or has no callable ``check``: the error comes when the adapter
        is built, not at its first invoke.
    """
    if not callable(getattr(guard, "check", None)):
        raise InvalidInputError(f"{owner}(guard=...) needs a guardrail.Guard, got {type(guard).__name__}")


def check_fields(answer: object, question: object, id: object) -> None:
    """Type-check the scalar fields of one input before any work is done.

    Raises
    ------
    InvalidInputError
        Naming the field and the type it had.
    """
    if not isinstance(answer, str):
        raise InvalidInputError(f"answer must be a str, got {type(answer).__name__}")
    if question is not None and not isinstance(question, str):
        raise InvalidInputError(f"question must be a str or None, got {type(question).__name__}")
    if id is not None and not isinstance(id, str):
        raise InvalidInputError(f"id must be a str or None, got {type(id).__name__}")


def is_degenerate(text: str) -> bool:
    """Whether ``text`` is a long run of very few distinct tokens (``"a " * 100000``).

    Texts of :data:`DEGENERATE_MIN_TOKENS` or more whitespace-separated tokens are
    degenerate when under 2 % of their tokens are distinct or one token makes up more
    than half of them (English prose: about 25 % distinct, its most frequent word about
    6 %). Such text costs the parser several times more per character than prose
    (one token per two characters) and holds nothing to judge.
    """
    tokens = _TOKEN.findall(text)
    if len(tokens) < DEGENERATE_MIN_TOKENS:
        return False
    counts = Counter(t.lower() for t in tokens)
    return len(counts) < 0.02 * len(tokens) or counts.most_common(1)[0][1] > 0.5 * len(tokens)


def context_size(
    contexts: object, max_passages: int = MAX_PASSAGES, max_chars: int = MAX_CONTEXT_CHARS
) -> tuple[int, int]:
    """(number of passages, characters) of a raw context input, without copying it.

    Stops early: a sequence longer than ``max_passages`` is never walked (its length is
    read), and counting characters stops once they pass ``max_chars``, so a huge lazy
    sequence costs nothing to reject.
    """
    from guardrail.types import KnowledgeGraph

    if isinstance(contexts, str):
        return 1, len(contexts)
    if isinstance(contexts, KnowledgeGraph):
        if contexts.texts:
            return len(contexts.texts), sum(len(t) for t in contexts.texts)
        return len(contexts.triples), sum(len(t.text) for t in contexts.triples)
    if isinstance(contexts, Sequence) and not isinstance(contexts, (bytes, bytearray)):
        n = len(contexts)
        if n > max_passages:
            return n, 0
        chars = 0
        for c in contexts:
            if isinstance(c, str):
                chars += len(c)
            elif isinstance(c, (tuple, list)):
                chars += sum(len(e) for e in c if isinstance(e, str))
            if chars > max_chars:
                break
        return n, chars
    return 0, 0


def count_claims(answer: str, limit: int | None = None) -> int:
    """Number of sentence claims in ``answer`` (the verifier's units), counted up to ``limit + 1``."""
    from guardrail.text.sentences import split_sentences

    n = len(split_sentences(answer))
    return n if limit is None else min(n, limit + 1)


def size_reason(
    answer: object,
    contexts: object,
    *,
    max_context_chars: int = MAX_CONTEXT_CHARS,
    max_answer_chars: int = MAX_ANSWER_CHARS,
    max_passages: int = MAX_PASSAGES,
    max_claims: int = MAX_CLAIMS,
) -> str:
    """Why an input is too large to judge, or ``""``; reads lengths only (no copies, no parsing).

    Parameters
    ----------
    answer : object
        The answer (a non-str is ignored here; :func:`validate_input` raises on it).
    contexts : str, sequence of str or of triples, or KnowledgeGraph
        The raw context input (a graph counts its texts, or else its triples, as passages).
    max_context_chars, max_answer_chars, max_passages : int
        The limits.
    max_claims : int
        Most sentences (claims) in the answer: every claim is verified against its own
        evidence, so the work grows with their number, not with the answer's characters
        (850 one-word sentences fit in 5,000 characters).

    Returns
    -------
    str
        The abstain reason naming the limit, or ``""`` when the input is within all limits.
    """
    if isinstance(answer, str) and len(answer) > max_answer_chars:
        return f"answer longer than max_answer_chars={max_answer_chars}"
    n, chars = context_size(contexts, max_passages, max_context_chars)
    if n > max_passages:
        return f"more passages than max_passages={max_passages}"
    if chars > max_context_chars:
        return f"context longer than max_context_chars={max_context_chars}"
    if isinstance(answer, str) and count_claims(answer, max_claims) > max_claims:
        return f"answer has more sentences than max_claims={max_claims}"
    return ""


def validate_input(
    answer: object,
    contexts: object,
    question: object = None,
    *,
    max_context_chars: int = MAX_CONTEXT_CHARS,
    max_answer_chars: int = MAX_ANSWER_CHARS,
    max_passages: int = MAX_PASSAGES,
    max_claims: int = MAX_CLAIMS,
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
    max_passages : int
        Most passages accepted; beyond it the guard abstains.
    max_claims : int
        Most sentences in the answer; beyond it the guard abstains.

    Returns
    -------
    ValidatedInput
        With ``abstain_reason`` set for empty/whitespace answer or context, oversize
        input (checked on lengths, before any context is copied; ``contexts`` is then
        empty), degenerate text (see :func:`is_degenerate`), or non-English text.

    Raises
    ------
    InvalidInputError
        When a field has the wrong type (the message names the field and type).
    """
    _check_str(answer, "answer")
    ctx_list = _context_list(contexts)
    if question is not None:
        _check_str(question, "question")
    too_big = size_reason(answer, ctx_list, max_context_chars=max_context_chars,
                          max_answer_chars=max_answer_chars, max_passages=max_passages,
                          max_claims=max_claims)
    if too_big:  # the contexts are neither walked (a huge lazy sequence), copied nor kept
        q = None if question is None else clean_text(question)  # type: ignore[arg-type]
        return ValidatedInput(clean_text(answer), (), q, too_big)  # type: ignore[arg-type]
    return clean_input(answer, ctx_list, question)  # type: ignore[arg-type]


def _context_list(contexts: object) -> Sequence[object]:
    if isinstance(contexts, str):
        return [contexts]
    if isinstance(contexts, Sequence) and not isinstance(contexts, (bytes, bytearray)):
        return contexts
    raise InvalidInputError(f"contexts must be a str or a sequence of str, got {type(contexts).__name__}")


def clean_input(answer: str, contexts: object, question: str | None) -> ValidatedInput:
    """The second half of :func:`validate_input`, for an input whose size is already judged.

    For a caller that has type-checked ``answer`` and ``question`` and applied the size limits to
    these very ``contexts`` (the guard's check): the passages are type-checked, the texts cleaned
    and their usability judged, with no second size check.

    Parameters
    ----------
    answer : str
        The generated answer.
    contexts : str or sequence of str
        The retrieved passages.
    question : str or None
        The question, if any.

    Returns
    -------
    ValidatedInput
        As :func:`validate_input` returns it for an input within its size limits.

    Raises
    ------
    InvalidInputError
        When ``contexts`` or one of its passages has the wrong type.
    """
    ctx_list = _context_list(contexts)
    for i, c in enumerate(ctx_list):
        _check_str(c, f"contexts[{i}]")
    ans = clean_text(answer)
    ctxs = tuple(normalize_passage(clean_text(c)) for c in ctx_list)  # type: ignore[arg-type]
    q = None if question is None else clean_text(question)
    ctxs_nonempty = tuple(c for c in ctxs if c.strip())
    reason = ""
    if not ans.strip():
        reason = "empty answer"
    elif not ctxs_nonempty:
        reason = "empty context"
    elif is_degenerate(ans):
        reason = "answer is degenerate text (a few tokens repeated)"
    elif any(is_degenerate(c) for c in ctxs_nonempty):
        reason = "context is degenerate text (a few tokens repeated)"
    elif not looks_english(ans):
        reason = "answer is not English text (unsupported language)"
    elif not looks_english(" ".join(ctxs_nonempty)[:20_000]):
        reason = "context is not English text (unsupported language)"
    return ValidatedInput(ans, ctxs_nonempty, q, reason)
