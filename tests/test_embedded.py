"""The embedded pyoxigraph store: the demo graph, `embedded:` file lists and `--load`, result types
and errors like the HTTP client's, read-only refusal, serialization for the proxy, the label index."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pyoxigraph as ox
import pytest

from gateway.cli import build_parser, registry_from_args
from gateway.config import EndpointConfig
from gateway.embedded import DEMO_GRAPH, EmbeddedStore, is_update, negotiate, source_files
from gateway.endpoint import EndpointPool, open_sparql
from gateway.errors import (
    ConfigurationError,
    RequestBudgetSpent,
    ResultTooLarge,
    SparqlError,
    SparqlSyntaxError,
    UpdateRefused,
)
from gateway.sparql import SparqlEndpoint, counting_requests

ROOT = Path(__file__).resolve().parent.parent
RES = "http://kgqa.local/demo/resource/"
ONT = "http://kgqa.local/demo/ontology/"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"


@pytest.fixture
def demo() -> EmbeddedStore:
    return EmbeddedStore.for_config(EndpointConfig(name="demo", url="embedded:"))


def test_demo_graph_is_bundled_and_attributed() -> None:
    text = DEMO_GRAPH.read_text(encoding="utf-8")
    assert DEMO_GRAPH.parent == ROOT / "gateway" / "data"
    assert "pycountry" in text.split("@prefix", 1)[0] and "CLDR" in text.split("@prefix", 1)[0]


async def test_demo_graph_answers_the_readme_questions(demo: EmbeddedStore) -> None:
    currency = await demo.select(f"SELECT ?label WHERE {{ <{RES}Japan> <{ONT}currency> ?c . ?c <{RDFS_LABEL}> ?label }}")
    assert [row["label"].value for row in currency] == ["Japanese Yen"]
    languages = await demo.select(
        f"SELECT ?label WHERE {{ <{RES}Switzerland> <{ONT}officialLanguage> ?l . ?l <{RDFS_LABEL}> ?label }}")
    assert {"German", "French", "Italian"} <= {row["label"].value for row in languages}
    euro = await demo.select(f"SELECT (COUNT(?c) AS ?n) WHERE {{ ?c <{ONT}currency> <{RES}Euro> }}")
    assert int(euro.rows[0]["n"].value) > 20
    assert await demo.triple_count() > 3000


async def test_result_types_match_the_http_client(demo: EmbeddedStore) -> None:
    assert isinstance(demo, SparqlEndpoint)
    result = await demo.select(f"SELECT ?p ?o WHERE {{ <{RES}Japan> ?p ?o }}")
    values = {row["p"].value: row["o"] for row in result}
    assert values[RDFS_LABEL] == ox.Literal("Japan", language="en")
    assert values[ONT + "numberOfSubdivisions"].datatype == ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")
    assert isinstance(values[ONT + "currency"], ox.NamedNode)
    (row,) = (await demo.select("SELECT ?b WHERE { BIND(BNODE() AS ?b) }")).rows
    assert isinstance(row["b"], ox.BlankNode)
    assert await demo.ask(f"ASK {{ <{RES}Japan> ?p ?o }}") is True
    assert await demo.ask("ASK { <http://example.org/nothing> ?p ?o }") is False
    triples = await demo.construct(f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ ?s ?p ?o . FILTER(?s = <{RES}Japan>) }}")
    assert len(triples) == len(result)


async def test_row_cap_and_triple_cap(demo: EmbeddedStore) -> None:
    result = await demo.select("SELECT * WHERE { ?s ?p ?o }", max_rows=10)
    assert len(result) == 10 and result.truncated and "row cap" in (result.truncation_reason or "")
    assert len(await demo.construct("CONSTRUCT WHERE { ?s ?p ?o }", max_triples=5)) == 5


async def test_errors_are_the_gateway_classes(demo: EmbeddedStore) -> None:
    with pytest.raises(SparqlSyntaxError):
        await demo.select("SELECT ?s WHERE { ?s ?p }")
    with pytest.raises(SparqlSyntaxError):
        await demo.select("   ")
    with pytest.raises(SparqlError, match="not a SELECT"):
        await demo.select("ASK {}")
    with pytest.raises(SparqlError, match="not an ASK"):
        await demo.ask("SELECT * WHERE { ?s ?p ?o } LIMIT 1")


@pytest.mark.parametrize("update", [
    "INSERT DATA { <http://a> <http://b> <http://c> }",
    "DELETE WHERE { ?s ?p ?o }",
    "# a comment\nPREFIX ex: <http://example.org/#>\nBASE <http://example.org/>\ndelete { ?s ?p ?o } where { ?s ?p ?o }",
    "CLEAR ALL",
    "DROP GRAPH <http://g>",
    "LOAD <http://example.org/data.ttl>",
    "WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
])
async def test_updates_are_refused(demo: EmbeddedStore, update: str) -> None:
    before = await demo.triple_count()
    with pytest.raises(UpdateRefused):
        await demo.select(update)
    with pytest.raises(UpdateRefused):
        await demo.run_serialized(update, "*/*")
    assert await demo.ask(f"ASK {{ <{RES}Japan> ?p ?o }}")
    assert await demo.triple_count() == before


def test_update_detection_ignores_strings_and_iris() -> None:
    assert not is_update('SELECT * WHERE { ?s ?p "INSERT DATA" }')
    assert not is_update("PREFIX delete: <http://example.org/insert#> SELECT * WHERE { ?s delete:x ?o }")
    assert not is_update("SELEC * WHERE {}")
    assert is_update("  insert data { <a> <b> <c> }")


@pytest.mark.parametrize("accept, content_type, fmt", [
    ("application/sparql-results+json", "application/sparql-results+json", ox.QueryResultsFormat.JSON),
    ("application/sparql-results+xml", "application/sparql-results+xml", ox.QueryResultsFormat.XML),
    ("text/csv", "text/csv", ox.QueryResultsFormat.CSV),
    ("text/tab-separated-values", "text/tab-separated-values", ox.QueryResultsFormat.TSV),
    ("text/html;q=0.9, application/sparql-results+xml;q=0.8", "application/sparql-results+xml",
     ox.QueryResultsFormat.XML),
    ("", "application/sparql-results+json", ox.QueryResultsFormat.JSON),
])
async def test_run_serialized_select(demo: EmbeddedStore, accept: str, content_type: str,
                                     fmt: ox.QueryResultsFormat) -> None:
    body, got = await demo.run_serialized(
        f"SELECT ?p ?o WHERE {{ <{RES}Japan> ?p ?o }} ORDER BY ?p ?o", accept)
    assert got.split(";")[0] == content_type
    expected = len(await demo.select(f"SELECT ?p ?o WHERE {{ <{RES}Japan> ?p ?o }}"))
    if fmt == ox.QueryResultsFormat.CSV:  # lossy: pyoxigraph does not read it back
        lines = body.decode().strip().split("\r\n")
        assert lines[0] == "p,o" and len(lines) == expected + 1
        return
    assert len(list(ox.parse_query_results(body, fmt))) == expected


async def test_run_serialized_ask_never_uses_csv(demo: EmbeddedStore) -> None:
    body, content_type = await demo.run_serialized("ASK { ?s ?p ?o }", "text/csv, application/sparql-results+xml;q=0.5")
    assert content_type.startswith("application/sparql-results+xml")
    assert bool(ox.parse_query_results(body, ox.QueryResultsFormat.XML)) is True
    body, content_type = await demo.run_serialized("ASK { <http://nothing> ?p ?o }", "application/json")
    assert json.loads(body) == {"head": {}, "boolean": False}


@pytest.mark.parametrize("accept, content_type, fmt", [
    ("text/turtle", "text/turtle", ox.RdfFormat.TURTLE),
    ("application/n-triples", "application/n-triples", ox.RdfFormat.N_TRIPLES),
    ("application/ld+json", "application/ld+json", ox.RdfFormat.JSON_LD),
    ("application/rdf+xml", "application/rdf+xml", ox.RdfFormat.RDF_XML),
    ("*/*", "text/turtle", ox.RdfFormat.TURTLE),
])
async def test_run_serialized_graphs(demo: EmbeddedStore, accept: str, content_type: str, fmt: ox.RdfFormat) -> None:
    body, got = await demo.run_serialized(f"DESCRIBE <{RES}Japan>", accept)
    assert got.split(";")[0] == content_type
    triples = [q.triple for q in ox.parse(body, fmt)]
    assert ox.Triple(ox.NamedNode(RES + "Japan"), ox.NamedNode(RDFS_LABEL), ox.Literal("Japan", language="en")) in triples


async def test_run_serialized_byte_cap() -> None:
    store = EmbeddedStore(EndpointConfig(name="capped", url="embedded:"), (DEMO_GRAPH,), max_result_bytes=1000)
    with pytest.raises(ResultTooLarge):
        await store.run_serialized("SELECT * WHERE { ?s ?p ?o }", "application/sparql-results+json")


def test_negotiate_prefers_quality_then_order() -> None:
    offers = (("a/x", 1), ("b/y", 2), ("c/z", 3))
    assert negotiate("c/z;q=0.5, b/y", offers) == ("b/y", 2)
    assert negotiate("c/*", offers) == ("c/z", 3)
    assert negotiate("image/png", offers) == ("a/x", 1)
    assert negotiate("b/y;q=0", offers) == ("a/x", 1)


async def test_queries_run_off_the_event_loop(demo: EmbeddedStore) -> None:
    """A heavy query runs in a worker thread: other coroutines make progress meanwhile."""
    await demo.graph()
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.005)
            ticks += 1

    task = asyncio.create_task(ticker())
    try:
        await demo.select(f"SELECT (COUNT(*) AS ?n) WHERE {{ ?a ?p ?b . ?c ?p ?d . FILTER(?p = <{RDFS_LABEL}>) }}")
    finally:
        task.cancel()
    assert ticks >= 3


async def test_requests_are_counted(demo: EmbeddedStore) -> None:
    with counting_requests() as counter:
        await demo.ask("ASK {}")
        await demo.select("SELECT * WHERE { ?s ?p ?o } LIMIT 1")
    assert counter.count == 2


async def test_a_request_budget_refuses_requests_past_it_even_when_sent_together(demo: EmbeddedStore) -> None:
    """A block's `limit` holds for requests sent concurrently and for blocks nested inside it: the
    requests past it are refused unsent (`RequestBudgetSpent`); each block still counts its own."""
    with counting_requests(limit=5) as outer:
        await demo.ask("ASK {}")
        with counting_requests(limit=10) as inner:
            results = await asyncio.gather(*(demo.ask("ASK {}") for _ in range(8)), return_exceptions=True)
    assert sum(r is True for r in results) == 4
    assert all(isinstance(r, RequestBudgetSpent) for r in results if r is not True)
    assert (outer.count, inner.count, outer.nested, outer.pending, inner.pending) == (1, 4, 4, 0, 0)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


async def test_embedded_file_list_loads_every_format(tmp_path: Path) -> None:
    ttl = write(tmp_path / "a.ttl", '@prefix ex: <http://ex.org/> .\nex:a ex:name "Alpha Centauri" .\n')
    nt = write(tmp_path / "b.nt", '<http://ex.org/b> <http://ex.org/name> "Beta Pictoris" .\n')
    rdf = write(tmp_path / "c.rdf", """<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex.org/">
  <rdf:Description rdf:about="http://ex.org/c"><ex:name>Gamma Crucis</ex:name></rdf:Description>
</rdf:RDF>""")
    nq = write(tmp_path / "d.nq", '<http://ex.org/d> <http://ex.org/name> "Delta Velorum" <http://ex.org/g> .\n')
    config = EndpointConfig(name="files", url="embedded:" + "|".join(str(p) for p in (ttl, nt, rdf, nq)))
    store = EmbeddedStore.for_config(config)
    names = await store.select("SELECT ?n WHERE { ?s <http://ex.org/name> ?n }")
    assert {row["n"].value for row in names} == {"Alpha Centauri", "Beta Pictoris", "Gamma Crucis", "Delta Velorum"}
    endpoint = EndpointPool().get(config)
    assert [h.label for h in await endpoint.search("velorum", limit=5)] == ["Delta Velorum"]


async def test_stores_for_the_same_files_share_one_graph(tmp_path: Path) -> None:
    ttl = write(tmp_path / "shared.ttl", "<http://ex.org/s> <http://ex.org/p> 1 .\n")
    first = EmbeddedStore.for_config(EndpointConfig(name="one", url=f"embedded:{ttl}"))
    second = EmbeddedStore.for_config(EndpointConfig(name="two", url=f"embedded:{ttl}"))
    assert await first.graph() is await second.graph()


def test_missing_file_and_bad_suffix_are_configuration_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="no such file") as raised:
        source_files(f"embedded:{tmp_path / 'missing.ttl'}")
    assert "missing.ttl" in str(raised.value)
    odd = write(tmp_path / "data.csv", "a,b\n")
    with pytest.raises(ConfigurationError, match="must end in"):
        source_files(f"embedded:{odd}")
    assert source_files("embedded:") == (DEMO_GRAPH,)
    assert isinstance(open_sparql(EndpointConfig(name="d", url="embedded:")), EmbeddedStore)


async def test_malformed_file_names_file_and_line(tmp_path: Path) -> None:
    bad = write(tmp_path / "broken.ttl", '@prefix ex: <http://ex.org/> .\nex:a ex:b "ok" .\nex:a ex:c ex:d ex:e .\n')
    store = EmbeddedStore.for_config(EndpointConfig(name="broken", url=f"embedded:{bad}"))
    with pytest.raises(ConfigurationError) as raised:
        await store.select("SELECT * WHERE { ?s ?p ?o }")
    assert "broken.ttl" in str(raised.value) and "line 3" in str(raised.value)


async def test_load_option_points_the_default_endpoint_at_the_files(tmp_path: Path) -> None:
    ttl = write(tmp_path / "loaded.ttl", '<http://ex.org/x> <http://www.w3.org/2000/01/rdf-schema#label> "Loaded Thing" .\n')
    args = build_parser().parse_args(["ask", "What is the loaded thing?", "--load", str(ttl)])
    config = registry_from_args(args).resolve(None)
    assert config.is_embedded and str(ttl.resolve()) in config.url
    endpoint = EndpointPool().get(config)
    hits = await endpoint.search("loaded thing", limit=5)
    assert [h.entity.value for h in hits] == ["http://ex.org/x"]


def test_kgqa_ask_with_missing_load_file_fails_clearly(tmp_path: Path) -> None:
    missing = tmp_path / "nope.ttl"
    done = subprocess.run([sys.executable, "-m", "gateway.cli", "ask", "q?", "--load", str(missing)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode != 0
    assert "nope.ttl" in done.stderr and "no such file" in done.stderr
