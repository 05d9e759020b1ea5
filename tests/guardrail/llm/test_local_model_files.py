"""Model-file handling without running the model: missing extra, hash mismatch, cache dir."""

from __future__ import annotations

import builtins
from pathlib import Path

import pytest

from guardrail import _model_files
from guardrail.llm import local
from guardrail.llm.errors import ModelFileError
from guardrail.models import gga_local


def test_cache_dir_is_overridable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KG_GUARDRAIL_MODEL_DIR", str(tmp_path))
    assert local.model_dir() == tmp_path
    monkeypatch.delenv("KG_GUARDRAIL_MODEL_DIR")
    assert local.model_dir().parts[-2:] == ("kg-guardrail", "models")


def test_hash_mismatch_is_a_typed_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    parts = []
    for i in range(2):
        p = tmp_path / f"part{i}.bin"
        p.write_bytes(b"not a model %d" % i)
        parts.append(p)
    monkeypatch.setattr(local, "_part_files", lambda: parts)
    with pytest.raises(ModelFileError, match="SHA-256"):
        local.ensure_model(tmp_path / "cache")
    assert not list((tmp_path / "cache").iterdir())  # nothing half-written is kept


def test_missing_extra_names_the_pip_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real = builtins.__import__

    def no_xllamacpp(name: str, *args: object, **kwargs: object) -> object:
        if name == "xllamacpp":
            raise ImportError("No module named 'xllamacpp'")
        return real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_xllamacpp)
    monkeypatch.delitem(__import__("sys").modules, "xllamacpp", raising=False)
    with pytest.raises(ImportError, match=r"kg-guardrail\[local-llm\]"):
        with local.local_llm(model_path="x.gguf"):
            pass


def test_missing_part_names_the_pip_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(local, "MODEL_PARTS", 23)  # a part 23 does not exist
    with pytest.raises(ImportError, match=r"kg-guardrail\[local-llm\]"):
        local.ensure_model(tmp_path)


def test_default_check_path_imports_no_llm_library() -> None:
    import subprocess
    import sys

    code = ("import sys; from guardrail import Guard; import guardrail.policy, guardrail.llm; "
            "print(sorted(m for m in ('openai', 'xllamacpp') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_both_models_share_one_cache_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("KG_GUARDRAIL_MODEL_DIR", raising=False)
    monkeypatch.setenv("KG_GUARDRAIL_CACHE", str(tmp_path))
    assert local.model_dir() == gga_local.cache_dir() == tmp_path / "models"
    monkeypatch.setenv("KG_GUARDRAIL_MODEL_DIR", str(tmp_path / "m"))
    assert local.model_dir() == gga_local.cache_dir() == tmp_path / "m"


def test_gga_model_missing_part_names_the_gga_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    model = _model_files.PartedModel("x.gguf", "0" * 64, "no-such-kg-guardrail-part{}", "0.1", 2, "gga")
    monkeypatch.setattr(gga_local, "MODEL", model)
    assert not gga_local.parts_installed()
    with pytest.raises(ImportError, match=r"kg-guardrail\[gga\]"):
        gga_local.local_model_file(tmp_path)


def test_join_checks_the_digest_and_keeps_a_marker(tmp_path: Path) -> None:
    import hashlib

    parts = [tmp_path / "a.bin", tmp_path / "b.bin"]
    parts[0].write_bytes(b"abc")
    parts[1].write_bytes(b"def")
    good = _model_files.PartedModel("m.gguf", hashlib.sha256(b"abcdef").hexdigest(), "p{}", "1", 2, "gga")
    path = _model_files.join_parts(good, tmp_path / "c", parts=lambda: parts)
    assert path.read_bytes() == b"abcdef" and _model_files.sha256_file(path) == good.sha256
    # verified by its marker: no part is read again
    assert _model_files.join_parts(good, tmp_path / "c", parts=lambda: []) == path
    bad = _model_files.PartedModel("n.gguf", "0" * 64, "p{}", "1", 2, "gga")
    with pytest.raises(ModelFileError, match="SHA-256"):
        _model_files.join_parts(bad, tmp_path / "c", parts=lambda: parts)
    assert sorted(f.name for f in (tmp_path / "c").iterdir()) == ["m.gguf", "m.gguf.sha256-ok"]
