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

The sentence view may hold up to three candidates: the best sentence by word overlap; when
a sentence encoder is given, the sentence of the same passage closest in meaning
(:func:`closest_sentences`), so a reworded claim ("the CEO" for "its chief executive
officer") is not read against a sentence that merely shares its names; and the best
sentence by word overlap once sentence-initial anaphors are resolved
(:func:`resolved_sentences`, below), where it differs. The verifier takes the best
supported candidate.

A sentence-view candidate that opens with a third-person pronoun, possessive or "the
company" (:data:`ANAPHORS`) is read with that word replaced by the name that opens the
previous sentence of the same passage (:func:`resolve_opener`): "Its chief executive
officer is Ingrid Halvorsen." after "Norvik Robotics is a Swedish maker ..." is read as
"Norvik Robotics's chief executive officer is Ingrid Halvorsen.". This is a narrow,
rule-based stand-in for coreference: only sentence-initial words (a pronoun inside a
sentence usually has its antecedent in the same sentence), only the sentence view (the
window already holds the previous sentence), never across passages, no parse; the
antecedent is the name that opens the previous sentence, its usual subject. The list holds
the third-person subject pronouns and possessives that open a sentence about an entity
named before ("It", "Its", "He", "His", "She", "Her", "They", "Their") and the definite
descriptions of the entity a RAG passage is most often about ("The company", "This
company", "The firm"); demonstratives alone ("This", "These") more often refer to an event
or a whole clause, first and second person ("I", "We", "You") to the writer or reader,
whom no previous sentence names. Where no name opens the previous sentence ("On 16
September we sent ..."), "he" / "she" would become "the trilogy" or "the company" "the
growth", the sentence is read as it is.

Replacing the word, not reading the previous sentence and this one together, was chosen
on the claims of the claims data's dev part a (contexts ending in 0) whose sentence view
opens with an anaphor, with the shipped verifier. With the previous sentence prepended
(45 claims), the sentence view's mean p(supported) rose for unsupported claims (0.24 to
0.38) more than for supported ones (0.43 to 0.52) and its ROC-AUC on them fell from 0.69 to
0.63 (an extra sentence lends support to claims it does not make: "eight volunteers" 0.01
to 0.53 next to "short by 8"). With the word replaced (39 claims change), 0.71 to 0.71, and
0.64 to 0.65 for the mean of the three views. The resolved overlap candidate changes 2
claims of that set (both unsupported, sentence view 0.03 to 0.08 and 0.14 to 0.14). Over
all 728 claims of dev part a, the mean of the three views ranks as before (ROC-AUC 0.679
with and without the rule; 35 claims change), while the planted "CEO" answer of
``tests/guardrail/test_dilution.py`` goes from unsupported (sentence view 0.003) to
supported (0.97).

References
----------
Laban et al., "SummaC: Re-Visiting NLI-based Models for Inconsistency Detection in
Summarization", TACL 2022.
Zha et al., "AlignScore: Evaluating Factual Consistency with a Unified Alignment
Function", ACL 2023.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from guardrail.align.claims import Evidence, _lexical_scores, select_evidence
from guardrail.align.encoder import TextEncoder
from guardrail.text.numerals import digits_for_words
from guardrail.text.structure import Header
from guardrail.text.surface import detokenize

__all__ = ["EVIDENCE_VIEWS", "view_texts", "closest_sentences", "claim_views", "MEANING_WEIGHT", "FACT_WORDS",
           "ANAPHORS", "MAX_ANTECEDENTS", "resolve_opener", "resolved_sentences"]

#: Weight of the bi-encoder cosine against the word overlap (scaled to the passage's best) in
#: :func:`closest_sentences`; 0.5 as measured on the fit sets of ``benchmarks/fit_default.py``.
MEANING_WEIGHT = 0.5

#: The views a verifier may average over: ``"passage"`` the chosen evidence as it is,
#: ``"sentence"`` its best sentence alone, ``"window"`` the best sentence with one
#: neighbour on each side (within the same passage's chosen text or not).
EVIDENCE_VIEWS = ("passage", "sentence", "window")

#: Sentence-initial words (case as they open a sentence) that :func:`resolve_opener` replaces
#: by the name that opens the previous sentence (the module docstring says why these).
ANAPHORS = ("It", "Its", "He", "His", "She", "Her", "They", "Their", "The company", "This company", "The firm")

#: How far back :func:`resolve_opener` looks for the name: it steps over sentences that open
#: with an anaphor themselves ("X is ... . It was founded ... . Its CEO is ...").
MAX_ANTECEDENTS = 2

_OPENER = re.compile("(?:" + "|".join(re.escape(a) for a in sorted(ANAPHORS, key=len, reverse=True)) + r")\b")
_POSSESSIVES = frozenset({"Its", "His", "Her", "Their"})
_PERSONAL = frozenset({"He", "His", "She", "Her"})
_DESCRIPTIONS = frozenset({"The company", "This company", "The firm"})
#: A sentence's opening name: "The lake", "The Lanterns of Sarn", "Norvik Robotics", "Iriarte".
_NAME = re.compile(r"The\s+[a-z]+\b|(?:The\s+)?[A-Z][\w&.-]*(?:\s+(?:of\s+)?[A-Z][\w&.-]*)*")
#: Capitalised words that open a sentence without naming its subject.
_NOT_NAMES = frozenset(
    "A An After Also Although And As At Because Before But By During Each Every For From However I If In "
    "It Its Last Many Meanwhile Most My No Of On Once Our Since So Some That Then There These This "
    "Those To Under Until We When While With Yet You Your".split())


def _opening_name(sentence: str) -> str:
    """The name that opens ``sentence``; "" when it opens with no name or with an anaphor."""
    m = _NAME.match(sentence)
    if m is None or _OPENER.match(sentence):
        return ""
    words = m.group(0).split()
    return "" if (words[0] == "The" and len(words) == 1) or words[0] in _NOT_NAMES else m.group(0)


def _title(sentence: str) -> bool:
    """A header line of a structured passage ("Career"), which names no antecedent and is no neighbour."""
    return isinstance(sentence, Header)


def resolve_opener(i: int, sentences: Sequence[str], sources: Sequence[int] | None = None) -> str:
    """Sentence ``i``, its opening anaphor replaced by the name that opens the sentence before.

    A sentence that opens with one of :data:`ANAPHORS` ("Its chief executive officer is
    ...") gets the name that opens the previous sentence of the same passage in its place
    (a possessive as ``"<name>'s"``); when that sentence opens with an anaphor too, the
    one before it, up to :data:`MAX_ANTECEDENTS` sentences back. Any other sentence, the
    first sentence of a passage, a pronoun inside a sentence, a previous sentence that opens
    with no name, "he" / "she" for a name opening with "The" ("The trilogy") and "the
    company" for a common noun ("The growth") leave the sentence as it is.

    Parameters
    ----------
    i : int
        Index of the sentence in ``sentences`` (``0 <= i < len(sentences)``).
    sentences : sequence of str
        The context sentences, detokenised.
    sources : sequence of int or None
        The passage of each sentence; None reads all sentences as one passage.

    Returns
    -------
    str
        The sentence, with its opening anaphor replaced or as it is.

    Examples
    --------
    >>> resolve_opener(1, ["Norvik Robotics builds robots.", "Its CEO is Ingrid Halvorsen."])
    "Norvik Robotics's CEO is Ingrid Halvorsen."
    >>> resolve_opener(1, ["Norvik Robotics builds robots.", "Ingrid Halvorsen runs it."])
    'Ingrid Halvorsen runs it.'
    """
    text = sentences[i]
    word = _OPENER.match(text)
    lo = i - 1
    while lo >= 0 and _title(sentences[lo]):  # a header line ("Career") names no antecedent
        lo -= 1
    stop = lo - MAX_ANTECEDENTS + 1
    while lo > stop and lo >= 0 and _OPENER.match(sentences[lo]):
        lo -= 1
    if word is None or lo < 0 or (sources is not None and any(sources[k] != sources[i] for k in range(lo, i))):
        return text
    name = _opening_name(sentences[lo])
    proper = (name[:1].isupper() and not name.startswith("The ")) or name[4:5].isupper()
    if not name or (word.group(0) in _PERSONAL and name.startswith("The ")) or (
            word.group(0) in _DESCRIPTIONS and not proper):
        return text
    return (f"{name}'s" if word.group(0) in _POSSESSIVES else name) + text[word.end():]


def _window(evidence: Evidence, sentences: Sequence[str], sources: Sequence[int] | None) -> str:
    b = evidence.best
    lo, hi = b - 1, b + 1
    while lo > 0 and _title(sentences[lo]):  # a section header between them is stepped over; the
        lo -= 1                               # context's first line (its title) names the subject
    while hi < len(sentences) - 1 and _title(sentences[hi]):
        hi += 1
    keep = [i for i in (lo, b, hi) if 0 <= i < len(sentences) and (sources is None or sources[i] == sources[b])]
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


def resolved_sentences(claims: Sequence[str], evidence: Sequence[Evidence], sentences: Sequence[str],
                       sources: Sequence[int] | None) -> list[int]:
    """For each claim, the sentence of its passage with the most word overlap once read resolved.

    Word overlap (IDF-weighted, as the evidence's best sentence is chosen) is taken over the
    sentences of the passage that holds the claim's best sentence, each read as
    :func:`resolve_opener` gives it; "Its chief executive officer is Ingrid Halvorsen" read as
    "Norvik Robotics's chief executive officer ..." shares "Norvik Robotics" with a claim
    about the company's CEO, which the sentence as written does not.

    Parameters
    ----------
    claims : sequence of str
        The claims, as the verifier reads them.
    evidence : sequence of Evidence
        Each claim's chosen evidence (same length as ``claims``).
    sentences : sequence of str
        The context sentences the evidence indexes into, detokenised.
    sources : sequence of int or None
        The passage of each sentence.

    Returns
    -------
    list of int
        One sentence index per claim: the best sentence read resolved, where it is a sentence
        whose opener was resolved and has more overlap than the evidence's best sentence
        (read resolved too); else ``-1``.
    """
    res = [resolve_opener(i, sentences, sources) for i in range(len(sentences))]
    out = [-1] * len(claims)
    if res == list(sentences):
        return out
    for k, e in enumerate(evidence):
        if e.best < 0:
            continue
        idx = [i for i in range(len(sentences)) if sources is None or sources[i] == sources[e.best]]
        lex = _lexical_scores(claims[k], [res[i] for i in idx])
        top = int(np.argmax(lex))
        if lex[top] > lex[idx.index(e.best)] and res[idx[top]] != sentences[idx[top]]:
            out[k] = idx[top]
    return out


def view_texts(evidence: Evidence, sentences: Sequence[str], views: Sequence[str],
               sources: Sequence[int] | None = None, closest: int = -1, *, resolved: int = -1,
               antecedents: bool = True) -> list[tuple[str, ...]]:
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
    resolved : int
        The best sentence by word overlap once openers are resolved
        (:func:`resolved_sentences`), a further candidate of the sentence view when it
        differs from both; ``-1``: none.
    antecedents : bool
        Read a sentence-view candidate that opens with an anaphor with the anaphor replaced
        (:func:`resolve_opener`); False: every candidate is its sentence as it is.

    Returns
    -------
    list of tuple of str
        The candidate texts of each view (one, or up to three for the sentence view); the verifier
        reads a view as its best supported candidate. Without a best sentence
        (``evidence.best == -1``) every view is the evidence's text.
    """
    out: list[tuple[str, ...]] = []
    for v in views:
        if v == "passage" or evidence.best < 0:
            out.append((evidence.text,))
        elif v == "sentence":
            idx = list(dict.fromkeys(i for i in (evidence.best, closest, resolved) if i >= 0))
            out.append(tuple(resolve_opener(i, sentences, sources) if antecedents else sentences[i] for i in idx))
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
        (:func:`closest_sentences`). Without one too, it holds the best sentence by word
        overlap once openers are resolved (:func:`resolved_sentences`) where that differs,
        except for knowledge-base facts.

    Returns
    -------
    tuple
        The :class:`~guardrail.align.claims.Evidence` of each claim, and for each claim its
        candidate texts per view (:func:`view_texts`).
    """
    read = [Header(detokenize(t)) if isinstance(t, Header) else detokenize(t) for t in sentences]
    facts = sources is not None and len(set(sources)) == len(sources) and all(len(t.split()) <= FACT_WORDS for t in read)
    if facts:
        sources = None  # passages of one short sentence each (KB facts): read them together
    digits = [digits_for_words(c) for c in claims]
    evs = [select_evidence(c, read, max_words=max_words, sources=sources) for c in digits]
    near = ([-1] * len(evs) if encoder is None or "sentence" not in views
            else closest_sentences(claims, evs, read, sources, encoder))
    # facts read together are still separate passages: a fact's antecedent is never another fact
    again = ([-1] * len(evs) if facts or "sentence" not in views
             else resolved_sentences(digits, evs, read, sources))
    return evs, [view_texts(e, read, views, sources, c, resolved=r, antecedents=not facts)
                 for e, c, r in zip(evs, near, again)]
