"""Novelty detectors: how much of the answer's wording is absent from the context.

A faithful RAG answer reuses the context's phrases; an answer that invents facts brings
in word sequences the context never contains. These detectors count the answer's
*n-grams over all words* (stop words included, crudely stemmed, so "was founded in"
keeps its shape) that never occur in the context. Only the context is evidence: words
of the question do not count as support, because an answer that restates a false
premise of the question is still unsupported (on the HaluEval QA dev split, counting
the question as evidence lowered token-overlap balanced accuracy from 0.95 to 0.89).

Two readings of the same count are offered:

* ``mode="fraction"``: unsupported n-grams / all n-grams, in ``[0, 1]``;
* ``mode="count"``: ``1 - exp(-unsupported / scale)``, in ``[0, 1)``: the *amount* of
  unsupported material. It grows with answer length by design (a long answer that adds
  many unsupported phrases is riskier than a short one that adds one), so it is only
  used next to a fraction detector, with weights calibrated on labelled data.

References: the token-overlap floor of the HaluEval/QAGS evaluations (project data
README); n-gram novelty as a faithfulness signal in summarization evaluation.
"""

from __future__ import annotations

import math
import re
from numbers import Integral, Real
from typing import Literal

from guardrail.detectors._params import Interval, Options, StrOptions, validated
from guardrail.detectors.base import AlignmentInput, Detector
from guardrail.text.lexical import stem
from guardrail.text.lexicon import NGRAM_SKIP_WORDS, POLAR_WORDS, STOP_WORDS
from guardrail.types import DetectorOutput, NodeSupport

__all__ = ["NoveltyDetector", "tokens", "ngrams"]

_TOKEN = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|\d+(?:[.,]\d+)*")


def tokens(text: str) -> list[str]:
    """Lower-cased, crudely stemmed word and number tokens of ``text``.

    Punctuation, articles and possessive determiners are dropped.
    """
    return [stem(t) if t[0].isalpha() else t.replace(",", "")
            for t in _TOKEN.findall(text) if t.lower() not in NGRAM_SKIP_WORDS]


def ngrams(toks: list[str], n: int) -> list[tuple[str, ...]]:
    """Consecutive ``n``-tuples of ``toks`` (``n`` >= 1)."""
    return [tuple(toks[i : i + n]) for i in range(len(toks) - n + 1)]


def _is_content(tok: str) -> bool:
    return tok not in STOP_WORDS and tok not in POLAR_WORDS


class NoveltyDetector(Detector):
    """Score the answer by its n-grams that the context never contains.

    Parameters
    ----------
    ngram : int
        1 = content words (stop words and polar words skipped); 2 or 3 = n-grams over
        all words. Default 2.
    mode : {"fraction", "count"}
        See the module docstring. Default ``"fraction"``.
    scale : float
        For ``mode="count"``: unsupported n-grams at which the score reaches
        ``1 - 1/e`` (> 0). Default 5.
    name : str or None
        Override the detector name (configs register several variants).

    Notes
    -----
    Per-node support is the share of the node's content tokens that occur in the
    context (1.0 for a node without content tokens), with no evidence text: this
    detector says *what* is new, the graph detectors say *what it conflicts with*.
    """

    name = "novelty"
    _parameter_constraints = {
        "ngram": [Options(Integral, frozenset({1, 2, 3}))],
        "mode": [StrOptions({"fraction", "count"})],
        "scale": [Interval(Real, 0, None, closed="neither")],
        "name": [str, None],
    }

    @validated
    def __init__(
        self, ngram: int = 2, mode: Literal["fraction", "count"] = "fraction", scale: float = 5.0,
        name: str | None = None,
    ) -> None:
        self.ngram, self.mode, self.scale = ngram, mode, float(scale)
        if name:
            self.name = name

    def _units(self, toks: list[str]) -> list[tuple[str, ...]]:
        if self.ngram == 1:
            return [(t,) for t in toks if _is_content(t)]
        return [g for g in ngrams(toks, self.ngram) if any(_is_content(t) for t in g)]

    def detect(self, item: AlignmentInput) -> DetectorOutput:
        """Score ``item.answer`` against ``item.contexts`` (the question is not evidence).

        Returns
        -------
        DetectorOutput
            ``score`` in ``[0, 1]``; ``details`` holds ``unsupported`` and ``total``.
        """
        ctx_toks = [tokens(c) for c in item.contexts]
        ctx_set = {g for toks in ctx_toks for g in (ngrams(toks, self.ngram) if self.ngram > 1 else
                                                     [(t,) for t in toks])}
        units = self._units(tokens(item.answer))
        bad = sum(1 for g in units if g not in ctx_set)
        if not units:
            score = 0.0
        elif self.mode == "fraction":
            score = bad / len(units)
        else:
            score = 1.0 - math.exp(-bad / self.scale)
        words = {t for toks in ctx_toks for t in toks}
        support = []
        for node in item.claim_graph.nodes:
            content = [t for t in tokens(node.text) if _is_content(t)]
            share = sum(t in words for t in content) / len(content) if content else 1.0
            support.append(NodeSupport(node_id=node.id, support=share))
        return DetectorOutput(
            name=self.name, score=min(1.0, max(0.0, score)), node_support=tuple(support),
            details={"unsupported": bad, "total": len(units), "mode": self.mode, "ngram": self.ngram},
        )
