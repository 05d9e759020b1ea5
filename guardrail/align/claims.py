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
from guardrail.text.structure import read_sentences

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
    """Split passages into sentences, each with the text the verifier reads for it.

    A list item, key-value line or table row is read with its passage's title and header
    (:func:`guardrail.text.structure.read_sentences`); prose is read as it is.

    Returns
    -------
    list of (source, start, end, text)
        ``source`` indexes ``contexts``; ``start``/``end`` are character offsets in it.
    """
    out: list[tuple[int, int, int, str]] = []
    for src, ctx in enumerate(contexts):
        spans = split_sentences(ctx)
        out.extend((src, s, e, t) for (s, e), t in zip(spans, read_sentences(ctx, spans)))
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
    total = math.fsum(idf.values()) or 1.0
    # fsum: exact, so the score never depends on the set's order (the hash seed) and ties stay ties
    return np.array([math.fsum(idf[t] for t in q & d) / total for d in docs], dtype=float)


def _diverse_order(claim: str, sentences: Sequence[str], score: np.ndarray) -> list[int]:
    """Sentence indexes by greedy coverage of the claim's IDF-weighted terms (ties: ``score``)."""
    docs, df = _index(tuple(sentences))
    q = set(_terms(claim))
    idf = {t: math.log(1.0 + len(docs) / (1.0 + df.get(t, 0))) for t in q}
    covered: set[str] = set()
    left = set(range(len(sentences)))
    order: list[int] = []
    while left:
        i = max(left, key=lambda j: (math.fsum(idf[t] for t in (q & docs[j]) - covered), score[j], -j))
        order.append(i)
        covered |= q & docs[i]
        left.remove(i)
    return order


_CAPITALISED = re.compile(r"\b[A-Z][A-Za-z0-9]*|\b[0-9][A-Za-z0-9]*")
_PRONOUN_OPENING = re.compile(r"^\W*(?:it|its|he|she|his|her|they|their|this|these|that|those|there)\b", re.I)
#: Most words of the evidence that sentences of other passages than the claim's may take.
GAP_SHARE = 0.5
#: Passages covering the claim's weighted terms at least this share of the best passage's
#: cover are read together (the claim cannot tell them apart); the others only lend gap sentences.
TIE_SHARE = 1.0


@lru_cache(maxsize=4)
def _passage_index(sentences: tuple[str, ...], sources: tuple[int, ...]
                   ) -> tuple[list[frozenset[str]], dict[int, frozenset[str]]]:
    """Term sets of ``sentences`` and of each passage, computed once for all the claims of an answer."""
    docs = _index(sentences)[0]
    terms: dict[int, set[str]] = {}
    for d, src in zip(docs, sources):
        terms.setdefault(src, set()).update(d)
    return docs, {src: frozenset(t) for src, t in terms.items()}


def _claim_weights(claim: str) -> dict[str, float]:
    """Weight of each claim term, fixed by the claim alone: 2 for a name or number (a
    capitalised word or a word with a digit), 1 for another word; one-letter terms left out."""
    anchors = {m.group(0).lower() for m in _CAPITALISED.finditer(claim)}
    return {t: 2.0 if t in anchors else 1.0 for t in _terms(claim) if len(t) > 1}


def _covered(weights: dict[str, float], terms: frozenset[str] | set[str]) -> float:
    return sum(w for t, w in weights.items() if t in terms)


def _gap_sentences(weights: dict[str, float], docs: list[frozenset[str]], sentences: Sequence[str],
                   sources: list[int], primary: tuple[int, frozenset[str]], budget: int) -> list[int]:
    """Sentences of other passages than ``primary`` holding claim terms that it lacks.

    ``primary`` is the passage and its terms. Greedy, most uncovered weight first: a sentence is taken when it holds an uncovered
    name or number, or two uncovered words (one shared common word, "known", is not
    enough), with the sentence before it when it opens with a pronoun, within ``budget``
    words. Sentences that add nothing new are never taken, however many passages there are.
    """
    covered = set(weights) & primary[1]
    wanted = set(weights) - covered
    left = [j for j in range(len(docs)) if sources[j] != primary[0] and not wanted.isdisjoint(docs[j])]
    out: list[int] = []
    used = 0
    while left:
        gain = {j: {t: w for t, w in weights.items() if t in docs[j] and t not in covered} for j in left}
        j = max(left, key=lambda i: (sum(gain[i].values()), -i))
        g = gain[j]
        if not (max(g.values(), default=0.0) >= 2.0 or len(g) >= 2):
            break
        take = [j - 1, j] if j and sources[j - 1] == sources[j] and _PRONOUN_OPENING.match(sentences[j]) else [j]
        words = sum(len(sentences[i].split()) for i in take if i not in out)
        if used + words <= budget:
            out.extend(i for i in take if i not in out)
            used += words
        covered |= set(g)
        left.remove(j)
    return out


def _select_by_passage(
    claim: str, sentences: Sequence[str], sources: list[int], max_words: int, dense: np.ndarray | None,
    dense_weight: float, neighbours: int, diverse: bool,
) -> Evidence:
    """:func:`select_evidence` over several passages: the best-covering passage (with those tied
    with it, :data:`TIE_SHARE`), plus gap sentences of the others."""
    weights = _claim_weights(claim)
    docs, terms = _passage_index(tuple(sentences), tuple(sources))
    passages = sorted(terms)
    cover = {p: _covered(weights, terms[p]) for p in passages}
    top = max(cover.values())
    group = frozenset(p for p in passages if cover[p] >= top * TIE_SHARE)
    primary_terms = frozenset(t for p in group for t in terms[p])
    gaps = _gap_sentences(weights, docs, sentences, [-1 if x in group else x for x in sources],
                          (-1, primary_terms), int(max_words * GAP_SHARE))
    own = [j for j in range(len(sentences)) if sources[j] in group]
    room = max(1, max_words - sum(len(sentences[j].split()) for j in gaps))
    sub_dense = None if dense is None else np.asarray(dense, dtype=float)[own]
    local, best, cut = _select_in(claim, [sentences[j] for j in own], room, sub_dense, dense_weight,
                                  neighbours, diverse)
    units = tuple(sorted({own[i] for i in local} | set(gaps)))
    if cut is not None and not gaps:
        return Evidence(cut, units, own[best])
    text = _format([cut if (cut is not None and j == own[best]) else s for j, s in enumerate(sentences)], units)
    return Evidence(text, units, own[best])


def _check_args(n: int, max_words: int, neighbours: int, dense: np.ndarray | None,
                sources: Sequence[int] | None) -> None:
    if max_words < 1 or neighbours < 0:
        raise InvalidInputError(f"max_words must be >= 1 and neighbours >= 0, got {max_words!r}, {neighbours!r}")
    if dense is not None and len(dense) != n:
        raise InvalidInputError(f"dense has {len(dense)} scores for {n} sentences")
    if sources is not None and len(sources) != n:
        raise InvalidInputError(f"sources has {len(sources)} entries for {n} sentences")


def _format(sentences: Sequence[str], units: Sequence[int]) -> str:
    """Sentences ``units`` (sorted) joined by ``" "``, with ``"..."`` where sentences were skipped."""
    parts: list[str] = []
    for k, j in enumerate(units):
        if k and j != units[k - 1] + 1:
            parts.append("...")
        parts.append(sentences[j])
    return " ".join(parts)


def _select_in(
    claim: str, sentences: Sequence[str], max_words: int, dense: np.ndarray | None,
    dense_weight: float, neighbours: int, diverse: bool,
) -> tuple[tuple[int, ...], int, str | None]:
    """The single-passage selection: ``(units, best, cut)`` over ``sentences`` (IDF among them).

    ``cut`` is the best sentence cut to ``max_words`` words when no sentence fits, else None.
    """
    score = _lexical_scores(claim, sentences)
    if dense is not None:
        score = (1.0 - dense_weight) * score + dense_weight * np.asarray(dense, dtype=float)
    best = int(np.argmax(score))
    lengths = [len(s.split()) for s in sentences]
    if sum(lengths) <= max_words:
        return tuple(range(len(sentences))), best, None
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
        return (best,), best, " ".join(sentences[best].split()[:max_words])
    return tuple(sorted(chosen)), best, None


def select_evidence(
    claim: str,
    sentences: Sequence[str],
    *,
    max_words: int = EVIDENCE_MAX_WORDS,
    dense: np.ndarray | None = None,
    dense_weight: float = 0.5,
    neighbours: int = 1,
    diverse: bool = False,
    sources: Sequence[int] | None = None,
) -> Evidence:
    """Choose the evidence for ``claim`` among context ``sentences``.

    Sentences are ranked by IDF-weighted overlap of words and numbers with the claim
    (mixed with ``dense`` cosine scores when given); the best ones are taken with
    ``neighbours`` sentences on each side (pronouns and ellipses often need them) until
    ``max_words`` is reached, then put back in document order.

    With ``sources`` (the passage of each sentence) and more than one passage, the
    evidence cannot be diluted by unrelated passages: the passage covering the claim's
    names, numbers and words best (a score that does not depend on the other
    passages; passages tied with it join it) is selected from as above, IDF computed
    within it; sentences of
    other passages are added only for claim names or numbers (or two words) it lacks
    (see :func:`_gap_sentences`).

    Parameters
    ----------
    claim : str
        The claim (question prefix included, as the verifier reads it).
    sentences : sequence of str
        All context sentences, in document order (passages concatenated).
    max_words : int
        Word budget (>= 1); a context (a passage, with ``sources``) within it is
        returned whole.
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
    sources : sequence of int or None
        The passage of each sentence (as :func:`context_sentences` gives it); None reads
        all sentences as one passage.

    Returns
    -------
    Evidence
        The chosen text, the sentence indexes and the best sentence.

    Raises
    ------
    InvalidInputError
        ``max_words < 1``, ``neighbours < 0``, or ``dense`` or ``sources`` of the wrong
        length (a :class:`ValueError`).
    """
    _check_args(len(sentences), max_words, neighbours, dense, sources)
    if not sentences:
        return Evidence("", (), -1)
    if sources is None or len(set(sources)) < 2:
        units, best, cut = _select_in(claim, sentences, max_words, dense, dense_weight, neighbours, diverse)
        return Evidence(cut if cut is not None else _format(sentences, units), units, best)
    return _select_by_passage(claim, sentences, list(sources), max_words, dense, dense_weight, neighbours, diverse)
