"""Text utilities shared by every step: sentences, the word lexicon, the lexical index, language.

* :mod:`guardrail.text.sentences`: sentence spans (punctuation rule).
* :mod:`guardrail.text.lexicon`: stop, function and polar word lists.
* :mod:`guardrail.text.lexical`: numbers, content words and lexical shortlists.
* :mod:`guardrail.text.language`: is a text English enough to judge.
* :mod:`guardrail.text.markup`: answer markup (Markdown, lists, citations) blanked, offsets kept.
"""

from guardrail.text.sentences import ABBREVIATIONS, split_sentences

__all__ = ["ABBREVIATIONS", "split_sentences"]
