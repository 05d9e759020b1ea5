"""One name, one surface: an acronym and the words it stands for read alike.

A context that says "Tom Reed is its chief technology officer" and an answer that says "Tom
Reed is the CTO" state the same thing, but the claim verifier compares surfaces: the shipped
verifier read that faithful answer as unsupported (score 0.78, flagged node "the CTO").
:func:`match_acronyms` writes the claim's acronym as the words of the evidence whose initials
spell it ("CTO" -> "chief technology officer", "NHS" -> "National Health Service"), and the
claim's spelt-out words as the evidence's acronym the other way round. No table: the
expansion is read from the evidence itself, and only when exactly one run of its words
spells the acronym, so an acronym the evidence does not spell out, or spells two ways, reads
as written.

Only the verifier's input changes (in training as at inference, through
:func:`~guardrail.text.value_forms.match_value_forms`); spans and explanations read the answer
as written.
"""

from __future__ import annotations

import re

from guardrail.text.lexicon import STOP_WORDS

__all__ = ["match_acronyms", "expansions"]

#: 2-6 capitals, an optional plural "s" ("CTO", "NHS", "CEOs").
_ACRONYM = re.compile(r"\b([A-Z]{2,6})(s?)\b")
_BARE_ACRONYM = re.compile(r"\b[A-Z]{2,6}\b")
_ROMAN = re.compile(r"[IVXLCDM]+")
_WORD = re.compile(r"[A-Za-z][\w'-]*")
#: Words an acronym's letters may skip ("Department of Transport", "Food and Drug Administration").
_SKIPPED = frozenset({"of", "and", "for", "the", "&", "on", "in"})


def expansions(acronym: str, text: str) -> set[str]:
    """Runs of words of ``text`` whose initials spell ``acronym`` (case-insensitive), each as written.

    A run starts and ends with a content word; the function words of ``_SKIPPED`` between
    them spell their letter or are skipped ("Department of Transport" spells "DOT", "Food and
    Drug Administration" "FDA"); no other stop word spells ("is the top" does not spell "IT"), and an acronym that is itself a
    stop word ("WHO"; "NOT", shouted) is spelt only by capitalised words ("World Health
    Organization"). Single letters ("U.S.") spell nothing and a Roman numeral ("II", "XIV") is no
    acronym.

    Parameters
    ----------
    acronym : str
        2-6 capitals ("CTO").
    text : str
        Where to look (one evidence text).

    Returns
    -------
    set of str
        Each run as written in ``text``; empty when none spells it.

    Examples
    --------
    >>> sorted(expansions("CTO", "Tom Reed is its chief technology officer."))
    ['chief technology officer']
    >>> sorted(expansions("FDA", "The Food and Drug Administration approved it."))
    ['Food and Drug Administration']
    """
    words = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(text)]
    letters = acronym.lower()
    out: set[str] = set()
    if _ROMAN.fullmatch(acronym):
        return out
    proper = letters in STOP_WORDS

    def spells(word: str, letter: str) -> bool:
        low = word.lower()
        return (len(low) > 1 and low[0] == letter and (low in _SKIPPED or low not in STOP_WORDS)
                and (word[0].isupper() or not proper))

    for i, (w, start, _) in enumerate(words):
        if w.lower() in _SKIPPED or not spells(w, letters[0]):
            continue
        k, j = 1, i + 1
        while k < len(letters) and j < len(words):
            nxt = words[j][0]
            if spells(nxt, letters[k]):
                k += 1
            elif nxt.lower() not in _SKIPPED:
                break
            j += 1
        if k == len(letters) and j - i > 1 and words[j - 1][0].lower() not in _SKIPPED:
            out.add(text[start:words[j - 1][2]])
    return out


def match_acronyms(evidence: str, claim: str) -> tuple[str, str]:
    """The pair with the claim's acronyms and spelt-out names in the evidence's surface.

    Parameters
    ----------
    evidence, claim : str
        One verifier pair.

    Returns
    -------
    tuple of (str, str)
        ``(evidence, claim)``: each acronym of the claim that the evidence does not contain
        but spells out in exactly one way written as those words (a plural "s" kept), and each
        run of claim words that spells an acronym of the evidence the claim lacks written as
        that acronym; the pair as given when nothing matches.

    Examples
    --------
    >>> match_acronyms("Tom Reed is its chief technology officer.", "Tom Reed is the CTO.")
    ('Tom Reed is its chief technology officer.', 'Tom Reed is the chief technology officer.')
    >>> match_acronyms("The NHS pays for it.", "The National Health Service pays for it.")
    ('The NHS pays for it.', 'The NHS pays for it.')
    >>> match_acronyms("The chief executive resigned.", "The CEO resigned.")
    ('The chief executive resigned.', 'The CEO resigned.')
    """
    has_upper = any(c.isupper() for c in claim) or any(c.isupper() for c in evidence)
    if not has_upper:
        return evidence, claim
    in_evidence = set(_BARE_ACRONYM.findall(evidence))

    def spell_out(m: re.Match[str]) -> str:
        acr, plural = m.group(1), m.group(2)
        if acr in in_evidence:
            return m.group(0)
        found = expansions(acr, evidence)
        if len(found) != 1:
            return m.group(0)
        words = next(iter(found))
        return words + plural if not words.endswith("s") else words

    claim = _ACRONYM.sub(spell_out, claim)
    for acr in in_evidence - set(_BARE_ACRONYM.findall(claim)):
        found = expansions(acr, claim)
        if len(found) == 1:
            claim = claim.replace(next(iter(found)), acr)
    return evidence, claim
