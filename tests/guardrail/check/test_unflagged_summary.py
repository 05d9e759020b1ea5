"""A failed answer with no flagged node is explained as such (issue 25): the summary used to say
"Every answer node is supported by the context." for an answer the guard had just failed. Real
guard (spaCy, MiniLM, the verifier) with the shipped config whose answer threshold is lowered so
that a faithful answer fails while none of its nodes falls below the node threshold.
"""

from __future__ import annotations

import pytest

from guardrail import Guard
from guardrail.config import load_config

CONTEXT = ["Margarethe Solberg (1889-1962) was a Norwegian botanist known for her work on Arctic lichens. "
           "She studied at the University of Oslo, where in 1915 she became the first woman to earn a doctorate "
           "in botany."]
ANSWER = "Margarethe Solberg was a Norwegian botanist. In 1915 she earned a doctorate in botany in Oslo."


@pytest.mark.slow
def test_a_failed_answer_without_a_flagged_node_names_its_weakest_claim() -> None:
    strict = load_config("default").model_copy(update={"name": "strict", "threshold": 0.01})
    r = Guard(strict).check(ANSWER, CONTEXT)
    assert not r.passed and r.flagged_nodes == ()
    summary = r.explanation.summary
    assert summary.startswith("No single answer node is unsupported, but the answer as a whole scores")
    assert "Least supported claim: '" in summary and "evidence: '" in summary
    assert "Every answer node is supported" not in summary
    assert Guard().check(ANSWER, CONTEXT).explanation.summary == "Every answer node is supported by the context."
