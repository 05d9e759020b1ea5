"""Fixtures for core tests: one real Guard (real spaCy, real MiniLM) for the session."""

from __future__ import annotations

import pytest

from guardrail import Guard


@pytest.fixture(scope="session")
def guard() -> Guard:
    """The default guard with the shipped configs, models loaded once."""
    return Guard().warm_up()
