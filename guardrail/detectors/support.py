"""Text-level support detectors that complement the graph detectors.

* :class:`LexicalSupportDetector` (``"lexical"``): the share of the answer's content
  words (crudely stemmed) and numbers that occur neither in the context nor in the
  question; numbers count ``number_weight`` times. A cheap, robust signal for invented
  names and figures, which graph extraction can miss.
* :class:`SentenceSupportDetector` (``"sentence"``): every answer sentence is embedded
  and compared with every context sentence; an answer sentence is as supported as its
  most similar context sentence (cosine). The score is ``1 - `` the weakest (or mean)
  sentence support, so one unsupported sentence in a long answer is not averaged away.
  Sentences that assert nothing (a bare "yes") are skipped.

Both report per-node support (a node inherits the support of its words / of its
sentence) with the nearest context sentence as evidence.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any, Literal

import numpy as np

from guardrail.align.encoder import cosine_matrix
from guardrail.detectors._params import Interval, Options, StrOptions, validated
from guardrail.detectors.base import AlignmentInput, Detector
from guardrail.detectors.grounding import context_index, soft
from guardrail.text.lexical import TextIndex, bigrams, has_content, numbers_in, stems
from guardrail.text.lexicon import POLAR_WORDS
from guardrail.text.sentences import split_sentences
from guardrail.types import DetectorOutput, KnowledgeGraph, NodeSupport, Span

__all__ = [
    "LexicalSupportDetector",
    "SentenceSupportDetector",
]


def _sentence_of(spans: list[tuple[int, int]], start: int) -> int:
    for k, (s, e) in enumerate(spans):
        if s <= start < e:
            return k
    return max(0, len(spans) - 1)


def _unsupported(
    text: str, ctx: TextIndex, q: TextIndex | None, number_weight: float, ngram: int = 1
) -> tuple[float, float]:
    """(weighted unsupported units, weighted units) of ``text``."""
    if ngram == 2:
        grams = [b for b in bigrams(text) if not (set(b) & POLAR_WORDS)]
        bad_b = sum(1 for b in grams if b not in ctx.bigram_set and not (q and b in q.bigram_set))
        return float(bad_b), float(len(grams))
    words = [s for s in stems(text) if s not in POLAR_WORDS and not s.isdigit()]
    bad = sum(1 for s in words if not ctx.has_stem(s) and not (q and q.has_stem(s)))
    nums = numbers_in(text, words=False)
    known = ctx.numbers | (q.numbers if q else set())
    bad_n = sum(1 for n in nums if n not in known)
    return bad + number_weight * bad_n, len(words) + number_weight * len(nums)


class LexicalSupportDetector(Detector):
    """Share of the answer's content words and numbers absent from the context and question.

    Parameters
    ----------
    number_weight : float
        How many words one number counts for (default 3; a wrong figure is a strong signal).
    reduce : {"all", "worst_sentence"}
        ``"all"`` pools the whole answer; ``"worst_sentence"`` takes the answer sentence
        with the largest unsupported share (for long answers).
    use_question : bool
        Whether words of the question count as supported (default True). With False only
        the context is evidence, so restating a question's (possibly false) premise counts.
    ngram : {1, 2}
        1: single content words and numbers; 2: pairs of consecutive content words, i.e.
        whether the answer's phrases (not only its words) occur in the context.
    name : str or None
        The registry row's name (``lexical_worst``, ``lexical_ctx``, ``lexical_bigram`` are
        rows of this class with other parameters); default ``"lexical"``.
    """

    name = "lexical"
    _parameter_constraints = {
        "number_weight": [Interval(Real, 0, None, closed="left")],
        "reduce": [StrOptions({"all", "worst_sentence"})],
        "use_question": [bool],
        "ngram": [Options(Integral, frozenset({1, 2}))],
        "name": [str, None],
    }

    @validated
    def __init__(
        self, number_weight: float = 3.0, reduce: Literal["all", "worst_sentence"] = "all",
        use_question: bool = True, ngram: int = 1, name: str | None = None,
    ) -> None:
        self.number_weight = number_weight
        self.reduce = reduce
        self.use_question = use_question
        self.ngram = ngram
        if name is not None:
            self.name = name

    def detect(self, item: AlignmentInput) -> DetectorOutput:
        """Score the unsupported share in ``[0, 1]``; per-node support is word coverage."""
        ctx = context_index(item.contexts)
        q = TextIndex([item.question]) if item.question and self.use_question else None
        parts = [item.answer[s:e] for s, e in split_sentences(item.answer)] or [item.answer]
        if self.reduce == "all":
            parts = [item.answer]
        shares = []
        for p in parts:
            bad, total = _unsupported(p, ctx, q, self.number_weight, self.ngram)
            shares.append(bad / total if total else 0.0)
        score = float(max(shares))
        support = []
        for n in item.claim_graph.nodes:
            bad, total = _unsupported(n.text, ctx, q, self.number_weight)
            support.append(NodeSupport(node_id=n.id, support=1.0 - (bad / total if total else 0.0)))
        details: dict[str, Any] = {"sentence_shares": [round(x, 4) for x in shares]}
        return DetectorOutput(name=self.name, score=min(1.0, score), node_support=tuple(support), details=details)


class SentenceSupportDetector(Detector):
    """Embedding support of each answer sentence by its nearest context sentence.

    Parameters
    ----------
    low, high : float
        Cosine mapped linearly from support 0 (at ``low``) to 1 (at ``high``); defaults
        0.3 and 0.9.
    reduce : {"min", "mean"}
        How sentence supports combine into the answer's support (default ``"min"``).
    max_context_sentences : int
        Only this many context sentences are embedded (in order), bounding latency.
    """

    name = "sentence"
    _parameter_constraints = {
        "low": [Interval(Real, -1, 1, closed="both")],
        "high": [Interval(Real, -1, 1, closed="both")],
        "reduce": [StrOptions({"min", "mean"})],
        "max_context_sentences": [Interval(Integral, 1, None)],
    }
    _parameter_order = (("low", "high"),)

    @validated
    def __init__(
        self, low: float = 0.3, high: float = 0.9, reduce: Literal["min", "mean"] = "min",
        max_context_sentences: int = 200,
    ) -> None:
        self.low, self.high, self.reduce = low, high, reduce
        self.max_context_sentences = max_context_sentences

    def detect(self, item: AlignmentInput) -> DetectorOutput:
        """Score ``1 - support`` in ``[0, 1]``; per-node support is that of the node's sentence."""
        ctx = context_index(item.contexts)
        ctx_sents = ctx.sentences[: self.max_context_sentences]
        spans = split_sentences(item.answer) or [(0, len(item.answer))]
        if not ctx_sents:
            return DetectorOutput(name=self.name, score=1.0)
        spans = [sp for sp in spans if has_content(item.answer[sp[0]:sp[1]])]
        if not spans:  # nothing asserted (e.g. a bare "yes")
            return DetectorOutput(name=self.name, score=0.0, details={"no_content": True})
        texts = [item.answer[s:e] for s, e in spans]
        emb = item.encoder.encode(texts + [ctx.texts[i][s:e] for i, s, e in ctx_sents])  # one batch
        sims = cosine_matrix(emb[: len(texts)], emb[len(texts) :])
        best = sims.argmax(axis=1)
        sent_support = soft(sims[np.arange(len(texts)), best], self.low, self.high)
        agg = float(sent_support.min() if self.reduce == "min" else sent_support.mean())
        support = _node_support(item.claim_graph, spans, sent_support, best, ctx_sents, ctx.texts)
        details: dict[str, Any] = {"sentence_support": [round(float(x), 4) for x in sent_support]}
        return DetectorOutput(name=self.name, score=1.0 - agg, node_support=support, details=details)


def _node_support(
    claim: KnowledgeGraph, spans: list[tuple[int, int]], sent_support: np.ndarray,
    best: np.ndarray, ctx_sents: list[tuple[int, int, int]], texts: tuple[str, ...] | Any,
) -> tuple[NodeSupport, ...]:
    out = []
    for n in claim.nodes:
        k = _sentence_of(spans, n.span.start if n.span else 0)
        src, s, e = ctx_sents[int(best[k])]
        out.append(NodeSupport(
            node_id=n.id, support=float(sent_support[k]), evidence=texts[src][s:e],
            evidence_span=Span(start=s, end=e, source=src),
        ))
    return tuple(out)
