"""The ``kg-guardrail`` command line (also ``python -m guardrail``).

Commands::

    kg-guardrail check INPUT.jsonl --out RESULTS.jsonl [--log FLAGGED.jsonl|.sqlite]
                 [--config default|FILE] [--metrics M.json] [--batch-size N]
                 [--kb FILE | --kb-endpoint URL [--kb-profile rdfs|wikidata]]
                 [--report REPORT.html] [--graphs] [--engine local|ray] [--num-cpus N]
                 [--extractor spacy|llm --llm-base-url URL [--llm-model M] [--llm-timeout S]]
    kg-guardrail report RESULTS.jsonl --out REPORT.html [--input INPUT.jsonl]
    kg-guardrail calibrate INPUT.jsonl --out CONFIG.json [--base default|FILE]
    kg-guardrail log show FLAGGED [--limit N] [--details]
    kg-guardrail log stats FLAGGED
    kg-guardrail demo [--limit N] [--report REPORT.html]

Input lines are ``{"id"?, "question"?, "context": str | [str], "answer", "label"?}``.
Exit status: 0 on success, 1 when some input lines were malformed or could not be
judged or refined (each is reported with its line number and kept in the output as
``{"id", "line", "error"}``; see :mod:`guardrail.io`), a log record could not be
written, or ``log show``/``log stats`` skipped damaged records; 2 on a usage error
(missing file, bad config, an output path that cannot be created or written). Untrusted strings are printed escaped
(:func:`guardrail.cli.render.markup`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from guardrail.cli.check_cmd import check
from guardrail.cli.common import (
    InputArg,
    err_console,
    guard_or_exit,
    labelled,
    make_guard,
    out_console,
    output_paths,
    report_errors,
    require_extras,
    run_guard,
    write_report,
)
from guardrail.cli.llm import llm_app
from guardrail.cli.paths import os_errors
from guardrail.cli.render import markup
from guardrail.data import DEMO_SAMPLE
from guardrail.errors import ConfigError, GuardrailError, InvalidInputError
from guardrail.io import InputLine, read_items
from guardrail.io import check_batch as _check_batch  # noqa: F401 - tests call cli._check_batch

__all__ = ["app", "InputLine", "read_items", "make_guard", "run_guard", "main"]

app = typer.Typer(
    name="kg-guardrail", no_args_is_help=True, add_completion=False,
    help="Detect hallucinated RAG answers by aligning answer and context knowledge graphs.",
)
log_app = typer.Typer(no_args_is_help=True, help="Inspect a flagged-answer log.")
app.add_typer(log_app, name="log")
app.add_typer(llm_app, name="llm")
app.command("check")(os_errors(err_console)(check))

#: Where ``demo`` finds its data: package data (:mod:`guardrail.data`), so a wheel install has it.
DEMO_DATA = DEMO_SAMPLE


def _refuse_sqlite(results: Path) -> None:
    """``report`` reads ``check`` results (JSONL): a SQLite file (a flagged-answer log) is a usage error."""
    with results.open("rb") as fh:
        if fh.read(16) == b"SQLite format 3\x00":
            err_console.print(f"[red]error:[/red] {markup(results)} is a SQLite database, not `check` results "
                              "(JSONL); for a flagged-answer log use `kg-guardrail log show` or `log stats`",
                              highlight=False)
            raise typer.Exit(2)


def _unique_ids_or_exit(input: Path) -> None:
    """``report --input`` joins results to inputs by id: repeated ids would join the wrong lines."""
    first: dict[str, int] = {}
    for ln in read_items(input):
        if ln.id in first:
            err_console.print(
                f"[red]error:[/red] ids repeat in {markup(input)}: {markup(repr(ln.id))} on lines "
                f"{first[ln.id]} and {ln.line}; --input joins results to inputs by id, so give every "
                "line a unique id (or leave ids out: the line number is used)", highlight=False)
            raise typer.Exit(2)
        first[ln.id] = ln.line


@app.command()
@os_errors(err_console)
def report(
    results: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="Results JSONL from check.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the HTML report.")],
    input: Annotated[Path | None, typer.Option("--input", exists=True, dir_okay=False,
                                               help="The check input, joined by id (contexts, labels).")] = None,
    title: Annotated[str | None, typer.Option(help="Page title.")] = None,
    max_graphs: Annotated[int, typer.Option(min=0, help="Draw graph pictures for at most N items.")] = 300,
) -> None:
    """Write a self-contained HTML report of check results (needs the 'report' extra)."""
    from guardrail.report import report_from_files

    require_extras("local", out)
    output_paths(out=out)
    _refuse_sqlite(results)
    if input is not None:
        _unique_ids_or_exit(input)
    path, problems = report_from_files(results, out, inputs=input, title=title, max_graphs=max_graphs)
    if problems:
        err_console.print(f"[yellow]{problems} unreadable result line(s) skipped[/yellow]")
    err_console.print(f"report -> {markup(path)}", highlight=False)


@app.command()
@os_errors(err_console)
def calibrate(
    input: InputArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to save the calibrated config.")],
    base: Annotated[str, typer.Option(help="Base config: default, or a config JSON.")] = "default",
    name: Annotated[str | None, typer.Option(help="Name of the new config (default: --out stem).")] = None,
    batch_size: Annotated[int, typer.Option(min=1)] = 32,
) -> None:
    """Fit detector weights and the threshold on labelled INPUT; save the config to --out."""
    from guardrail.aggregate import calibrate as fit
    from guardrail.aggregate import final_score
    from guardrail.cli.render import compare_table
    from guardrail.config import load_config, save_config
    from guardrail.metrics import result_metrics

    if base == "auto":
        raise typer.BadParameter("calibrate needs one base config, not auto", param_hint="--base")
    output_paths(out=out)
    guard = guard_or_exit(base, None)
    rows = list(run_guard(guard, read_items(input), batch_size))
    n_bad = report_errors(rows, input)
    results, labels = labelled(rows)
    # abstained and declined answers were not scored by the detectors: nothing to fit on
    usable = [(r, y) for r, y in zip(results, labels) if not r["abstained"] and not r.get("declined")]
    base_cfg = next(iter(guard.configs.values()))
    try:
        new = fit([r["detector_scores"] for r, _ in usable], [y for _, y in usable], base_cfg,
                  name=name or out.stem)
    except InvalidInputError as exc:
        err_console.print(f"[red]error:[/red] {markup(exc)} ({len(usable)} usable labelled item(s))",
                          highlight=False)
        raise typer.Exit(2) from exc
    try:  # the fit is a model_copy: validate it as a loaded config would be (no 0 or 1 threshold)
        new = load_config(new.model_dump())
    except ConfigError as exc:
        err_console.print(f"[red]error:[/red] the calibrated config is unusable: {markup(exc)}", highlight=False)
        raise typer.Exit(2) from exc
    save_config(new, out)
    after = []
    for r in results:
        if not r["abstained"] and not r.get("declined"):
            score = final_score(r["detector_scores"], new)
            r = {**r, "score": score, "threshold": new.threshold, "passed": score < new.threshold}
        after.append(r)
    out_console.print(compare_table(result_metrics(results, labels), result_metrics(after, labels),
                                    title=f"{len(labels)} labelled item(s), in-sample"))
    err_console.print(f"calibrated on {len(usable)} item(s) ({len(labels) - len(usable)} abstained or declined); "
                      f"threshold {new.threshold:.3f} -> {markup(out)}", highlight=False)
    if n_bad:
        raise typer.Exit(1)


def _read_log_or_exit(path: Path) -> list[Any]:
    """The log's records; damaged lines are reported on stderr (see :func:`_exit_if_damaged`)."""
    from guardrail.log.sinks import read_log

    try:
        records = read_log(path)
    except (GuardrailError, ValueError) as exc:
        err_console.print(f"[red]error:[/red] {markup(exc)}", highlight=False)
        raise typer.Exit(2) from exc
    for d in records.damaged:
        err_console.print(f"[yellow]skipped[/yellow] {markup(d)}", highlight=False)
    return records


def _exit_if_damaged(records: Any) -> None:
    if getattr(records, "damaged", ()):
        err_console.print(f"[yellow]{len(records.damaged)} damaged record(s) skipped[/yellow]")
        raise typer.Exit(1)


@log_app.command("show")
def log_show(
    path: Annotated[Path, typer.Argument(help="A .jsonl or .sqlite flagged-answer log.")],
    limit: Annotated[int, typer.Option(min=0, help="Show the last N records (0 = all).")] = 20,
    details: Annotated[bool, typer.Option("--details", help="Answers and explanations in full.")] = False,
) -> None:
    """Show the most recent records of a flagged-answer log (one line each; --details for all)."""
    from guardrail.cli.render import log_table

    records = _read_log_or_exit(path)
    out_console.print(log_table(records[-limit:] if limit else records, details=details, width=out_console.width))
    _exit_if_damaged(records)


@log_app.command("stats")
def log_stats(path: Annotated[Path, typer.Argument(help="A .jsonl or .sqlite flagged-answer log.")]) -> None:
    """Counts by event, the score distribution and the most frequently flagged nodes."""
    from guardrail.cli.render import log_stats as render

    records = _read_log_or_exit(path)
    out_console.print(render(records))
    _exit_if_damaged(records)


def _demo_selection(lines: Sequence[InputLine], limit: int) -> list[InputLine]:
    """Whole records, taken in turn from each task (qa, dialogue, summarization)."""
    groups: dict[str, dict[str, list[InputLine]]] = {}
    for ln in lines:
        group = str(ln.raw.get("group", ln.id))
        groups.setdefault(group.split("-", 1)[0], {}).setdefault(group, []).append(ln)
    queues = [list(g.values()) for g in groups.values()]
    chosen: list[InputLine] = []
    while any(queues) and (not limit or len(chosen) < limit):
        for q in queues:
            if q and (not limit or len(chosen) < limit):
                chosen.extend(q.pop(0))
    return sorted(chosen[: limit or None], key=lambda ln: ln.line)


@app.command()
@os_errors(err_console)
def demo(
    limit: Annotated[int, typer.Option(min=0, help="Items to check (0 = all 350).")] = 24,
    report: Annotated[Path | None, typer.Option(help="Also write an HTML report here ('report' extra).")] = None,
) -> None:
    """Check a HaluEval validation sample and show verdicts, flagged spans and metrics."""
    from guardrail.cli.render import demo_table, metrics_table
    from guardrail.metrics import result_metrics

    if not DEMO_DATA.is_file():
        err_console.print(f"[red]error:[/red] demo data not found at {markup(DEMO_DATA)}", highlight=False)
        raise typer.Exit(2)
    lines = _demo_selection(read_items(DEMO_DATA), limit)
    guard = guard_or_exit(None, None)
    require_extras("local", report)
    rows = list(run_guard(guard, lines, batch_size=16, progress=True, compact=report is None))
    out_console.print(demo_table([(ln.raw, row) for ln, row in rows]))
    results, labels = labelled(rows)
    if labels:
        out_console.print(metrics_table(result_metrics(results, labels), title=f"{len(labels)} item(s)",
                                        caption="abstentions count as flags"))
    if report is not None:
        write_report(report, rows, DEMO_DATA)
    if report_errors(rows, DEMO_DATA):
        raise typer.Exit(1)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI (``python -m guardrail``)."""
    app(args=list(argv) if argv is not None else sys.argv[1:], prog_name="kg-guardrail")
