"""Builds (or refreshes) the HubLink index of one endpoint: hubs, paths, embeddings, files.

As in the thesis's `HubBuilder._ensure_hub_path_is_stored`, each path is embedded twice over: its text
and each of its triples as `(subject, predicate, object)`. Identical texts inside one hub share one vector
row that points to every path containing it, and each distinct text is embedded once per build. A
refresh re-reads the endpoint, keeps the rows and vectors of every hub whose content hash (over its path
hashes) is unchanged, and embeds only the hubs that changed or are new (the thesis's
`_check_if_hub_needs_rebuilding`). What each path says without its hub's name (`HubPath.descriptions`:
"venue -> ICSA" and "venue") is embedded too, once per distinct text: descriptions are not searched,
they rank the paths inside the retrieved hubs.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from gateway.endpoint import Endpoint
from hublink import embedding
from hublink.hubs import HubClassProfiler, HubDiscovery
from hublink.paths import Hub, HubPath, HubPathFetcher
from hublink.settings import HubLinkSettings
from hublink.store import (
    KIND_PATH,
    KIND_TRIPLE,
    HubIndex,
    HubRecord,
    IndexManifest,
    PartialEmbeddings,
    endpoint_dir,
)

log = logging.getLogger(__name__)

PhaseCallback = Callable[[str, int, int], None]


@dataclass
class RefreshReport:
    """What a build did with each hub compared with the previous index."""

    reused: int = 0
    reindexed: int = 0
    added: int = 0
    removed: int = 0
    reindexed_hubs: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"reused": self.reused, "reindexed": self.reindexed, "added": self.added, "removed": self.removed,
                "reindexed_hubs": self.reindexed_hubs[:50]}


@dataclass
class _HubRows:
    texts: list[str]
    kinds: list[int]
    paths: list[list[int]]  # path numbers local to the hub
    vectors: np.ndarray | None = None  # set when reused


def _rows_for(hub_paths: list[HubPath]) -> _HubRows:
    """One row per distinct (kind, text) of a hub, pointing at the hub's paths that contain it.

    A one-triple path says the same as its triple ("A -> p -> B" and "(A, p, B)"), so it gets only its
    path row: that saves a third of the embedding work on graphs like the ORKG.
    """
    where: dict[tuple[int, str], list[int]] = {}
    for number, path in enumerate(hub_paths):
        where.setdefault((KIND_PATH, path.text), []).append(number)
        if len(path.triples) == 1:
            continue
        for triple in path.triples:
            numbers = where.setdefault((KIND_TRIPLE, triple.text()), [])
            if not numbers or numbers[-1] != number:
                numbers.append(number)
    return _HubRows([t for _, t in where], [k for k, _ in where], list(where.values()))


class IndexBuilder:
    """Reads an endpoint and produces a `HubIndex` (not yet written)."""

    def __init__(self, endpoint: Endpoint, settings: HubLinkSettings, progress: PhaseCallback | None = None) -> None:
        self.endpoint = endpoint
        self.settings = settings
        self.progress = progress or (lambda phase, done, total: None)
        self.partial = PartialEmbeddings(endpoint_dir(endpoint.config), embedding.MODEL_NAME)

    async def build(self, previous: HubIndex | None = None) -> tuple[HubIndex, RefreshReport]:
        started = time.perf_counter()
        timings: dict[str, float] = {}
        self.progress("discovering hub classes", 0, 1)
        discovery = await HubClassProfiler(self.endpoint, self.settings).discover()
        timings["discovery_s"] = time.perf_counter() - started
        mark = time.perf_counter()
        fetcher = HubPathFetcher(self.endpoint, self.settings, self.progress)
        hubs = await fetcher.fetch(discovery.classes)
        if fetcher.skipped_hubs:
            discovery.notes.append(f"{fetcher.skipped_hubs} hubs were left out: the index holds at most "
                                   f"{self.settings.max_total_paths} paths (max_total_paths)")
        timings["paths_s"] = time.perf_counter() - mark
        hubs.sort(key=lambda h: h.iri)
        mark = time.perf_counter()
        index, report, embedded, resumed = await self._assemble(discovery, hubs, previous)
        timings["embedding_s"] = time.perf_counter() - mark
        timings["total_s"] = time.perf_counter() - started
        index.manifest.build = {**{k: round(v, 3) for k, v in timings.items()}, "texts_embedded": embedded,
                                "texts_resumed": resumed,
                                "refresh": report.to_dict(),
                                "truncated_hubs": sum(1 for h in hubs if h.truncated)}
        return index, report

    async def _assemble(self, discovery: HubDiscovery, hubs: list[Hub], previous: HubIndex | None
                        ) -> tuple[HubIndex, RefreshReport, int, int]:
        """The index, what the refresh did, and how many texts were embedded and how many resumed."""
        report = RefreshReport()
        old = {h.iri: h for h in previous.hubs} if previous is not None else {}
        per_hub: list[_HubRows] = []
        for hub in hubs:
            record = old.get(hub.iri)
            if record is not None and previous is not None and record.content_hash == hub.content_hash:
                report.reused += 1
                rows = _HubRows(previous.row_text[record.row_start:record.row_end],
                                previous.row_kind[record.row_start:record.row_end].astype(int).tolist(),
                                [[p - record.path_start for p in paths]
                                 for paths in previous.row_paths[record.row_start:record.row_end]],
                                previous.vectors[record.row_start:record.row_end])
                hub.paths = previous.paths[record.path_start:record.path_end]
            else:
                if record is not None:
                    report.reindexed += 1
                    report.reindexed_hubs.append(hub.iri)
                elif previous is not None:
                    report.added += 1
                    report.reindexed_hubs.append(hub.iri)
                rows = _rows_for(hub.paths)
            per_hub.append(rows)
        report.removed = len(set(old) - {h.iri for h in hubs})

        known: dict[str, np.ndarray] = {}
        if previous is not None and previous.description_vectors is not None:
            known = {text: previous.description_vectors[i] for i, text in enumerate(previous.description_text)}
        descriptions = list(dict.fromkeys(d for hub in hubs for path in hub.paths for d in path.descriptions))
        pending = list(dict.fromkeys([t for rows in per_hub if rows.vectors is None for t in rows.texts]
                                     + [t for t in descriptions if t not in known]))
        saved = await asyncio.to_thread(self.partial.load, pending)
        missing = [t for t in pending if t not in saved]
        self.progress("embedding", len(saved), len(pending))
        fresh = await embedding.encode_many(
            missing, batch_size=self.settings.embed_batch_size, chunk=self.settings.embed_chunk_size,
            progress=lambda done, total: self.progress("embedding", len(saved) + done, len(pending)),
            on_chunk=self.partial.save)
        dimension = fresh.shape[1] if fresh.size else (
            next(iter(saved.values())).shape[0] if saved else
            previous.vectors.shape[1] if previous is not None else embedding.embedding_dimension())
        fresh_row = {text: i for i, text in enumerate(missing)}
        vectors = np.zeros((len(pending), dimension), dtype=np.float32)
        for i, text in enumerate(pending):
            vectors[i] = saved[text] if text in saved else fresh[fresh_row[text]]
        position = {text: i for i, text in enumerate(pending)}

        records: list[HubRecord] = []
        all_paths: list[HubPath] = []
        row_hub: list[int] = []
        row_kind: list[int] = []
        row_text: list[str] = []
        row_paths: list[list[int]] = []
        blocks: list[np.ndarray] = []
        for number, (hub, rows) in enumerate(zip(hubs, per_hub, strict=True)):
            path_start, row_start = len(all_paths), len(row_text)
            all_paths.extend(hub.paths)
            row_hub.extend([number] * len(rows.texts))
            row_kind.extend(rows.kinds)
            row_text.extend(rows.texts)
            row_paths.extend([[path_start + p for p in paths] for paths in rows.paths])
            if rows.vectors is not None:
                blocks.append(rows.vectors)
            elif rows.texts:
                blocks.append(vectors[[position[t] for t in rows.texts]])
            records.append(HubRecord(hub.iri, hub.label, hub.hub_class, hub.content_hash, path_start,
                                     len(all_paths), row_start, len(row_text)))
        matrix = np.concatenate(blocks, axis=0) if blocks else np.zeros((0, dimension), dtype=np.float32)
        number_of = {text: i for i, text in enumerate(descriptions)}
        description_vectors = np.zeros((len(descriptions), dimension), dtype=np.float32)
        for i, text in enumerate(descriptions):
            description_vectors[i] = known[text] if text in known else vectors[position[text]]
        config = self.endpoint.config
        manifest = IndexManifest(
            endpoint={"name": config.name, "url": config.url, "default_graph": config.default_graph,
                      "data_key": config.data_key},
            built_at=datetime.now(UTC).isoformat(timespec="seconds"),
            model=embedding.MODEL_NAME, dimension=int(dimension), hubs=len(records), paths=len(all_paths),
            vectors=int(matrix.shape[0]), discovery=discovery, fingerprint=self.settings.index_fingerprint(),
        )
        index = HubIndex(manifest, records, all_paths, np.asarray(row_hub, dtype=np.int32),
                         np.asarray(row_kind, dtype=np.int8), row_text, row_paths,
                         np.ascontiguousarray(matrix, dtype=np.float32),
                         [[number_of[d] for d in p.descriptions] for p in all_paths], descriptions,
                         description_vectors)
        return index, report, len(missing), len(saved)
