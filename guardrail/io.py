"""Reading the ``kg-guardrail`` input file: one :class:`InputLine` per non-blank line.

A file is never lost to one bad line: each line is decoded and parsed on its own, so a
line that is not UTF-8 (a stray Latin-1 byte, a UTF-16 file), not JSON, nested too
deeply or otherwise unreadable becomes an error line with its number, and every other
line is still judged.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from guardrail.errors import BatchError, GuardrailError, InvalidInputError

if TYPE_CHECKING:  # the guard imports nothing from here: no cycle at run time
    from guardrail.guard import Guard

__all__ = ["InputLine", "read_items", "check_batch", "error_row"]


@dataclass
class InputLine:
    """One non-blank line of an input file: a usable item or the reason it is not.

    ``item`` holds ``answer``, ``context``, ``question`` and ``id`` for the guard (None
    when the line is malformed, see ``error``); ``raw`` is the parsed JSON object.
    """

    line: int
    id: str
    item: dict[str, Any] | None = None
    label: int | None = None
    error: str = ""
    raw: dict[str, Any] = field(default_factory=dict)


def _parse_line(lineno: int, text: str, context_optional: bool = False) -> InputLine:
    try:
        return _parse_object(lineno, text, context_optional)
    except Exception as exc:  # last resort: one odd line never aborts the file
        return InputLine(lineno, str(lineno), error=f"unreadable line ({type(exc).__name__}: {exc})")


def _parse_object(lineno: int, text: str, context_optional: bool = False) -> InputLine:
    if "\x00" in text:
        return InputLine(lineno, str(lineno), error="NUL bytes: the file looks UTF-16 encoded, not UTF-8")
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return InputLine(lineno, str(lineno), error=f"invalid JSON: {exc.msg}")
    except RecursionError:
        return InputLine(lineno, str(lineno), error="invalid JSON: nested too deeply")
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit
        return InputLine(lineno, str(lineno), error=f"invalid JSON: {exc}")
    if not isinstance(obj, dict):
        return InputLine(lineno, str(lineno), error=f"expected a JSON object, got {type(obj).__name__}")
    raw_id = obj.get("id")
    ident = str(lineno) if raw_id is None else str(raw_id)
    line = InputLine(lineno, ident, raw=obj)
    context = obj.get("context", obj.get("contexts"))
    if context is None and context_optional:  # checked against a knowledge base alone
        context = []
    label = obj.get("label")
    if "answer" not in obj:
        line.error = "missing 'answer'"
    elif context is None:
        line.error = "missing 'context'"
    elif label is not None and (isinstance(label, bool) or label not in (0, 1)):
        line.error = f"'label' must be 0, 1 or null, got {label!r}"
    else:
        from guardrail.extract.given import split_context_input
        from guardrail.validate import validate_input

        try:  # the guard's own type checks, before any model runs
            validate_input(obj["answer"], split_context_input(context)[0], obj.get("question"))
        except InvalidInputError as exc:
            line.error = str(exc)
    if not line.error:
        line.item = {"answer": obj["answer"], "context": context,
                     "question": obj.get("question"), "id": ident}
        line.label = None if label is None else int(label)
    return line


#: Bytes of a blank line (NUL too: what is left of a newline in a UTF-16 file).
_BLANK = b" \t\r\n\x0b\x0c\x00"


def read_items(path: Path, *, context_optional: bool = False) -> list[InputLine]:
    """Parse a JSONL input file; blank lines are skipped, malformed lines kept as errors.

    ``context_optional=True`` (``check --kb``): a line without ``context`` is checked
    against the knowledge base alone (its context is ``[]``).

    Each line is decoded on its own, so a line that is not UTF-8 (a stray Latin-1 byte,
    a UTF-16 file), not JSON, or nested too deeply becomes one error line with its
    number while the other lines are kept. A UTF-8 byte-order mark is ignored.
    """
    lines = []
    for i, raw in enumerate(path.read_bytes().splitlines(), start=1):
        if i == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        if raw.strip(_BLANK):
            lines.append(_decode_line(i, raw, context_optional))
    return lines


def _decode_line(lineno: int, raw: bytes, context_optional: bool = False) -> InputLine:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        why = "the file starts with a UTF-16 byte-order mark" if lineno == 1 and raw[:2] in (
            b"\xff\xfe", b"\xfe\xff") else f"byte 0x{raw[exc.start]:02x} at column {exc.start + 1}"
        return InputLine(lineno, str(lineno), error=f"not UTF-8 ({why}); re-encode the file as UTF-8")
    return _parse_line(lineno, text.lstrip("\ufeff"), context_optional)




_log = logging.getLogger("guardrail.cli.app")


def error_row(line: InputLine) -> dict[str, Any]:
    """The output row of a line that could not be judged."""
    return {"id": line.id, "line": line.line, "error": line.error}


def check_batch(guard: Guard, batch: Sequence[InputLine], compact: bool = True) -> list[dict[str, Any]]:
    """Results (or error rows) of ``batch``, in order; a line that fails is one error row.

    ``check_many`` runs on the batch; when an item fails while judged (:class:`BatchError`),
    the results before it are kept (they are logged already), the item becomes an error
    row and ``check_many`` goes on after it, so no result is computed or logged twice.
    """
    by_line: dict[int, dict[str, Any]] = {}
    todo = [ln for ln in batch if ln.item is not None]
    while todo:
        try:
            results = guard.check_many([ln.item for ln in todo if ln.item is not None])
        except BatchError as exc:
            by_line.update((ln.line, r.to_dict(compact=compact)) for ln, r in zip(todo, exc.results))
            _line_error(todo[exc.index], exc.cause)
            todo = todo[exc.index + 1:]
            continue
        except Exception:  # raised before any item was judged: isolate the line it is about
            _log.debug("batch rejected; checking its lines one by one", exc_info=True)
            by_line.update(_check_one_by_one(guard, todo, compact))
            break
        by_line.update((ln.line, r.to_dict(compact=compact)) for ln, r in zip(todo, results))
        break
    return [by_line[ln.line] if ln.line in by_line else error_row(ln) for ln in batch]


def _line_error(ln: InputLine, exc: BaseException) -> None:
    if isinstance(exc, GuardrailError):
        ln.error = f"{type(exc).__name__}: {exc}"
    else:  # a bug or an unexpected input: record it, judge the rest
        _log.debug("line %d could not be judged", ln.line, exc_info=exc)
        ln.error = f"internal error ({type(exc).__name__}): {exc}"


def _check_one_by_one(guard: Guard, todo: Sequence[InputLine], compact: bool) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for ln in todo:
        it = ln.item
        if it is None:
            continue
        try:
            out[ln.line] = guard.check(it["answer"], it["context"], it["question"],
                                       id=it["id"]).to_dict(compact=compact)
        except Exception as exc:  # one line never aborts the run; the error is its output row
            _line_error(ln, exc)
    return out
