"""Generate answers with the local model, label them, and compute PRD/SAS per answer (seeded).

For each item of :func:`gga_data.build_items`: greedy generation (the paper's prompt,
``ans:`` prefix, up to 24 new tokens) with the same transformers model whose internals are
read, SQuAD label against the gold answers, then one teacher-forced pass for PRD, SAS and
the perplexity baseline. Appends one JSON line per item to ``--out`` (resumable: ids already
there are skipped) and logs progress.

Usage::

    python training/gga_generate.py --n-qa 330 --n-dialogue 110 --n-claims 110 \\
        --out ~/.cache/kg-guardrail/gga/items.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gga_data import build_items, label  # noqa: E402

from guardrail.models.gga_features import GGAFeatureExtractor, surface_cues  # noqa: E402
from guardrail.models.gga_local import load_local_model  # noqa: E402

__all__ = ["generate", "main"]


def generate(model: Any, tok: Any, prompt: str, max_new_tokens: int = 24) -> str:
    """Greedy continuation of ``prompt`` (chat template already applied), special tokens cut."""
    import torch

    ids = tok(prompt, add_special_tokens=False, return_tensors="pt").input_ids
    with torch.no_grad():
        out = model.generate(ids, max_new_tokens=max_new_tokens, do_sample=False,
                             pad_token_id=tok.eos_token_id)
    return str(tok.decode(out[0, ids.shape[1]:], skip_special_tokens=True)).strip()


def _row(fx: GGAFeatureExtractor, model: Any, tok: Any, it: dict[str, Any]) -> dict[str, Any]:
    triples = [tuple(t) for t in it["triples"]]
    t0 = time.perf_counter()
    output = generate(model, tok, fx.prompt(it["question"], triples).text)
    t1 = time.perf_counter()
    f = fx.features(it["question"], triples, output)
    t2 = time.perf_counter()
    return {**it, "output": output, "label": label(output, it["golds"]), "prd": f.prd,
            "sas": f.sas, "path_found": f.path_found, "n_path": len(f.path_triples),
            "mass_path": f.mass_path, "mass_other": f.mass_other, "perplexity": f.perplexity,
            "n_answer_tokens": f.n_answer_tokens, "cues": surface_cues(output),
            "gen_s": t1 - t0, "feat_s": t2 - t1}


def main(argv: list[str] | None = None) -> None:
    """Command-line entry point (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n-qa", type=int, default=330)
    ap.add_argument("--n-dialogue", type=int, default=110)
    ap.add_argument("--n-claims", type=int, default=110)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--threads", type=int, default=1, help="CPU threads of the model (2 on a quiet 2-core machine)")
    args = ap.parse_args(argv)
    random.seed(args.seed)
    items = build_items(args.n_qa, args.n_dialogue, args.n_claims, seed=args.seed)
    done = set()
    if args.out.is_file():
        done = {json.loads(x)["id"] for x in args.out.read_text().splitlines() if x.strip()}
    print(f"{len(items)} items, {len(done)} done", flush=True)
    import torch

    torch.manual_seed(args.seed)
    model, tok = load_local_model(threads=args.threads)
    fx = GGAFeatureExtractor(model, tok)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with args.out.open("a", encoding="utf-8") as fh:
        for k, it in enumerate(x for x in items if x["id"] not in done):
            row = _row(fx, model, tok, it)
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            fh.flush()
            print(f"{k + 1} {row['source']} {row['split']} label={row['label']} "
                  f"prd={row['prd']:.3f} sas={row['sas']:.3f} out={row['output'][:40]!r} "
                  f"gen={row['gen_s']:.1f}s feat={row['feat_s']:.1f}s "
                  f"elapsed={time.perf_counter() - start:.0f}s", flush=True)


if __name__ == "__main__":
    main()
