"""The proxy's relay (`gateway/relay.py`) against live Virtuoso and Oxigraph: the same answers as the
aiohttp path, kept and pipelined connections, the hand-over to aiohttp, errors, cache, the
endpoint's concurrency limit and long answers. `/metrics` says which path served each request, so
every test checks that the relay really was the one answering."""

from __future__ import annotations

import http.client
import json
import re
import socket
import urllib.parse
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from serverutil import ServerThread, SlowPeer
from test_proxy import LABELS, RDFS_LABEL, fetch

from gateway.config import EndpointConfig, EndpointRegistry
from gateway.engines import OxigraphEngine, VirtuosoEngine, free_port
from gateway.server import ServerSettings

MANY = "SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 20000"


@pytest.fixture(scope="module")
def slow_peer() -> Iterator[SlowPeer]:
    peer = SlowPeer(delay_s=4.0).start()
    yield peer
    peer.stop()


def registry(virtuoso: VirtuosoEngine, oxigraph: OxigraphEngine, slow_peer: SlowPeer) -> EndpointRegistry:
    return EndpointRegistry({
        "default": virtuoso.endpoint("default", "ck25"),
        "virtuoso": virtuoso.endpoint("virtuoso", "ck25"),
        "oxigraph": oxigraph.endpoint("oxigraph", "ck25"),
        "narrow": virtuoso.endpoint("narrow", "ck25", max_concurrency=1),
        "down": EndpointConfig(name="down", url=f"http://127.0.0.1:{free_port()}/sparql", timeout_s=5),
        "slow": EndpointConfig(name="slow", url=slow_peer.url, timeout_s=1.0),
    })


@pytest.fixture(scope="module")
def relayed(virtuoso: VirtuosoEngine, oxigraph: OxigraphEngine, slow_peer: SlowPeer) -> Iterator[ServerThread]:
    server = ServerThread(registry(virtuoso, oxigraph, slow_peer), ServerSettings(cache_ttl_s=0)).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def plain(virtuoso: VirtuosoEngine, oxigraph: OxigraphEngine, slow_peer: SlowPeer) -> Iterator[ServerThread]:
    server = ServerThread(registry(virtuoso, oxigraph, slow_peer), ServerSettings(cache_ttl_s=0), relay=False).start()
    yield server
    server.stop()


def relay_counts(server: ServerThread) -> dict[str, int]:
    _, _, body = fetch(server.url + "/metrics")
    return {m.group(1): int(float(m.group(2)))
            for m in re.finditer(r'^kgqa_proxy_relay_total\{outcome="([a-z]+)"\} (\S+)$', body.decode(), re.M)}


def grew(before: dict[str, int], after: dict[str, int], outcome: str) -> int:
    return after.get(outcome, 0) - before.get(outcome, 0)


def query_path(query: str, name: str | None = None) -> str:
    base = "/sparql" if name is None else f"/endpoints/{name}/sparql"
    return base + "?" + urllib.parse.urlencode({"query": query})


SAME_HEADERS = ("Content-Type", "Access-Control-Allow-Origin", "Access-Control-Expose-Headers", "X-Cache")


@pytest.mark.parametrize("name", ["virtuoso", "oxigraph"])
@pytest.mark.parametrize("accept", ["application/sparql-results+json", "application/sparql-results+xml", "text/csv"])
def test_relayed_answers_are_the_aiohttp_paths_answers(relayed: ServerThread, plain: ServerThread, name: str,
                                                       accept: str) -> None:
    before = relay_counts(relayed)
    status, headers, body = fetch(relayed.url + query_path(LABELS, name), headers={"Accept": accept})
    plain_status, plain_headers, plain_body = fetch(plain.url + query_path(LABELS, name), headers={"Accept": accept})
    assert grew(before, relay_counts(relayed), "relayed") == 1
    assert relay_counts(plain) == {}
    assert (status, body) == (plain_status, plain_body) == (200, plain_body)
    assert {h: headers.get(h) for h in SAME_HEADERS} == {h: plain_headers.get(h) for h in SAME_HEADERS}


def test_a_kept_connection_is_relayed_until_a_request_the_relay_does_not_take(relayed: ServerThread) -> None:
    before = relay_counts(relayed)
    connection = http.client.HTTPConnection("127.0.0.1", relayed.port, timeout=30)
    for _ in range(3):
        connection.request("GET", query_path(LABELS), headers={"Accept": "application/sparql-results+json"})
        response = connection.getresponse()
        assert response.status == 200 and len(json.loads(response.read())["results"]["bindings"]) == 5
    connection.request("POST", "/sparql", body=LABELS, headers={"Content-Type": "application/sparql-query"})
    response = connection.getresponse()
    assert response.status == 200 and len(json.loads(response.read())["results"]["bindings"]) == 5
    connection.request("GET", query_path(LABELS))  # the connection is aiohttp's now, and still works
    assert connection.getresponse().status == 200
    connection.close()
    assert grew(before, relay_counts(relayed), "relayed") == 3


def test_pipelined_requests_are_answered_in_order(relayed: ServerThread) -> None:
    first = query_path("SELECT (1 AS ?one) WHERE {}")
    second = query_path("SELECT (2 AS ?two) WHERE {}")
    with socket.create_connection(("127.0.0.1", relayed.port), timeout=30) as sock:
        sock.sendall(b"".join(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/csv\r\n\r\n".encode()
                              for path in (first, second)))
        received = b""
        while received.count(b"HTTP/1.1 200") < 2 or not received.rstrip().endswith(b"2"):
            chunk = sock.recv(65536)
            assert chunk, received
            received += chunk
    assert received.index(b"one") < received.index(b"two")


def test_errors_from_the_relay_are_the_proxys_errors(relayed: ServerThread, plain: ServerThread) -> None:
    before = relay_counts(relayed)
    cases = [(query_path("SELECT ?s WHERE { ?s ?p }", "virtuoso"), 400, "syntax-error"),
             (query_path(LABELS, "down"), 502, "unreachable"),
             (query_path(LABELS, "slow"), 504, "timeout")]
    for path, status, kind in cases:
        got, headers, body = fetch(relayed.url + path)
        plain_got, _, plain_body = fetch(plain.url + path)
        assert (got, plain_got) == (status, status), body
        assert headers["X-KGQA-Error"] == kind and body.decode().startswith(f"{kind}: ")
        assert headers["Access-Control-Allow-Origin"] == "*"
        if kind != "unreachable":  # the refused port's message names the attempt, equal otherwise
            assert body == plain_body
    assert grew(before, relay_counts(relayed), "error") == 3


def test_updates_questions_and_asks_go_to_aiohttp(relayed: ServerThread) -> None:
    before = relay_counts(relayed)
    assert fetch(relayed.url + query_path("DROP ALL"))[0] == 403
    assert fetch(relayed.url + query_path(f"ASK {{ ?s <{RDFS_LABEL}> ?l }}"))[0] == 200
    assert relay_counts(relayed) == before


def test_the_cache_answers_relayed_queries(virtuoso: VirtuosoEngine, oxigraph: OxigraphEngine,
                                           slow_peer: SlowPeer) -> None:
    server = ServerThread(registry(virtuoso, oxigraph, slow_peer), ServerSettings(cache_ttl_s=60)).start()
    try:
        first = fetch(server.url + query_path(LABELS))
        second = fetch(server.url + query_path(LABELS))
        assert (first[1]["X-Cache"], second[1]["X-Cache"]) == ("MISS", "HIT")
        assert first[2] == second[2] and first[0] == second[0] == 200
        assert relay_counts(server) == {"relayed": 1, "cached": 1}
    finally:
        server.stop()


def test_the_endpoints_concurrency_limit_holds_relayed_requests(relayed: ServerThread) -> None:
    before = relay_counts(relayed)
    paths = [query_path(f"SELECT ?s WHERE {{ ?s <{RDFS_LABEL}> ?l }} LIMIT {n}", "narrow") for n in range(1, 13)]
    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(lambda path: fetch(relayed.url + path), paths))
    assert [len(json.loads(body)["results"]["bindings"]) for _, _, body in answers] == list(range(1, 13))
    assert grew(before, relay_counts(relayed), "relayed") == 12


@pytest.mark.parametrize("name", ["virtuoso", "oxigraph"])
def test_a_long_answer_comes_through_whole(relayed: ServerThread, plain: ServerThread, name: str) -> None:
    status, _, body = fetch(relayed.url + query_path(MANY, name))
    _, _, plain_body = fetch(plain.url + query_path(MANY, name))
    assert status == 200 and len(body) > 1_000_000

    def rows(answer: bytes) -> list[str]:
        return sorted(json.dumps(row, sort_keys=True) for row in json.loads(answer)["results"]["bindings"])

    assert rows(body) == rows(plain_body)


def test_a_client_that_leaves_mid_answer_costs_nothing_else(relayed: ServerThread) -> None:
    """A client closing its connection while a long answer is relayed: the upstream connection is
    dropped, the endpoint's slot freed, and the next requests are answered as before."""
    for _ in range(3):
        with socket.create_connection(("127.0.0.1", relayed.port), timeout=30) as sock:
            sock.sendall(f"GET {query_path(MANY, 'narrow')} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert sock.recv(1024).startswith(b"HTTP/1.1 200")
    status, _, body = fetch(relayed.url + query_path(LABELS, "narrow"))  # max_concurrency 1: the slot is free
    assert status == 200 and len(json.loads(body)["results"]["bindings"]) == 5


@pytest.mark.parametrize("head", [b"GET /sparql?query=SELECT HTTP/1.1 extra\r\n\r\n", b"\x16\x03\x01garbage\r\n\r\n",
                                  b"GET /sparql?query=" + b"x" * 70000 + b" HTTP/1.1\r\n\r\n"])
def test_malformed_requests_get_aiohttps_clear_errors(relayed: ServerThread, head: bytes) -> None:
    with socket.create_connection(("127.0.0.1", relayed.port), timeout=30) as sock:
        sock.sendall(head)
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.") and answer.split(b" ")[1] in (b"400", b"414", b"431"), answer[:200]
    assert fetch(relayed.url + "/health")[0] == 200


def test_many_pipelined_cached_requests_are_all_answered(virtuoso: VirtuosoEngine, oxigraph: OxigraphEngine,
                                                         slow_peer: SlowPeer) -> None:
    server = ServerThread(registry(virtuoso, oxigraph, slow_peer), ServerSettings(cache_ttl_s=60)).start()
    try:
        request = f"GET {query_path('SELECT (1 AS ?one) WHERE {}')} HTTP/1.1\r\nHost: x\r\nAccept: text/csv\r\n\r\n"
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
            sock.sendall(request.encode())  # fills the cache
            received = sock.recv(65536)
            sock.sendall(request.encode() * 2000)  # answered from the cache, one after the other
            while received.count(b"HTTP/1.1 200") < 2001:
                chunk = sock.recv(1 << 20)
                assert chunk, received.count(b"HTTP/1.1 200")
                received += chunk
        assert relay_counts(server)["cached"] == 2000
    finally:
        server.stop()
