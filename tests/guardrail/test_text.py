"""Input validation: wrong types raise typed errors; unusable values abstain."""

import pytest

from guardrail.errors import GuardrailError, InvalidInputError
from guardrail.text import clean_text, looks_english, split_sentences, validate_input


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
