"""Flagged-answer logs: one :class:`FlaggedRecord` per flagged, abstained or refined answer.

Two sinks ship, both safe for many writer threads and processes at once:

* :class:`JsonlSink` appends one JSON line per record on a file opened with
  ``O_APPEND``, under an advisory ``fcntl.flock`` lock, so lines from concurrent
  writers never interleave and none is lost. A failed or short write (disk full) is
  truncated back, and a partial line left by a crash is closed before the next record,
  so an acknowledged record is never glued to a damaged one.
* :class:`SqliteSink` writes to a SQLite database in WAL mode (one connection per
  thread, a busy timeout, and retries with back-off on "database is locked").

A write that still fails raises :class:`~guardrail.errors.LogSinkError`; records are
never dropped silently (:class:`~guardrail.Guard` keeps such records in
``Guard.unlogged``). Readers skip a damaged line or row and report it in
:attr:`LogRecords.damaged` (``strict=True`` raises instead).

>>> with open_sink("flagged.jsonl") as sink:            # doctest: +SKIP
...     sink.write(FlaggedRecord.from_result(result, contexts))
>>> read_log("flagged.jsonl")[0].score                   # doctest: +SKIP
0.83
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_random_exponential

from guardrail.errors import ErrorMap, InvalidInputError, LogSinkError, map_exceptions
from guardrail.log.records import (
    DamagedRecord,
    FlaggedRecord,
    LoggedExplanation,
    LoggedNode,
    LogRecords,
    LogSink,
    MemorySink,
    context_hash,
    parse_records,
    record_json,
)

_log = logging.getLogger("guardrail")

__all__ = [
    "LoggedNode",
    "LoggedExplanation",
    "FlaggedRecord",
    "DamagedRecord",
    "LogRecords",
    "LogSink",
    "JsonlSink",
    "SqliteSink",
    "MemorySink",
    "open_sink",
    "read_log",
    "open_sinks",
    "write_to_sinks",
    "context_hash",
]

_T = TypeVar("_T")
#: The foreign errors of this boundary (files, SQLite) and the tree error they become.
_ERRORS: ErrorMap = {OSError: LogSinkError, sqlite3.Error: LogSinkError}
_SURROGATE = re.compile("[\ud800-\udfff]")


def _append(fd: int, data: bytes, fsync: bool) -> None:
    """Append ``data`` (whole lines) to ``fd``, all of it or nothing.

    A file that does not end in a newline (a partial line left by a crash) gets one
    first, so ``data`` starts on a fresh line. Short writes are continued; when a write
    fails (disk full), the file is truncated back to its former size.
    """
    size = os.fstat(fd).st_size
    if size:
        try:
            tail = os.pread(fd, 1, size - 1)
        except OSError:  # opened write-only: cannot look, assume a clean end
            tail = b"\n"
        if tail != b"\n":
            data = b"\n" + data
    done = 0
    try:
        while done < len(data):
            n = os.write(fd, data[done:])
            if n <= 0:
                raise OSError(errno.ENOSPC, "no bytes written")
            done += n
        if fsync:
            os.fsync(fd)
    except OSError as exc:
        if done:
            try:  # never leave a partial line; if this fails too, the next write starts a fresh line
                os.ftruncate(fd, size)
            except OSError:
                pass
        raise OSError(exc.errno, f"{exc.strerror or exc} ({done} of {len(data)} bytes written, "
                                 "truncated back)") from exc


class JsonlSink(LogSink):
    """Append-only JSON Lines log, safe across threads and processes.

    Parameters
    ----------
    path : str or Path
        The log file; created (with its parent directories) on the first write.
    fsync : bool
        Call ``os.fsync`` after every record (durable across power loss, slower).
    """

    def __init__(self, path: str | Path, *, fsync: bool = False) -> None:
        self.path = Path(path)
        self.fsync = fsync
        self._fd: int | None = None
        self._pid = os.getpid()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"JsonlSink({str(self.path)!r})"

    def _open(self) -> int:
        if self._pid != os.getpid():  # forked: fresh lock and descriptor for this process
            self._pid, self._lock, self._fd = os.getpid(), threading.Lock(), None
        if self._fd is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:  # read access lets a write check that the file ends with a whole line
                self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
            except PermissionError:
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        return self._fd

    def write(self, record: FlaggedRecord) -> None:
        """Append ``record`` as one whole line under an exclusive ``flock``.

        A failed or short write is truncated back before :class:`LogSinkError` is
        raised, so the file never keeps a partial line of this record.
        """
        data = (record_json(record) + "\n").encode("utf-8")
        with map_exceptions(_ERRORS, f"cannot append to {str(self.path)!r}"), self._lock:
            fd = self._open()
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                _append(fd, data, self.fsync)
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def read(self, *, strict: bool = False) -> LogRecords:
        """Parse every line (under a shared lock); blank lines are skipped.

        A damaged line (partial, not UTF-8, not a record) is skipped and reported in
        :attr:`LogRecords.damaged` with its line number; ``strict=True`` raises instead.
        A UTF-8 byte-order mark at the start of the file is ignored.
        """
        if not self.path.exists():
            return LogRecords()
        with map_exceptions(_ERRORS, f"cannot read {str(self.path)!r}"), self.path.open("rb") as fh:
            fcntl.flock(fh.fileno(), fcntl.LOCK_SH)
            try:
                raw = fh.read()
            finally:
                fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
        if raw.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte-order mark (a file saved by an editor)
            raw = raw[3:]
        lines = raw.split(b"\n")
        return parse_records(((f"{self.path}:{i}", line.decode("utf-8", errors="replace"))
                           for i, line in enumerate(lines, 1) if line.strip()), strict)

    def close(self) -> None:
        """Close the file descriptor."""
        with self._lock:
            if self._fd is not None and self._pid == os.getpid():
                os.close(self._fd)
            self._fd = None


def _is_locked(exc: BaseException) -> bool:
    msg = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in msg or "busy" in msg)


_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS flagged ("
    " seq INTEGER PRIMARY KEY AUTOINCREMENT, time TEXT NOT NULL, id TEXT,"
    " event TEXT NOT NULL, score REAL NOT NULL, record TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS flagged_time ON flagged(time)",
    "CREATE INDEX IF NOT EXISTS flagged_id ON flagged(id)",
)


class SqliteSink(LogSink):
    """SQLite log (WAL mode), safe across threads and processes.

    Table ``flagged(seq, time, id, event, score, record)``; ``time`` and ``id`` are
    indexed, ``record`` holds the full JSON. Each thread uses its own connection.

    Parameters
    ----------
    path : str or Path
        Database file; created with its parent directories.
    timeout : float
        SQLite busy timeout in seconds.
    retries : int
        Attempts on "database is locked" before :class:`LogSinkError` is raised.
    """

    def __init__(self, path: str | Path, *, timeout: float = 10.0, retries: int = 8) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self.retries = max(1, retries)
        self._local = threading.local()
        self._conns: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._pid = os.getpid()

    def __repr__(self) -> str:
        return f"SqliteSink({str(self.path)!r})"

    def _retry(self, fn: Callable[[], _T], what: str) -> _T:
        with map_exceptions(_ERRORS, f"cannot {what} {str(self.path)!r}"):
            for attempt in Retrying(
                retry=retry_if_exception(_is_locked), stop=stop_after_attempt(self.retries),
                wait=wait_random_exponential(multiplier=0.05, max=2.0), reraise=True,
            ):
                with attempt:
                    return fn()
        raise LogSinkError(f"cannot {what} {str(self.path)!r}")  # pragma: no cover

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=self.timeout, check_same_thread=False,
                               isolation_level=None)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            conn.execute("PRAGMA journal_mode = WAL")
            for stmt in _SCHEMA:
                conn.execute(stmt)
        except BaseException:
            conn.close()
            raise
        return conn

    def _conn(self) -> sqlite3.Connection:
        if self._pid != os.getpid():  # forked: never reuse the parent's connections
            self._pid, self._local, self._conns = os.getpid(), threading.local(), []
            self._lock = threading.Lock()
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = self._retry(self._connect, "open")
            self._local.conn = conn
            with self._lock:
                self._conns.append(conn)
        return conn

    def write(self, record: FlaggedRecord) -> None:
        """Insert ``record`` (retried with back-off while the database is locked)."""
        # SQLite stores UTF-8: a lone surrogate in an id would raise UnicodeEncodeError, so it
        # becomes U+FFFD, as in the JSON column (record_json).
        rid = None if record.id is None else _SURROGATE.sub("\ufffd", record.id)
        row = (record.time, rid, record.event, record.score, record_json(record))

        def _insert() -> None:
            self._conn().execute(
                "INSERT INTO flagged(time, id, event, score, record) VALUES (?, ?, ?, ?, ?)", row
            )

        self._retry(_insert, "write to")

    def read(self, *, strict: bool = False) -> LogRecords:
        """Every record in insertion order; a malformed row is skipped and reported
        (``"path#seq"`` in :attr:`LogRecords.damaged`) unless ``strict``."""
        if not self.path.exists():
            return LogRecords()
        rows = self._retry(
            lambda: self._conn().execute("SELECT seq, record FROM flagged ORDER BY seq").fetchall(),
            "read",
        )
        return parse_records(((f"{self.path}#{seq}", str(text)) for seq, text in rows), strict)

    def close(self) -> None:
        """Close every connection this sink opened in this process."""
        with self._lock:
            conns, self._conns = self._conns, []
            self._local = threading.local()
        if self._pid == os.getpid():
            for c in conns:
                c.close()


_SUFFIXES: dict[str, Callable[..., LogSink]] = {
    ".jsonl": JsonlSink, ".json": JsonlSink,
    ".sqlite": SqliteSink, ".sqlite3": SqliteSink, ".db": SqliteSink,
}


def open_sink(path: str | Path | LogSink, **kwargs: Any) -> LogSink:
    """Open the sink that fits ``path``'s suffix.

    Parameters
    ----------
    path : str, Path or LogSink
        ``.jsonl``/``.json`` give a :class:`JsonlSink`; ``.sqlite``/``.sqlite3``/``.db``
        a :class:`SqliteSink`. A sink is returned unchanged.
    **kwargs
        Passed to the sink's constructor (``fsync=``, ``timeout=``, ``retries=``).

    Raises
    ------
    InvalidInputError
        Any other suffix (the message names the path; a ``ValueError``).
    """
    if isinstance(path, LogSink):
        return path
    cls = _SUFFIXES.get(Path(path).suffix.lower())
    if cls is None:
        raise InvalidInputError(
            f"cannot tell the log format of {str(path)!r}: use a .jsonl/.json or "
            ".sqlite/.sqlite3/.db path"
        )
    return cls(path, **kwargs)


def read_log(path: str | Path, *, strict: bool = False) -> LogRecords:
    """Read every record of the log at ``path`` (format by suffix, as :func:`open_sink`).

    Parameters
    ----------
    path : str or Path
        The log.
    strict : bool
        Raise on a damaged line or row; by default it is skipped, logged at WARNING and
        listed in the result's :attr:`LogRecords.damaged`.

    Returns
    -------
    LogRecords
        A list of :class:`FlaggedRecord`, oldest first, with ``.damaged``.

    Raises
    ------
    LogSinkError
        The file does not exist or cannot be read, or (``strict``) holds a malformed record.
    ValueError
        Unknown suffix.
    """
    if not Path(path).is_file():
        raise LogSinkError(f"log not found: {str(path)!r}")
    with open_sink(path) as sink:
        return sink.read(strict=strict)


def open_sinks(log: Any) -> list[LogSink]:
    """The sinks named by ``log``: ``None``, a sink, a path, or a list or tuple of them.

    Raises
    ------
    InvalidInputError
        A path whose format cannot be told from its suffix.
    """
    if log is None:
        return []
    items = log if isinstance(log, (list, tuple)) else [log]
    return [open_sink(x) if isinstance(x, (str, Path)) else x for x in items]


def write_to_sinks(sinks: Sequence[LogSink], record: FlaggedRecord) -> bool:
    """Write ``record`` to every sink; ``False`` when any failed (each failure is logged).

    A :class:`LogSinkError` is logged as such; any other exception is a bug in a sink and is
    logged with its traceback. Neither propagates: a log failure must never lose the answer,
    and the caller keeps the record (``Guard.unlogged``).
    """
    ok = True
    for sink in sinks:
        try:
            sink.write(record)
        except LogSinkError as exc:
            _log.error("flagged-answer log %r failed: %s; record kept in Guard.unlogged", sink, exc)
            ok = False
        except Exception as exc:  # noqa: BLE001 - a bug in a sink must not lose the record or the answer
            _log.error("flagged-answer log %r raised %s (a bug in the sink): %s; record kept in "
                       "Guard.unlogged", sink, type(exc).__name__, exc, exc_info=True)
            ok = False
    return ok
