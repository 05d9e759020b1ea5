"""The verifier trainer's pair term and batch plans (``training/pair_loss.py``): tiny synthetic data, no model."""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "training"))

torch = pytest.importorskip("torch")

from pair_loss import build_plan, epoch_plan, pair_groups, pair_term, plan_units, unit_cap  # noqa: E402

SOURCES = ["claims:biz:paraphrase", "hard:biz:hn_date", "nli:snli", "halueval_qa"]


def _packed(rows: list[tuple[list[int], list[int], int, int, int]]) -> dict[str, Any]:
    """A ``load_data`` dict from (evidence ids, claim ids, label, source index, split) rows."""
    ids = [e + c for e, c, *_ in rows]
    lens = np.array([len(r) for r in ids])
    return {"ids": np.concatenate([np.asarray(r, dtype=np.uint16) for r in ids]),
            "off": np.concatenate([[0], np.cumsum(lens)]), "lens": lens,
            "type_start": np.array([len(e) for e, *_ in rows], dtype=np.int16),
            "label": np.array([r[2] for r in rows], dtype=np.uint8), "src": np.array([r[3] for r in rows], dtype=np.int16),
            "split": np.array([r[4] for r in rows], dtype=np.uint8), "src_names": SOURCES,
            "group_of_src": [s.split(":", 1)[0] for s in SOURCES]}


def _contrast_data(n_ctx: int = 30, seed: int = 0) -> dict[str, Any]:
    """Per context: claims rows (2 supported, 1 edit) and hard rows (edit + unedited) on one evidence,
    a hard row alone on another evidence, NLI rows on the same evidence, and one dev row."""
    r = random.Random(seed)
    rows = []
    for k in range(n_ctx):
        ev = [101, 1000 + k] + [r.randrange(2000, 3000) for _ in range(r.randrange(3, 40))] + [102]
        rows += [(ev, [7, k, 102], 1, 0, 0), (ev, [8, k, 102], 1, 0, 0), (ev, [9, k, 102], 0, 0, 0),
                 (ev, [10, k, 102], 0, 1, 0), (ev, [11, k, 102], 1, 1, 0), ([101, 5000 + k, 102], [12, 102], 0, 1, 0),
                 (ev, [13, k, 102], 1, 2, 0), (ev, [14, k, 102], 0, 2, 0), (ev, [15, k, 102], 0, 0, 1)]
    return _packed(rows)


def test_the_pair_term_vanishes_beyond_the_margin_and_is_positive_within_it() -> None:
    y = torch.tensor([1.0, 0.0])
    g = torch.tensor([0, 0])
    far = pair_term(torch.tensor([20.0, -20.0]), y, g, margin=1.0)
    assert 0.0 <= float(far) < 1e-12
    for logits in ([0.5, 0.0], [0.0, 0.0], [-1.0, 2.0]):
        assert float(pair_term(torch.tensor(logits), y, g, margin=1.0)) > 0.1
    near = float(pair_term(torch.tensor([0.5, 0.0]), y, g, margin=1.0))
    assert near == pytest.approx(float(torch.nn.functional.softplus(torch.tensor(0.5))))


def test_the_pair_term_pairs_only_opposite_labels_of_one_group() -> None:
    logits = torch.tensor([0.0, 0.0, 5.0, -5.0, 0.0], requires_grad=True)
    y = torch.tensor([1.0, 0.0, 1.0, 0.0, 0.0])
    # group 0: rows 0 (s) and 1 (u); group 1: rows 2 (s) and 3 (u); row 4 none
    term = pair_term(logits, y, torch.tensor([0, 0, 1, 1, -1]), margin=1.0)
    expected = (torch.nn.functional.softplus(torch.tensor(1.0)) + torch.nn.functional.softplus(torch.tensor(-9.0))) / 2
    assert float(term.detach()) == pytest.approx(float(expected))
    term.backward()
    assert logits.grad is not None
    assert float(logits.grad[0]) < 0 < float(logits.grad[1])  # descent raises the supported, lowers the edit
    assert float(logits.grad[4]) == 0.0
    none = pair_term(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]), torch.tensor([0, 0]), margin=1.0)
    assert float(none) == 0.0


def test_pair_groups_join_train_rows_of_one_source_and_evidence_with_both_labels() -> None:
    d = _contrast_data(n_ctx=3)
    g = pair_groups(d)
    for k in range(3):
        base = 9 * k
        claims, hard, alone, nli, dev = g[base:base + 3], g[base + 3:base + 5], g[base + 5], g[base + 6:base + 8], g[base + 8]
        assert len(set(claims.tolist())) == 1 and claims[0] >= 0
        assert len(set(hard.tolist())) == 1 and hard[0] >= 0 and hard[0] != claims[0]
        assert alone == -1 and (nli == -1).all() and dev == -1  # one label, not a pair source, dev row
    assert int(g.max()) + 1 == 6
    assert (pair_groups(d, ["nli"])[6:8] >= 0).all()


def test_with_the_pair_term_every_group_shares_a_batch_and_each_row_comes_once_per_epoch() -> None:
    d = _contrast_data()
    g = pair_groups(d)
    batch = 8
    plan, ends = build_plan(d, {}, batch, random.Random(0), 2, g)
    assert len(ends) == 2 and ends[-1] == len(plan)
    train = np.flatnonzero(d["split"] == 0)
    for a, b in ((0, ends[0]), (ends[0], ends[1])):
        rows = np.concatenate(plan[a:b])
        assert sorted(rows.tolist()) == train.tolist()
    for rows in plan:
        assert len(rows) <= batch
    batch_of = {}
    for b, rows in enumerate(plan[:ends[0]]):
        for i in rows.tolist():
            batch_of[i] = b
    for gid in range(int(g.max()) + 1):
        assert len({batch_of[i] for i in np.flatnonzero(g == gid).tolist()}) == 1
    weighted, _ = build_plan(d, {"claims": 2.0, "hard": 1.5}, batch, random.Random(0), 1, g)
    n = np.bincount(np.concatenate(weighted), minlength=len(d["lens"]))
    assert (n[np.flatnonzero(d["src"] == 0)[d["split"][d["src"] == 0] == 0]] == 2).all()


def test_groups_longer_than_the_cap_are_cut_with_both_labels_in_every_part() -> None:
    ev = [101, 55, 56, 102]
    d = _packed([(ev, [7, k, 102], int(k % 3 == 0), 1, 0) for k in range(9)])
    g = pair_groups(d)
    assert (g == 0).all()
    units = plan_units(d, g, cap=4)["hard"]
    assert sorted(len(u) for u in units) == [3, 3, 3]
    assert all(len(set(d["label"][u].tolist())) == 2 for u in units)
    assert unit_cap(64) == 16 and unit_cap(4) == 4 and unit_cap(2) == 2


def test_without_the_pair_term_the_plan_is_the_plain_plan_of_the_same_seed() -> None:
    r = np.random.default_rng(7)
    n = 300
    d = {"split": np.r_[np.zeros(250, np.uint8), np.ones(50, np.uint8)], "src": r.integers(0, 4, n).astype(np.int16),
         "lens": r.integers(10, 200, n), "group_of_src": ["claims", "hard", "nli", "halueval_qa"]}
    mix = {"claims": 2.0, "hard": 1.5, "*": 1.0}
    plan, ends = build_plan(d, mix, 8, random.Random(3), 2)
    rng = random.Random(3)
    first = epoch_plan(d, mix, 8, rng)
    again = first + epoch_plan(d, mix, 8, rng)
    assert ends == [len(first), len(again)]
    assert all(np.array_equal(a, b) for a, b in zip(plan, again))
    h = hashlib.sha256()
    for b in plan:
        h.update(np.asarray(b, dtype=np.int64).tobytes() + b"|")
    # the batches of gpu_train.epoch_plan before the pair term existed (same data, seed 3)
    assert h.hexdigest() == "e95b489dc8aca5dc8920c91d9e683db47be91abdf19ded0448f36bcf5e0d62c2"


def test_the_grouped_plan_is_rebuilt_identically_from_the_seed() -> None:
    d = _contrast_data()
    g = pair_groups(d)
    a, _ = build_plan(d, {"claims": 1.5}, 8, random.Random(4), 2, g)
    b, _ = build_plan(d, {"claims": 1.5}, 8, random.Random(4), 2, pair_groups(d))
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def test_parse_sweep_reads_the_pair_keys() -> None:
    pytest.importorskip("sklearn")
    from gpu_train import DEFAULT_SWEEP, parse_sweep

    plain, paired = parse_sweep("lr=5e-5;lr=5e-5,pair=0.5,margin=2,pairsrc=hard", 3.0)
    assert plain["pair"] == 0.0 and plain["margin"] == 1.0 and plain["pairsrc"] == ["claims", "hard"]
    assert paired["pair"] == 0.5 and paired["margin"] == 2.0 and paired["pairsrc"] == ["hard"]
    with pytest.raises(ValueError):
        parse_sweep("pair=-1", 3.0)
    default = parse_sweep(DEFAULT_SWEEP, 3.0)
    assert len(default) == 6 and [s["pair"] > 0 for s in default].count(True) == 1
