"""The walk of ``answer`` through ``Guard.check`` (issue 28's bar), for :mod:`benchmarks.layout`.

One check of a short QA item on a warm default guard is traced with :func:`sys.settrace`. A call
"carries the answer" when one of its parameters other than ``self``/``cls`` is the answer (the
object passed, or a copy of its text that a call carrying it returned: the validated answer), or
holds it one or two levels down (an attribute, a mapping value, a sequence item). The files of
those calls, in call order and with consecutive repeats merged, are the walk's stays; a stay in a
file the walk had already left is a return. Two walks: the check's own code (a part, see
:data:`PARTS`, is a stay where it is entered and not followed inside), and the walk that follows
the parts too.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

__all__ = ["answer_walks", "WALK_ROW", "PARTS"]

#: The traced item: row 1 of ``examples/data/halueval_qa_head.jsonl`` (its right answer passes, its
#: hallucinated answer is flagged, so the walk passes the explanation step too).
WALK_ROW = 1
#: The guard's parts (``guardrail/<dir>/``): the walk of the check's own code does not follow
#: the answer inside them (as the issue's first count did not follow the shipped detector).
PARTS = ("extract", "detectors", "explain")


def _holds(value: Any, answer: list[str], depth: int = 2) -> bool:
    """Whether ``value`` is one of the ``answer`` objects or holds one ``depth`` levels down."""
    if isinstance(value, str):
        return any(value is a for a in answer)
    if depth == 0 or value is None or isinstance(value, (int, float, bytes, type)):
        return False
    if isinstance(value, dict):
        items: list[Any] = list(value.values())[:32]
    elif isinstance(value, (list, tuple)):
        items = list(value[:32])
    else:
        items = list(getattr(value, "__dict__", {}).values())[:32]
        items += [getattr(value, s, None) for s in getattr(type(value), "__slots__", ()) if isinstance(s, str)]
    return any(_holds(v, answer, depth - 1) for v in items)


def _walk(files: list[str]) -> dict[str, Any]:
    stays = [f for i, f in enumerate(files) if i == 0 or files[i - 1] != f]
    return {"stays": stays, "files": len(set(stays)),
            "returns": sum(1 for i, f in enumerate(stays) if f in stays[:i])}


def _in_part(frame: Any, parts: tuple[str, ...]) -> bool:
    """Whether a caller of ``frame`` runs inside a part (a directory of ``parts``)."""
    f = frame.f_back
    while f is not None:
        if f.f_code.co_filename.startswith(parts):
            return True
        f = f.f_back
    return False


def _trace(guard: Any, root: Path, answer: str, context: str, question: str | None) -> dict[str, Any]:
    """Both walks of ``answer`` through one check: the check's own code (a part's entry is a stay,
    its insides are not followed) and the walk that follows the parts too."""
    roots = (str(root / "guardrail"), str(root / "integrations"))
    parts = tuple(str(root / "guardrail" / d) + "/" for d in PARTS)
    core: list[str] = []
    every: list[str] = []
    tracked = [answer]

    def returns(frame: Any, event: str, arg: Any) -> Any:
        if event == "return" and isinstance(arg, str) and arg == answer and not _holds(arg, tracked):
            tracked.append(arg)
        return returns

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        code = frame.f_code
        if event != "call" or not code.co_filename.startswith(roots):
            return None
        names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
        if not any(n not in ("self", "cls") and _holds(frame.f_locals.get(n), tracked) for n in names):
            return None
        path = str(Path(code.co_filename).relative_to(root))
        every.append(path)
        if not _in_part(frame, parts):
            core.append(path)
        return returns

    sys.settrace(tracer)
    try:
        result = guard.check(answer, [context], question, log=False)
    finally:
        sys.settrace(None)
    return {"passed": result.passed, "core": _walk(core), "parts": _walk(every)}


def answer_walks(row: dict[str, Any], root: Path) -> dict[str, dict[str, Any]]:
    """The walks of a HaluEval QA ``row``'s right answer and of its hallucinated answer, each traced
    through one ``Guard.check`` of a warm default guard (its caches hold only the warm-up item)."""
    from guardrail import Guard

    guard = Guard().warm_up()
    return {kind: _trace(guard, root, row[f"{kind}_answer"], row["knowledge"], row["question"])
            for kind in ("right", "hallucinated")}
