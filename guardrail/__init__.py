"""kg-guardrail: stop RAG applications from shipping hallucinated answers.

The answer and its retrieved context are turned into knowledge graphs; detectors
(WL subtree kernel after KEA Explain, entity grounding and relation preservation after
HalluGraph) score how well the answer's graph aligns with the context's; the verdict
comes with flagged answer nodes, their character spans and a contrastive explanation.

>>> from guardrail import Guard                       # doctest: +SKIP
>>> Guard().check(answer, contexts, question).passed  # doctest: +SKIP
"""

from guardrail.config import GuardConfig, load_config, save_config, shipped_configs
from guardrail.errors import (
    BatchError,
    ConfigError,
    DetectorError,
    ExtractionError,
    GuardrailError,
    HallucinationError,
    InvalidInputError,
    KnowledgeBaseError,
    LLMError,
    LogSinkError,
    MissingDependencyError,
    ModelFileError,
    ReadOnlyError,
    RefinementError,
)
from guardrail.guard import Guard
from guardrail.log.sinks import open_sink
from guardrail.policy import Policy, aenforce, enforce
from guardrail.types import (
    DetectorOutput,
    Explanation,
    FlaggedNode,
    GuardResult,
    KnowledgeGraph,
    Node,
    RefinementRound,
    Span,
    Triple,
)

__version__ = "0.1.0"

__all__ = [
    "Guard",
    "GuardConfig",
    "GuardResult",
    "FlaggedNode",
    "Explanation",
    "DetectorOutput",
    "KnowledgeGraph",
    "Node",
    "Triple",
    "Span",
    "RefinementRound",
    "load_config",
    "save_config",
    "shipped_configs",
    "Policy",
    "enforce",
    "aenforce",
    "open_sink",
    "GuardrailError",
    "InvalidInputError",
    "ConfigError",
    "ExtractionError",
    "DetectorError",
    "LogSinkError",
    "KnowledgeBaseError",
    "LLMError",
    "RefinementError",
    "ModelFileError",
    "MissingDependencyError",
    "ReadOnlyError",
    "HallucinationError",
    "BatchError",
    "__version__",
]
