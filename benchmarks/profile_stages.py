"""Share of a warm check's CPU time per pipeline stage (default Guard).

Wraps the functions that mark the stages of a check (validation, spaCy parse, triple
extraction, encoder and verifier calls, evidence selection, relation selection, WL kernel,
the grounding detectors, the explanation, result building...) and charges each slice of
CPU time (``time.process_time``, robust to a shared machine; one intra-op thread) to the
innermost stage running, so the shares add up to the whole check. Items are the ones of
``benchmarks/latency.py`` (its loaders and seeds), each seen for the first time by a warm
guard. Only the shares mean anything on a shared machine.

Usage: ``python benchmarks/profile_stages.py [--qa 20] [--rag 5] [--summ 5] [--out FILE]``.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

__all__ = ["STAGES", "StageClock", "install", "main"]

#: (module, attribute path, stage): the innermost running stage is charged.
STAGES: tuple[tuple[str, str, str], ...] = (
    ("guardrail.guard", "Guard.check", "guard (other)"),
    ("guardrail.check.inputs", "read", "validation"),
    ("guardrail.check.graphs", "context_graph", "context graph (cache, re-home, merge)"),
    ("guardrail.extract.spacy_extractor", "SpacyExtractor._run", "triple extraction"),
    ("spacy.language", "Language.__call__", "spaCy parse"),
    ("spacy.language", "Language.pipe", "spaCy parse"),
    ("guardrail.check.judge", "judge", "judge (aggregate, flag nodes)"),
    ("guardrail.check.judge", "prefetch_embeddings", "encoder (cache, batching)"),
    ("guardrail.align.encoder", "MiniLMEncoder.encode", "encoder (cache, batching)"),
    ("guardrail.align.encoder", "MiniLMEncoder._embed", "encoder (tokenise + ONNX)"),
    ("guardrail.models.claim_verifier", "ClaimVerifier.score", "verifier (cache, pairs)"),
    ("guardrail.models.claim_verifier", "ClaimVerifier._forward", "verifier (tokenise + ONNX)"),
    ("guardrail.detectors.verifier", "VerifierDetector.detect", "verifier detector (units, node support)"),
    ("guardrail.align.claims", "context_sentences", "evidence selection"),
    ("guardrail.align.claims", "select_evidence", "evidence selection"),
    ("guardrail.align.views", "view_texts", "evidence selection"),
    ("guardrail.detectors.verifier", "_view_scores", "verifier detector: claims x evidence views"),
    ("guardrail.detectors.verifier", "VerifierDetector._triple_scores", "verifier detector: triple checks"),
    ("guardrail.detectors.occlusion", "occlusion_gains", "verifier detector: occlusion"),
    ("guardrail.align.relations", "select_relations", "relation selection"),
    ("guardrail.align.relations", "match_triples", "relation selection"),
    ("guardrail.detectors.wl_kernel", "WLKernelDetector.detect", "wl_kernel detector (other)"),
    ("guardrail.detectors.wl_kernel", "wl_similarity", "WL kernel (GraKeL)"),
    ("guardrail.align.relations", "cluster_labels", "wl_kernel clustering (scipy)"),
    ("guardrail.detectors.grounding", "GroundingDetector.detect", "relation detector (grounding)"),
    ("guardrail.detectors.entity", "EntityGroundingDetector.detect", "entity detector"),
    ("guardrail.detectors.grounding", "ground_nodes", "ground_nodes (entity + relation)"),
    ("guardrail.detectors.grounding", "context_index", "ground_nodes (entity + relation)"),
    ("guardrail.check.explain", "explain", "explanation step (other)"),
    ("guardrail.explain.kea", "KEAExplainer.explain", "explanation (KEA)"),
    ("guardrail.check.inputs", "Run.result", "result building"),
)


#: Stages that are model calls: their time is also charged to the stage that called them.
MODEL_STAGES = ("encoder (cache, batching)", "encoder (tokenise + ONNX)", "verifier (cache, pairs)",
                "verifier (tokenise + ONNX)", "spaCy parse")


class StageClock:
    """Charges CPU time to the innermost running stage (and model time to its caller)."""

    def __init__(self, clock: Callable[[], float] = time.process_time) -> None:
        self.clock = clock
        self.stack: list[str] = []
        self.spent: dict[str, float] = defaultdict(float)
        self.by_caller: dict[tuple[str, str], float] = defaultdict(float)
        self.mark = clock()

    def _switch(self) -> None:
        now = self.clock()
        if self.stack:
            top = self.stack[-1]
            self.spent[top] += now - self.mark
            if top in MODEL_STAGES:
                caller = next((s for s in reversed(self.stack) if s not in MODEL_STAGES), "?")
                self.by_caller[(top.split(" (")[0], caller)] += now - self.mark
        self.mark = now

    def enter(self, stage: str) -> None:
        """Start charging ``stage``."""
        self._switch()
        self.stack.append(stage)

    def leave(self) -> None:
        """Go back to the stage that was running before."""
        self._switch()
        self.stack.pop()


def _wrap(fn: Callable[..., Any], stage: str, clock: StageClock) -> Callable[..., Any]:
    import inspect

    if inspect.isgeneratorfunction(fn):
        @functools.wraps(fn)
        def gen(*a: Any, **k: Any) -> Iterator[Any]:
            it = fn(*a, **k)
            while True:
                clock.enter(stage)
                try:
                    x = next(it)
                except StopIteration:
                    return
                finally:
                    clock.leave()
                yield x
        return gen

    @functools.wraps(fn)
    def inner(*a: Any, **k: Any) -> Any:
        clock.enter(stage)
        try:
            return fn(*a, **k)
        finally:
            clock.leave()
    return inner


def install(clock: StageClock) -> None:
    """Wrap every function of :data:`STAGES`, where it is defined and wherever it was imported."""
    for mod_name, path, stage in STAGES:
        owner: Any = importlib.import_module(mod_name)
        *outer, attr = path.split(".")
        for p in outer:
            owner = getattr(owner, p)
        orig = vars(owner).get(attr)
        if orig is None:  # renamed since: its time goes to the stage that calls it
            print(f"note: {mod_name}.{path} not found, not a stage", file=sys.stderr)
            continue
        wrapped = _wrap(orig, stage, clock)
        setattr(owner, attr, wrapped)
        if not outer:  # module functions imported by name elsewhere
            for m in list(sys.modules.values()):
                if getattr(m, "__name__", "").startswith("guardrail") and getattr(m, attr, None) is orig:
                    setattr(m, attr, wrapped)


def main() -> None:
    """Command line: profile the kinds, print and write the shares."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qa", type=int, default=20)
    ap.add_argument("--rag", type=int, default=5)
    ap.add_argument("--summ", type=int, default=5)
    ap.add_argument("--out", default=None, help="write the shares as JSON here")
    args = ap.parse_args()
    os.environ.setdefault("KG_GUARDRAIL_THREADS", "1")
    from benchmarks.profile_check import items
    from guardrail import Guard
    from guardrail.text.language import looks_english

    data = items(args.qa, args.rag, args.summ)
    guard = Guard().warm_up()
    # lingua loads its n-gram models on the first suspect text (about 3 s, once per process: one of
    # the QA items is one); loaded here so that the shares are those of warm checks
    looks_english("first reign in WWE")
    for it in data["warm"]:
        guard.check(it["answer"], it["context"], it.get("question"), log=False)
    result: dict[str, Any] = {}
    clock = StageClock()
    install(clock)
    for kind in ("qa", "rag", "summ"):
        clock.spent.clear()
        clock.by_caller.clear()
        t0 = clock.mark = time.process_time()
        for it in data[kind]:
            guard.check(it["answer"], it["context"], it.get("question"), log=False)
        total = time.process_time() - t0
        spent = dict(sorted(clock.spent.items(), key=lambda kv: -kv[1]))
        callers = dict(sorted(clock.by_caller.items(), key=lambda kv: -kv[1]))
        result[kind] = {"n": len(data[kind]), "cpu_ms_per_check": 1000 * total / max(1, len(data[kind])),
                        "shares": {k: v / total for k, v in spent.items()},
                        "model_time_by_caller": {f"{m} <- {c}": v / total for (m, c), v in callers.items()}}
        print(f"\n{kind}: n={len(data[kind])}, {result[kind]['cpu_ms_per_check']:.0f} CPU ms per check")
        for k, v in spent.items():
            print(f"  {100 * v / total:5.1f} %  {k}")
        print("  model time by calling stage:")
        for (m, c), v in callers.items():
            print(f"  {100 * v / total:5.1f} %  {m} <- {c}")
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")



if __name__ == "__main__":
    main()
