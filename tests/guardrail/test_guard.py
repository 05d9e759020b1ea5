"""The Guard end to end with the real extractor, encoder and detectors."""

from __future__ import annotations

import asyncio
import json

import pydantic
import pytest

from guardrail import Guard, GuardResult, InvalidInputError, KnowledgeGraph
from guardrail.extract.spacy_extractor import SpacyExtractor
from guardrail.log.sinks import read_log

pytestmark = pytest.mark.slow

CONTEXT = [
    "Apple was founded by Steve Jobs and Steve Wozniak in 1976. Its headquarters are in Cupertino, California.",
    "Tim Cook became the chief executive officer of Apple in 2011.",
]
GOOD = "Apple was founded by Steve Jobs and Steve Wozniak in 1976."
BAD = "Apple was founded by Bill Gates in 1999 in Seattle."


def test_supported_answer_passes_and_contradicted_one_is_flagged(guard: Guard) -> None:
    good = guard.check(GOOD, CONTEXT, "Who founded Apple?")
    bad = guard.check(BAD, CONTEXT, "Who founded Apple?")
    assert good.passed and not good.abstained
    assert not bad.passed and bad.score > good.score
    flagged = {n.text for n in bad.flagged_nodes}
    assert flagged & {"Bill Gates", "1999", "Seattle"}
    for node in bad.flagged_nodes:  # spans point into the answer
        assert node.span is not None and BAD[node.span.start : node.span.end] == node.text
        assert 0.0 <= node.support < 1.0 and node.reason
    assert bad.explanation.summary
    cfg = guard.config
    assert set(good.detector_scores) == set(bad.detector_scores) == set(cfg.detectors) | set(cfg.veto)


def test_every_input_shape_uses_the_one_default_config(guard: Guard) -> None:
    long_ctx = [" ".join(CONTEXT) * 8]
    short_sum = "Apple was founded in 1976."
    a, b = guard.check(short_sum, long_ctx), guard.check(short_sum, CONTEXT, "When?")
    assert a.config == b.config == "default"


def test_result_is_immutable_and_round_trips_json(guard: Guard) -> None:
    r = guard.check(BAD, CONTEXT)
    with pytest.raises(pydantic.ValidationError, match="frozen"):
        r.passed = True  # type: ignore[misc]
    back = GuardResult.model_validate_json(r.to_json())
    assert back == r
    compact = json.loads(r.to_json(compact=True))
    assert "claim_graph" not in compact and compact["flagged_nodes"]
    assert r.claim_graph.nodes and r.total_ms > 0
    assert {"validate", "extract_answer", "extract_context", "explain"} <= set(r.timings)


@pytest.mark.parametrize(
    "answer, contexts, reason",
    [("", CONTEXT, "empty answer"), ("   ", CONTEXT, "empty answer"), (GOOD, [], "empty context"),
     (GOOD, ["  "], "empty context"), ("!!! ???", CONTEXT, "nothing extracted"),
     ("これは日本語の文です。", CONTEXT, "not English")],
)
def test_unusable_input_abstains_and_does_not_pass(guard: Guard, answer, contexts, reason) -> None:
    r = guard.check(answer, contexts)
    assert r.abstained and not r.passed and reason in r.abstain_reason
    assert r.answer == answer or r.answer.strip() == answer.strip()


def test_one_megabyte_context_abstains_before_parsing() -> None:
    ext = CountingExtractor()
    r = Guard(extractor=ext).check(GOOD, ["Apple is a company. " * 55_000])
    assert r.abstained and "max_context_chars" in r.abstain_reason
    assert ext.seen == []  # the size limit is applied before any parsing


def test_control_characters_keep_spans_valid(guard: Guard) -> None:
    answer = "Apple was founded\x00 by Bill\x07 Gates in 1999."
    r = guard.check(answer, CONTEXT)
    assert not r.abstained
    for n in r.flagged_nodes:
        assert n.span is not None and r.answer[n.span.start : n.span.end] == n.text


@pytest.mark.parametrize("bad", [None, 12, ["list"], {"a": 1}])
def test_wrong_types_raise(guard: Guard, bad) -> None:
    with pytest.raises(InvalidInputError):
        guard.check(bad, CONTEXT)
    with pytest.raises(InvalidInputError):
        guard.check(GOOD, [bad] if bad is not None else 5)


class CountingExtractor(SpacyExtractor):
    """The real spaCy extractor, counting how often each text is parsed."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def extract(self, text, *, source=-1):  # type: ignore[override]
        self.seen.append(text)
        return super().extract(text, source=source)

    def extract_many(self, texts, sources=None):  # type: ignore[override]
        self.seen.extend(texts)
        return super().extract_many(texts, sources)


def test_check_many_parses_each_passage_once_and_keeps_order() -> None:
    ext = CountingExtractor()
    g = Guard(extractor=ext)
    items = [
        {"id": "a", "answer": GOOD, "contexts": CONTEXT},
        {"id": "b", "answer": BAD, "contexts": CONTEXT},
        {"id": "c", "answer": "Tim Cook became CEO of Apple in 2011.", "context": CONTEXT[1]},
    ]
    results = g.check_many(items)
    assert [r.id for r in results] == ["a", "b", "c"]
    assert ext.seen.count(CONTEXT[0]) == 1 and ext.seen.count(CONTEXT[1]) == 1
    # the same passage at another position is not parsed again either
    g.check(GOOD, [CONTEXT[1], CONTEXT[0]])
    assert ext.seen.count(CONTEXT[0]) == 1
    # ...and its graph is re-homed to its new position
    r = g.check(BAD, [CONTEXT[1], CONTEXT[0]])
    sources = {n.span.source for n in r.context_graph.nodes if n.span}
    assert sources <= {0, 1}


def test_same_verdict_in_batch_and_alone(guard: Guard) -> None:
    alone = guard.check(BAD, CONTEXT)
    batch = guard.check_many([{"answer": BAD, "contexts": CONTEXT}])[0]
    assert batch.score == pytest.approx(alone.score) and batch.passed == alone.passed


def test_acheck_matches_check(guard: Guard) -> None:
    r = asyncio.run(guard.acheck(BAD, CONTEXT))
    assert r.score == pytest.approx(guard.check(BAD, CONTEXT).score)


def test_graph_context_from_triples(guard: Guard) -> None:
    triples = [("Apple", "founded by", "Steve Jobs"), ("Apple", "founded in", "1976"),
               ("Apple", "headquartered in", "Cupertino")]
    good = guard.check("Apple was founded by Steve Jobs in 1976.", triples)
    bad = guard.check("Apple was founded by Bill Gates in 1999.", triples)
    assert good.score < bad.score and not bad.passed
    kg = KnowledgeGraph.model_validate(good.model_dump()["context_graph"])
    assert all(t.pattern == "given" for t in kg.triples)


def test_flagged_and_abstained_answers_are_logged(tmp_path) -> None:
    log = tmp_path / "flagged.jsonl"
    g = Guard(log=log)
    g.check(GOOD, CONTEXT, id="ok")
    g.check(BAD, CONTEXT, id="bad")
    g.check("", CONTEXT, id="empty")
    records = read_log(log)
    assert [(r.id, r.event) for r in records] == [("bad", "flagged"), ("empty", "abstained")]
    assert records[0].answer == BAD and records[0].flagged_nodes


def test_wrong_number_in_a_copied_sentence_is_flagged(guard: Guard) -> None:
    ctx = ["Her self-titled debut studio album was released on 2 June 2017 by Atlantic Records."]
    bad = guard.check("Her debut album was released in 2018.", ctx, "When was her debut album released?")
    assert not bad.passed and "2018" in {n.text for n in bad.flagged_nodes}


def test_check_many_rejects_a_bad_item_before_logging_anything(tmp_path) -> None:
    log = tmp_path / "f.jsonl"
    g = Guard(log=log)
    with pytest.raises(InvalidInputError, match="item 1"):
        g.check_many([{"answer": BAD, "contexts": CONTEXT}, {"answer": 42, "contexts": CONTEXT}])
    assert not log.exists() or read_log(log) == []
