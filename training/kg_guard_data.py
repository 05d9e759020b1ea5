"""Examples with node labels (and answer labels) for the KG-Guard classifier; seeded.

Shared by ``training/train_kg_guard.py`` (``split="tune"``) and
``benchmarks/kg_guard.py`` (``split="val"``), so training and the held-back evaluation
are built the same way from disjoint HaluEval records (``benchmarks.devdata.dev_split``).

Kinds of examples (each a dict: ``answer``, ``context`` (list of passages) or
``triples``, ``question``, ``bad`` (character spans of the corrupted text in the answer,
``[]`` for a faithful answer, ``None`` when only the answer label is known), ``label``,
``kind``, ``group``):

* ``sent_swap`` / ``sent_number`` / ``sent_clean``: a sentence of a HaluEval QA
  knowledge passage, with one named entity swapped for another entity of the same
  type (from the passage when it has one), or one number changed, or unchanged.
* ``qa_swap`` / ``qa_clean``: a HaluEval QA right answer with one entity swapped.
* ``path_swap`` / ``path_clean``: a hop of a HaluEval dialogue KG path (context given
  as triples) with its object swapped for another node of the path graph.
* ``halueval_qa`` / ``halueval_dialogue``: HaluEval answers with answer-level labels
  only (dialogue contexts given as triples from :func:`training.kg_guard_paths.parse_kg_paths`).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.devdata import load_dev  # noqa: E402
from guardrail.text.sentences import split_sentences  # noqa: E402
from training.kg_guard_paths import parse_kg_paths  # noqa: E402

__all__ = ["SWAP_LABELS", "NUM_LABELS", "node_examples", "answer_examples", "diff_span", "alignment_input", "featurize"]

SWAP_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "EVENT", "WORK_OF_ART", "PRODUCT", "LANGUAGE"})
NUM_LABELS = frozenset({"CARDINAL", "DATE", "MONEY", "PERCENT", "QUANTITY", "TIME", "ORDINAL"})


def diff_span(old: str, new: str) -> tuple[int, int]:
    """The span of ``new`` that differs from ``old`` (common prefix and suffix removed)."""
    p = 0
    while p < min(len(old), len(new)) and old[p] == new[p]:
        p += 1
    q = 0
    while q < min(len(old), len(new)) - p and old[-1 - q] == new[-1 - q]:
        q += 1
    return p, max(p + 1, len(new) - q)


def _change_number(text: str, s: int, e: int, rng: random.Random) -> str | None:
    import re

    ms = [m for m in re.finditer(r"\d+", text[s:e])]
    if not ms:
        return None
    m = rng.choice(ms)
    v = int(m.group(0))
    if 1000 <= v <= 2030:
        new = v + rng.choice([-7, -3, -2, -1, 1, 2, 4, 10])
    elif v < 10:
        new = v + rng.choice([1, 2, 3])
    else:
        new = max(1, int(v * rng.choice([0.5, 0.7, 1.5, 2, 3])))
    new = new if new != v else v + 1
    a, b = s + m.start(), s + m.end()
    return text[:a] + str(new) + text[b:]


def _swap(text: str, ents: list[Any], pool: dict[str, list[str]], gpool: dict[str, list[str]],
          rng: random.Random, offset: int = 0) -> tuple[str, str] | None:
    """(corrupted text, kind) with one entity swapped or one number changed, or None."""
    opts = [e for e in ents if e.label_ in SWAP_LABELS] + [e for e in ents if e.label_ in NUM_LABELS]
    rng.shuffle(opts)
    low = text.lower()
    for e in opts:
        s, t = e.start_char - offset, e.end_char - offset
        if e.label_ in NUM_LABELS:
            new = _change_number(text, s, t, rng)
            if new:
                return new, "number"
            continue
        cands = sorted({c for c in pool.get(e.label_, []) if c.lower() not in low})
        if not cands:
            cands = sorted({c for c in gpool.get(e.label_, [])[-200:] if c.lower() not in low})
        if cands:
            return text[:s] + rng.choice(cands) + text[t:], "swap"
    return None


def node_examples(split: str, n: int, nlp: Any, seed: int = 0) -> list[dict[str, Any]]:
    """About ``n`` examples with node labels from the ``split`` part of the dev data.

    Parameters
    ----------
    split : {"tune", "val"}
        Which records to read (train on "tune" only).
    n : int
        Target number of examples (about 45 % sentences, 30 % QA answers, 25 % KG paths).
    nlp : spacy.Language
        Parses sentences and answers for entities.
    seed : int
        Seeds the sampling and the corruptions.
    """
    rng = random.Random(seed)
    gpool: dict[str, list[str]] = {}
    out: list[dict[str, Any]] = []
    qa = load_dev("halueval_qa", split=split)
    rights = [it for it in qa if it["label"] == 0]
    rng.shuffle(rights)
    n_sent, n_qa = int(0.45 * n), int(0.3 * n)
    docs = list(nlp.pipe([it["context"] for it in rights[: n_sent + n_qa]], batch_size=64))
    for k, (it, doc) in enumerate(zip(rights, docs)):
        pool: dict[str, list[str]] = {}
        for e in doc.ents:
            pool.setdefault(e.label_, []).append(e.text)
            gpool.setdefault(e.label_, []).append(e.text)
        q = it["question"] if rng.random() < 0.5 else None
        base = {"context": [it["context"]], "group": it["group"]}
        if k < n_sent:
            sents = [doc.char_span(s, e, alignment_mode="expand") for s, e in split_sentences(it["context"])]
            sents = [s for s in sents if s is not None and 6 <= len(s) <= 45]
            if not sents:
                continue
            sent = rng.choice(sents)
            res = _swap(sent.text, list(sent.ents), pool, gpool, rng, offset=sent.start_char)
            if res and rng.random() < 0.6:
                out.append({**base, "answer": res[0], "question": q, "bad": [diff_span(sent.text, res[0])],
                            "label": 1, "kind": f"sent_{res[1]}"})
            else:
                out.append({**base, "answer": sent.text, "question": q, "bad": [], "label": 0, "kind": "sent_clean"})
        else:
            ans = it["answer"]
            ents = [e for e in doc.ents if e.text.lower() in ans.lower()]
            adoc = nlp(ans)
            res = _swap(ans, list(adoc.ents), pool, gpool, rng) if adoc.ents else None
            if res is None and ents:
                e = rng.choice(ents)
                cands = sorted({c for c in pool.get(e.label_, []) if c.lower() not in ans.lower()})
                if cands:
                    i = ans.lower().index(e.text.lower())
                    res = (ans[:i] + rng.choice(cands) + ans[i + len(e.text):], "swap")
            if res and rng.random() < 0.6:
                out.append({**base, "answer": res[0], "question": it["question"], "bad": [diff_span(ans, res[0])],
                            "label": 1, "kind": f"qa_{res[1]}"})
            else:
                out.append({**base, "answer": ans, "question": it["question"], "bad": [], "label": 0,
                            "kind": "qa_clean"})
    dia = [it for it in load_dev("halueval_dialogue", split=split) if it["label"] == 0]
    rng.shuffle(dia)
    for it in dia[: n - len(out)]:
        triples = parse_kg_paths(it["context"])
        if not triples:
            continue
        s, r, o = rng.choice(triples)
        others = sorted({x for t in triples for x in (t[0], t[2])} - {s, o})
        ans = f"{s} {r} {o}."
        base = {"triples": triples, "group": it["group"], "question": it["question"] if rng.random() < 0.5 else None}
        if others and rng.random() < 0.6:
            wrong = f"{s} {r} {rng.choice(others)}."
            out.append({**base, "answer": wrong, "bad": [diff_span(ans, wrong)], "label": 1, "kind": "path_swap"})
        else:
            out.append({**base, "answer": ans, "bad": [], "label": 0, "kind": "path_clean"})
    return out


def answer_examples(split: str, n_per_task: int, seed: int = 0) -> list[dict[str, Any]]:
    """HaluEval QA and dialogue items with answer labels only (``bad=None``); dialogue
    knowledge given as triples."""
    out: list[dict[str, Any]] = []
    for task in ("qa", "dialogue"):
        for it in load_dev(f"halueval_{task}", limit=n_per_task, seed=seed, split=split):
            ex = {"answer": it["answer"], "question": it["question"], "bad": None, "label": it["label"],
                  "kind": f"halueval_{task}", "group": it["group"]}
            if task == "dialogue":
                triples = parse_kg_paths(it["context"])
                if not triples:
                    continue
                ex["triples"] = triples
            else:
                ex["context"] = [it["context"]]
            out.append(ex)
    return out


def alignment_input(ex: dict[str, Any], guard: Any, claim: Any = None) -> Any:
    """The :class:`~guardrail.detectors.AlignmentInput` the guard would build for ``ex``."""
    from guardrail.detectors import AlignmentInput
    from guardrail.extract.given import split_context_input

    claim = claim if claim is not None else guard.extractor.extract(ex["answer"], source=-1)
    if "triples" in ex:
        texts, graph = split_context_input([tuple(t) for t in ex["triples"]])
        return AlignmentInput(ex["answer"], tuple(texts), ex.get("question"), claim, graph, guard.encoder)
    ctx = guard.context_graph(ex["context"])
    return AlignmentInput(ex["answer"], tuple(ex["context"]), ex.get("question"), claim, ctx, guard.encoder)


def featurize(examples: list[dict[str, Any]], guard: Any, *, verifier: Any = None,
              cfg: dict[str, Any] | None = None) -> list[tuple[Any, Any, int, dict[str, Any]]]:
    """``(AugmentedGraph, node labels (A,) or None, answer label, example)`` per usable example.

    Corrupted examples whose changed span covers no answer node, and answers with no
    node, are dropped. ``verifier`` (a VerifierDetector) adds the verifier features.
    """
    import numpy as np

    from guardrail.align.claims import last_turn
    from guardrail.detectors.kg_guard import verifier_node_features
    from guardrail.detectors.kg_guard_graph import answer_nodes, build_augmented_graph

    cfg = cfg or {"align_k": 3, "max_context_nodes": 64, "max_answer_nodes": 32}
    # batch the expensive parts: one spaCy pass over answers and new passages, one encoder call
    claims = guard.extractor.extract_many([ex["answer"] for ex in examples], [-1] * len(examples))
    passages = list(dict.fromkeys(p for ex in examples for p in ex.get("context", [])))
    if passages:
        guard.context_graph(passages)
    items = [alignment_input(ex, guard, c) for ex, c in zip(examples, claims)]
    strings: list[str] = []
    for it in items:
        for g in (it.claim_graph, it.context_graph):
            strings += [n.label for n in g.nodes] + [t.text for t in g.triples] + [t.relation for t in g.triples]
        if it.question:
            strings.append(last_turn(it.question))
    guard.encoder.encode(list(dict.fromkeys(strings)))
    out = []
    for ex, item in zip(examples, items):
        nodes = answer_nodes(item.claim_graph, cfg["max_answer_nodes"])
        if not nodes or item.context_graph.is_empty:
            continue
        labels = None
        if ex["bad"] is not None:
            labels = np.array([float(any(n.span.start < e and s < n.span.end for s, e in ex["bad"]))
                               for n in nodes], dtype=np.float32)
            if ex["label"] == 1 and not labels.any():
                continue
        feats = verifier_node_features(item, verifier, cfg["max_answer_nodes"]) if verifier is not None else None
        g = build_augmented_graph(item.claim_graph, item.context_graph, item.encoder, question=item.question,
                                  contexts=item.contexts, verifier_features=feats, align_k=cfg["align_k"],
                                  max_context_nodes=cfg["max_context_nodes"],
                                  max_answer_nodes=cfg["max_answer_nodes"])
        out.append((g, labels, int(ex["label"]), ex))
    return out
