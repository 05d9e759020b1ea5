"""Issue 20: the holes an adversarial corpus found (items 3, 4, 7, 8; items 5 and 6 have
their own tests in ``detectors/test_verifier_hedges.py`` and ``test_batch_errors.py``).

Fast tests use no model: every input here is rejected or abstained on before any parsing,
or exercises pure functions. The ``slow`` tests run the shipped verifier.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from guardrail import Guard
from guardrail.config import GuardConfig, load_config
from guardrail.errors import ConfigError, InvalidInputError
from guardrail.log.sinks import open_sink, read_log
from guardrail.validate import clean_text, size_reason, validate_input

APPLE = ["Apple was founded by Steve Jobs and Steve Wozniak in 1976 in Los Altos, California."]


class NoModels:
    """An extractor that fails the test when the guard gets as far as parsing."""

    def extract(self, *a: object, **k: object) -> None:
        raise AssertionError("the guard parsed an input it should have abstained on")

    extract_many = extract


# ---------------------------------------------------------------- item 3: claim count
def _one_word_sentences(chars: int = 4_995) -> str:
    out, k = "", 0
    while len(out) + len(f"X{k}. ") <= chars:
        out += f"X{k}. "
        k += 1
    return out.strip()


def test_many_one_word_sentences_abstain_before_any_work():
    answer = _one_word_sentences()  # about 850 sentences inside the 5,000-character limit
    assert len(answer) <= 5_000
    guard = Guard(extractor=NoModels())
    t0 = time.perf_counter()
    r = guard.check(answer, ["Some context. " * 100], "What?")
    assert time.perf_counter() - t0 < 2.0
    assert r.abstained and not r.passed and "max_claims=100" in r.abstain_reason


def test_max_claims_is_a_config_limit():
    answer = "One. Two. Three. Four."
    assert size_reason(answer, ["ctx"], max_claims=3) == "answer has more sentences than max_claims=3"
    assert size_reason(answer, ["ctx"], max_claims=4) == ""
    assert GuardConfig().max_claims == 100
    with pytest.raises(ConfigError):
        load_config({"max_claims": 0})


# ---------------------------------------------------------------- item 4: NFKC digits
@pytest.mark.parametrize("raw, plain", [
    ("founded in １９９９.", "founded in 1999."),
    ("founded in \U0001d7e3\U0001d7eb\U0001d7eb\U0001d7eb.", "founded in 1999."),
    ("about \u00b3\u2070 days", "about 30 days"),
    ("no\u00a0break", "no break"),
])
def test_compatibility_digits_are_normalised_with_offsets_kept(raw: str, plain: str):
    assert clean_text(raw) == plain and len(clean_text(raw)) == len(raw)
    v = validate_input(raw, [raw], raw)
    assert v.answer == plain and v.contexts == (plain,) and v.question == plain


def test_characters_whose_nfkc_form_is_longer_are_kept():
    for raw in ("ﬁne", "e\u0301", "\u2474"):  # ligature, combining accent, parenthesised digit
        assert clean_text(raw) == raw


# ---------------------------------------------------------------- item 7: config files
def _write(tmp_path: Path, data: bytes) -> Path:
    p = tmp_path / "cfg.json"
    p.write_bytes(data)
    return p


@pytest.mark.parametrize("data", [
    '{"name": "caf\u00e9"}'.encode("latin-1"),
    bytes(range(256)),
    b"[" * 100_000 + b"]" * 100_000,
    b'{"name": ' + b'{"a": ' * 5_000 + b"1" + b"}" * 5_001,
    b"[1, 2]",
])
def test_unreadable_config_files_raise_config_error(tmp_path, data: bytes):
    with pytest.raises(ConfigError):
        load_config(_write(tmp_path, data))


def test_config_with_a_bom_loads(tmp_path):
    assert load_config(_write(tmp_path, b"\xef\xbb\xbf" + b'{"name": "x"}')).name == "x"


@pytest.mark.parametrize("patch", [
    {"threshold": True}, {"threshold": "0.5"}, {"node_threshold": False}, {"bias": True},
    {"weights": {"grounding": True}}, {"max_passages": True},
    {"threshold": 1.0}, {"threshold": 0.0},
    {"aggregation": "logistic"}, {"aggregation": "logistic", "weights": {"grounding": 0.0}},
    {"detector_params": {"grounding": {"no_such_param": 1}}},
])
def test_bad_config_values_are_rejected_at_load(patch: dict):
    with pytest.raises(ConfigError):
        load_config({"detectors": ["grounding", "wl_kernel"], **patch})


def test_good_config_values_still_load():
    cfg = load_config({"threshold": 0.4, "aggregation": "logistic", "weights": {"grounding": 2},
                       "detectors": ["grounding", "relation"], "max_passages": 10,
                       "detector_params": {"grounding": {"alpha": 0.7}}})
    assert cfg.weights == {"grounding": 2.0} and cfg.max_passages == 10  # an int is a float


@pytest.mark.parametrize("patch", [
    {"detector_params": {"verifier": {"unit_threshold": 2.0}}},
    {"detector_params": {"verifier": {"max_evidence_words": 0}}},
])
def test_bad_detector_parameter_values_fail_when_the_guard_is_built(patch: dict):
    cfg = load_config({"detectors": ["verifier"], **patch})  # a custom detector may carry the name
    with pytest.raises(ConfigError):
        Guard(cfg, extractor=NoModels())


def test_shipped_config_still_loads():
    cfg = load_config("default")
    assert cfg.detectors[0] == "verifier" and cfg.aggregation == "logistic"
    assert all(cfg.weights[d] > 0 for d in cfg.detectors)


# ---------------------------------------------------------------- item 8: odd arguments
def test_guard_log_with_unknown_suffix_is_a_typed_error(tmp_path):
    with pytest.raises(InvalidInputError, match="x.log"):
        Guard(log=str(tmp_path / "x.log"))


def test_jsonl_log_reader_ignores_a_utf8_bom(tmp_path):
    from guardrail.log.records import FlaggedRecord
    from guardrail.types import GuardResult

    p = tmp_path / "log.jsonl"
    res = GuardResult(passed=False, score=0.9, threshold=0.5, answer="a", id="r1", config="default")
    with open_sink(p) as sink:
        sink.write(FlaggedRecord.from_result(res, ["ctx"]))
    p.write_bytes(b"\xef\xbb\xbf" + p.read_bytes())
    records = read_log(p, strict=True)
    assert [r.id for r in records] == ["r1"] and not records.damaged


class HugeLazy(Sequence):
    """10^9 passages that are never materialised; walking more than a few fails the test."""

    def __init__(self) -> None:
        self.seen = 0

    def __len__(self) -> int:
        return 10**9

    def __getitem__(self, i):  # type: ignore[override]
        self.seen += 1
        if self.seen > 1_000:
            raise AssertionError("the passage-count check walked the lazy sequence")
        return "A passage."


def test_passage_count_check_does_not_walk_a_huge_lazy_sequence():
    ctx = HugeLazy()
    t0 = time.perf_counter()
    assert size_reason("An answer.", ctx) == "more passages than max_passages=1000"
    r = Guard(extractor=NoModels()).check("An answer.", ctx)
    assert r.abstained and "max_passages" in r.abstain_reason
    assert validate_input("An answer.", ctx).abstain_reason
    assert time.perf_counter() - t0 < 2.0 and ctx.seen == 0


# ---------------------------------------------------------------- slow: the real verifier
@pytest.mark.slow
@pytest.mark.parametrize("digits", ["\uff11\uff19\uff19\uff19", "\U0001d7e3\U0001d7eb\U0001d7eb\U0001d7eb",
                                    "\u00b9\u2079\u2079\u2079"])
def test_wrong_year_in_compatibility_digits_is_flagged(guard: Guard, digits: str):
    answer = f"Apple was founded in {digits}."
    r = guard.check(answer, APPLE, "When was Apple founded?")
    assert not r.passed, r.score
    plain = clean_text(answer)
    assert len(plain) == len(answer)  # so every span of the result indexes the caller's answer
    for n in r.flagged_nodes:
        assert n.span is None or plain[n.span.start:n.span.end] == n.text


@pytest.mark.slow
@pytest.mark.parametrize("wrong", [
    "No, I don't think Steve Jobs was the first.",
    "I'm not sure, but I think it was founded in 1999.",
    "I'm not sure, but I think Bill Gates founded it.",
])
def test_hedged_wrong_sentence_after_a_supported_one_fails(guard: Guard, wrong: str):
    r = guard.check("Apple was founded in 1976. " + wrong, APPLE, "When was Apple founded?")
    assert not r.passed, (wrong, r.score)


# ---------------------------------------------------------------- the quick start's summary
def test_summary_counts_contradicting_sentences_not_triples():
    from guardrail.explain.kea import _sentences_of
    from guardrail.types import Node, Span, Triple

    def node(text: str, start: int) -> Node:
        return Node(id=f"-1:{start}", text=text, label=text.lower(), kind="NOUN",
                    span=Span(start=start, end=start + len(text), source=-1))

    answer = "Apple was founded in 1999 by Steve Jobs. It is in Seattle."
    apple = node("Apple", 0)
    one = [Triple(subject=apple, relation="be founded in", object=node("1999", 21)),
           Triple(subject=apple, relation="be founded by", object=node("Steve Jobs", 29))]
    assert _sentences_of(answer, one) == 1
    two = one + [Triple(subject=node("It", 41), relation="be in", object=node("Seattle", 50))]
    assert _sentences_of(answer, two) == 2


# ---------------------------------------------------------------- item 9: memory bound
class CountingExtractor:
    """Returns an empty graph per passage and counts the passages parsed."""

    def __init__(self) -> None:
        self.parsed = 0

    def extract_many(self, texts, sources):
        from guardrail.types import KnowledgeGraph

        self.parsed += len(texts)
        return [KnowledgeGraph(texts=(t,)) for t in texts]


def test_passage_cache_is_bounded_by_characters_not_only_by_count():
    import threading

    from guardrail.extract.cache import PassageCache

    cache = PassageCache(1024, threading.RLock(), max_chars=10_000)
    ex = CountingExtractor()
    for i in range(1_000):  # 1,000 distinct 3,000-character passages: 3 MB of text
        cache.graphs([f"{i} " + "x" * 2_995], ex)
    assert cache.chars <= 10_000 and len(cache) == 3
    cache.graphs(["y" * 20_000], ex)  # longer than the bound: parsed, not kept
    assert len(cache) == 3 and cache.chars <= 10_000
    cache.graphs(["999 " + "x" * 2_995], ex)
    assert ex.parsed == 1_001  # the most recent passage is still cached


def test_guard_passes_the_character_bound_to_its_cache():
    g = Guard(extractor=NoModels(), context_cache_chars=123)
    assert g._parts.cache.max_chars == 123
    with pytest.raises(InvalidInputError):
        Guard(extractor=NoModels(), context_cache_chars=-1)
