"""The SPARQL client against live Virtuoso and Oxigraph, and against a tiny aiohttp peer on 127.0.0.1
for the behaviours no engine shows on demand (503 + Retry-After, slow answers, requests in flight).
The peer is a test HTTP server, not an engine mock: it answers fixed SPARQL JSON documents.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pyoxigraph as ox
import pytest
import pytest_asyncio
from aiohttp import web

from gateway.config import EndpointConfig, EndpointRegistry
from gateway.engines import free_port
from gateway.errors import (
    EndpointTimeout,
    EndpointUnreachable,
    ResultTooLarge,
    SparqlError,
    SparqlSyntaxError,
    UnknownEndpoint,
)
from gateway.sparql import GET_URL_LIMIT, HttpSparqlClient, counting_requests, sharing_results

XSD = "http://www.w3.org/2001/XMLSchema#"
EMPTY_RESULTS = b'{"head": {"vars": ["x"]}, "results": {"bindings": []}}'
ONE_ROW = b'{"head": {"vars": ["x"]}, "results": {"bindings": [{"x": {"type": "literal", "value": "ok"}}]}}'


@pytest.fixture(params=["virtuoso", "oxigraph"])
def engine(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    return request.getfixturevalue(request.param)


@pytest_asyncio.fixture
async def ck25(engine) -> AsyncIterator[HttpSparqlClient]:  # type: ignore[no-untyped-def]
    client = HttpSparqlClient(engine.endpoint(f"{engine.kind}-ck25", "ck25"))
    yield client
    await client.close()


@dataclass
class Peer:
    """What the test peer saw: request methods, content types, queries, the most in flight."""

    url: str
    methods: list[str] = field(default_factory=list)
    content_types: list[str] = field(default_factory=list)
    hits: dict[str, int] = field(default_factory=dict)
    in_flight: int = 0
    max_in_flight: int = 0


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def peer() -> AsyncIterator[Peer]:
    port = free_port()
    state = Peer(url=f"http://127.0.0.1:{port}")

    def count(name: str) -> int:
        state.hits[name] = state.hits.get(name, 0) + 1
        return state.hits[name]

    async def echo(request: web.Request) -> web.Response:
        state.methods.append(request.method)
        state.content_types.append(request.headers.get("Content-Type", ""))
        if request.method == "POST":
            await request.post()
        return web.Response(body=ONE_ROW, content_type="application/sparql-results+json")

    async def unavailable_once(request: web.Request) -> web.Response:
        if count("retry") == 1:
            return web.Response(status=503, headers={"Retry-After": "1"}, text="busy")
        return web.Response(body=ONE_ROW, content_type="application/sparql-results+json")

    async def always_unavailable(request: web.Request) -> web.Response:
        count("down")
        return web.Response(status=502, text="bad gateway")

    async def slow(request: web.Request) -> web.Response:
        await asyncio.sleep(3)
        return web.Response(body=ONE_ROW, content_type="application/sparql-results+json")

    async def concurrent(request: web.Request) -> web.Response:
        state.in_flight += 1
        state.max_in_flight = max(state.max_in_flight, state.in_flight)
        try:
            await asyncio.sleep(0.15)
        finally:
            state.in_flight -= 1
        return web.Response(body=EMPTY_RESULTS, content_type="application/sparql-results+json")

    app = web.Application()
    app.router.add_route("*", "/echo", echo)
    app.router.add_get("/retry", unavailable_once)
    app.router.add_get("/down", always_unavailable)
    app.router.add_get("/slow", slow)
    app.router.add_get("/concurrent", concurrent)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    yield state
    await runner.cleanup()


async def test_select_returns_typed_terms(ck25: HttpSparqlClient) -> None:
    query = """SELECT ?iri ?typed ?lang ?plain WHERE {
      BIND(<http://example.org/a> AS ?iri) BIND(42 AS ?typed) BIND("Sensor"@en AS ?lang) BIND("x" AS ?plain) }"""
    result = await ck25.select(query)
    assert result.variables == ["iri", "typed", "lang", "plain"]
    (row,) = result.rows
    assert row["iri"] == ox.NamedNode("http://example.org/a")
    assert row["typed"] == ox.Literal("42", datatype=ox.NamedNode(XSD + "integer"))
    assert row["lang"] == ox.Literal("Sensor", language="en")
    assert row["plain"] == ox.Literal("x")
    assert not result.truncated


async def test_select_real_graph_data(ck25: HttpSparqlClient) -> None:
    result = await ck25.select(
        "SELECT ?s ?label WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?label } LIMIT 20")
    assert len(result) == 20
    assert all(isinstance(row["s"], ox.NamedNode) and isinstance(row["label"], ox.Literal) for row in result)


async def test_select_blank_node_on_oxigraph(oxigraph) -> None:  # type: ignore[no-untyped-def]
    async with HttpSparqlClient(oxigraph.endpoint("o", "ck25")) as client:
        (row,) = (await client.select("SELECT ?b WHERE { BIND(BNODE() AS ?b) }")).rows
    assert isinstance(row["b"], ox.BlankNode)


async def test_ask_true_and_false(ck25: HttpSparqlClient) -> None:
    assert await ck25.ask("ASK { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?o }") is True
    assert await ck25.ask("ASK { ?s <http://example.org/no-such-predicate> ?o }") is False


async def test_one_questions_repeated_queries_are_sent_once(ck25: HttpSparqlClient) -> None:
    query = "SELECT ?s WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?o } LIMIT 3"
    with counting_requests() as counter:
        with sharing_results():
            together = await asyncio.gather(ck25.select(query), ck25.select(query), ck25.ask("ASK { ?s ?p ?o }"))
            again = await ck25.select(query)
        assert counter.count == 2  # the SELECT (its second, concurrent copy waited for the first) and the ASK
        assert together[0].rows == together[1].rows == again.rows and together[2] is True
        await ck25.select(query)
        assert counter.count == 3  # outside the block every query is sent


async def test_construct_with_blank_nodes_and_literals(ck25: HttpSparqlClient) -> None:
    triples = await ck25.construct(
        "CONSTRUCT { [] <http://example.org/p> ?label . ?s <http://example.org/q> ?label } WHERE { "
        "?s <http://www.w3.org/2000/01/rdf-schema#label> ?label } LIMIT 10")
    assert triples
    assert any(isinstance(t.subject, ox.BlankNode) for t in triples)
    assert any(isinstance(t.subject, ox.NamedNode) for t in triples)
    assert all(isinstance(t.object, ox.Literal) for t in triples)


async def test_long_query_uses_form_post_and_works(ck25: HttpSparqlClient) -> None:
    iris = " ".join(f"<http://ld.company.org/prod-instances/no-such-{i}>" for i in range(120))
    query = f"SELECT ?s ?o WHERE {{ VALUES ?s {{ {iris} }} ?s ?p ?o }}"
    assert len(query) > GET_URL_LIMIT
    result = await ck25.select(query)
    assert result.rows == []


async def test_get_for_short_and_form_post_for_long(peer: Peer) -> None:
    async with HttpSparqlClient(EndpointConfig(name="peer", url=peer.url + "/echo")) as client:
        peer.methods.clear()
        peer.content_types.clear()
        await client.select("SELECT * WHERE { ?s ?p ?o } LIMIT 1")
        await client.select("SELECT * WHERE { ?s ?p ?o } # " + "x" * 3000)
    assert peer.methods == ["GET", "POST"]
    assert peer.content_types[1] == "application/x-www-form-urlencoded"
    assert not any("sparql-query" in ct for ct in peer.content_types)


async def test_retry_after_on_503_then_success(peer: Peer) -> None:
    async with HttpSparqlClient(EndpointConfig(name="peer", url=peer.url + "/retry")) as client:
        started = time.monotonic()
        with counting_requests() as counter:
            result = await client.select("SELECT * WHERE { ?s ?p ?o }")
        waited = time.monotonic() - started
    assert result.rows[0]["x"] == ox.Literal("ok")
    assert peer.hits["retry"] == 2
    assert counter.count == 2
    assert waited >= 0.9, "the client must wait as long as Retry-After says"


async def test_retries_give_up_with_http_error(peer: Peer) -> None:
    client = HttpSparqlClient(EndpointConfig(name="peer", url=peer.url + "/down"), retries=2, backoff_s=0.01)
    try:
        with pytest.raises(SparqlError) as raised:
            await client.select("SELECT * WHERE { ?s ?p ?o }")
    finally:
        await client.close()
    assert getattr(raised.value, "status", None) == 502
    assert peer.hits["down"] == 3  # the first try and two retries


async def test_per_request_timeout(peer: Peer) -> None:
    async with HttpSparqlClient(EndpointConfig(name="peer", url=peer.url + "/slow")) as client:
        started = time.monotonic()
        with pytest.raises(EndpointTimeout):
            await client.select("SELECT * WHERE { ?s ?p ?o }", timeout_s=0.3)
    assert time.monotonic() - started < 2.5


async def test_concurrency_limit_per_endpoint(peer: Peer) -> None:
    config = EndpointConfig(name="peer", url=peer.url + "/concurrent", max_concurrency=2)
    peer.max_in_flight = 0
    async with HttpSparqlClient(config) as client:
        await asyncio.gather(*(client.select(f"SELECT * WHERE {{ ?s ?p {i} }}") for i in range(6)))
    assert peer.max_in_flight == 2


async def test_byte_cap_raises_result_too_large(engine) -> None:  # type: ignore[no-untyped-def]
    client = HttpSparqlClient(engine.endpoint("capped", "ck25"), max_result_bytes=2000)
    try:
        with pytest.raises(ResultTooLarge):
            await client.select("SELECT * WHERE { ?s ?p ?o } LIMIT 500")
    finally:
        await client.close()


async def test_gateway_row_cap_reports_truncation(ck25: HttpSparqlClient) -> None:
    result = await ck25.select("SELECT * WHERE { ?s ?p ?o } LIMIT 50", max_rows=7)
    assert len(result) == 7
    assert result.truncated
    assert "row cap" in (result.truncation_reason or "")


async def test_virtuoso_row_cut_is_reported_as_truncated(virtuoso) -> None:  # type: ignore[no-untyped-def]
    async with HttpSparqlClient(virtuoso.endpoint("v", "ck25")) as client:
        result = await client.select("SELECT ?s ?p ?o WHERE { ?s ?p ?o }")
    assert len(result) == 10_000
    assert result.truncated
    assert "X-SPARQL-MaxRows" in (result.truncation_reason or "")


async def test_syntax_error_carries_the_endpoint_message(ck25: HttpSparqlClient) -> None:
    with pytest.raises(SparqlSyntaxError) as raised:
        await ck25.select("SELECT ?s WHERE { ?s ?p }")
    assert raised.value.message
    assert raised.value.endpoint == ck25.config.name


async def test_unreachable_endpoint() -> None:
    config = EndpointConfig(name="nowhere", url=f"http://127.0.0.1:{free_port()}/sparql", timeout_s=5)
    async with HttpSparqlClient(config) as client:
        with pytest.raises(EndpointUnreachable) as raised:
            await client.ask("ASK {}")
    assert raised.value.endpoint == "nowhere"


def test_unknown_endpoint_name() -> None:
    with pytest.raises(UnknownEndpoint) as raised:
        EndpointRegistry().resolve("no-such-endpoint")
    assert "no-such-endpoint" in str(raised.value)


async def test_virtuoso_keeps_connections_when_asked_and_uncompressed(ck25: HttpSparqlClient) -> None:
    """Local endpoints: `Connection: keep-alive` and identity encoding, so Virtuoso reuses the connection
    instead of a TCP handshake per query (it closes after every compressed, chunked answer)."""
    pool = ck25._lean
    assert pool is not None  # a local plain-http endpoint goes through the lean transport
    kept = []
    for _ in range(3):
        await ck25.select("SELECT ?s WHERE { ?s ?p ?o } LIMIT 3")
        assert len(pool._idle) == 1
        kept.append(pool._idle[0])
    assert kept[0] is kept[1] is kept[2]  # one TCP connection for the three queries


def test_remote_endpoints_are_asked_for_compressed_answers() -> None:
    from gateway.sparql import session_headers

    assert session_headers("https://dbpedia.org/sparql").get("Accept-Encoding") is None  # aiohttp's gzip default
    for local in ("http://127.0.0.1:8890/sparql", "http://localhost:3030/ds", "http://10.1.2.3/sparql", "http://[::1]:80/q"):
        assert session_headers(local)["Accept-Encoding"] == "identity"
    assert session_headers("http://example.org/sparql")["Connection"] == "keep-alive"
