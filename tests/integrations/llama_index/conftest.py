"""Fixtures for the LlamaIndex adapter tests: real LlamaIndex objects, real guard, no network.

The LLM is a scripted stand-in (:class:`ScriptedLLM`): it plays back recorded answers
from HaluEval (the hallucinated answer first, then the right one), standing in for a
remote LLM so that the tests are offline and deterministic. Everything else is real:
``VectorStoreIndex`` with MiniLM embeddings, retrievers, response synthesizers,
instrumentation and the guard (spaCy + MiniLM).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("llama_index.core")

import guardrail_llama_index as _pkg  # noqa: E402

if getattr(_pkg, "__file__", None) is None:  # pragma: no cover - stale editable install
    # The editable install predates this package's __init__.py, so it was registered as
    # a namespace package; run __init__ so the public names exist (``pip install -e .``
    # fixes this for good).
    _init = Path(list(_pkg.__path__)[0]) / "__init__.py"
    exec(compile(_init.read_text(encoding="utf-8"), str(_init), "exec"), _pkg.__dict__)

from llama_index.core import Document, Settings, VectorStoreIndex  # noqa: E402
from llama_index.core.llms import CompletionResponse, CustomLLM, LLMMetadata, MockLLM  # noqa: E402
from llama_index.core.llms.callbacks import llm_completion_callback  # noqa: E402
from pydantic import PrivateAttr  # noqa: E402

from guardrail import Guard  # noqa: E402
from guardrail_llama_index import MiniLMEmbedding  # noqa: E402


class ScriptedLLM(CustomLLM):
    """Stands in for a remote LLM: plays back recorded answers, per question.

    ``script`` maps a question to the answers given on its 1st, 2nd, ... call (the
    last one repeats). The question is found in the prompt (the synthesizer's prompt
    and the guard's re-prompt both quote it), so concurrent queries get their own
    answers.
    """

    script: dict[str, list[str]] = {}
    _counts: dict[str, int] = PrivateAttr(default_factory=dict)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)
    _prompts: list[str] = PrivateAttr(default_factory=list)

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="scripted-halueval")

    @property
    def prompts(self) -> list[str]:
        """Every prompt received, in order."""
        return list(self._prompts)

    def calls(self, question: str) -> int:
        """How many times ``question`` was answered."""
        return self._counts.get(question, 0)

    def _next(self, prompt: str) -> str:
        found = [q for q in self.script if q in prompt]
        if not found:
            raise AssertionError(f"scripted LLM got an unknown prompt: {prompt[:200]!r}")
        q = max(found, key=len)
        with self._lock:
            i = self._counts.get(q, 0)
            self._counts[q] = i + 1
            self._prompts.append(prompt)
        answers = self.script[q]
        return answers[min(i, len(answers) - 1)]

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return CompletionResponse(text=self._next(prompt))

    @llm_completion_callback()
    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> Any:
        text = self._next(prompt)

        def gen() -> Iterator[CompletionResponse]:
            acc = ""
            for i, word in enumerate(text.split(" ")):
                delta = word if i == 0 else " " + word
                acc += delta
                yield CompletionResponse(text=acc, delta=delta)

        return gen()


@pytest.fixture(scope="session")
def records(halueval_qa_records: list[dict[str, str]]) -> list[dict[str, str]]:
    """The first 20 HaluEval QA dev records, shipped in examples/data/ (missing data fails)."""
    return halueval_qa_records


@pytest.fixture(scope="session")
def embed_model() -> MiniLMEmbedding:
    """Offline MiniLM embeddings (the guard's shared encoder)."""
    return MiniLMEmbedding()


@pytest.fixture(autouse=True)
def _offline_settings(embed_model: MiniLMEmbedding) -> Iterator[None]:
    """Set LlamaIndex's global LLM / embed model explicitly so nothing reaches for OpenAI."""
    old_llm, old_embed = Settings._llm, Settings._embed_model
    Settings.llm = MockLLM()
    Settings.embed_model = embed_model
    yield
    Settings._llm, Settings._embed_model = old_llm, old_embed


@pytest.fixture(scope="module")
def guard() -> Guard:
    """One real guard shared by the tests of a module (models loaded once)."""
    return Guard().warm_up()


@pytest.fixture(scope="session")
def vector_index(records: list[dict[str, str]], embed_model: MiniLMEmbedding) -> VectorStoreIndex:
    """A real VectorStoreIndex over the records' knowledge passages."""
    docs = [Document(text=r["knowledge"], id_=f"halueval-qa-{i}") for i, r in enumerate(records)]
    return VectorStoreIndex.from_documents(docs, embed_model=embed_model)


@pytest.fixture
def make_llm(records: list[dict[str, str]]) -> Any:
    """Build a :class:`ScriptedLLM`; default script: hallucinated answer, then the right one."""

    def make(script: dict[str, list[str]] | None = None) -> ScriptedLLM:
        if script is None:
            script = {r["question"]: [r["hallucinated_answer"], r["right_answer"]] for r in records}
        return ScriptedLLM(script=script)

    return make
