"""Token-budget batches (``runtime.MAX_BATCH_TOKENS``) give the scores and embeddings of the
plain 32-row batches they replaced: the shipped ONNX models, real inputs of mixed lengths."""

from __future__ import annotations

import numpy as np
import pytest

from guardrail.align.encoder import MiniLMEncoder
from guardrail.models import runtime
from guardrail.models.claim_verifier import ClaimVerifier

pytest.importorskip("onnxruntime")

_CONTEXT = ("The Halden Viaduct is a stone railway bridge crossing the Orla River near the town of Mirsk. "
            "Construction began in 1871 under the engineer Tomasz Wierzbicki and was completed in 1874. "
            "The viaduct is 312 metres long and rests on 14 arches, the tallest of which rises 38 metres. ")


def _pairs():
    evidence = [_CONTEXT * k for k in (1, 2, 4, 8)] * 3 + ["Mirsk is a town.", "Paris is in France."]
    claims = ["The viaduct was completed in 1874.", "It has 15 arches.", "Wierzbicki built it.",
              "The bridge is 312 metres long and crosses the Orla River near Mirsk in Poland."] * 3 \
        + ["Mirsk is a town.", "Paris is in Spain."]
    return evidence, claims


def test_verifier_scores_do_not_depend_on_the_token_budget():
    evidence, claims = _pairs()
    small, plain = ClaimVerifier(cache_size=0), ClaimVerifier(cache_size=0)
    plain.max_batch_tokens = 10**9  # the former batching: 32 rows whatever their length
    a, b = small.score(evidence, claims), plain.score(evidence, claims)
    assert np.abs(a - b).max() < 1e-6
    assert a[-2] > 0.5 > a[-1]  # and they still read: supported, contradicted


def test_encoder_embeddings_do_not_depend_on_the_token_budget():
    texts = [_CONTEXT * k for k in (1, 2, 3)] + ["car", "a red car", "Paris is the capital of France."] * 20
    small, plain = MiniLMEncoder(cache_size=0), MiniLMEncoder(cache_size=0)
    plain.max_batch_tokens = 10**9
    assert np.abs(small.encode(texts) - plain.encode(texts)).max() < 1e-6
    assert runtime.MAX_BATCH_TOKENS < 32 * 256  # long inputs are split into smaller batches
