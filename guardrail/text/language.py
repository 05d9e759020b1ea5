"""Is a text English? Function words first, a language model only for suspect texts.

The guard judges English text only; other languages get an abstain. Short answers are
the hard case: "Steve Jobs", "Le Louvre" or "Emrich Lichtenfeld" are English answers
made of foreign-looking names, while "Sí, fue fundada en 1976." is Spanish. The rule:

1. mostly non-Latin letters -> not English;
2. the *evidence words* are the lower-case words plus capitalised function words
   (names are capitalised, so they are no evidence either way). Fewer than three ->
   English (nothing to go on: "Yes.", "1976", "Steve Jobs", "Das Boot");
3. English-only function words ("the", "was", "of", ...) at least half as many as
   foreign ones (French, Spanish, German, Italian, Portuguese, Dutch) -> English;
4. otherwise the text is suspect, and `lingua <https://github.com/pemistahl/lingua-py>`_
   (bundled n-gram models, offline) decides: not English when it ranks another
   language first and gives English a confidence below 0.1.

Step 4 is reached by almost no English text (1 in 18,000 HaluEval QA and dialogue
answers), so the language models load only when a suspect text shows up, and only the
n-gram orders that text needs (lingua's own rule): a text of 120 characters or more reads
trigrams only (about 12 MB for the seven languages); a shorter one reads 1- to 5-grams
(about 180 MB, and several seconds to load). The models then stay for the process. A
low-accuracy detector (trigrams always) would keep it at 12 MB but changes the confidences
of short texts, hence the verdicts on some of them, so it is not used.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from guardrail._lazy import Lazy
from guardrail.text.lexicon import ENGLISH_ONLY_WORDS, FOREIGN_FUNCTION_WORDS

__all__ = ["looks_english", "latin_share"]

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_ASCII_LETTER = re.compile(r"[A-Za-z]")


#: Below this English confidence (and with another language ranked first) a suspect
#: text is not English.
ENGLISH_MIN_CONFIDENCE = 0.1


def latin_share(text: str) -> float:
    """Share of the letters of ``text`` that are Latin (1.0 when it has none)."""
    if text.isascii():  # every ASCII letter is Latin: no per-character loop
        return 1.0
    ascii_letters = len(_ASCII_LETTER.findall(text))
    other = [c for c in text if not c.isascii() and c.isalpha()]
    if not ascii_letters and not other:
        return 1.0
    latin = ascii_letters + sum(1 for c in other if "LATIN" in unicodedata.name(c, ""))
    return latin / (ascii_letters + len(other))


def _build_detector() -> Any:
    from lingua import Language, LanguageDetectorBuilder

    langs = (Language.ENGLISH, Language.FRENCH, Language.SPANISH, Language.GERMAN,
             Language.ITALIAN, Language.PORTUGUESE, Language.DUTCH)
    return LanguageDetectorBuilder.from_languages(*langs).build()


_DETECTOR: Lazy[Any] = Lazy(_build_detector)


def _detector() -> Any:
    return _DETECTOR.get()


def _lingua_says_english(text: str) -> bool:
    try:
        from lingua import Language
    except ImportError:  # pragma: no cover - lingua is a dependency; without it, trust the words
        return False
    det = _detector()
    values = det.compute_language_confidence_values(text[:2000])
    if not values:
        return True
    english = next((v.value for v in values if v.language == Language.ENGLISH), 0.0)
    return values[0].language == Language.ENGLISH or english >= ENGLISH_MIN_CONFIDENCE


def looks_english(text: str) -> bool:
    """Whether ``text`` is English enough to judge (see the module docstring for the rule).

    Parameters
    ----------
    text : str
        Any text; only its first 20,000 characters are read.

    Returns
    -------
    bool
        False for mostly non-Latin text and for text in French, Spanish, German, Italian,
        Portuguese or Dutch; True for English text and for text without evidence (names,
        numbers, one or two words).

    Examples
    --------
    >>> looks_english("No, it was founded in 1976.")
    True
    >>> looks_english("Emrich Lichtenfeld")
    True
    """
    text = text[:20_000]
    if latin_share(text) < 0.6:
        return False
    evidence = [w.lower() for w in _WORD.findall(text)
                if w[0].islower() or w.lower() in FOREIGN_FUNCTION_WORDS or w.lower() in ENGLISH_ONLY_WORDS]
    if len(evidence) < 3:
        return True
    english = sum(w in ENGLISH_ONLY_WORDS for w in evidence)
    foreign = sum(w in FOREIGN_FUNCTION_WORDS for w in evidence)
    if english and 2 * english >= foreign:
        return True
    return _lingua_says_english(text)
