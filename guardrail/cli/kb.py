"""``kg-guardrail check --kb FILE | --kb-endpoint URL [--kb-profile rdfs|wikidata]``.

The options of :func:`guardrail.cli.check_cmd.check` that switch knowledge-base grounding on
(``Guard(kb=...)``, :mod:`guardrail.kb.switch`): the answers are checked against the KB's
facts about their entities, merged after the line's context when it has one; a line may
leave its context out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from guardrail.cli.render import markup
from guardrail.errors import GuardrailError

__all__ = ["KBFileOpt", "KBEndpointOpt", "KBProfileOpt", "kb_argument", "with_kb"]

KBFileOpt = Annotated[Path | None, typer.Option(
    "--kb", help="Check against this knowledge base: a Turtle, N-Triples, N-Quads or TriG file "
                 "(lines may then omit their context).")]
KBEndpointOpt = Annotated[str | None, typer.Option(
    "--kb-endpoint", help="Check against this SPARQL endpoint (http or https URL).")]
KBProfileOpt = Annotated[str | None, typer.Option(
    "--kb-profile", help="The KB's vocabulary: rdfs (default) or wikidata.")]


def kb_argument(kb: Path | None, endpoint: str | None, profile: str | None) -> str | None:
    """The ``kb`` of the guard from ``--kb`` / ``--kb-endpoint`` (None when neither is given).

    Raises
    ------
    typer.BadParameter
        Both are given, ``--kb-profile`` without either, or an unknown profile (exit 2).
    """
    if kb is not None and endpoint is not None:
        raise typer.BadParameter("give --kb or --kb-endpoint, not both", param_hint="--kb")
    if profile is not None and profile.lower() not in ("rdfs", "wikidata"):
        raise typer.BadParameter(f"expected rdfs or wikidata, got {profile!r}", param_hint="--kb-profile")
    if profile is not None and kb is None and endpoint is None:
        raise typer.BadParameter("--kb-profile needs --kb or --kb-endpoint", param_hint="--kb-profile")
    return str(kb) if kb is not None else endpoint


def with_kb(guard: Any, kb: str | None, profile: str | None, engine: str, console: Console) -> Any:
    """``guard`` switched to the knowledge base ``kb`` (``guard`` itself when ``kb`` is None).

    A KB that cannot be opened (missing file, not RDF, bad URL) is a usage error: the
    message is printed and the command exits with status 2 before any line is checked.
    """
    if kb is None:
        return guard
    if engine != "local":
        console.print("[red]error:[/red] --kb and --kb-endpoint run with --engine local only", highlight=False)
        raise typer.Exit(2)
    try:
        return guard.with_kb(kb, profile)
    except GuardrailError as exc:
        console.print(f"[red]error:[/red] {markup(exc)}", highlight=False)
        raise typer.Exit(2) from exc
