"""The error raised when a knowledge base cannot answer a query (defined in the one tree,
:mod:`guardrail.errors`, and re-exported here).

Foreign errors of the backends (``urllib`` and socket errors, JSON decoding errors,
pyoxigraph syntax and I/O errors) are mapped to it at one boundary:
:meth:`guardrail.kb.KnowledgeBase.query`.
"""

from __future__ import annotations

from guardrail.errors import KnowledgeBaseError

__all__ = ["KnowledgeBaseError"]
