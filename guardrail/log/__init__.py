"""The flagged-answer log: records and sinks (JSONL with a file lock, SQLite in WAL mode, memory).

* :mod:`guardrail.log.records`: :class:`FlaggedRecord` and the sink role :class:`LogSink`.
* :mod:`guardrail.log.sinks`: :class:`JsonlSink`, :class:`SqliteSink`, :func:`open_sink`, :func:`read_log`.
"""

from guardrail.log.records import FlaggedRecord, LogSink, MemorySink
from guardrail.log.sinks import JsonlSink, SqliteSink, open_sink, read_log

__all__ = ["FlaggedRecord", "JsonlSink", "LogSink", "MemorySink", "SqliteSink", "open_sink", "read_log"]
