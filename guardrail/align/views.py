"""Evidence views: the same claim read against its evidence at more than one width.

A cross-encoder reads a claim against a window of the context. A wide window (a passage's
best sentences within a word budget, :func:`guardrail.align.claims.select_evidence`) holds
what a claim built from two sentences needs, but it also lets a claim that recombines
fragments of a long document (a model summary's typical error) find each fragment
somewhere and look supported. A narrow window (the single best sentence) is strict about
such recombinations but misses support spread over sentences. Averaging the verifier's
p(supported) over several widths keeps the strengths of both, as SummaC (sentence-level
pairs) and AlignScore (chunks) each use one of them.

Every view is derived from the claim's chosen :class:`~guardrail.align.claims.Evidence`
(its best sentence lies in the passage chosen for the claim), so views keep the evidence's
guarantee that unrelated added passages cannot dilute it.

The sentence view may hold two candidates: the best sentence by word overlap and, when a
sentence encoder is given, the sentence of the same passage closest in meaning
(:func:`closest_sentences`); the verifier takes the better supported of the two, so a
reworded claim ("the CEO" for "its chief executive officer") is not read against a sentence
that merely shares its names.

References
----------
Laban et al., "SummaC: Re-Visiting NLI-based Models for Inconsistency Detection in
Summarization", TACL 2022.
Zha et al., "AlignScore: Evaluating Factual Consistency with a Unified Alignment
Function", ACL 2023.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from guardrail.align.claims import Evidence, _lexical_scores, select_evidence
from guardrail.align.encoder import TextEncoder
from guardrail.text.surface import detokenize

__all__ = ["EVIDENCE_VIEWS", "view_texts", "closest_sentences", "claim_views", "MEANING_WEIGHT", "FACT_WORDS"]

#: Weight of the bi-encoder cosine against the word overlap (scaled to the passage's best) in
#: :func:`closest_sentences`; 0.5 as measured on the fit sets of ``benchmarks/fit_default.py``.
MEANING_WEIGHT = 0.5

#: The views a verifier may average over: ``"passage"`` the chosen evidence as it is,
#: ``"sentence"`` its best sentence alone, ``"window"`` the best sentence with one
#: neighbour on each side (within the same passage's chosen text or not).
EVIDENCE_VIEWS = ("passage", "sentence", "window")


def _window(evidence: Evidence, sentences: Sequence[str], sources: Sequence[int] | None) -> str:
    b = evidence.best
    lo, hi = max(b - 1, 0), min(b + 2, len(sentences))
    keep = [i for i in range(lo, hi) if sources is None or sources[i] == sources[b]]
    return " ".join(sentences[i] for i in keep)


def closest_sentences(claims: Sequence[str], evidence: Sequence[Evidence], sentences: Sequence[str],
                      sources: Sequence[int] | None, encoder: TextEncoder) -> list[int]:
    """For each claim, the sentence of its best sentence's passage closest in meaning.

    A sentence ranks by ``(1 - w) * overlap / max overlap + w * cosine`` (``w`` =
    :data:`MEANING_WEIGHT`; overlap the IDF-weighted word overlap within the passage,
    cosine of the encoder's L2-normalised embeddings), over the sentences of the passage
    that holds the claim's best sentence (all sentences when ``sources`` is None).

    Parameters
    ----------
    claims : sequence of str
        The claims, as the verifier reads them.
    evidence : sequence of Evidence
        Each claim's chosen evidence (same length as ``claims``).
    sentences : sequence of str
        The context sentences the evidence indexes into.
    sources : sequence of int or None
        The passage of each sentence.
    encoder : TextEncoder
        Sentence encoder (rows L2-normalised), e.g. the shared MiniLM encoder.

    Returns
    -------
    list of int
        One sentence index per claim; ``-1`` where the evidence has no best sentence.
    """
    todo = [k for k, e in enumerate(evidence) if e.best >= 0]
    if not todo:
        return [-1] * len(claims)
    groups = {k: [i for i in range(len(sentences)) if sources is None or sources[i] == sources[evidence[k].best]]
              for k in todo}
    need = sorted({i for idx in groups.values() for i in idx})
    vecs = encoder.encode([sentences[i] for i in need] + [claims[k] for k in todo])
    row = {i: r for r, i in enumerate(need)}
    out = [-1] * len(claims)
    for j, k in enumerate(todo):
        idx = groups[k]
        lex = _lexical_scores(claims[k], [sentences[i] for i in idx])
        lex = lex / lex.max() if lex.max() > 0 else lex
        cos = np.asarray([float(vecs[row[i]] @ vecs[len(need) + j]) for i in idx])
        out[k] = idx[int(np.argmax((1 - MEANING_WEIGHT) * lex + MEANING_WEIGHT * cos))]
    return out


def view_texts(evidence: Evidence, sentences: Sequence[str], views: Sequence[str],
               sources: Sequence[int] | None = None, closest: int = -1) -> list[tuple[str, ...]]:
    """The evidence texts of each view, in the order of ``views``.

    Parameters
    ----------
    evidence : Evidence
        The claim's chosen evidence (indexes into ``sentences``).
    sentences : sequence of str
        The context sentences the evidence was chosen from, as the verifier reads them.
    views : sequence of str
        Names from :data:`EVIDENCE_VIEWS` (validated by the caller).
    sources : sequence of int or None
        The passage of each sentence; a window never crosses into another passage.
    closest : int
        The sentence closest in meaning (:func:`closest_sentences`), a second candidate of
        the sentence view when it differs from the best sentence; ``-1``: none.

    Returns
    -------
    list of tuple of str
        The candidate texts of each view (one, or two for the sentence view); the verifier
        reads a view as its best supported candidate. Without a best sentence
        (``evidence.best == -1``) every view is the evidence's text.
    """
    out: list[tuple[str, ...]] = []
    for v in views:
        if v == "passage" or evidence.best < 0:
            out.append((evidence.text,))
        elif v == "sentence":
            alt = (sentences[closest],) if closest >= 0 and closest != evidence.best else ()
            out.append((sentences[evidence.best], *alt))
        else:
            out.append((_window(evidence, sentences, sources),))
    return out


#: A context whose passages are each one sentence of at most this many words is a list of facts
#: (a knowledge-base context) and is read as one passage.
FACT_WORDS = 20


def claim_views(claims: Sequence[str], sentences: Sequence[str], sources: Sequence[int] | None, max_words: int,
                views: Sequence[str] = ("passage",),
                encoder: TextEncoder | None = None) -> tuple[list[Evidence], list[list[tuple[str, ...]]]]:
    """The evidence of each claim and its texts per view, exactly as the claim verifier reads them.

    PTB-tokenised sentences are detokenised; evidence is chosen per passage
    (:func:`~guardrail.align.claims.select_evidence` with ``sources``) so that added unrelated
    passages do not change it; passages of one short sentence each (knowledge-base facts,
    :data:`FACT_WORDS`) are read as one passage, so a swapped fact meets the fact it
    contradicts. The verifier's ``prefetch`` and ``detect`` both call this, so prefetched
    scores are found in its cache.

    Parameters
    ----------
    claims : sequence of str
        The claims, as the verifier reads them.
    sentences : sequence of str
        The context sentences (passages concatenated, document order).
    sources : sequence of int or None
        The passage of each sentence; None reads all sentences as one passage.
    max_words : int
        Word budget of the passage view (>= 1).
    views : sequence of str
        Names from :data:`EVIDENCE_VIEWS`.
    encoder : TextEncoder or None
        With an encoder, the sentence view also holds the sentence closest in meaning
        (:func:`closest_sentences`).

    Returns
    -------
    tuple
        The :class:`~guardrail.align.claims.Evidence` of each claim, and for each claim its
        candidate texts per view (:func:`view_texts`).
    """
    read = [detokenize(t) for t in sentences]
    if sources is not None and len(set(sources)) == len(sources) and all(len(t.split()) <= FACT_WORDS for t in read):
        sources = None  # passages of one short sentence each (KB facts): read them together
    evs = [select_evidence(c, read, max_words=max_words, sources=sources) for c in claims]
    near = ([-1] * len(evs) if encoder is None or "sentence" not in views
            else closest_sentences(claims, evs, read, sources, encoder))
    return evs, [view_texts(e, read, views, sources, c) for e, c in zip(evs, near)]
