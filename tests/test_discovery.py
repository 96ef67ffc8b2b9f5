"""Label discovery on real graphs (ck25, ORKG, a Spider4SPARQL graph without rdfs:label) on live
Virtuoso and Oxigraph, predicate descriptions, and label language preference."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest

from gateway.config import EndpointConfig
from gateway.discovery import (
    describe_predicates,
    discover_label_predicates,
    fetch_labels,
    local_name_words,
)
from gateway.endpoint import EndpointPool, LabelHit
from gateway.textsearch import settings_cache

RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
PV_NAME = "http://ld.company.org/prod-vocab/name"
ORKGP = "http://orkg.org/orkg/predicate/"


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KGQA_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "kgqa-cache-discovery"))


@pytest.fixture(params=["virtuoso", "oxigraph"])
def engine(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    return request.getfixturevalue(request.param)


@pytest.mark.parametrize("iri, words", [
    ("http://dbpedia.org/ontology/birthPlace", "birth place"),
    ("http://example.org/vocab#has_author", "has author"),
    ("http://example.org/vocab/date-of-birth", "date of birth"),
    ("http://example.org/vocab/ISBNNumber", "isbn number"),
    ("http://example.org/vocab/hasISBN13", "has isbn 13"),
    ("http://example.org/ns/population/", "population"),
    ("urn:example:totalArea", "total area"),
    ("http://example.org/x/caf%C3%A9Name", "café name"),
    ("http://valuenet/ontop/singer#song_release_year", "song release year"),
    ("http://www.w3.org/2003/01/geo/wgs84_pos#lat", "latitude"),  # a whole name that abbreviates a word
    ("http://www.w3.org/2003/01/geo/wgs84_pos#long", "longitude"),
    ("http://example.org/vocab/longName", "long name"),  # a word inside a name stays as it is
    ("http://valuenet/ontop/student#Fname", "first name"),  # schema abbreviations read as their words
    ("http://valuenet/ontop/museum#Num_of_Staff", "number of staff"),
    ("http://valuenet/ontop/employee#dept_no", "department number"),
    ("http://valuenet/ontop/flights#sourceairport", "source airport"),  # run-together names split
    ("http://valuenet/ontop/flights#destairport", "destination airport"),  # ... also around an abbreviation
    ("http://valuenet/ontop/flights#flightno", "flight number"),
    ("http://valuenet/ontop/pets#pettype", "pet type"),
    ("http://example.org/vocab/nationality", "nationality"),  # a word of the vocabulary stays whole
    ("http://example.org/vocab/noLabel", "no label"),  # "no" is a number only where it ends a name
])
def test_local_name_words(iri: str, words: str) -> None:
    assert local_name_words(iri) == words


@pytest.mark.parametrize("iri", ["http://www.wikidata.org/prop/direct/P227", "http://example.org/x/a", "http://e.org/#"])
def test_local_names_without_words(iri: str) -> None:
    assert local_name_words(iri) is None


async def test_ck25_label_predicates(engine) -> None:  # type: ignore[no-untyped-def]
    config = engine.endpoint(f"{engine.kind}-disc-ck25", "ck25")
    settings_cache.forget(config)
    endpoint = EndpointPool().get(config)
    try:
        predicates, notes = await discover_label_predicates(endpoint)
    finally:
        await endpoint.close()
    assert predicates[0] == RDFS_LABEL
    assert PV_NAME in predicates  # graph-specific: local name ends in "name", values are literals
    assert "http://www.w3.org/2000/01/rdf-schema#comment" not in predicates
    assert "http://www.w3.org/2004/02/skos/core#prefLabel" not in predicates  # not used by ck25
    assert notes[0].startswith("label predicates:")


async def test_orkg_label_predicates_and_descriptions(engine) -> None:  # type: ignore[no-untyped-def]
    config = engine.endpoint(f"{engine.kind}-disc-orkg", "orkg")
    settings_cache.forget(config)
    endpoint = EndpointPool().get(config)
    try:
        profile = await endpoint.profile()
        described = await endpoint.describe_predicates([
            ORKGP + "hasOrcid", ORKGP + "evaluationSubProperty", ORKGP + "noLabelHereAtAll",
            "http://www.wikidata.org/prop/direct/P227",
        ])
    finally:
        await endpoint.close()
    assert profile.label_predicates == (RDFS_LABEL,)
    assert described[ORKGP + "hasOrcid"] == "Has ORCID"  # from the graph's label
    assert described[ORKGP + "evaluationSubProperty"] == "Evaluation Sub-Property"
    assert described[ORKGP + "noLabelHereAtAll"] == "no label here at all"  # from the local name
    assert "http://www.wikidata.org/prop/direct/P227" not in described


async def _discovered_and_searched(config: EndpointConfig, words: str) -> tuple[tuple[str, ...], list[str], list[LabelHit]]:
    """The label predicates discovered on a fresh endpoint, how, and a text search for `words` there."""
    endpoint = EndpointPool().get(config)
    try:
        predicates, notes = await discover_label_predicates(endpoint)
        return predicates, notes, await endpoint.search(words, limit=10)
    finally:
        await endpoint.close()


async def test_graph_without_rdfs_label_finds_its_name_predicates(virtuoso) -> None:  # type: ignore[no-untyped-def]
    config = virtuoso.endpoint("v-disc-concert", "concert_singer")
    settings_cache.forget(config)
    predicates, _, hits = await _discovered_and_searched(config, "Joe Sharp")
    assert "http://valuenet/ontop/singer#name" in predicates
    assert "http://valuenet/ontop/stadium#name" in predicates
    assert RDFS_LABEL not in predicates
    assert any(h.label == "Joe Sharp" for h in hits)


async def test_a_column_named_as_its_table_names_the_rows() -> None:
    """Spider's course table names its rows in `course#course` ("Math"): a label predicate, so that
    text search finds the course by that name, as it finds a teacher by `teacher#name`."""
    from conftest import SPIDER

    config = EndpointConfig(name="course-teach-disc", url=f"embedded:{SPIDER / 'course_teach.ttl'}")
    predicates, notes, hits = await _discovered_and_searched(config, "Math")
    assert "http://valuenet/ontop/course#course" in predicates and "http://valuenet/ontop/teacher#name" in predicates
    assert "http://valuenet/ontop/course#course_id" not in predicates
    assert [h.entity.value for h in hits if h.label == "Math"] == ["http://valuenet/ontop/course/course_id=2"]
    assert "as their table" in notes[0]


async def test_configured_label_predicates_are_honoured(oxigraph) -> None:  # type: ignore[no-untyped-def]
    config = oxigraph.endpoint("o-disc-configured", "ck25", label_predicates=(PV_NAME,))
    endpoint = EndpointPool().get(config)
    try:
        profile = await endpoint.profile()
    finally:
        await endpoint.close()
    assert profile.label_predicates == (PV_NAME,)
    assert "from the configuration" in profile.notes[0]


async def test_fetch_labels_batches_real_iris(engine) -> None:  # type: ignore[no-untyped-def]
    endpoint = EndpointPool().get(engine.endpoint(f"{engine.kind}-labels", "ck25"))
    try:
        result = await endpoint.sparql.select(
            f"SELECT ?s ?l WHERE {{ ?s <{RDFS_LABEL}> ?l }} ORDER BY ?s LIMIT 120")
        iris = [row["s"].value for row in result]
        labels = await fetch_labels(endpoint, [*iris, "http://example.org/unlabelled"])
    finally:
        await endpoint.close()
    assert len(iris) == 120  # more than one batch
    assert set(labels) == set(iris)
    assert "http://example.org/unlabelled" not in labels


LANGUAGES_TTL = """@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
<http://ex.org/a> rdfs:label "Munich"@en , "München"@de , "Monaco di Baviera"@it .
<http://ex.org/b> rdfs:label "Köln"@de , "Cologne" .
<http://ex.org/c> rdfs:label "Wien"@de .
<http://ex.org/d> skos:prefLabel "Preferred" ; rdfs:label "Label"@de .
<http://ex.org/e> rdfs:label "Name with > and spaces" .
"""


async def test_label_language_preference(tmp_path: Path) -> None:
    graph = tmp_path / "languages.ttl"
    graph.write_text(LANGUAGES_TTL, encoding="utf-8")
    endpoint = EndpointPool().get(EndpointConfig(name="langs", url=f"embedded:{graph}", language="en"))
    labels = await fetch_labels(endpoint, ["http://ex.org/a", "http://ex.org/b", "http://ex.org/c", "http://ex.org/d",
                                           "http://ex.org/e", "http://ex.org/none"],
                                predicates=(RDFS_LABEL, "http://www.w3.org/2004/02/skos/core#prefLabel"))
    assert labels["http://ex.org/a"] == "Munich"  # the configured language
    assert labels["http://ex.org/b"] == "Cologne"  # then no language tag
    assert labels["http://ex.org/c"] == "Wien"  # then any
    assert labels["http://ex.org/d"] == "Preferred"  # untagged beats another language
    assert labels["http://ex.org/e"] == "Name with > and spaces"
    assert "http://ex.org/none" not in labels
    assert await endpoint.labels([ox.NamedNode("http://ex.org/a")]) == {"http://ex.org/a": "Munich"}


async def test_describe_predicates_of_the_demo_graph() -> None:
    endpoint = EndpointPool().get(EndpointConfig(name="demo-describe", url="embedded:"))
    ont = "http://kgqa.local/demo/ontology/"
    described = await describe_predicates(endpoint, [ont + "officialLanguage", ont + "currency",
                                                     "http://example.org/vocab/capitalCity"])
    assert described == {ont + "officialLanguage": "official language", ont + "currency": "currency",
                         "http://example.org/vocab/capitalCity": "capital city"}
