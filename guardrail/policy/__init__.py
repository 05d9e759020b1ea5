"""What to do with a verdict: policies (annotate, filter, raise, refine), the KG-Guard
refinement loop and its prompts.

* :mod:`guardrail.policy.policies`: :class:`Policy`, parsed once; annotate / filter / raise.
* :mod:`guardrail.policy.prompts`: the re-prompt (delimited blocks, escaped).
* :mod:`guardrail.policy.refine`: :class:`Refiner` and :func:`enforce`, the one call the adapters use;
  its round bookkeeping in :mod:`guardrail.policy.rounds`.
* :mod:`guardrail.policy.feedback`, :mod:`guardrail.policy.acceptance`: what each flagged claim is
  told (its wrong words marked) and how a correction is judged.
* :mod:`guardrail.policy.repair`, :mod:`guardrail.policy.pruning`, :mod:`guardrail.policy.numbers`:
  the repair round that needs no LLM (a wrong number, in digits or words; an added clause deleted).
"""

from guardrail.policy.policies import Policy, PolicyOutcome, apply_policy, parse_policy
from guardrail.policy.refine import UNVERIFIED_MARK, RefinementRequest, Refiner, aenforce, enforce

__all__ = ["UNVERIFIED_MARK", "Policy", "PolicyOutcome", "Refiner", "RefinementRequest", "aenforce", "apply_policy", "enforce",
           "parse_policy"]
