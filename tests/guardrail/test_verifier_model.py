"""The shipped claim verifier, real weights: integrity, and the behaviour users rely on.

Every check goes through the default :class:`~guardrail.Guard` (real spaCy, real MiniLM,
real cross-encoder); the examples are hand-written, none comes from the dev data.
"""

from __future__ import annotations

import hashlib
import shutil

import pytest

from guardrail import Guard
from guardrail.errors import DetectorError
from guardrail.models.claim_verifier import MODEL_DIR, ClaimVerifier

pytestmark = pytest.mark.slow

APPLE = ["Apple was founded by Steve Jobs and Steve Wozniak in 1976. Its headquarters are in Cupertino, California."]


def test_shipped_weights_match_their_hash_and_size_limit():
    weights = MODEL_DIR / "model.safetensors"
    want = (MODEL_DIR / "SHA256").read_text(encoding="ascii").split()[0]
    assert hashlib.sha256(weights.read_bytes()).hexdigest() == want
    assert weights.stat().st_size <= 50 * 1024 * 1024
    assert (MODEL_DIR / "MODEL_CARD.md").is_file()


def test_corrupted_weights_raise_detector_error(tmp_path):
    for f in MODEL_DIR.iterdir():
        shutil.copy(f, tmp_path / f.name)
    with open(tmp_path / "model.safetensors", "r+b") as fh:
        fh.seek(4096)
        fh.write(b"\x00" * 64)
    with pytest.raises(DetectorError, match="corrupted"):
        ClaimVerifier(tmp_path).score(["a"], ["b"])


def test_verifier_separates_support_from_contradiction():
    v = ClaimVerifier()
    ev = "The Eiffel Tower was completed in 1889 and is 330 metres tall."
    p = v.score([ev, ev, ev], ["The tower was finished in 1889.", "The tower was finished in 1925.",
                              "The Eiffel Tower is 330 metres high."])
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


@pytest.mark.parametrize("answer", ["x", "qwertyuiop asdfghjkl", "\U0001F600\U0001F44D", "I don't know.", "No."])
def test_nothing_checkable_never_passes(guard: Guard, answer: str):
    r = guard.check(answer, APPLE, "When was Apple founded?")
    assert not r.passed
    assert r.abstained or r.score >= r.threshold


@pytest.mark.parametrize("answer", ["Sorry, I'm not sure.", "I cannot answer that."])
def test_non_answers_never_pass(guard: Guard, answer: str):
    assert not guard.check(answer, APPLE, "When was Apple founded?").passed


def test_a_hedge_before_a_claim_is_left_out_of_the_score(guard: Guard):
    good = guard.check("I'm not sure. Apple was founded in 1976.", APPLE, "When was Apple founded?")
    bare = guard.check("Apple was founded in 1976.", APPLE, "When was Apple founded?")
    assert good.passed and good.score == pytest.approx(bare.score, abs=1e-6)
    assert not guard.check("I'm not sure. Apple was founded in 1980.", APPLE).passed
