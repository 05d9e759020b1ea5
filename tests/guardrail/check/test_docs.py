"""Issue 28, item 5: ``guard.py`` stays a short façade, and its public API keeps its whole
numpydoc text (the sections live in ``guardrail/check/docs.py`` and are appended at import)."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import guardrail.guard as guard_mod
from guardrail.guard import Guard


def test_guard_py_is_at_most_200_lines() -> None:
    assert len(Path(guard_mod.__file__).read_text(encoding="utf-8").splitlines()) <= 200


@pytest.mark.parametrize(("obj", "sections"), [
    (Guard, ["Parameters", "Raises", "Examples", "context_cache_chars", "KnowledgeBaseError"]),
    (Guard.check, ["Parameters", "Returns", "Raises", "Notes", "InvalidInputError", "max_claims"]),
    (Guard.check_many, ["Returns", "Raises", "BatchError", "PREFETCH_WINDOW_CHARS"]),
    (Guard.log_record, ["Parameters", "Returns", "unlogged"]),
])
def test_the_public_docstrings_keep_their_sections(obj: object, sections: list[str]) -> None:
    doc = inspect.getdoc(obj) or ""
    summary = doc.split("\n\n", 1)[0]
    assert summary and not summary.startswith(" ")
    for s in sections:
        assert s in doc, (obj, s)
    # the sections are dedented with the summary's body (numpydoc and help() read them as sections)
    assert "\nParameters\n----------\n" in doc or "\nReturns\n-------\n" in doc


def test_every_public_member_of_guard_has_a_docstring() -> None:
    for name, member in vars(Guard).items():
        if not name.startswith("_") and (callable(member) or isinstance(member, property)):
            assert inspect.getdoc(member), name
