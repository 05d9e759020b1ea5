"""Guard configuration: which detectors, how their scores combine, and the thresholds.

A :class:`GuardConfig` is a frozen pydantic model, loaded from and saved to JSON
(``kg-guardrail calibrate`` writes one, ``kg-guardrail check --config`` reads one).
One calibrated config ships with the package, ``default``: the claim verifier (plus
whatever the calibration on the dev tune split kept), one threshold for every kind of
input (QA, dialogue, summaries, plain RAG answers), no routing on the input's shape.
"""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from guardrail.errors import ConfigError

__all__ = [
    "GuardConfig",
    "load_config",
    "save_config",
    "default_config",
    "shipped_configs",
]

class GuardConfig(BaseModel):
    """Detectors, aggregation rule, weights and thresholds of a :class:`~guardrail.Guard`.

    Parameters
    ----------
    name : str
        Free-form name recorded in every result (``GuardResult.config``).
    detectors : list of str
        Detector names from :data:`guardrail.detectors.REGISTRY`, run in this order.
    detector_params : dict
        Keyword arguments per detector name, e.g. ``{"grounding": {"alpha": 0.7}}``.
    aggregation : {"logistic", "mean", "max"}
        ``logistic``: ``sigmoid(bias + sum(w_i * s_i))``; ``mean``: weighted mean of
        detector scores (weights normalised); ``max``: the largest detector score.
    weights : dict of str to float
        Weight per detector (finite). Missing detectors weigh 1 for ``mean``, 0 for ``logistic``.
    bias : float
        Intercept of the logistic rule.
    threshold : float
        Decision threshold in ``[0, 1]``: ``score >= threshold`` flags the answer.
    node_threshold : float
        Answer nodes whose combined support is below this (in ``[0, 1]``) are flagged.
    veto : dict of str to float
        Detector name -> score in ``[0, 1]`` at or above which the answer is flagged
        whatever the aggregate says (its score is raised to the threshold). Veto
        detectors run even when not in ``detectors`` and are not part of the fit. The
        shipped configs veto on ``entity`` at 0.3: an answer with about one in three
        of its named entities and numbers absent from the context is flagged.
    node_source : str or None
        Name of the detector whose per-node support alone defines the flagged nodes
        (the shipped config uses ``"verifier"``: only nodes inside claims the verifier
        finds unsupported are flagged, and never the "weakest" node of an answer whose
        claims it all supports). ``None`` averages the node support of every detector.
    max_context_chars : int
        Longer contexts (all passages together) make the guard abstain (default 250,000,
        about 40k words: parsing costs about 10 ms per 100 words on 2 CPU cores).
    max_answer_chars : int
        Longer answers make the guard abstain (default 5,000, about 800 words: judging
        costs grow with the answer's graph, 13 to 30 s for 10,000 characters on 2 busy
        CPU cores; the longest dev answer has 1,400).
    max_passages : int
        More passages make the guard abstain (default 1,000).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "default"
    detectors: list[str] = Field(default_factory=lambda: ["grounding", "wl_kernel"])
    detector_params: dict[str, dict[str, Any]] = Field(default_factory=dict)
    aggregation: Literal["logistic", "mean", "max"] = "mean"
    weights: dict[str, float] = Field(default_factory=dict)
    bias: float = 0.0
    threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    node_threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    veto: dict[str, float] = Field(default_factory=dict)
    node_source: str | None = None
    max_context_chars: int = Field(default=250_000, ge=1)
    max_answer_chars: int = Field(default=5_000, ge=1)
    max_passages: int = Field(default=1_000, ge=1)

    @model_validator(mode="after")
    def _check(self) -> "GuardConfig":
        if not self.detectors:
            raise ValueError("detectors must name at least one detector")
        for k, w in self.weights.items():
            if not math.isfinite(w):
                raise ValueError(f"weight for {k!r} is not finite: {w!r}")
        for k, v in self.veto.items():
            if not 0.0 <= v <= 1.0:
                raise ValueError(f"veto threshold for {k!r} must be in [0, 1], got {v!r}")
        if not math.isfinite(self.bias):
            raise ValueError(f"bias is not finite: {self.bias!r}")
        return self


def load_config(source: str | Path | dict[str, Any]) -> GuardConfig:
    """Load a :class:`GuardConfig` from a JSON file, a shipped name, or a dict.

    Parameters
    ----------
    source : str, Path or dict
        A path to a JSON file, the name of a shipped config (``"default"``; the former
        ``"short"`` and ``"long"`` are aliases of it),
        or an already-parsed mapping.

    Raises
    ------
    ConfigError
        Missing file, invalid JSON, or a value the model rejects (the message names it).
    """
    if isinstance(source, dict):
        data = source
        where = "<dict>"
    else:
        path = Path(source)
        where = str(path)
        if not path.exists() and str(source) in _SHIPPED + tuple(_ALIASES):
            return shipped_configs()[_ALIASES.get(str(source), str(source))]
        if not path.is_file():
            raise ConfigError(f"config file not found: {where!r}")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ConfigError(f"config {where!r} is not valid JSON: {exc}") from exc
    try:
        return GuardConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(f"invalid config {where!r}: {exc}") from exc


def save_config(config: GuardConfig, path: str | Path) -> Path:
    """Write ``config`` as indented JSON to ``path`` and return the path."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(config.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return p


_SHIPPED = ("default",)
#: Names of the configs shipped before the claim verifier; they now load ``default``.
_ALIASES = {"short": "default", "long": "default"}
_CACHE: dict[str, GuardConfig] = {}


def shipped_configs() -> dict[str, GuardConfig]:
    """Return the configs calibrated on the dev data that ship with the package.

    Returns
    -------
    dict
        ``{"default": ...}``; a config file that is missing from the
        installed package falls back to :func:`default_config`.
    """
    if not _CACHE:
        for name in _SHIPPED:
            res = resources.files("guardrail.configs").joinpath(f"{name}.json")
            if res.is_file():
                data = json.loads(res.read_text(encoding="utf-8"))
                _CACHE[name] = GuardConfig.model_validate(data)
            else:  # pragma: no cover - only before the first calibration
                _CACHE[name] = default_config().model_copy(update={"name": name})
    return dict(_CACHE)


def default_config() -> GuardConfig:
    """An uncalibrated config: grounding and WL kernel, mean aggregation, threshold 0.5."""
    return GuardConfig()
