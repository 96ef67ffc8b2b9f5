"""Full-text label search in each engine's own dialect, and detection of which dialect an endpoint speaks.

Every answer path finds entities by text (`Endpoint.search`). Engines disagree on how: Virtuoso has
`bif:contains`, Jena `text:query`, Blazegraph `bds:search`, QLever `ql:contains-word`, GraphDB its
Lucene connectors, Stardog `fts:textMatch`; engines without a text index (Oxigraph) need a FILTER
scan, and the embedded store has its own token index. One `TextSearchDialect` per syntax builds a
SELECT of `?entity ?label` restricted to the label predicates; user text only ever reaches a query as
words of letters and digits, escaped again for the target syntax, so it cannot break out of a string.
"""

from __future__ import annotations

import asyncio
import difflib
import hashlib
import json
import logging
import re
import time
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import pyoxigraph as ox

from gateway.config import EndpointConfig, cache_dir
from gateway.endpoint import LabelHit
from gateway.errors import (
    ConfigurationError,
    EndpointTimeout,
    EndpointUnreachable,
    SparqlError,
    SparqlSyntaxError,
)
from gateway.sparql import make_iri

if TYPE_CHECKING:
    from gateway.endpoint import Endpoint

log = logging.getLogger(__name__)

RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
MAX_WORDS = 6  # words of a phrase that reach the index (the longest ones); keeps queries bounded
# a suspect word of at least TYPO_MIN_LENGTH letters that finds nothing may be misspelt: its first
# TYPO_PREFIX letters are searched and labels with a word that matches it this closely (difflib ratio) kept
TYPO_MIN_LENGTH = 5
TYPO_PREFIX = 4
TYPO_MIN_RATIO = 0.8
MAX_RELAXATIONS = 2  # a phrase that finds nothing is retried at most twice, one word fewer each time
MAX_LIMIT = 10_000
PROBE_LIMIT = 50
SAMPLE_LABELS = 500
PROBE_TIMEOUT_S = 10.0
CACHE_TTL_S = 7 * 24 * 3600.0

# English function words: they carry no entity meaning, make Virtuoso's
# `bif:contains` fail (noise words), and make every AND query needlessly strict.
_STOP_WORDS_TEXT = """
a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more most
my myself no nor not now of off on once only or other our ours ourselves out over own same she should
so some such than that the their theirs them themselves then there these they this those through to
too under until up very was we were what when where which while who whom why will with would you your
yours yourself yourselves
"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())

_WORD = re.compile(r"[^\W_]+")


def words_of(text: str) -> list[str]:
    """Lower-cased words of letters and digits (NFKC-normalised); everything else separates words."""
    return _WORD.findall(unicodedata.normalize("NFKC", text).lower())


def content_words(text: str) -> list[str]:
    """The words worth searching for: no stop words, no single characters, no repeats, at most
    `MAX_WORDS` (the longest, in their original order)."""
    words = list(dict.fromkeys(w for w in words_of(text) if len(w) > 1 and w not in STOP_WORDS))
    if len(words) > MAX_WORDS:
        keep = set(sorted(words, key=len, reverse=True)[:MAX_WORDS])
        words = [w for w in words if w in keep][:MAX_WORDS]
    return words


def relaxations(words: Sequence[str], names: Collection[str] = ()) -> list[list[str]]:
    """The word lists to try in turn: all words, then (at most `MAX_RELAXATIONS` times) one word
    fewer, dropping the shortest, which is usually the least distinctive; words of a name (`names`:
    capitalised or numeric in the phrase, "material NaviTech Pulsar") go last."""
    attempts = [list(words)]
    current = list(words)
    while len(current) > 1 and len(attempts) <= MAX_RELAXATIONS:
        shortest = min(range(len(current)), key=lambda i: (current[i] in names, len(current[i]), -i))
        current = current[:shortest] + current[shortest + 1:]
        attempts.append(current)
    return attempts


def sparql_string(text: str) -> str:
    """A SPARQL double-quoted string literal holding `text` exactly (control characters other than
    tab/newline/return and lone surrogates are dropped: no label contains them)."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif unicodedata.category(ch) in ("Cc", "Cs"):
            continue
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


LUCENE_SPECIALS = frozenset('+-&|!(){}[]^"~*?:\\/')


def lucene_escape(word: str) -> str:
    """A Lucene query-syntax term matching `word` literally (specials backslash-escaped; a bare
    AND/OR/NOT is lower-cased so it is not an operator)."""
    escaped = "".join("\\" + ch if ch in LUCENE_SPECIALS else ch for ch in word)
    return escaped.lower() if escaped in ("AND", "OR", "NOT") else escaped


def lucene_term(word: str, *, prefix: bool = False) -> str:
    """`word` as a Lucene term; with `prefix`, any word beginning so (`main*`)."""
    return lucene_escape(word) + ("*" if prefix else "")


def iri_ref(iri: str) -> str:
    """`<iri>` safe to embed in a query (characters an IRI may not hold are percent-encoded)."""
    return str(make_iri(iri))


@dataclass(frozen=True)
class SearchRequest:
    """One text search as the dialects see it: words already cleaned, the predicates to search."""

    words: tuple[str, ...]
    label_predicates: tuple[str, ...]
    limit: int
    language: str = "en"
    prefix: bool = False  # the words are word beginnings ("main" finds "Maintenance"): a typo's last chance


class TextSearchDialect:
    """How one engine family searches labels by words. Subclasses override `text_pattern`."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    prefixes: ClassVar[str] = ""
    searches_prefixes: ClassVar[bool] = False  # honours `SearchRequest.prefix`

    @property
    def spec(self) -> str:
        """The name as written in `text_search:` and stored in profiles (with any parameter)."""
        return self.name

    def label_pattern(self, request: SearchRequest) -> str:
        predicates = request.label_predicates or (RDFS_LABEL,)
        if len(predicates) == 1:
            return f"?entity {iri_ref(predicates[0])} ?label ."
        values = " ".join(iri_ref(p) for p in predicates)
        return f"VALUES ?labelPredicate {{ {values} }} ?entity ?labelPredicate ?label ."

    @staticmethod
    def language_filter(request: SearchRequest) -> str:
        if not request.language:
            return ""
        return f'FILTER(LANG(?label) = "" || LANGMATCHES(LANG(?label), {sparql_string(request.language)}))'

    def text_pattern(self, request: SearchRequest) -> str:
        """The graph pattern that binds `?entity` and `?label` for the words."""
        raise NotImplementedError

    def build_query(self, request: SearchRequest) -> str:
        """A SELECT of `?entity ?label`, at most `limit` rows; the text index drives where it can."""
        body = self.text_pattern(request)
        return (
            f"{self.prefixes}SELECT ?entity ?label WHERE {{\n  {body}\n"
            f"  FILTER(isIRI(?entity) && isLiteral(?label))\n  {self.language_filter(request)}\n}}\n"
            f"LIMIT {request.limit}"
        )

    def parse_hits(self, rows: Sequence[dict[str, Any]]) -> list[LabelHit]:
        hits: list[LabelHit] = []
        seen: set[tuple[str, str]] = set()
        for row in rows:
            entity, label = row.get("entity"), row.get("label")
            if not isinstance(entity, ox.NamedNode) or not isinstance(label, ox.Literal):
                continue
            key = (entity.value, label.value)
            if key not in seen:
                seen.add(key)
                hits.append(LabelHit(entity, label.value))
        return hits

    async def search(self, endpoint: Endpoint, request: SearchRequest, *, timeout_s: float | None = None) -> list[LabelHit]:
        """Runs the search on the endpoint; errors are the client's classified `SparqlError`s."""
        result = await endpoint.sparql.select(self.build_query(request), timeout_s=timeout_s, max_rows=request.limit)
        return self.parse_hits(result.rows)

    async def prepare(self, endpoint: Endpoint) -> TextSearchDialect | None:
        """Before probing: the dialect configured for this endpoint, or None if it clearly cannot
        apply (GraphDB needs a connector instance name, found here)."""
        return self


_NOISE_ONLY = re.compile(r"consists of noise words exclusively", re.IGNORECASE)


class VirtuosoDialect(TextSearchDialect):
    """OpenLink Virtuoso: `?label bif:contains "'w1' AND 'w2'"`, after the triple that binds ?label.

    Virtuoso rejects a wildcard with fewer than 4 characters before `*`, and noise words or single
    letters make a conjunction find nothing; words arrive here cleaned of both.
    """

    name = "virtuoso"
    description = "OpenLink Virtuoso bif:contains"
    prefixes = "PREFIX bif: <bif:>\n"
    searches_prefixes = True

    @staticmethod
    def term(word: str, *, prefix: bool = False) -> str:
        clean = "".join(ch for ch in word if ch.isalnum())
        wildcard = "*" if prefix and len(clean) >= 4 else ""
        return f"'{clean}{wildcard}'"

    def expression(self, words: Sequence[str], *, prefix: bool = False) -> str:
        return " AND ".join(self.term(w, prefix=prefix) for w in words if any(ch.isalnum() for ch in w))

    def text_pattern(self, request: SearchRequest) -> str:
        expression = self.expression(request.words, prefix=request.prefix)
        return f"{self.label_pattern(request)}\n  ?label bif:contains {sparql_string(expression)} ."

    async def search(self, endpoint: Endpoint, request: SearchRequest, *, timeout_s: float | None = None) -> list[LabelHit]:
        """As any dialect's, except that words Virtuoso's tokenizer treats as noise (letters of scripts it
        does not index, "𐀀𖹠") find nothing instead of failing the query."""
        try:
            return await super().search(endpoint, request, timeout_s=timeout_s)
        except SparqlSyntaxError as exc:
            if _NOISE_ONLY.search(str(exc)):
                return []
            raise


class JenaDialect(TextSearchDialect):
    """Apache Jena with jena-text: `?entity text:query ("+w1 +w2" limit)` on the default indexed
    field, then the entity's labels (the matched literal is only bound when the index stores it)."""

    name = "jena"
    description = "Apache Jena text:query (Lucene)"
    prefixes = "PREFIX text: <http://jena.apache.org/text#>\n"

    searches_prefixes = True

    def text_pattern(self, request: SearchRequest) -> str:
        query = " ".join("+" + lucene_term(w, prefix=request.prefix) for w in request.words)
        return (f"?entity text:query ({sparql_string(query)} {request.limit}) .\n  "
                f"{self.label_pattern(request)}")


class BlazegraphDialect(TextSearchDialect):
    """Blazegraph: `?label bds:search "w1 w2" ; bds:matchAllTerms "true"` (the literal index)."""

    name = "blazegraph"
    description = "Blazegraph bds:search"
    prefixes = "PREFIX bds: <http://www.bigdata.com/rdf/search#>\n"

    def text_pattern(self, request: SearchRequest) -> str:
        words = " ".join(request.words)
        return (f"?label bds:search {sparql_string(words)} ;\n    bds:matchAllTerms \"true\" ;\n"
                f"    bds:maxRank \"{request.limit}\" .\n  {self.label_pattern(request)}")


class QLeverDialect(TextSearchDialect):
    """QLever with a text index built from literals: the literal is a text record, so
    `?text ql:contains-entity ?label ; ql:contains-word "w1 w2"` finds labels with all words."""

    name = "qlever"
    description = "QLever ql:contains-word / ql:contains-entity"
    prefixes = "PREFIX ql: <http://qlever.cs.uni-freiburg.de/builtin/>\n"

    def text_pattern(self, request: SearchRequest) -> str:
        words = " ".join(request.words)
        return (f"{self.label_pattern(request)}\n  ?text ql:contains-entity ?label .\n"
                f"  ?text ql:contains-word {sparql_string(words)} .")


@dataclass(frozen=True)
class GraphDbDialect(TextSearchDialect):
    """Ontotext GraphDB Lucene connector: `?search a inst:NAME ; luc:query "…" ; luc:entities ?entity`.

    The connector instance is named by the administrator: `text_search: graphdb:NAME`, or found with
    `luc:listConnectors` during detection (the first Lucene connector).
    """

    index: str = ""
    name: ClassVar[str] = "graphdb"
    description: ClassVar[str] = "GraphDB Lucene connector (luc:query)"
    prefixes: ClassVar[str] = ("PREFIX luc: <http://www.ontotext.com/connectors/lucene#>\n"
                               "PREFIX luc-index: <http://www.ontotext.com/connectors/lucene/instance#>\n")

    @property
    def spec(self) -> str:
        return f"{self.name}:{self.index}" if self.index else self.name

    def text_pattern(self, request: SearchRequest) -> str:
        if not self.index:
            raise ConfigurationError("GraphDB search needs a connector name: text_search: graphdb:NAME")
        query = " ".join("+" + lucene_escape(w) for w in request.words)
        instance = iri_ref("http://www.ontotext.com/connectors/lucene/instance#" + self.index)
        return (f"?search a {instance} ;\n    luc:query {sparql_string(query)} ;\n"
                f"    luc:limit \"{request.limit}\" ;\n    luc:entities ?entity .\n  {self.label_pattern(request)}")

    async def prepare(self, endpoint: Endpoint) -> TextSearchDialect | None:
        if self.index:
            return self
        query = (f"{self.prefixes}SELECT ?connector WHERE {{ ?connector luc:listConnectors ?definition . }} LIMIT 10")
        result = await endpoint.sparql.select(query, timeout_s=min(endpoint.config.timeout_s, PROBE_TIMEOUT_S))
        for connector in result.column("connector"):
            name = connector.value.rsplit("#", 1)[-1]
            if name and isinstance(connector, ox.NamedNode):
                return GraphDbDialect(index=name)
        return None


class StardogDialect(TextSearchDialect):
    """Stardog: `SERVICE fts:textMatch { [] fts:query "…" ; fts:result ?label }` (Lucene syntax)."""

    name = "stardog"
    description = "Stardog full-text search (fts:textMatch)"
    prefixes = "PREFIX fts: <tag:stardog:api:search:>\n"

    def text_pattern(self, request: SearchRequest) -> str:
        query = " AND ".join(lucene_escape(w) for w in request.words)
        return (f"SERVICE fts:textMatch {{\n    [] fts:query {sparql_string(query)} ;\n"
                f"       fts:limit {request.limit} ;\n       fts:result ?label .\n  }}\n  {self.label_pattern(request)}")


class RegexDialect(TextSearchDialect):
    """Any SPARQL 1.1 engine: label literals filtered with CONTAINS(LCASE(STR(?label)), "word") for
    every word. Scans all labels (no index), so it is the fallback, not a choice for big graphs."""

    name = "regex"
    description = "portable FILTER(CONTAINS(LCASE(…))) scan of labels"
    searches_prefixes = True  # a word's beginning is contained wherever the word is

    def text_pattern(self, request: SearchRequest) -> str:
        tests = " && ".join(f"CONTAINS(LCASE(STR(?label)), {sparql_string(w)})" for w in request.words)
        return f"{self.label_pattern(request)}\n  FILTER({tests or 'false'})"


class LabelIndexDialect(TextSearchDialect):
    """The embedded store's in-memory token index (`EmbeddedStore.search_label_index`)."""

    name = "label-index"
    description = "embedded store token index"

    def build_query(self, request: SearchRequest) -> str:
        raise ConfigurationError("the label-index dialect searches the embedded store directly, not through SPARQL")

    async def search(self, endpoint: Endpoint, request: SearchRequest, *, timeout_s: float | None = None) -> list[LabelHit]:
        from gateway.embedded import EmbeddedStore

        if not isinstance(endpoint.sparql, EmbeddedStore):
            raise ConfigurationError("text_search 'label-index' works only for the embedded store", endpoint=endpoint.name)
        return await endpoint.sparql.search_label_index(request.words, request.label_predicates,
                                                        limit=request.limit, language=request.language)


DIALECTS: dict[str, type[TextSearchDialect]] = {
    cls.name: cls for cls in (VirtuosoDialect, JenaDialect, BlazegraphDialect, QLeverDialect, GraphDbDialect,
                              StardogDialect, RegexDialect, LabelIndexDialect)
}
# Detection order: the most common engines first; the regex scan is the fallback, never probed.
DETECTION_ORDER = ("virtuoso", "qlever", "blazegraph", "graphdb", "stardog", "jena")


def get_dialect(spec: str) -> TextSearchDialect:
    """The dialect for a `text_search:` value (`graphdb:NAME` carries the connector name)."""
    name, _, parameter = spec.strip().partition(":")
    if name not in DIALECTS:
        raise ConfigurationError(f"unknown text_search {spec!r}; choose auto or one of {', '.join(DIALECTS)}")
    if name == GraphDbDialect.name:
        return GraphDbDialect(index=parameter)
    return DIALECTS[name]()


class EndpointSettingsCache:
    """What was learned about an endpoint, in memory and on disk (`cache_dir()/endpoints/`), keyed
    by `config.cache_key` and expiring after `ttl_s`, so a new process does not probe again."""

    def __init__(self, ttl_s: float = CACHE_TTL_S) -> None:
        self.ttl_s = ttl_s
        self._memory: dict[str, dict[str, Any]] = {}

    @staticmethod
    def path(config: EndpointConfig) -> Any:
        digest = hashlib.sha256(config.cache_key.encode()).hexdigest()[:24]
        return cache_dir() / "endpoints" / f"{digest}.json"

    def _entries(self, config: EndpointConfig) -> dict[str, Any]:
        if config.cache_key not in self._memory:
            entries: dict[str, Any] = {}
            try:
                data = json.loads(self.path(config).read_text(encoding="utf-8"))
                if isinstance(data, dict) and data.get("cache_key") == config.cache_key:
                    entries = dict(data.get("entries") or {})
            except (OSError, ValueError):
                pass
            self._memory[config.cache_key] = entries
        return self._memory[config.cache_key]

    def get(self, config: EndpointConfig, key: str) -> Any | None:
        entry = self._entries(config).get(key)
        if not isinstance(entry, dict) or time.time() - float(entry.get("saved_at", 0)) > self.ttl_s:
            return None
        return entry.get("value")

    def put(self, config: EndpointConfig, key: str, value: Any, *, persist: bool = True) -> None:
        entries = self._entries(config)
        entries[key] = {"value": value, "saved_at": time.time()}
        if not persist:
            return
        path = self.path(config)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(f".{id(self)}.tmp")
            temporary.write_text(json.dumps({"cache_key": config.cache_key, "entries": entries}, indent=1),
                                 encoding="utf-8")
            temporary.replace(path)
        except OSError as exc:
            log.warning("cannot write the endpoint cache %s: %s", path, exc)

    def forget(self, config: EndpointConfig) -> None:
        self._memory.pop(config.cache_key, None)
        self.path(config).unlink(missing_ok=True)


settings_cache = EndpointSettingsCache()


@dataclass
class DialectDetection:
    """The outcome of `detect_dialect`: the dialect spec and what was tried, for the profile notes."""

    dialect: str
    notes: list[str] = field(default_factory=list)
    cached: bool = False


async def _sample_label(endpoint: Endpoint, label_predicates: Sequence[str]) -> tuple[ox.NamedNode, str, str] | None:
    """One real (entity, label, word) of the graph to probe with: the longest content word of a
    label, at least 4 letters long (so no dialect's wildcard or noise-word rule can interfere)."""
    request = SearchRequest((), tuple(label_predicates), SAMPLE_LABELS)
    pattern = TextSearchDialect().label_pattern(request)
    # Labels sort by value in some indexes (Oxigraph): skip the leading run of numbers and codes.
    query = (f"SELECT ?entity ?label WHERE {{ {pattern} FILTER(isIRI(?entity) && isLiteral(?label)) "
             f'FILTER(REGEX(STR(?label), "[A-Za-z]{{4}}")) }} LIMIT {SAMPLE_LABELS}')
    result = await endpoint.sparql.select(query, timeout_s=min(endpoint.config.timeout_s, 30.0))
    best: tuple[ox.NamedNode, str, str] | None = None
    for row in result.rows:
        entity, label = row.get("entity"), row.get("label")
        if not isinstance(entity, ox.NamedNode) or not isinstance(label, ox.Literal):
            continue
        words = [w for w in content_words(label.value) if len(w) >= 4 and w.isalpha() and w.isascii()]
        if words:
            word = max(words, key=len)
            if best is None or len(word) > len(best[2]):
                best = (entity, label.value, word)
    return best


async def detect_dialect(endpoint: Endpoint, label_predicates: Sequence[str], *, use_cache: bool = True) -> DialectDetection:
    """Which text-search syntax the endpoint understands.

    Honours `text_search:` unless it is `auto`; the embedded store uses its label index. Otherwise
    it takes one real label from the graph, searches for one of its words in each dialect (an
    unsupported syntax answers zero rows or an error: both mean "no") and keeps the first that
    finds it, else the regex scan. The answer is cached per endpoint in memory and on disk.
    """
    config = endpoint.config
    configured = config.text_search.strip().lower()
    if configured and configured != "auto":
        dialect = get_dialect(config.text_search.strip())
        return DialectDetection(dialect.spec, [f"text search: {dialect.spec} (from the configuration)"])
    if config.is_embedded:
        return DialectDetection(LabelIndexDialect.name, ["text search: label-index (the embedded store's token index)"])
    if use_cache:
        cached = settings_cache.get(config, "dialect")
        if isinstance(cached, dict) and isinstance(cached.get("dialect"), str):
            notes = [f"text search: {cached['dialect']} (detected earlier, cached)"]
            return DialectDetection(cached["dialect"], notes, cached=True)

    notes: list[str] = []
    sample = await _sample_label(endpoint, label_predicates)
    if sample is None:
        notes.append("text search: regex (no label with a word of 4+ letters to probe with)")
        return DialectDetection(RegexDialect.name, notes)
    entity, label, word = sample
    persist = True
    found: str | None = None
    for name in DETECTION_ORDER:
        try:
            dialect = await get_dialect(name).prepare(endpoint)
            if dialect is None:
                notes.append(f"{name}: not available")
                continue
            request = SearchRequest((word,), tuple(label_predicates), PROBE_LIMIT, language="")
            hits = await dialect.search(endpoint, request, timeout_s=min(config.timeout_s, PROBE_TIMEOUT_S))
        except (EndpointUnreachable, EndpointTimeout) as exc:
            persist = False
            notes.append(f"{name}: {exc.kind}")
            if isinstance(exc, EndpointUnreachable):
                raise
            continue
        except SparqlError as exc:
            notes.append(f"{name}: rejected ({exc.kind})")
            continue
        if any(word in words_of(hit.label) for hit in hits):
            found = dialect.spec
            break
        notes.append(f"{name}: no hit")
    chosen = found or RegexDialect.name
    notes.insert(0, f"text search: {chosen} (probed with {word!r} from the label {label!r} of <{entity.value}>)")
    settings_cache.put(config, "dialect", {"dialect": chosen, "notes": notes}, persist=persist)
    return DialectDetection(chosen, notes)


def _exact_variants(text: str, language: str) -> list[str]:
    """Literals a label equal to `text` may be written as (as typed, Title Case, lower case)."""
    stripped = " ".join(text.split())
    if not stripped or len(stripped) > 200:
        return []
    forms = list(dict.fromkeys([stripped, stripped.title(), stripped.lower()]))
    literals = []
    for form in forms:
        literals.append(sparql_string(form))
        if language:
            literals.append(sparql_string(form) + "@" + re.sub(r"[^A-Za-z0-9-]", "", language))
    return literals


async def _exact_hits(endpoint: Endpoint, text: str, label_predicates: Sequence[str], limit: int) -> list[LabelHit]:
    """Entities whose label is exactly the text: an index lookup on every engine, so the best match
    is never lost when a common word has more hits than the limit."""
    literals = _exact_variants(text, endpoint.config.language)
    if not literals:
        return []
    request = SearchRequest((), tuple(label_predicates), limit)
    query = (f"SELECT ?entity ?label WHERE {{ VALUES ?label {{ {' '.join(literals)} }}\n  "
             f"{TextSearchDialect().label_pattern(request)} FILTER(isIRI(?entity)) }} LIMIT {limit}")
    result = await endpoint.sparql.select(query, max_rows=limit)
    return TextSearchDialect().parse_hits(result.rows)


async def search_labels(endpoint: Endpoint, text: str, *, limit: int, misspelt: Collection[str] = ()) -> list[LabelHit]:
    """Entities whose label contains the words of `text`, exact labels first.

    The words (stop words dropped) are ANDed; if that finds nothing, the phrase is retried with one
    word fewer, at most `MAX_RELAXATIONS` times. Words the caller suspects misspelt (`misspelt`: not
    English, say) then get a last chance where the dialect can search word beginnings: labels with a
    word spelt nearly so. Runs through the endpoint's detected dialect.
    """
    if not isinstance(text, str):
        raise TypeError("search text must be a string")
    limit = max(1, min(int(limit), MAX_LIMIT))
    profile = await endpoint.profile()
    dialect = get_dialect(profile.dialect)
    words = content_words(text)
    if not words:
        words = list(dict.fromkeys(w for w in words_of(text) if len(w) > 1))[:MAX_WORDS]
        if isinstance(dialect, VirtuosoDialect):
            words = []  # only stop words: Virtuoso would answer nothing or fail
    names = {w for w in words_of(" ".join(t for t in text.split() if t[:1].isupper() or t[:1].isdigit()))}
    attempts = relaxations(words, names) if words else []

    async def run(attempt: Sequence[str] | None) -> list[LabelHit]:
        if not attempt:
            return []
        request = SearchRequest(tuple(attempt), profile.label_predicates, limit, endpoint.config.language)
        return await dialect.search(endpoint, request)

    async def exact_lookup() -> list[LabelHit]:
        if isinstance(dialect, LabelIndexDialect):
            return []  # the label index ranks exact labels first itself
        return await _exact_hits(endpoint, text, profile.label_predicates, limit)

    # The exact lookup runs alongside the first text search; errors surface as the gateway's own
    # SparqlError classes (not wrapped in an ExceptionGroup).
    exact_task = asyncio.ensure_future(exact_lookup())
    try:
        hits = await run(attempts[0] if attempts else None)
        exact = await exact_task
    finally:
        if not exact_task.done():
            exact_task.cancel()
    for attempt in attempts[1:]:
        if hits or exact:
            break
        hits = await run(attempt)
    suspects = {w for w in words_of(" ".join(misspelt)) if len(w) >= TYPO_MIN_LENGTH} & set(words)
    if not hits and not exact and suspects and dialect.searches_prefixes:
        hits = await _misspelt_hits(endpoint, dialect, profile.label_predicates, words, suspects, limit)
    merged: dict[tuple[str, str], LabelHit] = {}
    for hit in [*exact, *hits]:
        merged.setdefault((hit.entity.value, hit.label), hit)
    return list(merged.values())[:limit]


async def _misspelt_hits(endpoint: Endpoint, dialect: TextSearchDialect, label_predicates: Sequence[str],
                         words: Sequence[str], suspects: Collection[str], limit: int) -> list[LabelHit]:
    """Labels holding every word, the suspect ones spelt nearly so ("Predictive Maintanance" -> "Predictive
    Maintenance"): one search for the suspects' first letters (and the other words whole), its hits kept
    where each suspect is within a letter or two of one of the label's words."""
    beginnings = tuple(dict.fromkeys(w[:TYPO_PREFIX] if w in suspects else w for w in words))
    request = SearchRequest(beginnings, tuple(label_predicates), min(MAX_LIMIT, max(limit, 1000)),
                            endpoint.config.language, prefix=True)
    hits = await dialect.search(endpoint, request)
    return [hit for hit in hits if all(_spelt_nearly(word, words_of(hit.label)) if word in suspects
                                       else word in words_of(hit.label) for word in words)][:limit]


def _spelt_nearly(word: str, label_words: Sequence[str]) -> bool:
    """Whether a label word is `word`, or it but for a typo or two (not its singular or plural: "resistors"
    that finds no label is no typo of "Resistor", and linking reads kinds its own way)."""
    return any(other == word or (_inflection_stem(other) != _inflection_stem(word)
                                 and difflib.SequenceMatcher(None, word, other).ratio() >= TYPO_MIN_RATIO)
               for other in label_words)


def _inflection_stem(word: str) -> str:
    return re.sub(r"(?:ies|es|s)$", "", word)
