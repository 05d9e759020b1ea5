"""Detectors: each scores how well the answer's claim graph is supported by the context.

:data:`REGISTRY` is the one table of detectors: a config name -> the class (``"module:Class"``,
imported lazily) and the parameters that make that row. Variants of a parameterised detector
are rows, not subclasses (``relation`` is ``grounding`` with ``alpha=0``).

=================  ===============================================  =========================
name               class                                            paper
=================  ===============================================  =========================
verifier           :class:`~.verifier.VerifierDetector`             claim verification
wl_kernel          :class:`~.wl_kernel.WLKernelDetector`            KEA Explain (000)
grounding          :class:`~.grounding.GroundingDetector`           HalluGraph (004): CFI
relation           the same, ``alpha=0``                            HalluGraph (004): RP
entity             :class:`~.entity.EntityGroundingDetector`        HalluGraph (004): EG
kg_guard           :class:`~.kg_guard.KGGuardDetector`              KG-Guard (001)
gga                :class:`~.gga.GGADetector` (white-box)           GGA (003): PRD, SAS
kb_facts           :class:`~.kb_facts.KBFactsDetector`              KEA Explain (000): KB facts
kg_slots           :class:`~.kg_values.SlotContradictionDetector`   KEA Explain: contradictory pairs
kg_literals        :class:`~.kg_values.LiteralGroundingDetector`    HalluGraph EG / GraphEval literals
kg_swaps           :class:`~.kg_swaps.SwapDetector`                 KEA Explain: contradictory pairs
kg_roles           :class:`~.kg_roles.RoleSwapDetector`             HalluGraph (004): RP, roles
kg_exchanged       the same, ``moved=False`` (the default's veto)    HalluGraph (004): RP
kg_negation        :class:`~.kg_negation.NegationDetector`          GraphEval: negated claims
lexical*           :class:`~.support.LexicalSupportDetector`        baselines
sentence           :class:`~.support.SentenceSupportDetector`       baseline
novelty*           :class:`~.novelty.NoveltyDetector`               baselines (reward copying)
=================  ===============================================  =========================
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from guardrail.detectors._params import validate_params
from guardrail.detectors.base import AlignmentInput, Detector
from guardrail.errors import ConfigError

if TYPE_CHECKING:
    from guardrail.config import GuardConfig

__all__ = [
    "Detector",
    "AlignmentInput",
    "DetectorSpec",
    "REGISTRY",
    "build_detector",
    "build_detectors",
    "check_params",
    "detector_class",
    "validate_detector_params",
]


class DetectorSpec(NamedTuple):
    """One registry row: the class as ``"module:Class"`` and the parameters of the row."""

    target: str
    params: dict[str, Any]


def _row(target: str, **params: Any) -> DetectorSpec:
    return DetectorSpec(target, params)


_LEX = "guardrail.detectors.support:LexicalSupportDetector"
_NOV = "guardrail.detectors.novelty:NoveltyDetector"

#: Detector name -> its row. A row with parameters is a variant; its name is passed on.
REGISTRY: dict[str, DetectorSpec] = {
    "verifier": _row("guardrail.detectors.verifier:VerifierDetector"),
    "wl_kernel": _row("guardrail.detectors.wl_kernel:WLKernelDetector"),
    "grounding": _row("guardrail.detectors.grounding:GroundingDetector"),
    "relation": _row("guardrail.detectors.grounding:GroundingDetector", alpha=0.0),
    "entity": _row("guardrail.detectors.entity:EntityGroundingDetector"),
    "kg_guard": _row("guardrail.detectors.kg_guard:KGGuardDetector"),
    "gga": _row("guardrail.detectors.gga:GGADetector"),
    "kb_facts": _row("guardrail.detectors.kb_facts:KBFactsDetector"),
    "kg_slots": _row("guardrail.detectors.kg_values:SlotContradictionDetector"),
    "kg_literals": _row("guardrail.detectors.kg_values:LiteralGroundingDetector"),
    "kg_swaps": _row("guardrail.detectors.kg_swaps:SwapDetector"),
    "kg_roles": _row("guardrail.detectors.kg_roles:RoleSwapDetector"),
    "kg_exchanged": _row("guardrail.detectors.kg_roles:RoleSwapDetector", moved=False),
    "kg_negation": _row("guardrail.detectors.kg_negation:NegationDetector"),
    "lexical": _row(_LEX),
    "lexical_worst": _row(_LEX, reduce="worst_sentence"),
    "lexical_ctx": _row(_LEX, use_question=False),
    "lexical_bigram": _row(_LEX, ngram=2),
    "sentence": _row("guardrail.detectors.support:SentenceSupportDetector"),
    "novelty": _row(_NOV),
    "novelty_bigram": _row(_NOV, ngram=2, mode="fraction"),
    "novelty_trigram": _row(_NOV, ngram=3, mode="fraction"),
    "novelty_count": _row(_NOV, ngram=1, mode="count", scale=5.0),
    "novelty_bigram_count": _row(_NOV, ngram=2, mode="count", scale=8.0),
}


def build_detector(name: str, **params: Any) -> Detector:
    """Instantiate the detector registered as ``name``; ``params`` override the row's.

    Raises
    ------
    ConfigError
        Unknown name (the message lists the known ones) or bad parameters.
    """
    cls = detector_class(name)
    spec = REGISTRY[name]
    kwargs = {**spec.params, **params}
    if spec.params:
        kwargs["name"] = name
    try:
        det: Detector = cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"bad parameters for detector {name!r}: {exc}") from exc
    return det


def detector_class(name: str) -> type[Detector]:
    """The class of the detector registered as ``name`` (its module is imported now).

    Raises
    ------
    ConfigError
        Unknown name (the message lists the known ones).
    """
    if name not in REGISTRY:
        raise ConfigError(f"unknown detector {name!r}; known: {sorted(REGISTRY)}")
    mod_name, cls_name = REGISTRY[name].target.split(":")
    cls: type[Detector] = getattr(importlib.import_module(mod_name), cls_name)
    return cls


def validate_detector_params(name: str, params: dict[str, Any], *, values: bool = True) -> None:
    """Check a config's ``detector_params[name]`` (with the registry row's own parameters)
    through :func:`~guardrail.detectors._params.validate_params`, without building the detector.

    Names outside :data:`REGISTRY` are custom detectors passed to :class:`~guardrail.Guard`,
    which take their own parameters: they are not checked here. With ``values=False`` only the
    names are checked: a config checks names when it loads, and the values are checked when a
    :class:`~guardrail.Guard` builds its detectors from it (a guard given its own detectors,
    which may carry a registered name, never builds the config's, so their values are not the
    config's business).

    Raises
    ------
    ConfigError
        A parameter the detector does not take or a value outside its constraints (the
        message names the detector, the parameter, the value and what is allowed).
    """
    if name not in REGISTRY:
        return
    validate_params(detector_class(name), {**REGISTRY[name].params, **params}, error=ConfigError,
                    where=f"detector {name!r}", values=values)


def build_detectors(names: list[str], params: dict[str, dict[str, Any]]) -> list[Detector]:
    """Build every detector in ``names`` with its ``params[name]`` keyword arguments."""
    return [build_detector(n, **params.get(n, {})) for n in names]


def check_params(configs: Iterable[GuardConfig]) -> None:
    """Build every registered detector of ``configs`` once, so that a bad parameter value is a
    :class:`ConfigError` now rather than at the first check (constructors load no model).

    Raises
    ------
    ConfigError
        A registered detector rejects a parameter or its value.
    """
    for cfg in configs:
        for name in dict.fromkeys([*cfg.detectors, *cfg.veto]):
            if name in REGISTRY:
                validate_detector_params(name, cfg.detector_params.get(name, {}))
                build_detector(name, **cfg.detector_params.get(name, {}))
