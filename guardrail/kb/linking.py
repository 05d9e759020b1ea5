"""Entity linking: answer and question mentions matched to KB labels and aliases.

Mentions are the named entities and noun chunks of the extractor's graph (numbers,
dates and fallback tokens are left out). Each mention is matched exactly
(case-insensitive, leading determiners ignored) and, failing that, fuzzily (rapidfuzz's
``ratio`` when installed, else :mod:`difflib`) against the KB's labels and aliases.

For a KB with at most ``index_limit`` names, all names are read once (one query) into a
local index. A larger KB (Wikidata) is asked per check with a ``VALUES`` list of
escaped literals (as written, lower-cased and title-cased); fuzzy matching needs the
index and is skipped there.
"""

from __future__ import annotations

import difflib
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from guardrail.errors import InvalidInputError
from guardrail.extract.normalize import normalize_label
from guardrail.kb.base import KnowledgeBase
from guardrail.kb.profile import RDFS, VocabularyProfile
from guardrail.kb.terms import sparql_iri, sparql_literal
from guardrail.types import KnowledgeGraph

__all__ = ["Mention", "LinkedEntity", "EntityLinker", "mentions_from_graph"]

#: Node kinds that are not linked: numbers, dates, quantities and fallback tokens.
_SKIP_KINDS = frozenset("DATE TIME CARDINAL ORDINAL PERCENT MONEY QUANTITY TOKEN ADJ NUM".split())
_MAX_PER_MENTION = 3
#: Names sampled to learn the KB's label language tags, and most tags looked up per form.
_TAG_SAMPLE = 10_000
_MAX_TAGS = 8
_TAG = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")


@dataclass(frozen=True)
class Mention:
    """A span of the answer or question that may name a KB entity.

    Parameters
    ----------
    text : str
        The surface text.
    kind : str
        The extractor's node kind (spaCy entity label or ``"NOUN"``).
    source : int
        ``-1`` answer, ``-2`` question.
    """

    text: str
    kind: str = "NOUN"
    source: int = -1

    @property
    def key(self) -> str:
        """The matching key: the normalised label (lower-cased, determiners stripped)."""
        return normalize_label(self.text) or self.text.strip().lower()


@dataclass(frozen=True)
class LinkedEntity:
    """A mention linked to a KB entity.

    Parameters
    ----------
    iri : str
        The entity's IRI.
    label : str
        The KB name that matched.
    mention : Mention
        What was linked.
    score : float
        1.0 for an exact match, the fuzzy ratio in ``[0, 1]`` otherwise.
    method : {"exact", "fuzzy"}
        How it was matched.
    """

    iri: str
    label: str
    mention: Mention
    score: float
    method: Literal["exact", "fuzzy"]


def mentions_from_graph(graph: KnowledgeGraph, source: int = -1) -> list[Mention]:
    """Named entities and noun chunks of an extracted graph, in order, without repeats.

    Parameters
    ----------
    graph : KnowledgeGraph
        A graph from :class:`~guardrail.extract.spacy_extractor.SpacyExtractor`.
    source : int
        Recorded in each mention (``-1`` answer, ``-2`` question).
    """
    out: list[Mention] = []
    seen: set[str] = set()
    for n in sorted(graph.nodes, key=lambda n: n.span.start if n.span else 0):
        if n.kind in _SKIP_KINDS or not n.text.strip():
            continue
        m = Mention(n.text.strip(), n.kind, source)
        if m.key and m.key not in seen:
            seen.add(m.key)
            out.append(m)
    return out


class EntityLinker:
    """Link mentions to KB entities by label and alias, exact then fuzzy.

    Parameters
    ----------
    kb : KnowledgeBase
        Where the names are looked up.
    profile : VocabularyProfile
        Label and alias predicates, language.
    fuzzy : bool
        Try fuzzy matching when no exact match exists (default True).
    fuzzy_cutoff : float
        Least similarity in ``[0, 1]`` for a fuzzy match (default 0.9).
    index_limit : int
        Read all names into a local index when the KB has at most this many
        (default 50,000); otherwise query per check.
    """

    def __init__(
        self, kb: KnowledgeBase, profile: VocabularyProfile = RDFS, *, fuzzy: bool = True,
        fuzzy_cutoff: float = 0.9, index_limit: int = 50_000,
    ) -> None:
        if not isinstance(kb, KnowledgeBase):
            raise InvalidInputError(f"kb must be a KnowledgeBase, got {type(kb).__name__}")
        if not 0.0 < fuzzy_cutoff <= 1.0:
            raise InvalidInputError(f"fuzzy_cutoff must be in (0, 1], got {fuzzy_cutoff!r}")
        self.kb, self.profile, self.fuzzy, self.fuzzy_cutoff = kb, profile, fuzzy, fuzzy_cutoff
        self.index_limit = index_limit
        self._index: dict[str, list[tuple[str, str]]] | None = None
        self._complete: bool | None = None
        self._keys: list[str] = []
        self._tags: list[str] | None = None
        self._lock = threading.Lock()

    # ---------------------------------------------------------------- the index
    def _names_query(self, limit: int) -> str:
        preds = " ".join(sparql_iri(p) for p in self.profile.name_predicates)
        return (f"SELECT ?e ?l WHERE {{ VALUES ?pred {{ {preds} }} ?e ?pred ?l . "
                f"FILTER(isIRI(?e) && isLiteral(?l)) {self.profile.lang_filter('l')} }} LIMIT {limit}")

    def load_index(self, kb: KnowledgeBase | None = None) -> bool:
        """Read all names into the local index (once); return whether the KB fit in it.

        Parameters
        ----------
        kb : KnowledgeBase or None
            Run the query through this backend instead (e.g. a counting wrapper).
        """
        with self._lock:
            if self._complete is not None:
                return self._complete
            rows = (kb or self.kb).query(self._names_query(self.index_limit + 1))
            cap = min(self.index_limit, self.kb.max_results)
            if len(rows) > self.index_limit or len(rows) >= cap:
                self._complete = False
                return False
            index: dict[str, list[tuple[str, str]]] = {}
            for r in rows:
                if "e" in r and "l" in r:
                    key = normalize_label(r["l"].value) or r["l"].value.strip().lower()
                    pairs = index.setdefault(key, [])
                    if (r["e"].value, r["l"].value) not in pairs:
                        pairs.append((r["e"].value, r["l"].value))
            self._index = index
            self._keys = sorted(index)
            self._complete = True
            return True

    # ------------------------------------------------------------------ linking
    def link(self, mentions: Sequence[Mention], kb: KnowledgeBase | None = None) -> list[LinkedEntity]:
        """Link each mention to at most three entities (exact matches first, then fuzzy).

        Parameters
        ----------
        mentions : sequence of Mention
            From :func:`mentions_from_graph`.
        kb : KnowledgeBase or None
            Run queries through this backend instead (e.g. a counting wrapper).

        Returns
        -------
        list of LinkedEntity
            In mention order; one entity is linked once (its first, best mention).

        Raises
        ------
        KnowledgeBaseError
            The KB failed.
        """
        if not mentions:
            return []
        if self.load_index(kb):
            found = [self._lookup(m) for m in mentions]
        else:
            found = self._query_exact(mentions, kb or self.kb)
        out: list[LinkedEntity] = []
        seen: set[str] = set()
        for links in found:
            for le in links:
                if le.iri not in seen:
                    seen.add(le.iri)
                    out.append(le)
        return out

    def _lookup(self, m: Mention) -> list[LinkedEntity]:
        assert self._index is not None
        pairs = self._index.get(m.key)
        if pairs:
            return [LinkedEntity(iri, lab, m, 1.0, "exact") for iri, lab in pairs[:_MAX_PER_MENTION]]
        if not self.fuzzy or len(m.key) < 4:
            return []
        match = _best_fuzzy(m.key, self._keys, self.fuzzy_cutoff)
        if match is None:
            return []
        key, score = match
        return [LinkedEntity(iri, lab, m, score, "fuzzy") for iri, lab in self._index[key][:_MAX_PER_MENTION]]

    def _label_tags(self, kb: KnowledgeBase) -> list[str]:
        """Language tags the names may carry: the profile's language, or (any language) ``en``
        and the tags of a bounded sample of the KB's names, learnt once."""
        if self.profile.language:
            return [self.profile.language]
        with self._lock:
            if self._tags is None:
                preds = " ".join(sparql_iri(p) for p in self.profile.name_predicates)
                rows = kb.query(f"SELECT DISTINCT ?lang WHERE {{ {{ SELECT ?l WHERE {{ VALUES ?pred {{ {preds} }} "
                                f"?e ?pred ?l }} LIMIT {_TAG_SAMPLE} }} BIND(LANG(?l) AS ?lang) }} LIMIT 64")
                seen = [r["lang"].value for r in rows if "lang" in r and r["lang"].value]
                self._tags = list(dict.fromkeys(["en", *sorted(seen)]))[:_MAX_TAGS]
            return self._tags

    def _query_exact(self, mentions: Sequence[Mention], kb: KnowledgeBase) -> list[list[LinkedEntity]]:
        tags = self._label_tags(kb)
        literals: list[str] = []
        for m in mentions:
            for form in _forms(m.text):
                literals.append(sparql_literal(form))
                literals.extend(sparql_literal(form, lang=t) for t in tags if _TAG.fullmatch(t))
        preds = " ".join(sparql_iri(p) for p in self.profile.name_predicates)
        q = (f"SELECT ?e ?l WHERE {{ VALUES ?l {{ {' '.join(dict.fromkeys(literals))} }} "
             f"VALUES ?pred {{ {preds} }} ?e ?pred ?l . FILTER(isIRI(?e)) }} LIMIT {50 * len(mentions)}")
        by_key: dict[str, list[tuple[str, str]]] = {}
        for r in kb.query(q):
            if "e" in r and "l" in r:
                by_key.setdefault(normalize_label(r["l"].value), []).append((r["e"].value, r["l"].value))
        return [[LinkedEntity(iri, lab, m, 1.0, "exact")
                 for iri, lab in sorted(set(by_key.get(m.key, [])))[:_MAX_PER_MENTION]] for m in mentions]


def _forms(text: str) -> list[str]:
    """The spellings looked up for a mention: as written, lower-cased, title-cased,
    and without a leading determiner."""
    t = text.strip()
    words = t.split()
    if len(words) > 1 and words[0].lower() in ("the", "a", "an"):
        t2 = " ".join(words[1:])
        return list(dict.fromkeys([t, t2, t2.lower(), t2.title()]))
    return list(dict.fromkeys([t, t.lower(), t.title()]))


def _best_fuzzy(key: str, keys: Iterable[str], cutoff: float) -> tuple[str, float] | None:
    """The most similar key at or above ``cutoff`` (rapidfuzz ratio, or difflib)."""
    choices = list(keys)
    try:
        from rapidfuzz import fuzz, process
    except ImportError:
        hits = difflib.get_close_matches(key, choices, n=1, cutoff=cutoff)
        if not hits:
            return None
        return hits[0], difflib.SequenceMatcher(None, key, hits[0]).ratio()
    best = process.extractOne(key, choices, scorer=fuzz.ratio, score_cutoff=cutoff * 100.0)
    if best is None:
        return None
    return str(best[0]), float(best[1]) / 100.0
