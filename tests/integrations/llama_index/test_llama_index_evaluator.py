"""KGGuardrailEvaluator: direct calls, evaluate_response and BatchEvalRunner."""

from __future__ import annotations

import pytest
from llama_index.core.evaluation import BatchEvalRunner, EvaluationResult

from guardrail.errors import InvalidInputError
from guardrail_llama_index import KGGuardrailEvaluator

OBEROI, ANUBIS, DUA_LIPA = 1, 8, 18


def test_evaluate_scores_higher_is_better(guard, records):
    rec = records[DUA_LIPA]
    ev = KGGuardrailEvaluator(guard)
    bad = ev.evaluate(query=rec["question"], response=rec["hallucinated_answer"], contexts=[rec["knowledge"]])
    good = ev.evaluate(query=rec["question"], response=rec["right_answer"], contexts=[rec["knowledge"]])
    assert isinstance(bad, EvaluationResult)
    assert bad.passing is False and good.passing is True
    assert 0.0 <= bad.score < good.score <= 1.0
    assert bad.query == rec["question"] and bad.response == rec["hallucinated_answer"]
    assert bad.contexts == [rec["knowledge"]]
    lines = bad.feedback.splitlines()
    assert len(lines) >= 2 and lines[1].startswith("- ") and "2018" in bad.feedback


def test_evaluate_requires_response_and_contexts(guard):
    ev = KGGuardrailEvaluator(guard)
    with pytest.raises(InvalidInputError, match="response and contexts"):
        ev.evaluate(query="q", response="a")
    with pytest.raises(InvalidInputError, match="response and contexts"):
        ev.evaluate(query="q", response=None, contexts=["Paris is in France."])
    with pytest.raises(InvalidInputError, match="response must be a str"):
        ev.evaluate(query="q", response=42, contexts=["Paris is in France."])
    with pytest.raises(InvalidInputError, match=r"contexts\[1\]"):
        ev.evaluate(query="q", response="a", contexts=["Paris is in France.", 7])
    with pytest.raises(InvalidInputError, match="contexts must be"):
        ev.evaluate(query="q", response="a", contexts=12)


def test_bad_context_mode_and_bad_source_nodes_are_typed_errors(guard):
    from llama_index.core.base.response.schema import Response

    with pytest.raises(InvalidInputError, match="context_mode.*'bogus'"):
        KGGuardrailEvaluator(guard, context_mode="bogus")  # at construction, not at the first call
    ev = KGGuardrailEvaluator(guard)
    with pytest.raises(InvalidInputError, match=r"source_nodes\[0\].*str"):
        ev.evaluate_response(query="q", response=Response(response="a", source_nodes=["text"]))


def test_a_single_context_string_is_one_passage(guard, records):
    rec = records[DUA_LIPA]
    ev = KGGuardrailEvaluator(guard)
    one = ev.evaluate(query=rec["question"], response=rec["right_answer"], contexts=rec["knowledge"])
    listed = ev.evaluate(query=rec["question"], response=rec["right_answer"], contexts=[rec["knowledge"]])
    assert one.contexts == [rec["knowledge"]]  # not one passage per character
    assert one.passing is listed.passing is True and one.score == pytest.approx(listed.score)


def test_evaluate_response_uses_source_nodes(vector_index, make_llm, guard, records):
    rec = records[OBEROI]
    response = vector_index.as_query_engine(llm=make_llm(), similarity_top_k=2).query(rec["question"])
    result = KGGuardrailEvaluator(guard).evaluate_response(query=rec["question"], response=response)
    assert result.passing is False and result.response == rec["hallucinated_answer"]
    assert rec["knowledge"] in result.contexts and len(result.contexts) == 2


def test_batch_eval_runner_over_several_queries(vector_index, make_llm, guard, records):
    picks = [OBEROI, ANUBIS, DUA_LIPA]
    llm = make_llm({records[i]["question"]: [records[i]["right_answer"]] for i in picks[:1]}
                   | {records[i]["question"]: [records[i]["hallucinated_answer"]] for i in picks[1:]})
    engine = vector_index.as_query_engine(llm=llm, similarity_top_k=2)
    runner = BatchEvalRunner({"kg_guardrail": KGGuardrailEvaluator(guard)}, workers=2)
    queries = [records[i]["question"] for i in picks]
    out = runner.evaluate_queries(engine, queries=queries)
    results = out["kg_guardrail"]
    assert [r.query for r in results] == queries
    assert [r.passing for r in results] == [True, False, False]
    assert [r.response for r in results] == [records[OBEROI]["right_answer"],
                                              records[ANUBIS]["hallucinated_answer"],
                                              records[DUA_LIPA]["hallucinated_answer"]]
    assert results[0].score > max(results[1].score, results[2].score)
