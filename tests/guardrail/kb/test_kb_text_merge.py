"""KB + retrieved text (issue 26): how the KB's facts and a passage are merged into one context.

Real components: spaCy, the shipped verifier and default config, an in-process Oxigraph store
holding a small invented KB (not the benchmark's). Two fixes are pinned, each checked to fail
without it:

* the facts are one text beside passages of several sentences (one line a fact), so the
  verifier reads them together as it does with the KB alone; one text per fact made a
  retrieved passage the evidence of a claim combining two facts ("Hana Dorsey's company
  Pelican Mills was founded in 1998.") and failed it (beside passages of one short sentence
  each the verifier reads every text together, and the facts stay a text each);
* ``kb_facts`` vetoes with the KB's triples only: a passage's copula triple ("Hana Dorsey is
  a businesswoman") is no rival of a right answer's ("Dorsey was a student at ...").
"""

from __future__ import annotations

import pytest

from guardrail import Guard
from guardrail.kb import OxigraphKB, kb_context
from guardrail.kb.facts import fact_sentence

pytestmark = pytest.mark.slow
EX = "http://kg-guardrail.example/pelican/"

KB = f"""@prefix ex: <{EX}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
ex:founded rdfs:label "found" .
ex:studiedAt rdfs:label "study at" .
ex:foundedIn rdfs:label "be founded in" .
ex:basedIn rdfs:label "be based in" .
ex:Hana_Dorsey rdfs:label "Hana Dorsey" ; skos:altLabel "Dorsey" ;
    ex:founded ex:Pelican_Mills ; ex:studiedAt ex:Arlow_College .
ex:Pelican_Mills rdfs:label "Pelican Mills" ; ex:foundedIn "1998" ; ex:basedIn ex:Brenna .
ex:Arlow_College rdfs:label "Arlow College" .
ex:Brenna rdfs:label "Brenna" .
ex:Corley_Institute rdfs:label "Corley Institute" .
"""
MILLS = ("Pelican Mills supplies bakeries across the region and has grown steadily since it opened. "
         "The company runs one large mill and a warehouse.")
DORSEY = ("Hana Dorsey is a businesswoman known for her work in the milling trade. "
          "She started her first company in her thirties and still chairs its board.")


@pytest.fixture(scope="module")
def kb() -> OxigraphKB:
    return OxigraphKB(data=KB)


@pytest.fixture(scope="module")
def kb_guard(guard: Guard, kb: OxigraphKB) -> Guard:
    return guard.with_kb(kb)


def test_the_facts_are_one_text_beside_the_passages(kb_guard: Guard, kb: OxigraphKB) -> None:
    answer = "Hana Dorsey's company Pelican Mills was founded in 1998."
    ctx = kb_context(kb, answer).with_passages([MILLS], kb_guard)
    lines = [fact_sentence(f) for f in ctx.facts]
    assert len(lines) >= 3 and ctx.graph.texts == (MILLS, "\n".join(lines))
    assert ctx.facts_joined and kb_context(kb, answer).graph.texts == tuple(lines)  # the KB alone: a text a fact
    short = kb_context(kb, answer).with_passages(["Pelican Mills supplies bakeries."], kb_guard)
    assert not short.facts_joined and short.graph.texts == ("Pelican Mills supplies bakeries.", *lines)
    starts = [sum(len(x) + 1 for x in lines[:k]) for k in range(len(lines))]
    assert [ctx.fact_for_source(1, s) for s in starts] == list(ctx.facts)
    assert ctx.fact_for_source(0) is None and ctx.fact_for_source(2) is None


def test_a_claim_combining_two_facts_reads_the_facts_beside_a_passage(kb_guard: Guard) -> None:
    answer = "Hana Dorsey's company Pelican Mills was founded in 1998."
    alone, both = kb_guard.check(answer, log=False), kb_guard.check(answer, [MILLS], log=False)
    assert alone.passed and both.passed, (alone.detector_scores, both.detector_scores)
    assert both.detector_scores["verifier"] == pytest.approx(alone.detector_scores["verifier"], abs=0.05)
    assert not kb_guard.check("Hana Dorsey's company Pelican Mills was founded in 2004.", [MILLS], log=False).passed
    # a swap beside the passage names the KB triple: the fact's line of the facts' text
    swapped = kb_guard.check("Pelican Mills was founded in 2004.", [MILLS], log=False)
    assert not swapped.passed and [n.text for n in swapped.flagged_nodes] == ["2004"]
    assert swapped.flagged_nodes[0].kb_fact == (EX + "Pelican_Mills", EX + "foundedIn", '"1998"')


def test_a_passage_copula_is_no_rival_of_a_kb_fact(kb_guard: Guard) -> None:
    right = kb_guard.check("Dorsey was a student at Arlow College.", [DORSEY], log=False)
    assert right.detector_scores["kb_facts"] == 0.0 and right.passed, right.detector_scores
    # the KB's own fact still vetoes a swap, with the passage beside it, and is named by its IRIs
    swapped = kb_guard.check("Hana Dorsey studied at Corley Institute.", [DORSEY], log=False)
    assert swapped.detector_scores["kb_facts"] == 1.0 and not swapped.passed
    assert [n.kb_fact for n in swapped.flagged_nodes if n.kb_fact] == [
        (EX + "Hana_Dorsey", EX + "studiedAt", EX + "Arlow_College")]
