"""Batch plans of the verifier trainer (``gpu_train.py``) and its pairwise contrast term.

:func:`epoch_plan` is the plain length-grouped plan (moved here unchanged from ``gpu_train.py``);
:func:`grouped_epoch_plan` keeps the rows of each contrast group in one batch, so that
:func:`pair_term` can add ``softplus(margin - (logit_supported - logit_unsupported))`` over them.
BCE scores every row on its own, never asking that a minimal edit score below the claim it edits
on the same evidence; the claims dev ROC-AUC (which ranks exactly those) saturated at about 0.67
under it within 1-2 epochs (``training/gpu_train_log_v4.txt``, ``gpu_train_log_v5.txt``).

Groups are derived from the packed data (``training/gpu_prepare.py`` stores no group for train rows:
its ``group`` is the dev item, -1 on every train row): train rows of the *pair sources* (mix groups,
by default ``claims`` and ``hard``) with the same evidence tokens (the ids before the claim) form one
group, kept only when it holds both labels. That pairs a claims-data edit with the claim it edits
when both select the same evidence (89 % of the claims train contexts' edits at the three evidence
budgets of ``build_pairs.py``) and a hard negative with its unedited claim likewise (not measured here).

Standalone like ``gpu_train.py``: numpy and torch only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

__all__ = ["PAIR_SOURCES", "epoch_plan", "build_plan", "pair_groups", "plan_units", "grouped_epoch_plan",
           "pair_term", "unit_cap"]

#: Mix groups (source name before ``:``) whose rows are paired by evidence.
PAIR_SOURCES = ("claims", "hard")


def epoch_plan(d: dict[str, Any], mix: dict[str, float], batch: int, rng: random.Random) -> list[np.ndarray]:
    """One epoch of length-grouped batches over the train rows, each source group repeated by its
    mix weight (the fractional part drawn at random).

    Returns
    -------
    list of ndarray
        Row indices per batch (at most ``batch`` rows of similar length), in random order.
    """
    train = np.flatnonzero(d["split"] == 0)
    groups = np.array([d["group_of_src"][s] for s in d["src"][train]])
    idx: list[int] = []
    for g in sorted(set(groups)):
        rows = train[groups == g].tolist()
        w = mix.get(g, mix.get("*", 1.0))
        idx += rows * int(w)
        idx += rng.sample(rows, int(round((w - int(w)) * len(rows))))
    rng.shuffle(idx)
    lens = d["lens"]
    out = []
    chunk = batch * 50
    for c in range(0, len(idx), chunk):
        part = sorted(idx[c:c + chunk], key=lambda i: lens[i])
        out += [np.asarray(part[b:b + batch]) for b in range(0, len(part), batch)]
    rng.shuffle(out)
    return out


def build_plan(d: dict[str, Any], mix: dict[str, float], batch: int, rng: random.Random, epochs: int,
               groups: np.ndarray | None = None) -> tuple[list[np.ndarray], list[int]]:
    """The batches of ``epochs`` epochs and the step at which each epoch ends.

    Parameters
    ----------
    d : dict
        From ``gpu_train.load_data``.
    mix : dict
        Mix group -> weight.
    batch : int
        Most rows per batch.
    rng : random.Random
        The run's generator (seeded by its ``seed``: a resumed run rebuilds the same plan).
    epochs : int
        Epochs planned.
    groups : ndarray, optional
        Contrast groups (:func:`pair_groups`): each group's rows then share a batch
        (:func:`grouped_epoch_plan`); ``None``: :func:`epoch_plan`, row by row.

    Returns
    -------
    tuple of (list of ndarray, list of int)
        Row indices per batch, and the cumulative batch count at the end of each epoch.
    """
    units = plan_units(d, groups, unit_cap(batch)) if groups is not None else None
    plan: list[np.ndarray] = []
    ends: list[int] = []
    for _ in range(epochs):
        plan += (epoch_plan(d, mix, batch, rng) if units is None
                 else grouped_epoch_plan(units, mix, d["lens"], batch, rng))
        ends.append(len(plan))
    return plan, ends


def pair_groups(d: dict[str, Any], sources: Sequence[str] = PAIR_SOURCES) -> np.ndarray:
    """Contrast group of every row: train rows of ``sources`` with the same mix group and evidence.

    Parameters
    ----------
    d : dict
        From ``gpu_train.load_data`` (``ids``, ``off``, ``type_start``, ``label``, ``split``,
        ``src``, ``group_of_src``).
    sources : sequence of str
        Mix groups whose rows are grouped.

    Returns
    -------
    ndarray of int64
        Group id per row (0, 1, ...), -1 for rows outside ``sources``, dev rows and groups with
        one label only.
    """
    out = np.full(len(d["off"]) - 1, -1, dtype=np.int64)
    keep = {i for i, g in enumerate(d["group_of_src"]) if g in set(sources)}
    rows = [int(i) for i in np.flatnonzero(d["split"] == 0) if int(d["src"][i]) in keep]
    found: dict[tuple[str, bytes], list[int]] = {}
    for i in rows:
        a = int(d["off"][i])
        key = (d["group_of_src"][int(d["src"][i])], d["ids"][a:a + int(d["type_start"][i])].tobytes())
        found.setdefault(key, []).append(i)
    n = 0
    for members in found.values():
        if len({int(d["label"][i]) for i in members}) == 2:
            out[members] = n
            n += 1
    return out


def unit_cap(batch: int) -> int:
    """Most rows of one plan unit: a quarter batch, at least 4 (at most ``batch``)."""
    return min(batch, max(4, batch // 4))


def plan_units(d: dict[str, Any], groups: np.ndarray, cap: int) -> dict[str, list[np.ndarray]]:
    """The train rows of every mix group as plan units: each contrast group whole (cut into
    ``ceil(n / cap)`` parts, labels spread over them round-robin, when it has more than ``cap``
    rows), every other row alone.

    Returns
    -------
    dict
        Mix group -> list of row-index arrays, in row order.
    """
    train = np.flatnonzero(d["split"] == 0).tolist()
    members: dict[int, list[int]] = {}
    for i in train:
        if groups[i] >= 0:
            members.setdefault(int(groups[i]), []).append(i)
    out: dict[str, list[np.ndarray]] = {}
    for i in train:
        units = out.setdefault(d["group_of_src"][int(d["src"][i])], [])
        gid = int(groups[i])
        if gid < 0:
            units.append(np.asarray([i]))
        elif members[gid][0] == i:  # the group's first row: the whole group goes here
            rows = sorted(members[gid], key=lambda r: int(d["label"][r]))  # negatives first
            k = -(-len(rows) // cap)
            units += [np.asarray(rows[j::k]) for j in range(k)]
    return out


def grouped_epoch_plan(units: dict[str, list[np.ndarray]], mix: dict[str, float], lens: np.ndarray,
                       batch: int, rng: random.Random) -> list[np.ndarray]:
    """One epoch of length-grouped batches made of whole units (:func:`epoch_plan` with
    units in place of rows): each mix group's units repeated by its weight (the fractional part
    drawn at random), shuffled, sorted by length within chunks of about ``50 * batch`` rows and
    packed into batches of at most ``batch`` rows.

    Returns
    -------
    list of ndarray
        Row indices per batch, in random order; the members of a unit share a batch.
    """
    todo: list[np.ndarray] = []
    for g in sorted(units):
        us = units[g]
        w = mix.get(g, mix.get("*", 1.0))
        todo += us * int(w)
        todo += rng.sample(us, int(round((w - int(w)) * len(us))))
    rng.shuffle(todo)
    out: list[np.ndarray] = []
    start, rows = 0, 0
    for k, u in enumerate(todo):
        rows += len(u)
        if rows >= 50 * batch or k == len(todo) - 1:
            out += _pack(sorted(todo[start:k + 1], key=lambda x: int(lens[x].max())), batch)
            start, rows = k + 1, 0
    rng.shuffle(out)
    return out


def _pack(units: list[np.ndarray], batch: int) -> list[np.ndarray]:
    """Units in order into batches of at most ``batch`` rows (a unit never split)."""
    out: list[np.ndarray] = []
    cur: list[np.ndarray] = []
    n = 0
    for u in units:
        if cur and n + len(u) > batch:
            out.append(np.concatenate(cur))
            cur, n = [], 0
        cur.append(u)
        n += len(u)
    if cur:
        out.append(np.concatenate(cur))
    return out


def pair_term(logits: torch.Tensor, labels: torch.Tensor, groups: torch.Tensor, margin: float) -> torch.Tensor:
    """Mean ``softplus(margin - (logit_s - logit_u))`` over the (supported, unsupported) row pairs of
    one batch that share a contrast group.

    Parameters
    ----------
    logits : Tensor
        Shape (B,), one logit per row (higher = supported).
    labels : Tensor
        Shape (B,), 1 supported, 0 unsupported.
    groups : Tensor
        Shape (B,), contrast group per row (:func:`pair_groups`), -1 for none.
    margin : float
        Logit gap below which a pair is still pushed apart.

    Returns
    -------
    Tensor
        A scalar; 0 when the batch holds no pair.
    """
    same = (groups[:, None] == groups[None, :]) & (groups[:, None] >= 0)
    pos = labels > 0.5
    mask = (same & pos[:, None] & ~pos[None, :]).to(logits.dtype)
    gap = logits[:, None] - logits[None, :]  # [s, u]: logit_s - logit_u
    # no boolean indexing and no branch: no device sync per step
    return (torch.nn.functional.softplus(margin - gap) * mask).sum() / mask.sum().clamp(min=1.0)
