"""Detectors: each scores how well the answer's claim graph is supported by the context.

:data:`DETECTORS` maps config names to ``"module:Class"``; classes import lazily.
"""

from __future__ import annotations

import importlib
from typing import Any

from guardrail.detectors.base import AlignmentInput, Detector
from guardrail.errors import ConfigError

__all__ = ["Detector", "AlignmentInput", "DETECTORS", "VARIANTS", "build_detector", "build_detectors"]

#: Detector name -> "module:Class".
DETECTORS: dict[str, str] = {
    "wl_kernel": "guardrail.detectors.wl_kernel:WLKernelDetector",
    "grounding": "guardrail.detectors.grounding:GroundingDetector",
    "entity": "guardrail.detectors.entity:EntityGroundingDetector",
    "relation": "guardrail.detectors.grounding:RelationPreservationDetector",
    "lexical_ctx": "guardrail.detectors.support:ContextLexicalDetector",
    "lexical_bigram": "guardrail.detectors.support:BigramSupportDetector",
    "lexical": "guardrail.detectors.support:LexicalSupportDetector",
    "lexical_worst": "guardrail.detectors.support:WorstSentenceLexicalDetector",
    "sentence": "guardrail.detectors.support:SentenceSupportDetector",
    "novelty": "guardrail.detectors.novelty:NoveltyDetector",
    "kg_guard": "guardrail.detectors.kg_guard:KGGuardDetector",
    "verifier": "guardrail.detectors.verifier:VerifierDetector",
}


#: Named variants of parameterised detectors: name -> (registered detector, default params).
VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "novelty_bigram": ("novelty", {"ngram": 2, "mode": "fraction"}),
    "novelty_trigram": ("novelty", {"ngram": 3, "mode": "fraction"}),
    "novelty_count": ("novelty", {"ngram": 1, "mode": "count", "scale": 5.0}),
    "novelty_bigram_count": ("novelty", {"ngram": 2, "mode": "count", "scale": 8.0}),
}


def build_detector(name: str, **params: Any) -> Detector:
    """Instantiate the detector registered as ``name`` with ``params``.

    Raises
    ------
    ConfigError
        Unknown name (the message lists the known ones) or bad parameters.
    """
    if name in VARIANTS:
        base, defaults = VARIANTS[name]
        params = {**defaults, **params, "name": name}
        name = base
    if name not in DETECTORS:
        raise ConfigError(f"unknown detector {name!r}; known: {sorted(DETECTORS) + sorted(VARIANTS)}")
    mod_name, cls_name = DETECTORS[name].split(":")
    cls = getattr(importlib.import_module(mod_name), cls_name)
    try:
        det: Detector = cls(**params)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"bad parameters for detector {name!r}: {exc}") from exc
    return det


def build_detectors(names: list[str], params: dict[str, dict[str, Any]]) -> list[Detector]:
    """Build every detector in ``names`` with its ``params[name]`` keyword arguments."""
    return [build_detector(n, **params.get(n, {})) for n in names]
