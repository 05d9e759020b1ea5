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

References
----------
Laban et al., "SummaC: Re-Visiting NLI-based Models for Inconsistency Detection in
Summarization", TACL 2022.
Zha et al., "AlignScore: Evaluating Factual Consistency with a Unified Alignment
Function", ACL 2023.
"""

from __future__ import annotations

from collections.abc import Sequence

from guardrail.align.claims import Evidence

__all__ = ["EVIDENCE_VIEWS", "view_texts"]

#: The views a verifier may average over: ``"passage"`` the chosen evidence as it is,
#: ``"sentence"`` its best sentence alone, ``"window"`` the best sentence with one
#: neighbour on each side (within the same passage's chosen text or not).
EVIDENCE_VIEWS = ("passage", "sentence", "window")


def _window(evidence: Evidence, sentences: Sequence[str], sources: Sequence[int] | None) -> str:
    b = evidence.best
    lo, hi = max(b - 1, 0), min(b + 2, len(sentences))
    keep = [i for i in range(lo, hi) if sources is None or sources[i] == sources[b]]
    return " ".join(sentences[i] for i in keep)


def view_texts(evidence: Evidence, sentences: Sequence[str], views: Sequence[str],
               sources: Sequence[int] | None = None) -> list[str]:
    """The evidence text of each view, in the order of ``views``.

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

    Returns
    -------
    list of str
        One text per view. Without a best sentence (``evidence.best == -1``) every view is
        the evidence's text.
    """
    out = []
    for v in views:
        if v == "passage" or evidence.best < 0:
            out.append(evidence.text)
        elif v == "sentence":
            out.append(sentences[evidence.best])
        else:
            out.append(_window(evidence, sentences, sources))
    return out
