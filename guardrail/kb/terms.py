"""RDF terms as the knowledge-base backends return them, and safe SPARQL term syntax.

User text (entity mentions taken from an answer or a question) only ever reaches a
query through :func:`sparql_literal`, and IRIs only through :func:`sparql_iri`; no query
is built by pasting raw text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from guardrail.errors import InvalidInputError

__all__ = ["Term", "sparql_literal", "sparql_iri", "local_name"]

#: Characters SPARQL forbids inside ``<...>`` (IRIREF), plus whitespace and controls.
_BAD_IRI = re.compile(r'[\x00-\x20<>"{}|^`\\\x7f]')
_LANG = re.compile(r"^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$")
#: Escapes of SPARQL's ECHAR production; every other character is kept as it is.
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_ESCAPE_RE = re.compile(r'[\\"\n\r\t\b\f]')
_CONTROL = re.compile(r"[\x00-\x07\x0b\x0e-\x1f\x7f]")


@dataclass(frozen=True)
class Term:
    """One RDF term of a query result.

    Parameters
    ----------
    kind : {"iri", "literal", "bnode"}
        What the term is.
    value : str
        The IRI, the literal's lexical form, or the blank node's label.
    lang : str or None
        Language tag of a literal (``"en"``), if any.
    datatype : str or None
        Datatype IRI of a typed literal, if any.
    """

    kind: Literal["iri", "literal", "bnode"]
    value: str
    lang: str | None = None
    datatype: str | None = None

    @property
    def is_iri(self) -> bool:
        """True for an IRI."""
        return self.kind == "iri"

    def n3(self) -> str:
        """The term in SPARQL / N-Triples syntax (escaped), e.g. ``"Paris"@en``."""
        if self.kind == "iri":
            return sparql_iri(self.value)
        if self.kind == "bnode":
            return f"_:{self.value}"
        return sparql_literal(self.value, lang=self.lang, datatype=self.datatype)


def sparql_literal(value: str, *, lang: str | None = None, datatype: str | None = None) -> str:
    """Quote ``value`` as a SPARQL string literal, escaping every special character.

    Parameters
    ----------
    value : str
        Any text, including quotes, braces, backslashes and newlines.
    lang : str or None
        A language tag (``"en"``, ``"en-GB"``); checked against the BCP 47 shape.
    datatype : str or None
        A datatype IRI (checked by :func:`sparql_iri`); not together with ``lang``.

    Returns
    -------
    str
        ``"..."``, ``"..."@lang`` or ``"..."^^<datatype>``: one literal token, whatever
        ``value`` holds (quotes, backslashes, line breaks and tabs are escaped with
        SPARQL's ``ECHAR`` escapes; other control characters are dropped).

    Raises
    ------
    InvalidInputError
        ``value`` is not a str, the language tag is malformed, the datatype is not a
        valid IRI, or both are given.

    Examples
    --------
    >>> sparql_literal('Ada "the Countess" Lovelace')
    '"Ada \\\\"the Countess\\\\" Lovelace"'
    >>> sparql_literal("Paris", lang="en")
    '"Paris"@en'
    """
    if not isinstance(value, str):
        raise InvalidInputError(f"a SPARQL literal must be a str, got {type(value).__name__}")
    if lang is not None and datatype is not None:
        raise InvalidInputError("a literal takes a language tag or a datatype, not both")
    body = _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group(0)], _CONTROL.sub("", value))
    if lang is not None:
        if not isinstance(lang, str) or not _LANG.match(lang):
            raise InvalidInputError(f"malformed language tag: {lang!r}")
        return f'"{body}"@{lang}'
    if datatype is not None:
        return f'"{body}"^^{sparql_iri(datatype)}'
    return f'"{body}"'


def sparql_iri(iri: str) -> str:
    """Return ``<iri>`` after checking that ``iri`` cannot break out of the brackets.

    Raises
    ------
    InvalidInputError
        ``iri`` is not a non-empty str, or holds whitespace, a control character or one
        of ``<>"{}|^`\\``.
    """
    if not isinstance(iri, str) or not iri:
        raise InvalidInputError(f"an IRI must be a non-empty str, got {iri!r}")
    if _BAD_IRI.search(iri):
        raise InvalidInputError(f"not a valid IRI (forbidden character): {iri!r}")
    return f"<{iri}>"


def local_name(iri: str) -> str:
    """The last segment of an IRI (after ``#``, ``/`` or ``:``), with ``_`` as spaces.

    Used as a readable label for a predicate or entity that has none in the KB.

    Examples
    --------
    >>> local_name("http://example.org/ontology#bornIn")
    'bornIn'
    >>> local_name("http://example.org/place_of_birth")
    'place of birth'
    """
    tail = re.split(r"[#/:]", iri.rstrip("/#"))[-1] or iri
    return tail.replace("_", " ")
