"""Turn retrieved LlamaIndex nodes into guard contexts: passages, or triples.

Graph retrievers in llama-index-core 0.14 return their facts in two shapes:

* **PropertyGraphIndex** sub-retrievers (``VectorContextRetriever``,
  ``LLMSynonymRetriever``, ``CypherTemplateRetriever``...) return one ``TextNode``
  per triplet whose text is ``"subject -> relation -> object"`` (with
  ``include_properties=True`` each part may carry ``" ({...properties})"``). With
  ``include_text=True`` the triplet lines are prepended to the source chunk after
  the preamble ``"Here are some facts extracted from the provided text:"``.
* the legacy **KnowledgeGraphIndex** retrievers add a node whose metadata holds
  ``kg_rel_map`` (``{subject: [[subject, relation, object], ...]}``).

Custom retrievers may also put ``kg_triplets`` / ``triplets`` in node metadata, as
``(subject, relation, object)`` strings or ``(EntityNode, Relation, EntityNode)``.

When every retrieved node is a pure graph fact, the guard gets the triples and uses
them directly as its context graph (no text extraction). Otherwise it gets passages,
with triplet lines rewritten as plain sentences and retriever preambles dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Union

from guardrail.errors import InvalidInputError
from guardrail.kb.switch import attach_kb

__all__ = [
    "Triple",
    "GuardContexts",
    "MAX_TRIPLET_LINE",
    "ContextMode",
    "parse_triplet_text",
    "triples_from_metadata",
    "contexts_from_nodes",
    "contexts_from_texts",
    "context_texts",
    "is_triple_contexts",
    "check_mode",
    "attach_kb",
]

Triple = tuple[str, str, str]
#: What :func:`contexts_from_nodes` returns: passages or triples (both accepted by ``Guard.check``).
GuardContexts = Union[list[str], list[Triple]]
ContextMode = Literal["auto", "text", "graph"]

_ARROW = " -> "
#: Longest line read as a triplet; longer lines are prose (bounds the parsing work).
MAX_TRIPLET_LINE = 16_384
_METADATA_KEYS = ("kg_triplets", "triplets", "kg_rel_map")
_PREAMBLES = (
    "here are some facts extracted from the provided text",
    "the following are knowledge sequence",
    "`subject -[predicate]->",
    "no relationships found.",
)


def parse_triplet_text(line: str) -> Triple | None:
    """Parse one ``"subject -> relation -> object"`` line; ``None`` if it is not one.

    Property suffixes written by ``include_properties=True`` (``"Paris ({'k': 1})"``)
    are removed. Parsing is linear in the line's length, and lines longer than
    :data:`MAX_TRIPLET_LINE` characters are never triplets.

    Examples
    --------
    >>> parse_triplet_text("Paris -> capital of -> France")
    ('Paris', 'capital of', 'France')
    >>> parse_triplet_text("Paris is in France.") is None
    True
    """
    if len(line) > MAX_TRIPLET_LINE:
        return None
    parts = line.strip().split(_ARROW)
    if len(parts) != 3:
        return None
    clean = [_strip_props(p) for p in parts]
    if not all(clean):
        return None
    return (clean[0], clean[1], clean[2])


def _strip_props(part: str) -> str:
    """Drop a ``" ({...})"`` suffix: from the first ``({`` when the part ends in ``})``.

    The same result as the former regex ``^(.*?)\\s*\\(\\{.*\\}\\)\\s*$``, but with
    ``str`` methods only, so it stays linear on adversarial input such as ``"({" * n``.
    """
    text = part.strip()
    if text.endswith("})"):
        start = text.find("({")
        if 0 <= start <= len(text) - 4:  # "({" and "})" must not overlap
            return text[:start].strip()
    return text


def _part(x: Any) -> str | None:
    """Text of one triple element: a str, an EntityNode (name), a Relation (label)..."""
    if isinstance(x, str):
        return x.strip() or None
    for attr in ("name", "label", "text", "id"):
        v = getattr(x, attr, None)
        if isinstance(v, str) and v.strip():
            return v.strip()
    return None


def _coerce(item: Any) -> list[Triple]:
    """Triples from one metadata entry: a 3-sequence or a path ``s, r, o, r2, o2...``."""
    if isinstance(item, str):
        t = parse_triplet_text(item)
        return [t] if t else []
    if not isinstance(item, Sequence) or len(item) < 3 or len(item) % 2 == 0:
        return []
    parts = [_part(x) for x in item]
    if any(p is None for p in parts):
        return []
    return [(parts[i], parts[i + 1], parts[i + 2]) for i in range(0, len(parts) - 2, 2)]  # type: ignore[misc]


def triples_from_metadata(metadata: Mapping[str, Any] | None) -> list[Triple]:
    """Triples carried in node metadata (``kg_triplets``, ``triplets`` or ``kg_rel_map``)."""
    if not metadata:
        return []
    out: list[Triple] = []
    for key in _METADATA_KEYS:
        value = metadata.get(key)
        if not value:
            continue
        items: Iterable[Any] = value
        if isinstance(value, Mapping):  # kg_rel_map: {subject: [[s, r, o], ...]}
            items = [p for paths in value.values() for p in (paths or [])]
        for item in items:
            out.extend(_coerce(item))
    return out


def _split(text: str, metadata: Mapping[str, Any] | None) -> tuple[list[Triple], str]:
    """Split one node into (its triples, its remaining prose)."""
    meta = triples_from_metadata(metadata)
    triples: list[Triple] = []
    rest: list[str] = []
    for line in text.splitlines():
        t = parse_triplet_text(line)
        if t is not None:
            triples.append(t)
        elif line.strip() and not line.strip().lower().startswith(_PREAMBLES):
            rest.append(line)
    if meta:  # the text of a metadata-carrying node only restates its triples
        return _dedupe(meta + triples), ""
    return triples, "\n".join(rest).strip()


def _dedupe(triples: Iterable[Triple]) -> list[Triple]:
    return list(dict.fromkeys(triples))


def _sentence(t: Triple) -> str:
    return f"{t[0]} {t[1]} {t[2]}."


def check_mode(mode: Any) -> ContextMode:
    """Return ``mode`` if it is a :data:`ContextMode`.

    Parameters
    ----------
    mode : object
        The ``context_mode`` a user passed (checked at adapter construction).

    Returns
    -------
    {"auto", "text", "graph"}
        ``mode`` unchanged.

    Raises
    ------
    guardrail.InvalidInputError
        (a ``ValueError``) naming the value otherwise.
    """
    if mode not in ("auto", "text", "graph"):
        raise InvalidInputError(f"context_mode must be 'auto', 'text' or 'graph', got {mode!r}")
    return mode  # type: ignore[no-any-return]


def _contexts(items: Sequence[tuple[str, Mapping[str, Any] | None]], mode: ContextMode) -> GuardContexts:
    check_mode(mode)
    split = [_split(text, meta) for text, meta in items]
    all_triples = _dedupe(t for triples, _ in split for t in triples)
    pure_graph = all(triples and not rest for triples, rest in split)
    if all_triples and (mode == "graph" or (mode == "auto" and pure_graph)):
        return all_triples
    if mode == "text" or not all_triples:
        return [text for text, _ in items if text.strip()]
    passages = []
    for triples, rest in split:
        text = " ".join([_sentence(t) for t in triples] + ([rest] if rest else []))
        if text:
            passages.append(text)
    return passages


def contexts_from_nodes(nodes: Iterable[Any], mode: ContextMode = "auto") -> GuardContexts:
    """Guard contexts from retrieved nodes.

    Parameters
    ----------
    nodes : iterable of NodeWithScore or BaseNode
        ``Response.source_nodes`` or a retriever's output.
    mode : {"auto", "text", "graph"}
        ``"auto"`` (default): triples when every node is a pure graph fact, else
        passages (triplet lines rewritten as sentences, preambles dropped);
        ``"text"``: each node's ``get_content()`` unchanged; ``"graph"``: every triple
        found, ignoring prose (passages if there is none).

    Returns
    -------
    list of str or list of (str, str, str)
        Passages, or ``(subject, relation, object)`` tuples that ``Guard.check`` uses
        directly as the context graph.
    """
    items = []
    for i, n in enumerate(nodes):
        node = getattr(n, "node", n)
        get = getattr(node, "get_content", None)
        if get is None:
            raise InvalidInputError(f"source_nodes[{i}] is not a LlamaIndex node, got {type(n).__name__}")
        text = get()
        if not isinstance(text, str):
            raise InvalidInputError(f"source_nodes[{i}] has non-str content ({type(text).__name__})")
        items.append((text, getattr(node, "metadata", None)))
    return _contexts(items, mode)


def contexts_from_texts(texts: Iterable[str], mode: ContextMode = "auto") -> GuardContexts:
    """Like :func:`contexts_from_nodes` for context strings (what evaluators receive)."""
    return _contexts([(t, None) for t in texts if isinstance(t, str)], mode)


def is_triple_contexts(contexts: Sequence[Any]) -> bool:
    """True when ``contexts`` is a non-empty list of ``(subject, relation, object)`` tuples."""
    return bool(contexts) and all(isinstance(c, tuple) and len(c) == 3 for c in contexts)


def context_texts(contexts: Sequence[Any]) -> list[str]:
    """Passages for prompts and display: triples become ``"subject relation object."``."""
    return [_sentence(c) if isinstance(c, tuple) else str(c) for c in contexts]

