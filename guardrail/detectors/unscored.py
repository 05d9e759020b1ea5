"""Which answer sentences the claim verifier leaves out of its score, and what the rest get.

An answer is more than its claims: it may decline ("I don't know."), say what the context does
not hold, thank the user, ask the user a question, open with a bare verdict ("Sadly no."), or
talk about itself ("As an AI assistant, I can only go by the documents you shared."). None of
these states a fact about the world, so scored against the evidence their p(supported) is noise
(often near 0), and the answer's score, ``1 - min_k p_k``, would be that noise. The sentence
rules live in :mod:`guardrail.text.declines`; :func:`mask_scores` applies them to the verifier's
per-sentence scores:

* gibberish (no word that is an English function word or occurs in the evidence) gets 0, unless
  it is an aside left out below ("Exactly!", "Impressive, right?" share no word with anything);
* pleasantries and sentences about the answer or the assistant (:func:`~guardrail.text.declines.meta_sentence`)
  are always left out (an answer of nothing else is not flagged for them);
* declines, and sentences on what the context does not say, are left out when another sentence
  states something, else they get 0 (the answer declines: see :class:`~guardrail.Guard`'s
  ``declined``);
* questions to the user, bare verdicts and the speaker's own evaluations ("Honestly, that sounds
  great to me.", :func:`~guardrail.text.opinions.opinion_sentence`) are left out when another
  sentence states something, else scored as they are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from guardrail.text.declines import (
    meta_sentence,
    non_answer_sentence,
    pleasantry_sentence,
    question_sentence,
    source_decline_sentence,
    verdict_fragment,
)
from guardrail.text.lexicon import CHAT_FUNCTION_WORDS
from guardrail.text.opinions import opinion_sentence

__all__ = ["mask_scores", "checkable", "non_answer", "framing"]

_WORD = re.compile(r"[a-z0-9]+")


def non_answer(sentence: str) -> bool:
    """A sentence that only declines ("I don't know."): :func:`guardrail.text.declines.non_answer_sentence`."""
    return non_answer_sentence(sentence)


def framing(sentence: str) -> bool:
    """Whether ``sentence`` only frames the answer: a pleasantry or a sentence about the answer or
    the assistant (:func:`~guardrail.text.declines.pleasantry_sentence`,
    :func:`~guardrail.text.declines.meta_sentence`). Always left out of the score, and never the
    sentence a pronoun of the next one is read after ("As an AI assistant, I can only go by the
    documents you shared. Its designer was ...").

    Parameters
    ----------
    sentence : str
        One sentence of an answer, as written.

    Returns
    -------
    bool
        Whether the sentence is a pleasantry or a meta sentence.

    Examples
    --------
    >>> framing("Great question!")
    True
    >>> framing("Norvik was founded in 2011.")
    False
    """
    return pleasantry_sentence(sentence) or meta_sentence(sentence)


def checkable(claim: str, evidence: str) -> bool:
    """False for gibberish: no word at all (emoji, punctuation), or no word that is an
    English function word or occurs in ``evidence`` ("qwertyuiop asdfghjkl").

    Parameters
    ----------
    claim : str
        A claim as the verifier reads it.
    evidence : str
        Its evidence text.

    Returns
    -------
    bool
        Whether the claim has anything the verifier can check.

    Examples
    --------
    >>> checkable("qwertyuiop asdfghjkl", "It opened in 1932.")
    False
    >>> checkable("It opened in 1931.", "It opened in 1932.")
    True
    """
    words = _WORD.findall(claim.lower())
    ev = set(_WORD.findall(evidence.lower()))
    return any(w in CHAT_FUNCTION_WORDS or w in ev for w in words)


def mask_scores(texts: Sequence[str], claims: Sequence[str], evidence: Sequence[str], p: np.ndarray) -> np.ndarray:
    """The verifier's scores with the nothing-to-check rules applied (see the module docstring).

    Parameters
    ----------
    texts : sequence of str
        Each unit's sentence as written in the answer (length n).
    claims : sequence of str
        Each unit's claim as the verifier read it (length n).
    evidence : sequence of str
        Each unit's evidence text (length n).
    p : numpy.ndarray
        p(supported) per unit, shape (n,), values in [0, 1].

    Returns
    -------
    numpy.ndarray
        Shape (n,): 1.0 where a unit is left out of the score, 0.0 for gibberish and for the
        declines of an answer that states nothing else, ``p`` elsewhere.
    """
    decl = np.array([non_answer(t) or source_decline_sentence(t) for t in texts], dtype=bool)
    nice = np.array([framing(t) for t in texts], dtype=bool) & ~decl
    aside = np.array([question_sentence(t) or verdict_fragment(t) or opinion_sentence(t) for t in texts], dtype=bool)
    facts = ~decl & ~nice & ~aside
    facts = facts if facts.any() else ~decl & ~nice  # no statement: its questions are scored
    sane = np.array([checkable(c, e) for c, e in zip(claims, evidence)], dtype=bool)
    p = np.where(facts, p, 1.0 if facts.any() or not decl.any() else np.where(nice, 1.0, 0.0))
    return np.where(sane | nice | (aside & ~facts), p, 0.0)  # an aside left out is not gibberish ("Exactly!")
