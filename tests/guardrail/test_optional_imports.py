"""_optional.without_modules: blocks the named imports inside the block only, and spares
modules already imported; scikit-learn imports without pandas (the memory it saves)."""

from __future__ import annotations

import subprocess
import sys
import types

import pytest

from guardrail._optional import pip_hint, require, without_modules
from guardrail.errors import InvalidInputError


def test_blocks_the_name_and_its_submodules_inside_the_block_only(monkeypatch):
    fake = types.ModuleType("kgg_fake_mod")
    with without_modules("kgg_fake_mod"):
        for name in ("kgg_fake_mod", "kgg_fake_mod.sub"):
            with pytest.raises(ImportError, match="not imported by kg-guardrail"):
                __import__(name)
        with pytest.raises(ImportError) as exc:  # a longer name with the same prefix is not blocked
            __import__("kgg_fake_mod_other")
        assert "not imported by kg-guardrail" not in str(exc.value)
    monkeypatch.setitem(sys.modules, "kgg_fake_mod", fake)
    with without_modules("kgg_fake_mod"):  # already imported: nothing to block
        assert __import__("kgg_fake_mod") is fake
    assert not any(type(f).__name__ == "_Blocker" for f in sys.meta_path)


def test_the_blocker_is_removed_when_the_block_raises():
    with pytest.raises(RuntimeError), without_modules("kgg_fake_mod2"):
        raise RuntimeError("boom")
    assert not any(type(f).__name__ == "_Blocker" for f in sys.meta_path)


@pytest.mark.parametrize("bad", ["", "a.b", 3])
def test_bad_names_raise_invalid_input(bad):
    with pytest.raises(InvalidInputError), without_modules(bad):
        pass


def test_require_names_the_pip_command():
    with pytest.raises(ImportError, match=r"pip install 'kg-guardrail\[gga\]'"):
        require("kgg_not_installed_mod", extra="gga")
    assert pip_hint() == "pip install kg-guardrail"


@pytest.mark.slow
def test_sklearn_and_grakel_import_without_pandas():
    code = ("import sys\nfrom guardrail._optional import without_modules\n"
            "with without_modules('pandas'):\n"
            "    from grakel.kernels import VertexHistogram, WeisfeilerLehman\n"
            "assert 'pandas' not in sys.modules, 'pandas imported'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
