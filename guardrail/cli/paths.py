"""Output paths of the CLI: checked before any work, and no traceback when one cannot be written.

:func:`check_output_paths` exits with a usage error (2) when an output cannot be a file
(a directory, a path inside a file, a folder that cannot be created); :func:`os_errors`
turns an :class:`OSError` met while writing (``/dev/full``, a disk that fills) into one
``error:`` line and exit status 2.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer
from rich.console import Console

from guardrail.cli.render import markup

__all__ = ["check_output_paths", "os_errors"]

F = TypeVar("F", bound=Callable[..., Any])


def _why_not_writable(path: Path) -> str:
    """Why ``path`` cannot be written as a file, or ``""``; creates its missing parent folders."""
    if path.is_dir():
        return "is a directory"
    if any(p.is_file() for p in path.parents):
        return "is inside a file, not a directory"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot be created ({exc.strerror or exc})"
    return ""


def check_output_paths(console: Console, **paths: Path | None) -> None:
    """Exit with a usage error (2), before any work, when an output path cannot be a file.

    Parameters
    ----------
    console : Console
        Where the error line goes (stderr).
    **paths : Path or None
        Option name (without ``--``) to path; ``None`` is skipped.

    Raises
    ------
    typer.Exit
        With code 2, after one ``error:`` line naming the option and the path.
    """
    for option, path in paths.items():
        if path is None:
            continue
        why = _why_not_writable(path)
        if why:
            console.print(f"[red]error:[/red] --{option} {markup(path)} {why}; give a file path",
                          highlight=False)
            raise typer.Exit(2)


def os_errors(console: Console) -> Callable[[F], F]:
    """Decorate a command so that an :class:`OSError` it meets ends it with one line and exit 2.

    Parameters
    ----------
    console : Console
        Where the error line goes (stderr).

    Returns
    -------
    callable
        The decorator (it keeps the command's signature for typer).
    """
    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except OSError as exc:
                where = f"{markup(exc.filename)}: " if getattr(exc, "filename", None) else ""
                console.print(f"[red]error:[/red] {where}{markup(exc.strerror or exc)}", highlight=False)
                raise typer.Exit(2) from exc
        return run  # type: ignore[return-value]
    return wrap
