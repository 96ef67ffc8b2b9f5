"""Lazy, shared, crash-safe HubLink indexes: one build per endpoint per process, one per machine.

The first question to an endpoint (or `kgqa index`) starts a build task; concurrent callers join the
same task (`asyncio.shield`, so a caller that gives up does not cancel it). Across processes an
exclusive `flock` serialises builds: a second process waits for the first and then loads its result.
`index_status()` answers cheaply from memory, from `status.json` of a build running in another
process, or from the manifest of the index on disk.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gateway.config import EndpointConfig
from gateway.endpoint import Endpoint
from hublink import embedding
from hublink.builder import IndexBuilder, RefreshReport
from hublink.settings import HubLinkSettings
from hublink.store import (
    BuildLock,
    HubIndex,
    IndexCorrupt,
    PartialEmbeddings,
    atomic_write_json,
    current_generation,
    endpoint_dir,
    load_generation,
    read_manifest,
    remove_stale_generations,
    write_generation,
)

log = logging.getLogger(__name__)

# Share of the whole build each phase takes, for one overall progress figure.
PHASE_WEIGHTS = {
    "waiting for another process": (0.0, 0.0),
    "discovering hub classes": (0.0, 0.05),
    "finding hubs": (0.05, 0.05),
    "reading paths": (0.10, 0.20),
    "building paths": (0.30, 0.05),
    "labelling": (0.35, 0.10),
    "embedding": (0.45, 0.50),
    "writing": (0.95, 0.05),
}
RETRY_AFTER_FAILURE_S = 30.0


@dataclass
class IndexStatus:
    """Where the HubLink index of one endpoint stands: absent, building (with progress), ready, or error."""

    endpoint: str
    state: str = "absent"  # absent | building | ready | error
    phase: str = ""
    done: int = 0
    total: int = 0
    progress: float = 0.0  # 0..1 over the whole build
    hubs: int = 0
    paths: int = 0
    vectors: int = 0
    hub_classes: list[str] = field(default_factory=list)
    built_at: str | None = None
    error: str | None = None
    folder: str | None = None
    pid: int | None = None
    started_at: float | None = None
    refresh: dict[str, Any] | None = None

    def describe(self) -> str:
        if self.state == "building":
            detail = f"{self.phase} {self.done}/{self.total}" if self.total else self.phase
            return f"building ({detail}, {self.progress:.0%} overall)"
        if self.state == "ready":
            return f"ready ({self.hubs} hubs, {self.paths} paths, built {self.built_at})"
        if self.state == "error":
            return f"failed: {self.error}"
        return "not built yet"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "endpoint": self.endpoint, "state": self.state, "progress": round(self.progress, 3),
            "hubs": self.hubs, "paths": self.paths, "vectors": self.vectors, "hub_classes": list(self.hub_classes),
            "built_at": self.built_at, "error": self.error, "folder": self.folder,
        }
        if self.state == "building":
            out.update(phase=self.phase, done=self.done, total=self.total, pid=self.pid,
                       elapsed_s=round(time.time() - self.started_at, 1) if self.started_at else None)
        if self.refresh is not None:
            out["refresh"] = self.refresh
        return out

    def update(self, phase: str, done: int, total: int) -> None:
        base, weight = next((w for name, w in PHASE_WEIGHTS.items() if phase.startswith(name)), (self.progress, 0.0))
        self.phase, self.done, self.total = phase, done, total
        fraction = done / total if total else 0.0
        self.progress = max(self.progress, min(1.0, base + weight * fraction))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> IndexStatus:
        return cls(endpoint=data.get("endpoint", ""), state=data.get("state", "absent"), phase=data.get("phase", ""),
                   done=int(data.get("done", 0) or 0), total=int(data.get("total", 0) or 0),
                   progress=float(data.get("progress", 0.0) or 0.0), hubs=int(data.get("hubs", 0) or 0),
                   paths=int(data.get("paths", 0) or 0), vectors=int(data.get("vectors", 0) or 0),
                   hub_classes=list(data.get("hub_classes", [])), built_at=data.get("built_at"),
                   error=data.get("error"), folder=data.get("folder"), pid=data.get("pid"))


def _pid_alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _ready_status(config: EndpointConfig) -> IndexStatus | None:
    folder = endpoint_dir(config)
    manifest = read_manifest(folder)
    if manifest is None:
        return None
    return IndexStatus(config.name, "ready", progress=1.0, hubs=manifest.hubs, paths=manifest.paths,
                       vectors=manifest.vectors, hub_classes=list(manifest.discovery.classes),
                       built_at=manifest.built_at, folder=str(folder))


class IndexManager:
    """Owns the HubLink indexes of this process: loading, single-flight building, status."""

    def __init__(self) -> None:
        self._tasks: dict[str, asyncio.Task[HubIndex]] = {}
        self._status: dict[str, IndexStatus] = {}
        self._indexes: dict[str, HubIndex] = {}
        self._listeners: dict[str, list[Callable[[IndexStatus], None]]] = {}
        self._failed_at: dict[str, tuple[float, BaseException]] = {}
        self.builds_started = 0

    @staticmethod
    def key(config: EndpointConfig) -> str:
        return str(endpoint_dir(config))

    def status(self, config: EndpointConfig) -> IndexStatus:
        key = self.key(config)
        status = self._status.get(key)
        if status is not None and status.state in ("building", "error"):
            return status
        other = self._foreign_build(config)
        if other is not None:
            return other
        return _ready_status(config) or IndexStatus(config.name, folder=key)

    def _foreign_build(self, config: EndpointConfig) -> IndexStatus | None:
        """A build of this endpoint's index running in another process, if any."""
        path = endpoint_dir(config) / "status.json"
        try:
            data = json.loads(path.read_text())
        except (FileNotFoundError, json.JSONDecodeError, OSError):
            return None
        status = IndexStatus.from_dict(data)
        if status.state == "building" and status.pid != os.getpid() and _pid_alive(status.pid):
            return status
        return None

    def loaded(self, config: EndpointConfig) -> HubIndex | None:
        return self._indexes.get(self.key(config))

    def _load_current(self, config: EndpointConfig, settings: HubLinkSettings) -> HubIndex | None:
        """The current index on disk (cached in memory per generation), if valid for `settings`."""
        key = self.key(config)
        folder = endpoint_dir(config)
        generation = current_generation(folder)
        if generation is None:
            return None
        cached = self._indexes.get(key)
        if cached is not None and cached.generation == generation:
            index = cached
        else:
            try:
                index = load_generation(folder, generation)
            except (IndexCorrupt, OSError, ValueError, RuntimeError) as exc:
                log.warning("HubLink index of %s is unusable, rebuilding: %s", config.name, exc)
                return None
            self._indexes[key] = index
        if index.manifest.fingerprint != settings.index_fingerprint():
            log.info("HubLink index of %s was built with other settings; rebuilding", config.name)
            return None
        return index

    async def get(self, endpoint: Endpoint, settings: HubLinkSettings, *, wait: bool = True, refresh: bool = False,
                  listener: Callable[[IndexStatus], None] | None = None) -> HubIndex | None:
        """The endpoint's index, building it on first contact (or refreshing it).

        With `wait=False` a missing index starts building in the background and None is returned.
        """
        config = endpoint.config
        key = self.key(config)
        task = self._running(key)
        if not refresh and task is None:
            index = await asyncio.to_thread(self._load_current, config, settings)
            if index is not None:
                return index
            failed = self._failed_at.get(key)
            if failed is not None and time.monotonic() - failed[0] < RETRY_AFTER_FAILURE_S:
                raise failed[1]
            task = self._running(key)  # a concurrent caller may have started the build meanwhile
        if listener is not None:
            self._listeners.setdefault(key, []).append(listener)
        if task is None:
            self.builds_started += 1
            self._status[key] = IndexStatus(config.name, "building", phase="starting", folder=key, pid=os.getpid(),
                                            started_at=time.time())
            task = asyncio.get_running_loop().create_task(
                self._build(endpoint, settings, refresh), context=contextvars.Context())
            self._tasks[key] = task
        assert task is not None
        if not wait:
            return None
        try:
            return await asyncio.shield(task)
        finally:
            if listener is not None and listener in self._listeners.get(key, []):
                self._listeners[key].remove(listener)

    def _running(self, key: str) -> asyncio.Task[HubIndex] | None:
        """The build of `key` running on this event loop, if any."""
        task = self._tasks.get(key)
        if task is not None and not task.done() and task.get_loop() is asyncio.get_running_loop():
            return task
        return None

    def _notify(self, key: str, status: IndexStatus, folder_status: dict[str, Any] | None,
                force: bool = False) -> None:
        for listener in list(self._listeners.get(key, [])):
            try:
                listener(status)
            except Exception:  # a broken progress display must not break the build
                log.debug("index listener failed", exc_info=True)
        now = time.monotonic()
        if folder_status is not None and (force or now - folder_status["written"] > 0.5):
            folder_status["written"] = now
            try:
                atomic_write_json(folder_status["path"], status.to_dict())
            except OSError:
                log.debug("could not write build status", exc_info=True)

    async def _build(self, endpoint: Endpoint, settings: HubLinkSettings, refresh: bool) -> HubIndex:
        config = endpoint.config
        key = self.key(config)
        folder = endpoint_dir(config)
        status = self._status[key]
        status_file: dict[str, Any] = {"path": folder / "status.json", "written": 0.0}
        lock = BuildLock(folder)
        try:
            while not lock.try_acquire():
                other = self._foreign_build(config)
                status.phase = "waiting for another process"
                if other is not None:
                    status.done, status.total, status.progress = other.done, other.total, other.progress
                    status.phase = f"waiting for another process ({other.phase})"
                self._notify(key, status, None)
                await asyncio.sleep(0.3)
            with lock.held():
                previous = await asyncio.to_thread(self._load_current, config, settings)
                if previous is not None and not refresh:
                    self._finish(key, status, previous, None)
                    return previous

                def progress(phase: str, done: int, total: int) -> None:
                    changed = phase != status.phase
                    if changed:
                        log.info("HubLink index of %s: %s (%.0f%% overall)", config.name, phase, status.progress * 100)
                    status.update(phase, done, total)
                    self._notify(key, status, status_file, force=changed)

                index, report = await IndexBuilder(endpoint, settings, progress).build(previous)
                progress("writing", 0, 1)
                writing = asyncio.ensure_future(asyncio.to_thread(write_generation, folder, index))
                try:
                    await asyncio.shield(writing)
                except asyncio.CancelledError:
                    await writing  # never leave the lock while files are being renamed into place
                    raise
                remove_stale_generations(folder, keep={index.generation})
                PartialEmbeddings(folder, embedding.MODEL_NAME).clear()
                self._indexes[key] = index
                self._finish(key, status, index, report)
                self._notify(key, status, status_file, force=True)
                self._failed_at.pop(key, None)
                return index
        except asyncio.CancelledError:
            status.state, status.phase = "absent", ""
            self._status.pop(key, None)
            (folder / "status.json").unlink(missing_ok=True)
            raise
        except BaseException as exc:
            status.state, status.error = "error", str(exc) or type(exc).__name__
            self._failed_at[key] = (time.monotonic(), exc)
            self._notify(key, status, status_file, force=True)
            raise

    def _finish(self, key: str, status: IndexStatus, index: HubIndex, report: RefreshReport | None) -> None:
        manifest = index.manifest
        status.state, status.phase, status.progress = "ready", "", 1.0
        status.hubs, status.paths, status.vectors = manifest.hubs, manifest.paths, manifest.vectors
        status.hub_classes = list(manifest.discovery.classes)
        status.built_at = manifest.built_at
        status.refresh = report.to_dict() if report is not None else None
        status.error = None
        self._status[key] = status

    async def close(self) -> None:
        """Cancels builds running on this loop (their previous index, if any, stays in place)."""
        loop = asyncio.get_running_loop()
        tasks = [t for t in self._tasks.values() if not t.done() and t.get_loop() is loop]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


_MANAGER = IndexManager()


def index_manager() -> IndexManager:
    """The process-wide manager (one build per endpoint per process)."""
    return _MANAGER


def index_status(endpoint: Endpoint | EndpointConfig) -> IndexStatus:
    """The HubLink index status of an endpoint, for `kgqa serve` and `kgqa index` (cheap, no SPARQL)."""
    config = endpoint.config if isinstance(endpoint, Endpoint) else endpoint
    return _MANAGER.status(config)
