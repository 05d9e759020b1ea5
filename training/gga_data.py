"""Graph-context QA items for GGA (seed paper 003), answers by a local model, SQuAD labels.

Three sources, each item a question, a subgraph of at most 20 triples and gold answers:

* ``halueval_qa``: HaluEval QA knowledge turned into triples by the project's spaCy
  extractor; gold = ``right_answer``.
* ``halueval_dialogue``: HaluEval dialogue KG paths (``parse_kg_paths``); the question is
  the dialogue; gold = path entities the right response names and the dialogue does not.
* ``claims``: passages of the claims data (CC BY 4.0) turned into triples by the extractor;
  gold = the context's supported ``short_answer`` claims.

Subgraphs are pruned as in the paper's Appendix A: every shortest question-to-gold path
triple, then the others by connectivity (3 points for touching a path entity, 2 for a
question entity, 2 for a gold entity) up to 20, kept in extraction order.
Splits: HaluEval ``tune`` records and claims ``train`` contexts give train/val (80/20 by a
hash of the group), HaluEval ``val`` records and claims ``dev`` contexts give test.
"""

from __future__ import annotations

import collections
import hashlib
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.devdata import claims_split, load_claims, load_dev  # noqa: E402
from guardrail.models.gga_graph import MAX_TRIPLES, TripleT, normalize, prune, strip_ans  # noqa: E402
from training.kg_guard_paths import parse_kg_paths  # noqa: E402

__all__ = ["MAX_TRIPLES", "build_items", "squad_em", "squad_f1", "label",
           "extract_triples"]

#: Token-F1 at or above which an answer counts as truthful (with exact match).
F1_TRUTHFUL = 0.5


def squad_em(pred: str, gold: str) -> float:
    """SQuAD exact match after normalisation."""
    return float(normalize(pred) == normalize(gold))


def squad_f1(pred: str, gold: str) -> float:
    """SQuAD token F1 after normalisation."""
    p, g = normalize(pred).split(), normalize(gold).split()
    common = sum((collections.Counter(p) & collections.Counter(g)).values())
    if not p or not g or common == 0:
        return 0.0
    prec, rec = common / len(p), common / len(g)
    return 2 * prec * rec / (prec + rec)


def label(output: str, golds: list[str]) -> int:
    """1 (hallucinated) unless the ``ans:`` answer matches a gold by EM or F1 >= 0.5."""
    pred = strip_ans(output)
    ok = any(squad_em(pred, g) or squad_f1(pred, g) >= F1_TRUTHFUL for g in golds)
    return 0 if ok else 1


def extract_triples(nlp_extractor: Any, text: str) -> list[TripleT]:
    """Triples of ``text`` by the spaCy extractor, as (head text, relation, tail text)."""
    g = nlp_extractor.extract(text, source=0)
    return [(t.subject.text, t.relation, t.object.text) for t in g.triples]


def split_for(group: str, held_out: bool, seed: int = 0) -> str:
    """``"test"`` for held-out records, else ``"val"`` for a 20 % hash share, else ``"train"``.

    The hash is salted with ``"gga"`` so it is independent of ``dev_split``'s own hash
    (same seed and group), which decided which records are held out in the first place.
    """
    if held_out:
        return "test"
    h = int.from_bytes(hashlib.sha256(f"gga\x00{seed}\x00{group}".encode()).digest()[:8], "big")
    return "val" if h / 2.0**64 < 0.2 else "train"


def _qa(extractor: Any, n: int, seed: int) -> list[dict[str, Any]]:
    out = []
    for split, share in (("tune", 0.75), ("val", 0.25)):
        recs = [r for r in load_dev("halueval_qa", split=split, seed=0) if r["label"] == 0]
        random.Random(seed).shuffle(recs)
        for r in recs[:round(n * share)]:
            triples = extract_triples(extractor, r["context"])
            out.append({"id": r["group"], "source": "halueval_qa", "question": r["question"],
                        "golds": [r["answer"]], "triples": triples,
                        "split": split_for(r["group"], split == "val", seed)})
    return out


def _dialogue(n: int, seed: int) -> list[dict[str, Any]]:
    out = []
    for split, share in (("tune", 0.75), ("val", 0.25)):
        recs = [r for r in load_dev("halueval_dialogue", split=split, seed=0) if r["label"] == 0]
        random.Random(seed).shuffle(recs)
        kept = 0
        for r in recs:
            if kept >= round(n * share):
                break
            triples = parse_kg_paths(r["context"])
            ents = {x for t in triples for x in (t[0], t[2])}
            hist = normalize(r["question"])
            golds = sorted(e for e in ents if f" {normalize(e)} " in f" {normalize(r['answer'])} "
                           and f" {normalize(e)} " not in f" {hist} " and normalize(e))
            if not golds:
                continue
            question = (f"{r['question'].strip()}\nWhich entity from the triples should the "
                        "assistant's next reply mention?")
            out.append({"id": r["group"], "source": "halueval_dialogue", "question": question,
                        "golds": golds, "triples": triples,
                        "split": split_for(r["group"], split == "val", seed)})
            kept += 1
    return out


def _claims(extractor: Any, n: int, seed: int) -> list[dict[str, Any]]:
    ctxs = [c for c in load_claims("all") if not c["question"].startswith("[Human]")]
    random.Random(seed).shuffle(ctxs)
    out = []
    for c in ctxs:
        golds = [cl["text"].rstrip(".") for cl in c["claims"]
                 if cl["kind"] == "short_answer" and cl["label"] == 1]
        if not golds:
            continue
        triples = [t for p in c["passages"] for t in extract_triples(extractor, p)]
        out.append({"id": c["id"], "source": "claims", "question": c["question"],
                    "golds": golds, "triples": triples,
                    "split": split_for(c["id"], claims_split(c["id"]) == "dev", seed)})
        if len(out) >= n:
            break
    return out


def build_items(n_qa: int, n_dialogue: int, n_claims: int, seed: int = 0) -> list[dict[str, Any]]:
    """All items with pruned subgraphs, interleaved by a seeded shuffle.

    Returns
    -------
    list of dict
        ``id``, ``source``, ``question``, ``golds``, ``triples`` (pruned, as lists), ``split``.
    """
    from guardrail.extract.spacy_extractor import SpacyExtractor

    ex = SpacyExtractor()
    items = _qa(ex, n_qa, seed) + _dialogue(n_dialogue, seed) + _claims(ex, n_claims, seed)
    for it in items:
        it["triples"] = [list(t) for t in prune(it["triples"], it["question"], it["golds"])]
    items = [it for it in items if it["triples"]]
    random.Random(seed).shuffle(items)
    return items
