"""The SPARQL proxy with real clients (SPARQLWrapper, rdflib's SPARQLStore, raw HTTP) to live
Virtuoso and Oxigraph: every result format, Update refused, errors mapped, cache, CORS."""

from __future__ import annotations

import csv
import io
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator

import pytest
import rdflib
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from serverutil import ServerThread, SlowPeer
from SPARQLWrapper import CSV, JSON, JSONLD, N3, TSV, TURTLE, XML, SPARQLWrapper

from gateway.config import EndpointConfig, EndpointRegistry
from gateway.engines import OxigraphEngine, VirtuosoEngine, free_port
from gateway.server import ServerSettings

RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
LABELS = f"SELECT ?s ?l WHERE {{ ?s <{RDFS_LABEL}> ?l }} ORDER BY ?s ?l LIMIT 5"
COUNT = f"SELECT (COUNT(*) AS ?n) WHERE {{ ?s <{RDFS_LABEL}> ?l }}"
ASK_YES = f"ASK {{ ?s <{RDFS_LABEL}> ?l }}"
CONSTRUCT = f"CONSTRUCT {{ ?s <{RDFS_LABEL}> ?l }} WHERE {{ ?s <{RDFS_LABEL}> ?l }} ORDER BY ?s LIMIT 7"


@pytest.fixture(scope="module")
def slow_peer() -> Iterator[SlowPeer]:
    peer = SlowPeer(delay_s=4.0).start()
    yield peer
    peer.stop()


@pytest.fixture(scope="module")
def proxy(virtuoso: VirtuosoEngine, oxigraph: OxigraphEngine, slow_peer: SlowPeer) -> Iterator[ServerThread]:
    registry = EndpointRegistry({
        "default": virtuoso.endpoint("default", "ck25"),
        "virtuoso": virtuoso.endpoint("virtuoso", "ck25"),
        "oxigraph": oxigraph.endpoint("oxigraph", "ck25"),
        "down": EndpointConfig(name="down", url=f"http://127.0.0.1:{free_port()}/sparql", timeout_s=5),
        "slow": EndpointConfig(name="slow", url=slow_peer.url, timeout_s=1.0),
    })
    server = ServerThread(registry, ServerSettings(cache_ttl_s=60)).start()
    yield server
    server.stop()


def sparql_url(proxy: ServerThread, name: str | None) -> str:
    return f"{proxy.url}/sparql" if name is None else f"{proxy.url}/endpoints/{name}/sparql"


def direct_url(engine: VirtuosoEngine | OxigraphEngine) -> str:
    return engine.sparql_url


def fetch(url: str, *, data: bytes | None = None, headers: dict[str, str] | None = None,
          method: str | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def wrapper(url: str, query: str, fmt: str, method: str = "GET") -> SPARQLWrapper:
    client = SPARQLWrapper(url)
    client.setQuery(query)
    client.setReturnFormat(fmt)
    client.setMethod(method)
    return client


@pytest.mark.parametrize("name", ["virtuoso", "oxigraph"])
def test_sparqlwrapper_select_json_matches_the_endpoint(proxy: ServerThread, name: str, virtuoso: VirtuosoEngine,
                                                         oxigraph: OxigraphEngine) -> None:
    config = proxy.registry.resolve(name)
    through = wrapper(sparql_url(proxy, name), LABELS, JSON).queryAndConvert()
    direct_client = wrapper(config.url, LABELS, JSON)
    direct_client.addDefaultGraph(config.default_graph)
    direct = direct_client.queryAndConvert()
    assert through["results"]["bindings"] == direct["results"]["bindings"]
    assert len(through["results"]["bindings"]) == 5


@pytest.mark.parametrize("name", ["virtuoso", "oxigraph"])
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_select_in_xml_csv_tsv(proxy: ServerThread, name: str, method: str) -> None:
    url = sparql_url(proxy, name)
    xml = wrapper(url, COUNT, XML, method).queryAndConvert()
    count = int(xml.getElementsByTagName("literal")[0].firstChild.data)
    assert count > 1000
    rows = list(csv.reader(io.StringIO(wrapper(url, COUNT, CSV, method).queryAndConvert().decode())))
    assert rows[0] == ["n"] and int(rows[1][0]) == count
    tsv = wrapper(url, COUNT, TSV, method).queryAndConvert().decode().splitlines()
    # the standard header is ?n; Virtuoso writes "n" and the proxy passes the engine's answer through
    assert tsv[0] in ("?n", '"n"') and int(tsv[1].split("^^")[0].strip('"')) == count


@pytest.mark.parametrize("name", ["virtuoso", "oxigraph"])
def test_ask_in_json_and_xml(proxy: ServerThread, name: str) -> None:
    url = sparql_url(proxy, name)
    assert wrapper(url, ASK_YES, JSON).queryAndConvert()["boolean"] is True
    assert wrapper(url, "ASK { <http://ex/none> ?p ?o }", JSON).queryAndConvert()["boolean"] is False
    xml = wrapper(url, ASK_YES, XML).queryAndConvert()
    assert xml.getElementsByTagName("boolean")[0].firstChild.data == "true"


@pytest.mark.parametrize("name", ["virtuoso", "oxigraph"])
@pytest.mark.parametrize("fmt", [TURTLE, N3, JSONLD, XML])
def test_construct_in_turtle_ntriples_jsonld_rdfxml(proxy: ServerThread, name: str, fmt: str) -> None:
    graph = wrapper(sparql_url(proxy, name), CONSTRUCT, fmt).queryAndConvert()
    if not isinstance(graph, rdflib.Graph):
        graph = rdflib.Graph().parse(data=graph, format={TURTLE: "turtle", N3: "n3", JSONLD: "json-ld"}[fmt])
    assert len(graph) == 7
    assert all(str(p) == RDFS_LABEL for p in graph.predicates())


def test_construct_as_ntriples_by_accept_header(proxy: ServerThread) -> None:
    for name in ("virtuoso", "oxigraph"):
        url = sparql_url(proxy, name) + "?" + urllib.parse.urlencode({"query": CONSTRUCT})
        status, headers, body = fetch(url, headers={"Accept": "application/n-triples"})
        assert status == 200, body
        assert headers["Content-Type"].startswith(("application/n-triples", "text/plain"))
        assert len(rdflib.Graph().parse(data=body.decode(), format="nt")) == 7


@pytest.mark.parametrize("name", ["virtuoso", "oxigraph"])
def test_rdflib_sparqlstore_through_the_proxy(proxy: ServerThread, name: str) -> None:
    store = SPARQLStore(sparql_url(proxy, name))
    graph = rdflib.Graph(store=store)
    rows = list(graph.query(LABELS))
    assert len(rows) == 5 and all(isinstance(row[0], rdflib.URIRef) for row in rows)
    assert graph.query(ASK_YES).askAnswer is True
    assert len(graph.query(CONSTRUCT).graph) == 7
    store.close()


def test_post_sparql_query_body_is_accepted_and_forwarded_as_virtuoso_accepts(proxy: ServerThread) -> None:
    status, headers, body = fetch(sparql_url(proxy, "virtuoso"), data=COUNT.encode(), method="POST",
                                  headers={"Content-Type": "application/sparql-query",
                                           "Accept": "application/sparql-results+json"})
    assert status == 200, body
    assert int(json.loads(body)["results"]["bindings"][0]["n"]["value"]) > 1000


def test_default_endpoint_is_served_at_slash_sparql(proxy: ServerThread) -> None:
    result = wrapper(sparql_url(proxy, None), COUNT, JSON).queryAndConvert()
    assert int(result["results"]["bindings"][0]["n"]["value"]) > 1000


@pytest.mark.parametrize(("data", "headers", "query"), [
    (None, {}, {"update": "INSERT DATA { <http://ex/a> <http://ex/b> <http://ex/c> }"}),
    (None, {}, {"query": "INSERT DATA { <http://ex/a> <http://ex/b> <http://ex/c> }"}),
    (None, {}, {"query": "SELECT * WHERE { ?s ?p ?o } ; DROP ALL"}),
    (b"update=DROP+ALL", {"Content-Type": "application/x-www-form-urlencoded"}, {}),
    (b"DROP ALL", {"Content-Type": "application/sparql-update"}, {}),
    (b"CLEAR DEFAULT", {"Content-Type": "application/sparql-query"}, {}),
])
def test_updates_are_refused_with_403(proxy: ServerThread, data: bytes | None, headers: dict[str, str],
                                      query: dict[str, str]) -> None:
    url = sparql_url(proxy, "virtuoso") + ("?" + urllib.parse.urlencode(query) if query else "")
    status, response_headers, body = fetch(url, data=data, headers=headers, method="POST" if data else "GET")
    assert status == 403
    assert b"read-only" in body and response_headers["X-KGQA-Error"] == "update-refused"
    assert wrapper(sparql_url(proxy, "virtuoso"), ASK_YES, JSON).queryAndConvert()["boolean"] is True


@pytest.mark.parametrize("name", ["virtuoso", "oxigraph"])
def test_bad_query_is_400_with_the_upstreams_message(proxy: ServerThread, name: str) -> None:
    url = sparql_url(proxy, name) + "?" + urllib.parse.urlencode({"query": "SELECT ?s WHERE { ?s ?p "})
    status, headers, body = fetch(url)
    assert status == 400
    assert body.startswith(b"syntax-error: ") and len(body) > len("syntax-error: ") + 10


def test_unreachable_upstream_is_502_and_counted(proxy: ServerThread) -> None:
    url = sparql_url(proxy, "down") + "?" + urllib.parse.urlencode({"query": COUNT})
    status, _, body = fetch(url)
    assert status == 502 and b"unreachable" in body
    _, _, metrics = fetch(f"{proxy.url}/metrics")
    assert b'kgqa_upstream_errors_total{endpoint="down",kind="unreachable"}' in metrics


def test_upstream_timeout_is_504(proxy: ServerThread) -> None:
    url = sparql_url(proxy, "slow") + "?" + urllib.parse.urlencode({"query": COUNT})
    status, _, body = fetch(url)
    assert status == 504 and b"timeout" in body


def test_missing_query_and_unknown_endpoint_are_clear_errors(proxy: ServerThread) -> None:
    status, _, body = fetch(sparql_url(proxy, "virtuoso"))
    assert status == 400 and b"no query" in body
    status, _, body = fetch(sparql_url(proxy, "nowhere") + "?query=ASK%7B%7D")
    assert status == 404 and b"nowhere" in body
    status, _, body = fetch(sparql_url(proxy, "virtuoso"), data=b"{}", method="POST",
                            headers={"Content-Type": "application/json"})
    assert status == 400 and b"application/sparql-query" in body


def test_repeated_query_is_served_from_the_cache(proxy: ServerThread) -> None:
    query = f"SELECT ?l WHERE {{ ?s <{RDFS_LABEL}> ?l }} ORDER BY ?l LIMIT 3 # cache test"
    url = sparql_url(proxy, "oxigraph")
    first = fetch(url + "?" + urllib.parse.urlencode({"query": query}), headers={"Accept": "text/csv"})
    again = fetch(url + "?" + urllib.parse.urlencode({"query": query.replace(" LIMIT", "\n  LIMIT")}),
                  headers={"Accept": "text/csv"})
    other_type = fetch(url + "?" + urllib.parse.urlencode({"query": query}), headers={"Accept": "application/json"})
    assert first[1]["X-Cache"] == "MISS" and again[1]["X-Cache"] == "HIT" and other_type[1]["X-Cache"] == "MISS"
    assert first[2] == again[2]
    _, _, metrics = fetch(f"{proxy.url}/metrics")
    assert b'kgqa_proxy_cache_total{result="hit"}' in metrics


def test_cache_ttl_zero_turns_the_cache_off(proxy: ServerThread) -> None:
    uncached = ServerThread(proxy.registry, ServerSettings(cache_ttl_s=0)).start()
    try:
        url = sparql_url(uncached, "oxigraph") + "?" + urllib.parse.urlencode({"query": COUNT})
        assert [fetch(url)[1]["X-Cache"] for _ in range(2)] == ["MISS", "MISS"]
    finally:
        uncached.stop()


def test_cors_preflight_and_headers_for_browser_clients(proxy: ServerThread) -> None:
    status, headers, _ = fetch(sparql_url(proxy, "virtuoso"), method="OPTIONS", headers={
        "Origin": "http://yasgui.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type"})
    assert status == 204
    assert headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in headers["Access-Control-Allow-Methods"] and headers["Access-Control-Allow-Headers"] == "content-type"
    status, headers, _ = fetch(sparql_url(proxy, "virtuoso") + "?" + urllib.parse.urlencode({"query": ASK_YES}),
                               headers={"Origin": "http://yasgui.example"})
    assert status == 200 and headers["Access-Control-Allow-Origin"] == "*"
    assert "X-Cache" in headers["Access-Control-Expose-Headers"]


def test_large_answers_are_streamed(proxy: ServerThread) -> None:
    query = "SELECT ?s ?p ?o WHERE { ?s ?p ?o }"
    status, headers, body = fetch(sparql_url(proxy, "oxigraph") + "?" + urllib.parse.urlencode({"query": query}),
                                  headers={"Accept": "application/sparql-results+json"})
    assert status == 200
    assert headers.get("Transfer-Encoding") == "chunked"
    assert len(json.loads(body)["results"]["bindings"]) == 26903


def test_the_embedded_default_store_is_proxied_too() -> None:
    server = ServerThread(EndpointRegistry(), ServerSettings(cache_ttl_s=0)).start()
    try:
        url = sparql_url(server, None)
        count = wrapper(url, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", JSON).queryAndConvert()
        assert int(count["results"]["bindings"][0]["n"]["value"]) > 100
        assert wrapper(url, "ASK { ?s ?p ?o }", XML).queryAndConvert().getElementsByTagName("boolean")
        graph = wrapper(url, "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 3", TURTLE).queryAndConvert()
        assert len(rdflib.Graph().parse(data=graph, format="turtle")) == 3
        status, _, body = fetch(url + "?" + urllib.parse.urlencode({"query": "CLEAR ALL"}))
        assert status == 403
    finally:
        server.stop()
