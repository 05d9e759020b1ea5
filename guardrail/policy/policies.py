"""What to do with a flagged answer: one enum, parsed once, plus a custom callable.

``annotate`` (default) returns the answer unchanged with the result attached;
``filter`` drops the sentences that hold flagged nodes; ``raise`` raises
:class:`~guardrail.errors.HallucinationError`; ``refine`` runs the
:class:`~guardrail.policy.refine.Refiner` loop (KG-Guard); a callable
``fn(answer, result) -> str`` is a custom policy.

Abstained results (the guard could not judge) are treated like flagged ones by
``filter`` and ``raise``: an answer the guard could not verify is never passed
silently. ``annotate`` keeps the answer either way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Literal, Union

from guardrail.errors import ConfigError, HallucinationError
from guardrail.text.sentences import split_sentences
from guardrail.types import GuardResult

__all__ = [
    "Policy",
    "PolicyLike",
    "PolicySpec",
    "PolicyOutcome",
    "OutcomeAction",
    "parse_policy",
    "apply_policy",
    "filter_answer",
    "DEFAULT_REFUSAL",
]

#: Returned by ``filter`` when no supported sentence is left.
DEFAULT_REFUSAL = "I could not find support for an answer in the retrieved context."

CustomPolicy = Callable[[str, GuardResult], str]
#: What a policy did with an answer (:attr:`PolicyOutcome.action`).
OutcomeAction = Literal["passed", "annotated", "filtered", "refused", "refined", "declined", "custom"]


class Policy(str, Enum):
    """The built-in policies."""

    ANNOTATE = "annotate"
    FILTER = "filter"
    RAISE = "raise"
    REFINE = "refine"
    CUSTOM = "custom"


#: What a ``policy=`` argument accepts.
PolicyLike = Union[Policy, str, CustomPolicy, "PolicySpec"]


@dataclass(frozen=True)
class PolicySpec:
    """A parsed policy: the kind, and the function for ``custom``."""

    kind: Policy
    func: CustomPolicy | None = None


@dataclass(frozen=True)
class PolicyOutcome:
    """The answer to return and what was done.

    Parameters
    ----------
    answer : str
        The answer to hand to the user (changed by ``filter``, ``refine``, ``custom``).
    result : GuardResult
        The verdict on the final answer (with ``history`` after refinement).
    action : {"passed", "annotated", "filtered", "refused", "refined", "declined", "custom"}
        ``passed``: nothing to do; ``refused``: filter left nothing supported;
        ``declined``: the answer declines as a whole (``GuardResult.declined``) and was
        left as it is, whatever the policy.
    original_answer : str
        The answer before the policy (never lost).
    stop_reason : str
        Why a refinement loop ended: ``passed``, ``repeated`` (an answer came back
        unchanged), ``worse`` / ``no_progress`` (a round did not improve on the best),
        ``time_budget``, ``max_iterations``, ``declined``, ``unsupported`` (a round's
        replacement was not stated by the evidence its feedback quoted, see
        :mod:`guardrail.policy.acceptance`); ``""`` without refinement.
    rejected_rounds : tuple of int
        Refinement rounds rejected as worse than the best round.
    fallback_round : int or None
        The round whose answer a refinement loop's ``filter`` fallback delivered with its flagged
        clauses or sentences cut (0: the original answer; see :mod:`guardrail.policy.salvage`);
        ``None`` when no fallback delivered a cut answer.
    """

    answer: str
    result: GuardResult
    action: OutcomeAction
    original_answer: str
    stop_reason: str = ""
    rejected_rounds: tuple[int, ...] = ()
    fallback_round: int | None = None


def parse_policy(value: PolicyLike) -> PolicySpec:
    """Parse a policy once.

    Parameters
    ----------
    value : Policy, str, callable or PolicySpec
        ``"annotate"``, ``"filter"``, ``"raise"``, ``"refine"`` (case-insensitive),
        a :class:`Policy`, or a callable ``fn(answer, result) -> str``.

    Raises
    ------
    ConfigError
        Unknown name (the message names it and lists the known ones), or ``"custom"``
        given as a string without a function.
    """
    if isinstance(value, PolicySpec):
        return value
    if isinstance(value, Policy):
        kind = value
    elif isinstance(value, str):
        try:
            kind = Policy(value.strip().lower())
        except ValueError:
            known = ", ".join(p.value for p in Policy if p is not Policy.CUSTOM)
            raise ConfigError(f"unknown policy {value!r}; expected one of {known}, or a callable") from None
    elif callable(value):
        return PolicySpec(Policy.CUSTOM, value)
    else:
        raise ConfigError(f"policy must be a str, Policy or callable, got {type(value).__name__}")
    if kind is Policy.CUSTOM:
        raise ConfigError("policy 'custom' needs a callable fn(answer, result) -> str; pass the callable itself")
    return PolicySpec(kind)


def filter_answer(answer: str, result: GuardResult, refusal: str = DEFAULT_REFUSAL) -> tuple[str, bool]:
    """Drop the sentences of ``answer`` that contain a flagged node.

    Parameters
    ----------
    answer : str
        The answer ``result`` was computed on (spans index it).
    result : GuardResult
        Its verdict.
    refusal : str
        Returned when nothing supported is left.

    Returns
    -------
    (str, bool)
        The filtered answer and whether it is the refusal.
    """
    if result.passed:
        return answer, False
    if result.abstained:
        return refusal, True
    spans = [(n.span.start, n.span.end) for n in result.flagged_nodes if n.span is not None]
    kept = [
        answer[s:e]
        for s, e in split_sentences(answer)
        if not any(a < e and b > s for a, b in spans)
    ]
    if not kept or not spans:
        return refusal, True
    return " ".join(kept), False


def apply_policy(
    policy: PolicyLike,
    answer: str,
    result: GuardResult,
    *,
    refusal: str = DEFAULT_REFUSAL,
) -> PolicyOutcome:
    """Apply a non-refining policy to a checked answer.

    Parameters
    ----------
    policy : PolicyLike
        Anything :func:`parse_policy` accepts except ``refine`` (which needs an LLM:
        use :func:`guardrail.policy.refine.enforce`).
    answer : str
        The checked answer.
    result : GuardResult
        Its verdict.
    refusal : str
        Message returned by ``filter`` when nothing supported is left.

    Returns
    -------
    PolicyOutcome
        ``action="declined"`` for a declined answer (``result.declined``), whatever the policy.

    Raises
    ------
    HallucinationError
        ``raise`` policy on a result that did not pass; it carries the result and answer.
    ConfigError
        ``refine`` given here.
    """
    spec = parse_policy(policy)
    if result.declined:  # states no fact: never filtered, raised on or rewritten
        return PolicyOutcome(answer, result, "declined", answer)
    if result.passed:
        return PolicyOutcome(answer, result, "passed", answer)
    if spec.kind is Policy.ANNOTATE:
        return PolicyOutcome(answer, result, "annotated", answer)
    if spec.kind is Policy.FILTER:
        text, refused = filter_answer(answer, result, refusal)
        return PolicyOutcome(text, result, "refused" if refused else "filtered", answer)
    if spec.kind is Policy.RAISE:
        raise HallucinationError(result, answer)
    if spec.kind is Policy.CUSTOM and spec.func is not None:
        new = spec.func(answer, result)
        if not isinstance(new, str):
            raise ConfigError(f"custom policy returned {type(new).__name__}, expected str")
        return PolicyOutcome(new, result, "custom", answer)
    raise ConfigError("the 'refine' policy needs an LLM: use guardrail.policy.refine.enforce(..., reprompt=...)")
