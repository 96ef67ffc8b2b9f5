"""The plain-torch MiniLM gives sentence-transformers' numbers: word pieces, offsets, every layer's
token states and the pooled, normalised sentence vectors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from understanding.resources import minilm, sentence_encoder

TEXTS = [
    "Which currency is used in Japan?",
    "paper title -> research field -> Software Architecture and Design",
    "(Q1, evaluation method, Case Study)",
    "a",
    "Which rivers flow into the North Sea, are longer than 100 km and have a city with more than 1,000,000 "
    "inhabitants on their shore? " * 12,  # longer than max_seq_length: truncated alike
]


@pytest.fixture(scope="module")
def both():
    return minilm(), sentence_encoder()


def test_word_pieces_and_offsets_are_the_reference_tokenizers(both) -> None:
    own, reference = both
    mine = own.tokenizer(TEXTS, return_offsets_mapping=True, truncation=True, max_length=48)
    theirs = reference.tokenizer(TEXTS, return_offsets_mapping=True, truncation=True, max_length=48)
    assert mine["input_ids"] == theirs["input_ids"]
    assert [[tuple(o) for o in row] for row in mine["offset_mapping"]] == \
        [[tuple(o) for o in row] for row in theirs["offset_mapping"]]


def test_every_layer_matches_the_transformers_bert(both) -> None:
    own, reference = both
    batch = reference.tokenizer(TEXTS[:4], return_tensors="pt", padding=True)
    with torch.inference_mode():
        theirs = reference[0].auto_model.eval()(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"],
                                                output_hidden_states=True).hidden_states
        mine = own.model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"],
                         output_hidden_states=True).hidden_states
    real = batch["attention_mask"][..., None].bool()
    assert len(mine) == len(theirs) == 7
    for a, b in zip(mine, theirs, strict=True):
        assert float(((a - b).abs() * real).max()) < 1e-4


def test_sentence_vectors_match_sentence_transformers(both) -> None:
    own, reference = both
    mine = own.encode(TEXTS, batch_size=2)
    theirs = reference.encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True)
    assert mine.shape == (len(TEXTS), 384) and mine.dtype == np.float32
    assert np.abs(mine - theirs).max() < 1e-5
    assert np.allclose(np.linalg.norm(mine, axis=1), 1.0, atol=1e-5)
    assert own.encode([]).shape == (0, 384)
