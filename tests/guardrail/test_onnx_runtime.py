"""The ONNX inference layer without the models: hash checks, thread setting, truncation rules."""

from __future__ import annotations

import sys

import pytest

from guardrail.errors import DetectorError, InvalidInputError
from guardrail.models import runtime
from guardrail.models.claim_verifier import CLAIM_WINDOW, EVIDENCE_FLOOR, MAX_LENGTH, _windows
from guardrail.models.weights import checked_files, read_sums, sha256_file, write_sums


def _model_dir(tmp_path):
    (tmp_path / "a.bin").write_bytes(b"weights" * 100)
    (tmp_path / "b.json").write_text("{}", encoding="utf-8")
    write_sums(tmp_path, ["a.bin", "b.json"])
    return tmp_path


def test_checked_files_accepts_listed_matching_files(tmp_path):
    d = _model_dir(tmp_path)
    assert read_sums(d)["a.bin"] == sha256_file(d / "a.bin")
    assert list(checked_files(d, ["a.bin", "b.json"])) == ["a.bin", "b.json"]


@pytest.mark.parametrize("damage, match", [
    (lambda d: (d / "a.bin").write_bytes(b"other"), "corrupted"),
    (lambda d: (d / "a.bin").unlink(), "not found"),
    (lambda d: (d / "SHA256").unlink(), "cannot read"),
    (lambda d: write_sums(d, ["b.json"]), "not listed"),
    (lambda d: (d / "SHA256").write_bytes(b"\xff\xfe garbage"), "cannot read"),
])
def test_checked_files_rejects_damage_with_a_typed_error(tmp_path, damage, match):
    d = _model_dir(tmp_path)
    damage(d)
    with pytest.raises(DetectorError, match=match):
        checked_files(d, ["a.bin", "b.json"], what="test model")


def test_threads_default_env_and_setting(monkeypatch):
    monkeypatch.delenv(runtime.THREADS_ENV, raising=False)
    runtime.set_threads(None)
    assert 1 <= runtime.threads() <= 2
    v = runtime.settings_version()
    runtime.set_threads(1)
    try:
        assert runtime.threads() == 1 and runtime.settings_version() == v + 1
        monkeypatch.setenv(runtime.THREADS_ENV, "3")
        assert runtime.threads() == 3  # the environment wins
        monkeypatch.setenv(runtime.THREADS_ENV, "zero")
        with pytest.raises(InvalidInputError):
            runtime.threads()
    finally:
        runtime.set_threads(None)
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(InvalidInputError):
            runtime.set_threads(bad)


def test_without_torch_blocks_torch_imports_only_inside_the_block():
    if "torch" in sys.modules:
        pytest.skip("torch already imported in this process")
    with runtime.without_torch():
        with pytest.raises(ImportError):
            __import__("torch")
    assert "torch" not in sys.modules


@pytest.mark.parametrize("n_ev, n_cl", [(10, 10), (200, 100), (300, 100), (10, 240), (400, 400), (0, 1000)])
def test_pair_windows_fit_the_budget_and_cover_the_claim(n_ev, n_cl):
    ev, cl = list(range(n_ev)), list(range(10_000, 10_000 + n_cl))
    wins = _windows(ev, cl, MAX_LENGTH)
    for we, wc in wins:
        assert len(we) + len(wc) <= MAX_LENGTH - 3
        assert we == ev[:len(we)]  # the evidence head, cut from its end
    covered = {t for _, wc in wins for t in wc}
    assert covered == set(cl)  # every claim token is scored in some window
    if n_ev + n_cl <= MAX_LENGTH - 3:
        assert wins == [(ev, cl)]
    elif n_cl <= MAX_LENGTH - 3 - EVIDENCE_FLOOR:
        assert len(wins) == 1 and wins[0][1] == cl  # the evidence is cut first
    else:
        assert all(len(wc) <= CLAIM_WINDOW for _, wc in wins)
        assert all(len(we) >= min(n_ev, EVIDENCE_FLOOR) for we, _ in wins)


def test_guard_threads_parameter_sets_the_process_setting(monkeypatch):
    from guardrail import Guard

    monkeypatch.delenv(runtime.THREADS_ENV, raising=False)
    try:
        Guard(threads=1)
        assert runtime.threads() == 1
        with pytest.raises(InvalidInputError):
            Guard(threads=0)
    finally:
        runtime.set_threads(None)


@pytest.mark.parametrize("seed", range(5))
def test_length_batches_cover_every_row_within_the_budget(seed):
    import random

    rng = random.Random(seed)
    lengths = [rng.randint(0, 300) for _ in range(rng.randint(0, 120))]
    batches = runtime.length_batches(lengths, batch_size=8, max_tokens=600)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    flat = [lengths[i] for b in batches for i in b]
    assert flat == sorted(flat)  # shortest first, batches in order
    for b in batches:
        assert 1 <= len(b) <= 8
        assert len(b) == 1 or len(b) * max(lengths[i] for i in b) <= 600


def test_length_batches_with_no_token_budget_are_plain_chunks_and_bad_sizes_raise():
    lengths = [5, 1, 4, 2, 3]
    assert runtime.length_batches(lengths, batch_size=2, max_tokens=10**9) == [[1, 3], [4, 2], [0]]
    assert runtime.length_batches([900], batch_size=4, max_tokens=10) == [[0]]  # too long: alone
    assert runtime.length_batches([], batch_size=4) == []
    for bad in ({"batch_size": 0}, {"batch_size": 2, "max_tokens": 0}):
        with pytest.raises(InvalidInputError):
            runtime.length_batches(lengths, **bad)
