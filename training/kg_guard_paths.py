"""Read linearised knowledge-graph paths back into (subject, relation, object) triples.

HaluEval dialogue (from OpenDialKG) gives its knowledge as Freebase paths written out
with no separator between hops: the object of one hop is repeated as the subject of
the next, glued to it (``"Iron Man is starring Robert Downey Jr.Robert Downey Jr.
starred in Zodiac"``). :func:`parse_kg_paths` finds the relation phrases (a fixed
vocabulary plus the ``" : `Relation`: "`` form) and cuts the text between two of them
into the previous object and the next subject.
"""

from __future__ import annotations

import re

__all__ = ["RELATIONS", "parse_kg_paths"]

#: Relation phrases of the OpenDialKG paths in HaluEval dialogue (longest first when matched).
RELATIONS: tuple[str, ...] = (
    "was the year that released", "is a celebrity friend to", "is written by", "is starring",
    "is directed by", "is produced by", "is in language", "has examples:", "has example:",
    "has genre", "starred in", "was released", "is a/an", "directed", "produced", "wrote",
)
_REL = re.compile(
    r"(?: : `[^`]{1,60}`: )|(?: (?:" + "|".join(re.escape(r) for r in sorted(RELATIONS, key=len, reverse=True))
    + r") )"
)
_SENT = re.compile(r"(?<=[\w\)\"'])\. (?=[A-Z0-9\"'])")
_GLUE = re.compile(r"(?<=[a-z0-9\)\.\"'])(?=[A-Z])")


def _split_pair(middle: str) -> tuple[str, str]:
    """Cut ``object + subject`` glued together into the two parts."""
    m = middle.strip()
    half = len(m) // 2
    if len(m) % 2 == 0 and m[:half] == m[half:]:
        return m[:half], m[half:]
    cuts = [g.start() for g in _GLUE.finditer(m) if 0 < g.start() < len(m)]
    for c in cuts:  # a repeated entity: object == next subject prefix
        if m[c:].startswith(m[:c]):
            return m[:c], m[c:]
    if cuts:
        c = cuts[-1]
        return m[:c], m[c:]
    return m, m


def parse_kg_paths(text: str) -> list[tuple[str, str, str]]:
    """Triples of a linearised path text (HaluEval dialogue ``knowledge``).

    Parameters
    ----------
    text : str
        Hops written as ``"S rel O"``, glued or separated by ``". "``.

    Returns
    -------
    list of (str, str, str)
        ``(subject, relation, object)`` in text order, duplicates removed; the
        relation is the phrase as written (backtick relations without backticks).
        Text with no known relation phrase gives ``[]``.
    """
    out: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str, str]] = set()
    for sent in _SENT.split(text.strip()):
        rels = list(_REL.finditer(sent))
        if not rels:
            continue
        subj = sent[: rels[0].start()].strip()
        for k, r in enumerate(rels):
            end = rels[k + 1].start() if k + 1 < len(rels) else len(sent)
            middle = sent[r.end():end]
            obj, nxt = _split_pair(middle) if k + 1 < len(rels) else (middle.strip().rstrip("."), "")
            rel = r.group(0).strip().strip(":").strip().strip("`").strip()
            triple = (subj.strip(), rel, obj.strip())
            if all(triple) and triple not in seen:
                seen.add(triple)
                out.append(triple)
            subj = nxt
    return out
