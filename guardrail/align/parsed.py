"""Parsed sentences with typed slots and their roles: what the knowledge-graph checks compare.

Each answer sentence (a claim unit) and each context sentence is parsed once with the
project's spaCy pipeline (cached by text; whole texts: :mod:`guardrail.align.text_parses`) into plain, immutable records:

* :class:`Tok`: the token's text, lemma, part of speech, dependency and head;
* :class:`Slot`: a typed value of the sentence: a name (spaCy ``PERSON``, ``ORG``,
  ``GPE``...), a date (``DATE`` with explicit calendar atoms, see
  :func:`~guardrail.align.values.date_atoms`) or a number (``NUM``: numbers, money,
  quantities, percentages, see :func:`~guardrail.align.values.number_values`).

The *role* of a slot (:func:`anchors`) is what surrounds it: the content lemmas next to
it, the verb that governs it and the other values of its clause. Two values of the same
type whose roles overlap fill the same slot of the same fact; that is how a claim's
"15 August" is paired with its evidence's "15 July" and not with another date of the
passage (KEA Explain's contradictory triple pairs, over slots instead of whole triples).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from sys import intern

from guardrail.align.values import NumValue, date_atoms, number_values
from guardrail.text.clock import CLOCK, clock_minutes
from guardrail.text.lexicon import STOP_WORDS
from guardrail.text.sentences import split_sentences

__all__ = ["Tok", "Slot", "Sent", "NAME_LABELS", "parse_texts", "value_sentences", "with_values", "anchors",
           "name_key"]

#: spaCy entity labels read as names.
NAME_LABELS = frozenset("PERSON ORG GPE LOC NORP FAC PRODUCT EVENT WORK_OF_ART LAW".split())
_CONTENT_POS = frozenset("NOUN PROPN VERB ADJ ADV NUM".split())
_WINDOW = 5
_MONTH = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
          r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)")
#: Dates spaCy's small model misses ("no later than 30 July"): a month with a day or a year.
_DATE_RE = re.compile(rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}(?:,?\s+\d{{4}})?|{_MONTH}\s+\d{{1,2}}"
                      rf"(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?|{_MONTH}\s+\d{{4}})\b")


@dataclass(frozen=True)
class Tok:
    """One token: ``start``/``end`` are character offsets in the sentence; ``ent`` its entity label,
    ``begins`` whether it begins an entity (spaCy's IOB "B")."""

    text: str
    lemma: str
    pos: str
    dep: str
    head: int
    start: int
    end: int
    ent: str
    begins: bool = False


@dataclass(frozen=True)
class Slot:
    """A typed value of a sentence.

    Attributes
    ----------
    kind : str
        The spaCy name label (``PERSON``, ``ORG``...), ``"DATE"`` or ``"NUM"``.
    text : str
        Its surface.
    start, end : int
        Character span in the sentence.
    toks : tuple of (int, int)
        Token range ``[first, last)``.
    keys : frozenset of str
        Names: lower-cased name words; dates: calendar atoms; numbers: empty.
    num : NumValue or None
        The normalised number of a ``NUM`` slot.
    """

    kind: str
    text: str
    start: int
    end: int
    toks: tuple[int, int]
    keys: frozenset[str]
    num: NumValue | None = None


@dataclass(frozen=True)
class Sent:
    """A parsed sentence; ``source`` (-1 answer, else the passage) and ``base`` (offset of
    the sentence in its source) place it."""

    text: str
    toks: tuple[Tok, ...]
    slots: tuple[Slot, ...]
    source: int = -1
    base: int = 0

    def lemmas(self) -> set[str]:
        """Lower-cased lemmas of the content words."""
        return {t.lemma for t in self.toks if t.pos in _CONTENT_POS and t.lemma not in STOP_WORDS}


def name_key(text: str) -> frozenset[str]:
    """Lower-cased words of a name without articles and possessive endings."""
    words = text.lower().replace("'s", " ").replace("\u2019s", " ").split()
    return frozenset(w.strip(".,;:()\"'") for w in words if w not in ("the", "a", "an")) - {""}


def _tok_range(toks: Sequence[Tok], start: int, end: int) -> tuple[int, int]:
    idx = [i for i, t in enumerate(toks) if t.start < end and t.end > start]
    return (idx[0], idx[-1] + 1) if idx else (0, 0)


def _slots(doc: object, toks: tuple[Tok, ...], text: str, values: bool = True) -> tuple[Slot, ...]:
    out: list[Slot] = []
    taken: list[tuple[int, int]] = []
    for ent in doc.ents:  # type: ignore[attr-defined]
        s, e = ent.start_char, ent.end_char
        if ent.label_ in NAME_LABELS:
            out.append(Slot(ent.label_, ent.text, s, e, (ent.start, ent.end), name_key(ent.text)))
            taken.append((s, e))
    if not values:
        return tuple(out)
    for ent in doc.ents:  # type: ignore[attr-defined]
        s, e = ent.start_char, ent.end_char
        if ent.label_ == "DATE" and (atoms := date_atoms(ent.text)):
            out.append(Slot("DATE", ent.text, s, e, (ent.start, ent.end), atoms))
            taken.append((s, e))
    out.extend(_text_values(text, toks, taken))
    return tuple(sorted(out, key=lambda sl: sl.start))


def _text_values(text: str, toks: Sequence[Tok], taken: list[tuple[int, int]]) -> list[Slot]:
    """The times, dates and numbers the text itself shows (no parse): regular expressions and
    ``quantulum3``, each outside the spans ``taken`` (which it extends)."""
    out: list[Slot] = []
    for m in CLOCK.finditer(text):  # "16:45", "9.30 am": one value, not two numbers
        if not (m.group(2) or m.group(5)):  # an hour alone ("6pm") stays a number
            continue
        s, e = m.span()
        out.append(Slot("TIME", m.group(0), s, e, _tok_range(toks, s, e), frozenset({f"t{clock_minutes(m)}"})))
        taken.append((s, e))
    for m in _DATE_RE.finditer(text):
        s, e = m.span()
        if not any(s < b and e > a for a, b in taken) and (atoms := date_atoms(m.group(0))):
            out.append(Slot("DATE", m.group(0), s, e, _tok_range(toks, s, e), atoms))
            taken.append((s, e))
    for v in number_values(text):
        if any(v.start < e and v.end > s for s, e in taken):
            continue
        out.append(Slot("NUM", text[v.start:v.end], v.start, v.end, _tok_range(toks, v.start, v.end),
                        frozenset(), v))
    return out


#: A sentence the first pass reads values from: a digit, a number word or a month name (one without
#: them may still hold a value spaCy finds, "last spring": the full parse reads those).
_SHOWS_VALUE = re.compile(
    r"\d|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|\w+ty|hundred|"
    r"thousand|million|billion|trillion|dozens?|half|quarter|noon|midnight|january|february|march|april|may|"
    r"june|july|august|september|october|november|december)\b", re.I)


def value_sentences(texts: Sequence[str]) -> list[Sent]:
    """Each text split into sentences whose slots are the values the text itself shows: times,
    dates and numbers by regular expression and ``quantulum3``, without spaCy (no tokens, no
    names, no date entities such as "last spring"). A cheap first pass for a check that only asks
    whether a value is stated somewhere (``kg_literals``), at a fraction of a parse's cost.

    Parameters
    ----------
    texts : sequence of str
        The passages.

    Returns
    -------
    list of Sent
        In order, ``source`` the passage index, ``base`` the sentence offset, ``toks`` empty.
    """
    out = []
    for src, t in enumerate(texts):
        for a, b in split_sentences(t):
            shows = _SHOWS_VALUE.search(t[a:b])  # no digit, number or month word: quantulum3 not asked
            slots = sorted(_text_values(t[a:b], (), []), key=lambda sl: sl.start) if shows else []
            out.append(Sent(t[a:b], (), tuple(slots), source=src, base=a))
    return out


_CACHE: OrderedDict[tuple[bool, str], Sent] = OrderedDict()
_CACHE_MAX = 8192
_CACHE_LOCK = threading.Lock()


def _parse_batch(texts: tuple[str, ...], values: bool = True) -> list[Sent]:
    from guardrail.extract.spacy_extractor import _PARSE_LOCK, DEFAULT_MODEL, _load_model

    nlp = _load_model(DEFAULT_MODEL)
    out = []
    with _PARSE_LOCK:
        docs = list(nlp.pipe(texts))
    for text, doc in zip(texts, docs):
        toks = tuple(Tok(t.text, t.lemma_.lower(), intern(t.pos_), intern(t.dep_), t.head.i, t.idx,  # shared labels
                         t.idx + len(t.text), intern(t.ent_type_), t.ent_iob_ == "B") for t in doc)
        out.append(Sent(text, toks, _slots(doc, toks, text, values)))
    return out


def with_values(sent: Sent) -> Sent:
    """A names-only parse with its values added, as a parse with values would read them: the date
    entities from the tokens' entity labels, the rest from the text (no second spaCy pass)."""
    out, taken = list(sent.slots), [(sl.start, sl.end) for sl in sent.slots]
    i, toks = 0, sent.toks
    while i < len(toks):
        j = i
        while j < len(toks) and toks[j].ent == "DATE" and (j == i or not toks[j].begins):
            j += 1
        if j > i:
            s, e = toks[i].start, toks[j - 1].end
            if atoms := date_atoms(sent.text[s:e]):
                out.append(Slot("DATE", sent.text[s:e], s, e, (i, j), atoms))
                taken.append((s, e))
        i = j + 1 if j == i else j
    out.extend(_text_values(sent.text, toks, taken))
    return replace(sent, slots=tuple(sorted(out, key=lambda sl: sl.start)))


def parse_texts(texts: Sequence[str], values: bool = True) -> list[Sent]:
    """Parse short texts (sentences), from the cache where already parsed.

    Parameters
    ----------
    texts : sequence of str
        The sentences.
    values : bool
        Also read dates and numbers as slots (``dateparser``, ``quantulum3``); with ``False`` only
        names are slots, for checks that compare names (much cheaper: no value normalisation,
        whose libraries alone take seconds to import). A text parsed with values serves both.

    Raises
    ------
    ExtractionError
        The spaCy model cannot be loaded.
    ImportError
        ``quantulum3`` or ``dateparser`` is missing (with the pip command).
    """
    def cached(t: str) -> tuple[bool, str] | None:
        """The cache key holding ``t`` parsed well enough (with values, or names only when enough)."""
        return next((k for k in ((True, t), (False, t))[:1 if values else 2] if k in _CACHE), None)

    with _CACHE_LOCK:
        if values:  # a names-only parse gets its values without a second spaCy pass
            for t in texts:
                if (True, t) not in _CACHE and (False, t) in _CACHE:
                    _CACHE[(True, t)] = with_values(_CACHE[(False, t)])
        todo = tuple(dict.fromkeys(t for t in texts if cached(t) is None))
    fresh = dict(zip(todo, _parse_batch(todo, values))) if todo else {}
    out = []
    with _CACHE_LOCK:
        for t in texts:
            key = (values, t) if t in fresh else cached(t)
            if key is None:  # evicted meanwhile by another thread
                key, fresh[t] = (values, t), _parse_batch((t,), values)[0]
            hit = _CACHE[key] = fresh[t] if t in fresh else _CACHE[key]
            _CACHE.move_to_end(key)
            out.append(hit)
        while len(_CACHE) > _CACHE_MAX:
            _CACHE.popitem(last=False)
    return out


def _governor(sent: Sent, i: int) -> int:
    """The nearest verb above token ``i`` (at most three steps), else its head."""
    j = sent.toks[i].head
    for _ in range(3):
        if sent.toks[j].pos in ("VERB", "AUX") or sent.toks[j].head == j:
            return j
        j = sent.toks[j].head
    return sent.toks[i].head


def _root(sent: Sent, slot: Slot) -> int:
    a, b = slot.toks
    for i in range(a, b):
        if not a <= sent.toks[i].head < b:
            return i
    return a


def slot_marks(slot: Slot) -> set[str]:
    """The strings by which a slot is recognised in another slot's role."""
    if slot.num is not None:
        return {f"n:{slot.num.value:.6g}"}
    prefix = {"DATE": "d:", "TIME": "t:"}.get(slot.kind, "e:")
    return {prefix + k for k in slot.keys}


def anchors(sent: Sent, slot: Slot, window: int = _WINDOW) -> frozenset[str]:
    """The role of ``slot`` in ``sent``: ``w:<lemma>`` for the content words within
    ``window`` tokens and the governing verb, plus the marks of the other slots there or
    governed by the same verb.

    Returns
    -------
    frozenset of str
        Empty for a slot of a sentence without tokens.
    """
    if not sent.toks or slot.toks[1] <= slot.toks[0]:
        return frozenset()
    a, b = slot.toks
    near = [i for i in range(max(0, a - window), min(len(sent.toks), b + window)) if not a <= i < b]
    gov = _governor(sent, _root(sent, slot))
    out = {f"w:{sent.toks[i].lemma}" for i in [*near, gov]
           if sent.toks[i].pos in _CONTENT_POS and sent.toks[i].lemma not in STOP_WORDS
           and not sent.toks[i].ent and not (a <= i < b)}
    for other in sent.slots:
        if other is slot or other.toks[1] <= other.toks[0]:
            continue
        oa, ob = other.toks
        if any(oa <= i < ob for i in [*near, gov]) or _governor(sent, _root(sent, other)) == gov:
            out |= slot_marks(other)  # a value next to it, or of the same clause
    return frozenset(out)
