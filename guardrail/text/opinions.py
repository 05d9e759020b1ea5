"""Sentences that give the speaker's own evaluation, and state no fact about the world.

An LLM answer sometimes adds its own view of what it reports ("Personally, I think that's a
really good option.", "Honestly, that sounds great to me.", "That seems fair to me."). Scored
against the evidence such a sentence reads as unsupported (the shipped verifier: p near 0), so
one remark flagged the faithful answer it closed: of 29 faithful realistic answers the default
passed, those three remarks flagged 23, 29 and 26.

:func:`opinion_sentence` is a closed-list rule, like the pleasantry and meta-sentence rules of
:mod:`guardrail.text.declines`: an evaluative word (:data:`~guardrail.text.lexicon.OPINION_HEADS`),
a mark that the speaker gives it as their own (:data:`~guardrail.text.lexicon.OPINION_MARKERS`:
"I", "me", "personally", "honestly"), and no other word than those lists,
:data:`~guardrail.text.lexicon.OPINION_WORDS` and :data:`~guardrail.text.lexicon.PLEASANTRY_WORDS`.
A sentence with a name, a number or a content word of its own ("I think the warranty is good
for two years.") is a claim and is scored; an evaluation without the speaker's mark ("It is
very easy.", the answer to "Is it hard to install?") is scored too. The verifier leaves an
opinion out of an answer's score only when another sentence states something
(:func:`guardrail.detectors.unscored.mask_scores`): an answer that is nothing but an opinion is
scored as it is.
"""

from __future__ import annotations

import re

from guardrail.text import lexicon as lx

__all__ = ["opinion_sentence"]

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def opinion_sentence(sentence: str) -> bool:
    """Whether one sentence of an answer only gives the speaker's own evaluation.

    Parameters
    ----------
    sentence : str
        One sentence, as written.

    Returns
    -------
    bool
        True when the sentence holds a word of :data:`~guardrail.text.lexicon.OPINION_HEADS`, one
        of :data:`~guardrail.text.lexicon.OPINION_MARKERS` and no word outside
        :data:`~guardrail.text.lexicon.OPINION_WORDS` and :data:`~guardrail.text.lexicon.PLEASANTRY_WORDS`.

    Examples
    --------
    >>> opinion_sentence("Honestly, that sounds great to me.")
    True
    >>> opinion_sentence("It is very easy.")
    False
    >>> opinion_sentence("I think the warranty is good for two years.")
    False
    """
    words = _WORD.findall(sentence.lower().replace("\u2019", "'"))
    return (any(w in lx.OPINION_HEADS for w in words) and any(w in lx.OPINION_MARKERS for w in words)
            and all(w in lx.OPINION_WORDS or w in lx.PLEASANTRY_WORDS for w in words))
