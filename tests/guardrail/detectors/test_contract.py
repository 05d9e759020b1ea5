"""Common checks for every registered detector (scikit-learn's ``check_estimator`` style).

Each row of :data:`guardrail.detectors.REGISTRY` is built by name and must: construct with
its defaults, reject bad parameters with a :class:`ConfigError`, return a score in
``[0, 1]`` with node support in ``[0, 1]`` for answer nodes only, give the same output twice,
and handle an empty claim graph. Rows that load trained models (``verifier``, ``kg_guard``)
are slow; the others run on the deterministic :class:`guardrail.testing.FakeEncoder`.
"""

from __future__ import annotations

import pytest
from _fakes import apple_claim, apple_context

from guardrail.detectors import REGISTRY, AlignmentInput, Detector, build_detector
from guardrail.errors import ConfigError
from guardrail.testing import FakeEncoder
from guardrail.types import KnowledgeGraph

_MODEL_ROWS = {"verifier", "kg_guard"}
#: White-box rows need the user's own generator model: they must refuse to build without one.
_USER_MODEL_ROWS = {"gga"}
ROWS = [pytest.param(n, marks=pytest.mark.slow) if n in _MODEL_ROWS else n
        for n in sorted(REGISTRY) if n not in _USER_MODEL_ROWS]


def _item(claim: KnowledgeGraph) -> AlignmentInput:
    ctx = apple_context()
    answer = claim.texts[0] if claim.texts else ""
    return AlignmentInput(answer, ctx.texts, "When was Apple founded?", claim, ctx, FakeEncoder(), None)


@pytest.mark.parametrize("name", ROWS)
def test_builds_by_name_and_is_a_detector(name):
    det = build_detector(name)
    assert isinstance(det, Detector) and det.name == name


@pytest.mark.parametrize("name", ROWS)
def test_rejects_unknown_parameters(name):
    with pytest.raises(ConfigError, match=name):
        build_detector(name, no_such_parameter=1)


@pytest.mark.parametrize("name", ROWS)
def test_score_and_support_ranges(name):
    det = build_detector(name)
    for year in ("1976", "1999"):
        item = _item(apple_claim(year))
        out = det.detect(item)
        assert 0.0 <= out.score <= 1.0
        answer_ids = {n.id for n in item.claim_graph.nodes}
        for s in out.node_support:
            assert 0.0 <= s.support <= 1.0 and s.node_id in answer_ids


@pytest.mark.parametrize("name", ROWS)
def test_deterministic(name):
    det = build_detector(name)
    item = _item(apple_claim("1999"))
    a, b = det.detect(item), det.detect(item)
    assert a.score == b.score and a.node_support == b.node_support


@pytest.mark.parametrize("name", ROWS)
def test_empty_claim_graph(name):
    det = build_detector(name)
    out = det.detect(_item(KnowledgeGraph(texts=("Apple.",))))
    assert 0.0 <= out.score <= 1.0 and out.node_support == ()


@pytest.mark.parametrize("name", sorted(_USER_MODEL_ROWS))
def test_white_box_rows_refuse_to_build_without_a_model(name):
    from guardrail.errors import DetectorError

    with pytest.raises((DetectorError, ConfigError), match="model"):
        build_detector(name)


def test_unknown_name_lists_the_registry():
    with pytest.raises(ConfigError, match="wl_kernel"):
        build_detector("no_such_detector")
