"""Tests of guardrail.extract.normalize (pure string functions, no model)."""

import pytest

from guardrail.errors import InvalidInputError
from guardrail.extract.normalize import content_tokens, normalize_label


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Steve Jobs", "steve jobs"),
        ("  The   Apple's ", "apple"),
        ("the Oberoi family's", "oberoi family"),
        ("its 1976 model,", "1976 model"),
        ("His   theory", "theory"),
        ("an American literary periodical", "american literary periodical"),
        ("Arthur’s Magazine", "arthur's magazine"),
        ("\"Quoted\"", "quoted"),
        ("1844–1846", "1844–1846"),
        ("$100", "$100"),
        ("50%", "50%"),
        ("which magazine", "magazine"),
        ("The", "the"),
        ("!!!", ""),
        ("", ""),
    ],
)
def test_normalize_label(text: str, label: str) -> None:
    assert normalize_label(text) == label


def test_normalize_label_is_idempotent() -> None:
    for text in ["The Nobel Prize's", "its Paris office", "A  B  c."]:
        once = normalize_label(text)
        assert normalize_label(once) == once


def test_normalize_label_rejects_non_str() -> None:
    with pytest.raises(InvalidInputError, match="int"):
        normalize_label(3)  # type: ignore[arg-type]


def test_content_tokens() -> None:
    assert content_tokens("Steve Jobs founded Apple in 1976. It isn't") == [
        "steve", "jobs", "founded", "apple", "1976",
    ]
    assert content_tokens("Yes, it is.") == []
    with pytest.raises(InvalidInputError, match="NoneType"):
        content_tokens(None)  # type: ignore[arg-type]
