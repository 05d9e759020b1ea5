"""Ray Data audits: same results as the single-process path, and a clear message without Ray."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guardrail.cli.app import DEMO_DATA, app, read_items, run_guard
from guardrail.guard import Guard

#: Detectors whose models ship with the package (spaCy, MiniLM): no trained weights needed.
CONFIG = {"name": "batch-test", "detectors": ["grounding", "entity"], "aggregation": "mean", "threshold": 0.3}
VOLATILE = ("timings", "total_ms")


def _same(a: dict, b: dict) -> None:
    """Equal results, up to timings and float noise of batched encoding."""
    assert a.get("error") == b.get("error")
    assert {k: v for k, v in a.items() if k not in (*VOLATILE, "score", "detector_scores")} == \
           {k: v for k, v in b.items() if k not in (*VOLATILE, "score", "detector_scores")}
    if "score" in a:
        assert a["score"] == pytest.approx(b["score"], abs=1e-6)
        assert a["detector_scores"] == pytest.approx(b["detector_scores"], abs=1e-6)


def test_ray_engine_without_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    from guardrail.batch import audit

    with pytest.raises(ImportError, match=r"pip install 'kg-guardrail\[ray\]'"):
        audit(DEMO_DATA)
    res = CliRunner().invoke(app, ["check", str(DEMO_DATA), "--out", str(tmp_path / "r.jsonl"), "--engine", "ray"])
    assert res.exit_code == 2 and "kg-guardrail[ray]" in res.output
    assert not (tmp_path / "r.jsonl").exists()


def test_unknown_engine_is_a_usage_error(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["check", str(DEMO_DATA), "--out", str(tmp_path / "r.jsonl"), "--engine", "spark"])
    assert res.exit_code == 2 and "expected local or ray" in res.output


@pytest.fixture(scope="module")
def ray_local():
    """A local Ray instance with 2 CPUs, no dashboard, no usage statistics, no auth."""
    pytest.importorskip("ray", reason="the Ray engine is optional: pip install 'kg-guardrail[ray]'")
    import ray

    from guardrail.batch import init_ray

    try:
        started = init_ray(num_cpus=2)
    except Exception:  # the raylet has 30 s to register; on a loaded machine try once more
        ray.shutdown()
        started = init_ray(num_cpus=2)
    yield ray
    if started:
        ray.shutdown()


@pytest.mark.slow
def test_ray_audit_matches_the_single_process_path(ray_local, tmp_path: Path) -> None:
    from guardrail.batch import audit

    config = tmp_path / "cfg.json"
    config.write_text(json.dumps(CONFIG), encoding="utf-8")
    data = tmp_path / "in.jsonl"
    lines = DEMO_DATA.read_text(encoding="utf-8").splitlines()[:6]
    data.write_text("\n".join([*lines[:3], '{"id": "broken", "answer": 1}', *lines[3:]]) + "\n", encoding="utf-8")

    local = [row for _, row in run_guard(Guard(str(config)), read_items(data), batch_size=4, progress=False)]
    res = audit(data, str(config), out=tmp_path / "ray.jsonl", num_cpus=2, batch_size=2, keep_rows=True)
    written = [json.loads(x) for x in (tmp_path / "ray.jsonl").read_text(encoding="utf-8").splitlines()]

    assert len(written) == len(local) == 7 and written == res.rows
    assert [r.get("id") for r in written] == [r.get("id") for r in local]  # input order kept
    for a, b in zip(written, local):
        _same(a, b)
    assert written[3]["error"] == local[3]["error"] and written[3]["line"] == 4
    assert (res.n, res.n_errors, res.workers) == (7, 1, 2)
    assert res.n_passed + res.n_flagged + res.n_abstained == 6
    labels = [json.loads(x)["label"] for x in lines]
    assert res.metrics is not None and res.metrics["n"] == len(labels) == 6
    assert res.metrics["tp"] + res.metrics["fn"] == sum(labels)
    assert res.metrics["tp"] + res.metrics["fp"] == sum(1 for r in local if "error" not in r and not r["passed"])

    pq = pytest.importorskip("pyarrow.parquet")
    res2 = audit(data, str(config), out=tmp_path / "ray.parquet", num_cpus=2, batch_size=3)
    table = pq.read_table(tmp_path / "ray.parquet").to_pylist()
    assert [t["id"] for t in table] == [r.get("id") for r in local] and res2.n == 7
    for t, b in zip(table, local):
        _same(json.loads(t["result"]), b)


@pytest.mark.slow
def test_check_engine_ray_on_a_two_worker_cluster_matches_local(ray_local, tmp_path: Path) -> None:
    """Issue 30, item 16: ``kg-guardrail check --engine ray`` end to end, on 2 local workers."""
    config = tmp_path / "cfg.json"
    config.write_text(json.dumps(CONFIG), encoding="utf-8")
    data = tmp_path / "in.jsonl"
    lines = DEMO_DATA.read_text(encoding="utf-8").splitlines()[:4]
    data.write_text("\n".join([*lines[:2], '{"id": "broken"}', *lines[2:]]) + "\n", encoding="utf-8")
    outs = {}
    for engine in ("local", "ray"):
        out = tmp_path / f"{engine}.jsonl"
        extra = ["--num-cpus", "2"] if engine == "ray" else []
        res = CliRunner().invoke(app, ["check", str(data), "--out", str(out), "--config", str(config),
                                       "--engine", engine, "--batch-size", "2", *extra])
        assert res.exit_code == 1, res.output  # the broken line
        outs[engine] = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [r.get("id") for r in outs["ray"]] == [r.get("id") for r in outs["local"]] and len(outs["ray"]) == 5
    for a, b in zip(outs["ray"], outs["local"]):
        _same(a, b)
