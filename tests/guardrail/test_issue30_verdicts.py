"""Issue 30, items 1-4: inputs that flipped a verdict or misreported it.

1. hedges anywhere in a sentence (trailing, inner, adverbs) are removed before verifying;
2. decimal digits of every script and Cyrillic/Greek homoglyphs inside Latin words are
   read as their ASCII forms;
3. one flagged node per error span;
4. a contrastive explanation names the evidence of the same kind (a year for a year).

Fast tests use fakes; the ``slow`` ones run the real guard (spaCy, MiniLM, the verifier).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from guardrail import Guard
from guardrail.check.judge import flag_nodes
from guardrail.config import GuardConfig
from guardrail.detectors.base import AlignmentInput
from guardrail.detectors.occlusion import MAX_OCCLUSIONS
from guardrail.detectors.verifier import VerifierDetector
from guardrail.text.hedges import hedge_spans, strip_hedges
from guardrail.text.homoglyphs import fold_digits, fold_homoglyphs
from guardrail.types import DetectorOutput, KnowledgeGraph, Node, NodeSupport, Span
from guardrail.validate import clean_text

sys.path.insert(0, str(Path(__file__).parent / "detectors"))
from _fakes import FakeEncoder, apple_context  # noqa: E402

TRAILING = (", but I'm not sure.", ", I think.", ", if I remember correctly.", " (if I'm not mistaken).",
            ", but I could be wrong.", " - not 100% sure though.", ", as far as I know.")


# ------------------------------------------------------------------ item 1: hedges anywhere
@pytest.mark.parametrize("hedged", [
    "Apple was founded in 1999" + h for h in TRAILING] + [
    "Apple was, I think, founded in 1999.",
    "Apple was probably founded in 1999.",
    "I'm not sure, but I think Apple was founded in 1999.",
    "Apple was founded in 1999 I believe.",
])
def test_hedges_anywhere_are_stripped(hedged: str):
    assert strip_hedges(hedged) == "Apple was founded in 1999."


@pytest.mark.parametrize("plain", ["Apple was founded in 1976 by Steve Jobs, not Bill Gates.",
                                   "I'm not sure.", "The thinking machine weighs 5 kg."])
def test_statements_without_hedges_or_with_nothing_else_are_kept(plain: str):
    assert strip_hedges(plain) == plain


def test_hedge_spans_cover_the_trailing_hedge():
    text = "Apple was founded in 1999, but I'm not sure."
    (s, e), = hedge_spans(text)
    assert text[s:e] == ", but I'm not sure"


class AnyHedgeFooledVerifier:
    """A stand-in cross-encoder fooled by a hedge anywhere in the claim (the attack's weakness)."""

    def score(self, evidence: Sequence[str], claims: Sequence[str]) -> np.ndarray:
        out = []
        for c in claims:
            low = c.lower().replace("\u2019", "'")
            fooled = any(h in low for h in ("not sure", "i think", "remember", "mistaken", "wrong", "know"))
            out.append(0.9 if fooled or "1999" not in low else 0.1)
        return np.array(out)


@pytest.mark.parametrize("hedge", TRAILING)
def test_a_trailing_hedge_does_not_pass_a_wrong_claim(hedge: str):
    answer = "Apple was founded in 1999" + hedge
    item = AlignmentInput(answer, ("Apple was founded in 1976 by Steve Jobs.",), "When was Apple founded?",
                          KnowledgeGraph(texts=(answer,)), apple_context(), FakeEncoder())
    assert VerifierDetector(AnyHedgeFooledVerifier()).detect(item).score == pytest.approx(0.9)


VELTRIX = ("Veltrix Robotics was founded in 2011 in Tampere, Finland. It employs 520 people and raised "
           "48 million euros in 2020. Employees are entitled to 30 days of paid leave per year and a "
           "probation of four weeks.")


@pytest.mark.slow
@pytest.mark.parametrize("hedge", TRAILING)
def test_real_guard_flags_wrong_answers_whatever_the_trailing_hedge(guard: Guard, hedge: str):
    for wrong in ("Employees are entitled to 25 days of paid leave", "Veltrix Robotics was founded in 2008"):
        bare = guard.check(wrong + ".", [VELTRIX])
        hedged = guard.check(wrong + hedge, [VELTRIX])
        assert not bare.passed and not hedged.passed, (wrong, hedge, hedged.score)
        assert [f.text for f in hedged.flagged_nodes] == [f.text for f in bare.flagged_nodes]


# ------------------------------------------------------------------ item 2: digits, homoglyphs
@pytest.mark.parametrize("digits", ["٣٠", "۳۰", "३०", "৩০", "๓๐", "３０"])
def test_decimal_digits_of_every_script_read_as_ascii(digits: str):
    text = f"Entitled to {digits} days"
    assert clean_text(text) == "Entitled to 30 days"
    assert fold_digits(digits) == "30"


def test_homoglyphs_inside_latin_words_fold_and_offsets_hold():
    text = "The probation is f\u043eur w\u0435\u0435ks in Z\u00fcrich; \u043c\u0438\u0440 stays."
    folded = clean_text(text)
    assert folded == "The probation is four weeks in Z\u00fcrich; \u043c\u0438\u0440 stays."
    assert len(folded) == len(text)
    assert fold_homoglyphs("\u03c1ay") == "pay"


@pytest.mark.slow
@pytest.mark.parametrize("wrong,ascii_form", [
    ("Employees are entitled to \u0662\u0665 days of paid leave.", "Employees are entitled to 25 days of paid leave."),
    ("Employees are entitled to \u0968\u096b days of paid leave.", "Employees are entitled to 25 days of paid leave."),
    ("Employees are entitled to \u0e52\u0e55 days of paid leave.", "Employees are entitled to 25 days of paid leave."),
    ("The probation is fiv\u0435 w\u0435\u0435ks.", "The probation is five weeks."),
])
def test_real_guard_judges_foreign_digits_and_homoglyphs_as_their_ascii_form(guard: Guard, wrong: str,
                                                                           ascii_form: str):
    r, ref = guard.check(wrong, [VELTRIX]), guard.check(ascii_form, [VELTRIX])
    assert not ref.passed
    assert not r.passed and r.score == pytest.approx(ref.score, abs=1e-6)


@pytest.mark.slow
def test_real_guard_passes_a_right_answer_with_homoglyphs(guard: Guard):
    assert guard.check("The probation is f\u043eur w\u0435\u0435ks.", [VELTRIX]).passed


# ------------------------------------------------------------------ item 3: one node per span
def _node(nid: str, text: str, start: int) -> Node:
    return Node(id=nid, text=text, label=text.lower(), kind="CARDINAL",
                span=Span(start=start, end=start + len(text), source=-1))


def test_overlapping_low_nodes_are_flagged_once():
    a, b, c = _node("-1:11", "250", 11), _node("-1:11b", "250 people", 11), _node("-1:40", "2020", 40)
    out = DetectorOutput(name="verifier", score=0.9, node_support=(
        NodeSupport(node_id=a.id, support=0.02), NodeSupport(node_id=b.id, support=0.02),
        NodeSupport(node_id=c.id, support=0.3)))
    cfg = GuardConfig(node_source="verifier")
    flagged = flag_nodes(KnowledgeGraph(nodes=(a, b, c)), [out], cfg)
    assert [f.text for f in flagged] == ["250 people", "2020"]


@pytest.mark.slow
def test_real_guard_flags_one_node_per_wrong_number(guard: Guard):
    r = guard.check("It employs 250 people and raised 84 million euros in 2020.", [VELTRIX])
    spans = [(f.span.start, f.span.end) for f in r.flagged_nodes if f.span]
    assert not r.passed and len(spans) == 2
    assert all(e1 <= s2 for (_, e1), (s2, _) in zip(spans, spans[1:]))


# ------------------------------------------------------------------ item 4: evidence of the same kind
@pytest.mark.slow
def test_real_guard_contrasts_a_year_with_the_context_year(guard: Guard):
    r = guard.check("Veltrix Robotics was founded in 2008 in Tampere, Finland.", [VELTRIX])
    assert [f.text for f in r.flagged_nodes] == ["2008"]
    assert r.explanation.sentences[0].endswith("the context says 2011")
    assert all(p.claim.object.text != "Tampere" for p in r.explanation.contradictions)


# ------------------------------------------------------------------ item 5: bounded work per answer
class CountingVerifier:
    """Every claim unsupported; records how many pairs each call scores."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def score(self, evidence: Sequence[str], claims: Sequence[str]) -> np.ndarray:
        self.calls.append(len(claims))
        return np.full(len(claims), 0.1)


def test_triples_verified_per_answer_are_bounded():
    from guardrail.detectors.verifier import MAX_TRIPLE_CHECKS
    from guardrail.types import Triple

    sents, nodes, triples = [], [], []
    pos = 0
    for i in range(100):
        text = f"Firm{i} hired {100 + i} people in {1900 + i}."
        sents.append(text)
        a = _node(f"-1:{pos}", f"Firm{i}", pos)
        b = _node(f"-1:{pos + len(f'Firm{i} hired ')}", str(100 + i), pos + len(f"Firm{i} hired "))
        c = _node(f"-1:{pos + text.index(str(1900 + i))}", str(1900 + i), pos + text.index(str(1900 + i)))
        nodes += [a, b, c]
        triples += [Triple(subject=a, relation="hire", object=b), Triple(subject=a, relation="hire in", object=c)]
        pos += len(text) + 1
    answer = " ".join(sents)
    context = " ".join(f"Firm{i} hired {200 + i} people in {1800 + i}." for i in range(300))
    item = AlignmentInput(answer, (context,), None, KnowledgeGraph(nodes=tuple(nodes), triples=tuple(triples)),
                          KnowledgeGraph(texts=(context,)), FakeEncoder())
    fake = CountingVerifier()
    out = VerifierDetector(fake).detect(item)
    # the sentence claims at their three evidence views, then at most 64 triple checks and 24 occlusions
    assert fake.calls[0] == 100 * 3 and fake.calls[1] <= MAX_TRIPLE_CHECKS == 64
    assert sum(fake.calls[2:]) <= MAX_OCCLUSIONS == 24 and len(fake.calls) <= 3
    assert out.score == pytest.approx(0.9) and len(out.node_support) == 300


def test_trigram_shortlist_matches_the_plain_jaccard_ranking():
    import random

    from guardrail.text.lexical import shortlist, trigrams

    def plain(queries: list[str], candidates: list[str], k: int) -> list[int]:
        if len(candidates) <= k:
            return list(range(len(candidates)))
        cand, keep = [trigrams(c) for c in candidates], set()
        for q in queries:
            qg = trigrams(q)
            scores = [len(qg & c) / (len(qg | c) or 1) for c in cand]
            keep.update(sorted(range(len(cand)), key=scores.__getitem__, reverse=True)[:k])
        return sorted(keep)

    rng = random.Random(7)
    words = ["apple", "founded", "1976", "steve", "jobs", "tampere", "robotics", "x", ""]
    for _ in range(100):
        cands = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 4))) for _ in range(rng.randint(1, 60))]
        queries = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 4))) for _ in range(rng.randint(1, 5))]
        k = rng.randint(1, 10)
        assert shortlist(queries, cands, k) == plain(queries, cands, k)
