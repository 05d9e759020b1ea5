"""Data shipped inside the package: the HaluEval validation sample of ``kg-guardrail demo``.

``halueval_sample.jsonl`` holds 350 labelled items (MIT licence, ``LICENSE-HaluEval-MIT``
beside it; see ``examples/data/README.md`` for how it was drawn). It ships as package data,
so the demo works from an installed wheel; ``examples/data/halueval_sample.jsonl`` in the
repository is a link to it.
"""

from pathlib import Path

__all__ = ["DEMO_SAMPLE"]

#: The demo's sample: 350 labelled HaluEval validation items (qa, dialogue, summarization).
DEMO_SAMPLE = Path(__file__).resolve().parent / "halueval_sample.jsonl"
