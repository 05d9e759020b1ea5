"""The knowledge-base switch: ``Guard(kb=...)``.

A guard given a knowledge base (a Turtle / N-Triples / N-Quads / TriG file, an http(s)
SPARQL endpoint URL, or a :class:`~guardrail.kb.KnowledgeBase`) checks every answer
against the KB's facts about the entities the answer and the question name:

1. the answer's (and question's) entities are linked to the KB and their one- and
   two-hop facts fetched (:func:`~guardrail.kb.kb_context`);
2. the facts become the context graph, merged after the retrieved passages when there
   are any (contexts are optional: ``guard.check(answer)`` checks against the KB alone);
3. the guard's config runs with the ``kb_facts`` detector added as a veto
   (:func:`kb_config`);
4. each flagged node that a KB fact contradicts carries that fact's
   ``(subject, predicate, object)`` IRIs (:attr:`~guardrail.types.FlaggedNode.kb_fact`),
   named in its reason, the explanation and the log record.

A bad ``kb`` argument raises :class:`~guardrail.errors.InvalidInputError`; a KB that fails
while answering raises :class:`~guardrail.errors.KnowledgeBaseError` carrying the answer
(``exc.answer``), so a caller never loses it.
"""

from __future__ import annotations

import time
import urllib.parse
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from guardrail.config import GuardConfig, load_config
from guardrail.errors import InvalidInputError, KnowledgeBaseError
from guardrail.kb.base import KnowledgeBase
from guardrail.kb.context import KBContext, kb_context, linking_extractor
from guardrail.kb.profile import RDFS, WIKIDATA, VocabularyProfile
from guardrail.types import FlaggedNode, GuardResult

if TYPE_CHECKING:  # pragma: no cover
    from guardrail.guard import Guard

__all__ = ["attach_kb", "KBLike", "KB_SUFFIXES", "PROFILES", "KBSwitch", "open_kb", "resolve_profile", "kb_config",
           "with_kb_detector", "annotate", "show_triple"]

#: What ``Guard(kb=...)`` accepts: a path to an RDF file, an http(s) endpoint URL, or a KB.
KBLike = Union[str, Path, KnowledgeBase]
#: RDF file suffixes the embedded store reads.
KB_SUFFIXES = (".ttl", ".nt", ".nq", ".trig")
#: Vocabulary profiles by name (``--kb-profile``).
PROFILES: dict[str, VocabularyProfile] = {"rdfs": RDFS, "wikidata": WIKIDATA}
#: Veto limit and node weight of ``kb_facts`` in the KB config.
KB_VETO, KB_WEIGHT = 0.5, 2.0


def _is_url(value: str) -> bool:
    return "://" in value[:16]


def open_kb(kb: object) -> KnowledgeBase:
    """The knowledge base named by ``kb``.

    Parameters
    ----------
    kb : str, Path or KnowledgeBase
        A path to a ``.ttl`` / ``.nt`` / ``.nq`` / ``.trig`` file (loaded into the
        embedded pyoxigraph store), an ``http://`` or ``https://`` SPARQL endpoint URL
        (:class:`~guardrail.kb.SparqlEndpointKB`), or a knowledge base object.

    Returns
    -------
    KnowledgeBase

    Raises
    ------
    InvalidInputError
        Another type, an empty string, a URL of another scheme, a missing file, or a file
        whose suffix names no RDF format.
    KnowledgeBaseError
        The file is not valid RDF.
    """
    if isinstance(kb, KnowledgeBase):
        return kb
    if not isinstance(kb, (str, Path)):
        raise InvalidInputError(f"kb must be a path to an RDF file, an http(s) SPARQL endpoint URL or a "
                                f"KnowledgeBase, got {type(kb).__name__}")
    text = str(kb).strip()
    if not text:
        raise InvalidInputError("kb must not be empty")
    if isinstance(kb, str) and _is_url(text):
        scheme = urllib.parse.urlsplit(text).scheme.lower()
        if scheme not in ("http", "https"):
            raise InvalidInputError(f"kb URL must be http or https (a SPARQL endpoint), got {scheme!r}")
        from guardrail.kb.endpoint import SparqlEndpointKB

        return SparqlEndpointKB(text)
    path = Path(text)
    if path.suffix.lower() not in KB_SUFFIXES:
        raise InvalidInputError(f"kb file {text!r} must end in one of {', '.join(KB_SUFFIXES)} "
                                "(Turtle, N-Triples, N-Quads, TriG)")
    if not path.is_file():
        raise InvalidInputError(f"kb file not found: {text!r}")
    from guardrail.kb.oxigraph import OxigraphKB

    return OxigraphKB(path)


def resolve_profile(profile: object, kb: object = None) -> VocabularyProfile:
    """The vocabulary profile named by ``profile``.

    Parameters
    ----------
    profile : {"rdfs", "wikidata"}, VocabularyProfile or None
        ``None`` picks :data:`~guardrail.kb.WIKIDATA` for an endpoint URL on
        ``wikidata.org``, else :data:`~guardrail.kb.RDFS`.
    kb : object
        The ``kb`` argument (only read when ``profile`` is None).

    Raises
    ------
    InvalidInputError
        An unknown name or another type.
    """
    if isinstance(profile, VocabularyProfile):
        return profile
    if profile is None:
        url = getattr(kb, "url", kb)
        return WIKIDATA if isinstance(url, str) and "wikidata.org" in url else RDFS
    if isinstance(profile, str) and profile.lower() in PROFILES:
        return PROFILES[profile.lower()]
    raise InvalidInputError(f"kb_profile must be one of {sorted(PROFILES)} or a VocabularyProfile, got {profile!r}")


def kb_config(cfg: GuardConfig) -> GuardConfig:
    """``cfg`` with the ``kb_facts`` detector as a veto: what a guard with a KB checks with.

    ``kb_facts`` vetoes at 0.5 (an answer triple whose subject and relation the KB states
    with another object is flagged), node supports of all detectors are averaged
    (``node_source=None``; ``kb_facts`` weighs 2, or just more than the heaviest other
    detector, whose evidence it then overrides), so the contradicted object is flagged
    with the KB fact as its evidence.
    A config that already vetoes with ``kb_facts`` is returned as it is; one that runs it as a
    plain detector (``Guard(detectors=[...], kb=...)`` fits it so) gets the veto.

    The ``kg_literals`` veto is dropped: a KB holds a few facts per entity, so an answer's figure it
    does not list is no sign of an error (the veto reads a figure stated nowhere in the context as one).

    The graph signals (``relation``, ``wl_kernel``) stay, with the KB alone too: on the KB dev
    set (``benchmarks/kb_dev.py``, never the KB benchmark's answers) dropping them, or
    judging by the verifier alone at its claim threshold, caught far fewer swapped facts
    said in other words (balanced accuracy 60.0 % and 63.3 % against 71.3 %), and facts
    linearised with readable predicate phrases ("was founded in") instead of lemma labels
    scored the same (71.3 %).
    """
    if "kb_facts" in cfg.veto:
        return cfg
    data = cfg.model_dump()
    # kb_facts outweighs every other detector (if only just), so a node it contradicts keeps its KB fact as evidence
    weight = max([KB_WEIGHT, *(abs(w) + 1e-3 for w in cfg.weights.values())])
    veto = {k: v for k, v in cfg.veto.items() if k != "kg_literals"}  # a KB lists a few facts: other figures are no sign
    data.update(name=f"{cfg.name}+kb", veto={**veto, "kb_facts": KB_VETO}, node_source=None,
                weights={**cfg.weights, "kb_facts": weight})
    return load_config(data)


def with_kb_detector(detectors: list[Any]) -> list[Any]:
    """``detectors`` plus a :class:`~guardrail.detectors.kb_facts.KBFactsDetector` unless one is there."""
    if any(getattr(d, "name", "") == "kb_facts" for d in detectors):
        return detectors
    from guardrail.detectors.kb_facts import KBFactsDetector

    return [*detectors, KBFactsDetector()]


@dataclass(frozen=True)
class KBSwitch:
    """A guard's knowledge base and how facts are fetched from it.

    Parameters
    ----------
    kb : KnowledgeBase
        The backend.
    profile : VocabularyProfile
        Its vocabulary (labels, aliases).
    hops : {1, 2}
        Fact neighbourhood of a linked entity (default 2).
    max_facts : int
        Most facts fetched per answer (default 200).
    """

    kb: KnowledgeBase
    profile: VocabularyProfile = RDFS
    hops: int = 2
    max_facts: int = 200

    @classmethod
    def create(cls, kb: object, profile: object = None) -> KBSwitch | None:
        """The switch for ``Guard(kb=kb, kb_profile=profile)`` (None when ``kb`` is None).

        Raises
        ------
        InvalidInputError
            A bad ``kb`` or ``profile`` (see :func:`open_kb`, :func:`resolve_profile`).
        KnowledgeBaseError
            A file that is not valid RDF.
        """
        if kb is None:
            if profile is not None:
                resolve_profile(profile)
            return None
        return cls(open_kb(kb), resolve_profile(profile, kb))

    # ------------------------------------------------------------------ check
    def context(self, guard: Guard, answer: str, question: str | None) -> KBContext:
        """Link the entities of ``answer`` and ``question`` and fetch their facts.

        Mentions come from spaCy (:func:`~guardrail.kb.context.linking_extractor`): the
        guard's extractor when it is spaCy, never an LLM one (``extractor: "llm"``).

        Raises
        ------
        KnowledgeBaseError
            The KB failed; ``exc.answer`` holds ``answer``.
        """
        try:
            return kb_context(self.kb, answer, question, hops=self.hops, max_facts=self.max_facts,
                              profile=self.profile, extractor=linking_extractor(guard.extractor))
        except KnowledgeBaseError as exc:
            raise KnowledgeBaseError(str(exc), answer=answer) from exc

    def check(self, guard: Guard, answer: str, contexts: Any, question: str | None, *,
              id: str | None, log: bool) -> GuardResult:
        """:meth:`Guard.check` with this KB: facts merged after ``contexts`` (optional).

        An answer that declines as a whole (``GuardResult.declined``) states no fact: it is
        judged without asking the KB, so a KB that is down does not fail it.

        Raises
        ------
        InvalidInputError
            A field of the wrong type (before the KB is asked).
        KnowledgeBaseError
            The KB failed; ``exc.answer`` holds ``answer``.
        """
        from guardrail.extract.given import linearise, split_context_input
        from guardrail.text.declines import is_declined
        from guardrail.validate import check_fields, size_reason, validate_input

        cfg = kb_config(guard.config)
        given = [] if contexts is None else contexts
        check_fields(answer, question, id)
        limits = guard.config.size_limits
        if size_reason(answer, given, **limits):  # abstains before any KB work
            return guard._check(answer, given, question, id=id, log=log, cfg=cfg)
        texts, graph = split_context_input(given)
        v = validate_input(answer, texts, question, **limits)  # raises on wrong types
        if v.answer and is_declined(v.answer):  # states no fact: the KB is not asked (nor can it fail)
            return guard._check(answer, given, question, id=id, log=log, cfg=cfg)
        t0 = time.perf_counter()
        ctx = self.context(guard, answer, question)
        if graph is not None:  # a given graph: its texts (or linearised triples) come first
            gtexts = tuple(graph.texts) or tuple(linearise(graph))
            ctx = replace(ctx, passages=gtexts, passage_graph=graph.model_copy(update={"texts": gtexts}))
        elif v.contexts:
            ctx = ctx.with_passages(list(v.contexts), guard)
        kb_ms = (time.perf_counter() - t0) * 1000.0
        merged = ctx.graph
        result = guard._check(answer, merged if not merged.is_empty else [], question, id=id, log=False, cfg=cfg)
        result = annotate(result, ctx, kb_ms, self.kb.name)
        return guard._finish(result, list(merged.texts), log)


def show_triple(iris: tuple[str, str, str]) -> str:
    """``<s> <p> <o>`` (N-Triples style; a literal object is already in N-Triples form)."""
    s, p, o = iris
    return f"<{s}> <{p}> {o if o.startswith(chr(34)) else f'<{o}>'}"


def annotate(result: GuardResult, ctx: KBContext, kb_ms: float, kb_name: str = "kb") -> GuardResult:
    """``result`` with the KB triple behind each flagged node, and the KB step's time.

    Each flagged node whose evidence is a KB fact gets :attr:`~FlaggedNode.kb_fact` (the
    fact's subject, predicate and object IRIs) and a reason naming it; the explanation's
    sentences follow the reasons, its summary names the first triple. An abstention for an
    empty context says that the KB knows none of the answer's entities.
    """
    timings = {**result.timings, "kb": kb_ms}
    update: dict[str, Any] = {"timings": timings, "total_ms": result.total_ms + kb_ms}
    if result.abstained and ctx.is_empty:
        linked = ", ".join(e.label for e in ctx.entities) or "none"
        update["abstain_reason"] = (f"no fact in the knowledge base ({kb_name}) about the answer's "
                                    f"entities (linked: {linked}) and no retrieved text")
        return result.model_copy(update=update)
    by_node = {e.node.node_id: e.fact for e in ctx.evidence(result)}
    if not by_node:
        return result.model_copy(update=update)
    nodes: list[FlaggedNode] = []
    for n in result.flagged_nodes:
        fact = by_node.get(n.node_id)
        if fact is None:
            nodes.append(n)
            continue
        said = f"the knowledge base states {show_triple(fact.iris)}"
        reason = f"{n.reason.rstrip('. ')}; {said}." if n.reason else f"{n.text!r}: {said}."
        nodes.append(n.model_copy(update={"kb_fact": fact.iris, "reason": reason}))
    ex = result.explanation
    old = tuple(n.reason for n in result.flagged_nodes)
    sentences = tuple(n.reason for n in nodes) if ex.sentences == old else ex.sentences
    first = next(n.kb_fact for n in nodes if n.kb_fact is not None)
    summary = (ex.summary.rstrip() + " " if ex.summary else "") + (
        f"Contradicted by the knowledge base: {show_triple(first)}.")
    update.update(flagged_nodes=tuple(nodes),
                  explanation=ex.model_copy(update={"sentences": sentences, "summary": summary}))
    return result.model_copy(update=update)


def attach_kb(guard: Any, kb: Any, profile: Any = None) -> Any:
    """``guard`` checking against the knowledge base ``kb`` (``guard.with_kb``); ``guard`` itself
    when ``kb`` is None. The one helper behind the adapters' ``kb=`` arguments.

    Raises
    ------
    InvalidInputError
        A bad ``kb``, or a guard object that cannot take one (no ``with_kb``).
    """
    if kb is None:
        return guard
    if not callable(getattr(guard, "with_kb", None)):
        raise InvalidInputError(f"kb= needs a guardrail.Guard (with_kb), got {type(guard).__name__}")
    return guard.with_kb(kb, profile)
