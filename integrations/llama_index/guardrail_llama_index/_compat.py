"""Check that LlamaIndex is installed, with an ImportError naming the pip command."""

from __future__ import annotations

__all__ = ["PIP_HINT", "require_llama_index"]

#: The command that installs this adapter's dependency.
PIP_HINT = "pip install 'kg-guardrail[llama-index]'"


def require_llama_index() -> None:
    """Import ``llama_index.core`` or raise ImportError naming :data:`PIP_HINT`.

    Raises
    ------
    ImportError
        When ``llama-index-core`` is not installed.
    """
    try:
        import llama_index.core  # noqa: F401
    except ImportError as exc:  # pragma: no cover - exercised by a monkeypatched test
        raise ImportError(
            "guardrail_llama_index needs llama-index-core (>=0.14,<0.15); "
            f"install it with: {PIP_HINT}"
        ) from exc
