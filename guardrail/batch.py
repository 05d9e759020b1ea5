"""Audits at scale on Ray Data: one guard per worker, results in input order.

:func:`audit` reads a JSONL or Parquet file (or takes a ``ray.data.Dataset`` or a list
of dicts), checks every item with ``map_batches`` and a callable class
(:class:`GuardWorker`), so each Ray worker loads spaCy and MiniLM once and keeps its
passage cache, writes the results as JSONL (the ``kg-guardrail check`` format) or
Parquet, and returns counts, throughput and, when labels exist, the metrics of
:func:`guardrail.metrics.result_metrics`.

Ray is an optional dependency: ``pip install 'kg-guardrail[ray]'``. Without an address
a local Ray instance is started with no dashboard and no usage statistics; pass
``address="auto"`` or ``"ray://head:10001"`` to use an existing cluster.

JSONL lines are parsed on the driver, exactly as ``kg-guardrail check`` does (line
numbers, malformed-line error records); Parquet files and Datasets are read by Ray and
their rows must carry an ``id``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from guardrail._optional import require
from guardrail.errors import InvalidInputError
from guardrail.io import InputLine, _parse_line, read_items

__all__ = ["AuditResult", "GuardWorker", "require_ray", "init_ray", "ray_rows", "audit"]

#: Environment for a local Ray instance that reaches no network service.
_LOCAL_ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled",
              "RAY_DISABLE_DOCKER_CPU_WARNING": "1", "RAY_DATA_DISABLE_PROGRESS_BARS": "1"}


def require_ray() -> Any:
    """Import and return ``ray`` (with ``ray.data``); raise ``ImportError`` naming the extra."""
    require("ray.data", extra="ray")
    return require("ray", extra="ray")


def init_ray(address: str | None = None, num_cpus: int | None = None, **kwargs: Any) -> bool:
    """Start or join Ray unless it already runs; return True when this call initialised it.

    Parameters
    ----------
    address : str or None
        None starts a local instance (no dashboard, usage statistics off, token
        authentication off unless ``RAY_AUTH_MODE`` is set); ``"auto"`` or
        ``"ray://host:10001"`` joins an existing cluster.
    num_cpus : int or None
        CPUs of a local instance (all by default); ignored with ``address``.
    **kwargs
        Passed to :func:`ray.init`.
    """
    ray = require_ray()
    if ray.is_initialized():
        return False
    for key, value in _LOCAL_ENV.items():
        os.environ.setdefault(key, value)
    opts: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "warning"}
    if address is None:
        opts["num_cpus"] = num_cpus
    opts.update(kwargs)
    ray.init(address=address, **opts)
    return True


class GuardWorker:
    """The ``map_batches`` callable class: builds one guard per Ray actor.

    Parameters
    ----------
    config : str or None
        ``None`` for ``auto``, a shipped name or a config JSON path (readable on every node).
    log : str or None
        Flagged-answer log path; each worker appends to it (the JSONL sink locks the
        file and SQLite runs in WAL mode, so workers on one machine lose nothing).
    batch_size : int
        Items per ``check_many`` call.
    compact : bool
        Drop the claim and context graphs from the results.
    """

    def __init__(self, config: str | None = None, log: str | None = None,
                 batch_size: int = 32, compact: bool = True) -> None:
        from guardrail.guard import Guard

        self.guard = Guard("auto" if config is None else config, log=log).warm_up()
        self.batch_size = max(1, batch_size)
        self.compact = compact

    def __call__(self, batch: Mapping[str, Sequence[Any]]) -> dict[str, list[Any]]:
        """Check one batch of ``{"line", "record"}`` rows; return ``line``, ``label``, ``result``, ``unlogged``."""
        lines = []
        for n, text in zip(batch["line"], batch["record"]):
            ln = _parse_line(int(n), str(text))
            if int(n) <= 0 and "id" not in ln.raw and not ln.error:
                ln.item, ln.error = None, "missing 'id' (Parquet and Dataset rows need one)"
            lines.append(ln)
        from guardrail.io import check_batch as _check_batch

        before = len(self.guard.unlogged)
        rows: list[dict[str, Any]] = []
        for start in range(0, len(lines), self.batch_size):
            rows.extend(_check_batch(self.guard, lines[start : start + self.batch_size], compact=self.compact))
        unlogged = [0] * len(rows)
        if rows:
            unlogged[0] = len(self.guard.unlogged) - before
        return {"line": [ln.line for ln in lines], "id": [ln.id for ln in lines],
                "label": [-1 if ln.label is None else ln.label for ln in lines],
                "result": [json.dumps(r, ensure_ascii=False) for r in rows], "unlogged": unlogged}


@dataclass
class AuditResult:
    """What :func:`audit` returns (``to_dict`` gives JSON).

    ``startup_s`` is the time from the call to the first result (Ray start, model load);
    ``items_per_s`` counts all items over ``elapsed_s``; ``metrics`` is None without labels.
    ``n_declined`` counts the answers that decline to answer (``GuardResult.declined``): they are
    in ``n_passed`` when the config lets them pass and never in ``n_flagged`` (as in ``check``'s
    summary).
    """

    n: int = 0
    n_passed: int = 0
    n_flagged: int = 0
    n_abstained: int = 0
    n_declined: int = 0
    n_errors: int = 0
    n_unlogged: int = 0
    elapsed_s: float = 0.0
    startup_s: float = 0.0
    items_per_s: float = 0.0
    workers: int = 0
    out: str | None = None
    metrics: dict[str, Any] | None = None
    rows: list[dict[str, Any]] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Everything but the result rows."""
        d = asdict(self)
        d.pop("rows")
        return d


class _Counter:
    """Records the workers' log sinks could not write."""

    unlogged = 0


def _dataset_from_lines(ray: Any, lines: Sequence[InputLine], batch_size: int, workers: int) -> Any:
    records = [{"line": ln.line, "record": json.dumps(ln.raw, ensure_ascii=False)} for ln in lines]
    blocks = max(workers, -(-len(records) // max(1, batch_size)))
    return ray.data.from_items(records, override_num_blocks=max(1, min(len(records), blocks)))


def _map(ds: Any, config: str | None, log: str | None, batch_size: int, workers: int, compact: bool) -> Any:
    import ray.data

    ray.data.DataContext.get_current().execution_options.preserve_order = True
    return ds.map_batches(
        GuardWorker, batch_size=batch_size, batch_format="numpy", num_cpus=1,
        compute=ray.data.ActorPoolStrategy(size=workers),
        fn_constructor_kwargs={"config": config, "log": log, "batch_size": batch_size, "compact": compact},
    )


def _workers(ray: Any, num_cpus: int | None) -> int:
    if num_cpus:
        return int(num_cpus)
    return max(1, int(ray.available_resources().get("CPU", 1)))


def _records(table: Any) -> dict[str, list[Any]]:
    """Parquet/Dataset rows as JSON records (``line`` 0: no line numbers there)."""
    rows = table.to_pylist()
    return {"line": [0] * len(rows), "record": [json.dumps(r, ensure_ascii=False, default=str) for r in rows]}


def _dataset_from_ray(ds: Any, batch_size: int, workers: int) -> Any:
    """Rows as records, in about one block per batch, read before the workers start.

    Materialising first matters: the workers hold every CPU, so read tasks scheduled
    after them would wait forever.
    """
    blocks = max(workers, -(-ds.count() // max(1, batch_size)))
    return ds.map_batches(_records, batch_format="pyarrow").repartition(blocks).materialize()


def _results(ds: Any, config: str | None, log: str | Path | None, batch_size: int, workers: int,
             compact: bool) -> Iterator[dict[str, Any]]:
    mapped = _map(ds, config, None if log is None else str(log), batch_size, workers, compact)
    return iter(mapped.iter_rows())


def ray_rows(
    lines: Sequence[InputLine], config: str | None = None, *, log: str | Path | None = None,
    batch_size: int = 32, num_cpus: int | None = None, address: str | None = None,
    compact: bool = True, counter: Any = None,
) -> Iterator[tuple[InputLine, dict[str, Any]]]:
    """The Ray counterpart of :func:`guardrail.cli.common.run_guard`: ``(line, row)`` in input order.

    Malformed lines are answered on the driver; the others go to ``num_cpus`` workers
    (all CPUs of the cluster by default). ``counter.unlogged``, when a counter object is
    given, accumulates the records the workers' log sinks could not write.
    """
    ray = require_ray()
    init_ray(address, num_cpus)
    todo = [ln for ln in lines if ln.item is not None]
    results: Iterator[dict[str, Any]] = iter(())
    if todo:
        workers = _workers(ray, num_cpus)
        results = _results(_dataset_from_lines(ray, todo, batch_size, workers), config, log,
                           batch_size, workers, compact)
    buffer: dict[int, dict[str, Any]] = {}
    for ln in lines:
        if ln.item is None:
            yield ln, {"id": ln.id, "line": ln.line, "error": ln.error}
            continue
        while ln.line not in buffer:
            rec = next(results)
            buffer[int(rec["line"])] = rec
        rec = buffer.pop(ln.line)
        if counter is not None:
            counter.unlogged += int(rec["unlogged"])
        row = json.loads(rec["result"])
        if "error" in row:
            ln.error = row["error"]
        yield ln, row


def _source(ray: Any, data: Any) -> tuple[list[InputLine] | None, Any]:
    """(driver-parsed lines, None) for JSONL and lists; (None, dataset) for Parquet and Datasets."""
    if isinstance(data, (str, Path)):
        path = Path(data)
        if path.suffix == ".parquet" or path.is_dir():
            return None, ray.data.read_parquet(str(path))
        if not path.is_file():
            raise InvalidInputError(f"input file not found: {str(path)!r}")
        return read_items(path), None
    if isinstance(data, list):
        return [_parse_line(i, json.dumps(rec, ensure_ascii=False)) for i, rec in enumerate(data, 1)], None
    return None, data


class _Writer:
    """JSONL (the ``check`` format) or Parquet (flat columns plus ``result`` JSON) output."""

    COLUMNS = ("id", "line", "passed", "score", "threshold", "abstained", "declined", "config", "error")

    def __init__(self, out: Path | None) -> None:
        self.out, self.parquet = out, out is not None and out.suffix == ".parquet"
        self.buf: list[dict[str, Any]] = []
        self.fh: Any = None
        self.pq: Any = None
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            if not self.parquet:
                self.fh = out.open("w", encoding="utf-8")

    def write(self, row: dict[str, Any], line: int) -> None:
        if self.fh is not None:
            self.fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        elif self.parquet:
            flat = {k: row.get(k) for k in self.COLUMNS}
            flat["line"] = line
            flat["result"] = json.dumps(row, ensure_ascii=False)
            self.buf.append(flat)
            if len(self.buf) >= 1024:
                self.flush()

    def flush(self) -> None:
        if not self.buf:
            return
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pylist(self.buf, schema=pa.schema([
            ("id", pa.string()), ("line", pa.int64()), ("passed", pa.bool_()), ("score", pa.float64()),
            ("threshold", pa.float64()), ("abstained", pa.bool_()), ("declined", pa.bool_()), ("config", pa.string()),
            ("error", pa.string()), ("result", pa.string())]))
        if self.pq is None:
            assert self.out is not None
            self.pq = pq.ParquetWriter(str(self.out), table.schema)
        self.pq.write_table(table)
        self.buf = []

    def close(self) -> None:
        if self.fh is not None:
            self.fh.close()
        self.flush()
        if self.pq is not None:
            self.pq.close()


def _count(res: AuditResult, row: Mapping[str, Any]) -> None:
    """Add one result row (not an error row) to the counts of ``res``."""
    declined = bool(row.get("declined", False))
    res.n_abstained += bool(row["abstained"])
    res.n_declined += declined
    res.n_passed += bool(row["passed"])
    res.n_flagged += not row["passed"] and not row["abstained"] and not declined


def audit(
    data: Any, guard_config: str | None = None, *, out: str | Path | None = None,
    log: str | Path | None = None, batch_size: int = 32, num_cpus: int | None = None,
    address: str | None = None, compact: bool = True, keep_rows: bool = False,
) -> AuditResult:
    """Check every item of ``data`` on Ray Data and return counts, throughput and metrics.

    Parameters
    ----------
    data : str, Path, list of dict, or ray.data.Dataset
        A JSONL file (the ``check`` input format), a Parquet file or directory, items as
        dicts, or a Dataset with ``answer``, ``context``, ``id`` and optional
        ``question`` and ``label`` columns.
    guard_config : str or None
        ``None`` for ``auto``, ``"short"``, ``"long"`` or a config JSON path.
    out : str, Path or None
        ``*.parquet`` writes Parquet (``id``, ``line``, ``passed``, ``score``,
        ``threshold``, ``abstained``, ``declined``, ``config``, ``error`` and the full ``result`` as
        JSON); any other path writes JSONL lines like ``kg-guardrail check``.
    log : str, Path or None
        Flagged-answer log each worker appends to.
    batch_size : int
        Items per ``map_batches`` batch and per ``check_many`` call.
    num_cpus : int or None
        Workers (one CPU each) and, for a local instance, its CPUs; default all CPUs.
    address : str or None
        Existing cluster (``"auto"``, ``"ray://head:10001"``); None starts a local one.
    compact : bool
        Drop the graphs from the results (keep them for ``kg-guardrail report``).
    keep_rows : bool
        Keep every result row in :attr:`AuditResult.rows`.

    Returns
    -------
    AuditResult

    Raises
    ------
    ImportError
        Ray is not installed (the message names the extra).
    FileNotFoundError
        ``data`` is a path that does not exist.
    """
    from guardrail.metrics import result_metrics

    t0 = time.perf_counter()
    ray = require_ray()
    init_ray(address, num_cpus)
    lines, ds = _source(ray, data)
    workers = _workers(ray, num_cpus)
    res = AuditResult(workers=workers, out=None if out is None else str(out))
    counter = _Counter()
    stream: Iterable[tuple[int, int | None, dict[str, Any]]]
    if lines is not None:
        stream = ((ln.line, ln.label, row) for ln, row in ray_rows(
            lines, guard_config, log=log, batch_size=batch_size, num_cpus=num_cpus,
            address=address, compact=compact, counter=counter))
    else:
        def from_ds() -> Iterator[tuple[int, int | None, dict[str, Any]]]:
            for rec in _results(_dataset_from_ray(ds, batch_size, workers), guard_config, log, batch_size, workers, compact):
                counter.unlogged += int(rec["unlogged"])
                label = int(rec["label"])
                yield int(rec["line"]), None if label < 0 else label, json.loads(rec["result"])
        stream = from_ds()
    writer = _Writer(None if out is None else Path(out))
    labelled: list[tuple[dict[str, Any], int]] = []
    try:
        for line, label, row in stream:
            if res.n == 0:
                res.startup_s = time.perf_counter() - t0
            res.n += 1
            writer.write(row, line)
            if keep_rows:
                res.rows.append(row)
            if "error" in row:
                res.n_errors += 1
                continue
            _count(res, row)
            if label is not None:
                labelled.append((row, label))
    finally:
        writer.close()
    res.elapsed_s = time.perf_counter() - t0
    res.items_per_s = res.n / res.elapsed_s if res.elapsed_s > 0 else 0.0
    res.n_unlogged = counter.unlogged
    if labelled:
        res.metrics = result_metrics([r for r, _ in labelled], [y for _, y in labelled])
    return res
