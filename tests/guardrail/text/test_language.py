"""latin_share: the ASCII fast path and the mixed-script count equal the per-letter rule."""

from __future__ import annotations

import random
import unicodedata

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
