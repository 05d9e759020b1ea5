"""The ``kg-guardrail`` command line (typer + rich).

* :mod:`guardrail.cli.app`: the commands (``check``, ``calibrate``, ``report``, ``log``, ``demo``).
* :mod:`guardrail.cli.render`: rich tables.
* :mod:`guardrail.cli.scale`: the Ray engine and extras checks.

Input lines are read by :mod:`guardrail.io`, shared with :mod:`guardrail.batch`.
"""

__all__: list[str] = []
