"""An httpx transport whose timeout bounds the whole request, not each read.

httpx (under the ``openai`` SDK) applies its read timeout to every socket read, so a
server that sends one byte a second keeps a request alive for ever. :class:`DeadlineTransport`
takes the request's read timeout as the time the whole request may take: the
connection, the headers and every chunk of the body must arrive before that deadline,
else :class:`httpx.ReadTimeout` is raised (which the SDK reports as a timeout).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
from tenacity import RetryCallState
from tenacity.stop import stop_base

__all__ = ["DeadlineTransport", "stop_before_deadline"]


class _DeadlineStream(httpx.SyncByteStream):
    def __init__(self, inner: Any, deadline: float, request: httpx.Request) -> None:
        self._inner, self._deadline, self._request = inner, deadline, request

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._inner:
            if time.monotonic() > self._deadline:
                raise httpx.ReadTimeout("the response did not arrive within the timeout", request=self._request)
            yield chunk

    def close(self) -> None:
        self._inner.close()


class DeadlineTransport(httpx.BaseTransport):
    """Wrap a transport so that a request's read timeout is its total time.

    Parameters
    ----------
    inner : httpx.BaseTransport or None
        The transport doing the I/O (default :class:`httpx.HTTPTransport`).
    """

    def __init__(self, inner: httpx.BaseTransport | None = None) -> None:
        self._inner = inner or httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request``; each read may wait only for what is left of the total timeout."""
        timeouts = dict(request.extensions.get("timeout") or {})
        total = timeouts.get("read")
        if total is None:
            return self._inner.handle_request(request)
        deadline = time.monotonic() + float(total)
        request.extensions["timeout"] = {k: (min(float(v), float(total)) if v is not None else float(total))
                                         for k, v in timeouts.items()}
        response = self._inner.handle_request(request)
        if time.monotonic() > deadline:
            response.close()
            raise httpx.ReadTimeout("the response did not arrive within the timeout", request=request)
        response.stream = _DeadlineStream(response.stream, deadline, request)
        return response

    def close(self) -> None:
        """Close the inner transport."""
        self._inner.close()


class stop_before_deadline(stop_base):  # noqa: N801 - named like tenacity's stop conditions
    """A tenacity stop condition: no retry whose backoff would end past ``deadline``.

    Parameters
    ----------
    deadline : float
        A ``time.monotonic()`` value.
    """

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline

    def __call__(self, retry_state: RetryCallState) -> bool:
        """True once ``now`` plus the next backoff reaches the deadline."""
        return time.monotonic() + retry_state.upcoming_sleep >= self.deadline
