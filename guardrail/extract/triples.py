"""Triples from parsed text (dependency patterns) and from explicit strings.

:class:`DocGraphBuilder` turns one parsed spaCy ``Doc`` into nodes and triples
with the LLM-free patterns used by KEA Explain and HalluGraph (spaCy NER plus
dependency patterns). :func:`graph_from_triples` builds a graph from given
``(subject, relation, object)`` strings (LlamaIndex graph contexts, triple
stores), labelled the same way so the same detectors align both.

Rules of :class:`DocGraphBuilder`
---------------------------------
* **Nodes** are named entities (kind = entity label) and noun chunks (kind
  ``"NOUN"``). An entity wins over a noun chunk whose head token lies inside it
  (``"the Nobel Prize"``). A chunk whose head is *not* in an entity is kept next
  to the entities it contains (``"an American literary periodical"`` beside NORP
  ``"American"``); its non-entity tokens map to the chunk. A possessor is cut off
  its chunk and becomes its own node, so ``"Apple's CEO"`` gives ``Apple`` and
  ``CEO``. A subject/object token covered by no node gets one on demand
  (compound modifiers + the token; kind ``"NOUN"``, ``"ADJ"`` or ``"NUM"``).
  Ids are ``f"{source}:{start}"`` (``f"{source}:{start}-{end}"`` on a clash).
* **Patterns** (``Triple.pattern``): ``svo`` subject-verb-object (relation = verb
  lemma + particle; passive ``"be founded by"`` for agents; ``"not "`` prefix when
  negated); ``prep`` verb/noun-preposition-object (``"found in"``, ``"of"``,
  ``"be famous for"``); ``copula`` X be Y (attr/acomp, relation ``"be"`` or
  ``"not be"``); ``appos`` (X, be, Y); ``poss`` (X, have, Y). Subjects and objects
  spread over ``conj``; verbs in ``conj``/``xcomp``/``advcl`` without a subject
  inherit their head's, participles (``acl``) take the noun they modify.
  Each triple's span is its sentence.
* **Pronouns**: he/she/him/her/his/hers -> the last preceding PERSON entity;
  it/its -> the last preceding node that is neither a PERSON nor a number-like
  entity (DATE, CARDINAL, MONEY, ...); they/them/their -> the last preceding
  plural noun chunk or ORG/NORP/GPE entity. Relative pronouns (who/which/that)
  stand for the noun their clause modifies. Pronouns are never nodes; triples
  whose pronoun has no antecedent (or when resolution is off) are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from guardrail.extract.normalize import normalize_label
from guardrail.text.lexicon import NEUTER_PRONOUNS, PERSONAL_PRONOUNS, PLURAL_PRONOUNS, RELATIVE_PRONOUNS
from guardrail.types import Node, Span, Triple

__all__ = ["DocGraphBuilder"]

_ANAPHORS = PERSONAL_PRONOUNS | NEUTER_PRONOUNS | PLURAL_PRONOUNS
_SUBJ = frozenset({"nsubj", "nsubjpass"})
_OBJ = frozenset({"dobj", "attr", "dative", "oprd"})
_NUMERIC = frozenset("DATE TIME CARDINAL ORDINAL PERCENT MONEY QUANTITY".split())
_GROUP = frozenset({"ORG", "NORP", "GPE"})
_NOMINAL = frozenset({"NOUN", "PROPN", "NUM"})
_ARG_POS = frozenset({"NOUN", "PROPN", "NUM", "ADJ"})
_INHERIT = frozenset({"conj", "xcomp", "advcl"})


def _conjuncts(tok: Any) -> list[Any]:
    """Return ``tok`` followed by its ``conj`` descendants (A, B and C)."""
    out = [tok]
    for child in tok.children:
        if child.dep_ == "conj":
            out.extend(_conjuncts(child))
    return out


@dataclass
class _Rec:
    """A node plus the doc-relative token range it covers."""

    node: Node
    first: int
    last: int
    plural: bool = False


class DocGraphBuilder:
    """Nodes and triples of one parsed spaCy ``Doc`` by dependency patterns.

    The rules (node overlaps, patterns, pronouns) are described in the module
    docstring. The builder works on a parsed ``Doc`` only and never imports spaCy.

    Parameters
    ----------
    doc : spacy.tokens.Doc
        A document parsed by a pipeline with tagger, parser, lemmatizer and NER.
    offset : int
        Character offset of ``doc`` inside the full text (``>= 0``; non-zero for
        the later chunks of a long text); added to every span.
    source : int
        Source index written into spans and node-id prefixes.
    resolve_pronouns : bool
        Map pronouns to antecedent nodes (True) or drop triples that use them.
    used_ids : set of str, optional
        Node ids already taken (shared across the chunks of one text); updated.

    Attributes
    ----------
    nodes : list of Node
        Entity and noun-chunk nodes plus nodes made for triple arguments.
    triples : list of Triple
        Extracted triples in sentence order, without duplicates or self-loops.
    """

    def __init__(
        self,
        doc: Any,
        *,
        offset: int = 0,
        source: int = -1,
        resolve_pronouns: bool = True,
        used_ids: set[str] | None = None,
    ) -> None:
        used = used_ids if used_ids is not None else set()
        self.doc, self.offset, self.source, self.used = doc, offset, source, used
        self.text: str = doc.text  # Doc.text re-joins all tokens on every access
        self.recs: list[_Rec] = []
        self.tok_rec: dict[int, _Rec] = {}
        self.extra: dict[int, _Rec] = {}
        self._triples: dict[tuple[str, str, str, str], Triple] = {}
        self._base_nodes()
        self.pron = self._resolve_pronouns() if resolve_pronouns else {}
        self._all_triples()
        self.triples: list[Triple] = list(self._triples.values())
        self.nodes: list[Node] = [r.node for r in self._all_recs()]

    # -- nodes -------------------------------------------------------------
    def _new(self, first: int, last: int, kind: str, plural: bool = False) -> _Rec:
        """Create a node for doc tokens ``[first, last)`` with a unique id."""
        doc = self.doc
        s_char = doc[first].idx
        e_char = doc[last - 1].idx + len(doc[last - 1].text)
        s, e = s_char + self.offset, e_char + self.offset
        nid = f"{self.source}:{s}"
        if nid in self.used:
            nid = f"{self.source}:{s}-{e}"
        self.used.add(nid)
        text = self.text[s_char:e_char]
        node = Node(
            id=nid, text=text, label=normalize_label(text), kind=kind,
            span=Span(start=s, end=e, source=self.source),
        )
        return _Rec(node, first, last, plural)

    def _base_nodes(self) -> None:
        """Add entity nodes, then noun-chunk nodes that do not duplicate an entity."""
        for ent in self.doc.ents:
            if not ent.text.strip():
                continue
            rec = self._new(ent.start, ent.end, ent.label_)
            self.recs.append(rec)
            for i in range(ent.start, ent.end):
                self.tok_rec[i] = rec
        in_ent = dict(self.tok_rec)
        for chunk in self.doc.noun_chunks:
            root = chunk.root
            if root.pos_ == "PRON" or root.i in in_ent:
                continue
            start = chunk.start
            for child in root.children:
                if child.dep_ == "poss" and chunk.start <= child.i < root.i:
                    self._possessor(child, in_ent)
                    start = max(start, child.right_edge.i + 1)
            if start < chunk.end:
                self._add_span(start, chunk.end, "NOUN", root.tag_ in ("NNS", "NNPS"), in_ent)

    def _possessor(self, poss: Any, in_ent: dict[int, _Rec]) -> None:
        """Make the possessor of a chunk (``The Oberoi family`` in ``...'s hotel``) a node."""
        if poss.pos_ in ("NOUN", "PROPN") and poss.i not in in_ent:
            self._add_span(poss.left_edge.i, poss.i + 1, "NOUN", poss.tag_ == "NNS", in_ent)

    def _add_span(
        self, first: int, last: int, kind: str, plural: bool, in_ent: dict[int, _Rec]
    ) -> None:
        """Add a chunk node; its tokens that are not in an entity map to it."""
        while first < last and self.doc[first].is_punct:
            first += 1
        if first >= last or any(i in self.tok_rec and i not in in_ent
                                for i in range(first, last)):
            return
        rec = self._new(first, last, kind, plural)
        self.recs.append(rec)
        for i in range(first, last):
            if i not in in_ent:
                self.tok_rec[i] = rec

    def _resolve_pronouns(self) -> dict[int, _Rec]:
        """Map pronoun token indices to antecedent nodes (see the module docstring)."""
        recs = sorted(self.recs, key=lambda r: (r.last, r.first))
        last: dict[str, _Rec] = {}
        out: dict[int, _Rec] = {}
        j = 0
        for tok in self.doc:
            low = tok.lower_
            if tok.pos_ != "PRON" or low not in _ANAPHORS:
                continue
            while j < len(recs) and recs[j].last <= tok.i:
                kind = recs[j].node.kind
                if kind == "PERSON":
                    last["p"] = recs[j]
                elif kind not in _NUMERIC:
                    last["n"] = recs[j]
                if recs[j].plural or kind in _GROUP:
                    last["g"] = recs[j]
                j += 1
            key = "p" if low in PERSONAL_PRONOUNS else "n" if low in NEUTER_PRONOUNS else "g"
            if key in last:
                out[tok.i] = last[key]
        return out

    def _node_for(self, tok: Any) -> Node | None:
        """The node a subject/object token stands for, or None (unresolved pronoun)."""
        low = tok.lower_
        if tok.pos_ == "PRON" and low in _ANAPHORS:
            rec = self.pron.get(tok.i)
            return rec.node if rec else None
        if low in RELATIVE_PRONOUNS and tok.head.dep_ in ("relcl", "acl") and tok.head.head.i != tok.i:
            return self._node_for(tok.head.head) if tok.dep_ != "poss" else None
        rec = self.tok_rec.get(tok.i) or self.extra.get(tok.i)
        if rec is not None:
            return rec.node
        if tok.pos_ not in _ARG_POS:
            return None
        first = tok.i
        while first > 0 and self.doc[first - 1].dep_ == "compound" \
                and self.doc[first - 1].head.i == tok.i and first - 1 not in self.tok_rec:
            first -= 1
        kind = "NOUN" if tok.pos_ in ("NOUN", "PROPN") else tok.pos_
        rec = self._new(first, tok.i + 1, kind, tok.tag_ in ("NNS", "NNPS"))
        for i in range(first, tok.i + 1):
            self.extra[i] = rec
        return rec.node

    # -- triples -----------------------------------------------------------
    def _add(self, s_tok: Any, rel: str, o_tok: Any, span: Span, pattern: str) -> None:
        """Add the triple (node of s_tok, rel, node of o_tok) unless unresolved or a loop."""
        subj = self._node_for(s_tok)
        obj = self._node_for(o_tok)
        if subj is None or obj is None or subj.id == obj.id:
            return
        key = (subj.id, rel, obj.id, pattern)
        if key not in self._triples:
            self._triples[key] = Triple(
                subject=subj, relation=rel, object=obj, span=span, pattern=pattern
            )

    def _all_triples(self) -> None:
        """Run every pattern over every sentence."""
        for sent in self.doc.sents:
            span = Span(
                start=sent.start_char + self.offset,
                end=sent.end_char + self.offset,
                source=self.source,
            )
            for tok in sent:
                if tok.pos_ in ("VERB", "AUX") and tok.dep_ not in ("aux", "auxpass"):
                    self._verb_triples(tok, span)
                elif tok.dep_ == "appos":
                    self._add(tok.head, "be", tok, span, "appos")
                if tok.dep_ == "poss" and tok.head.pos_ in _NOMINAL:
                    self._add(tok, "have", tok.head, span, "poss")
                if tok.pos_ in _NOMINAL:
                    for prep in tok.children:
                        if prep.dep_ == "prep":
                            self._prep(tok, prep.lower_, prep, span, "prep")

    def _prep(self, s_tok: Any, rel: str, prep: Any, span: Span, pattern: str) -> None:
        """Add (s_tok, rel, pobj) for every (conjoined) object of ``prep``."""
        for pobj in prep.children:
            if pobj.dep_ == "pobj":
                for obj in _conjuncts(pobj):
                    self._add(s_tok, rel, obj, span, pattern)

    def _subjects(self, verb: Any, depth: int = 0) -> tuple[list[Any], bool]:
        """Return the subject tokens of ``verb`` and whether it is passive."""
        passive = any(c.dep_ in ("nsubjpass", "auxpass", "agent") for c in verb.children)
        own = [c for c in verb.children if c.dep_ in _SUBJ]
        if own:
            return [s for o in own for s in _conjuncts(o)], passive
        head = verb.head
        if verb.dep_ == "acl" and head.pos_ in _NOMINAL:
            return [head], verb.tag_ == "VBN"
        if verb.dep_ in _INHERIT and head.pos_ in ("VERB", "AUX") and depth < 8:
            subs, head_passive = self._subjects(head, depth + 1)
            inherited = verb.dep_ == "conj" and verb.tag_ == "VBN" and head_passive
            return subs, passive or inherited
        return [], passive

    def _verb_triples(self, verb: Any, span: Span) -> None:
        """svo / copula / agent / prep patterns around one verb."""
        subjects, passive = self._subjects(verb)
        if not subjects:
            return
        neg = "not " if any(c.dep_ == "neg" for c in verb.children) else ""
        base = f"be {verb.lower_}" if passive else verb.lemma_.lower()
        prt = [c.lower_ for c in verb.children if c.dep_ == "prt"]
        base = " ".join([base, *prt])
        copula = verb.lemma_ == "be" and not passive
        for child in verb.children:
            dep = child.dep_
            if dep in _OBJ or (copula and dep == "acomp"):
                is_cop = copula and dep in ("attr", "acomp")
                rel = neg + ("be" if is_cop else base)
                for obj in _conjuncts(child):
                    for subj in subjects:
                        self._add(subj, rel, obj, span, "copula" if is_cop else "svo")
                if is_cop and dep == "acomp":
                    for prep in child.children:
                        if prep.dep_ == "prep":
                            rel = f"{neg}be {child.lemma_.lower()} {prep.lower_}"
                            for subj in subjects:
                                self._prep(subj, rel, prep, span, "prep")
            elif dep in ("agent", "prep"):
                rel = f"{neg}{base} {child.lower_}"
                for subj in subjects:
                    self._prep(subj, rel, child, span, "svo" if dep == "agent" else "prep")

    def _all_recs(self) -> list[_Rec]:
        """Entity/chunk nodes plus nodes made on demand for triple arguments."""
        seen: dict[str, _Rec] = {r.node.id: r for r in self.recs}
        for rec in self.extra.values():
            seen.setdefault(rec.node.id, rec)
        return list(seen.values())
