"""Trained networks, their weights and the runtime that runs them.

* :mod:`guardrail.models.claim_verifier`: the MiniLM cross-encoder p(supported | evidence, claim),
  run with ONNX Runtime; files in ``models/verifier/`` (``model.onnx``, ``tokenizer.json``; the
  torch source ``model.safetensors``).
* ``models/encoder/``: the all-MiniLM-L6-v2 sentence encoder in ONNX, used by
  :mod:`guardrail.align.encoder`.
* :mod:`guardrail.models.runtime`: ONNX Runtime sessions, tokenizers, the thread setting
  (``KG_GUARDRAIL_THREADS``).
* :mod:`guardrail.models.weights`: the one SHA-256 check of every loaded model file.
* :mod:`guardrail.models.torch_reference`: the torch models the ONNX files come from (export
  checks and agreement benchmarks only; ``train`` extra).
* :mod:`guardrail.models.kg_guard_network`: the KG-Guard graph transformer (torch, ``kg-guard``
  extra) and its input, the augmented answer/context graph as numpy arrays (built by
  :mod:`guardrail.detectors.kg_guard_graph`); weights in ``models/kg_guard/``.

The detectors that use them live in :mod:`guardrail.detectors`.
"""

__all__: list[str] = []
