"""The lean HTTP/1.1 transport the SPARQL client uses for local endpoints (`gateway/http1.py`).

Real engines cover the common case (every Virtuoso and Oxigraph test goes through it); here a raw
asyncio TCP server on 127.0.0.1 plays the awkward peers no engine shows on demand: chunked and
gzip answers it was not asked for, a kept connection closed while idle, a redirect, a cut body,
an answer that is no HTTP. It is a test server speaking bytes, not a mock of an engine.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
import pytest_asyncio

from gateway.config import EndpointConfig
from gateway.engines import free_port
from gateway.errors import EndpointUnreachable
from gateway.http1 import Http1Pool
from gateway.sparql import HttpSparqlClient

ROWS = 5000
BIG = json.dumps({"head": {"vars": ["x"]}, "results": {"bindings": [
    {"x": {"type": "literal", "value": f"row {i} " + "x" * 300}} for i in range(ROWS)]}}).encode()
SMALL = b'{"head": {"vars": ["x"]}, "results": {"bindings": [{"x": {"type": "literal", "value": "ok"}}]}}'
JSON = b"application/sparql-results+json"

Handler = Callable[[bytes, asyncio.StreamWriter], Awaitable[bool]]  # request head -> keep the connection?


def answer(body: bytes, *extra: bytes, status: bytes = b"200 OK") -> bytes:
    head = [b"HTTP/1.1 " + status, b"Content-Type: " + JSON, b"Content-Length: " + str(len(body)).encode(), *extra]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


class RawPeer:
    """A TCP server on 127.0.0.1 whose answer per path is written byte for byte by a handler."""

    def __init__(self) -> None:
        self.port = free_port()
        self.connections = 0
        self.requests: list[bytes] = []
        self.handlers: dict[bytes, Handler] = {}
        self.server: asyncio.Server | None = None

    def client(self, path: str) -> HttpSparqlClient:
        return HttpSparqlClient(EndpointConfig(name="raw", url=f"http://127.0.0.1:{self.port}{path}", timeout_s=5),
                                retries=0)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                if length:
                    await reader.readexactly(length)
                self.requests.append(head)
                path = head.split(b" ")[1].split(b"?")[0]
                if not await self.handlers[path](head, writer):
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def raw() -> AsyncIterator[RawPeer]:
    peer = RawPeer()

    async def kept(head: bytes, writer: asyncio.StreamWriter) -> bool:
        writer.write(answer(SMALL))
        await writer.drain()
        return True

    async def chunked_big(head: bytes, writer: asyncio.StreamWriter) -> bool:
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: " + JSON + b"\r\nTransfer-Encoding: chunked\r\n\r\n")
        for start in range(0, len(BIG), 70_000):
            piece = BIG[start:start + 70_000]
            writer.write(f"{len(piece):x};ext=1\r\n".encode() + piece + b"\r\n")
            await writer.drain()
        writer.write(b"0\r\nX-Trailer: yes\r\n\r\n")
        await writer.drain()
        return True

    async def gzipped(head: bytes, writer: asyncio.StreamWriter) -> bool:
        writer.write(answer(gzip.compress(BIG), b"Content-Encoding: gzip"))
        await writer.drain()
        return True

    async def idle_close(head: bytes, writer: asyncio.StreamWriter) -> bool:
        writer.write(answer(SMALL))  # says nothing about closing, then closes once idle (a keep-alive timeout)
        await writer.drain()
        await asyncio.sleep(0.05)
        return False

    async def until_close(head: bytes, writer: asyncio.StreamWriter) -> bool:
        writer.write(b"HTTP/1.0 200 OK\r\nContent-Type: " + JSON + b"\r\n\r\n" + SMALL)
        await writer.drain()
        return False

    async def cut(head: bytes, writer: asyncio.StreamWriter) -> bool:
        writer.write(answer(SMALL)[:-20])
        await writer.drain()
        return False

    async def garbage(head: bytes, writer: asyncio.StreamWriter) -> bool:
        writer.write(b"hello there\r\n\r\n")
        await writer.drain()
        return False

    async def empty(head: bytes, writer: asyncio.StreamWriter) -> bool:
        writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
        await writer.drain()
        return True

    async def moved(head: bytes, writer: asyncio.StreamWriter) -> bool:
        writer.write(answer(b"", f"Location: http://127.0.0.1:{peer.port}/kept".encode(),
                            status=b"307 Temporary Redirect"))
        await writer.drain()
        return True

    peer.handlers = {b"/kept": kept, b"/chunked": chunked_big, b"/gzip": gzipped, b"/idle-close": idle_close,
                     b"/until-close": until_close, b"/cut": cut, b"/garbage": garbage, b"/moved": moved, b"/empty": empty}
    peer.server = await asyncio.start_server(peer._serve, "127.0.0.1", peer.port)
    yield peer
    peer.server.close()
    await peer.server.wait_closed()


async def test_kept_connection_serves_many_queries(raw: RawPeer) -> None:
    client = raw.client("/kept")
    before = raw.connections
    try:
        for _ in range(5):
            assert len(await client.select("SELECT * WHERE { ?s ?p ?o }")) == 1
    finally:
        await client.close()
    assert raw.connections - before == 1
    head = raw.requests[-1].decode()
    assert head.startswith("GET /kept?query=SELECT") and "Accept-Encoding: identity" in head
    assert f"Host: 127.0.0.1:{raw.port}" in head


async def test_an_answer_without_body_keeps_its_connection(raw: RawPeer) -> None:
    pool = Http1Pool("127.0.0.1", raw.port)
    before = raw.connections
    try:
        for _ in range(3):
            response = await pool.request("GET", "/empty", {})
            assert response.status == 204 and await response.read() == b""
            response.release()
    finally:
        pool.close()
    assert raw.connections - before == 1


@pytest.mark.parametrize("path", ["/chunked", "/gzip"])
async def test_chunked_and_compressed_answers_are_decoded(raw: RawPeer, path: str) -> None:
    client = raw.client(path)
    try:
        result = await client.select("SELECT * WHERE { ?s ?p ?o }")
        assert len(result) == ROWS and str(result.rows[-1]["x"].value).startswith(f"row {ROWS - 1} ")
        async with client.open("SELECT * WHERE { ?s ?p ?o }", accept="application/json") as response:
            streamed = [chunk async for chunk in response.content.iter_chunked(16 * 1024)]
        assert b"".join(streamed) == BIG and max(len(c) for c in streamed) <= 16 * 1024
    finally:
        await client.close()


async def test_a_kept_connection_the_server_closed_is_replaced(raw: RawPeer) -> None:
    client = raw.client("/idle-close")
    before = raw.connections
    try:
        for _ in range(3):
            assert len(await client.select("SELECT * WHERE { ?s ?p ?o }")) == 1
            await asyncio.sleep(0.15)  # the server has closed the idle connection by now
    finally:
        await client.close()
    assert raw.connections - before == 3


async def test_a_body_that_ends_with_the_connection(raw: RawPeer) -> None:
    client = raw.client("/until-close")
    try:
        assert len(await client.select("SELECT * WHERE { ?s ?p ?o }")) == 1
        assert len(await client.select("SELECT * WHERE { ?s ?p ?o }")) == 1
    finally:
        await client.close()


@pytest.mark.parametrize(("path", "message"), [("/cut", "connection broke while reading"),
                                                ("/garbage", "not an HTTP/1.x answer")])
async def test_broken_answers_are_unreachable_with_the_reason(raw: RawPeer, path: str, message: str) -> None:
    client = raw.client(path)
    try:
        with pytest.raises(EndpointUnreachable, match=message):
            await client.select("SELECT * WHERE { ?s ?p ?o }")
    finally:
        await client.close()


async def test_a_redirecting_endpoint_is_followed_through_aiohttp(raw: RawPeer) -> None:
    client = raw.client("/moved")
    try:
        assert len(await client.select("SELECT * WHERE { ?s ?p ?o }")) == 1
        assert client._lean is None
        assert len(await client.select("SELECT * WHERE { ?s ?p ?o }")) == 1
    finally:
        await client.close()


async def test_refused_connection_is_unreachable() -> None:
    client = HttpSparqlClient(EndpointConfig(name="gone", url=f"http://127.0.0.1:{free_port()}/sparql", timeout_s=3),
                              retries=0)
    try:
        with pytest.raises(EndpointUnreachable, match="cannot connect to"):
            await client.select("SELECT * WHERE { ?s ?p ?o }")
    finally:
        await client.close()


def test_remote_and_https_endpoints_keep_aiohttp() -> None:
    for url in ("https://127.0.0.1/sparql", "http://dbpedia.org/sparql", "https://query.wikidata.org/sparql"):
        assert HttpSparqlClient(EndpointConfig(name="r", url=url))._lean is None
    assert isinstance(HttpSparqlClient(EndpointConfig(name="l", url="http://localhost:8890/sparql"))._lean, Http1Pool)


async def test_a_header_with_a_line_break_is_never_sent(raw: RawPeer) -> None:
    pool = Http1Pool("127.0.0.1", raw.port)
    before = len(raw.requests)
    with pytest.raises(ConnectionError, match="line break"):
        await pool.request("GET", "/kept", {"X-Evil": "a\r\nInjected: yes"})
    pool.close()
    assert len(raw.requests) == before
