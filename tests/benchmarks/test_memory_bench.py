"""The memory benchmarks' helpers: RSS readings, the mixed demo items, the step table, kept notes."""

from __future__ import annotations

from pathlib import Path

from benchmarks.memory import NOTES, kept_notes
from benchmarks.memory_steps import demo_items, status_mb, table


def test_status_reads_resident_and_peak() -> None:
    rss, hwm = status_mb()
    assert 0 < rss <= hwm


def test_demo_items_take_every_kind_in_turn() -> None:
    items = demo_items(6)
    kinds = [it["id"].split("-")[0] for it in items]
    assert len(items) == 6 and len(set(kinds[:3])) == 3 and kinds[:3] == kinds[3:]
    assert all(isinstance(it["contexts"], list) and it["answer"] for it in items)


def test_table_has_one_row_per_step() -> None:
    text = table([("python started", 13.0, 0.0, 13.0), ("import x", 40.4, 27.4, 41.0)], ["spacy"], False)
    assert "| import x | 40 | +27 | 41 |" in text
    assert "Heavy modules imported after the checks: spacy" in text and "by the checks: no" in text


def test_notes_after_the_marker_are_kept(tmp_path: Path) -> None:
    out = tmp_path / "memory.md"
    assert kept_notes(out) == []
    out.write_text(f"# generated\n\nold table\n{NOTES}\n## Findings\ntext\n", encoding="utf-8")
    assert kept_notes(out) == [NOTES, "## Findings", "text"]
    out.write_text("# generated only\n", encoding="utf-8")
    assert kept_notes(out) == []


def test_lingua_state_names_the_loaded_models(monkeypatch) -> None:
    from benchmarks.memory import lingua_state
    from guardrail.text import language

    monkeypatch.setattr(language._TRIGRAMS, "_value", None)
    monkeypatch.setattr(language._DETECTOR, "_value", None)
    assert lingua_state().endswith(": none")
    monkeypatch.setattr(language._TRIGRAMS, "_value", object())
    assert lingua_state().endswith(": trigrams")
