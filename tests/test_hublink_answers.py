"""HubLink answers with sources on Virtuoso (full-text search for topic entities), the OpenAI-compatible
LLM protocol against a local peer, bad endpoints, and `kgqa index`."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import pytest
from aiohttp import web
from conftest import ORKG
from hublinkutil import orkg_slice

from gateway.cli import main as kgqa
from gateway.config import EndpointConfig
from gateway.endpoint import Endpoint, EndpointPool
from gateway.engines import OxigraphEngine, VirtuosoEngine, free_port
from gateway.errors import EndpointUnreachable
from gateway.models import AnswerStatus
from gateway.qa import AskOptions, Gateway
from hublink import HubLinkPath, IndexManager
from hublink.settings import HubLinkSettings

PAPERS = 6
DOI = "http://orkg.org/orkg/predicate/doi"


@pytest.fixture(scope="module")
def small_graph(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], dict[str, str]]:
    """The first papers of the ORKG graph, with each paper's title and DOI."""
    target = tmp_path_factory.mktemp("hublink-answers") / "orkg-small.nt"
    papers = orkg_slice(ORKG, target, PAPERS)
    store = ox.Store()
    store.bulk_load(path=str(target), format=ox.RdfFormat.N_TRIPLES)
    facts: dict[str, str] = {}
    for paper in papers:
        node = ox.NamedNode(paper)
        facts[paper + "#title"] = next(store.quads_for_pattern(
            node, ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label"), None)).object.value
        dois = list(store.quads_for_pattern(node, ox.NamedNode(DOI), None))
        if dois:
            facts[paper + "#doi"] = dois[0].object.value
    return target, papers, facts


@pytest.fixture(scope="module")
def module_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One cache folder for this module, so the slice is indexed once per engine."""
    folder = tmp_path_factory.mktemp("hublink-cache")
    previous = os.environ.get("KGQA_CACHE_DIR")
    os.environ["KGQA_CACHE_DIR"] = str(folder)
    yield folder
    if previous is None:
        os.environ.pop("KGQA_CACHE_DIR", None)
    else:
        os.environ["KGQA_CACHE_DIR"] = previous


@pytest.fixture(scope="module")
def virtuoso_small(virtuoso: VirtuosoEngine, small_graph: tuple[Path, list[str], dict[str, str]]) -> EndpointConfig:
    virtuoso.load(small_graph[0], "hublink_answers")
    return virtuoso.endpoint("small", "hublink_answers")


@pytest.fixture
async def endpoint(virtuoso_small: EndpointConfig, module_cache: Path) -> AsyncIterator[Endpoint]:
    pool = EndpointPool()
    yield pool.get(virtuoso_small)
    await pool.close()


def _paper_with_doi(small_graph: tuple[Path, list[str], dict[str, str]]) -> tuple[str, str, str]:
    _, papers, facts = small_graph
    paper = next(p for p in papers if p + "#doi" in facts)
    return paper, facts[paper + "#title"], facts[paper + "#doi"]


async def test_answers_come_with_their_hub_path_and_triples(
        endpoint: Endpoint, small_graph: tuple[Path, list[str], dict[str, str]]) -> None:
    paper, title, doi = _paper_with_doi(small_graph)
    path = HubLinkPath()
    result = await path.answer(f"What is the DOI of the paper '{title}'?", endpoint, AskOptions())
    await path.close()
    assert result.status is AnswerStatus.OK, result.error
    evidence = result.evidence
    assert evidence is not None
    assert evidence.hubs[0].hub == paper and evidence.hubs[0].label == title  # type: ignore[attr-defined]
    assert "traversal" in evidence.strategy  # type: ignore[attr-defined]
    assert any(t["iri"] == paper and t["score"] >= 0.9 for t in evidence.topic_entities)  # type: ignore[attr-defined]
    retrieved = evidence.retrieved_triples  # type: ignore[attr-defined]
    doi_triples = [r for r in retrieved if r.triple.predicate == DOI]
    assert doi_triples and doi_triples[0].triple.subject == paper and doi_triples[0].triple.object == doi
    assert retrieved.index(doi_triples[0]) < 3
    answer = next(a for a in result.answers if a.value == doi)
    assert answer.sources == (0,)  # the first hub of the evidence: the paper
    data = result.to_dict()["evidence"]
    assert set(data) >= {"index", "hubs", "retrieved_triples", "strategy", "components"}
    assert data["index"]["status"] == "ready" and data["index"]["hubs"] == PAPERS
    hub = data["hubs"][0]
    assert hub["hub"] == paper and hub["paths"] and all(len(t) == 3 for p in hub["paths"] for t in p["triples"])
    first = data["retrieved_triples"][0]
    assert set(first) >= {"subject", "predicate", "object", "subject_label", "predicate_label", "object_label"}
    assert result.sparql_requests > 0 and result.timings_ms["total"] > 0


async def test_direct_strategy_searches_the_whole_index(
        endpoint: Endpoint, small_graph: tuple[Path, list[str], dict[str, str]]) -> None:
    paper, title, _ = _paper_with_doi(small_graph)
    path = HubLinkPath()
    options = AskOptions(hublink_top_hubs=3, extra={"hublink": {"strategy": "direct"}})
    result = await path.answer(f"Which venue published '{title}'?", endpoint, options)
    await path.close()
    evidence = result.evidence
    assert result.status is AnswerStatus.OK and evidence is not None
    assert evidence.strategy == "direct" and not evidence.topic_entities  # type: ignore[attr-defined]
    assert 1 <= len(evidence.hubs) <= 3 and evidence.hubs[0].hub == paper  # type: ignore[attr-defined]
    assert any(r.triple.predicate.endswith("/venue") for r in evidence.retrieved_triples)  # type: ignore[attr-defined]


async def test_gateway_runs_hublink_next_to_kgqan(virtuoso_small: EndpointConfig, module_cache: Path,
                                                  small_graph: tuple[Path, list[str], dict[str, str]]) -> None:
    _, title, doi = _paper_with_doi(small_graph)
    gateway = Gateway()
    result = await gateway.ask(f"What is the DOI of '{title}'?", virtuoso_small, AskOptions(paths=("hublink",)))
    await gateway.close()
    data = result.to_dict()
    assert data["hublink"]["status"] == "ok"
    assert doi in [a["value"] for a in data["hublink"]["answers"]]


async def test_an_unreachable_endpoint_is_a_clear_error_and_status(module_cache: Path) -> None:
    config = EndpointConfig(name="nowhere", url=f"http://127.0.0.1:{free_port()}/sparql", timeout_s=3)
    pool = EndpointPool()
    manager = IndexManager()
    with pytest.raises(EndpointUnreachable):
        await manager.get(pool.get(config), HubLinkSettings())
    status = manager.status(config)
    assert status.state == "error" and "connect" in (status.error or "")
    path = HubLinkPath(manager=manager)
    gateway = Gateway()
    gateway._paths["hublink"] = path
    result = await gateway.ask("Which venue?", config, AskOptions(paths=("hublink",)))
    assert result.paths["hublink"].status is AnswerStatus.ERROR
    assert result.paths["hublink"].error_kind == "unreachable"
    await gateway.close()
    await pool.close()


class _ChatPeer:
    """A local HTTP peer speaking the OpenAI chat-completions response shape."""

    def __init__(self, doi: str) -> None:
        self.doi = doi
        self.requests: list[dict[str, Any]] = []

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.requests.append({"body": body, "auth": request.headers.get("Authorization")})
        system = body["messages"][0]["content"]
        if system.startswith("Split the question"):
            content = "- the paper\n- DOI"
        elif system.startswith("You answer a question from facts of one knowledge graph hub"):
            content = f"The DOI is {self.doi}." if self.doi in body["messages"][1]["content"] else "insufficient"
        else:
            content = f"The paper's DOI is {self.doi} [1]."
        return web.json_response({"id": "chatcmpl-1", "object": "chat.completion", "model": body["model"],
                                  "choices": [{"index": 0, "finish_reason": "stop",
                                               "message": {"role": "assistant", "content": content}}]})


@pytest.mark.recorded
async def test_llm_partial_and_final_answers_cite_their_hubs(
        endpoint: Endpoint, small_graph: tuple[Path, list[str], dict[str, str]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Recorded-response test: no LLM server runs in CI, so a local peer answers with the response shape
    of the OpenAI chat-completions API (canned replies chosen by the prompt); it checks our protocol use."""
    paper, title, doi = _paper_with_doi(small_graph)
    peer = _ChatPeer(doi)
    app = web.Application()
    app.router.add_post("/v1/chat/completions", peer.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    monkeypatch.setenv("KGQA_LLM_BASE_URL", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setenv("KGQA_LLM_MODEL", "test-model")
    monkeypatch.setenv("KGQA_LLM_API_KEY", "secret-token")
    path = HubLinkPath()
    try:
        result = await path.answer(f"What is the DOI of '{title}'?", endpoint, AskOptions())
    finally:
        await path.close()
        await runner.cleanup()
    evidence = result.evidence
    assert result.status is AnswerStatus.OK and evidence is not None
    assert evidence.components[:2] == ["the paper", "DOI"]  # type: ignore[attr-defined]
    assert evidence.hubs[0].partial_answer == f"The DOI is {doi}."  # type: ignore[attr-defined]
    text = evidence.answer_text  # type: ignore[attr-defined]
    assert text is not None and text.startswith(f"The paper's DOI is {doi} [1].")
    assert f"[1] {title} <{paper}>" in text
    assert all(r["auth"] == "Bearer secret-token" and r["body"]["model"] == "test-model" for r in peer.requests)
    assert result.to_dict()["evidence"]["answer_text"] == text


def test_kgqa_index_builds_reports_and_refreshes(oxigraph: OxigraphEngine, tmp_path: Path,
                                                 small_graph: tuple[Path, list[str], dict[str, str]],
                                                 capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KGQA_CACHE_DIR", str(tmp_path / "cache"))
    oxigraph.load(small_graph[0], "hublink_cli")
    config = oxigraph.endpoint("small", "hublink_cli")
    endpoints = tmp_path / "endpoints.yaml"
    endpoints.write_text(f"endpoints:\n  small:\n    url: {config.url}\n    default_graph: {config.default_graph}\n")
    base = ["index", "small", "--endpoints-file", str(endpoints)]
    assert kgqa([*base, "--json"]) == 0
    built = json.loads(capsys.readouterr().out)
    assert built["action"] == "built" and built["status"]["state"] == "ready"
    assert built["manifest"]["hubs"] == PAPERS and built["manifest"]["discovery"]["classes"] == [
        "http://orkg.org/orkg/class/Paper"]
    assert built["size_bytes"] > 0 and Path(built["folder"]).is_dir()
    assert kgqa(base) == 0
    text = capsys.readouterr().out
    assert "already built" in text and "<http://orkg.org/orkg/class/Paper>: 6 instances" in text
    assert f"{PAPERS} hubs" in text and "--refresh" in text
    assert kgqa([*base, "--refresh", "--json"]) == 0
    refreshed = json.loads(capsys.readouterr().out)
    assert refreshed["action"] == "refreshed"
    assert refreshed["manifest"]["build"]["refresh"]["reused"] == PAPERS
    assert refreshed["manifest"]["build"]["texts_embedded"] == 0
    assert kgqa(["index", "http://127.0.0.1:9/sparql"]) == 2  # nothing listens there: a clear error
    assert "unreachable" in capsys.readouterr().err
