"""Train the claim verifier to convergence on a GPU in minutes, or on the CPU over hours with resume.

Standalone: needs only torch, transformers, safetensors, numpy and scikit-learn (what a bare CUDA
machine has), never the ``guardrail`` package. Reads the pairs packed by ``training/gpu_prepare.py``
(token ids exactly as the ONNX verifier sees them) and the starting weights (a saved verifier,
by default the committed ``guardrail/models/verifier``: a warm restart).

GPU (one call, ``training/gpu_run.sh``): a small sweep (learning rate, seed, pair mix) run one
after the other inside ``--budget-s``; each run is a fresh copy of the starting weights with a
linear warm-up / decay schedule fitted to its time slice, evaluated on the *select* rows after
every epoch. The checkpoint with the best selection score over all runs and epochs is written
as fp16 ``model.safetensors`` cut into ``--part-mib`` pieces (``model.safetensors.part0`` ...; join
them with ``cat``), with ``metrics.json`` (every run's dev curve, the chosen checkpoint's select
and report metrics per source and kind) and ``train_log.txt``.

CPU (``--state DIR``): one run; model, optimiser, schedule, step and RNG state are saved to
``DIR/state.pt`` every ``--save-every-s`` seconds and at the end, and a restarted command resumes
from them (the batch plan is rebuilt from the seed, so the same pairs come next).

Pair term (sweep key ``pair``, ``training/pair_loss.py``): ``pair * softplus(margin - (logit_s - logit_u))``
over a batch's supported / unsupported rows on the same evidence, added to the BCE; the plan then keeps
each such group in one batch. ``pair=0`` (the default): the plan and the loss of a run without it.

Selection score: the mean of the claims-data ROC-AUC (dev part a) and the mean HaluEval ROC-AUC
(QA, dialogue, summarization val, even items); the report rows (claims dev part b, HaluEval val odd
items, NLI dev) are never used to choose.

Usage::

    python training/gpu_train.py --data .gpu/data.npz --out /tmp/v4 --budget-s 480       # GPU sweep
    python training/gpu_train.py --data .gpu/data.npz --out /tmp/v4 --sweep "lr=3e-5" \\
        --budget-s 36000 --state ~/.cache/kg-guardrail/verifier-state                     # CPU, resumable
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pair_loss import PAIR_SOURCES, build_plan, epoch_plan, pair_groups, pair_term  # noqa: E402

__all__ = ["RunSpec", "parse_sweep", "load_data", "epoch_plan", "evaluate", "main"]

DEFAULT_SWEEP = ("lr=3e-5,mix=claims:2/hard:2;lr=5e-5,mix=claims:2/hard:2;lr=5e-5,mix=claims:2/hard:2,pair=0.5;"
                 "lr=3e-5,mix=claims:3/hard:3/nli:0.5;lr=3e-5,mix=claims:2/hard:2,seed=1;"
                 "lr=5e-5,mix=claims:3/hard:3/nli:0.5")
SPLITS = ("train", "select", "report")


class RunSpec(dict):  # type: ignore[type-arg]
    """One sweep point: ``lr`` (float), ``seed`` (int), ``epochs`` (float), ``mix`` (group -> weight),
    ``pair`` (weight of the pair term, 0 = off), ``margin`` (float) and ``pairsrc`` (mix groups paired)."""


def parse_sweep(text: str, epochs: float) -> list[RunSpec]:
    """Parse a sweep: ``"lr=3e-5,mix=claims:2/hard:2,seed=1;lr=5e-5"`` -> one spec per ``;`` part.

    Parameters
    ----------
    text : str
        Runs separated by ``;``; keys ``lr`` (float), ``seed`` (int), ``epochs`` (float) and
        ``mix`` (``group:weight`` pairs joined by ``/``; a group is the source name before ``:``,
        ``*`` the default; weight 1 when absent, fractions sampled per epoch), ``pair`` (float >= 0,
        weight of the pairwise contrast term; 0, the default, leaves it out), ``margin`` (float,
        default 1.0) and ``pairsrc`` (mix groups paired by evidence, joined by ``/``; default
        ``claims/hard``).
    epochs : float
        Epochs of a run that names none.

    Returns
    -------
    list of RunSpec
        In the order given (earlier runs get the budget first).

    Raises
    ------
    ValueError
        An unknown key or a malformed value.
    """
    runs = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        spec = RunSpec(lr=3e-5, seed=0, epochs=epochs, mix={}, pair=0.0, margin=1.0, pairsrc=list(PAIR_SOURCES))
        for kv in part.split(","):
            k, v = kv.split("=", 1)
            if k == "mix":
                spec["mix"] = {g: float(w) for g, w in (x.split(":") for x in v.split("/"))}
            elif k in ("lr", "epochs", "pair", "margin"):
                spec[k] = float(v)
            elif k == "seed":
                spec[k] = int(v)
            elif k == "pairsrc":
                spec[k] = [g for g in v.split("/") if g]
            else:
                raise ValueError(f"unknown sweep key {k!r}")
        if spec["pair"] < 0:
            raise ValueError(f"pair weight must be >= 0, got {spec['pair']}")
        runs.append(spec)
    return runs


def load_data(path: Path) -> dict[str, Any]:
    """Load the ``.npz`` of ``training/gpu_prepare.py``.

    Returns
    -------
    dict
        ``ids`` (uint16, all rows' token ids concatenated), ``off`` (int64, shape (rows + 1,), row
        ``i`` is ``ids[off[i]:off[i + 1]]``), ``lens``, ``type_start`` (first claim token per row),
        ``label`` (1 supported), ``split`` (0 train, 1 select, 2 report), ``group`` (dev item per
        row, -1 for train), ``src`` / ``kind`` (indices into ``src_names`` / ``kind_names``) and
        ``group_of_src`` (the mix group of each source).
    """
    z = np.load(path)
    d = {k: z[k] for k in z.files}
    d["src_names"] = json.loads(str(d["src_names"]))
    d["kind_names"] = json.loads(str(d["kind_names"]))
    d["lens"] = np.diff(d["off"])
    d["group_of_src"] = [n.split(":", 1)[0] for n in d["src_names"]]
    return d


def collate(d: dict[str, Any], rows: np.ndarray, device: str) -> dict[str, torch.Tensor]:
    """Padded ``input_ids``, ``attention_mask``, ``token_type_ids`` (width a multiple of 16)."""
    width = int(d["lens"][rows].max() + 15) // 16 * 16
    ids = np.zeros((len(rows), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    types = np.zeros_like(ids)
    for r, i in enumerate(rows):
        a, b = d["off"][i], d["off"][i + 1]
        ids[r, :b - a] = d["ids"][a:b]
        mask[r, :b - a] = 1
        types[r, d["type_start"][i]:b - a] = 1
    return {k: torch.from_numpy(v).to(device, non_blocking=True)
            for k, v in (("input_ids", ids), ("attention_mask", mask), ("token_type_ids", types))}


@torch.no_grad()
def predict(model: torch.nn.Module, d: dict[str, Any], rows: np.ndarray, device: str, batch: int = 256) -> np.ndarray:
    """p(supported) of each row."""
    model.eval()
    order = rows[np.argsort(d["lens"][rows])]
    out = np.zeros(len(d["lens"]), dtype=np.float64)
    for b in range(0, len(order), batch):
        part = order[b:b + batch]
        with torch.autocast(device.split(":")[0], dtype=torch.bfloat16, enabled=device != "cpu"):
            logits = model(**collate(d, part, device)).logits.float().squeeze(-1)
        out[part] = torch.sigmoid(logits).cpu().numpy()
    model.train()
    return np.asarray(out[rows])


def _auc(y: np.ndarray, p: np.ndarray) -> float:
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(y, p)) if len(set(y.tolist())) == 2 else float("nan")


def evaluate(model: torch.nn.Module, d: dict[str, Any], device: str, split: int) -> dict[str, Any]:
    """Item-level metrics of one dev split (an item's p(supported) is its least supported row,
    as the detector reads a multi-sentence claim).

    Parameters
    ----------
    model : torch.nn.Module
        A one-logit sequence classifier.
    d : dict
        From :func:`load_data`.
    device : str
        ``"cpu"`` or ``"cuda"``.
    split : {1, 2}
        1 = select rows, 2 = report rows.

    Returns
    -------
    dict
        ``sources``: per source ``n``, ``roc_auc`` (NaN with one class) and ``bacc@0.5``;
        ``kinds``: per ``source:kind`` its ``n``, ``label`` and ``passed@0.5`` (share with p >= 0.5).
    """
    rows = np.flatnonzero(d["split"] == split)
    p_rows = predict(model, d, rows, device)
    groups = d["group"][rows]
    uniq, inv = np.unique(groups, return_inverse=True)
    p = np.ones(len(uniq))
    np.minimum.at(p, inv, p_rows)
    first = rows[np.unique(inv, return_index=True)[1]]
    y, src, kind = d["label"][first], d["src"][first], d["kind"][first]
    out: dict[str, Any] = {"sources": {}, "kinds": {}}
    for s in sorted(set(src.tolist())):
        m = src == s
        yy, pp = y[m], p[m]
        bacc = float(np.mean([np.mean((pp[yy == c] >= 0.5) == c) for c in (0, 1) if (yy == c).any()]))
        out["sources"][d["src_names"][s]] = {"n": int(m.sum()), "roc_auc": round(_auc(yy, pp), 4),
                                             "bacc@0.5": round(bacc, 4)}
    for k in sorted(set(kind.tolist())):
        m = kind == k
        name = d["kind_names"][k]
        out["kinds"][f"{d['src_names'][src[m][0]]}:{name}"] = {
            "n": int(m.sum()), "label": int(y[m][0]), "passed@0.5": round(float(np.mean(p[m] >= 0.5)), 4)}
    return out


def selection_score(ev: dict[str, Any]) -> float:
    """Mean of the claims ROC-AUC and the mean HaluEval ROC-AUC of a select evaluation."""
    s = ev["sources"]
    hal = [v["roc_auc"] for k, v in s.items() if k.startswith("halueval") and not math.isnan(v["roc_auc"])]
    parts = [v for v in (s.get("claims", {}).get("roc_auc", float("nan")), float(np.mean(hal)) if hal else float("nan"))
             if not math.isnan(v)]
    return round(float(np.mean(parts)), 4) if parts else 0.0


def load_model(init: Path, device: str) -> torch.nn.Module:
    """The sequence-classification model of ``init`` (config.json + model.safetensors) in fp32."""
    from transformers import AutoModelForSequenceClassification

    model = AutoModelForSequenceClassification.from_pretrained(str(init), num_labels=1, dtype=torch.float32)
    model = model.to(device).train()
    return model  # type: ignore[no-any-return]


def log(fh: TextIO, msg: str) -> None:
    line = f"[{time.strftime('%H:%M:%S')}] {msg}"
    print(line, flush=True)
    fh.write(line + "\n")
    fh.flush()


class Trainer:
    """One run of the sweep: schedule fitted to a time slice, epoch evaluations, best state kept."""

    def __init__(self, spec: RunSpec, args: argparse.Namespace, d: dict[str, Any], device: str, fh: TextIO) -> None:
        self.spec, self.args, self.d, self.device, self.fh = spec, args, d, device, fh
        torch.manual_seed(spec["seed"])
        self.rng = random.Random(spec["seed"])
        self.model = load_model(Path(args.init), device)
        n_ep = math.ceil(spec["epochs"])
        self.pair_group = pair_groups(d, spec["pairsrc"]) if spec["pair"] > 0 else None
        self.pair_losses: list[torch.Tensor] = []
        if self.pair_group is not None:
            log(fh, f"  pair term: {int(self.pair_group.max()) + 1} evidence groups with both labels, "
                    f"{int((self.pair_group >= 0).sum())} train rows")
        self.plan, self.epoch_ends = build_plan(d, spec["mix"], args.batch_size, self.rng, n_ep, self.pair_group)
        self.total = self.planned = int(len(self.plan) * spec["epochs"] / n_ep)
        self.epoch_ends = self.planned_ends = [min(e, self.total) for e in self.epoch_ends]
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=spec["lr"], weight_decay=0.01)
        self.warm = max(10, int(0.06 * self.total))
        self.sched = torch.optim.lr_scheduler.LambdaLR(self.opt, self._lr_factor)
        self.step = 0
        self.curve: list[dict[str, Any]] = []
        self.best: tuple[float, dict[str, torch.Tensor] | None, int | None] = (-1.0, None, None)

    def _lr_factor(self, s: int) -> float:
        return min((s + 1) / self.warm, max(0.0, (self.total - s) / max(1, self.total - self.warm)))

    def fit_to(self, seconds_left: float, per_step: float) -> None:
        """Fit the schedule (at most the planned epochs) so that it ends, learning rate 0,
        within ``seconds_left``."""
        feasible = self.step + int(max(0.0, seconds_left) / per_step)
        new = max(self.step + 10, min(self.planned, feasible))
        if new < self.total or new > 1.05 * self.total:  # grow only by 5 %+: no lr jitter
            log(self.fh, f"  budget: {per_step * 1000:.1f} ms/step -> {new} of {self.total} steps")
            self.total = new
            self.epoch_ends = sorted({min(e, new) for e in self.planned_ends})

    def train_step(self) -> torch.Tensor:
        x = collate(self.d, self.plan[self.step], self.device)
        y = torch.from_numpy(self.d["label"][self.plan[self.step]].astype(np.float32)).to(self.device)
        with torch.autocast(self.device.split(":")[0], dtype=torch.bfloat16, enabled=self.args.bf16):
            logits = self.model(**x).logits.squeeze(-1)
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logits.float(), y)
        if self.pair_group is not None:
            g = torch.from_numpy(self.pair_group[self.plan[self.step]]).to(self.device)
            term = pair_term(logits.float(), y, g, self.spec["margin"])
            self.pair_losses.append(term.detach())
            loss = loss + self.spec["pair"] * term
        loss.backward()  # type: ignore[no-untyped-call]
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.opt.step()
        self.sched.step()
        self.opt.zero_grad(set_to_none=True)
        self.step += 1
        return loss.detach()

    def checkpoint_eval(self, run: int) -> None:
        ev = evaluate(self.model, self.d, self.device, 1)
        score = selection_score(ev)
        self.curve.append({"step": self.step, "pairs_seen": self.step * self.args.batch_size, "select": score,
                           "sources": {k: v["roc_auc"] for k, v in ev["sources"].items()}})
        log(self.fh, f"  run {run} step {self.step}/{self.total} select {score} {self.curve[-1]['sources']}")
        if score > self.best[0]:
            state = {k: v.detach().to("cpu", copy=True) for k, v in self.model.state_dict().items()}
            self.best = (score, state, self.step)

    def state(self) -> dict[str, Any]:
        return {"model": self.model.state_dict(), "opt": self.opt.state_dict(), "sched": self.sched.state_dict(),
                "step": self.step, "total": self.total, "curve": self.curve, "spec": dict(self.spec)}

    def restore(self, st: dict[str, Any]) -> None:
        self.model.load_state_dict(st["model"])
        self.opt.load_state_dict(st["opt"])
        self.sched.load_state_dict(st["sched"])
        self.step, self.total, self.curve = st["step"], st["total"], st["curve"]


def run_one(run: int, tr: Trainer, deadline: float, args: argparse.Namespace, state_path: Path | None) -> None:
    """Train ``tr`` until its schedule ends or ``deadline`` (time.time()), evaluating after each epoch."""
    marks: list[tuple[int, float]] = []
    last_save, losses = time.time(), []
    s0 = tr.step
    if args.eval_init and tr.step == 0:
        tr.checkpoint_eval(run)  # the starting weights: the figure a run must beat
    last_eval = time.time()
    while tr.step < tr.total:
        losses.append(tr.train_step())  # summed every 100 steps: no device sync per step
        due = args.eval_every_s > 0 and time.time() - last_eval > args.eval_every_s
        if tr.step in tr.epoch_ends or tr.step == tr.total or due:
            tr.checkpoint_eval(run)
            last_eval = time.time()
        if (tr.step - s0) % 100 == 0:
            loss_avg = float(torch.stack(losses).mean())
            losses = []
            marks.append((tr.step, time.time()))  # the first 100 steps (warm-up, kernel choice) are not timed
            if len(marks) > 1:
                a = marks[max(1, len(marks) - 4) - 1]
                per_step = (marks[-1][1] - a[1]) / max(1, tr.step - a[0])
                n_evals = sum(1 for e in tr.epoch_ends if e > tr.step) + 1
                tr.fit_to(deadline - time.time() - n_evals * args.eval_s, per_step)
                pair = f" pair {float(torch.stack(tr.pair_losses).mean()):.4f}" if tr.pair_losses else ""
                tr.pair_losses = []
                log(tr.fh, f"  run {run} step {tr.step}/{tr.total} loss {loss_avg:.4f}{pair} "
                           f"lr {tr.sched.get_last_lr()[0]:.2e} {per_step * 1000:.1f} ms/step")
        if state_path is not None and time.time() - last_save > args.save_every_s:
            save_state(tr, state_path)
            last_save = time.time()
        if time.time() > deadline + 60:
            log(tr.fh, "  deadline passed: stopping this run")
            break
    if not tr.curve or tr.curve[-1]["step"] != tr.step:
        tr.checkpoint_eval(run)
    if state_path is not None:
        save_state(tr, state_path)


def save_state(tr: Trainer, path: Path) -> None:
    """Write the resumable state atomically (``state.pt.tmp`` then rename)."""
    path.mkdir(parents=True, exist_ok=True)
    tmp = path / "state.pt.tmp"
    torch.save(tr.state(), tmp)
    os.replace(tmp, path / "state.pt")
    log(tr.fh, f"  state saved at step {tr.step} -> {path}")


def write_best(state: dict[str, Any], init: Path, out: Path, part_mib: int, prefix: str = "",
               config: bool = True) -> list[str]:
    """fp16 safetensors of ``state`` (and, with ``config``, ``init``'s config), cut into pieces of
    ``part_mib`` MiB named ``<prefix>model.safetensors.part<k>``."""
    from safetensors.torch import save_file

    out.mkdir(parents=True, exist_ok=True)
    full = out / f"{prefix}model.safetensors"
    save_file({k: v.to(torch.float16).contiguous() for k, v in state.items()}, str(full), metadata={"format": "pt"})
    if config:
        cfg = json.loads((init / "config.json").read_text())
        cfg["dtype"] = "float16"
        (out / "config.json").write_text(json.dumps(cfg, indent=2))
    data, names = full.read_bytes(), []
    size = part_mib * 1024 * 1024
    if len(data) > size:
        for k in range(0, len(data), size):
            names.append(f"{prefix}model.safetensors.part{k // size}")
            (out / names[-1]).write_bytes(data[k:k + size])
        full.unlink()
    else:
        names.append(full.name)
    return names


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=".gpu/data.npz")
    ap.add_argument("--init", default="guardrail/models/verifier")
    ap.add_argument("--out", required=True)
    ap.add_argument("--sweep", default=DEFAULT_SWEEP)
    ap.add_argument("--epochs", type=float, default=3.0)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--budget-s", type=float, default=480.0, help="wall-clock budget of all runs together")
    ap.add_argument("--eval-s", type=float, default=5.0, help="expected seconds of one dev evaluation")
    ap.add_argument("--max-steps", type=int, default=0, help="cap each run's steps (smoke tests)")
    ap.add_argument("--state", default="", help="CPU: folder for resumable state (one run only)")
    ap.add_argument("--save-every-s", type=float, default=900.0)
    ap.add_argument("--eval-every-s", type=float, default=0.0,
                    help="also evaluate the select rows this often (CPU runs whose epoch outlasts the budget)")
    ap.add_argument("--eval-init", action="store_true", help="evaluate the starting weights first")
    ap.add_argument("--part-mib", type=int, default=15)
    ap.add_argument("--keep-runs", type=int, default=1,
                    help="also write the best checkpoint of the next best runs, up to this many in all, as "
                         "run<r>.model.safetensors.part* (no config.json then: 2 runs = 8 files), so that the "
                         "whole pipeline can choose among them on the CPU")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--device", default="auto")
    args = ap.parse_args(argv)
    t_start = time.time()
    device = ("cuda" if torch.cuda.is_available() else "cpu") if args.device == "auto" else args.device
    args.bf16 = device.startswith("cuda")
    if args.threads:
        torch.set_num_threads(args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    fh = open(out / "train_log.txt", "a", encoding="utf-8")
    d = load_data(Path(args.data))
    specs = parse_sweep(args.sweep, args.epochs)
    state_path = Path(args.state).expanduser() if args.state else None
    if state_path is not None and len(specs) != 1:
        raise SystemExit("--state needs a sweep of exactly one run")
    log(fh, f"device {device} ({torch.cuda.get_device_name(0) if device.startswith('cuda') else 'cpu'}); "
            f"{int((d['split'] == 0).sum())} train rows; {len(specs)} run(s); budget {args.budget_s:.0f}s")
    results: list[dict[str, Any]] = []
    best: tuple[float, dict[str, torch.Tensor] | None, int | None, int] = (-1.0, None, None, -1)
    kept: list[tuple[float, dict[str, torch.Tensor], int]] = []  # each run's best (fp16, CPU), --keep-runs
    deadline_all = t_start + args.budget_s
    for run, spec in enumerate(specs):
        left = deadline_all - time.time()
        if left < 30 and run:
            log(fh, f"no time left for runs {run}..{len(specs) - 1}")
            break
        tr = Trainer(spec, args, d, device, fh)
        if state_path is not None and (state_path / "state.pt").is_file():
            tr.restore(torch.load(state_path / "state.pt", map_location=device, weights_only=False))
            log(fh, f"resumed at step {tr.step} of {tr.total}")
        if args.max_steps:
            tr.total = tr.planned = min(tr.planned, args.max_steps)
            tr.epoch_ends = tr.planned_ends = sorted({min(e, tr.total) for e in tr.planned_ends})
        log(fh, f"run {run}: {dict(spec)}; {tr.total} steps planned")
        run_one(run, tr, time.time() + left / (len(specs) - run), args, state_path)
        results.append({"spec": dict(spec), "steps": tr.step, "curve": tr.curve, "best_select": tr.best[0],
                        "best_step": tr.best[2]})
        if tr.best[0] > best[0]:
            best = (tr.best[0], tr.best[1], tr.best[2], run)
        if args.keep_runs > 1 and tr.best[1] is not None:
            kept.append((tr.best[0], {k: v.detach().to("cpu", torch.float16) for k, v in tr.best[1].items()}, run))
        del tr
    finish(best, results, d, device, args, out, fh, t_start)
    others = sorted((k for k in kept if k[2] != best[3]), key=lambda k: -k[0])[:max(0, args.keep_runs - 1)]
    for score, state, run in others:
        files = write_best(state, Path(args.init), out, args.part_mib, prefix=f"run{run}.", config=False)
        log(fh, f"also kept run {run} (select {score}): files {files}")


def finish(best: tuple[Any, ...], results: list[dict[str, Any]], d: dict[str, Any], device: str,
           args: argparse.Namespace, out: Path, fh: TextIO, t_start: float) -> None:
    """Evaluate the chosen checkpoint on select and report rows; write weights and metrics."""
    model = load_model(Path(args.init), device)
    model.load_state_dict(best[1])
    metrics = {"chosen": {"run": best[3], "step": best[2], "select_score": best[0],
                          "spec": results[best[3]]["spec"] if best[3] >= 0 else None},
               "select": evaluate(model, d, device, 1), "report": evaluate(model, d, device, 2), "runs": results,
               "device": torch.cuda.get_device_name(0) if device.startswith("cuda") else "cpu",
               "batch_size": args.batch_size, "minutes": round((time.time() - t_start) / 60, 2)}
    files = write_best(best[1], Path(args.init), out, args.part_mib, config=args.keep_runs <= 1)
    metrics["files"] = files
    (out / "metrics.json").write_text(json.dumps(metrics, indent=1))
    log(fh, f"chosen run {best[3]} step {best[2]} select {best[0]}; report "
            f"{ {k: v['roc_auc'] for k, v in metrics['report']['sources'].items()} }; files {files}")


if __name__ == "__main__":
    main()
