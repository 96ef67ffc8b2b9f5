"""The floor of a Python SPARQL proxy on this machine: a minimal asyncio forwarder for the proxy benchmark.

It does only what any proxy of the gateway's kind must do per request: parse the HTTP request, read
the query's form (`gateway.sparql_syntax.analyse`, the update check), send it upstream through the
gateway's own SPARQL client (the lean HTTP/1.1 transport), write the answer back, count it in the
metrics and log one JSON line. No aiohttp server, no routing, no cache, no content negotiation, no
error handling: it is a measuring stick, not a server. `benchmarks/proxy.py --floor` runs it beside
`kgqa serve`, so the proxy's distance to the floor and the floor's distance to direct calls are both
measured.

    .venv/bin/python benchmarks/proxy_floor.py PORT ENDPOINTS_YAML
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from urllib.parse import parse_qsl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gateway.config import EndpointRegistry  # noqa: E402
from gateway.metrics import GatewayMetrics  # noqa: E402
from gateway.server import access_log, new_event_loop, setup_access_log  # noqa: E402
from gateway.sparql import HttpSparqlClient  # noqa: E402
from gateway.sparql_syntax import analyse  # noqa: E402


class FloorForwarder(asyncio.Protocol):
    """Keep-alive GET /sparql?query=... only; one request at a time per connection."""

    def __init__(self, client: HttpSparqlClient, metrics: GatewayMetrics) -> None:
        self.client = client
        self.metrics = metrics
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.busy = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.busy:
            self._next()

    def _next(self) -> None:
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        head = bytes(self.buffer[:end]).decode("latin-1")
        del self.buffer[:end + 4]
        request_line, *header_lines = head.split("\r\n")
        target = request_line.split(" ")[1]
        accept = next((line.split(":", 1)[1].strip() for line in header_lines if line.lower().startswith("accept:")), "")
        query = dict(parse_qsl(target.partition("?")[2])).get("query", "")
        self.busy = True
        asyncio.get_running_loop().create_task(self._forward(query, accept or "application/sparql-results+json"))

    async def _forward(self, query: str, accept: str) -> None:
        started = time.perf_counter()
        analyse(query)
        async with self.client.open(query, accept=accept) as upstream:
            content_type = upstream.headers.get("Content-Type", "")
            body = await upstream.read()
        assert self.transport is not None
        self.transport.write(f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
                             "Access-Control-Allow-Origin: *\r\n\r\n".encode("latin-1") + body)
        elapsed = time.perf_counter() - started
        self.metrics.requests.inc("/sparql", "GET", "200")
        self.metrics.latency.observe(elapsed, "/sparql")
        access_log.info("request", extra={"fields": {"method": "GET", "path": "/sparql", "route": "/sparql",
                                                     "status": 200, "ms": round(elapsed * 1000, 2)}})
        self.busy = False
        self._next()


async def serve(port: int, endpoints: Path) -> None:
    registry = EndpointRegistry.from_file(endpoints)
    config = registry.resolve(registry.names()[0])
    client = HttpSparqlClient(config)
    metrics = GatewayMetrics()
    server = await asyncio.get_running_loop().create_server(lambda: FloorForwarder(client, metrics), "127.0.0.1", port)
    async with server:
        await server.serve_forever()


def main() -> None:
    setup_access_log()
    loop = new_event_loop()
    loop.run_until_complete(serve(int(sys.argv[1]), Path(sys.argv[2])))


if __name__ == "__main__":
    main()
