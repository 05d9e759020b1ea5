"""GuardCallbackHandler / AsyncGuardCallbackHandler on a real LCEL RAG chain.

The chat models are ``GenericFakeChatModel`` instances: scripted stand-ins for a remote
LLM, one per question so that concurrent runs get their own recorded answers.
"""

from __future__ import annotations

import uuid

from langchain_core.language_models import GenericFakeChatModel
from langchain_core.runnables import RunnableLambda

from guardrail.log.sinks import context_hash, read_log
from guardrail_langchain import AsyncGuardCallbackHandler, GuardCallbackHandler, GuardRunnable

# Six different questions; each run answers its own question with HaluEval's right answer.
PICKS = [1, 2, 8, 9, 15, 18]


def scripted(answer: str) -> GenericFakeChatModel:
    """Scripted stand-in for a remote chat model."""
    return GenericFakeChatModel(messages=iter([answer]))


async def test_concurrent_abatch_keeps_root_runs_apart(make_chain, guard, retriever, records):
    questions = [records[i]["question"] for i in PICKS]
    chain = make_chain({records[i]["question"]: scripted(records[i]["right_answer"]) for i in PICKS})
    sync_handler, async_handler = GuardCallbackHandler(guard), AsyncGuardCallbackHandler(guard)
    run_ids = [uuid.uuid4() for _ in PICKS]
    configs = [{"callbacks": [sync_handler, async_handler], "run_id": rid} for rid in run_ids]
    outs = await chain.abatch([{"question": q} for q in questions], config=configs)
    for handler in (sync_handler, async_handler):
        assert handler.pending == 0 and len(handler.results) == len(PICKS)
        for i, q, rid, out in zip(PICKS, questions, run_ids, outs):
            checked = handler.result_for(rid)
            expected = [d.page_content for d in retriever.invoke(q)]
            assert checked.question == q and checked.result.question == q
            assert checked.answer == records[i]["right_answer"] == out["answer"]
            assert checked.context_hash == context_hash(expected)
            assert checked.contexts[0] == records[i]["knowledge"]


def test_handler_logs_flagged_answers_and_reuses_guard_result(make_chain, guard, records, tmp_path):
    from guardrail import Guard

    rec = records[18]
    logged = Guard(extractor=guard.extractor, log=tmp_path / "observed.jsonl")
    handler = GuardCallbackHandler(logged)
    chain = make_chain(scripted(rec["hallucinated_answer"]))
    rid = uuid.uuid4()
    out = chain.invoke({"question": rec["question"]}, config={"callbacks": [handler], "run_id": rid})
    assert out["answer"] == rec["hallucinated_answer"]  # a callback never changes the output
    checked = handler.result_for(rid)
    assert checked is handler.last and not checked.result.passed
    [row] = read_log(tmp_path / "observed.jsonl")
    assert row.answer == rec["hallucinated_answer"] and row.context_hash == checked.context_hash

    # With a GuardRunnable in the chain, its result is reused and its event recorded.
    guarded = make_chain(scripted(rec["hallucinated_answer"])) | GuardRunnable(guard=guard)
    rid2 = uuid.uuid4()
    out2 = guarded.invoke({"question": rec["question"]}, config={"callbacks": [handler], "run_id": rid2})
    checked2 = handler.result_for(rid2)
    assert checked2.result is out2["guard_result"]
    assert [e["score"] for e in checked2.events] == [out2["guard_result"].score]


def test_handler_skips_runs_without_retrieval(guard):
    handler = GuardCallbackHandler(guard)
    chain = RunnableLambda(lambda q: q) | scripted("Paris is the capital of France.")
    chain.invoke("What is the capital of France?", config={"callbacks": [handler]})
    assert handler.last is None and handler.pending == 0
