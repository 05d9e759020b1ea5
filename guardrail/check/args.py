"""Checks of :class:`guardrail.Guard`'s constructor arguments (private to the guard).

Wrong types raise :class:`~guardrail.errors.InvalidInputError` at construction, never a
bare ``TypeError`` then or a failure at the first check. Passed ``detectors`` are fitted
into the config (:func:`fit_config`), so ``Guard(detectors=[...])`` always gives a guard
that scores with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from guardrail.config import GuardConfig, load_config, shipped_configs
from guardrail.errors import ConfigError, InvalidInputError

__all__ = ["resolve_config", "fit_config", "check_sizes", "check_log", "check_detectors", "kb_switch"]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_sizes(**sizes: object) -> None:
    """Each size (``context_cache_size=...``) must be an int >= 0.

    Raises
    ------
    InvalidInputError
        A size is not an int (``None``, ``1.5``, ``True``) or is negative.
    """
    for name, value in sizes.items():
        if not _is_int(value) or value < 0:  # type: ignore[operator]
            raise InvalidInputError(f"{name} must be an int >= 0, got {value!r}")


def check_log(log: object) -> None:
    """``log`` must be ``None``, a path, a :class:`~guardrail.log.LogSink`, or a list or tuple of them.

    Raises
    ------
    InvalidInputError
        Anything else (``log=123``), named with its type, at construction rather than
        as a failure of every record.
    """
    from guardrail.log.records import LogSink

    if log is None:
        return
    for x in log if isinstance(log, (list, tuple)) else [log]:
        if not isinstance(x, (str, Path, LogSink)):
            raise InvalidInputError(f"log must be a path, a LogSink or a list of them, got {type(x).__name__}")


def check_detectors(detectors: object) -> list[Any] | None:
    """``detectors`` as a list, each a :class:`~guardrail.detectors.Detector`, or ``None``.

    Raises
    ------
    InvalidInputError
        Not a sequence, empty, or an element that is not a detector.
    """
    from guardrail.detectors import Detector

    if detectors is None:
        return None
    if not isinstance(detectors, Sequence) or isinstance(detectors, (str, bytes)):
        raise InvalidInputError(f"detectors must be a sequence of Detector, got {type(detectors).__name__}")
    out = list(detectors)
    if not out:
        raise InvalidInputError("detectors must hold at least one Detector")
    for d in out:
        if not isinstance(d, Detector):
            raise InvalidInputError(f"detectors must be Detector instances, got {type(d).__name__}")
    return out


def resolve_config(config: object) -> GuardConfig:
    """The guard's config from its ``config`` argument (``"auto"``: the shipped ``default``).

    Raises
    ------
    InvalidInputError
        ``config`` is not a GuardConfig, str or Path (``None``, ``123``).
    ConfigError
        The config cannot be loaded.
    """
    if isinstance(config, GuardConfig):
        return config
    if not isinstance(config, (str, Path)):
        raise InvalidInputError(f"config must be 'auto', a shipped config name, a path or a GuardConfig, "
                                f"got {type(config).__name__}")
    return shipped_configs()["default"] if config == "auto" else load_config(config)


def fit_config(cfg: GuardConfig, names: Sequence[str]) -> GuardConfig:
    """``cfg`` made to score with the detectors named ``names`` (those passed to the Guard).

    A config that already names exactly these detectors is returned as it is. Otherwise the
    config's detectors become ``names``; weights, vetoes and ``node_source`` naming other
    detectors are dropped (an unweighted detector gets weight 1; with ``node_source`` gone,
    the node supports of all detectors are combined). The thresholds stay the config's:
    they were calibrated for its detectors, so calibrate again (``kg-guardrail calibrate``)
    for the new ones.

    The shipped ``default`` (a logistic model) given none of the detectors it weighs becomes
    ``aggregation="max"`` over ``names`` with threshold 0.5: the least supported detector decides.

    Raises
    ------
    ConfigError
        Any other config aggregates with ``logistic`` weights and gives none of ``names`` a
        weight: pass ``config=`` with weights for them (or aggregation ``max``/``mean``).
    """
    wanted = list(dict.fromkeys(names))
    if set(wanted) == set(cfg.detectors) and set(cfg.veto) <= set(wanted):
        return cfg
    if cfg.aggregation == "logistic" and not any(cfg.weights.get(n, 0.0) for n in wanted):
        if cfg == load_config("default"):  # the shipped default: the passed detectors' worst score decides
            return load_config({**cfg.model_dump(), "detectors": wanted, "aggregation": "max", "bias": 0.0,
                                "weights": {n: 1.0 for n in wanted}, "threshold": 0.5, "veto": {},
                                "detector_params": {}, "node_source": None})
        raise ConfigError(f"config {cfg.name!r} weighs detectors {sorted(cfg.weights)} with a logistic "
                          f"aggregation, none of the passed {wanted}; pass config= with weights for them "
                          "or with aggregation 'max' or 'mean'")
    data = cfg.model_dump()
    data.update(
        detectors=wanted,
        weights={n: cfg.weights.get(n, 1.0) for n in wanted},
        veto={k: v for k, v in cfg.veto.items() if k in wanted},
        node_source=cfg.node_source if cfg.node_source in wanted else None,
    )
    return load_config(data)


def kb_switch(kb: object, profile: object, config: GuardConfig) -> Any:
    """The guard's :class:`~guardrail.kb.switch.KBSwitch` from its ``kb`` / ``kb_profile``
    arguments, else from the config's ``kb`` / ``kb_profile`` fields; None without a KB.

    Raises
    ------
    InvalidInputError
        A bad ``kb`` or ``kb_profile``.
    KnowledgeBaseError
        A KB file that is not valid RDF.
    """
    if kb is None:
        kb = config.kb
        profile = profile if profile is not None else config.kb_profile
    if kb is None and profile is None:
        return None  # nothing imported: a guard without a KB never loads guardrail.kb
    from guardrail.kb.switch import KBSwitch

    return KBSwitch.create(kb, profile)
