"""Check that LlamaIndex is installed, with an ImportError naming the pip command."""

from __future__ import annotations

from guardrail._optional import pip_hint, require

__all__ = ["PIP_HINT", "require_llama_index"]

#: The command that installs this adapter's dependency.
PIP_HINT = pip_hint("llama_index")


def require_llama_index() -> None:
    """Import ``llama_index.core`` or raise ImportError naming :data:`PIP_HINT`.

    Raises
    ------
    ImportError
        When ``llama-index-core`` (>=0.14,<0.15) is not installed.
    """
    require("llama_index.core", extra="llama_index", purpose="guardrail_llama_index")
