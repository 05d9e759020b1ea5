"""The added-detail repair (issue 25): when the evidence has nothing in place of a flagged
node (feedback kind ``added``), the smallest optional clause, appositive or prepositional
phrase holding it is deleted (real spaCy parse) and the rest kept; the main clause of a
one-sentence answer never is.

The fast tests parse with the real spaCy pipeline; the loop tests (``slow``) use the real
shipped guard. Their reprompt functions are stand-ins: one fails the test if it is called
(the repair needs no LLM), one records the call and returns the answer unchanged.
"""

from __future__ import annotations

import pytest

from guardrail.policy.feedback import FeedbackItem
from guardrail.policy.pruning import deletable_span, prune_added
from guardrail.policy.refine import RefinementRequest, Refiner
from guardrail.policy.repair import evidence_repair

CONTEXT = ["Apple was founded by Steve Jobs and Steve Wozniak in 1976 in Cupertino, California. "
           "The company, which makes the iPhone, is based in Cupertino."]


def _item(claim: str, *wrong: str, span: tuple[int, int] | None = None) -> FeedbackItem:
    marks = tuple((claim.index(w), claim.index(w) + len(w)) for w in wrong)
    return FeedbackItem(claim, span or (0, len(claim)), wrong, "", "added", (), marks)


@pytest.mark.parametrize(("claim", "wrong", "pruned"), [
    ("Apple was founded in 1976, and it received a large grant from the Ford Foundation.",
     ("a large grant", "the Ford Foundation"), "Apple was founded in 1976."),  # a coordinated clause, its "and"
    ("Apple was founded in 1976 in Cupertino with a loan from IBM.", ("a loan", "IBM"),
     "Apple was founded in 1976 in Cupertino."),  # a prepositional phrase, the nested one with it
    ("The company, which was backed by IBM, is based in Cupertino.", ("IBM",),
     "The company is based in Cupertino."),  # a relative clause: both commas go
    ("Apple, an IBM subsidiary, was founded in 1976.", ("an IBM subsidiary",), "Apple was founded in 1976."),
    ("After a loan from the Ford Foundation, the company moved to Cupertino.", ("a loan", "the Ford Foundation"),
     "The company moved to Cupertino."),  # at the start: the comma goes, the capital comes
    ("Marie Curie, who was born in Paris, won the Nobel Prize in 1911.", ("Paris",),
     "Marie Curie won the Nobel Prize in 1911."),
    ("Apple was founded by Steve Jobs and Bill Gates in 1976.", ("Bill Gates",),
     "Apple was founded by Steve Jobs in 1976."),  # the second of two names, with its "and"
])
def test_the_smallest_optional_constituent_goes(claim: str, wrong: tuple[str, ...], pruned: str) -> None:
    assert prune_added(_item(claim, *wrong)) == pruned


@pytest.mark.parametrize(("claim", "wrong"), [
    ("Apple was founded by Bill Gates.", "Bill Gates"),  # the agent of the main clause
    ("Apple is based in Seattle.", "Seattle"),  # the only complement of its verb: an argument
    ("Apple received a large grant from the Ford Foundation.", "a large grant"),
])
def test_the_main_clause_is_never_deleted(claim: str, wrong: str) -> None:
    at = claim.index(wrong)
    assert deletable_span(claim, at, at + len(wrong)) is None
    assert prune_added(_item(claim, wrong)) is None
    assert prune_added(_item(claim, wrong), whole=True) == ""  # one sentence of several: it goes whole
    assert evidence_repair(claim, [_item(claim, wrong)]) is None  # a one-sentence answer: the LLM's turn


def test_another_kind_or_no_span_is_not_pruned() -> None:
    claim = "The company, which was backed by IBM, is based in Cupertino."
    item = _item(claim, "IBM")
    assert prune_added(FeedbackItem(claim, item.span, item.wrong, "", "role", (), item.marks)) is None
    assert prune_added(FeedbackItem(claim, None, item.wrong, "", "added")) is None


def test_a_sentence_of_several_goes_whole_and_the_others_stay() -> None:
    first = "Apple was founded by Steve Jobs and Steve Wozniak in 1976."
    second = "It received a large grant from the Ford Foundation."
    answer = f"{first} {second}"
    item = _item(second, "a large grant", span=(len(first) + 1, len(answer)))
    out = evidence_repair(answer, [item])
    assert out is not None and out[0] == first and f'deleted "{second}"' in out[1]
    reverse = f"{second} {first}"
    out = evidence_repair(reverse, [_item(second, "a large grant", span=(0, len(second) + 1))])
    assert out is not None and out[0] == first


def _no_llm(req: RefinementRequest) -> str:
    raise AssertionError("the repair needs no LLM call")


@pytest.mark.slow
def test_a_planted_added_clause_is_deleted_and_the_answer_passes(guard) -> None:
    answer = ("Apple was founded by Steve Jobs and Steve Wozniak in 1976 in Cupertino, California, "
              "and it received a large grant from the Ford Foundation.")
    first = guard.check(answer, CONTEXT)
    assert not first.passed
    out = Refiner(guard, max_iterations=3).refine(answer, CONTEXT, None, _no_llm, first=first)
    assert out.action == "refined" and out.result.passed and out.stop_reason == "passed"
    assert out.answer == "Apple was founded by Steve Jobs and Steve Wozniak in 1976 in Cupertino, California."
    assert [h.round for h in out.result.history] == [0, 1]
    assert "Ford Foundation" in out.result.history[0].feedback  # round 0's feedback names the repair


@pytest.mark.slow
def test_a_faithful_clause_is_kept(guard) -> None:
    answer = "The company, which makes the iPhone, is based in Cupertino, and it was once owned by IBM."
    out = Refiner(guard, max_iterations=3).refine(answer, CONTEXT, None, _no_llm)
    assert out.action == "refined" and out.result.passed
    assert out.answer == "The company, which makes the iPhone, is based in Cupertino."


@pytest.mark.slow
def test_an_added_main_clause_of_a_one_sentence_answer_goes_to_the_llm(guard) -> None:
    answer = "Apple received a large grant from the Ford Foundation."
    calls: list[RefinementRequest] = []

    def repeat(req: RefinementRequest) -> str:
        calls.append(req)
        return req.answer

    out = Refiner(guard, max_iterations=2, fallback="annotate").refine(answer, CONTEXT, None, repeat)
    assert len(calls) == 1 and calls[0].answer == answer and out.stop_reason == "repeated"
    assert out.answer.endswith(answer)  # nothing was deleted


def test_a_clause_that_also_states_a_right_fact_is_kept() -> None:
    claim = "The seat may face forward once the child is at least 15 weeks old and 76 cm tall."
    item = _item(claim, "at least 15 weeks old")
    assert prune_added(item) == "The seat may face forward."  # no evidence to lose anything from
    evidence = "The seat may face forward once the child is 15 months old and at least 76 cm tall."
    kept = FeedbackItem(claim, item.span, item.wrong, evidence, "added", (), item.marks)
    assert prune_added(kept) is None  # "76 cm" would go with the detail: the LLM's turn
    assert prune_added(kept, whole=True) is None


ROBOT = ["The R7 robot vacuum has a 5,200 mAh battery that provides up to 150 minutes of cleaning. When the battery "
         "falls below 15%, the robot returns to its dock and resumes cleaning once it has charged to 80%."]


def test_a_number_a_passage_states_is_not_deleted_as_added() -> None:
    """The flag on a number a passage states may be false: the repair leaves it to the LLM
    (``product_manual-02`` of ``benchmarks/refine.py`` lost its right "80%" to the repair)."""
    claim = "After recharging to 80%, it picks up cleaning where it left off."
    assert evidence_repair(claim, [_item(claim, "80%")], ROBOT) is None
    assert evidence_repair(claim, [_item(claim, "80%")], ["The battery lasts 150 minutes."]) is not None


def test_the_evidence_of_a_flagged_number_is_not_chosen_by_a_particle() -> None:
    """"picks up cleaning" shares "up" with "up to 150 minutes of cleaning": a particle says
    nothing about the claim's slot, so the sentence stating "80%" is quoted."""
    from guardrail.policy.feedback import feedback_items
    from guardrail.types import FlaggedNode, GuardResult, Span

    answer = "After recharging to 80%, it picks up cleaning where it left off."
    at = answer.index("80%")
    node = FlaggedNode(node_id="a", text="80%", span=Span(start=at, end=at + 3), support=0.1)
    result = GuardResult(passed=False, score=0.7, threshold=0.5, answer=answer, flagged_nodes=(node,))
    (item,) = feedback_items(result, ROBOT)
    assert item.evidence.startswith("When the battery falls below 15%")
