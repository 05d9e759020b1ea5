"""Claims the context states word for word: supported whatever the verifier reads.

Entailment is reflexive: a claim that a context sentence states verbatim is supported by it. The
claim verifier does not know that. Trained on minimal edits, where near-copies are the unsupported
ones, it scores exact copies low on their own: "The shingles vaccine is offered to everyone turning
65 and to people aged 50 and over with a severely weakened immune system." against that very
sentence gets p(supported) 0.28, and across the dev sets the median p of a sentence scored against
itself is about 0.7 (QAGS-C, whose summaries copy whole sentences of the article: 22 of 248 copied
claims below 0.5). :func:`stated_verbatim` finds the claims that a context sentence states word for
word, so the verifier can give them the support they have.

Word for word means the claim's words (case, punctuation and hedges aside) are a contiguous run of
one context sentence's words, with at least :data:`MIN_WORDS` of them, and the run is not said
under a negation, a report or a condition of that sentence: no word of :data:`_UNDER` among the
three before it ("It is not true that ...", "Critics claim ...", "... only if ...") and no negation
right after it ("... is open not only ..."). A claim that opens with a pronoun is never read as
stated: its referent may not be the sentence's ("It closes on Mondays." about another place).
A minimal edit (a swapped name, a shifted date, an added "not") is never a verbatim copy.

References
----------
Dagan et al., "The PASCAL Recognising Textual Entailment Challenge", 2005 (entailment as a
reflexive relation of text pairs).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["stated_verbatim", "MIN_WORDS"]

#: Fewest words of a claim read as stated verbatim (a bare "Yes, it is." is left to the verifier).
MIN_WORDS = 5

_WORD = re.compile(r"\w+(?:[.,]\d+)*")
_PRONOUN = frozenset("it its he she his her they their them this these that those there both such".split())
#: Words that, among the three before a run, put it under a negation, a report or a condition.
_UNDER = frozenset("not n't no never nor neither deny denies denied denying false falsely myth untrue whether if "
                   "unless claim claims claimed allege alleges alleged allegedly reportedly rumoured rumored "
                   "said says say suggest suggests suggested that".split())
_AFTER = frozenset({"not", "n't", "never"})


def _words(text: str) -> list[str]:
    return [w.lower().replace(",", "") for w in _WORD.findall(text.replace("n't", " n't"))]


def _stated_in(claim: list[str], sent: list[str]) -> bool:
    n = len(claim)
    for i in range(len(sent) - n + 1):
        if sent[i:i + n] == claim and not _UNDER & set(sent[max(0, i - 3):i]) and \
                not (i + n < len(sent) and sent[i + n] in _AFTER):
            return True
    return False


def _joined(words: list[str]) -> str:
    return " " + " ".join(words) + " "


def stated_verbatim(claims: Sequence[str], sentences: Sequence[str]) -> list[bool]:
    """Which claims a context sentence states word for word (module docstring).

    Parameters
    ----------
    claims : sequence of str
        Answer claims as written (hedges already removed), one sentence or clause each.
    sentences : sequence of str
        The context sentences.

    Returns
    -------
    list of bool
        One per claim: True when some sentence states it verbatim, not under a negation, report
        or condition; False for a claim of fewer than :data:`MIN_WORDS` words or one that opens
        with a pronoun.

    Examples
    --------
    >>> stated_verbatim(["The museum is closed on Mondays.", "It is closed on Mondays."],
    ...                 ["Since 2019 the museum is closed on Mondays and holidays.", "It is closed on Mondays."])
    [True, False]
    >>> stated_verbatim(["The museum is closed on Mondays."], ["It is not true that the museum is closed on Mondays."])
    [False]
    """
    read = [_words(s) for s in sentences]
    joined = [_joined(w) for w in read]
    whole = "\n".join(joined)  # one substring test rules out most claims at C speed
    out = []
    for c in claims:
        words = _words(c)
        key = _joined(words)
        ok = len(words) >= MIN_WORDS and words[0] not in _PRONOUN and key in whole
        out.append(ok and any(key in j and _stated_in(words, w) for w, j in zip(read, joined)))
    return out
