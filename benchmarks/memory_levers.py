"""What-if memory measurements: peak RSS of ``check_many`` with a lever pulled, verdicts compared.

Each lever is patched in for this process only (the library is not changed), so the owners
of the code can see what a change would save before making it:

- ``nopandas``: pandas blocked while the guard imports (scikit-learn, which GraKeL imports,
  falls back to no pandas);
- ``spacy-batch=N``: ``nlp.pipe`` batch size of the spaCy extractor (default 32);
- ``window=N``: context characters ``check_many`` parses at once (default 200,000);
- ``noarena``: ONNX Runtime sessions without the CPU memory arena.

Prints RSS after ``warm_up()``, after ``check_many`` over ``--n`` mixed demo items, the peak,
the RSS once the caches are cleared (and ``malloc_trim``), and writes the verdicts to
``--snap`` for comparison with a run without levers (``--compare``). Usage::

    python benchmarks/memory_levers.py --n 90 --snap /tmp/base.json
    python benchmarks/memory_levers.py --n 90 nopandas spacy-batch=4 --compare /tmp/base.json
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.memory_steps import demo_items, status_mb  # noqa: E402


class _NoPandas:
    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name.partition(".")[0] == "pandas":
            raise ImportError("pandas blocked by memory_levers.py")
        return None


def pull(levers: list[str]) -> None:
    """Patch the named levers into this process (before the guard is built)."""
    for lever in levers:
        name, _, value = lever.partition("=")
        if name == "nopandas":
            sys.meta_path.insert(0, _NoPandas())
        elif name == "spacy-batch":
            from guardrail.extract import spacy_extractor as se
            init = se.SpacyExtractor.__init__

            def patched(self: Any, *a: Any, _init: Any = init, _n: int = int(value), **k: Any) -> None:
                _init(self, *a, **k)
                self.batch_size = _n
            se.SpacyExtractor.__init__ = patched  # type: ignore[method-assign]
        elif name == "window":
            from guardrail.check import graphs
            graphs.windows.__defaults__ = (int(value),)
        elif name == "noarena":
            import onnxruntime as ort
            base = ort.InferenceSession

            class Session(base):  # type: ignore[misc, valid-type]
                def __init__(self, path: Any, sess_options: Any = None, **kw: Any) -> None:
                    sess_options.enable_cpu_mem_arena = False
                    super().__init__(path, sess_options=sess_options, **kw)
            ort.InferenceSession = Session
        else:
            raise SystemExit(f"unknown lever {lever!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("levers", nargs="*", help="nopandas, spacy-batch=N, window=N, noarena")
    ap.add_argument("--n", type=int, default=90)
    ap.add_argument("--snap", type=Path, help="write the verdicts here")
    ap.add_argument("--compare", type=Path, help="compare the verdicts with this --snap file")
    args = ap.parse_args()
    pull(args.levers)
    from guardrail import Guard
    from guardrail.align.encoder import shared_encoder
    from guardrail.models.claim_verifier import shared_verifier

    guard = Guard().warm_up()
    warm = status_mb()[0]
    results = guard.check_many(demo_items(args.n))
    rss, peak = status_mb()
    snap = [[r.passed, round(r.score, 6), r.abstained] for r in results]
    guard._parts.cache.clear()
    for cache in (shared_encoder()._cache, shared_verifier()._cache):
        cache.clear()
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    print(f"levers {' '.join(args.levers) or 'none'}: RSS after warm_up {warm:.0f} MB; after {args.n} items "
          f"{rss:.0f} MB, peak {peak:.0f} MB; caches cleared {status_mb()[0]:.0f} MB; "
          f"pandas imported: {'pandas' in sys.modules}")
    if args.snap:
        args.snap.write_text(json.dumps(snap), encoding="utf-8")
    if args.compare:
        ref = json.loads(args.compare.read_text(encoding="utf-8"))
        diff = [i for i, (a, b) in enumerate(zip(ref, snap)) if a[0] != b[0] or a[2] != b[2] or abs(a[1] - b[1]) > 1e-6]
        print(f"{len(ref)} verdicts compared; {len(diff)} differ {diff[:10]}")


if __name__ == "__main__":
    main()
