"""Contrastive explanations after KEA Explain (Section "Explanation generation").

For an answer the guard flagged, :class:`KEAExplainer` builds, without an LLM:

1. **contradictory triple pairs**: a claim triple and a context triple (from the whole
   context graph, before relation selection) where two of subject / relation / object
   are similar (label cosine >= ``similarity`` or identical labels) and the third is
   not, e.g. ("apple", "be founded in", "1999") vs ("apple", "be founded in", "1976");
2. **edit operations** (KEA Explain's simplified graph edit distance, Algorithm 1):
   ``remove_edge`` for every unsupported claim triple, ``add_edge`` for its evidence
   triple, ``relabel_node`` for the differing node of a contradiction;
3. **one contrastive sentence per flagged node**, e.g. "the answer says Apple was
   founded in 1999; the context says 1976", or "the answer mentions 'Tom Hanks', which
   the context does not mention".

KEA Explain hands the pairs and edits to an LLM for the final wording; here templates
word them, so explanations are deterministic and free.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from guardrail.align.encoder import TextEncoder, cosine_matrix
from guardrail.align.relations import match_triples
from guardrail.detectors.base import AlignmentInput
from guardrail.errors import InvalidInputError
from guardrail.explain.base import Explainer
from guardrail.text.lexical import numbers_in
from guardrail.text.sentences import split_sentences
from guardrail.types import (
    ContradictionPair,
    DetectorOutput,
    EditOperation,
    Explanation,
    FlaggedNode,
    Node,
    Triple,
)

__all__ = ["KEAExplainer", "find_contradictions", "edit_operations", "triple_support", "MAX_EVIDENCE_LOOKUPS"]

_ELEMENTS = ("subject", "relation", "object")



def _part(t: Triple, k: int) -> str:
    """Subject label (0), relation (1) or object label (2) of ``t``."""
    return (t.subject.label, t.relation, t.object.label)[k]

def _element_sims(
    claim: Sequence[Triple], context: Sequence[Triple], encoder: TextEncoder
) -> np.ndarray:
    """Similarity of each element, shape ``(3, len(claim), len(context))``.

    All element labels of both sides go to the encoder in one batch.
    """
    sides = [([_part(t, k) for t in claim], [_part(t, k) for t in context]) for k in range(3)]
    uniq = list(dict.fromkeys(x for a, b in sides for x in a + b))
    index = {x: i for i, x in enumerate(uniq)}
    emb = encoder.encode(uniq)
    out = np.zeros((3, len(claim), len(context)))
    for k, (a, b) in enumerate(sides):
        sims = cosine_matrix(emb[[index[x] for x in a]], emb[[index[y] for y in b]])
        same = np.array([[x == y for y in b] for x in a], dtype=bool).reshape(len(a), len(b))
        out[k] = np.where(same, 1.0, sims)
        if k != 1:  # nodes whose numbers differ are never similar
            na, nb = [numbers_in(x) for x in a], [numbers_in(y) for y in b]
            clash = np.array([[bool(x and y and x != y) for y in nb] for x in na], dtype=bool)
            out[k] = np.where(clash.reshape(len(a), len(b)), np.minimum(out[k], 0.0), out[k])
    return out


def _node_at(t: Triple, k: int) -> Node:
    return t.subject if k == 0 else t.object


def _alike(t: Triple, context: Sequence[Triple], k: int) -> np.ndarray:
    """Which context triples have, as element ``k`` (0 subject, 2 object), a node of the same
    kind as ``t``'s (both hold a number, or the same entity kind)."""
    a = _node_at(t, k)
    num_a = bool(numbers_in(a.label))
    return np.array([(num_a and bool(numbers_in(_node_at(c, k).label))) or
                     (not num_a and _node_at(c, k).kind == a.kind) for c in context], dtype=bool)


#: At most this many context triples are embedded per explanation (the ones sharing
#: most words with the claim triples); keeps long contexts fast.
MAX_CANDIDATES = 24
#: Unsupported claim triples (beyond those in a contradiction pair) that get their closest
#: context triple looked up as evidence; each lookup embeds a shortlist of the context, so a
#: long answer against a long context would otherwise spend seconds here (issue 8's bar).
MAX_EVIDENCE_LOOKUPS = 8


def _words(t: Triple) -> set[str]:
    return {w for x in (t.subject.label, t.relation, t.object.label) for w in x.split()}


def _candidates(claim: Sequence[Triple], context: Sequence[Triple]) -> list[Triple]:
    """Context triples sharing a word with some claim triple, most shared first.

    Two of three elements must be similar for a contradiction, so a context triple that
    shares no word with any claim triple rarely forms one; dropping those before
    embedding keeps the explanation's cost flat in the context length.
    """
    cw = [_words(t) for t in claim]
    scored = []
    for j, t in enumerate(context):
        w = _words(t)
        overlap = max(len(w & c) for c in cw)
        if overlap:
            scored.append((-overlap, j))
    scored.sort()
    return [context[j] for _, j in scored[:MAX_CANDIDATES]]


def find_contradictions(
    claim: Sequence[Triple],
    context: Sequence[Triple],
    encoder: TextEncoder,
    similarity: float = 0.7,
) -> list[ContradictionPair]:
    """Claim/context triple pairs that agree on two elements and differ on the third.

    Parameters
    ----------
    claim, context : sequence of Triple
        Triples of the claim graph and of the (full) context graph.
    encoder : TextEncoder
        Embeds the element labels.
    similarity : float
        Cosine at or above which two elements count as similar (identical labels always do).

    Returns
    -------
    list of ContradictionPair
        At most one pair per claim triple (the one whose two agreeing elements are most
        similar), in claim order; empty when either side has no triple.
    """
    if not claim or not context:
        return []
    context = _candidates(claim, context)
    if not context:
        return []
    sims = _element_sims(claim, context, encoder)
    ok = sims >= similarity
    pairs: list[ContradictionPair] = []
    for i, t in enumerate(claim):
        if (ok[0, i] & ok[1, i] & ok[2, i]).any():
            continue  # the context states this very triple: nothing to contradict
        best: tuple[float, int, int] | None = None
        for k in range(3):
            others = [m for m in range(3) if m != k]
            cand = ok[others[0], i] & ok[others[1], i] & ~ok[k, i]
            if not cand.any():
                continue
            if k != 1:  # a date is contradicted by a date, a place by a place
                alike = cand & _alike(t, context, k)
                cand = alike if alike.any() else cand
            agree = np.where(cand, (sims[others[0], i] + sims[others[1], i]) / 2.0, -np.inf)
            j = int(np.argmax(agree))
            if best is None or agree[j] > best[0] or (agree[j] == best[0] and k == 2):
                best = (float(agree[j]), j, k)
        if best is not None:
            score, j, k = best
            pairs.append(ContradictionPair(
                claim=t, evidence=context[j], differs=_ELEMENTS[k],  # type: ignore[arg-type]
                similarity=float(min(1.0, max(-1.0, score))),
            ))
    return pairs


def edit_operations(
    unsupported: Sequence[Triple],
    evidence: dict[int, Triple],
    contradictions: Sequence[ContradictionPair],
) -> list[EditOperation]:
    """KEA Explain's simplified graph edit sequence from the claim graph to the evidence.

    Parameters
    ----------
    unsupported : sequence of Triple
        Claim triples the context does not support.
    evidence : dict of int to Triple
        Evidence triple per index into ``unsupported`` (when one was found).
    contradictions : sequence of ContradictionPair
        Contradictions; each adds a ``relabel_node`` of its differing node.

    Returns
    -------
    list of EditOperation
        ``remove_edge`` / ``add_edge`` pairs in claim order, then the relabellings.
    """
    ops: list[EditOperation] = []
    for i, t in enumerate(unsupported):
        ops.append(EditOperation(op="remove_edge", triple=t))
        if i in evidence:
            ops.append(EditOperation(op="add_edge", triple=evidence[i]))
    for c in contradictions:
        if c.differs == "subject":
            ops.append(EditOperation(op="relabel_node", node=c.claim.subject.text, to=c.evidence.subject.text))
        elif c.differs == "object":
            ops.append(EditOperation(op="relabel_node", node=c.claim.object.text, to=c.evidence.object.text))
    return ops


def _clause(item: AlignmentInput, t: Triple) -> str:
    if t.span is not None and t.span.source == -1:
        text = " ".join(t.span.slice(item.answer).split()).rstrip(" .!?;,")
        if text:
            return text
    return f"{t.subject.text} {t.relation} {t.object.text}"


def _differing(pair: ContradictionPair) -> tuple[str, str]:
    """(claim node id, evidence text) of the differing element."""
    if pair.differs == "subject":
        return pair.claim.subject.id, pair.evidence.subject.text
    if pair.differs == "object":
        return pair.claim.object.id, pair.evidence.object.text
    return "", pair.evidence.relation


def triple_support(
    claim: Sequence[Triple], outputs: Sequence[DetectorOutput]
) -> list[float] | None:
    """Support in ``[0, 1]`` of each claim triple, from whichever detector reports it.

    The first output whose ``details["triple_support"]`` has one value per claim triple
    is used (``grounding``, ``relation``, or any custom detector); failing that, a
    triple's support is the lower of its end nodes' supports, averaged over the outputs
    that report ``node_support`` for them.

    Parameters
    ----------
    claim : sequence of Triple
        The answer's triples.
    outputs : sequence of DetectorOutput
        The detectors' outputs for the answer.

    Returns
    -------
    list of float or None
        One value per claim triple, or None when no output carries support.
    """
    for o in outputs:
        ts = o.details.get("triple_support") if isinstance(o.details, dict) else None
        if isinstance(ts, (list, tuple)) and len(ts) == len(claim):
            return [float(x) for x in ts]
    per_output = [{s.node_id: s.support for s in o.node_support} for o in outputs if o.node_support]
    if not per_output or not claim:
        return None
    out: list[float] = []
    for t in claim:
        vals = [min(m[t.subject.id], m[t.object.id]) for m in per_output
                if t.subject.id in m and t.object.id in m]
        if not vals:
            return None
        out.append(sum(vals) / len(vals))
    return out


class KEAExplainer(Explainer):
    """Template-based KEA Explain: contradictions, edit operations, contrastive sentences.

    Parameters
    ----------
    similarity : float
        Element cosine at or above which two triple elements count as similar (default 0.7).
    support_threshold : float
        Claim triples whose support (see :func:`triple_support`: a detector's
        ``details["triple_support"]``, else its node support) is below this are
        unsupported (default 0.5).

    Notes
    -----
    Work is only done for flagged answers; a passed answer gets a one-line summary.
    """

    name = "kea"

    def __init__(self, similarity: float = 0.7, support_threshold: float = 0.5) -> None:
        if not -1.0 <= similarity <= 1.0:
            raise InvalidInputError(f"similarity must be in [-1, 1], got {similarity!r}")
        self.similarity = similarity
        self.support_threshold = support_threshold

    def explain(
        self,
        item: AlignmentInput,
        outputs: Sequence[DetectorOutput],
        flagged: Sequence[FlaggedNode],
    ) -> tuple[Explanation, tuple[FlaggedNode, ...]]:
        """Explain the verdict; see :meth:`guardrail.explain.base.Explainer.explain`."""
        if not flagged:
            return Explanation(summary="Every answer node is supported by the context."), ()
        claim = item.claim_graph.triples
        pairs = find_contradictions(claim, item.context_graph.triples, item.encoder, self.similarity)
        unsupported = self._unsupported(claim, outputs, pairs)
        evidence = self._evidence(item, unsupported, pairs)
        edits = edit_operations(unsupported, evidence, pairs)
        by_node: dict[str, tuple[ContradictionPair, str]] = {}
        for p in pairs:
            nid, ev = _differing(p)
            if nid:
                by_node.setdefault(nid, (p, ev))
        spans = split_sentences(item.answer)  # once: every flagged node's sentence and the summary
        out = tuple(f.model_copy(update={"reason": self._sentence(item, f, by_node, spans)}) for f in flagged)
        names = ", ".join(f"'{f.text}'" for f in out[:5]) + (" ..." if len(out) > 5 else "")
        summary = f"{len(out)} answer node(s) not supported by the context: {names}."
        if pairs:
            n = _sentences_of(item.answer, [p.claim for p in pairs], spans)
            summary += f" {n} answer sentence{'s' if n != 1 else ''} contradict{'' if n != 1 else 's'} the context."
        return Explanation(summary=summary, sentences=tuple(f.reason for f in out),
                           contradictions=tuple(pairs), edits=tuple(edits)), out

    def _unsupported(
        self, claim: tuple[Triple, ...], outputs: Sequence[DetectorOutput],
        pairs: Sequence[ContradictionPair],
    ) -> list[Triple]:
        contradicted = [p.claim for p in pairs]
        support = triple_support(claim, outputs)
        if support is not None:
            return [t for t, s in zip(claim, support) if s < self.support_threshold or t in contradicted]
        return [p.claim for p in pairs]

    @staticmethod
    def _evidence(
        item: AlignmentInput, unsupported: list[Triple], pairs: Sequence[ContradictionPair]
    ) -> dict[int, Triple]:
        out: dict[int, Triple] = {}
        for i, t in enumerate(unsupported):
            ev = next((p.evidence for p in pairs if p.claim == t), None)
            if ev is not None:
                out[i] = ev
        rest = [i for i in range(len(unsupported)) if i not in out][:MAX_EVIDENCE_LOOKUPS]  # latency bound
        found = match_triples([unsupported[i] for i in rest], item.context_graph, item.encoder)
        out.update((i, t) for i, t in zip(rest, found) if t is not None)
        return out

    @staticmethod
    def _sentence(
        item: AlignmentInput, f: FlaggedNode, by_node: dict[str, tuple[ContradictionPair, str]],
        spans: list[tuple[int, int]],
    ) -> str:
        if f.node_id in by_node:
            pair, ev = by_node[f.node_id]
            return f"the answer says {_clause(item, pair.claim)}; the context says {ev}"
        claim = _claim_sentence(item.answer, f, spans)
        if f.evidence:
            return (f"the answer's claim '{claim}' is not supported by the context at '{f.text}'; "
                    f"the closest context evidence is '{f.evidence}'")
        return f"the answer's claim '{claim}' mentions '{f.text}', which the context does not mention"


def _claim_sentence(answer: str, f: FlaggedNode, spans: list[tuple[int, int]]) -> str:
    """The answer sentence holding the flagged node (the unsupported claim), else the node;
    ``spans`` are the answer's sentences (:func:`~guardrail.text.sentences.split_sentences`)."""
    if f.span is None:
        return f.text
    for s, e in spans:
        if s <= f.span.start < e:
            return answer[s:e]
    return f.text


def _sentences_of(answer: str, triples: Sequence[Triple], spans: list[tuple[int, int]] | None = None) -> int:
    """How many answer sentences hold at least one of ``triples`` (one sentence may hold
    several contradicted triples: "founded in 1999 by Bill Gates" is one sentence); ``spans``:
    the answer's sentences when already split."""
    spans = split_sentences(answer) if spans is None else spans
    hit: set[int] = set()
    for t in triples:
        span = t.span or t.subject.span
        pos = span.start if span is not None else -1
        hit.add(next((k for k, (s, e) in enumerate(spans) if s <= pos < e), -1))
    return max(1, len(hit))
