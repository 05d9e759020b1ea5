"""Role check (``"kg_roles"``): the right names and values, bound to the wrong things.

Two kinds of role error pass every check that only asks whether a name occurs in the
context, because every name of the claim does:

* **exchanged arguments**: the same predicate with subject and object exchanged ("B
  acquired A" where the evidence says "A acquired B"; passives are read as their active
  form, so "B was acquired by A" states "A acquired B");
* **a moved attribute**: a value or a rare word tied to a name in the claim (within its
  role, :func:`~guardrail.align.parsed.anchors`) that the context ties only to *another*
  name of the same type it also names ("Tamber Ventures ... put in $3 million" where the
  context says Midvale Grain invested $3 million and names Tamber Ventures as an
  existing investor; the CTO called CEO).

A binding the context also states for the claim's own name is never flagged, and a
context that ties the attribute to no name (a pronoun) is read as silence.

References
----------
HalluGraph: relation preservation (a claim triple must keep its context triple's
direction); KEA Explain: contradictory triple pairs that differ in one element.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from guardrail.align.parsed import Sent, Slot, anchors, slot_marks
from guardrail.detectors.kg_base import Flag, KGCheckDetector, flag_for
from guardrail.detectors.kg_values import same_value

__all__ = ["RoleSwapDetector", "svo_triples"]

_SUBJ = frozenset({"nsubj"})
_OBJ = frozenset({"dobj", "nsubjpass"})
_PLACE = frozenset({"GPE", "LOC", "FAC"})


def _arg(sent: Sent, i: int) -> tuple[frozenset[str], int, int]:
    """Key of the argument headed by token ``i``: the name slot over it, else its lemma."""
    for sl in sent.slots:
        if sl.toks[0] <= i < sl.toks[1] and sl.kind not in ("NUM", "DATE", "TIME"):
            return sl.keys, sl.start, sl.end
    t = sent.toks[i]
    return frozenset({t.lemma}), t.start, t.end


def svo_triples(sent: Sent) -> Iterator[tuple[frozenset[str], str, frozenset[str], tuple[int, int]]]:
    """``(subject key, verb lemma, object key, subject span)`` of each clause of ``sent``, in
    active voice (a passive's agent is its subject, its passive subject the object)."""
    for v, tok in enumerate(sent.toks):
        if tok.pos not in ("VERB", "AUX"):
            continue
        subj = obj = None
        for j, c in enumerate(sent.toks):
            if c.head != v or j == v:
                continue
            if c.dep in _SUBJ:
                subj = j
            elif c.dep in _OBJ:
                obj = j
            elif c.dep == "agent":
                subj = next((k for k, g in enumerate(sent.toks) if g.head == j and g.dep == "pobj"), subj)
        if subj is not None and obj is not None and sent.toks[subj].pos in ("PROPN", "NOUN"):
            s_key, s0, s1 = _arg(sent, subj)
            o_key, _, _ = _arg(sent, obj)
            yield s_key, tok.lemma, o_key, (s0, s1)


def _same(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a and b) and (a <= b or b <= a)


def _names(sents: Sequence[Sent]) -> Iterator[tuple[Sent, Slot]]:
    for s in sents:
        for sl in s.slots:
            if sl.kind not in ("NUM", "DATE", "TIME"):
                yield s, sl


def _kin(a: Slot, b: Slot) -> bool:
    return a.kind == b.kind or (a.kind in _PLACE and b.kind in _PLACE)


def _nearest(sent: Sent, mark: str, x: Slot) -> Slot | None:
    """The name of ``x``'s kind nearest (in tokens) to where ``mark`` occurs in ``sent``."""
    at = [sl.toks[0] for sl in sent.slots if mark in slot_marks(sl)]
    at += [i for i, t in enumerate(sent.toks) if mark == f"w:{t.lemma}"]
    names = [sl for sl in sent.slots if sl.kind not in ("NUM", "DATE", "TIME") and _kin(x, sl)]
    if not at or not names:
        return None
    return min(names, key=lambda sl: min(min(abs(sl.toks[0] - i), abs(sl.toks[1] - 1 - i)) for i in at))


class RoleSwapDetector(KGCheckDetector):
    """Exchanged subject and object, or an attribute moved to another named entity (see
    the module docstring).

    Parameters
    ----------
    evidence_words : int
        Word budget of each claim's aligned evidence (default 80).
    name : str or None
        The registry row's name.
    """

    name = "kg_roles"

    def check_claim(self, claim: Sent, evidence: Sequence[Sent], context: Sequence[Sent]) -> list[Flag]:
        """Flags for exchanged arguments and moved attributes of one claim."""
        flags = self._exchanged(claim, evidence, context)
        done = {(f.start, f.end) for f in flags}
        for f in self._moved(claim, context):
            if (f.start, f.end) not in done:
                flags.append(f)
        return flags

    @staticmethod
    def _exchanged(claim: Sent, evidence: Sequence[Sent], context: Sequence[Sent]) -> list[Flag]:
        flags = []
        ctx = [(s, t) for s in context for t in svo_triples(s)]
        for subj, verb, obj, (a, b) in svo_triples(claim):
            if _same(subj, obj):
                continue
            kept = any(v == verb and _same(subj, cs) and _same(obj, co) for _, (cs, v, co, _sp) in ctx)
            swapped = [s for s, (cs, v, co, _sp) in ctx if v == verb and _same(obj, cs) and _same(subj, co)]
            if swapped and not kept:
                ev = swapped[0]
                reason = (f"the answer makes '{claim.text[a:b]}' the subject of "
                          f"'{verb}', but the context has the roles the other way round: '{ev.text}'")
                flags.append(flag_for(claim, a, b, reason, ev, 0.9))
        return flags

    @staticmethod
    def _partners(claim: Sent, x: Slot, context: Sequence[Sent]) -> set[str]:
        """Values and rare words tied to ``x`` in the claim (rare: in at most two context sentences)."""
        out = set()
        for mark in anchors(claim, x):
            if mark.startswith(("n:", "d:", "t:")):
                out.add(mark)
            elif mark.startswith("w:") and mark[2:].isalpha() and sum(mark[2:] in s.lemmas() for s in context) in (1, 2):
                out.add(mark)
        return out

    def _moved(self, claim: Sent, context: Sequence[Sent]) -> list[Flag]:
        flags = []
        ctx_names = list(_names(context))
        for x in claim.slots:
            if x.kind in ("NUM", "DATE", "TIME") or not any(same_value(x, y) for _, y in ctx_names):
                continue
            moved: list[tuple[str, Sent, Slot]] = []
            kept = 0
            for p in self._partners(claim, x, context):
                for s, y in ctx_names:
                    if not _kin(x, y) or p not in anchors(s, y) or _nearest(s, p, x) is not y:
                        continue
                    if same_value(x, y) or same_value(y, x):
                        kept += 1
                    elif not any(same_value(y, o) or same_value(o, y) for o in claim.slots):
                        moved.append((p, s, y))
            values = [m for m in moved if not m[0].startswith("w:")]
            words = {m[0] for m in moved if m[0].startswith("w:")}
            if kept or not (values or len(words) >= 2):
                continue
            p, s, y = (values or moved)[0]
            what = p[2:] if p.startswith("w:") else next((sl.text for sl in s.slots if p in slot_marks(sl)), p[2:])
            reason = (f"the answer ties '{x.text}' to '{what}', but the context ties '{what}' to "
                      f"'{y.text}': '{s.text}'")
            flags.append(flag_for(claim, x.start, x.end, reason, s, 0.8 if values else 0.6))
        return flags
