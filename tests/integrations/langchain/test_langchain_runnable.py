"""GuardRunnable on a real LCEL RAG chain: policies, refinement, async, streaming, events.

The chat model is ``GenericFakeChatModel``, a scripted stand-in for a remote LLM: it
plays back HaluEval's hallucinated answer and then the record's right answer, so the
guard sees realistic text without any network access.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from langchain_core.callbacks import AsyncCallbackHandler, BaseCallbackHandler
from langchain_core.language_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from guardrail.errors import ConfigError, HallucinationError
from guardrail.log.sinks import read_log
from guardrail.policy.policies import DEFAULT_REFUSAL
from guardrail_langchain import GUARD_EVENT, GuardRunnable

# Record 18 (Dua Lipa's album): the context says 2017; HaluEval's hallucination says 2018
# ("The album was released in 2018."); the correction replayed is the right answer.
REC = 18
CORRECTED = "2017"  # HaluEval's right answer for record 18
UNUSED = "this scripted answer must never be requested"


def fake_llm(*answers: str) -> GenericFakeChatModel:
    """Scripted stand-in for a remote chat model, answering ``answers`` in order."""
    return GenericFakeChatModel(messages=iter(answers))


def always(answer: str) -> GenericFakeChatModel:
    """Scripted stand-in for a chat model that keeps giving the same answer."""
    return GenericFakeChatModel(messages=itertools.repeat(answer))


class EventCollector(BaseCallbackHandler):
    """Keeps the kg_guardrail_result custom events it receives."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
        if name == GUARD_EVENT:
            self.events.append(data)


class AsyncEventCollector(AsyncCallbackHandler):
    """Async twin of :class:`EventCollector`."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    async def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
        if name == GUARD_EVENT:
            self.events.append(data)


@pytest.fixture(scope="module")
def rec(records: list[dict[str, Any]]) -> dict[str, Any]:
    return records[REC]


@pytest.fixture(scope="module")
def hallucinated(rec: dict[str, Any]) -> str:
    return rec["hallucinated_answer"]


def test_annotate_keeps_answer_attaches_result_and_sends_event(make_chain, guard, rec, hallucinated):
    chain = make_chain(fake_llm(hallucinated)) | GuardRunnable(guard=guard)
    collector = EventCollector()
    out = chain.invoke({"question": rec["question"]}, config={"callbacks": [collector]})
    result = out["guard_result"]
    assert out["answer"] == hallucinated
    assert not result.passed and result.flagged_nodes
    assert "2018" in [n.text for n in result.flagged_nodes]
    assert out["question"] == rec["question"] and len(out["context"]) == 2
    assert collector.events == [result.to_dict(compact=True)]


def test_passing_answer_is_untouched(make_chain, guard, rec):
    out = (make_chain(fake_llm(CORRECTED)) | GuardRunnable(guard=guard, policy="filter")).invoke(
        {"question": rec["question"]})
    assert out["guard_result"].passed and out["answer"] == CORRECTED


def test_filter_returns_refusal_for_a_fully_flagged_answer(make_chain, guard, rec, hallucinated):
    guarded = make_chain(fake_llm(hallucinated)) | GuardRunnable(
        guard=guard, policy="filter", refusal="No supported answer.")
    out = guarded.invoke({"question": rec["question"]})
    assert out["answer"] == "No supported answer."
    assert out["guard_result"].answer == hallucinated


def test_filter_on_message_answer_keeps_message_type(make_chain, guard, rec, hallucinated):
    chain = make_chain(fake_llm(hallucinated), parse=False) | GuardRunnable(guard=guard, policy="filter")
    out = chain.invoke({"question": rec["question"]})
    assert isinstance(out["answer"], AIMessage) and out["answer"].content == DEFAULT_REFUSAL


def test_raise_carries_result_and_answer(make_chain, guard, rec, hallucinated):
    chain = make_chain(fake_llm(hallucinated)) | GuardRunnable(guard=guard, policy="raise")
    with pytest.raises(HallucinationError) as info:
        chain.invoke({"question": rec["question"]})
    assert info.value.answer == hallucinated
    assert not info.value.result.passed and info.value.result.flagged_nodes


def test_custom_policy_callable(make_chain, guard, rec, hallucinated):
    def mark(answer: str, result: Any) -> str:
        return f"[unverified: {', '.join(n.text for n in result.flagged_nodes)}] {answer}"

    out = (make_chain(fake_llm(hallucinated)) | GuardRunnable(guard=guard, policy=mark)).invoke(
        {"question": rec["question"]})
    assert out["answer"].startswith("[unverified:") and out["answer"].endswith(hallucinated)


def test_refine_stops_as_soon_as_nothing_is_flagged(make_chain, guard, rec, hallucinated, tmp_path):
    from guardrail import Guard

    logged = Guard(extractor=guard.extractor, log=tmp_path / "flagged.jsonl")
    script = iter([hallucinated, CORRECTED, UNUSED])
    llm = GenericFakeChatModel(messages=script)  # the chain's LLM is also the one re-prompted
    out = (make_chain(llm) | GuardRunnable(guard=logged, policy="refine", llm=llm)).invoke(
        {"question": rec["question"]})
    result = out["guard_result"]
    assert out["answer"] == CORRECTED and result.passed
    assert [(h.round, h.answer, h.passed) for h in result.history] == [
        (0, hallucinated, False), (1, CORRECTED, True)]
    assert result.history[0].score > result.history[1].score and result.history[0].feedback
    assert next(script) == UNUSED  # no further re-prompt after the passing round
    records = read_log(tmp_path / "flagged.jsonl")
    # rounds are logged as they happen; the flagged answer's record, once the policy is done
    assert [(r.event, r.round) for r in records] == [("refinement_round", 1), ("flagged", None)]
    assert records[1].action == "refined" and records[1].delivered_answer == CORRECTED
    assert out["guard_action"] == "refined" and out["guard_original_answer"] == hallucinated
    run_ids = {r.id for r in records}
    assert len(run_ids) == 1 and None not in run_ids  # the LangChain run id of the guard's run


def test_refine_stops_on_a_repeated_answer_and_filters(make_chain, guard, rec, hallucinated, tmp_path):
    from guardrail import Guard

    logged = Guard(extractor=guard.extractor, log=tmp_path / "rounds.jsonl")
    llm = always(hallucinated)  # keeps returning the same answer (what small models do)
    out = (make_chain(llm) | GuardRunnable(guard=logged, policy="refine", llm=llm, max_iterations=5)).invoke(
        {"question": rec["question"]})
    result = out["guard_result"]
    assert out["guard_stop_reason"] == "repeated"  # one re-prompt, not five
    assert [h.round for h in result.history] == [0, 1]
    assert out["guard_action"] in {"filtered", "refused"} and out["answer"] != hallucinated  # filter fallback
    rounds = [r for r in read_log(tmp_path / "rounds.jsonl") if r.event == "refinement_round"]
    assert [r.round for r in rounds] == [1]
    assert all(r.answer == hallucinated and r.score == pytest.approx(result.score) for r in rounds)


def test_refine_fallback_applies_at_the_cap(make_chain, guard, rec, hallucinated):
    llm = always(hallucinated)
    chain = make_chain(llm) | GuardRunnable(guard=guard, policy="refine", llm=llm, max_iterations=1,
                                            fallback="raise")
    with pytest.raises(HallucinationError) as info:
        chain.invoke({"question": rec["question"]})
    assert len(info.value.result.history) == 2


def test_plain_string_output_hints_at_retriever(guard):
    from guardrail.errors import InvalidInputError

    with pytest.raises(InvalidInputError, match="retriever="):
        GuardRunnable(guard=guard).invoke("just an answer")


def test_refine_needs_a_chat_model_and_known_policy(guard):
    with pytest.raises(ConfigError, match="llm"):
        GuardRunnable(guard=guard, policy="refine")
    with pytest.raises(ConfigError, match="unknown policy"):
        GuardRunnable(guard=guard, policy="block")
    with pytest.raises(ConfigError):
        GuardRunnable(guard=guard, policy="refine", llm=always("x"), max_iterations=0)


async def test_ainvoke_refines_with_awaited_model_and_sends_event(make_chain, guard, rec, hallucinated):
    llm = fake_llm(hallucinated, CORRECTED)
    collector = AsyncEventCollector()
    chain = make_chain(llm) | GuardRunnable(guard=guard, policy="refine", llm=llm)
    out = await chain.ainvoke({"question": rec["question"]}, config={"callbacks": [collector]})
    assert out["answer"] == CORRECTED and len(out["guard_result"].history) == 2
    assert [e["passed"] for e in collector.events] == [True]


async def test_abatch_keeps_inputs_apart(make_chain, guard, records):
    picks = [1, 8, 18]
    llms = {records[i]["question"]: fake_llm(records[i]["hallucinated_answer"]) for i in picks}
    chain = make_chain(llms) | GuardRunnable(guard=guard)
    outs = await chain.abatch([{"question": records[i]["question"]} for i in picks])
    for i, out in zip(picks, outs):
        assert out["answer"] == records[i]["hallucinated_answer"]
        assert out["guard_result"].question == records[i]["question"]
        assert out["context"][0].metadata["idx"] == i


def test_stream_yields_the_final_answer_once(make_chain, guard, rec):
    chain = make_chain(fake_llm(CORRECTED)) | GuardRunnable(guard=guard)
    chunks = list(chain.stream({"question": rec["question"]}))
    assert len(chunks) == 1
    assert chunks[0]["answer"] == CORRECTED and chunks[0]["guard_result"].passed


async def test_astream_filters_before_emitting(make_chain, guard, rec, hallucinated):
    chain = make_chain(fake_llm(hallucinated)) | GuardRunnable(guard=guard, policy="filter")
    chunks = [c async for c in chain.astream({"question": rec["question"]})]
    assert len(chunks) == 1 and chunks[0]["answer"] == DEFAULT_REFUSAL
