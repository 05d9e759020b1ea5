"""Tokenised and lower-cased text: the rules of guardrail.text.surface, and verdicts that
do not depend on case or PTB tokenisation."""

from __future__ import annotations

import pytest

from guardrail.text.sentences import split_sentences
from guardrail.text.surface import detokenize


@pytest.mark.parametrize(("tokenised", "plain"), [
    ("the manager -lrb- 54 -rrb- left", "the manager (54) left"),
    ("a list -lsb- 1 -rsb- here", "a list [1] here"),
    ("he said `` no '' today", 'he said "no" today'),
    ("the club 's coach", "the club's coach"),
    ("it does n't work", "it doesn't work"),
    ("they 're here and we 've won", "they're here and we've won"),
    ("won 3 - 1 , then lost .", "won 3 - 1, then lost."),
    ("rose 5 % to $ 10 ; fell", "rose 5% to $10; fell"),
    ("Plain text, untouched.", "Plain text, untouched."),
])
def test_detokenize_rules(tokenised, plain):
    assert detokenize(tokenised) == plain


def test_tokenised_summary_splits_into_sentences():
    t = "arsenal have won 10 games this season . they have now reached the final . the club 's manager said so ."
    assert len(split_sentences(t)) == 3


def _tokenise(text: str) -> str:
    """A PTB-style, lower-cased copy of ``text`` (the SummaC / CNN-DM look)."""
    out = text.lower().replace("(", " -lrb- ").replace(")", " -rrb- ").replace("'s", " 's")
    for p in ".,;:!?":
        out = out.replace(p + " ", f" {p} ")
    if out.endswith("."):
        out = out[:-1] + " ."
    return " ".join(out.split())


CONTEXT = ("The Halden Viaduct (a stone railway bridge) crosses the Orla River near Mirsk. "
           "Construction began in 1871 and was completed in 1874. The viaduct's length is 312 metres.")


@pytest.mark.slow
@pytest.mark.parametrize(("answer", "ok"), [
    ("The viaduct was completed in 1874 and is 312 metres long.", True),
    ("The viaduct was completed in 1884 and is 312 metres long.", False),
    ("The viaduct's construction began in 1871.", True),
])
def test_verdict_does_not_depend_on_case_or_tokenisation(guard, answer, ok):
    plain = guard.check(answer, [CONTEXT])
    tok = guard.check(_tokenise(answer), [_tokenise(CONTEXT)])
    assert plain.passed is ok and tok.passed is ok
    assert tok.score == pytest.approx(plain.score, abs=0.15)


@pytest.mark.parametrize(("text", "expected"), [
    ("Past hosts included Jerry Lawler.Michael Gregory Mizanin (born 1980) is a wrestler.",
     ["Past hosts included Jerry Lawler.", "Michael Gregory Mizanin (born 1980) is a wrestler."]),
    ("It was released in 2008.The album sold well.", ["It was released in 2008.", "The album sold well."]),
    ("He won (in 1980).Then he retired, aged 40.", ["He won (in 1980).", "Then he retired, aged 40."]),
    ("Use System.Collections.Generic namespace. Then go.", ["Use System.Collections.Generic namespace.", "Then go."]),
    ("He moved to St.Louis in 1990.", ["He moved to St.Louis in 1990."]),
    ("The value is 2.3 and cache.ttl is set.", ["The value is 2.3 and cache.ttl is set."]),
])
def test_glued_sentences_split_and_dotted_names_do_not(text: str, expected: list[str]) -> None:
    assert [text[a:b] for a, b in split_sentences(text)] == expected


@pytest.mark.parametrize(("text", "parts"), [
    ("It was founded in 2011; it employs 340 people.", ["It was founded in 2011;", "it employs 340 people."]),
    ("Key points: founded in 2011 in Gothenburg; it employs 340 people; it sells robots to retailers.",
     ["Key points: founded in 2011 in Gothenburg;", "it employs 340 people;", "it sells robots to retailers."]),
    ("It has offices in Oslo; Bergen; Tromso.", ["It has offices in Oslo; Bergen; Tromso."]),  # a short-item list
    ("Growth was slow; profits rose sharply this year.", ["Growth was slow; profits rose sharply this year."]),
])
def test_semicolon_clauses_split_only_when_asked(text, parts):
    assert [text[a:b] for a, b in split_sentences(text, clauses=True)] == parts
    assert len(split_sentences(text)) == 1
