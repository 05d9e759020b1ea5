"""Test doubles for code that uses kg-guardrail, shipped the way httpx ships ``MockTransport``.

They need no model and no network and are deterministic, so a user's own tests can build a
:class:`~guardrail.Guard` that runs in milliseconds:

* :class:`FakeEncoder`: a sentence encoder with hash-seeded vectors; strings of one synonym
  group share a vector.
* :class:`FakeExtractor`: a triple extractor that reads ``"subject | relation | object"``
  lines (or returns a fixed graph).
* :class:`ScriptedReprompt`: a refinement callable that returns scripted answers in turn and
  records the prompts it was given.

Examples
--------
>>> enc = FakeEncoder([["car", "automobile"]])
>>> v = enc.encode(["car", "automobile", "banana"])
>>> round(float(v[0] @ v[1]), 3), abs(float(v[0] @ v[2])) < 0.25
(1.0, True)
>>> g = FakeExtractor().extract("Apple | founded in | 1976")
>>> [(t.subject.text, t.relation, t.object.text) for t in g.triples]
[('Apple', 'founded in', '1976')]
>>> r = ScriptedReprompt(["first fix", "second fix"])
>>> r("any prompt"), r("another"), len(r.prompts)
('first fix', 'second fix', 2)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from guardrail.errors import InvalidInputError
from guardrail.extract.base import Extractor
from guardrail.types import KnowledgeGraph, Node, Span, Triple

__all__ = ["FakeEncoder", "FakeExtractor", "ScriptedReprompt"]


class FakeEncoder:
    """A deterministic sentence encoder (384 dimensions, unit norm).

    Parameters
    ----------
    groups : sequence of sequence of str
        Synonym groups: every string of a group gets the group's first string's vector.
        Other strings get a vector seeded by their SHA-256, so two unrelated strings have a
        cosine near 0 (``|cos| < 0.25`` in practice).

    Attributes
    ----------
    calls : int
        Number of :meth:`encode` calls (to check batching).
    """

    dim = 384

    def __init__(self, groups: Sequence[Sequence[str]] = ()) -> None:
        self.key = {s: g[0] for g in groups for s in g}
        self.calls = 0

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``: an array of shape ``(len(texts), 384)``, float32, rows of unit norm."""
        self.calls += 1
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            k = self.key.get(t, t)
            seed = int.from_bytes(hashlib.sha256(k.encode("utf-8", "surrogatepass")).digest()[:4], "big")
            v = np.random.default_rng(seed).standard_normal(self.dim)
            out[i] = v / np.linalg.norm(v)
        return out


class FakeExtractor(Extractor):
    """An extractor that reads one ``"subject | relation | object"`` triple per line.

    Parameters
    ----------
    graph : KnowledgeGraph or None
        When given, :meth:`extract` returns it for every text (spans are the caller's).
    """

    def __init__(self, graph: KnowledgeGraph | None = None) -> None:
        self.graph = graph

    def extract(self, text: str, *, source: int = -1) -> KnowledgeGraph:
        """The triples written in ``text``; node spans point into ``text``.

        Raises
        ------
        InvalidInputError
            ``text`` is not a str.
        """
        if not isinstance(text, str):
            raise InvalidInputError(f"text must be a str, got {type(text).__name__}")
        if self.graph is not None:
            return self.graph
        nodes: dict[str, Node] = {}
        triples: list[Triple] = []
        offset = 0
        for line in text.splitlines(keepends=True):
            parts = line.split("|")
            if len(parts) == 3:
                ends = [_node(nodes, p, text, offset, source) for p in (parts[0], parts[2])]
                triples.append(Triple(subject=ends[0], relation=parts[1].strip(), object=ends[1]))
            offset += len(line)
        return KnowledgeGraph(nodes=tuple(nodes.values()), triples=tuple(triples), texts=(text,))


def _node(nodes: dict[str, Node], part: str, text: str, offset: int, source: int) -> Node:
    word = part.strip()
    start = text.index(word, offset) if word else offset
    nid = f"{source}:{start}"
    if nid not in nodes:
        nodes[nid] = Node(id=nid, text=word, label=word.lower(), kind="NOUN",
                          span=Span(start=start, end=start + len(word), source=source))
    return nodes[nid]


class ScriptedReprompt:
    """A stand-in for an LLM in refinement: returns ``answers`` in turn, then the last again.

    Parameters
    ----------
    answers : sequence of str
        The answers to return, one per call (at least one).

    Attributes
    ----------
    prompts : list
        What each call was given (messages or a prompt string).

    Raises
    ------
    InvalidInputError
        ``answers`` is empty.
    """

    def __init__(self, answers: Sequence[str]) -> None:
        if not answers:
            raise InvalidInputError("ScriptedReprompt needs at least one answer")
        self.answers = list(answers)
        self.prompts: list[Any] = []

    def __call__(self, prompt: Any) -> str:
        """Record ``prompt`` and return the next scripted answer."""
        self.prompts.append(prompt)
        return self.answers[min(len(self.prompts), len(self.answers)) - 1]
