"""The LlamaIndex adapter's public API, pinned (langchain partner packages' ``EXPECTED_ALL``)."""

from __future__ import annotations

import importlib

import pytest

pytest.importorskip("llama_index.core")

EXPECTED_ALL = [
    "GuardedQueryEngine",
    "KGGuardrailEvaluator",
    "GuardEventHandler",
    "GuardRecord",
    "SpanParentTracker",
    "MiniLMEmbedding",
    "contexts_from_nodes",
    "contexts_from_texts",
    "parse_triplet_text",
    "make_reprompt",
    "make_areprompt",
    "resolve_llm",
    "PIP_HINT",
]


def test_all_imports() -> None:
    pkg = importlib.import_module("guardrail_llama_index")
    assert sorted(pkg.__all__) == sorted(EXPECTED_ALL)
    assert all(hasattr(pkg, name) for name in EXPECTED_ALL)
