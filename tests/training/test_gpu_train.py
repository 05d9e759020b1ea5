"""CPU smoke test of the verifier's prepared GPU run (``training/gpu_prepare.py`` + ``gpu_train.py``).

The same code runs on the device; here a few pairs, two steps per run, real starting weights
(the shipped verifier) and the real tokenizer.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "training"))

pytest.importorskip("transformers")
pytest.importorskip("safetensors")

pytestmark = pytest.mark.slow

EV = "Ardwyn Optics was founded in 1989 by Odile Varnay and Desmond Achebe in Sherbrooke."
TRAIN = [
    {"evidence": EV, "claim": "Varnay co-founded Ardwyn in 1989.", "label": 1, "source": "claims:biz:paraphrase"},
    {"evidence": EV, "claim": "Varnay co-founded Ardwyn in 1998.", "label": 0, "source": "hard:biz:hn_date"},
    {"evidence": EV, "claim": "Achebe started the company with Varnay.", "label": 1, "source": "nli:snli"},
    {"evidence": EV, "claim": "Ardwyn was founded in Monterrey.", "label": 0, "source": "nli:snli"},
    {"evidence": EV, "claim": "Varnay co-founded Ardwyn in 1989.", "label": 1, "source": "hard:biz:hn_date:orig"},
] * 3


def _dev() -> list[tuple[str, dict]]:
    out = []
    for split in ("select", "report"):
        for src in ("claims", "halueval_qa"):
            for claim, label, kind in (("It was founded in 1989.", 1, "paraphrase"),
                                       ("It was founded in 2001.", 0, "date")):
                out.append((split, {"rows": [(EV, claim), (EV, "Ardwyn is in Sherbrooke.")], "label": label,
                                    "source": src, "kind": kind}))
    return out


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from gpu_prepare import pack

    path = tmp_path_factory.mktemp("gpu") / "data.npz"
    counts = pack(TRAIN, _dev(), path)
    assert counts == {"train": 15, "select": 8, "report": 8}
    return path


def test_the_packed_ids_are_the_inference_encoding(packed: Path) -> None:
    import numpy as np

    from guardrail.models import runtime
    from guardrail.models.claim_verifier import MODEL_DIR, encode_pairs

    z = np.load(packed)
    ids, types, _ = encode_pairs(runtime.tokenizer(MODEL_DIR / "tokenizer.json"), [EV], [TRAIN[1]["claim"]])
    row = z["ids"][z["off"][1]:z["off"][2]].tolist()
    assert row == ids[0]
    assert int(z["type_start"][1]) == types[0].index(1)


def test_a_sweep_writes_the_chosen_weights_in_pieces_and_its_metrics(packed: Path, tmp_path: Path) -> None:
    from gpu_train import main

    out = tmp_path / "out"
    main(["--data", str(packed), "--out", str(out), "--sweep", "lr=3e-5,mix=claims:2/hard:2;lr=5e-5,seed=1,pair=0.5",
          "--max-steps", "2", "--batch-size", "4", "--epochs", "1", "--part-mib", "15", "--device", "cpu"])
    m = json.loads((out / "metrics.json").read_text())
    assert [len(r["curve"]) >= 1 for r in m["runs"]] == [True, True]
    assert m["chosen"]["run"] in (0, 1)
    assert m["runs"][1]["spec"]["pair"] == 0.5 and m["runs"][0]["spec"]["pair"] == 0.0
    assert "pair term: 1 evidence groups with both labels, 6 train rows" in (out / "train_log.txt").read_text()
    assert set(m["report"]["sources"]) == {"claims", "halueval_qa"}
    assert "claims:date" in m["report"]["kinds"]
    parts = sorted(out.glob("model.safetensors.part*"))
    assert len(parts) == 3 and all(p.stat().st_size <= 15 * 2**20 for p in parts)
    joined = tmp_path / "joined"
    joined.mkdir()
    (joined / "model.safetensors").write_bytes(b"".join(p.read_bytes() for p in parts))
    (joined / "config.json").write_text((out / "config.json").read_text())
    from safetensors.torch import load_file

    state = load_file(str(joined / "model.safetensors"))
    assert state["classifier.weight"].shape == (1, 384)


def test_keep_runs_writes_the_other_runs_best_weights_too(packed: Path, tmp_path: Path) -> None:
    """``--keep-runs 2``: the chosen checkpoint and the other run's best, 3 pieces each, no config.json:
    8 files, what one device call brings back."""
    from gpu_train import main

    out = tmp_path / "out"
    main(["--data", str(packed), "--out", str(out), "--sweep", "lr=3e-5;lr=5e-5,seed=1", "--keep-runs", "2",
          "--max-steps", "2", "--batch-size", "4", "--epochs", "1", "--device", "cpu"])
    chosen = json.loads((out / "metrics.json").read_text())["chosen"]["run"]
    other = 1 - chosen
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["metrics.json", "train_log.txt"] + [f"model.safetensors.part{k}" for k in range(3)]
        + [f"run{other}.model.safetensors.part{k}" for k in range(3)])
    from safetensors.torch import load_file

    joined = tmp_path / "other.safetensors"
    joined.write_bytes(b"".join((out / f"run{other}.model.safetensors.part{k}").read_bytes() for k in range(3)))
    assert load_file(str(joined))["classifier.weight"].shape == (1, 384)


def test_cpu_training_resumes_from_its_saved_state(packed: Path, tmp_path: Path) -> None:
    from gpu_train import main

    state = tmp_path / "state"
    args = ["--data", str(packed), "--sweep", "lr=3e-5", "--batch-size", "2", "--epochs", "2",
            "--state", str(state), "--device", "cpu"]
    main([*args, "--out", str(tmp_path / "a"), "--max-steps", "2"])
    assert (state / "state.pt").is_file()
    main([*args, "--out", str(tmp_path / "b"), "--max-steps", "4"])
    log = (tmp_path / "b" / "train_log.txt").read_text()
    assert "resumed at step 2" in log
    m = json.loads((tmp_path / "b" / "metrics.json").read_text())
    assert m["runs"][0]["steps"] == 4


def test_eval_init_scores_the_starting_weights_first(packed: Path, tmp_path: Path) -> None:
    from gpu_train import main

    out = tmp_path / "out"
    main(["--data", str(packed), "--out", str(out), "--sweep", "lr=3e-5", "--max-steps", "2", "--batch-size", "4",
          "--epochs", "1", "--device", "cpu", "--eval-init", "--eval-every-s", "0"])
    curve = json.loads((out / "metrics.json").read_text())["runs"][0]["curve"]
    assert [c["step"] for c in curve] == [0, 2]  # the starting weights, then the schedule's end
