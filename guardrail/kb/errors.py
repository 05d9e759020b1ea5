"""The error raised when a knowledge base cannot answer a query.

:class:`KnowledgeBaseError` derives from :class:`guardrail.errors.GuardrailError`, so
``except GuardrailError`` still catches every kg-guardrail error. Foreign errors of the
backends (``urllib`` and socket errors, JSON decoding errors, pyoxigraph syntax and I/O
errors) are mapped to it at one boundary: :meth:`guardrail.kb.KnowledgeBase.query`.
"""

from __future__ import annotations

from guardrail.errors import GuardrailError

__all__ = ["KnowledgeBaseError"]


class KnowledgeBaseError(GuardrailError):
    """A knowledge base could not be loaded or queried.

    Raised for an unreachable endpoint, a timeout (after the retries), an HTTP error
    status, a malformed result document, an unreadable RDF file, or a query the store
    rejects. The message names the backend and the cause; the original exception is
    chained (``__cause__``).
    """
