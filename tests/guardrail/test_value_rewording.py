"""A value written in another form is the same value (issue 23: faithful rewordings of numbers and dates).

The shipped default guard and real spaCy: an answer that writes the context's "$1.5 million",
"15%", "3 March 2011" or "10 hours" as "$1,500,000", "fifteen per cent", "2011-03-03" or "600
minutes" passes, and the same answer with another value is flagged on that value.
"""

from __future__ import annotations

import pytest

from guardrail import Guard

pytestmark = pytest.mark.slow

CONTEXT = ("Norvik Robotics, founded on 3 March 2011 in Gothenburg, reported revenue of $1.5 million in 2023, up 15% "
           "from the year before. Its Atlas lifter carries up to 450 kilograms and runs for 10 hours on one charge. "
           "The company employs 340 people, a quarter of them engineers.")

#: (faithful answer, the same answer with a wrong value, the wrong value)
CASES = [
    ("Norvik reported revenue of $1,500,000 in 2023.", "Norvik reported revenue of $2,500,000 in 2023.", "2,500,000"),
    ("Revenue rose fifteen per cent in 2023.", "Revenue rose twenty-five per cent in 2023.", "twenty-five"),
    ("Norvik was founded on 2011-03-03.", "Norvik was founded on 2011-03-13.", "2011-03-13"),
    ("Norvik was founded on March 3, 2011.", "Norvik was founded on March 13, 2011.", "March 13"),
    ("The Atlas lifter runs for ten hours per charge.", "The Atlas lifter runs for twelve hours per charge.", "twelve"),
    ("Norvik's Atlas lifter carries up to 450kg.", "Norvik's Atlas lifter carries up to 650kg.", "650"),
    # another unit (guardrail.text.quantities, pint)
    ("The Atlas lifter runs for 600 minutes on one charge.", "The Atlas lifter runs for 500 minutes on one charge.", "500"),
    ("Norvik's Atlas lifter carries up to 992 pounds.", "Norvik's Atlas lifter carries up to 1,200 pounds.", "1,200"),
]


@pytest.fixture(scope="module")
def guard() -> Guard:
    return Guard()


@pytest.mark.parametrize(("right", "wrong", "value"), CASES)
def test_a_value_in_another_form_passes_and_another_value_is_flagged(guard, right, wrong, value):
    r_right, r_wrong = guard.check(right, [CONTEXT], log=False), guard.check(wrong, [CONTEXT], log=False)
    assert r_right.passed, (right, round(r_right.score, 3))
    assert not r_wrong.passed, (wrong, round(r_wrong.score, 3))
    flagged = [wrong[n.span.start:n.span.end] for n in r_wrong.flagged_nodes if n.span is not None]
    assert any(value in t for t in flagged), flagged
