"""PRD and SAS, the white-box features of GGA (seed paper 003, Section 4), from one forward pass.

*Graph Grounding and Alignment* reads two numbers out of the language model that wrote an
answer, given the linearised subgraph it was prompted with:

Path Reliance Degree (PRD, Section 4.1)
    ``P`` is the set of prompt positions of every sub-token of the head, relation or tail of
    a *shortest-path triple* (the triples on the shortest paths from the question's entities
    to the answer's entities in the subgraph, at most 3 hops); ``N`` is its complement among
    the context (prompt) positions. With ``alpha[l, h, i, j]`` the softmax-normalised attention
    of answer position ``i`` to source ``j`` in layer ``l``, head ``h`` (exactly what an eager
    attention layer returns), ``m_P = sum_{j in P} alpha``, ``m_N = sum_{j in N} alpha`` and
    ``PRD = mean over layers, heads and answer tokens of (m_P - m_N)``, in ``[-1, 1]``.
Semantic Alignment Score (SAS, Section 4.2)
    For every answer token, its hidden state at the top layer (the input of the output
    projection) is compared by cosine with the embedding of every retrieved triple
    (``"h r t"`` encoded by the same model, masked mean of the same layer's hidden states);
    the token keeps its best triple; SAS is the mean over answer tokens, clipped to ``[0, 1]``.

Answer tokens are those after the ``"ans:"`` prefix of the output (all of them if there is
none). Both numbers come from one teacher-forced pass over ``prompt + answer`` plus one
batched pass over the triples; no generation is needed.

``torch`` and ``transformers`` are imported lazily; without them the functions that need
them raise :class:`ImportError` naming ``pip install 'kg-guardrail[gga]'``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from guardrail._optional import pip_hint, require
from guardrail.errors import DetectorError, InvalidInputError
from guardrail.models.gga_graph import (
    GraphPrompt,
    TripleT,
    build_prompt,
    shortest_path_triples,
)

__all__ = [
    "INSTALL_HINT",
    "GGAFeatures",
    "answer_positions",
    "path_reliance_degree",
    "semantic_alignment_score",
    "surface_cues",
    "SURFACE_CUES",
    "GGAFeatureExtractor",
    "require_torch",
]

#: What to run when torch / transformers are missing.
INSTALL_HINT = pip_hint("gga")

#: The paper's six surface cues (the sixth, punctuation, as two counts), in feature order.
SURFACE_CUES = ("length", "repetition_ratio", "avg_word_len", "unique_word_ratio",
                "ans_prefix", "n_commas", "n_question_marks")

_ANS = re.compile(r"ans\s*:", re.IGNORECASE)
_WORD = re.compile(r"\w+", re.UNICODE)


def require_torch() -> Any:
    """Import and return ``torch`` (and import ``transformers``), or raise :class:`ImportError`
    with the install hint."""
    torch = require("torch", extra="gga", purpose="GGA")
    require("transformers", extra="gga", purpose="GGA")
    return torch


@dataclass(frozen=True)
class GGAFeatures:
    """PRD, SAS and the bookkeeping behind them for one answer.

    Parameters
    ----------
    prd : float
        Path Reliance Degree in ``[-1, 1]``.
    sas : float
        Semantic Alignment Score in ``[0, 1]``.
    path_triples : tuple of int
        Indices (into the triples) of the shortest-path triples.
    path_found : bool
        False when no question-to-answer path exists and the fallback set was used.
    n_answer_tokens : int
        Number of answer tokens averaged over.
    mass_path, mass_other : float
        Mean attention mass on ``P`` and on ``N``.
    perplexity : float
        ``exp`` of the mean negative log-likelihood of all answer tokens (the paper's
        perplexity baseline, from the same pass; clipped to ``[1, 1e4]``).
    """

    prd: float
    sas: float
    path_triples: tuple[int, ...]
    path_found: bool
    n_answer_tokens: int
    mass_path: float
    mass_other: float
    perplexity: float = 1.0


def answer_positions(offsets: Sequence[tuple[int, int]], answer: str) -> list[int]:
    """Indices of the answer tokens that lie after the ``"ans:"`` prefix.

    Parameters
    ----------
    offsets : sequence of (int, int)
        Character span of every answer token in ``answer``.
    answer : str
        The answer text.

    Returns
    -------
    list of int
        Token indices (into ``offsets``) whose span ends after the prefix and holds a
        non-space character; every such token when there is no prefix.
    """
    m = _ANS.search(answer)
    start = m.end() if m else 0
    return [k for k, (a, b) in enumerate(offsets)
            if b > start and answer[max(a, start):b].strip()]


def path_reliance_degree(
    attentions: Sequence[Any], answer_pos: Sequence[int], path_pos: Sequence[int],
    context_len: int,
) -> tuple[float, float, float]:
    """PRD from per-layer attention probabilities (paper, Eq. for ``m_P``, ``m_N``, PRD).

    Parameters
    ----------
    attentions : sequence of array-like
        One ``(heads, T, T)`` (or ``(1, heads, T, T)``) array per layer, rows summing to 1.
    answer_pos : sequence of int
        Absolute positions of the answer tokens (query rows).
    path_pos : sequence of int
        Absolute positions of the shortest-path tokens ``P`` (all ``< context_len``).
    context_len : int
        Number of context (prompt) positions; ``N`` is ``range(context_len)`` minus ``P``.

    Returns
    -------
    (prd, mass_path, mass_other) : tuple of float
        ``prd = mean(m_P - m_N)`` over layers, heads and answer tokens, and the two means.
    """
    if not answer_pos or not attentions:
        return 0.0, 0.0, 0.0
    in_path = np.zeros(context_len, dtype=bool)
    in_path[[p for p in path_pos if 0 <= p < context_len]] = True
    rows = np.asarray(answer_pos)
    m_p: list[np.ndarray] = []
    m_n: list[np.ndarray] = []
    for layer in attentions:
        a = _to_numpy(layer)
        a = a.reshape(-1, a.shape[-2], a.shape[-1])[:, rows, :context_len]
        m_p.append(a[:, :, in_path].sum(-1))
        m_n.append(a[:, :, ~in_path].sum(-1))
    mp, mn = float(np.mean(m_p)), float(np.mean(m_n))
    return mp - mn, mp, mn


def semantic_alignment_score(answer_hidden: Any, triple_emb: Any) -> float:
    """SAS: mean over answer tokens of the best cosine with any triple, clipped to ``[0, 1]``.

    Parameters
    ----------
    answer_hidden : array-like, shape (n_tokens, d)
        Top-layer hidden states of the answer tokens.
    triple_emb : array-like, shape (n_triples, d)
        Triple embeddings (masked means of the same layer).

    Returns
    -------
    float
        0.0 when there is no answer token or no triple.
    """
    h, e = _to_numpy(answer_hidden), _to_numpy(triple_emb)
    if h.size == 0 or e.size == 0:
        return 0.0
    h = h / np.maximum(np.linalg.norm(h, axis=-1, keepdims=True), 1e-12)
    e = e / np.maximum(np.linalg.norm(e, axis=-1, keepdims=True), 1e-12)
    return float(np.clip((h @ e.T).max(axis=1).mean(), 0.0, 1.0))


def surface_cues(output: str) -> dict[str, float]:
    """The paper's surface cues of a raw model output (Section 7.1).

    Returns
    -------
    dict
        ``length`` (words), ``repetition_ratio`` (share of repeated word bigrams),
        ``avg_word_len``, ``unique_word_ratio``, ``ans_prefix`` (1.0 when the output
        starts with ``"ans:"``), ``n_commas``, ``n_question_marks``.
    """
    words = [w.lower() for w in _WORD.findall(output)]
    bigrams = list(zip(words, words[1:]))
    return {
        "length": float(len(words)),
        "repetition_ratio": 1.0 - len(set(bigrams)) / len(bigrams) if bigrams else 0.0,
        "avg_word_len": float(np.mean([len(w) for w in words])) if words else 0.0,
        "unique_word_ratio": len(set(words)) / len(words) if words else 0.0,
        "ans_prefix": 1.0 if _ANS.match(output.strip()) else 0.0,
        "n_commas": float(output.count(",")),
        "n_question_marks": float(output.count("?")),
    }


def _to_numpy(x: Any) -> np.ndarray:
    if hasattr(x, "detach"):
        return np.asarray(x.detach().float().cpu().numpy())
    return np.asarray(x, dtype=np.float64)


class GGAFeatureExtractor:
    """Compute PRD and SAS with a transformers causal LM (the one that wrote the answer).

    Parameters
    ----------
    model : transformers causal LM
        Must return attentions (load it with ``attn_implementation="eager"``) and hidden states.
    tokenizer : transformers tokenizer
        A fast tokenizer (character offsets are needed); its chat template, when present,
        wraps the prompt.
    layer : int
        Hidden-state layer for SAS; ``-1`` = the top one (input of the output projection).
    complement : {"prompt", "subgraph"}
        ``N`` = every other prompt position (default, the paper's "all other tokens") or only
        the other tokens of the linearised subgraph.
    max_hops : int
        Longest question-to-answer path considered (the paper: 3).

    Raises
    ------
    ImportError
        Without torch / transformers (names ``pip install 'kg-guardrail[gga]'``).
    InvalidInputError
        ``complement`` is not ``"prompt"`` or ``"subgraph"``.
    """

    def __init__(self, model: Any, tokenizer: Any, *, layer: int = -1,
                 complement: str = "prompt", max_hops: int = 3) -> None:
        self.torch = require_torch()
        if complement not in ("prompt", "subgraph"):
            raise InvalidInputError(f"complement must be 'prompt' or 'subgraph', got {complement!r}")
        self.model, self.tokenizer = model, tokenizer
        self.layer, self.complement, self.max_hops = layer, complement, max_hops
        self._emb_cache: dict[str, np.ndarray] = {}

    def prompt(self, question: str, triples: Sequence[TripleT]) -> GraphPrompt:
        """The paper's prompt (answer entities prefixed with ``"ans:"``) for these triples."""
        return build_prompt(self.tokenizer, question, triples)

    def features(self, question: str, triples: Sequence[TripleT], answer: str) -> GGAFeatures:
        """PRD and SAS of ``answer`` to ``question`` over ``triples``.

        Parameters
        ----------
        question : str
            The question the model was asked.
        triples : sequence of (str, str, str)
            The retrieved subgraph, in the order it is linearised.
        answer : str
            The model's raw output (with its ``"ans:"`` prefix if it wrote one).

        Returns
        -------
        GGAFeatures
        """
        gp = self.prompt(question, triples)
        path, found = shortest_path_triples(triples, question, answer, self.max_hops)
        ids, ctx_len, ans_pos, path_pos, sub_pos = self._positions(gp, path, answer)
        out = self._forward(ids)
        context = range(ctx_len) if self.complement == "prompt" else sub_pos
        attn = [a[0][:, :, list(context)] if self.complement == "subgraph" else a[0]
                for a in out.attentions]
        path_local = ([context.index(p) for p in path_pos] if isinstance(context, list)
                      else path_pos)
        prd, mp, mn = path_reliance_degree(attn, ans_pos, path_local, len(context))
        hidden = out.hidden_states[self.layer][0, ans_pos] if ans_pos else np.zeros((0, 1))
        sas = semantic_alignment_score(hidden, self.triple_embeddings(triples))
        return GGAFeatures(prd=prd, sas=sas, path_triples=tuple(sorted(path)), path_found=found,
                           n_answer_tokens=len(ans_pos), mass_path=mp, mass_other=mn,
                           perplexity=self._perplexity(out.logits[0], ids, ctx_len))

    def _perplexity(self, logits: Any, ids: list[int], ctx_len: int) -> float:
        torch = self.torch
        if len(ids) <= ctx_len:
            return 1.0
        logp = torch.log_softmax(logits[ctx_len - 1:-1].float(), dim=-1)
        tgt = torch.tensor(ids[ctx_len:]).unsqueeze(-1)
        nll = -logp.gather(-1, tgt).mean().item()
        return float(min(max(np.exp(min(nll, 20.0)), 1.0), 1e4))

    def _positions(self, gp: GraphPrompt, path: set[int], answer: str
                   ) -> tuple[list[int], int, list[int], list[int], list[int]]:
        tok = self.tokenizer
        p = tok(gp.text, add_special_tokens=False, return_offsets_mapping=True)
        a = tok(answer, add_special_tokens=False, return_offsets_mapping=True)
        ctx_len = len(p["input_ids"])
        ans_pos = [ctx_len + k for k in answer_positions(a["offset_mapping"], answer)]
        spans = [gp.spans[k] for k in sorted(path)]
        path_pos = [k for k, (s, e) in enumerate(p["offset_mapping"])
                    if e > s and any(s < b and e > a_ for a_, b in spans)]
        sub_pos = [k for k, (s, e) in enumerate(p["offset_mapping"])
                   if e > s and any(s < b and e > a_ for a_, b in gp.spans)]
        return list(p["input_ids"]) + list(a["input_ids"]), ctx_len, ans_pos, path_pos, sub_pos

    def _forward(self, ids: list[int]) -> Any:
        torch = self.torch
        with torch.no_grad():
            out = self.model(torch.tensor([ids]), output_attentions=True,
                             output_hidden_states=True)
        if not out.attentions or out.attentions[0] is None:
            raise DetectorError("the model returned no attentions (load it with "
                                "attn_implementation='eager')")
        return out

    def triple_embeddings(self, triples: Sequence[TripleT]) -> np.ndarray:
        """Masked-mean hidden states (layer :attr:`layer`) of each ``"h r t"``, cached by text."""
        texts = [" ".join(t) for t in triples]
        missing = list(dict.fromkeys(t for t in texts if t not in self._emb_cache))
        for start in range(0, len(missing), 32):
            self._embed_batch(missing[start:start + 32])
        if not texts:
            return np.zeros((0, 1))
        return np.stack([self._emb_cache[t] for t in texts])

    def _embed_batch(self, texts: list[str]) -> None:
        torch = self.torch
        enc = [self.tokenizer(t, add_special_tokens=False)["input_ids"] or [0] for t in texts]
        width = max(len(e) for e in enc)
        ids = torch.zeros((len(enc), width), dtype=torch.long)
        mask = torch.zeros((len(enc), width), dtype=torch.long)
        for r, e in enumerate(enc):
            ids[r, :len(e)] = torch.tensor(e)
            mask[r, :len(e)] = 1
        with torch.no_grad():
            hs = self.model(ids, attention_mask=mask, output_hidden_states=True).hidden_states
        h = hs[self.layer].float()
        m = mask.unsqueeze(-1).float()
        means = (h * m).sum(1) / m.sum(1).clamp(min=1.0)
        for t, v in zip(texts, means.cpu().numpy()):
            self._emb_cache[t] = v
        if len(self._emb_cache) > 50_000:
            self._emb_cache.clear()
