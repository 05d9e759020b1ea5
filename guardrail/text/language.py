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
   (bundled n-gram models, offline) decides in two passes:

   a. its trigram models alone (lingua's low-accuracy mode, about 14 MB for the seven
      languages, 0.2 s to load): English when they rank English first with a confidence
      of at least :data:`TRIGRAM_ENGLISH_CONFIDENCE`;
   b. otherwise its full models: not English when they rank another language first and
      give English a confidence below :data:`ENGLISH_MIN_CONFIDENCE`.

About 1 % of English answers are suspect (71 of the 8,000 right answers of HaluEval QA's
development split, 76 of the 8,000 dialogue responses). Of the 3,737 distinct suspect texts of
the development data (HaluEval, QAGS, the claim sets, NLI pairs, the shipped samples), pass
(a) settles 3,074 (82 %), each with the decision of pass (b): no text that pass (b) reads as
foreign had a trigram English confidence above 0.4. Pass (b) loads the n-gram orders a text needs
(lingua's own rule): trigrams only for a text of 120 characters or more (the models of pass
(a)); 1- to 5-grams for a shorter one (about 180 MB more and several seconds to load, then
kept for the process). So the full models load only for suspect short texts that the
trigrams do not call English: foreign answers, and English ones made mostly of foreign
titles ("Carol Christensen wrote Como agua para chocolate"). The trigram confidences alone
are not the verdict (they call 262 of the 3,737 English or not differently).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from guardrail._lazy import Lazy
from guardrail.text.lexicon import ENGLISH_ONLY_WORDS, FOREIGN_FUNCTION_WORDS

__all__ = ["looks_english", "latin_share", "ENGLISH_MIN_CONFIDENCE", "TRIGRAM_ENGLISH_CONFIDENCE"]

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_ASCII_LETTER = re.compile(r"[A-Za-z]")


#: Below this English confidence (and with another language ranked first) a suspect
#: text is not English.
ENGLISH_MIN_CONFIDENCE = 0.1
#: A suspect text ranked English by lingua's trigram models with at least this confidence
#: is English without the full models (the highest such confidence among the development
#: texts the full models read as foreign was 0.40).
TRIGRAM_ENGLISH_CONFIDENCE = 0.5


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


def _build_detector(low_accuracy: bool = False) -> Any:
    from lingua import Language, LanguageDetectorBuilder

    langs = (Language.ENGLISH, Language.FRENCH, Language.SPANISH, Language.GERMAN,
             Language.ITALIAN, Language.PORTUGUESE, Language.DUTCH)
    builder = LanguageDetectorBuilder.from_languages(*langs)
    return (builder.with_low_accuracy_mode() if low_accuracy else builder).build()


#: The full detector (pass b); its models are shared with :data:`_TRIGRAMS` (lingua keeps
#: one copy per language and n-gram order).
_DETECTOR: Lazy[Any] = Lazy(_build_detector)
#: The trigram-only detector (pass a).
_TRIGRAMS: Lazy[Any] = Lazy(lambda: _build_detector(low_accuracy=True))


def _detector() -> Any:
    return _DETECTOR.get()


def _english_confidence(det: Any, text: str) -> tuple[bool, float]:
    """``(English ranked first, English confidence)`` of ``det`` on ``text``; ``(True, 1.0)``
    when lingua finds nothing to go on."""
    from lingua import Language

    values = det.compute_language_confidence_values(text)
    if not values:
        return True, 1.0
    english = next((v.value for v in values if v.language == Language.ENGLISH), 0.0)
    return values[0].language == Language.ENGLISH, english


def _lingua_says_english(text: str) -> bool:
    try:
        import lingua  # noqa: F401
    except ImportError:  # pragma: no cover - lingua is a dependency; without it, trust the words
        return False
    text = text[:2000]
    first, english = _english_confidence(_TRIGRAMS.get(), text)
    if first and english >= TRIGRAM_ENGLISH_CONFIDENCE:
        return True
    first, english = _english_confidence(_detector(), text)
    return first or english >= ENGLISH_MIN_CONFIDENCE


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
