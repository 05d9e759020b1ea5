"""Fact fetching: one- and two-hop facts of linked entities, and the graph built from them.

Hop 1 takes every fact whose subject or object is a linked entity; hop 2 takes the
outgoing facts of the entities reached in hop 1. Label, alias, description and type
predicates (the profile's ``hidden`` ones) are not facts. Each fact becomes a triple of a
:class:`~guardrail.types.KnowledgeGraph` whose node ids are the IRIs, whose node texts
are the KB labels (the IRI's local name when there is none) and whose relation is the
predicate's label; :class:`KBFact` keeps the three IRIs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from guardrail.errors import InvalidInputError
from guardrail.extract.normalize import normalize_label
from guardrail.kb.base import KnowledgeBase, Row
from guardrail.kb.profile import RDFS, VocabularyProfile
from guardrail.kb.terms import Term, local_name, sparql_iri
from guardrail.types import KnowledgeGraph, Node, Triple

__all__ = ["KBFact", "fetch_facts", "facts_graph", "fact_sentence"]

#: Most hop-1 neighbours whose own facts are fetched in hop 2.
MAX_HOP2_ENTITIES = 64


@dataclass(frozen=True)
class KBFact:
    """One KB triple with the labels used for it in the context graph.

    Parameters
    ----------
    subject, object : Term
        The subject (IRI or blank node) and the object (IRI, literal or blank node).
    predicate : str
        The predicate IRI.
    subject_label, predicate_label, object_label : str
        Their names: KB labels, or local names / lexical forms when the KB has none.
    hop : int
        1 when the subject or object is a linked entity, 2 for a neighbour's fact.
    """

    subject: Term
    predicate: str
    object: Term
    subject_label: str
    predicate_label: str
    object_label: str
    hop: int = 1

    @property
    def iris(self) -> tuple[str, str, str]:
        """``(subject, predicate, object)``: IRIs, with a literal object in N-Triples form."""
        obj = self.object.value if self.object.is_iri else self.object.n3()
        return self.subject.value, self.predicate, obj


def fact_sentence(f: KBFact) -> str:
    """The fact as one sentence: ``"subject predicate object."`` (labels)."""
    return f"{f.subject_label} {f.predicate_label} {f.object_label}."


def _label(term: Term | None, label: Term | None) -> str:
    if label is not None and label.value.strip():
        return label.value.strip()
    if term is None:
        return ""
    return local_name(term.value) if term.is_iri else term.value


def _facts_query(iris: Sequence[str], profile: VocabularyProfile, incoming: bool, limit: int) -> str:
    values = " ".join(sparql_iri(i) for i in iris)
    hidden = ", ".join(sparql_iri(h) for h in profile.hidden)
    lab = sparql_iri(profile.label)
    where = f"{{ VALUES ?s {{ {values} }} ?s ?p ?o . }}"
    if incoming:
        where += f" UNION {{ VALUES ?o {{ {values} }} ?s ?p ?o . FILTER(!isLiteral(?s)) }}"
    return (
        f"SELECT ?s ?p ?o ?sl ?pl ?ol WHERE {{ {where} FILTER(?p NOT IN ({hidden})) "
        f"OPTIONAL {{ ?s {lab} ?sl . {profile.lang_filter('sl')} }} "
        f"OPTIONAL {{ ?o {lab} ?ol . {profile.lang_filter('ol')} }} "
        f"{profile.predicate_label_pattern('p', 'pl')} }} LIMIT {limit}"
    )


def _rows_to_facts(rows: Iterable[Row], hop: int) -> list[KBFact]:
    """Facts of ``rows``, one per (s, p, o) (the first label seen wins), sorted for determinism."""
    out: dict[tuple[str, str, str], KBFact] = {}
    for r in rows:
        s, p, o = r.get("s"), r.get("p"), r.get("o")
        if s is None or p is None or o is None or not p.is_iri:
            continue
        key = (s.value, p.value, o.n3() if not o.is_iri else o.value)
        if key not in out:
            out[key] = KBFact(s, p.value, o, _label(s, r.get("sl")), _label(p, r.get("pl")),
                              _label(o, r.get("ol")), hop)
    return [out[k] for k in sorted(out)]


def fetch_facts(
    kb: KnowledgeBase, iris: Sequence[str], *, profile: VocabularyProfile = RDFS,
    hops: int = 2, max_facts: int = 200,
) -> list[KBFact]:
    """Fetch the one- and two-hop facts of ``iris`` (at most ``max_facts``).

    Parameters
    ----------
    kb : KnowledgeBase
        The backend.
    iris : sequence of str
        Linked entities (checked with :func:`~guardrail.kb.terms.sparql_iri`).
    profile : VocabularyProfile
        Label predicate, hidden predicates, language.
    hops : {1, 2}
        2 also fetches the outgoing facts of the entities reached in hop 1.
    max_facts : int
        Cap on the facts returned (hop-1 facts first, each hop in a fixed order, so
        two backends with the same data return the same facts).

    Returns
    -------
    list of KBFact
        At most ``max_facts``; empty when ``iris`` is.

    Raises
    ------
    InvalidInputError
        ``hops`` not 1 or 2, ``max_facts`` < 1, or a malformed IRI.
    KnowledgeBaseError
        The KB failed.
    """
    if hops not in (1, 2):
        raise InvalidInputError(f"hops must be 1 or 2, got {hops!r}")
    if not isinstance(max_facts, int) or max_facts < 1:
        raise InvalidInputError(f"max_facts must be an int >= 1, got {max_facts!r}")
    seeds = list(dict.fromkeys(iris))
    if not seeds:
        return []
    fetch = max_facts * 4  # rows repeat per extra label; keep enough to fill the cap
    facts = _rows_to_facts(kb.query(_facts_query(seeds, profile, True, fetch)), 1)[:max_facts]
    if hops == 1 or len(facts) >= max_facts:
        return facts
    seen = set(seeds)
    nbrs: list[str] = []
    for f in facts:
        for t in (f.subject, f.object):
            if t.is_iri and t.value not in seen:
                seen.add(t.value)
                nbrs.append(t.value)
    if not nbrs:
        return facts
    have = {f.iris for f in facts}
    hop2 = _rows_to_facts(kb.query(_facts_query(nbrs[:MAX_HOP2_ENTITIES], profile, False, fetch)), 2)
    facts.extend(f for f in hop2 if f.iris not in have)
    return facts[:max_facts]


def _node(term: Term, label: str) -> Node:
    kind = "LITERAL" if term.kind == "literal" else "KB"
    node_id = term.value if term.is_iri else term.n3()
    return Node(id=node_id, text=label, label=normalize_label(label) or label.lower(), kind=kind)


def facts_graph(facts: Sequence[KBFact], *, entities: Sequence[tuple[str, str]] = ()) -> KnowledgeGraph:
    """The context graph of ``facts``: IRIs as node ids, labels as texts, one text per fact.

    Parameters
    ----------
    facts : sequence of KBFact
        In order; triple ``i`` and ``texts[i]`` both stand for ``facts[i]``.
    entities : sequence of (iri, label)
        Linked entities kept as nodes even when they have no fact.

    Returns
    -------
    KnowledgeGraph
        ``texts`` holds :func:`fact_sentence` of each fact, so the guard's text detectors
        read the facts and an evidence span's ``source`` indexes ``facts``.
    """
    nodes: dict[str, Node] = {}
    triples: list[Triple] = []
    for f in facts:
        s = nodes.setdefault(_node(f.subject, f.subject_label).id, _node(f.subject, f.subject_label))
        o = nodes.setdefault(_node(f.object, f.object_label).id, _node(f.object, f.object_label))
        triples.append(Triple(subject=s, relation=f.predicate_label, object=o, span=None, pattern="kb"))
    for iri, label in entities:
        nodes.setdefault(iri, _node(Term("iri", iri), label))
    return KnowledgeGraph(nodes=tuple(nodes.values()), triples=tuple(triples),
                          texts=tuple(fact_sentence(f) for f in facts))
