"""Check answers against a small knowledge base (runs offline).

The KB, ``examples/data/kb/ardwyn.ttl``, is loaded into the embedded pyoxigraph store
(``pip install 'kg-guardrail[kb]'``). For each answer, ``kb_context`` links its entities
to the KB and fetches their one- and two-hop facts; the facts are the context graph the
guard checks the answer against. A guard with the ``kb_facts`` detector as a veto flags
an answer whose subject and relation are in the KB with another object, and
``ctx.evidence(result)`` names the KB triple behind each flagged node.

Any SPARQL 1.1 endpoint works the same way:
``SparqlEndpointKB("http://127.0.0.1:8890/sparql")`` (Virtuoso, Fuseki, GraphDB), or
``SparqlEndpointKB("https://query.wikidata.org/sparql")`` with ``profile=WIKIDATA``.
"""

from pathlib import Path

from guardrail import Guard
from guardrail.config import shipped_configs
from guardrail.detectors.kb_facts import KBFactsDetector
from guardrail.detectors.verifier import VerifierDetector
from guardrail.kb import OxigraphKB, kb_context

KB = Path(__file__).resolve().parent / "data" / "kb" / "ardwyn.ttl"

cfg = shipped_configs()["default"]
cfg = cfg.model_copy(update={"name": "default+kb_facts", "veto": {"kb_facts": 0.5}, "node_source": None,
                             "weights": {**cfg.weights, "kb_facts": 2.0}})
guard = Guard(cfg, detectors=[VerifierDetector(**cfg.detector_params["verifier"]), KBFactsDetector()])
kb = OxigraphKB(KB)

question = "Where was Odile Varnay born, and when was Ardwyn Optics founded?"
for answer in [
    "Odile Varnay was born in Trois-Rivières. Ardwyn Optics was founded in 1989.",
    "Odile Varnay was born in Sherbrooke. Ardwyn Optics was founded in 1989.",
]:
    ctx = kb_context(kb, answer, question)
    result = guard.check(answer, ctx.graph, question)
    print(f"\n{answer}\n  passed={result.passed} score={result.score:.2f} "
          f"(linked {[e.label for e in ctx.entities]}, {len(ctx.facts)} facts, {ctx.queries} queries)")
    for ev in ctx.evidence(result):
        s, p, o = ev.fact.iris
        obj = o if o.startswith('"') else f"<{o}>"
        print(f"  flagged {ev.node.text!r}; the KB says: <{s}> <{p}> {obj}")
