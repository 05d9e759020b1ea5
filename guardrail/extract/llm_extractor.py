"""KEA Explain's extraction step with an LLM: triples asked for as JSON, mapped back to the text.

:class:`LLMExtractor` asks an OpenAI-compatible endpoint (:class:`~guardrail.llm.client.LLMClient`)
for ``{"triples": [{"subject", "relation", "object"}]}`` (JSON-schema constrained where
the server supports it), then locates every subject and object in the text to give its
node a character span; a triple whose end points cannot be found is dropped (a node
without a span cannot be flagged). Small models drop dates, numbers and quantities, so
each one the regexes of :data:`LITERAL` find that no node covers becomes its own node,
linked to the first node of its sentence (relation ``"date"`` or ``"value"``).

One call per text: a whole passage is one request (not one per sentence), and its reply
is cached per text (LRU; the guard also caches passage graphs). Each call's reply cap is
sized to the text (:func:`reply_tokens`) and its timeout to that cap
(:func:`call_timeout`), so a long passage gets the time it needs and a short answer does
not wait for ever. When the endpoint fails, the extractor falls back to spaCy
(``fallback="spacy"``, default; a WARNING names the endpoint, the error and the
timeout) or raises :class:`~guardrail.errors.ExtractionError` (``fallback="raise"``);
after ``max_failures`` failures in a row it stops asking and uses spaCy (one more
WARNING says so). :func:`extractor_for` builds the extractor a
:class:`~guardrail.config.GuardConfig` names (``extractor: "llm"``).
"""

from __future__ import annotations

import logging
import os
import re
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Literal

from guardrail.errors import ExtractionError, InvalidInputError
from guardrail.extract.base import Extractor
from guardrail.extract.normalize import normalize_label
from guardrail.text.sentences import split_sentences
from guardrail.types import KnowledgeGraph, Node, Span, Triple

if TYPE_CHECKING:  # pragma: no cover
    from guardrail.config import GuardConfig

__all__ = ["LLMExtractor", "TRIPLE_SCHEMA", "LITERAL", "locate", "reply_tokens", "call_timeout", "extractor_for",
           "TOKENS_PER_SECOND", "PROMPT_TOKENS_PER_SECOND"]

#: Reply tokens per second assumed when a call's timeout is sized (the local 1.5B model
#: wrote 4.3 a second on 2 busy CPU cores; a GPU server is far faster, so the timeouts are
#: generous there).
TOKENS_PER_SECOND = 3.0
#: Prompt tokens read per second assumed when a call's timeout is sized (9 a second measured
#: on the same busy cores).
PROMPT_TOKENS_PER_SECOND = 8.0

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


def reply_tokens(text: str, cap: int) -> int:
    """The reply cap for extracting ``text``: about 4 tokens per word of JSON triples (a
    triple is about 25 tokens, a 20-word sentence holds 2 or 3), at least 96, at most ``cap``."""
    return max(1, min(cap, max(96, 4 * len(text.split()))))


def call_timeout(text: str, max_tokens: int, tokens_per_second: float = TOKENS_PER_SECOND) -> float:
    """Seconds one extraction call may take: reading the prompt (the instructions, about
    120 tokens, and 1.4 tokens per word of ``text``, at :data:`PROMPT_TOKENS_PER_SECOND`),
    writing ``max_tokens`` at ``tokens_per_second``, and 30 s of slack.

    Examples
    --------
    >>> round(call_timeout("word " * 100, 384))
    190
    """
    prompt = 120 + 1.4 * len(text.split())
    return 30.0 + prompt / PROMPT_TOKENS_PER_SECOND + max_tokens / tokens_per_second


def extractor_for(config: GuardConfig) -> Any:
    """The extractor ``config`` names: spaCy, or an :class:`LLMExtractor` for ``extractor="llm"``.

    Raises
    ------
    ConfigError
        ``extractor="llm"`` without ``llm_base_url`` and without the
        ``KG_GUARDRAIL_LLM_BASE_URL`` environment variable.
    """
    if config.extractor == "spacy":
        from guardrail.extract.spacy_extractor import SpacyExtractor

        return SpacyExtractor()
    from guardrail.errors import ConfigError
    from guardrail.llm.local import ENDPOINT_ENV

    url = config.llm_base_url or os.environ.get(ENDPOINT_ENV)
    if not url:
        raise ConfigError(f"config {config.name!r} sets extractor 'llm' but no llm_base_url (nor ${ENDPOINT_ENV}); "
                          "start one with `kg-guardrail llm serve` and pass its URL")
    return LLMExtractor(base_url=url, model=config.llm_model, timeout=config.llm_timeout)


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
        Largest reply cap per text (each call's cap is :func:`reply_tokens` of its text).
    timeout : float or None
        Seconds per call; ``None`` (default) sizes each call's timeout to its reply cap
        (:func:`call_timeout`). Used for a client built here and passed with every call.
    max_failures : int
        Failed calls in a row after which the endpoint is no longer asked and spaCy
        extracts every text (``fallback="spacy"`` only; default 3).

    Attributes
    ----------
    fallbacks : int
        Texts extracted with spaCy because the endpoint failed.

    Examples
    --------
    >>> with local_llm() as url:  # doctest: +SKIP
    ...     Guard(extractor=LLMExtractor(base_url=url)).check(answer, contexts)
    """

    name = "llm"

    def __init__(
        self, client: Any = None, *, base_url: str | None = None, model: str = "local",
        fallback: Literal["spacy", "raise"] = "spacy", cache_size: int = 1024, max_tokens: int = 1024,
        timeout: float | None = None, max_failures: int = 3,
    ) -> None:
        if fallback not in ("spacy", "raise"):
            raise InvalidInputError(f"fallback must be 'spacy' or 'raise', got {fallback!r}")
        if timeout is not None and not timeout > 0:
            raise InvalidInputError(f"timeout must be > 0 seconds or None, got {timeout!r}")
        if client is None:
            if base_url is None:
                raise InvalidInputError("LLMExtractor needs client= or base_url=")
            from guardrail.llm.client import LLMClient

            # one attempt: a timed-out extraction retried would be as slow; a failure falls back
            client = LLMClient(base_url, model, max_tokens=max_tokens, retries=1,
                               timeout=timeout or call_timeout("", max_tokens))
        self.client = client
        self.fallback = fallback
        self.cache_size = cache_size
        self.max_tokens = max_tokens
        self.timeout = timeout
        self.max_failures = max(1, max_failures)
        self.fallbacks = 0
        self._failures = 0
        self._spacy: Extractor | None = None
        self._cache: OrderedDict[str, list[tuple[str, str, str]]] = OrderedDict()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"LLMExtractor(client={self.client!r}, fallback={self.fallback!r})"

    def _raw(self, text: str) -> list[tuple[str, str, str]]:
        with self._lock:
            if text in self._cache:
                self._cache.move_to_end(text)
                return self._cache[text]
        cap = reply_tokens(text, self.max_tokens)
        reply = self.client.chat_json([("user", _PROMPT.format(text=text))], TRIPLE_SCHEMA, max_tokens=cap,
                                      name="triples", timeout=self.timeout or call_timeout(text, cap))
        items = reply.get("triples", []) if isinstance(reply, dict) else []
        raw = [(str(t.get("subject", "")), " ".join(str(t.get("relation", "")).lower().split()),
                str(t.get("object", ""))) for t in items if isinstance(t, dict)]
        with self._lock:
            if self.cache_size > 0:
                self._cache[text] = raw
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        return raw

    def _spacy_graph(self, text: str, source: int) -> KnowledgeGraph:
        if self._spacy is None:
            from guardrail.extract.spacy_extractor import SpacyExtractor

            self._spacy = SpacyExtractor()
        self.fallbacks += 1
        return self._spacy.extract(text, source=source)

    def extract(self, text: str, *, source: int = -1) -> KnowledgeGraph:
        """Extract the graph of ``text`` (see the module docstring).

        Raises
        ------
        ExtractionError
            The endpoint failed and ``fallback="raise"``.
        """
        from guardrail.llm.errors import LLMError

        if self.fallback == "spacy" and self._failures >= self.max_failures:
            return self._spacy_graph(text, source)
        try:
            raw = self._raw(text)
        except LLMError as exc:
            if self.fallback == "raise":
                raise ExtractionError(f"LLM triple extraction failed: {exc}") from exc
            self._failures += 1
            where = getattr(self.client, "base_url", "the endpoint")
            _log.warning("LLM triple extraction at %s failed (%s); falling back to spaCy for this text "
                         "(%d character(s)); a slow model may need a longer timeout (llm_timeout, --llm-timeout)",
                         where, exc, len(text))
            if self._failures >= self.max_failures:
                _log.warning("LLM triple extraction failed %d times in a row: using spaCy for every further "
                             "text of this extractor", self._failures)
            return self._spacy_graph(text, source)
        self._failures = 0
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
