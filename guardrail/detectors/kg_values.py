"""Typed-slot and literal checks: a claim's names, dates and numbers against its evidence.

* :class:`SlotContradictionDetector` (``"kg_slots"``): a name (person, organisation,
  place...), date or number of a claim that its aligned evidence does not contain,
  while the evidence holds a *different* value of the same type *in the same role*
  (their :func:`~guardrail.align.parsed.anchors` share at least ``min_role`` marks: the
  same governing verb, neighbouring words, or other values of the clause), is a
  contradiction: "until 15 August" where the evidence says "until 15 July"; "she
  succeeds Tomas Berg" where it says she succeeds Anna Lind. A value stated elsewhere in
  the context in the same role is not flagged (a synthesis of two passages).
* :class:`LiteralGroundingDetector` (``"kg_literals"``): every date, number, money
  amount, quantity and percentage of the answer must be in the context, or follow from
  two numbers of the claim's evidence by one arithmetic step (sum, difference,
  percentage, double, triple, half), each only where the claim says it takes that step ("later",
  "in total"; a percentage; "twice", "half"): "thirteen years later" from 1918 and 1931.

Values are compared after normalisation (:mod:`guardrail.align.values`), so "fourteen"
matches 14, "1.5 million" 1,500,000 and "March 2022" "15 March 2022".

References
----------
KEA Explain: contradictory triple pairs (a claim and evidence that differ in one
element); HalluGraph: entity grounding of literals; Sansford et al., GraphEval (2024).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from numbers import Integral

from guardrail.align.parsed import Sent, Slot, anchors, value_sentences
from guardrail.align.text_parses import parse_sentences
from guardrail.align.values import NumValue, numbers_equal, units_compatible
from guardrail.detectors._params import Interval, validated
from guardrail.detectors.base import AlignmentInput
from guardrail.detectors.kg_base import Flag, KGCheckDetector, flag_for
from guardrail.detectors.literal_forms import grounded_in_another_form
from guardrail.text.sentences import split_sentences
from guardrail.types import DetectorOutput

__all__ = ["SlotContradictionDetector", "LiteralGroundingDetector", "same_value", "same_type"]

_PLACE = frozenset({"GPE", "LOC", "FAC"})
_DIGITS = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _year(v: NumValue | None) -> int | None:
    if v is None or v.dim != "number" or not 1000 <= v.value <= 2100 or v.value != int(v.value):
        return None
    return int(v.value)


def _atoms(s: Slot) -> frozenset[str]:
    y = _year(s.num)
    return frozenset({f"y{y}"}) if y else (s.keys if s.kind == "DATE" else frozenset())


def conflicting_dates(c: Slot, e: Slot) -> bool:
    """Two dates that give a different value for a calendar component both state."""
    ac, ae = _atoms(c), _atoms(e)
    return any({k for k in ac if k[0] == p}.isdisjoint({k for k in ae if k[0] == p})
               for p in {k[0] for k in ac} & {k[0] for k in ae})


def same_value(c: Slot, e: Slot) -> bool:
    """Whether evidence slot ``e`` states claim slot ``c`` (names: one's words contain the
    other's or the same last word; dates: one's atoms contain the other's; numbers: equal
    within the claim's precision; a year equals a date naming only that year). Not
    symmetric: "2022" is stated by "March 2022", not the other way round."""
    if c.num is not None and e.num is not None:
        return numbers_equal(c.num, e.num)
    if c.kind == "DATE" or e.kind == "DATE":
        yc, ye = _atoms(c), _atoms(e)
        return bool(yc and ye) and yc <= ye
    if c.num is not None or e.num is not None or not c.keys or not e.keys:
        return False
    if c.keys <= e.keys or e.keys <= c.keys or c.kind == "TIME" or e.kind == "TIME":
        return c.keys <= e.keys or e.keys <= c.keys
    if _initials(c.text) == _initials(e.text):  # "U.S." / "the United States"
        return True
    return c.text.split()[-1].lower().strip("'s") == e.text.split()[-1].lower().strip("'s")


def _initials(name: str) -> str:
    words = [w for w in name.replace(".", " ").split() if w.lower() not in ("the", "of", "and")]
    if len(words) == 1 and words[0].isupper():
        return words[0].lower()
    return "".join(w[0] for w in words).lower() if len(words) > 1 else name.lower()


def same_type(c: Slot, e: Slot) -> bool:
    """Whether ``e`` could fill the slot of ``c``: same name label (places together), dates
    sharing a calendar component, numbers of compatible units."""
    if c.num is not None and e.num is not None:
        return units_compatible(c.num, e.num) and c.num.dim == e.num.dim
    if c.kind == "DATE" or e.kind == "DATE":
        return conflicting_dates(c, e)
    if c.kind == e.kind:
        return c.kind not in ("DATE", "NUM", "TIME") or c.kind == "TIME"
    return c.kind in _PLACE and e.kind in _PLACE


def _trivial(c: Slot) -> bool:
    """A number written as a small word ("one of them", "two languages") is not checked."""
    return c.num is not None and c.num.words and abs(c.num.value) <= 2


def _slots(sents: Sequence[Sent]) -> Iterator[tuple[Sent, Slot]]:
    for s in sents:
        for sl in s.slots:
            yield s, sl


def _in_text(c: Slot, sents: Sequence[Sent]) -> bool:
    """A name, a date (case kept) or a number's digits occurs verbatim in one of ``sents``."""
    if c.num is not None:  # a bare figure quantulum3 may read otherwise in the context
        digits = {m.group(0).replace(",", "") for m in _DIGITS.finditer(c.text)}
        return bool(digits) and not c.num.words and c.num.dim == "number" and any(
            digits <= {m.group(0).replace(",", "") for m in _DIGITS.finditer(s.text)} for s in sents)
    if c.kind == "DATE":  # as written, case and word bounds kept ("May" is no month in "may not")
        date = re.compile(r"(?<!\w)" + re.escape(c.text.removeprefix("the ")) + r"(?!\w)")
        return any(date.search(s.text) for s in sents)
    needle = c.text.lower().removesuffix("'s").removeprefix("the ")
    return any(needle in s.text.lower() for s in sents)


class SlotContradictionDetector(KGCheckDetector):
    """A claim value that its evidence replaces by another value of the same type in the
    same role (see the module docstring).

    Parameters
    ----------
    min_role : int
        Least number of shared role marks for two values to fill the same slot (>= 1;
        default 2).
    evidence_words : int
        Word budget of each claim's aligned evidence (default 80).
    name : str or None
        The registry row's name.

    Raises
    ------
    InvalidInputError
        ``min_role`` below 1 or a bad ``evidence_words``.
    """

    name = "kg_slots"

    _parameter_constraints = {**KGCheckDetector._parameter_constraints, "min_role": [Interval(Integral, 1, None)]}

    @validated
    def __init__(self, min_role: int = 2, evidence_words: int = 80, name: str | None = None) -> None:
        super().__init__(evidence_words=evidence_words, name=name)
        self.min_role = min_role

    def check_claim(self, claim: Sent, evidence: Sequence[Sent], context: Sequence[Sent]) -> list[Flag]:
        """Flag each claim value replaced in its evidence (see the class docstring)."""
        flags: list[Flag] = []
        ev = list(_slots(evidence))
        for c in claim.slots:
            if _trivial(c) or any(same_value(c, e) for _, e in ev) or _in_text(c, evidence):
                continue
            if c.num is not None and _arithmetic(c.num, _numbers(evidence)):
                continue  # "450 above the 6,000 goal" from 6,450
            role = anchors(claim, c)
            if any(same_value(c, e) and role & anchors(s, e) for s, e in _slots(context)):
                continue  # stated in the same role elsewhere (a synthesis)
            elsewhere = _in_text(c, context) or any(same_value(c, x) for _, x in _slots(context))
            best: tuple[int, Sent, Slot] | None = None
            for s, e in ev:
                if not same_type(c, e) or any(same_value(o, e) for o in claim.slots):
                    continue
                shared = len(role & anchors(s, e))
                if shared >= self.min_role + elsewhere and (best is None or shared > best[0]):
                    best = (shared, s, e)
            if best is None:
                continue
            _, s, e = best
            reason = (f"the answer says '{c.text}' where the context says '{e.text}' in the same role: "
                      f"'{s.text}'" + (f" ('{c.text}' is named elsewhere in the context)" if elsewhere else ""))
            conf = 0.9 if elsewhere or c.kind in ("NUM", "DATE") else 0.7
            flags.append(flag_for(claim, c.start, c.end, reason, s, conf))
        return flags


#: A claim that says it scales a figure ("twice", "double", "half", "three times", "threefold"):
#: only then may one of its numbers be a double, triple or half of an evidence number.
_SCALING = re.compile(r"\b(?:twice|double[ds]?|doubling|triple[ds]?|tripling|treble[ds]?|thrice|half|halve[ds]?|"
                      r"halving|times|\w+-?fold)\b", re.I)


#: A claim that says it adds or subtracts ("thirteen years later", "£250,000 left", "in total"):
#: only then may one of its numbers be a sum or difference of two evidence numbers. Words as
#: common as "up", "by", "more" or "than" are no cue: "$39 a month for up to five users" against a
#: table of $29 and 10 GB followed as 29 + 10.
_ADDING = re.compile(r"\b(?:later|earlier|before|after|ago|since|total(?:l?ing|s)?|in all|altogether|combined|"
                     r"together|sum|difference|gap|apart|longer|shorter|older|younger|rise|rose|risen|rising|"
                     r"fell|fall|fallen|falling|increased?|decreased?|gained|lost|left|remaining|remainder|"
                     r"leaving|extra|additional|plus|minus|lasted|spanning|aged?)\b", re.I)


#: What follows a number that is a factor: "three times as many", "a 3-fold rise", "3x" (not "three times that
#: day": a count of occasions).
_FACTOR = re.compile(r"\s*(?:-\s*)?(?:fold\b|x\b|times\s+(?:as|more|less|fewer|higher|lower|larger|bigger|greater|"
                     r"smaller|longer|shorter|the|over|its|their)\b)", re.I)


def _arithmetic(v: NumValue, nums: Sequence[float], claim: str = "") -> bool:
    """``v`` follows from one or two of ``nums`` by one arithmetic step the claim says it takes: a
    sum or a difference when it says it adds or subtracts (:data:`_ADDING`: "thirteen years later"),
    a percentage ``100 a / b`` when ``v`` is one, the ratio ``a / b`` when ``v`` is a factor ("three
    times as many", "a 3-fold rise": :data:`_FACTOR`), a double, a triple or a half when it says it
    scales a figure (:data:`_SCALING`: "twice"). Products and other ratios are left out, and no step
    is taken without its cue: too many wrong figures follow by chance ("within 60 days" against
    "within 30 days" as a double, "10 to 40 units" against "between 10 and 25" as 100 * 10 / 25)."""
    tol = max(v.tol, 1e-9)
    for a in nums if _SCALING.search(claim) else ():
        if any(abs(k * a - v.value) <= tol for k in (2.0, 3.0, 0.5)):
            return True
    adding, share = bool(_ADDING.search(claim)), v.dim == "percent"
    factor = v.dim == "number" and _FACTOR.match(claim, v.end) is not None  # "three times as many", "a 3-fold rise"
    for a, b in itertools.permutations(nums, 2) if adding or share or factor else ():
        cands = [a + b, a - b] if adding else []
        if b and share:
            cands.append(100.0 * a / b)
        if b and factor and abs(a / b - v.value) <= 0.05 * abs(v.value):  # within 5 %: a free ratio is a weak licence
            return True
        if any(abs(x - v.value) <= tol for x in cands):
            return True
    return False


def _figures(claim: Sent) -> list[Slot]:
    """The dates, times of day and numbers of a claim that must be grounded (small numbers in words are not)."""
    return [c for c in claim.slots if c.kind in ("DATE", "NUM", "TIME") and not _trivial(c)]


def _numbers(sents: Sequence[Sent]) -> list[float]:
    out: list[float] = []
    for s in sents:
        for sl in s.slots:
            if sl.num is not None:
                out.append(sl.num.value)
            out.extend(float(k[1:]) for k in sl.keys if sl.kind == "DATE" and k[0] == "y")
    return list(dict.fromkeys(out))[:40]


#: What a date or number slot needs in its text: a digit, a number or ordinal word, or a word of
#: time (a month, a weekday, a season, "year", "today"...). An answer with none has no literal.
_TIME_OR_FIGURE = re.compile(
    r"\d|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|thirty|forty|"
    r"fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|trillion|dozens?|half|quarters?|"
    r"once|twice|first|second|third|\w+th|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*|jul\w*|aug\w*|sep\w*|"
    r"oct\w*|nov\w*|dec\w*|\w+day|\w+days|spring|summer|autumn|fall|winter|week\w*|month\w*|year\w*|"
    r"decades?|century|centuries|hours?|minutes?|seconds?|tonight|morning|evening|night|noon|midnight|"
    r"annual\w*|season\w*|weekend\w*|ago|now|current\w*|recent\w*|lately|past|last|next)\b", re.I)


class LiteralGroundingDetector(KGCheckDetector):
    """Every date and number of the answer must be grounded in the context (see the module
    docstring).

    Parameters
    ----------
    arithmetic : bool
        Accept a number that one arithmetic step derives from two numbers of the claim's
        evidence (default True).
    evidence_words : int
        Word budget of each claim's aligned evidence (default 80).
    name : str or None
        The registry row's name.
    """

    name = "kg_literals"

    _parameter_constraints = {**KGCheckDetector._parameter_constraints, "arithmetic": [bool]}

    @validated
    def __init__(self, arithmetic: bool = True, evidence_words: int = 80, name: str | None = None) -> None:
        super().__init__(evidence_words=evidence_words, name=name)
        self.arithmetic = bool(arithmetic)

    def check_claim(self, claim: Sent, evidence: Sequence[Sent], context: Sequence[Sent]) -> list[Flag]:
        """Flag each date or number of the claim that the context does not ground."""
        flags: list[Flag] = []
        ctx = list(_slots(context))
        nums: list[float] | None = None
        for c in _figures(claim):
            if self._grounded(c, claim, context, ctx):
                continue
            if c.num is not None and self.arithmetic:
                nums = _numbers(evidence) if nums is None else nums
                if _arithmetic(c.num, nums, claim.text):
                    continue
            near = [(s, e) for s, e in _slots(evidence) if same_type(c, e)]
            ev = near[0][0] if near else (evidence[0] if evidence else None)
            said = f"; the closest evidence says '{near[0][1].text}' in '{near[0][0].text}'" if near else ""
            reason = f"'{c.text}' is stated nowhere in the context{said}"
            flags.append(flag_for(claim, c.start, c.end, reason, ev, 0.9 if near else 0.7))
        return flags

    def _grounded(self, c: Slot, claim: Sent, context: Sequence[Sent], ctx: Sequence[tuple[Sent, Slot]]) -> bool:
        """The context states figure ``c`` (value, verbatim, across a sentence's dates, or in another form)."""
        return any(same_value(c, e) for _, e in ctx) or _in_text(c, context) or self._dates_joined(c, context) \
            or grounded_in_another_form(c, context, claim.text)

    def detect(self, item: AlignmentInput) -> DetectorOutput:
        """Check every claim unit; a figure the question states is grounded too ("98.5% is under the
        99% threshold" answering "Is 98.5% availability covered?"), but never chosen as evidence.

        When the values the context's text shows (:func:`~guardrail.align.parsed.value_sentences`: no
        spaCy parse) ground every figure of the answer, nothing is flagged and the context is not parsed;
        otherwise every claim is checked against the parsed context (its date entities and evidence too).

        Raises
        ------
        ExtractionError
            The spaCy model cannot be loaded.
        """
        if not _TIME_OR_FIGURE.search(item.answer):  # nothing to ground: no values read, no quantulum3 loaded
            return self.output(item, [], len(split_sentences(item.answer)))
        claims = parse_sentences([item.answer], source_of=-1)
        texts = [*item.contexts, *([item.question] if item.question else [])]
        light = value_sentences(texts)
        slots = list(_slots(light))
        if all(self._grounded(c, claim, light, slots) for claim in claims for c in _figures(claim)):
            return self.output(item, [], len(claims))
        context = parse_sentences(list(item.contexts))
        asked = parse_sentences([item.question], source_of=-2) if item.question else []
        flags: list[Flag] = []
        for claim in claims:
            flags.extend(self.check_claim(claim, self.evidence_for(claim, context), [*context, *asked]))
        return self.output(item, flags, len(claims))

    @staticmethod
    def _dates_joined(c: Slot, context: Sequence[Sent]) -> bool:
        """A claim date whose atoms one context sentence states across several dates."""
        if c.kind != "DATE":
            return False
        for s in context:
            atoms: set[str] = set()
            for sl in s.slots:
                atoms |= sl.keys if sl.kind == "DATE" else ({f"y{_year(sl.num)}"} if _year(sl.num) else set())
            if c.keys <= atoms:
                return True
        return False
