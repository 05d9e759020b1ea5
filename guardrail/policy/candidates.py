"""The value an evidence sentence states in place of a flagged word: a feedback item's candidates.

:func:`value_candidates` answers, for one wrong word of a flagged claim, "what does the
evidence sentence say instead?" (:mod:`guardrail.policy.feedback` uses it to tell a wrong
value from an added detail, and :mod:`guardrail.policy.repair` writes the one candidate in):

* a **number** is replaced by a number the evidence states and the claim does not, written as
  the evidence writes it *with its unit* ("46 days" for "46 weeks", "eight weeks" for "two
  months", "£3.2 million"): a bare "46" would tell the model nothing, and the same number in
  another unit is a wrong value too. A wrong number whose value (and unit) the evidence states
  is not a wrong value at all ("nine votes", evidence "voted 9 to 4"): it has no candidate.
  Only numbers measuring what the wrong number measures count (a count for a count, a time
  for a time: never "80%" for "six"); of several, those sharing most neighbouring words with
  it are kept ("ten *people*", evidence "eight *people*");
* a **name** (:func:`is_name`: a capitalised word that does not merely open the sentence, as
  "The maximum" does) is replaced by a name of the evidence in the same slot (sharing a
  neighbouring word), so "a loan from IBM" is an added detail, not a wrong name;
* any other words have no candidate.

:func:`evidence_sentence` chooses the context sentence a flagged claim is checked against: the one
sharing most words with the claim's slot of the wrong words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from guardrail.align.values import NumValue, number_values
from guardrail.policy.numbers import is_number, numerals
from guardrail.text.lexicon import EVIDENCE_STOP_WORDS

__all__ = ["WORD", "FUNCTION_WORDS", "find_words", "is_name", "is_quantity", "value_candidates", "number_stated",
           "content_words", "word_key", "neighbours", "evidence_sentence"]

#: A word as the feedback compares words (numbers keep their separators: "1,200", "2.5").
WORD = re.compile(r"\w+(?:[.,]\d+)*")
_NUMBER = re.compile(r"(?<![\w.])[£$€¥]?\d(?:[\d,.]*\d)?(?:\s?(?:%|percent|million|billion|thousand))?(?![\w.]\w)")
_NAME = re.compile(r"\b[A-Z][\w'-]*(?:\s+(?:of\s+|de\s+|van\s+)?[A-Z][\w'-]*)*")
_BARE = frozenset({"number", "percent", "currency"})  # dimensions whose surface needs no unit word
#: Words the refinement's word matching leaves out: the evidence stop words and the particles of
#: phrasal verbs, which say nothing about which sentence a claim's slot is in ("picks up cleaning"
#: is not about "up to 150 minutes of cleaning"). Prepositions that carry a value's meaning
#: ("over", "under", "before", "after") stay content words.
FUNCTION_WORDS: frozenset[str] = EVIDENCE_STOP_WORDS | frozenset("up down off out into onto".split())


def word_key(word: str) -> str:
    """A word as compared: lower case, no thousands separators, no plural or possessive ``s``."""
    w = word.lower().replace(",", "") if any(c.isdigit() for c in word) else word.lower()
    return w[:-1] if len(w) > 3 and w.isalpha() and w.endswith("s") else w


def content_words(text: str) -> set[str]:
    """The :func:`word_key` s of ``text``'s words, function words left out."""
    return {word_key(w) for w in WORD.findall(text) if w.lower() not in FUNCTION_WORDS}


def neighbours(text: str, start: int, end: int, window: int = 4) -> set[str]:
    """Content words of ``text`` within ``window`` words either side of ``[start, end)``."""
    before = WORD.findall(text[:start])[-window:]
    after = WORD.findall(text[end:])[:window]
    return content_words(" ".join(before + after))


def find_words(text: str, words: str) -> int:
    """Where ``words`` stand in ``text`` as whole words ("six" not in "sixteen"); -1 when they do not."""
    m = re.search(r"(?<!\w)" + re.escape(words) + r"(?!\w)", text)
    return m.start() if m else -1


def is_name(wrong: str, claim: str) -> bool:
    """Whether ``wrong`` (words of ``claim``) is a name: a content word of it is capitalised and is
    not just the claim's first word ("Kelly Jones", "CBS", "the Brayford brickworks"; not "The
    maximum", "The server", "Outbuildings").

    Examples
    --------
    >>> is_name("The maximum", "The maximum is four tablets."), is_name("Kofi Mensah", "Kofi Mensah scored.")
    (False, True)
    """
    at = max(find_words(claim, wrong), 0)
    first = next(WORD.finditer(claim), None)
    for m in WORD.finditer(wrong):
        w = m.group(0)
        if not w[:1].isupper() or w.lower() in EVIDENCE_STOP_WORDS:
            continue
        if (len(w) > 1 and w.isupper()) or first is None or at + m.start() != first.start():
            return True
    return False


def is_quantity(text: str) -> bool:
    """Whether ``text`` states a number (:func:`~guardrail.policy.numbers.is_number`) or a measure
    whose number is a word the bare-number reading leaves out ("one month", "a year")."""
    return is_number(text) or any(v.dim not in _BARE for v in number_values(text))


def _measure(values: tuple[NumValue, ...], start: int) -> NumValue | None:
    """The value of ``values`` whose surface holds the character ``start``."""
    return next((v for v in values if v.start <= start < v.end), None)


def _same(a: NumValue, b: NumValue) -> bool:
    return a.value == b.value and (a.dim in _BARE or b.dim in _BARE or a.unit == b.unit)


def number_stated(wrong: str, evidence: str) -> bool:
    """Whether ``evidence`` states every number of ``wrong``, by value and, for a measure, in its unit
    ("nine" by "9"; "46 weeks" not by "46 days")."""
    own, ev = number_values(wrong), number_values(evidence)
    nums = numerals(wrong)
    if not nums:
        return False
    values = {n.value for n in numerals(evidence)}
    for n in nums:
        m = _measure(own, n.start)
        if m is not None and m.dim not in _BARE:
            if not any(_same(m, e) and e.dim not in _BARE for e in ev):
                return False
        elif n.value not in values:
            return False
    return True


def _evidence_numbers(evidence: str) -> list[tuple[int, str, NumValue | None]]:
    """Each number of ``evidence`` once, in order: its start, its surface (with its unit words for
    a measure: "46 days"; with its currency sign and scale word: "£3.2 million") and its value."""
    values = number_values(evidence)
    spans = [(m.start(), m.end()) for m in _NUMBER.finditer(evidence)]
    spans += [(n.start, n.end) for n in numerals(evidence) if n.words]
    out: list[tuple[int, str, NumValue | None]] = []
    taken = -1
    for a, b in sorted(spans):
        m = _measure(values, a + 1 if evidence[a] in "£$€¥" else a)
        if m is not None and m.dim not in _BARE:
            a, b = min(a, m.start), max(b, m.end)
        if a < taken:
            continue
        out.append((a, evidence[a:b].rstrip().rstrip("'"), m))
        taken = b
    return out


def _fits(own: NumValue | None, value: NumValue | None) -> bool:
    """Whether ``value`` measures what ``own`` does (a count or an amount for a count, a time for a
    time, a share for a share); a number the value normalisation does not read is a bare count."""
    a, b = own.dim if own else "number", value.dim if value else "number"
    return a == b or {a, b} <= {"number", "currency"}


def _number_candidates(wrong: str, claim: str, evidence: str) -> list[str]:
    """The numbers (with their units) the evidence states and the claim does not, those measuring
    what ``wrong`` measures and sharing most neighbouring words with it first."""
    if number_stated(wrong, evidence):
        return []
    claim_values = number_values(claim)
    stated = {n.value for n in numerals(claim)}
    at = max(find_words(claim, wrong), 0)
    own = _measure(claim_values, at) or next(iter(number_values(wrong)), None)  # "450" of "450 kilograms"
    slot = neighbours(claim, at, at + len(wrong)) - content_words(wrong)
    scored: list[tuple[int, str]] = []
    for start, surface, value in _evidence_numbers(evidence):
        if value is not None and value.dim not in _BARE:
            if any(_same(value, c) for c in claim_values if c.dim not in _BARE):
                continue
        elif not content_words(surface) - content_words(claim) or all(n.value in stated for n in numerals(surface)):
            continue
        if _fits(own, value):
            scored.append((len(slot & neighbours(evidence, start, start + len(surface), window=3)), surface))
    best = max((n for n, _ in scored), default=0)
    return list(dict.fromkeys(s for n, s in scored if n == best))


def _name_candidates(wrong: str, claim: str, evidence: str) -> list[str]:
    at = find_words(claim, wrong)
    slot = neighbours(claim, at, at + len(wrong)) - content_words(wrong) if at >= 0 else set()
    claim_words = content_words(claim)
    lower = {w for w in WORD.findall(claim) if w.islower()}
    out: list[str] = []
    for m in _NAME.finditer(evidence):
        name, start, titles = m.group(0), m.start(), set()
        while (first := WORD.match(name)) and first.group(0).lower() in lower and first.end() < len(name):
            # a title the claim writes in lower case ("Substitute Jamie Ortiz" / "on as a substitute")
            titles |= content_words(first.group(0))
            cut = len(name) - len(name[first.end():].lstrip())
            name, start = name[cut:], start + cut
        words = content_words(name)
        if not words or words <= claim_words or name in out:
            continue
        if slot & (neighbours(evidence, start, start + len(name)) | titles):
            out.append(name)
    return out


def value_candidates(wrong: str, claim: str, evidence: str) -> list[str]:
    """What ``evidence`` states in place of ``wrong`` (words of ``claim``), best first (module docstring).

    Parameters
    ----------
    wrong : str
        A flagged node's text.
    claim : str
        The answer sentence holding it.
    evidence : str
        The context sentence the claim is checked against.

    Returns
    -------
    list of str
        The candidates, each once: numbers with the evidence's unit words, or names; empty for a
        word that is neither, a number the evidence states itself, or no candidate.

    Examples
    --------
    >>> value_candidates("only 46 weeks", "The record stood for only 46 weeks.", "The record stood for only 46 days.")
    ['46 days']
    """
    if is_quantity(wrong):
        return _number_candidates(wrong, claim, evidence)
    if is_name(wrong, claim):
        return _name_candidates(wrong, claim, evidence)
    return []


def _slot_weights(claim: str, wrong: Sequence[str]) -> dict[str, float]:
    """Each content word of ``claim`` (its wrong words left out), weighted by nearness to the
    wrong words (``1 / distance`` in words): the words of the wrong value's own slot ("in
    Chemistry in 1921") count more than the subject, which a context often names with a
    pronoun ("In 1911 she won the Nobel Prize in Chemistry"). A word behind a dash, semicolon,
    colon or bracket from the wrong words counts :data:`_ACROSS` as much per such mark: it is
    another clause ("two goals -- a penalty and another in the 67th minute -- and [Reid], on as a
    substitute, added the third": the substitute's sentence is the evidence, not the scorer's)."""
    bad = set().union(*(content_words(w) for w in wrong)) if wrong else set()
    words: list[tuple[str, bool, int]] = []  # (key, function word, clause marks before it)
    marks = 0
    for m in _TOKEN.finditer(claim):
        if m.group("mark"):
            marks += 1
            continue
        w = m.group(0)
        words.append((word_key(w), w.lower() in FUNCTION_WORDS, marks))
    at = [(i, c) for i, (k, _, c) in enumerate(words) if k in bad]
    out: dict[str, float] = {}
    for i, (k, stop, c) in enumerate(words):
        if stop or k in bad:
            continue
        weight = max(_ACROSS ** abs(c - cj) / abs(i - j) for j, cj in at) if at else 1.0
        out[k] = max(out.get(k, 0.0), weight)
    return out


#: Weight factor of a word per clause mark (dash, semicolon, colon, bracket) between it and the wrong words.
_ACROSS = 0.1
_TOKEN = re.compile(rf"(?P<mark>\s[—–-]\s|—|–|;|:(?!\d)|[()\[\]])|{WORD.pattern}")


def evidence_sentence(claim: str, wrong: Sequence[str], hint: str, sentences: Sequence[str], question: str = "") -> str:
    """The sentence of ``sentences`` that ``claim`` is to be checked against (``hint`` when there are none).

    It is the context sentence sharing most (slot-weighted, :func:`_slot_weights`) words with
    ``claim`` (its wrong words left out), ties broken by the wrong words themselves (a sentence
    stating them holds the claim's slot: a swapped role, a false flag), then by the detector's
    own evidence ``hint``.

    A bare claim (no content word besides its wrong words: a HaluEval answer "Palermo.") says
    nothing to find its sentence by: the ``question``'s content words are its words then, so
    the sentence answering the question is quoted.

    Parameters
    ----------
    claim : str
        The flagged answer sentence.
    wrong : sequence of str
        Its flagged node texts (may be empty: a claim restated whole).
    hint : str
        The detector's own evidence sentence (``""``: none).
    sentences : sequence of str
        The context sentences.
    question : str
        The question (``""``: none).

    Returns
    -------
    str
        One of ``sentences``, or ``hint`` when none shares a word with the claim or there are none.
    """
    if not sentences:
        return hint
    weights = _slot_weights(claim, wrong)
    bad = set().union(*(content_words(w) for w in wrong)) if wrong else set()
    if question and not weights:
        weights = {k: 1.0 for k in content_words(question) - bad}
    near = content_words(hint)

    def score(s: str) -> tuple[float, int, int]:
        words = content_words(s)
        return sum(w for k, w in weights.items() if k in words), len(bad & words), len(near & words)

    best = max(sentences, key=score)
    return best if score(best)[0] > 0 else (hint or best)
