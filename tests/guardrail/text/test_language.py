"""latin_share: the ASCII fast path and the mixed-script count equal the per-letter rule; the
two lingua passes decide as the full models alone."""

from __future__ import annotations

import random
import unicodedata

import pytest

from guardrail.text import language
from guardrail.text.language import latin_share, looks_english


def _per_letter(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 1.0
    return sum("LATIN" in unicodedata.name(c, "") for c in letters) / len(letters)


def test_latin_share_equals_the_per_letter_rule():
    alphabet = "abcXYZ 19,.-'éçñßøİıαβγдж中文ー日本ا٣\u00a0\u2019"
    rng = random.Random(0)
    texts = ["", "1976.", "Steve Jobs", "Café Müller", "中文 and English", "Москва", "...", "\u00aa\u00ba"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))) for _ in range(300)]
    for t in texts:
        assert latin_share(t) == _per_letter(t), t


def test_script_rule_still_decides():
    assert not looks_english("Москва является столицей России и крупнейшим городом страны.")
    assert looks_english("Apple was founded in 1976 by Steve Jobs.")


# ---------------------------------------------------------------- two lingua passes (issue 27)
def _full_models_say_english(text: str) -> bool:
    first, english = language._english_confidence(language._detector(), text[:2000])
    return first or english >= language.ENGLISH_MIN_CONFIDENCE


@pytest.mark.parametrize("text", [
    "Irving Cummings adopted French nationality in 1928.", "Christopher Robin appears in books.",
    "Erin Gray played a role in \"Three's Company\".", "ingredients in beer",
])
def test_suspect_english_texts_are_settled_by_the_trigram_models(monkeypatch, text):
    def no_full_models() -> None:
        raise AssertionError("the full lingua models were loaded")

    monkeypatch.setattr(language, "_detector", no_full_models)
    assert language._lingua_says_english(text) and looks_english(text)


@pytest.mark.parametrize("text", [
    # foreign texts, and English ones the trigrams do not call English (foreign titles)
    "Sí, fue fundada en 1976.", "La tour Eiffel est à Paris.", "Sie wurde von Steve Jobs gegründet.",
    "Ha vinto il premio Nobel nel 2010.", "Ela escreveu três romances antes de morrer.", "Ja, dat klopt.",
    "capitale de la France", "Carol Christensen wrote Como agua para chocolate",
    "Umberto Eco wrote Storia della bellezza", "Famicom go on sale", "Henri Leconte won more Grand Slam titles.",
    "Der Freischütz premiered before Orfeo ed Euridice.", "Il pendolo di Foucault and Il pendolo di Foucault .",
])
def test_two_passes_decide_as_the_full_models(text):
    assert language._lingua_says_english(text) == _full_models_say_english(text)
