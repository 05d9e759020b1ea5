"""LLM endpoints: one OpenAI-compatible client, the offline local model, re-prompt helpers.

Nothing here is imported by the default ``Guard().check`` path; ``openai`` and
``xllamacpp`` are imported only when a client or the local server is created.

* :mod:`guardrail.llm.client`: :class:`LLMClient` (timeouts, retries, JSON output).
* :mod:`guardrail.llm.local`: :func:`ensure_model`, :func:`local_llm` (extra ``local-llm``).
* :mod:`guardrail.llm.errors`: :class:`LLMError`, :class:`ModelFileError`.
"""

from guardrail.llm.client import LLMClient, parse_json_reply
from guardrail.llm.errors import LLMError, ModelFileError
from guardrail.llm.local import LocalServerSettings, ensure_model, local_llm

__all__ = ["LLMClient", "LLMError", "LocalServerSettings", "ModelFileError", "ensure_model", "local_llm",
           "parse_json_reply"]
