"""The sentences of a whole passage read from one parse of it: what the extractor already parsed.

A check parses each passage once with spaCy to build the context graph
(:class:`~guardrail.extract.spacy_extractor.SpacyExtractor`). The knowledge-graph checks read the
passages sentence by sentence (:func:`parse_sentences`). Instead of parsing every sentence a second
time on its own, the extractor hands its parse of a text to :func:`remember_parse` (a listener
registered with :func:`~guardrail.extract.spacy_extractor.on_default_parse`), which cuts it into the
project's sentences (:func:`~guardrail.text.sentences.split_sentences`) as names-only
:class:`~guardrail.align.parsed.Sent` records and caches them by text; :func:`text_sentences`
returns them, parsing the whole text itself (in the extractor's chunks) when the extractor did not
(another extractor, a cached graph, an evicted entry). Either way a passage's sentences come from the
same parse, so a verdict does not depend on the cache. The answer's and the question's sentences are
claim units and are parsed one by one (:func:`~guardrail.align.parsed.parse_texts`), as before.

Inside a text's parse, a token whose head lies outside its sentence becomes the sentence's root
(``dep`` ``"ROOT"``), and an entity crossing a sentence boundary is not a name of either. A
sentence whose tokens do not tile it (a token runs across its boundary, as in glued sentences
"Lawler.Michael") is parsed on its own (:func:`~guardrail.align.parsed.parse_texts`).
"""

from __future__ import annotations

import threading
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace
from sys import intern
from typing import Any

from guardrail.align.parsed import NAME_LABELS, Sent, Slot, Tok, name_key, parse_texts, with_values
from guardrail.extract.spacy_extractor import on_default_parse, parse_chunks
from guardrail.text.sentences import split_sentences

__all__ = ["parse_sentences", "remember_parse", "text_sentences"]

_CACHE: OrderedDict[tuple[bool, str], tuple[Sent, ...]] = OrderedDict()
#: Most sentences held (over all cached texts), as the sentence cache of :mod:`guardrail.align.parsed`.
_CACHE_MAX_SENTENCES = 8192
_LOCK = threading.Lock()
_HELD = [0]  # sentences in _CACHE


class _Parse:
    """The tokens of a text's parse in text offsets (``starts``, ``ends``, ``toks``, ``heads``: global
    token indices) and its entities (``ents``: first token, last token + 1, label; in order)."""

    def __init__(self, parts: Sequence[tuple[int, Any]]) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.toks: list[Any] = []
        self.heads: list[int] = []
        self.ents: list[tuple[int, int, str]] = []
        for off, doc in parts:
            base = len(self.toks)
            for t in doc:
                self.starts.append(off + t.idx)
                self.ends.append(off + t.idx + len(t.text))
                self.toks.append(t)
                self.heads.append(base + t.head.i)
            self.ents.extend((base + e.start, base + e.end, e.label_) for e in doc.ents)
        self.ent_starts = [e[0] for e in self.ents]

    def sentence(self, text: str, a: int, b: int) -> Sent | None:
        """The names-only record of sentence ``text[a:b]``, or None when the tokens do not tile it."""
        lo, hi = bisect_right(self.ends, a), bisect_left(self.starts, b)
        if lo >= hi or self.starts[lo] < a or self.ends[hi - 1] > b:
            return None
        inside = [en for en in self.ents[bisect_left(self.ent_starts, lo):bisect_left(self.ent_starts, hi)]
                  if en[1] <= hi]
        ent_of = {i: (lab, i == s) for s, e, lab in inside for i in range(s, e)}
        out = []
        for i in range(lo, hi):
            t, h = self.toks[i], self.heads[i]  # labels interned: thousands of sentences share them
            lab, begins = ent_of.get(i, ("", False))
            root = not lo <= h < hi
            out.append(Tok(t.text, t.lemma_.lower(), intern(t.pos_), "ROOT" if root else intern(t.dep_),
                           i - lo if root else h - lo, self.starts[i] - a, self.ends[i] - a, intern(lab), begins))
        sent = text[a:b]
        slots = []
        for s, e, lab in inside:
            if lab in NAME_LABELS:
                cs, ce = self.starts[s] - a, self.ends[e - 1] - a
                slots.append(Slot(lab, sent[cs:ce], cs, ce, (s - lo, e - lo), name_key(sent[cs:ce])))
        return Sent(sent, tuple(out), tuple(slots))


def _derive(text: str, parts: Sequence[tuple[int, Any]]) -> tuple[Sent, ...]:
    parse = _Parse(parts)
    spans = split_sentences(text)
    got = [parse.sentence(text, a, b) for a, b in spans]
    alone = [text[a:b] for (a, b), s in zip(spans, got) if s is None]
    parsed = iter(parse_texts(alone, values=False)) if alone else iter(())
    return tuple(s if s is not None else next(parsed) for s in got)


def remember_parse(text: str, parts: Sequence[tuple[int, Any]]) -> None:
    """Cache the sentences of ``text`` read from its parse.

    Parameters
    ----------
    text : str
        The whole passage.
    parts : sequence of (int, spacy.tokens.Doc)
        Its parse: each chunk's character offset in ``text`` and its Doc, in order, as
        :class:`~guardrail.extract.spacy_extractor.SpacyExtractor` parses it with its default
        model and chunk size. Read here, not kept: the records hold plain strings.
    """
    _store((False, text), _derive(text, parts))


def _store(key: tuple[bool, str], sents: tuple[Sent, ...]) -> None:
    """Cache ``sents`` under ``key``; the oldest texts go while more than
    :data:`_CACHE_MAX_SENTENCES` sentences are held (the newest text always stays)."""
    with _LOCK:
        old = _CACHE.pop(key, None)
        _HELD[0] += len(sents) - (len(old) if old is not None else 0)
        _CACHE[key] = sents
        while _HELD[0] > _CACHE_MAX_SENTENCES and len(_CACHE) > 1:
            _HELD[0] -= len(_CACHE.popitem(last=False)[1])


def text_sentences(text: str, values: bool = True) -> tuple[Sent, ...]:
    """The sentences of ``text`` (:func:`split_sentences` order; ``source`` -1 and ``base`` 0: the
    caller places them), from the cache or from one parse of the whole text.

    Parameters
    ----------
    text : str
        A passage.
    values : bool
        Also read dates and numbers as slots (as :func:`~guardrail.align.parsed.parse_texts` does);
        ``False``: names only.

    Returns
    -------
    tuple of Sent
        One per sentence of :func:`~guardrail.text.sentences.split_sentences`, in order (empty for
        a blank text); each ``text`` is its sentence, token and slot offsets are within it.

    Raises
    ------
    ExtractionError
        The spaCy model cannot be loaded or fails.
    ImportError
        ``quantulum3`` or ``dateparser`` is missing (with the pip command), with ``values``.
    """
    with _LOCK:
        hit = _CACHE.get((values, text))
        if hit is not None:
            _CACHE.move_to_end((values, text))
            return hit
        names = _CACHE.get((False, text))
    if names is None:
        names = parse_chunks(text, lambda parts: _derive(text, parts))
        _store((False, text), names)
    if not values:
        return names
    valued = tuple(with_values(s) for s in names)
    _store((True, text), valued)
    return valued


def parse_sentences(texts: Sequence[str], source_of: int | None = None, *, values: bool = True,
                    keep: Callable[[str], bool] | None = None) -> list[Sent]:
    """Split each text into sentences (the project's splitter) and parse them: a passage's
    sentences are read from one parse of the whole passage (the extractor's, when it parsed it:
    :func:`text_sentences`); the answer's and the question's (``source_of`` given) are each parsed
    on their own (:func:`~guardrail.align.parsed.parse_texts`, cached by sentence), as the claim
    units the checks compare.

    Parameters
    ----------
    texts : sequence of str
        The answer (one text) or the passages.
    source_of : int or None
        ``-1`` to mark every sentence as the answer's; ``None`` gives each text's
        sentences its own index as ``source``.
    values : bool
        Read dates and numbers as slots too (see :func:`~guardrail.align.parsed.parse_texts`).
    keep : callable or None
        Only the sentences for which ``keep(sentence)`` is true (all by default).

    Returns
    -------
    list of Sent
        In order, with ``source`` and ``base`` set.

    Raises
    ------
    ExtractionError
        The spaCy model cannot be loaded or fails.
    """
    if source_of is not None:
        places = [(t, s, e) for t in texts for s, e in split_sentences(t) if keep is None or keep(t[s:e])]
        parsed = parse_texts([t[s:e] for t, s, e in places], values)
        return [replace(p, source=source_of, base=s) for p, (_t, s, _e) in zip(parsed, places)]
    out = []
    for src, t in enumerate(texts):
        spans = split_sentences(t)
        if keep is not None and not any(keep(t[s:e]) for s, e in spans):
            continue  # nothing asked of this passage: not parsed
        for p, (s, e) in zip(text_sentences(t, values), spans):
            if keep is None or keep(t[s:e]):
                out.append(replace(p, source=src, base=s))
    return out


on_default_parse(remember_parse)
