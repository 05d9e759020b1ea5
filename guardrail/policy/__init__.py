"""What to do with a verdict: policies (annotate, filter, raise, refine), the KG-Guard
refinement loop and its prompts.

* :mod:`guardrail.policy.policies`: :class:`Policy`, parsed once; annotate / filter / raise.
* :mod:`guardrail.policy.prompts`: the re-prompt (delimited blocks, escaped).
* :mod:`guardrail.policy.refine`: :class:`Refiner` and :func:`enforce`, the one call the adapters use.
"""

from guardrail.policy.policies import Policy, PolicyOutcome, apply_policy, parse_policy
from guardrail.policy.refine import UNVERIFIED_MARK, RefinementRequest, Refiner, aenforce, enforce

__all__ = ["UNVERIFIED_MARK", "Policy", "PolicyOutcome", "Refiner", "RefinementRequest", "aenforce", "apply_policy", "enforce",
           "parse_policy"]
