"""Helpers for the server tests: the real server in a background thread, a slow HTTP peer, and a
small answer path that asks the live engine a real label-search query.

The server runs in its own thread and event loop so that blocking clients (SPARQLWrapper, rdflib,
text2sparql-client, Playwright's sync API) can call it from the test thread.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from gateway.config import EndpointRegistry
from gateway.endpoint import Endpoint
from gateway.engines import free_port
from gateway.models import Answer, PathResult
from gateway.qa import AskOptions, Gateway
from gateway.server import ServerSettings, create_app, start_server
from gateway.sparql import counting_requests


@dataclass
class LabelSearchEvidence:
    sparql: str

    def to_dict(self) -> dict[str, Any]:
        return {"sparql": self.sparql, "queries": [{"sparql": self.sparql, "pattern": "", "answer_var": "?s"}]}


class LabelSearchPath:
    """An answer path for server tests: entities whose label contains the question's longest word,
    found by a real SPARQL query on the live endpoint (fast and deterministic, no models)."""

    name = "labelsearch"

    async def answer(self, question: str, endpoint: Endpoint, options: AskOptions) -> PathResult:
        words = sorted(re.findall(r"[A-Za-z]{3,}", question), key=len, reverse=True)
        word = (words[0] if words else "x").lower()
        sparql = ("SELECT DISTINCT ?s ?l WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l "
                  f'FILTER(CONTAINS(LCASE(STR(?l)), "{word}")) }} LIMIT 5')
        started = time.perf_counter()
        with counting_requests() as counter:
            result = await endpoint.sparql.select(sparql)
        answers = [Answer.from_term(row["s"], label=row["l"].value) for row in result.rows if "s" in row]
        return PathResult(self.name, answers=answers, evidence=LabelSearchEvidence(sparql),
                          timings_ms={"total": (time.perf_counter() - started) * 1000},
                          sparql_requests=counter.count)

    async def close(self) -> None:
        return None


@dataclass
class ServerThread:
    """`create_app` served on 127.0.0.1 from a background thread, as `kgqa serve` serves it."""

    registry: EndpointRegistry
    settings: ServerSettings = field(default_factory=ServerSettings)
    paths: dict[str, Any] = field(default_factory=dict)  # answer paths to install instead of loading packages
    extra_routes: Callable[[web.Application], None] | None = None
    port: int = field(default_factory=free_port)
    relay: bool = True  # the relay in front of aiohttp, as `kgqa serve` runs it

    def __post_init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"kgqa-server-{self.port}")
        self._error: BaseException | None = None
        self.gateway: Gateway | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._start())
        except BaseException as exc:  # reported to the starting thread
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        self.loop.run_forever()
        self.loop.run_until_complete(self._running.close())
        self.loop.close()

    async def _start(self) -> None:
        self.gateway = Gateway(self.registry)
        for name, path in self.paths.items():
            self.gateway.register_path(name, path)
        app = create_app(self.gateway, self.settings)
        if self.extra_routes is not None:
            self.extra_routes(app)
        self._running = await start_server(app, "127.0.0.1", self.port, relay=self.relay)

    def start(self) -> ServerThread:
        self._thread.start()
        self._ready.wait(60)
        if self._error is not None:
            raise self._error
        return self

    def call(self, coroutine: Any, timeout: float = 60) -> Any:
        """Runs a coroutine on the server's loop (to reach its gateway) and waits for the result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(30)


class SlowPeer:
    """A local HTTP server that answers every request only after `delay_s` (upstream timeouts)."""

    def __init__(self, delay_s: float = 5.0) -> None:
        self.delay_s = delay_s
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/sparql"
        self.server = ServerThread(EndpointRegistry(), port=self.port, extra_routes=None)

    async def _slow(self, request: web.Request) -> web.Response:
        await asyncio.sleep(self.delay_s)
        return web.json_response({"head": {"vars": []}, "results": {"bindings": []}})

    def start(self) -> SlowPeer:
        def routes(app: web.Application) -> None:
            app.router.add_get("/slow/sparql", self._slow)
            app.router.add_post("/slow/sparql", self._slow)

        self.server.extra_routes = routes
        self.url = f"http://127.0.0.1:{self.port}/slow/sparql"
        self.server.start()
        return self

    def stop(self) -> None:
        self.server.stop()
