"""The persistent HubLink index of one endpoint: faiss vectors plus their metadata, written atomically.

Layout under `gateway.config.cache_dir()/hublink/<sha1 of config.data_key>/` (the data's identity, so a
local engine serving the same files on another port reuses the index):

    CURRENT            {"generation": "g-..."}: the index in use, replaced atomically (temp, fsync, rename)
    build.lock         flock held by the one process building this endpoint's index
    status.json        progress of a running build, for other processes (`kgqa index` in another shell)
    partial/           vectors embedded by a build that has not finished yet, one file per chunk, so an
                       interrupted build (a CLI `ask` that stopped waiting, a crash) resumes where it stopped
    g-<time>-<rand>/   one generation: vectors.faiss (searched), descriptions.faiss (what each path says
                       without the hub's name, for ranking paths inside hubs), meta.json, manifest.json
                       (written last)

A generation becomes visible only when CURRENT names it, after its files and manifest are on disk, so
a crash mid-build leaves the previous index in use and a folder without manifest that the next build
removes. Metadata per vector follows the thesis's vector store entries (`utils/vector_store.py`,
`utils/hub_builder.py`): the hub root, the embedded text (path text or triple text), and the paths
(hash, text, triples) it belongs to.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import secrets
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gateway.config import EndpointConfig, cache_dir
from hublink.hubs import HubDiscovery
from hublink.paths import HubPath

INDEX_VERSION = 3
KIND_PATH = 0
KIND_TRIPLE = 1
KIND_NAMES = ("path", "triple")


class IndexCorrupt(Exception):
    """A generation on disk is incomplete or does not match its manifest."""


def endpoint_dir(config: EndpointConfig) -> Path:
    """The cache folder of one endpoint's index (created on demand)."""
    key = hashlib.sha1(config.data_key.encode()).hexdigest()[:20]
    folder = cache_dir() / "hublink" / key
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes) -> None:
    """Writes `data` to a temporary file, fsyncs it and renames it over `path`."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    _fsync_dir(path.parent)


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode())


@dataclass
class HubRecord:
    """One hub in the index: its root, label, class, content hash, and its paths and vector rows."""

    iri: str
    label: str
    hub_class: str
    content_hash: str
    path_start: int
    path_end: int
    row_start: int
    row_end: int

    def to_list(self) -> list[Any]:
        return [self.iri, self.label, self.hub_class, self.content_hash, self.path_start, self.path_end,
                self.row_start, self.row_end]

    @classmethod
    def from_list(cls, data: list[Any]) -> HubRecord:
        return cls(str(data[0]), str(data[1]), str(data[2]), str(data[3]), *(int(v) for v in data[4:8]))


@dataclass
class IndexManifest:
    """What an index holds, how it was built, and checksums of its files."""

    endpoint: dict[str, Any]
    built_at: str
    model: str
    dimension: int
    hubs: int
    paths: int
    vectors: int
    discovery: HubDiscovery
    fingerprint: dict[str, Any]
    build: dict[str, Any] = field(default_factory=dict)
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    version: int = INDEX_VERSION

    def to_dict(self) -> dict[str, Any]:
        return {"version": self.version, "endpoint": self.endpoint, "built_at": self.built_at, "model": self.model,
                "dimension": self.dimension, "hubs": self.hubs, "paths": self.paths, "vectors": self.vectors,
                "discovery": self.discovery.to_dict(), "fingerprint": self.fingerprint, "build": self.build,
                "files": self.files}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> IndexManifest:
        return cls(endpoint=data["endpoint"], built_at=data["built_at"], model=data["model"],
                   dimension=int(data["dimension"]), hubs=int(data["hubs"]), paths=int(data["paths"]),
                   vectors=int(data["vectors"]), discovery=HubDiscovery.from_dict(data["discovery"]),
                   fingerprint=data.get("fingerprint", {}), build=data.get("build", {}),
                   files=data.get("files", {}), version=int(data.get("version", 0)))


@dataclass
class HubIndex:
    """A loaded index: hubs, their paths, and one unit vector per (hub, embedded text) row."""

    manifest: IndexManifest
    hubs: list[HubRecord]
    paths: list[HubPath]
    row_hub: np.ndarray  # int32, hub number of each vector row
    row_kind: np.ndarray  # int8, KIND_PATH or KIND_TRIPLE
    row_text: list[str]
    row_paths: list[list[int]]  # path numbers that contain the row's text
    vectors: np.ndarray  # float32 (rows, dimension), unit length
    path_descriptions: list[list[int]] = field(default_factory=list)  # per path: its description numbers
    description_text: list[str] = field(default_factory=list)
    description_vectors: np.ndarray | None = None  # float32 (descriptions, dimension): not searched
    generation: str = ""
    folder: Path | None = None
    _faiss: Any = None
    _hub_numbers: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._hub_numbers = {hub.iri: n for n, hub in enumerate(self.hubs)}

    @property
    def is_empty(self) -> bool:
        return not self.hubs or self.vectors.shape[0] == 0

    def hub_number(self, iri: str) -> int | None:
        return self._hub_numbers.get(iri)

    @property
    def faiss_index(self) -> Any:
        """A flat inner-product faiss index over the rows (exact cosine search on unit vectors)."""
        if self._faiss is None:
            import faiss

            index = faiss.IndexFlatIP(self.vectors.shape[1])
            if self.vectors.shape[0]:
                index.add(self.vectors)
            self._faiss = index
        return self._faiss

    def size_bytes(self) -> int:
        if self.folder is None:
            return 0
        return sum(f.stat().st_size for f in self.folder.iterdir() if f.is_file())


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_generation(folder: Path, index: HubIndex) -> str:
    """Writes `index` as a new generation under `folder` and makes it current; returns its name."""
    import faiss

    name = f"g-{time.strftime('%Y%m%dT%H%M%S')}-{secrets.token_hex(4)}"
    target = folder / name
    target.mkdir()
    for filename, matrix in (("vectors.faiss", index.vectors), ("descriptions.faiss", index.description_vectors)):
        raw = faiss.IndexFlatIP(index.vectors.shape[1])
        if matrix is not None and matrix.shape[0]:
            raw.add(matrix)
        atomic_write(target / filename, faiss.serialize_index(raw).tobytes())
    meta = {
        "hubs": [h.to_list() for h in index.hubs],
        "paths": [p.to_dict() for p in index.paths],
        "row_hub": index.row_hub.astype(int).tolist(),
        "row_kind": index.row_kind.astype(int).tolist(),
        "row_text": index.row_text,
        "row_paths": index.row_paths,
        "path_descriptions": index.path_descriptions,
        "description_text": index.description_text,
    }
    atomic_write_json(target / "meta.json", meta)
    index.manifest.files = {f: {"bytes": (target / f).stat().st_size, "sha256": _sha256(target / f)}
                            for f in ("vectors.faiss", "descriptions.faiss", "meta.json")}
    atomic_write_json(target / "manifest.json", index.manifest.to_dict())
    atomic_write_json(folder / "CURRENT", {"generation": name})
    index.generation, index.folder = name, target
    return name


def current_generation(folder: Path) -> str | None:
    try:
        data = json.loads((folder / "CURRENT").read_text())
    except (FileNotFoundError, json.JSONDecodeError, OSError):
        return None
    name = data.get("generation") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name.startswith("g-") else None


def read_manifest(folder: Path, generation: str | None = None) -> IndexManifest | None:
    generation = generation or current_generation(folder)
    if generation is None:
        return None
    try:
        return IndexManifest.from_dict(json.loads((folder / generation / "manifest.json").read_text()))
    except (FileNotFoundError, json.JSONDecodeError, KeyError, OSError):
        return None


def load_generation(folder: Path, generation: str) -> HubIndex:
    """Loads one generation, verifying its files against the manifest."""
    import faiss

    target = folder / generation
    manifest = read_manifest(folder, generation)
    if manifest is None:
        raise IndexCorrupt(f"{target} has no readable manifest")
    if manifest.version != INDEX_VERSION:
        raise IndexCorrupt(f"{target} is index version {manifest.version}, this code reads {INDEX_VERSION}")
    for name, expected in manifest.files.items():
        path = target / name
        if not path.exists() or path.stat().st_size != expected.get("bytes") or _sha256(path) != expected.get("sha256"):
            raise IndexCorrupt(f"{path} is missing or does not match the manifest")
    def matrix(name: str) -> tuple[Any, np.ndarray]:
        raw = faiss.deserialize_index(np.frombuffer((target / name).read_bytes(), dtype=np.uint8))
        vectors = raw.reconstruct_n(0, raw.ntotal) if raw.ntotal else np.zeros((0, manifest.dimension), np.float32)
        return raw, np.ascontiguousarray(vectors, dtype=np.float32)

    raw, vectors = matrix("vectors.faiss")
    _, descriptions = matrix("descriptions.faiss")
    meta = json.loads((target / "meta.json").read_text())
    index = HubIndex(
        manifest=manifest,
        hubs=[HubRecord.from_list(h) for h in meta["hubs"]],
        paths=[HubPath.from_dict(p) for p in meta["paths"]],
        row_hub=np.asarray(meta["row_hub"], dtype=np.int32),
        row_kind=np.asarray(meta["row_kind"], dtype=np.int8),
        row_text=list(meta["row_text"]),
        row_paths=[list(p) for p in meta["row_paths"]],
        vectors=vectors,
        path_descriptions=[list(d) for d in meta["path_descriptions"]],
        description_text=list(meta["description_text"]),
        description_vectors=descriptions,
        generation=generation,
        folder=target,
    )
    index._faiss = raw
    if len(index.row_text) != index.vectors.shape[0] or len(index.description_text) != descriptions.shape[0]:
        raise IndexCorrupt(f"{target}: metadata and vectors disagree")
    return index


def load_current(folder: Path) -> HubIndex | None:
    generation = current_generation(folder)
    if generation is None:
        return None
    return load_generation(folder, generation)


def remove_stale_generations(folder: Path, keep: set[str]) -> None:
    """Deletes generations other than `keep` (call while holding the build lock)."""
    for child in folder.iterdir():
        if child.is_dir() and child.name.startswith("g-") and child.name not in keep:
            shutil.rmtree(child, ignore_errors=True)
    for tmp in folder.glob(".*.tmp"):
        tmp.unlink(missing_ok=True)


class PartialEmbeddings:
    """Vectors of an unfinished build, saved chunk by chunk so the next build does not embed them again.

    Keys are hashes of (model, text): vectors depend on nothing else. A chunk is written atomically, so a
    crash loses at most the chunk being embedded. The folder is removed once a generation is current.
    """

    def __init__(self, folder: Path, model: str) -> None:
        self.folder = folder / "partial"
        self.model = model

    def key(self, text: str) -> str:
        return hashlib.sha1(f"{self.model}\0{text}".encode()).hexdigest()

    def load(self, texts: list[str]) -> dict[str, np.ndarray]:
        """The saved vectors of those `texts` that have one."""
        wanted = {self.key(t): t for t in texts}
        found: dict[str, np.ndarray] = {}
        if not self.folder.is_dir():
            return found
        for chunk in sorted(self.folder.glob("chunk-*.npz")):
            try:
                with np.load(chunk, allow_pickle=False) as data:
                    keys, vectors = data["keys"], data["vectors"]
            except (OSError, ValueError, KeyError):
                chunk.unlink(missing_ok=True)
                continue
            for key, vector in zip(keys.tolist(), vectors, strict=False):
                text = wanted.get(key)
                if text is not None:
                    found[text] = vector
        return found

    def save(self, texts: list[str], vectors: np.ndarray) -> None:
        import io

        self.folder.mkdir(exist_ok=True)
        buffer = io.BytesIO()
        np.savez(buffer, keys=np.asarray([self.key(t) for t in texts]), vectors=vectors.astype(np.float32))
        atomic_write(self.folder / f"chunk-{time.time_ns()}-{secrets.token_hex(3)}.npz", buffer.getvalue())

    def clear(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


class BuildLock:
    """An exclusive `flock` on `build.lock`: one building process per endpoint; released if it dies."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "build.lock"
        self._fd: int | None = None

    def try_acquire(self) -> bool:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        try:
            yield
        finally:
            self.release()
