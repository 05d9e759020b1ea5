"""``python -m guardrail``: the ``kg-guardrail`` command line."""

from guardrail.cli import main

__all__: list[str] = []

if __name__ == "__main__":
    main()
