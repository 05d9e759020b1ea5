"""One client for any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp, the local one).

:class:`LLMClient` wraps ``openai.OpenAI`` (imported lazily: the default ``Guard().check``
path never imports it) with a per-call timeout, tenacity retries with exponential
backoff on transient failures (connection errors, timeouts, rate limits, 5xx) and a
typed :class:`~guardrail.llm.errors.LLMError` once they are spent. :meth:`LLMClient.chat_json`
asks for JSON-schema constrained output (``response_format={"type": "json_schema"}``)
and, when the server refuses that, asks again without it and parses the reply with
:func:`parse_json_reply`, which tolerates code fences and text around the JSON.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Sequence
from typing import Any, Protocol

from tenacity import RetryError, Retrying, retry_if_exception, stop_after_attempt, wait_exponential

from guardrail._optional import require
from guardrail.errors import InvalidInputError
from guardrail.llm.errors import LLMError

__all__ = ["Message", "RepromptRequest", "LLMClient", "parse_json_reply", "is_transient"]

#: A chat message as ``(role, content)``.
Message = tuple[str, str]


class RepromptRequest(Protocol):
    """What :meth:`LLMClient.reprompt` reads from a refinement request.

    :class:`~guardrail.policy.refine.RefinementRequest` is one: the refinement step builds
    the prompt and sizes the reply; the client only sends them.
    """

    @property
    def deadline(self) -> float | None:
        """``time.monotonic()`` value by which the refinement's time budget is spent, or ``None``."""

    @property
    def reply_tokens(self) -> int:
        """The reply length the request asks for, in tokens."""

    def messages(self) -> list[Message]:
        """The chat messages of the re-prompt, as ``(role, content)`` pairs."""

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)
#: Lone surrogates cannot be sent as UTF-8: they go as U+FFFD (as the guard reads them).
_SURROGATE = re.compile("[\ud800-\udfff]")


def parse_json_reply(text: str) -> Any:
    """Parse the JSON value in an LLM reply, tolerating fences and surrounding prose.

    Tries the whole text, then each fenced block, then the widest ``{...}`` / ``[...]``
    slice.

    Raises
    ------
    LLMError
        No JSON value could be parsed.

    Examples
    --------
    >>> parse_json_reply('Sure! ```json\\n{"a": 1}\\n``` Hope it helps.')
    {'a': 1}
    """
    candidates = [text.strip(), *(m.strip() for m in _FENCE.findall(text))]
    for open_, close in (("{", "}"), ("[", "]")):
        i, j = text.find(open_), text.rfind(close)
        if 0 <= i < j:
            candidates.append(text[i:j + 1])
    for cand in candidates:
        try:
            return json.loads(cand)
        except ValueError:
            continue
    raise LLMError(f"the LLM reply holds no JSON: {text[:200]!r}")


def is_transient(exc: BaseException) -> bool:
    """Whether ``exc`` (from ``openai``) is worth retrying: connection, timeout, 429, 5xx."""
    name = type(exc).__name__
    if name in {"APIConnectionError", "APITimeoutError", "RateLimitError", "InternalServerError"}:
        return True
    status = getattr(exc, "status_code", None)
    return isinstance(status, int) and (status == 429 or status >= 500)


def _schema_refused(exc: BaseException) -> bool:
    status = getattr(exc, "status_code", None)
    return status in (400, 422) and "response_format" in str(exc).lower() or status == 501


class LLMClient:
    """Chat with an OpenAI-compatible endpoint, with timeouts, retries and typed errors.

    Parameters
    ----------
    base_url : str
        E.g. ``http://127.0.0.1:18089/v1`` (local), ``https://api.openai.com/v1``; required
        (``None`` or ``""`` raises :class:`~guardrail.errors.InvalidInputError` rather than
        falling back to the public OpenAI URL).
    model : str
        Model name sent with each request (llama.cpp serves one model whatever it is).
    api_key : str or None
        Key; ``None`` reads ``OPENAI_API_KEY`` and falls back to ``"not-needed"`` (local servers).
    timeout : float
        Seconds per HTTP call, the whole call: connecting, the headers and the body
        (:class:`~guardrail.llm.deadline.DeadlineTransport`).
    retries : int
        Attempts per call (>= 1) on transient failures.
    retry_wait : float
        First backoff in seconds (doubles per attempt, up to ``retry_max_wait``).
    retry_max_wait : float
        Longest backoff in seconds (default 8).
    temperature : float
        Sampling temperature (0: deterministic replies).
    max_tokens : int
        Default reply length cap.
    """

    def __init__(
        self, base_url: str, model: str = "local", *, api_key: str | None = None, timeout: float = 120.0,
        retries: int = 3, retry_wait: float = 0.5, retry_max_wait: float = 8.0, temperature: float = 0.0,
        max_tokens: int = 256,
    ) -> None:
        if not isinstance(base_url, str) or not base_url.strip():
            # openai.OpenAI(base_url=None) would silently target the public OpenAI API
            raise InvalidInputError(f"base_url must be a non-empty URL string, got {base_url!r}")
        if retries < 1:
            raise LLMError(f"retries must be >= 1, got {retries!r}")
        openai = require("openai", extra="openai")
        import os

        key = api_key or os.environ.get("OPENAI_API_KEY") or "not-needed"
        # retries are ours (tenacity), so the SDK's own are off
        import httpx

        from guardrail.llm.deadline import DeadlineTransport

        # the timeout bounds each whole request (a server trickling bytes cannot stretch it)
        http = httpx.Client(transport=DeadlineTransport(), timeout=timeout)
        self._client = openai.OpenAI(base_url=base_url, api_key=key, timeout=timeout, max_retries=0, http_client=http)
        self.timeout = float(timeout)
        self.base_url = base_url
        self.model = model
        self.retries = retries
        self.retry_wait = retry_wait
        self.retry_max_wait = retry_max_wait
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.json_schema_supported: bool | None = None

    def __repr__(self) -> str:
        return f"LLMClient(base_url={self.base_url!r}, model={self.model!r})"

    def _create(self, messages: Sequence[Message], max_tokens: int | None, **extra: Any) -> str:
        resp = self._client.chat.completions.create(
            model=self.model, messages=[{"role": r, "content": _SURROGATE.sub("\ufffd", c)} for r, c in messages],
            temperature=self.temperature, max_tokens=max_tokens or self.max_tokens, **extra,
        )
        if not resp.choices or resp.choices[0].message.content is None:
            raise LLMError("the LLM returned no message content")
        return str(resp.choices[0].message.content)

    def _retrying(self, messages: Sequence[Message], max_tokens: int | None, deadline: float | None = None,
                  **extra: Any) -> str:
        stop: Any = stop_after_attempt(self.retries)
        if deadline is not None:
            from guardrail.llm.deadline import stop_before_deadline

            stop = stop | stop_before_deadline(deadline)
        retrying = Retrying(stop=stop, retry=retry_if_exception(is_transient),
                            wait=wait_exponential(multiplier=self.retry_wait, max=self.retry_max_wait), reraise=False)
        try:
            for attempt in retrying:
                with attempt:
                    if deadline is not None:  # each attempt waits only for what is left
                        extra["timeout"] = self._timeout_until(deadline)
                    return self._create(messages, max_tokens, **extra)
        except RetryError as exc:
            last = exc.last_attempt.exception()
            raise LLMError(f"{self.base_url}: failed after {self.retries} attempts: {last!r}",
                           transient=True) from last
        raise LLMError("unreachable")  # pragma: no cover

    def _timeout_until(self, deadline: float) -> float:
        left = deadline - time.monotonic()
        if left <= 0:
            raise LLMError(f"{self.base_url}: the time budget is spent", transient=True)
        return min(self.timeout, left)

    def chat(self, messages: Sequence[Message], *, max_tokens: int | None = None,
             deadline: float | None = None, timeout: float | None = None) -> str:
        """The reply text to ``messages`` (``(role, content)`` pairs).

        ``deadline`` (a ``time.monotonic()`` value) caps each request's timeout and stops
        the retries before it; ``timeout`` replaces :attr:`timeout` for this call's requests.

        Raises
        ------
        LLMError
            Transient failures outlasted the retries (``transient=True``), or the
            endpoint refused the request (bad key, bad request: ``transient=False``).
        """
        extra: dict[str, Any] = {} if timeout is None else {"timeout": float(timeout)}
        try:
            return self._retrying(messages, max_tokens, deadline, **extra)
        except LLMError:
            raise
        except Exception as exc:  # an openai.APIStatusError that is not transient
            raise LLMError(f"{self.base_url}: {exc}") from exc

    async def achat(self, messages: Sequence[Message], *, max_tokens: int | None = None) -> str:
        """Async :meth:`chat` (runs it in a worker thread)."""
        return await asyncio.to_thread(self.chat, messages, max_tokens=max_tokens)

    def reprompt(self, request: RepromptRequest) -> str:
        """A refinement re-prompt: ``fn(RefinementRequest) -> str`` for :func:`~guardrail.policy.refine.enforce`.

        Sends the request's :meth:`~RepromptRequest.messages` (the refinement step builds
        them) and strips the reply; its length is capped at the request's
        :attr:`~RepromptRequest.reply_tokens` (for a refinement request, twice the previous
        answer's words, at least 64 tokens) and at most :attr:`max_tokens`. The request's
        ``deadline`` (the refinement loop's time budget) caps the timeout and the retries.
        """
        cap = min(self.max_tokens, request.reply_tokens)
        return self.chat(request.messages(), max_tokens=cap, deadline=request.deadline).strip()

    async def areprompt(self, request: RepromptRequest) -> str:
        """Async :meth:`reprompt`."""
        return await asyncio.to_thread(self.reprompt, request)

    def chat_json(
        self, messages: Sequence[Message], schema: dict[str, Any], *, max_tokens: int | None = None,
        name: str = "reply", timeout: float | None = None,
    ) -> Any:
        """A JSON reply, constrained by ``schema`` where the server supports it.

        ``timeout`` replaces :attr:`timeout` for this call's requests (e.g. sized to the reply).

        The first refusal of ``response_format`` (HTTP 400/422 naming it, or 501) is
        remembered in :attr:`json_schema_supported` and later calls go straight to the
        unconstrained request, whose reply is read with :func:`parse_json_reply`.

        Raises
        ------
        LLMError
            As :meth:`chat`, or the reply holds no JSON.
        """
        if self.json_schema_supported is not False:
            fmt = {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}
            try:
                extra: dict[str, Any] = {} if timeout is None else {"timeout": float(timeout)}
                text = self._retrying(messages, max_tokens, response_format=fmt, **extra)
                self.json_schema_supported = True
                return parse_json_reply(text)
            except LLMError:
                raise
            except Exception as exc:
                if not _schema_refused(exc):
                    raise LLMError(f"{self.base_url}: {exc}") from exc
                self.json_schema_supported = False
        hint = ("Reply with JSON only, matching this JSON schema:\n" + json.dumps(schema))
        msgs = [*messages[:-1], (messages[-1][0], messages[-1][1] + "\n\n" + hint)] if messages else []
        return parse_json_reply(self.chat(msgs, max_tokens=max_tokens, timeout=timeout))
