"""Errors of the LLM layer (to be moved into :mod:`guardrail.errors` on merge)."""

from __future__ import annotations

from guardrail.errors import GuardrailError

__all__ = ["LLMError", "ModelFileError"]


class LLMError(GuardrailError):
    """An LLM endpoint kept failing (after retries) or returned an unusable reply.

    Attributes
    ----------
    transient : bool
        ``True`` when the last failure was a connection error, a timeout, a rate
        limit or a 5xx (worth trying again later); ``False`` for a bad request, a
        bad key or an unparsable reply.
    """

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient


class ModelFileError(GuardrailError):
    """The local model file is missing, incomplete or its SHA-256 differs from the pinned one."""
