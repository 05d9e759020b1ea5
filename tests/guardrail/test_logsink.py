"""Tests for guardrail.log.sinks: records, JSONL and SQLite sinks under concurrency."""

from __future__ import annotations

import json
import multiprocessing as mp
import sqlite3
import threading
from pathlib import Path

import pydantic
import pytest

from guardrail.errors import LogSinkError
from guardrail.log.sinks import (
    FlaggedRecord,
    JsonlSink,
    LogSink,
    MemorySink,
    SqliteSink,
    context_hash,
    open_sink,
    read_log,
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
    with pytest.raises(pydantic.ValidationError, match="frozen"):
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


def test_jsonl_malformed_line_is_skipped_and_reported(tmp_path, caplog):
    p = tmp_path / "log.jsonl"
    JsonlSink(p).write(FlaggedRecord.from_result(make_result(0), CONTEXTS))
    with p.open("ab") as fh:
        fh.write(b'{"broken": \n\xff\xfe not utf-8\n' + b"[" * 100_000 + b"\n")
    JsonlSink(p).write(FlaggedRecord.from_result(make_result(1), CONTEXTS))
    with pytest.raises(LogSinkError, match=r"log.jsonl:2"):
        read_log(p, strict=True)
    records = read_log(p)
    assert [r.id for r in records] == ["r0", "r1"]
    assert [d.where.rsplit(":", 1)[1] for d in records.damaged] == ["2", "3", "4"]
    assert all("malformed log record" in d.reason for d in records.damaged)
    assert "log.jsonl:2" in caplog.text


def _sqlite_with_bad_row(p: Path) -> None:
    with SqliteSink(p) as sink:
        sink.write(FlaggedRecord.from_result(make_result(0), CONTEXTS))
    con = sqlite3.connect(p)
    con.execute("INSERT INTO flagged(time, id, event, score, record) VALUES ('t', 'x', 'flagged', 0, '{')")
    con.commit()
    con.close()
    with SqliteSink(p) as sink:
        sink.write(FlaggedRecord.from_result(make_result(1), CONTEXTS))


def test_sqlite_malformed_row_is_skipped_and_reported(tmp_path):
    p = tmp_path / "log.sqlite"
    _sqlite_with_bad_row(p)
    records = read_log(p)
    assert [r.id for r in records] == ["r0", "r1"] and [d.where for d in records.damaged] == [f"{p}#2"]
    with pytest.raises(LogSinkError, match="#2"):
        read_log(p, strict=True)


_SHORT_WRITE = """
import os, resource, signal, sys
from guardrail.log.sinks import JsonlSink, FlaggedRecord
from guardrail.errors import LogSinkError
sys.path.insert(0, {tests!r})
from test_logsink import make_result, CONTEXTS
path = {path!r}
sink = JsonlSink(path)
sink.write(FlaggedRecord.from_result(make_result(0), CONTEXTS))
size = os.path.getsize(path)
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past the limit: EFBIG instead of a signal
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
resource.setrlimit(resource.RLIMIT_FSIZE, (size + size // 2, hard))  # "disk full" mid-record
try:
    sink.write(FlaggedRecord.from_result(make_result(1), CONTEXTS))
except LogSinkError as exc:
    print("failed:", exc)
else:
    raise SystemExit("the write should have failed")
print("size after failure:", os.path.getsize(path), "of", size)
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
sink.write(FlaggedRecord.from_result(make_result(2), CONTEXTS))
"""


def test_jsonl_short_write_leaves_no_partial_line(tmp_path):
    """Disk full mid-record (RLIMIT_FSIZE gives a real short write): nothing is glued."""
    import subprocess
    import sys

    p = tmp_path / "log.jsonl"
    code = _SHORT_WRITE.format(tests=str(Path(__file__).parent), path=str(p))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "failed:" in out.stdout
    before, after = out.stdout.split("size after failure: ")[1].split()[::2]
    assert before == after  # the partial bytes were truncated back
    records = read_log(p, strict=True)
    assert [r.id for r in records] == ["r0", "r2"] and not records.damaged
    assert p.read_bytes().endswith(b"\n") and p.read_bytes().count(b"\n") == 2


def test_jsonl_write_after_partial_line_starts_fresh_line(tmp_path):
    p = tmp_path / "log.jsonl"
    sink = JsonlSink(p)
    sink.write(FlaggedRecord.from_result(make_result(0), CONTEXTS))
    with p.open("ab") as fh:  # a crash mid-write left half a record, no newline
        fh.write(FlaggedRecord.from_result(make_result(9), CONTEXTS).model_dump_json()[:40].encode())
    sink.write(FlaggedRecord.from_result(make_result(1), CONTEXTS))
    records = read_log(p)
    assert [r.id for r in records] == ["r0", "r1"]  # r1 was not glued to the partial line
    assert [d.where for d in records.damaged] == [f"{p}:2"]


def test_records_with_lone_surrogates_are_written(tmp_path):
    result = make_result(0).model_copy(update={"answer": "Paris \udfff is in Spain."})
    rec = FlaggedRecord.from_result(result, ["bad \ud800 context"])
    for suffix in (".jsonl", ".sqlite"):
        with open_sink(tmp_path / f"log{suffix}") as sink:
            sink.write(rec)
            assert [r.answer for r in sink.read(strict=True)] == ["Paris \ufffd is in Spain."]


def test_sqlite_id_with_lone_surrogate_is_written(tmp_path):
    rec = FlaggedRecord.from_result(make_result(0).model_copy(update={"id": "a\udfffb"}), CONTEXTS)
    with open_sink(tmp_path / "log.sqlite") as sink:
        sink.write(rec)  # raised UnicodeEncodeError from sqlite3 before
        assert [r.id for r in sink.read(strict=True)] == ["a\ufffdb"]


def test_guard_keeps_the_record_when_a_sink_raises_anything(caplog):
    from guardrail.guard import Guard

    class Buggy(LogSink):
        def write(self, record: FlaggedRecord) -> None:
            raise RuntimeError("a bug in a custom sink")

    guard = Guard("short", log=[Buggy()])
    guard.log_result(make_result(0), CONTEXTS)
    assert [r.id for r in guard.unlogged] == ["r0"]
    assert any("RuntimeError" in r.getMessage() for r in caplog.records if r.levelname == "ERROR")


def test_guard_unlogged_is_bounded_and_reports_drops(caplog):
    from guardrail.guard import Guard
    from guardrail.log.records import UnloggedRecords

    class Broken(LogSink):
        def write(self, record: FlaggedRecord) -> None:
            raise LogSinkError("disk full")

    guard = Guard("short", log=[Broken(), Broken()])
    assert guard.unlogged.maxlen == Guard.unlogged_limit == 10_000
    guard.unlogged = UnloggedRecords(maxlen=3)
    for i in range(5):
        guard.log_result(make_result(i), CONTEXTS)
    assert [r.id for r in guard.unlogged] == ["r2", "r3", "r4"]  # once each, though two sinks failed
    assert guard.unlogged.dropped == 2
    drops = [r for r in caplog.records if r.levelname == "ERROR" and "dropped" in r.getMessage()]
    assert len(drops) == 2 and "id='r1'" in drops[-1].getMessage() and "2 record(s) dropped" in drops[-1].getMessage()


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


def test_sqlite_record_without_id_is_written(tmp_path):
    rec = FlaggedRecord.from_result(make_result(0).model_copy(update={"id": None}), CONTEXTS)
    with open_sink(tmp_path / "log.sqlite") as sink:
        sink.write(rec)  # raised TypeError (re.sub on None) before
        assert [r.id for r in sink.read(strict=True)] == [None]


@pytest.mark.slow
def test_guard_check_without_id_reaches_a_sqlite_log(tmp_path):
    """A plain ``check()`` (no id, the default) must reach a SQLite log; the guard used to
    swallow the sink's TypeError and keep the record only in ``unlogged``."""
    from guardrail.guard import Guard

    path = tmp_path / "flagged.sqlite"
    g = Guard(log=str(path))
    r = g.check("Paris is the capital of Spain.", ["Paris is the capital of France."])
    assert not r.passed and r.id is None
    assert len(g.unlogged) == 0
    assert [rec.id for rec in read_log(path)] == [None]
