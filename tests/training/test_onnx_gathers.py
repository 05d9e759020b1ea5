"""training/onnx_gathers.py: fp16 tables read by Gather are gathered before the cast (issue 27),
with the same outputs; the shipped verifier graph is written that way."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from guardrail.models import runtime  # noqa: E402
from guardrail.models.claim_verifier import MODEL_DIR  # noqa: E402
from training.onnx_gathers import gather_before_cast, rewrite_gathers  # noqa: E402


def _model(table_also_in_matmul: bool = False) -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    table = numpy_helper.from_array(rng.normal(size=(50, 8)).astype(np.float16), "emb__stored")
    nodes = [helper.make_node("Cast", ["emb__stored"], ["emb"], to=TensorProto.FLOAT),
             helper.make_node("Gather", ["emb", "ids"], ["rows"]),
             helper.make_node("Relu", ["rows"], ["out"])]
    outputs = [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)]
    if table_also_in_matmul:
        nodes.append(helper.make_node("MatMul", ["emb", "w"], ["proj"]))
        outputs.append(helper.make_tensor_value_info("proj", TensorProto.FLOAT, None))
    inits = [table] + [numpy_helper.from_array(np.ones((8, 2), dtype=np.float32), "w")] * table_also_in_matmul
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("ids", TensorProto.INT64, None)],
                              outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _run(model: onnx.ModelProto, ids: np.ndarray) -> list[np.ndarray]:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"ids": ids})


def test_gather_reads_the_fp16_table_and_the_outputs_are_equal() -> None:
    model, ids = _model(), np.array([[3, 7, 49, 0]], dtype=np.int64)
    before = _run(model, ids)
    assert gather_before_cast(model) == 1
    ops = [(n.op_type, list(n.input)) for n in model.graph.node]
    assert ops[0] == ("Gather", ["emb__stored", "ids"]) and ops[1][0] == "Cast"
    np.testing.assert_array_equal(_run(model, ids)[0], before[0])
    assert gather_before_cast(model) == 0  # idempotent


def test_a_table_read_by_other_nodes_is_left_alone() -> None:
    model = _model(table_also_in_matmul=True)
    assert gather_before_cast(model) == 0
    assert model.graph.node[0].op_type == "Cast"


def test_rewrite_gathers_writes_the_file_only_when_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    path.write_bytes(_model().SerializeToString())
    assert rewrite_gathers(path) == 1
    stamp = path.stat().st_mtime_ns
    assert rewrite_gathers(path) == 0 and path.stat().st_mtime_ns == stamp


def test_shipped_verifier_gathers_its_fp16_tables() -> None:
    model = onnx.load(str(MODEL_DIR / "model.onnx"), load_external_data=False)
    assert gather_before_cast(model) == 0  # nothing left to rewrite
    gathers = [n for n in model.graph.node if n.op_type == "Gather" and n.input[0].endswith("__stored")]
    assert any("word_embeddings" in n.input[0] for n in gathers)


def test_sessions_run_without_the_cpu_memory_arena() -> None:
    sess = runtime.session(MODEL_DIR / "model.onnx")
    assert sess.get_session_options().enable_cpu_mem_arena is False
