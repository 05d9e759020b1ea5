"""The public API, pinned: ``guardrail.__all__`` is exactly this list, and every name resolves.

Adding or removing a top-level name is a deliberate change: update this list with it
(httpx's ``test_exported_members.py`` pattern).
"""

from __future__ import annotations

import guardrail

EXPECTED_ALL = [
    "Guard",
    "GuardConfig",
    "GuardResult",
    "FlaggedNode",
    "Explanation",
    "DetectorOutput",
    "KnowledgeGraph",
    "Node",
    "Triple",
    "Span",
    "RefinementRound",
    "load_config",
    "save_config",
    "shipped_configs",
    "Policy",
    "enforce",
    "aenforce",
    "open_sink",
    "GuardrailError",
    "InvalidInputError",
    "ConfigError",
    "ExtractionError",
    "DetectorError",
    "LogSinkError",
    "KnowledgeBaseError",
    "LLMError",
    "RefinementError",
    "ModelFileError",
    "MissingDependencyError",
    "ReadOnlyError",
    "HallucinationError",
    "BatchError",
    "__version__",
]


def test_all_is_pinned() -> None:
    assert guardrail.__all__ == EXPECTED_ALL


def test_every_exported_name_resolves() -> None:
    exported = {name for name in dir(guardrail) if not name.startswith("_") or name == "__version__"}
    missing = [name for name in guardrail.__all__ if name not in exported]
    assert not missing


def test_exported_members_are_public_objects() -> None:
    for name in guardrail.__all__:
        member = getattr(guardrail, name)
        if name == "__version__":
            assert isinstance(member, str)
            continue
        # a class or function defined in the package, re-exported at the top
        assert getattr(member, "__module__", "").startswith("guardrail."), name
