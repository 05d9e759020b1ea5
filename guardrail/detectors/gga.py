"""GGA (Graph Grounding and Alignment, seed paper 003): a white-box detector for graph contexts.

Reads the internals of the user's own generator (any transformers causal LM that returns
attentions and hidden states): Path Reliance Degree and Semantic Alignment Score
(:mod:`guardrail.models.gga_features`) plus the paper's surface cues of the answer go into a
gradient-boosted classifier (scikit-learn ``HistGradientBoostingClassifier``) whose output
probability is the hallucination score. One teacher-forced forward pass per answer.

The shipped classifier (``guardrail/models/gga/``) was fitted on features of
Qwen2.5-Coder-0.5B-Instruct; for another model fit your own with ``training/train_gga.py``
and pass ``weights=``. The paper's prompt asks for answers prefixed with ``"ans:"``; answers
are scored as given.

Examples
--------
>>> from guardrail import Guard                                   # doctest: +SKIP
>>> from guardrail.config import GuardConfig                      # doctest: +SKIP
>>> from guardrail.models.gga_local import load_local_model       # doctest: +SKIP
>>> model, tok = load_local_model()                               # doctest: +SKIP
>>> guard = Guard(GuardConfig(name="gga", detectors=["gga"], aggregation="max"),
...               detectors=[GGADetector(model, tok)])            # doctest: +SKIP
>>> r = guard.check("ans: Delhi", [("Oberoi Group", "head office in", "Delhi")],
...                 question="Where is the head office of the Oberoi Group?")  # doctest: +SKIP
>>> r.detectors[0].details["prd"], r.detectors[0].details["sas"]  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import pickle
from numbers import Integral
from pathlib import Path
from typing import Any

import numpy as np

from guardrail.detectors._params import Interval, StrOptions, validated
from guardrail.detectors.base import AlignmentInput, Detector
from guardrail.errors import DetectorError
from guardrail.models.gga_features import (
    SURFACE_CUES,
    GGAFeatureExtractor,
    GGAFeatures,
    require_torch,
    surface_cues,
)
from guardrail.models.gga_graph import MAX_TRIPLES, TripleT, prune
from guardrail.types import DetectorOutput, KnowledgeGraph

__all__ = ["GGADetector", "FEATURES", "DEFAULT_WEIGHTS", "feature_vector", "load_classifier",
           "check_white_box"]

#: Feature order of the classifier: PRD, SAS, then the surface cues.
FEATURES = ("prd", "sas") + SURFACE_CUES
#: The shipped classifier (a pickle with a ``.sha256`` file beside it).
DEFAULT_WEIGHTS = Path(__file__).resolve().parent.parent / "models" / "gga" / "gga_qwen05b.pkl"


def feature_vector(prd: float, sas: float, output: str) -> list[float]:
    """The classifier input for one answer, in :data:`FEATURES` order."""
    cues = surface_cues(output)
    return [prd, sas] + [cues[c] for c in SURFACE_CUES]


def load_classifier(path: str | Path = DEFAULT_WEIGHTS) -> dict[str, Any]:
    """Load a classifier bundle after checking its SHA-256 against ``<path>.sha256``.

    Returns
    -------
    dict
        ``model`` (fitted classifier with ``predict_proba``), ``features`` (names, must be
        :data:`FEATURES`), ``threshold`` (F1-best on validation) and metadata.

    Raises
    ------
    DetectorError
        Missing file, checksum mismatch or wrong feature list.
    """
    p = Path(path)
    sha = p.with_name(p.name + ".sha256")
    if not p.is_file() or not sha.is_file():
        raise DetectorError(f"GGA weights not found: {str(p)!r} (and its .sha256)")
    data = p.read_bytes()
    want = sha.read_text(encoding="utf-8").split()[0]
    if hashlib.sha256(data).hexdigest() != want:
        raise DetectorError(f"GGA weights {str(p)!r} do not match their SHA-256 {want}")
    bundle: dict[str, Any] = pickle.loads(data)  # noqa: S301 - checksum verified above
    if tuple(bundle.get("features", ())) != FEATURES:
        raise DetectorError(f"GGA weights expect features {bundle.get('features')}, not {FEATURES}")
    return bundle


def check_white_box(model: Any, tokenizer: Any) -> None:
    """Raise unless ``model`` is a causal LM that returns attentions and hidden states.

    Raises
    ------
    DetectorError
        No model or tokenizer given, or a probe forward pass (two tokens) returns no
        attentions (e.g. an SDPA / flash attention model: load it with
        ``attn_implementation="eager"``) or no hidden states.
    """
    if model is None or tokenizer is None:
        raise DetectorError(
            "the gga detector reads the generator's internals and needs a white-box model: "
            "pass a transformers causal LM and its tokenizer, GGADetector(model=..., "
            "tokenizer=...), and the detector instance to Guard(detectors=[...])")
    if not callable(model) or not callable(tokenizer):
        raise DetectorError(f"model and tokenizer must be callable transformers objects, got "
                            f"{type(model).__name__} and {type(tokenizer).__name__}")
    torch = require_torch()
    try:
        with torch.no_grad():
            out = model(torch.tensor([[0, 1]]), output_attentions=True, output_hidden_states=True)
    except Exception as exc:  # noqa: BLE001 - any failure means "not usable"
        raise DetectorError(f"the model cannot run a probe forward pass: {exc}") from exc
    atts = getattr(out, "attentions", None)
    if not atts or any(a is None for a in atts):
        raise DetectorError("the model returns no attentions; load it with "
                            "attn_implementation='eager' (GGA needs attention weights)")
    if not getattr(out, "hidden_states", None):
        raise DetectorError("the model returns no hidden states (GGA needs them for SAS)")


def _triples(graph: KnowledgeGraph) -> list[TripleT]:
    return [(t.subject.text, t.relation, t.object.text) for t in graph.triples]


class GGADetector(Detector):
    """White-box GGA detector: PRD + SAS + surface cues into gradient-boosted trees.

    Parameters
    ----------
    model : transformers causal LM
        The model that generated the answers (eager attention).
    tokenizer : transformers tokenizer
        Its fast tokenizer.
    weights : str or Path
        Classifier bundle (default: the shipped one for Qwen2.5-Coder-0.5B-Instruct).
    max_triples : int
        The context graph is pruned to this many triples around the question-to-answer
        paths, as in the paper (default 20).
    complement : {"prompt", "subgraph"}
        PRD's non-path set (see :class:`~guardrail.models.gga_features.GGAFeatureExtractor`).

    Raises
    ------
    DetectorError
        Without a model, or when it cannot return attentions; bad weights.
    ImportError
        Without torch / transformers (names ``pip install 'kg-guardrail[gga]'``).
    """

    name = "gga"
    uses_encoder = False

    _parameter_constraints = {
        "model": ["no_validation"],
        "tokenizer": ["no_validation"],
        "weights": [str, Path],
        "max_triples": [Interval(Integral, 1, None)],
        "complement": [StrOptions({"prompt", "subgraph"})],
    }

    @validated
    def __init__(self, model: Any = None, tokenizer: Any = None, *,
                 weights: str | Path = DEFAULT_WEIGHTS, max_triples: int = MAX_TRIPLES,
                 complement: str = "prompt") -> None:
        check_white_box(model, tokenizer)
        self.extractor = GGAFeatureExtractor(model, tokenizer, complement=complement)
        self.bundle = load_classifier(weights)
        self.max_triples = max_triples

    def features(self, item: AlignmentInput) -> tuple[GGAFeatures, list[TripleT]]:
        """PRD, SAS and bookkeeping for one item, and the pruned triples they were read on."""
        question = item.question or ""
        triples = prune(_triples(item.context_graph), question, [item.answer], self.max_triples)
        return self.extractor.features(question, triples, item.answer), triples

    def detect(self, item: AlignmentInput) -> DetectorOutput:
        """Score one answer: the classifier's probability of hallucination.

        The details hold ``prd``, ``sas``, the shortest-path triples, the attention masses,
        the answer's perplexity and the surface cues.
        """
        if not item.context_graph.triples:
            return DetectorOutput(name=self.name, score=0.5,
                                  details={"reason": "the context graph has no triples"})
        try:
            f, path = self.features(item)
            x = np.asarray([feature_vector(f.prd, f.sas, item.answer)])
            score = float(self.bundle["model"].predict_proba(x)[0, 1])
        except (RuntimeError, ValueError) as exc:
            raise DetectorError(f"gga failed: {exc}") from exc
        details = {"prd": f.prd, "sas": f.sas, "path_found": f.path_found,
                   "path_triples": [" ".join(path[k]) for k in f.path_triples],
                   "mass_path": f.mass_path, "mass_other": f.mass_other,
                   "perplexity": f.perplexity, "n_answer_tokens": f.n_answer_tokens,
                   "threshold": float(self.bundle.get("threshold", 0.5)),
                   **surface_cues(item.answer)}
        return DetectorOutput(name=self.name, score=min(max(score, 0.0), 1.0), details=details)

