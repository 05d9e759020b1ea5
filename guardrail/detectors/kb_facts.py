"""Knowledge-base fact detector: an answer triple whose subject and predicate are in the
context graph with a different object is a contradiction.

Meant for context graphs built from a knowledge base (:mod:`guardrail.kb`), where the
context is a set of facts rather than prose: for each claim triple ``(s, r, o)`` the
detector looks for context triples with the same subject (matching label), an object of
a comparable kind (both with a number or neither) and the same
relation (equal normalised relation; failing that, relation embeddings with a cosine of
at least ``relation_sim`` between relations that close on the same preposition, or on none). If there are such triples and none has a matching object, the claim
contradicts the KB: its object node gets support 0 and the evidence is the KB fact (its
``evidence_span`` is the fact's sentence among the contexts: a text of its own, or a
line of the facts' text beside retrieved passages). A claim whose subject and relation
the KB does not state is left alone (open world).

Only the KB's triples (``pattern == "kb"``) are facts when the context holds any: the
triples parsed from retrieved passages merged beside them are left to the other
detectors. A context graph with no KB triple (a graph given as the context) is read
whole.

The score is 1 when any claim triple contradicts the KB, else 0.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from numbers import Real

import numpy as np

from guardrail.align.encoder import cosine_matrix
from guardrail.detectors._params import Interval, validated
from guardrail.detectors.base import AlignmentInput, Detector
from guardrail.extract.normalize import normalize_label
from guardrail.text.lexical import numbers_in
from guardrail.text.lexicon import RELATION_SKIP_WORDS
from guardrail.types import DetectorOutput, NodeSupport, Span, Triple

__all__ = ["KBFactsDetector", "KB_PATTERN"]

#: The ``pattern`` of a context triple that states a knowledge-base fact (:func:`guardrail.kb.facts_graph`).
KB_PATTERN = "kb"
_WORD = re.compile(r"[a-z0-9]+")


def _stem(w: str) -> str:
    """A crude stem, so "opened" / "open" and "moved" / "move" meet."""
    if w.endswith("ed") and len(w) > 4:
        w = w[:-2]
    return w[:-1] if w.endswith("e") and len(w) > 3 else w


def _rel_key(rel: str) -> str:
    """Relation key: lower-cased words without auxiliaries and articles, crudely stemmed."""
    words = [_stem(w) for w in _WORD.findall(rel.lower()) if w not in RELATION_SKIP_WORDS]
    return " ".join(words) or rel.lower().strip()


_PREPS = frozenset("about after against along among around as at before behind between by during for from in "
                   "inside into near of off on onto out over past since through to toward towards under until "
                   "up upon with within without".split())


def _last_prep(rel: str) -> str:
    """The relation's closing preposition (``"by"`` in "be founded by"), ``""`` when it has none."""
    words = _WORD.findall(rel.lower())
    return words[-1] if words and words[-1] in _PREPS else ""


def _same_entity(a: str, b: str) -> bool:
    """Labels name the same thing: equal, or one is a whole-word suffix/prefix of the other
    ("Varnay" / "Odile Varnay")."""
    a, b = normalize_label(a) or a.lower(), normalize_label(b) or b.lower()
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 3 and (long_.startswith(short + " ") or long_.endswith(" " + short))


def _same_object(a: str, b: str) -> bool:
    na, nb = numbers_in(a, words=False), numbers_in(b, words=False)
    if na and nb:
        return set(na) == set(nb)
    return _same_entity(a, b)


def _facts(ctx: Sequence[Triple]) -> Sequence[Triple]:
    """The context triples that state facts: the knowledge base's (``pattern == "kb"``)
    when the context holds any, else all of them (a graph given as the context).

    Triples parsed from retrieved text beside a KB are no facts to veto with: "Oren Vask
    is a businessman" is no rival of "Vask was a student", nor "Halden University is the
    oldest university" of "Halden, the capital of Vellmark"; the claim verifier reads
    that text.
    """
    kb = [t for t in ctx if t.pattern == KB_PATTERN]
    return kb or ctx


def _line_spans(contexts: Sequence[str]) -> dict[str, Span]:
    """Each line of ``contexts`` (stripped) and its span (the first one when lines repeat):
    a KB fact sentence is a text of its own, or a line of the facts' text beside passages."""
    out: dict[str, Span] = {}
    for src, text in enumerate(contexts):
        start = 0
        for line in text.split("\n"):
            body = line.strip()
            if body and body not in out:
                lead = start + len(line) - len(line.lstrip())
                out[body] = Span(start=lead, end=lead + len(body), source=src)
            start += len(line) + 1
    return out


def _comparable(a: str, b: str) -> bool:
    """Objects that can be rival values: both carry a number or neither does ("420 metres long"
    is no rival of "a steel arch bridge", which a retrieved passage may state with the same
    copula)."""
    return bool(numbers_in(a, words=False)) == bool(numbers_in(b, words=False))


class KBFactsDetector(Detector):
    """Flag answer triples that the knowledge-base facts contradict (same subject and
    relation, another object).

    Parameters
    ----------
    relation_sim : float
        Least cosine similarity (MiniLM) of two relation labels counted as the same
        relation when their normalised text differs (default 0.8).

    Raises
    ------
    InvalidInputError
        ``relation_sim`` is not in ``(0, 1]``.
    """

    name = "kb_facts"
    uses_encoder = True

    _parameter_constraints = {"relation_sim": [Interval(Real, 0, 1, closed="right")]}

    @validated
    def __init__(self, relation_sim: float = 0.8) -> None:
        self.relation_sim = relation_sim

    def _relation_match(self, item: AlignmentInput, claim: Triple, ctx: Sequence[Triple]) -> list[bool]:
        key = _rel_key(claim.relation)
        same = [_rel_key(t.relation) == key for t in ctx]
        rest = [i for i, s in enumerate(same) if not s]
        if rest and not any(same):  # embeddings only when no relation matches by its words
            # ... and never across prepositions: "be founded by" (a founder) is not "be founded in"
            # (a year), nor "open" (its doors) "open in" (a year)
            prep = _last_prep(claim.relation)
            rest = [i for i in rest if _last_prep(ctx[i].relation) == prep]
        if rest and not any(same):
            rels = list(dict.fromkeys(ctx[i].relation for i in rest))
            emb = item.encoder.encode([claim.relation, *rels])
            sims = cosine_matrix(emb[:1], emb[1:])[0]
            ok = {r for r, s in zip(rels, sims) if float(s) >= self.relation_sim}
            for i in rest:
                same[i] = ctx[i].relation in ok
        return same

    def detect(self, item: AlignmentInput) -> DetectorOutput:
        """Score 1 when a claim triple contradicts a context fact; per-node support."""
        ctx_triples = _facts(item.context_graph.triples)
        spans = _line_spans(item.contexts)
        support: dict[str, NodeSupport] = {}
        contradicted = checked = 0
        for claim in item.claim_graph.triples:
            cands = [t for t in ctx_triples if _same_entity(claim.subject.text, t.subject.text)]
            if not cands:
                continue
            cands = [t for t, ok in zip(cands, self._relation_match(item, claim, cands)) if ok
                     and _comparable(claim.object.text, t.object.text)]
            if not cands:
                continue
            checked += 1
            if any(_same_object(claim.object.text, t.object.text) for t in cands):
                continue
            contradicted += 1
            ev = cands[0]
            sentence = f"{ev.subject.text} {ev.relation} {ev.object.text}."
            support[claim.object.id] = NodeSupport(
                node_id=claim.object.id, support=0.0,
                evidence=f"{sentence} <{ev.subject.id}> {ev.relation!r} <{ev.object.id}>",
                evidence_span=spans.get(sentence),
            )
        nodes = tuple(support.get(n.id) or NodeSupport(node_id=n.id, support=1.0)
                      for n in item.claim_graph.nodes)
        score = 1.0 if contradicted else 0.0
        return DetectorOutput(name=self.name, score=float(np.clip(score, 0.0, 1.0)), node_support=nodes,
                              details={"checked": checked, "contradicted": contradicted})
