"""The flagged-answer log record (what a sink writes for one flagged, abstained or
refined answer), its parsing, and the sink interface with an in-memory sink
(:mod:`guardrail.log.sinks` has the file sinks and re-exports everything here)."""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from types import TracebackType
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from guardrail.errors import InvalidInputError, LogSinkError
from guardrail.types import GuardResult, Span

__all__ = [
    "LoggedNode",
    "LoggedExplanation",
    "FlaggedRecord",
    "DamagedRecord",
    "LogRecords",
    "LogSink",
    "MemorySink",
    "UnloggedRecords",
    "context_hash",
    "record_json",
    "parse_records",
    "Event",
]

_log = logging.getLogger("guardrail.log.sinks")

_FROZEN = ConfigDict(frozen=True, extra="forbid")
Event = Literal["flagged", "abstained", "declined", "refinement_round"]
_EVENTS = ("flagged", "abstained", "declined", "refinement_round")


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def context_hash(contexts: str | Sequence[str]) -> str:
    """SHA-256 hex digest of the contexts joined by a blank line (``"\\n\\n"``).

    Lets a log identify the retrieved passages without storing them.
    """
    texts = [contexts] if isinstance(contexts, str) else [str(c) for c in contexts]
    # surrogatepass: a lone surrogate in a passage must not make logging fail
    return hashlib.sha256("\n\n".join(texts).encode("utf-8", "surrogatepass")).hexdigest()


class LoggedNode(BaseModel):
    """A flagged answer node as kept in the log.

    Parameters
    ----------
    text : str
        Node text as it appears in the answer.
    span : Span or None
        Character span in the answer.
    support : float
        Combined support in ``[0, 1]``.
    evidence : str
        Nearest context evidence, ``""`` if none.
    reason : str
        Contrastive sentence explaining the flag.
    kb_fact : tuple of (str, str, str) or None
        The (subject, predicate, object) IRIs of the knowledge-base triple the node
        contradicts (``Guard(kb=...)``), ``None`` otherwise.
    """

    model_config = _FROZEN
    text: str
    span: Span | None = None
    support: float = Field(ge=0.0, le=1.0)
    evidence: str = ""
    reason: str = ""
    kb_fact: tuple[str, str, str] | None = None


class LoggedExplanation(BaseModel):
    """The human-readable part of an explanation (summary and one sentence per node)."""

    model_config = _FROZEN
    summary: str = ""
    sentences: tuple[str, ...] = ()


class FlaggedRecord(BaseModel):
    """One log entry: what was checked, the verdict, and why.

    Parameters
    ----------
    time : str
        UTC time of the record, ISO 8601 with milliseconds.
    id : str or None
        The caller's id of the answer.
    event : {"flagged", "abstained", "declined", "refinement_round"}
        Why the record was written (``declined``: the answer declines to answer, see
        ``GuardResult.declined``; it is not a flagged answer).
    round : int or None
        Refinement round (``event == "refinement_round"``), else ``None``.
    question : str or None
        The question, when given.
    answer : str
        The answer as checked.
    context_hash : str
        :func:`context_hash` of the passages (the passages themselves are not stored).
    score, threshold : float
        Hallucination score and the threshold used, in ``[0, 1]``.
    passed, abstained : bool
        The verdict.
    abstain_reason : str
        Why the guard abstained, ``""`` otherwise.
    declined : bool
        The answer declines to answer (``GuardResult.declined``).
    detector_scores : dict of str to float
        Per-detector scores.
    flagged_nodes : tuple of LoggedNode
        Unsupported answer nodes.
    explanation : LoggedExplanation
        Summary and contrastive sentences.
    config : str
        Name of the guard config used.
    action : str or None
        What the policy did with the answer (``annotated``, ``filtered``, ``refused``,
        ``refined``, ``declined``, ``raised``, ``error``...); ``None`` for a record written
        before a policy ran (a plain ``check``, a refinement round).
    delivered_answer : str or None
        The answer the user finally received (``None``: not known, or nothing delivered).
    """

    model_config = _FROZEN
    time: str = Field(default_factory=_utc_now)
    id: str | None = None
    event: Event = "flagged"
    round: int | None = None
    question: str | None = None
    answer: str = ""
    context_hash: str = ""
    score: float = Field(ge=0.0, le=1.0)
    threshold: float = Field(ge=0.0, le=1.0)
    passed: bool
    abstained: bool = False
    abstain_reason: str = ""
    declined: bool = False
    detector_scores: dict[str, float] = Field(default_factory=dict)
    flagged_nodes: tuple[LoggedNode, ...] = ()
    explanation: LoggedExplanation = Field(default_factory=LoggedExplanation)
    config: str = ""
    action: str | None = None
    delivered_answer: str | None = None

    @classmethod
    def from_result(
        cls, result: GuardResult, contexts: str | Sequence[str], *, event: str = "flagged",
        round: int | None = None, action: str | None = None, delivered_answer: str | None = None,
    ) -> FlaggedRecord:
        """Build the record of ``result``.

        Parameters
        ----------
        result : GuardResult
            The verdict to log.
        contexts : str or sequence of str
            The passages checked against (only their hash is stored).
        event : {"flagged", "abstained", "declined", "refinement_round"}
            ``"flagged"`` becomes ``"abstained"`` when ``result.abstained`` and ``"declined"``
            when ``result.declined``.
        round : int or None
            Refinement round number.
        action, delivered_answer : str or None
            What the policy did and the answer delivered.
        """
        if event not in _EVENTS:
            raise InvalidInputError(f"unknown log event {event!r}; known: {list(_EVENTS)}")
        if event == "flagged" and result.abstained:
            event = "abstained"
        elif event == "flagged" and result.declined:
            event = "declined"
        nodes = tuple(
            LoggedNode(text=n.text, span=n.span, support=n.support, evidence=n.evidence,
                       reason=n.reason, kb_fact=n.kb_fact)
            for n in result.flagged_nodes
        )
        return cls(
            id=result.id, event=cast(Event, event), round=round, question=result.question,
            answer=result.answer, context_hash=context_hash(contexts), score=result.score,
            threshold=result.threshold, passed=result.passed, abstained=result.abstained,
            abstain_reason=result.abstain_reason, declined=result.declined, detector_scores=dict(result.detector_scores),
            flagged_nodes=nodes,
            explanation=LoggedExplanation(summary=result.explanation.summary,
                                          sentences=result.explanation.sentences),
            config=result.config, action=action, delivered_answer=delivered_answer,
        )


def record_json(record: FlaggedRecord) -> str:
    """``record`` as one line of JSON, even when its strings hold lone surrogates.

    Lone surrogates (``"\\udfff"``), which UTF-8 cannot encode, become U+FFFD; any other
    record serialises exactly as ``record.model_dump_json()``.
    """
    try:
        return record.model_dump_json()
    except ValueError:  # PydanticSerializationError: a str that UTF-8 cannot encode
        text = json.dumps(record.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


@dataclass(frozen=True)
class DamagedRecord:
    """A log line or row that could not be read as a :class:`FlaggedRecord`.

    Parameters
    ----------
    where : str
        ``"path:line"`` for a JSONL log, ``"path#seq"`` for a SQLite one.
    reason : str
        Why it was skipped (the first line of the parse error).
    """

    where: str
    reason: str

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"


class LogRecords(list[FlaggedRecord]):
    """The records read from a log, oldest first, plus the entries that were skipped.

    A plain ``list`` of :class:`FlaggedRecord` with one extra attribute, :attr:`damaged`:
    the :class:`DamagedRecord` s (a partial line left by a full disk, a corrupted
    row...) that the reader skipped instead of refusing the whole log.
    """

    def __init__(self, records: Iterable[FlaggedRecord] = (), damaged: Iterable[DamagedRecord] = ()) -> None:
        super().__init__(records)
        self.damaged: tuple[DamagedRecord, ...] = tuple(damaged)


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError) and exc.errors():
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first.get("loc", ()))
        return f"{loc}: {first['msg']}" if loc else str(first["msg"])
    return f"{type(exc).__name__}: {exc}"


def parse_records(entries: Iterable[tuple[str, str]], strict: bool = False) -> LogRecords:
    """Parse ``(where, json_text)`` log entries into records.

    Parameters
    ----------
    entries : iterable of (str, str)
        Where each entry comes from (``"path:line"``) and its JSON text.
    strict : bool
        Raise on the first damaged entry instead of skipping it.

    Returns
    -------
    LogRecords
        The records; damaged entries are skipped, logged at WARNING and listed in
        :attr:`LogRecords.damaged`.

    Raises
    ------
    LogSinkError
        ``strict`` and an entry is not a valid :class:`FlaggedRecord`.
    """
    records: list[FlaggedRecord] = []
    damaged: list[DamagedRecord] = []
    for where, text in entries:
        try:
            records.append(FlaggedRecord.model_validate_json(text))
        except (ValidationError, ValueError, RecursionError) as exc:
            if strict:
                raise LogSinkError(f"{where}: malformed log record: {exc}") from exc
            damaged.append(DamagedRecord(where, f"malformed log record: {_reason(exc)}"))
    for d in damaged:
        _log.warning("skipped a damaged log record at %s", d)
    return LogRecords(records, damaged)


class LogSink(ABC):
    """Where :class:`FlaggedRecord` s go. Subclasses implement :meth:`write`.

    Sinks are context managers (``with open_sink(p) as sink: ...`` closes them).
    """

    @abstractmethod
    def write(self, record: FlaggedRecord) -> None:
        """Persist ``record``.

        Raises
        ------
        LogSinkError
            When the record could not be written (after retries, where the sink retries).
        """

    def read(self, *, strict: bool = False) -> LogRecords:
        """Return every record, oldest first.

        Parameters
        ----------
        strict : bool
            Raise on a damaged record instead of skipping it (skipped records are
            listed in :attr:`LogRecords.damaged` and logged at WARNING).

        Raises
        ------
        LogSinkError
            When the sink cannot be read, or (``strict``) holds a malformed record.
        """
        raise LogSinkError(f"{type(self).__name__} cannot be read back")

    def close(self) -> None:  # noqa: B027 - optional hook: sinks without resources keep it empty
        """Release files and connections (writing again reopens them)."""

    def __enter__(self) -> LogSink:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class MemorySink(LogSink):
    """Keeps records in a list (:attr:`records`); thread-safe. Useful in tests and notebooks."""

    def __init__(self) -> None:
        self.records: list[FlaggedRecord] = []
        self._lock = threading.Lock()

    def write(self, record: FlaggedRecord) -> None:
        """Append ``record`` to :attr:`records`."""
        with self._lock:
            self.records.append(record)

    def read(self, *, strict: bool = False) -> LogRecords:
        """A copy of :attr:`records`."""
        with self._lock:
            return LogRecords(self.records)


class UnloggedRecords(deque[FlaggedRecord]):
    """A bounded buffer of the records no sink accepted (``Guard.unlogged``).

    A :class:`collections.deque` (``maxlen`` = the bound) that counts and reports what
    it drops: :meth:`keep` appends a record and, when the buffer is full, logs the
    dropped oldest record at ERROR and adds one to :attr:`dropped`.

    Parameters
    ----------
    records : iterable of FlaggedRecord
        Initial content.
    maxlen : int or None
        The bound (``None``: unbounded).
    """

    def __init__(self, records: Iterable[FlaggedRecord] = (), maxlen: int | None = None) -> None:
        super().__init__(records, maxlen)
        #: How many records were dropped because the buffer was full.
        self.dropped = 0
        self._lock = threading.Lock()

    def keep(self, record: FlaggedRecord) -> None:
        """Append ``record``; when full, drop the oldest one and report it at ERROR."""
        with self._lock:
            if self.maxlen is not None and len(self) >= self.maxlen:
                lost = self[0] if self else record
                self.dropped += 1
                _log.error(
                    "Guard.unlogged is full (%d records): dropped an unwritten record (id=%r, "
                    "event=%s, time=%s); %d record(s) dropped in all",
                    self.maxlen, lost.id, lost.event, lost.time, self.dropped,
                )
            self.append(record)
