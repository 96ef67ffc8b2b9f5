"""An in-process, read-only SPARQL endpoint over pyoxigraph: the bundled demo graph or files given
with `--load`, so the gateway answers questions with no server at all.

`EmbeddedStore` implements `gateway.sparql.SparqlEndpoint` with the same result types, truncation
flags and error classes as the HTTP client. Queries run in a worker thread (`asyncio.to_thread`), so
the event loop is never blocked. A token index over label literals, built at load time, serves text
search (the `label-index` dialect) without a full-text engine.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import pyoxigraph as ox

from gateway.config import EMBEDDED_URL, EndpointConfig
from gateway.endpoint import LabelHit
from gateway.errors import (
    ConfigurationError,
    EndpointTimeout,
    ResultTooLarge,
    SparqlError,
    SparqlSyntaxError,
    UpdateRefused,
)
from gateway.sparql import SelectResult, Term, check_request_budget, record_request, shared_result
from gateway.textsearch import words_of

log = logging.getLogger(__name__)
F = TypeVar("F")
R = TypeVar("R")

DEMO_GRAPH = Path(__file__).resolve().parent / "data" / "demo.ttl"
RDF_FORMATS: dict[str, ox.RdfFormat] = {
    ".ttl": ox.RdfFormat.TURTLE, ".turtle": ox.RdfFormat.TURTLE, ".nt": ox.RdfFormat.N_TRIPLES,
    ".ntriples": ox.RdfFormat.N_TRIPLES, ".rdf": ox.RdfFormat.RDF_XML, ".owl": ox.RdfFormat.RDF_XML,
    ".xml": ox.RdfFormat.RDF_XML, ".nq": ox.RdfFormat.N_QUADS, ".trig": ox.RdfFormat.TRIG,
}
MAX_INDEXED_LABEL = 500  # longer literals are descriptions, not names

# Media types the proxy can ask for, canonical type first, in order of preference.
RESULT_MEDIA_TYPES: tuple[tuple[str, ox.QueryResultsFormat], ...] = (
    ("application/sparql-results+json", ox.QueryResultsFormat.JSON),
    ("application/json", ox.QueryResultsFormat.JSON),
    ("application/sparql-results+xml", ox.QueryResultsFormat.XML),
    ("application/xml", ox.QueryResultsFormat.XML),
    ("text/csv", ox.QueryResultsFormat.CSV),
    ("text/tab-separated-values", ox.QueryResultsFormat.TSV),
)
GRAPH_MEDIA_TYPES: tuple[tuple[str, ox.RdfFormat], ...] = (
    ("text/turtle", ox.RdfFormat.TURTLE),
    ("application/n-triples", ox.RdfFormat.N_TRIPLES),
    ("application/ld+json", ox.RdfFormat.JSON_LD),
    ("application/rdf+xml", ox.RdfFormat.RDF_XML),
    ("text/plain", ox.RdfFormat.N_TRIPLES),
)
_CANONICAL_RESULTS = {fmt: mime for mime, fmt in reversed(RESULT_MEDIA_TYPES)}
_CANONICAL_GRAPH = {fmt: mime for mime, fmt in reversed(GRAPH_MEDIA_TYPES[:4])}

_UPDATE_KEYWORDS = re.compile(
    r"^(?:\s*(?:PREFIX\s+\S*\s*<>|BASE\s*<>))*\s*(INSERT|DELETE|LOAD|CLEAR|CREATE|DROP|COPY|MOVE|ADD|WITH)\b",
    re.IGNORECASE,
)


def is_update(query: str) -> bool:
    """True for SPARQL Update requests (looked at after IRIs, strings and comments are blanked)."""
    text = re.sub(r"<[^<>\"{}|^`\\\s]*>", "<>", query)
    text = re.sub(r"('''.*?'''|\"\"\".*?\"\"\"|'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\")", '""', text, flags=re.S)
    text = re.sub(r"#[^\n]*", " ", text)
    return _UPDATE_KEYWORDS.match(text) is not None


def source_files(url: str) -> tuple[Path, ...]:
    """The files an `embedded:` URL names (`embedded:` alone is the demo graph); checked to exist."""
    if not url.startswith(EMBEDDED_URL):
        raise ConfigurationError(f"{url!r} is not an embedded: URL")
    rest = url[len(EMBEDDED_URL):].strip()
    if not rest:
        return (DEMO_GRAPH,)
    files: list[Path] = []
    for part in rest.split("|"):
        if not part.strip():
            continue
        path = Path(part.strip()).expanduser().resolve()
        if path.suffix.lower() not in RDF_FORMATS:
            raise ConfigurationError(f"cannot load {path}: the file name must end in one of {', '.join(RDF_FORMATS)}")
        if not path.is_file():
            raise ConfigurationError(f"cannot load {path}: no such file")
        files.append(path)
    if not files:
        raise ConfigurationError(f"{url!r} names no file")
    return tuple(files)


@dataclass
class LabelIndex:
    """Token -> literals of the graph (short ones, on IRIs): entity search without a full-text engine."""

    entries: list[tuple[ox.NamedNode, str, ox.Literal, int]] = field(default_factory=list)
    postings: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))

    def add(self, subject: ox.NamedNode, predicate: str, literal: ox.Literal) -> None:
        tokens = set(words_of(literal.value))
        if not tokens:
            return
        position = len(self.entries)
        self.entries.append((subject, predicate, literal, len(tokens)))
        for token in tokens:
            self.postings[token].append(position)

    def search(self, words: Sequence[str], predicates: Sequence[str], *, limit: int, language: str = "") -> list[LabelHit]:
        """Labels holding every word as a token, fewest extra words first (exact labels lead)."""
        tokens = list(dict.fromkeys(t for w in words for t in words_of(w)))
        if not tokens:
            return []
        lists = sorted((self.postings.get(t, []) for t in tokens), key=len)
        if not lists[0]:
            return []
        matches = set(lists[0])
        for other in lists[1:]:
            matches.intersection_update(other)
            if not matches:
                return []
        rank = {p: i for i, p in enumerate(predicates)}
        wanted = language.lower()
        candidates = []
        for position in matches:
            subject, predicate, literal, size = self.entries[position]
            if rank and predicate not in rank:
                continue
            tag = (literal.language or "").lower()
            if wanted and tag and not (tag == wanted or tag.startswith(wanted + "-")):
                continue
            candidates.append((size - len(tokens), rank.get(predicate, 0), len(literal.value), literal.value,
                               subject.value, subject))
        candidates.sort(key=lambda c: c[:5])
        hits: list[LabelHit] = []
        seen: set[tuple[str, str]] = set()
        for *_, label, iri, subject in candidates:
            if (iri, label) not in seen:
                seen.add((iri, label))
                hits.append(LabelHit(subject, label))
                if len(hits) >= limit:
                    break
        return hits


@dataclass
class LoadedGraph:
    """One process-wide store for a list of files, with its label index."""

    store: ox.Store
    index: LabelIndex
    files: tuple[Path, ...]
    triples: int
    load_ms: float


_loaded: dict[tuple[Path, ...], LoadedGraph] = {}
_load_lock = threading.Lock()


def _load_files(files: tuple[Path, ...]) -> LoadedGraph:
    started = time.perf_counter()
    store = ox.Store()
    for path in files:
        try:
            store.bulk_load(path=str(path), format=RDF_FORMATS[path.suffix.lower()])
        except SyntaxError as exc:
            message = str(exc).split(" (", 1)[0] if exc.lineno else str(exc)
            where = f" line {exc.lineno}" if exc.lineno else ""
            raise ConfigurationError(f"cannot load {path}:{where}: {message}") from exc
        except OSError as exc:
            raise ConfigurationError(f"cannot load {path}: {exc.strerror or exc}") from exc
    index = LabelIndex()
    triples = 0
    for quad in store.quads_for_pattern(None, None, None, None):
        triples += 1
        obj = quad.object
        if (isinstance(obj, ox.Literal) and isinstance(quad.subject, ox.NamedNode)
                and len(obj.value) <= MAX_INDEXED_LABEL):
            index.add(quad.subject, quad.predicate.value, obj)
    elapsed = (time.perf_counter() - started) * 1000
    log.info("embedded store: %d triples from %s in %.0f ms", triples, ", ".join(p.name for p in files), elapsed)
    return LoadedGraph(store, index, files, triples, elapsed)


def load_graph(files: tuple[Path, ...]) -> LoadedGraph:
    """The shared store for these files, loading them on first use (thread-safe, once per process)."""
    with _load_lock:
        if files not in _loaded:
            _loaded[files] = _load_files(files)
        return _loaded[files]


class _CappedWriter:
    """A binary sink that refuses to grow beyond `limit` bytes."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: list[bytes] = []
        self.size = 0
        self.exceeded = False

    def write(self, data: bytes) -> int:
        self.size += len(data)
        if self.size > self.limit:
            self.exceeded = True
            raise OSError("result too large")
        self.parts.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        return None


def _accepted(accept: str) -> list[tuple[str, float]]:
    """Media ranges of an Accept header, best first (stable for equal q)."""
    ranges = []
    for position, part in enumerate((accept or "*/*").split(",")):
        pieces = [p.strip() for p in part.split(";")]
        if not pieces[0]:
            continue
        quality = 1.0
        for parameter in pieces[1:]:
            key, _, value = parameter.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0:
            ranges.append((pieces[0].lower(), quality, position))
    ranges.sort(key=lambda r: (-r[1], r[2]))
    return [(mime, quality) for mime, quality, _ in ranges]


def negotiate(accept: str, offers: Sequence[tuple[str, F]]) -> tuple[str, F]:
    """The offer the Accept header likes best; the first offer when nothing matches (lenient, as
    most SPARQL engines are)."""
    for wanted, _ in _accepted(accept):
        for mime, fmt in offers:
            if wanted == mime or wanted == "*/*" or (wanted.endswith("/*") and mime.startswith(wanted[:-1])):
                return mime, fmt
    return offers[0]


class EmbeddedStore:
    """`SparqlEndpoint` over an in-process pyoxigraph store (read-only).

    A query cannot be interrupted inside pyoxigraph: on timeout the caller gets `EndpointTimeout`
    at once while the worker thread finishes in the background.
    """

    def __init__(self, config: EndpointConfig, files: tuple[Path, ...], *, max_rows: int = 100_000,
                 max_result_bytes: int = 64 * 1024 * 1024) -> None:
        self.config = config
        self.files = files
        self.max_rows = max_rows
        self.max_result_bytes = max_result_bytes

    @classmethod
    def for_config(cls, config: EndpointConfig) -> EmbeddedStore:
        """The store behind `embedded:` (demo graph) or `embedded:/a.ttl|/b.nt`; files load lazily,
        once per process, and are shared by every store naming the same files."""
        return cls(config, source_files(config.url))

    async def graph(self) -> LoadedGraph:
        """The loaded graph (loading it in a worker thread on first use)."""
        loaded = _loaded.get(self.files)
        if loaded is not None:
            return loaded
        return await asyncio.to_thread(load_graph, self.files)

    def _query(self, loaded: LoadedGraph, query: str) -> ox.QuerySolutions | ox.QueryBoolean | ox.QueryTriples:
        if not isinstance(query, str) or not query.strip():
            raise SparqlSyntaxError("the query is empty", endpoint=self.config.name)
        kwargs: dict[str, object] = {"use_default_graph_as_union": True}
        if self.config.default_graph:
            try:
                kwargs = {"default_graph": ox.NamedNode(self.config.default_graph)}
            except ValueError as exc:
                raise ConfigurationError(f"default_graph {self.config.default_graph!r} is not an IRI",
                                         endpoint=self.config.name) from exc
        try:
            return loaded.store.query(query, **kwargs)  # type: ignore[arg-type]
        except SyntaxError as exc:
            if is_update(query):
                raise UpdateRefused("the embedded store is read-only: SPARQL Update is refused",
                                    endpoint=self.config.name) from exc
            raise SparqlSyntaxError(str(exc), endpoint=self.config.name) from exc
        except (OSError, RuntimeError, ValueError) as exc:
            raise SparqlError(f"query failed: {exc}", endpoint=self.config.name) from exc

    def _consume(self, loaded: LoadedGraph, query: str,
                 consume: Callable[[ox.QuerySolutions | ox.QueryBoolean | ox.QueryTriples], R]) -> R:
        """Runs the query and `consume` in the worker thread; pyoxigraph result objects must be
        dropped on the thread that made them, so no traceback may carry them out of it."""
        result = self._query(loaded, query)
        error: BaseException | None = None
        try:
            return consume(result)
        except Exception as exc:
            error = exc
            chained: BaseException | None = exc
            while chained is not None:
                chained.__traceback__ = None
                chained = chained.__cause__ or chained.__context__
        finally:
            del result
        raise error

    async def _run(self, query: str, work: Callable[[LoadedGraph], R], timeout_s: float | None) -> R:
        loaded = await self.graph()
        timeout = timeout_s if timeout_s is not None else self.config.timeout_s
        check_request_budget()
        started = time.perf_counter()
        try:
            async with asyncio.timeout(timeout):
                return await asyncio.to_thread(work, loaded)
        except TimeoutError as exc:
            raise EndpointTimeout(f"no answer within {timeout:g} s", endpoint=self.config.name) from exc
        finally:
            record_request(query, started)

    async def select(self, query: str, *, timeout_s: float | None = None, max_rows: int | None = None) -> SelectResult:
        return await shared_result((self, "select", query, max_rows), lambda: self._select(query, timeout_s, max_rows))

    async def _select(self, query: str, timeout_s: float | None, max_rows: int | None) -> SelectResult:
        cap = max_rows if max_rows is not None else self.max_rows
        started = time.perf_counter()

        def rows_of(result: object) -> tuple[list[str], list[dict[str, Term]], bool]:
            if not isinstance(result, ox.QuerySolutions):
                raise SparqlError("expected SELECT results but the query is not a SELECT", endpoint=self.config.name)
            variables = [v.value for v in result.variables]
            rows: list[dict[str, Term]] = []
            try:
                for solution in result:
                    if len(rows) >= cap:
                        return variables, rows, True
                    rows.append({v: solution[v] for v in variables if solution[v] is not None})
            except (OSError, RuntimeError, ValueError, SyntaxError) as exc:
                raise SparqlError(f"query failed: {exc}", endpoint=self.config.name) from exc
            return variables, rows, False

        def work(loaded: LoadedGraph) -> tuple[list[str], list[dict[str, Term]], bool]:
            return self._consume(loaded, query, rows_of)

        variables, rows, cut = await self._run(query, work, timeout_s)
        reason = f"result cut at {cap} rows by the gateway's row cap" if cut else None
        return SelectResult(variables, rows, cut, reason, (time.perf_counter() - started) * 1000)

    async def ask(self, query: str, *, timeout_s: float | None = None) -> bool:
        return await shared_result((self, "ask", query), lambda: self._ask(query, timeout_s))

    async def _ask(self, query: str, timeout_s: float | None) -> bool:
        def boolean_of(result: object) -> bool:
            if not isinstance(result, ox.QueryBoolean):
                raise SparqlError("expected an ASK (boolean) answer but the query is not an ASK",
                                  endpoint=self.config.name)
            return bool(result)

        def work(loaded: LoadedGraph) -> bool:
            return self._consume(loaded, query, boolean_of)

        return await self._run(query, work, timeout_s)

    async def construct(self, query: str, *, timeout_s: float | None = None,
                        max_triples: int | None = None) -> list[ox.Triple]:
        def triples_of(result: object) -> list[ox.Triple]:
            if not isinstance(result, ox.QueryTriples):
                raise SparqlError("expected a graph but the query is not a CONSTRUCT or DESCRIBE",
                                  endpoint=self.config.name)
            triples: list[ox.Triple] = []
            for triple in result:
                if max_triples is not None and len(triples) >= max_triples:
                    break
                triples.append(triple)
            return triples

        def work(loaded: LoadedGraph) -> list[ox.Triple]:
            return self._consume(loaded, query, triples_of)

        return await self._run(query, work, timeout_s)

    async def run_serialized(self, query: str, accept: str, *, timeout_s: float | None = None) -> tuple[bytes, str]:
        """Runs any read query and serializes the answer in the format `accept` prefers: SPARQL
        JSON/XML/CSV/TSV for SELECT and ASK, Turtle/N-Triples/JSON-LD/RDF-XML for CONSTRUCT and
        DESCRIBE. Returns (body, content type). Updates raise `UpdateRefused`."""

        def serialize(result: object) -> tuple[bytes, str]:
            sink = _CappedWriter(self.max_result_bytes)
            if isinstance(result, ox.QueryTriples):
                mime, graph_format = negotiate(accept, GRAPH_MEDIA_TYPES)
                content_type = _CANONICAL_GRAPH.get(graph_format, mime)
                writer = result.serialize
                chosen: ox.RdfFormat | ox.QueryResultsFormat = graph_format
            else:
                offers = RESULT_MEDIA_TYPES
                if isinstance(result, ox.QueryBoolean):  # CSV/TSV define no boolean form
                    offers = tuple(o for o in RESULT_MEDIA_TYPES if o[1] not in (ox.QueryResultsFormat.CSV,
                                                                                 ox.QueryResultsFormat.TSV))
                mime, results_format = negotiate(accept, offers)
                content_type = _CANONICAL_RESULTS[results_format]
                writer = result.serialize
                chosen = results_format
            try:
                writer(sink, chosen)  # type: ignore[arg-type]
            except (OSError, ValueError, RuntimeError) as exc:
                if sink.exceeded:
                    raise ResultTooLarge(f"answer exceeds the {self.max_result_bytes} byte cap; add LIMIT",
                                         endpoint=self.config.name) from exc
                raise SparqlError(f"cannot serialize the answer: {exc}", endpoint=self.config.name) from exc
            if content_type.startswith("text/") or content_type.endswith("json"):
                content_type += "; charset=utf-8"
            return b"".join(sink.parts), content_type

        def work(loaded: LoadedGraph) -> tuple[bytes, str]:
            return self._consume(loaded, query, serialize)

        return await self._run(query, work, timeout_s)

    async def search_label_index(self, words: Sequence[str], label_predicates: Sequence[str], *, limit: int,
                                 language: str = "") -> list[LabelHit]:
        """Entities with a label (among `label_predicates`) holding every word; exact labels first."""
        loaded = await self.graph()
        started = time.perf_counter()
        hits = await asyncio.to_thread(loaded.index.search, words, label_predicates, limit=limit, language=language)
        log.debug("label index: %s -> %d hits in %.1f ms", list(words), len(hits), (time.perf_counter() - started) * 1000)
        return hits

    async def triple_count(self) -> int:
        return (await self.graph()).triples

    async def close(self) -> None:
        """Nothing to release: the loaded graph is shared by the process."""
