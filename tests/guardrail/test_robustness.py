"""Robustness: size limits before any work, one error tree, batching, threads, memory."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

from guardrail import Guard, GuardrailError, InvalidInputError
from guardrail.config import GuardConfig
from guardrail.extract.spacy_extractor import SpacyExtractor

sys.path.insert(0, str(Path(__file__).parent / "detectors"))
from _fakes import FakeEncoder  # noqa: E402

CONTEXT = ["Apple was founded by Steve Jobs and Steve Wozniak in 1976.",
           "Tim Cook became the chief executive officer of Apple in 2011."]
GOOD = "Apple was founded by Steve Jobs and Steve Wozniak in 1976."
#: These tests are about input handling and parsing, not detection: one cheap detector.
GROUNDING = GuardConfig(name="grounding-only", detectors=["grounding"], threshold=0.2)


class CountingExtractor(SpacyExtractor):
    """The real spaCy extractor, recording every batch it is asked to parse."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[str]] = []

    def extract(self, text, *, source=-1):  # type: ignore[override]
        self.batches.append([text])
        return super().extract(text, source=source)

    def extract_many(self, texts, sources=None):  # type: ignore[override]
        self.batches.append(list(texts))
        return super().extract_many(texts, sources)

    @property
    def seen(self) -> list[str]:
        return [t for b in self.batches for t in b]


# ------------------------------------------------------------------ limits, no model
@pytest.mark.parametrize("contexts", [
    ["x" * 300_000],                      # one huge passage
    ["Passage."] * 1_001,                 # too many passages
    [("s", "r", "o")] * 1_001,            # too many triples
])
def test_oversize_input_abstains_before_any_parsing(contexts) -> None:
    ext = CountingExtractor()
    r = Guard(extractor=ext).check(GOOD, contexts)
    assert r.abstained and not r.passed
    assert "max_context_chars" in r.abstain_reason or "max_passages" in r.abstain_reason
    assert ext.batches == []


def test_long_answer_abstains_before_parsing_and_limits_come_from_the_config() -> None:
    ext = CountingExtractor()
    cfg = GuardConfig(name="tiny", max_answer_chars=20, max_passages=1)
    g = Guard(cfg, extractor=ext)
    assert "max_answer_chars=20" in g.check("x" * 21, CONTEXT[:1]).abstain_reason
    assert "max_passages=1" in g.check(GOOD[:20], CONTEXT).abstain_reason
    assert ext.batches == []
    assert GuardConfig().max_passages == 1_000 and GuardConfig().max_answer_chars == 5_000


def test_check_many_never_parses_an_oversize_item() -> None:
    ext = CountingExtractor()
    g = Guard(extractor=ext)
    huge = "Apple is a company. " * 500_000  # 10 MB
    out = g.check_many([{"answer": GOOD, "contexts": [huge]}, {"answer": GOOD, "context": huge}])
    assert all(r.abstained and "max_context_chars" in r.abstain_reason for r in out)
    assert ext.batches == []


@pytest.mark.parametrize("items", [None, ["x"], [1], "answer", {"answer": "a"}, 5])
def test_check_many_rejects_bad_batches_with_invalid_input_error(items) -> None:
    with pytest.raises(InvalidInputError):
        Guard(extractor=CountingExtractor()).check_many(items)


@pytest.mark.parametrize("bad", [{"id": 7}, {"question": 3}, {"answer": b"bytes"}])
def test_bad_fields_raise_before_any_work(bad) -> None:
    ext = CountingExtractor()
    kwargs = {"answer": GOOD, "contexts": CONTEXT, **bad}
    with pytest.raises(InvalidInputError) as info:
        Guard(extractor=ext).check(kwargs.pop("answer"), kwargs.pop("contexts"), **kwargs)
    assert isinstance(info.value, GuardrailError) and ext.batches == []
    with pytest.raises(InvalidInputError, match="item 0"):
        Guard(extractor=ext).check_many([{"answer": GOOD, "contexts": CONTEXT, **bad}])
    assert ext.batches == []


# ------------------------------------------------------------- real model (slow)
@pytest.mark.slow
def test_lone_surrogate_in_a_passage_is_judged_not_raised() -> None:
    guard = Guard(GROUNDING)
    ctx = [CONTEXT[0] + " \udfff", "\ud800" + CONTEXT[1]]
    r = guard.check("Apple was founded by Bill Gates in 1999.", ctx)
    assert not r.abstained and not r.passed
    assert "\ufffd" in r.context_graph.texts[0] or "\ufffd" in "".join(r.context_graph.texts)
    batch = guard.check_many([{"answer": GOOD + "\udfff", "contexts": ctx}])[0]
    assert not batch.abstained and batch.answer == GOOD + "\ufffd"  # one char for one char


@pytest.mark.slow
def test_passages_of_one_check_are_parsed_in_one_batch() -> None:
    ext = CountingExtractor()
    g = Guard(GROUNDING, extractor=ext)
    passages = [f"Company {i} was founded in {1900 + i} by person {i}." for i in range(40)]
    g.check("Company 3 was founded in 1903.", passages)
    # one spaCy pass per check: the passages share it with the answer (and the question)
    ctx_batches = [b for b in ext.batches if any(t in passages for t in b)]
    assert len(ctx_batches) == 1 and set(passages) <= set(ctx_batches[0])
    assert len(ctx_batches[0]) <= len(passages) + 2
    g.check("Company 4 was founded in 1904.", passages[::-1])  # all cached now
    assert sum(any(t in passages for t in b) for b in ext.batches) == 1


@pytest.mark.slow
def test_check_many_prefetches_in_one_batch_and_matches_check() -> None:
    ext = CountingExtractor()
    g = Guard(GROUNDING, extractor=ext)
    items = [{"answer": f"Company {i} was founded in {1900 + i}.",
              "contexts": [f"Company {i} was founded in {1900 + i} by person {i}."]} for i in range(12)]
    out = g.check_many(items)
    # the 12 passages in one batch (the answers of the group are parsed in a batch of their own)
    ctx_batches = [b for b in ext.batches if any(t.endswith(f"by person {i}.") for t in b for i in range(12))]
    assert len(ctx_batches) == 1 and sum("by person" in t for t in ctx_batches[0]) == 12
    assert [r.passed for r in out] == [g.check(it["answer"], it["contexts"]).passed for it in items]


@pytest.mark.slow
def test_degenerate_context_abstains_before_parsing() -> None:
    ext = CountingExtractor()
    r = Guard(GROUNDING, extractor=ext).check(GOOD, ["a " * 100_000])
    assert r.abstained and "degenerate" in r.abstain_reason and ext.batches == []


@pytest.mark.slow
def test_spacy_vocab_does_not_grow_with_new_words() -> None:
    ex = SpacyExtractor()
    ex.extract("Warm up.")
    strings = ex.nlp.vocab.strings
    before = len(strings)
    for i in range(20):
        ex.extract(f"Zorblaxian{i} founded Quuxtopia{i} in Blorfshire{i} during {1800 + i}.")
    assert "Zorblaxian3" not in strings and len(strings) == before


# ------------------------------------------------------------------- threads
class _SlowIterDict(dict):
    """A dict whose iteration pauses after reading its keys: widens the window in which an
    unlocked check-then-evict lets two threads evict the same key (KeyError)."""

    def __iter__(self):
        keys = list(super().__iter__())
        time.sleep(0.0005)
        yield from keys


def test_context_index_cache_is_thread_safe(monkeypatch) -> None:
    from guardrail.detectors import grounding

    monkeypatch.setattr(grounding, "_INDEX_CACHE", _SlowIterDict())
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often to expose races
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            for i in range(300):
                ctx = (f"Passage {t}-{i} says Apple was founded in {1900 + i}.",)
                assert grounding.context_index(ctx).texts == list(ctx)
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    try:
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(old)
    assert errors == [] and len(grounding._INDEX_CACHE) <= 256


# ------------------------------------------------------------- shortlist (latency bound)
class RecordingEncoder(FakeEncoder):
    """FakeEncoder that remembers every text it embedded."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def encode(self, texts):  # type: ignore[override]
        self.texts.extend(texts)
        return super().encode(texts)


def _graphs(n_ctx: int):
    from guardrail.extract.given import graph_from_triples

    claim = graph_from_triples([("Apple", "founded in", "1999")], source=-1)
    ctx = graph_from_triples([(f"Company {i}", f"acquired firm {i} in", f"{1000 + i}")
                              for i in range(n_ctx)] + [("Apple", "founded in", "1976")], source=0)
    return claim, ctx


def test_long_context_embeds_only_a_shortlist() -> None:
    from guardrail.align.relations import select_relations
    from guardrail.check.judge import PREFETCH_CONTEXT_MAX, prefetch_embeddings
    from guardrail.detectors.base import AlignmentInput

    claim, ctx = _graphs(2_000)
    enc = RecordingEncoder()
    picked = select_relations(claim, ctx, enc, max_candidates=64)
    assert len(picked.triples) == 1
    assert ctx.triples[-1].text in enc.texts  # the lexically close triple is shortlisted
    ctx_strings = {t.text for t in ctx.triples} | {n.label for n in ctx.nodes}
    assert len(set(enc.texts) & ctx_strings) <= 2 * 64  # not the 2,000+ context triples
    enc = RecordingEncoder()
    prefetch_embeddings(AlignmentInput("a", ctx.texts, None, claim, ctx, enc))
    assert not set(enc.texts) & {t.text for t in ctx.triples}  # long context: not prefetched
    small_claim, small_ctx = _graphs(3)
    enc = RecordingEncoder()
    prefetch_embeddings(AlignmentInput("a", small_ctx.texts, None, small_claim, small_ctx, enc))
    assert {t.text for t in small_ctx.triples} <= set(enc.texts)  # short context: prefetched
    assert len(set(small_ctx.triples)) < PREFETCH_CONTEXT_MAX


def test_encoder_errors_are_typed_and_its_cache_is_bounded() -> None:
    import numpy as np

    from guardrail.align.encoder import MiniLMEncoder

    for kwargs in ({"cache_size": -1}, {"batch_size": 0}):
        with pytest.raises(InvalidInputError):
            MiniLMEncoder(**kwargs)
    with pytest.raises(InvalidInputError, match="not one str"):
        MiniLMEncoder().encode("one string")
    enc = MiniLMEncoder()
    assert enc.cache_size == 10_000
    small = MiniLMEncoder(cache_size=3)
    for i in range(10):
        small._put(f"t{i}", np.zeros(384, dtype=np.float32))
    assert small.cache_info() == {"size": 3, "max": 3} and "t9" in small._cache and "t0" not in small._cache


def test_kea_uses_triple_support_from_any_detector() -> None:
    from _fakes import apple_claim

    from guardrail.explain.kea import triple_support
    from guardrail.types import DetectorOutput, NodeSupport

    claim = apple_claim("1999").triples
    by_relation = DetectorOutput(name="relation", score=0.8, details={"triple_support": [0.1] * len(claim)})
    assert triple_support(claim, [by_relation]) == [0.1] * len(claim)
    t = claim[0]
    by_nodes = DetectorOutput(name="entity", score=0.5, node_support=(
        NodeSupport(node_id=t.subject.id, support=0.9), NodeSupport(node_id=t.object.id, support=0.2)))
    assert triple_support(claim[:1], [by_nodes]) == [pytest.approx(0.2)]
    assert triple_support(claim, [DetectorOutput(name="x", score=0.1)]) is None


@pytest.mark.parametrize("items", [None, 5, "answer"])
async def test_acheck_many_raises_the_same_typed_errors(items) -> None:
    with pytest.raises(InvalidInputError):
        await Guard(extractor=CountingExtractor()).acheck_many(items)


def test_oversize_abstain_keeps_the_cleaned_answer_and_question() -> None:
    r = Guard(extractor=CountingExtractor()).check("Paris\udfff.", ["x" * 300_000], "Where\x00?")
    assert r.abstained and r.answer == "Paris\ufffd." and r.question == "Where ?"
    r.to_json()  # serialisable
