"""Declined answers (issue 25): whole-answer declines are recognised, real answers are not."""

from __future__ import annotations

import pytest

from guardrail.text.declines import MAX_DECLINE_CHARS, declined_sentence, is_declined, normalize_decline_text

DECLINES = [
    "I don't know.",
    "I do not know",
    "I don’t know",
    "Sorry, I don't know.",
    "No idea.",
    "Unknown.",
    "I'm not sure.",
    "The context does not say.",
    "I cannot answer from the provided documents.",
    "I can't answer that based on the provided context.",
    "The provided context does not mention when the bridge was built.",
    "There is no information about the cost in the documents.",
    "I am unable to determine the answer from the given context.",
    "Based on the provided context, I cannot determine who won.",
    "The answer is not in the context.",
    "It is unclear from the context.",
    "I'm sorry, but the context doesn't provide information about that. Please provide more context.",
    "The context says nothing about his birthplace.",
    "This information is not available in the provided documents.",
    "Not enough information.",
    "The context does not specify whether she won in 1921.",
    "I don't have enough information to answer that.",
    "I actually don't have much information for Wolves.",  # HaluEval dialogue: an adverb, "much"
    "I really do not have more details on that.",
]

ANSWERS = [
    "The answer is no.",
    "No.",
    "Not available in Europe.",
    "I'm not sure, but I think it was 1921.",
    "I don't know; it opened in 1932.",
    "I'm not sure it was 1921.",
    "I don't know exactly, probably 1921.",
    "I don't know. The bridge opened in 1932.",
    "I don't have much information, but Wolves is a 2014 film.",
    "The context does not say, but it was 1903.",
    "I don't know the date and the bridge is 5 km long.",
    "Marie Curie did not win the prize in 1921.",
    "The drug is not safe.",
    "There is no evidence that the drug works.",
    "No evidence of fraud was found.",
    "I am certain.",
    "I'm sure.",
    "The company does not say when it will open.",
    "It is not a planet.",
    "She didn't know the answer to the exam question, so she failed.",
    "",
]


@pytest.mark.parametrize("answer", DECLINES)
def test_declines_are_recognised(answer: str) -> None:
    assert is_declined(answer)


@pytest.mark.parametrize("answer", ANSWERS)
def test_answers_with_not_or_no_are_not_declines(answer: str) -> None:
    assert not is_declined(answer)


def test_long_texts_are_never_declines() -> None:
    assert not is_declined("I don't know. " * (MAX_DECLINE_CHARS // 10))


def test_sentence_kinds_and_normalisation() -> None:
    assert normalize_decline_text("I’m sure it WON'T   rain") == "i am sure it will not rain"
    assert declined_sentence("sorry.") == "filler"
    assert declined_sentence("please provide more context.") == "filler"
    assert declined_sentence("i do not know.") == "decline"
    assert declined_sentence("paris is in france.") == "other"
    assert not is_declined("Sorry.")  # an opener alone declines nothing
