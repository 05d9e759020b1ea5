"""The real local LLM for the LLM tests: one server per test session, or a clear skip.

The tests here run against the pinned local model served by xllamacpp on 127.0.0.1
(the ``local-llm`` extra). Without the extra they are skipped with the install command.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from guardrail.llm.local import local_llm_missing


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "llm: runs the real local LLM (extra 'local-llm'; slow)")


@pytest.fixture(scope="session")
def llm_url() -> Iterator[str]:
    """Base URL of the local model server: started once per session (2 threads), or the one
    already serving at ``$KG_GUARDRAIL_LLM_BASE_URL`` (e.g. ``kg-guardrail llm serve``)."""
    why = local_llm_missing()
    if why:
        pytest.skip(why)
    from guardrail.llm.local import LocalServerSettings, llm_endpoint

    with llm_endpoint(LocalServerSettings(threads=2, ctx_size=2048)) as url:
        yield url
