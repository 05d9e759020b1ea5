"""The embedded knowledge base: a pyoxigraph store loaded from RDF files.

``pip install 'kg-guardrail[kb]'`` installs pyoxigraph; it is imported on first use.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from guardrail._optional import require
from guardrail.errors import ErrorMap, InvalidInputError, map_exceptions
from guardrail.kb.base import KnowledgeBase, Row, check_positive, check_query
from guardrail.kb.errors import KnowledgeBaseError
from guardrail.kb.terms import Term

__all__ = ["OxigraphKB"]

#: File suffix -> pyoxigraph format name.
#: The foreign errors of pyoxigraph (parsing, I/O, a non-SELECT result) and the tree error they become.
_ERRORS: ErrorMap = {OSError: KnowledgeBaseError, SyntaxError: KnowledgeBaseError, ValueError: KnowledgeBaseError,
                     AttributeError: KnowledgeBaseError}
_FORMATS = {".ttl": "TURTLE", ".nt": "N_TRIPLES", ".nq": "N_QUADS", ".trig": "TRIG"}
_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"


def _pyoxigraph() -> Any:
    return require("pyoxigraph", extra="kb")


def to_term(node: Any) -> Term | None:
    """Convert a pyoxigraph term to a :class:`Term` (None for unsupported kinds)."""
    ox = _pyoxigraph()
    if isinstance(node, ox.NamedNode):
        return Term("iri", node.value)
    if isinstance(node, ox.BlankNode):
        return Term("bnode", node.value)
    if isinstance(node, ox.Literal):
        dt = node.datatype.value if node.datatype is not None else None
        if node.language or dt in (_XSD_STRING, _LANG_STRING):
            dt = None
        return Term("literal", node.value, lang=node.language or None, datatype=dt)
    return None


class OxigraphKB(KnowledgeBase):
    """An in-memory pyoxigraph store loaded from Turtle, N-Triples, N-Quads or TriG files.

    Parameters
    ----------
    paths : path or iterable of paths
        RDF files; the format comes from the suffix (``.ttl``, ``.nt``, ``.nq``, ``.trig``).
        Quads of named graphs are queried together with the default graph.
    data : str or None
        RDF text to load as well (Turtle unless ``data_format`` says otherwise).
    data_format : {"ttl", "nt", "nq", "trig"}
        Format of ``data``.
    max_results : int
        Most rows one query returns (default 10,000).

    Raises
    ------
    ImportError
        pyoxigraph is not installed (the message names ``pip install 'kg-guardrail[kb]'``).
    InvalidInputError
        An unknown file suffix or format, or a bad ``max_results``.
    KnowledgeBaseError
        A file is missing or is not valid RDF.

    Examples
    --------
    >>> kb = OxigraphKB("examples/data/kb/tiny.ttl")        # doctest: +SKIP
    >>> kb.query("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")  # doctest: +SKIP
    """

    name = "oxigraph"

    def __init__(
        self,
        paths: str | Path | Iterable[str | Path] = (),
        *,
        data: str | None = None,
        data_format: str = "ttl",
        max_results: int = 10_000,
    ) -> None:
        check_positive("max_results", max_results)
        self.max_results = int(max_results)
        ox = _pyoxigraph()
        self._store = ox.Store()
        files = [paths] if isinstance(paths, (str, Path)) else list(paths)
        for p in files:
            path = Path(p)
            self._load(lambda fmt, path=path: self._store.load(path=str(path), format=fmt),
                       path.suffix.lower(), str(path))
        if data is not None:
            if not isinstance(data, str):
                raise InvalidInputError(f"data must be a str, got {type(data).__name__}")
            self._load(lambda fmt: self._store.load(data.encode("utf-8"), format=fmt),
                       "." + data_format.lower().lstrip("."), "<data>")

    def _load(self, load: Any, suffix: str, where: str) -> None:
        if suffix not in _FORMATS:
            raise InvalidInputError(f"unknown RDF format {suffix!r} for {where}; "
                                    f"known: {sorted(_FORMATS)}")
        fmt = getattr(_pyoxigraph().RdfFormat, _FORMATS[suffix])
        with map_exceptions(_ERRORS, f"could not load RDF from {where}"):
            load(fmt)

    def __len__(self) -> int:
        """Number of quads in the store."""
        return len(self._store)

    def query(self, sparql: str) -> list[Row]:
        """Run a SELECT query on the store (named graphs included in the default graph).

        Raises
        ------
        KnowledgeBaseError
            The query is malformed or is not a SELECT query.
        """
        check_query(sparql)
        with map_exceptions(_ERRORS, f"{self.name}: query failed"):
            result = self._store.query(sparql, use_default_graph_as_union=True)
            variables = [v.value for v in result.variables]
        rows: list[Row] = []
        for sol in itertools.islice(result, self.max_results):
            row: Row = {}
            for var in variables:
                node = sol[var]
                term = to_term(node) if node is not None else None
                if term is not None:
                    row[var] = term
            rows.append(row)
        return rows
