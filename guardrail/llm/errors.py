"""Errors of the LLM layer: defined in :mod:`guardrail.errors` (the one tree), re-exported here."""

from __future__ import annotations

from guardrail.errors import LLMError, ModelFileError

__all__ = ["LLMError", "ModelFileError"]
