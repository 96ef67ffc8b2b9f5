"""The HubLink index against live engines: hub discovery, hub paths, building, persistence and reuse,
one shared build for concurrent first questions, crash safety, and refresh of changed hubs only."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
import time
from pathlib import Path

import pytest
from conftest import ORKG
from hublinkutil import PAPER, orkg_slice, sparql_update

from gateway.config import EndpointConfig
from gateway.endpoint import EndpointPool
from gateway.engines import OxigraphEngine, VirtuosoEngine
from gateway.models import AnswerStatus
from gateway.qa import AskOptions
from hublink import HubLinkPath, IndexManager, IndexStatus, index_status
from hublink.hubs import HubClassProfiler
from hublink.paths import HubPathFetcher
from hublink.settings import HubLinkSettings
from hublink.store import BuildLock, current_generation, endpoint_dir

PAPERS_IN_SLICE = 6
ORKGR = "http://orkg.org/orkg/resource/"


@pytest.fixture(scope="session")
def orkg_small_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    target = tmp_path_factory.mktemp("hublink") / "orkg-small.nt"
    papers = orkg_slice(ORKG, target, PAPERS_IN_SLICE)
    return target, papers


@pytest.fixture(scope="session")
def oxigraph_small(oxigraph: OxigraphEngine, orkg_small_file: tuple[Path, list[str]]) -> OxigraphEngine:
    oxigraph.load(orkg_small_file[0], "hublink_small")
    return oxigraph


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KGQA_CACHE_DIR", str(tmp_path))
    return tmp_path


@pytest.fixture
async def pool():
    endpoints = EndpointPool()
    yield endpoints
    await endpoints.close()


async def test_discovery_finds_orkg_papers_and_says_why(virtuoso: VirtuosoEngine, pool: EndpointPool) -> None:
    endpoint = pool.get(virtuoso.endpoint("orkg", "orkg"))
    discovery = await HubClassProfiler(endpoint, HubLinkSettings()).discover()
    assert discovery.classes == [PAPER] and discovery.source == "discovered"
    reports = {r.iri: r for r in discovery.reports}
    paper = reports[PAPER]
    assert paper.selected and paper.instances == 153 and "153 instances" in paper.reason
    contribution = reports["http://orkg.org/orkg/class/Contribution"]
    assert not contribution.selected and "do not reach other entities" in contribution.reason
    assert all(not r.selected for r in discovery.reports if r.iri != PAPER)


async def test_configured_hub_classes_are_used_as_named(oxigraph: OxigraphEngine, pool: EndpointPool) -> None:
    config = oxigraph.endpoint("orkg-configured", "orkg", hub_classes=("http://orkg.org/orkg/class/Contribution",))
    discovery = await HubClassProfiler(pool.get(config), HubLinkSettings()).discover()
    assert discovery.classes == ["http://orkg.org/orkg/class/Contribution"] and discovery.source == "configured"


async def test_hub_paths_are_label_texts_with_triples_and_hashes(oxigraph: OxigraphEngine, pool: EndpointPool) -> None:
    endpoint = pool.get(oxigraph.endpoint("orkg", "orkg"))
    hubs = await HubPathFetcher(endpoint, HubLinkSettings()).fetch([PAPER])
    assert len(hubs) == 153
    paper = next(h for h in hubs if h.iri == ORKGR + "R872741")
    texts = {p.text for p in paper.paths}
    title = "Availability-Driven Architectural Change Propagation Through Bidirectional Model Transformations " \
            "Between UML and Petri Net Models"
    assert paper.label == title
    assert f"{title} -> venue -> International Conference on Software Architecture (ICSA)" in texts
    assert f"{title} -> research field -> Software Architecture and Design" in texts
    assert f"{title} -> contribution -> Evidence 1 -> Uses Tool Support -> Tool was used but is not available" in texts
    for path in paper.paths:
        assert path.triples[0].subject == paper.iri and path.text.startswith(title)
        for before, after in zip(path.triples, path.triples[1:], strict=False):
            assert before.object == after.subject  # a connected walk
        assert len(path.hash) == 32 and int(path.hash, 16) >= 0
        assert path.hash != hashlib.md5(b"").hexdigest()
    assert len({p.hash for p in paper.paths}) == len(paper.paths)
    again = await HubPathFetcher(endpoint, HubLinkSettings()).fetch([PAPER])
    assert next(h for h in again if h.iri == paper.iri).content_hash == paper.content_hash


async def test_index_is_built_once_stored_on_disk_and_reused(oxigraph_small: OxigraphEngine, pool: EndpointPool,
                                                             cache: Path) -> None:
    config = oxigraph_small.endpoint("small", "hublink_small")
    manager = IndexManager()
    index = await manager.get(pool.get(config), HubLinkSettings())
    assert index is not None and manager.builds_started == 1
    manifest = index.manifest
    assert manifest.hubs == PAPERS_IN_SLICE and manifest.discovery.classes == [PAPER]
    assert manifest.paths == len(index.paths) > PAPERS_IN_SLICE and manifest.vectors == index.vectors.shape[0]
    folder = endpoint_dir(config)
    assert folder.parent == cache / "hublink"
    assert current_generation(folder) == index.generation
    files = {f.name for f in (folder / index.generation).iterdir()}
    assert {"vectors.faiss", "descriptions.faiss", "meta.json", "manifest.json"} <= files
    written = json.loads((folder / index.generation / "manifest.json").read_text())
    assert written["files"]["vectors.faiss"]["sha256"]
    status = index_status(config)
    assert status.state == "ready" and status.hubs == PAPERS_IN_SLICE and status.hub_classes == [PAPER]

    other_process = IndexManager()  # what a second process sees: the index on disk, no new build
    loaded = await other_process.get(pool.get(config), HubLinkSettings())
    assert other_process.builds_started == 0 and loaded is not None
    assert loaded.generation == index.generation and (loaded.vectors == index.vectors).all()
    assert [p.hash for p in loaded.paths] == [p.hash for p in index.paths]


async def test_concurrent_first_questions_share_one_build(oxigraph_small: OxigraphEngine, pool: EndpointPool,
                                                          cache: Path) -> None:
    endpoint = pool.get(oxigraph_small.endpoint("small", "hublink_small"))
    manager = IndexManager()
    path = HubLinkPath(manager=manager)
    first, second = await asyncio.gather(
        path.answer("Which evaluation method was used?", endpoint, AskOptions()),
        path.answer("In which venue was the paper published?", endpoint, AskOptions()))
    assert manager.builds_started == 1
    assert first.status is AnswerStatus.OK and second.status is AnswerStatus.OK
    assert first.evidence.hubs and second.evidence.hubs  # type: ignore[union-attr]
    await path.close()


async def test_without_waiting_the_answer_says_indexing_until_the_build_is_done(
        oxigraph_small: OxigraphEngine, pool: EndpointPool, cache: Path) -> None:
    config = oxigraph_small.endpoint("small", "hublink_small")
    endpoint = pool.get(config)
    manager = IndexManager()
    path = HubLinkPath(manager=manager)
    early = await path.answer("Which venue?", endpoint, AskOptions(hublink_wait_for_index=False))
    assert early.status is AnswerStatus.INDEXING
    assert any("KGQAN path answers alone" in note for note in early.notes)
    assert manager.status(config).state == "building"
    index = await manager.get(endpoint, HubLinkSettings())
    assert index is not None and manager.builds_started == 1
    later = await path.answer("Which venue?", endpoint, AskOptions(hublink_wait_for_index=False))
    assert later.status is AnswerStatus.OK and manager.status(config).state == "ready"
    await path.close()


async def test_a_crash_while_writing_leaves_the_previous_index_in_use(
        oxigraph_small: OxigraphEngine, pool: EndpointPool, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = oxigraph_small.endpoint("small", "hublink_small")
    endpoint = pool.get(config)
    manager = IndexManager()
    first = await manager.get(endpoint, HubLinkSettings())
    assert first is not None
    folder = endpoint_dir(config)

    import hublink.store as store

    real = store.atomic_write_json

    def crash_on_manifest(path: Path, data: object) -> None:
        if path.name == "manifest.json":
            raise OSError("disk full (simulated crash before the manifest)")
        real(path, data)

    monkeypatch.setattr(store, "atomic_write_json", crash_on_manifest)
    with pytest.raises(OSError, match="simulated crash"):
        await manager.get(endpoint, HubLinkSettings(), refresh=True)
    assert manager.status(config).state == "error"
    assert current_generation(folder) == first.generation
    leftovers = [d for d in folder.iterdir() if d.is_dir() and d.name != first.generation]
    assert leftovers and not (leftovers[0] / "manifest.json").exists()

    restarted = IndexManager()  # a new process after the crash: the previous index, no rebuild
    survivor = await restarted.get(pool.get(config), HubLinkSettings())
    assert restarted.builds_started == 0 and survivor is not None and survivor.generation == first.generation

    monkeypatch.setattr(store, "atomic_write_json", real)
    rebuilt = await restarted.get(pool.get(config), HubLinkSettings(), refresh=True)
    assert rebuilt is not None and current_generation(folder) == rebuilt.generation != first.generation
    assert [d.name for d in folder.iterdir() if d.is_dir()] == [rebuilt.generation]  # the debris is gone


def test_one_build_lock_holder_per_endpoint_folder(tmp_path: Path) -> None:
    first, second = BuildLock(tmp_path), BuildLock(tmp_path)
    assert first.try_acquire()
    assert not second.try_acquire()
    first.release()
    assert second.try_acquire()
    second.release()


async def test_refresh_reindexes_only_the_hubs_whose_paths_changed(
        oxigraph: OxigraphEngine, orkg_small_file: tuple[Path, list[str]], pool: EndpointPool, cache: Path) -> None:
    source, papers = orkg_small_file
    graph = oxigraph.load(source, "hublink_refresh")
    config = oxigraph.endpoint("refresh", "hublink_refresh")
    manager = IndexManager()
    before = await manager.get(pool.get(config), HubLinkSettings())
    assert before is not None
    sparql_update(oxigraph.sparql_url, f'INSERT DATA {{ GRAPH <{graph}> {{ <{papers[0]}> '
                                       '<http://orkg.org/orkg/predicate/doi> "10.9999/changed-for-refresh" } }')
    after = await manager.get(pool.get(config), HubLinkSettings(), refresh=True)
    assert after is not None and after.generation != before.generation
    report = after.manifest.build["refresh"]
    assert report["reindexed"] == 1 and report["reused"] == PAPERS_IN_SLICE - 1
    assert report["reindexed_hubs"] == [papers[0]] and report["added"] == report["removed"] == 0
    assert 0 < after.manifest.build["texts_embedded"] < before.manifest.build["texts_embedded"]
    assert any(p.text.endswith("doi -> 10.9999/changed-for-refresh") for p in after.paths)
    unchanged = next(h for h in before.hubs if h.iri == papers[1])
    kept = next(h for h in after.hubs if h.iri == papers[1])
    assert (before.vectors[unchanged.row_start:unchanged.row_end] == after.vectors[kept.row_start:kept.row_end]).all()


async def test_a_graph_without_hubs_gets_an_empty_index_and_a_clear_note(
        oxigraph: OxigraphEngine, tmp_path: Path, pool: EndpointPool, cache: Path) -> None:
    untyped = tmp_path / "untyped.nt"
    untyped.write_text("<http://example.org/a> <http://example.org/knows> <http://example.org/b> .\n"
                       '<http://example.org/b> <http://example.org/name> "B" .\n')
    oxigraph.load(untyped, "hublink_untyped")
    config = oxigraph.endpoint("untyped", "hublink_untyped")
    manager = IndexManager()
    index = await manager.get(pool.get(config), HubLinkSettings())
    assert index is not None and index.is_empty and index.manifest.hubs == 0
    reloaded = await IndexManager().get(pool.get(config), HubLinkSettings())
    assert reloaded is not None and reloaded.is_empty
    path = HubLinkPath(manager=manager)
    result = await path.answer("Who does a know?", pool.get(config), AskOptions())
    assert result.status is AnswerStatus.OK and not result.answers
    assert any("no typed instances" in note for note in result.notes)
    await path.close()


async def test_an_interrupted_build_resumes_with_the_vectors_it_had_embedded(
        oxigraph_small: OxigraphEngine, pool: EndpointPool, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A CLI `ask` that stops waiting (cancel) keeps each embedded chunk; the next build embeds the rest."""
    from hublink import embedding

    config = oxigraph_small.endpoint("small", "hublink_small")
    settings = HubLinkSettings(embed_chunk_size=16)
    real_encode, chunks = embedding.encode, []

    async def encode_then_stop(texts, batch_size=128):  # noqa: ANN001, ANN202
        chunks.append(len(texts))
        if len(chunks) == 3:
            raise asyncio.CancelledError  # the caller gave up during the third chunk
        return await real_encode(texts, batch_size)

    monkeypatch.setattr(embedding, "encode", encode_then_stop)
    with pytest.raises(asyncio.CancelledError):
        await IndexManager().get(pool.get(config), settings)
    folder = endpoint_dir(config)
    assert current_generation(folder) is None and len(list((folder / "partial").glob("chunk-*.npz"))) == 2
    monkeypatch.setattr(embedding, "encode", real_encode)

    resumed = await IndexManager().get(pool.get(config), settings)
    assert resumed is not None and resumed.manifest.build["texts_resumed"] == 32
    distinct_texts = len(dict.fromkeys(resumed.row_text + resumed.description_text))
    assert resumed.manifest.build["texts_embedded"] == distinct_texts - 32
    assert not (folder / "partial").exists()  # cleared once the generation is current
    direct = await embedding.encode(resumed.row_text[:40])
    assert abs(direct - resumed.vectors[:40]).max() < 1e-4  # resumed vectors are the texts' own vectors


async def test_killing_a_building_process_keeps_the_previous_index(
        oxigraph: OxigraphEngine, tmp_path: Path, pool: EndpointPool, cache: Path) -> None:
    """A real crash: `kgqa index --refresh` in another process, killed (SIGKILL) while it embeds."""
    few, many = tmp_path / "few.nt", tmp_path / "many.nt"
    orkg_slice(ORKG, few, PAPERS_IN_SLICE)
    orkg_slice(ORKG, many, 20)
    graph = oxigraph.load(few, "hublink_kill")
    config = EndpointConfig(name="kill", url=oxigraph.sparql_url, default_graph=graph)
    endpoints = tmp_path / "endpoints.yaml"
    endpoints.write_text(f"endpoints:\n  kill:\n    url: {config.url}\n    default_graph: {graph}\n")
    first = await IndexManager().get(pool.get(config), HubLinkSettings())
    assert first is not None and first.manifest.hubs == PAPERS_IN_SLICE
    oxigraph.load(many, "hublink_kill")  # more papers in the same graph: the refresh has work to do
    folder = endpoint_dir(config)
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gateway.cli", "index", "kill", "--refresh", "--endpoints-file", str(endpoints),
        env={**os.environ, "KGQA_CACHE_DIR": str(cache)}, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            status = IndexStatus.from_dict(json.loads((folder / "status.json").read_text())) \
                if (folder / "status.json").exists() else None
            if status is not None and status.pid == child.pid and status.phase.startswith("embedding"):
                break
            assert child.returncode is None, "the build ended before it could be killed"
            await asyncio.sleep(0.05)
        else:
            pytest.fail("the child never started embedding")
    finally:
        if child.returncode is None:
            child.kill()
        await asyncio.wait_for(child.wait(), 30)
    assert current_generation(folder) == first.generation
    assert index_status(config).state == "ready"  # the dead builder's status file is not believed
    lock = BuildLock(folder)
    assert lock.try_acquire()  # the kernel released the dead process's lock
    lock.release()
    survivor = IndexManager()
    kept = await survivor.get(pool.get(config), HubLinkSettings())
    assert survivor.builds_started == 0 and kept is not None and kept.generation == first.generation
    refreshed = await survivor.get(pool.get(config), HubLinkSettings(), refresh=True)
    assert refreshed is not None and refreshed.manifest.hubs == 20
    assert [d.name for d in folder.iterdir() if d.is_dir()] == [refreshed.generation]
