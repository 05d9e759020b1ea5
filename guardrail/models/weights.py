"""One loader check for every shipped model file: SHA-256 against the folder's ``SHA256``.

Each model folder (``models/verifier/``, ``models/encoder/``, ``models/kg_guard/``) holds a
``SHA256`` file in ``sha256sum`` format (``<hex digest>  <file name>`` per line). A file is
loaded only when it is listed there and its digest matches; a folder without ``SHA256``,
a missing file, an unlisted file or a mismatch raise :class:`~guardrail.errors.DetectorError`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from guardrail._model_files import sha256_file
from guardrail.errors import DetectorError

__all__ = ["sha256_file", "read_sums", "checked_files", "write_sums", "SUMS_FILE"]

#: Name of the digest file in every model folder.
SUMS_FILE = "SHA256"


def read_sums(model_dir: str | Path) -> dict[str, str]:
    """``{file name: hex digest}`` from ``model_dir/SHA256``.

    Raises
    ------
    DetectorError
        The file is missing, unreadable or malformed.
    """
    path = Path(model_dir) / SUMS_FILE
    try:
        lines = path.read_text(encoding="ascii").splitlines()
        pairs = [line.split(None, 1) for line in lines if line.strip()]
        return {name.strip().lstrip("*"): digest.lower() for digest, name in pairs}
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise DetectorError(f"model weights: cannot read {str(path)!r}: {exc}") from exc


def checked_files(model_dir: str | Path, names: Iterable[str], *, what: str = "model") -> dict[str, Path]:
    """Paths of ``names`` in ``model_dir``, each checked against ``SHA256``.

    Parameters
    ----------
    model_dir : str or Path
        The model folder.
    names : iterable of str
        File names inside it that the caller is about to load.
    what : str
        Model name used in error messages (``"claim verifier"``, ``"kg_guard"``...).

    Returns
    -------
    dict of str to Path
        ``{name: path}`` in the order given.

    Raises
    ------
    DetectorError
        A file is missing, not listed in ``SHA256`` or does not match its digest
        (message: "... corrupted ...").
    """
    d = Path(model_dir)
    sums = read_sums(d)
    out: dict[str, Path] = {}
    for name in names:
        p = d / name
        if not p.is_file():
            raise DetectorError(f"{what} weights: {str(p)!r} not found")
        want = sums.get(name)
        if want is None:
            raise DetectorError(f"{what} weights: {name!r} is not listed in {str(d / SUMS_FILE)!r} "
                                "(re-run training/export_onnx.py after replacing the weights)")
        got = sha256_file(p)
        if got != want:
            raise DetectorError(f"{what} weights {str(p)!r} are corrupted: sha256 {got} != {want}")
        out[name] = p
    return out


def write_sums(model_dir: str | Path, names: Iterable[str]) -> dict[str, str]:
    """Write ``model_dir/SHA256`` with one line per existing file of ``names``.

    Returns
    -------
    dict of str to str
        ``{name: digest}`` written.
    """
    d = Path(model_dir)
    sums = {n: sha256_file(d / n) for n in names if (d / n).is_file()}
    (d / SUMS_FILE).write_text("".join(f"{h}  {n}\n" for n, h in sums.items()), encoding="ascii")
    return sums
