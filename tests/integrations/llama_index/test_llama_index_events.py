"""GuardEventHandler on the real instrumentation dispatcher."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from llama_index.core.instrumentation import get_dispatcher

from guardrail import Guard
from guardrail.log.sinks import read_log
from guardrail_llama_index import GuardedQueryEngine, GuardEventHandler

PICKS = (5, 8, 17, 18)  # records whose hallucinated answer the default guard flags


@pytest.fixture
def log_path(tmp_path: Path) -> Path:
    return tmp_path / "events.jsonl"


@pytest.fixture
def handler(guard: Guard, log_path: Path) -> Iterator[GuardEventHandler]:
    logged = Guard(extractor=guard.extractor, log=log_path)
    h = GuardEventHandler(guard=logged).register()
    try:
        yield h
    finally:
        h.unregister()


def test_register_and_unregister(guard):
    root = get_dispatcher()
    h = GuardEventHandler(guard=guard).register()
    h.register()  # idempotent
    assert [x for x in root.event_handlers if x is h] == [h]
    assert [x for x in root.span_handlers if x is h.tracker] == [h.tracker]
    h.unregister()
    assert not any(x is h for x in root.event_handlers)
    assert not any(x is h.tracker for x in root.span_handlers)


def test_sync_query_is_checked_and_logged(vector_index, make_llm, handler, records, log_path):
    rec = records[1]
    vector_index.as_query_engine(llm=make_llm(), similarity_top_k=2).query(rec["question"])
    [record] = handler.records_for(rec["question"])
    assert record.answer == rec["hallucinated_answer"] and not record.result.passed
    assert rec["knowledge"] in record.contexts
    [entry] = read_log(log_path)
    assert entry.question == rec["question"] and entry.answer == rec["hallucinated_answer"]


async def test_concurrent_aqueries_never_mix(vector_index, make_llm, handler, records, log_path):
    llm = make_llm({records[i]["question"]: [records[i]["hallucinated_answer"]] for i in PICKS})
    engine = vector_index.as_query_engine(llm=llm, similarity_top_k=2)
    questions = [records[i]["question"] for i in PICKS]
    responses = await asyncio.gather(*(engine.aquery(q) for q in questions))
    await handler.wait()
    assert len(handler.records) == len(PICKS)  # one per query, keyed by distinct root spans
    for i, q, response in zip(PICKS, questions, responses):
        [record] = handler.records_for(q)
        assert record.answer == records[i]["hallucinated_answer"] == response.response
        assert record.result.question == q and record.result.answer == record.answer
        assert sorted(record.contexts) == sorted(n.node.get_content() for n in response.source_nodes)
        assert records[i]["knowledge"].strip() in record.contexts
        assert not record.result.passed
    logged = {(e.question, e.answer) for e in read_log(log_path)}
    assert logged == {(records[i]["question"], records[i]["hallucinated_answer"]) for i in PICKS}


def test_guarded_engine_result_is_reused(vector_index, make_llm, handler, guard, records):
    rec = records[18]
    engine = GuardedQueryEngine(vector_index.as_query_engine(llm=make_llm(), similarity_top_k=2), guard)
    response = engine.query(rec["question"])
    [record] = handler.records_for(rec["question"])
    assert record.result is response.metadata["guard_result"]  # no second check


def test_streaming_answer_checked_after_consumption(vector_index, make_llm, handler, records):
    rec = records[8]
    engine = vector_index.as_query_engine(llm=make_llm(), similarity_top_k=2, streaming=True)
    response = engine.query(rec["question"])
    assert handler.records_for(rec["question"]) == []
    assert "".join(response.response_gen) == rec["hallucinated_answer"]
    [record] = handler.records_for(rec["question"])
    assert record.answer == rec["hallucinated_answer"] and not record.result.passed
