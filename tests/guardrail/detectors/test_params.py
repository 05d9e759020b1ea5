"""The one parameter check: declared constraints, checked by ``validate_params`` for
constructors, the registry and configs alike."""

from __future__ import annotations

import inspect
import math
from numbers import Integral, Real
from pathlib import Path
from typing import Any

import pytest

from guardrail.config import load_config
from guardrail.detectors import REGISTRY, build_detector, check_params, detector_class, validate_detector_params
from guardrail.detectors._params import Interval, Options, StrOptions, validate_params
from guardrail.detectors.grounding import GroundingDetector
from guardrail.detectors.kg_guard import KGGuardDetector
from guardrail.detectors.kg_negation import NegationDetector
from guardrail.detectors.novelty import NoveltyDetector
from guardrail.detectors.support import LexicalSupportDetector, SentenceSupportDetector
from guardrail.detectors.verifier import VerifierDetector
from guardrail.errors import ConfigError, InvalidInputError

#: (class, parameter, bad value, words the message must hold), one row per constraint kind.
BAD = [
    (VerifierDetector, "unit_threshold", 1.5, "[0, 1]"),             # Interval(Real), closed
    (VerifierDetector, "unit_threshold", math.nan, "[0, 1]"),        # NaN lies in no interval
    (VerifierDetector, "grounding_weight", True, "[0, 1]"),          # a bool is not a number
    (VerifierDetector, "max_evidence_words", 0, "[1, inf)"),         # Interval(Integral)
    (VerifierDetector, "max_evidence_words", 80.0, "an int"),        # Integral rejects floats
    (NegationDetector, "min_overlap", 0.0, "(0, 1]"),                # half-open interval
    (NoveltyDetector, "scale", 0.0, "(0, inf)"),                     # open interval
    (NoveltyDetector, "mode", "ratio", "'count'"),                   # StrOptions
    (NoveltyDetector, "ngram", 4, "one of [1, 2, 3]"),               # Options(Integral)
    (NoveltyDetector, "ngram", True, "one of [1, 2, 3]"),            # a bool is no Integral option
    (VerifierDetector, "occlusion", "yes", "a bool"),                # a type
    (LexicalSupportDetector, "name", 3, "a str or None"),            # a type or None
    (KGGuardDetector, "model_dir", 3, "a str or a Path or None"),
]


@pytest.mark.parametrize(("cls", "param", "value", "allowed"), BAD)
def test_a_bad_value_of_each_kind_raises_naming_parameter_value_and_range(
        cls: type, param: str, value: Any, allowed: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        cls(**{param: value})
    msg = str(info.value)
    assert f"'{param}'" in msg and repr(value) in msg and allowed in msg and cls.__name__ in msg


@pytest.mark.parametrize(("cls", "param", "value", "allowed"), BAD)
def test_a_configs_detector_params_are_checked_through_the_same_function(
        cls: type, param: str, value: Any, allowed: str) -> None:
    """The config loads (a guard given its own detectors never builds these); building the
    guard's detectors from it (``check_params``, which ``Guard`` calls) is a ConfigError."""
    name = next(n for n, spec in REGISTRY.items() if detector_class(n) is cls and not spec.params)
    cfg = load_config({"detectors": [name], "detector_params": {name: {param: value}}})
    with pytest.raises(ConfigError, match=f"detector '{name}': parameter '{param}'") as info:
        check_params([cfg])
    assert allowed in str(info.value)


def test_a_guard_built_from_a_bad_config_names_the_parameter() -> None:
    from guardrail.guard import Guard

    cfg = load_config({"detectors": ["verifier"], "detector_params": {"verifier": {"unit_threshold": 2.0}}})
    with pytest.raises(ConfigError, match=r"detector 'verifier': parameter 'unit_threshold' must be a number "
                                          r"in \[0, 1\], got 2.0"):
        Guard(cfg)


def test_ordered_pairs_name_both_parameters() -> None:
    with pytest.raises(InvalidInputError, match="'low' must be below 'threshold'.*low=0.9.*threshold=0.8"):
        GroundingDetector(low=0.9)
    with pytest.raises(InvalidInputError, match="'relation_low' must be below 'relation_high'"):
        GroundingDetector(relation_low=0.8, relation_high=0.2)
    with pytest.raises(InvalidInputError, match="'low' must be below 'high'"):
        SentenceSupportDetector(low=0.5, high=0.5)
    # the defaults fill in the pair: a config giving one side only is checked against the other
    with pytest.raises(ConfigError, match="'low' must be below 'threshold'"):
        validate_detector_params("grounding", {"low": 0.85})
    validate_detector_params("grounding", {"low": 0.85}, values=False)  # a config's check at load: names


def test_unknown_parameters_are_named_with_what_the_detector_takes() -> None:
    with pytest.raises(ConfigError, match=r"unknown parameter\(s\) \['alpah'\]; it takes \[.*'alpha'"):
        load_config({"detectors": ["grounding"], "detector_params": {"grounding": {"alpah": 0.5}}})
    with pytest.raises(ConfigError, match="alpah"):  # the registry too, through the constructor
        build_detector("grounding", alpah=0.5)


def test_good_values_pass_and_are_kept() -> None:
    det = GroundingDetector(alpha=1, low=-0.2, threshold=0.5, candidates=3, name="g")
    assert (det.alpha, det.low, det.threshold, det.candidates, det.name) == (1, -0.2, 0.5, 3, "g")
    assert VerifierDetector(verifier=object(), unit_threshold=0, occlusion=False).unit_threshold == 0
    assert KGGuardDetector(model_dir=Path("x")).model_dir == Path("x")
    # a row's own parameters are valid, and the registry's variant rows build
    for name in ("relation", "lexical_bigram", "novelty_count", "kg_negation", "kg_slots"):
        assert build_detector(name).name == name


def test_the_registry_maps_a_bad_value_to_config_error_naming_it() -> None:
    with pytest.raises(ConfigError, match="'wl_kernel'.*'iterations'.*0"):
        build_detector("wl_kernel", iterations=0)


def test_constraint_objects() -> None:
    assert Interval(Real, 0, 1, closed="neither").is_satisfied_by(0.5)
    assert not Interval(Real, 0, 1, closed="neither").is_satisfied_by(1)
    assert not Interval(Real, 0, 1, closed="left").is_satisfied_by(1.0)
    assert Interval(Real, 0, 1, closed="left").is_satisfied_by(0)
    assert Interval(Integral, None, None).is_satisfied_by(-10**30)
    assert str(Interval(Integral, 1, None)) == "an int in [1, inf)"
    assert StrOptions({"a"}).is_satisfied_by("a") and not StrOptions({"a"}).is_satisfied_by("b")
    assert not Options(Integral, frozenset({1})).is_satisfied_by(1.0)


def test_an_undeclared_parameter_is_not_checked_and_errors_are_typed_as_asked() -> None:
    class Plain:
        def __init__(self, x: int = 0) -> None:
            self.x = x

    validate_params(Plain, {"x": "anything"})
    with pytest.raises(ConfigError, match="'y'"):
        validate_params(Plain, {"y": 1}, error=ConfigError)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_registered_detector_declares_every_constructor_parameter(name: str) -> None:
    cls = detector_class(name)
    params = {k for k, p in inspect.signature(cls).parameters.items()
              if p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)}
    assert set(cls._parameter_constraints) == params, name
    for lo, hi in cls._parameter_order:
        assert {lo, hi} <= params
    # and the constructor runs the check: the first declared interval, given an out-of-range value
    interval = next(((k, c) for k, cs in cls._parameter_constraints.items() for c in cs
                     if isinstance(c, Interval)), None)
    if interval is not None:
        key, c = interval
        bad = (c.left - 1) if c.left is not None else (c.right + 1)  # type: ignore[operator]
        with pytest.raises(InvalidInputError, match=f"'{key}'"):
            cls(**{key: int(bad) if c.type is Integral else bad})
