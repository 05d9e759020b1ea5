"""GuardedQueryEngine over a real VectorStoreIndex with a scripted stand-in LLM."""

from __future__ import annotations

import builtins
import importlib
import sys
from pathlib import Path
from typing import Any

import pytest
from llama_index.core import Settings
from llama_index.core.base.response.schema import AsyncStreamingResponse, Response, StreamingResponse

from guardrail import Guard, GuardResult
from guardrail.errors import ConfigError, HallucinationError
from guardrail.log.sinks import read_log
from guardrail_llama_index import GuardedQueryEngine

OBEROI, HUMAN_ERROR, ANUBIS, BADR_HARI, DUA_LIPA = 1, 17, 8, 7, 18
REFUSAL = "No supported answer."


def _engine(index: Any, llm: Any, guard: Guard, **kwargs: Any) -> GuardedQueryEngine:
    return GuardedQueryEngine(index.as_query_engine(llm=llm, similarity_top_k=2), guard, **kwargs)


def test_annotate_keeps_answer_and_attaches_result(vector_index, make_llm, guard, records):
    rec = records[OBEROI]
    engine = _engine(vector_index, make_llm(), guard)  # policy="annotate" by default
    response = engine.query(rec["question"])
    assert isinstance(response, Response)
    assert response.response == rec["hallucinated_answer"]
    result = response.metadata["guard_result"]
    assert isinstance(result, GuardResult)
    assert response.metadata["guard_passed"] is False and result.passed is False
    assert response.metadata["guard_score"] == result.score
    assert response.metadata["guard_action"] == "annotated"
    assert "Mumbai" in [n.text for n in result.flagged_nodes]
    assert len(response.source_nodes) == 2
    assert rec["knowledge"] in [n.node.get_content() for n in response.source_nodes]
    assert result.question == rec["question"]


def test_filter_drops_flagged_sentence(vector_index, make_llm, guard, records):
    rec = records[DUA_LIPA]
    answer = "The album was released in 2017. It was produced in Mumbai by Richard Boone."
    engine = _engine(vector_index, make_llm({rec["question"]: [answer]}), guard, policy="filter")
    response = engine.query(rec["question"])
    assert response.metadata["guard_action"] == "filtered"
    assert response.response == "The album was released in 2017."
    assert response.metadata["guard_original_answer"] == answer


def test_filter_refusal_when_nothing_supported(vector_index, make_llm, guard, records):
    engine = _engine(vector_index, make_llm(), guard, policy="filter", refusal=REFUSAL)
    response = engine.query(records[ANUBIS]["question"])
    assert response.response == REFUSAL
    assert response.metadata["guard_action"] == "refused"


def test_raise_policy(vector_index, make_llm, guard, records):
    engine = _engine(vector_index, make_llm(), guard, policy="raise")
    with pytest.raises(HallucinationError) as info:
        engine.query(records[HUMAN_ERROR]["question"])
    assert info.value.answer == records[HUMAN_ERROR]["hallucinated_answer"]
    assert not info.value.result.passed


def test_custom_policy(vector_index, make_llm, guard, records):
    seen: list[GuardResult] = []

    def mark(answer: str, result: GuardResult) -> str:
        seen.append(result)
        return f"[unverified: {', '.join(n.text for n in result.flagged_nodes)}] {answer}"

    engine = _engine(vector_index, make_llm(), guard, policy=mark)
    response = engine.query(records[DUA_LIPA]["question"])
    assert response.response == f"[unverified: 2018] {records[DUA_LIPA]['hallucinated_answer']}"
    assert response.metadata["guard_action"] == "custom" and len(seen) == 1


def test_refine_stops_when_none_flagged_and_logs_each_round(
    vector_index, make_llm, guard, records, tmp_path: Path
):
    log = tmp_path / "flagged.jsonl"
    logged_guard = Guard(extractor=guard.extractor, log=log)
    rec = records[OBEROI]
    llm = make_llm()
    engine = _engine(vector_index, llm, logged_guard, policy="refine", max_iterations=5)
    response = engine.query(rec["question"])
    result = response.metadata["guard_result"]
    assert response.response == rec["right_answer"] and result.passed
    assert response.metadata["guard_action"] == "refined"
    assert response.metadata["guard_original_answer"] == rec["hallucinated_answer"]
    assert [h.answer for h in result.history] == [rec["hallucinated_answer"], rec["right_answer"]]
    assert [h.passed for h in result.history] == [False, True]
    assert "Mumbai" in result.history[0].flagged and "Mumbai" in result.history[0].feedback
    assert llm.calls(rec["question"]) == 2  # synthesis + one re-prompt, then it stopped
    reprompt = llm.prompts[-1]
    assert "<previous_answer>\n" + rec["hallucinated_answer"] + "\n</previous_answer>" in reprompt
    assert rec["knowledge"] in reprompt
    entries = read_log(log)
    # rounds are logged as they happen; the flagged answer's record, once the policy is done
    assert [(e.event, e.round) for e in entries] == [("refinement_round", 1), ("flagged", None)]
    assert entries[1].answer == rec["hallucinated_answer"] and entries[0].passed
    assert entries[1].action == "refined" and entries[1].delivered_answer == rec["right_answer"]
    ids = {e.id for e in entries}  # the LlamaIndex span id of the query
    assert len(ids) == 1 and next(iter(ids)).startswith("GuardedQueryEngine.")


def test_refine_stops_on_a_repeated_answer(vector_index, make_llm, guard, records):
    rec = records[ANUBIS]
    llm = make_llm({rec["question"]: [rec["hallucinated_answer"]]})
    engine = _engine(vector_index, llm, guard, policy="refine", max_iterations=2, fallback="filter",
                     refusal=REFUSAL)
    response = engine.query(rec["question"])
    result = response.metadata["guard_result"]
    # the same answer came back: the loop stops there instead of running to the cap
    assert llm.calls(rec["question"]) == 2
    # round 1 is the evidence repair (no LLM call: the year the evidence states), still flagged; round 2
    # the LLM's reply, the original answer again
    assert [h.round for h in result.history] == [0, 1, 2]
    assert result.history[2].answer == result.history[0].answer
    assert response.metadata["guard_stop_reason"] == "repeated"
    assert not any(h.passed for h in result.history)
    assert response.response == REFUSAL and response.metadata["guard_action"] == "refused"


def test_refine_without_llm_is_a_config_error(guard, monkeypatch):
    class NoLLMEngine:
        callback_manager = None

    monkeypatch.setattr(Settings, "_llm", None)  # no engine LLM, no explicit Settings.llm
    with pytest.raises(ConfigError, match="llm="):
        GuardedQueryEngine(NoLLMEngine(), guard, policy="refine")  # type: ignore[arg-type]


async def test_aquery_refines_asynchronously(vector_index, make_llm, guard, records):
    rec = records[BADR_HARI]
    engine = _engine(vector_index, make_llm(), guard, policy="refine")
    response = await engine.aquery(rec["question"])
    result = response.metadata["guard_result"]
    assert response.response == rec["right_answer"] and result.passed
    assert [h.answer for h in result.history] == [rec["hallucinated_answer"], rec["right_answer"]]
    assert len(response.source_nodes) == 2


def test_streaming_response_is_checked_and_still_iterable(vector_index, make_llm, guard, records):
    rec = records[DUA_LIPA]
    inner = vector_index.as_query_engine(llm=make_llm(), similarity_top_k=2, streaming=True)
    engine = GuardedQueryEngine(inner, guard, policy="refine")
    response = engine.query(rec["question"])
    assert isinstance(response, StreamingResponse)
    assert response.metadata["guard_passed"] is True
    assert response.metadata["guard_original_answer"] == rec["hallucinated_answer"]
    tokens = list(response.response_gen)
    assert len(tokens) >= 1 and "".join(tokens) == rec["right_answer"]
    assert len(response.source_nodes) == 2


async def test_async_streaming_response(vector_index, make_llm, guard, records):
    rec = records[OBEROI]
    inner = vector_index.as_query_engine(llm=make_llm(), similarity_top_k=2, streaming=True)
    response = await GuardedQueryEngine(inner, guard).aquery(rec["question"])
    assert isinstance(response, AsyncStreamingResponse)
    assert response.metadata["guard_passed"] is False
    text = "".join([t async for t in response.async_response_gen()])
    assert text == rec["hallucinated_answer"]


def test_import_error_names_the_extra(monkeypatch):
    real_import = builtins.__import__

    def no_llama(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "llama_index.core" or name.startswith("llama_index.core."):
            raise ImportError("No module named 'llama_index'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_llama)
    compat = importlib.import_module("guardrail_llama_index._compat")
    with pytest.raises(ImportError, match=r"pip install 'kg-guardrail\[llama-index\]'"):
        compat.require_llama_index()
    assert "llama_index.core" in sys.modules  # nothing was unloaded
