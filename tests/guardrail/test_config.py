"""Config loading, validation and the shipped configs."""

import json

import pydantic
import pytest

from guardrail.config import GuardConfig, load_config, save_config, shipped_configs
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


def test_one_shipped_default_config_with_the_verifier():
    cfgs = shipped_configs()
    assert set(cfgs) == {"default"}
    cfg = cfgs["default"]
    assert cfg.name == "default" and cfg.detectors[0] == "verifier" and set(cfg.weights) == set(cfg.detectors)
    assert "verifier" in cfg.detectors and cfg.node_source == "verifier"
    assert cfg.weights["verifier"] > 0  # less support -> higher hallucination score
    assert not {d for d in cfg.detectors if d.startswith("novelty")}  # no copy-rewarding detectors
    assert 0.0 < cfg.threshold < 1.0
    assert load_config("default") == cfg
    assert load_config("short") == load_config("long") == cfg  # former names are aliases


def test_config_is_frozen():
    cfg = GuardConfig()
    with pytest.raises(pydantic.ValidationError, match="frozen"):
        cfg.threshold = 0.1  # type: ignore[misc]
    json.loads(cfg.model_dump_json())
