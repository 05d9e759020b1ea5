"""Gather fp16 tables before casting them: the same values, half the resident table.

The shipped graphs keep their large weights in fp16 and ``Cast`` them to fp32 (fp32
arithmetic). ONNX Runtime folds each such ``Cast`` of an initializer into an fp32 copy when
the session loads, so every table costs 4 bytes per value in memory. A table read only by
``Gather`` (the word embeddings: 30,522 x 384 values in a MiniLM) need not be: gathering the
fp16 rows and casting them gives the same fp32 values, and the fp16 table stays as it is.
Measured on the shipped models (issue 27): the verifier session 44 MB smaller, the encoder's
23 MB, outputs equal to the bit on 120 sample pairs and 240 sentences, no time difference.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["gather_before_cast", "rewrite_gathers"]


def _gathered_tables(graph: Any) -> dict[str, str]:
    """``{fp32 table: fp16 initializer}`` for each ``Cast`` of an fp16 initializer whose
    output is read only as the data input of ``Gather`` nodes (and is no graph output)."""
    from onnx import TensorProto

    fp16 = {i.name for i in graph.initializer if i.data_type == TensorProto.FLOAT16}
    readers: dict[str, list[tuple[str, int]]] = {}
    for node in graph.node:
        for k, name in enumerate(node.input):
            readers.setdefault(name, []).append((node.op_type, k))
    outputs = {o.name for o in graph.output}
    tables = {}
    for node in graph.node:
        if node.op_type != "Cast" or len(node.input) != 1 or node.input[0] not in fp16:
            continue
        users = readers.get(node.output[0], [])
        if users and node.output[0] not in outputs and all(op == "Gather" and k == 0 for op, k in users):
            tables[node.output[0]] = node.input[0]
    return tables


def gather_before_cast(model: Any) -> int:
    """Rewrite ``model`` (an ``onnx.ModelProto``, in place): each fp16 table read only by
    ``Gather`` is gathered in fp16 and the gathered rows are cast to fp32.

    Returns
    -------
    int
        Number of tables rewritten (0 leaves the graph as it was).
    """
    import onnx
    from onnx import TensorProto, helper

    graph = model.graph
    tables = _gathered_tables(graph)
    if not tables:
        return 0
    nodes = []
    for node in graph.node:
        if node.op_type == "Cast" and node.output[0] in tables:
            continue
        if node.op_type == "Gather" and node.input[0] in tables:
            rows = node.output[0]
            gather = onnx.NodeProto()
            gather.CopyFrom(node)
            gather.input[0] = tables[node.input[0]]
            gather.output[0] = rows + "__stored"
            nodes += [gather, helper.make_node("Cast", [gather.output[0]], [rows], to=TensorProto.FLOAT,
                                               name=rows + "__cast")]
        else:
            nodes.append(node)
    del graph.node[:]
    graph.node.extend(nodes)
    return len(tables)


def rewrite_gathers(path: Path) -> int:
    """Apply :func:`gather_before_cast` to the ONNX file ``path`` (external data references
    are kept as they are); returns the number of tables rewritten."""
    import onnx

    model = onnx.load(str(path), load_external_data=False)
    done = gather_before_cast(model)
    if done:
        path.write_bytes(model.SerializeToString())
    return done
