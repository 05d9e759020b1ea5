"""``check_many`` parses each group's answers in one batch and embeds their graphs' strings in
one encoder pass, with the verdicts of one check at a time (issue 27, speed)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from guardrail import Guard
from guardrail.check import batch as batch_mod
from guardrail.detectors import build_detector
from guardrail.errors import BatchError, ExtractionError
from guardrail.extract.spacy_extractor import char_batches
from guardrail.testing import FakeEncoder

sys.path.insert(0, str(Path(__file__).parent))
from _counting import CountingExtractor  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[3] / "guardrail" / "data" / "halueval_sample.jsonl"
CONTEXT = "Apple | was founded by | Steve Jobs\nApple | was founded in | 1976\n"
OTHER = "Paris | is capital of | France\n"
ITEMS = [
    {"id": "a", "answer": "Apple | was founded by | Steve Jobs\n", "contexts": [CONTEXT], "question": "Who | founded | Apple\n"},
    {"id": "b", "answer": "Apple | was founded in | 1999\n", "contexts": [CONTEXT]},
    {"id": "c", "answer": "Paris | is capital of | Spain\n", "contexts": [OTHER, CONTEXT]},
]


class RecordingEncoder(FakeEncoder):
    """FakeEncoder recording the texts of each call."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[list[str]] = []

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        self.seen.append(list(texts))
        return super().encode(texts)


def _guard(ex: CountingExtractor, enc: FakeEncoder | None = None) -> Guard:
    dets = [build_detector(name) for name in ("entity", "relation")]
    return Guard(extractor=ex, encoder=enc or FakeEncoder(), detectors=dets)


def test_answers_and_questions_of_a_group_are_parsed_in_one_batch() -> None:
    ex = CountingExtractor()
    g = _guard(ex)
    g.check_many(ITEMS)
    answers = [(it["answer"], -1) for it in ITEMS]
    assert answers + [(ITEMS[0]["question"], -2)] in ex.batches
    later = ex.batches[ex.batches.index(answers + [(ITEMS[0]["question"], -2)]) + 1:]
    assert not any(src < 0 for b in later for _, src in b)  # no check parsed its answer again
    assert not g._parts.cache._own  # the group's graphs are dropped once judged


def test_markup_answers_are_prefetched_as_the_check_reads_them() -> None:
    ex = CountingExtractor()
    items = [{"id": "m", "answer": "**Apple** | was founded in | 1999\n", "contexts": [CONTEXT]}]
    one = _guard(CountingExtractor()).check(items[0]["answer"], [CONTEXT], id="m")  # type: ignore[arg-type]
    many = _guard(ex).check_many(items)
    own = [b for b in ex.batches if any(src < 0 for _, src in b)]
    assert len(own) == 1 and "**" not in own[0][0][0]  # parsed once, markup blanked
    assert (many[0].score, many[0].passed) == (one.score, one.passed)


def test_claim_and_small_context_strings_are_embedded_in_one_call() -> None:
    enc = RecordingEncoder()
    g = _guard(CountingExtractor(), enc)
    g.check_many(ITEMS)
    first = set(enc.seen[0])
    assert {"apple", "steve jobs", "1999", "spain", "france"} <= first


def test_same_verdicts_as_one_check_at_a_time() -> None:
    many = _guard(CountingExtractor()).check_many(ITEMS)
    g = _guard(CountingExtractor())
    one = [g.check(it["answer"], it["contexts"], it.get("question"), id=it["id"]) for it in ITEMS]
    assert [(r.passed, r.score, r.flagged_nodes) for r in many] == [(r.passed, r.score, r.flagged_nodes) for r in one]


def test_a_failed_prefetch_leaves_each_item_to_its_check() -> None:
    items = ITEMS[:2] + [{"id": "x", "answer": "boom | is | here\n", "contexts": [CONTEXT]}] + ITEMS[2:]
    with pytest.raises(BatchError) as info:
        _guard(CountingExtractor()).check_many(items)
    assert info.value.index == 2 and [r.id for r in info.value.results] == ["a", "b"]
    assert isinstance(info.value.__cause__, ExtractionError)


def test_groups_of_at_most_group_items(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch_mod, "GROUP_ITEMS", 2)
    ex = CountingExtractor()
    results = _guard(ex).check_many(ITEMS)
    assert [r.id for r in results] == ["a", "b", "c"]
    own = [b for b in ex.batches if b and all(src < 0 for _, src in b)]
    assert [len({t for t, s in b if s == -1}) for b in own] == [2, 1]


def test_char_batches_bound_characters_and_items() -> None:
    assert char_batches([], 10, 2) == []
    assert char_batches([5, 5, 5], 10, 5) == [(0, 2), (2, 3)]
    assert char_batches([50, 1, 1, 1], 10, 2) == [(0, 1), (1, 3), (3, 4)]


def _sample(n_qa: int, n_dialogue: int, n_summary: int) -> list[dict[str, object]]:
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    pick = ([r for r in rows if r["id"].startswith("qa")][:n_qa]
            + [r for r in rows if r["id"].startswith("dialogue")][:n_dialogue]
            + [r for r in rows if r["id"].startswith("summarization")][:n_summary])
    return [{"id": r["id"], "answer": r["answer"], "contexts": r["context"], "question": r.get("question")}
            for r in pick]


def _forget(guard: Guard) -> None:
    """Empty the passage cache and the process-wide encoder and verifier caches."""
    from guardrail.align.encoder import shared_encoder
    from guardrail.models.claim_verifier import shared_verifier

    guard._parts.cache.clear()
    shared_encoder()._cache.clear()
    shared_verifier()._cache.clear()


@pytest.mark.slow
def test_check_many_gives_the_verdicts_of_single_checks_on_halueval(guard: Guard) -> None:
    items = _sample(6, 4, 2)  # the QA items come in pairs sharing a context
    _forget(guard)
    one = [guard.check(it["answer"], it["contexts"], it["question"], id=it["id"], log=False)  # type: ignore[arg-type]
           for it in items]
    _forget(guard)
    many = guard.check_many(items)
    assert [r.id for r in many] == [r.id for r in one]
    for a, b in zip(many, one):
        assert (a.passed, a.abstained) == (b.passed, b.abstained), a.id
        assert a.score == pytest.approx(b.score, abs=1e-6), a.id
        assert sorted(n.text for n in a.flagged_nodes) == sorted(n.text for n in b.flagged_nodes), a.id
