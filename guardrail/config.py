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
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from guardrail.errors import ConfigError

__all__ = [
    "MAX_CONFIG_BYTES",
    "GuardConfig",
    "load_config",
    "save_config",
    "default_config",
    "shipped_configs",
]

#: Largest config file read (a config is a few hundred bytes).
MAX_CONFIG_BYTES = 1_000_000

#: Numbers in a config are strict: ``true``/``false`` and strings are rejected, not coerced.
_Float = Annotated[float, Field(strict=True)]
_Int = Annotated[int, Field(strict=True)]


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
        Decision threshold, strictly between 0 and 1: ``score >= threshold`` flags the
        answer (0 would flag every answer, 1 pass nearly every one: both are rejected).
    node_threshold : float
        Answer nodes whose combined support is below this (in ``[0, 1]``) are flagged.
    veto : dict of str to float
        Detector name -> score in ``[0, 1]`` at or above which the answer is flagged
        whatever the aggregate says (its score is raised to the threshold). Veto
        detectors run even when not in ``detectors`` (on every answer: on a failed one their
        flags name the nodes, the swapped name) and are not part of the fit. The shipped
        default vetoes on ``kg_exchanged`` at 0.85: an answer that exchanges the
        parties of a relation the context states is flagged.
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
    max_claims : int
        Answers with more sentences (claims) make the guard abstain (default 100: each
        claim is verified against its own evidence, so the time grows with their number;
        850 one-word sentences fit in 5,000 characters and took 38 to 47 s).
    kb : str or None
        A knowledge base to check answers against (``Guard(kb=...)``): a Turtle /
        N-Triples / N-Quads / TriG file (a relative path is read from the config file's
        folder) or an http(s) SPARQL endpoint URL; ``None`` (default): none.
    kb_profile : {"rdfs", "wikidata"} or None
        The KB's vocabulary (default: ``wikidata`` for a wikidata.org URL, else ``rdfs``).
    declined_passes : bool
        Whether an answer that declines to answer ("I don't know.", "The context does not
        say."; ``GuardResult.declined``) passes (default True: it states nothing false). With
        False it is reported as not passed (score = threshold), e.g. to count unhelpful answers.
    extractor : {"spacy", "llm"}
        The triple extractor a :class:`~guardrail.Guard` built without ``extractor=`` uses:
        spaCy (default, local, fast) or an LLM (:class:`~guardrail.extract.llm_extractor.LLMExtractor`,
        KEA Explain's step) at ``llm_base_url``.
    llm_base_url : str or None
        OpenAI-compatible base URL for ``extractor="llm"`` (``None``: the
        ``KG_GUARDRAIL_LLM_BASE_URL`` environment variable, else the guard refuses to build).
    llm_model : str
        Model name sent to that endpoint (default ``"local"``).
    llm_timeout : float or None
        Seconds one extraction call may take; ``None`` (default) sizes it to the reply the
        call may produce (:func:`~guardrail.extract.llm_extractor.call_timeout`).

    Notes
    -----
    Numbers are strict (``"threshold": true`` is an error, not 1.0); the ``detector_params``
    of registered detectors are checked against their constructors when the config is loaded,
    and their values against the detectors' declared constraints when the :class:`~guardrail.Guard`
    is built (every detector is built then, not at the first check);
    ``aggregation="logistic"`` needs a non-zero weight for at least one of ``detectors``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "default"
    detectors: list[str] = Field(default_factory=lambda: ["grounding", "wl_kernel"])
    detector_params: dict[str, dict[str, Any]] = Field(default_factory=dict)
    aggregation: Literal["logistic", "mean", "max"] = "mean"
    weights: dict[str, _Float] = Field(default_factory=dict)
    bias: _Float = 0.0
    threshold: _Float = Field(default=0.5, gt=0.0, lt=1.0)
    node_threshold: _Float = Field(default=0.5, ge=0.0, le=1.0)
    veto: dict[str, _Float] = Field(default_factory=dict)
    node_source: str | None = None
    max_context_chars: _Int = Field(default=250_000, ge=1)
    max_answer_chars: _Int = Field(default=5_000, ge=1)
    max_passages: _Int = Field(default=1_000, ge=1)
    max_claims: _Int = Field(default=100, ge=1)
    kb: str | None = None
    kb_profile: Literal["rdfs", "wikidata"] | None = None
    declined_passes: Annotated[bool, Field(strict=True)] = True
    extractor: Literal["spacy", "llm"] = "spacy"
    llm_base_url: str | None = None
    llm_model: str = "local"
    llm_timeout: _Float | None = Field(default=None, gt=0.0)

    @model_validator(mode="after")
    def _check(self) -> GuardConfig:
        if not self.detectors:
            raise ConfigError("detectors must name at least one detector")
        for k, w in self.weights.items():
            if not math.isfinite(w):
                raise ConfigError(f"weight for {k!r} is not finite: {w!r}")
        for k, v in self.veto.items():
            if not 0.0 <= v <= 1.0:
                raise ConfigError(f"veto threshold for {k!r} must be in [0, 1], got {v!r}")
        if not math.isfinite(self.bias):
            raise ConfigError(f"bias is not finite: {self.bias!r}")
        if self.aggregation == "logistic" and not any(self.weights.get(d, 0.0) for d in self.detectors):
            raise ConfigError("aggregation 'logistic' needs a non-zero weight for at least one of "
                              f"the detectors {self.detectors} (without weights every score is 0.5); "
                              "run `kg-guardrail calibrate` or use aggregation 'mean'")
        _check_detectors(self)
        return self

    @property
    def size_limits(self) -> dict[str, int]:
        """The four size limits as keyword arguments of :func:`~guardrail.validate.size_reason`
        and :func:`~guardrail.validate.validate_input`."""
        return {"max_context_chars": self.max_context_chars, "max_answer_chars": self.max_answer_chars,
                "max_passages": self.max_passages, "max_claims": self.max_claims}


def _check_detectors(cfg: GuardConfig) -> None:
    """Every ``detector_params`` name of a registered detector is a parameter it takes
    (:func:`~guardrail.detectors.validate_detector_params`; the values are checked by the same
    function when a :class:`~guardrail.Guard` builds the detectors). The config only names them."""
    from guardrail.detectors import validate_detector_params

    for name, params in cfg.detector_params.items():
        validate_detector_params(name, params, values=False)


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
            return shipped_configs()[_ALIASES.get(str(source), str(source))]  # a fresh copy
        data = _read_json(path)
        if isinstance(data, dict) and isinstance(data.get("kb"), str) and "://" not in data["kb"][:16] \
                and not Path(data["kb"]).is_absolute():  # a KB file next to the config
            data = {**data, "kb": str(path.resolve().parent / data["kb"])}
    if not isinstance(data, dict):
        raise ConfigError(f"config {where!r} must be a JSON object, got {type(data).__name__}")
    try:
        return GuardConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(f"invalid config {where!r}: {exc}") from exc
    except RecursionError as exc:
        raise ConfigError(f"invalid config {where!r}: nested too deeply") from exc


def _read_json(path: Path) -> Any:
    """The parsed JSON of a config file; every way it can be unreadable is a :class:`ConfigError`."""
    where = str(path)
    if not path.is_file():
        raise ConfigError(f"config file not found: {where!r}")
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            raise ConfigError(f"config {where!r} is larger than {MAX_CONFIG_BYTES} bytes")
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config {where!r} is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at "
                          f"offset {exc.start}); save it as UTF-8 JSON") from exc
    except OSError as exc:
        raise ConfigError(f"config {where!r} cannot be read: {exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"config {where!r} is not valid JSON: {exc}") from exc
    except RecursionError as exc:
        raise ConfigError(f"config {where!r} is nested too deeply") from exc
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit
        raise ConfigError(f"config {where!r} is not valid JSON: {exc}") from exc


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
        installed package falls back to :func:`default_config`. Each call returns new
        (deep) copies, so changing one (``cfg.veto["entity"] = 0.3``) changes no other
        caller's config.
    """
    if not _CACHE:
        for name in _SHIPPED:
            res = resources.files("guardrail.configs").joinpath(f"{name}.json")
            if res.is_file():
                data = json.loads(res.read_text(encoding="utf-8"))
                _CACHE[name] = GuardConfig.model_validate(data)
            else:  # pragma: no cover - only before the first calibration
                _CACHE[name] = default_config().model_copy(update={"name": name})
    return {name: cfg.model_copy(deep=True) for name, cfg in _CACHE.items()}


def default_config() -> GuardConfig:
    """An uncalibrated config: grounding and WL kernel, mean aggregation, threshold 0.5."""
    return GuardConfig()
