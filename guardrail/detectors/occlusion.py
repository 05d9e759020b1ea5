"""Which word makes an unsupported claim unsupported: occlusion with the claim verifier.

For a claim the verifier finds unsupported, each named entity, date or number of the claim is
removed in turn (with the preposition or article before it) and the shortened claim is scored
against the same evidence. The value whose removal raises p(supported) most is the one the
evidence does not back: a swapped name, date or number, or the added detail. Its node is then
the one flagged (issue 23, item 5: node spans come from the signal that decided), and the other
values of the claim that the evidence contains are not.

References
----------
Zeiler and Fergus, "Visualizing and Understanding Convolutional Networks", ECCV 2014
(occlusion as attribution). Li et al., "Understanding Neural Networks through Representation
Erasure", 2016 (erasure of input words).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["without", "occlusion_gains", "MIN_GAIN", "MAX_OCCLUSIONS"]

#: A removal must raise p(supported) by at least this much to name the culprit.
MIN_GAIN = 0.15
#: Most shortened claims scored per answer (each is one more cross-encoder pair).
MAX_OCCLUSIONS = 24
_PREPOSITIONS = r"in|on|at|of|by|from|to|for|with|about|around|nearly|almost|over"
_LEAD = r"(?:\b(?:" + _PREPOSITIONS + r"|the|a|an|some)\s+)*"
_PREP = re.compile(r"\b(?:" + _PREPOSITIONS + r")\b", re.I)
#: What stands in for a removed name that is not the object of a preposition (a subject or a
#: direct object): deleting "Kofi Mensah" from "Kofi Mensah got two goals" leaves a fragment the
#: verifier reads as vaguer, hence better supported, whatever else the claim gets wrong.
_STAND_IN = {"PERSON": "someone", "NORP": "someone", "ORG": "an organisation", "GPE": "a place",
             "LOC": "a place", "FAC": "a place"}


def without(claim: str, text: str, kind: str = "") -> str | None:
    """``claim`` with the first whole-word occurrence of ``text`` removed, together with the
    prepositions and articles right before it; ``None`` when ``text`` is not in ``claim`` or
    nothing would be left. A name of ``kind`` PERSON, NORP, ORG, GPE, LOC or FAC that no
    preposition governs is replaced by a stand-in ("someone", "an organisation", "a place")
    instead, so that the claim stays a sentence.

    Examples
    --------
    >>> without("Ardwyn was founded in 1995 in Sherbrooke.", "1995")
    'Ardwyn was founded in Sherbrooke.'
    """
    if not text.strip():
        return None
    m = re.search(_LEAD + r"(?<!\w)" + re.escape(text) + r"(?!\w)", claim, flags=re.I)
    if m is None:
        return None
    stand_in = _STAND_IN.get(kind, "")
    if stand_in and not _PREP.search(claim[m.start():m.end() - len(text)]):
        if not claim[:m.start()].strip():
            stand_in = stand_in[0].upper() + stand_in[1:]
        stand_in += " "
    else:
        stand_in = ""
    out = " ".join((claim[:m.start()] + stand_in + claim[m.end():]).split())
    out = re.sub(r"\s+([.,;:!?])", r"\1", out)
    return out if re.search(r"\w", out) and out != claim else None


def occlusion_gains(verifier: Any, claims: Sequence[str], evidence: Sequence[str], p: np.ndarray,
                    candidates: Sequence[tuple[int, str, str] | tuple[int, str, str, str]]) -> dict[str, float]:
    """Gain in p(supported) when each candidate is removed from its claim.

    Parameters
    ----------
    verifier : ClaimVerifier
        Has ``score(evidence, claims) -> sequence of float``.
    claims, evidence : sequence of str
        Claim ``k`` and its evidence, as the verifier read them.
    p : numpy.ndarray, shape (n_claims,)
        p(supported) of each claim, in [0, 1].
    candidates : sequence of (int, str, str) or (int, str, str, str)
        ``(k, node_id, text[, kind])``: a value of claim ``k`` to remove (``kind``, the node's
        entity label, picks its stand-in: :func:`without`); at most
        :data:`MAX_OCCLUSIONS` are scored (in the order given).

    Returns
    -------
    dict of str to float
        ``node_id -> p(claim without the value) - p(claim)``, in [-1, 1]; candidates whose text
        is not found in their claim are left out.
    """
    todo: list[tuple[str, int, str]] = []
    for k, node_id, text, *kind in candidates:
        short = without(claims[k], text, kind[0] if kind else "")
        if short is not None:
            todo.append((node_id, k, short))
    todo = todo[:MAX_OCCLUSIONS]
    if not todo:
        return {}
    q = verifier.score([evidence[k] for _, k, _ in todo], [s for *_, s in todo])
    return {node_id: float(qi) - float(p[k]) for (node_id, k, _), qi in zip(todo, q)}
