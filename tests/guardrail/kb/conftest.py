"""Fixtures for the knowledge-base tests: the shipped example KB, an embedded store, a
real Virtuoso server on 127.0.0.1, and tiny local HTTP servers that misbehave."""

from __future__ import annotations

import http.server
import shutil
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from guardrail.kb import OxigraphKB, SparqlEndpointKB

KB_FILE = Path(__file__).resolve().parents[3] / "examples" / "data" / "kb" / "ardwyn.ttl"
GRAPH = "urn:kg-guardrail:test"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def kb_file() -> Path:
    if not KB_FILE.is_file():
        pytest.fail(f"test data missing: {KB_FILE} (it ships with the repository)")
    return KB_FILE


@pytest.fixture(scope="session")
def oxi(kb_file: Path) -> OxigraphKB:
    """The example KB in the embedded store."""
    return OxigraphKB(kb_file)


_INI = """[Database]
DatabaseFile = {d}/virtuoso.db
ErrorLogFile = {d}/virtuoso.log
LockFile = {d}/virtuoso.lck
TransactionFile = {d}/virtuoso.trx
xa_persistent_file = {d}/virtuoso.pxa
TempStorage = TempDatabase
[TempDatabase]
DatabaseFile = {d}/virtuoso-temp.db
TransactionFile = {d}/virtuoso-temp.trx
[Parameters]
ServerPort = 127.0.0.1:{sql}
DisableUnixSocket = 1
DirsAllowed = ., {d}
NumberOfBuffers = 2000
MaxDirtyBuffers = 1200
ThreadsPerQuery = 1
CheckpointInterval = 0
[HTTPServer]
ServerPort = 127.0.0.1:{http}
ServerRoot = {d}
ServerThreads = 4
[SPARQL]
ResultSetMaxRows = 10000
MaxQueryExecutionTime = 30
"""


def _isql(port: int, sql: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([_ISQL, f"127.0.0.1:{port}", "dba", "dba", f"exec={sql}"],
                          capture_output=True, text=True, timeout=60)


_ISQL = shutil.which("isql-vt") or shutil.which("isql") or "isql-vt"


@pytest.fixture(scope="session")
def virtuoso(tmp_path_factory: pytest.TempPathFactory, kb_file: Path) -> Iterator[str]:
    """A Virtuoso server on 127.0.0.1 (free ports, temporary database) loaded with the
    example KB in graph ``GRAPH``; yields its ``/sparql`` URL and stops it afterwards.

    Skipped only when the ``virtuoso-t`` binary is missing (Debian/Ubuntu:
    ``apt-get install -y virtuoso-opensource``).
    """
    binary = shutil.which("virtuoso-t")
    if binary is None:
        pytest.skip("virtuoso-t not found: install Virtuoso with `apt-get install -y virtuoso-opensource`")
    d = tmp_path_factory.mktemp("virtuoso")
    sql, http = free_port(), free_port()
    (d / "virtuoso.ini").write_text(_INI.format(d=d, sql=sql, http=http), encoding="utf-8")
    shutil.copy(kb_file, d / "data.ttl")
    proc = subprocess.Popen([binary, "-c", str(d / "virtuoso.ini"), "+foreground"], cwd=d,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{http}/sparql"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{url}?query=ASK%7B%7D", timeout=2).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    log = (d / "virtuoso.log").read_text(errors="replace")[-2000:] if (d / "virtuoso.log").exists() else ""
                    pytest.fail(f"Virtuoso did not start (exit {proc.poll()}): {log}")
                time.sleep(0.5)
        out = _isql(sql, f"DB.DBA.TTLP(file_to_string_output('{d}/data.ttl'), '', '{GRAPH}'); checkpoint;")
        if out.returncode != 0 or "Error" in out.stdout + out.stderr:
            pytest.fail(f"loading the test KB into Virtuoso failed: {out.stdout}{out.stderr}")
        yield url
    finally:
        try:
            _isql(sql, "shutdown;")
            proc.wait(timeout=30)
        except (subprocess.TimeoutExpired, OSError):
            proc.kill()
            proc.wait(timeout=10)


@pytest.fixture(scope="session")
def virtuoso_kb(virtuoso: str) -> SparqlEndpointKB:
    """The Virtuoso endpoint, scoped to the test graph."""
    return SparqlEndpointKB(virtuoso, timeout=10, retries=1, backoff=0.1, default_graph=GRAPH)


class _Server:
    """A local HTTP server answering POSTs with ``handler(path, body) -> (status, bytes, delay)``."""

    def __init__(self, respond: Callable[[bytes], tuple[int, bytes, float]]) -> None:
        self.requests: list[tuple[dict[str, str], bytes]] = []
        outer = self

        class H(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                outer.requests.append((dict(self.headers), body))
                status, payload, delay = respond(body)
                time.sleep(delay)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/sparql-results+json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:
                    pass

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/sparql"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def http_server() -> Iterator[Callable[[Callable[[bytes], tuple[int, bytes, float]]], _Server]]:
    """Start local HTTP servers with a given responder; all are stopped after the test."""
    servers: list[_Server] = []

    def start(respond: Callable[[bytes], tuple[int, bytes, float]]) -> _Server:
        s = _Server(respond)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.close()
