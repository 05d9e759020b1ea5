"""Issue 30, items 12 and 13: what a wheel install gets, and a quiet build.

The wheels are built here as ``make wheels`` builds them (``python -m build --wheel``,
without isolation: no network), then the core wheel is unpacked and run from its own
files: ``kg-guardrail demo`` must find its sample as package data. The extras that the
README's wheel path installs must pull every distribution the examples import.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
import zipfile
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ADAPTERS = {"kg-guardrail-langchain": ROOT / "integrations" / "langchain",
            "kg-guardrail-llama-index": ROOT / "integrations" / "llama_index"}

pytestmark = pytest.mark.slow


def _build(src: Path, out: Path) -> tuple[Path, str]:
    pytest.importorskip("build")
    proc = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(src)],
                          capture_output=True, text=True, timeout=300, cwd=src)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (wheel,) = out.glob("*.whl")
    return wheel, proc.stderr


@pytest.fixture(scope="module")
def core_wheel(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    return _build(ROOT, tmp_path_factory.mktemp("dist"))


def _noise(stderr: str) -> list[str]:
    """Warnings about the project's own metadata (not pip's or the byte-compile notes)."""
    return [ln for ln in stderr.splitlines()
            if re.search(r"WARNING|[Dd]eprecat|would be ignored|SetuptoolsWarning", ln)]


def test_the_core_build_is_quiet(core_wheel: tuple[Path, str]):
    assert _noise(core_wheel[1]) == []


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_the_adapter_builds_are_quiet(tmp_path: Path, name: str):
    _, stderr = _build(ADAPTERS[name], tmp_path)
    assert _noise(stderr) == []


def test_the_demo_runs_from_the_wheel_files(core_wheel: tuple[Path, str], tmp_path: Path):
    site = tmp_path / "site"
    with zipfile.ZipFile(core_wheel[0]) as z:
        assert "guardrail/data/halueval_sample.jsonl" in z.namelist()
        z.extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    where = subprocess.run([sys.executable, "-c", "import guardrail.cli.app as a; print(a.DEMO_DATA)"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert Path(where.stdout.strip()).is_relative_to(site), where.stdout + where.stderr
    demo = subprocess.run([sys.executable, "-m", "guardrail", "demo", "--limit", "2"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert demo.returncode == 0, demo.stderr[-2000:]
    assert "not found" not in demo.stderr


def _requires(pyproject: Path, extra: str | None) -> list[str]:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    return list(project["dependencies"]) if extra is None else list(project["optional-dependencies"][extra])


def _closure(extra: str) -> set[str]:
    """Normalised names of the distributions ``kg-guardrail[extra]`` installs (one level into the adapters)."""
    out: set[str] = {"kg-guardrail"}
    todo = [(ROOT / "pyproject.toml", None), (ROOT / "pyproject.toml", extra)]
    while todo:
        pyproject, ex = todo.pop()
        for req in _requires(pyproject, ex):
            m = re.match(r"([A-Za-z0-9_.\-]+)(?:\[([^\]]+)\])?", req)
            assert m is not None
            name = m.group(1).lower().replace("_", "-")
            if name in out:
                continue
            out.add(name)
            if name in ADAPTERS:
                todo.append((ADAPTERS[name] / "pyproject.toml", None))
                todo += [(ADAPTERS[name] / "pyproject.toml", e) for e in (m.group(2) or "").split(",") if e]
    return out


def _imported_distributions(example: Path) -> set[str]:
    tops = {(n.module or "").split(".")[0] for n in ast.walk(ast.parse(example.read_text(encoding="utf-8")))
            if isinstance(n, ast.ImportFrom) and n.level == 0}
    tops |= {a.name.split(".")[0] for n in ast.walk(ast.parse(example.read_text(encoding="utf-8")))
             if isinstance(n, ast.Import) for a in n.names}
    dists = packages_distributions()
    local = {"guardrail": "kg-guardrail", "guardrail_langchain": "kg-guardrail-langchain",
             "guardrail_llama_index": "kg-guardrail-llama-index"}
    out = set()
    for top in tops - set(sys.stdlib_module_names) - {"__future__", ""}:
        names = [local[top]] if top in local else dists.get(top, [top])
        out.add(names[0].lower().replace("_", "-"))
    return out


@pytest.mark.parametrize("example,extra", [("langchain_rag.py", "langchain"), ("llama_index_rag.py", "llama-index")])
def test_the_extras_pull_what_the_examples_import(example: str, extra: str):
    missing = _imported_distributions(ROOT / "examples" / example) - _closure(extra)
    assert not missing, f"kg-guardrail[{extra}] does not install {sorted(missing)}"
