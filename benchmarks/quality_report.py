"""Markdown rendering of ``benchmarks/results/quality.json`` (used by ``quality.py``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["write_markdown"]


def _table(report: Mapping[str, Any], part: str) -> list[str]:
    lines = [f"## {part}", "", "| dataset | n | balanced accuracy | ROC-AUC | abstained | median ms |",
             "| --- | --- | --- | --- | --- | --- |"]
    for name, m in report[part].items():
        lines.append(f"| {name} | {m['n']} | {m['balanced_accuracy']:.3f} | {m['roc_auc']:.3f} | "
                     f"{m['abstained']} | {m['median_ms']:.0f} |")
    return lines + [""]


def write_markdown(report: Mapping[str, Any], path: Path, bars: Mapping[str, float],
                   style_bars: Mapping[str, float], candidates: Sequence[str]) -> None:
    """Write the human-readable report of one ``quality.py`` run to ``path``."""
    cfg = report["config"]
    ws = ", ".join(f"{d} {cfg['weights'].get(d, 0.0):+.2f}" for d in cfg["detectors"])
    lines = ["# Detection quality", "",
             f"Machine: {report['machine']}. Sizes: {report['sizes']}. Seed {report['seed']}; dev sets split by "
             "record with `dev_split(val_fraction=0.3, seed=0)`; the config was fitted on *tune* only. The realistic "
             "set (`benchmarks/data/realistic.jsonl`, hand-written) was never used for fitting or selection.", "",
             f"Shipped `default` config: {cfg['aggregation']} over {ws}; bias {cfg['bias']:+.2f}; threshold "
             f"{cfg['threshold']:.3f}; veto {cfg.get('veto') or 'none'}. Abstentions count as flagged.", ""]
    lines += _table(report, "val")
    real = report["val"].get("realistic")
    if real:
        lines += ["### Realistic set by answer style (share judged correctly)", "",
                  "| style | n | correct | bar |", "| --- | --- | --- | --- |"]
        for style, m in real["styles"].items():
            bar = style_bars.get(style, float("nan"))
            lines.append(f"| {style} | {m['n']} | {m['correct']:.3f} | {bar:.2f} "
                         f"{'met' if m['correct'] >= bar else 'NOT met'} |")
        lines += ["", "| error type | n | caught |", "| --- | --- | --- |"]
        lines += [f"| {k} | {m['n']} | {m['caught']:.3f} |" for k, m in real["error_types"].items()]
        sh = real["span_hits"]
        lines += ["", f"Flagged wrong answers with a flagged node inside the error span: "
                      f"{sh['node_in_span']}/{sh['flagged_with_span']} = {sh['share']:.3f} (bar 0.70).", ""]
    loc = report["val"].get("qags_c", {}).get("node_localisation")
    if loc:
        lines += [f"QAGS-C (val) flagged nodes in a crowd-unsupported sentence: {loc['in_unsupported_sentence']}/"
                  f"{loc['flagged_nodes']} = {loc['share']:.3f} (share of summary text in such sentences: "
                  f"{loc['chance_share']:.3f}).", ""]
    if "tune" in report:
        lines += _table(report, "tune")
    lines += ["## Single-detector ROC-AUC (val, abstentions left out)", "",
              "| dataset | " + " | ".join(candidates) + " |", "| --- |" + " --- |" * len(candidates)]
    for name, row in report["detector_auc_val"].items():
        lines.append(f"| {name} | " + " | ".join(f"{row[d]:.3f}" for d in candidates) + " |")
    lines += ["", "## Bars (val balanced accuracy)", ""]
    for name, bar in bars.items():
        got = report["val"][name]["balanced_accuracy"]
        lines.append(f"- {name}: {got:.3f} vs bar {bar:.2f}: {'met' if got >= bar else 'NOT met'}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":  # re-render from the JSON
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import quality

    rep = json.loads((quality.RESULTS / "quality.json").read_text(encoding="utf-8"))
    write_markdown(rep, quality.RESULTS / "quality.md", quality.BARS, quality.STYLE_BARS, quality.CANDIDATES)
