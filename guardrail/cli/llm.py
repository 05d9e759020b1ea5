"""CLI for LLM features: ``kg-guardrail llm serve`` and the ``check --policy refine`` loop.

:data:`llm_app` is a typer sub-app (wired into the main app as ``llm``);
:func:`refine_lines` is the body of ``check --policy refine --llm-base-url URL``:
one output line per input line with the delivered answer, the action and every round.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from guardrail.errors import GuardrailError
from guardrail.io import InputLine

__all__ = ["llm_app", "serve", "refine_lines", "refine_row", "write_refined"]

llm_app = typer.Typer(no_args_is_help=True, help="Run the local LLM (extra 'local-llm').")


@llm_app.command()
def serve(
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port on 127.0.0.1.")] = 18089,
    threads: Annotated[int, typer.Option(min=1, help="CPU threads.")] = 2,
    ctx_size: Annotated[int, typer.Option(min=512, help="Context window in tokens.")] = 4096,
) -> None:
    """Serve the local model (Qwen2.5-Coder-1.5B-Instruct Q4_K_M) on 127.0.0.1 until Ctrl-C.

    The model file is assembled from the installed part packages and its SHA-256 checked
    on first use (cached under ~/.cache/kg-guardrail/models or $KG_GUARDRAIL_MODEL_DIR).
    """
    from guardrail.llm.local import LocalServerSettings, local_llm

    try:
        with local_llm(LocalServerSettings(port=port, threads=threads, ctx_size=ctx_size)) as url:
            typer.echo(f"serving an OpenAI-compatible API at {url} (Ctrl-C stops it)", err=True)
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        typer.echo("stopped", err=True)
    except (ImportError, GuardrailError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


def refine_row(guard: Any, client: Any, line: InputLine, *, max_iterations: int = 3,
               fallback: str = "filter", time_budget: float | None = 120.0) -> dict[str, Any]:
    """Check one input line and refine it with ``client``; the output row (or an error row)."""
    from guardrail.policy.refine import Refiner, enforce

    if line.item is None:
        return {"id": line.id, "error": line.error}
    item = line.item
    refiner = Refiner(guard, max_iterations=max_iterations, fallback=fallback, time_budget=time_budget)
    try:
        out = enforce(guard, "refine", item["answer"], item["context"], item.get("question"),
                      reprompt=client.reprompt, refiner=refiner, id=line.id)
    except GuardrailError as exc:
        res = getattr(exc, "result", None)
        row: dict[str, Any] = {"id": line.id, "error": f"{type(exc).__name__}: {exc}", "action": "raised"}
        if res is not None:
            row["history"] = [h.model_dump() for h in res.history]
        return row
    r = out.result
    return {
        "id": line.id, "answer": out.answer, "original_answer": out.original_answer, "action": out.action,
        "passed": r.passed, "score": r.score, "stop_reason": out.stop_reason,
        "rejected_rounds": list(out.rejected_rounds), "flagged": [n.text for n in r.flagged_nodes],
        "history": [h.model_dump() for h in r.history],
    }


def refine_lines(guard: Any, lines: Sequence[InputLine], base_url: str, model: str = "local",
                 **settings: Any) -> Iterator[tuple[InputLine, dict[str, Any]]]:
    """``check --policy refine``: yield ``(line, row)`` for each input line, in order.

    Parameters
    ----------
    guard : Guard
        The guard (its log records every flagged answer, round and delivered answer).
    lines : sequence of InputLine
        From :func:`guardrail.io.read_items`.
    base_url, model : str
        The OpenAI-compatible endpoint re-prompted (``--llm-base-url``, ``--llm-model``).
    **settings
        ``max_iterations``, ``fallback``, ``time_budget`` for :func:`refine_row`.
    """
    from guardrail.llm.client import LLMClient

    client = LLMClient(base_url, model)
    for line in lines:
        yield line, refine_row(guard, client, line, **settings)


def write_refined(rows: Iterator[tuple[InputLine, dict[str, Any]]], out: Path,
                  keep: list[tuple[InputLine, dict[str, Any]]] | None = None) -> int:
    """Write each row as one JSON line to ``out``; returns the number of lines written.

    Lone surrogates (not encodable as UTF-8) are written as JSON escapes; with ``keep``,
    every ``(line, row)`` is also appended to it (for the caller's error report).
    """
    from guardrail.cli.render import json_line

    out.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with out.open("w", encoding="utf-8") as fh:
        for line, row in rows:
            fh.write(json_line(row))
            fh.flush()
            if keep is not None:
                keep.append((line, row))
            n += 1
    return n
