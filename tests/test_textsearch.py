"""Text-search dialects: query shape and escaping, live search on Virtuoso (bif:contains), Oxigraph
(the regex fallback) and the embedded store (label index), auto-detection and its cache, and
recorded-response tests for the engines that cannot be installed here."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph as ox
import pytest
import pytest_asyncio
from aiohttp import web
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rdflib.plugins.sparql.parser import parseQuery

from gateway.config import EndpointConfig
from gateway.endpoint import Endpoint, EndpointPool
from gateway.engines import free_port
from gateway.errors import ConfigurationError, EndpointUnreachable
from gateway.textsearch import (
    DIALECTS,
    MAX_RELAXATIONS,
    EndpointSettingsCache,
    GraphDbDialect,
    SearchRequest,
    VirtuosoDialect,
    content_words,
    detect_dialect,
    get_dialect,
    lucene_escape,
    relaxations,
    search_labels,
    settings_cache,
    sparql_string,
)

RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
PV_NAME = "http://ld.company.org/prod-vocab/name"
MEMRISTOR = "http://ld.company.org/prod-instances/hw-Y884-3616085"
RECORDED = Path(__file__).parent / "recorded"
SQL_DIALECTS = [name for name in DIALECTS if name != "label-index"]

# Text that tries to break out of strings and query syntaxes, mixed with ordinary words.
HOSTILE = st.lists(st.sampled_from(list("'\"\\*?:+-&|!(){}[]^~/<>#.;,@$% \n\t\r\x00")
                                   + ["AND", "OR", "NOT", "sensor", "a", "the", "x", "é", "日本", "ß", "\\u0022"]),
                   max_size=25).map("".join)
ANY_TEXT = st.one_of(HOSTILE, st.text(max_size=60))


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KGQA_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "kgqa-cache"))


def expected_string_value(text: str) -> str:
    return "".join(ch for ch in text if ch in "\t\n\r" or unicodedata.category(ch) not in ("Cc", "Cs"))


# --- words and escaping -------------------------------------------------------------------------------


def test_content_words_drop_stop_words_and_single_letters() -> None:
    assert content_words("the Danish Straits") == ["danish", "straits"]
    assert content_words("What is a B of the?") == []
    assert content_words("C++ & AC/DC") == ["ac", "dc"]
    assert content_words("Sensor sensor SENSOR") == ["sensor"]


def test_relaxations_are_bounded_and_drop_the_shortest_word() -> None:
    assert relaxations(["danish", "straits"]) == [["danish", "straits"], ["straits"]]
    many = relaxations(["alpha", "be", "gamma", "deltas", "epsilon", "z1"])
    assert len(many) == 1 + MAX_RELAXATIONS
    assert many[1] == ["alpha", "be", "gamma", "deltas", "epsilon"]  # of equally short words, the last goes
    assert many[2] == ["alpha", "gamma", "deltas", "epsilon"]
    assert relaxations(["one"]) == [["one"]]
    # "material NaviTech Pulsar": the common noun goes first, the name's words last
    assert relaxations(["material", "navitech", "pulsar"], {"navitech", "pulsar"}) == [
        ["material", "navitech", "pulsar"], ["navitech", "pulsar"], ["navitech"]]


def test_virtuoso_wildcard_needs_four_letters() -> None:
    assert VirtuosoDialect.term("sen", prefix=True) == "'sen'"
    assert VirtuosoDialect.term("sens", prefix=True) == "'sens*'"
    assert VirtuosoDialect.term("o'brien") == "'obrien'"


def test_lucene_escape_covers_every_special() -> None:
    assert lucene_escape('+-&|!(){}[]^"~*?:\\/') == "".join("\\" + ch for ch in '+-&|!(){}[]^"~*?:\\/')
    assert lucene_escape("AND") == "and"
    assert lucene_escape("c++") == "c\\+\\+"


@settings(max_examples=300, deadline=None)
@given(ANY_TEXT)
def test_sparql_string_round_trips_exactly(text: str) -> None:
    """No text can end the string early: pyoxigraph reads back exactly the text."""
    store = ox.Store()
    (row,) = list(store.query(f"SELECT ?x WHERE {{ BIND({sparql_string(text)} AS ?x) }}"))
    assert row["x"].value == expected_string_value(text)


@settings(max_examples=60, deadline=None)
@given(ANY_TEXT, st.sampled_from(SQL_DIALECTS))
def test_every_dialect_builds_valid_sparql_for_any_text(text: str, name: str) -> None:
    dialect = get_dialect("graphdb:label_index" if name == "graphdb" else name)
    words = tuple(content_words(text)) or ("fallback",)
    query = dialect.build_query(SearchRequest(words, (RDFS_LABEL, PV_NAME), 25))
    parseQuery(query)
    assert query.rstrip().endswith("LIMIT 25")


def test_get_dialect_validates_names() -> None:
    with pytest.raises(ConfigurationError, match="unknown text_search"):
        get_dialect("elasticsearch")
    assert get_dialect("graphdb:my_index") == GraphDbDialect(index="my_index")
    assert get_dialect("graphdb:my_index").spec == "graphdb:my_index"


def test_queries_restrict_to_label_predicates_and_limit() -> None:
    request = SearchRequest(("danish", "straits"), (RDFS_LABEL, PV_NAME), 40)
    virtuoso = get_dialect("virtuoso").build_query(request)
    assert "bif:contains \"'danish' AND 'straits'\"" in virtuoso
    assert f"VALUES ?labelPredicate {{ <{RDFS_LABEL}> <{PV_NAME}> }}" in virtuoso
    assert virtuoso.index("?entity ?labelPredicate ?label") < virtuoso.index("bif:contains")  # Virtuoso needs this order
    regex = get_dialect("regex").build_query(SearchRequest(("danish", "straits"), (RDFS_LABEL,), 40))
    assert 'CONTAINS(LCASE(STR(?label)), "danish") && CONTAINS(LCASE(STR(?label)), "straits")' in regex
    assert f"?entity <{RDFS_LABEL}> ?label" in regex
    assert regex.rstrip().endswith("LIMIT 40")


# --- live engines -------------------------------------------------------------------------------------


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def pool() -> AsyncIterator[EndpointPool]:
    endpoints = EndpointPool()
    yield endpoints
    await endpoints.close()


def ck25_endpoint(pool: EndpointPool, engine, name: str, **settings: object) -> Endpoint:  # type: ignore[no-untyped-def]
    return pool.get(engine.endpoint(name, "ck25", **settings))


async def test_virtuoso_bif_contains_finds_all_words(pool: EndpointPool, virtuoso) -> None:  # type: ignore[no-untyped-def]
    endpoint = ck25_endpoint(pool, virtuoso, "v-ck25-search", text_search="virtuoso")
    hits = await endpoint.search("the Memristor sensor", limit=400)
    assert MEMRISTOR in {h.entity.value for h in hits}
    assert all({"memristor", "sensor"} <= set(h.label.lower().replace("-", " ").split()) for h in hits)


async def test_exact_label_comes_first(pool: EndpointPool, virtuoso, oxigraph) -> None:  # type: ignore[no-untyped-def]
    for engine in (virtuoso, oxigraph):
        endpoint = ck25_endpoint(pool, engine, f"{engine.kind}-exact")
        hits = await endpoint.search("sensor", limit=400)
        assert len(hits) > 100
        assert hits[0].label == "Sensor"


async def test_oxigraph_regex_fallback_agrees_with_virtuoso(pool: EndpointPool, virtuoso, oxigraph) -> None:  # type: ignore[no-untyped-def]
    on_virtuoso = ck25_endpoint(pool, virtuoso, "v-agree", text_search="virtuoso")
    on_oxigraph = ck25_endpoint(pool, oxigraph, "o-agree", text_search="regex")
    found_v = {h.entity.value for h in await on_virtuoso.search("memristor sensor", limit=1000)}
    found_o = {h.entity.value for h in await on_oxigraph.search("memristor sensor", limit=1000)}
    assert MEMRISTOR in found_v
    assert found_v and found_v <= found_o  # whole words are a subset of substrings


async def test_phrase_that_finds_nothing_retries_with_fewer_words(pool: EndpointPool, virtuoso, oxigraph) -> None:  # type: ignore[no-untyped-def]
    for engine in (virtuoso, oxigraph):
        endpoint = ck25_endpoint(pool, engine, f"{engine.kind}-relax")
        hits = await endpoint.search("memristor sensor zzyzxqq", limit=50)
        assert hits and all("memristor" in h.label.lower() for h in hits)


async def test_a_name_outlasts_the_common_noun_before_it(pool: EndpointPool, virtuoso, oxigraph) -> None:  # type: ignore[no-untyped-def]
    """"material NaviTech Pulsar" (the model cut "bill of material NaviTech Pulsar" there) finds the bill of
    material named "NaviTech Pulsar", not the class "Bill of Material"."""
    for engine in (virtuoso, oxigraph):
        endpoint = ck25_endpoint(pool, engine, f"{engine.kind}-name-last")
        hits = await endpoint.search("material NaviTech Pulsar", limit=50)
        assert hits and {h.label for h in hits} == {"NaviTech Pulsar"}


async def test_a_misspelt_word_finds_the_label_spelt_nearly_so(pool: EndpointPool, virtuoso, oxigraph) -> None:  # type: ignore[no-untyped-def]
    """"Predictive Maintanance" finds nothing as typed; with "maintanance" suspected, the words' beginnings find
    "Predictive Maintenance", and only labels whose words are within a typo of the suspect stay ("Mainframe"
    is no "Maintenance", "Resistors" no typo of "Resistor")."""
    for engine in (virtuoso, oxigraph):
        endpoint = ck25_endpoint(pool, engine, f"{engine.kind}-typo")
        hits = await endpoint.search("Predictive Maintanance", limit=50, misspelt=["maintanance"])
        assert "Predictive Maintenance" in {h.label for h in hits}
        assert all(h.label.endswith("Predictive Maintenance") for h in hits)
        assert await endpoint.search("Predictive Maintanance", limit=50) == []  # no word suspected: as typed
        found = await endpoint.search("Waldtraud Kutner", limit=50, misspelt=["waldtraud", "kutner"])
        assert "Waldtraud Kuttner" in {h.label for h in found}
        assert await endpoint.search("Mainframe", limit=50, misspelt=["mainframe"]) == []
        assert await endpoint.search("Resistorz", limit=50, misspelt=["resistorz"])  # a typo ...
        assert await endpoint.search("Resistors", limit=50, misspelt=["resistors"]) == []  # ... not a plural

async def test_only_stop_words_is_no_error(pool: EndpointPool, virtuoso) -> None:  # type: ignore[no-untyped-def]
    endpoint = ck25_endpoint(pool, virtuoso, "v-stop", text_search="virtuoso")
    assert await endpoint.search("the of a", limit=10) == []
    assert await endpoint.search("", limit=10) == []


async def test_label_predicates_restrict_the_search(pool: EndpointPool, oxigraph) -> None:  # type: ignore[no-untyped-def]
    only_names = ck25_endpoint(pool, oxigraph, "o-names", text_search="regex", label_predicates=(PV_NAME,))
    only_labels = ck25_endpoint(pool, oxigraph, "o-labels", text_search="regex", label_predicates=(RDFS_LABEL,))
    by_name = await only_names.search("sensor", limit=1000)
    by_label = await only_labels.search("sensor", limit=1000)
    assert by_name and by_label
    assert {h.label for h in by_name} != {h.label for h in by_label}


async def test_embedded_label_index_search() -> None:
    pool = EndpointPool()
    endpoint = pool.get(EndpointConfig(name="demo-search", url="embedded:"))
    hits = await endpoint.search("Japan", limit=10)
    assert hits[0].entity.value.endswith("/Japan") and hits[0].label == "Japan"
    yen = await endpoint.search("yen", limit=10)
    assert [h.label for h in yen][:2] == ["Yen", "Japanese Yen"]
    assert all("swiss" in h.label.lower() for h in await endpoint.search("Swiss franc", limit=10))
    assert (await endpoint.profile()).dialect == "label-index"


@pytest.mark.parametrize("engine_name, dialect", [("virtuoso", "virtuoso"), ("oxigraph", "regex")])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=ANY_TEXT)
@example(text="\U00010000\U00016e60")  # letters Virtuoso's tokenizer takes for noise words only
async def test_no_text_breaks_a_live_query(request: pytest.FixtureRequest, engine_name: str, dialect: str,
                                           text: str) -> None:
    """Any user text gives a list of hits on live engines: never a syntax error, never a crash."""
    engine = request.getfixturevalue(engine_name)
    config = engine.endpoint(f"{engine_name}-hypothesis", "ck25", text_search=dialect,
                             label_predicates=(RDFS_LABEL, PV_NAME))
    endpoint = EndpointPool().get(config)
    try:
        hits = await search_labels(endpoint, text, limit=20)
    finally:
        await endpoint.close()
    assert isinstance(hits, list) and len(hits) <= 20


# --- detection ----------------------------------------------------------------------------------------


async def test_detects_virtuoso_and_caches_on_disk(virtuoso) -> None:  # type: ignore[no-untyped-def]
    config = virtuoso.endpoint("v-detect", "orkg")
    settings_cache.forget(config)
    endpoint = EndpointPool().get(config)
    try:
        detection = await detect_dialect(endpoint, [RDFS_LABEL])
        assert detection.dialect == "virtuoso" and not detection.cached
        assert "probed with" in detection.notes[0]
        again = await detect_dialect(endpoint, [RDFS_LABEL])
        assert again.cached and again.dialect == "virtuoso"
    finally:
        await endpoint.close()
    fresh_process = EndpointSettingsCache()
    assert fresh_process.get(config, "dialect")["dialect"] == "virtuoso"
    assert EndpointSettingsCache(ttl_s=0).get(config, "dialect") is None  # expired


async def test_detects_regex_on_oxigraph(oxigraph) -> None:  # type: ignore[no-untyped-def]
    config = oxigraph.endpoint("o-detect", "ck25")
    settings_cache.forget(config)
    endpoint = EndpointPool().get(config)
    try:
        profile = await endpoint.profile()
    finally:
        await endpoint.close()
    assert profile.dialect == "regex"
    assert any(note.startswith("virtuoso: ") for note in profile.notes)


async def test_configured_dialect_is_honoured_without_probing(oxigraph) -> None:  # type: ignore[no-untyped-def]
    endpoint = EndpointPool().get(oxigraph.endpoint("o-configured", "ck25", text_search="blazegraph"))
    try:
        detection = await detect_dialect(endpoint, [RDFS_LABEL])
    finally:
        await endpoint.close()
    assert detection.dialect == "blazegraph"
    assert "configuration" in detection.notes[0]


async def test_embedded_uses_the_label_index() -> None:
    endpoint = EndpointPool().get(EndpointConfig(name="demo-detect", url="embedded:"))
    assert (await detect_dialect(endpoint, [RDFS_LABEL])).dialect == "label-index"


# --- recorded responses of engines that cannot be installed here -------------------------------------


@dataclass
class RecordedEngine:
    """A 127.0.0.1 server replaying one engine's recorded answers: the `found` document for queries in
    that engine's syntax with the probe word, an empty result for every other syntax."""

    name: str
    data: dict
    marker: str
    url: str = ""
    queries: list[str] = field(default_factory=list)


MARKERS = {"jena": "text:query", "blazegraph": "bds:search", "qlever": "ql:contains-word",
           "graphdb": "luc:query", "stardog": "fts:textMatch"}


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def recorded() -> AsyncIterator[dict[str, RecordedEngine]]:
    engines = {name: RecordedEngine(name, json.loads((RECORDED / f"{name}.json").read_text()), marker)
               for name, marker in MARKERS.items()}
    runners = []
    for engine in engines.values():
        async def handle(request: web.Request, engine: RecordedEngine = engine) -> web.Response:
            form = await request.post() if request.method == "POST" else request.query
            query = str(form.get("query", ""))
            engine.queries.append(query)
            data = engine.data
            if "listConnectors" in query:
                body = data.get("connectors", data["not_found"])
            elif engine.marker in query and data["probe_word"] in query.lower():
                body = data["found"]
            elif "LIMIT 500" in query and "VALUES ?label" not in query:
                body = data["sample"]
            elif "SERVICE" in query and engine.name != "stardog":
                return web.Response(status=400, text="SERVICE to this IRI is not supported")
            else:
                body = data["not_found"]
            return web.json_response(body, content_type="application/sparql-results+json")

        app = web.Application()
        app.router.add_route("*", "/sparql", handle)
        runner = web.AppRunner(app)
        await runner.setup()
        port = free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        engine.url = f"http://127.0.0.1:{port}/sparql"
        runners.append(runner)
    yield engines
    for runner in runners:
        await runner.cleanup()


@pytest.mark.recorded
@pytest.mark.parametrize("name", sorted(MARKERS))
async def test_recorded_detection_found_and_not_found(recorded: dict[str, RecordedEngine], name: str) -> None:
    """Recorded responses (hand-written in the engine's documented JSON results format, since the
    engine cannot be installed here): detection picks the engine whose syntax found the label."""
    engine = recorded[name]
    endpoint = EndpointPool().get(EndpointConfig(name=f"recorded-{name}", url=engine.url))
    settings_cache.forget(endpoint.config)
    try:
        detection = await detect_dialect(endpoint, [RDFS_LABEL], use_cache=False)
    finally:
        await endpoint.close()
    expected = "graphdb:label_index" if name == "graphdb" else name
    assert detection.dialect == expected
    probe = engine.data["probe_word"]
    assert any(engine.marker in q and probe in q for q in engine.queries)
    tried = [n.split(":")[0] for n in detection.notes[1:]]
    assert all(other not in tried for other in MARKERS if other == name)


@pytest.mark.recorded
@pytest.mark.parametrize("name", sorted(MARKERS))
async def test_recorded_search_parses_hits(recorded: dict[str, RecordedEngine], name: str) -> None:
    """Recorded responses (hand-written, engine not installable here): hits parse into LabelHits."""
    engine = recorded[name]
    spec = "graphdb:label_index" if name == "graphdb" else name
    config = EndpointConfig(name=f"recorded-search-{name}", url=engine.url, text_search=spec,
                            label_predicates=(RDFS_LABEL,))
    endpoint = EndpointPool().get(config)
    try:
        hits = await endpoint.search(f"the {engine.data['probe_word']}", limit=10)
    finally:
        await endpoint.close()
    labels = [h.label for h in hits]
    assert {b["label"]["value"] for b in engine.data["found"]["results"]["bindings"]} <= set(labels)
    assert all(isinstance(h.entity, ox.NamedNode) for h in hits)


@pytest.mark.recorded
async def test_recorded_engine_that_finds_nothing_falls_back_to_regex(recorded: dict[str, RecordedEngine]) -> None:
    """Recorded responses (hand-written): an engine whose text syntax never finds the probe label."""
    engine = recorded["jena"]
    original = engine.data["found"]
    engine.data["found"] = engine.data["not_found"]
    endpoint = EndpointPool().get(EndpointConfig(name="recorded-none", url=engine.url))
    try:
        detection = await detect_dialect(endpoint, [RDFS_LABEL], use_cache=False)
    finally:
        engine.data["found"] = original
        await endpoint.close()
    assert detection.dialect == "regex"
    assert "jena: no hit" in detection.notes


@pytest.mark.recorded
def test_recorded_query_shapes_escape_for_each_syntax() -> None:
    """Query shapes for the engines known only from recorded responses (not installable here)."""
    request = SearchRequest(("c++", 'say"hi'), (RDFS_LABEL,), 30)
    jena = get_dialect("jena").build_query(request)
    assert 'text:query ("+c\\\\+\\\\+ +say\\\\\\"hi" 30)' in jena
    blazegraph = get_dialect("blazegraph").build_query(request)
    assert 'bds:search "c++ say\\"hi"' in blazegraph and 'bds:matchAllTerms "true"' in blazegraph
    qlever = get_dialect("qlever").build_query(request)
    assert "?text ql:contains-entity ?label" in qlever and 'ql:contains-word "c++ say\\"hi"' in qlever
    graphdb = get_dialect("graphdb:label_index").build_query(request)
    assert "<http://www.ontotext.com/connectors/lucene/instance#label_index>" in graphdb
    assert 'luc:query "+c\\\\+\\\\+ +say\\\\\\"hi"' in graphdb
    stardog = get_dialect("stardog").build_query(request)
    assert 'fts:query "c\\\\+\\\\+ AND say\\\\\\"hi"' in stardog and "fts:result ?label" in stardog
    for query in (jena, blazegraph, qlever, graphdb, stardog):
        parseQuery(query)


def test_graphdb_without_connector_name_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="connector"):
        GraphDbDialect().build_query(SearchRequest(("x1",), (RDFS_LABEL,), 5))


@pytest.fixture
def no_cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("KGQA_CACHE_DIR", str(tmp_path))
    yield tmp_path


def test_settings_cache_survives_a_new_process(no_cache_dir: Path) -> None:
    config = EndpointConfig(name="c", url="http://127.0.0.1:9/sparql")
    EndpointSettingsCache().put(config, "dialect", {"dialect": "qlever"})
    assert EndpointSettingsCache().get(config, "dialect") == {"dialect": "qlever"}
    assert list((no_cache_dir / "endpoints").glob("*.json"))
    other_graph = EndpointConfig(name="c", url="http://127.0.0.1:9/sparql", default_graph="http://g")
    assert EndpointSettingsCache().get(other_graph, "dialect") is None


async def test_search_errors_are_gateway_errors_not_groups() -> None:
    config = EndpointConfig(name="down", url=f"http://127.0.0.1:{free_port()}/sparql", text_search="virtuoso",
                            label_predicates=(RDFS_LABEL,), timeout_s=5)
    endpoint = EndpointPool().get(config)
    try:
        with pytest.raises(EndpointUnreachable):
            await endpoint.search("danish straits", limit=10)
    finally:
        await endpoint.close()
