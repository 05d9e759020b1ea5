"""Surface normalisation of tokenised text (PTB style) for the verifier and evidence ranking.

Summaries and dialogue in many benchmarks come lower-cased and tokenised (``"the club 's
manager -lrb- 54 -rrb- said so ."``). The cross-encoder's vocabulary is uncased, so case does
not matter to it, but PTB tokens do: ``-lrb-`` is read as a word and ``" 's"`` as a separate
token. :func:`detokenize` undoes the PTB conventions so that a tokenised text and its original
are read the same way. It is applied to the text the verifier reads, never to the spans the
user gets back.

References
----------
Marcus et al., "Building a Large Annotated Corpus of English: The Penn Treebank", 1993
(the bracket and quote tokens); the Moses detokeniser rules for clitics and punctuation.
"""

from __future__ import annotations

import re

__all__ = ["detokenize"]

_BRACKETS = {"-lrb-": "(", "-rrb-": ")", "-lsb-": "[", "-rsb-": "]", "-lcb-": "{", "-rcb-": "}"}
_BRACKET = re.compile(r"-(?:lrb|rrb|lsb|rsb|lcb|rcb)-", re.I)
_OPEN_QUOTE = re.compile(r"``\s*")
_CLOSE_QUOTE = re.compile(r"\s*''")
_CLITIC = re.compile(r"\s+(n't|'s|'re|'ve|'ll|'d|'m)\b", re.I)
_SPACE_BEFORE = re.compile(r"\s+([.,;:!?%)\]}])")
_SPACE_AFTER = re.compile(r"([(\[{$])\s+")
_SPACES = re.compile(r"\s+")


def detokenize(text: str) -> str:
    """Undo PTB tokenisation: brackets, quotes, clitics and spaces around punctuation.

    Parameters
    ----------
    text : str
        Any text; text that is not tokenised comes back with its white space collapsed.

    Returns
    -------
    str
        The detokenised text (same case as the input).

    Examples
    --------
    >>> detokenize("the club 's manager -lrb- 54 -rrb- said `` no '' .")
    'the club\\'s manager (54) said "no".'
    >>> detokenize("it does n't cost $ 5 , he said .")
    "it doesn't cost $5, he said."
    """
    out = _BRACKET.sub(lambda m: _BRACKETS[m.group(0).lower()], text)
    out = _OPEN_QUOTE.sub('"', out)
    out = _CLOSE_QUOTE.sub('"', out)
    out = _CLITIC.sub(r"\1", out)
    out = _SPACE_BEFORE.sub(r"\1", out)
    out = _SPACE_AFTER.sub(r"\1", out)
    return _SPACES.sub(" ", out).strip()
