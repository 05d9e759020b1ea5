"""Claim-verifier detector: every claim of the claim graph checked against its best evidence.

The claim graph defines the units. Each answer sentence (with the previous sentence
when it opens with a pronoun) is a claim; its evidence is
chosen among the context sentences by :func:`guardrail.align.claims.select_evidence` (for a
graph context, the linearised context triples). The cross-encoder of
:mod:`guardrail.models.claim_verifier` gives p(supported) per claim, and the answer's score is
``1 - min_k p_k``: one unsupported claim fails the answer however much supported text
surrounds it (no dilution). A claim that a context sentence states word for word
(:func:`~guardrail.align.verbatim.stated_verbatim`) gets at least :data:`VERBATIM_P`: the
cross-encoder, trained on minimal edits, scores exact copies anywhere from 0.16 to 0.97.

Inside an unsupported sentence, the claim triples of that sentence are verified too, and
each answer node's support combines the weakest triple it takes part in with its
grounding (does its text, or its number, occur in the evidence). So a swapped date or
name is the node that gets flagged, and the node's evidence is the claim's best evidence
sentence.

References
----------
Laban et al., "SummaC", TACL 2022 (sentence-level verification, max aggregation).
Kryscinski et al., "FactCC", EMNLP 2020 (claims against document windows).
Sansford et al., "GraphEval" / KEA Explain (seed 000): claim triples as units.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from numbers import Integral, Real
from typing import Any

import numpy as np

from guardrail.align.claims import EVIDENCE_MAX_WORDS, claim_text, context_sentences
from guardrail.align.encoder import TextEncoder
from guardrail.align.verbatim import stated_verbatim
from guardrail.align.views import EVIDENCE_VIEWS, claim_views
from guardrail.detectors._params import Interval, StrOptions, validated
from guardrail.detectors.base import AlignmentInput, Detector
from guardrail.detectors.occlusion import MIN_GAIN, occlusion_gains
from guardrail.detectors.unscored import framing, mask_scores
from guardrail.text.hedges import hedge_spans, strip_hedges
from guardrail.text.lexical import numbers_in
from guardrail.text.opinions import opinion_sentence
from guardrail.text.sentences import split_sentences
from guardrail.text.surface import detokenize
from guardrail.types import DetectorOutput, KnowledgeGraph, Node, NodeSupport, Span

__all__ = ["VerifierDetector", "MAX_TRIPLE_CHECKS", "VERBATIM_P"]

_VIEW_CHOICES = ["+".join(v for k, v in enumerate(EVIDENCE_VIEWS) if mask >> k & 1)
                 for mask in range(1, 2 ** len(EVIDENCE_VIEWS))]

_PRONOUN_START = re.compile(r"^(?:it|its|he|she|his|her|they|their|this|these|that|those|there|both|such)\b", re.I)
_WORD = re.compile(r"[a-z0-9]+")
_GENERIC_KINDS = frozenset({"NOUN", "TOKEN"})
#: Most claim triples verified per answer (inside its unsupported sentences): each is one
#: more cross-encoder pair, and 100 unsupported sentences could otherwise add hundreds.
MAX_TRIPLE_CHECKS = 64
#: p(supported) at least, of a claim a context sentence states word for word
#: (:func:`~guardrail.align.verbatim.stated_verbatim`: the verifier scores exact copies 0.16-0.97).
VERBATIM_P = 0.95


@dataclass(frozen=True)
class _Unit:
    start: int
    end: int
    claim: str
    text: str = ""
    hedges: tuple[tuple[int, int], ...] = ()  # answer offsets of the sentence's hedges


def _units(answer: str, question: str | None, always: bool = False) -> list[_Unit]:
    """Sentence claims of ``answer``, each without its hedges (:func:`~guardrail.text.hedges.strip_hedges`),
    one opening with a pronoun read after the sentence before it (unless either only frames the
    answer, :func:`~guardrail.detectors.unscored.framing`, or it is the speaker's own evaluation,
    :func:`~guardrail.text.opinions.opinion_sentence`: "That seems fair to me."); ``question`` is prepended to short claims (see :func:`guardrail.align.claims.claim_text`),
    to every claim with ``always``."""
    spans = split_sentences(answer, clauses=True)
    out = []
    for k, (s, e) in enumerate(spans):
        text, base = answer[s:e], s
        if (k and _PRONOUN_START.match(text) and not framing(text) and not opinion_sentence(text)
                and not framing(answer[slice(*spans[k - 1])])):
            text, base = answer[spans[k - 1][0]:e], spans[k - 1][0]
        hedges = tuple((base + a, base + b) for a, b in hedge_spans(text))
        out.append(_Unit(s, e, claim_text(detokenize(strip_hedges(text)), question, always=always), text, hedges))
    return out


def _evidence_sentences(item: AlignmentInput) -> tuple[list[str], list[Span | None]]:
    """Context sentences and their spans (``span.source`` is the passage), or for a graph
    context its triples, linearised (no spans)."""
    sents = context_sentences(item.contexts)
    if sents:
        return [t for _, _, _, t in sents], [Span(start=s, end=e, source=src) for src, s, e, _ in sents]
    triples = item.context_graph.triples  # a graph context: its triples, linearised
    texts = [f"{t.subject.text} {t.relation} {t.object.text}." for t in triples]
    if not texts:
        texts = [n.text for n in item.context_graph.nodes]
    return texts, [None] * len(texts)


def _view_scores(verifier: Any, units: list[_Unit], texts: list[list[tuple[str, ...]]],
                 at: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """p(supported) of each unit, averaged over its evidence views (a view: its best supported
    candidate), and under its view number ``at`` alone (the one triple checks and occlusion
    read): two arrays of shape ``(len(units),)``."""
    pairs = [(t, u.claim) for u, views in zip(units, texts) for cands in views for t in cands]
    q = iter(np.asarray(verifier.score([e for e, _ in pairs], [c for _, c in pairs]), dtype=float).tolist())
    per = [[max(next(q) for _ in cands) for cands in views] for views in texts]
    if not per:
        return np.zeros(0), np.zeros(0)
    return np.array([float(np.mean(v)) for v in per]), np.array([v[at] for v in per])


def _grounded(node: Node, evidence_words: set[str], evidence_numbers: set[str]) -> float:
    """1 when the node's numbers and content words all occur in the evidence, else the share."""
    nums = numbers_in(node.text, words=False)
    if nums:
        return float(all(n in evidence_numbers for n in nums))
    words = [w for w in _WORD.findall(node.label.lower()) if len(w) > 2]
    if not words:
        return 1.0
    return sum(w in evidence_words or w.rstrip("s") in evidence_words for w in words) / len(words)


def _mask(units: list[_Unit], evs: list[Any], p: np.ndarray) -> np.ndarray:
    """The nothing-to-check rules (:func:`~guardrail.detectors.unscored.mask_scores`) on ``p``, one per unit."""
    return mask_scores([u.text or u.claim for u in units], [u.claim for u in units], [e.text for e in evs], p)


class VerifierDetector(Detector):
    """Verify each answer claim with the shipped cross-encoder (:class:`~guardrail.models.claim_verifier.ClaimVerifier`).

    Parameters
    ----------
    verifier : ClaimVerifier or None
        Default the process-wide shared verifier.
    max_evidence_words : int
        Word budget of the evidence per claim (>= 1).
    unit_threshold : float
        A claim with p(supported) below this (in ``[0, 1]``) is unsupported; its
        triples are verified to find the wrong node.
    grounding_weight : float
        Weight of text grounding against triple verification in a node's support, in [0, 1].
    question_prefix : bool
        Put the question in front of every claim (``"Q: ... A: ..."``). Off by default:
        claims are verified as written. v3 was trained with the question in front of claims
        of at most :data:`guardrail.align.claims.SHORT_CLAIM_WORDS` words, but on the dev
        splits that format ranked short answers worse than bare ones (claims dev short
        answers ROC-AUC 0.59 against 0.61, HaluEval QA val 0.59 against 0.73), so it is not
        used at inference.
    occlusion : bool
        In an unsupported claim, find the value that makes it unsupported by removing each
        name, date and number in turn (:mod:`guardrail.detectors.occlusion`) and flag that
        node rather than the claim's other values (default True; up to
        :data:`~guardrail.detectors.occlusion.MAX_OCCLUSIONS` more verifier pairs per answer,
        only for unsupported claims). The answer's score does not change.
    evidence_views : str
        The evidence widths each claim is read at, joined by ``"+"`` (from
        :data:`~guardrail.align.views.EVIDENCE_VIEWS`, in that order): ``"passage"`` the chosen
        evidence, ``"sentence"`` its best sentence, ``"window"`` that sentence with its
        neighbours. A claim's p(supported) is the mean over its views
        (:mod:`guardrail.align.views`); triple checks and occlusion read ``explain_view``.
        Default ``"passage+sentence+window"``, chosen on the fit sets of
        ``benchmarks/fit_default.py`` (verifier alone, ROC-AUC against the passage view alone):
        QAGS-C 0.63 (0.54), HaluEval summarization 0.84 (0.82), claims dev part a 0.70 (0.66),
        HaluEval QA 0.95 (0.93), dialogue 0.93 (0.93); a long document lets a claim that
        recombines its fragments find each one in a wide window, a single sentence does not.
        A view equal to another (a short context) costs nothing (cached).
    sentence_by_meaning : bool
        The sentence view also reads the sentence closest in meaning
        (:func:`~guardrail.align.views.closest_sentences`, the guard's sentence encoder) and
        takes the better supported of the two, so a reworded claim meets its sentence. Off by
        default: on the fit sets the verifier's mean ROC-AUC was 0.780 against 0.781 (report
        sets 0.772 vs 0.769; realistic reworded answers passed 0.74 vs 0.71), and embedding
        every sentence of the passage cost about 0.25-0.37 s per RAG answer or summary on the
        2-core machine.
    explain_view : str
        The view (of :data:`~guardrail.align.views.EVIDENCE_VIEWS`) that an unsupported claim's
        triple checks and occlusion read; the first of ``evidence_views`` when it is not one of
        them. Default ``"window"``: on ``benchmarks/node_spans.py`` (caught wrong answers with
        a known error span) flagged nodes hit the span 0.744 vs 0.749 with ``"passage"``
        (precision 0.569 vs 0.586), at about half the verifier tokens; ``"sentence"`` 0.738.
        The answer's score does not depend on it.

    Notes
    -----
    ``score = 1 - min_k p_k`` over the answer's sentence claims; ``details`` holds every
    claim's p, span and evidence.
    """

    name = "verifier"
    uses_encoder = False
    _parameter_constraints = {
        "verifier": ["no_validation"],
        "max_evidence_words": [Interval(Integral, 1, None)],
        "unit_threshold": [Interval(Real, 0, 1, closed="both")],
        "grounding_weight": [Interval(Real, 0, 1, closed="both")],
        "question_prefix": [bool],
        "occlusion": [bool],
        "evidence_views": [StrOptions(_VIEW_CHOICES)],
        "sentence_by_meaning": [bool],
        "explain_view": [StrOptions(list(EVIDENCE_VIEWS))],
    }

    @validated
    def __init__(
        self,
        verifier: Any = None,
        *,
        max_evidence_words: int = EVIDENCE_MAX_WORDS,
        unit_threshold: float = 0.5,
        grounding_weight: float = 0.5,
        question_prefix: bool = False,
        occlusion: bool = True,
        evidence_views: str = "passage+sentence+window",
        sentence_by_meaning: bool = False,
        explain_view: str = "window",
    ) -> None:
        self._verifier = verifier
        self.max_evidence_words = max_evidence_words
        self.unit_threshold = unit_threshold
        self.grounding_weight = grounding_weight
        self.question_prefix = question_prefix
        self.occlusion = occlusion
        self.evidence_views = evidence_views
        self._views = tuple(evidence_views.split("+"))
        self.sentence_by_meaning = sentence_by_meaning
        self.explain_view = explain_view

    @property
    def verifier(self) -> Any:
        """The cross-encoder (loaded on first use)."""
        if self._verifier is None:
            from guardrail.models.claim_verifier import shared_verifier

            self._verifier = shared_verifier()
        return self._verifier

    def prefetch(self, items: Sequence[tuple[str, Sequence[str], str | None]],
                 encoder: TextEncoder | None = None) -> None:
        """Score the sentence claims of many ``(answer, contexts, question)`` items in one
        batch, so that :meth:`detect` on each finds its scores in the verifier's cache.

        Items must be validated (cleaned) as :meth:`guardrail.Guard.check` validates them;
        an item whose context has no sentence is skipped. ``encoder`` is the guard's sentence
        encoder (the one :meth:`detect` reads as ``item.encoder``); without it the sentence
        view's closest-in-meaning candidate is scored at check time.
        """
        evidence: list[str] = []
        claims: list[str] = []
        enc = encoder if self.sentence_by_meaning else None
        for answer, contexts, question in items:
            found = context_sentences(contexts)
            if not found:
                continue
            units = _units(answer, question if self.question_prefix else None, True)
            _, texts = claim_views([u.claim for u in units], [t for *_, t in found], [src for src, *_ in found],
                                   self.max_evidence_words, self._views, enc)
            for u, views in zip(units, texts):
                ts = [t for cands in views for t in cands]
                evidence.extend(ts)
                claims.extend([u.claim] * len(ts))
        if claims:
            self.verifier.score(evidence, claims)

    def detect(self, item: AlignmentInput) -> DetectorOutput:
        """Score the answer: ``1 - `` the support of its least supported sentence claim."""
        units = _units(item.answer, item.question if self.question_prefix else None, True)
        sents, spans = _evidence_sentences(item)
        if not units or not sents:
            return DetectorOutput(name=self.name, score=1.0 if units else 0.0)
        known = [sp.source for sp in spans if sp is not None]
        sources = known if len(known) == len(spans) else None  # a graph context: one "passage"
        evs, texts = claim_views([u.claim for u in units], sents, sources, self.max_evidence_words, self._views,
                                 item.encoder if self.sentence_by_meaning else None)
        at = self._views.index(self.explain_view) if self.explain_view in self._views else 0
        p, first = _view_scores(self.verifier, units, texts, at)
        p, first = _mask(units, evs, p), _mask(units, evs, first)
        said = np.array(stated_verbatim([strip_hedges(item.answer[u.start:u.end]) for u in units], sents))
        p, first = np.where(said, np.maximum(p, VERBATIM_P), p), np.where(said, np.maximum(first, VERBATIM_P), first)
        read = [replace(e, text=views[at][0]) for e, views in zip(evs, texts)]
        support = self._node_support(item, units, evs, p, first, sents, spans, read)
        details = {"claims": [
            {"start": u.start, "end": u.end, "p_supported": round(float(pk), 4),
             "evidence": sents[e.best] if e.best >= 0 else ""}
            for u, e, pk in zip(units, evs, p)]}
        return DetectorOutput(name=self.name, score=float(np.clip(1.0 - p.min(), 0.0, 1.0)),
                              node_support=support, details=details)

    def _node_support(self, item: AlignmentInput, units: list[_Unit], evs: list[Any], p: np.ndarray,
                      first: np.ndarray, sents: list[str], spans: list[Span | None],
                      read: list[Any]) -> tuple[NodeSupport, ...]:
        """Support per answer node: ``>= 0.5`` exactly when the node's claim is supported.

        In a supported claim, ``0.5 + 0.5 p``. In an unsupported one,
        ``w g + (1 - w) t`` (``g`` grounding of the node's text in the evidence, ``t`` the
        weakest claim triple it is in), kept below 0.5 for an ungrounded entity or number,
        and the weakest node of the claim is always below 0.5.
        """
        claim: KnowledgeGraph = item.claim_graph
        triple_p = self._triple_scores(item, units, read, p)
        rows: list[tuple[Node, int, float]] = []
        for n in claim.nodes:
            if n.span is None:
                continue
            k = next((i for i, u in enumerate(units) if u.start <= n.span.start < u.end), len(units) - 1)
            if any(a <= n.span.start and n.span.end <= b for a, b in units[k].hedges):
                continue  # a hedge's words ("sure" in "but I'm not sure") are not the claim
            if p[k] >= self.unit_threshold:
                rows.append((n, k, 0.5 + 0.5 * float(p[k])))
                continue
            ev = evs[k].text
            g = _grounded(n, set(_WORD.findall(ev.lower())), numbers_in(ev, words=False))
            t = min(triple_p.get(n.id, [float(p[k])]))
            s = self.grounding_weight * g + (1 - self.grounding_weight) * t
            if g < 1.0 and n.kind not in _GENERIC_KINDS:
                s = min(s, 0.49)
            rows.append((n, k, s))
        if self.occlusion:
            rows = self._occlude(units, read, p, first, rows)
        for k in {k for _, k, _ in rows if p[k] < self.unit_threshold}:
            in_k = [r for r in rows if r[1] == k]
            weakest = min(in_k, key=lambda r: (r[2], r[0].kind in _GENERIC_KINDS))
            if weakest[2] >= 0.5:
                rows[rows.index(weakest)] = (weakest[0], k, 0.49)
        out = []
        for n, k, s in rows:
            best = evs[k].best
            out.append(NodeSupport(node_id=n.id, support=float(np.clip(s, 0.0, 1.0)),
                                   evidence=sents[best] if best >= 0 else "",
                                   evidence_span=spans[best] if best >= 0 else None))
        return tuple(out)

    def _occlude(self, units: list[_Unit], evs: list[Any], p: np.ndarray, first: np.ndarray,
                 rows: list[tuple[Node, int, float]]) -> list[tuple[Node, int, float]]:
        """Name the culprit of each unsupported claim by occlusion (:mod:`~guardrail.detectors.occlusion`):
        the value whose removal raises p(supported) most (by :data:`MIN_GAIN` at least) is flagged
        (support <= 0.3); the claim's other nodes are not (support >= 0.5), except values whose
        removal helps at least half as much keep the support grounding gave them (a swapped pair)."""
        bad = sorted({k for _, k, _ in rows if p[k] < self.unit_threshold}, key=lambda k: float(p[k]))
        cands = [(k, n.id, n.text, n.kind) for k in bad for n, kk, _ in rows
                 if kk == k and (n.kind not in _GENERIC_KINDS or numbers_in(n.text, words=False))]
        gains = occlusion_gains(self.verifier, [u.claim for u in units], [e.text for e in evs], first, cands)
        out = list(rows)
        for k in bad:
            g = {n.id: gains[n.id] for n, kk, _ in rows if kk == k and n.id in gains}
            if not g or max(g.values()) < MIN_GAIN:
                continue
            best = max(g, key=lambda i: g[i])
            for i, (n, kk, s) in enumerate(out):
                if kk != k:
                    continue
                if n.id == best:
                    out[i] = (n, kk, min(s, 0.3))
                elif g.get(n.id, 0.0) < 0.5 * g[best]:
                    out[i] = (n, kk, max(s, 0.5))
        return out

    def _triple_scores(self, item: AlignmentInput, units: list[_Unit], evs: list[Any],
                       p: np.ndarray) -> dict[str, list[float]]:
        """p(supported) of the claim triples inside unsupported sentences, per node id."""
        bad = [k for k in range(len(units)) if p[k] < self.unit_threshold]
        todo: list[tuple[Any, int]] = []
        for t in item.claim_graph.triples:
            pos = t.subject.span.start if t.subject.span else (t.span.start if t.span else -1)
            k = next((i for i in bad if units[i].start <= pos < units[i].end), None)
            if k is not None:
                todo.append((t, k))
        if not todo:
            return {}
        # latency bound: the triples of the least supported sentences first, at most MAX_TRIPLE_CHECKS;
        # a node left out takes its sentence's p (the claim-level verdict does not change)
        todo = sorted(todo, key=lambda tk: float(p[tk[1]]))[:MAX_TRIPLE_CHECKS]
        question = item.question if self.question_prefix else None
        claims = [claim_text(f"{t.subject.text} {t.relation} {t.object.text}", question) for t, _ in todo]
        tp = self.verifier.score([evs[k].text for _, k in todo], claims)
        out: dict[str, list[float]] = {}
        for (t, _), pt in zip(todo, tp):
            out.setdefault(t.subject.id, []).append(float(pt))
            out.setdefault(t.object.id, []).append(float(pt))
        return out
