"""A structured passage gets the verdict of its prose form (issue 23: context styles).

Retrieved passages arrive as HTML, Markdown lists and tables, key-value records, FAQs and PDF
text broken at every line. The guard reads them as prose
(:mod:`guardrail.text.structure`): a faithful answer passes and a wrong value is flagged, as
against the same facts written as sentences. Real spaCy and the shipped default guard.
"""

from __future__ import annotations

import pytest

from guardrail import Guard

pytestmark = pytest.mark.slow

#: name -> (context, faithful answer, wrong answer, the wrong value)
CASES = {
    "html": ("<html><body><h1>Harbour Bridge</h1><p>The Harbour Bridge opened to traffic in <b>1932</b>.</p>"
             "<ul><li>Length: 1,149 m</li><li>Designer: John Bradfield</li></ul></body></html>",
             "The Harbour Bridge was designed by John Bradfield.",
             "The Harbour Bridge was designed by Ove Arup.", "Ove Arup"),
    "pdf": ("The Vessel Museum was estab-\nlished in 1897 by the city\ncouncil of Lund. It holds\nabout 3,400 "
            "objects, most of\nthem donated by local families.",
            "The Vessel Museum was established in 1897 by the city council of Lund.",
            "The Vessel Museum was established in 1911 by the city council of Lund.", "1911"),
    "record": ("Company: Norvik Robotics\nFounded: 2011\nHeadquarters: Trondheim, Norway\nEmployees: 340\n"
               "CEO: Anna Lind",
               "Norvik Robotics is headquartered in Trondheim, Norway.",
               "Norvik Robotics is headquartered in Bergen, Norway.", "Bergen"),
    "table": ("## Leadership of Norvik Robotics\n\n| Name | Role | Joined |\n|---|---|---|\n"
              "| Anna Lind | Chief Executive Officer | 2015 |\n| Tomas Berg | Chief Technology Officer | 2018 |",
              "Anna Lind is the chief executive officer; she joined in 2015.",
              "Anna Lind is the chief executive officer; she joined in 2012.", "2012"),
    "faq": ("Q: How long is the warranty on the K3 kettle?\nA: The K3 kettle has a two-year warranty from the date "
            "of purchase.\nQ: Can I use it on an induction hob?\nA: No, the K3 is an electric kettle with its own base.",
            "The K3 kettle comes with a two-year warranty from the purchase date.",
            "The K3 kettle comes with a five-year warranty from the purchase date.", "five-year"),
    "title_lines": ("Marta Oyelaran\nMarta Oyelaran (born 1978) is a Nigerian-Swedish architect.\nCareer\n"
                    "She designed the Kista Public Library, completed in 2014.",
                    "Marta Oyelaran, born in 1978, designed the Kista Public Library, which was completed in 2014.",
                    "Marta Oyelaran, born in 1978, designed the Kista Public Library, which was completed in 2009.",
                    "2009"),
}

#: Still misjudged (issue 23, open): two facts from two list items in one claim are read as less
#: supported; a claim that needs a table's caption ("Norvik Robotics' chief executive officer") is
#: read against rows without it (a row of seven words or more gets no prefix).
KNOWN_GAPS = {
    "bullets": ("# Norvik R2 delivery robot\n\n## Specifications\n- Weight: 450 kg\n- Top speed: 12 km/h\n"
                "- Battery life: 8 hours",
                "The Norvik R2 weighs 450 kg and its battery lasts 8 hours.",
                "The Norvik R2 weighs 650 kg and its battery lasts 8 hours.", "650"),
    "table_caption": (CASES["table"][0], "Anna Lind is Norvik Robotics' chief executive officer; she joined in 2015.",
                      "Anna Lind is Norvik Robotics' chief executive officer; she joined in 2012.", "2012"),
}
#: A role moved to another person of the same table: caught by the default's ``kg_exchanged`` veto
#: (a title the context gives another name) since the eleventh session.
CASES["table_role"] = (CASES["table"][0], CASES["table"][1],
                       "Tomas Berg is the chief executive officer; he joined in 2015.", "Tomas Berg")


@pytest.fixture(scope="module")
def guard() -> Guard:
    return Guard()


_GAP = pytest.mark.xfail(strict=True, reason="list items in one claim, a caption: see KNOWN_GAPS")


@pytest.mark.parametrize("name", sorted(CASES) + [pytest.param(k, marks=_GAP) for k in sorted(KNOWN_GAPS)])
def test_structured_context_gets_the_prose_verdict(guard, name):
    context, right, wrong, value = {**CASES, **KNOWN_GAPS}[name]
    r_right = guard.check(right, [context], log=False)
    r_wrong = guard.check(wrong, [context], log=False)
    assert r_right.passed, (name, round(r_right.score, 3))
    assert not r_wrong.passed, (name, round(r_wrong.score, 3))
    flagged = [wrong[n.span.start:n.span.end] for n in r_wrong.flagged_nodes if n.span is not None]
    assert any(value in t for t in flagged), flagged


@pytest.mark.parametrize(("name", "line"), [("table", "| Anna Lind | Chief Executive Officer | 2015 |"),
                                           ("record", "Headquarters: Trondheim, Norway")])
def test_evidence_spans_index_the_passage_as_given(guard, name, line):
    context, _, wrong, _ = CASES[name]
    r = guard.check(wrong, [context], log=False)
    spans = [n.evidence_span for n in r.flagged_nodes if n.evidence_span is not None]
    assert spans and all(0 <= s.start < s.end <= len(context) for s in spans)
    assert any(context[s.start:s.end] == line for s in spans), [context[s.start:s.end] for s in spans]
