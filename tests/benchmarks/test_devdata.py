"""Tests for benchmarks.devdata: loaders, validation, split, sampling, convert."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import devdata as ds
from guardrail.errors import InvalidInputError

QA = {"knowledge": "Paris is the capital of France.", "question": "Capital of France?",
      "right_answer": "Paris", "hallucinated_answer": "Lyon is the capital."}
DIALOGUE = {"knowledge": "Iron Man is starring Robert Downey Jr.", "dialogue_history": "[Human]: Iron Man?",
            "right_response": "RDJ stars in it.", "hallucinated_response": "Tom Hanks stars in it."}
SUMM = {"document": "The cat sat on the mat all day.", "right_summary": "A cat sat.",
        "hallucinated_summary": "A dog sat."}


def _votes(*answers: str) -> list[dict[str, object]]:
    return [{"worker_id": i, "response": a} for i, a in enumerate(answers)]


QAGS = {"article": "Alice met Bob in Paris. They had lunch.", "summary_sentences": [
    {"sentence": "Alice met Bob in Paris. ", "responses": _votes("yes", "yes", "no")},
    {"sentence": "They had dinner.", "responses": _votes("no", "no", "yes")},
]}


def _write(path: Path, rows: list[object], raw: str = "") -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + raw, encoding="utf-8")
    return path


@pytest.mark.parametrize("task,rec,question,context,right,hall", [
    ("qa", QA, "Capital of France?", QA["knowledge"], "Paris", "Lyon is the capital."),
    ("dialogue", DIALOGUE, "[Human]: Iron Man?", DIALOGUE["knowledge"], "RDJ stars in it.",
     "Tom Hanks stars in it."),
    ("summarization", SUMM, None, SUMM["document"], "A cat sat.", "A dog sat."),
])
def test_load_halueval_two_items_per_record(tmp_path, task, rec, question, context, right, hall):
    items = ds.load_halueval(_write(tmp_path / "d.jsonl", [rec, rec]), task)
    assert [it["id"] for it in items] == [f"{task}-0-right", f"{task}-0-hallucinated",
                                          f"{task}-1-right", f"{task}-1-hallucinated"]
    assert [it["label"] for it in items] == [0, 1, 0, 1]
    assert items[0]["group"] == items[1]["group"] == f"{task}-0"
    assert items[0]["question"] == question and items[0]["context"] == context
    assert items[0]["answer"] == right and items[1]["answer"] == hall


def test_load_halueval_skips_blank_lines(tmp_path):
    p = tmp_path / "d.jsonl"
    p.write_text(json.dumps(QA) + "\n\n" + json.dumps(QA) + "\n", encoding="utf-8")
    assert [it["group"] for it in ds.load_halueval(p, "qa")][::2] == ["qa-0", "qa-1"]


@pytest.mark.parametrize("raw,needle", [
    ("{not json\n", "invalid JSON"),
    ("[1, 2]\n", "expected a JSON object"),
    (json.dumps({**QA, "right_answer": 3}) + "\n", "'right_answer' must be a string"),
    (json.dumps({k: v for k, v in QA.items() if k != "knowledge"}) + "\n", "missing field 'knowledge'"),
])
def test_load_halueval_malformed_names_file_and_line(tmp_path, raw, needle):
    p = _write(tmp_path / "bad.jsonl", [QA], raw)
    with pytest.raises(InvalidInputError) as exc:
        ds.load_halueval(p, "qa")
    assert f"{p}:2" in str(exc.value) and needle in str(exc.value)


def test_load_halueval_unknown_task_and_missing_file(tmp_path):
    with pytest.raises(InvalidInputError, match="unknown HaluEval task"):
        ds.load_halueval(tmp_path / "x.jsonl", "poetry")
    with pytest.raises(InvalidInputError, match="not found"):
        ds.load_halueval(tmp_path / "x.jsonl", "qa")


def test_load_qags_spans_and_majority_label(tmp_path):
    ok = {**QAGS, "summary_sentences": [QAGS["summary_sentences"][0]]}
    items = ds.load_qags(_write(tmp_path / "q.jsonl", [QAGS, ok]))
    first = items[0]
    assert first["id"] == first["group"] == "qags_c-0" and first["question"] is None
    assert first["answer"] == "Alice met Bob in Paris. They had dinner."
    assert [s["unsupported"] for s in first["sentences"]] == [False, True]
    assert [first["answer"][s["start"]:s["end"]] for s in first["sentences"]] == [
        "Alice met Bob in Paris.", "They had dinner."]
    assert first["label"] == 1 and items[1]["label"] == 0


@pytest.mark.parametrize("bad,needle", [
    ({"article": "x", "summary_sentences": []}, "non-empty list"),
    ({"article": "x", "summary_sentences": [{"sentence": "a", "responses": _votes("maybe")}]}, "'yes' or 'no'"),
    ({"summary_sentences": QAGS["summary_sentences"]}, "missing field 'article'"),
])
def test_load_qags_malformed(tmp_path, bad, needle):
    p = _write(tmp_path / "q.jsonl", [QAGS, bad])
    with pytest.raises(InvalidInputError, match=needle) as exc:
        ds.load_qags(p)
    assert f"{p}:2" in str(exc.value)


def test_dev_split_deterministic_by_group_and_stable_under_subsets():
    items = [{"id": f"g{i}-{s}", "group": f"g{i}"} for i in range(400) for s in ("a", "b")]
    tune, val = ds.dev_split(items, 0.3, seed=0)
    assert (tune, val) == ds.dev_split(items, 0.3, seed=0)
    assert len(tune) + len(val) == len(items)
    assert {it["group"] for it in tune}.isdisjoint({it["group"] for it in val})
    assert 0.2 < len(val) / len(items) < 0.4
    # a subset's validation items are validation items of the whole set
    _, val_sub = ds.dev_split(items[:100], 0.3, seed=0)
    assert {it["id"] for it in val_sub} <= {it["id"] for it in val}
    assert ds.dev_split(items, 0.3, seed=1) != (tune, val)
    assert ds.dev_split(items, 0.0)[1] == [] and ds.dev_split(items, 1.0)[0] == []
    with pytest.raises(InvalidInputError):
        ds.dev_split(items, 1.5)


def test_load_dev_from_env_dir_with_split_and_limit(tmp_path, monkeypatch):
    (tmp_path / "halueval").mkdir()
    _write(tmp_path / "halueval" / "qa_dev.jsonl", [QA] * 50)
    monkeypatch.setenv("KG_GUARDRAIL_DATA", str(tmp_path))
    assert ds.data_dir() == tmp_path
    all_items = ds.load_dev("halueval_qa")
    assert len(all_items) == 100
    sample = ds.load_dev("halueval_qa", limit=10, seed=3)
    assert len(sample) == 10 and sample == ds.load_dev("halueval_qa", limit=10, seed=3)
    assert sum(it["label"] for it in sample) == 5  # whole groups: balanced
    ids = [int(it["id"].split("-")[1]) for it in sample]
    assert ids == sorted(ids)  # file order kept
    val = ds.load_dev("halueval_qa", split="val")
    tune = ds.load_dev("halueval_qa", split="tune")
    assert len(val) + len(tune) == 100
    assert {it["id"] for it in ds.load_dev("halueval_qa", limit=6, split="val")} <= {it["id"] for it in val}
    for kwargs in ({"name": "nope"}, {"name": "halueval_qa", "split": "test"},
                   {"name": "halueval_qa", "limit": -1}):
        with pytest.raises(InvalidInputError):
            ds.load_dev(**kwargs)


def test_convert_writes_jsonl(tmp_path, monkeypatch):
    (tmp_path / "qags").mkdir()
    _write(tmp_path / "qags" / "qags_c.jsonl", [QAGS] * 3)
    monkeypatch.setenv("KG_GUARDRAIL_DATA", str(tmp_path))
    out = tmp_path / "out" / "q.jsonl"
    assert ds.convert("qags_c", out, limit=2) == 2
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 2 and {r["id"] for r in rows} <= {"qags_c-0", "qags_c-1", "qags_c-2"}
    assert rows[0]["sentences"][1]["unsupported"] is True and rows[0]["label"] == 1


@pytest.mark.skipif(not (ds.data_dir() / "halueval").is_dir(), reason="shared dev data not present")
def test_real_dev_data_counts():
    qags = ds.load_dev("qags_c")
    assert len(qags) == 235 and sum(it["label"] for it in qags) == 122
    assert sum(s["unsupported"] for it in qags for s in it["sentences"]) == 183
    summ = ds.load_dev("halueval_summarization")
    assert len(summ) == 4000 and sum(it["label"] for it in summ) == 2000
