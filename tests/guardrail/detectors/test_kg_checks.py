"""The knowledge-graph contradiction checks, with real spaCy and the real normalisers."""

from __future__ import annotations

from typing import Any

import pytest

from guardrail import Guard
from guardrail.align.values import date_atoms, number_values
from guardrail.config import GuardConfig
from guardrail.detectors import REGISTRY, build_detector
from guardrail.detectors.base import AlignmentInput
from guardrail.errors import InvalidInputError
from guardrail.types import KnowledgeGraph

CHECKS = ("kg_slots", "kg_roles", "kg_literals", "kg_negation")


def run(name: str, answer: str, *contexts: str) -> Any:
    item = AlignmentInput(answer=answer, contexts=contexts, question=None, claim_graph=KnowledgeGraph(),
                          context_graph=KnowledgeGraph(), encoder=None)  # type: ignore[arg-type]
    return build_detector(name).detect(item)


def flagged(out: Any) -> list[str]:
    return [f["text"] for f in out.details["flags"]]


# --- value normalisation -------------------------------------------------------------------

def test_numbers_in_words_and_scales_normalise() -> None:
    vals = [v.value for v in number_values("Fourteen engineers, aged 5 to 10, raised $1.5 million; it sold for $2bn")]
    assert vals == [14.0, 5.0, 10.0, 1_500_000.0, 2_000_000_000.0]


@pytest.mark.parametrize(("text", "value", "unit"), [
    ("half a million people", 500_000.0, "dimensionless"),  # quantulum3: 1,500,000
    ("half a kilo of flour", 0.5, "kilogram"),  # quantulum3: 0.5 per kilogram
    ("a quarter of an hour", 0.25, "hour"),  # quantulum3: 0.25 and one hour
    ("wait half an hour", 0.5, "hour"),
    ("half a dozen eggs", 6.0, "dimensionless"),
])
def test_a_fraction_of_a_measure_is_one_value(text: str, value: float, unit: str) -> None:
    (v,) = number_values(text)
    assert v.value == pytest.approx(value) and v.unit == unit


def test_dates_give_their_explicit_atoms() -> None:
    assert date_atoms("4 to 22 November 2024") == {"d4", "d22", "m11", "y2024"}
    assert date_atoms("March 2022") == {"m3", "y2022"}
    assert date_atoms("next spring") == frozenset()


# --- typed slots ---------------------------------------------------------------------------

def test_slots_flag_a_replaced_date_with_its_evidence() -> None:
    out = run("kg_slots", "The offer runs until 15 August.", "The offer runs until 15 July. Prices start at 10 euros.")
    assert flagged(out) == ["15 August"]
    flag = out.details["flags"][0]
    assert "15 July" in flag["reason"] and flag["evidence"] == "The offer runs until 15 July."
    assert flag["source"] == 0 and out.score >= 0.5


def test_slots_flag_a_replaced_amount() -> None:
    out = run("kg_slots", "Furrowline raised $42 million in a round led by Greenrow Capital.",
              "Furrowline has raised $24 million in a Series B round led by Greenrow Capital.")
    assert flagged(out) == ["$42 million"]


def test_slots_pass_a_value_derived_by_arithmetic() -> None:
    out = run("kg_slots", "New subscribers came in 450 above the 6,000 goal.",
              "New subscribers: target 6,000, actual 6,450.")
    assert out.score == 0.0


# --- roles ---------------------------------------------------------------------------------

def test_roles_flag_exchanged_subject_and_object() -> None:
    out = run("kg_roles", "YouTube acquired Google in 2006.", "Google acquired YouTube in 2006.")
    assert flagged(out) == ["YouTube"] and "Google acquired YouTube" in out.details["flags"][0]["reason"]


def test_roles_flag_an_amount_moved_to_another_named_backer() -> None:
    out = run("kg_roles", "Tamber Ventures, a farming co-op backing Furrowline for the first time, put in $3 million.",
              "Existing investors Tamber Ventures and the Okafor Family Office also took part, as did a new backer, "
              "the agricultural co-operative Midvale Grain, which invested $3 million.")
    assert flagged(out) == ["Tamber Ventures"] and "Midvale Grain" in out.details["flags"][0]["reason"]


def test_roles_read_the_passive_as_its_active_form() -> None:
    assert run("kg_roles", "YouTube was acquired by Google in 2006.", "Google acquired YouTube in 2006.").score == 0.0


@pytest.mark.parametrize(("answer", "context"), [
    ("Google was bought by YouTube in 2006.", "Google acquired YouTube in 2006."),  # passive, synonym
    ("YouTube took over Google.", "Google acquired YouTube in 2006."),  # phrasal synonym
    ("Google, which YouTube acquired in 2006, is based in California.", "Google acquired YouTube in 2006."),
    ("Tanaka beat Kowalczyk in three sets.",  # the participle's subject is the main clause's
     "Marta Kowalczyk won the title on Sunday, defeating unseeded Ayumi Tanaka in three sets."),
    ("Krøll, the Danish snack maker, is acquiring Nordvik Foods.",  # "agreed to acquire": inherited subject
     "Nordvik Foods has agreed to acquire Krøll, the Danish snack maker, for NOK 1.4 billion."),
    ("Rafael Costa signed Atlético Valdés.",  # the object named by an apposition
     "Atlético Valdés have signed the Brazilian midfielder Rafael Costa from Porto Verde."),
])
def test_roles_flag_exchanged_parties_however_worded(answer: str, context: str) -> None:
    out = run("kg_exchanged", answer, context)
    assert len(flagged(out)) == 1 and out.score == pytest.approx(0.9)


@pytest.mark.parametrize(("answer", "context"), [
    ("YouTube was bought by Google in 2006.", "Google acquired YouTube in 2006."),  # voice and synonym
    ("In 2006 Google purchased YouTube.", "YouTube, which Google acquired in 2006, is based in San Bruno."),
    ("Kowalczyk beat Tanaka in three sets.",
     "Marta Kowalczyk won the title on Sunday, defeating unseeded Ayumi Tanaka in three sets."),
    ("Tom married Anna in 1990.", "Anna married Tom in 1990."),  # a relation that holds both ways
    ("YouTube did not acquire Google.", "Google acquired YouTube in 2006."),  # a negated clause states no triple
    ("Lincicombe claimed the win.", "Lewis could still have claimed the win herself."),  # nor does a modal one
])
def test_roles_pass_faithful_rewordings_and_symmetric_relations(answer: str, context: str) -> None:
    assert run("kg_exchanged", answer, context).score == 0.0


YOUTUBE = ("Google acquired YouTube in November 2006. YouTube was founded in 2005 by Chad Hurley, Steve Chen "
           "and Jawed Karim.")


@pytest.mark.parametrize(("answer", "wrong"), [
    ("Chad Hurley founded Google.", "Google"),  # he founded YouTube
    ("Google was founded by Chad Hurley.", "Google"),
    ("Steve Jobs founded YouTube.", "Steve Jobs"),  # the context names its founders
    ("Microsoft bought YouTube in 2006.", "Microsoft"),
])
def test_roles_flag_a_rival_party_of_a_stated_relation(answer: str, wrong: str) -> None:
    out = run("kg_exchanged", answer, YOUTUBE)
    assert flagged(out) == [wrong] and "gives that place to" in out.details["flags"][0]["reason"]


@pytest.mark.parametrize(("context", "answer", "faithful", "wrong"), [
    # the parser reads "Arsenal" as an adverbial noun of "beat": still its object
    ("Arsenal beat Chelsea 2-1 at the Emirates.", "Chelsea beat Arsenal 2-1 at the Emirates.",
     "Arsenal beat Chelsea 2-1.", "Chelsea"),
    # two objects: the name is the object, not the fine
    ("The Food Standards Agency fined Greenleaf Dairy £40,000.", "Greenleaf Dairy fined the Food Standards Agency "
     "£40,000.", "Greenleaf Dairy was fined £40,000 by the Food Standards Agency.", "Greenleaf Dairy"),
    # the party after a preposition, and a verb that states the relation the other way round
    ("Halcott Scientific supplies lenses to Ardwyn Optics.", "Ardwyn Optics supplies lenses to Halcott Scientific.",
     "Ardwyn Optics gets its lenses from Halcott Scientific.", "Ardwyn Optics"),
    ("Marta Kowalczyk defeated Ayumi Tanaka in the final.", "Kowalczyk lost the final to Tanaka.",
     "Tanaka lost the final to Kowalczyk.", "Tanaka"),
    ("Anna Lind succeeded Tomas Berg as chair in 2019.", "Tomas Berg took over from Anna Lind as chair.",
     "Anna Lind took over from Tomas Berg as chair.", "Tomas Berg"),
])
def test_roles_read_the_object_past_a_score_an_amount_or_a_preposition(context: str, answer: str, faithful: str, wrong: str) -> None:
    assert flagged(run("kg_exchanged", answer, context)) == [wrong]
    assert run("kg_exchanged", faithful, context).score == 0.0


@pytest.mark.parametrize("answer", [
    "Jawed Karim founded YouTube.",  # one of three coordinated founders
    "YouTube was set up by Steve Chen in 2005.",  # phrasal synonym, passive
    "In 2006 YouTube was purchased by Google.",
])
def test_roles_pass_a_party_the_context_gives_that_relation(answer: str) -> None:
    assert run("kg_exchanged", answer, YOUTUBE).score == 0.0


def test_roles_read_no_rival_where_a_pronoun_may_state_the_claim() -> None:
    context = "Marie Curie won the Nobel Prize in Physics in 1903. In 1911 she won the Nobel Prize in Chemistry."
    assert run("kg_exchanged", "Marie Curie won the Nobel Prize in Chemistry in 1911.", context).score == 0.0


def test_roles_never_read_a_rival_from_an_inherited_subject() -> None:
    # "replacing" has no subject of its own: the Congress is a guess, so it names no rival
    context = ("The Congress created a German Confederation of 39 states under Austrian presidency, replacing the "
               "Holy Roman Empire.")
    assert run("kg_exchanged", "A German Confederation replaced the Holy Roman Empire.", context).score == 0.0


TEAM = "Maria Lopez is the chief executive of Brightwave. Tom Reed is its chief technology officer."


@pytest.mark.parametrize("answer", [
    "Tom Reed is the chief executive of Brightwave.",
    "Brightwave's chief executive, Tom Reed, spoke first.",
    "Maria Lopez is the chief technology officer.",
])
def test_roles_flag_a_title_given_to_another_named_holder(answer: str) -> None:
    out = run("kg_exchanged", answer, TEAM)
    assert len(flagged(out)) == 1 and "the context gives it to" in out.details["flags"][0]["reason"]


@pytest.mark.parametrize(("answer", "context"), [
    ("Brightwave's chief technology officer is Tom Reed.", TEAM),
    ("Maria Lopez, the chief executive, spoke first.", TEAM),
    # the context gives Achebe no title, only says he was succeeded: silence, not a contradiction
    ("Desmond Achebe was the chief executive.", "Odile Varnay is the chief executive. She succeeded Desmond Achebe."),
    # another organisation's chief executive
    ("Tom Reed is the chief executive of Lumen.", "Maria Lopez is the chief executive of Brightwave. "
                                                  "Tom Reed is the chief executive of Lumen."),
])
def test_roles_pass_a_title_the_context_gives_that_name(answer: str, context: str) -> None:
    assert run("kg_exchanged", answer, context).score == 0.0


def test_the_shipped_default_vetoes_exchanged_parties_and_names_the_swapped_one() -> None:
    context = ["Google acquired YouTube in November 2006 for 1.65 billion US dollars in stock. YouTube was "
               "founded in 2005 by Chad Hurley, Steve Chen and Jawed Karim."]
    guard = Guard()
    wrong = guard.check("YouTube acquired Google in 2006.", context)
    assert not wrong.passed and [n.text for n in wrong.flagged_nodes] == ["YouTube"]
    assert wrong.detector_scores["kg_exchanged"] >= guard.config.veto["kg_exchanged"]
    assert guard.check("YouTube was bought by Google in 2006.", context).passed


def test_an_answer_the_combination_fails_gets_the_veto_node() -> None:
    # with the shipped weights the combination fails it (0.493 against 0.487) while the verifier
    # supports its one claim and flags no node: the veto, run on every answer, names the exchanged party
    guard = Guard()
    r = guard.check("Tanaka beat Kowalczyk in the final on Sunday.",
                    ["Marta Kowalczyk defeated Ayumi Tanaka in the final on Sunday."], log=False)
    assert not r.passed and [n.text for n in r.flagged_nodes] == ["Tanaka"]
    assert r.detector_scores["kg_exchanged"] >= guard.config.veto["kg_exchanged"]


def test_the_shipped_default_vetoes_a_figure_the_context_gives_nowhere() -> None:
    """The verifier passed "within 45 days" against "within 30 days"; the literal veto fails it and flags
    the figure; faithful answers, one stating a figure in another form ("2 months"), pass."""
    context = ["Tenants must give at least two months' written notice before moving out. The deposit, equal "
               "to six weeks' rent, is returned within 30 days of the end of the tenancy."]
    guard = Guard()
    wrong = guard.check("The deposit is six weeks' rent and is returned within 45 days after the tenancy ends.",
                        context, log=False)
    assert not wrong.passed and "45 days" in [n.text for n in wrong.flagged_nodes]
    assert wrong.detector_scores["kg_literals"] >= guard.config.veto["kg_literals"]
    for faithful in ("The deposit is six weeks' rent and is returned within 30 days after the tenancy ends.",
                     "You must give 2 months' notice in writing."):
        assert guard.check(faithful, context, log=False).detector_scores["kg_literals"] == 0.0


# --- literals ------------------------------------------------------------------------------

def test_literals_flag_an_ungrounded_quantity() -> None:
    out = run("kg_literals", "The bridge is 650 metres long.", "The bridge is 450 metres long and opened in 1931.")
    assert flagged(out) == ["650 metres"] and "450 metres" in out.details["flags"][0]["reason"]


GRANT = "Groups must contribute at least 20% of the project cost themselves. The fund opens on 1 February."
RURAL = "Of the 40 groups funded last year, 10 were in rural areas."


@pytest.mark.parametrize("answer", ["Your group pays at least a quarter of the cost itself.",
                                    "Your group pays at least half of the cost itself."])
def test_literals_flag_a_fraction_against_the_percentage_the_context_gives(answer: str) -> None:
    # quantulum3 read "a quarter of" as the bare number 0.25, which no percentage contradicts
    out = run("kg_literals", answer, GRANT)
    assert len(flagged(out)) == 1 and out.score >= 0.9 and "20%" in out.details["flags"][0]["reason"]


@pytest.mark.parametrize("answer", ["Your group pays at least a fifth of the cost itself.",
                                    "One in four of the funded groups was in a rural area.",
                                    "A quarter of last year's 40 groups were rural."])
def test_literals_pass_a_fraction_the_context_states_or_computes(answer: str) -> None:
    assert run("kg_literals", answer, GRANT, RURAL).score == 0.0


FERRY = "The ferry leaves at 6:15pm and takes 45 minutes. The last boat back is at 21:30."


@pytest.mark.parametrize(("answer", "wrong"), [("The ferry departs at 6:30pm.", "6:30pm"),
                                               ("The last boat back leaves at 22:00.", "22:00")])
def test_literals_flag_a_time_of_day_against_the_time_the_context_gives(answer: str, wrong: str) -> None:
    out = run("kg_literals", answer, FERRY)
    assert flagged(out) == [wrong] and out.score >= 0.9


@pytest.mark.parametrize("answer", ["The ferry departs at 18:15.", "The ferry departs at 6.15 p.m.",
                                    "The last boat back leaves at 9:30pm.",
                                    "Landy ran 3:58.0, beating the old mark."])  # a race time is no time of day
def test_literals_pass_a_time_of_day_the_context_states_in_another_form(answer: str) -> None:
    assert run("kg_literals", answer, FERRY, "On 21 June 1954 Landy ran 3:58.0.").score == 0.0


SALES = "Sales rose between 2019 and 2022, from 2,000 to 6,000 units."


def test_literals_ground_a_factor_as_the_ratio_of_two_evidence_numbers() -> None:
    # "three" of "three times as many" was vetoed: the factor 6,000 / 2,000 is no figure the context writes
    assert run("kg_literals", "Sales went from 2,000 to 6,000 units, three times as many.", SALES).score == 0.0
    assert run("kg_literals", "Sales grew 3-fold to 6,000 units.", SALES).score == 0.0
    out = run("kg_literals", "Sales went from 2,000 to 6,000 units, four times as many.", SALES)
    assert flagged(out) == ["four"]
    # "three times that day" counts occasions: no ratio grounds it (the Wrights made four flights)
    flights = "Orville's flight lasted 12 seconds and covered 120 feet. The brothers made four flights that day."
    assert flagged(run("kg_literals", "They went up three times that day.", flights)) == ["three"]


@pytest.mark.parametrize(("answer", "context"), [
    ("Overnight it dropped to minus five degrees.", "Temperatures fell to -5°C overnight."),  # quantulum3: 5 and -5
    ("The fund lagged its index by 0.28%.", "Tracking difference: -0.28% over the past 12 months."),
])
def test_literals_ground_a_value_whose_sign_is_written_in_words(answer: str, context: str) -> None:
    assert run("kg_literals", answer, context).score == 0.0


def test_literals_flag_an_ungrounded_date() -> None:
    out = run("kg_literals", "The bridge opened on 3 May 1932.", "The bridge opened on 3 May 1931.")
    assert flagged(out) == ["3 May 1932"]


def test_literals_accept_simple_arithmetic() -> None:
    out = run("kg_literals", "Haber won in 1918 and Bosch thirteen years later.",
              "Haber won the prize in 1918. Bosch won it in 1931.")
    assert out.score == 0.0


def test_literals_need_a_scaling_word_for_a_double_or_a_half() -> None:
    """A plain wrong figure twice the evidence's is not "arithmetic"; "twice" makes it so."""
    wrong = run("kg_literals", "The deposit is returned within 60 days after the tenancy ends.",
                "The deposit is returned within 30 days of the end of the tenancy.")
    assert flagged(wrong) == ["60 days"] and "30 days" in wrong.details["flags"][0]["reason"]
    right = run("kg_literals", "Younger members pay up to £1,000, twice the £500 older members pay.",
                "Members aged 25 and over pay up to £500 per incident.")
    assert right.score == 0.0


def test_literals_ground_a_figure_stated_in_another_form() -> None:
    """A compound duration, a range read as its parts, a time of day, a tokenised figure, an ordinal,
    a run of years as its last one, an age set off after a name, a figure the question states; a
    wrong one in the same form is still flagged."""
    assert run("kg_literals", "The match went on for 161 minutes.", "She won in two hours and 41 minutes.").score == 0.0
    assert flagged(run("kg_literals", "The match went on for 171 minutes.", "She won in two hours and 41 minutes."))
    assert run("kg_literals", "The ring is 10 to 25 astronomical units from the star.",
               "The ring lies between 10 and 25 astronomical units from the star.").score == 0.0
    assert flagged(run("kg_literals", "The ring is 10 to 40 astronomical units from the star.",
                       "The ring lies between 10 and 25 astronomical units from the star."))
    assert run("kg_literals", "It is open until 6pm.", "The museum is open daily from 10:00 to 18:00.").score == 0.0
    assert run("kg_literals", "He took bets for more than $ 10,000 and the 36-year-old retired.",
               "He took five bets for more than $ 10, 000. The 36 - year - old retired last may.").score == 0.0
    assert flagged(run("kg_literals", "The bridge is 650 metres long.", "The bridge is 450 metres long and 650 feet wide."))
    assert run("kg_literals", "You may carry over five days.", "Up to 5 unused days may be carried over.").score == 0.0
    assert flagged(run("kg_literals", "You may carry over six days.", "Up to 5 unused days may be carried over."))
    assert run("kg_literals", "She won in round three.", "She won in the third round.").score == 0.0
    assert flagged(run("kg_literals", "She won in round four.", "She won in the third round."))
    rate = "The tax rate stays at 1.12% of assessed value for the third consecutive year, the 140-year-old city said."
    assert run("kg_literals", "The rate has not changed for three years running.", rate).score == 0.0
    assert run("kg_literals", "It is unchanged for three consecutive years.", rate).score == 0.0
    assert flagged(run("kg_literals", "The rate has not changed for four years running.", rate))
    dean = "The 140-year-old university named Amara Okafor as its head. Okafor, 54, is dean of engineering."
    assert run("kg_literals", "Amara Okafor, the 54-year-old dean, was named head.", dean).score == 0.0
    assert run("kg_literals", "The dean, aged 54, was named head.", dean).score == 0.0
    assert flagged(run("kg_literals", "Amara Okafor, the 55-year-old dean, was named head.", dean))
    item = AlignmentInput(answer="98.5% is under the 99.0% threshold.", contexts=("Below 99.0%, the credit is 25%.",),
                          claim_graph=KnowledgeGraph(), context_graph=KnowledgeGraph(), encoder=None,  # type: ignore[arg-type]
                          question="Availability was 98.5%. What do I get?")
    assert build_detector("kg_literals").detect(item).score == 0.0


def test_literals_take_no_arithmetic_step_on_common_words_and_read_degrees_as_a_temperature() -> None:
    """"up to five users" is no cue to add: $39 is not $29 + 10 GB; "18 degrees" is the context's 18°C."""
    table = "Plan | Price | Users | Storage\nTeam | $29/month | 5 | 10 GB"
    assert flagged(run("kg_literals", "The Team plan costs $39 a month for up to five users.", table)) == ["$39 a month"]
    assert run("kg_literals", "Expect highs of 18 degrees and lows of 12 degrees.",
               "Temperatures will range from 12°C to 18°C this week.").score == 0.0


def test_literals_ground_a_stated_duration_and_a_month() -> None:
    """quantulum3 read "nine weeks at" as nine week-ampere-turns; a month stated verbatim is grounded,
    while "may" the verb states no month."""
    assert run("kg_literals", "The song topped the chart for nine weeks.",
               "The song spent nine weeks at number one.").score == 0.0
    assert run("kg_literals", "You can visit in its Easter-to-October season.",
               "The mill is open from Easter to the end of October.").score == 0.0
    assert flagged(run("kg_literals", "It opened in May 2021.", "Visitors may come in 2021.")) == ["May 2021"]


# --- negation and antonyms -----------------------------------------------------------------

def test_negation_flags_opposite_polarity() -> None:
    out = run("kg_negation", "Dogs are not allowed on the ferry.", "Dogs are allowed on the ferry but not on the island.")
    assert flagged(out) == ["allowed"]


def test_negation_flags_an_antonym() -> None:
    out = run("kg_negation", "The central bank lowered its discount rate to 6.5%.",
              "The central bank raised its discount rate to 6.5% on Monday.")
    assert flagged(out) == ["lowered"] and "raised" in out.details["flags"][0]["reason"]


# --- faithful rewordings pass every check --------------------------------------------------

REWORDINGS = [
    # number written out, "1.5 million", voice, clause order
    ("Fourteen engineers work at Quillo, which was bought by Orbit in March 2022 for $1.5 million.",
     "Orbit acquired Quillo for 1,500,000 dollars in March 2022. Quillo employs 14 engineers."),
    # synonym, voice
    ("Pets may travel on the ferry, which was built in 1998 by Harland.",
     "Harland built the ferry in 1998. Dogs are allowed on the ferry but not on the island."),
    # clause order, synonym
    ("On 15 July the offer ends; until then the price is ten euros.",
     "The offer runs until 15 July. Prices start at 10 euros."),
]


@pytest.mark.parametrize("name", CHECKS)
@pytest.mark.parametrize(("answer", "context"), REWORDINGS)
def test_faithful_rewording_is_not_flagged(name: str, answer: str, context: str) -> None:
    out = run(name, answer, context)
    assert out.score == 0.0, out.details["flags"]


# --- registry and guard --------------------------------------------------------------------

@pytest.mark.parametrize("name", CHECKS)
def test_checks_are_registered_and_validate_parameters(name: str) -> None:
    assert name in REGISTRY and build_detector(name).name == name
    with pytest.raises(InvalidInputError):
        build_detector(name).__class__(evidence_words=3)


def test_checks_run_inside_a_guard_with_node_flags() -> None:
    cfg = GuardConfig(name="kg", detectors=list(CHECKS), aggregation="max", weights={n: 1.0 for n in CHECKS},
                      threshold=0.5, node_threshold=0.5)
    res = Guard(config=cfg).check("The bridge is 650 metres long.", ["The bridge is 450 metres long."])
    assert not res.passed and res.detector_scores["kg_literals"] >= 0.5
    assert any("650" in n.text for n in res.flagged_nodes)
