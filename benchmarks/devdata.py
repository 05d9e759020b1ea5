"""Loaders for the labelled development data (HaluEval, QAGS-C) in the CLI input schema.

Every loader returns a list of dicts shaped like one line of ``kg-guardrail check``
input::

    {"id": str, "group": str, "question": str | None,
     "context": str | list[str], "answer": str, "label": 0 | 1}

``label`` is 1 for a hallucinated answer. ``group`` ties together items that share a
source record (a HaluEval record gives a faithful and a hallucinated item), so that
:func:`dev_split` never puts the two sides of one record in different splits.
QAGS-C items also carry ``"sentences"``: one ``{"start", "end", "unsupported"}`` per
summary sentence, with character spans into ``answer``.

Development-data code, not part of the wheel: ``python -m benchmarks.devdata NAME OUT
[--limit N] [--split tune|val|all]`` writes a dataset as CLI input lines.

The data itself is not shipped (QAGS states no licence); :func:`load_dev` finds it in
``../shared/data`` beside the checkout, or in the directory named by the environment
variable ``KG_GUARDRAIL_DATA``.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from guardrail.errors import InvalidInputError

__all__ = [
    "DATASETS",
    "HALUEVAL_TASKS",
    "load_halueval",
    "load_qags",
    "dev_split",
    "data_dir",
    "load_dev",
    "write_jsonl",
    "convert",
    "CLAIMS_DEV_MODULUS",
    "claims_split",
    "load_claims",
]

#: HaluEval task -> (question field or None, context field, right field, hallucinated field).
HALUEVAL_TASKS: dict[str, tuple[str | None, str, str, str]] = {
    "qa": ("question", "knowledge", "right_answer", "hallucinated_answer"),
    "dialogue": ("dialogue_history", "knowledge", "right_response", "hallucinated_response"),
    "summarization": (None, "document", "right_summary", "hallucinated_summary"),
}

#: Dataset name accepted by :func:`load_dev` -> file path relative to the data directory.
DATASETS: dict[str, str] = {
    "halueval_qa": "halueval/qa_dev.jsonl",
    "halueval_dialogue": "halueval/dialogue_dev.jsonl",
    "halueval_summarization": "halueval/summarization_dev.jsonl",
    "qags_c": "qags/qags_c.jsonl",
}

_SPLITS = ("all", "tune", "val")


def _records(path: str | Path) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """Yield ``(line_number, record_index, record)`` for each non-blank JSONL line.

    Raises
    ------
    InvalidInputError
        Missing file, invalid JSON, or a line that is not a JSON object.
    """
    p = Path(path)
    if not p.is_file():
        raise InvalidInputError(f"dataset file not found: {str(p)!r}")
    index = 0
    with p.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidInputError(f"{p}:{lineno}: invalid JSON: {exc.msg}") from exc
            if not isinstance(rec, dict):
                raise InvalidInputError(
                    f"{p}:{lineno}: expected a JSON object, got {type(rec).__name__}"
                )
            yield lineno, index, rec
            index += 1


def _field(rec: dict[str, Any], key: str, where: str) -> str:
    """Return ``rec[key]`` if it is a str, else raise :class:`InvalidInputError`."""
    if key not in rec:
        raise InvalidInputError(f"{where}: missing field {key!r}")
    value = rec[key]
    if not isinstance(value, str):
        raise InvalidInputError(
            f"{where}: field {key!r} must be a string, got {type(value).__name__}"
        )
    return value


def load_halueval(path: str | Path, task: str) -> list[dict[str, Any]]:
    """Load a HaluEval dev file; each record gives a faithful and a hallucinated item.

    Parameters
    ----------
    path : str or Path
        A HaluEval JSONL file (``qa_dev.jsonl``, ``dialogue_dev.jsonl`` or
        ``summarization_dev.jsonl``).
    task : {"qa", "dialogue", "summarization"}
        Which field layout to read. ``qa``: question = ``question``, context =
        ``knowledge``; ``dialogue``: question = ``dialogue_history``, context =
        ``knowledge``; ``summarization``: no question, context = ``document``,
        answer = the summary.

    Returns
    -------
    list of dict
        Two items per record, in file order: ``"<task>-<i>-right"`` (label 0) then
        ``"<task>-<i>-hallucinated"`` (label 1), both in group ``"<task>-<i>"``, where
        ``i`` is the 0-based record index.

    Raises
    ------
    InvalidInputError
        Unknown task, missing file, or a malformed record (the message names the
        file and line).
    """
    if task not in HALUEVAL_TASKS:
        raise InvalidInputError(f"unknown HaluEval task {task!r}; known: {sorted(HALUEVAL_TASKS)}")
    q_key, ctx_key, right_key, hall_key = HALUEVAL_TASKS[task]
    items: list[dict[str, Any]] = []
    for lineno, i, rec in _records(path):
        where = f"{path}:{lineno}"
        question = _field(rec, q_key, where) if q_key is not None else None
        context = _field(rec, ctx_key, where)
        group = f"{task}-{i}"
        for side, key, label in (("right", right_key, 0), ("hallucinated", hall_key, 1)):
            items.append({
                "id": f"{group}-{side}", "group": group, "question": question,
                "context": context, "answer": _field(rec, key, where), "label": label,
            })
    return items


def _qags_sentences(rec: dict[str, Any], where: str) -> list[tuple[str, bool]]:
    """Return ``(sentence, unsupported)`` pairs of one QAGS record (majority "no")."""
    sents = rec.get("summary_sentences")
    if not isinstance(sents, list) or not sents:
        raise InvalidInputError(f"{where}: 'summary_sentences' must be a non-empty list")
    out: list[tuple[str, bool]] = []
    for j, s in enumerate(sents):
        w = f"{where}: summary_sentences[{j}]"
        if not isinstance(s, dict):
            raise InvalidInputError(f"{w} must be an object")
        text = _field(s, "sentence", w)
        votes = s.get("responses")
        if not isinstance(votes, list) or not votes:
            raise InvalidInputError(f"{w}: 'responses' must be a non-empty list")
        answers = [v.get("response") if isinstance(v, dict) else None for v in votes]
        if any(a not in ("yes", "no") for a in answers):
            raise InvalidInputError(f"{w}: every response must be 'yes' or 'no', got {answers!r}")
        out.append((text.strip(), 2 * answers.count("no") > len(answers)))
    return out


def load_qags(path: str | Path) -> list[dict[str, Any]]:
    """Load QAGS-C (``qags_c.jsonl``): one item per article with sentence labels.

    Parameters
    ----------
    path : str or Path
        The QAGS-C JSONL file (``article``, ``summary_sentences`` with crowd votes).

    Returns
    -------
    list of dict
        Items ``"qags_c-<i>"`` (own group) with ``answer`` = the summary sentences
        joined by ``" "``, ``context`` = the article, ``label`` 1 when any sentence has
        a majority of "no" votes, and ``sentences`` = ``[{"start", "end",
        "unsupported"}]`` with character spans into ``answer``.

    Raises
    ------
    InvalidInputError
        Missing file or a malformed record (the message names the file and line).
    """
    items: list[dict[str, Any]] = []
    for lineno, i, rec in _records(path):
        where = f"{path}:{lineno}"
        article = _field(rec, "article", where)
        spans: list[dict[str, Any]] = []
        parts: list[str] = []
        pos = 0
        for text, unsupported in _qags_sentences(rec, where):
            if parts:
                pos += 1  # the joining space
            spans.append({"start": pos, "end": pos + len(text), "unsupported": unsupported})
            parts.append(text)
            pos += len(text)
        item_id = f"qags_c-{i}"
        items.append({
            "id": item_id, "group": item_id, "question": None, "context": article,
            "answer": " ".join(parts), "label": int(any(s["unsupported"] for s in spans)),
            "sentences": spans,
        })
    return items


def _in_val(group: str, val_fraction: float, seed: int) -> bool:
    digest = hashlib.sha256(f"{seed}\x00{group}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64 < val_fraction


def dev_split(
    items: Sequence[dict[str, Any]], val_fraction: float = 0.3, seed: int = 0
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Split items into a tuning and a validation part, by group, deterministically.

    A group goes to validation when a SHA-256 hash of ``(seed, group)`` falls below
    ``val_fraction``, so a group's side never depends on which other items are present:
    a subsample's validation items are validation items of the full file too, and both
    answers of one HaluEval record always land on the same side. The validation share
    is therefore ``val_fraction`` only approximately (exact in expectation).

    Parameters
    ----------
    items : sequence of dict
        Items with a ``"group"`` (or at least an ``"id"``) key.
    val_fraction : float
        Expected share of groups in the validation part, in ``[0, 1]``.
    seed : int
        Changes the assignment.

    Returns
    -------
    (tune, val) : tuple of list of dict
        Both in the input order.
    """
    if not 0.0 <= val_fraction <= 1.0:
        raise InvalidInputError(f"val_fraction must be in [0, 1], got {val_fraction!r}")
    tune: list[dict[str, Any]] = []
    val: list[dict[str, Any]] = []
    for it in items:
        group = str(it.get("group", it.get("id")))
        (val if _in_val(group, val_fraction, seed) else tune).append(it)
    return tune, val


def data_dir() -> Path:
    """The development-data directory.

    ``$KG_GUARDRAIL_DATA`` when set, else ``../shared/data`` beside the repository
    checkout (the parent of the directory holding the ``guardrail`` package).
    """
    env = os.environ.get("KG_GUARDRAIL_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def _sample(items: list[dict[str, Any]], limit: int, seed: int) -> list[dict[str, Any]]:
    """Up to ``limit`` items, whole groups drawn at random (seeded), in input order."""
    groups: dict[str, list[int]] = {}
    for idx, it in enumerate(items):
        groups.setdefault(str(it.get("group", it.get("id"))), []).append(idx)
    order = list(groups)
    random.Random(seed).shuffle(order)
    chosen: list[int] = []
    for g in order:
        if len(chosen) >= limit:
            break
        chosen.extend(groups[g])
    return [items[i] for i in sorted(chosen[:limit])]


def load_dev(
    name: str, limit: int | None = None, seed: int = 0, *, split: str = "all",
    val_fraction: float = 0.3,
) -> list[dict[str, Any]]:
    """Load a development dataset by name from :func:`data_dir`.

    Parameters
    ----------
    name : {"halueval_qa", "halueval_dialogue", "halueval_summarization", "qags_c"}
        The dataset.
    limit : int or None
        At most this many items, drawn as whole groups at random with ``seed`` (so a
        HaluEval sample stays balanced); the last group may be cut when ``limit`` is odd.
        Items keep file order.
    seed : int
        Seed of the sample and of the split.
    split : {"all", "tune", "val"}
        Which part of :func:`dev_split` to return (applied before ``limit``).
    val_fraction : float
        Passed to :func:`dev_split`.

    Returns
    -------
    list of dict
        Items in the CLI input schema.

    Raises
    ------
    InvalidInputError
        Unknown name or split, negative limit, or a missing/malformed file.
    """
    if name not in DATASETS:
        raise InvalidInputError(f"unknown dataset {name!r}; known: {sorted(DATASETS)}")
    if split not in _SPLITS:
        raise InvalidInputError(f"unknown split {split!r}; known: {list(_SPLITS)}")
    if limit is not None and limit < 0:
        raise InvalidInputError(f"limit must be >= 0, got {limit!r}")
    path = data_dir() / DATASETS[name]
    if not path.is_file():
        raise InvalidInputError(
            f"dataset file not found: {str(path)!r} (set KG_GUARDRAIL_DATA to the directory "
            "holding halueval/ and qags/)"
        )
    items = load_qags(path) if name == "qags_c" else load_halueval(path, name.split("_", 1)[1])
    if split != "all":
        tune, val = dev_split(items, val_fraction=val_fraction, seed=seed)
        items = tune if split == "tune" else val
    if limit is not None:
        items = _sample(items, limit, seed)
    return items


def write_jsonl(items: Iterable[dict[str, Any]], path: str | Path) -> int:
    """Write one compact JSON object per line (UTF-8) and return the number written."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with p.open("w", encoding="utf-8") as fh:
        for it in items:
            fh.write(json.dumps(it, ensure_ascii=False) + "\n")
            n += 1
    return n


def convert(
    name: str, out: str | Path, *, limit: int | None = None, split: str = "all", seed: int = 0
) -> int:
    """Write dataset ``name`` as CLI-ready JSONL to ``out``; return the item count.

    See :func:`load_dev` for ``limit``, ``split`` and ``seed``.
    """
    return write_jsonl(load_dev(name, limit=limit, seed=seed, split=split), out)


#: Contexts of the claims data whose number is a multiple of this go to its dev split.
CLAIMS_DEV_MODULUS = 5


def claims_split(context_id: str) -> str:
    """``"dev"`` for a claims-data context whose number ends in 0 or 5 (20 %), else ``"train"``.

    The split is by context, never by claim: the claims of one context share wording.
    """
    return "dev" if int(context_id.rsplit("-", 1)[-1]) % CLAIMS_DEV_MODULUS == 0 else "train"


def load_claims(split: str = "all") -> list[dict[str, Any]]:
    """Load the contrastive claims data (``claims/*.jsonl``, CC BY 4.0) by context.

    Parameters
    ----------
    split : {"all", "train", "dev"}
        Which contexts (see :func:`claims_split`).

    Returns
    -------
    list of dict
        One dict per context: ``id``, ``domain``, ``passages``, ``question``, ``claims``
        (each ``text``, ``label`` (1 supported), ``kind``, and for unsupported ones ``of``
        and ``span``), plus ``file`` (the source file's stem).

    Raises
    ------
    InvalidInputError
        Unknown split or no claims files.
    """
    if split not in ("all", "train", "dev"):
        raise InvalidInputError(f"unknown split {split!r}; known: ['all', 'train', 'dev']")
    files = sorted((data_dir() / "claims").glob("*.jsonl"))
    if not files:
        raise InvalidInputError(f"no claims data in {str(data_dir() / 'claims')!r}")
    out = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                ctx = json.loads(line)
                ctx["file"] = path.stem
                if split == "all" or claims_split(ctx["id"]) == split:
                    out.append(ctx)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m benchmarks.devdata NAME OUT [--limit N] [--split S] [--seed K]``."""
    import argparse

    ap = argparse.ArgumentParser(description="Write a dev dataset in the check input schema.")
    ap.add_argument("name", choices=sorted(DATASETS))
    ap.add_argument("out")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--split", default="all", choices=list(_SPLITS))
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    n = convert(a.name, a.out, limit=a.limit, split=a.split, seed=a.seed)
    print(f"{n} item(s) -> {a.out}")


if __name__ == "__main__":
    main()
