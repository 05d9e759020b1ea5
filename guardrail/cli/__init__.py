"""The ``kg-guardrail`` command line (typer + rich).

* :mod:`guardrail.cli.app`: the app and the commands ``calibrate``, ``report``, ``log``, ``demo``.
* :mod:`guardrail.cli.check_cmd`: the ``check`` command; :mod:`guardrail.cli.common`: what the
  commands share (the guard factory ``make_guard``, running a guard over input lines).
* :mod:`guardrail.cli.kb`: ``check --kb``; :mod:`guardrail.cli.llm`: ``llm serve`` and ``check --policy refine``.
* :mod:`guardrail.cli.render`: rich tables.
* :mod:`guardrail.cli.scale`: the Ray engine and extras checks.

Input lines are read by :mod:`guardrail.io`, shared with :mod:`guardrail.batch`.
"""

__all__: list[str] = []
