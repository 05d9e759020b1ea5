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

import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from guardrail.cli.kb import KBEndpointOpt, KBFileOpt, KBProfileOpt, kb_argument, with_kb
from guardrail.cli.llm import llm_app
from guardrail.cli.paths import check_output_paths, os_errors
from guardrail.cli.render import json_line, markup
from guardrail.data import DEMO_SAMPLE
from guardrail.errors import ConfigError, GuardrailError, InvalidInputError
from guardrail.guard import Guard
from guardrail.io import InputLine, read_items
from guardrail.io import check_batch as _check_batch
from guardrail.log.sinks import LogSink, open_sink

__all__ = ["app", "InputLine", "read_items", "make_guard", "run_guard", "main"]

app = typer.Typer(
    name="kg-guardrail", no_args_is_help=True, add_completion=False,
    help="Detect hallucinated RAG answers by aligning answer and context knowledge graphs.",
)
log_app = typer.Typer(no_args_is_help=True, help="Inspect a flagged-answer log.")
app.add_typer(log_app, name="log")
app.add_typer(llm_app, name="llm")

out_console = Console()
err_console = Console(stderr=True)

#: Where ``demo`` finds its data: package data (:mod:`guardrail.data`), so a wheel install has it.
DEMO_DATA = DEMO_SAMPLE


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


def _report_errors(rows: Sequence[tuple[InputLine, dict[str, Any]]], source: Path) -> int:
    bad = [(ln, row) for ln, row in rows if "error" in row]
    for ln, row in bad:
        err_console.print(f"[red]{markup(source)}:{ln.line}[/red]: {markup(ln.error or row['error'])}",
                          highlight=False)
    return len(bad)


def _labelled(rows: Sequence[tuple[InputLine, dict[str, Any]]]) -> tuple[list[dict[str, Any]], list[int]]:
    pairs = [(row, ln.label) for ln, row in rows if ln.label is not None and "error" not in row]
    return [p[0] for p in pairs], [int(p[1]) for p in pairs if p[1] is not None]


def _open_log(path: Path | None) -> LogSink | None:
    if path is None:
        return None
    try:
        return open_sink(path)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--log") from exc


def _guard_or_exit(config: str | None, sink: LogSink | None, extraction: dict[str, Any] | None = None) -> Guard:
    try:
        return make_guard(config, sink, **extraction) if extraction else make_guard(config, sink)
    except GuardrailError as exc:
        err_console.print(f"[red]error:[/red] {markup(exc)}", highlight=False)
        raise typer.Exit(2) from exc


InputArg = Annotated[Path, typer.Argument(exists=True, dir_okay=False, readable=True,
                                          help="JSONL input, one item per line.")]


@app.command()
@os_errors(err_console)
def check(
    input: InputArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write one result per line.")],
    log: Annotated[Path | None, typer.Option(help="Flagged-answer log (.jsonl or .sqlite).")] = None,
    config: Annotated[str | None, typer.Option(help="default (the shipped config) or a config JSON.")] = None,
    metrics: Annotated[Path | None, typer.Option(help="Write metrics JSON here (needs labels).")] = None,
    batch_size: Annotated[int, typer.Option(min=1, help="Items per check_many batch.")] = 32,
    report: Annotated[Path | None, typer.Option(help="Also write an HTML report here ('report' extra).")] = None,
    graphs: Annotated[bool, typer.Option("--graphs", help="Keep claim and context graphs in --out.")] = False,
    engine: Annotated[str, typer.Option(help="local (one process) or ray (Ray Data, 'ray' extra).")] = "local",
    num_cpus: Annotated[int | None, typer.Option(min=1, help="Ray workers (default: all CPUs).")] = None,
    ray_address: Annotated[str | None, typer.Option(help="Existing Ray cluster: auto, ray://host:10001.")] = None,
    policy: Annotated[str, typer.Option(help="annotate (write verdicts) or refine (re-prompt the LLM).")] = "annotate",
    llm_base_url: Annotated[str | None, typer.Option(
        help="OpenAI-compatible endpoint for --policy refine and --extractor llm.")] = None,
    llm_model: Annotated[str, typer.Option(help="Model name sent to the endpoint.")] = "local",
    kb: KBFileOpt = None, kb_endpoint: KBEndpointOpt = None, kb_profile: KBProfileOpt = None,
    extractor: Annotated[str | None, typer.Option(
        help="Triple extractor: spacy or llm (KEA Explain's step, at --llm-base-url); default: the config's.")] = None,
    llm_timeout: Annotated[float | None, typer.Option(
        min=1.0, help="Seconds per LLM extraction call (default: sized to the reply).")] = None,
) -> None:
    """Check every answer of INPUT against its context; write compact results to --out.

    With ``--policy refine --llm-base-url URL`` each flagged answer is re-prompted until it
    passes (KG-Guard refinement); each line gets the final answer and the round history.
    With ``--extractor llm --llm-base-url URL`` the triples come from that LLM (one call per
    passage, cached; a failed call falls back to spaCy with a warning)."""
    from guardrail.cli.scale import RayCounter, ray_stream

    _require_extras(engine, report)
    _output_paths(out=out, metrics=metrics, report=report, log=log)
    kb_arg = kb_argument(kb, kb_endpoint, kb_profile)
    extraction = _extraction_options(extractor, engine, llm_base_url, llm_model, llm_timeout)
    lines = read_items(input, context_optional=kb_arg is not None)
    sink = _open_log(log)
    guard = with_kb(_guard_or_exit(config, sink, extraction), kb_arg, kb_profile, engine, err_console)
    if policy != "annotate":
        try:
            n_bad = _check_refine(guard, lines, input, out, policy, llm_base_url, llm_model)
        finally:
            if sink is not None:
                sink.close()
        _print_unlogged(guard, log)
        if n_bad or guard.unlogged:
            raise typer.Exit(1)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    keep = graphs or report is not None
    workers = RayCounter()
    stream = run_guard(guard, lines, batch_size, compact=not keep) if engine == "local" else ray_stream(
        lines, config, log, batch_size, num_cpus, ray_address, not keep, workers)
    try:
        with out.open("w", encoding="utf-8") as fh:
            for ln, row in stream:
                fh.write(json_line(row if graphs else {k: v for k, v in row.items() if k not in _GRAPHS}))
                rows.append((ln, row))
    finally:
        if sink is not None:
            sink.close()
    n_bad = _report_errors(rows, input)
    results, labels = _labelled(rows)
    flagged = sum(1 for _, r in rows if "error" not in r and not r["passed"] and not r.get("declined"))
    n_declined = sum(1 for _, r in rows if "error" not in r and r.get("declined"))
    err_console.print(f"{len(rows)} line(s): {flagged} flagged or abstained, {n_declined} declined, {n_bad} malformed "
                      f"-> {markup(out)}", highlight=False)
    _print_metrics(results, labels, metrics, input.name)
    _print_unlogged(guard, log)
    if workers.unlogged:
        err_console.print(f"[red]{workers.unlogged} record(s) could not be written to {markup(log)} by the Ray "
                          "workers[/red]", highlight=False)
    if report is not None:
        _write_report(report, rows, input)
    if n_bad or guard.unlogged or workers.unlogged:
        raise typer.Exit(1)


_GRAPHS = ("claim_graph", "context_graph")


def _extraction_options(extractor: str | None, engine: str, base_url: str | None, model: str,
                        timeout: float | None) -> dict[str, Any] | None:
    """``make_guard``'s extractor settings from ``check``'s options (``None``: the config's own)."""
    if extractor is None:
        return None
    if extractor not in ("spacy", "llm"):
        raise typer.BadParameter(f"expected spacy or llm, got {extractor!r}", param_hint="--extractor")
    if extractor == "llm" and engine != "local":
        raise typer.BadParameter("--extractor llm runs with --engine local", param_hint="--extractor")
    return {"extractor": extractor, "llm_base_url": base_url, "llm_model": model, "llm_timeout": timeout}


def _print_metrics(results: list[dict[str, Any]], labels: list[int], metrics: Path | None, name: str) -> None:
    """Print (and with ``--metrics`` write) the metrics of the labelled lines."""
    from guardrail.cli.render import metrics_table
    from guardrail.metrics import result_metrics

    if labels:
        m = result_metrics(results, labels)
        out_console.print(metrics_table(m, title=f"{name}: {len(labels)} labelled item(s)"))
        if metrics is not None:
            metrics.parent.mkdir(parents=True, exist_ok=True)
            metrics.write_text(json.dumps(m, indent=2) + "\n", encoding="utf-8")
    elif metrics is not None:
        err_console.print("[yellow]no labelled items: --metrics not written[/yellow]")


def _print_unlogged(guard: Guard, log: Path | None) -> None:
    """Say how many records the guard could not write to its log."""
    if guard.unlogged:
        dropped = getattr(guard.unlogged, "dropped", 0)
        err_console.print(f"[red]{len(guard.unlogged) + dropped} record(s) could not be written to "
                          f"{markup(log)}[/red]" + (f" ({dropped} of them dropped from memory)" if dropped else ""),
                          highlight=False)


def _check_refine(guard: Guard, lines: Sequence[InputLine], source: Path, out: Path, policy: str,
                  base_url: str | None, model: str) -> int:
    """``check --policy refine``: refine every line through the LLM at ``base_url``; the
    number of lines in error (each reported on stderr)."""
    if policy != "refine":
        raise typer.BadParameter(f"expected annotate or refine, got {policy!r}", param_hint="--policy")
    if base_url is None:
        raise typer.BadParameter("--policy refine needs --llm-base-url", param_hint="--llm-base-url")
    from guardrail.cli.llm import refine_lines, write_refined

    rows: list[tuple[InputLine, dict[str, Any]]] = []
    n = write_refined(refine_lines(guard, lines, base_url, model), out, keep=rows)
    n_bad = _report_errors(rows, source)
    err_console.print(f"{n} line(s) refined, {n_bad} in error -> {markup(out)}", highlight=False)
    return n_bad


def _require_extras(engine: str, report: Path | None) -> None:
    from guardrail.cli.scale import check_extras

    try:
        check_extras(engine, report)
    except (ValueError, ImportError) as exc:
        err_console.print(f"[red]error:[/red] {markup(exc)}", highlight=False)
        raise typer.Exit(2) from exc


def _write_report(path: Path, rows: Sequence[tuple[InputLine, dict[str, Any]]], source: Path) -> None:
    from guardrail.cli.scale import write_pairs_report

    err_console.print(f"report -> {markup(write_pairs_report(path, rows, source))}", highlight=False)


def _output_paths(**paths: Path | None) -> None:
    """Exit with a usage error (2), before any work, when an output path cannot be a file."""
    check_output_paths(err_console, **paths)


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

    _require_extras("local", out)
    _output_paths(out=out)
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
    _output_paths(out=out)
    guard = _guard_or_exit(base, None)
    rows = list(run_guard(guard, read_items(input), batch_size))
    n_bad = _report_errors(rows, input)
    results, labels = _labelled(rows)
    usable = [(r, y) for r, y in zip(results, labels) if not r["abstained"]]
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
        if not r["abstained"]:
            score = final_score(r["detector_scores"], new)
            r = {**r, "score": score, "threshold": new.threshold, "passed": score < new.threshold}
        after.append(r)
    out_console.print(compare_table(result_metrics(results, labels), result_metrics(after, labels),
                                    title=f"{len(labels)} labelled item(s), in-sample"))
    err_console.print(f"calibrated on {len(usable)} item(s) ({len(labels) - len(usable)} abstained); "
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
    guard = _guard_or_exit(None, None)
    _require_extras("local", report)
    rows = list(run_guard(guard, lines, batch_size=16, progress=True, compact=report is None))
    out_console.print(demo_table([(ln.raw, row) for ln, row in rows]))
    results, labels = _labelled(rows)
    if labels:
        out_console.print(metrics_table(result_metrics(results, labels), title=f"{len(labels)} item(s)",
                                        caption="abstentions count as flags"))
    if report is not None:
        _write_report(report, rows, DEMO_DATA)
    if _report_errors(rows, DEMO_DATA):
        raise typer.Exit(1)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI (``python -m guardrail``)."""
    app(args=list(argv) if argv is not None else sys.argv[1:], prog_name="kg-guardrail")
