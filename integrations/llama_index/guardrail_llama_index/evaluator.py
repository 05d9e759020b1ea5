""":class:`KGGuardrailEvaluator`: the guard as a LlamaIndex evaluator.

Works with ``evaluate`` / ``aevaluate``, ``evaluate_response`` and ``BatchEvalRunner``.
The score is ``1 - hallucination score`` so that, as for other LlamaIndex
evaluators, **higher is better** (1 = fully supported by the contexts).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from llama_index.core.base.response.schema import Response
from llama_index.core.evaluation.base import BaseEvaluator, EvaluationResult
from llama_index.core.prompts.mixin import PromptDictType

from guardrail.errors import InvalidInputError
from guardrail.types import GuardResult
from guardrail.validate import check_guard
from guardrail_llama_index.contexts import (
    ContextMode,
    GuardContexts,
    attach_kb,
    check_mode,
    context_texts,
    contexts_from_nodes,
    contexts_from_texts,
)

__all__ = ["KGGuardrailEvaluator", "feedback_text"]


def feedback_text(result: GuardResult) -> str:
    """The explanation summary, then one line per flagged node (its contrastive sentence)."""
    if result.abstained:
        return f"The guard could not judge the answer: {result.abstain_reason}."
    head = result.explanation.summary or (
        f"Supported by the context (hallucination score {result.score:.3f} < {result.threshold:.3f})."
        if result.passed
        else f"Not supported by the context (hallucination score {result.score:.3f})."
    )
    sentences = list(result.explanation.sentences) or [
        n.reason or f'"{n.text}" is not supported by the context.' for n in result.flagged_nodes
    ]
    return "\n".join([head, *(f"- {s}" for s in sentences)])


class KGGuardrailEvaluator(BaseEvaluator):
    """Evaluate answers for hallucinations with knowledge-graph alignment (no LLM judge).

    Parameters
    ----------
    guard : guardrail.Guard
        The guard (share one across evaluators and engines: it caches passage graphs).
    context_mode : {"auto", "text", "graph"}
        How contexts are read; in ``"auto"`` contexts that all are
        ``"subject -> relation -> object"`` lines are used as triples.
    log : bool
        Also write flagged answers to the guard's log sinks (default False).
    kb : str, Path, KnowledgeBase or None
        Also check against this knowledge base (as ``Guard(kb=...)``); ``contexts`` are
        then optional.
    kb_profile : {"rdfs", "wikidata"} or None
        The KB's vocabulary.

    Notes
    -----
    ``EvaluationResult`` fields: ``passing`` is the guard's verdict; ``score`` is
    ``1 - GuardResult.score`` (higher is better); ``feedback`` is the explanation
    summary plus one sentence per flagged node; abstentions (nothing to judge) give
    ``passing=False``, ``score=0.5`` and ``invalid_result=True`` with the reason.

    Examples
    --------
    >>> ev = KGGuardrailEvaluator(Guard())                              # doctest: +SKIP
    >>> ev.evaluate(query=q, response="Paris is in Spain.", contexts=["Paris is in France."]).passing  # doctest: +SKIP
    False
    >>> BatchEvalRunner({"kg_guardrail": ev}).evaluate_queries(engine, queries=qs)  # doctest: +SKIP
    """

    def __init__(self, guard: Any, context_mode: ContextMode = "auto", log: bool = False, *,
                 kb: Any = None, kb_profile: Any = None) -> None:
        check_guard(guard, type(self).__name__)
        self._guard = attach_kb(guard, kb, kb_profile)
        self._context_mode: ContextMode = check_mode(context_mode)
        self._log = log

    @property
    def guard(self) -> Any:
        """The guard."""
        return self._guard

    def _get_prompts(self) -> PromptDictType:
        return {}

    def _update_prompts(self, prompts: PromptDictType) -> None:
        pass

    def _inputs(self, response: Optional[str], contexts: Any) -> GuardContexts:
        if contexts is None and getattr(self._guard, "kb", None) is not None:
            contexts = []  # checked against the knowledge base alone
        if response is None or contexts is None:
            raise InvalidInputError("KGGuardrailEvaluator needs both response and contexts (or kb=)")
        if not isinstance(response, str):
            raise InvalidInputError(f"response must be a str, got {type(response).__name__}")
        if isinstance(contexts, str):  # one passage, not a sequence of characters
            contexts = [contexts]
        elif not isinstance(contexts, Sequence) or isinstance(contexts, (bytes, bytearray)):
            raise InvalidInputError(
                f"contexts must be a str or a sequence of str or triples, got {type(contexts).__name__}")
        for i, c in enumerate(contexts):
            if not isinstance(c, (str, tuple)):
                raise InvalidInputError(f"contexts[{i}] must be a str or a triple, got {type(c).__name__}")
        if contexts and all(isinstance(c, tuple) for c in contexts):
            return list(contexts)
        return contexts_from_texts(contexts, self._context_mode)

    def evaluate(
        self, query: Optional[str] = None, response: Optional[str] = None,
        contexts: Optional[Sequence[str]] = None, **kwargs: Any,
    ) -> EvaluationResult:
        """Check ``response`` against ``contexts`` synchronously (no event loop needed).

        Parameters
        ----------
        query : str or None
            The question.
        response : str
            The answer to judge.
        contexts : sequence of str, or of (subject, relation, object)
            Retrieved passages or triples.

        Returns
        -------
        EvaluationResult
            ``passing``, ``score`` (1 - hallucination score; higher is better), ``feedback``.

        Raises
        ------
        guardrail.InvalidInputError
            (a ``ValueError``) when ``response`` or ``contexts`` is missing or of the wrong
            type; a single str in ``contexts`` is one passage.
        """
        ctx = self._inputs(response, contexts)
        result = self._guard.check(response, ctx, query, id=kwargs.get("id"), log=self._log)
        return _to_eval(query, response, ctx, result)

    async def aevaluate(
        self, query: Optional[str] = None, response: Optional[str] = None,
        contexts: Optional[Sequence[str]] = None, sleep_time_in_seconds: int = 0, **kwargs: Any,
    ) -> EvaluationResult:
        """Async :meth:`evaluate` (the guard runs in a worker thread)."""
        ctx = self._inputs(response, contexts)
        result = await self._guard.acheck(response, ctx, query, id=kwargs.get("id"), log=self._log)
        return _to_eval(query, response, ctx, result)

    def evaluate_response(
        self, query: Optional[str] = None, response: Optional[Response] = None, **kwargs: Any,
    ) -> EvaluationResult:
        """Evaluate a ``Response``; triplets in its source nodes (text or metadata) become triples."""
        text, ctx = _from_response(response, self._context_mode)
        return self.evaluate(query=query, response=text, contexts=ctx, **kwargs)

    async def aevaluate_response(
        self, query: Optional[str] = None, response: Optional[Response] = None, **kwargs: Any,
    ) -> EvaluationResult:
        """Async :meth:`evaluate_response` (what ``BatchEvalRunner`` calls)."""
        text, ctx = _from_response(response, self._context_mode)
        return await self.aevaluate(query=query, response=text, contexts=ctx, **kwargs)


def _from_response(response: Any, mode: ContextMode) -> tuple[Optional[str], Any]:
    if response is None:
        return None, None
    text = getattr(response, "response", None)
    if text is not None and not isinstance(text, str):
        text = str(response)
    return text, contexts_from_nodes(getattr(response, "source_nodes", []) or [], mode)


def _to_eval(query: Optional[str], response: Optional[str], contexts: GuardContexts,
             result: GuardResult) -> EvaluationResult:
    return EvaluationResult(
        query=query,
        response=response,
        contexts=context_texts(contexts),
        passing=result.passed,
        score=1.0 - result.score,
        feedback=feedback_text(result),
        invalid_result=result.abstained,
        invalid_reason=result.abstain_reason or None,
    )
