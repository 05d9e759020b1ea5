"""Times of day in any common surface: "18:00", "6pm", "6 p.m.", "6.00 pm", "noon".

A context that says "open from 10:00 to 18:00" and an answer that says "open 10am to 6pm"
state the same hours; the claim verifier, comparing surfaces, read the faithful answer as
unsupported (p 0.04 on a museum's opening hours). :data:`CLOCK` finds a time of day and
:func:`clock_minutes` reads it as minutes after midnight, so that
:func:`~guardrail.text.value_forms.match_value_forms` can write an answer's time in the
evidence's surface when the two are equal (and leave it as written when they are not).

Read: 24-hour ``H:MM`` / ``HH:MM`` (hours 0-23); 12-hour ``H``, ``H:MM`` or ``H.MM`` followed by
"am" / "pm" in any spelling ("a.m.", "AM", "p. m."); "noon" and "midnight". A bare number is
never a time ("at 6" could be anything), nor is a 24-hour time with seconds, a race time with
tenths ("3:59.4": minutes, seconds and tenths) or a ratio with one-digit minutes ("3:1").
"""

from __future__ import annotations

import re

__all__ = ["CLOCK", "clock_minutes"]

#: A time of day (see the module docstring); groups: 12-hour hour, minutes, am/pm letter;
#: 24-hour hour, minutes; "noon" / "midnight".
CLOCK = re.compile(
    r"(?<![\w.,:])(?:(1[0-2]|0?[1-9])(?:[:.]([0-5]\d))?\s?([ap])(?:\.\s?m\b\.?|\s?m\b)"
    r"|([01]?\d|2[0-3]):([0-5]\d)(?![\d:]|\.\d)"
    r"|(noon|midnight)\b)", re.I)


def clock_minutes(m: re.Match[str]) -> int:
    """Minutes after midnight of a :data:`CLOCK` match, in [0, 1440).

    Parameters
    ----------
    m : re.Match
        A match of :data:`CLOCK`.

    Returns
    -------
    int

    Examples
    --------
    >>> [clock_minutes(CLOCK.search(t)) for t in ("18:00", "6pm", "6.30 p.m.", "12 am", "12pm", "noon", "09:05")]
    [1080, 1080, 1110, 0, 720, 720, 545]
    >>> CLOCK.search("Landy ran 3:58.0 in Turku.") is None
    True
    """
    if m.group(6):
        return 720 if m.group(6).lower() == "noon" else 0
    if m.group(4):
        return int(m.group(4)) * 60 + int(m.group(5))
    hour = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "p" else 0)
    return hour * 60 + int(m.group(2) or 0)
