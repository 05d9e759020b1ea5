"""``python -m guardrail``: the ``kg-guardrail`` command line."""

from guardrail.cli.app import main

__all__: list[str] = []

if __name__ == "__main__":
    main()
