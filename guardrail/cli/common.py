"""What the ``kg-guardrail`` commands share: the consoles, the guard factory, running a guard
over input lines, and the reports on stderr."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from guardrail.cli.paths import check_output_paths
from guardrail.cli.render import markup
from guardrail.errors import GuardrailError
from guardrail.guard import Guard
from guardrail.io import InputLine
from guardrail.io import check_batch as _check_batch
from guardrail.log.sinks import LogSink, open_sink

__all__ = ["out_console", "err_console", "InputArg", "make_guard", "run_guard", "guard_or_exit", "report_errors",
           "labelled", "open_log", "print_unlogged", "require_extras", "write_report", "output_paths"]

out_console = Console()
err_console = Console(stderr=True)

InputArg = Annotated[Path, typer.Argument(exists=True, dir_okay=False, readable=True,
                                          help="JSONL input, one item per line.")]


def make_guard(config: str | None = None, log: LogSink | None = None, *, extractor: str | None = None,
               llm_base_url: str | None = None, llm_model: str = "local", llm_timeout: float | None = None) -> Guard:
    """The guard the commands use (tests replace this factory).

    Parameters
    ----------
    config : str or None
        ``None`` or ``"default"`` for the shipped config, or a config JSON file.
    log : LogSink or None
        Flagged-answer sink.
    extractor : {"spacy", "llm"} or None
        Overrides the config's ``extractor`` (``None``: keep it); with ``"llm"`` the
        ``llm_*`` settings override the config's too (``llm_base_url=None`` keeps the
        config's URL or ``$KG_GUARDRAIL_LLM_BASE_URL``).
    llm_base_url, llm_model, llm_timeout
        The extraction endpoint, model name and per-call timeout (``None``: sized to the reply).

    Raises
    ------
    ConfigError
        The config cannot be loaded, or ``extractor="llm"`` has no endpoint.
    """
    name = "default" if config is None else config
    if extractor is None:
        return Guard(name, log=log)
    from guardrail.config import load_config

    cfg = load_config(name)
    update: dict[str, Any] = {"extractor": extractor}
    if extractor == "llm":
        update.update(llm_model=llm_model, llm_timeout=llm_timeout)
        if llm_base_url is not None:
            update["llm_base_url"] = llm_base_url
    return Guard(load_config({**cfg.model_dump(), **update}), log=log)


def run_guard(
    guard: Guard, lines: Sequence[InputLine], batch_size: int = 32, progress: bool | None = None,
    compact: bool = True,
) -> Iterator[tuple[InputLine, dict[str, Any]]]:
    """Check every line in order, yielding ``(line, result_or_error_dict)``.

    A rich progress bar is drawn on stderr when ``progress`` is True, or when it is
    None and stderr is a terminal or there are more than 50 lines. ``compact=False``
    keeps the claim and context graphs in the results.
    """
    show = progress if progress is not None else (err_console.is_terminal or len(lines) > 50)
    bar = Progress(TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=err_console, disable=not show, transient=False)
    with bar:
        task = bar.add_task("check", total=len(lines))
        for start in range(0, len(lines), max(1, batch_size)):
            batch = lines[start : start + batch_size]
            yield from zip(batch, _check_batch(guard, batch, compact))
            bar.advance(task, len(batch))


def report_errors(rows: Sequence[tuple[InputLine, dict[str, Any]]], source: Path) -> int:
    bad = [(ln, row) for ln, row in rows if "error" in row]
    for ln, row in bad:
        err_console.print(f"[red]{markup(source)}:{ln.line}[/red]: {markup(ln.error or row['error'])}",
                          highlight=False)
    return len(bad)


def labelled(rows: Sequence[tuple[InputLine, dict[str, Any]]]) -> tuple[list[dict[str, Any]], list[int]]:
    pairs = [(row, ln.label) for ln, row in rows if ln.label is not None and "error" not in row]
    return [p[0] for p in pairs], [int(p[1]) for p in pairs if p[1] is not None]


def open_log(path: Path | None) -> LogSink | None:
    if path is None:
        return None
    try:
        return open_sink(path)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--log") from exc


def guard_or_exit(config: str | None, sink: LogSink | None, extraction: dict[str, Any] | None = None) -> Guard:
    try:
        return make_guard(config, sink, **extraction) if extraction else make_guard(config, sink)
    except GuardrailError as exc:
        err_console.print(f"[red]error:[/red] {markup(exc)}", highlight=False)
        raise typer.Exit(2) from exc


def output_paths(**paths: Path | None) -> None:
    """Exit with a usage error (2), before any work, when an output path cannot be a file."""
    check_output_paths(err_console, **paths)


def print_unlogged(guard: Guard, log: Path | None) -> None:
    """Say how many records the guard could not write to its log."""
    if guard.unlogged:
        dropped = getattr(guard.unlogged, "dropped", 0)
        err_console.print(f"[red]{len(guard.unlogged) + dropped} record(s) could not be written to "
                          f"{markup(log)}[/red]" + (f" ({dropped} of them dropped from memory)" if dropped else ""),
                          highlight=False)


def require_extras(engine: str, report: Path | None) -> None:
    from guardrail.cli.scale import check_extras

    try:
        check_extras(engine, report)
    except (ValueError, ImportError) as exc:
        err_console.print(f"[red]error:[/red] {markup(exc)}", highlight=False)
        raise typer.Exit(2) from exc


def write_report(path: Path, rows: Sequence[tuple[InputLine, dict[str, Any]]], source: Path) -> None:
    from guardrail.cli.scale import write_pairs_report

    err_console.print(f"report -> {markup(write_pairs_report(path, rows, source))}", highlight=False)
