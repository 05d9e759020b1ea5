"""The LangChain adapter's public API, pinned (langchain partner packages' ``EXPECTED_ALL``)."""

from __future__ import annotations

import importlib

import pytest

pytest.importorskip("langchain_core")

EXPECTED_ALL = [
    "GUARD_EVENT",
    "GuardRunnable",
    "guard_chain",
    "GuardOutputParser",
    "GuardCallbackHandler",
    "AsyncGuardCallbackHandler",
    "CheckedRun",
    "MiniLMEmbeddings",
]


def test_all_imports() -> None:
    pkg = importlib.import_module("guardrail_langchain")
    assert sorted(pkg.__all__) == sorted(EXPECTED_ALL)
    assert all(hasattr(pkg, name) for name in EXPECTED_ALL)
