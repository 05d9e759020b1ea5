"""Model-free matching helpers shared by the detectors: numbers, stems, context indexes.

Nothing here is dataset-specific: numbers are compared exactly after normalisation
("1,000" = "1000", "3.0" = "3", "three" = "3"), words by a crude suffix-stripping stem,
phrases by word-boundary containment in the lower-cased context.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from guardrail.errors import InvalidInputError
from guardrail.text.lexicon import POLAR_WORDS, STOP_WORDS
from guardrail.text.sentences import split_sentences

__all__ = [
    "content_tokens",
    "NUMERIC_KINDS",
    "numbers_in",
    "stem",
    "stems",
    "bigrams",
    "TextIndex",
    "kinds_compatible",
    "trigrams",
    "shortlist",
    "contains_phrase",
    "has_content",
]

#: spaCy entity labels whose value must match exactly.
NUMERIC_KINDS = frozenset({"DATE", "TIME", "CARDINAL", "MONEY", "PERCENT", "QUANTITY", "ORDINAL"})

_NUM = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
_WORDNUM = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
_WORDNUM.update({w: str(10 * i) for i, w in enumerate("thirty forty fifty sixty seventy eighty ninety".split(), 3)})
_WORD = re.compile(r"[a-z]+")
_CONTENT_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_SUFFIXES = ("ings", "ing", "ied", "ies", "ed", "es", "s", "ly")


def content_tokens(text: str) -> list[str]:
    """Return the lower-cased content words of ``text`` in order.

    A content word is a run of letters/digits (an inner apostrophe allowed) that
    is not in :data:`STOP_WORDS`. This is the model-free counterpart of the
    extractor's fallback (alphabetic, non-stop spaCy tokens) and is meant for
    cheap lexical overlap checks.

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    list of str
        Content words, duplicates kept, e.g. ``["steve", "jobs", "founded",
        "apple", "1976"]`` for ``"Steve Jobs founded Apple in 1976."``.

    Raises
    ------
    InvalidInputError
        If ``text`` is not a str.
    """
    if not isinstance(text, str):
        raise InvalidInputError(f"content_tokens expects str, got {type(text).__name__}")
    words = _CONTENT_TOKEN.findall(text.lower().replace("’", "'"))
    return [w for w in words if w not in STOP_WORDS]


def _norm_number(tok: str) -> str:
    t = tok.replace(",", "")
    if "." in t:
        t = t.rstrip("0").rstrip(".")
    return t.lstrip("0") or "0"


def numbers_in(text: str, *, words: bool = True) -> set[str]:
    """Normalised numbers written in ``text``.

    Parameters
    ----------
    text : str
        Any text.
    words : bool
        Also read number words ``zero``..``twenty`` and tens (``"three"`` -> ``"3"``).

    Returns
    -------
    set of str
        E.g. ``{"1976", "3"}`` for ``"three times since 1976"``.
    """
    out = {_norm_number(m.group(0).rstrip(",")) for m in _NUM.finditer(text)}
    if words:
        out.update(_WORDNUM[w] for w in _WORD.findall(text.lower()) if w in _WORDNUM)
    return out


def stem(word: str) -> str:
    """A crude, deterministic stem: lower-case and strip one common English suffix."""
    w = word.lower().replace("'s", "").strip("'")
    for suf in _SUFFIXES:
        if len(w) > len(suf) + 3 and w.endswith(suf):
            return w[: -len(suf)]
    return w


def stems(text: str) -> list[str]:
    """Stems of the content words of ``text`` (stop words dropped), in order."""
    return [stem(w) for w in content_tokens(text)]


def bigrams(text: str) -> list[tuple[str, str]]:
    """Pairs of consecutive content-word stems of ``text`` (stop words skipped)."""
    ss = stems(text)
    return list(zip(ss, ss[1:]))


def kinds_compatible(a: str, b: str) -> bool:
    """Whether two node kinds may denote the same thing (numeric vs. non-numeric only)."""
    return (a in NUMERIC_KINDS) == (b in NUMERIC_KINDS) or "LITERAL" in (a, b)


@dataclass
class TextIndex:
    """Lower-cased texts with their stems, numbers and sentence spans, for fast lookups.

    Parameters
    ----------
    texts : sequence of str
        The passages (``span.source`` indexes them).
    """

    texts: Sequence[str]
    lowered: list[str] = field(init=False)
    stem_set: set[str] = field(init=False)
    prefix_set: set[str] = field(init=False)
    numbers: set[str] = field(init=False)
    bigram_set: set[tuple[str, str]] = field(init=False)
    sentences: list[tuple[int, int, int]] = field(init=False)

    def __post_init__(self) -> None:
        self.lowered = [" ".join(t.lower().split()) for t in self.texts]
        self.stem_set = {s for t in self.texts for s in stems(t)}
        self.prefix_set = {s[:6] for s in self.stem_set if len(s) >= 6}
        self.numbers = {n for t in self.texts for n in numbers_in(t)}
        self.bigram_set = {b for t in self.texts for b in bigrams(t)}
        self.sentences = [
            (i, s, e) for i, t in enumerate(self.texts) for s, e in split_sentences(t)
        ]

    def has_phrase(self, phrase: str) -> bool:
        """Whether ``phrase`` (lower-cased, whitespace-collapsed) occurs on word boundaries."""
        p = " ".join(phrase.lower().split())
        if not p or not any(p in t for t in self.lowered):  # a plain substring test first
            return False
        pat = _boundary_pattern(p)
        return any(pat.search(t) for t in self.lowered)

    def has_stem(self, s: str) -> bool:
        """Whether a content-word stem (or, for long stems, its 6-letter prefix) occurs."""
        return s in self.stem_set or (len(s) >= 6 and s[:6] in self.prefix_set)

    def token_coverage(self, text: str) -> float:
        """Share of the content words of ``text`` found here, in ``[0, 1]`` (1 if it has none)."""
        ss = [s for s in stems(text) if s not in STOP_WORDS]
        if not ss:
            return 1.0
        return sum(self.has_stem(s) for s in ss) / len(ss)


def trigrams(label: str) -> set[str]:
    """Character trigrams of ``" label "`` (lower-cased), for cheap fuzzy shortlists."""
    s = f" {label.lower()} "
    return {s[i : i + 3] for i in range(len(s) - 2)}


def shortlist(queries: Sequence[str], candidates: Sequence[str], k: int) -> list[int]:
    """Indices of the candidates most similar to any query by trigram Jaccard.

    Parameters
    ----------
    queries, candidates : sequence of str
        Labels.
    k : int
        Candidates kept per query (their union is returned, sorted).

    Returns
    -------
    list of int
        All candidate indices when ``len(candidates) <= k``.
    """
    if len(candidates) <= k:
        return list(range(len(candidates)))
    vocab, cand, cand_sizes = _candidate_index(tuple(candidates))
    query = _trigram_matrix(queries, vocab, grow=False)
    q_sizes = np.array([len(trigrams(q)) for q in queries], dtype=float)
    keep: set[int] = set()
    for lo in range(0, len(queries), 64):  # bounded memory: 64 rows of scores at a time
        inter = (query[lo:lo + 64] @ cand.T).toarray()
        union = q_sizes[lo:lo + 64, None] + cand_sizes[None, :] - inter
        scores = inter / np.where(union > 0, union, 1.0)
        for row in scores:
            keep.update(int(i) for i in np.argsort(-row, kind="stable")[:k])
    return sorted(keep)


@lru_cache(maxsize=8)
def _candidate_index(candidates: tuple[str, ...]) -> tuple[dict[str, int], Any, np.ndarray]:
    """Trigram vocabulary, 0/1 matrix and row sizes of ``candidates``, kept for the next calls
    (a check shortlists against the same context labels once per answer node)."""
    vocab: dict[str, int] = {}
    cand = _trigram_matrix(candidates, vocab, grow=True)
    return vocab, cand, np.asarray(cand.sum(axis=1)).ravel()


def _trigram_matrix(labels: Sequence[str], vocab: dict[str, int], *, grow: bool) -> Any:
    """A sparse 0/1 matrix (one row per label) of the labels' trigrams (:func:`trigrams`);
    new trigrams are added to ``vocab`` with ``grow``, else left out (they match nothing)."""
    from scipy.sparse import csr_matrix

    rows, cols = [], []
    for r, label in enumerate(labels):
        for g in trigrams(label):
            c = vocab.get(g)
            if c is None and grow:
                c = vocab[g] = len(vocab)
            if c is not None:
                rows.append(r)
                cols.append(c)
    return csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(labels), max(len(vocab), 1)))


def contains_phrase(longer: str, shorter: str) -> bool:
    """Whether ``shorter`` occurs in ``longer`` on word boundaries (both lower-cased labels)."""
    if not shorter or len(shorter) > len(longer):
        return False
    if shorter == longer:
        return True
    if shorter not in longer:  # a plain substring test first: most pairs end here
        return False
    return _boundary_pattern(shorter).search(longer) is not None


@lru_cache(maxsize=4096)
def _boundary_pattern(phrase: str) -> re.Pattern[str]:
    """``phrase`` on word boundaries, compiled once (``re``'s own cache holds 512 patterns)."""
    return re.compile(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)")


def has_content(text: str) -> bool:
    """Whether ``text`` asserts anything: a content word other than a polar word, or a number.

    ``"Yes"``, ``"no"`` or ``"it"`` assert nothing a context could contradict by themselves
    (a bare polar answer only affirms or denies the question), so detectors leave them be.
    """
    return bool(numbers_in(text)) or any(s not in POLAR_WORDS for s in stems(text))
