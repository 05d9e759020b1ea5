"""What the evidence states in place of a flagged word, and the repairs made from it (issue 25).

Each case is a caught error of ``benchmarks/results/refine.json`` that the evidence repair (no
LLM) did not fix, or fixed wrongly, shrunk to the sentences that matter. Fast: real spaCy and
the real value normalisation (quantulum3) on hand-made verdicts; no guard, no LLM.
"""

from __future__ import annotations

from guardrail.policy.candidates import is_name, is_quantity, number_stated, value_candidates
from guardrail.policy.feedback import feedback_items
from guardrail.policy.repair import evidence_repair
from guardrail.types import FlaggedNode, GuardResult, Span


def _flagged(answer: str, *wrong: str) -> GuardResult:
    nodes = []
    for w in wrong:
        i = answer.rindex(w) if w == "six" else answer.index(w)  # "six", not the "six" of "sixteen"
        nodes.append(FlaggedNode(node_id=f"a:{i}", text=w, span=Span(start=i, end=i + len(w)), support=0.1))
    return GuardResult(passed=False, score=0.7, threshold=0.5, answer=answer, flagged_nodes=tuple(nodes))


BANNISTER = ["Bannister, then a 25-year-old medical student, was paced by Chris Brasher and Chris Chataway.",
             "The record stood for only 46 days. On 21 June 1954, in Turku, John Landy ran 3:58.0."]


def test_the_same_number_in_another_unit_is_a_wrong_value_with_the_evidence_unit() -> None:
    # med-025: "46 weeks" for "46 days" was an added detail and its sentence was deleted
    answer = "Bannister was a 25-year-old studying medicine. The record stood for only 46 weeks."
    (item,) = feedback_items(_flagged(answer, "only 46 weeks"), BANNISTER)
    assert item.kind == "value" and item.values == ("46 days",)
    out = evidence_repair(answer, [item], BANNISTER)
    assert out is not None and out[0] == "Bannister was a 25-year-old studying medicine. The record stood for only 46 days."


def test_a_candidate_carries_its_unit_and_its_currency() -> None:
    assert value_candidates("two months", "You can expect a decision inside two months.",
                            "Applications are normally decided within eight weeks.") == ["eight weeks"]
    claim = "The bull weighs 450 kilograms."
    assert value_candidates("450", claim, "The bull weighs 540 kilograms.") == ["540 kilograms"]
    (item,) = feedback_items(_flagged(claim, "450"), ["The bull weighs 540 kilograms."])
    out = evidence_repair(claim, [item])
    assert out is not None and out[0] == "The bull weighs 540 kilograms."  # the unit once
    assert value_candidates("a £2.3 million plan", "Councillors backed a £2.3 million plan.",
                            "The council approved a £3.2 million network.") == ["£3.2 million"]


NEWS = ["The city council voted 9 to 4 on Tuesday to approve a £3.2 million network of protected cycle lanes "
        "along four of the town's main roads."]
NEWS_ANSWER = ("By a margin of nine votes to four, councillors backed a £2.3 million plan for protected bike lanes "
               "on four main roads.")


def test_a_number_the_evidence_states_is_not_replaced_and_the_known_value_is() -> None:
    # news-01: "nine" got the candidate "3.2 million" (the one number the claim lacks), and the
    # whole item was left to the LLM because "a margin" had no candidate
    assert number_stated("nine", NEWS[0]) and not number_stated("only 46 weeks", BANNISTER[1])
    result = _flagged(NEWS_ANSWER, "a margin", "nine", "a £2.3 million plan", "protected bike lanes")
    (item,) = feedback_items(result, NEWS)
    assert item.kind == "value" and item.values == ("", "", "£3.2 million", "")
    out = evidence_repair(NEWS_ANSWER, [item], NEWS)
    assert out is not None and out[0] == NEWS_ANSWER.replace("£2.3", "£3.2")


def test_a_capitalised_sentence_opener_is_not_a_name() -> None:
    # medical_leaflet-01: "The maximum" (flagged beside "four") was read as a name with no
    # candidate, so the known "four" -> "3" was not written
    assert not is_name("The maximum", "The maximum is four tablets.") and not is_name("The server", "The server failed.")
    assert is_name("Kofi Mensah", "Kofi Mensah scored.") and is_name("CBS", "CBS hosted it.")
    assert is_name("Brayford", "They worked at the Brayford brickworks.")
    answer = "The maximum is four tablets within any 24-hour period. The usual dose is one tablet."
    ctx = ["The usual dose is one tablet every 6 to 8 hours. Do not take more than 3 tablets in 24 hours."]
    items = feedback_items(_flagged(answer, "The maximum", "four"), ctx)
    assert [(it.kind, it.values) for it in items] == [("value", ("", "3"))]
    out = evidence_repair(answer, items, ctx)
    assert out is not None and out[0].startswith("The maximum is 3 tablets within any 24-hour period.")


def test_of_several_numbers_the_one_in_the_same_slot_is_the_candidate() -> None:
    # qa-618: the evidence states 22, 2011, eight and 69; "ten people" -> "eight people"
    ev = ("On 22 July 2011 he killed eight people by detonating a van bomb in Oslo, then shot dead 69 "
          "participants of a summer camp.")
    assert value_candidates("ten", "Over ten people were killed.", ev) == ["eight"]
    (item,) = feedback_items(_flagged("Over ten people were killed.", "ten"), [ev])
    out = evidence_repair("Over ten people were killed.", [item], [ev])
    assert out is not None and out[0] == "Over eight people were killed."


HR = ["Staff may work 80% of their normal hours at full pay for the first four weeks back after primary-caregiver "
      "leave.", "Birchwood offers 16 weeks of paid leave to the primary caregiver and 6 weeks to the secondary one."]


def test_a_number_is_never_replaced_by_a_number_measuring_something_else() -> None:
    # hr_policy-01: "six" (a count) got the candidate "80%"
    claim = "Primary caregivers receive sixteen weeks' leave on full pay, and secondary caregivers receive six."
    assert value_candidates("six", claim, HR[0]) == []


def test_a_number_a_passage_states_is_not_repaired_from_another_sentence() -> None:
    # hr_policy-01: the sentence quoted for "sixteen weeks'" was the one with "four weeks" back at
    # work, and the repair wrote "four weeks' leave", which the guard passed
    answer = "Primary caregivers receive sixteen weeks' leave on full pay."
    (item,) = feedback_items(_flagged(answer, "sixteen weeks'"), HR[:1])
    assert item.kind == "value" and item.values == ("four weeks",)
    assert evidence_repair(answer, [item]) is not None  # the quoted sentence alone would allow it
    assert evidence_repair(answer, [item], HR) is None  # but a passage states 16 weeks: left to the LLM


def test_a_compound_measure_is_not_half_replaced() -> None:
    # news-01, second round: "a year and a half" became "18 months and a half"
    answer = "Work starts in April and should last a year and a half."
    ctx = ["Construction will begin in April and is expected to take 18 months."]
    (item,) = feedback_items(_flagged(answer, "last a year and a half"), ctx)
    assert item.values == ("18 months",) and is_quantity("one month") and is_quantity("a year and a half")
    assert evidence_repair(answer, [item], ctx) is None


def test_a_number_glued_to_a_name_is_no_candidate() -> None:
    # product_manual-02: "80%" got the candidate "7" of the model name "R7"
    assert value_candidates("80%", "After recharging to 80%, it resumes cleaning.",
                            "The Tidy R7 robot vacuum gives up to 150 minutes of cleaning.") == []


def test_a_sentence_stating_the_flagged_words_breaks_a_tie() -> None:
    # product_manual-02: two sentences share "cleaning" with the claim; the one stating "80%" is its slot
    ctx = ["The Tidy R7 robot vacuum gives up to 150 minutes of cleaning in Eco mode.",
           "Below 15% it docks and resumes cleaning once it has charged to 80%."]
    (item,) = feedback_items(_flagged("After recharging to 80%, the cleaning goes on.", "80%"), ctx)
    assert item.evidence == ctx[1] and item.kind == "role"


def test_a_bare_answer_finds_its_evidence_by_the_question() -> None:
    ctx = ["Donnolo was born in Oria in 913. He was ransomed at Otranto, while the rest of his family was carried "
           "to Palermo and North Africa."]
    question = "The rest of Shabbethai Donnolo's family was carried to what location?"
    result = _flagged("Rome.", "Rome")
    (without,) = feedback_items(result, ctx)
    (item,) = feedback_items(result, ctx, question=question)
    assert without.evidence == "Donnolo was born in Oria in 913."  # no word to go by: the first sentence
    assert item.evidence.startswith("He was ransomed at Otranto")


SPORTS = ["Redhill equalised just before half-time when striker Kofi Mensah converted a penalty, and Mensah added "
          "a second in the 67th minute.", "Substitute Jamie Ortiz sealed the win in stoppage time.",
          "Ashford finished with ten men after defender Callum Reid was sent off for a second yellow card."]
SPORTS_ANSWER = ("Kofi Mensah got two of Redhill's goals — a penalty shortly before the break and another in the "
                 "67th minute — and Callum Reid, on as a substitute, added the third in stoppage time.")


def test_words_behind_a_dash_weigh_less_than_the_flagged_words_own_clause() -> None:
    # sports-01: the scorer's clause, across two dashes, outweighed "on as a substitute ... in stoppage time",
    # so the feedback quoted Mensah's sentence, the model could not fix the name and the answer was refused
    (item,) = feedback_items(_flagged(SPORTS_ANSWER, "Callum Reid"), SPORTS)
    assert item.evidence == SPORTS[1]
    assert (item.kind, item.values) == ("value", ("Jamie Ortiz",))


def test_a_title_the_claim_writes_in_lower_case_is_no_part_of_the_name() -> None:
    # "Substitute" opens the evidence sentence: it is the claim's "substitute", the slot word, not the name
    assert value_candidates("Callum Reid", SPORTS_ANSWER, SPORTS[1]) == ["Jamie Ortiz"]
    # a claim without the lower-case word keeps the match whole, as before
    assert value_candidates("Callum Reid", "Callum Reid scored the third.",
                            "Substitute Jamie Ortiz scored the third.") == ["Substitute Jamie Ortiz"]
