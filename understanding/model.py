"""The question -> PGP model: a pointer decoder over the frozen MiniLM encoder.

Why this shape: no pretrained seq2seq weights are reachable here, and the PGP's phrases are copies of
question spans. So the decoder never spells a phrase: it emits structural tokens from a small
vocabulary (form, triple marker, unknowns, `is a`, order/filter/select, operators, limits) and
points at the first and last word piece of each phrase. Phrases are then cut verbatim (with case)
from the question by the tokenizer's character offsets. Decoding is constrained by the PGP grammar
(`Grammar`), so every output parses. The answer kind is a classifier on the pooled encoder states.

Architecture: all-MiniLM-L6-v2 (shared with the rest of the process through understanding.resources)
runs frozen up to layer 6 - `tuned_layers`; the model keeps its own fine-tuned copies of the top
`tuned_layers` MiniLM layers. Layer 3 and the (tuned) top layer are concatenated, plus word-shape
features (case, digits, quotes) that the uncased MiniLM cannot see -> a small trainable transformer
encoder -> a transformer decoder with key/value caches -> vocabulary logits and two pointer heads
(span start, span end). Only the trainable part is stored (understanding/weights/, fp16).
"""

from __future__ import annotations

import copy
import json
import math
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from understanding.fallback import clean_phrase
from understanding.minilm import BertEncoder
from understanding.parser import ModelOutput
from understanding.pgp import OPERATORS, AnswerKind, QuestionForm
from understanding.resources import torch_threads

WEIGHTS_DIR = Path(__file__).parent / "weights"
WEIGHTS_FILE = WEIGHTS_DIR / "pattern_model.safetensors"
CONFIG_FILE = WEIGHTS_DIR / "pattern_model.json"

MAX_UNKNOWNS = 6
MAX_LIMIT = 20
MAX_SPAN_PIECES = 48
MAX_SOURCE_PIECES = 96
MAX_STEPS = 72
MAX_TRIPLES = 8
LOW_LAYER = 3  # MiniLM hidden state always fed to the model as is (0 = embeddings)
MINILM_LAYERS = 6
KINDS = [k.value for k in AnswerKind]

DECODED_FORMS = [f for f in QuestionForm if f is not QuestionForm.RANGE]  # a range is read by rules, never decoded
VOCAB = [
    "<pad>", "<bos>", "<eos>",
    *[f"form:{f.value}" for f in DECODED_FORMS],
    "<t>", "is a",
    *[f"?u{i}" for i in range(1, MAX_UNKNOWNS + 1)],
    "order", "asc", "desc", "nolimit", *[f"limit:{i}" for i in range(1, MAX_LIMIT + 1)],
    "filter", *[f"op:{op}" for op in OPERATORS],
    "select", "count",
]
TOKEN_ID = {t: i for i, t in enumerate(VOCAB)}
PAD, BOS, EOS, TRIPLE, ISA = (TOKEN_ID[t] for t in ("<pad>", "<bos>", "<eos>", "<t>", "is a"))
FORM_IDS = [TOKEN_ID[f"form:{f.value}"] for f in DECODED_FORMS]
UNKNOWN_IDS = [TOKEN_ID[f"?u{i}"] for i in range(1, MAX_UNKNOWNS + 1)]
ORDER, ASC, DESC, NOLIMIT = (TOKEN_ID[t] for t in ("order", "asc", "desc", "nolimit"))
LIMIT_IDS = [TOKEN_ID[f"limit:{i}"] for i in range(1, MAX_LIMIT + 1)]
FILTER, SELECT, BY_COUNT = TOKEN_ID["filter"], TOKEN_ID["select"], TOKEN_ID["count"]
OP_IDS = [TOKEN_ID[f"op:{op}"] for op in OPERATORS]
V = len(VOCAB)
SHAPE_FEATURES = 7
# Ending while a name of the question is still uncopied is made 4x less likely (`greedy_decode`): the
# model tends to stop after "?u1 | is a | countries" in "Which countries use the Euro?". Chosen on our
# own KGQAN dev questions and the derived dev split (MODEL_CARD.md), never on evaluation questions.
EOS_PENALTY = 4.0
BEAM = 4  # hypotheses per question (1: greedy); see the model card, "Decoding"
LENGTH_ALPHA = 0.0  # beam hypotheses are ranked by log-probability / length ** LENGTH_ALPHA
SMALL_BATCH = 8  # fewer questions than this run on one torch thread


@dataclass(frozen=True)
class ModelConfig:
    d_model: int = 192
    heads: int = 4
    encoder_layers: int = 1
    decoder_layers: int = 2
    feed_forward: int = 768
    dropout: float = 0.15
    minilm_dim: int = 384
    tuned_layers: int = 0  # top MiniLM layers fine-tuned with the model (stored with it); the rest stay frozen

    @property
    def feature_layers(self) -> tuple[int, int]:
        """The frozen MiniLM hidden states the model reads: layer 3 and the input of the tuned layers."""
        if not 0 <= self.tuned_layers <= MINILM_LAYERS - LOW_LAYER:
            raise ValueError(f"tuned_layers must be between 0 and {MINILM_LAYERS - LOW_LAYER}")
        return (LOW_LAYER, MINILM_LAYERS - self.tuned_layers)


# --- source side -----------------------------------------------------------------------------------
@dataclass
class Source:
    """One tokenized question: word pieces, their character offsets and word-shape features."""

    question: str
    input_ids: list[int]
    offsets: list[tuple[int, int]]
    word_start: list[bool]
    word_end: list[bool]
    shape: list[list[float]]


def tokenize(tokenizer: Any, questions: list[str]) -> list[Source]:
    encoded = tokenizer(questions, return_offsets_mapping=True, truncation=True, max_length=MAX_SOURCE_PIECES)
    sources = []
    for question, ids, offsets in zip(questions, encoded["input_ids"], encoded["offset_mapping"], strict=True):
        offsets = [tuple(o) for o in offsets]
        n = len(ids)
        real = [offsets[i][1] > offsets[i][0] for i in range(n)]
        word_start = [real[i] and (i == 0 or offsets[i - 1][1] != offsets[i][0] or not _is_word_char(question, offsets[i][0])
                                   or not _is_word_char(question, offsets[i][0] - 1)) for i in range(n)]
        word_end = [real[i] and (i + 1 >= n or not real[i + 1] or word_start[i + 1]) for i in range(n)]
        quotes = _inside_quotes(question)
        shape = []
        for i in range(n):
            start, end = offsets[i]
            piece = question[start:end]
            shape.append([
                float(bool(piece) and piece[0].isupper()),
                float(bool(piece) and piece.isupper() and len(piece) > 1),
                float(any(c.isdigit() for c in piece)),
                float(bool(piece) and not any(c.isalnum() for c in piece)),
                float(word_start[i]),
                float(bool(piece) and quotes[start]),
                float(not real[i]),
            ])
        sources.append(Source(question, list(ids), offsets, word_start, word_end, shape))
    return sources


def _is_word_char(text: str, index: int) -> bool:
    return 0 <= index < len(text) and text[index].isalnum()


def _inside_quotes(text: str) -> list[bool]:
    inside = [False] * (len(text) + 1)
    state = False
    for i, char in enumerate(text):
        if char in "\"“”" or (char == "'" and (i == 0 or not text[i - 1].isalnum() or i + 1 == len(text) or not text[i + 1].isalnum())):
            state = not state
            continue
        inside[i] = state
    return inside


def encoder_features(bert: Any, sources: list[Source], layers: tuple[int, ...]) -> list[torch.Tensor]:
    """Frozen MiniLM hidden states (`layers`, concatenated) per question, shape (n, len(layers)*384)."""
    if not sources:
        return []
    length = max(len(s.input_ids) for s in sources)
    ids = torch.zeros((len(sources), length), dtype=torch.long)
    mask = torch.zeros((len(sources), length), dtype=torch.long)
    for row, source in enumerate(sources):
        ids[row, : len(source.input_ids)] = torch.tensor(source.input_ids)
        mask[row, : len(source.input_ids)] = 1
    # the plain-torch encoder (inference) can stop at the highest layer read; Hugging Face's runs all
    stop = {"max_layers": max(layers)} if isinstance(bert, BertEncoder) else {}
    with torch.inference_mode():
        out = bert(input_ids=ids, attention_mask=mask, output_hidden_states=True, **stop)
    stacked = torch.cat([out.hidden_states[i] for i in layers], dim=-1)
    return [stacked[row, : len(s.input_ids)].clone() for row, s in enumerate(sources)]


# --- the grammar -----------------------------------------------------------------------------------
class Grammar:
    """The PGP decoder grammar as a state machine over the output space [vocabulary | start pointers |
    end pointers]: `allowed()` says which outputs may come next, `advance()` takes one."""

    def __init__(self, source: Source) -> None:
        self.n = len(source.input_ids)
        self.word_start = np.array(source.word_start, dtype=bool)
        self.word_end = np.array(source.word_end, dtype=bool)
        self.quoted = np.array([bool(shape[5]) for shape in source.shape], dtype=bool)
        self.state = "form"
        self.form: int | None = None
        self.used: list[int] = []  # unknown numbers used in triples
        self.triples = 0
        self.slot: list[str] = []  # kinds of the current triple's parts: "u" or "span" or "isa"
        self.span_start: int | None = None
        self.after_span = ""
        self.ordered = False
        self.selected: list[int] = []
        self.covered = np.zeros(self.n, dtype=bool)  # word pieces some emitted span copies
        self.done = False
        self.steps = 0
        self._subject_unknown: int | None = None

    def size(self) -> int:
        return V + 2 * self.n

    def allowed(self) -> np.ndarray:
        mask = np.zeros(self.size(), dtype=bool)
        state = self.state
        if self.done:
            mask[PAD] = True
            return mask
        if state == "form":
            mask[FORM_IDS] = True
        elif state == "next":
            mask[TRIPLE] = self.triples < MAX_TRIPLES
            if self.triples and self._can_end():  # modifiers come after the triples, once ?u1 is in one
                mask[EOS] = True
                if self.used:
                    mask[[FILTER, SELECT]] = True
                    mask[ORDER] = not self.ordered
        elif state == "after_modifier":
            mask[EOS] = True
            if self.used:
                mask[FILTER] = True
                mask[SELECT] = True
                mask[ORDER] = not self.ordered
        elif state == "subject":
            # targets put the unknown first; only a yes/no fact check starts with a phrase
            if self.triples == MAX_TRIPLES - 1 and not self._can_end():  # the last triple must hold the answer
                mask[UNKNOWN_IDS[0]] = True
                return mask
            self._unknowns(mask, fresh=True)
            if self.form == TOKEN_ID["form:boolean"]:
                mask[V: V + self.n] = self.word_start
        elif state == "relation":
            mask[ISA] = True
            mask[V: V + self.n] = self.word_start
        elif state == "object":
            subject_is_unknown = self.slot[0] == "u"
            if self.slot[1] == "isa":
                mask[V: V + self.n] = self.word_start
            else:
                self._unknowns(mask, fresh=True, exclude=self._subject_unknown)
                if subject_is_unknown or self.form == TOKEN_ID["form:boolean"]:
                    mask[V: V + self.n] = self.word_start
        elif state == "span_end":
            start = self.span_start or 0
            ends = np.zeros(self.n, dtype=bool)
            ends[start: min(self.n, start + MAX_SPAN_PIECES)] = True
            if self.quoted[start]:  # a span begun inside quotes ends at the closing quote
                outside = np.flatnonzero(~self.quoted[start:])
                if outside.size:
                    ends[start + outside[0]:] = False
            mask[V + self.n:] = ends & self.word_end
            if not mask[V + self.n:].any():
                mask[V + self.n + start] = True
        elif state in ("order_node", "filter_node"):
            for u in self.used:
                mask[UNKNOWN_IDS[u - 1]] = True
            mask[BY_COUNT] = any(u != 1 for u in self.used)  # ordered/filtered by how many ?uN each answer has
        elif state in ("order_count_node", "filter_count_node"):
            for u in self.used:
                mask[UNKNOWN_IDS[u - 1]] = u != 1
        elif state == "order_dir":
            mask[[ASC, DESC]] = True
        elif state == "order_limit":
            mask[NOLIMIT] = True
            mask[LIMIT_IDS] = True
        elif state == "filter_op":
            mask[OP_IDS] = True
        elif state == "filter_value":
            mask[V: V + self.n] = self.word_start
        elif state == "select":
            for u in self.used:
                if u not in self.selected:
                    mask[UNKNOWN_IDS[u - 1]] = True
            if len(self.selected) >= 1 and self._can_end():
                mask[EOS] = True
        if self.steps >= MAX_STEPS - 3 and mask[EOS]:
            mask[:] = False
            mask[EOS] = True
        return mask

    def _can_end(self) -> bool:
        return 1 in self.used or (self.form == TOKEN_ID["form:boolean"] and not self.used)

    def _unknowns(self, mask: np.ndarray, fresh: bool, exclude: int | None = None) -> None:
        # ?u1 (the answer) is always known; other unknowns are introduced in order
        limit = min(MAX_UNKNOWNS, max([1, *self.used]) + 1) if fresh else 0
        for u in range(1, limit + 1):
            if u != exclude:
                mask[UNKNOWN_IDS[u - 1]] = True

    def advance(self, output: int) -> None:
        self.steps += 1
        state = self.state
        if output == EOS or self.done:
            self.done = True
            self.state = "done"
            return
        if state == "form":
            self.form = output
            self.state = "next"
        elif state in ("next", "after_modifier"):
            if output == TRIPLE:
                self.slot = []
                self._subject_unknown = None
                self.state = "subject"
            elif output == ORDER:
                self.ordered = True
                self.state = "order_node"
            elif output == FILTER:
                self.state = "filter_node"
            elif output == SELECT:
                self.state = "select"
        elif state in ("subject", "relation", "object"):
            if output >= V:
                self.span_start = output - V
                self.after_span = state
                self.state = "span_end"
                return
            if output == ISA:
                self.slot.append("isa")
                self.state = "object"
                return
            u = UNKNOWN_IDS.index(output) + 1
            self.slot.append("u")
            if u not in self.used:
                self.used.append(u)
            if state == "subject":
                self._subject_unknown = u
                self.state = "relation"
            else:
                self._end_triple()
        elif state == "span_end":
            self.covered[self.span_start or 0: output - V - self.n + 1] = True
            self.slot.append("span")
            previous = self.after_span
            if previous == "subject":
                self.state = "relation"
            elif previous == "relation":
                self.state = "object"
            elif previous == "object":
                self._end_triple()
            elif previous == "filter_value":
                self.state = "after_modifier"
        elif state in ("order_node", "filter_node") and output == BY_COUNT:
            self.state = state.replace("_node", "_count_node")
        elif state in ("order_node", "order_count_node"):
            self.state = "order_dir"
        elif state == "order_dir":
            self.state = "order_limit"
        elif state == "order_limit":
            self.state = "after_modifier"
        elif state in ("filter_node", "filter_count_node"):
            self.state = "filter_op"
        elif state == "filter_op":
            self.state = "filter_value"
        elif state == "filter_value":
            self.span_start = output - V
            self.after_span = "filter_value"
            self.state = "span_end"
        elif state == "select":
            self.selected.append(UNKNOWN_IDS.index(output) + 1)

    def _end_triple(self) -> None:
        self.triples += 1
        self.state = "next"

    def clone(self) -> Grammar:
        """An independent copy (for beam search); the source's arrays are shared, they never change."""
        twin = copy.copy(self)
        twin.used, twin.slot, twin.selected = list(self.used), list(self.slot), list(self.selected)
        twin.covered = self.covered.copy()
        return twin


def render(source: Source, outputs: list[int]) -> str:
    """The PGP text form of a decoded output sequence; phrases are cut from the question."""
    n = len(source.input_ids)
    question = source.question
    parts: list[str] = []
    i = 0

    def phrase(start: int, end: int) -> str:
        return clean_phrase(question[source.offsets[start][0]: source.offsets[end][1]])

    form = ""
    triples: list[str] = []
    sections: list[str] = []
    while i < len(outputs):
        token = outputs[i]
        if token == EOS:
            break
        if token in FORM_IDS:
            form = VOCAB[token][5:]
            i += 1
        elif token == TRIPLE:
            items: list[str] = []
            i += 1
            while len(items) < 3 and i < len(outputs):
                token = outputs[i]
                if V <= token < V + n and i + 1 < len(outputs):
                    items.append(phrase(token - V, outputs[i + 1] - V - n))
                    i += 2
                else:
                    items.append(VOCAB[token])
                    i += 1
            triples.append(" | ".join(items))
        elif token in (ORDER, FILTER):
            count = "count " if i + 1 < len(outputs) and outputs[i + 1] == BY_COUNT else ""
            i += 2 if count else 1
            if token == ORDER:
                node, direction, limit = (VOCAB[t] for t in outputs[i: i + 3])
                limit_text = "" if limit == "nolimit" else " " + limit.split(":")[1]
                sections.append(f"order {count}{node} {direction}{limit_text}")
                i += 3
            else:
                node, op = VOCAB[outputs[i]], VOCAB[outputs[i + 1]][3:]
                value = phrase(outputs[i + 2] - V, outputs[i + 3] - V - n)
                sections.append(f"filter {count}{node} {op} {value}")
                i += 4
        elif token == SELECT:
            i += 1
            nodes = []
            while i < len(outputs) and outputs[i] in UNKNOWN_IDS:
                nodes.append(VOCAB[outputs[i]])
                i += 1
            sections.append("select " + " ".join(nodes))
        else:
            i += 1
    parts = [form, " ; ".join(triples), *sections]
    return " :: ".join(parts)


# --- the network -----------------------------------------------------------------------------------
class MiniLMLayer(nn.Module):
    """A copy of one MiniLM (BERT, post-norm) encoder layer that is fine-tuned with the pattern model.
    Written out here rather than reusing transformers' BertLayer, whose call signature changes
    between releases; `copy_from` takes the pretrained weights."""

    def __init__(self, hidden: int = 384, heads: int = 12, intermediate: int = 1536, dropout: float = 0.1) -> None:
        super().__init__()
        self.heads = heads
        self.query, self.key, self.value = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, hidden)
        self.attention_out = nn.Linear(hidden, hidden)
        self.attention_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.ff_in = nn.Linear(hidden, intermediate)
        self.ff_out = nn.Linear(intermediate, hidden)
        self.ff_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.dropout = nn.Dropout(dropout)

    _BERT_NAMES = {
        "query": "attention.self.query", "key": "attention.self.key", "value": "attention.self.value",
        "attention_out": "attention.output.dense", "attention_norm": "attention.output.LayerNorm",
        "ff_in": "intermediate.dense", "ff_out": "output.dense", "ff_norm": "output.LayerNorm",
    }

    def copy_from(self, bert_layer: nn.Module) -> None:
        state = bert_layer.state_dict()
        self.load_state_dict({f"{ours}.{p}": state[f"{theirs}.{p}"] for ours, theirs in self._BERT_NAMES.items()
                              for p in ("weight", "bias")})

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        return x.view(b, t, self.heads, d // self.heads).transpose(1, 2)

    def forward(self, x: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """x (B, S, 384); attention_mask (B, 1, 1, S), True where a key is real."""
        q, k, v = self._split(self.query(x)), self._split(self.key(x)), self._split(self.value(x))
        attended = F.scaled_dot_product_attention(
            q, k, v, attn_mask=attention_mask, dropout_p=self.dropout.p if self.training else 0.0
        )
        b, h, t, dh = attended.shape
        attended = attended.transpose(1, 2).reshape(b, t, h * dh)
        x = self.attention_norm(x + self.dropout(self.attention_out(attended)))
        return self.ff_norm(x + self.dropout(self.ff_out(F.gelu(self.ff_in(x)))))


class DecoderLayer(nn.Module):
    """Pre-norm transformer decoder layer with a key/value cache for incremental decoding."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        d = config.d_model
        self.heads = config.heads
        self.self_qkv = nn.Linear(d, 3 * d)
        self.self_out = nn.Linear(d, d)
        self.cross_q = nn.Linear(d, d)
        self.cross_kv = nn.Linear(d, 2 * d)
        self.cross_out = nn.Linear(d, d)
        self.ff = nn.Sequential(nn.Linear(d, config.feed_forward), nn.GELU(), nn.Linear(config.feed_forward, d))
        self.norm1, self.norm2, self.norm3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.dropout = nn.Dropout(config.dropout)

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        return x.view(b, t, self.heads, d // self.heads).transpose(1, 2)

    def _merge(self, x: torch.Tensor) -> torch.Tensor:
        b, h, t, dh = x.shape
        return x.transpose(1, 2).reshape(b, t, h * dh)

    def memory(self, encoded: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        k, v = self.cross_kv(encoded).chunk(2, dim=-1)
        return self._split(k), self._split(v)

    def forward(
        self,
        x: torch.Tensor,
        memory: tuple[torch.Tensor, torch.Tensor],
        memory_mask: torch.Tensor,
        cache: dict[str, torch.Tensor] | None = None,
    ) -> torch.Tensor:
        h = self.norm1(x)
        q, k, v = (self._split(part) for part in self.self_qkv(h).chunk(3, dim=-1))
        if cache is not None:
            if "k" in cache:
                k = torch.cat([cache["k"], k], dim=2)
                v = torch.cat([cache["v"], v], dim=2)
            cache["k"], cache["v"] = k, v
            attended = F.scaled_dot_product_attention(q, k, v, is_causal=q.shape[2] > 1)
        else:
            attended = F.scaled_dot_product_attention(
                q, k, v, is_causal=True, dropout_p=self.dropout.p if self.training else 0.0
            )
        x = x + self.dropout(self.self_out(self._merge(attended)))
        h = self.norm2(x)
        attended = F.scaled_dot_product_attention(self._split(self.cross_q(h)), memory[0], memory[1], attn_mask=memory_mask)
        x = x + self.dropout(self.cross_out(self._merge(attended)))
        return x + self.dropout(self.ff(self.norm3(x)))


class PatternNet(nn.Module):
    """The trainable part: adapter encoder, pointer decoder, answer-kind classifier."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.config = config
        d = config.d_model
        self.tuned = nn.ModuleList(MiniLMLayer(config.minilm_dim) for _ in range(config.tuned_layers))
        self.source_in = nn.Linear(config.minilm_dim * 2 + SHAPE_FEATURES, d)
        self.source_position = nn.Embedding(MAX_SOURCE_PIECES + 2, d)
        layer = nn.TransformerEncoderLayer(d, config.heads, config.feed_forward, config.dropout, batch_first=True, norm_first=True)
        self.adapter = nn.TransformerEncoder(layer, config.encoder_layers, enable_nested_tensor=False)
        self.adapter_norm = nn.LayerNorm(d)
        self.token_embedding = nn.Embedding(V, d)
        self.pointer_type = nn.Embedding(2, d)
        self.pointer_in = nn.Linear(d, d)
        self.target_position = nn.Embedding(MAX_STEPS + 2, d)
        self.layers = nn.ModuleList(DecoderLayer(config) for _ in range(config.decoder_layers))
        self.out_norm = nn.LayerNorm(d)
        self.vocab_out = nn.Linear(d, V)
        self.start_query, self.start_key = nn.Linear(d, d), nn.Linear(d, d)
        self.end_query, self.end_key = nn.Linear(d, d), nn.Linear(d, d)
        self.kind_head = nn.Sequential(nn.Linear(d, d), nn.GELU(), nn.Linear(d, len(KINDS)))

    def encode(self, features: torch.Tensor, shape: torch.Tensor, source_mask: torch.Tensor) -> torch.Tensor:
        """features (B, S, 768): frozen MiniLM layers `config.feature_layers`; shape (B, S, 7);
        source_mask (B, S) True where real."""
        if len(self.tuned):
            low, top = features.split(self.config.minilm_dim, dim=-1)
            attention_mask = source_mask[:, None, None, :]
            for layer in self.tuned:
                top = layer(top, attention_mask)
            features = torch.cat([low, top], dim=-1)
        positions = torch.arange(features.shape[1], device=features.device)
        x = self.source_in(torch.cat([features, shape], dim=-1)) + self.source_position(positions)
        x = self.adapter(x, src_key_padding_mask=~source_mask)
        return self.adapter_norm(x)

    def kind_logits(self, encoded: torch.Tensor, source_mask: torch.Tensor) -> torch.Tensor:
        weights = source_mask.unsqueeze(-1).float()
        pooled = (encoded * weights).sum(1) / weights.sum(1).clamp(min=1.0)
        return self.kind_head(pooled)

    def embed_outputs(self, outputs: torch.Tensor, encoded: torch.Tensor, offset: int = 0) -> torch.Tensor:
        """Decoder inputs: vocabulary embeddings, or the pointed-at encoder state for pointer outputs."""
        n = encoded.shape[1]
        is_start = (outputs >= V) & (outputs < V + n)
        is_end = outputs >= V + n
        vocab_ids = torch.where(is_start | is_end, torch.zeros_like(outputs), outputs)
        x = self.token_embedding(vocab_ids)
        position = torch.where(is_start, outputs - V, torch.where(is_end, outputs - V - n, torch.zeros_like(outputs)))
        pointed = torch.gather(encoded, 1, position.unsqueeze(-1).expand(-1, -1, encoded.shape[-1]))
        pointer = self.pointer_in(pointed) + self.pointer_type(is_end.long())
        x = torch.where((is_start | is_end).unsqueeze(-1), pointer, x)
        steps = torch.arange(offset, offset + outputs.shape[1], device=outputs.device)
        return x + self.target_position(steps)

    def memories(self, encoded: torch.Tensor) -> list[tuple[torch.Tensor, torch.Tensor]]:
        return [layer.memory(encoded) for layer in self.layers]

    def decode(
        self,
        x: torch.Tensor,
        memories: list[tuple[torch.Tensor, torch.Tensor]],
        memory_mask: torch.Tensor,
        caches: list[dict[str, torch.Tensor]] | None = None,
    ) -> torch.Tensor:
        for index, layer in enumerate(self.layers):
            x = layer(x, memories[index], memory_mask, None if caches is None else caches[index])
        return self.out_norm(x)

    def output_logits(self, hidden: torch.Tensor, encoded: torch.Tensor) -> torch.Tensor:
        """(B, T, V + 2S): vocabulary, then span-start and span-end pointers over the source."""
        scale = 1.0 / math.sqrt(self.config.d_model)
        start = torch.einsum("btd,bsd->bts", self.start_query(hidden), self.start_key(encoded)) * scale
        end = torch.einsum("btd,bsd->bts", self.end_query(hidden), self.end_key(encoded)) * scale
        return torch.cat([self.vocab_out(hidden), start, end], dim=-1)

    def forward(
        self, features: torch.Tensor, shape: torch.Tensor, source_mask: torch.Tensor, decoder_inputs: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        encoded = self.encode(features, shape, source_mask)
        memory_mask = source_mask[:, None, None, :]
        hidden = self.decode(self.embed_outputs(decoder_inputs, encoded), self.memories(encoded), memory_mask)
        return self.output_logits(hidden, encoded), self.kind_logits(encoded, source_mask)


def remap_output(token: int, n_own: int, n_batch: int) -> int:
    """Pointer ids depend on the source length; converts an id for length n_own to a padded batch."""
    if token < V:
        return token
    if token < V + n_own:
        return token
    return token - n_own + n_batch


def pad_sources(sources: list[Source], features: list[torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    length = max(len(s.input_ids) for s in sources)
    dim = features[0].shape[-1]
    batch_features = torch.zeros((len(sources), length, dim))
    batch_shape = torch.zeros((len(sources), length, SHAPE_FEATURES))
    mask = torch.zeros((len(sources), length), dtype=torch.bool)
    for row, (source, feature) in enumerate(zip(sources, features, strict=True)):
        n = len(source.input_ids)
        batch_features[row, :n] = feature.float()
        batch_shape[row, :n] = torch.tensor(source.shape)
        mask[row, :n] = True
    return batch_features, batch_shape, mask


def named_pieces(source: Source) -> np.ndarray:
    """Word pieces that look like part of a name or value (capitalised, all caps, digits, quoted),
    the question's first word excepted: a pattern is expected to copy each of them somewhere."""
    shape = np.array(source.shape, dtype=bool).reshape(len(source.input_ids), SHAPE_FEATURES)
    named = shape[:, 0] | shape[:, 1] | shape[:, 2] | shape[:, 5]
    real = ~shape[:, 6]
    first_word = np.flatnonzero(real & shape[:, 4])[:2]
    if len(first_word):
        stop = first_word[1] if len(first_word) > 1 else len(named)
        named[first_word[0]: stop] = False
    return named & real


def allowed_logits(logits: np.ndarray, row: int, length: int, grammar: Grammar) -> tuple[np.ndarray, np.ndarray]:
    """Row `row`'s logits over its own source ([vocabulary | span starts | span ends], `length` the
    padded batch length) with what the grammar forbids at -inf; and the grammar's mask."""
    n = grammar.n
    own = np.concatenate([logits[row, :V], logits[row, V: V + n], logits[row, V + length: V + length + n]])
    allowed = grammar.allowed()
    return np.where(allowed, own, -np.inf), allowed


def number_pieces(source: Source) -> np.ndarray:
    """Word pieces with digits: a value the question compares or counts with ("more than 5")."""
    return np.array(source.shape, dtype=bool).reshape(len(source.input_ids), SHAPE_FEATURES)[:, 2]


def names_uncopied(named: np.ndarray, grammar: Grammar) -> bool:
    """Whether a name or value of the question (`named_pieces`) is still copied by no span."""
    return bool((named & ~grammar.covered).any())


@torch.inference_mode()
def greedy_decode(net: PatternNet, sources: list[Source], features: list[torch.Tensor],
                  eos_penalty: float = 1.0) -> tuple[list[list[int]], torch.Tensor]:
    """Constrained greedy decoding with key/value caches; returns output ids (own-length pointer ids)
    and the answer-kind probabilities. While a name or value of the question is copied by no span,
    ending is `eos_penalty` times less likely (1: no penalty)."""
    batch_features, batch_shape, source_mask = pad_sources(sources, features)
    encoded = net.encode(batch_features, batch_shape, source_mask)
    kind_probs = net.kind_logits(encoded, source_mask).softmax(-1)
    memories = net.memories(encoded)
    memory_mask = source_mask[:, None, None, :]
    b, length = source_mask.shape
    grammars = [Grammar(s) for s in sources]
    named = [named_pieces(s) for s in sources]
    penalty = float(np.log(eos_penalty)) if eos_penalty > 1.0 else 0.0
    caches: list[dict[str, torch.Tensor]] = [{} for _ in net.layers]
    outputs: list[list[int]] = [[] for _ in sources]
    current = torch.full((b, 1), BOS, dtype=torch.long)
    for step in range(MAX_STEPS):
        hidden = net.decode(net.embed_outputs(current, encoded, offset=step), memories, memory_mask, caches)
        logits = net.output_logits(hidden, encoded)[:, -1].numpy()
        chosen = np.empty(b, dtype=np.int64)
        for row, grammar in enumerate(grammars):
            n = grammar.n
            if grammar.done:
                chosen[row] = PAD
                continue
            own, allowed = allowed_logits(logits, row, length, grammar)
            if penalty and allowed[EOS] and names_uncopied(named[row], grammar):
                own[EOS] -= penalty
            token = int(own.argmax())
            grammar.advance(token)
            outputs[row].append(token)
            chosen[row] = remap_output(token, n, length)
        if all(g.done for g in grammars):
            break
        current = torch.from_numpy(chosen).unsqueeze(1)
    return outputs, kind_probs


@torch.inference_mode()
def beam_decode(net: PatternNet, sources: list[Source], features: list[torch.Tensor], beam: int,
                eos_penalty: float = 1.0, length_alpha: float = 0.0) -> tuple[list[list[int]], torch.Tensor]:
    """The best hypothesis of `beam_search` per question."""
    ranked, kind_probs = beam_search(net, sources, features, beam, eos_penalty, length_alpha)
    return [hypotheses[0] for hypotheses in ranked], kind_probs


@torch.inference_mode()
def beam_search(net: PatternNet, sources: list[Source], features: list[torch.Tensor], beam: int,
                eos_penalty: float = 1.0, length_alpha: float = 0.0) -> tuple[list[list[list[int]]], torch.Tensor]:
    """Constrained beam search: `beam` hypotheses per question, each under its own grammar; per
    question the finished ones, best first: those that copy every number of the question, then those
    that copy every name and value, then by summed log-probability (divided by length ** `length_alpha`). Same outputs and
    end-of-pattern penalty as `greedy_decode`, which the best equals with `beam` 1."""
    batch_features, batch_shape, source_mask = pad_sources(sources, features)
    encoded = net.encode(batch_features, batch_shape, source_mask)
    kind_probs = net.kind_logits(encoded, source_mask).softmax(-1)
    b, length = source_mask.shape
    rows = torch.arange(b).repeat_interleave(beam)  # row r * beam + k is hypothesis k of question r
    encoded = encoded[rows]
    memories = net.memories(encoded)
    memory_mask = source_mask[rows][:, None, None, :]
    numbers = [number_pieces(s) for s in sources]
    named = [named_pieces(s) for s in sources]
    penalty = float(np.log(eos_penalty)) if eos_penalty > 1.0 else 0.0
    grammars = [Grammar(sources[r]) for r in range(b) for _ in range(beam)]
    outputs: list[list[int]] = [[] for _ in grammars]
    scores = np.full(b * beam, -np.inf)
    scores[::beam] = 0.0  # one live hypothesis per question at the start
    caches: list[dict[str, torch.Tensor]] = [{} for _ in net.layers]
    current = torch.full((b * beam, 1), BOS, dtype=torch.long)
    for step in range(MAX_STEPS):
        hidden = net.decode(net.embed_outputs(current, encoded, offset=step), memories, memory_mask, caches)
        logits = net.output_logits(hidden, encoded)[:, -1].numpy()
        parents: list[int] = []
        chosen: list[int] = []
        next_grammars: list[Grammar] = []
        next_outputs: list[list[int]] = []
        next_scores = np.full(b * beam, -np.inf)
        for r in range(b):
            n = grammars[r * beam].n
            candidates: list[tuple[float, int, int]] = []  # (score, hypothesis row, output)
            for row in range(r * beam, (r + 1) * beam):
                if scores[row] == -np.inf:
                    continue
                grammar = grammars[row]
                if grammar.done:
                    candidates.append((scores[row], row, PAD))
                    continue
                own, allowed = allowed_logits(logits, row, length, grammar)
                top = own.max()
                log_probs = own - (top + np.log(np.exp(own - top).sum()))
                if penalty and allowed[EOS] and names_uncopied(named[r], grammar):
                    log_probs[EOS] -= penalty
                best = np.argpartition(-log_probs, min(beam, len(log_probs) - 1))[:beam]
                candidates.extend((scores[row] + log_probs[t], row, int(t)) for t in best if log_probs[t] > -np.inf)
            candidates.sort(key=lambda c: -c[0])
            for k, (score, row, token) in enumerate(candidates[:beam]):
                grammar = grammars[row].clone()
                if token != PAD:
                    grammar.advance(token)
                next_grammars.append(grammar)
                next_outputs.append(outputs[row] + ([token] if token != PAD else []))
                next_scores[r * beam + k] = score
                parents.append(row)
                chosen.append(remap_output(token, n, length))
            for _ in range(beam - min(beam, len(candidates))):  # fewer candidates than hypotheses: dead rows
                next_grammars.append(grammars[r * beam].clone())
                next_outputs.append([])
                parents.append(r * beam)
                chosen.append(PAD)
        grammars, outputs, scores = next_grammars, next_outputs, next_scores
        if all(g.done for g, score in zip(grammars, scores, strict=True) if score > -np.inf):
            break
        index = torch.tensor(parents, dtype=torch.long)
        for cache in caches:
            cache["k"], cache["v"] = cache["k"][index], cache["v"][index]
        current = torch.tensor(chosen, dtype=torch.long).unsqueeze(1)
    ranked: list[list[list[int]]] = []
    for r in range(b):
        hypotheses = [(not names_uncopied(named[r] & numbers[r], grammars[row]), not names_uncopied(named[r], grammars[row]),
                       scores[row] / max(1, len(outputs[row])) ** length_alpha, row)
                      for row in range(r * beam, (r + 1) * beam) if scores[row] > -np.inf and grammars[row].done]
        if not hypotheses:  # none finished within MAX_STEPS: the best unfinished one
            hypotheses = [(False, False, scores[row], row) for row in range(r * beam, (r + 1) * beam)]
        ranked.append([outputs[row] for *_, row in sorted(hypotheses, reverse=True)])
    return ranked, kind_probs


class PatternModel:
    """Loaded model: `predict(questions)` -> PGP text and answer kind per question (batched)."""

    def __init__(self, net: PatternNet, bert: Any, tokenizer: Any, batch_size: int = 32,
                 eos_penalty: float = EOS_PENALTY, beam: int = BEAM, length_alpha: float = LENGTH_ALPHA) -> None:
        self.net = net.eval()
        self.eos_penalty = eos_penalty
        self.beam = beam
        self.length_alpha = length_alpha
        self.single_thread_for_few = True  # see `understanding.resources.torch_threads`
        self.bert = bert
        self.tokenizer = tokenizer
        self.batch_size = batch_size
        self._lock = threading.Lock()

    def predict(self, questions: list[str]) -> list[ModelOutput]:
        with self._lock:
            if len(questions) < SMALL_BATCH and self.single_thread_for_few:
                with torch_threads(1):
                    return self._predict(questions)
            return self._predict(questions)

    def _predict(self, questions: list[str]) -> list[ModelOutput]:
        out: list[ModelOutput] = []
        for begin in range(0, len(questions), self.batch_size):
            chunk = questions[begin: begin + self.batch_size]
            sources = tokenize(self.tokenizer, chunk)
            features = encoder_features(self.bert, sources, self.net.config.feature_layers)
            if self.beam > 1:
                ranked, kind_probs = beam_search(self.net, sources, features, self.beam, self.eos_penalty,
                                                 self.length_alpha)
            else:
                decoded, kind_probs = greedy_decode(self.net, sources, features, self.eos_penalty)
                ranked = [[outputs] for outputs in decoded]
            for source, hypotheses, probs in zip(sources, ranked, kind_probs, strict=True):
                best = int(probs.argmax())
                texts = list(dict.fromkeys(render(source, outputs) for outputs in hypotheses))
                out.append(ModelOutput(texts[0], AnswerKind(KINDS[best]), round(float(probs[best]), 3),
                                       tuple(texts[1:])))
        return out


def save_net(net: PatternNet, metadata: dict[str, Any], weights_dir: Path = WEIGHTS_DIR) -> Path:
    """Writes the trainable part as fp16 safetensors plus its config; returns the weights file."""
    from safetensors.torch import save_file

    weights_dir.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().to(torch.float16).contiguous() for k, v in net.state_dict().items()}
    weights_file = weights_dir / WEIGHTS_FILE.name
    save_file(state, str(weights_file))
    (weights_dir / CONFIG_FILE.name).write_text(
        json.dumps({"config": asdict(net.config), "vocab": VOCAB, **metadata}, indent=2) + "\n"
    )
    return weights_file


def load_pattern_model(weights_dir: Path = WEIGHTS_DIR) -> PatternModel:
    """Loads the trained model once per parser (the parser itself is process-wide)."""
    weights_file, config_file = weights_dir / WEIGHTS_FILE.name, weights_dir / CONFIG_FILE.name
    if not weights_file.exists() or not config_file.exists():
        raise FileNotFoundError(f"{weights_file} is missing")
    from safetensors.torch import load_file

    from understanding.resources import minilm

    meta = json.loads(config_file.read_text())
    if meta.get("vocab") != VOCAB:
        raise ValueError("the weights were trained with another output vocabulary; retrain the model")
    net = PatternNet(ModelConfig(**meta["config"]))
    state = {k: v.float() for k, v in load_file(str(weights_file)).items()}
    net.load_state_dict(state)
    encoder = minilm()  # plain-torch MiniLM: the same hidden states, without sentence-transformers' imports
    return PatternModel(net, encoder.model, encoder.tokenizer)
