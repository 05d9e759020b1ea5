"""A SPARQL 1.1 endpoint over HTTP (Wikidata, Virtuoso, Fuseki, GraphDB...).

Queries are POSTed as ``application/x-www-form-urlencoded`` (SPARQL 1.1 Protocol) and
results read as SPARQL JSON. Timeouts, connection errors and the HTTP statuses 429,
500, 502, 503 and 504 are retried with exponential backoff (tenacity); every failure
that is left, and every malformed result, becomes a
:class:`~guardrail.kb.errors.KnowledgeBaseError`.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

from guardrail.errors import InvalidInputError
from guardrail.kb.base import KnowledgeBase, QueryCache, Row, check_positive, check_query
from guardrail.kb.errors import KnowledgeBaseError
from guardrail.kb.terms import Term

__all__ = ["SparqlEndpointKB", "DEFAULT_USER_AGENT"]

#: Sent with every request (Wikidata's policy asks for a descriptive user agent).
DEFAULT_USER_AGENT = "kg-guardrail/0.1 (hallucination guard; https://pypi.org/project/kg-guardrail/)"
_RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
_KINDS = {"uri": "iri", "literal": "literal", "typed-literal": "literal", "bnode": "bnode"}
_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


class _Transient(KnowledgeBaseError):
    """A failure worth retrying (timeout, refused connection, 429/5xx); mapped to a plain
    :class:`KnowledgeBaseError` naming the endpoint once the retries are spent."""


class _Malformed(KnowledgeBaseError):
    """A response that is not a SPARQL JSON results document; mapped to a
    :class:`KnowledgeBaseError` naming the endpoint."""


def _term(var: str, raw: Any) -> Term:
    if not isinstance(raw, dict) or not isinstance(raw.get("value"), str) or raw.get("type") not in _KINDS:
        raise _Malformed(f"malformed binding for ?{var}: {str(raw)[:120]}")
    lang = raw.get("xml:lang") or None
    dt = raw.get("datatype") or None
    if dt == _XSD_STRING or lang:
        dt = None
    return Term(_KINDS[raw["type"]], raw["value"], lang=lang, datatype=dt)  # type: ignore[arg-type]


def parse_results(body: bytes, limit: int) -> list[Row]:
    """Parse a SPARQL JSON results document into rows (at most ``limit``).

    Raises
    ------
    KnowledgeBaseError
        The body lacks ``results.bindings`` (a list of objects) or holds a malformed binding.
    ValueError
        The body is not JSON (``json.JSONDecodeError``, raised by :func:`json.loads`).
    """
    doc = json.loads(body.decode("utf-8"))
    results = doc.get("results") if isinstance(doc, dict) else None
    bindings = results.get("bindings") if isinstance(results, dict) else None
    if not isinstance(bindings, list):
        raise _Malformed("no results.bindings list in the response")
    rows: list[Row] = []
    for b in bindings[:limit]:
        if not isinstance(b, dict):
            raise _Malformed(f"malformed solution: {str(b)[:120]}")
        rows.append({str(k): _term(str(k), v) for k, v in b.items()})
    return rows


def _read_until(resp: Any, deadline: float, limit: int) -> bytes:
    """The body of ``resp`` (at most ``limit`` bytes), read chunk by chunk before ``deadline``
    (``time.monotonic()``): a server trickling bytes cannot stretch the timeout."""
    chunks: list[bytes] = []
    size = 0
    sock = getattr(getattr(getattr(resp, "fp", None), "raw", None), "_sock", None)
    while size < limit:
        left = deadline - time.monotonic()
        if left <= 0:
            raise _Transient("TimeoutError: the response did not arrive within the timeout")
        if sock is not None:
            sock.settimeout(left)
        chunk = resp.read1(min(65536, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


class SparqlEndpointKB(KnowledgeBase):
    """Query a SPARQL 1.1 endpoint over HTTP.

    Parameters
    ----------
    url : str
        The endpoint, e.g. ``"https://query.wikidata.org/sparql"`` or
        ``"http://127.0.0.1:8890/sparql"`` (http or https only).
    timeout : float
        Seconds per request, the whole request: connecting and reading the body (a server
        trickling bytes cannot stretch it), default 10.
    retries : int
        Retries after the first attempt on transient failures (default 2).
    backoff : float
        First backoff in seconds, doubled per retry (capped at 8 s).
    max_results : int
        Most rows kept per query (default 10,000).
    user_agent : str
        The ``User-Agent`` header.
    cache_size : int
        Results of this many distinct queries are kept (LRU; 0 disables the cache).
    default_graph : str or None
        Sent as ``default-graph-uri`` to scope queries to one graph.

    Raises
    ------
    InvalidInputError
        A bad URL scheme or a bad numeric parameter.

    Examples
    --------
    >>> kb = SparqlEndpointKB("http://127.0.0.1:8890/sparql", timeout=5)   # doctest: +SKIP
    """

    name = "sparql-endpoint"

    def __init__(
        self,
        url: str,
        *,
        timeout: float = 10.0,
        retries: int = 2,
        backoff: float = 0.5,
        max_results: int = 10_000,
        user_agent: str = DEFAULT_USER_AGENT,
        cache_size: int = 256,
        default_graph: str | None = None,
    ) -> None:
        if not isinstance(url, str) or urllib.parse.urlsplit(url).scheme not in ("http", "https"):
            raise InvalidInputError(f"url must be an http(s) URL, got {url!r}")
        check_positive("timeout", timeout)
        check_positive("backoff", backoff, allow_zero=True)
        check_positive("max_results", max_results)
        if not isinstance(retries, int) or isinstance(retries, bool) or retries < 0:
            raise InvalidInputError(f"retries must be an int >= 0, got {retries!r}")
        if not isinstance(user_agent, str) or not user_agent.strip():
            raise InvalidInputError("user_agent must be a non-empty str")
        self.url, self.timeout, self.retries, self.backoff = url, float(timeout), retries, float(backoff)
        self.max_results, self.user_agent, self.default_graph = int(max_results), user_agent, default_graph
        self.cache = QueryCache(cache_size)
        self.name = f"sparql-endpoint {url}"

    def query(self, sparql: str) -> list[Row]:
        """POST the query, retrying transient failures; cached by query text.

        Raises
        ------
        KnowledgeBaseError
            Unreachable endpoint or timeout after all retries, an HTTP error status, or
            a response that is not a SPARQL JSON results document.
        """
        check_query(sparql)
        cached = self.cache.get(sparql)
        if cached is not None:
            return cached
        retrying = Retrying(
            stop=stop_after_attempt(self.retries + 1),
            wait=wait_exponential(multiplier=self.backoff, max=8.0),
            retry=retry_if_exception_type(_Transient), reraise=True,
        )
        try:
            body = retrying(self._post, sparql)
            rows = parse_results(body, self.max_results)
        except _Transient as exc:
            raise KnowledgeBaseError(
                f"{self.name}: failed after {self.retries + 1} attempt(s): {exc}") from exc.__cause__
        except (_Malformed, ValueError, UnicodeDecodeError) as exc:
            raise KnowledgeBaseError(f"{self.name}: malformed SPARQL JSON results: {exc}") from exc
        except RecursionError as exc:
            raise KnowledgeBaseError(f"{self.name}: malformed SPARQL JSON results: nested too deeply") from exc
        self.cache.put(sparql, rows)
        return rows

    def _post(self, sparql: str) -> bytes:
        fields = {"query": sparql}
        if self.default_graph:
            fields["default-graph-uri"] = self.default_graph
        req = urllib.request.Request(
            self.url, data=urllib.parse.urlencode(fields).encode("utf-8"), method="POST",
            headers={"Accept": "application/sparql-results+json", "User-Agent": self.user_agent,
                     "Content-Type": "application/x-www-form-urlencoded"},
        )
        deadline = time.monotonic() + self.timeout
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:  # noqa: S310 - http(s) checked
                data = _read_until(resp, deadline, 64 * 1024 * 1024 + 1)
        except urllib.error.HTTPError as exc:
            if exc.code in _RETRY_STATUS:
                raise _Transient(f"HTTP {exc.code} {exc.reason}") from exc
            detail = exc.read(300).decode("utf-8", "replace").strip()
            raise KnowledgeBaseError(f"{self.name}: HTTP {exc.code} {exc.reason}: {detail}") from exc
        except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
            raise _Transient(f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}") from exc
        except OSError as exc:  # e.g. a reset while reading the body
            raise _Transient(f"{type(exc).__name__}: {exc}") from exc
        if len(data) > 64 * 1024 * 1024:
            raise KnowledgeBaseError(f"{self.name}: response larger than 64 MiB")
        return data
