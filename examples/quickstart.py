"""Quickstart: check one RAG answer against its retrieved context (runs offline)."""

from guardrail import Guard

guard = Guard()  # the shipped calibrated "default" config: one threshold for every kind of input
result = guard.check(
    answer="The Eiffel Tower was completed in 1925 in Lyon.",
    contexts=["The Eiffel Tower is a wrought-iron tower in Paris, completed in 1889."],
    question="When and where was the Eiffel Tower built?",
)
print(f"passed={result.passed} score={result.score:.2f} threshold={result.threshold:.2f}")
for node in result.flagged_nodes:
    print(f"  flagged {node.text!r} at {node.span.start if node.span else '?'}: {node.reason}")
print(result.explanation.summary)
