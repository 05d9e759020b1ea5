"""Issue 30, item 16: ``make install`` (what ``make test``, ``make demo`` and CI run) installs every
extra of the core, so no optional engine (the Ray engine: ``check --engine ray``) goes untested."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Extras that install the adapters, which ``make install`` installs editable from the clone.
ADAPTER_EXTRAS = {"langchain", "llama-index"}


def test_make_install_installs_every_extra():
    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    m = re.search(r"pip install -q -e '\.\[([^\]]+)\]'", make)
    assert m is not None, "make install no longer installs the core with extras"
    installed = {e.strip() for e in m.group(1).split(",")}
    assert extras - ADAPTER_EXTRAS - installed == set()
    assert "ray" in installed
