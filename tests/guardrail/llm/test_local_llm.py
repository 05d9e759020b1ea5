"""The LLM layer against the real local model (Qwen2.5-Coder-1.5B-Instruct Q4_K_M on xllamacpp).

No scripted model here: JSON extraction, retries on a server stopped mid-call and one
refinement that fixes a planted date all run on the real endpoint. Replies are kept
short (the machine that runs the suite may have 2 shared cores).
"""

from __future__ import annotations

import threading
import time

import pytest

from guardrail.llm.client import LLMClient, parse_json_reply
from guardrail.llm.errors import LLMError

pytestmark = [pytest.mark.slow, pytest.mark.llm]

SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}, "year": {"type": "integer"}},
          "required": ["city", "year"]}


def test_json_output_is_schema_constrained(llm_url: str) -> None:
    client = LLMClient(llm_url, max_tokens=40, timeout=900)
    reply = client.chat_json([("user", "The 1924 Summer Olympics were held in Paris. Give the city and "
                                        "the year as JSON.")], SCHEMA)
    assert client.json_schema_supported is True
    assert reply == {"city": "Paris", "year": 1924}


def test_llm_extractor_spans_and_literals(llm_url: str) -> None:
    from guardrail.extract.llm_extractor import LLMExtractor

    text = "Marie Curie won the Nobel Prize in Physics in 1903 with 2 colleagues."
    ex = LLMExtractor(LLMClient(llm_url, max_tokens=120, timeout=900), fallback="raise")
    g = ex.extract(text)
    texts = {n.text for n in g.nodes}
    assert "Marie Curie" in texts and any("1903" in t for t in texts)
    assert all(n.span is not None and text[n.span.start:n.span.end] == n.text for n in g.nodes)
    assert g.triples and ex.extract(text) == g  # second call: cached reply, same graph


def test_client_retries_until_a_stopped_server_is_back() -> None:
    """The server goes away; the client keeps retrying (transient errors) until it is back."""
    from guardrail.llm.local import local_llm_missing

    if local_llm_missing():
        pytest.skip(local_llm_missing())
    from guardrail.llm.local import LocalServerSettings, _free_port, local_llm

    settings = LocalServerSettings(port=_free_port(), threads=2, ctx_size=1024)
    with local_llm(settings) as url:
        pass  # the server ran on this port and is stopped now
    client = LLMClient(url, retries=12, retry_wait=1.0, retry_max_wait=10.0, timeout=120, max_tokens=16)
    out: dict[str, object] = {}

    def call() -> None:
        try:
            out["reply"] = client.chat([("user", "Count from 1 to 5, separated by commas.")])
        except LLMError as exc:
            out["error"] = exc

    worker = threading.Thread(target=call)
    worker.start()
    time.sleep(2.0)
    assert worker.is_alive()  # connection refused: the client is retrying, not done
    with local_llm(settings):  # back on the same port: a retry must get through
        worker.join(timeout=240)
    assert "reply" in out, out.get("error")
    assert "1" in str(out["reply"])


def test_client_gives_a_typed_error_when_nothing_listens() -> None:
    from guardrail.llm.local import _free_port

    client = LLMClient(f"http://127.0.0.1:{_free_port()}/v1", retries=2, retry_wait=0.01, timeout=2)
    with pytest.raises(LLMError) as info:
        client.chat([("user", "hi")])
    assert info.value.transient and "2 attempts" in str(info.value)


def test_refinement_fixes_a_planted_date(llm_url: str) -> None:
    from guardrail import Guard
    from guardrail.policy.refine import Refiner, enforce

    context = ["The Eiffel Tower was completed in 1889 for the World's Fair in Paris. "
               "It was designed by the company of Gustave Eiffel."]
    question = "When was the Eiffel Tower completed?"
    wrong = "The Eiffel Tower was completed in 1901 for the World's Fair in Paris."
    guard = Guard()
    client = LLMClient(llm_url, max_tokens=64, timeout=900)
    out = enforce(guard, "refine", wrong, context, question, reprompt=client.reprompt,
                  refiner=Refiner(guard, max_iterations=3), id="eiffel")
    hist = out.result.history
    assert out.action == "refined", [h.answer for h in hist]
    assert "1889" in out.answer and "1901" not in out.answer and "World's Fair" in out.answer
    assert out.original_answer == wrong and hist[0].answer == wrong and 1 < len(hist) <= 4


def test_parse_json_reply_tolerates_prose() -> None:
    assert parse_json_reply('Here:\n```json\n{"a": [1, 2]}\n```') == {"a": [1, 2]}
    with pytest.raises(LLMError):
        parse_json_reply("no json here")
