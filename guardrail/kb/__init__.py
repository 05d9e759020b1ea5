"""Knowledge-base grounding: check answers against a knowledge graph over SPARQL.

KEA Explain's open-domain mode: the answer's entities are linked to a knowledge base,
their one- and two-hop facts are fetched with SPARQL, and the facts become the context
graph that the guard's usual detectors and explanations run on::

    from guardrail import Guard
    from guardrail.kb import OxigraphKB, kb_context

    kb = OxigraphKB("facts.ttl")                  # or SparqlEndpointKB("http://host/sparql")
    ctx = kb_context(kb, answer, question)
    result = Guard().check(answer, ctx.graph, question)
    [(e.node.text, e.fact.iris) for e in ctx.evidence(result)]

Backends: :class:`OxigraphKB` (embedded; ``pip install 'kg-guardrail[kb]'``) and
:class:`SparqlEndpointKB` (any SPARQL 1.1 endpoint over HTTP). Their failures raise
:class:`KnowledgeBaseError`.
"""

from __future__ import annotations

from guardrail.kb.base import CountingKB, KnowledgeBase, Row
from guardrail.kb.context import KBContext, KBEvidence, kb_context
from guardrail.kb.endpoint import SparqlEndpointKB
from guardrail.kb.errors import KnowledgeBaseError
from guardrail.kb.facts import KBFact, fact_sentence, facts_graph, fetch_facts
from guardrail.kb.linking import EntityLinker, LinkedEntity, Mention, mentions_from_graph
from guardrail.kb.oxigraph import OxigraphKB
from guardrail.kb.profile import RDFS, WIKIDATA, VocabularyProfile
from guardrail.kb.terms import Term, local_name, sparql_iri, sparql_literal

__all__ = [
    "KnowledgeBase", "OxigraphKB", "SparqlEndpointKB", "CountingKB", "Row", "Term",
    "KnowledgeBaseError", "VocabularyProfile", "RDFS", "WIKIDATA",
    "Mention", "LinkedEntity", "EntityLinker", "mentions_from_graph",
    "KBFact", "fetch_facts", "facts_graph", "fact_sentence",
    "KBContext", "KBEvidence", "kb_context",
    "sparql_literal", "sparql_iri", "local_name",
]
