"""The one SPARQL client of the code base: async, bounded, honest about truncation.

Everything that talks to an endpoint goes through `SparqlEndpoint` (this HTTP client, or the
in-process `EmbeddedStore`), so timeouts, retries, concurrency limits, size caps, request counting
and error classification live here once. The bytes travel by one of two transports: the lean
HTTP/1.1 pool of `gateway/http1.py` for plain-http endpoints on this machine or the local network
(kept, uncompressed connections, for the proxy's throughput against a local endpoint), aiohttp for the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import email.utils
import ipaddress
import json
import logging
import random
import re
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, runtime_checkable
from urllib.parse import quote, urlencode, urlsplit

import aiohttp
import pyoxigraph as ox
from yarl import URL

from gateway.config import EndpointConfig
from gateway.errors import (
    ConfigurationError,
    EndpointHTTPError,
    EndpointTimeout,
    EndpointUnreachable,
    RequestBudgetSpent,
    ResultTooLarge,
    SparqlError,
    SparqlSyntaxError,
)
from gateway.http1 import Http1ConnectError, Http1Error, Http1Pool, Http1Response

log = logging.getLogger(__name__)

Term = ox.NamedNode | ox.Literal | ox.BlankNode
XSD = "http://www.w3.org/2001/XMLSchema#"
RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"

SELECT_ACCEPT = "application/sparql-results+json"
GRAPH_ACCEPT = "application/n-triples, text/turtle;q=0.9, application/rdf+xml;q=0.5"
RETRY_STATUSES = frozenset({429, 502, 503, 504})
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
UpstreamResponse = aiohttp.ClientResponse | Http1Response  # an open answer, from either transport
GET_URL_LIMIT = 2000
ERROR_BODY_BYTES = 64 * 1024  # of a non-2xx answer, read for the endpoint's message


@dataclass(frozen=True)
class SelectResult:
    """Rows of a SELECT, with unbound variables absent from a row's mapping."""

    variables: list[str]
    rows: list[dict[str, Term]]
    truncated: bool = False
    truncation_reason: str | None = None
    elapsed_ms: float = 0.0

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[dict[str, Term]]:
        return iter(self.rows)

    def column(self, variable: str) -> list[Term]:
        return [row[variable] for row in self.rows if variable in row]


@dataclass
class RequestCounter:
    """Counts SPARQL requests sent inside a `counting_requests()` block (and tasks it starts); those
    sent in an `endpoint_setup()` block are counted apart, in `setup`."""

    count: int = 0
    elapsed_ms: float = 0.0
    queries: list[str] = field(default_factory=list)
    keep_queries: bool = False
    setup: int = 0
    limit: int | None = None  # requests this block may send (setup apart); past it a request is refused unsent
    parent: RequestCounter | None = None  # the enclosing block's counter, whose limit holds here too
    nested: int = 0  # requests counted by blocks inside this one (not in `count`: each block reports its own)
    pending: int = 0  # requests let through by `check_request_budget` and not yet recorded (sent concurrently)

    def record(self, query: str, elapsed_ms: float) -> None:
        if _setup.get():
            self.setup += 1
        else:
            self.count += 1
            outer = self.parent
            while outer is not None:
                outer.nested += 1
                outer = outer.parent
            level: RequestCounter | None = self
            while level is not None:
                level.pending = max(0, level.pending - 1)
                level = level.parent
        self.elapsed_ms += elapsed_ms
        if self.keep_queries:
            self.queries.append(query)


_counter: contextvars.ContextVar[RequestCounter | None] = contextvars.ContextVar("sparql_counter", default=None)
_setup: contextvars.ContextVar[bool] = contextvars.ContextVar("sparql_setup", default=False)


@contextlib.contextmanager
def endpoint_setup() -> Iterator[None]:
    """Requests made once per endpoint (its label predicates, text-search dialect, class list) and
    lookups whose answers it keeps for every later question (labels, predicate descriptions) are counted
    apart from the question's own: the first question on an endpoint gets the same request budget as
    the next ones, so answers do not depend on which question came first."""
    token = _setup.set(True)
    try:
        yield
    finally:
        _setup.reset(token)


@contextlib.contextmanager
def counting_requests(keep_queries: bool = False, limit: int | None = None) -> Iterator[RequestCounter]:
    """Counts the SPARQL requests made in this block, including by tasks created inside it; with a
    `limit`, a request past it raises `RequestBudgetSpent` instead of being sent."""
    counter = RequestCounter(keep_queries=keep_queries, limit=limit, parent=_counter.get())
    token = _counter.set(counter)
    try:
        yield counter
    finally:
        _counter.reset(token)


_shared: contextvars.ContextVar[dict[tuple[object, ...], asyncio.Future] | None] = contextvars.ContextVar(  # type: ignore[type-arg]
    "sparql_shared", default=None)


@contextlib.contextmanager
def sharing_results() -> Iterator[None]:
    """Inside this block (and tasks it starts), a query sent again with the same arguments gets the
    first answer instead of a new request: the readings of one question look up the same names and
    predicates. Failed requests are not kept."""
    token = _shared.set({})
    try:
        yield
    finally:
        _shared.reset(token)


T = TypeVar("T")


async def shared_result(key: tuple[object, ...], call: Callable[[], Awaitable[T]]) -> T:
    """`call()`, or the result of the same call (same client, same arguments) already made in the
    active `sharing_results()`."""
    memo = _shared.get()
    if memo is None:
        return await call()
    future = memo.get(key)
    if future is None:
        future = memo[key] = asyncio.ensure_future(call())
    try:
        return await asyncio.shield(future)
    except Exception:
        memo.pop(key, None)
        raise


def check_request_budget() -> None:
    """Raises `RequestBudgetSpent` when the active `counting_requests()` block has sent all it may."""
    if _setup.get():
        return
    chain = []
    counter = _counter.get()
    while counter is not None:
        if counter.limit is not None and counter.count + counter.nested + counter.pending >= counter.limit:
            raise RequestBudgetSpent(f"the budget of {counter.limit} SPARQL requests for this question is spent")
        chain.append(counter)
        counter = counter.parent
    for counter in chain:  # let through: held against the budget until recorded
        counter.pending += 1


async def optional_select(sparql: SparqlEndpoint, query: str, *, timeout_s: float | None = None) -> SelectResult | None:
    """The result of a lookup whose failure finds nothing (None); a spent request budget is no such
    failure: it ends the reading, so it raises."""
    try:
        return await sparql.select(query, timeout_s=timeout_s)
    except RequestBudgetSpent:
        raise
    except SparqlError:
        return None


def record_request(query: str, started: float) -> None:
    """Counts one request sent (since `started`, a perf_counter value) in the active `counting_requests()`."""
    counter = _counter.get()
    if counter is not None:
        counter.record(query, (time.perf_counter() - started) * 1000)


def make_iri(value: str) -> ox.NamedNode:
    """A NamedNode, percent-encoding characters some endpoints emit but IRIs may not hold."""
    try:
        return ox.NamedNode(value)
    except ValueError:
        return ox.NamedNode(quote(value, safe=":/?#[]@!$&'()*+,;=%~"))


def term_from_json(binding: Mapping[str, str]) -> Term:
    """One RDF term from a SPARQL JSON results binding (also the SPARQL 1.0 `typed-literal`)."""
    kind = binding.get("type")
    value = binding.get("value", "")
    if kind == "uri":
        return make_iri(value)
    if kind == "bnode":
        label = re.sub(r"[^A-Za-z0-9_\-]", "_", value.removeprefix("_:")) or "b"
        return ox.BlankNode(label)
    if kind in ("literal", "typed-literal"):
        lang = binding.get("xml:lang") or binding.get("lang")
        datatype = binding.get("datatype")
        if lang:
            return ox.Literal(value, language=lang)
        if datatype and datatype != RDF_LANG_STRING:
            return ox.Literal(value, datatype=make_iri(datatype))
        return ox.Literal(value)
    raise ValueError(f"unknown term type {kind!r} in SPARQL JSON results")


def parse_json_results(body: bytes | str, max_rows: int | None = None) -> tuple[list[str], list[dict[str, Term]] | bool, bool]:
    """Parses SPARQL 1.1 JSON results: (variables, rows or boolean, cut at max_rows)."""
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SparqlError(f"endpoint answered with malformed JSON results: {exc}") from exc
    if not isinstance(data, dict):
        raise SparqlError("endpoint answered with JSON that is not a SPARQL results document")
    if "boolean" in data:
        return [], bool(data["boolean"]), False
    variables = list(data.get("head", {}).get("vars", []))
    bindings = data.get("results", {}).get("bindings", [])
    cut = max_rows is not None and len(bindings) > max_rows
    if cut:
        bindings = bindings[:max_rows]
    rows = [{name: term_from_json(b) for name, b in binding.items()} for binding in bindings]
    return variables, rows, cut


def term_to_sparql(term: Term) -> str:
    """N-Triples/SPARQL syntax of a term, for building queries from earlier results."""
    return str(term)


def term_to_json(term: Term) -> dict[str, str]:
    """SPARQL JSON results binding of a term (the inverse of `term_from_json`)."""
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    out = {"type": "literal", "value": term.value}
    if term.language:
        out["xml:lang"] = term.language
    elif term.datatype and term.datatype.value != XSD + "string":
        out["datatype"] = term.datatype.value
    return out


@runtime_checkable
class SparqlEndpoint(Protocol):
    """What the answer paths need from an endpoint; implemented over HTTP and in-process."""

    config: EndpointConfig

    async def select(self, query: str, *, timeout_s: float | None = None, max_rows: int | None = None) -> SelectResult: ...

    async def ask(self, query: str, *, timeout_s: float | None = None) -> bool: ...

    async def construct(self, query: str, *, timeout_s: float | None = None, max_triples: int | None = None) -> list[ox.Triple]: ...

    async def close(self) -> None: ...


def _retry_after_seconds(header: str | None) -> float | None:
    if not header:
        return None
    header = header.strip()
    if header.isdigit():
        return float(header)
    try:
        when = email.utils.parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _looks_like_timeout(message: str) -> bool:
    lowered = message.lower()
    return any(s in lowered for s in ("timed out", "timeout", "execution time", "sr171", "s1t00"))


def _endpoint_message(body: bytes, limit: int = 1500) -> str:
    text = body.decode("utf-8", errors="replace").strip()
    text = re.sub(r"<[^>]+>", " ", text) if text.lstrip().startswith("<") else text
    text = re.sub(r"\s+", " ", text).strip()
    return text[:limit] + ("…" if len(text) > limit else "")


def session_headers(url: str) -> dict[str, str]:
    """Headers of every request to `url`.

    Virtuoso closes a connection after each answer unless the request says `Connection: keep-alive`, and it
    closes it anyway when it compresses (chunked answers): a TCP handshake per query. So endpoints on this
    machine or the local network are asked for uncompressed answers on kept connections (compression costs
    more CPU there than it saves); remote endpoints get gzip, which matters more than the handshake.
    """
    headers = {"User-Agent": "kgqa-gateway/0.1", "Connection": "keep-alive"}
    if _is_local_host(urlsplit(url).hostname or ""):
        headers["Accept-Encoding"] = "identity"
    return headers


def is_local_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """On this machine or the local network (the server's internal-address policy builds on this)."""
    return address.is_loopback or address.is_private or address.is_link_local


def _is_local_host(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return is_local_address(address)


class ConcurrencyLimit:
    """At most `limit` requests in flight to one endpoint, shared by coroutines (`acquire`) and by the
    proxy's callback-driven relay (`try_acquire` / `when_free`); a freed slot goes to the oldest waiter."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self.active = 0
        self._waiters: deque[Callable[[], bool]] = deque()

    def try_acquire(self) -> bool:
        if self.active < self.limit and not self._waiters:
            self.active += 1
            return True
        return False

    def when_free(self, take: Callable[[], bool]) -> None:
        """Calls `take()` once a slot is this waiter's; `take` returns False if it no longer wants it."""
        self._waiters.append(take)

    async def acquire(self) -> None:
        if self.try_acquire():
            return
        slot: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def take() -> bool:
            if slot.done():
                return False
            slot.set_result(None)
            return True

        self.when_free(take)
        try:
            await slot
        except asyncio.CancelledError:
            if slot.done() and not slot.cancelled():
                self.release()  # the slot came with the cancellation: pass it on
            raise

    def release(self) -> None:
        while self._waiters:
            if self._waiters.popleft()():
                return  # the slot moves to that waiter; `active` stays
        self.active -= 1

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self.release()


@dataclass(frozen=True)
class RelayRequest:
    """A query as the lean transport sends it (for the proxy's relay, `gateway/relay.py`)."""

    pool: Http1Pool
    head: bytes  # the whole GET request
    limit: ConcurrencyLimit


def status_error(status: int, reason: str, body: bytes, endpoint: str) -> SparqlError:
    """The classified error for a non-2xx answer (its body's first bytes carry the endpoint's message)."""
    message = _endpoint_message(body) or reason or "no message"
    if status == 400 or (status == 500 and re.search(r"\b(SP0\d\d|syntax error|37000)\b", message, re.I)):
        return SparqlSyntaxError(message, endpoint=endpoint)
    if status in (408, 504) or _looks_like_timeout(message):
        return EndpointTimeout(f"endpoint gave up: {message}", endpoint=endpoint)
    return EndpointHTTPError(f"HTTP {status}: {message}", status=status, endpoint=endpoint)


class HttpSparqlClient:
    """SPARQL 1.1 Protocol client for one endpoint.

    GET for short queries, form-encoded POST for long ones (never `application/sparql-query`, which
    hangs Virtuoso); a per-request timeout; retries with backoff on 429/502/503/504 honouring
    `Retry-After`; at most `max_concurrency` requests in flight; a byte cap and a row cap on results;
    Virtuoso's silent row cut (`X-SPARQL-MaxRows`) reported as truncation.
    """

    def __init__(
        self,
        config: EndpointConfig,
        *,
        max_result_bytes: int = 64 * 1024 * 1024,
        max_rows: int = 100_000,
        retries: int = 3,
        backoff_s: float = 0.5,
        max_backoff_s: float = 10.0,
        session: aiohttp.ClientSession | None = None,
    ) -> None:
        self.config = config
        self.max_result_bytes = max_result_bytes
        self.max_rows = max_rows
        self.retries = retries
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self._session = session
        self._own_session = session is None
        self.limit = ConcurrencyLimit(config.max_concurrency)
        self._headers = config.resolved_headers()
        self._encoded_url = str(URL(config.url))  # percent-encoded once
        self._lean = self._lean_pool() if session is None else None
        self._lean_headers = session_headers(config.url)  # aiohttp sets them on its session
        self._relay_parts: dict[str, tuple[bytes, bytes, int]] = {}  # per Accept, for `relay_request`

    @property
    def url(self) -> str:
        return self.config.url

    def _lean_pool(self) -> Http1Pool | None:
        """Plain-http endpoints on this machine or the local network go through the lean transport
        (`gateway/http1.py`); others, and any that redirects, through aiohttp."""
        parts = URL(self._encoded_url)
        if parts.scheme != "http" or not parts.host or not _is_local_host(parts.host):
            return None
        return Http1Pool(parts.host, parts.port or 80, max_idle=max(1, self.config.max_concurrency) * 2)

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=max(1, self.config.max_concurrency) * 2, ttl_dns_cache=300)
            self._session = aiohttp.ClientSession(connector=connector, headers=session_headers(self.url),
                                                  auto_decompress=True)
            self._own_session = True
        return self._session

    async def close(self) -> None:
        if self._lean is not None:
            self._lean.close()
        if self._session is not None and self._own_session and not self._session.closed:
            await self._session.close()
        self._session = None

    async def __aenter__(self) -> HttpSparqlClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _params(self, query: str) -> list[tuple[str, str]]:
        params = [("query", query)]
        if self.config.default_graph:
            params.append(("default-graph-uri", self.config.default_graph))
        return params

    @contextlib.asynccontextmanager
    async def open(
        self, query: str, *, accept: str, timeout_s: float | None = None
    ) -> AsyncIterator[UpstreamResponse]:
        """An open 2xx response for `query`, for callers that stream the body (the proxy).

        Non-2xx answers, timeouts and connection failures raise the classified `SparqlError`s.
        """
        timeout = timeout_s if timeout_s is not None else self.config.timeout_s
        deadline = time.monotonic() + timeout
        encoded = urlencode(self._params(query))
        use_get = len(self.url) + 1 + len(encoded) <= GET_URL_LIMIT
        headers = {"Accept": accept, **self._headers}
        attempt = 0
        async with self.limit:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise EndpointTimeout(f"no answer within {timeout:g} s", endpoint=self.config.name)
                check_request_budget()
                try:
                    async with asyncio.timeout(remaining):  # one deadline for the answer and the caller's reading
                        attempt_started = time.perf_counter()
                        try:
                            response = await self._send(encoded, use_get, headers, remaining)
                        finally:
                            record_request(query, attempt_started)
                        try:
                            if isinstance(response, Http1Response) and response.status in REDIRECT_STATUSES:
                                log.info("%s redirects; it is called through aiohttp from now on", self.config.name)
                                self._lean = None
                                continue
                            if response.status in RETRY_STATUSES and attempt < self.retries:
                                wait = _retry_after_seconds(response.headers.get("Retry-After"))
                                if wait is None:
                                    wait = min(self.max_backoff_s, self.backoff_s * 2**attempt) * (0.5 + random.random())
                                if wait > min(self.max_backoff_s, deadline - time.monotonic()):
                                    await self._raise_for_status(response, query)
                                attempt += 1
                                log.info("%s answered %s; retry %d in %.1f s", self.config.name, response.status,
                                         attempt, wait)
                                response.release()
                                await asyncio.sleep(wait)
                                continue
                            if response.status >= 300:
                                await self._raise_for_status(response, query)
                            yield response
                            break
                        finally:
                            response.release()
                except SparqlError:
                    raise
                except TimeoutError as exc:
                    raise EndpointTimeout(f"no answer within {timeout:g} s", endpoint=self.config.name) from exc
                except aiohttp.InvalidURL as exc:
                    raise ConfigurationError(f"invalid endpoint URL {self.url!r}", endpoint=self.config.name) from exc
                except (aiohttp.ClientConnectorError, aiohttp.ServerDisconnectedError, aiohttp.ClientOSError) as exc:
                    raise EndpointUnreachable(f"cannot connect to {self.url}: {exc}", endpoint=self.config.name) from exc
                except aiohttp.ClientPayloadError as exc:
                    raise EndpointUnreachable(f"connection broke while reading the answer: {exc}", endpoint=self.config.name) from exc
                except aiohttp.ClientError as exc:
                    raise EndpointUnreachable(f"HTTP failure talking to {self.url}: {exc}", endpoint=self.config.name) from exc
                except Http1ConnectError as exc:
                    raise EndpointUnreachable(f"cannot connect to {self.url}: {exc}", endpoint=self.config.name) from exc
                except Http1Error as exc:
                    raise EndpointUnreachable(f"cannot talk to {self.url}: {exc}", endpoint=self.config.name) from exc

    async def _send(self, encoded: str, use_get: bool, headers: dict[str, str], remaining: float) -> UpstreamResponse:
        """One attempt: GET with the query in the URL or a form POST, through the lean transport or aiohttp."""
        url = f"{self._encoded_url}{'&' if '?' in self._encoded_url else '?'}{encoded}" if use_get else self._encoded_url
        if self._lean is not None:
            target = URL(url, encoded=True).raw_path_qs
            try:
                if use_get:
                    return await self._lean.request("GET", target, {**self._lean_headers, **headers},
                                                    connect_timeout_s=min(remaining, 10.0))
                return await self._lean.request(
                    "POST", target, {**self._lean_headers, **headers, "Content-Type": "application/x-www-form-urlencoded"},
                    encoded.encode(), connect_timeout_s=min(remaining, 10.0))
            except (Http1Error, TimeoutError):
                raise
            except OSError as exc:  # refused, reset: the endpoint's side (errors of our caller are not caught)
                raise Http1Error(str(exc) or type(exc).__name__) from exc
        client_timeout = aiohttp.ClientTimeout(total=None, sock_connect=min(remaining, 10.0), sock_read=remaining)
        if use_get:  # the query string is encoded once, here (yarl would encode it again)
            return await self._client().get(URL(url, encoded=True), headers=headers, timeout=client_timeout)
        return await self._client().post(
            self.url, data=encoded.encode(),
            headers={**headers, "Content-Type": "application/x-www-form-urlencoded"}, timeout=client_timeout)

    async def _raise_for_status(self, response: UpstreamResponse, query: str) -> None:
        body = await response.content.read(ERROR_BODY_BYTES)
        raise status_error(response.status, response.reason or "", body, self.config.name)

    def relay_request(self, encoded_query: str, accept: str) -> RelayRequest | None:
        """The GET request `open` would send for a query through the lean transport, or None when it
        would go another way (aiohttp, a form POST for a long query). `encoded_query` is the query as
        percent-encoded in a URL: the proxy passes on its client's encoding instead of decoding and
        encoding it again (the relay's `plan` checks that encoding's characters first)."""
        pool = self._lean
        if pool is None:
            return None
        parts = self._relay_parts.get(accept)
        if parts is None:
            if len(self._relay_parts) >= 64:
                self._relay_parts.clear()
            try:
                parts = self._relay_parts[accept] = self._build_relay_parts(pool, accept)
            except Http1Error:
                return None
        prefix, suffix, extra_length = parts
        if len(self.url) + len(encoded_query) + extra_length > GET_URL_LIMIT:
            return None
        return RelayRequest(pool, b"".join((prefix, encoded_query.encode("ascii"), suffix)), self.limit)

    def _build_relay_parts(self, pool: Http1Pool, accept: str) -> tuple[bytes, bytes, int]:
        """The request head around the encoded query: what `_send` would write for a GET, split there."""
        marker = "QUERY-GOES-HERE"
        params = urlencode(self._params(marker))
        url = f"{self._encoded_url}{'&' if '?' in self._encoded_url else '?'}{params}"
        head = pool.request_head("GET", URL(url, encoded=True).raw_path_qs,
                                 {**self._lean_headers, "Accept": accept, **self._headers})
        prefix, _, suffix = head.partition(marker.encode())
        return prefix, suffix, 1 + len(params) - len(marker)

    async def read_capped(self, response: UpstreamResponse) -> bytes:
        """The whole body of an open response, or `ResultTooLarge` past the byte cap."""
        declared = response.content_length
        if declared is not None and declared > self.max_result_bytes:
            raise ResultTooLarge(
                f"answer of {declared} bytes exceeds the {self.max_result_bytes} byte cap", endpoint=self.config.name
            )
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.content.iter_chunked(256 * 1024):
            size += len(chunk)
            if size > self.max_result_bytes:
                raise ResultTooLarge(
                    f"answer exceeds the {self.max_result_bytes} byte cap; add LIMIT or narrow the query",
                    endpoint=self.config.name,
                )
            chunks.append(chunk)
        return b"".join(chunks)

    async def _fetch(self, query: str, accept: str, timeout_s: float | None) -> tuple[bytes, str, Mapping[str, str]]:
        async with self.open(query, accept=accept, timeout_s=timeout_s) as response:
            body = await self.read_capped(response)
            return body, response.headers.get("Content-Type", ""), response.headers

    async def select(self, query: str, *, timeout_s: float | None = None, max_rows: int | None = None) -> SelectResult:
        return await shared_result((self, "select", query, max_rows), lambda: self._select(query, timeout_s, max_rows))

    async def _select(self, query: str, timeout_s: float | None, max_rows: int | None) -> SelectResult:
        started = time.perf_counter()
        body, content_type, headers = await self._fetch(query, SELECT_ACCEPT, timeout_s)
        cap = max_rows if max_rows is not None else self.max_rows
        variables, rows, cut = _parse_results(body, content_type, cap, self.config.name)
        if isinstance(rows, bool):
            raise SparqlError("expected SELECT results but the endpoint answered a boolean", endpoint=self.config.name)
        reason = None
        endpoint_cut = headers.get("X-SPARQL-MaxRows")
        if endpoint_cut:
            reason = f"the endpoint cut the result at {endpoint_cut} rows (X-SPARQL-MaxRows); it is incomplete"
        elif cut:
            reason = f"result cut at {cap} rows by the gateway's row cap"
        return SelectResult(variables, rows, reason is not None, reason, (time.perf_counter() - started) * 1000)

    async def ask(self, query: str, *, timeout_s: float | None = None) -> bool:
        return await shared_result((self, "ask", query), lambda: self._ask(query, timeout_s))

    async def _ask(self, query: str, timeout_s: float | None) -> bool:
        body, content_type, _ = await self._fetch(query, SELECT_ACCEPT, timeout_s)
        _, value, _ = _parse_results(body, content_type, None, self.config.name)
        return _as_boolean(value, self.config.name)

    async def construct(
        self, query: str, *, timeout_s: float | None = None, max_triples: int | None = None
    ) -> list[ox.Triple]:
        body, content_type, _ = await self._fetch(query, GRAPH_ACCEPT, timeout_s)
        return parse_graph(body, content_type, max_triples, self.config.name)


def _as_boolean(value: list[dict[str, Term]] | bool, endpoint: str) -> bool:
    """ASK answers as booleans, including Virtuoso's one-row `__ASK_RETVAL` table in JSON."""
    if isinstance(value, bool):
        return value
    if len(value) == 1 and len(value[0]) == 1:
        (term,) = value[0].values()
        if isinstance(term, ox.Literal) and term.value.lower() in ("1", "0", "true", "false"):
            return term.value.lower() in ("1", "true")
    if not value:
        return False
    raise SparqlError("expected an ASK (boolean) answer but got rows", endpoint=endpoint)


def _parse_results(
    body: bytes, content_type: str, max_rows: int | None, endpoint: str
) -> tuple[list[str], list[dict[str, Term]] | bool, bool]:
    mime = content_type.split(";")[0].strip().lower()
    if mime in ("", "application/sparql-results+json", "application/json", "text/json"):
        return parse_json_results(body, max_rows)
    formats = {
        "application/sparql-results+xml": ox.QueryResultsFormat.XML,
        "application/xml": ox.QueryResultsFormat.XML,
        "text/tab-separated-values": ox.QueryResultsFormat.TSV,
    }
    if mime not in formats:
        raise SparqlError(f"endpoint answered {mime!r}, not SPARQL results", endpoint=endpoint)
    try:
        parsed = ox.parse_query_results(body, formats[mime])
    except SyntaxError as exc:
        raise SparqlError(f"malformed SPARQL results: {exc}", endpoint=endpoint) from exc
    if isinstance(parsed, ox.QueryBoolean):
        return [], bool(parsed), False
    variables = [v.value for v in parsed.variables]
    rows: list[dict[str, Term]] = []
    for solution in parsed:
        if max_rows is not None and len(rows) >= max_rows:
            return variables, rows, True
        rows.append({v: solution[v] for v in variables if solution[v] is not None})
    return variables, rows, False


_GRAPH_FORMATS = {
    "application/n-triples": ox.RdfFormat.N_TRIPLES,
    "text/plain": ox.RdfFormat.N_TRIPLES,
    "text/ntriples": ox.RdfFormat.N_TRIPLES,
    "text/turtle": ox.RdfFormat.TURTLE,
    "application/x-turtle": ox.RdfFormat.TURTLE,
    "application/rdf+xml": ox.RdfFormat.RDF_XML,
    "application/n-quads": ox.RdfFormat.N_QUADS,
}


def parse_graph(body: bytes, content_type: str, max_triples: int | None, endpoint: str) -> list[ox.Triple]:
    """Triples of a CONSTRUCT/DESCRIBE answer in any common RDF syntax."""
    mime = content_type.split(";")[0].strip().lower() or "application/n-triples"
    fmt = _GRAPH_FORMATS.get(mime)
    if fmt is None:
        raise SparqlError(f"endpoint answered {mime!r}, not an RDF graph", endpoint=endpoint)
    triples: list[ox.Triple] = []
    try:
        for quad in ox.parse(body, fmt):
            if max_triples is not None and len(triples) >= max_triples:
                break
            triples.append(quad.triple)
    except SyntaxError as exc:
        raise SparqlError(f"malformed RDF in the answer: {exc}", endpoint=endpoint) from exc
    return triples
