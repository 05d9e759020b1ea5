"""Sentence-initial anaphors in the sentence view (issue 23, item 4): plain strings, no model."""

from __future__ import annotations

import pytest

from guardrail.align.claims import Evidence
from guardrail.align.views import MAX_ANTECEDENTS, claim_views, resolve_opener, resolved_sentences, view_texts

NORVIK = ["Norvik Robotics is a Swedish maker of warehouse robots founded in 2011 in Gothenburg.",
          "The company employs 340 people.",
          "Its chief executive officer is Ingrid Halvorsen, who took over from the founder Lars Ek in 2019.",
          "The chief technology officer, Mats Lundqvist, leads the research team in Malmo."]


@pytest.mark.parametrize(("prev", "sent", "read"), [
    ("Norvik Robotics builds robots.", "Its CEO is Ingrid Halvorsen.", "Norvik Robotics's CEO is Ingrid Halvorsen."),
    ("Helium was first seen in 1868.", "It was isolated in 1895.", "Helium was isolated in 1895."),
    ("Iriarte, 21, won seven matches.", "He served 19 aces.", "Iriarte served 19 aces."),
    ("Fenella Drury was a novelist.", "Her first novel appeared in 1931.", "Fenella Drury's first novel appeared in 1931."),
    ("Tamsin Copper runs a mine.", "The company plans to grow.", "Tamsin Copper plans to grow."),
    ("The lake formed as the ice withdrew.", "It now covers 1.9 square kilometres.", "The lake now covers 1.9 square kilometres."),
    ("The Lanterns of Sarn is a festival.", "It began in 1896.", "The Lanterns of Sarn began in 1896."),
])
def test_an_opening_anaphor_becomes_the_name_that_opens_the_previous_sentence(prev: str, sent: str,
                                                                              read: str) -> None:
    assert resolve_opener(1, [prev, sent]) == read
    assert resolve_opener(1, [prev, sent], [3, 3]) == read


@pytest.mark.parametrize(("prev", "sent"), [
    ("Norvik Robotics builds robots.", "Ingrid Halvorsen runs it."),  # not an opening anaphor
    ("Norvik Robotics builds robots.", "In 2019 it hired Ingrid Halvorsen."),  # "it" inside the sentence
    ("Norvik Robotics builds robots.", "Italy is its largest market."),  # "It" as part of a word
    ("Norvik Robotics builds robots.", "Items ship from Malmo."),
    ("On 16 September we sent an email to all staff.", "It claimed to be from Payroll."),  # no opening name
    ("The trilogy's second volume won a prize.", "She turned down a doctorate."),  # "she" is no trilogy
    ("The growth came from grocery chains.", "The company opened an office in Berlin."),  # nor "the company" a growth
])
def test_other_sentences_are_read_as_they_are(prev: str, sent: str) -> None:
    assert resolve_opener(1, [prev, sent]) == sent


def test_no_previous_sentence_and_no_crossing_into_another_passage() -> None:
    assert resolve_opener(0, ["Its CEO is Ingrid Halvorsen."]) == "Its CEO is Ingrid Halvorsen."
    two = ["Norvik Robotics builds robots.", "Its CEO is Ingrid Halvorsen."]
    assert resolve_opener(1, two, [0, 1]) == two[1]


def test_it_steps_back_over_anaphors_within_the_limit() -> None:
    assert MAX_ANTECEDENTS == 2
    assert resolve_opener(2, NORVIK, [0, 0, 0, 0]) == ("Norvik Robotics's chief executive officer is Ingrid Halvorsen,"
                                                       " who took over from the founder Lars Ek in 2019.")
    chain = ["Norvik Robotics builds robots.", "It was founded in 2011.", "It employs 340 people.", "Its CEO is Ek."]
    assert resolve_opener(2, chain) == "Norvik Robotics employs 340 people."
    assert resolve_opener(3, chain) == chain[3]  # the name is three sentences back
    assert resolve_opener(2, chain, [0, 1, 1, 1]) == chain[2]  # the name lies in another passage


def test_only_the_sentence_view_reads_resolved_sentences() -> None:
    ev = Evidence(text=" ".join(NORVIK[:3]), units=(0, 1, 2), best=1)
    passage, sentence, window = view_texts(ev, NORVIK, ("passage", "sentence", "window"), [0, 0, 0, 0])
    assert passage == (ev.text,) and window == (" ".join(NORVIK[:3]),)
    assert sentence == ("Norvik Robotics employs 340 people.",)
    assert view_texts(ev, NORVIK, ("sentence",), [0, 0, 0, 0], antecedents=False) == [(NORVIK[1],)]


def test_the_best_sentence_by_overlap_once_resolved_is_a_further_candidate() -> None:
    claims = ["The CEO of Norvik Robotics is Ingrid Halvorsen.", "Norvik Robotics was founded in 2011."]
    evs = [Evidence(text=NORVIK[0], units=(0,), best=0)] * 2
    assert resolved_sentences(claims, evs, NORVIK, [0, 0, 0, 0]) == [2, -1]
    assert resolved_sentences(claims, [Evidence(text="", units=(), best=-1)] * 2, NORVIK, None) == [-1, -1]
    assert resolved_sentences(claims, evs, NORVIK, [0, 1, 2, 3]) == [-1, -1]  # nothing resolves across passages
    sentence = view_texts(evs[0], NORVIK, ("sentence",), [0, 0, 0, 0], resolved=2)[0]
    assert sentence == (NORVIK[0], "Norvik Robotics's chief executive officer is Ingrid Halvorsen, who took over from"
                                   " the founder Lars Ek in 2019.")
    assert view_texts(evs[0], NORVIK, ("sentence",), None, closest=2, resolved=2)[0] == sentence  # no duplicate


def test_claim_views_resolve_passages_but_not_knowledge_base_facts() -> None:
    claim = ["The CEO of Norvik Robotics is Ingrid Halvorsen."]
    _, texts = claim_views(claim, NORVIK, [0, 0, 0, 0], 170, ("sentence",))
    assert any(t.startswith("Norvik Robotics's chief executive officer") for t in texts[0][0])
    facts = ["Norvik Robotics is in Gothenburg.", "Its CEO is Ingrid Halvorsen."]  # one short fact per passage
    _, texts = claim_views(claim, facts, [0, 1], 170, ("sentence",))
    assert all(not t.startswith("Norvik Robotics's") for t in texts[0][0])


def test_header_lines_are_no_antecedent_and_no_neighbour():
    from guardrail.align.views import _window
    from guardrail.text.structure import Header

    sents = [Header("Career"), "She designed the Kista Public Library.", Header("Awards"), "She won one."]
    assert resolve_opener(1, sents) == sents[1]  # "Career designed ..." would be wrong
    assert _window(Evidence(text=sents[3], units=(3,), best=3), sents, None) == f"{sents[1]} {sents[3]}"
    named = ["Marta Oyelaran is an architect.", Header("Career"), "She designed the Kista Public Library."]
    assert resolve_opener(2, named) == "Marta Oyelaran designed the Kista Public Library."
