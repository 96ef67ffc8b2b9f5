"""The SPARQL 1.1 Protocol proxy: any SPARQL client can query an endpoint through the gateway, and
ask questions in plain English through the same endpoint.

Queries are forwarded through the one SPARQL client (`HttpSparqlClient.open`, which sends GET or a
form POST, never `application/sparql-query`, so Virtuoso accepts them) and the body is streamed back.
The client's `Accept` is passed on; if the upstream answers in a syntax the client did not ask for,
the answer is converted with pyoxigraph. Updates are refused before anything reaches the endpoint.
Small answers are cached (key: endpoint, negotiated media type, normalised query).

Questions come in two ways: `?question=` returns the answers as standard SPARQL results, and a
magic triple `?v <urn:kgqa:answers> "question"` inside a query is replaced by the graph pattern the
KGQAN path generated for the question before the query goes upstream.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import pyoxigraph as ox
from aiohttp import web

from gateway.endpoint import Endpoint
from gateway.errors import (
    ConfigurationError,
    EndpointTimeout,
    EndpointUnreachable,
    GatewayError,
    ResultTooLarge,
    SparqlError,
    SparqlSyntaxError,
    UnknownEndpoint,
    UpdateRefused,
)
from gateway.metrics import GatewayMetrics
from gateway.models import Answer, AnswerStatus, QAResult
from gateway.qa import AskOptions, Gateway
from gateway.sparql import HttpSparqlClient
from gateway.sparql_syntax import (
    GeneratedPattern,
    analyse,
    find_magic_triples,
    may_hold_magic_triples,
    normalise,
    rewrite_magic_triples,
)

log = logging.getLogger(__name__)

RESULT_FORMATS: dict[str, ox.QueryResultsFormat] = {
    "application/sparql-results+json": ox.QueryResultsFormat.JSON,
    "application/json": ox.QueryResultsFormat.JSON,
    "application/sparql-results+xml": ox.QueryResultsFormat.XML,
    "application/xml": ox.QueryResultsFormat.XML,
    "text/csv": ox.QueryResultsFormat.CSV,
    "text/tab-separated-values": ox.QueryResultsFormat.TSV,
}
GRAPH_FORMATS: dict[str, ox.RdfFormat] = {
    "text/turtle": ox.RdfFormat.TURTLE,
    "application/x-turtle": ox.RdfFormat.TURTLE,
    "application/n-triples": ox.RdfFormat.N_TRIPLES,
    "text/plain": ox.RdfFormat.N_TRIPLES,
    "application/ld+json": ox.RdfFormat.JSON_LD,
    "application/rdf+xml": ox.RdfFormat.RDF_XML,
    "application/n-quads": ox.RdfFormat.N_QUADS,
    "application/trig": ox.RdfFormat.TRIG,
}
DEFAULT_RESULTS_TYPE = "application/sparql-results+json"
DEFAULT_GRAPH_TYPE = "text/turtle"
STREAM_CHUNK = 64 * 1024
EMPTY_PATTERN = "FILTER(false)"


@functools.lru_cache(maxsize=256)
def parse_accept(header: str | None) -> tuple[tuple[str, float], ...]:
    """Media ranges of an Accept header, best first (q=0 dropped); each client sends the same few
    headers again and again, so they are parsed once."""
    ranges: list[tuple[str, float, int]] = []
    for position, part in enumerate((header or "").split(",")):
        fields = [f.strip() for f in part.split(";")]
        mime = fields[0].lower()
        if not mime:
            continue
        quality = 1.0
        for param in fields[1:]:
            key, _, value = param.partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0:
            ranges.append((mime, quality, position))
    ranges.sort(key=lambda r: (-r[1], r[2]))
    return tuple((mime, quality) for mime, quality, _ in ranges)


def _matches(mime: str, media_range: str) -> bool:
    if media_range in ("*/*", mime):
        return True
    return media_range.endswith("/*") and mime.split("/")[0] == media_range[:-2]


def is_acceptable(content_type: str, accepted: Sequence[tuple[str, float]]) -> bool:
    mime = content_type.split(";")[0].strip().lower()
    return not accepted or any(_matches(mime, r) for r, _ in accepted)


def preferred_type(accepted: Sequence[tuple[str, float]], returns_graph: bool) -> str:
    """The media type to produce: the client's best one that the gateway can write, else the default."""
    formats = GRAPH_FORMATS if returns_graph else RESULT_FORMATS
    for media_range, _ in accepted:
        if media_range in formats:
            return media_range
        if media_range in ("*/*", "application/*", "text/*"):
            break
    return DEFAULT_GRAPH_TYPE if returns_graph else DEFAULT_RESULTS_TYPE


@functools.lru_cache(maxsize=256)
def upstream_accept(client_accept: str | None, returns_graph: bool) -> str:
    """What to ask the upstream for: the client's types that fit the query form (graph syntaxes for
    CONSTRUCT/DESCRIBE, result syntaxes otherwise), or the default type if it named none of them.

    Filtering matters: rdflib asks `application/sparql-results+xml, application/rdf+xml` for every
    query, and Virtuoso may then answer a CONSTRUCT as a results table that no RDF parser reads.
    """
    formats = GRAPH_FORMATS if returns_graph else RESULT_FORMATS
    kept = [(mime, quality) for mime, quality in parse_accept(client_accept) if mime in formats]
    if not kept:
        return DEFAULT_GRAPH_TYPE if returns_graph else DEFAULT_RESULTS_TYPE
    return ", ".join(mime if quality == 1.0 else f"{mime};q={quality:g}" for mime, quality in kept)


def transcode(body: bytes, content_type: str, target: str) -> bytes:
    """The same results or graph in another syntax (pyoxigraph parses and writes it)."""
    mime = content_type.split(";")[0].strip().lower()
    try:
        if mime in RESULT_FORMATS and target in RESULT_FORMATS:
            parsed = ox.parse_query_results(body, RESULT_FORMATS[mime])
            return bytes(parsed.serialize(format=RESULT_FORMATS[target]))
        if mime in GRAPH_FORMATS and target in GRAPH_FORMATS:
            quads = ox.parse(body, GRAPH_FORMATS[mime])
            return bytes(ox.serialize(quads, format=GRAPH_FORMATS[target]))
    except (SyntaxError, ValueError) as exc:
        raise SparqlError(f"the endpoint's {mime} answer could not be converted to {target}: {exc}") from exc
    raise SparqlError(f"the endpoint answered {mime or 'without a media type'}, which cannot be converted to {target}")


@dataclass(frozen=True)
class CachedResponse:
    body: bytes
    content_type: str
    headers: tuple[tuple[str, str], ...]
    expires: float


class ResponseCache:
    """Bounded LRU of small proxied answers with a time to live; TTL 0 turns it off."""

    def __init__(self, ttl_s: float = 300.0, max_bytes: int = 64 * 1024 * 1024,
                 max_entry_bytes: int = 1024 * 1024) -> None:
        self.ttl_s = ttl_s
        self.max_bytes = max_bytes
        self.max_entry_bytes = max_entry_bytes
        self._entries: OrderedDict[tuple[str, str, str], CachedResponse] = OrderedDict()
        self._size = 0

    @property
    def enabled(self) -> bool:
        return self.ttl_s > 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: tuple[str, str, str]) -> CachedResponse | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        if entry.expires <= time.monotonic():
            self._drop(key)
            return None
        self._entries.move_to_end(key)
        return entry

    def put(self, key: tuple[str, str, str], body: bytes, content_type: str,
            headers: Sequence[tuple[str, str]] = ()) -> None:
        if not self.enabled or len(body) > self.max_entry_bytes:
            return
        if key in self._entries:
            self._drop(key)
        self._entries[key] = CachedResponse(body, content_type, tuple(headers), time.monotonic() + self.ttl_s)
        self._size += len(body)
        while self._size > self.max_bytes and self._entries:
            self._drop(next(iter(self._entries)))

    def _drop(self, key: tuple[str, str, str]) -> None:
        entry = self._entries.pop(key)
        self._size -= len(entry.body)


class ProxyBadRequest(GatewayError):
    kind = "bad-request"


# HTTP status per error class, most specific first; the first match wins.
ERROR_STATUSES: tuple[tuple[type[GatewayError], int], ...] = (
    (UpdateRefused, 403), (SparqlSyntaxError, 400), (EndpointTimeout, 504), (UnknownEndpoint, 404),
    (ConfigurationError, 500), (EndpointUnreachable, 502), (ResultTooLarge, 502), (SparqlError, 502),
)
KIND_STATUSES = {"bad-request": 400, "bad-question": 400, "endpoint-refused": 403}


def error_status(exc: GatewayError) -> int:
    """HTTP status of a classified error, from a proxy's point of view (the upstream's fault is 5xx)."""
    for cls, status in ERROR_STATUSES:
        if isinstance(exc, cls):
            return status
    return KIND_STATUSES.get(exc.kind, 500)


def error_text(exc: GatewayError) -> str:
    """The body of a proxied error: SPARQL clients show it to their user as it is."""
    return f"{exc.kind}: {exc.message}\n"


def is_upstream_failure(exc: GatewayError) -> bool:
    """Whether an error is the endpoint's failure (counted in the metrics), not the client's query."""
    return isinstance(exc, SparqlError) and not isinstance(exc, SparqlSyntaxError | UpdateRefused)


def error_response(exc: GatewayError, status: int | None = None) -> web.Response:
    """A plain-text error (`error_text`) with its kind in `X-KGQA-Error`."""
    return web.Response(status=status or error_status(exc), text=error_text(exc),
                        content_type="text/plain", headers={"X-KGQA-Error": exc.kind})


@dataclass(frozen=True)
class ProtocolRequest:
    """What a SPARQL 1.1 Protocol request asked for."""

    query: str | None
    question: str | None
    accept: str
    paths: tuple[str, ...] = ()


async def read_protocol_request(request: web.Request) -> ProtocolRequest:
    """The query (or question) of a GET, form POST or `application/sparql-query` POST."""
    params = dict(request.query)
    accept = request.headers.get("Accept", "")
    if request.method == "POST":
        content_type = request.content_type
        if content_type == "application/x-www-form-urlencoded" or content_type == "multipart/form-data":
            form = await request.post()
            params.update({k: str(v) for k, v in form.items()})
        elif content_type == "application/sparql-query":
            params["query"] = (await request.read()).decode(request.charset or "utf-8", errors="replace")
        elif content_type == "application/sparql-update":
            raise UpdateRefused("this endpoint is read-only: SPARQL Update is not accepted")
        else:
            raise ProxyBadRequest(f"POST needs application/x-www-form-urlencoded or application/sparql-query, "
                                  f"not {content_type!r}")
    if "update" in params:
        raise UpdateRefused("this endpoint is read-only: SPARQL Update is not accepted")
    query = params.get("query")
    question = params.get("question")
    if query is not None and question is not None:
        raise ProxyBadRequest("send either query= or question=, not both")
    if not (query or "").strip() and not (question or "").strip():
        raise ProxyBadRequest("no query: send query= (SPARQL) or question= (English), "
                              "by GET or POST (form or application/sparql-query)")
    paths = tuple(p for p in params.get("path", "").split(",") if p)
    return ProtocolRequest(query, question, accept, paths)


def answers_as_results(result: QAResult, accept: str) -> tuple[bytes, str]:
    """A question's answers as standard SPARQL results: one row per answer with ?answer ?label ?path ?score
    and the other cells of its row, named as the answer names them (?department beside a count per
    department), or a boolean for yes/no questions; written by pyoxigraph in the negotiated syntax."""
    media_type = preferred_type(parse_accept(accept), returns_graph=False)
    rows = []
    booleans = []
    answers = [(name, a) for name, path in result.paths.items() for a in path.answers]
    columns: dict[str, str] = {}
    for _, answer in answers:
        for column, _ in answer.row:
            if column not in columns:
                variable = _column_variable(column)
                columns[column] = variable if variable not in columns.values() else f"{variable}_{len(columns) + 1}"
    for name, answer in answers:
        if answer.kind == "boolean":
            booleans.append(answer.value == "true")
            continue
        label = str(ox.Literal(answer.label)) if answer.label else "UNDEF"
        score = str(ox.Literal(str(float(answer.score)), datatype=ox.NamedNode(
            "http://www.w3.org/2001/XMLSchema#double"))) if answer.score is not None else "UNDEF"
        cells = dict(answer.row)
        row = " ".join(_cell(cells[c]) if c in cells else "UNDEF" for c in columns)
        rows.append(f"({_cell(answer)} {label} {ox.Literal(name)} {score} {row})")
    if booleans and not rows:
        return boolean_result(any(booleans), media_type), media_type
    variables = " ".join(["?answer ?label ?path ?score", *columns.values()])
    text = f"SELECT {variables} WHERE {{ VALUES ({variables}) {{ {' '.join(rows)} }} }}"
    solutions = ox.Store().query(text)
    return bytes(solutions.serialize(format=RESULT_FORMATS[media_type])), media_type


def _cell(answer: Answer) -> str:
    """An answer as a SPARQL term (a blank node as its label: blank nodes cannot be written in VALUES)."""
    return str(answer.to_term() if answer.kind != "bnode" else ox.Literal(answer.label or answer.value))


def _column_variable(column: str) -> str:
    """A result column for the other cells of an answer's row ("department" -> ?department)."""
    name = re.sub(r"\W+", "_", column).strip("_") or "cell"
    return f"?row_{name}" if name[0].isdigit() or name in ("answer", "label", "path", "score") else f"?{name}"


def boolean_result(value: bool, media_type: str) -> bytes:
    """A SPARQL boolean result in `media_type` (written by pyoxigraph)."""
    solutions = ox.Store().query("ASK {}" if value else "ASK { FILTER(false) }")
    return bytes(solutions.serialize(format=RESULT_FORMATS[media_type]))


class QuestionNotUnderstood(GatewayError):
    kind = "not-available"


class SparqlProxy:
    """Serves `/sparql` and `/endpoints/{name}/sparql` for the server."""

    def __init__(self, gateway: Gateway, metrics: GatewayMetrics, *, cache: ResponseCache | None = None,
                 timeout_s: float | None = None, question_options: AskOptions | None = None) -> None:
        self.gateway = gateway
        self.metrics = metrics
        self.cache = cache if cache is not None else ResponseCache()
        self.timeout_s = timeout_s
        self.question_options = question_options or AskOptions(hublink_wait_for_index=False)
        self._patterns: OrderedDict[tuple[str, str], tuple[GeneratedPattern | None, float]] = OrderedDict()

    async def handle(self, request: web.Request, endpoint: Endpoint) -> web.StreamResponse:
        try:
            protocol = await read_protocol_request(request)
            if protocol.question is not None:
                return await self._answer_question(protocol, endpoint)
            assert protocol.query is not None
            return await self._forward(request, protocol.query, protocol.accept, endpoint)
        except GatewayError as exc:
            if is_upstream_failure(exc):
                self.metrics.upstream_errors.inc(endpoint.name, exc.kind)
            return error_response(exc)

    async def _answer_question(self, protocol: ProtocolRequest, endpoint: Endpoint) -> web.Response:
        options = self.question_options
        if protocol.paths:
            options = replace(options, paths=protocol.paths)
        result = await self.gateway.ask(protocol.question or "", endpoint.config, options)
        if result.error:
            status = 400 if result.error_kind in ("bad-question", "bad-request") else 502
            return web.Response(status=status, text=f"{result.error_kind}: {result.error}\n",
                                content_type="text/plain", headers={"X-KGQA-Error": result.error_kind or "error"})
        for name, path in result.paths.items():
            self.metrics.questions.inc(name, path.status.value)
        failures = [f"{n}: {p.error}" for n, p in result.paths.items() if p.status == AnswerStatus.ERROR]
        if failures and all(p.status != AnswerStatus.OK for p in result.paths.values()):
            return web.Response(status=502, text="no answer path succeeded; " + "; ".join(failures) + "\n",
                                content_type="text/plain", headers={"X-KGQA-Error": "answer-failed"})
        body, media_type = answers_as_results(result, protocol.accept)
        return web.Response(body=body, headers={"Content-Type": media_type, "X-KGQA-Question": "answered"})

    async def generated_patterns(self, questions: Sequence[str], endpoint: Endpoint) -> dict[str, GeneratedPattern]:
        """The KGQAN path's best generated pattern per question (cached like proxied answers)."""
        path = self.gateway.path("kgqan")
        if not hasattr(path, "generate"):
            reason = getattr(path, "error", None) or "the KGQAN path cannot generate queries"
            raise QuestionNotUnderstood(f"questions inside SPARQL need the KGQAN path: {reason}")
        now = time.monotonic()

        async def one(question: str) -> GeneratedPattern | None:
            key = (endpoint.config.cache_key, question)
            cached = self._patterns.get(key)
            if cached is not None and cached[1] > now:
                return cached[0]
            generated = await path.generate(question, endpoint, self.question_options)  # type: ignore[union-attr]
            # the best-ranked pattern that matches the graph, else the best
            best = await endpoint.first_matching(generated) or (generated[0] if generated else None)
            if self.cache.enabled:
                self._patterns[key] = (best, now + self.cache.ttl_s)
                while len(self._patterns) > 1000:
                    self._patterns.popitem(last=False)
            return best

        unique = list(dict.fromkeys(questions))
        async with asyncio.timeout(self.question_options.timeout_s):
            found = await asyncio.gather(*(one(q) for q in unique))
        return {q: g if g is not None else NoGeneratedPattern() for q, g in zip(unique, found, strict=True)}

    async def _forward(self, request: web.Request, query: str, accept: str, endpoint: Endpoint) -> web.StreamResponse:
        kind, normalised = analyse(query)
        if kind.is_update:
            raise UpdateRefused(f"this endpoint is read-only: SPARQL Update ({kind.update_keyword}) is not accepted")
        extra_headers: dict[str, str] = {}
        if may_hold_magic_triples(query):
            magic = find_magic_triples(query)
            if magic:
                patterns = await self.generated_patterns([m.question for m in magic], endpoint)
                query = rewrite_magic_triples(query, patterns)
                normalised = normalise(query)
                extra_headers["X-KGQA-Rewritten"] = str(len(magic))
                unanswered = [q for q, p in patterns.items() if isinstance(p, NoGeneratedPattern)]
                if unanswered:
                    extra_headers["X-KGQA-Note"] = f"no query generated for {len(unanswered)} question(s)"
                log.info("rewrote %d question triple(s) for %s", len(magic), endpoint.name)
        accepted = parse_accept(accept)
        wanted = upstream_accept(accept, kind.returns_graph)
        key = (endpoint.name, wanted, normalised)
        if self.cache.enabled:
            hit = self.cache.get(key)
            if hit is not None:
                self.metrics.cache.inc("hit")
                return web.Response(body=hit.body, headers={"Content-Type": hit.content_type, "X-Cache": "HIT",
                                                            **dict(hit.headers), **extra_headers})
            self.metrics.cache.inc("miss")
        if kind.form == "ASK":
            return await self._ask(query, accepted, endpoint, key, extra_headers)
        if endpoint.config.is_embedded:
            return await self._forward_embedded(query, wanted, accepted, kind.returns_graph, endpoint, key,
                                                extra_headers)
        client = endpoint.sparql
        if not isinstance(client, HttpSparqlClient):
            raise ConfigurationError(f"endpoint {endpoint.name} cannot be proxied", endpoint=endpoint.name)
        started = time.perf_counter()
        async with client.open(query, accept=wanted, timeout_s=self.timeout_s) as upstream:
            self.metrics.upstream_latency.observe(time.perf_counter() - started, endpoint.name)
            content_type = upstream.headers.get("Content-Type", "")
            passed = [(h, upstream.headers[h]) for h in ("X-SPARQL-MaxRows",) if h in upstream.headers]
            headers = {**dict(passed), **extra_headers}
            if not is_acceptable(content_type, accepted) or not content_type:
                target = preferred_type(accepted, kind.returns_graph)
                body = await client.read_capped(upstream)
                if content_type.split(";")[0].strip().lower() != target:
                    body = transcode(body, content_type or target, target)
                self.cache.put(key, body, target, passed)
                return web.Response(body=body, headers={"Content-Type": target, "X-Cache": "MISS", **headers})
            length = upstream.content_length
            if length is not None and length <= self.cache.max_entry_bytes:
                body = await upstream.read()
                self.cache.put(key, body, content_type, passed)
                return web.Response(body=body, headers={"Content-Type": content_type, "X-Cache": "MISS", **headers})
            response = web.StreamResponse(headers={"Content-Type": content_type, "X-Cache": "MISS", **headers})
            await response.prepare(request)
            kept: list[bytes] | None = [] if self.cache.enabled else None
            size = 0
            async for chunk in upstream.content.iter_chunked(STREAM_CHUNK):
                await response.write(chunk)
                size += len(chunk)
                if kept is not None:
                    if size > self.cache.max_entry_bytes:
                        kept = None
                    else:
                        kept.append(chunk)
            await response.write_eof()
            if kept is not None:
                self.cache.put(key, b"".join(kept), content_type, passed)
            return response

    async def _ask(self, query: str, accepted: Sequence[tuple[str, float]], endpoint: Endpoint,
                   key: tuple[str, str, str], extra_headers: dict[str, str]) -> web.Response:
        """ASK through the client's `ask`, which reads every engine's dialect of a boolean (Virtuoso
        answers ASK with a one-row `__ASK_RETVAL` table), written back as a standard boolean result."""
        value = await endpoint.sparql.ask(query, timeout_s=self.timeout_s)
        media_type = preferred_type(accepted, returns_graph=False)
        body = boolean_result(value, media_type)
        self.cache.put(key, body, media_type)
        return web.Response(body=body, headers={"Content-Type": media_type, "X-Cache": "MISS", **extra_headers})

    async def _forward_embedded(self, query: str, wanted: str, accepted: Sequence[tuple[str, float]], returns_graph: bool,
                                endpoint: Endpoint, key: tuple[str, str, str],
                                extra_headers: dict[str, str]) -> web.Response:
        """The in-process store answers serialised bytes itself (`EmbeddedStore.run_serialized`)."""
        run = getattr(endpoint.sparql, "run_serialized", None)
        if run is None:
            raise ConfigurationError("the embedded store cannot serialise answers yet (run_serialized missing)",
                                     endpoint=endpoint.name)
        target = preferred_type(accepted or parse_accept(wanted), returns_graph)
        outcome: Any = run(query, target)
        if inspect.isawaitable(outcome):
            outcome = await outcome
        body, content_type = outcome
        if not is_acceptable(content_type, accepted):
            body, content_type = transcode(body, content_type, target), target
        self.cache.put(key, body, content_type)
        return web.Response(body=body, headers={"Content-Type": content_type, "X-Cache": "MISS", **extra_headers})


@dataclass(frozen=True)
class NoGeneratedPattern:
    """Stands in for a question the KGQAN path generated no query for: the pattern matches nothing."""

    sparql: str = ""
    pattern: str = EMPTY_PATTERN
    answer_var: str = "?unknown1"
