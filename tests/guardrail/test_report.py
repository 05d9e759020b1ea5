"""The HTML audit report: content, escaping of hostile input, CLI, and a real headless browser."""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="the report needs the 'report' extra")
pytest.importorskip("jinja2", reason="the report needs the 'report' extra")

from typer.testing import CliRunner  # noqa: E402

from guardrail.cli.app import DEMO_DATA, app  # noqa: E402
from guardrail.report import render_html, report_from_files  # noqa: E402
from guardrail.report.data import evidence_spans, join_inputs, load_inputs, load_results, segments  # noqa: E402
from guardrail.report.graph import alignment  # noqa: E402

#: Real result lines (with graphs) of six demo items, from ``check --graphs`` with grounding + entity.
DEMO_RESULTS = Path(__file__).parent / "data" / "demo_results.jsonl"
HOSTILE = '<script>document.body.setAttribute("data-pwned","1")</script><img src=x onerror="document.body.setAttribute(\'data-pwned\',\'1\')">'


def _node(nid: str, text: str, start: int, source: int = -1) -> dict:
    return {"id": nid, "text": text, "label": text.lower(), "kind": "NOUN",
            "span": {"start": start, "end": start + len(text), "source": source}}


def _row(rid: str, answer: str, context: str, flag: str | None, label: int | None, score: float) -> dict:
    """A full GuardResult-shaped row; ``flag`` is the answer substring flagged."""
    a_nodes = [_node("-1:0", answer.split()[0], 0)]
    c_nodes = [_node("0:0", context.split()[0], 0, 0)]
    flagged = []
    if flag is not None:
        k = answer.index(flag)
        a_nodes.append(_node(f"-1:{k}", flag, k))
        flagged.append({"node_id": f"-1:{k}", "text": flag, "span": {"start": k, "end": k + len(flag), "source": -1},
                        "support": 0.1, "evidence": context, "evidence_span": {"start": 0, "end": len(context), "source": 0},
                        "reason": f"the answer says {flag}; the context says otherwise"})
    triple = {"subject": a_nodes[0], "relation": "be in", "object": a_nodes[-1], "span": None, "pattern": "svo"}
    return {"passed": flag is None, "score": score, "threshold": 0.5, "abstained": False, "abstain_reason": "",
            "answer": answer, "id": rid, "question": "Where?", "detector_scores": {"grounding": score},
            "claim_graph": {"nodes": a_nodes, "triples": [triple] if flag else [], "texts": [answer]},
            "context_graph": {"nodes": c_nodes, "triples": [], "texts": [context]},
            "flagged_nodes": flagged, "explanation": {"summary": "summary " + rid, "sentences": [],
                                                      "contradictions": [], "edits": []},
            "config": "test", "context": context, **({} if label is None else {"label": label})}


def _rows() -> list[dict]:
    return [
        _row("ok", "Paris is in France.", "Paris is the capital of France. It is large.", None, 0, 0.1),
        _row("bad", "Paris is in Spain.", "Paris is the capital of France.", "Spain", 1, 0.8),
        _row("fp", "Lyon is in France.", "Lyon is a city in France.", "France", 0, 0.7),
        {"id": "9", "line": 9, "error": "missing 'context'"},
        {**_row("abs", "x", "y", None, 1, 0.5), "abstained": True, "passed": False, "abstain_reason": "too short"},
    ]


def test_segments_cut_at_every_boundary_and_clamp() -> None:
    segs = segments("abcdefgh", [(1, 4, 0), (3, 6, 1), (7, 99, 2)], ["A", "B", "C"])
    assert [(s.text, s.marks) for s in segs] == [("a", ()), ("bc", (0,)), ("d", (0, 1)), ("ef", (1,)),
                                                  ("g", ()), ("h", (2,))]
    assert segs[2].title == "A | B"
    assert "".join(s.text for s in segs) == "abcdefgh"


def test_evidence_falls_back_to_the_best_matching_sentence() -> None:
    row = {"answer": "The capital is Paris.", "flagged_nodes": []}
    passages = ["Berlin is in Germany. Paris is the capital of France."]
    (start, end, src, why), = evidence_spans(row, passages)
    assert passages[src][start:end].strip() == "Paris is the capital of France."
    assert "most words" in why


def test_report_summary_marks_and_metrics() -> None:
    html = render_html(_rows(), title="T", source="r.jsonl")
    for key, n in (("passed", 1), ("flagged", 2), ("abstained", 1), ("error", 1)):
        assert re.search(rf'id="count-{key}"><b>{n}</b>', html), key
    # the flagged span is marked, with its explanation as the tooltip
    assert re.search(r'<mark class="flag" tabindex="0" data-tip="the answer says Spain; the context says otherwise">'
                     r'Spain<sup>1</sup></mark>', html)
    # evidence of the flagged node highlighted in the passage
    assert '<mark class="ev" title="closest evidence for &#39;Spain&#39;">Paris is the capital of France.</mark>' in html
    # labelled items (4: the error row has none): tp=2 (bad, abs), fp=1, tn=1, fn=0
    cm = re.search(r'id="confusion">(.*?)</table>', html, re.S).group(1)
    assert [int(x) for x in re.findall(r"<td[^>]*>(\d+)</td>", cm)] == [2, 0, 1, 1]
    assert "ROC curve" in html and 'data-outcome="fp"' in html
    assert html.count("data:image/svg+xml;base64,") == 2 + 4  # histogram, ROC, one graph per judged item


def test_report_without_labels_has_no_metrics() -> None:
    rows = [{k: v for k, v in r.items() if k != "label"} for r in _rows()]
    html = render_html(rows)
    assert 'id="confusion"' not in html and "ROC curve" not in html and "Score distribution" in html


def test_hostile_content_is_escaped_everywhere() -> None:
    row = _row(HOSTILE, "Paris is in " + HOSTILE, "Paris " + HOSTILE, HOSTILE, 1, 0.9)
    row["question"] = '"><script>alert(1)</script>'
    row["flagged_nodes"][0]["reason"] = '" onmouseover="alert(1)'
    row["config"] = "</style><script>alert(2)</script>"
    html = render_html([row, *_rows()], title="<script>alert(3)</script>")
    assert html.count("<script") == 1  # ours only
    assert "onerror=" not in html.replace("onerror=&#34;", "")
    assert 'data-tip="&#34; onmouseover=&#34;alert(1)"' in html
    assert "&lt;script&gt;document.body.setAttribute" in html
    for uri in re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", html):
        svg = base64.b64decode(uri).decode("utf-8")
        assert "<script" not in svg and "onerror=" not in svg


def test_alignment_links_matching_labels() -> None:
    row = _row("bad", "Paris is in Spain.", "Paris is the capital of France.", "Spain", 1, 0.8)
    assert ("-1:0", "0:0", "match") in alignment(row)
    assert not [lk for lk in alignment(row) if lk[0] == "-1:12"]  # the flagged node aligns to nothing


def test_results_without_graphs_or_contexts_still_render(tmp_path: Path) -> None:
    compact = [{k: v for k, v in r.items() if k not in ("claim_graph", "context_graph", "context")} for r in _rows()]
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in compact) + "\nnot json\n", encoding="utf-8")
    rows, problems = load_results(path)
    assert len(rows) == 5 and problems == ["line 6: not JSON (Expecting value: line 1 column 1 (char 0))"]
    html = render_html(rows)
    assert "no graphs in these results" in html and "pass --input INPUT.jsonl" in html


def test_cli_report_joins_the_input_by_id(tmp_path: Path) -> None:
    results, out = tmp_path / "r.jsonl", tmp_path / "sub" / "report.html"
    ids = [json.loads(line)["id"] for line in DEMO_DATA.read_text(encoding="utf-8").splitlines()[:2]]
    rows = [{**{k: v for k, v in r.items() if k not in ("context", "label", "question")}, "id": i}
            for r, i in zip(_rows()[:2], ids)]
    results.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["report", str(results), "--out", str(out), "--input", str(DEMO_DATA)])
    assert res.exit_code == 0, res.output
    html = out.read_text(encoding="utf-8")
    assert "contact-combat" in html  # the context of the first demo item, joined by id
    assert "Metrics (2 labelled)" in html
    joined = join_inputs(rows, load_inputs(DEMO_DATA))
    assert joined[0]["label"] == 0 and joined[1]["label"] == 1


def _chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if exe is None:
        pytest.skip("no chromium on PATH (Debian: apt-get install chromium)")
    return exe


def _browse(exe: str, page: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
           "--disable-extensions", "--enable-logging=stderr", "--v=0", *args, page.as_uri()]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=240)


@pytest.mark.slow
def test_demo_report_in_a_headless_browser(tmp_path: Path) -> None:
    exe = _chromium()
    rows, _ = load_results(DEMO_RESULTS)
    rows = join_inputs(rows, load_inputs(DEMO_DATA))
    hostile = _row(HOSTILE, "Paris is in " + HOSTILE, "Paris " + HOSTILE, HOSTILE, 1, 0.9)
    page = tmp_path / "report.html"
    page.write_text(render_html([*rows, hostile], source=str(DEMO_RESULTS)), encoding="utf-8")
    dom = _browse(exe, page, "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert 'data-ready="1"' in dom.stdout  # our script ran
    body = re.search(r"<body[^>]*>", dom.stdout).group(0)
    assert "data-pwned" not in body  # the hostile markup did not
    assert "&lt;script&gt;document.body.setAttribute" in dom.stdout  # it shows as text
    flagged = [n["text"] for r in rows for n in r["flagged_nodes"] if n.get("span")]
    assert flagged, "the demo results should flag something"
    shown = re.findall(r'<mark class="flag"[^>]*>(.*?)<sup>', dom.stdout)
    assert set(flagged) <= {s.replace("&amp;", "&") for s in shown}
    console = [ln for ln in dom.stderr.splitlines() if "CONSOLE" in ln or "Content Security Policy" in ln]
    assert not console, console
    shot = tmp_path / "report.png"
    res = _browse(exe, page, f"--screenshot={shot}", "--window-size=1280,2000")
    assert res.returncode == 0 and shot.stat().st_size > 50_000
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_from_files_counts_unreadable_lines(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(_rows()[0]) + "\n[1, 2]\n", encoding="utf-8")
    written, problems = report_from_files(path, tmp_path / "o.html")
    assert problems == 1 and written.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
