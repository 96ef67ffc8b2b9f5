"""The SPARQL proxy's relay: plain GET queries forwarded below aiohttp, with callbacks only.

Why: the gateway usually shares its machine with the endpoint, so every bit of proxy CPU per request
is taken from the endpoint. aiohttp's server and a coroutine per request cost about a millisecond
here; relaying bytes from callbacks costs a fraction of that.

What: `kgqa serve` accepts connections with `RelayProtocol`. A request it can relay is a GET of
`/sparql` or `/endpoints/{name}/sparql` with `query=` (no `question=` or `update=`) over HTTP/1.1,
without a body, whose query is a SELECT, CONSTRUCT or DESCRIBE without a question triple, to an
endpoint the SPARQL client reaches by its lean transport (`HttpSparqlClient.relay_request`). It is
answered from the proxy's cache, or the request head the client builds goes out on a kept connection
and the answer's bytes go back as they come, under the proxy's headers (CORS, X-Cache). The rules are
`SparqlProxy`'s: the endpoint's concurrency limit, the proxy timeout (504), the error mapping (400,
502, 504 with the upstream's message), the cache. An answer the relay does not pass on as it is (a
redirect, a status worth retrying, a media type the client did not ask for, a kept connection found
closed) is left unread and the request goes to the aiohttp handler, which retries, follows or
converts. The first request the relay does not take hands its connection to aiohttp for good, so
everything else is served as it always was.
"""

from __future__ import annotations

import asyncio
import logging
import re
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import TYPE_CHECKING, cast
from urllib.parse import quote_plus

from yarl import URL

from gateway.accesslog import ACCESS_LOG
from gateway.endpoint import Endpoint
from gateway.errors import EndpointTimeout, EndpointUnreachable, GatewayError
from gateway.http1 import MAX_HEAD_BYTES, Connection, Http1Error
from gateway.proxy import (
    SparqlProxy,
    error_status,
    error_text,
    is_acceptable,
    is_upstream_failure,
    parse_accept,
    upstream_accept,
)
from gateway.sparql import (
    ERROR_BODY_BYTES,
    REDIRECT_STATUSES,
    RETRY_STATUSES,
    HttpSparqlClient,
    RelayRequest,
    status_error,
)
from gateway.sparql_syntax import analyse, may_hold_magic_triples

if TYPE_CHECKING:
    from aiohttp.web_protocol import RequestHandler

log = logging.getLogger(__name__)

RELAYED_FORMS = frozenset({"SELECT", "CONSTRUCT", "DESCRIBE"})
_URL_SAFE = re.compile(r"[A-Za-z0-9\-._~%!$'()*+,;:@/?=]*")  # passed on in the request line as it came
_ANSWER_HEADERS = frozenset({"connection", "transfer-encoding", "content-length", "content-type", "content-encoding",
                             "x-sparql-maxrows"})
REFUSING_HEADERS = (b"content-length", b"transfer-encoding", b"expect", b"upgrade")  # with these, aiohttp serves


@dataclass(frozen=True)
class RelayPlan:
    """A request the relay takes: where it goes and how its answer is checked."""

    endpoint: Endpoint
    route: str
    path: str
    accepted: tuple[tuple[str, float], ...]
    cache_key: tuple[str, str, str]
    request: RelayRequest
    timeout_s: float
    close: bool  # the client sent `Connection: close`


class Relay:
    """What the relay shares across connections: the app's proxy, metrics, cors headers and aiohttp's handler factory."""

    def __init__(self, proxy: SparqlProxy, default_endpoint: str, cors_headers: dict[str, str],
                 aiohttp_handler: Callable[[], RequestHandler], keepalive_s: float = 75.0) -> None:
        self.proxy = proxy
        self.gateway = proxy.gateway
        self.metrics = proxy.metrics
        self.default_endpoint = default_endpoint
        self.aiohttp_handler = aiohttp_handler
        self.keepalive_s = keepalive_s
        self.cors = "".join(f"{name}: {value}\r\n" for name, value in cors_headers.items()).encode("latin-1")
        self.connections: set[RelayProtocol] = set()
        self.uncounted: list[tuple[str, RelayPlan, int, float, str]] = []  # (outcome, plan, status, seconds, remote)
        self._count_timer: asyncio.TimerHandle | None = None
        self.metrics.add_collector(self.count_served)  # a scrape sees every request answered before it

    def served(self, outcome: str, plan: RelayPlan, status: int, seconds: float, remote: str) -> None:
        """Counts an answered request a little later: after the next request goes upstream, while the
        endpoint works and the relay would only wait (or within 10 ms when no request follows)."""
        self.uncounted.append((outcome, plan, status, seconds, remote))
        if self._count_timer is None:
            self._count_timer = asyncio.get_running_loop().call_later(0.01, self.count_served)

    def count_served(self) -> None:
        """Metrics and access-log lines of the requests answered since the last call."""
        if self._count_timer is not None:
            self._count_timer.cancel()
            self._count_timer = None
        served, self.uncounted = self.uncounted, []
        metrics = self.metrics
        for outcome, plan, status, seconds, remote in served:
            metrics.relay.inc(outcome)
            metrics.requests.inc(plan.route, "GET", str(status))
            metrics.latency.observe(seconds, plan.route)
            ACCESS_LOG.record("GET", plan.path, plan.route, status, seconds * 1000, remote, relay=True)

    def plan(self, head: bytes) -> RelayPlan | None:
        """The relay plan for a request head, or None when aiohttp should serve the request."""
        lines = head.split(b"\r\n")
        parts = lines[0].split(b" ")
        if len(parts) != 3 or parts[0] != b"GET" or parts[2] != b"HTTP/1.1":
            return None
        accept = ""
        close = False
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"accept" and not accept:
                accept = value.strip().decode("latin-1")
            elif name == b"connection":
                close = close or b"close" in value.lower()
            elif name in REFUSING_HEADERS:
                return None
        try:
            target = parts[1].decode("ascii")
        except UnicodeDecodeError:
            return None
        path, _, query_string = target.partition("?")
        if path == "/sparql":
            name, route = self.default_endpoint, "/sparql"
        elif path.startswith("/endpoints/") and path.endswith("/sparql") and path.count("/") == 3 and "%" not in path:
            name, route = path[len("/endpoints/"):-len("/sparql")], "/endpoints/{name}/sparql"
            if name not in self.gateway.registry.names():
                return None
        else:
            return None
        params = dict(URL("/?" + query_string, encoded=True).query)  # as aiohttp reads them for the handler
        query = params.get("query")
        if not query or not query.strip() or "question" in params or "update" in params:
            return None
        # the client's own encoding goes upstream when it is plain (one query=, safe characters)
        start = query_string.find("query=")
        encoded_query = query_string[start + 6:].partition("&")[0] if start >= 0 else ""
        if (start > 0 and query_string[start - 1] != "&") or query_string.count("query=") != 1 \
                or not _URL_SAFE.fullmatch(encoded_query):
            encoded_query = quote_plus(query, safe="")
        if may_hold_magic_triples(query):
            return None
        kind, normalised = analyse(query)
        if kind.is_update or kind.form not in RELAYED_FORMS:
            return None
        endpoint = self.gateway.endpoint(name)
        client = endpoint.sparql
        if endpoint.config.is_embedded or not isinstance(client, HttpSparqlClient):
            return None
        wanted = upstream_accept(accept, kind.returns_graph)
        request = client.relay_request(encoded_query, wanted)
        if request is None:
            return None
        timeout_s = self.proxy.timeout_s if self.proxy.timeout_s is not None else endpoint.config.timeout_s
        return RelayPlan(endpoint, route, path, parse_accept(accept), (endpoint.name, wanted, normalised),
                         request, timeout_s, close)


class RelayProtocol(asyncio.Protocol):
    """One client connection: relays what it can, one request at a time, and hands the rest to aiohttp."""

    def __init__(self, relay: Relay) -> None:
        self.relay = relay
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.exchange: _Exchange | None = None
        self.remote = ""
        self._idle_since = time.monotonic()
        self._idle_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        peer = transport.get_extra_info("peername")
        self.remote = str(peer[0]) if peer else ""
        self.relay.connections.add(self)
        self._idle_timer = asyncio.get_running_loop().call_later(self.relay.keepalive_s, self._check_idle)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.exchange is None:
            self._next()
        elif len(self.buffer) > MAX_HEAD_BYTES and self.transport is not None:
            self.transport.pause_reading()  # a client sending far ahead waits for its answers

    def connection_lost(self, exc: Exception | None) -> None:
        self.relay.connections.discard(self)
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        if self.exchange is not None:
            self.exchange.abort()
            self.exchange = None
        self.transport = None

    def pause_writing(self) -> None:
        if self.exchange is not None:
            self.exchange.pause()

    def resume_writing(self) -> None:
        if self.exchange is not None:
            self.exchange.resume()

    def _check_idle(self) -> None:
        if self.transport is None:
            return
        waited = time.monotonic() - self._idle_since
        if self.exchange is None and waited >= self.relay.keepalive_s:
            self.transport.close()
            return
        self._idle_timer = asyncio.get_running_loop().call_later(max(1.0, self.relay.keepalive_s - waited),
                                                                 self._check_idle)

    def _next(self) -> None:
        """Serves the next complete request in the buffer, or hands the connection over."""
        if self.transport is None:
            return
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            if len(self.buffer) > MAX_HEAD_BYTES:
                self.hand_over()
            return
        head = bytes(self.buffer[:end])
        plan = self.relay.plan(head)
        if plan is None:
            self.hand_over()
            return
        del self.buffer[:end + 4]
        self.exchange = _Exchange(self, plan, head + b"\r\n\r\n")
        self.exchange.start()

    def finished(self, exchange: _Exchange, keep_open: bool) -> None:
        """An exchange answered; the next pipelined request, if any, goes next."""
        if self.exchange is not exchange:
            return
        self.exchange = None
        self._idle_since = time.monotonic()
        if self.transport is None:
            return
        if not keep_open:
            self.transport.close()
            return
        self.transport.resume_reading()
        if self.buffer:  # pipelined requests: the next one from the loop, not deeper in this stack
            asyncio.get_running_loop().call_soon(self._next_if_idle)

    def _next_if_idle(self) -> None:
        if self.exchange is None:
            self._next()

    def resend(self, exchange: _Exchange) -> None:
        """The exchange's request goes to aiohttp (nothing was written for it yet)."""
        if self.exchange is not exchange:
            return
        self.exchange = None
        self.buffer[:0] = exchange.raw_head
        self.hand_over()

    def hand_over(self) -> None:
        """aiohttp's request handler takes this connection, with every byte not served yet."""
        transport = self.transport
        if transport is None:
            return
        self.transport = None
        self.relay.connections.discard(self)
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        handler = self.relay.aiohttp_handler()
        transport.set_protocol(handler)
        handler.connection_made(transport)
        transport.resume_reading()
        if self.buffer:
            data, self.buffer = bytes(self.buffer), bytearray()
            handler.data_received(data)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


class _ChunkScanner:
    """Finds the end of a chunked body in the bytes as they pass (and collects its data when asked)."""

    def __init__(self, collect: int) -> None:
        self.parts: list[bytes] = []
        self.collected = 0
        self.overflow = collect <= 0  # more data than `collect` bytes came: `parts` holds only the first ones
        self._collect = collect
        self._left = 0  # data bytes left in the current chunk, then its CRLF
        self._line = bytearray()  # a size or trailer line being read
        self._state = "size"  # size, data, crlf, trailer
        self.done = False

    def feed(self, data: bytes) -> int:
        """Bytes of `data` that belong to the body; the body ended when `done` is set."""
        i, n = 0, len(data)
        while i < n and not self.done:
            if self._state == "data":
                take = min(self._left, n - i)
                if not self.overflow:
                    if self.collected + take > self._collect:
                        self.overflow = True
                    else:
                        self.collected += take
                        self.parts.append(data[i:i + take])
                i += take
                self._left -= take
                if self._left == 0:
                    self._state, self._left = "crlf", 2
            elif self._state == "crlf":
                take = min(self._left, n - i)
                i += take
                self._left -= take
                if self._left == 0:
                    self._state = "size"
            else:
                end = data.find(b"\n", i)
                if end < 0:
                    self._line += data[i:]
                    if len(self._line) > MAX_HEAD_BYTES:
                        raise Http1Error("chunk size line too long")
                    return n
                self._line += data[i:end]
                i = end + 1
                line = bytes(self._line).strip()
                self._line.clear()
                if self._state == "trailer":
                    if not line:
                        self.done = True
                    continue
                try:
                    size = int(line.split(b";", 1)[0], 16)
                except ValueError as exc:
                    raise Http1Error(f"bad chunk size line {line[:40]!r}") from exc
                if size == 0:
                    self._state = "trailer"
                else:
                    self._state, self._left = "data", size
        return i


class _Exchange:
    """One relayed request: waits for a slot, sends the head, passes the answer back (the connection's sink)."""

    def __init__(self, client: RelayProtocol, plan: RelayPlan, raw_head: bytes) -> None:
        self.client = client
        self.plan = plan
        self.raw_head = raw_head
        self.relay = client.relay
        self.started = time.perf_counter()
        self.connection: Connection | None = None
        self.state = "waiting"  # waiting, head, body, error, done
        self.head = bytearray()
        self.slot = False
        self.timer: asyncio.TimerHandle | None = None
        self.status = 0
        self.remaining: int | None = None  # body bytes left (Content-Length)
        self.chunks: _ChunkScanner | None = None
        self.kept: list[bytes] | None = None
        self.kept_size = 0
        self.keep_alive = True
        self.content_type = ""
        self.extra: list[tuple[str, str]] = []
        self.error_body = bytearray()
        self.error_reason = ""
        self.pending_head = b""
        self.sent = self.started
        self.connecting: asyncio.Task[None] | None = None

    # -- sending

    def start(self) -> None:
        cache = self.relay.proxy.cache
        if cache.enabled:
            hit = cache.get(self.plan.cache_key)
            if hit is not None:
                self.relay.metrics.cache.inc("hit")
                self._send_client(self._head(200, hit.content_type, len(hit.body), "HIT", hit.headers) + hit.body)
                self._done(200, "cached")
                return
            self.relay.metrics.cache.inc("miss")
            self.kept = []
        loop = asyncio.get_running_loop()
        self.timer = loop.call_at(loop.time() + self.plan.timeout_s, self._timed_out)
        if self.plan.request.limit.try_acquire():
            self.slot = True
            self._send()
        else:
            self.plan.request.limit.when_free(self._take_slot)

    def _take_slot(self) -> bool:
        if self.state != "waiting":
            return False
        self.slot = True
        self._send()
        return True

    def _send(self) -> None:
        connection = self.plan.request.pool.checkout()
        if connection is None:  # (the task is kept: the loop holds tasks only weakly)
            self.connecting = asyncio.get_running_loop().create_task(self._connect())
            return
        self._send_on(connection)

    async def _connect(self) -> None:
        try:
            connection = await self.plan.request.pool.connect(min(10.0, self.plan.timeout_s))
        except (Http1Error, OSError, TimeoutError) as exc:
            if self.state == "waiting":
                self._fail(EndpointUnreachable(f"cannot connect to {self.plan.endpoint.config.url}: {exc}",
                                               endpoint=self.plan.endpoint.name))
            return
        if self.state != "waiting":  # it ended meanwhile (timeout, client gone)
            self.plan.request.pool.give_back(connection, True)
            return
        self._send_on(connection)

    def _send_on(self, connection: Connection) -> None:
        self.connection = connection
        connection.sink = self
        self.state = "head"
        self.sent = time.perf_counter()
        assert connection.transport is not None
        connection.transport.write(self.plan.request.head)
        if self.relay.uncounted:
            self.relay.count_served()

    # -- the connection's sink

    def upstream_data(self, data: bytes) -> None:
        try:
            if self.state == "head":
                self._head_data(data)
            elif self.state == "body":
                self._body_data(data)
            elif self.state == "error":
                self._error_data(data)
        except Http1Error as exc:
            self._broken(str(exc))

    def upstream_closed(self, exc: BaseException | None) -> None:
        if self.state == "head":
            assert self.connection is not None
            if self.connection.used and not self.head:
                self._resend()  # a kept connection the endpoint had closed: aiohttp's handler sends it again
            else:
                self._fail(EndpointUnreachable(f"cannot talk to {self.plan.endpoint.config.url}: the endpoint closed "
                                               "the connection before its answer's headers",
                                               endpoint=self.plan.endpoint.name))
        elif self.state == "body":
            if self.remaining is None and self.chunks is None:
                self._finish(reusable=False)  # the body ends when the connection does
            else:
                self._broken("the endpoint closed the connection in the middle of its answer")
        elif self.state == "error":
            self._error_complete()

    # -- the answer

    def _head_data(self, data: bytes) -> None:
        self.head += data
        end = self.head.find(b"\r\n\r\n")
        if end < 0:
            if len(self.head) > MAX_HEAD_BYTES:
                raise Http1Error("the endpoint's answer headers are too large")
            return
        assert self.connection is not None
        self.connection.used = True
        lines = bytes(self.head[:end]).decode("latin-1").split("\r\n")
        rest = bytes(self.head[end + 4:])
        status_parts = lines[0].split(" ", 2)
        if len(status_parts) < 2 or not status_parts[0].startswith("HTTP/1.") or not status_parts[1].isdigit():
            raise Http1Error(f"not an HTTP/1.x answer: {lines[0][:80]!r}")
        status = int(status_parts[1])
        if 100 <= status < 200:  # an interim answer: the real one follows
            self.head = bytearray()
            if rest:
                self._head_data(rest)
            return
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if not sep:
                raise Http1Error(f"bad header line in the endpoint's answer: {line[:80]!r}")
            name = name.strip().lower()
            if name in _ANSWER_HEADERS:
                headers[name] = value.strip()
        self.status = status
        self.relay.metrics.upstream_latency.observe(time.perf_counter() - self.sent, self.plan.endpoint.name)
        connection_header = headers.get("connection", "").lower()
        self.keep_alive = ("close" not in connection_header if status_parts[0] == "HTTP/1.1"
                           else "keep-alive" in connection_header)
        if "chunked" in headers.get("transfer-encoding", "").lower():
            self.chunks = _ChunkScanner(ERROR_BODY_BYTES if status != 200 else
                                        self.relay.proxy.cache.max_entry_bytes if self.kept is not None else 0)
        elif "content-length" in headers:
            length = headers["content-length"]
            if not length.isdigit():
                raise Http1Error(f"bad Content-Length {length[:20]!r}")
            self.remaining = int(length)
        else:
            self.keep_alive = False
        self.content_type = headers.get("content-type", "")
        if status in REDIRECT_STATUSES or status in RETRY_STATUSES or (200 < status < 400):
            self._resend()
            return
        if status >= 400:
            self.state = "error"
            self.error_reason = status_parts[2] if len(status_parts) > 2 else ""
            self._error_data(rest)
            return
        encoding = headers.get("content-encoding", "identity").lower()
        if encoding not in ("", "identity") or not self.content_type or \
                not is_acceptable(self.content_type, self.plan.accepted):
            self._resend()  # aiohttp's handler converts the answer
            return
        if "x-sparql-maxrows" in headers:
            self.extra.append(("X-SPARQL-MaxRows", headers["x-sparql-maxrows"]))
        self.state = "body"
        self.pending_head = self._head(200, self.content_type, self.remaining, "MISS", self.extra,
                                       chunked=self.chunks is not None)
        self._body_data(rest)

    def _body_data(self, data: bytes) -> None:
        if self.chunks is not None:
            used = self.chunks.feed(data)
            self._send_client(data[:used] if used < len(data) else data)
            if self.chunks.done:
                self._finish(reusable=used == len(data))
            return
        if self.remaining is not None:
            if len(data) > self.remaining:
                data, extra = data[:self.remaining], True
            else:
                extra = False
            self.remaining -= len(data)
            self._send_client(data)
            self._keep(data)
            if self.remaining == 0:
                self._finish(reusable=not extra)
            return
        self._send_client(data)
        self._keep(data)

    def _keep(self, data: bytes) -> None:
        if self.kept is None:
            return
        self.kept_size += len(data)
        if self.kept_size > self.relay.proxy.cache.max_entry_bytes:
            self.kept = None
        else:
            self.kept.append(data)

    def _error_data(self, data: bytes) -> None:
        if self.chunks is not None:
            self.chunks.feed(data)
            if self.chunks.done or self.chunks.overflow:
                self.error_body += b"".join(self.chunks.parts)
                self._error_complete()
            return
        if self.remaining is not None:
            data = data[:self.remaining]
            self.remaining -= len(data)
        self.error_body += data
        if self.remaining == 0 or len(self.error_body) >= ERROR_BODY_BYTES:
            self._error_complete()

    def _error_complete(self) -> None:
        if self.state != "error":
            return
        body = bytes(self.error_body) or (b"".join(self.chunks.parts) if self.chunks is not None else b"")
        error = status_error(self.status, self.error_reason, body[:ERROR_BODY_BYTES], self.plan.endpoint.name)
        self._release_connection(reusable=False)
        self._fail(error)

    # -- endings

    def _finish(self, reusable: bool) -> None:
        if self.state != "body":
            return
        self._release_connection(reusable=reusable and self.keep_alive)
        if self.kept is not None and self.chunks is not None:
            self.kept = None if self.chunks.overflow else self.chunks.parts
            self.kept_size = self.chunks.collected
        if self.kept is not None and self.kept_size <= self.relay.proxy.cache.max_entry_bytes:
            self.relay.proxy.cache.put(self.plan.cache_key, b"".join(self.kept), self.content_type, self.extra)
        self._done(200, "relayed", keep_open=self.remaining is not None or self.chunks is not None)

    def _fail(self, error: GatewayError) -> None:
        """An error answer in place of the upstream's (nothing was written to the client yet)."""
        if self.state in ("done", "body"):
            return
        self._release_connection(reusable=False)
        if is_upstream_failure(error):
            self.relay.metrics.upstream_errors.inc(self.plan.endpoint.name, error.kind)
        status = error_status(error)
        body = error_text(error).encode()
        self._send_client(self._head(status, "text/plain; charset=utf-8", len(body), None,
                                     [("X-KGQA-Error", error.kind)]) + body)
        self._done(status, "error")

    def _timed_out(self) -> None:
        self.timer = None
        if self.state in ("waiting", "head", "error"):
            self._fail(EndpointTimeout(f"no answer within {self.plan.timeout_s:g} s", endpoint=self.plan.endpoint.name))
        elif self.state == "body":
            self._broken(f"no complete answer within {self.plan.timeout_s:g} s")

    def _broken(self, why: str) -> None:
        """The answer broke after its head went out: the client's connection is closed (it sees a cut answer)."""
        if self.state == "body":
            log.warning("relayed answer from %s broke off: %s", self.plan.endpoint.name, why)
            self._release_connection(reusable=False)
            self.relay.metrics.upstream_errors.inc(self.plan.endpoint.name, "unreachable")
            self._done(200, "relayed", keep_open=False)
        elif self.state in ("head", "error"):
            self._fail(EndpointUnreachable(f"cannot talk to {self.plan.endpoint.config.url}: {why}",
                                           endpoint=self.plan.endpoint.name))

    def _resend(self) -> None:
        self._release_connection(reusable=False)
        self._stop()
        self.relay.metrics.relay.inc("resent")
        self.client.resend(self)

    def abort(self) -> None:
        """The client went away."""
        if self.state != "done":
            self._release_connection(reusable=False)
            self._stop()

    def pause(self) -> None:
        if self.connection is not None and self.connection.transport is not None:
            self.connection.transport.pause_reading()

    def resume(self) -> None:
        if self.connection is not None and self.connection.transport is not None:
            self.connection.transport.resume_reading()

    def _release_connection(self, reusable: bool) -> None:
        connection, self.connection = self.connection, None
        if connection is not None:
            connection.sink = None
            if connection.transport is not None:
                connection.transport.resume_reading()
            self.plan.request.pool.give_back(connection, reusable)

    def _stop(self) -> None:
        self.state = "done"
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.slot:
            self.slot = False
            self.plan.request.limit.release()

    def _done(self, status: int, outcome: str, keep_open: bool = True) -> None:
        self._stop()
        self.relay.served(outcome, self.plan, status, time.perf_counter() - self.started, self.client.remote)
        self.client.finished(self, keep_open and not self.plan.close)

    # -- writing to the client

    def _head(self, status: int, content_type: str, length: int | None, cache: str | None,
              headers: list[tuple[str, str]] | tuple[tuple[str, str], ...], *, chunked: bool = False) -> bytes:
        lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}", f"Content-Type: {content_type}"]
        if chunked:
            lines.append("Transfer-Encoding: chunked")
        elif length is not None:
            lines.append(f"Content-Length: {length}")
        if (length is None and not chunked) or self.plan.close:  # (without a length, the body ends with the connection)
            lines.append("Connection: close")
        if cache is not None:
            lines.append(f"X-Cache: {cache}")
        lines.extend(f"{name}: {value}" for name, value in headers if "\r" not in value and "\n" not in value)
        return ("\r\n".join(lines) + "\r\n").encode("latin-1") + self.relay.cors + b"\r\n"

    def _send_client(self, data: bytes) -> None:
        """Writes to the client; the answer's head goes out with the first body bytes, in one write."""
        if self.pending_head:
            data, self.pending_head = self.pending_head + data, b""
        transport = self.client.transport
        if transport is not None and data:
            transport.write(data)
