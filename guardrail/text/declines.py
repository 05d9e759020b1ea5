"""Answers that decline to answer ("I don't know.", "The context does not say.").

A declined answer states no fact, so it cannot hallucinate one: the guard reports it as
``GuardResult.declined`` instead of judging it (:class:`~guardrail.Guard`). The test is
conservative: every sentence of the answer must be a decline (or a polite opener such as
"Sorry."), and a decline is a known *phrase* at the start of its sentence ("I do not know",
"the provided context does not mention", "there is no information", "I cannot answer"),
never a single word, so "Curie did not win in 1921" or "The answer is no." are answers.
What follows the phrase may only name what is not known ("... does not say when the bridge
opened"); a sentence that goes on to assert something ("I'm not sure, but it was 1921",
"I don't know; it opened in 1932", "I'm not sure it was 1921") is not a decline. The
phrase lists live in :mod:`guardrail.text.lexicon`.

The module also holds the verifier's per-sentence rule, :func:`non_answer_sentence`: which
sentences of an answer carry nothing to verify and are left out of its score. The two tests
differ on purpose, because a mistake costs differently:

* :func:`is_declined` labels a *whole answer* that then passes unjudged (no detector, no KB).
  A false decline lets a hallucination through, so it needs a known decline phrase, and it
  accepts what a decline may go on to name ("I don't know what it's about.").
* :func:`non_answer_sentence` drops *one sentence* from the verifier's score while the
  answer's other sentences are still scored. It is a closed word list: a sentence is dropped
  only when every word is a decline word, so anything that may carry a claim ("I don't know
  what it's about.", "No, I don't think he was the first.") is scored, while short
  pleasantries made of those words ("Sorry about that.", "I'm sure.") are dropped.

Making either one the other changes verdicts: the word list would label "I'm sure." a
declined answer, and the phrase rule would drop "I don't know much about him" from the
score of a two-sentence dialogue answer of the demo sample.
"""

from __future__ import annotations

import re
from functools import lru_cache

from guardrail.text import lexicon as lx
from guardrail.text.sentences import split_sentences

__all__ = ["is_declined", "declined_sentence", "non_answer_sentence", "question_sentence", "source_decline_sentence",
           "pleasantry_sentence", "meta_sentence", "verdict_fragment",
           "normalize_decline_text",
           "MAX_DECLINE_CHARS"]

#: Longer answers are never read as declines (a decline is short; this bounds the work too).
MAX_DECLINE_CHARS = 600

_CONTRACTIONS = (
    (re.compile(r"\bcan'?t\b|\bcan not\b"), "cannot"), (re.compile(r"\bwon'?t\b"), "will not"),
    (re.compile(r"n't\b"), " not"), (re.compile(r"\b(?:dont|doesnt|didnt|isnt|arent)\b"), lambda m: m[0][:-1] + " not"),
    (re.compile(r"\bi'?m\b"), "i am"), (re.compile(r"\b(it|there|that)'s\b"), r"\1 is"),
    (re.compile(r"'re\b"), " are"), (re.compile(r"'ve\b"), " have"), (re.compile(r"'ll\b"), " will"),
    (re.compile(r"'d\b"), " would"),
)
_WORD = re.compile(r"[\w/]+")
_ASCII_WORD = re.compile(r"[a-z0-9]+")
_ALT = "|".join


def normalize_decline_text(text: str) -> str:
    """Lower-cased ``text`` with curly quotes and contractions spelled out ("I'm" -> "i am",
    "don't" -> "do not", "can't" -> "cannot") and white space collapsed.

    Examples
    --------
    >>> normalize_decline_text("I don’t know, I'm afraid.")
    'i do not know, i am afraid.'
    """
    out = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    for pattern, repl in _CONTRACTIONS:
        out = pattern.sub(repl, out)
    return " ".join(out.split())


def _words(options: tuple[str, ...]) -> str:
    return _ALT(r"\s+".join(map(re.escape, o.split())) for o in sorted(options, key=len, reverse=True))


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """(preamble, source heads, self heads, short answers), compiled once."""
    src = (r"(?:(?:the|this|these|that|my|your|any|all)\s+)?(?:(?:provided|given|retrieved|available|above|"
           rf"supplied|following|relevant|attached)\s+)*(?:{_words(lx.DECLINE_SOURCES)})")
    adv = r"(?:\w+ly\s+)?"
    neg = r"(?:does|do|did|will|has|have|is|are)\s+not|cannot"
    noun = r"(?:information|mention|details?|answer|reference)"
    source_heads = [
        rf"{src}\s+(?:{neg})\s+{adv}(?:{_words(lx.DECLINE_SOURCE_VERBS)})",
        rf"{src}\s+(?:provides?|gives?|contains?|includes?|has|mentions?|offers?|says?)\s+"
        rf"(?:nothing|no\s+(?:\w+\s+)?{noun})",
        rf"{src}\s+(?:is|are)\s+(?:silent|unclear|not\s+clear)",
        rf"nothing\s+in\s+{src}\s+(?:says|mentions|states|indicates|specifies)",
        rf"there\s+(?:is|are|was|were)\s+nothing\s+(?:in|within)\s+{src}",
    ]
    self_heads = [
        r"i\s+(?:\w+ly\s+)?(?:do|did)\s+not\s+(?:know|have\s+(?:enough\s+|sufficient\s+|any\s+|the\s+|that\s+|"
        r"much\s+|more\s+|further\s+)?"
        r"(?:information|data|details|answer|knowledge|context))",
        r"i\s+am\s+(?:not\s+(?:sure|certain|aware)|unsure|uncertain)",
        r"i\s+(?:cannot|could\s+not|am\s+(?:not\s+able|unable)\s+to|was\s+(?:not\s+able|unable)\s+to|"
        rf"(?:will|would)\s+not\s+be\s+able\s+to)\s+{adv}(?:{_words(lx.DECLINE_SELF_VERBS)})",
        r"i\s+have\s+no\s+(?:idea|information|knowledge|details|way\s+(?:of|to)\s+\w+)",
        rf"there\s+(?:is|are|was|were)\s+(?:no|not\s+enough|insufficient|not\s+any)\s+"
        rf"(?:relevant\s+|specific\s+|such\s+)?{noun}",
        r"(?:the\s+)?answer\s+(?:is\s+not|cannot\s+be)\s+(?:\w+\s+)?(?:found|given|provided|stated|"
        r"mentioned|determined|known|available|included|in)",
        r"it\s+is\s+(?:not\s+(?:known|clear|stated|mentioned|specified|possible\s+to\s+(?:say|tell|"
        r"determine|know|answer))|unknown|unclear|impossible\s+to\s+(?:say|tell|determine|know|answer))",
        r"(?:this|that|such|the\s+requested|the)\s+information\s+(?:is\s+not|was\s+not|cannot\s+be)\s+"
        r"(?:\w+\s+)?(?:available|provided|given|included|mentioned|stated|found|in|specified|present)",
        r"(?:this|the|your)\s+question\s+cannot\s+be\s+answered",
        r"(?:no|not\s+enough|insufficient)\s+(?:relevant\s+)?information\s+(?:is\s+|was\s+)?"
        r"(?:available|given|provided|found|included)",
    ]
    pre = re.compile(rf"^(?:{_words(lx.DECLINE_PREAMBLES)})\b\s*[,.!:;-]*\s*(?:but\s+|and\s+)?")
    return (pre, re.compile(rf"^(?:{_ALT(source_heads)})\b"), re.compile(rf"^(?:{_ALT(self_heads)})\b"),
            re.compile(rf"^(?:{_words(lx.DECLINE_SHORT)})$"))


_PLEASE = re.compile(r"^(?:please\s+)?(?:provide|share|give)\s+(?:me\s+)?(?:more|additional|further)\s+"
                     r"(?:context|information|details)\b[^,;:]*$")
_ASSERTING_AND = frozenset("it he she they there this that the its their his her we i".split())


def _tail_ok(tail: str, *, that_ok: bool) -> bool:
    """Whether what follows a decline phrase only names what is not known."""
    if not tail:
        return True
    if any(ch in tail for ch in ",;:()\""):
        return False
    words = _WORD.findall(tail)
    if any(w in lx.DECLINE_BREAK_WORDS for w in words):
        return False
    if any(a == "and" and b in _ASSERTING_AND for a, b in zip(words, words[1:])):
        return False
    topics = lx.DECLINE_TOPIC_WORDS | ({"that"} if that_ok else set())
    for w in words:
        if w in topics:
            return True  # the rest is what the answer does not know
        if w in lx.DECLINE_CLAUSE_VERBS:
            return False  # a clause of its own before any topic word: an assertion
    return True


def declined_sentence(sentence: str) -> str:
    """``"decline"``, ``"filler"`` (an opener or a request for more context) or ``"other"``.

    ``sentence`` is one sentence, already passed through :func:`normalize_decline_text`.
    """
    pre, source, self_, short = _patterns()
    s = sentence.strip().rstrip(".!?").strip()
    while True:  # "Sorry, but based on the context, ..."
        m = pre.match(s)
        if not m or m.end() == 0:
            break
        s = s[m.end():].strip()
    if not s or _PLEASE.match(s):
        return "filler"
    if short.match(s):
        return "decline"
    for pattern, that_ok in ((source, True), (self_, False)):
        m = pattern.match(s)
        if m and _tail_ok(s[m.end():].strip(), that_ok=that_ok):
            return "decline"
    return "other"


def is_declined(answer: str) -> bool:
    """Whether ``answer`` as a whole declines to answer.

    Every sentence is a decline or a filler (:func:`declined_sentence`) and at least one
    is a decline; answers longer than :data:`MAX_DECLINE_CHARS` never are.

    Examples
    --------
    >>> is_declined("I don't know.")
    True
    >>> is_declined("Sorry, the provided context does not mention when the bridge opened.")
    True
    >>> is_declined("Marie Curie did not win a prize in 1921.")
    False
    >>> is_declined("I'm not sure, but I think it was 1921.")
    False
    """
    if not isinstance(answer, str) or len(answer) > MAX_DECLINE_CHARS:
        return False
    text = normalize_decline_text(answer)
    kinds = [declined_sentence(text[a:b]) for a, b in split_sentences(text)]
    return "decline" in kinds and "other" not in kinds


def non_answer_sentence(sentence: str) -> bool:
    """Whether one sentence of an answer only declines, so the verifier leaves it out of the score.

    True when the sentence holds a word of :data:`~guardrail.text.lexicon.NON_ANSWER_WORDS`
    ("know", "sure", "sorry", "idea", ...) and no word outside it and
    :data:`~guardrail.text.lexicon.DECLINE_WORDS` (see the module docstring for why this is
    not :func:`declined_sentence`). A bare "Yes." or "No." is not one (left to the
    verifier), nor is a hedged statement.

    Parameters
    ----------
    sentence : str
        One sentence, as written (lower-cased here; words are ASCII letters and digits).

    Examples
    --------
    >>> non_answer_sentence("Sorry, I'm not sure.")
    True
    >>> non_answer_sentence("No, I don't think he was the first.")
    False
    >>> non_answer_sentence("I don't know what it's about.")
    False
    """
    words = _ASCII_WORD.findall(sentence.lower())
    return any(w in lx.NON_ANSWER_WORDS for w in words) and all(
        w in lx.DECLINE_WORDS or w in lx.NON_ANSWER_WORDS for w in words)


def pleasantry_sentence(sentence: str) -> bool:
    """Whether one sentence of an answer is a pleasantry around it, which states no fact.

    True when the sentence holds a word of :data:`~guardrail.text.lexicon.PLEASANTRY_HEADS`
    ("hope", "glad", "great", "welcome", ...) and no word outside those lists,
    :data:`~guardrail.text.lexicon.PLEASANTRY_WORDS`,
    :data:`~guardrail.text.lexicon.DECLINE_WORDS` and
    :data:`~guardrail.text.lexicon.NON_ANSWER_WORDS` (a closed list, as for
    :func:`non_answer_sentence`). The verifier leaves it out of the answer's score; an answer
    made only of pleasantries ("You are welcome.") states nothing and is not flagged for it.

    Parameters
    ----------
    sentence : str
        One sentence, as written.

    Examples
    --------
    >>> pleasantry_sentence("Let me know if you need anything else!")
    True
    >>> pleasantry_sentence("Great, it was founded in 2011.")
    False
    """
    words = _ASCII_WORD.findall(sentence.lower())
    return any(w in lx.PLEASANTRY_HEADS for w in words) and all(
        w in lx.PLEASANTRY_WORDS or w in lx.DECLINE_WORDS or w in lx.NON_ANSWER_WORDS for w in words)


#: Polar words that make a sentence a verdict, not framing ("The answer is no."); "not" may frame
#: ("The documents may not cover every case.").
_VERDICT_POLAR = lx.POLAR_WORDS - {"not"}


def meta_sentence(sentence: str) -> bool:
    """Whether one sentence of an answer is about the answer or the assistant, not the world.

    True when the sentence holds a word of :data:`~guardrail.text.lexicon.META_HEADS` ("I",
    "AI", "assistant", "here", "summary", "answer", ...) and no word outside those lists,
    :data:`~guardrail.text.lexicon.META_WORDS`, :data:`~guardrail.text.lexicon.PLEASANTRY_WORDS`,
    :data:`~guardrail.text.lexicon.DECLINE_WORDS` and :data:`~guardrail.text.lexicon.NON_ANSWER_WORDS`
    (a closed list, as for :func:`pleasantry_sentence`). LLM answers open with such framing ("As
    an AI assistant, I can only go by the documents you shared.", "Here is a summary of the
    relevant information."); scored against the evidence it read as unsupported (p near 0) and
    flagged every faithful answer it opened. The verifier leaves it out of the score, as it does
    pleasantries; a sentence with a name, a number, a polar word ("The answer is no.": a verdict)
    or any other content word is scored, and a decline (:func:`non_answer_sentence`) is not one.

    Parameters
    ----------
    sentence : str
        One sentence, as written.

    Returns
    -------
    bool
        Whether the sentence only frames the answer.

    Examples
    --------
    >>> meta_sentence("As an AI assistant, I can only go by the documents you shared.")
    True
    >>> meta_sentence("Here is a summary of the relevant information.")
    True
    >>> meta_sentence("Here is the answer: Norvik was founded in 2011.")
    False
    """
    words = _ASCII_WORD.findall(sentence.lower())
    if non_answer_sentence(sentence):  # "I don't know.": a decline, not framing
        return False
    return any(w in lx.META_HEADS for w in words) and not any(w in _VERDICT_POLAR for w in words) and all(
        w in lx.META_WORDS or w in lx.META_HEADS or w in lx.PLEASANTRY_WORDS or w in lx.DECLINE_WORDS
        or w in lx.NON_ANSWER_WORDS for w in words)


_QUESTION_OPENERS = frozenset(
    "do does did have has had is are was were will would can could should shall may might must "
    "what which who whom whose when where why how any anything".split())


def question_sentence(sentence: str) -> bool:
    """Whether one sentence of an answer is a question put to the user, which states no fact.

    True when the sentence ends with ``?`` (closing quotes and brackets aside) and opens with
    an auxiliary or a wh-word ("Have you read them?", "Would you like more suggestions?",
    "Is there anything else?"). A statement with a tag question ("He wrote Rumble Fish, have
    you read it?", "Impressive, right?") opens with its subject and is not one. The verifier
    leaves such questions out of an answer's score when the answer states something else
    (a dialogue response's "Do you like that genre?" is no claim), and scores them as before
    when it does not.

    Parameters
    ----------
    sentence : str
        One sentence, as written.

    Examples
    --------
    >>> question_sentence("Would you like more suggestions?")
    True
    >>> question_sentence("He also wrote Rumble Fish, have you read it?")
    False
    """
    text = sentence.strip().rstrip("\"')]\u201d\u2019 ")
    words = _ASCII_WORD.findall(text[:40].lower())
    return text.endswith("?") and bool(words) and words[0] in _QUESTION_OPENERS


#: Most words of a :func:`verdict_fragment`.
VERDICT_MAX_WORDS = 3


def verdict_fragment(sentence: str) -> bool:
    """Whether one sentence of an answer is a bare verdict or reaction that a later sentence spells out.

    True for a sentence of 1 to :data:`VERDICT_MAX_WORDS` words, each a word of
    :data:`~guardrail.text.lexicon.VERDICT_WORDS`, :data:`~guardrail.text.lexicon.DECLINE_WORDS`
    or :data:`~guardrail.text.lexicon.NON_ANSWER_WORDS` ("No.", "Sadly no.", "Partly!", "Not
    really!", "It was!"); not "Paris.", "It is red." or "Shockingly short!" (a content word:
    the answer itself). Read without the question, a bare verdict gives the verifier nothing
    to check, so its score was noise (p 0.00 for "Partly!" before a supported sentence). The
    verifier leaves it out of an answer's score when another sentence states something, and
    scores it as before when it is the whole answer.

    Parameters
    ----------
    sentence : str
        One sentence, as written.

    Returns
    -------
    bool
        Whether the sentence is a bare verdict.

    Examples
    --------
    >>> verdict_fragment("Sadly no.")
    True
    >>> verdict_fragment("It is red.")
    False
    >>> verdict_fragment("Paris.")
    False
    """
    words = [w.lower().replace("\u2019", "'") for w in re.findall(r"[^\W_]+(?:['\u2019][^\W_]+)?", sentence)]
    return 0 < len(words) <= VERDICT_MAX_WORDS and all(
        w in lx.VERDICT_WORDS or w in lx.DECLINE_WORDS or w in lx.NON_ANSWER_WORDS for w in words)


#: A sentence about what the *retrieved text* holds: its subject is the context, not the world.
_SOURCE_SUBJECT = re.compile(
    r"^(?:note:?\s*)?(?:(?:the|these|this|those|your)\s+)?(?:provided\s+|given\s+|retrieved\s+|above\s+)?"
    r"(?:context|contexts|documents?|passages?|text|sources?|information|articles?|excerpts?)\b"
    r"|^(?:note:?\s*)?there\s+is\s+no\s+(?:information|mention|detail|data)\b"
    r"|^(?:note:?\s*)?no\s+(?:information|details?)\b")


def source_decline_sentence(sentence: str) -> bool:
    """Whether one sentence of an answer says only what the retrieved text does not hold.

    True for a decline (:func:`declined_sentence`: a known phrase, then only what is not
    known) whose subject is the context ("The context does not say how many of them are
    engineers.", "Note: the documents do not specify the fee.", "There is no information
    about her age."). Such a sentence states nothing about the world, so the verifier leaves
    it out of the score of an answer that states something else; a decline by the writer ("I
    don't know much about him.") is not one (it stays scored; see the module docstring).

    Parameters
    ----------
    sentence : str
        One sentence, as written.

    Examples
    --------
    >>> source_decline_sentence("The passage does not state when it was founded.")
    True
    >>> source_decline_sentence("I don't know much about him.")
    False
    """
    text = normalize_decline_text(sentence)
    if _SOURCE_SUBJECT.match(text) is None:
        return False
    return declined_sentence(re.sub(r"^note:?\s*", "", text)) == "decline"
