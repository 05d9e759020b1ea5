"""A check parses its answer, question and new passages in one ``extract_many`` pass, and the
``entity`` and ``relation`` detectors ground the answer nodes once (issue 27, speed)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

import guardrail.detectors.grounding as grounding
from guardrail import Guard
from guardrail.detectors import build_detector
from guardrail.detectors.base import AlignmentInput
from guardrail.testing import FakeEncoder, FakeExtractor
from guardrail.types import KnowledgeGraph

sys.path.insert(0, str(Path(__file__).parent))
from _counting import CountingExtractor  # noqa: E402

CONTEXT = "Apple | was founded by | Steve Jobs\nApple | was founded in | 1976\n"
ANSWER = "Apple | was founded by | Steve Jobs\n"
QUESTION = "Who | founded | Apple\n"


def _guard(ex: CountingExtractor, detectors: Sequence[str] = ("entity", "relation")) -> Guard:
    dets = [build_detector(name) for name in detectors]
    return Guard(extractor=ex, encoder=FakeEncoder(), detectors=dets)


def test_answer_question_and_new_passage_in_one_batch() -> None:
    ex = CountingExtractor()
    r = _guard(ex).check(ANSWER, [CONTEXT], QUESTION, log=False)
    assert not r.abstained
    assert ex.batches == [[(ANSWER, -1), (QUESTION, -2), (CONTEXT, 0)]]
    assert {"extract_answer", "extract_context"} <= set(r.timings) and "extract_question" not in r.timings


def test_cached_passage_is_not_parsed_again() -> None:
    ex = CountingExtractor()
    g = _guard(ex)
    g.check(ANSWER, [CONTEXT], QUESTION, log=False)
    g.check(ANSWER, [CONTEXT], None, log=False)
    assert ex.batches[1] == [(ANSWER, -1)]


def test_question_not_parsed_when_no_detector_reads_it() -> None:
    ex = CountingExtractor()
    _guard(ex, ("wl_kernel",)).check(ANSWER, [CONTEXT], QUESTION, log=False)
    assert ex.batches == [[(ANSWER, -1), (CONTEXT, 0)]]


def test_same_verdict_as_separate_parses() -> None:
    class Separate(FakeExtractor):
        def extract_many(self, texts: Sequence[str], sources: Sequence[int] | None = None) -> list[KnowledgeGraph]:
            srcs = list(sources) if sources is not None else list(range(len(texts)))
            return [self.extract(t, source=s) for t, s in zip(texts, srcs)]

    for answer in (ANSWER, "Apple | was founded in | 1999\n"):
        a = _guard(CountingExtractor()).check(answer, [CONTEXT], QUESTION, log=False)
        b = _guard(Separate()).check(answer, [CONTEXT], QUESTION, log=False)
        assert (a.score, a.passed, a.claim_graph, a.context_graph) == (b.score, b.passed, b.claim_graph, b.context_graph)


def test_entity_and_relation_ground_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    calls = []
    real = grounding.ground_nodes

    def counted(*a, **k):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(grounding, "ground_nodes", counted)
    ex = FakeExtractor()
    claim, ctx = ex.extract("Apple | was founded in | 1999\n", source=-1), ex.extract(CONTEXT, source=0)
    item = AlignmentInput("Apple was founded in 1999.", (CONTEXT,), None, claim, ctx, FakeEncoder())
    ent, rel = build_detector("entity"), build_detector("relation")
    outs = [ent.detect(item), rel.detect(item)]
    assert len(calls) == 1
    fresh = AlignmentInput(item.answer, item.contexts, None, claim, ctx, item.encoder)
    assert [ent.detect(fresh).score, build_detector("relation").detect(fresh).score] == [o.score for o in outs]
    assert len(calls) == 2


def test_shared_memo_per_key() -> None:
    ex = FakeExtractor()
    g = ex.extract(CONTEXT, source=0)
    item = AlignmentInput("x", (CONTEXT,), None, g, g, FakeEncoder())
    made = []
    assert item.shared("k", lambda: made.append(1) or np.ones(2)).sum() == 2
    item.shared("k", lambda: made.append(1) or np.ones(2))
    item.shared("other", lambda: made.append(1) or np.ones(2))
    assert len(made) == 2
    assert item == AlignmentInput("x", (CONTEXT,), None, g, g, item.encoder)  # a memo, not a field
