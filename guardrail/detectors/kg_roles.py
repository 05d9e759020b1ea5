"""Role check (``"kg_roles"``): the right names and values, bound to the wrong things.

Role errors pass every check that only asks whether a name occurs in the context, because
every name of the claim does. The clauses are read with :mod:`guardrail.align.clauses`
(active voice, relative clauses, participles, inherited subjects, appositions, coordinated
parties, synonym predicates):

* **exchanged parties**: one relation with subject and object exchanged ("YouTube acquired
  Google", "Google was bought by YouTube" where the evidence says "Google acquired YouTube";
  "Ardwyn supplies lenses to Halcott" where Ardwyn gets its lenses from Halcott);
  a relation that holds both ways ("married", :data:`~guardrail.text.lexicon.SYMMETRIC_VERBS`)
  is never flagged;
* **a rival party**: the context gives the claim's subject the claim's relation with another
  name of the object's kind, and never with the claim's ("Chad Hurley founded Google" where he
  founded YouTube; "Steve Jobs founded YouTube" where the context names its founders), read only
  from context clauses whose subject is their own, and never where a context clause with a pronoun
  for one party may state the claim ("In 1911 she won the Nobel Prize in Chemistry");
* **a title held by another name**: the claim gives a name a title ("Tom Reed is the chief
  executive") that the context gives another name of its kind, while it gives the claim's name
  only other titles (Tom Reed is the chief technology officer); a shared title ("co-founder")
  binds no one;
* **a moved attribute** (``moved=True`` only): a value or a rare word tied to a name in the claim
  (within its role, :func:`~guardrail.align.parsed.anchors`) that the context ties only to
  *another* name of the same type it also names ("Tamber Ventures ... put in $3 million" where
  the context says Midvale Grain invested $3 million and names Tamber Ventures as an existing
  investor).

A binding the context also states for the claim's own name is never flagged, and a context
that ties the attribute to no name (a pronoun) is read as silence. The first three rules flag
at confidence 0.9 and make the registry row ``kg_exchanged``, which the shipped default vetoes
on: on the claims train contexts they flagged none of 2,912 supported claims (and 10 of 2,912
unsupported ones: few, but each flag is a contradiction a user can read).

References
----------
HalluGraph: relation preservation (a claim triple must keep its context triple's
direction); KEA Explain: contradictory triple pairs that differ in one element.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from guardrail.align.clauses import Binding, Triple, role_bindings, same_relation, svo_triples
from guardrail.align.parsed import Sent, Slot, anchors, slot_marks
from guardrail.align.text_parses import parse_sentences
from guardrail.detectors._params import validated
from guardrail.detectors.base import AlignmentInput
from guardrail.detectors.kg_base import Flag, KGCheckDetector, flag_for
from guardrail.detectors.kg_values import same_value
from guardrail.text.lexicon import NEUTER_PRONOUNS, PERSONAL_PRONOUNS, PLURAL_PRONOUNS, SYMMETRIC_VERBS
from guardrail.types import DetectorOutput

__all__ = ["RoleSwapDetector"]

_PLACE = frozenset({"GPE", "LOC", "FAC"})


def _same(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a and b) and (a <= b or b <= a)


def _names(sents: Sequence[Sent]) -> Iterator[tuple[Sent, Slot]]:
    for s in sents:
        for sl in s.slots:
            if sl.kind not in ("NUM", "DATE", "TIME"):
                yield s, sl


_PRONOUNS = PERSONAL_PRONOUNS | NEUTER_PRONOUNS | PLURAL_PRONOUNS


def _context_triples(context: Sequence[Sent]) -> list[tuple[Sent, Triple]]:
    """Every context clause's triple with its sentence, relations that hold both ways left out."""
    return [(s, t) for s in context for t in svo_triples(s) if t.pred.split()[0] not in SYMMETRIC_VERBS]


def _context_bindings(context: Sequence[Sent]) -> list[tuple[Sent, Binding]]:
    """Every title binding of the context with its sentence."""
    return [(s, b) for s in context for b in role_bindings(s)]


def _maybe_kept(t: Triple, rel: Sequence[tuple[Sent, Triple]]) -> bool:
    """Whether a context clause of the relation may state the claim with a pronoun for one party
    ("In 1911 she won the Nobel Prize in Chemistry"): no rival is read then."""
    return any((c.subj.key <= _PRONOUNS and _same(t.obj.key, c.obj.key))
               or (c.obj.key <= _PRONOUNS and _same(t.subj.key, c.subj.key)) for _, c in rel)


def _rival(claim: Sent, t: Triple, rel: Sequence[tuple[Sent, Triple]]) -> list[Flag]:
    """The claim's named object (subject) where the context gives the same subject (object) the same
    relation with another name of its kind, and never with this one ("Chad Hurley founded Google"
    where he founded YouTube)."""
    for mine, other, side in ((t.obj, t.subj, "obj"), (t.subj, t.obj, "subj")):
        if not mine.kind:
            continue
        rivals = [(s, c) for s, c in rel if not c.inherited
                  and _same(other.key, (c.subj if side == "obj" else c.obj).key)
                  and (r := c.obj if side == "obj" else c.subj).kind == mine.kind and not _same(r.key, mine.key)]
        if rivals:
            s, c = rivals[0]
            r = c.obj if side == "obj" else c.subj
            reason = (f"the answer ties '{claim.text[mine.start:mine.end]}' to "
                      f"'{claim.text[other.start:other.end]}' by '{t.pred}', but the context gives that "
                      f"place to '{s.text[r.start:r.end]}': '{s.text}'")
            return [flag_for(claim, mine.start, mine.end, reason, s, 0.9)]
    return []


def _same_title(a: Binding, b: Binding) -> bool:
    """One title of one organisation (an organisation said on one side only is not a difference)."""
    return a.title == b.title and (not a.of or not b.of or _same(a.of, b.of))


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
    """Exchanged parties, a rival party, a title held by another name, or an attribute moved to
    another named entity (see the module docstring).

    Parameters
    ----------
    evidence_words : int
        Word budget of each claim's aligned evidence (default 80).
    name : str or None
        The registry row's name.
    moved : bool
        Also look for moved attributes (default True). The shipped default vetoes on this
        check's other rules only (confidence 0.9, ``veto`` limit 0.85): the registry row
        ``kg_exchanged`` is this check with ``moved=False``. On the claims train contexts (2,912
        supported and 2,912 unsupported claims) those rules flagged no supported claim; the
        moved-attribute rule flagged 32 supported ones (and 66 unsupported), too many for a veto.

    Raises
    ------
    InvalidInputError
        ``evidence_words`` below 10, or ``moved`` not a bool.
    """

    name = "kg_roles"
    _parameter_constraints = {**KGCheckDetector._parameter_constraints, "moved": [bool]}

    @validated
    def __init__(self, evidence_words: int = 80, name: str | None = None, moved: bool = True) -> None:
        super().__init__(evidence_words=evidence_words, name=name)
        self.moved = moved

    def detect(self, item: AlignmentInput) -> DetectorOutput:
        """As :meth:`KGCheckDetector.detect`; with ``moved=False`` only names are read (no date or
        number normalisation) and only the context sentences that share a word with a name or title
        of the answer are parsed: the three rules compare nothing else, so the verdict is the same."""
        if self.moved:
            return super().detect(item)
        claims = parse_sentences([item.answer], source_of=-1, values=False)
        words = {w for c in claims for sl in c.slots for w in sl.keys}
        words |= {w for c in claims for b in role_bindings(c) for w in b.title}
        words |= {w for c in claims for t in svo_triples(c) for w in t.subj.key | t.obj.key}
        words -= _PRONOUNS  # a pronoun party is never compared; its clause holds the other party's word
        if not words:
            return self.output(item, [], len(claims))
        # a lemma matches its inflections ("startup" / "startups"): no word boundary after it
        pattern = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, words))) + r")", re.I)
        context = parse_sentences(list(item.contexts), values=False, keep=lambda t: pattern.search(t) is not None)
        triples, bindings = _context_triples(context), _context_bindings(context)  # once, for every claim
        flags = [f for claim in claims for f in self._contradictions(claim, triples, bindings)]
        return self.output(item, flags, len(claims))

    def check_claim(self, claim: Sent, evidence: Sequence[Sent], context: Sequence[Sent]) -> list[Flag]:
        """Flags for exchanged or rival parties, titles and (``moved``) moved attributes of one claim."""
        flags = self._contradictions(claim, _context_triples(context), _context_bindings(context))
        if not self.moved:
            return flags
        done = {(f.start, f.end) for f in flags}
        for f in self._moved(claim, context):
            if (f.start, f.end) not in done:
                flags.append(f)
        return flags

    def _contradictions(self, claim: Sent, triples: Sequence[tuple[Sent, Triple]],
                        bindings: Sequence[tuple[Sent, Binding]]) -> list[Flag]:
        """The three veto rules' flags of one claim (one per answer span)."""
        flags = self._exchanged(claim, triples)
        done = {(f.start, f.end) for f in flags}
        return flags + [f for f in self._titles(claim, bindings) if (f.start, f.end) not in done]

    @staticmethod
    def _exchanged(claim: Sent, ctx: Sequence[tuple[Sent, Triple]]) -> list[Flag]:
        flags: list[Flag] = []
        seen: set[tuple[int, int]] = set()
        for t in svo_triples(claim):
            a, b = t.subj.start, t.subj.end
            if (not t.asserted or _same(t.subj.key, t.obj.key) or t.pred.split()[0] in SYMMETRIC_VERBS
                    or t.subj.key <= _PRONOUNS or t.obj.key <= _PRONOUNS or (a, b) in seen):
                continue
            rel = [(s, c) for s, c in ctx if same_relation(t.pred, c.pred)]
            # a negated or modal context clause keeps a claim ("would later found") but contradicts none
            kept = any(_same(t.subj.key, c.subj.key) and _same(t.obj.key, c.obj.key) for _, c in rel)
            rel = [(s, c) for s, c in rel if c.asserted]
            swapped = [s for s, c in rel if _same(t.obj.key, c.subj.key) and _same(t.subj.key, c.obj.key)
                       and not (c.subj.key <= _PRONOUNS or c.obj.key <= _PRONOUNS)]
            if swapped and not kept:
                reason = (f"the answer makes '{claim.text[a:b]}' the subject of "
                          f"'{t.pred}', but the context has the roles the other way round: '{swapped[0].text}'")
                flags.append(flag_for(claim, a, b, reason, swapped[0], 0.9))
                seen.add((a, b))
            elif not kept and not _maybe_kept(t, rel):
                flags += _rival(claim, t, rel)
        return flags

    @staticmethod
    def _titles(claim: Sent, ctx: Sequence[tuple[Sent, Binding]]) -> list[Flag]:
        """A title the claim gives a name that the context gives another name of its kind, while it
        gives the claim's name other titles only ("Tom Reed is the chief executive" where Maria
        Lopez is, and Tom Reed is the chief technology officer)."""
        flags = []
        for b in role_bindings(claim):
            own = [c for _, c in ctx if _same(b.slot.keys, c.slot.keys)]
            if not own or any(_same_title(b, c) for c in own):
                continue
            holders = [(s, c) for s, c in ctx if _same_title(b, c) and c.slot.kind == b.slot.kind
                       and not _same(b.slot.keys, c.slot.keys)]
            if holders:
                ev, c = holders[0]
                reason = (f"the answer gives '{b.slot.text}' the title '{b.text}', but the context "
                          f"gives it to '{c.slot.text}': '{ev.text}'")
                flags.append(flag_for(claim, b.slot.start, b.slot.end, reason, ev, 0.9))
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
