"""all-MiniLM-L6-v2 in plain torch, with the `tokenizers` library for word pieces.

Why: importing `sentence_transformers` (which imports `transformers.modeling_utils`, torch.distributed,
sympy, scipy, dynamo) takes several times longer than importing torch, and every CLI `ask` pays it
before its first answer. This is the same BERT (same weights, same mean pooling, same numbers up to
float rounding; `tests/test_minilm.py` checks them against sentence-transformers) in about a hundred
lines. Training still uses the `transformers` model; inference and HubLink's embeddings use this one.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F


@dataclass(frozen=True)
class BertConfig:
    vocab_size: int
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    max_position_embeddings: int
    type_vocab_size: int
    layer_norm_eps: float

    @classmethod
    def from_file(cls, path: Path) -> BertConfig:
        data = json.loads(path.read_text())
        if data.get("hidden_act", "gelu") != "gelu" or data.get("position_embedding_type", "absolute") != "absolute":
            raise ValueError(f"{path}: only BERT with gelu and absolute positions is supported")
        return cls(**{name: data[name] for name in cls.__dataclass_fields__})


@dataclass
class EncoderOutput:
    """What `transformers.BertModel` returns, as far as this code base reads it."""

    last_hidden_state: torch.Tensor
    hidden_states: tuple[torch.Tensor, ...] | None = None


class _Embeddings(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, config.hidden_size)
        self.token_type_embeddings = nn.Embedding(config.type_vocab_size, config.hidden_size)
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        summed = (self.word_embeddings(input_ids) + self.position_embeddings(positions)[None]
                  + self.token_type_embeddings.weight[0])
        return self.LayerNorm(summed)


class _Dense(nn.Module):
    """A dense layer followed by residual + LayerNorm (BERT's `*.output` blocks)."""

    def __init__(self, size_in: int, size_out: int, eps: float) -> None:
        super().__init__()
        self.dense = nn.Linear(size_in, size_out)
        self.LayerNorm = nn.LayerNorm(size_out, eps=eps)

    def forward(self, hidden: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return self.LayerNorm(self.dense(hidden) + residual)


class _SelfAttention(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.heads = config.num_attention_heads
        self.query = nn.Linear(config.hidden_size, config.hidden_size)
        self.key = nn.Linear(config.hidden_size, config.hidden_size)
        self.value = nn.Linear(config.hidden_size, config.hidden_size)

    def forward(self, hidden: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        batch, length, size = hidden.shape

        def split(x: torch.Tensor) -> torch.Tensor:
            return x.view(batch, length, self.heads, size // self.heads).transpose(1, 2)

        context = F.scaled_dot_product_attention(split(self.query(hidden)), split(self.key(hidden)),
                                                 split(self.value(hidden)), attn_mask=bias)
        return context.transpose(1, 2).reshape(batch, length, size)


class _Attention(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.self = _SelfAttention(config)
        self.output = _Dense(config.hidden_size, config.hidden_size, config.layer_norm_eps)

    def forward(self, hidden: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        return self.output(self.self(hidden, bias), hidden)


class _Intermediate(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.dense = nn.Linear(config.hidden_size, config.intermediate_size)

    def forward(self, hidden: torch.Tensor) -> torch.Tensor:
        return F.gelu(self.dense(hidden))


class BertLayer(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.attention = _Attention(config)
        self.intermediate = _Intermediate(config)
        self.output = _Dense(config.intermediate_size, config.hidden_size, config.layer_norm_eps)

    def forward(self, hidden: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        attended = self.attention(hidden, bias)
        return self.output(self.intermediate(attended), attended)


class _Layers(nn.Module):
    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.layer = nn.ModuleList(BertLayer(config) for _ in range(config.num_hidden_layers))


def attention_bias(attention_mask: torch.Tensor, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """(batch, 1, 1, length) additive bias: 0 for tokens, a large negative number for padding."""
    return (1.0 - attention_mask[:, None, None, :].to(dtype)) * torch.finfo(dtype).min


class BertEncoder(nn.Module):
    """BERT without pooler; module names match the Hugging Face checkpoint, so its weights load as is."""

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.config = config
        self.embeddings = _Embeddings(config)
        self.encoder = _Layers(config)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                output_hidden_states: bool = False, max_layers: int | None = None, **_: Any) -> EncoderOutput:
        """`max_layers` stops early when only lower layers are read (the pattern model's tuned copies
        replace the top ones)."""
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        bias = attention_bias(attention_mask)
        hidden = self.embeddings(input_ids)
        states = [hidden]
        for layer in self.encoder.layer[:max_layers]:
            hidden = layer(hidden, bias)
            states.append(hidden)
        return EncoderOutput(hidden, tuple(states) if output_hidden_states else None)


class WordPieces:
    """The model's tokenizer (`tokenizers`), called like a Hugging Face tokenizer for the arguments used here."""

    def __init__(self, path: Path, max_length: int) -> None:
        self._definition = path.read_text()
        self._by_limit: dict[int | None, Any] = {}
        self._lock = threading.Lock()
        self.max_length = max_length
        self.pad_token_id = 0

    def _tokenizer(self, limit: int | None) -> Any:
        """One tokenizer per truncation limit, configured once: a shared one whose truncation each call
        set would race between threads (questions and HubLink texts are tokenized concurrently)."""
        with self._lock:
            tokenizer = self._by_limit.get(limit)
            if tokenizer is None:
                from tokenizers import Tokenizer

                tokenizer = Tokenizer.from_str(self._definition)
                tokenizer.no_padding()
                if limit is None:
                    tokenizer.no_truncation()
                else:
                    tokenizer.enable_truncation(limit)
                self._by_limit[limit] = tokenizer
            return tokenizer

    def __call__(self, texts: Sequence[str], *, return_offsets_mapping: bool = False, truncation: bool = True,
                 max_length: int | None = None, padding: bool = False, return_tensors: str | None = None,
                 **_: Any) -> dict[str, Any]:
        limit = (max_length or self.max_length) if truncation else None
        encoded = self._tokenizer(limit).encode_batch(list(texts))
        ids = [e.ids for e in encoded]
        masks = [e.attention_mask for e in encoded]
        result: dict[str, Any] = {"input_ids": ids, "attention_mask": masks}
        if return_offsets_mapping:
            result["offset_mapping"] = [e.offsets for e in encoded]
        if return_tensors == "pt" or padding:
            width = max((len(i) for i in ids), default=0)
            result["input_ids"] = [i + [self.pad_token_id] * (width - len(i)) for i in ids]
            result["attention_mask"] = [m + [0] * (width - len(m)) for m in masks]
        if return_tensors == "pt":
            result = {k: torch.tensor(v) if k != "offset_mapping" else v for k, v in result.items()}
        return result


class SentenceEncoder:
    """MiniLM sentence embeddings: mean of the last layer over real tokens, like sentence-transformers."""

    def __init__(self, folder: Path) -> None:
        from safetensors.torch import load_file

        config = BertConfig.from_file(folder / "config.json")
        self.model = BertEncoder(config).eval()
        state = load_file(str(folder / "model.safetensors"))
        state = {k: v for k, v in state.items() if not k.startswith("pooler.") and k != "embeddings.position_ids"}
        self.model.load_state_dict(state, strict=True)
        settings = folder / "sentence_bert_config.json"
        max_length = json.loads(settings.read_text()).get("max_seq_length", 256) if settings.exists() else 256
        self.tokenizer = WordPieces(folder / "tokenizer.json", max_length)
        self.dimension = config.hidden_size

    def encode(self, texts: Sequence[str], batch_size: int = 64, normalize_embeddings: bool = True,
               **_: Any) -> np.ndarray:
        """Vectors of `texts`, batched by similar length (less padding), in input order."""
        texts = list(texts)
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        pieces = self.tokenizer(texts)["input_ids"]
        order = sorted(range(len(texts)), key=lambda i: len(pieces[i]))
        with torch.inference_mode():
            for start in range(0, len(order), batch_size):
                rows = order[start:start + batch_size]
                width = max(len(pieces[i]) for i in rows)
                ids = torch.zeros((len(rows), width), dtype=torch.long)
                mask = torch.zeros((len(rows), width), dtype=torch.long)
                for r, i in enumerate(rows):
                    ids[r, :len(pieces[i])] = torch.tensor(pieces[i])
                    mask[r, :len(pieces[i])] = 1
                hidden = self.model(ids, mask).last_hidden_state
                weights = mask[..., None].to(hidden.dtype)
                pooled = (hidden * weights).sum(1) / weights.sum(1).clamp(min=1e-9)
                if normalize_embeddings:
                    pooled = F.normalize(pooled, p=2, dim=1)
                out[rows] = pooled.numpy()
        return out

    def get_sentence_embedding_dimension(self) -> int:
        return self.dimension
