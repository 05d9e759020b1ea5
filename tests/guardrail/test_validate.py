"""Input validation: wrong types raise typed errors; unusable values abstain."""

import pytest

from guardrail.errors import GuardrailError, InvalidInputError
from guardrail.text.sentences import split_sentences
from guardrail.validate import clean_text, is_degenerate, looks_english, size_reason, validate_input


@pytest.mark.parametrize(
    "answer, contexts, field",
    [(None, ["c"], "answer"), (3, ["c"], "answer"), ("a", 5, "contexts"), ("a", ["ok", 7], "contexts[1]"),
     ("a", b"bytes", "contexts")],
)
def test_wrong_types_raise_typed_error_naming_the_field(answer, contexts, field):
    with pytest.raises(InvalidInputError, match=field.replace("[", r"\[").replace("]", r"\]")) as info:
        validate_input(answer, contexts)
    assert isinstance(info.value, GuardrailError) and isinstance(info.value, ValueError)


def test_question_must_be_str():
    with pytest.raises(InvalidInputError, match="question"):
        validate_input("a", ["c"], question=["q"])


@pytest.mark.parametrize(
    "answer, contexts, reason",
    [("", ["ctx"], "empty answer"), ("  \n\t", ["ctx"], "empty answer"), ("An answer.", [], "empty context"),
     ("An answer.", ["   ", ""], "empty context"), ("An answer.", "", "empty context")],
)
def test_empty_inputs_abstain(answer, contexts, reason):
    assert validate_input(answer, contexts).abstain_reason == reason


def test_oversize_context_abstains():
    v = validate_input("Paris is in France.", ["word " * 250_000], max_context_chars=1_000_000)
    assert "max_context_chars" in v.abstain_reason


def test_non_english_abstains():
    assert "not English" in validate_input("東京は日本の首都です。", ["Tokyo is the capital."]).abstain_reason
    de = "Der Hund läuft schnell über die grüne Wiese und bellt laut bei jedem Vogel dort oben"
    assert not looks_english(de)
    assert looks_english("The dog runs quickly over the green meadow and barks at every bird up there")


def test_control_characters_are_replaced_without_moving_offsets():
    raw = "Paris\x00 is\x07 in France."
    cleaned = clean_text(raw)
    assert len(cleaned) == len(raw) and "\x00" not in cleaned and cleaned.index("France") == raw.index("France")
    assert validate_input(raw, ["Paris is in France."]).abstain_reason == ""


def test_single_string_context_is_one_passage():
    assert validate_input("a b", "one passage").contexts == ("one passage",)


def test_split_sentences_spans():
    text = "First one. Second one!  Third?"
    spans = split_sentences(text)
    assert [text[s:e] for s, e in spans] == ["First one.", "Second one!", "Third?"]


def test_lone_surrogates_become_replacement_characters_one_for_one():
    raw = "Paris\udfff is in \ud800France."
    cleaned = clean_text(raw)
    assert cleaned == "Paris\ufffd is in \ufffdFrance." and len(cleaned) == len(raw)
    cleaned.encode("utf-8")  # encodable now
    v = validate_input(raw, ["Paris is in France.\udfff"])
    assert v.abstain_reason == "" and v.contexts == ("Paris is in France.\ufffd",)
    assert clean_text("\U0001F600 ok") == "\U0001F600 ok"  # a real astral character is kept


def test_size_limits_are_checked_on_lengths_before_copying():
    assert size_reason("a" * 11, ["c"], max_answer_chars=10) == "answer longer than max_answer_chars=10"
    assert "max_passages=3" in size_reason("a", ["p"] * 4, max_passages=3)
    assert "max_passages=3" in size_reason("a", [("s", "r", "o")] * 4, max_passages=3)
    assert "max_context_chars=5" in size_reason("a", [("abc", "r", "ob")], max_context_chars=5)
    assert size_reason(None, 5) == ""  # types are validate_input's business
    v = validate_input("a" * 5_001, ["c"])
    assert "max_answer_chars=5000" in v.abstain_reason and v.answer == "a" * 5_001 and v.contexts == ()
    assert "max_passages=1000" in validate_input("a", ["p"] * 1_001).abstain_reason


def test_degenerate_text_abstains_and_prose_does_not():
    assert is_degenerate("a " * 100_000) and is_degenerate("the cat " * 5_000)
    assert "degenerate" in validate_input("Apple was founded in 1976.", ["a " * 100_000]).abstain_reason
    assert "degenerate" in validate_input("yes " * 300, ["Apple was founded in 1976."]).abstain_reason
    prose = " ".join(f"Company {i} was founded in {1900 + i} by its first chief executive." for i in range(60))
    assert not is_degenerate(prose) and not is_degenerate("a " * 100)


@pytest.mark.parametrize("answer", [
    "Yes.", "No.", "1976", "Steve Jobs", "No, it was founded in 1976.", "Le Louvre", "Los Angeles",
    "Das Boot", 'Emrich "Imi" Lichtenfeld', "mezzo-soprano", "Sébastien Buemi was born in 1988.",
    "No, Jorge Olguín is a writer.", "Die Meistersinger von Nürnberg and Iphigénie en Aulide are operas.",
    "Gilbert du Motier, Marquis de Lafayette", "in 1976", "The album was released in 2018.",
])
def test_short_english_answers_are_never_abstained(answer):
    assert looks_english(answer)
    assert validate_input(answer, ["Apple was founded in 1976 by Steve Jobs."]).abstain_reason == ""


@pytest.mark.parametrize("answer", [
    "Non, elle a été fondée en 1976.", "Il a été fondé par Steve Jobs.", "La tour Eiffel est à Paris.",
    "Sí, fue fundada en 1976.", "Fue fundada por Steve Jobs.", "El álbum salió en 2018.",
    "Nein, es wurde 1976 gegründet.", "Sie wurde von Steve Jobs gegründet.", "Die Firma liegt in Berlin.",
    "Le magazine a été créé en premier.", "La revista se publicó primero.",
])
def test_short_french_spanish_german_answers_abstain(answer):
    assert not looks_english(answer)
    assert "not English" in validate_input(answer, ["Apple was founded in 1976 by Steve Jobs."]).abstain_reason


def test_english_dev_answers_are_judged_as_english(halueval_qa_records):
    answers = [r[k] for r in halueval_qa_records for k in ("right_answer", "hallucinated_answer")]
    assert [a for a in answers if not looks_english(a)] == []
    assert all(looks_english(r["knowledge"]) for r in halueval_qa_records)


def test_split_sentences_keeps_decimals_abbreviations_and_initials():
    text = "It covers 2.3 km. The cache.ttl default is 300 s. Dr. Smith paid $1.4 billion! J. R. R. Tolkien. U.S. troops left."
    assert [text[s:e] for s, e in split_sentences(text)] == [
        "It covers 2.3 km.", "The cache.ttl default is 300 s.", "Dr. Smith paid $1.4 billion!",
        "J. R. R. Tolkien.", "U.S. troops left.",
    ]
    quoted = 'He said "Stop." Then left.\nNext'
    assert [quoted[s:e] for s, e in split_sentences(quoted)] == ['He said "Stop."', "Then left.", "Next"]
