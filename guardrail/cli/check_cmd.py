"""``kg-guardrail check``: check every answer of a JSONL file, and its options."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from guardrail.cli.common import (
    InputArg,
    err_console,
    guard_or_exit,
    labelled,
    open_log,
    out_console,
    output_paths,
    print_unlogged,
    report_errors,
    require_extras,
    run_guard,
    write_report,
)
from guardrail.cli.kb import KBEndpointOpt, KBFileOpt, KBProfileOpt, kb_argument, with_kb
from guardrail.cli.render import json_line, markup
from guardrail.guard import Guard
from guardrail.io import InputLine, read_items

__all__ = ["check"]

_GRAPHS = ("claim_graph", "context_graph")
#: Kept out of the --out lines (the same lines as before results carried them).
_DETECTORS = ("detectors",)


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
    passage, cached; a failed call falls back to spaCy with a warning).
    ``--policy refine`` takes none of ``--report``, ``--metrics``, ``--graphs``, ``--engine ray``
    (a usage error, exit code 2)."""
    _check_policy(policy, llm_base_url, report=report, metrics=metrics, graphs=graphs, engine=engine)
    require_extras(engine, report)
    output_paths(out=out, metrics=metrics, report=report, log=log)
    kb_arg = kb_argument(kb, kb_endpoint, kb_profile)
    extraction = _extraction_options(extractor, engine, llm_base_url, llm_model, llm_timeout)
    sink = open_log(log)
    guard = with_kb(guard_or_exit(config, sink, extraction), kb_arg, kb_profile, engine, err_console)
    # a KB from --kb or from the config's ``kb`` field: lines may leave their context out
    lines = read_items(input, context_optional=getattr(guard, "kb", None) is not None)
    try:
        if policy != "annotate":
            n_bad, n_workers_unlogged = _check_refine(guard, lines, input, out, llm_base_url, llm_model), 0
        else:
            rows, n_workers_unlogged = _annotate(guard, lines, out, graphs=graphs, keep=graphs or report is not None,
                                                 ray=None if engine == "local" else (config, log, num_cpus, ray_address),
                                                 batch_size=batch_size)
    finally:
        if sink is not None:
            sink.close()
    if policy == "annotate":
        n_bad = _summarise(rows, input, out, metrics)
    print_unlogged(guard, log)
    if n_workers_unlogged:
        err_console.print(f"[red]{n_workers_unlogged} record(s) could not be written to {markup(log)} by the Ray "
                          "workers[/red]", highlight=False)
    if policy == "annotate" and report is not None:
        write_report(report, rows, input)
    if n_bad or guard.unlogged or n_workers_unlogged:
        raise typer.Exit(1)


def _annotate(guard: Guard, lines: Sequence[InputLine], out: Path, *, graphs: bool, keep: bool,
              ray: tuple[str | None, Path | None, int | None, str | None] | None,
              batch_size: int) -> tuple[list[tuple[InputLine, dict[str, Any]]], int]:
    """Write one result line per input line to ``out`` (graphs only with ``graphs``; detector outputs
    never); the rows (graphs kept with ``keep``) and the records the Ray workers could not log."""
    from guardrail.cli.scale import RayCounter, ray_stream

    out.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    workers = RayCounter()
    stream = run_guard(guard, lines, batch_size, compact=not keep) if ray is None else ray_stream(
        lines, ray[0], ray[1], batch_size, ray[2], ray[3], not keep, workers)
    drop = _DETECTORS if graphs else _GRAPHS + _DETECTORS
    with out.open("w", encoding="utf-8") as fh:
        for ln, row in stream:
            fh.write(json_line({k: v for k, v in row.items() if k not in drop}))
            rows.append((ln, row))
    return rows, workers.unlogged


def _summarise(rows: Sequence[tuple[InputLine, dict[str, Any]]], source: Path, out: Path,
               metrics: Path | None) -> int:
    """Report the lines in error, the counts and the metrics on stderr; the number of lines in error."""
    n_bad = report_errors(rows, source)
    results, labels = labelled(rows)
    flagged = sum(1 for _, r in rows if "error" not in r and not r["passed"] and not r.get("declined"))
    n_declined = sum(1 for _, r in rows if "error" not in r and r.get("declined"))
    err_console.print(f"{len(rows)} line(s): {flagged} flagged or abstained, {n_declined} declined, {n_bad} malformed "
                      f"-> {markup(out)}", highlight=False)
    _print_metrics(results, labels, metrics, source.name)
    return n_bad


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


def _check_policy(policy: str, base_url: str | None, *, report: Path | None, metrics: Path | None,
                  graphs: bool, engine: str) -> None:
    """Reject, before any model loads, a bad ``--policy`` and the options ``refine`` cannot honour.

    A refined line holds the delivered (refined) answer's verdict and its rounds: ``--metrics``
    would score labels written for the original answers against it, ``--report`` and ``--graphs``
    describe checked answers' graphs, which a refined line does not carry, and the Ray workers
    have no LLM client to re-prompt.

    Raises
    ------
    typer.BadParameter
        A usage error (exit code 2) naming ``--policy`` and the conflicting options.
    """
    if policy not in ("annotate", "refine"):
        raise typer.BadParameter(f"expected annotate or refine, got {policy!r}", param_hint="--policy")
    if policy != "refine":
        return
    given = {"--report": report is not None, "--metrics": metrics is not None, "--graphs": graphs,
             f"--engine {engine}": engine != "local"}
    conflicts = [opt for opt, on in given.items() if on]
    if conflicts:
        raise typer.BadParameter(
            f"--policy refine cannot be combined with {', '.join(conflicts)} (refined lines carry the "
            "delivered answer's verdict and rounds, not the checked answers' graphs, labels' metrics or a "
            "Ray run); check with --policy annotate for those", param_hint="--policy")
    if base_url is None:
        raise typer.BadParameter("--policy refine needs --llm-base-url", param_hint="--llm-base-url")


def _check_refine(guard: Guard, lines: Sequence[InputLine], source: Path, out: Path,
                  base_url: str | None, model: str) -> int:
    """``check --policy refine``: refine every line through the LLM at ``base_url``; the
    number of lines in error (each reported on stderr)."""
    assert base_url is not None  # checked by _check_policy before any model loads
    from guardrail.cli.llm import refine_lines, write_refined

    rows: list[tuple[InputLine, dict[str, Any]]] = []
    n = write_refined(refine_lines(guard, lines, base_url, model), out, keep=rows)
    n_bad = report_errors(rows, source)
    err_console.print(f"{n} line(s) refined, {n_bad} in error -> {markup(out)}", highlight=False)
    return n_bad
