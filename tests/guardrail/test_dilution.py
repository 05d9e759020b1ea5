"""Issue 23, item 4: more retrieved passages cannot dilute a claim's evidence.

A claim is judged against the passage that covers its names, numbers and words best, plus
sentences elsewhere that hold claim names or numbers that passage lacks; adding unrelated
passages must never turn a flagged wrong answer into a pass. Real spaCy, the real shipped
verifier and the default :class:`~guardrail.Guard`; the company passages are invented here,
the Zilpo record is HaluEval QA record 14 of the shipped head.
"""

from __future__ import annotations

import pytest

from guardrail import Guard
from guardrail.align.claims import context_sentences, select_evidence
from tests.conftest import load_halueval_qa_head

pytestmark = pytest.mark.slow

#: Four passages about one invented company, as a retriever returns them.
NORVIK = [
    "Norvik Robotics is a Swedish maker of warehouse robots founded in 2011 in Gothenburg. "
    "The company employs 340 people. Its chief executive officer is Ingrid Halvorsen, who took over from "
    "the founder Lars Ek in 2019. The chief technology officer, Mats Lundqvist, leads the research team in Malmo.",
    "Norvik's flagship product is the Atlas lifter, an autonomous pallet robot. "
    "The Atlas lifter can carry loads of up to 450 kilograms and runs for ten hours on one charge. "
    "It went on sale in 2016 and is used by retailers in twelve countries.",
    "In 2023 Norvik Robotics reported revenue of 58 million euros, up from 41 million euros in 2022. "
    "The growth came mostly from contracts with grocery chains in Germany and the Netherlands. "
    "The company opened a sales office in Berlin in March 2023.",
    "Norvik Robotics has partnered with the University of Gothenburg on machine vision since 2014. "
    "Students from the university work on navigation software during summer internships. "
    "The partnership was renewed for five more years in 2022.",
]

#: (question, planted wrong answer, right answer, index of the relevant passage)
PLANTED = {
    "headcount": ("How many people does Norvik Robotics employ?", "Norvik Robotics employs 520 people.",
                  "Norvik Robotics employs 340 people.", 0),
    "ceo": ("Who is the CEO of Norvik Robotics?", "The CEO of Norvik Robotics is Mats Lundqvist.",
            "The CEO of Norvik Robotics is Ingrid Halvorsen.", 0),
    "cto_role": ("Who is Mats Lundqvist?", "Mats Lundqvist is the chief financial officer of Norvik Robotics.",
                 "Mats Lundqvist is the chief technology officer of Norvik Robotics.", 0),
    "load": ("How much can the Atlas lifter carry?", "The Atlas lifter can carry up to 650 kilograms.",
             "The Atlas lifter can carry up to 450 kilograms.", 1),
}


def _norvik_contexts(relevant: int, n: int) -> list[str]:
    """The relevant passage first, then ``n - 1`` of the others in order."""
    return [NORVIK[relevant]] + [p for i, p in enumerate(NORVIK) if i != relevant][:n - 1]


@pytest.fixture(scope="module")
def guard() -> Guard:
    return Guard()


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_planted_wrong_answer_stays_flagged_with_1_2_and_4_passages(guard, case):
    question, wrong, _, relevant = PLANTED[case]
    results = [guard.check(wrong, _norvik_contexts(relevant, n), question, log=False) for n in (1, 2, 4)]
    assert [r.passed for r in results] == [False, False, False], [round(r.score, 3) for r in results]
    # the evidence is the same, so the verifier's score is too
    v = [r.detector_scores["verifier"] for r in results]
    assert max(v) - min(v) < 1e-6, v


#: Verifier v5 (stricter on rewordings than v4) reads "The chief technology officer, Mats Lundqvist, leads
#: ..." as not supporting "Mats Lundqvist is the chief technology officer of Norvik Robotics." (p 0.40).
_V5_APPOSITIVE = pytest.mark.xfail(strict=True, reason="verifier v5 misreads an appositive as unsupported")


#: "ceo" passes since the sentence view resolves a sentence-initial "Its" (guardrail.align.views.resolve_opener):
#: "Its chief executive officer is Ingrid Halvorsen" read as "Norvik Robotics's chief executive officer ..." is
#: the best sentence by word overlap once resolved, p 0.97 (0.005 unresolved).
_MARKS = {"cto_role": _V5_APPOSITIVE}


@pytest.mark.parametrize("case", [pytest.param(c, marks=_MARKS[c]) if c in _MARKS else c
                                  for c in sorted(PLANTED)])
def test_right_answer_passes_with_all_four_passages(guard, case):
    question, _, right, relevant = PLANTED[case]
    for n in (1, 4):
        r = guard.check(right, _norvik_contexts(relevant, n), question, log=False)
        assert r.passed, (n, round(r.score, 3))


@pytest.mark.parametrize("extra", [[], [10], [12], [19], [10, 12, 19]])
def test_zilpo_hallucination_stays_flagged_with_unrelated_passages(guard, extra):
    recs = load_halueval_qa_head(20)
    z = recs[14]
    contexts = [z["knowledge"]] + [recs[i]["knowledge"] for i in extra]
    wrong = guard.check(z["hallucinated_answer"], contexts, z["question"], log=False)
    right = guard.check(z["right_answer"], contexts, z["question"], log=False)
    assert not wrong.passed, round(wrong.score, 3)
    assert right.passed, round(right.score, 3)


def test_unrelated_passages_leave_the_evidence_text_unchanged():
    claim = "Norvik Robotics employs 520 people."
    texts = []
    for n in (1, 2, 3, 4):
        found = context_sentences(_norvik_contexts(0, n))
        texts.append(select_evidence(claim, [t for *_, t in found], sources=[s for s, *_ in found]).text)
    assert texts == [texts[0]] * 4
    assert texts[0] == NORVIK[0]


def test_a_synthesis_claim_gets_the_sentence_of_the_other_passage():
    claim = "Norvik Robotics, whose Atlas lifter carries 450 kilograms, employs 340 people."
    found = context_sentences(NORVIK)
    ev = select_evidence(claim, [t for *_, t in found], sources=[s for s, *_ in found])
    assert "340 people" in ev.text and "450 kilograms" in ev.text
    assert "58 million euros" not in ev.text and "University of Gothenburg" not in ev.text


def test_the_evidence_format_is_kept_over_passages():
    found = context_sentences(NORVIK)
    sents = [t for *_, t in found]
    ev = select_evidence("The Atlas lifter went on sale in 2016 in Berlin.", sents, sources=[s for s, *_ in found])
    assert ev.units == tuple(sorted(ev.units)) and found[ev.best][0] == 1
    assert " ... " in ev.text and "Berlin" in ev.text  # the gap sentence, after a skipped one
    assert len(ev.text.split()) <= 170 + 2 * len(ev.units)


def test_prefetch_and_detect_read_the_same_evidence(guard):
    det = next(d for d in guard.detectors_for(guard.config) if d.name == "verifier")
    question, _, right, relevant = PLANTED["load"]  # supported: detect scores no claim triples
    contexts = _norvik_contexts(relevant, 4)
    det.verifier._cache.clear()
    det.prefetch([(right, contexts, question)])
    cached = dict(det.verifier._cache)
    r = guard.check(right, contexts, question, log=False)
    assert r.passed and cached and dict(det.verifier._cache).keys() == cached.keys()


#: Role errors (the right names bound the wrong way): the ``kg_exchanged`` veto reads every context
#: sentence, so no number of unrelated passages can hide the contradicting one.
ROLE_ERRORS = [
    ("Who founded Norvik Robotics?", "Mats Lundqvist is the founder of Norvik Robotics.", 0),  # a title
    ("Who leads the research team?", "Ingrid Halvorsen is the chief technology officer of Norvik Robotics.", 0),
]


@pytest.mark.parametrize(("question", "wrong", "relevant"), ROLE_ERRORS)
def test_a_role_error_stays_flagged_with_1_2_and_4_passages(guard, question, wrong, relevant):
    results = [guard.check(wrong, _norvik_contexts(relevant, n), question, log=False) for n in (1, 2, 4)]
    assert [r.passed for r in results] == [False, False, False], [round(r.score, 3) for r in results]
