"""Issue 28, item 4: the two decline rules live in ``text/declines.py``; the verifier calls the
per-sentence one, and where the two disagree they do so on purpose (see the module docstring)."""

from __future__ import annotations

import pytest

import guardrail.detectors.unscored as unscored_mod
from guardrail.text.declines import is_declined, meta_sentence, non_answer_sentence, verdict_fragment


def test_the_verifier_uses_the_per_sentence_rule_of_text_declines(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(unscored_mod, "non_answer_sentence", lambda s: calls.append(s) or True)
    assert unscored_mod.non_answer("Apple was founded in 1976.") and calls == ["Apple was founded in 1976."]


@pytest.mark.parametrize(("text", "whole_answer", "one_sentence"), [
    ("I don't know.", True, True),                       # both agree on a plain decline
    ("Sorry, I'm not sure.", True, True),
    ("Paris is in France.", False, False),
    ("No, I don't think he was the first.", False, False),
    # a decline naming what it does not know: the answer declines, but the sentence is scored
    ("I don't know what it's about.", True, False),
    ("The context does not say when the bridge opened.", True, False),
    # pleasantries of decline words: no decline phrase, yet nothing to verify
    ("I'm sure.", False, True),
    ("I'm sorry about that.", False, True),
])
def test_the_rules_differ_where_documented(text: str, whole_answer: bool, one_sentence: bool) -> None:
    assert is_declined(text) is whole_answer
    assert non_answer_sentence(text) is one_sentence


@pytest.mark.parametrize(("sentence", "expected"), [
    ("No.", True), ("Sadly no.", True), ("Partly!", True), ("Not really!", True), ("It was!", True),
    ("It wasn\u2019t.", True), ("Yes, absolutely.", True), ("I agree.", True), ("Oh cool!", True), ("Exactly!", True),
    ("Paris.", False), ("Italy!", False), ("Steve Jobs.", False), ("Only about 12 seconds.", False),
    ("It is red.", False), ("No, it's blue.", False), ("Shockingly short!", False), ("Yes, but slowly.", False),
    ("Yes, a lucky contamination.", False), ("Not in 2020.", False), ("No, Lyon.", False),
])
def test_verdict_fragments_are_bare_verdicts_without_content_words(sentence, expected):
    assert verdict_fragment(sentence) is expected


@pytest.mark.parametrize(("sentence", "expected"), [
    ("As an AI assistant, I can only go by the documents you shared.", True),
    ("Here is a summary of the relevant information.", True),
    ("This answer is based solely on the retrieved passages.", True),
    ("Let me summarize the key points.", True),
    ("Below is a brief overview.", True),
    ("You can find more details in the documents.", True),
    ("Let's think step by step.", True), ("That's the key information from the documents.", True),
    ("Please verify with the original source for the latest details.", True),
    ("This is accurate as of the documents provided.", True),
    ("The documents may not cover every case.", True), ("In conclusion, that is what the documents say.", True),
    ("Note that details may vary.", True), ("Disclaimer: this is not legal advice.", True),
    ("Let me know if you'd like me to go into more detail on any of this.", True),
    ("I couldn't find anything else on this.", True), ("Always consult a professional before making decisions.", True),
    ("Please double-check the details before relying on them.", True), ("See above.", True),
    ("As requested, here is the information.", True), ("I checked the documents for you.", True),
    # a name, a number, a polar word or any content word: scored
    ("Here is the answer: Norvik was founded in 2011.", False), ("The answer is no.", False),
    ("I am the CEO.", False), ("We are based in Oslo.", False), ("You qualify.", False),
    ("The documents were shared with the board.", False), ("It opened in 1932.", False),
    ("The source of the Nile is Lake Victoria.", False), ("The original documents were burned.", False),
    ("Note that the office is closed on Mondays.", False), ("Prices vary by region.", False),
    ("Always check the filter before use.", False), ("The summit is 300 m above the valley.", False),
    ("I checked the brakes.", False),
])
def test_meta_sentences_frame_the_answer_without_content_words(sentence, expected):
    assert meta_sentence(sentence) is expected


def test_a_pronoun_is_not_read_after_a_framing_sentence():
    from guardrail.detectors.verifier import _units

    units = _units("As an AI assistant, I can only go by the documents you shared. Its designer was Carla Menotti. "
                   "It shifted the carriage.", None)
    assert [u.text for u in units][1:] == ["Its designer was Carla Menotti.",
                                          "Its designer was Carla Menotti. It shifted the carriage."]


@pytest.mark.parametrize("sentence", ["Feel free to reach out if you have any other questions.",
                                      "Let me know if you'd like me to go into more detail on any of this.",
                                      "Thanks for your patience!", "Best regards,", "Hi there!",
                                      "Happy to clarify anything that's unclear.",
                                      "I hope this helps, and good luck with everything!"])
def test_offers_of_more_help_are_pleasantries(sentence):
    from guardrail.text.declines import pleasantry_sentence

    assert pleasantry_sentence(sentence)


@pytest.mark.parametrize(("text", "kept"), [
    ("Let me break this down: Norvik was founded in 2011.", "Norvik was founded in 2011."),
    ("You asked: When was Norvik founded? It was founded in 2011.", "It was founded in 2011."),
    ("Based on my analysis of the documents, Norvik was founded in 2011.", "Norvik was founded in 2011."),
    ("As per the docs, Norvik was founded in 2011.", "Norvik was founded in 2011."),
    ("From what I understand, Norvik was founded in 2011.", "Norvik was founded in 2011."),
    ("I can confirm that Norvik was founded in 2011.", "Norvik was founded in 2011."),
    ("Norvik was founded in 2011. [citation needed]", "Norvik was founded in 2011."),
    ("Norvik was founded in 2011. \u2014 Source: company handbook", "Norvik was founded in 2011."),
    ("Wow, Norvik was founded in 2011.", "Norvik was founded in 2011."),
    ("Oh wow, Norvik was founded in 2011.", "Norvik was founded in 2011."),
    ("**Key facts**\n\nNorvik was founded in 2011.", "Norvik was founded in 2011."),  # a bold title line
    ("(1) Norvik was founded in 2011.", "Norvik was founded in 2011."),
    ("Norvik was founded in 2011. #robots #faq", "Norvik was founded in 2011."),
    ("Norvik was founded in 2011.\n\nP.S. Let me know if anything is unclear.",
     "Norvik was founded in 2011.\n\n     Let me know if anything is unclear."),
    ("In other words, Norvik was founded in 2011.", "Norvik was founded in 2011."),
    ("| Fact |\n|---|\n| Norvik was founded in 2011 |", "Norvik was founded in 2011"),  # one column
    ("#tacocannon trends in Omaha.", "#tacocannon trends in Omaha."),  # a hashtag inside the text stays
    ("**Norvik was founded in 2011.**", "Norvik was founded in 2011."),  # a bold statement is no title
    ("PS Vita sales fell in 2013.", "PS Vita sales fell in 2013."),  # a name, not a postscript
])
def test_openers_that_introduce_the_answer_are_blanked(text, kept):
    from guardrail.text.markup import blank_markup

    out = blank_markup(text)
    assert len(out) == len(text) and out.strip() == kept
