"""Answer markup is blanked one character for one, and nothing else is (guardrail.text.markup)."""

from __future__ import annotations

import pytest

from guardrail.text.declines import pleasantry_sentence, question_sentence, source_decline_sentence
from guardrail.text.markup import blank_markup
from guardrail.text.sentences import split_sentences


@pytest.mark.parametrize(("text", "read"), [
    ("1. It employs **340** people [2].", "   It employs   340   people    ."),
    ("- Founded in 2011\n- It employs 340 people", "  Founded in 2011\n  It employs 340 people"),
    ("a) first\nb) second", "   first\n   second"),
    ("## Summary\nIt was founded in 2011.", "          \nIt was founded in 2011."),
    ("### Founded in 2011", "    Founded in 2011"),  # a header with a digit may state a fact: kept
    ("## Norvik is owned by Siemens", "   Norvik is owned by Siemens"),  # a statement, not a title
    ("The *Atlas lifter* carries `450 kg` [Doc 2]\u30103\u2020source\u3011.",
     "The  Atlas lifter  carries  450 kg                   ."),
    ("See [1, 2] and [^3].", "See        and     ."),
    ("> quoted\n***", "  quoted\n   "),
    ("```python\nx = 1\n```", "         \nx = 1\n   "),
    ("| fact | value |\n|---|---|\n| founded | 2011 |",
     "                \n         \n  founded , 2011  "),
])
def test_markup_is_blanked_with_offsets_kept(text, read):
    assert blank_markup(text) == read
    assert len(blank_markup(text)) == len(text)


@pytest.mark.parametrize("text", [
    "Set cache_ttl to 30 seconds.",          # an underscore inside a word
    "It is 5 * 3 = 15 and 2 - 1.",           # arithmetic
    "-5 degrees is cold.",                   # a minus sign, not a bullet
    "It rose 5-10 % [a].",                   # a bracket that is no citation
    "Norvik Robotics was founded in 2011.",  # plain prose
    "A. Lincoln was president.",             # an initial, not a list letter
])
def test_text_without_markup_is_unchanged(text):
    assert blank_markup(text) == text


def test_list_items_are_sentences_of_their_own():
    read = blank_markup("1. Founded in 2011\n2. It employs 340 people")
    assert [read[s:e] for s, e in split_sentences(read)] == ["Founded in 2011", "It employs 340 people"]


def _without(text: str, *parts: str) -> str:
    """``text`` with each of ``parts`` (first occurrence after the previous one) as spaces."""
    pos = 0
    for part in parts:
        i = text.index(part, pos)
        text = text[:i] + " " * len(part) + text[i + len(part):]
        pos = i + len(part)
    return text


@pytest.mark.parametrize(("text", "blanked"), [
    ("See [Norvik](https://norvik.example.com) or <https://x.example>.",
     ("[", "](https://norvik.example.com)", "<https://x.example>")),
    ('![logo](logo.png "Logo")', ("![", '](logo.png "Logo")')),
    ("<p>Founded in <b>2011</b>.</p>", ("<p>", "<b>", "</b>", "</p>")),
    ("\u2705 It employs 340 people. \U0001f680\U0001f44d\U0001f3fd", ("\u2705", "\U0001f680\U0001f44d\U0001f3fd")),
    ("It employs 340 people (per the company profile).", ("(per the company profile)",)),
    ("It employs 340.[^1]\n\n[^1]: Norvik fact sheet.", ("[^1]", "[^1]: Norvik fact sheet.")),
    ("Key points: founded in 2011; 340 staff.", ("Key points: ",)),
    ('{"answer": "It employs 340.", "sources": ["doc 1", "doc 2"], "confidence": 0.9}',
     ('{"answer": "', '", "sources": ["doc 1", "doc 2"], "confidence": 0.9}')),
    ('{"facts": ["A is B.", "C is \\"D\\"."]}', ('{"facts": ["', '", "', '\\"', '\\"', '"]}')),
])
def test_links_tags_emoji_and_json_are_blanked(text, blanked):
    assert blank_markup(text) == _without(text, *blanked)


@pytest.mark.parametrize("text", [
    "It is 25 \u00b0C today.",                        # a degree sign carries the unit
    "Use x < 3 and y > 2.",                           # comparisons, not tags
    "It rose (per the 2019 contract) to 20 days.",    # an aside with a digit states something
    "{not json} and [1 2]",                           # braces that are no JSON
    '{"a": 1, "a": "x"}',                             # duplicate keys: not read as JSON
])
def test_lookalikes_are_not_blanked(text):
    assert blank_markup(text) == text


@pytest.mark.parametrize(("sentence", "expected"), [
    ("Great question!", True),
    ("I hope this helps.", True),
    ("Let me know if you need anything else!", True),
    ("Is there anything else I can help you with?", True),
    ("Feel free to ask if you have more questions.", True),
    ("Thanks for asking!", True),
    ("Enjoy your visit, and have a great day!", True),
    ("Happy reading!", True),
    ("Good luck!", True),
    ("Cheers!", True),
    ("Take care!", True),
    ("Great, it was founded in 2011.", False),
    ("Enjoy free entry on Sundays!", False),
    ("The trip takes a day.", False),
    ("I hope you enjoy the Atlas lifter.", False),
    ("Happy to help: the fee is 28 million euros.", False),
])
def test_pleasantries_carry_nothing_to_verify(sentence, expected):
    assert pleasantry_sentence(sentence) is expected


def test_ptb_quotes_are_not_code():
    text = "` the typical western diet is processed,' says the author . ``everyone got naked'' ."
    assert blank_markup(text) == text


@pytest.mark.parametrize(("text", "read"), [
    ("According to the provided context, it employs 340 people.",
     "                                   it employs 340 people."),
    ("It was founded in 2011. Based on the documents, it employs 340.",
     "It was founded in 2011.                         it employs 340."),
    ("The context states that it carries 450 kg.", "                        it carries 450 kg."),
    ("It employs 340 people (Source: passage 1).", "It employs 340 people                    ."),
    ("It employs 340.\nSources:\n[1] Fact sheet", "It employs 340.\n        \n" + " " * 14),
    ("Q: How many?\nA: 340.", "            \n   340."),
    ("Step 2: Fill the tank.", "        Fill the tank."),
    ("**Final answer:** 340", "                  340"),
    ("Here are the key facts:\n- 340 people", "                       \n  340 people"),
    ("It employs 340, according to the context.", "It employs 340" + " " * 26 + "."),
    ("As per the context, it employs 340.", "                    it employs 340."),
    ("I found the following in the documents: it employs 340.",
     "                                        it employs 340."),
    ("The documents do not mention her age, but it employs 340.", " " * 42 + "it employs 340."),
])
def test_scaffolding_is_blanked(text, read):
    assert blank_markup(text) == read


@pytest.mark.parametrize("text", [
    "He came from Norway, per his biography.",        # "per" not before a source word
    "The answer was found in 1921.",                  # no label at the start of a line
    "Norvik has two products: Atlas and Orbit.",      # a colon inside a claim
    "From 2011 to 2019 it grew.",                     # "From" not before a source word
])
def test_statements_are_not_scaffolding(text):
    assert blank_markup(text) == text


@pytest.mark.parametrize(("sentence", "expected"), [
    ("Would you like more suggestions?", True),
    ("Have you read them?", True),
    ("Is that the one with Adam Sandler?", True),
    ("He also wrote Rumble Fish, have you read it?", False),
    ("Impressive, right?", False),
    ("It opened in 1932.", False),
])
def test_questions_to_the_user(sentence, expected):
    assert question_sentence(sentence) is expected


@pytest.mark.parametrize(("sentence", "expected"), [
    ("The context does not say how many of them are engineers.", True),
    ("Note: the documents do not specify the fee.", True),
    ("There is no information about her age.", True),
    ("The passage does not state when it was founded.", True),
    ("I don't know much about him.", False),                       # the writer declines: scored
    ("The context does not say it, but it opened in 1932.", False),  # goes on to assert
    ("The documents show it opened in 1932.", False),
])
def test_sentences_on_what_the_context_does_not_say(sentence, expected):
    assert source_decline_sentence(sentence) is expected


@pytest.mark.parametrize(("text", "read"), [
    # a link naming a source goes whole, with the brackets it leaves empty
    ("Yes ([source](https://docs.example.com/page-1)). It opened.", "Yes . It opened."),
    ("It opened in 1932 [1](https://a.example/b).", "It opened in 1932 ."),
    ("It opened in 1932 (https://example.com/bridge).", "It opened in 1932 ."),
    # a link naming a thing keeps its text; a URL in running text may be the answer
    ("See [the Norvik report](https://x.example/a) for 2011.", "See the Norvik report for 2011."),
    ("Download it from https://fennel.example/get.", "Download it from https://fennel.example/get."),
])
def test_links_that_name_a_source_are_blanked(text, read):
    out = blank_markup(text)
    assert len(out) == len(text) and " ".join(out.split()) == read


def test_json_escapes_are_read_as_their_characters():
    import json

    text = json.dumps({"answer": "It rose from \u00a33.2 million (1889\u20131962).\n- It is \u201cnew\u201d."})
    out = blank_markup(text)
    assert len(out) == len(text)
    assert " ".join(out.split()) == "It rose from \u00a33.2 million (1889\u2013 1962). It is \u201cnew\u201d ."


@pytest.mark.parametrize(("text", "read"), [
    ("It opened in 1932 (Document 1, page 3).", "It opened in 1932 ."),
    ("It opened in 1932 (pp. 4-5) (passage 1 and 3).", "It opened in 1932 ."),
    ("It opened in 1932 (Confidence: high)", "It opened in 1932"),
    ("It opened in 1932.\n**Confidence:** 85%", "It opened in 1932."),
    ("**Point 1:** It opened in 1932.", "It opened in 1932."),
    ("To answer your question, it opened in 1932.", "it opened in 1932."),
    ("Sure thing \u2014 it opened in 1932.", "it opened in 1932."),
    ("We found that it opened in 1932.", "it opened in 1932."),
    ("According to Document 2, it opened in 1932.", "it opened in 1932."),
    ("Based on Documents 1 and 3, it opened in 1932.", "it opened in 1932."),
    ("Passage 1 says that it opened in 1932.", "it opened in 1932."),
    ("From the provided text: it opened in 1932.", "it opened in 1932."),
    ("Reasoning: it opened in 1932.", "it opened in 1932."),
    ("Correction: it opened in 1932.", "it opened in 1932."),
    ("From what I can see in the documents, it opened in 1932.", "it opened in 1932."),
    ("In conclusion, it opened in 1932.", "it opened in 1932."),
    ('The context says: "It opened in 1932."', "It opened in 1932."),
    ('\u201cIt opened in 1932.\u201d', "It opened in 1932."),
    ("It opened in 1932.\u00b9 It covers 3 km\u00b2.", "It opened in 1932. It covers 3 km\u00b2."),
])
def test_source_pointers_self_ratings_and_openers_are_blanked(text, read):
    out = blank_markup(text)
    assert len(out) == len(text) and " ".join(out.split()) == read


@pytest.mark.parametrize("text", [
    "It was described on page 4 of the report.",   # a page named in a sentence
    "It was (page 4 of the report).",              # words besides the pointer
    "Sure enough, it rained.",                     # "sure" without its comma
    "Confidence in the bank fell by 12%.",        # a claim about confidence
    "The tank holds 3 m\u00b3.",                    # a unit's power
    'He said "no" and left.',                        # quotes inside the answer
    '"A" and "B" are names.',
])
def test_pointers_and_openers_need_their_exact_form(text):
    assert blank_markup(text) == text


def test_superscript_footnotes_are_not_read_as_numbers():
    from guardrail.validate import clean_text

    assert clean_text("It opened in 1932.\u00b9 It covers 3 km\u00b2.") == "It opened in 1932.\u00b9 It covers 3 km2."


@pytest.mark.parametrize(("text", "read"), [
    ("| # | Detail |\n|---|---|\n| 1 | It opened in 1932 |\n| 2 | It spans 312 m |", "It opened in 1932 It spans 312 m"),
    ("| 1 | It opened in 1932 |\n| 2 | It spans 312 m |", "It opened in 1932 It spans 312 m"),
    # a column of values, and one that does not count 1, 2, ...: kept
    ("| Year | Staff |\n|---|---|\n| 1 | 5 |\n| 2 | 7 |", "1 , 5 2 , 7"),
    ("| # | Staff |\n|---|---|\n| 1 | 5 |\n| 3 | 7 |", "1 , 5 3 , 7"),
])
def test_a_row_number_column_is_not_read(text, read):
    out = blank_markup(text)
    assert len(out) == len(text) and " ".join(out.split()) == read


def test_a_one_more_thing_lead_in_is_blanked_and_its_offer_read_as_one() -> None:
    """"One more thing: let me know if you need the source." flipped 15 of 29 faithful answers it closed:
    the lead-in hid the offer of help; the statement after it is still read."""
    from guardrail import Guard

    text = "The bridge is 1,149 m long. One more thing: let me know if you need the source."
    assert blank_markup(text).split(".", 1)[1].strip() == "let me know if you need the source."
    assert blank_markup("One last thing: it closes at 6pm.").strip() == "it closes at 6pm."
    r = Guard().check(text, ["The Harbour Bridge is 1,149 metres long and opened in 1932."], log=False)
    assert r.passed
