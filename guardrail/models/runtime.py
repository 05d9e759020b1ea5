"""ONNX Runtime sessions, tokenizers and the thread setting shared by the shipped models.

Inference needs ``onnxruntime``, ``tokenizers`` and numpy only (no torch): the claim
verifier and the sentence encoder are ONNX files exported by ``training/export_onnx.py``.

Threads
-------
Each model session uses ``threads()`` intra-op threads: ``KG_GUARDRAIL_THREADS`` when
set, else :func:`set_threads`'s value, else ``min(2, os.cpu_count())``. Worker threads do not
spin while idle, so a guard sharing the cores with an LLM server does not take cycles
from it between requests. Changing the setting reloads the shared models on next use.

Memory
------
A session holds its weights in fp32, except the embedding tables, which the shipped graphs
gather in fp16 and cast row by row (``training/onnx_gathers.py``): the verifier session
takes about 60 MB resident, the encoder's about 95 MB (70 MB once its graph is rewritten the
same way). The CPU memory arena is off (issue 27): freed activation buffers then go back to
the process heap, where spaCy and Python reuse them, instead of staying in one arena per
session. Measured on the shared 2-core machine (one run each, fresh processes): peak RSS over
90 mixed demo items 545 -> 516 MB and 571 -> 553 MB, over 100 distinct items 541 -> 523 MB,
over 200 554 -> 555 MB; the median of 40 warm checks 434 / 492 ms with the arena, 439 / 471 ms
without (a loaded machine: no difference to see); scores equal to the bit. (An earlier
measurement, with spaCy batches of 4 texts, had the arena off 21 MB worse.) One arena
shared by both sessions saved nothing measurable, and growing it by the size requested
instead of powers of two raised the peak (``benchmarks/results/memory.md``).
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from guardrail._optional import require, without_modules
from guardrail.errors import DetectorError, InvalidInputError

__all__ = ["threads", "set_threads", "session", "tokenizer", "settings_version", "without_torch",
           "length_batches", "THREADS_ENV", "MAX_BATCH_TOKENS"]

#: Environment variable with the intra-op thread count of the model sessions.
THREADS_ENV = "KG_GUARDRAIL_THREADS"
#: Most padded tokens (rows x width) in one forward pass of a shipped model. Attention holds
#: ``rows x 12 heads x width^2`` floats per layer: 32 rows of 256 tokens took 100 MB per tensor,
#: kept by the memory arena for good (RSS +430 MB), and ran slower than small batches, which
#: stay in cache. At 512 tokens (2 rows of 256, or 32 rows of 16) the arena stays under 10 MB
#: and the model time of long pairs dropped by a third on a 2-core CPU; scores agree within 3e-8.
MAX_BATCH_TOKENS = 512
_threads: int | None = None
_version = 0
_lock = threading.Lock()


def threads() -> int:
    """Intra-op threads of the model sessions (``KG_GUARDRAIL_THREADS``, :func:`set_threads`,
    else ``min(2, cores)``).

    Raises
    ------
    InvalidInputError
        ``KG_GUARDRAIL_THREADS`` is not a positive integer.
    """
    env = os.environ.get(THREADS_ENV, "").strip()
    if env:
        if not env.isdigit() or int(env) < 1:
            raise InvalidInputError(f"{THREADS_ENV} must be a positive integer, got {env!r}")
        return int(env)
    if _threads is not None:
        return _threads
    return max(1, min(2, os.cpu_count() or 1))


def set_threads(n: int | None) -> None:
    """Set the intra-op threads of the model sessions for this process (``None``: default).

    The environment variable, when set, still wins. Models already loaded are reloaded
    with the new setting on their next call.

    Raises
    ------
    InvalidInputError
        ``n`` is not ``None`` or a positive integer.
    """
    global _threads, _version
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
        raise InvalidInputError(f"threads must be a positive integer or None, got {n!r}")
    with _lock:
        if n != _threads:
            _threads = n
            _version += 1


def settings_version() -> int:
    """Counter bumped by every change of :func:`set_threads` (models compare it to reload)."""
    return _version


def session(path: Path) -> Any:
    """An ``onnxruntime.InferenceSession`` of ``path`` on the CPU with :func:`threads` threads.

    Raises
    ------
    DetectorError
        The file cannot be loaded by ONNX Runtime.
    ImportError
        ``onnxruntime`` is not installed.
    """
    ort = require("onnxruntime")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads()
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3  # errors only: no warnings on stderr
    opts.enable_cpu_mem_arena = False  # freed buffers back to the heap (module docstring, Memory)
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own untyped errors
        raise DetectorError(f"cannot load the ONNX model {str(path)!r}: {exc}") from exc


def length_batches(lengths: Sequence[int], batch_size: int,
                   max_tokens: int = MAX_BATCH_TOKENS) -> list[list[int]]:
    """Indices of ``lengths`` grouped into forward-pass batches, shortest first.

    Rows are sorted by length (stable) and taken in order; a batch closes at ``batch_size``
    rows or when one more row would pad it past ``max_tokens`` tokens (rows times the
    longest row). A row longer than ``max_tokens`` gets a batch of its own.

    Parameters
    ----------
    lengths : sequence of int
        Token count of each row (``>= 0``).
    batch_size : int
        Most rows per batch, ``>= 1``.
    max_tokens : int
        Most padded tokens per batch, ``>= 1``.

    Returns
    -------
    list of list of int
        Every index exactly once; within a batch in ascending length.

    Raises
    ------
    InvalidInputError
        ``batch_size`` or ``max_tokens`` below 1.

    Examples
    --------
    >>> length_batches([300, 5, 7, 200], batch_size=32, max_tokens=400)
    [[1, 2], [3], [0]]
    """
    if batch_size < 1 or max_tokens < 1:
        raise InvalidInputError(f"batch_size and max_tokens must be >= 1, got {batch_size!r}, {max_tokens!r}")
    out: list[list[int]] = []
    batch: list[int] = []
    for i in sorted(range(len(lengths)), key=lambda k: lengths[k]):
        if batch and (len(batch) >= batch_size or (len(batch) + 1) * lengths[i] > max_tokens):
            out.append(batch)
            batch = []
        batch.append(i)
    if batch:
        out.append(batch)
    return out


def tokenizer(path: Path) -> Any:
    """A ``tokenizers.Tokenizer`` from ``tokenizer.json`` with padding and truncation off
    (the models pad and truncate themselves).

    Raises
    ------
    DetectorError
        The file cannot be parsed.
    ImportError
        ``tokenizers`` is not installed.
    """
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")  # no extra threads, no fork warning
    tk = require("tokenizers")
    try:
        tok = tk.Tokenizer.from_file(str(path))
    except Exception as exc:  # noqa: BLE001 - tokenizers raises plain Exception
        raise DetectorError(f"cannot load the tokenizer {str(path)!r}: {exc}") from exc
    tok.no_padding()
    tok.no_truncation()
    return tok


@contextlib.contextmanager
def without_torch() -> Iterator[None]:
    """Import inside the block with ``import torch`` failing, unless torch is already loaded
    (:func:`guardrail._optional.without_modules` for ``"torch"``).

    spaCy's ``thinc`` imports torch when it is installed (1-2 s and 100+ MB for nothing the
    guard uses); importing spaCy inside this block keeps the check path torch-free.
    """
    with without_modules("torch"):
        yield
