"""The refinement benchmark's scoring (``benchmarks/refine.py``): fixed, broken and lost facts."""

from __future__ import annotations

from types import SimpleNamespace

from benchmarks.refine import _facts, _lost_facts, _score


def _out(answer: str, passed: bool, action: str = "refined") -> SimpleNamespace:
    return SimpleNamespace(answer=answer, action=action, stop_reason="passed",
                           result=SimpleNamespace(passed=passed, history=[1, 2]))


ITEM = {"source": "realistic", "id": "x", "answer": "Marie Curie won the Chemistry prize in 1921 in Stockholm.",
        "wrong": "1921", "right": ["1911"], "keep": ""}


def test_facts_are_numbers_and_names_not_sentence_openers() -> None:
    assert _facts("In 1911 Marie Curie won 2,000 francs. The prize was hers.") == {"1911", "Marie Curie", "2,000"}


def test_a_fix_that_keeps_the_other_facts_is_fixed_and_not_broken() -> None:
    row = _score(ITEM, SimpleNamespace(passed=False), _out(
        "Marie Curie won the Chemistry prize in 1911 in Stockholm.", True), 3.0)
    assert row["fixed"] and not row["broken"] and row["lost_facts"] == []


def test_a_fix_that_drops_a_right_fact_is_broken() -> None:
    row = _score(ITEM, SimpleNamespace(passed=False), _out("Marie Curie won the Chemistry prize in 1911.", True), 3.0)
    assert row["fixed"] and row["broken"] and _lost_facts(ITEM, "Marie Curie won it in 1911.") == ["Chemistry", "Stockholm"]


def test_a_different_wrong_value_is_not_fixed() -> None:
    row = _score(ITEM, SimpleNamespace(passed=False), _out(
        "Marie Curie won the Chemistry prize in 1903 in Stockholm.", True), 3.0)
    assert not row["fixed"]


FAITHFUL = {"source": "faithful", "id": "f", "wrong": None,
            "answer": "Once the charge drops under 15%, the R7 heads back to its dock by itself. After recharging "
                      "to 80%, it picks up cleaning from the point where it left off."}
FAITHFUL["keep"] = FAITHFUL["answer"]


def test_a_faithful_rewording_that_keeps_every_number_and_name_is_not_broken() -> None:
    """product_manual-02 on the benchmark: under the old 70 % word overlap this counted as broken."""
    reworded = ("Once the battery falls below 15%, the R7 heads back to its dock automatically and resumes cleaning "
                "where it stopped once it has charged to 80%.")
    row = _score(FAITHFUL, SimpleNamespace(passed=False), _out(reworded, True), 3.0)
    assert not row["broken"] and not row["changed_fact"]
    lost = _score(FAITHFUL, SimpleNamespace(passed=False), _out("The R7 heads back to its dock by itself.", True), 3.0)
    assert lost["broken"]  # 15% and 80% lost
    wordy = {**ITEM, "answer": "It rained. The roads were closed all day.", "wrong": "rained",
             "keep": "The roads were closed all day."}
    assert _score(wordy, SimpleNamespace(passed=False), _out("It was dry.", True), 3.0)["broken"]  # no fact: words
