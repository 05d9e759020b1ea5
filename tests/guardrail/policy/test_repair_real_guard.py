"""Benchmark errors the evidence repair now fixes with the real guard and no LLM (issue 25).

Three caught errors of ``benchmarks/results/refine.json`` (their answers, questions and the
context sentences that matter): before, the first lost its sentence (its wrong unit was read as
an added detail), the other two went to the LLM and ended refused or filtered. The reprompt
function fails the test if it is called: the repair needs no LLM.
"""

from __future__ import annotations

import pytest

from guardrail import Guard
from guardrail.policy.refine import RefinementRequest, Refiner, enforce

pytestmark = pytest.mark.slow

BANNISTER = [
    "On 6 May 1954, Roger Bannister became the first person to run a mile in under four minutes, clocking 3 minutes "
    "59.4 seconds at the Iffley Road track in Oxford. The race was part of a meeting between the British Amateur "
    "Athletic Association and Oxford University. Bannister, then a 25-year-old medical student, was paced by Chris "
    "Brasher and Chris Chataway; the result was announced by Norris McWhirter, who famously paused after the words "
    "'three minutes'.",
    "The record stood for only 46 days. On 21 June 1954, in Turku, Finland, Australia's John Landy ran 3:58.0. The "
    "two men met in the so-called 'Miracle Mile' at the British Empire and Commonwealth Games in Vancouver on 7 "
    "August 1954, where both finished under four minutes and Bannister won in 3:58.8. Bannister retired from "
    "athletics at the end of that year to concentrate on his medical career and later became a distinguished "
    "neurologist.",
]
BREIVIK = [
    "Together with prosecutor Svein Holden she was prosecuting terror suspect Anders Behring Breivik in the 2012 "
    "trial following the 2011 Norway attacks. On 22 July 2011 he killed eight people by detonating a van bomb amid "
    "Regjeringskvartalet in Oslo, then shot dead 69 participants of a Workers' Youth League (AUF) summer camp on "
    "the island of Utøya."]
CALMERA = [
    "Calmera 200 mg film-coated tablets contain the active substance velpranide, used to relieve moderate pain such "
    "as headache, toothache and period pain in adults and adolescents aged 12 and over. The usual dose is one tablet "
    "every 6 to 8 hours as needed. Do not take more than 3 tablets in 24 hours. Take the tablets with food or milk to "
    "reduce the risk of stomach upset. Do not use Calmera if you have an active stomach ulcer, severe heart failure, "
    "or are in the last three months of pregnancy. If pain persists for more than 5 days, or fever for more than 3 "
    "days, consult a doctor. Store below 25 °C."]

CASES = [
    ("Brasher and Chataway set the pace for Bannister, who was a 25-year-old studying medicine at the time. "
     "The record stood for only 46 weeks.", BANNISTER,
     "When did Roger Bannister run the first sub-four-minute mile, and how long did his record last?",
     "The record stood for only 46 days."),
    ("Over ten people were killed.", BREIVIK,
     "How many people were killed by a van bomb by the man Inga Bejer Engh prosecuted in a high profile 2012 trial?",
     "Over eight people were killed."),
    ("The maximum is four tablets within any 24-hour period. The usual dose is a single tablet, taken every six to "
     "eight hours when required.", CALMERA, "How many Calmera tablets can I take in a day?",
     "The maximum is 3 tablets within any 24-hour period."),
]


def _no_llm(req: RefinementRequest) -> str:
    raise AssertionError(f"the LLM was asked: {req.feedback}")


@pytest.mark.parametrize(("answer", "context", "question", "fixed"), CASES,
                         ids=["unit", "slot", "beside-a-phrase"])
def test_the_evidence_repair_fixes_it_and_the_guard_passes_it(guard: Guard, answer: str, context: list[str],
                                                               question: str, fixed: str) -> None:
    first = guard.check(answer, context, question)
    assert not first.passed
    out = enforce(guard, "refine", answer, context, question, reprompt=_no_llm,
                  refiner=Refiner(guard, max_iterations=3))
    assert out.action == "refined" and out.result.passed and fixed in out.answer
    assert out.stop_reason == "passed" and len(out.result.history) == 2
