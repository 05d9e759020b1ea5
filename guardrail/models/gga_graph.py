"""Graph side of GGA: the paper's prompt, entity matching and shortest-path triples.

Pure Python (networkx); no torch. See :mod:`guardrail.models.gga_features` for PRD/SAS.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from guardrail.text.lexicon import ENTITY_LINK_STOP_WORDS

__all__ = [
    "TripleT",
    "GraphPrompt",
    "INSTRUCTION",
    "normalize",
    "linearise",
    "build_prompt",
    "match_entities",
    "shortest_path_triples",
    "strip_ans",
    "MAX_TRIPLES",
    "prune",
]

#: A triple as three strings: (head, relation, tail).
TripleT = tuple[str, str, str]

#: The paper's instruction (Section 5, Fig. 3): answer entities only, prefixed with "ans:".
INSTRUCTION = ("Based on the triples retrieved from a knowledge graph, answer the question. "
               "Return only the answer entities, prefixed with \"ans:\", without explanations "
               "or reasoning.")

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans({c: " " for c in string.punctuation})
_ANS = re.compile(r"^\s*ans\s*:\s*", re.IGNORECASE)
_MAX_PATHS = 64
#: Triples per subgraph (the paper's K for MetaQA-1hop).
MAX_TRIPLES = 20


@dataclass(frozen=True)
class GraphPrompt:
    """A prompt with the character span of every linearised triple.

    Parameters
    ----------
    text : str
        The full prompt (chat template applied when the tokenizer has one).
    spans : tuple of (int, int)
        ``text[start:end]`` is ``"head relation tail"`` of triple ``k``.
    """

    text: str
    spans: tuple[tuple[int, int], ...]


def normalize(text: str) -> str:
    """SQuAD normalisation: lower case, no punctuation, no articles, single spaces."""
    return " ".join(_ARTICLES.sub(" ", text.lower().translate(_PUNCT)).split())


def strip_ans(output: str) -> str:
    """The output without its ``"ans:"`` prefix (first line only, as the prompt asks)."""
    text = _ANS.sub("", output.strip())
    return text.splitlines()[0].strip() if text.strip() else ""


def linearise(triples: Sequence[TripleT]) -> list[str]:
    """``"head relation tail"`` per triple (the paper's serialisation, e.g. ``"X release_year 2001"``)."""
    return [" ".join(p.strip() for p in t) for t in triples]


def build_prompt(tokenizer: Any, question: str, triples: Sequence[TripleT]) -> GraphPrompt:
    """The paper's prompt: instruction, one triple per line, then the question.

    Parameters
    ----------
    tokenizer : transformers tokenizer or None
        Its chat template, when it has one, wraps the user message (with the generation
        prompt); otherwise the message is followed by ``"\\n"``.
    question : str
        The question.
    triples : sequence of (str, str, str)
        The subgraph in linearisation order.

    Returns
    -------
    GraphPrompt
    """
    lines = linearise(triples)
    head = f"{INSTRUCTION}\n\nTriples:\n"
    body = "\n".join(lines)
    user = f"{head}{body}\n\nQuestion: {question.strip()}"
    text = user + "\n"
    if tokenizer is not None and getattr(tokenizer, "chat_template", None):
        text = tokenizer.apply_chat_template([{"role": "user", "content": user}],
                                             tokenize=False, add_generation_prompt=True)
    offset = text.index(user) + len(head)
    spans = []
    for line in lines:
        spans.append((offset, offset + len(line)))
        offset += len(line) + 1
    return GraphPrompt(text=text, spans=tuple(spans))


def _mentions(node: str, text: str) -> bool:
    return bool(node) and node not in ENTITY_LINK_STOP_WORDS and f" {node} " in f" {text} "


def match_entities(nodes: Sequence[str], text: str, *, contained: bool = False) -> set[str]:
    """Normalised graph nodes named in ``text``.

    Parameters
    ----------
    nodes : sequence of str
        Normalised node strings.
    text : str
        Raw text (normalised here).
    contained : bool
        Also match nodes that contain the whole normalised text (for short answers such
        as ``"Delhi"`` against a node ``"new delhi"``), when it has 3 characters or more.
    """
    t = normalize(text)
    found = {n for n in nodes if _mentions(n, t)}
    if contained and len(t) >= 3 and t not in ENTITY_LINK_STOP_WORDS:
        found |= {n for n in nodes if _mentions(t, n)}
    return found


def _graph(triples: Sequence[TripleT]) -> nx.Graph:
    g = nx.Graph()
    for k, (h, _, t) in enumerate(triples):
        u, v = normalize(h), normalize(t)
        if not u or not v or u == v:
            continue
        if g.has_edge(u, v):
            g[u][v]["triples"].append(k)
        else:
            g.add_edge(u, v, triples=[k])
    return g


def _path_edges(g: nx.Graph, q: set[str], a: set[str], max_hops: int) -> set[int]:
    found: set[int] = set()
    for src in sorted(q):
        lengths = nx.single_source_shortest_path_length(g, src, cutoff=max_hops)
        for dst in sorted(a - {src}):
            if dst not in lengths:
                continue
            for n_path, path in enumerate(nx.all_shortest_paths(g, src, dst)):
                if n_path >= _MAX_PATHS:
                    break
                for u, v in zip(path, path[1:]):
                    found.update(g[u][v]["triples"])
    return found


def shortest_path_triples(triples: Sequence[TripleT], question: str, answer: str,
                          max_hops: int = 3) -> tuple[set[int], bool]:
    """Indices of the triples on the shortest question-to-answer paths (paper, Section 4.1).

    Question entities are graph nodes named in the question; answer entities are nodes
    named in the answer (or containing it), preferring those not already in the question.
    Every shortest path of at most ``max_hops`` edges between a question entity and an
    answer entity (undirected) contributes all triples along it.

    Returns
    -------
    (indices, found) : tuple of (set of int, bool)
        When no path exists, ``found`` is False and the indices fall back to the triples
        touching the answer entities (or, with none, the question entities; empty when
        neither names a node).
    """
    g = _graph(triples)
    nodes = list(g.nodes)
    q = match_entities(nodes, question)
    a_all = match_entities(nodes, strip_ans(answer), contained=True)
    a = (a_all - q) or a_all
    path = _path_edges(g, q, a, max_hops) if q and a else set()
    if path:
        return path, True
    ends = a or q
    return {k for k, (h, _, t) in enumerate(triples)
            if normalize(h) in ends or normalize(t) in ends}, False


def prune(triples: list[TripleT], question: str, golds: list[str],
          k: int = MAX_TRIPLES) -> list[TripleT]:
    """The paper's pruning (Appendix A.1): path triples, then the best-connected others.

    Parameters
    ----------
    triples : list of (str, str, str)
        The retrieved subgraph (duplicates and empty parts are dropped).
    question : str
        The question.
    golds : list of str
        Answer texts whose entities end the paths (the gold answers when building data,
        the answer under test at check time).
    k : int
        At most this many triples are kept (the paper: 20).

    Returns
    -------
    list of (str, str, str)
        Every shortest-path triple, then others by connectivity score (3 for touching a
        path entity, 2 a question entity, 2 an answer entity), in the input order.
    """
    triples = list(dict.fromkeys(t for t in triples if all(p.strip() for p in t)))
    path: set[int] = set()
    for g in golds:
        idx, found = shortest_path_triples(triples, question, f"ans: {g}")
        if found:
            path |= idx
    nodes = {normalize(x) for t in triples for x in (t[0], t[2])}
    q_ents = match_entities(list(nodes), question)
    a_ents = set().union(*(match_entities(list(nodes), g, contained=True) for g in golds))
    p_ents = {normalize(triples[i][x]) for i in path for x in (0, 2)}

    def score(i: int) -> int:
        ends = {normalize(triples[i][0]), normalize(triples[i][2])}
        return 3 * bool(ends & p_ents) + 2 * bool(ends & q_ents) + 2 * bool(ends & a_ents)

    rest = sorted((i for i in range(len(triples)) if i not in path), key=lambda i: (-score(i), i))
    keep = sorted(sorted(path)[:k] + rest[:max(0, k - len(path))])
    return [triples[i] for i in keep]
