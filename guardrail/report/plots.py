"""Summary plots of a report (matplotlib, rendered to SVG text).

Text stays text in the SVG (``svg.fonttype = none``) and mathtext is off, so a label
with ``$`` signs is drawn as written.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Sequence
from typing import Any

__all__ = ["score_histogram", "roc_curve_svg", "RC"]

#: Matplotlib settings for every report figure.
RC: dict[str, Any] = {"svg.fonttype": "none", "svg.hashsalt": "kg-guardrail", "text.parse_math": False,
                      "font.size": 9, "axes.spines.top": False, "axes.spines.right": False}

_VERDICT_COLORS = {"passed": "#2ca02c", "flagged": "#d62728", "abstained": "#e0a800", "declined": "#3f6fb5"}


def _svg(fig: Any) -> str:
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    try:
        with warnings.catch_warnings():  # text stays text: the viewer's fonts draw every script
            warnings.filterwarnings("ignore", message="Glyph .* missing from font")
            fig.savefig(buf, format="svg", bbox_inches="tight")
    finally:
        plt.close(fig)
    return buf.getvalue()


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


def score_histogram(scores: Sequence[float], groups: Sequence[str], thresholds: Sequence[float] = (),
                    by: str = "verdict") -> str:
    """A stacked histogram of scores in ``[0, 1]`` (20 bins), one colour per group.

    Parameters
    ----------
    scores : sequence of float
        Hallucination scores.
    groups : sequence of str
        Group of each score: verdicts (``passed``, ``flagged``, ``abstained``) or labels
        (``"label 0"``, ``"label 1"``).
    thresholds : sequence of float
        Decision thresholds, drawn as vertical lines.
    by : str
        Legend title.
    """
    plt = _pyplot()
    names = sorted(set(groups), key=lambda g: (list(_VERDICT_COLORS) + ["label 0", "label 1"] + [g]).index(g))
    colors = {**_VERDICT_COLORS, "label 0": "#4c78a8", "label 1": "#f58518"}
    with plt.rc_context(RC):
        fig, ax = plt.subplots(figsize=(5.2, 2.6))
        data = [[s for s, g in zip(scores, groups) if g == name] for name in names]
        if any(data):
            ax.hist(data, bins=20, range=(0.0, 1.0), stacked=True, label=names,
                    color=[colors.get(n, "#888888") for n in names])
        for t in sorted(set(thresholds)):
            ax.axvline(t, color="#333333", ls="--", lw=1)
        ax.set_xlim(0, 1)
        ax.set_xlabel("hallucination score (higher = less supported)")
        ax.set_ylabel("answers")
        if names:
            ax.legend(title=by, fontsize=8, title_fontsize=8, frameon=False)
        return _svg(fig)


def roc_curve_svg(labels: Sequence[int], scores: Sequence[float], auc: float | None = None) -> str:
    """The ROC curve of scores against 0/1 labels (1 = hallucinated); ``""`` with one class only."""
    if len(set(labels)) < 2:
        return ""
    from sklearn.metrics import roc_curve

    fpr, tpr, _ = roc_curve(list(labels), list(scores))
    plt = _pyplot()
    with plt.rc_context(RC):
        fig, ax = plt.subplots(figsize=(3.0, 2.8))
        ax.plot(fpr, tpr, color="#4c78a8", lw=2, label="guard" if auc is None else f"AUC {auc:.3f}")
        ax.plot([0, 1], [0, 1], color="#999999", ls=":", lw=1)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("false positive rate")
        ax.set_ylabel("true positive rate")
        ax.legend(loc="lower right", fontsize=8, frameon=False)
        return _svg(fig)
