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
import os
import socket
from collections.abc import Iterator
from typing import Any

import pytest

_OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
os.environ.update(_OFFLINE_ENV)

_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


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
