"""Config loading, validation and the shipped configs."""

import json

import pydantic
import pytest

from guardrail.config import (
    LONG_FORM_MIN_CONTEXT_WORDS,
    GuardConfig,
    load_config,
    save_config,
    select_config,
    shipped_configs,
)
from guardrail.errors import ConfigError


def test_round_trip(tmp_path):
    cfg = GuardConfig(name="x", aggregation="logistic", weights={"grounding": 2.0}, bias=-1.0, threshold=0.4)
    path = save_config(cfg, tmp_path / "c.json")
    assert load_config(path) == cfg


@pytest.mark.parametrize(
    "data, needle",
    [({"threshold": 1.5}, "threshold"), ({"aggregation": "median"}, "aggregation"), ({"detectors": []}, "detectors"),
     ({"bogus": 1}, "bogus"), ({"weights": {"a": float("nan")}}, "not finite"), ({"veto": {"entity": 1.5}}, "veto")],
)
def test_bad_values_raise_config_error_naming_them(data, needle):
    with pytest.raises(ConfigError, match=needle):
        load_config(data)


def test_missing_and_malformed_files(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ConfigError, match="not valid JSON"):
        load_config(bad)


def test_shipped_configs_load_and_are_calibrated():
    cfgs = shipped_configs()
    assert set(cfgs) == {"short", "long"}
    for name, cfg in cfgs.items():
        assert cfg.name == name and cfg.aggregation == "logistic" and set(cfg.weights) == set(cfg.detectors)
        assert 0.0 <= cfg.threshold <= 1.0 and cfg.veto == {"entity": 0.3}
        assert load_config(name) == cfg


def test_select_config_reads_question_and_context_only():
    cfgs = {"short": GuardConfig(name="short"), "long": GuardConfig(name="long")}
    n = LONG_FORM_MIN_CONTEXT_WORDS
    assert select_config(cfgs, question=None, context_words=n).name == "long"
    assert select_config(cfgs, question="  ", context_words=n).name == "long"
    assert select_config(cfgs, question=None, context_words=n - 1).name == "short"
    assert select_config(cfgs, question="Who?", context_words=10 * n).name == "short"


def test_config_is_frozen():
    cfg = GuardConfig()
    with pytest.raises(pydantic.ValidationError, match="frozen"):
        cfg.threshold = 0.1  # type: ignore[misc]
    json.loads(cfg.model_dump_json())
