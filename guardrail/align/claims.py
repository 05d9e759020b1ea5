"""Claim units and their evidence: what the claim verifier reads.

The verifier (:mod:`guardrail.models.claim_verifier`) is a cross-encoder that scores
p(supported | evidence, claim). This module decides, without any model, *what* it
reads, and is shared by inference and by the training script (``training/``), so
both see the same input format:

* :func:`claim_text` puts the question (its last turn, at most
  :data:`QUESTION_MAX_WORDS` words) in front of the claim, so a bare answer such as
  "1976" becomes a checkable statement.
* :func:`select_evidence` picks the context sentences most related to the claim
  (IDF-weighted word and number overlap, optionally mixed with bi-encoder cosine),
  adds their neighbours, and returns them in document order within a word budget.
  Short contexts are returned whole.

References
----------
Kryscinski et al., "Evaluating the Factual Consistency of Abstractive Text
Summarization" (FactCC), EMNLP 2020: sentence-level claims against document windows.
Laban et al., "SummaC: Re-Visiting NLI-based Models for Inconsistency Detection in
Summarization", TACL 2022: sentence-level verification with max aggregation.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from guardrail.errors import InvalidInputError
from guardrail.text.lexicon import EVIDENCE_STOP_WORDS
from guardrail.text.sentences import split_sentences

__all__ = [
    "EVIDENCE_MAX_WORDS",
    "QUESTION_MAX_WORDS",
    "SHORT_CLAIM_WORDS",
    "Evidence",
    "claim_text",
    "last_turn",
    "context_sentences",
    "select_evidence",
]

#: Word budget of the evidence given to the verifier with one claim (about 230 tokens).
EVIDENCE_MAX_WORDS = 170
#: The question prefix keeps at most this many of the question's last words.
QUESTION_MAX_WORDS = 40
#: A claim of at most this many words is read with its question in front ("1976" alone is
#: not checkable); longer claims are read bare, as the verifier was trained.
SHORT_CLAIM_WORDS = 6

_WORD = re.compile(r"[A-Za-z0-9]+")
_TURN = re.compile(r"\[(?:human|user|assistant|system)\]\s*:\s*", re.I)


def last_turn(question: str) -> str:
    """The last turn of a dialogue history (``"[Human]: ... [Assistant]: ..."``), else
    the text itself, stripped."""
    parts = [p.strip() for p in _TURN.split(question) if p.strip()]
    return parts[-1] if parts else question.strip()


def claim_text(claim: str, question: str | None = None, *, always: bool = False) -> str:
    """The hypothesis the verifier reads for ``claim``.

    Parameters
    ----------
    claim : str
        An answer, an answer sentence, or a linearised claim triple.
    question : str or None
        The user question or dialogue history; its last turn (at most
        :data:`QUESTION_MAX_WORDS` words) is prepended to a claim of at most
        :data:`SHORT_CLAIM_WORDS` words, so that short answers read as statements.
    always : bool
        Prepend the question whatever the claim's length.

    Returns
    -------
    str
        ``"Q: <question> A: <claim>"`` for a short claim with a question (or any claim
        with ``always``), else the claim.
    """
    claim = " ".join(claim.split())
    if not question or not question.strip():
        return claim
    if not always and len(claim.split()) > SHORT_CLAIM_WORDS:
        return claim
    q = last_turn(question).split()[-QUESTION_MAX_WORDS:]
    return f"Q: {' '.join(q)} A: {claim}"


def _terms(text: str) -> list[str]:
    return [w for w in (m.group(0).lower() for m in _WORD.finditer(text)) if w not in EVIDENCE_STOP_WORDS]


@dataclass(frozen=True)
class Evidence:
    """Evidence chosen for one claim.

    Attributes
    ----------
    text : str
        The chosen sentences in document order, joined by ``" "`` (``" ... "`` where
        sentences were skipped).
    units : tuple of int
        Indexes into the sentence list given to :func:`select_evidence`.
    best : int
        Index of the highest-ranked sentence (the closest evidence), ``-1`` if none.
    """

    text: str
    units: tuple[int, ...]
    best: int


def context_sentences(contexts: Sequence[str]) -> list[tuple[int, int, int, str]]:
    """Split passages into sentences.

    Returns
    -------
    list of (source, start, end, text)
        ``source`` indexes ``contexts``; ``start``/``end`` are character offsets in it.
    """
    out = []
    for src, ctx in enumerate(contexts):
        for s, e in split_sentences(ctx):
            out.append((src, s, e, ctx[s:e]))
    return out


@lru_cache(maxsize=4)
def _index(sentences: tuple[str, ...]) -> tuple[list[frozenset[str]], Counter[str]]:
    """Term sets and document frequencies of ``sentences``, computed once for all the claims
    of an answer (100 claims against a 250,000-character context re-tokenised it 100 times)."""
    docs = [frozenset(_terms(s)) for s in sentences]
    return docs, Counter(t for d in docs for t in d)


def _lexical_scores(claim: str, sentences: Sequence[str]) -> np.ndarray:
    docs, df = _index(tuple(sentences))
    n = len(docs)
    q = set(_terms(claim))
    idf = {t: math.log(1.0 + n / (1.0 + df.get(t, 0))) for t in q}
    total = sum(idf.values()) or 1.0
    return np.array([sum(idf[t] for t in q & d) / total for d in docs], dtype=float)


def _diverse_order(claim: str, sentences: Sequence[str], score: np.ndarray) -> list[int]:
    """Sentence indexes by greedy coverage of the claim's IDF-weighted terms (ties: ``score``)."""
    docs, df = _index(tuple(sentences))
    q = set(_terms(claim))
    idf = {t: math.log(1.0 + len(docs) / (1.0 + df.get(t, 0))) for t in q}
    covered: set[str] = set()
    left = set(range(len(sentences)))
    order: list[int] = []
    while left:
        i = max(left, key=lambda j: (sum(idf[t] for t in (q & docs[j]) - covered), score[j], -j))
        order.append(i)
        covered |= q & docs[i]
        left.remove(i)
    return order


def select_evidence(
    claim: str,
    sentences: Sequence[str],
    *,
    max_words: int = EVIDENCE_MAX_WORDS,
    dense: np.ndarray | None = None,
    dense_weight: float = 0.5,
    neighbours: int = 1,
    diverse: bool = False,
) -> Evidence:
    """Choose the evidence for ``claim`` among context ``sentences``.

    Sentences are ranked by IDF-weighted overlap of words and numbers with the claim
    (mixed with ``dense`` cosine scores when given); the best ones are taken with
    ``neighbours`` sentences on each side (pronouns and ellipses often need them) until
    ``max_words`` is reached, then put back in document order.

    Parameters
    ----------
    claim : str
        The claim (question prefix included, as the verifier reads it).
    sentences : sequence of str
        All context sentences, in document order (passages concatenated).
    max_words : int
        Word budget (>= 1); a context within it is returned whole.
    dense : ndarray of shape (len(sentences),) or None
        Optional bi-encoder cosine of each sentence with the claim, in [-1, 1].
    dense_weight : float
        Weight of ``dense`` in the ranking score, in [0, 1].
    neighbours : int
        Sentences added on each side of a chosen one (>= 0).
    diverse : bool
        Rank by coverage instead: after the best sentence, each next one is the sentence
        adding the most IDF weight of claim terms not yet covered, so a claim built from two
        distant sentences (a synthesis) gets both in its evidence.

    Returns
    -------
    Evidence
        The chosen text, the sentence indexes and the best sentence.

    Raises
    ------
    ValueError
        ``max_words < 1``, ``neighbours < 0`` or ``dense`` of the wrong length.
    """
    if max_words < 1 or neighbours < 0:
        raise InvalidInputError(f"max_words must be >= 1 and neighbours >= 0, got {max_words!r}, {neighbours!r}")
    if not sentences:
        return Evidence("", (), -1)
    score = _lexical_scores(claim, sentences)
    if dense is not None:
        if len(dense) != len(sentences):
            raise InvalidInputError(f"dense has {len(dense)} scores for {len(sentences)} sentences")
        score = (1.0 - dense_weight) * score + dense_weight * np.asarray(dense, dtype=float)
    best = int(np.argmax(score))
    lengths = [len(s.split()) for s in sentences]
    if sum(lengths) <= max_words:
        return Evidence(" ".join(sentences), tuple(range(len(sentences))), best)
    chosen: set[int] = set()
    used = 0
    order = _diverse_order(claim, sentences, score) if diverse else [int(i) for i in np.argsort(-score, kind="stable")]
    for i in order:
        for j in [int(i)] + [int(i) + d for d in range(-neighbours, neighbours + 1) if d]:
            if 0 <= j < len(sentences) and j not in chosen and used + lengths[j] <= max_words:
                chosen.add(j)
                used += lengths[j]
        if used >= max_words * 0.9:
            break
    if not chosen:  # a single sentence longer than the budget: cut it
        words = sentences[best].split()[:max_words]
        return Evidence(" ".join(words), (best,), best)
    units = tuple(sorted(chosen))
    parts: list[str] = []
    for k, j in enumerate(units):
        if k and j != units[k - 1] + 1:
            parts.append("...")
        parts.append(sentences[j])
    return Evidence(" ".join(parts), units, best)
