"""The refinement benchmark's scoring reads number forms and answer openers (issue 25).

A right fact restated in another number form ("3" / "three") is kept, not lost; an answer
opener ("Yes.", "The answer is") or a sentence's first function word ("Once") is not a fact.
"""

from __future__ import annotations

from types import SimpleNamespace

from benchmarks.refine import _facts, _lost_facts, _score, _stated


def _out(answer: str, passed: bool, action: str = "refined") -> SimpleNamespace:
    return SimpleNamespace(answer=answer, action=action, stop_reason="passed",
                           result=SimpleNamespace(passed=passed, history=[1, 2]))


BRIDGE = {"source": "realistic", "id": "b", "answer": "The bridge has 3 arches and opened in 1921 in Lyon.",
          "wrong": "1921", "right": ["1911"], "keep": ""}
LEASE = {"source": "realistic", "id": "l", "keep": "", "wrong": "one month", "right": ["months", "two"],
         "answer": "Yes. Once the first half-year has passed, either party can end it with one month's notice."}


def test_a_fact_in_another_number_form_is_kept() -> None:
    assert _lost_facts(BRIDGE, "The bridge has three arches and opened in 1911 in Lyon.") == []
    assert _lost_facts(BRIDGE, "The bridge has 4 arches and opened in 1911 in Lyon.") == ["3"]
    assert _stated("three", "It has 3 arches.") and _stated("1.5 million", "1,500,000 people came.")
    assert not _stated("27", "about 127 tonnes")  # a number is matched whole


def test_a_right_fact_in_digits_fixes_an_error_written_in_words() -> None:
    row = _score(LEASE, SimpleNamespace(passed=False), _out(
        "Yes. Once the first half-year has passed, either party can end it with 2 months' notice.", True), 3.0)
    assert row["fixed"] and not row["broken"]


def test_an_opener_is_not_a_lost_fact() -> None:
    assert _facts("Yes. Once the first half-year has passed, Anna may leave.") == {"Anna"}
    assert _facts("The answer is Paris.") == {"Paris"}
    assert _lost_facts(LEASE, "Either party can end it with two months' notice.") == []
