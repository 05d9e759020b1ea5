"""Vocabulary profiles: which predicates carry labels, aliases and descriptions.

Most RDF vocabularies name things with ``rdfs:label`` (:data:`RDFS`); Wikidata adds
language-tagged labels, ``skos:altLabel`` aliases and ``schema:description``, and labels
its direct-claim predicates (``wdt:P19``) through the property entity (``wd:P19``),
which :data:`WIKIDATA` knows.
"""

from __future__ import annotations

from dataclasses import dataclass

from guardrail.errors import InvalidInputError
from guardrail.kb.terms import sparql_iri

__all__ = ["VocabularyProfile", "RDFS", "WIKIDATA", "RDF_TYPE", "RDFS_LABEL", "SKOS_ALT", "SCHEMA_DESCRIPTION"]

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SKOS_ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
SKOS_PREF = "http://www.w3.org/2004/02/skos/core#prefLabel"
SCHEMA_DESCRIPTION = "http://schema.org/description"
OWL_SAME_AS = "http://www.w3.org/2002/07/owl#sameAs"
_WIKIBASE_DIRECT = "http://wikiba.se/ontology#directClaim"


@dataclass(frozen=True)
class VocabularyProfile:
    """How a knowledge base names its entities and predicates.

    Parameters
    ----------
    name : str
        Profile name (``"rdfs"``, ``"wikidata"``).
    label : str
        Predicate of the preferred label (``rdfs:label``).
    aliases : tuple of str
        Predicates of alternative labels matched during entity linking.
    description : str or None
        Predicate of a short description (Wikidata's ``schema:description``).
    language : str or None
        Only labels in this language (or without a tag) are used; None = any.
    hidden : tuple of str
        Predicates never fetched as facts (labels, aliases, descriptions, types...).
    direct_claim : bool
        Label predicates through ``?prop wikibase:directClaim ?p`` (Wikidata).
    """

    name: str = "rdfs"
    label: str = RDFS_LABEL
    aliases: tuple[str, ...] = ()
    description: str | None = None
    language: str | None = None
    hidden: tuple[str, ...] = (RDFS_LABEL, SKOS_ALT, SKOS_PREF, SCHEMA_DESCRIPTION, RDF_TYPE, OWL_SAME_AS)
    direct_claim: bool = False

    def __post_init__(self) -> None:
        for iri in (self.label, *self.aliases, *self.hidden, *((self.description,) if self.description else ())):
            sparql_iri(iri)  # raises InvalidInputError on a malformed IRI
        if self.language is not None and not self.language.replace("-", "").isalnum():
            raise InvalidInputError(f"malformed language tag: {self.language!r}")

    @property
    def name_predicates(self) -> tuple[str, ...]:
        """The label predicate followed by the alias predicates."""
        return (self.label, *self.aliases)

    def lang_filter(self, var: str) -> str:
        """A SPARQL ``FILTER`` keeping literals of :attr:`language` or untagged ones ("" if any)."""
        if self.language is None:
            return ""
        return f'FILTER(LANG(?{var}) = "" || LANGMATCHES(LANG(?{var}), "{self.language}"))'

    def predicate_label_pattern(self, p: str, pl: str) -> str:
        """A SPARQL group pattern binding ``?pl`` to the label of predicate ``?p`` (optional)."""
        lab = sparql_iri(self.label)
        if self.direct_claim:
            inner = f"?{p}__prop {sparql_iri(_WIKIBASE_DIRECT)} ?{p} . ?{p}__prop {lab} ?{pl} ."
        else:
            inner = f"?{p} {lab} ?{pl} ."
        return f"OPTIONAL {{ {inner} {self.lang_filter(pl)} }}"


#: ``rdfs:label`` names (any language), ``skos:altLabel`` aliases where the KB has them.
RDFS = VocabularyProfile(aliases=(SKOS_ALT,))

#: Wikidata: English labels, ``skos:altLabel`` aliases, ``schema:description``,
#: predicate labels through ``wikibase:directClaim``.
WIKIDATA = VocabularyProfile(
    name="wikidata", aliases=(SKOS_ALT,), description=SCHEMA_DESCRIPTION, language="en",
    direct_claim=True,
)
