"""Shared test fixtures: run offline and refuse any non-loopback network access.

The project rule is "no network": models come from installed packages, and tests must
not reach the internet. The environment variables are set at import time (before any
test module imports transformers or huggingface_hub) and again by an autouse session
fixture, which also patches ``socket`` so that connecting to or resolving any host other
than loopback raises :class:`NetworkBlockedError`. Loopback stays usable for tests that
run local servers; Unix-domain sockets are untouched.
"""

from __future__ import annotations

import ipaddress
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

_OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
os.environ.update(_OFFLINE_ENV)

_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


#: The first 20 HaluEval QA dev records (MIT licence, see examples/data/), shipped with
#: the repository so that the tests run wherever it is cloned.
HALUEVAL_QA_HEAD = Path(__file__).resolve().parents[1] / "examples" / "data" / "halueval_qa_head.jsonl"


def load_halueval_qa_head(n: int = 20) -> list[dict[str, str]]:
    """The first ``n`` shipped HaluEval QA records; a missing file fails the test (no skip)."""
    if not HALUEVAL_QA_HEAD.is_file():
        pytest.fail(f"test data missing: {HALUEVAL_QA_HEAD} (it ships with the repository)")
    with HALUEVAL_QA_HEAD.open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    if len(rows) < n:
        pytest.fail(f"{HALUEVAL_QA_HEAD} holds {len(rows)} records, the tests need {n}")
    return rows[:n]


@pytest.fixture(scope="session")
def halueval_qa_records() -> list[dict[str, str]]:
    """The first 20 HaluEval QA dev records (knowledge, question, right and hallucinated answer)."""
    return load_halueval_qa_head(20)


class NetworkBlockedError(OSError):
    """Raised when a test tries to reach a non-loopback address."""


def _is_loopback(host: Any) -> bool:
    if host is None:  # passive lookups (bind to all interfaces) resolve nothing remote
        return True
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    host = str(host).strip("[]").split("%", 1)[0]
    if host.lower() in _LOOPBACK_NAMES or host == "":
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def _check_address(address: Any) -> None:
    if isinstance(address, tuple) and address:
        if not _is_loopback(address[0]):
            raise NetworkBlockedError(f"network access blocked in tests: {address!r}")
    # str/bytes addresses are Unix-domain sockets: allowed.


@pytest.fixture(autouse=True, scope="session")
def _no_network() -> Iterator[None]:
    """Set the offline variables and block non-loopback connections for the whole session."""
    mp = pytest.MonkeyPatch()
    for key, value in _OFFLINE_ENV.items():
        mp.setenv(key, value)
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def connect(self: socket.socket, address: Any) -> None:
        _check_address(address)
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        _check_address(address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if not _is_loopback(host):
            raise NetworkBlockedError(f"DNS lookup blocked in tests: {host!r}")
        return real_getaddrinfo(host, *args, **kwargs)

    mp.setattr(socket.socket, "connect", connect)
    mp.setattr(socket.socket, "connect_ex", connect_ex)
    mp.setattr(socket, "getaddrinfo", getaddrinfo)
    try:
        yield
    finally:
        mp.undo()
