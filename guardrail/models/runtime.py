"""ONNX Runtime sessions, tokenizers and the thread setting shared by the shipped models.

Inference needs ``onnxruntime``, ``tokenizers`` and numpy only (no torch): the claim
verifier and the sentence encoder are ONNX files exported by ``training/export_onnx.py``.

Threads
-------
Each model session uses ``threads()`` intra-op threads: ``KG_GUARDRAIL_THREADS`` when
set, else :func:`set_threads`'s value, else ``min(2, os.cpu_count())``. Worker threads do not
spin while idle, so a guard sharing the cores with an LLM server does not take cycles
from it between requests. Changing the setting reloads the shared models on next use.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from guardrail._optional import require
from guardrail.errors import DetectorError, InvalidInputError

__all__ = ["threads", "set_threads", "session", "tokenizer", "settings_version", "without_torch",
           "THREADS_ENV"]

#: Environment variable with the intra-op thread count of the model sessions.
THREADS_ENV = "KG_GUARDRAIL_THREADS"
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
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own untyped errors
        raise DetectorError(f"cannot load the ONNX model {str(path)!r}: {exc}") from exc


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


class _Blocker(importlib.abc.MetaPathFinder):
    """Makes ``import torch`` fail, so optional torch support elsewhere stays off."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name == "torch" or name.startswith("torch."):
            raise ImportError(f"{name} is not imported by kg-guardrail inference")
        return None


@contextlib.contextmanager
def without_torch() -> Iterator[None]:
    """Import inside the block with ``import torch`` failing, unless torch is already loaded.

    spaCy's ``thinc`` imports torch when it is installed (1-2 s and 100+ MB for nothing the
    guard uses); importing spaCy inside this block keeps the check path torch-free.
    """
    if "torch" in sys.modules:
        yield
        return
    blocker = _Blocker()
    sys.meta_path.insert(0, blocker)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(blocker)
