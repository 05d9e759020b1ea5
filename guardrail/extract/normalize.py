"""Cheap, deterministic text normalisation for node labels.

Detectors match claim nodes against context nodes by :attr:`Node.label
<guardrail.types.Node.label>`, so the label must be the same for the same surface
text wherever it occurs: lower-cased, leading determiners and possessive pronouns
removed, whitespace collapsed, surrounding punctuation and a trailing ``'s``
stripped. Digits are kept (``"1976"`` stays ``"1976"``). No model is involved; the
functions are pure string operations (KEA Explain and HalluGraph both match nodes
by such normalised surface forms after spaCy NER and dependency parsing).
"""

from __future__ import annotations

import re

from guardrail.errors import InvalidInputError
from guardrail.text.lexical import content_tokens
from guardrail.text.lexicon import LEADING_WORDS

# content_tokens lives in guardrail.text.lexical (text helpers sit below extraction); re-exported here
__all__ = ["normalize_label", "content_tokens"]



_SPACE = re.compile(r"\s+")
# Punctuation stripped from both ends of a label; "$", "%", "&", "+", "#" are kept
# because they carry meaning ("$5", "50%").
_EDGE_PUNCT = " \t\n\r.,;:!?\"'`()[]{}<>*-–—_/\\|~“”‘’«»…"


def normalize_label(text: str) -> str:
    """Return the matching label of a node's surface text.

    Steps, in order: lower-case; unify curly apostrophes; collapse whitespace;
    strip surrounding punctuation; strip a trailing ``'s`` (a bare trailing ``'`` goes with the punctuation);
    strip leading words in :data:`LEADING_WORDS` (repeatedly, so ``"all of the"``
    style stacks such as ``"his the"`` go too); strip punctuation again. When stripping
    would leave nothing (``"The"``), the punctuation-stripped lower-case text is kept.

    Parameters
    ----------
    text : str
        Any surface text, e.g. ``"The Oberoi family's"``.

    Returns
    -------
    str
        The label, e.g. ``"oberoi family"``; ``""`` for text made only of
        punctuation or whitespace.

    Raises
    ------
    TypeError
        If ``text`` is not a str.

    Examples
    --------
    >>> normalize_label("  The   Apple's ")
    'apple'
    >>> normalize_label("its 1976 model,")
    '1976 model'
    """
    if not isinstance(text, str):
        raise InvalidInputError(f"normalize_label expects str, got {type(text).__name__}")
    low = _SPACE.sub(" ", text.lower().replace("’", "'")).strip(_EDGE_PUNCT)
    base = low
    if low.endswith("'s") and len(low) > 2:
        low = low[:-2].rstrip(_EDGE_PUNCT)
    words = low.split(" ")
    while len(words) > 1 and words[0] in LEADING_WORDS:
        words = words[1:]
    out = " ".join(words).strip(_EDGE_PUNCT)
    return out or base
