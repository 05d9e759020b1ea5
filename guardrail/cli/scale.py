"""Helpers of the ``check --engine ray`` and ``--report`` options (kept out of :mod:`guardrail.cli.app`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from guardrail.errors import InvalidInputError
from guardrail.io import InputLine

__all__ = ["RayCounter", "check_extras", "ray_stream", "write_pairs_report"]


class RayCounter:
    """Counts the flagged-answer records the Ray workers could not write."""

    unlogged = 0


def check_extras(engine: str, report: Path | None) -> None:
    """Raise ``ValueError`` for an unknown engine, ``ImportError`` (naming the pip extra)
    when ``--engine ray`` or ``--report`` lacks its dependencies."""
    if engine not in ("local", "ray"):
        raise InvalidInputError(f"--engine: expected local or ray, got {engine!r}")
    if engine == "ray":
        from guardrail.batch import require_ray

        require_ray()
    if report is not None:
        from guardrail.report import require_report_deps

        require_report_deps()


def ray_stream(lines: Sequence[InputLine], config: str | None, log: Path | None, batch_size: int,
               num_cpus: int | None, address: str | None, compact: bool,
               counter: RayCounter) -> Iterator[tuple[InputLine, dict[str, Any]]]:
    """:func:`guardrail.batch.ray_rows` with the ``check`` options."""
    from guardrail.batch import ray_rows

    return ray_rows(lines, config, log=log, batch_size=batch_size, num_cpus=num_cpus, address=address,
                    compact=compact, counter=counter)


def write_pairs_report(path: Path, rows: Sequence[tuple[InputLine, dict[str, Any]]], source: Path) -> Path:
    """The report of ``check``'s rows, joined with their input lines."""
    from guardrail.report import report_from_pairs

    return report_from_pairs([(ln.raw, row) for ln, row in rows], path, source=str(source))
