"""Structured passages read as prose (issue 23: context styles): :mod:`guardrail.text.structure`."""

from __future__ import annotations

import pytest

from guardrail.text.sentences import split_sentences
from guardrail.text.structure import Header, normalize_passage, read_sentences

PASSAGES = [
    "<html><body><h1>Harbour Bridge</h1><p>Opened in <b>1932</b> &amp; tolled.</p><ul><li>Length: 1,149 m</li></ul>"
    "<script>var x = 1;</script></body></html>",
    "The Vessel Museum was estab-\nlished in 1897 by the city\ncouncil of Lund. It holds\nabout 3,400 objects.",
    "The **Atlas** lifter carries **450** kilograms.",
    "# Title\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    "Plain prose. No markup at all.",
]


def _read(text: str) -> list[str]:
    norm = normalize_passage(text)
    return read_sentences(norm, split_sentences(norm))


@pytest.mark.parametrize("text", PASSAGES)
def test_normalize_keeps_the_length_so_spans_stay_valid(text):
    assert len(normalize_passage(text)) == len(text)


def test_html_tags_become_line_breaks_bullets_and_headers():
    norm = normalize_passage(PASSAGES[0])
    assert "<" not in norm and "var x" not in norm and "&amp;" not in norm and "&     tolled" in norm
    assert [" ".join(t.split()) for t in _read(PASSAGES[0])] == [
        "Harbour Bridge", "Opened in 1932 & tolled.", "Harbour Bridge: Length: 1,149 m."]
    assert isinstance(_read(PASSAGES[0])[0], Header)


def test_wrapped_pdf_lines_are_one_paragraph_and_hyphenation_is_undone():
    assert [" ".join(s.split()) for s in _read(PASSAGES[1])] == [
        "The Vessel Museum was established in 1897 by the city council of Lund.",
        "It holds about 3,400 objects."]


def test_lines_that_end_sentences_or_start_lists_are_not_joined():
    text = "Key facts:\n- It opened in 1932.\n- It is 1,149 m long.\nThe bridge is tolled.\nCareer\nShe built it."
    assert normalize_passage(text) == text


def test_emphasis_markers_are_blanked_inside_a_passage():
    assert normalize_passage(PASSAGES[2]) == "The   Atlas   lifter carries   450   kilograms."
    assert normalize_passage("cache_ttl and __init__ stay, 2**3") == "cache_ttl and __init__ stay, 2**3"


def test_list_items_and_records_are_read_with_their_title():
    md = "# Norvik R2 robot\n## Specifications\n- Weight: 450 kg\n- Top speed: 12 km/h"
    assert _read(md) == ["Norvik R2 robot", "Specifications", "Norvik R2 robot, Specifications: Weight: 450 kg.",
                         "Norvik R2 robot, Specifications: Top speed: 12 km/h."]
    record = "Company: Norvik Robotics\nHeadquarters: Trondheim, Norway\nCEO: Anna Lind"
    assert _read(record)[1:] == ["Norvik Robotics: Headquarters: Trondheim, Norway.", "Norvik Robotics: CEO: Anna Lind."]


def test_a_long_list_item_is_read_without_a_prefix():
    text = "Key points\n- The unemployment rate for people aged 15 to 74 was 6.1% in the quarter."
    assert _read(text)[1] == "The unemployment rate for people aged 15 to 74 was 6.1% in the quarter."


def test_table_rows_are_read_as_column_cell_pairs():
    table = "Leadership of Norvik\n| Name | Role | Joined |\n|---|---|---|\n| Anna Lind | CEO | 2015 |"
    assert _read(table)[-1] == "Name: Anna Lind; Role: CEO; Joined: 2015."  # seven words: no prefix
    assert _read(table)[1] == "Leadership of Norvik: Name, Role, Joined."
    plain = "Division | Rate, Sep | Rate, Oct\nFood | 4.9% | 4.2%"
    assert _read(plain)[-1] == "Division: Food; Rate, Sep: 4.9%; Rate, Oct: 4.2%."


def test_faq_answers_are_read_after_their_question():
    faq = "Q: How long is the warranty?\nA: Two years from purchase.\nQ: Is it safe?\nA: Yes."
    assert _read(faq) == ["Q: How long is the warranty?", "How long is the warranty? Two years from purchase.",
                          "Q: Is it safe?", "Is it safe? Yes."]


def test_prose_and_passages_without_line_breaks_are_read_as_they_are():
    text = "Guy Ritchie directed RocknRolla. Golf has examples: Caddyshack"
    spans = split_sentences(text)
    assert read_sentences(text, spans) == [text[s:e] for s, e in spans]
    assert not any(isinstance(t, Header) for t in read_sentences(text, spans))


def test_long_wrapped_text_with_hyphens_on_consecutive_lines_keeps_its_length():
    text = "The museum was estab-\nlished in 1897 by the munici-\npal council of Lund and it\nholds objects. " * 300
    norm = normalize_passage(text)
    assert len(norm) == len(text)
    assert " ".join(norm.split()).startswith("The museum was established in 1897 by the municipal council of Lund and it")


def test_only_html_elements_are_tags():
    text = "<p>Use List<String> here.</p>"
    assert "List<String>" in normalize_passage(text)


def test_a_row_of_a_long_table_reads_its_own_header():
    rows = "\n".join(f"| item {k} | {k} kg |" for k in range(2000))
    table = "Weights\n| Item | Weight |\n|---|---|\n" + rows
    assert _read(table)[-1] == "Weights: Item: item 1999; Weight: 1999 kg."

