"""Alignment: the sentence encoder, claim units with their evidence, and triple relations.

* :mod:`guardrail.align.encoder`: the MiniLM sentence encoder (cached, batched).
* :mod:`guardrail.align.claims`: claim units and the evidence each is checked against.
* :mod:`guardrail.align.relations`: answer triple to context triple alignment (KEA Explain).
"""

from guardrail.align.claims import Evidence, claim_text, select_evidence
from guardrail.align.encoder import TextEncoder, cosine_matrix, shared_encoder

__all__ = ["Evidence", "TextEncoder", "claim_text", "cosine_matrix", "select_evidence", "shared_encoder"]
