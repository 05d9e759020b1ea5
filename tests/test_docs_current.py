"""Issue 30, item 15: statements in the docs that had gone stale stay fixed.

Each check reads the text a new user reads and compares it with what the repository does:
the adapters are their own distributions (their pyprojects exist), the LangChain example
runs a real LLM (it calls ``llm_endpoint``, it replays nothing), and the README says how to
start the LLM the examples talk to (the command and variable the code defines).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    nxt = re.search(r"^## ", text[start + len(heading):], re.M)
    return text[start: start + len(heading) + nxt.start()] if nxt else text[start:]


def test_integrations_readme_says_the_adapters_are_their_own_distributions():
    text = (ROOT / "integrations" / "README.md").read_text(encoding="utf-8")
    assert "ship inside the `kg-guardrail` distribution" not in text and "package-dir" not in text
    for folder in ("langchain", "llama_index"):
        name = tomllib.loads((ROOT / "integrations" / folder / "pyproject.toml").read_text())["project"]["name"]
        assert f"`{name}`" in text
    assert "own distribution" in text


def test_langchain_readme_does_not_promise_replayed_answers():
    text = (ROOT / "integrations" / "langchain" / "README.md").read_text(encoding="utf-8")
    example = (ROOT / "examples" / "langchain_rag.py").read_text(encoding="utf-8")
    assert "llm_endpoint" in example and "replay" not in example.lower()
    assert "replays recorded answers" not in text
    assert "KG_GUARDRAIL_LLM_BASE_URL" in text and "llm serve" in text


def test_readme_langchain_section_says_how_to_start_the_llm():
    from guardrail.llm.local import ENDPOINT_ENV

    section = _section((ROOT / "README.md").read_text(encoding="utf-8"), "## LangChain and LlamaIndex")
    assert "kg-guardrail llm serve" in section and ENDPOINT_ENV in section
    assert "local-llm" in section and "examples/langchain_rag.py" in section


def test_readme_layout_names_files_that_exist():
    # the layout table names each step's home under guardrail/; a refactor must not leave stale names
    section = _section((ROOT / "README.md").read_text(encoding="utf-8"), "## Layout")
    table = "\n".join(line for line in section.splitlines() if line.startswith("| ") and "---" not in line)
    names = re.findall(r"`([\w/]+(?:\.py|/))`", table)
    assert names, "the layout table names no file"
    missing = [n for n in names if not (ROOT / "guardrail" / n).exists()]
    assert not missing, missing
