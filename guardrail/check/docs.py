"""The numpydoc details of :class:`guardrail.Guard` and its methods, kept out of ``guard.py``.

``guard.py`` stays a short façade: each public method there has a one-paragraph docstring, and
:func:`details` appends the sections below (parameters, returns, raises, notes, examples) to it
at import time, so ``help(Guard.check)`` and the API docs show the whole text (pandas' ``@doc``
/ ``Appender`` pattern).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import TypeVar

__all__ = ["details", "GUARD", "CHECK", "CHECK_MANY", "LOG_RECORD"]

_T = TypeVar("_T")


def details(text: str) -> Callable[[_T], _T]:
    """A decorator appending ``text`` (numpydoc sections) to the decorated object's docstring.

    Parameters
    ----------
    text : str
        The sections, not indented.

    Returns
    -------
    callable
        The decorator; it returns the object itself, its ``__doc__`` extended.
    """

    def attach(obj: _T) -> _T:
        head = (obj.__doc__ or "").rstrip()
        rest = [ln for ln in head.splitlines()[1:] if ln.strip()]
        indent = min((len(ln) - len(ln.lstrip()) for ln in rest), default=0)
        obj.__doc__ = f"{head}\n\n{textwrap.indent(text, ' ' * indent)}"
        return obj

    return attach


#: Sections of ``Guard``'s docstring.
GUARD = '''\
Parameters
----------
config : GuardConfig, str, Path or "auto"
    ``"auto"`` (default) or ``"default"``: the shipped calibrated config (claim verifier, one threshold
    for every kind of input); a path to a JSON config, or a config object.
extractor : Extractor or None
    Triple extractor; default the config's ``extractor`` (spaCy, or an
    :class:`~guardrail.extract.llm_extractor.LLMExtractor` at its ``llm_base_url``).
detectors : sequence of Detector or None
    Overrides the detectors named by the config, which is fitted to them (their names become its
    detectors; weights, vetoes and ``node_source`` of other detectors are dropped, its thresholds kept):
    ``Guard(detectors=build_detectors(["kg_guard"], {}))`` scores with KG-Guard alone. A ``logistic``
    config must weigh at least one of them.
encoder : TextEncoder or None
    Sentence encoder; default the process-wide MiniLM encoder.
explainer : Explainer or None
    Default the KEA Explain explainer.
log : LogSink, path, or sequence of them, or None
    Where flagged answers are written (``.jsonl`` or ``.sqlite``/``.db`` paths).
context_cache_size : int
    Number of passage graphs kept, so the same retrieved passage is parsed once.
context_cache_chars : int
    Most passage characters whose graphs are kept (default 2,000,000, 150 to 250 MB of graphs):
    memory stays bounded however long the passages are.
threads : int or None
    Intra-op threads of the ONNX models, for the whole process (the models are shared); ``None`` keeps
    ``KG_GUARDRAIL_THREADS`` or the default ``min(2, cores)`` (see :mod:`guardrail.models.runtime`).
kb, kb_profile : str, Path, KnowledgeBase or None; "rdfs", "wikidata" or None
    A knowledge base to check against (an RDF file, an http(s) SPARQL endpoint, a
    :class:`~guardrail.kb.KnowledgeBase`; default the config's) and its vocabulary: contexts become
    optional and a flagged node names the KB triple it contradicts (:mod:`guardrail.kb.switch`).

Raises
------
ConfigError
    The config cannot be loaded, gives a registered detector a parameter it does not take or a value
    it rejects, or sets ``extractor: "llm"`` without an endpoint.
InvalidInputError
    An argument has the wrong type (``config=None``, ``log=123``, ``detectors`` that are not
    :class:`~guardrail.detectors.Detector` instances, a size that is not an int), ``log`` names a path
    whose format cannot be told from its suffix (``.jsonl``, ``.json``, ``.sqlite``, ``.sqlite3``,
    ``.db``), ``context_cache_size < 0``, or a bad ``kb`` (another type, a missing file, an unknown
    suffix or URL scheme).
KnowledgeBaseError
    The ``kb`` file is not valid RDF.

Examples
--------
>>> guard = Guard()                                    # doctest: +SKIP
>>> r = guard.check("Paris is in Spain.", ["Paris is the capital of France."])  # doctest: +SKIP
>>> r.passed, [n.text for n in r.flagged_nodes]       # doctest: +SKIP
(False, ['Spain'])
'''

#: Sections of ``Guard.check``'s docstring.
CHECK = '''\
Parameters
----------
answer : str
    The generated answer.
contexts : str, sequence of str, KnowledgeGraph, sequence of (s, r, o), or None
    Retrieved passages, or a context that already is a graph (triples); optional (``None`` or
    ``[]``) when the guard has a knowledge base (``kb=``).
question : str or None
    The user question; entities it names are not held against the answer.
id : str or None
    Carried into the result and the log.
log : bool
    Write a flagged or abstained result to the log sinks (default True; the refinement loop logs
    its rounds itself).

Returns
-------
GuardResult
    ``passed``, ``score`` in [0, 1], flagged nodes with spans, explanation, timings. Unusable
    input gives ``abstained=True`` with a reason (and ``passed=False``).

Raises
------
InvalidInputError
    A field of the wrong type (checked before any work is done), or no ``contexts`` and no
    knowledge base.
KnowledgeBaseError
    The knowledge base failed (``exc.answer`` holds the answer).

Notes
-----
The size limits (``max_answer_chars``, ``max_context_chars``, ``max_passages``, ``max_claims``) are
applied to the lengths of the inputs before anything is copied, split or parsed; an input over
them gets an abstain.
'''

#: Sections of ``Guard.log_record``'s docstring.
LOG_RECORD = '''\
Parameters
----------
record : FlaggedRecord
    The record, e.g. with a policy's ``action`` and ``delivered_answer``.

Returns
-------
bool
    ``True`` when every sink took it (or there is none); else the record is kept in
    :attr:`unlogged` and each failure was logged once at ERROR level.
'''

#: Sections of ``Guard.check_many``'s docstring.
CHECK_MANY = '''\
Passages are parsed in one ``extract_many`` pass and cached, so a passage shared by several items
is parsed once; the encoder and its cache are shared.

Returns
-------
list of GuardResult
    Same order as ``items``.

Raises
------
InvalidInputError
    ``items`` is not an iterable of mappings, or an item lacks ``answer`` or has a field of the
    wrong type (the message names the item's index); raised before any item is judged, so nothing
    is logged twice when the caller fixes the batch and retries.
BatchError
    An item failed while it was judged (a model error, a bug): ``exc.results`` holds the results
    of the items before it, which are logged already, and ``exc.index`` the failed item's
    position, so the caller goes on after it without judging or logging those items again.

Notes
-----
Items are judged in windows of about :data:`guardrail.check.PREFETCH_WINDOW_CHARS` context
characters: each window's new passages are parsed in one batch, so memory stays bounded however
long the batch is. Items over the size limits are not parsed.
'''
