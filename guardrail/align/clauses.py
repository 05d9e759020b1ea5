"""Who did what to whom, and who holds which title, in a parsed sentence.

The knowledge-graph role checks (:mod:`guardrail.detectors.kg_roles`) compare the parties
of a claim's relations with the context's. This module reads them from spaCy's dependency
parse (:class:`~guardrail.align.parsed.Sent`):

* :func:`svo_triples`: ``(subject, predicate, object)`` of each clause in active voice (a
  passive's agent is its subject), with a relative pronoun read as the noun its clause
  modifies, a participle's noun as its argument, a missing subject taken from the governing
  verb ("agreed to acquire", "..., defeating X"), an object named by its apposition ("the
  midfielder Rafael Costa") and coordinated parties expanded; of two objects the name ("fined
  Greenleaf Dairy £40,000"), a proper noun parsed as an adverbial noun as the object ("beat
  Arsenal 2-1"), and the name after a preposition as the party of the verbs of
  :data:`~guardrail.text.lexicon.PARTY_PREPOSITIONS`, read the right way round ("Ardwyn gets
  lenses from Halcott" is Halcott supplying Ardwyn, "Tanaka lost to Kowalczyk" Kowalczyk beating
  Tanaka);
* :func:`same_relation`: two predicates that state one relation (the same lemma, or one
  group of :data:`~guardrail.text.lexicon.VERB_SYNONYMS`);
* :func:`role_bindings`: a name bound to a title ("Maria Lopez is the chief executive of
  Brightwave", "Brightwave's chief executive, Maria Lopez", "CEO Maria Lopez").

References
----------
HalluGraph (004): relation preservation, a claim triple keeps its context triple's direction;
KEA Explain (000): triples as the unit of comparison.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from guardrail.align.parsed import Sent, Slot
from guardrail.text.lexicon import PARTY_PREPOSITIONS, RELATIVE_PRONOUNS, VERB_SYNONYMS

__all__ = ["Arg", "Triple", "Binding", "svo_triples", "same_relation", "role_bindings"]

_SUBJ = frozenset({"nsubj"})
_OBJ = frozenset({"dobj", "nsubjpass"})
#: Clauses whose missing subject is their governing verb's ("agreed to acquire", "defeating",
#: "bought X and sold Y").
_INHERIT = frozenset({"xcomp", "advcl", "conj"})
_SYNONYM_OF = {v: i for i, group in enumerate(VERB_SYNONYMS) for v in group}


class Arg(NamedTuple):
    """One party of a clause: its ``key`` (a name's lower-cased words, else the head lemma), its
    character span in the sentence and its ``kind`` (the name's label, ``""`` for a plain noun)."""

    key: frozenset[str]
    start: int
    end: int
    kind: str


class Triple(NamedTuple):
    """``(subject, predicate, object)`` of a clause in active voice; the predicate is the verb's
    lemma with its particle ("set up"); ``inherited`` when the subject is the governing verb's
    ("..., replacing X": a guess, right for "agreed to acquire", wrong for some participles);
    ``asserted`` unless the clause is negated ("did not acquire") or modal ("could have won")."""

    subj: Arg
    pred: str
    obj: Arg
    inherited: bool = False
    asserted: bool = True


def _kids(sent: Sent, i: int) -> list[int]:
    return [j for j, c in enumerate(sent.toks) if c.head == i and j != i]


def _arg(sent: Sent, i: int) -> Arg:
    """The argument headed by token ``i``: the name slot over it, else the name its apposition
    gives ("the midfielder Rafael Costa"), else its lemma."""
    for k in [i] + [j for j in _kids(sent, i) if sent.toks[j].dep == "appos"]:
        for sl in sent.slots:
            if sl.toks[0] <= k < sl.toks[1] and sl.kind not in ("NUM", "DATE", "TIME"):
                return Arg(sl.keys, sl.start, sl.end, sl.kind)
    t = sent.toks[i]
    return Arg(frozenset({t.lemma}), t.start, t.end, "")


def _is_name(sent: Sent, i: int) -> bool:
    """Whether token ``i`` is inside a name slot (not a number, date or time)."""
    return any(sl.toks[0] <= i < sl.toks[1] and sl.kind not in ("NUM", "DATE", "TIME") for sl in sent.slots)


def _own(sent: Sent, v: int) -> tuple[int | None, int | None]:
    """Subject and object tokens of verb ``v`` in active voice (a passive's agent is its subject).

    Of two objects ("fined Greenleaf Dairy £40,000") the name is the object; a proper noun the
    parser attached to the verb as an adverbial noun ("beat Arsenal 2-1": ``npadvmod``) is the
    object of a verb without one."""
    subj = None
    objs: list[int] = []
    loose: list[int] = []
    for j in _kids(sent, v):
        c = sent.toks[j]
        if c.dep in _SUBJ:
            subj = j
        elif c.dep in _OBJ:
            objs.append(j)
        elif c.dep == "agent":
            subj = next((k for k in _kids(sent, j) if sent.toks[k].dep == "pobj"), subj)
        elif c.dep == "npadvmod" and c.pos == "PROPN" and j == v + 1:
            loose.append(j)
    named = [j for j in objs if _is_name(sent, j)]
    found = named or objs or loose
    return subj, (found[0] if found else None)


def _clause_args(sent: Sent, v: int) -> tuple[int | None, int | None, bool]:
    """``_own`` with a relative pronoun read as the noun its clause modifies ("Google, which
    acquired YouTube"), a participle's noun as its argument ("Krøll, acquired by Nordvik"), and a
    missing subject taken from the governing verb (at most three steps up)."""
    subj, obj = _own(sent, v)
    tok = sent.toks[v]
    if tok.dep in ("relcl", "acl") and tok.head != v:
        noun = tok.head
        subj = noun if subj is not None and sent.toks[subj].text.lower() in RELATIVE_PRONOUNS else subj
        obj = noun if obj is not None and sent.toks[obj].text.lower() in RELATIVE_PRONOUNS else obj
        if tok.dep == "acl" and obj is None and subj is not None:  # "the startup acquired by Google"
            obj = noun
    u, inherited = v, subj is None
    for _ in range(3):
        if subj is not None or sent.toks[u].dep not in _INHERIT or sent.toks[u].head == u:
            break
        u = sent.toks[u].head
        subj = _own(sent, u)[0]
    return subj, obj, inherited


def _conjuncts(sent: Sent, i: int) -> list[int]:
    """``i``, the names in apposition to it and the tokens coordinated with either ("Hurley, Chen
    and Karim", "former teachers Will Osei and Beth Marland")."""
    out = [i] + [j for j in _kids(sent, i) if sent.toks[j].dep == "appos" and _is_name(sent, j)]
    todo = list(out)
    while todo and len(out) < 8:
        todo = [j for k in todo for j in _kids(sent, k) if sent.toks[j].dep == "conj" and j not in out]
        out += todo
    return out


def _predicate(sent: Sent, v: int) -> str:
    """The verb's lemma with its particle ("set up", "take over")."""
    prt = [sent.toks[j].text.lower() for j in _kids(sent, v) if sent.toks[j].dep == "prt"]
    return " ".join([sent.toks[v].lemma, *prt[:1]])


def same_relation(a: str, b: str) -> bool:
    """Whether two predicates state one relation.

    Parameters
    ----------
    a, b : str
        Predicates as :attr:`Triple.pred` writes them (lower-cased lemma, a particle after a
        space: "acquire", "take over").

    Returns
    -------
    bool
        The same predicate, or two of one group of :data:`~guardrail.text.lexicon.VERB_SYNONYMS`.

    Examples
    --------
    >>> same_relation("acquire", "take over"), same_relation("acquire", "sell")
    (True, False)
    """
    return a == b or (a in _SYNONYM_OF and _SYNONYM_OF[a] == _SYNONYM_OF.get(b))


#: Auxiliaries that make a clause a possibility, not a fact ("could have claimed the win").
_MODALS = frozenset({"could", "would", "might", "may", "should"})


def _asserted(sent: Sent, v: int) -> bool:
    """Whether verb ``v``'s clause states a fact: not negated ("did not acquire") nor modal."""
    return not any(sent.toks[j].dep == "neg" or (sent.toks[j].dep == "aux" and sent.toks[j].text.lower() in _MODALS)
                   for j in _kids(sent, v))


def svo_triples(sent: Sent) -> Iterator[Triple]:
    """The triples of the clauses of ``sent`` (see the module docstring).

    Parameters
    ----------
    sent : Sent
        One parsed sentence (:func:`~guardrail.align.text_parses.parse_sentences`; names-only parses do).

    Yields
    ------
    Triple
        In active voice (a passive's agent is its subject, its passive subject the object), one
        per pair of coordinated subjects and objects, in token order; a clause without both
        parties yields none. Only subjects that are names, nouns or pronouns (keyed by their
        lemma, "she") are kept. Spans are character offsets into ``sent.text``.
    """
    for v, tok in enumerate(sent.toks):
        if tok.pos not in ("VERB", "AUX"):
            continue
        subj, obj, inherited = _clause_args(sent, v)
        if subj is None:
            continue
        pred, obj, inverse = _party_after_preposition(sent, v, _predicate(sent, v), obj)
        if obj is None:
            continue
        for si in _conjuncts(sent, subj):
            if sent.toks[si].pos not in ("PROPN", "NOUN", "PRON"):
                continue
            for oi in _conjuncts(sent, obj):
                a, b = _arg(sent, si), _arg(sent, oi)
                yield Triple(*((b, pred, a) if inverse else (a, pred, b)), inherited, _asserted(sent, v))


def _party_after_preposition(sent: Sent, v: int, pred: str, obj: int | None) -> tuple[str, int | None, bool]:
    """``(relation, object, inverse)``: a verb of :data:`~guardrail.text.lexicon.PARTY_PREPOSITIONS`
    without a named object takes the name after its preposition as its party ("supplies lenses to
    Ardwyn": Ardwyn), the relation that table gives and whether the parties are the other way round."""
    if obj is not None and _is_name(sent, obj):
        return pred, obj, False
    for p in _kids(sent, v) + (_kids(sent, obj) if obj is not None else []):  # "supplies [lenses to X]"
        rule = PARTY_PREPOSITIONS.get(f"{pred} {sent.toks[p].text.lower()}")
        if rule is None or sent.toks[p].dep not in ("prep", "dative"):
            continue
        party = next((k for k in _kids(sent, p) if sent.toks[k].dep == "pobj" and _is_name(sent, k)), None)
        if party is not None:
            return rule[0], party, rule[1]
    return pred, obj, False


class Binding(NamedTuple):
    """A name bound to a title: ``slot`` holds the ``title`` (content lemmas of the title noun
    phrase, "chief executive" -> ``{"chief", "executive"}``, written ``text``) of ``of`` (the name
    keys of its "of" / possessive organisation, empty when none is said)."""

    slot: Slot
    title: frozenset[str]
    of: frozenset[str]
    text: str


_COPULAS = frozenset({"be", "become", "remain"})
_TITLE_MODS = frozenset({"amod", "compound"})


def _name_at(sent: Sent, i: int) -> Slot | None:
    """The name slot (a person or organisation) over token ``i``."""
    return next((sl for sl in sent.slots if sl.toks[0] <= i < sl.toks[1] and sl.kind in ("PERSON", "ORG")), None)


def _title(sent: Sent, n: int) -> tuple[frozenset[str], frozenset[str], str] | None:
    """``(title lemmas, organisation keys, title text)`` of a singular title noun ``n`` that is not
    a name nor a shared title ("co-founder")."""
    tok = sent.toks[n]
    if (tok.pos not in ("NOUN", "PROPN") or not tok.text.isalpha() or _name_at(sent, n) is not None
            or tok.text.lower() != tok.lemma or sent.text[max(0, tok.start - 3):tok.start].lower() == "co-"):
        return None
    kids = _kids(sent, n)
    at = [n] + [j for j in kids if sent.toks[j].dep in _TITLE_MODS and sent.toks[j].text.isalpha()
                and _name_at(sent, j) is None]
    words = {sent.toks[j].lemma for j in at}
    org: frozenset[str] = frozenset()
    for j in kids:
        if sent.toks[j].dep == "poss" and (sl := _name_at(sent, j)) is not None:
            org = sl.keys
        elif sent.toks[j].dep == "prep" and sent.toks[j].lemma == "of":
            obj = next((k for k in _kids(sent, j) if sent.toks[k].dep == "pobj"), None)
            if obj is not None and (sl := _name_at(sent, obj)) is not None:
                org = sl.keys
    return frozenset(words), org, " ".join(sent.toks[j].text for j in sorted(at))


def role_bindings(sent: Sent) -> Iterator[Binding]:
    """Names bound to a singular title in ``sent``.

    Parameters
    ----------
    sent : Sent
        One parsed sentence.

    Yields
    ------
    Binding
        A person or organisation bound by a copula ("X is / became the chief executive of Y",
        "The founder is X"), an apposition ("Y's chief executive, X" / "X, the chief
        executive") or a title before the name ("CEO X"). A plural, non-alphabetic or shared
        ("co-founder") title binds no one.
    """
    for i, tok in enumerate(sent.toks):
        pairs: list[tuple[int, int]] = []
        if tok.lemma in _COPULAS:
            subj = next((j for j in _kids(sent, i) if sent.toks[j].dep == "nsubj"), None)
            attr = next((j for j in _kids(sent, i) if sent.toks[j].dep == "attr"), None)
            if subj is not None and attr is not None:
                pairs += [(subj, attr), (attr, subj)]
        elif tok.dep == "appos" and tok.head != i:
            pairs += [(i, tok.head), (tok.head, i)]
        elif tok.dep == "compound" and _name_at(sent, i) is None and _name_at(sent, tok.head) is not None:
            pairs.append((tok.head, i))
        for name, noun in pairs:
            slot, title = _name_at(sent, name), _title(sent, noun)
            if slot is not None and title is not None:
                yield Binding(slot, *title)
