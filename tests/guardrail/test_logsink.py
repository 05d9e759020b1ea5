"""Tests for guardrail.logsink: records, JSONL and SQLite sinks under concurrency."""

from __future__ import annotations

import json
import multiprocessing as mp
import sqlite3
import threading
from pathlib import Path

import pytest

from guardrail.errors import LogSinkError
from guardrail.logsink import (
    FlaggedRecord, JsonlSink, LogSink, MemorySink, SqliteSink, context_hash, open_sink, read_log,
)
from guardrail.types import Explanation, FlaggedNode, GuardResult, Span

CONTEXTS = ["Paris is the capital of France.", "France is in Europe."]


def make_result(i: int = 0, *, abstained: bool = False, pad: int = 0) -> GuardResult:
    """A realistic flagged result (``pad`` makes the answer long)."""
    answer = "Paris is the capital of Spain." + " x" * pad
    if abstained:
        return GuardResult(passed=False, score=0.5, threshold=0.4, abstained=True,
                           abstain_reason="empty context", answer=answer, id=f"r{i}", config="short")
    node = FlaggedNode(node_id="a:24", text="Spain", span=Span(start=24, end=29), support=0.12,
                       evidence="paris is capital of france", evidence_span=Span(start=0, end=31, source=0),
                       reason="the answer says 'Spain'; the context says 'France'.")
    return GuardResult(
        passed=False, score=0.83, threshold=0.41, answer=answer, id=f"r{i}",
        question="Which country is Paris the capital of?",
        detector_scores={"grounding": 0.9, "wl_kernel": 0.71}, flagged_nodes=(node,),
        explanation=Explanation(summary="1 unsupported node.", sentences=(node.reason,)),
        timings={"extract": 3.2}, total_ms=12.5, config="short",
    )


def test_from_result_round_trip_and_fields():
    rec = FlaggedRecord.from_result(make_result(7), CONTEXTS)
    assert rec.id == "r7" and rec.event == "flagged" and rec.round is None
    assert rec.context_hash == context_hash(CONTEXTS) != context_hash(CONTEXTS[:1])
    assert rec.flagged_nodes[0].text == "Spain" and rec.flagged_nodes[0].span == Span(start=24, end=29)
    assert rec.explanation.sentences == (rec.flagged_nodes[0].reason,)
    assert rec.detector_scores == {"grounding": 0.9, "wl_kernel": 0.71} and rec.config == "short"
    assert rec.time.endswith("+00:00")
    assert FlaggedRecord.model_validate_json(rec.model_dump_json()) == rec
    with pytest.raises(Exception):
        rec.score = 0.1  # frozen


def test_from_result_events():
    assert FlaggedRecord.from_result(make_result(abstained=True), "ctx").event == "abstained"
    r = FlaggedRecord.from_result(make_result(), CONTEXTS, event="refinement_round", round=2)
    assert r.event == "refinement_round" and r.round == 2
    with pytest.raises(ValueError, match="unknown log event"):
        FlaggedRecord.from_result(make_result(), CONTEXTS, event="oops")


@pytest.mark.parametrize("suffix,cls", [(".jsonl", JsonlSink), (".json", JsonlSink),
                                        (".sqlite", SqliteSink), (".sqlite3", SqliteSink), (".DB", SqliteSink)])
def test_open_sink_by_suffix(tmp_path, suffix, cls):
    with open_sink(tmp_path / f"log{suffix}") as sink:
        assert isinstance(sink, cls)
        rec = FlaggedRecord.from_result(make_result(), CONTEXTS)
        sink.write(rec)
        assert sink.read() == [rec]
    assert read_log(tmp_path / f"log{suffix}") == [rec]


def test_open_sink_errors(tmp_path):
    with pytest.raises(ValueError, match="log.txt"):
        open_sink(tmp_path / "log.txt")
    with pytest.raises(LogSinkError, match="not found"):
        read_log(tmp_path / "missing.jsonl")
    mem = MemorySink()
    assert open_sink(mem) is mem


def test_abstract_sink_and_memory_sink():
    with pytest.raises(TypeError):
        LogSink()  # type: ignore[abstract]
    mem = MemorySink()
    rec = FlaggedRecord.from_result(make_result(), CONTEXTS)
    mem.write(rec)
    assert mem.read() == [rec]


def test_jsonl_malformed_line_raises(tmp_path):
    p = tmp_path / "log.jsonl"
    JsonlSink(p).write(FlaggedRecord.from_result(make_result(), CONTEXTS))
    with p.open("a") as fh:
        fh.write('{"broken": \n')
    with pytest.raises(LogSinkError, match=r"log.jsonl:2"):
        read_log(p)


def test_jsonl_write_failure_raises(tmp_path):
    (tmp_path / "adir.jsonl").mkdir()
    with pytest.raises(LogSinkError, match="adir.jsonl"):
        JsonlSink(tmp_path / "adir.jsonl").write(FlaggedRecord.from_result(make_result(), CONTEXTS))


def test_sqlite_locked_database_retries_then_raises(tmp_path):
    p = tmp_path / "log.sqlite"
    sink = SqliteSink(p, timeout=0.05, retries=3)
    sink.write(FlaggedRecord.from_result(make_result(0), CONTEXTS))
    blocker = sqlite3.connect(p, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(LogSinkError, match="locked"):
            sink.write(FlaggedRecord.from_result(make_result(1), CONTEXTS))
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    sink.write(FlaggedRecord.from_result(make_result(2), CONTEXTS))
    assert [r.id for r in sink.read()] == ["r0", "r2"]
    cols = {row[1] for row in sqlite3.connect(p).execute("PRAGMA table_info(flagged)")}
    assert {"time", "id", "record"} <= cols
    assert sqlite3.connect(p).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    sink.close()


def _write_many(path: str, worker: int, n: int) -> None:
    sink = open_sink(path)
    try:
        for j in range(n):
            res = make_result(j, pad=(j * 37) % 3000).model_copy(update={"id": f"w{worker}-{j}"})
            sink.write(FlaggedRecord.from_result(res, CONTEXTS))
    finally:
        sink.close()


def _check_all(path: Path, workers: int, n: int) -> None:
    records = read_log(path)
    assert len(records) == workers * n
    assert {r.id for r in records} == {f"w{w}-{j}" for w in range(workers) for j in range(n)}
    for w in range(workers):  # each writer's records stay in its own order
        mine = [int(r.id.split("-")[1]) for r in records if r.id.startswith(f"w{w}-")]
        assert mine == sorted(mine)
    if path.suffix == ".jsonl":
        lines = path.read_text(encoding="utf-8").splitlines()
        assert len(lines) == workers * n and all(json.loads(line)["score"] == 0.83 for line in lines)


@pytest.mark.parametrize("suffix", [".jsonl", ".sqlite"])
def test_concurrent_threads_one_shared_sink(tmp_path, suffix):
    path = tmp_path / f"log{suffix}"
    sink = open_sink(path)
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            for j in range(50):
                res = make_result(j, pad=(j * 53) % 2000).model_copy(update={"id": f"w{worker}-{j}"})
                sink.write(FlaggedRecord.from_result(res, CONTEXTS))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    sink.close()
    assert not errors
    _check_all(path, 8, 50)


@pytest.mark.parametrize("suffix", [".jsonl", ".sqlite"])
def test_concurrent_processes(tmp_path, suffix):
    path = tmp_path / f"log{suffix}"
    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    procs = [ctx.Process(target=_write_many, args=(str(path), w, 50)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    _check_all(path, 4, 50)


def test_jsonl_fsync_and_reopen_after_close(tmp_path):
    sink = JsonlSink(tmp_path / "sub" / "log.jsonl", fsync=True)
    sink.write(FlaggedRecord.from_result(make_result(0), CONTEXTS))
    sink.close()
    sink.write(FlaggedRecord.from_result(make_result(1), CONTEXTS))
    sink.close()
    assert [r.id for r in sink.read()] == ["r0", "r1"]
