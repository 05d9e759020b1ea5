"""Times of day in any common surface (:mod:`guardrail.text.clock`), and the verifier's pair
reading them in the evidence's form (:func:`guardrail.text.value_forms.match_value_forms`)."""

from __future__ import annotations

import pytest

from guardrail.text.clock import CLOCK, clock_minutes
from guardrail.text.value_forms import match_value_forms


@pytest.mark.parametrize(("text", "minutes"), [
    ("18:00", 1080), ("6pm", 1080), ("6 p.m.", 1080), ("6 PM", 1080), ("6.30pm", 1110), ("06:30", 390),
    ("12 am", 0), ("12 noon", 720), ("noon", 720), ("midnight", 0), ("9 a.m.", 540), ("10.30am", 630),
])
def test_each_surface_reads_as_minutes_after_midnight(text: str, minutes: int) -> None:
    m = CLOCK.search(text)
    assert m is not None and clock_minutes(m) == minutes


@pytest.mark.parametrize("text", ["at 6", "a 3:1 ratio", "version 2.30", "10:00:00", "25:00", "2.5 pm", "pm",
                                  "Landy ran 3:58.0", "a 5:41.8 course record"])
def test_what_is_not_a_time(text: str) -> None:
    assert CLOCK.search(text) is None


def test_an_equal_time_takes_the_evidences_surface_and_a_different_one_stays() -> None:
    ev = "The museum is open daily from 10:00 to 18:00."
    assert match_value_forms(ev, "It's open 10am to 6pm.")[1] == "It's open 10:00 to 18:00."
    assert match_value_forms(ev, "It's open 10am to 8pm.")[1] == "It's open 10:00 to 8pm."
    support = "Support is available 9 a.m. to 5 p.m. CET."
    assert match_value_forms(support, "Support runs from 09:00 until 17:00.")[1] == \
        "Support runs from 9 a.m. until 5 p.m."


def test_the_kg_checks_read_times_with_the_same_clock() -> None:
    """A time with its minutes is one TIME slot of the parsed sentence, keyed by minutes after midnight,
    whatever its surface; an hour alone stays a number."""
    from guardrail.align.parsed import value_sentences

    def times(text: str) -> list[frozenset[str]]:
        return [sl.keys for s in value_sentences([text]) for sl in s.slots if sl.kind == "TIME"]

    assert times("It closes at 16:45.") == times("It closes at 4.45 pm.") == [frozenset({"t1005"})]
    assert times("It closes at 5pm.") == []
