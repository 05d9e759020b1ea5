"""Trained networks and their weights (torch, imported lazily).

* :mod:`guardrail.models.claim_verifier`: the MiniLM cross-encoder p(supported | evidence, claim);
  weights in ``models/verifier/``.
* :mod:`guardrail.models.kg_guard_graph`: the augmented answer/context graph of KG-Guard (numpy).
* :mod:`guardrail.models.kg_guard_network`: the KG-Guard graph transformer; weights in ``models/kg_guard/``.

The detectors that use them live in :mod:`guardrail.detectors`.
"""

__all__: list[str] = []
