"""Pack the verifier's training and dev pairs for ``training/gpu_train.py``, tokenised as at inference.

Writes one compressed ``.npz`` (default ``.gpu/data.npz``, an ignored folder that a device run
carries): every pair is encoded by :func:`guardrail.models.claim_verifier.encode_pairs` with the
shipped tokenizer, so the trainer needs only torch and numpy and sees exactly the token ids the
ONNX verifier sees (a long claim gives several windows; a dev claim's score is its least supported
window or unit, as in the detector).

Sets (``split`` per row):

- ``train``: ``training/work4/pairs.jsonl`` (``build_pairs.py``: NLI train, HaluEval *tune*, claims
  *train* contexts) and ``hard_negatives.jsonl`` (``hard_negatives.py``, claims *train* contexts).
- ``select`` (checkpoint selection): claims dev part a (context numbers ending in 0), HaluEval QA /
  dialogue / summarization *val*, half
  of the questions (by a hash of the question).
- ``report`` (never selected on): claims dev part b (ending in 5), the other half of HaluEval val, NLI dev.

Usage::

    python training/gpu_prepare.py --pairs training/work4 --out .gpu/data.npz
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import zlib
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.devdata import data_dir, load_claims, load_dev  # noqa: E402
from guardrail.align.claims import claim_text, select_evidence  # noqa: E402
from guardrail.models import runtime  # noqa: E402
from guardrail.models.claim_verifier import MODEL_DIR, encode_pairs  # noqa: E402
from guardrail.text.sentences import split_sentences  # noqa: E402

__all__ = ["dev_items", "pack"]


def _units(text: str, question: str | None = None) -> list[str]:
    """The claim units the verifier detector reads (sentences, hedges dropped, short ones
    with the question in front)."""
    from guardrail.detectors.verifier import _units as units

    return [u.claim for u in units(text, question)] or [claim_text(text, question)]


def _sents(text: str) -> list[str]:
    return [text[s:e] for s, e in split_sentences(text)]


def _item(claims: list[str], sents: list[str], label: int, source: str, kind: str) -> dict:
    """One dev item: its claim units with their evidence; the item's score is the least supported."""
    rows = [(select_evidence(c, sents).text, c) for c in claims]
    return {"rows": rows, "label": label, "source": source, "kind": kind}


def dev_items(halueval_limit: int = 600, nli_limit: int = 3000) -> list[tuple[str, dict]]:
    """``(split, item)`` for every selection and report item (see the module docstring)."""
    out: list[tuple[str, dict]] = []
    for ctx in load_claims("dev"):
        part = "select" if ctx["id"].endswith("0") else "report"
        sents = [s for p in ctx["passages"] for s in _sents(p)]
        q = ctx.get("question") or None
        for c in ctx["claims"]:
            units = _units(c["text"], q)
            out.append((part, _item(units, sents, int(c["label"]), "claims", c["kind"])))
    for task in ("qa", "dialogue", "summarization"):
        items = load_dev(f"halueval_{task}", split="val", limit=halueval_limit, seed=1)
        for it in items:
            sents = _sents(it["context"])
            units = _units(it["answer"], None if task == "summarization" else it["question"])
            # by question: an item's right and hallucinated answers go to the same split
            half = zlib.crc32((it.get("question") or it["context"][:200]).encode("utf-8")) % 2
            out.append(("select" if half == 0 else "report",
                        _item(units, sents, 1 - int(it["label"]), f"halueval_{task}", task)))
    rows = [json.loads(line) for line in open(data_dir() / "nli" / "dev.jsonl", encoding="utf-8")]
    random.Random(0).shuffle(rows)
    for r in rows[:nli_limit]:
        out.append(("report", {"rows": [(r["premise"], claim_text(r["hypothesis"]))], "label": int(r["label"]),
                               "source": "nli", "kind": r["dataset"]}))
    return out


def pack(train: list[dict], dev: list[tuple[str, dict]], out: Path) -> dict[str, int]:
    """Tokenise and write the ``.npz``; returns row counts per split."""
    tok = runtime.tokenizer(MODEL_DIR / "tokenizer.json")
    ev, cl, label, src, split, group, kind = [], [], [], [], [], [], []
    names: dict[str, int] = {}
    kinds: dict[str, int] = {}
    for p in train:
        ev.append(p["evidence"])
        cl.append(p["claim"])
        label.append(p["label"])
        src.append(names.setdefault(p["source"], len(names)))
        split.append(0)
        group.append(-1)
        kind.append(-1)
    for g, (sp, it) in enumerate(dev):
        for e, c in it["rows"]:
            ev.append(e)
            cl.append(c)
            label.append(it["label"])
            src.append(names.setdefault(it["source"], len(names)))
            split.append(1 if sp == "select" else 2)
            group.append(g)
            kind.append(kinds.setdefault(it["kind"], len(kinds)))
    ids, types, owner = encode_pairs(tok, ev, cl)
    own = np.asarray(owner, dtype=np.int64)
    lens = np.array([len(r) for r in ids], dtype=np.int64)
    off = np.concatenate([[0], np.cumsum(lens)])
    sep = np.array([t.index(1) if 1 in t else len(t) for t in types], dtype=np.int16)
    arrays = {
        "ids": np.concatenate([np.asarray(r, dtype=np.uint16) for r in ids]), "off": off, "type_start": sep,
        "label": np.asarray(label, dtype=np.uint8)[own], "src": np.asarray(src, dtype=np.int16)[own],
        "split": np.asarray(split, dtype=np.uint8)[own], "group": np.asarray(group, dtype=np.int32)[own],
        "kind": np.asarray(kind, dtype=np.int16)[own],
        "src_names": np.array(json.dumps(sorted(names, key=names.get))),
        "kind_names": np.array(json.dumps(sorted(kinds, key=kinds.get))),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **arrays)
    return {s: int((arrays["split"] == i).sum()) for i, s in enumerate(("train", "select", "report"))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", default="training/work4", help="folder with pairs.jsonl and hard_negatives.jsonl")
    ap.add_argument("--out", default=".gpu/data.npz")
    ap.add_argument("--limit", type=int, default=0, help="train pairs kept (smoke tests)")
    ap.add_argument("--halueval-limit", type=int, default=600)
    args = ap.parse_args()
    train = []
    for name in ("pairs.jsonl", "hard_negatives.jsonl", "fact_lists.jsonl"):
        path = Path(args.pairs) / name
        if path.is_file():
            train += [json.loads(line) for line in open(path, encoding="utf-8")]
    if args.limit:
        random.Random(0).shuffle(train)
        train = train[: args.limit]
    dev = dev_items(args.halueval_limit, 3000 if not args.limit else 200)
    if args.limit:  # a smoke test: a few dev items of every source and split
        seen: dict[tuple[str, str], int] = {}
        keep = []
        for sp, it in dev:
            key = (sp, it["source"])
            seen[key] = seen.get(key, 0) + 1
            if seen[key] <= 12:
                keep.append((sp, it))
        dev = keep
    counts = pack(train, dev, Path(args.out))
    print(json.dumps(counts), Path(args.out).stat().st_size // 1024, "KiB", flush=True)


if __name__ == "__main__":
    main()
