"""KEA Explain's extraction step with an LLM: triples asked for as JSON, mapped back to the text.

:class:`LLMExtractor` asks an OpenAI-compatible endpoint (:class:`~guardrail.llm.client.LLMClient`)
for ``{"triples": [{"subject", "relation", "object"}]}`` (JSON-schema constrained where
the server supports it), then locates every subject and object in the text to give its
node a character span; a triple whose end points cannot be found is dropped (a node
without a span cannot be flagged). Small models drop dates, numbers and quantities, so
each one the regexes of :data:`LITERAL` find that no node covers becomes its own node,
linked to the first node of its sentence (relation ``"date"`` or ``"value"``). The LLM's
reply is cached per text (LRU). When the endpoint fails, the extractor falls back to
spaCy (``fallback="spacy"``, default, logged at WARNING) or raises
:class:`~guardrail.errors.ExtractionError` (``fallback="raise"``).
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from typing import Any, Literal

from guardrail.errors import ExtractionError, InvalidInputError
from guardrail.extract.base import Extractor
from guardrail.extract.normalize import normalize_label
from guardrail.text.sentences import split_sentences
from guardrail.types import KnowledgeGraph, Node, Span, Triple

__all__ = ["LLMExtractor", "TRIPLE_SCHEMA", "LITERAL", "locate"]

_log = logging.getLogger(__name__)

#: JSON schema of the extraction reply.
TRIPLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"triples": {"type": "array", "items": {
        "type": "object",
        "properties": {"subject": {"type": "string"}, "relation": {"type": "string"},
                       "object": {"type": "string"}},
        "required": ["subject", "relation", "object"]}}},
    "required": ["triples"],
}

_MONTH = r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
#: Dates, then numbers with an optional currency sign, unit or percent (the model drops these).
LITERAL = re.compile(
    rf"\b(?:\d{{1,2}}\s+{_MONTH}(?:\s+\d{{4}})?|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?"
    rf"|{_MONTH}\s+\d{{4}}|\d{{4}}-\d{{2}}-\d{{2}})\b"
    r"|[$€£]?\b\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s?(?:%|percent|per cent|million|billion|thousand|[a-zA-Z]{1,3}\b))?"
)
_DATE_START = re.compile(rf"^(?:\d{{1,2}}\s+{_MONTH}|{_MONTH}|\d{{4}}-\d{{2}})|^(?:1[5-9]|20)\d\d$")

_PROMPT = (
    "Extract the facts of the text as (subject, relation, object) triples. Copy subject and object "
    "word for word from the text (short noun phrases, names, dates, numbers with their units); the "
    "relation is a short verb phrase. Include every date, number and quantity.\n\nText:\n{text}"
)


def locate(text: str, phrase: str) -> tuple[int, int] | None:
    """The span of ``phrase`` in ``text``: exact, then case-insensitive, then its longest
    run of words that occurs (at least half of its words); ``None`` if none.

    Examples
    --------
    >>> locate("Steve Jobs founded Apple.", "apple")
    (19, 24)
    """
    phrase = phrase.strip().strip(".,;:")
    if not phrase:
        return None
    i = text.find(phrase)
    if i < 0:
        i = text.lower().find(phrase.lower())
    if i >= 0:
        return i, i + len(phrase)
    words = phrase.split()
    for n in range(len(words) - 1, max(0, (len(words) + 1) // 2 - 1), -1):
        for k in range(len(words) - n + 1):
            m = re.search(r"\b" + r"\s+".join(re.escape(w) for w in words[k:k + n]) + r"\b", text, re.I)
            if m:
                return m.start(), m.end()
    return None


class _Builder:
    """Nodes (one per distinct span) and triples of one text."""

    def __init__(self, text: str, source: int) -> None:
        self.text, self.source = text, source
        self.nodes: dict[tuple[int, int], Node] = {}
        self.triples: dict[tuple[str, str, str], Triple] = {}

    def node(self, span: tuple[int, int], kind: str) -> Node:
        if span not in self.nodes:
            s, e = span
            surface = self.text[s:e]
            nid = f"{self.source}:{s}" if all(k[0] != s for k in self.nodes) else f"{self.source}:{s}-{e}"
            self.nodes[span] = Node(id=nid, text=surface, label=normalize_label(surface) or surface.lower(),
                                    kind=kind, span=Span(start=s, end=e, source=self.source))
        return self.nodes[span]

    def triple(self, subj: Node, relation: str, obj: Node, pattern: str) -> None:
        if subj.id == obj.id or not relation:
            return
        assert subj.span is not None
        sent = next(((a, b) for a, b in split_sentences(self.text) if a <= subj.span.start < b),
                    (0, len(self.text)))
        key = (subj.id, relation, obj.id)
        self.triples.setdefault(key, Triple(subject=subj, relation=relation, object=obj, pattern=pattern,
                                            span=Span(start=sent[0], end=sent[1], source=self.source)))

    def graph(self) -> KnowledgeGraph:
        nodes = tuple(sorted(self.nodes.values(), key=lambda n: (n.span.start if n.span else 0, n.id)))
        return KnowledgeGraph(nodes=nodes, triples=tuple(self.triples.values()), texts=(self.text,))


class LLMExtractor(Extractor):
    """Triples from an LLM (KEA Explain), with spans, literal nodes, a cache and a fallback.

    Parameters
    ----------
    client : LLMClient or None
        The endpoint; ``None`` builds one from ``base_url`` and ``model``.
    base_url : str or None
        OpenAI-compatible base URL, used when ``client`` is ``None``.
    model : str
        Model name for a client built here.
    fallback : {"spacy", "raise"}
        On an endpoint failure: extract with spaCy (default) or raise
        :class:`~guardrail.errors.ExtractionError`.
    cache_size : int
        Texts whose LLM reply is kept (LRU; 0 disables the cache).
    max_tokens : int
        Reply cap per text.

    Examples
    --------
    >>> with local_llm() as url:  # doctest: +SKIP
    ...     Guard(extractor=LLMExtractor(base_url=url)).check(answer, contexts)
    """

    name = "llm"

    def __init__(
        self, client: Any = None, *, base_url: str | None = None, model: str = "local",
        fallback: Literal["spacy", "raise"] = "spacy", cache_size: int = 1024, max_tokens: int = 384,
    ) -> None:
        if client is None:
            if base_url is None:
                raise InvalidInputError("LLMExtractor needs client= or base_url=")
            from guardrail.llm.client import LLMClient

            client = LLMClient(base_url, model, max_tokens=max_tokens)
        if fallback not in ("spacy", "raise"):
            raise InvalidInputError(f"fallback must be 'spacy' or 'raise', got {fallback!r}")
        self.client = client
        self.fallback = fallback
        self.cache_size = cache_size
        self.max_tokens = max_tokens
        self.fallbacks = 0
        self._cache: OrderedDict[str, list[tuple[str, str, str]]] = OrderedDict()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"LLMExtractor(client={self.client!r}, fallback={self.fallback!r})"

    def _raw(self, text: str) -> list[tuple[str, str, str]]:
        with self._lock:
            if text in self._cache:
                self._cache.move_to_end(text)
                return self._cache[text]
        reply = self.client.chat_json([("user", _PROMPT.format(text=text))], TRIPLE_SCHEMA,
                                      max_tokens=self.max_tokens, name="triples")
        items = reply.get("triples", []) if isinstance(reply, dict) else []
        raw = [(str(t.get("subject", "")), " ".join(str(t.get("relation", "")).lower().split()),
                str(t.get("object", ""))) for t in items if isinstance(t, dict)]
        with self._lock:
            if self.cache_size > 0:
                self._cache[text] = raw
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        return raw

    def extract(self, text: str, *, source: int = -1) -> KnowledgeGraph:
        """Extract the graph of ``text`` (see the module docstring).

        Raises
        ------
        ExtractionError
            The endpoint failed and ``fallback="raise"``.
        """
        from guardrail.llm.errors import LLMError

        try:
            raw = self._raw(text)
        except LLMError as exc:
            if self.fallback == "raise":
                raise ExtractionError(f"LLM triple extraction failed: {exc}") from exc
            self.fallbacks += 1
            _log.warning("LLM triple extraction failed (%s); using spaCy for this text", exc)
            from guardrail.extract.spacy_extractor import SpacyExtractor

            return SpacyExtractor().extract(text, source=source)
        return self._build(text, source, raw)

    def _build(self, text: str, source: int, raw: list[tuple[str, str, str]]) -> KnowledgeGraph:
        b = _Builder(text, source)
        for subj, rel, obj in raw:
            s_span, o_span = locate(text, subj), locate(text, obj)
            if s_span is None or o_span is None:
                continue
            kind_o = "DATE" if _DATE_START.match(text[o_span[0]:o_span[1]]) else "NOUN"
            b.triple(b.node(s_span, "NOUN"), rel, b.node(o_span, kind_o), "llm")
        self._add_literals(b)
        return b.graph()

    @staticmethod
    def _add_literals(b: _Builder) -> None:
        for m in LITERAL.finditer(b.text):
            s, e = m.span()
            if any(a <= s and e <= z for a, z in b.nodes):
                continue
            surface = m.group(0)
            date = bool(_DATE_START.match(surface))
            lit = b.node((s, e), "DATE" if date else "QUANTITY")
            sent = next(((a, z) for a, z in split_sentences(b.text) if a <= s < z), (0, len(b.text)))
            anchor = next((n for (a, z), n in sorted(b.nodes.items())
                           if sent[0] <= a < sent[1] and n.id != lit.id and n.kind == "NOUN"), None)
            if anchor is not None:
                b.triple(anchor, "date" if date else "value", lit, "literal")
