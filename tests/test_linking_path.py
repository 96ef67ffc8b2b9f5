"""The KGQAN path end to end: `Gateway.ask` on the embedded demo graph and on Virtuoso, evidence shape,
answer-type filtering, and ranked generation for the proxy. Questions here are our own."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import replace

import pyoxigraph as ox
import pytest
from conftest import open_endpoint

from gateway.config import EndpointConfig, EndpointRegistry
from gateway.endpoint import Endpoint, EndpointPool
from gateway.qa import AskOptions, Gateway
from gateway.textsearch import settings_cache
from linking import KgqanPath
from linking.affinity import default_scorer
from linking.filtering import VALUES_FOR_THING_PENALTY, AnswerTypeFilter
from linking.path import (
    _IDS_ASKED,
    _asks_every_node,
    _asks_for_kind,
    _asks_for_things,
    _drops_a_name_asked_about,
    _drops_a_negation,
    _echoes_its_names,
    _keeps_only_the_class,
    _named_tail,
    linked_through_one,
    role_record_reading,
    with_counted_kind_reading,
    with_demonym_kinds,
    with_sex_kinds,
)
from understanding.demonyms import country_of
from understanding.pgp import AnswerKind, AnswerType, PhraseGraphPattern, UnderstoodQuestion

PV = "http://ld.company.org/prod-vocab/"
FRANZ = "http://ld.company.org/prod-instances/empl-Franz.Kornhaeusel%40company.org"
KGQAN_ONLY = AskOptions(paths=("kgqan",), timeout_s=120)


def understood(text: str, answer_type: AnswerType) -> UnderstoodQuestion:
    return UnderstoodQuestion("hand-written", PhraseGraphPattern.from_text(text), answer_type, "hand-written")


@pytest.fixture(scope="module")
async def ck25(virtuoso) -> AsyncIterator[Endpoint]:  # noqa: ANN001
    async with open_endpoint(virtuoso, "ck25-path", "ck25") as endpoint:
        yield endpoint


@pytest.fixture(scope="module")
def path() -> KgqanPath:
    return KgqanPath()


def test_datatype_and_semantic_filters() -> None:
    filtering = AnswerTypeFilter(default_scorer())
    xsd = "http://www.w3.org/2001/XMLSchema#"
    answers = [ox.Literal("2001-05-04", datatype=ox.NamedNode(xsd + "date")), ox.Literal("42"), ox.NamedNode("http://x/a")]
    dates = filtering.filter(answers, AnswerType(AnswerKind.DATE))
    assert [a.value for a in dates.kept] == ["2001-05-04"] and dates.removed == 2 and dates.matched
    numbers = filtering.filter(answers, AnswerType(AnswerKind.NUMBER))
    assert [a.value for a in numbers.kept] == ["42"]
    assert not filtering.filter([ox.NamedNode("http://x/a")], AnswerType(AnswerKind.BOOLEAN)).matched
    people = [ox.NamedNode("http://x/ann"), ox.NamedNode("http://x/oslo"), ox.NamedNode("http://x/untyped")]
    types = {"http://x/ann": ["http://x/Person"], "http://x/oslo": ["http://x/City"]}
    outcome = filtering.filter(people, AnswerType(AnswerKind.RESOURCE, "persons"), types)
    assert [a.value for a in outcome.kept] == ["http://x/ann", "http://x/untyped"] and "persons" in outcome.reason
    firms = [ox.NamedNode("http://x/acme"), ox.NamedNode("http://x/bolt")]
    types = {"http://x/acme": ["http://x/Supplier"], "http://x/bolt": ["http://x/Product"]}
    vendors = filtering.filter(firms, AnswerType(AnswerKind.RESOURCE, "vendors"), types)
    assert [a.value for a in vendors.kept] == ["http://x/acme"]  # a synonym of the class's word fits
    services = [ox.NamedNode("http://x/repair"), ox.NamedNode("http://x/sensor")]
    types = {"http://x/repair": ["http://x/Service"], "http://x/sensor": ["http://x/Hardware"]}
    asked = filtering.filter(services, AnswerType(AnswerKind.STRING, "services"), types, named=True, asked_by_kind=True)
    assert [a.value for a in asked.kept] == ["http://x/repair"]  # "Which services is X responsible for?"
    # "Which airline has the most flights?": numbers the graph types so are a thing's keys, not its name
    integer = ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")
    keys = [ox.Literal("12", datatype=integer), ox.Literal("3", datatype=integer)]
    keyed = filtering.filter(keys, AnswerType(AnswerKind.STRING, "airline"), keys_unfit=True)
    assert not keyed.matched and keyed.penalty == VALUES_FOR_THING_PENALTY
    assert filtering.filter(keys, AnswerType(AnswerKind.STRING, "airline")).matched  # not one thing asked by its kind
    assert filtering.filter(keys, AnswerType(AnswerKind.STRING, "id"), keys_unfit=True).matched  # a value word
    assert filtering.filter(keys, AnswerType(AnswerKind.STRING, "area codes"), keys_unfit=True).matched
    assert filtering.filter([ox.Literal("12")], AnswerType(AnswerKind.STRING, "airline"), keys_unfit=True).matched
    owned = filtering.filter(services, AnswerType(AnswerKind.STRING, "services"), types, named=True)
    assert owned.kept == services  # a string's semantic type may be its owner's class: not checked
    flags = [ox.Literal("True"), ox.Literal("False")]  # ORKG's "provides replication package"
    for kind in (AnswerKind.STRING, AnswerKind.RESOURCE):
        flagged = filtering.filter(flags, AnswerType(kind))
        assert not flagged.matched and flagged.penalty > 0.08 and "yes/no" in flagged.reason
    assert filtering.filter(flags, AnswerType(AnswerKind.BOOLEAN)).matched
    assert filtering.filter([*flags, ox.Literal("a link")], AnswerType(AnswerKind.STRING)).matched
    # where a thing is asked for, a year names none: it costs more than things of another class, a name less
    venues = filtering.filter([ox.NamedNode("http://x/icsa")], AnswerType(AnswerKind.RESOURCE, "conference"),
                              {"http://x/icsa": ["http://x/Venue"]})
    year = filtering.filter([ox.Literal("2020")], AnswerType(AnswerKind.RESOURCE, "conference"))
    name = filtering.filter([ox.Literal("ICSA 2020")], AnswerType(AnswerKind.RESOURCE, "conference"))
    assert not venues.matched and not year.matched and not name.matched
    assert name.penalty < venues.penalty < year.penalty


@pytest.mark.parametrize(("question", "asked"), [
    ("Which services is the Marketing department responsible for?", True),
    ("Show me the services the Marketing department is responsible for.", True),
    ("List all services that Marketing is responsible for", True),
    ("Which email does the head of services have?", False),
    ("Show me the email of the services manager", False),
])
def test_questions_that_ask_for_a_kind(question: str, asked: bool) -> None:
    assert _asks_for_kind(question, "services") is asked


async def test_answers_with_evidence_on_virtuoso(path: KgqanPath, ck25: Endpoint) -> None:
    result = await path.answer_understood(
        understood("list :: ?u1 | product manager | Franz Kornhaeusel", AnswerType(AnswerKind.RESOURCE)),
        ck25, KGQAN_ONLY)
    assert result.status.value == "ok" and result.answers
    assert all(a.kind == "iri" and a.label for a in result.answers)  # answers carry their labels
    evidence = result.to_dict()["evidence"]
    assert evidence["entities"][0]["candidates"][0]["iri"] == FRANZ
    relation = evidence["relations"][0]["candidates"][0]
    assert relation["iri"] == PV + "hasProductManager" and relation["direction"] == "in"
    best = evidence["queries"][0]
    assert best["status"] == "match" and best["answer_var"] == "?unknown1" and "?unknown1" in best["pattern"]
    assert evidence["sparql"] == best["sparql"]
    assert set(result.timings_ms) >= {"linking", "execution", "filtering"}
    assert 0 < result.sparql_requests < 30
    rerun = await ck25.sparql.select(evidence["sparql"])
    assert {t.value for t in rerun.column("unknown1")} == {a.value for a in result.answers}


async def test_type_filter_prefers_a_query_whose_answers_fit(path: KgqanPath, ck25: Endpoint) -> None:
    # "the phone of Franz Kornhaeusel" as a number question: the phone literal "(02065) 4946239" is no number
    result = await path.answer_understood(
        understood("list :: Franz Kornhaeusel | phone | ?u1", AnswerType(AnswerKind.STRING)), ck25, KGQAN_ONLY)
    assert [a.value for a in result.answers] == ["(02065) 4946239"]
    as_date = await path.answer_understood(
        understood("list :: Franz Kornhaeusel | phone | ?u1", AnswerType(AnswerKind.DATE)), ck25,
        AskOptions(paths=("kgqan",), max_queries=1))
    assert as_date.notes and "expected type" in as_date.notes[0]


async def test_unknown_names_give_no_answer_rather_than_a_wrong_one(path: KgqanPath, ck25: Endpoint) -> None:
    result = await path.answer_understood(
        understood("list :: ?u1 | product manager | Qwxyzzy Plonkovitch", AnswerType(AnswerKind.RESOURCE)),
        ck25, KGQAN_ONLY)
    assert result.answers == [] and result.status.value == "ok"
    assert "no graph term matches" in result.notes[0]
    asked = await path.answer_understood(
        understood("boolean :: ?u1 | product manager | Qwxyzzy Plonkovitch", AnswerType(AnswerKind.BOOLEAN)),
        ck25, KGQAN_ONLY)
    assert [a.value for a in asked.answers] == ["false"]  # "Is there ...?" about a thing the graph lacks: no


@pytest.fixture(scope="module")
async def concert(virtuoso) -> AsyncIterator[Endpoint]:  # noqa: ANN001
    async with open_endpoint(virtuoso, "concert-path", "concert_singer") as endpoint:
        yield endpoint


async def test_a_value_leads_to_the_answer_through_the_thing_that_holds_it(path: KgqanPath,
                                                                           concert: Endpoint) -> None:
    # "Which song does the singer from the Netherlands sing?": the country is a plain attribute value
    result = await path.answer_understood(
        understood("list :: ?u1 | song | Netherlands", AnswerType(AnswerKind.STRING)), concert, KGQAN_ONLY)
    assert [a.value for a in result.answers] == ["You"]
    assert "?kgqaHolder" in result.evidence.sparql
    relation = result.to_dict()["evidence"]["relations"][0]["candidates"][0]
    assert relation["through"].endswith("singer#country")


@pytest.mark.parametrize(("pattern", "semantic", "expected"), [
    # "the department of the product manager of M770-3602005": ?u2 is the code holder's product manager
    ("list :: ?u1 | department | ?u2 ; ?u2 | product manager | M770-3602005", None,
     "http://ld.company.org/prod-instances/dept-73191"),
    # "the city of the product Z763-7274829's supplier": "product" is the holder's class, ?u2 the holder itself
    ("list :: ?u1 | city | ?u2 ; ?u2 | product | Z763-7274829", "city", "Neuwied"),
])
async def test_an_unknown_next_to_a_values_holder_is_sampled_there(path: KgqanPath, ck25: Endpoint, pattern: str,
                                                                   semantic: str | None, expected: str) -> None:
    result = await path.answer_understood(
        understood(pattern, AnswerType(AnswerKind.RESOURCE, semantic)), ck25, KGQAN_ONLY)
    assert [a.value for a in result.answers] == [expected]


@pytest.mark.parametrize(("other", "expected"), [("Y728-2083256", "true"), ("Z763-7274829", "false")])
async def test_two_codes_found_as_values_are_compared_through_their_holders(path: KgqanPath, ck25: Endpoint,
                                                                            other: str, expected: str) -> None:
    # "Is C247-3833661 compatible with ...?": the codes are `id` values; BOM parts have look-alike labels
    result = await path.answer_understood(
        understood(f"boolean :: C247-3833661 | compatible with | {other}", AnswerType(AnswerKind.BOOLEAN)),
        ck25, KGQAN_ONLY)
    assert [a.value for a in result.answers] == [expected]
    assert "hw-C247-3833661> <http://ld.company.org/prod-vocab/compatibleProduct>" in result.evidence.sparql


async def test_a_vertex_leads_to_the_answer_through_an_intermediate_node(path: KgqanPath, virtuoso) -> None:  # noqa: ANN001
    # ORKG hangs a paper's facts off its contribution node: paper -contribution-> ?c -researchObject-> answer
    async with open_endpoint(virtuoso, "orkg-path", "orkg") as orkg:
        result = await path.answer_understood(
            understood("list :: ?u1 | research object | Aligning Architecture with Business Goals in the Automotive Domain",
                       AnswerType(AnswerKind.STRING)), orkg, KGQAN_ONLY)
    assert [a.value for a in result.answers] == ["Architecture Design Method"]
    # a paper's authors are one "authors list" node (an orkg List): its members are the answer
    async with open_endpoint(virtuoso, "orkg-path-authors", "orkg") as orkg:
        authors = await path.answer_understood(
            understood("list :: ?u1 | authors | Aligning Architecture with Business Goals in the Automotive Domain",
                       AnswerType(AnswerKind.RESOURCE)), orkg, KGQAN_ONLY)
        truth = await orkg.sparql.select(
            'SELECT ?a WHERE { ?p <http://www.w3.org/2000/01/rdf-schema#label> '
            '"Aligning Architecture with Business Goals in the Automotive Domain" ; '
            '<http://orkg.org/orkg/predicate/authors>/<http://orkg.org/orkg/predicate/hasListElement> ?a }')
    assert truth.rows and {a.value for a in authors.answers} == {t.value for t in truth.column("a")}
    assert "predicate/contribution> ?kgqaVia0 . ?kgqaVia0 <http://orkg.org/orkg/predicate/researchObject>" in \
        result.evidence.sparql
    assert result.sparql_requests < 30


async def test_a_containers_members_are_counted_and_ranked(path: KgqanPath, virtuoso) -> None:  # noqa: ANN001
    # "How many authors does X have?": the members of the paper's one authors List, not the list
    title = "Aligning Architecture with Business Goals in the Automotive Domain"
    async with open_endpoint(virtuoso, "orkg-path-members", "orkg") as orkg:
        assert await orkg.member_predicate("http://orkg.org/orkg/class/List") == \
            "http://orkg.org/orkg/predicate/hasListElement"
        counted = await path.answer_understood(
            understood(f"count :: ?u1 | authors | {title}", AnswerType(AnswerKind.NUMBER)), orkg, KGQAN_ONLY)
        truth = await orkg.sparql.select(
            f'SELECT (COUNT(?a) AS ?n) WHERE {{ ?p <http://www.w3.org/2000/01/rdf-schema#label> "{title}" ; '
            '<http://orkg.org/orkg/predicate/authors>/<http://orkg.org/orkg/predicate/hasListElement> ?a }')
        most = await path.answer_understood(
            understood("list :: ?u1 | is a | paper ; ?u1 | authors | ?u2 :: order count ?u2 desc 1",
                       AnswerType(AnswerKind.RESOURCE, "paper")), orkg, KGQAN_ONLY)
        longest = await orkg.sparql.select(
            "SELECT ?p WHERE { ?p a <http://orkg.org/orkg/class/Paper> ; <http://orkg.org/orkg/predicate/authors>/"
            "<http://orkg.org/orkg/predicate/hasListElement> ?a } GROUP BY ?p ORDER BY DESC(COUNT(?a)) LIMIT 1")
        many = await path.answer_understood(
            understood("count :: ?u1 | is a | papers ; ?u1 | authors | ?u2 :: filter ?u2 >= 5",
                       AnswerType(AnswerKind.NUMBER)), orkg, KGQAN_ONLY)  # a number compared with members counts them
        at_least_five = await orkg.sparql.select(
            "SELECT (COUNT(*) AS ?n) WHERE { { SELECT ?p WHERE { ?p a <http://orkg.org/orkg/class/Paper> ; "
            "<http://orkg.org/orkg/predicate/authors>/<http://orkg.org/orkg/predicate/hasListElement> ?a } GROUP BY ?p "
            "HAVING(COUNT(DISTINCT ?a) >= 5) } }")
    assert int(truth.rows[0]["n"].value) > 1 and [a.value for a in counted.answers] == [truth.rows[0]["n"].value]
    assert [a.value for a in most.answers] == [longest.rows[0]["p"].value]
    assert [a.value for a in many.answers] == [at_least_five.rows[0]["n"].value]


async def test_several_aggregates_of_the_same_values_answer_together(path: KgqanPath, concert: Endpoint) -> None:
    """"What are the average, minimum and maximum ages of singers from France?": one query, the average as the
    answer and the minimum and maximum beside it, each named by its aggregate."""
    result = await path.answer_understood(
        understood("avg :: ?u1 | ages | ?u2 ; ?u2 | is a | singers ; ?u2 | from | France :: also min max",
                   AnswerType(AnswerKind.NUMBER)), concert, KGQAN_ONLY)
    truth = await concert.sparql.select(
        'SELECT (AVG(?a) AS ?avg) (MIN(?a) AS ?min) (MAX(?a) AS ?max) WHERE { ?s <http://valuenet/ontop/singer#country> '
        '"France" ; <http://valuenet/ontop/singer#age> ?a }')
    row = truth.rows[0]
    assert len(result.answers) == 1 and float(result.answers[0].value) == float(row["avg"].value)
    assert {c: float(a.value) for c, a in result.answers[0].row} == {"min": float(row["min"].value),
                                                                     "max": float(row["max"].value)}


async def test_a_named_node_that_names_a_class_is_read_as_its_members(path: KgqanPath, concert: Endpoint) -> None:
    # imperfect patterns put the class where a name would be: "the average age of singers"
    result = await path.answer_understood(
        understood("avg :: ?u1 | age | singers", AnswerType(AnswerKind.NUMBER)), concert, KGQAN_ONLY)
    assert [a.value for a in result.answers] == ["37"]
    assert "<http://valuenet/ontop/singer#age>" in result.evidence.sparql


async def test_count_of_a_stored_number_is_the_number(path: KgqanPath, concert: Endpoint) -> None:
    # "How many people fit in Balmoor?": the graph stores the capacity; counting its one value would say 1
    result = await path.answer_understood(
        understood("count :: ?u1 | capacity | Balmoor", AnswerType(AnswerKind.NUMBER)), concert, KGQAN_ONLY)
    assert [a.value for a in result.answers] == ["4000"]
    singers = await path.answer_understood(
        understood("count :: ?u1 | is a | singers", AnswerType(AnswerKind.NUMBER)), concert, KGQAN_ONLY)
    assert [a.value for a in singers.answers] == ["6"]


async def test_a_class_phrase_that_names_one_thing_is_read_as_that_thing(path: KgqanPath, ck25: Endpoint) -> None:
    # imperfect patterns say "?u2 is a Network Dipole" for "the Network Dipole" (a product, not a class)
    result = await path.answer_understood(
        understood("list :: ?u1 | reliability index | ?u2 ; ?u2 | is a | Network Dipole", AnswerType(AnswerKind.NUMBER)),
        ck25, KGQAN_ONLY)
    assert [a.value for a in result.answers] == ["0.768"]
    assert "VALUES ?unknown2 {" in result.evidence.sparql


async def test_a_relation_phrase_that_names_a_class_reads_as_membership(path: KgqanPath, ck25: Endpoint) -> None:
    # imperfect patterns say "?u1 | services | ?u2" for "How many services are there?"
    result = await path.answer_understood(
        understood("count :: ?u1 | services | ?u2", AnswerType(AnswerKind.NUMBER)), ck25, KGQAN_ONLY)
    rows = await ck25.sparql.select(f"SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE {{ ?s a <{PV}Service> }}")
    assert [a.value for a in result.answers] == [rows.rows[0]["n"].value]
    assert f"?unknown1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{PV}Service>" in result.evidence.sparql


@pytest.mark.parametrize(("thing", "truth"), [
    # "List the products supplied by Estes, Johnston and Richardson.": no predicate of the supplier is
    # called "products"; the one whose other end is a product (Hardware) links them
    ("Estes, Johnston and Richardson", f'?h <{PV}hasSupplier>/<{PV}name> "Estes, Johnston and Richardson"'),
    # "Which products are compatible with the Phase Sensor Crystal?": `compatibleProduct` fits the phrase
    # itself, so the services `eligibleFor` it (also products) are not read as an answer
    ("Phase Sensor Crystal", f'?p <{PV}name> "Phase Sensor Crystal" ; <{PV}compatibleProduct> ?h'),
])
async def test_a_relation_phrase_naming_the_answers_class_links_through_any_predicate_to_it(
        path: KgqanPath, ck25: Endpoint, thing: str, truth: str) -> None:
    result = await path.answer_understood(understood(f"list :: ?u1 | products | {thing}", AnswerType(AnswerKind.RESOURCE)),
                                          ck25, KGQAN_ONLY)
    expected = (await ck25.sparql.select(f"SELECT DISTINCT ?h WHERE {{ {truth} }}")).column("h")
    assert expected and sorted(a.value for a in result.answers) == sorted(t.value for t in expected)

@pytest.mark.parametrize(("pattern", "category", "attribute", "bound"), [
    # ck25 has no class Sensor: "sensors" are the products in the category Sensor
    ("list :: ?u1 | is a | sensors ; ?u1 | weigh | ?u2 :: filter ?u2 > 18", "Sensor", "weight_g", 18),
    # "Which Resistors are taller than 75 mm?": no thing is named "Resistors"; the category Resistor is
    ("list :: ?u1 | is a | Resistors ; ?u1 | taller | ?u2 :: filter ?u2 > 75", "Resistor", "height_mm", 75),
    # "sensor hardware": the class Hardware leaves "sensor", which names the category its members link to
    ("list :: ?u1 | is a | sensor hardware ; ?u1 | weigh | ?u2 :: filter ?u2 > 18", "Sensor", "weight_g", 18),
])
async def test_a_class_phrase_no_class_fits_reads_as_what_its_members_link_to(
        path: KgqanPath, ck25: Endpoint, pattern: str, category: str, attribute: str, bound: int) -> None:
    result = await path.answer_understood(understood(pattern, AnswerType(AnswerKind.RESOURCE)), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?h WHERE {{ ?h <{PV}hasCategory>/<http://www.w3.org/2000/01/rdf-schema#label> "
                                     f'"{category}" ; <{PV}{attribute}> ?v FILTER(?v > {bound}) }}')
    assert sorted(a.value for a in result.answers) == sorted(r["h"].value for r in truth.rows) and truth.rows
    assert f"<{PV}hasCategory> <http://ld.company.org/prod-instances/prod-cat-{category}>" in result.evidence.sparql


async def test_the_next_reading_that_names_a_left_out_class_answers(path: KgqanPath, ck25: Endpoint) -> None:
    """"What is the cheapest service?": the best reading leaves out "service" and finds the cheapest of
    everything priced; the next reading, the same and `?u2 | is a | service`, fits as well and answers."""
    best = replace(understood("list :: ?u1 | cheapest | ?u2 :: order ?u2 asc 1", AnswerType(AnswerKind.RESOURCE)),
                   alternatives=(PhraseGraphPattern.from_text(
                       "list :: ?u1 | cheapest | ?u2 ; ?u2 | is a | service :: order ?u2 asc 1"),))
    # what the endpoint's first question alone pays (discovery, the class list), as any later question finds it
    await ck25.profile()
    await path.entity_linker.classes(ck25)
    result = await path.answer_readings(best, ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?s WHERE {{ ?s a <{PV}Service> ; <{PV}price>/<{PV}amount> ?a }} "
                                     "ORDER BY ?a LIMIT 1")
    assert [a.value for a in result.answers] == [truth.rows[0]["s"].value]
    assert "leaves out the class" in result.notes[0] and result.sparql_requests < 30


async def test_a_class_adding_reading_with_the_same_answers_leaves_the_best_one(path: KgqanPath, ck25: Endpoint) -> None:
    best = replace(understood("list :: ?u1 | product manager | Franz Kornhaeusel", AnswerType(AnswerKind.RESOURCE)),
                   alternatives=(PhraseGraphPattern.from_text(
                       "list :: ?u1 | is a | products ; ?u1 | product manager | Franz Kornhaeusel"),))
    alone = await path.answer_understood(best, ck25, KGQAN_ONLY)
    result = await path.answer_readings(best, ck25, KGQAN_ONLY)
    assert alone.answers and {a.value for a in result.answers} == {a.value for a in alone.answers}
    assert not any("reading" in n for n in result.notes)
    assert result.to_dict()["evidence"]["understanding"]["pattern"] == "list :: ?u1 | product manager | Franz Kornhaeusel"


async def test_a_name_the_model_split_is_one_name_when_the_graph_has_it(ck25: Endpoint) -> None:
    # a model that reads "A, B and C" as a list and keeps only its first part
    split = FixedReadings(lambda q: f"count :: ?u1 | is a | products ; ?u1 | supplied by | {q.split(' by ')[1].split(',')[0]}",
                          kind=AnswerKind.NUMBER)
    result = await split.answer("How many products are supplied by Horton, Sims and Pacheco?", ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT (COUNT(DISTINCT ?h) AS ?n) WHERE {{ ?h <{PV}hasSupplier>/<{PV}name> "
                                     '"Horton, Sims and Pacheco" }')
    assert [a.value for a in result.answers] == [truth.rows[0]["n"].value]
    assert result.to_dict()["evidence"]["understanding"]["pattern"].endswith("supplied by | Horton, Sims and Pacheco")
    # the SPARQL proxy and TEXT2SPARQL read it whole too: "Boyd" alone would be one of three firms
    firms = await ck25.sparql.select(f'SELECT ?n ?s WHERE {{ ?s <{PV}name> ?n FILTER(STRSTARTS(?n, "Boyd, ")) }}')
    assert len(firms.rows) > 1
    generated = await split.generate("How many products are supplied by Boyd, Berg and Sampson?", ck25, KGQAN_ONLY)
    assert all((row["s"].value in generated[0].sparql) == (row["n"].value == "Boyd, Berg and Sampson")
               for row in firms.rows)
    listed = await split.answer("How many products are supplied by Germany, Italy and France?", ck25, KGQAN_ONLY)
    assert listed.to_dict()["evidence"]["understanding"]["pattern"].endswith("supplied by | Germany")  # no such thing


async def test_ordering_by_a_thing_goes_on_to_its_numeric_value(path: KgqanPath, ck25: Endpoint) -> None:
    # "the most expensive service": pv:price leads to a price node; its pv:amount is what is ordered
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | services ; ?u1 | price | ?u2 :: order ?u2 desc 1", AnswerType(AnswerKind.RESOURCE)),
        ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?s WHERE {{ ?s a <{PV}Service> ; <{PV}price>/<{PV}amount> ?a }} "
                                     "ORDER BY DESC(?a) LIMIT 1")
    assert [a.value for a in result.answers] == [truth.rows[0]["s"].value]
    assert f"<{PV}price> ?kgqaVia1 . ?kgqaVia1 <{PV}amount> ?unknown2" in result.evidence.sparql
    assert result.sparql_requests < 30


async def test_a_peoples_adjective_is_linked_as_its_country(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which products come from French suppliers?": "French" names nothing in the graph, France does."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | products ; ?u1 | supplier | French", AnswerType(AnswerKind.RESOURCE, "products")),
        ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT DISTINCT ?p WHERE {{ ?p <{PV}hasSupplier>/<{PV}addressCountry> "France" }}')
    assert truth.rows and {a.value for a in result.answers} == {r["p"].value for r in truth.rows}
    assert country_of("Swiss") == "Switzerland" and country_of("Germans") == "Germany" and country_of("Cooper") is None
    assert country_of("UK") == "United Kingdom" and country_of("U.S.") == "United States"  # short names too
    # so is the name ending a phrase of lower-case words ("the bill of material AeroVibe Matrix")
    assert _named_tail("material AeroVibe Matrix") == "AeroVibe Matrix" and _named_tail("AeroVibe Matrix") is None


async def test_records_asked_for_by_their_word_answer_with_the_thing_they_record(path: KgqanPath,
                                                                                    ck25: Endpoint) -> None:
    """A bill of material's parts are `BomPart` records, each with a quantity and `hasPart` the hardware:
    "Which parts ..." asks for the hardware."""
    question = "Which parts of the AeroVibe Matrix are needed in a quantity of more than 70?"
    pattern = PhraseGraphPattern.from_text("list :: ?u1 | parts | AeroVibe Matrix ; ?u1 | quantity | ?u2 :: filter ?u2 > 70")
    asked = UnderstoodQuestion(question, pattern, AnswerType(AnswerKind.RESOURCE), "hand-written")
    result = await path.answer_understood(asked, ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(
        f'SELECT DISTINCT ?h WHERE {{ ?b <{PV}name> "AeroVibe Matrix" ; <{PV}hasBomPart> ?r . ?r <{PV}hasPart> ?h ; '
        f'<{PV}quantity> ?q FILTER(xsd:integer(?q) > 70) }}'.replace("xsd:integer", "<http://www.w3.org/2001/XMLSchema#integer>"))
    assert truth.rows and {a.value for a in result.answers} == {r["h"].value for r in truth.rows}
    # the hardware each record holds, with the record's quantity (`held_by_records`) or the record class's
    # link to what it records
    assert f"?kgqaVia0 <{PV}hasPart> ?unknown1 . ?kgqaVia0 <{PV}quantity> ?unknown2" in result.evidence.sparql or \
        f"<{PV}hasPart> ?kgqaRecorded" in result.evidence.sparql
    # asked by two words whose last is the record's word ("Which hardware part of ..."), ordered
    smallest = UnderstoodQuestion(
        "Which hardware part of the AeroVibe Matrix is needed in the smallest quantity?",
        PhraseGraphPattern.from_text("list :: ?u1 | hardware part | AeroVibe Matrix ; ?u1 | quantity | ?u2 :: order ?u2 asc 1"),
        AnswerType(AnswerKind.RESOURCE), "hand-written")
    ordered = await path.answer_understood(smallest, ck25, KGQAN_ONLY)
    least = await ck25.sparql.select(
        f'SELECT ?h WHERE {{ ?b <{PV}name> "AeroVibe Matrix" ; <{PV}hasBomPart> ?r . ?r <{PV}hasPart> ?h ; '
        f'<{PV}quantity> ?q }} ORDER BY ASC(<http://www.w3.org/2001/XMLSchema#integer>(?q)) LIMIT 1')
    assert [a.value for a in ordered.answers] == [least.rows[0]["h"].value]
    # asked by a synonym of the record's word ("Which component ...")
    component = UnderstoodQuestion(
        "Which component in AeroVibe Matrix has the smallest quantity?",
        PhraseGraphPattern.from_text("list :: ?u1 | is a | component ; ?u1 | in | AeroVibe Matrix ; ?u1 | quantity | ?u2 "
                                     ":: order ?u2 asc 1"), AnswerType(AnswerKind.RESOURCE), "hand-written")
    assert [a.value for a in (await path.answer_understood(component, ck25, KGQAN_ONLY)).answers] == \
        [least.rows[0]["h"].value]
    # the asked class itself is no record of anything
    services = UnderstoodQuestion("Which services are there?", PhraseGraphPattern.from_text("list :: ?u1 | is a | services"),
                                  AnswerType(AnswerKind.RESOURCE), "hand-written")
    plain = await path.answer_understood(services, ck25, KGQAN_ONLY)
    assert "kgqaRecorded" not in plain.evidence.sparql


async def test_endpoint_setup_requests_leave_the_first_questions_budget_whole(virtuoso) -> None:  # noqa: ANN001
    """Discovery and the class list are fetched once per endpoint and counted apart: the first
    question on a new endpoint answers as the next one does."""
    asked = understood("list :: ?u1 | is a | products ; ?u1 | supplier | Irish", AnswerType(AnswerKind.RESOURCE, "products"))
    fresh_path = KgqanPath()  # its class list is not fetched yet
    async with open_endpoint(virtuoso, "ck25-fresh", "ck25") as fresh:
        settings_cache.forget(fresh.config)  # nor the endpoint's label predicates and text-search dialect
        first = await fresh_path.answer_understood(asked, fresh, KGQAN_ONLY)
        second = await fresh_path.answer_understood(asked, fresh, KGQAN_ONLY)
    assert first.setup_requests >= 10 and second.setup_requests == 0
    assert first.answers and [a.value for a in first.answers] == [a.value for a in second.answers]
    assert first.to_dict()["endpoint_setup_requests"] == first.setup_requests
    assert "endpoint_setup_requests" not in second.to_dict()


@pytest.mark.parametrize(("pattern", "truth"), [
    # "What is the lightest Sensor?": not the category Sensor itself (one thing is never the lightest)
    ("list :: ?u1 | is a | Sensor ; ?u1 | lightest | ?u2 :: order ?u2 asc 1",
     f'?h <{PV}hasCategory>/<{PV}name> "Sensor" ; <{PV}weight_g> ?v'),
    ("count :: ?u1 | is a | Sensor", f'?h <{PV}hasCategory>/<{PV}name> "Sensor"'),
])
async def test_a_ranked_or_counted_capitalised_kind_is_its_members(path: KgqanPath, ck25: Endpoint, pattern: str,
                                                                   truth: str) -> None:
    form = pattern.split(" ", 1)[0]
    result = await path.answer_understood(understood(pattern, AnswerType(AnswerKind.NUMBER if form == "count" else
                                                                          AnswerKind.RESOURCE)), ck25, KGQAN_ONLY)
    if form == "count":
        expected = (await ck25.sparql.select(f"SELECT (COUNT(DISTINCT ?h) AS ?n) WHERE {{ {truth} }}")).column("n")
        assert [a.value for a in result.answers] == [expected[0].value]
    else:
        expected = (await ck25.sparql.select(f"SELECT ?h WHERE {{ {truth} }} ORDER BY ?v LIMIT 1")).column("h")
        assert expected[0].value in [a.value for a in result.answers]
    assert "VALUES ?unknown1" not in result.evidence.sparql


async def test_the_owner_of_a_ranked_value_is_a_kinds_members(path: KgqanPath, ck25: Endpoint) -> None:
    """"Who supplies the most expensive Transducer?": the Transducers are ranked by price, so the
    phrase is the category's members, not the category itself; and a ranked owner said to be a thing
    that names no kind ("is a | Bolton, Sanchez") gives no query rather than dropping the name."""
    result = await path.answer_understood(understood(
        "list :: ?u1 | supplies | ?u2 ; ?u2 | price | ?u3 ; ?u2 | is a | Transducer :: order ?u3 desc 1",
        AnswerType(AnswerKind.RESOURCE)), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT ?s WHERE {{ ?h <{PV}hasCategory>/<{PV}name> "Transducer" ; '
                                     f'<{PV}hasSupplier> ?s ; <{PV}price>/<{PV}amount> ?v }} ORDER BY DESC(?v) LIMIT 1')
    assert [a.value for a in result.answers] == [truth.column("s")[0].value]
    assert "VALUES ?unknown2" not in result.evidence.sparql
    named = await path.answer_understood(understood(
        "list :: ?u1 | products | ?u2 ; ?u2 | is a | Bolton, Sanchez ; ?u2 | price | ?u3 :: order ?u3 desc",
        AnswerType(AnswerKind.RESOURCE)), ck25, KGQAN_ONLY)
    assert not named.answers


async def test_a_thing_holding_one_number_is_opened_where_a_number_is_asked(path: KgqanPath, ck25: Endpoint) -> None:
    """"How much does the most expensive Memristor cost?" answered by a price node (with its amount and
    its currency): the node's one number is the answer, and the query says so (it goes on to the amount,
    or the chosen query's nodes are opened to it, with a note)."""
    result = await path.answer_understood(understood(
        "list :: ?u1 | price | ?u2 ; ?u2 | expensive | ?u3 ; ?u2 | is a | Memristor :: order ?u3 desc 1",
        AnswerType(AnswerKind.NUMBER)), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT ?v WHERE {{ ?h <{PV}hasCategory>/<{PV}name> "Memristor" ; '
                                     f'<{PV}price>/<{PV}amount> ?v }} ORDER BY DESC(?v) LIMIT 1')
    assert [float(a.value) for a in result.answers] == [float(truth.column("v")[0].value)]
    assert f"<{PV}amount>" in result.evidence.sparql
    assert ("?kgqaValue" in result.evidence.sparql) == any("one such value" in n for n in result.notes)


async def test_a_word_before_a_kinds_name_may_name_one_of_that_kind(path: KgqanPath, ck25: Endpoint) -> None:
    """"Who are the members of the marketing department?": the department labelled Marketing, not every department."""
    result = await path.answer_understood(
        understood("list :: ?u1 | members | ?u2 ; ?u2 | is a | marketing department", AnswerType(AnswerKind.RESOURCE)),
        ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT ?p WHERE {{ ?p <{PV}memberOf> ?d . ?d a <{PV}Department> ; <{PV}name> ?n '
                                     f'FILTER(lcase(str(?n)) = "marketing") }}')
    assert truth.rows and {a.value for a in result.answers} == {r["p"].value for r in truth.rows}


async def test_things_sharing_a_value_with_a_named_thing_are_not_that_thing(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which employees work in the same department as Karen Brant?": her colleagues, without her; the
    department two things share is neither of them (no reading merges it with the answer)."""
    karen = "http://ld.company.org/prod-instances/empl-Karen.Brant%40company.org"
    result = await path.answer_understood(understood(
        "list :: ?u1 | is a | employees ; ?u1 | department | ?u2 ; Karen Brant | department | ?u2 :: other Karen Brant",
        AnswerType(AnswerKind.RESOURCE, "employees")), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?e WHERE {{ <{karen}> <{PV}memberOf> ?d . ?e <{PV}memberOf> ?d }}")
    assert truth.rows and {a.value for a in result.answers} == {r["e"].value for r in truth.rows} - {karen}
    assert f"FILTER(?unknown1 NOT IN (<{karen}>))" in result.evidence.sparql


async def test_a_lower_case_plural_that_names_nothing_is_looked_for_in_the_singular(path: KgqanPath,
                                                                                      ck25: Endpoint) -> None:
    """"Is Henny Foth an expert in capacitors?": no label says "capacitors"; the category Capacitor does."""
    henny = "http://ld.company.org/prod-instances/empl-Henny.Foth%40company.org"
    for category in ("capacitors", "transistors"):
        result = await path.answer_understood(
            understood(f"boolean :: Henny Foth | expert in | {category}", AnswerType(AnswerKind.BOOLEAN)), ck25, KGQAN_ONLY)
        truth = await ck25.sparql.ask(f'ASK {{ <{henny}> <{PV}areaOfExpertise>/<{PV}name> "{category[:-1].title()}" }}')
        assert [a.value for a in result.answers] == [str(truth).lower()]
        assert "prod-cat-" in (result.evidence.sparql or "")


async def test_the_second_of_an_ordering_is_one_past_the_first(path: KgqanPath, ck25: Endpoint) -> None:
    """"What is the second most expensive service?": ORDER BY ... LIMIT 1 OFFSET 1, through the price node."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | service ; ?u1 | expensive | ?u2 :: order ?u2 desc 1 offset 1",
                   AnswerType(AnswerKind.RESOURCE, "service")), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?s WHERE {{ ?s a <{PV}Service> ; <{PV}price>/<{PV}amount> ?a }} "
                                     "ORDER BY DESC(?a) LIMIT 1 OFFSET 1")
    assert [a.value for a in result.answers] == [truth.rows[0]["s"].value]
    assert "OFFSET 1" in result.evidence.sparql


async def test_narrower_compares_widths(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which Coil products are narrower than 15 mm?": "narrower" grades the width."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | Coil products ; ?u1 | narrower | ?u2 :: filter ?u2 < 15",
                   AnswerType(AnswerKind.RESOURCE, "Coil products")), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT ?h WHERE {{ ?h <{PV}hasCategory>/<{PV}name> "Coil" ; <{PV}width_mm> ?w '
                                     f'FILTER(?w < 15) }}')
    assert truth.rows and {a.value for a in result.answers} == {r["h"].value for r in truth.rows}


async def test_a_count_questions_noun_is_offered_as_the_counted_kind(path: KgqanPath, ck25: Endpoint) -> None:
    """"How many products of the category Switch are there?" read without "products" (`?u1 | category |
    Switch`, which also counts the category of a product named like it): the wh-noun's reading answers."""
    best = replace(understood("count :: ?u1 | category | Switch", AnswerType(AnswerKind.NUMBER)), wh_noun="products")
    readings = with_counted_kind_reading(best)
    assert readings.alternatives[0].to_text() == "count :: ?u1 | category | Switch ; ?u1 | is a | products"
    result = await path.answer_readings(readings, ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT (COUNT(DISTINCT ?h) AS ?n) WHERE {{ ?h <{PV}hasCategory>/<{PV}name> "Switch" }}')
    assert [a.value for a in result.answers] == [truth.rows[0]["n"].value]
    named = replace(understood("count :: ?u1 | products | Garcia Ltd", AnswerType(AnswerKind.NUMBER)), wh_noun="products")
    assert with_counted_kind_reading(named) is named  # the pattern says "products" already


@pytest.mark.parametrize("bound", [1, 10, 100])
async def test_a_yes_no_comparison_is_answered_by_the_value_that_is_there(path: KgqanPath, ck25: Endpoint,
                                                                          bound: int) -> None:
    """"Is the Film Oscillator Dipole heavier than N grams?": its weight answers, yes or no; a query
    reading another attribute (its height) that happens to pass does not turn a no into a yes."""
    result = await path.answer_understood(understood(f"boolean :: Film Oscillator Dipole | heavier | ?u1 :: filter ?u1 > {bound}",
                                                     AnswerType(AnswerKind.BOOLEAN)), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.ask(f'ASK {{ ?h <{PV}name> "Film Oscillator Dipole" ; <{PV}weight_g> ?w FILTER(?w > {bound}) }}')
    assert [a.value for a in result.answers] == [str(truth).lower()]
    assert f"<{PV}weight_g>" in result.evidence.sparql


@pytest.mark.parametrize(("pattern", "kind", "truth"), [
    # "What is the price of the Aluminum Switch?": the vertex's price node, then its amount
    ("list :: ?u1 | price | Aluminum Switch", AnswerKind.NUMBER,
     f'SELECT ?v WHERE {{ ?h <{PV}name> "Aluminum Switch" ; <{PV}price>/<{PV}amount> ?v }}'),
    # "What is the average price of Resistor products?": the products are left unsaid, three hops from the category
    ("avg :: ?u1 | price | Resistor", AnswerKind.NUMBER,
     f'SELECT (AVG(?a) AS ?v) WHERE {{ ?h <{PV}hasCategory>/<{PV}name> "Resistor" ; <{PV}price>/<{PV}amount> ?a }}'),
    # "... of Sensors": a plural name that names nothing is looked for in the singular (the category Sensor)
    ("avg :: ?u1 | price | Sensors", AnswerKind.NUMBER,
     f'SELECT (AVG(?a) AS ?v) WHERE {{ ?h <{PV}hasCategory>/<{PV}name> "Sensor" ; <{PV}price>/<{PV}amount> ?a }}'),
])
async def test_a_value_asked_of_things_goes_on_to_their_number(path: KgqanPath, ck25: Endpoint, pattern: str,
                                                               kind: AnswerKind, truth: str) -> None:
    result = await path.answer_understood(understood(pattern, AnswerType(kind)), ck25, KGQAN_ONLY)
    expected = (await ck25.sparql.select(truth)).column("v")
    assert len(result.answers) == len(expected) == 1
    assert float(result.answers[0].value) == pytest.approx(float(expected[0].value))
    assert f"<{PV}price> ?kgqaThing0 . ?kgqaThing0 <{PV}amount>" in result.evidence.sparql

async def test_things_with_the_same_label_are_answered_together(path: KgqanPath, ck25: Endpoint) -> None:
    # ck25 has several products named "Network Driver": the question names all of them
    result = await path.answer_understood(
        understood("list :: ?u1 | weight | Network Driver", AnswerType(AnswerKind.NUMBER)), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT DISTINCT ?w WHERE {{ ?h <{PV}name> "Network Driver" ; <{PV}weight_g> ?w }}')
    assert len(truth.rows) > 1 and {a.value for a in result.answers} == {t.value for t in truth.column("w")}
    assert result.to_dict()["evidence"]["entities"][0]["candidates"][0]["same_label"]


async def test_generate_ranks_queries_for_the_proxy(path: KgqanPath, ck25: Endpoint) -> None:
    generated = await path.generate("Who is the product manager of Franz Kornhaeusel?", ck25, KGQAN_ONLY)
    assert generated and all(a.score >= b.score for a, b in zip(generated, generated[1:], strict=False))
    assert all(g.answer_var.startswith("?") and g.answer_var in g.pattern for g in generated)


async def test_gateway_ask_on_the_embedded_demo_graph() -> None:
    gateway = Gateway(EndpointRegistry({}))
    try:
        result = await gateway.ask("Which currency is used in Japan?",
                                   EndpointConfig(name="demo", url="embedded:"), KGQAN_ONLY)
    finally:
        await gateway.close()
    kgqan = result.paths["kgqan"]
    assert kgqan.status.value == "ok", kgqan.error
    assert [a.label for a in kgqan.answers] == ["Japanese Yen"]
    assert kgqan.sparql_requests > 0 and kgqan.timings_ms["understanding"] > 0


async def test_gateway_ask_on_virtuoso(virtuoso) -> None:  # noqa: ANN001
    gateway = Gateway(EndpointRegistry({}))
    try:
        result = await gateway.ask("How many managers are there?", virtuoso.endpoint("ck25-ask", "ck25"), KGQAN_ONLY)
    finally:
        await gateway.close()
    kgqan = result.to_dict()["kgqan"]
    assert kgqan["status"] == "ok", kgqan.get("error")
    truth = 0
    async with open_endpoint(virtuoso, "ck25-truth", "ck25") as endpoint:
        rows = await endpoint.sparql.select(f"SELECT (COUNT(DISTINCT ?m) AS ?n) WHERE {{ ?m a <{PV}Manager> }}")
        truth = int(rows.rows[0]["n"].value)
    assert [a["value"] for a in kgqan["answers"]] == [str(truth)]
    assert "COUNT" in kgqan["evidence"]["sparql"]


async def test_per_group_count_patterns_link_and_answer(path: KgqanPath, ck25: Endpoint) -> None:
    """`order count` end to end on Virtuoso: the department with the most members (own question)."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | department ; ?u2 | member of | ?u1 :: order count ?u2 desc 1",
                   AnswerType(AnswerKind.RESOURCE, "department")), ck25, KGQAN_ONLY)
    assert [a.value for a in result.answers] == ["http://ld.company.org/prod-instances/dept-22183"], result.notes
    assert "GROUP BY ?unknown1" in result.to_dict()["evidence"]["sparql"]


async def test_a_count_per_group_answers_with_each_group_beside_its_number(path: KgqanPath, ck25: Endpoint) -> None:
    """`group` end to end on Virtuoso: "How many employees does each department have?" (own question)."""
    result = await path.answer_understood(
        understood("count :: ?u1 | is a | employees ; ?u1 | department | ?u2 :: group ?u2", AnswerType(AnswerKind.NUMBER)),
        ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?d (COUNT(DISTINCT ?e) AS ?n) WHERE {{ ?e <{PV}memberOf> ?d }} GROUP BY ?d")
    assert sorted((a.row[0][1].value, a.value) for a in result.answers) == sorted(
        (r["d"].value, r["n"].value) for r in truth.rows), result.notes
    first = result.to_dict()["answers"][0]
    assert first["row"]["department"]["label"]  # the group, labelled, under what the question calls it
    assert "GROUP BY ?unknown2" in result.to_dict()["evidence"]["sparql"]


async def test_a_kind_named_x_of_y_is_read_whole_where_the_graph_has_that_class(path: KgqanPath, ck25: Endpoint) -> None:
    """"bill of material" split by the model is one kind, as the graph's class "Bill of Material (BOM)";
    "price of products" is left as read: no class is named so (own questions)."""
    from dataclasses import replace

    split = replace(understood("list :: ?u1 | bill | ?u2 ; ?u2 | is a | material :: order count ?u2 desc 1",
                               AnswerType(AnswerKind.RESOURCE, "material")),
                    question="Which bill of material has the most parts?",
                    alternatives=(PhraseGraphPattern.from_text(
                        "list :: ?u1 | bill | ?u2 ; ?u2 | is a | material ; ?u2 | parts | ?u3 :: order count ?u3 desc 1"),))
    whole = await path._compound_kinds(split, ck25)
    assert whole.pattern.to_text() == "list :: ?u1 | is a | bill of material ; ?u1 | parts | ?u3 :: order count ?u3 desc 1"
    assert whole.alternatives == () and whole.answer_type.semantic_type == "bill of material"
    result = await path.answer_understood(whole, ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?b (COUNT(?p) AS ?n) WHERE {{ ?b <{PV}hasBomPart> ?p }} GROUP BY ?b "
                                     "ORDER BY DESC(?n) LIMIT 1")
    assert truth.rows[0]["b"].value in {a.value for a in result.answers}
    prices = replace(understood("list :: ?u1 | price | ?u2 ; ?u2 | is a | products", AnswerType(AnswerKind.NUMBER)),
                     question="What is the price of products in the category Sensor?")
    assert await path._compound_kinds(prices, ck25) == prices


async def test_negated_questions_are_not_answered(path: KgqanPath, ck25: Endpoint) -> None:
    from dataclasses import replace

    from understanding.coverage import unsupported_reason

    question = "Which departments are not managed by Franz Kornhaeusel?"
    pattern = PhraseGraphPattern.from_text("list :: ?u1 | is a | departments ; ?u1 | managed by | Franz Kornhaeusel")
    negated = replace(understood(pattern.to_text(), AnswerType(AnswerKind.RESOURCE, "departments")),
                      question=question, unsupported=unsupported_reason(question, pattern))
    result = await path.answer_understood(negated, ck25, KGQAN_ONLY)
    assert result.answers == [] and result.sparql_requests == 0
    assert result.notes[0].startswith("not answered: negation ('not')")


@pytest.fixture(scope="module")
async def shops(oxigraph) -> AsyncIterator[Endpoint]:  # noqa: ANN001
    async with open_endpoint(oxigraph, "shops-path", "employee_hire_evaluation") as endpoint:
        yield endpoint


async def test_a_count_stored_as_an_attribute_competes_with_counting(path: KgqanPath, shops: Endpoint,
                                                                   concert: Endpoint) -> None:
    """"Which shop has the most products?": counting products per shop finds nothing to count, the
    graph stores `number_products`; "Which country has the most singers?" has no such attribute."""
    most = understood("list :: ?u1 | shop | ?u2 ; ?u2 | is a | products :: order count ?u2 desc 1",
                      AnswerType(AnswerKind.STRING))
    result = await path.answer_understood(most, shops, KGQAN_ONLY)
    assert [a.value for a in result.answers] == ["FC Lahti"], (result.sparql_requests, [(q.status, q.query.score) for q in result.evidence.queries])
    assert "number_products" in result.evidence.sparql
    assert any(r.phrase == "number of products" for r in result.evidence.relations)
    singers = understood("list :: ?u1 | country | ?u2 ; ?u2 | is a | singers :: order count ?u2 desc 1",
                         AnswerType(AnswerKind.STRING))
    counted = await path.answer_understood(singers, concert, KGQAN_ONLY)
    assert [a.value for a in counted.answers] == ["France"] and "COUNT" in counted.evidence.sparql


async def test_a_count_of_an_edges_own_things_is_its_stored_count(path: KgqanPath, shops: Endpoint,
                                                                    concert: Endpoint) -> None:
    """"Which shop has the most products?" read as `?u1 | products | ?u2 :: order count ?u2`: the edge leads to
    `number_products`, one number per shop, so its values are not counted but ranked; and "the stadium named
    'Stark's Park'" is the stadium found by that name."""
    most = understood("list :: ?u1 | is a | shop ; ?u1 | products | ?u2 :: order count ?u2 desc 1",
                      AnswerType(AnswerKind.STRING))
    result = await path.answer_understood(most, shops, KGQAN_ONLY)
    assert [a.value for a in result.answers] == ["FC Lahti"] and "COUNT" not in result.evidence.sparql
    named = understood("list :: ?u1 | capacity | ?u2 ; ?u2 | is a | stadium ; ?u2 | named | Stark's Park",
                       AnswerType(AnswerKind.NUMBER))
    capacity = await path.answer_understood(named, concert, KGQAN_ONLY)
    assert [a.value for a in capacity.answers] == ["10104"]
    assert "<http://valuenet/ontop/stadium/stadium_id=1> <http://valuenet/ontop/stadium#capacity>" in capacity.evidence.sparql


async def test_an_asked_kind_the_graph_lacks_is_read_as_the_named_things_relation(path: KgqanPath,
                                                                                virtuoso) -> None:  # noqa: ANN001
    """"Which venue published "X"?": ORKG types no venue; the venue is the paper's `venue`."""
    async with open_endpoint(virtuoso, "orkg-path-venue", "orkg") as orkg:
        truth = await orkg.sparql.select(
            "SELECT ?t ?v WHERE { ?p a <http://orkg.org/orkg/class/Paper> ; <http://www.w3.org/2000/01/rdf-schema#label> ?t ; "
            "<http://orkg.org/orkg/predicate/venue> ?v } ORDER BY ?t LIMIT 1")
        title, venue = truth.rows[0]["t"].value, truth.rows[0]["v"].value
        result = await path.answer(f'Which venue published "{title}"?', orkg, KGQAN_ONLY)
    assert [a.value for a in result.answers] == [venue]
    assert any("asked kind as the relation" in note for note in result.notes)


ORKGP = "http://orkg.org/orkg/predicate/"


@pytest.mark.parametrize(("question", "papers", "predicate"), [
    # no value of ORKG is "evaluation guideline", but its predicate hasEvaluationGuideline is so labelled: the papers
    # are those whose contribution has it, not "False"
    ("How many papers followed an evaluation guideline?", f'?p <{ORKGP}contribution> ?c . ?c <{ORKGP}hasEvaluationGuideline> "True"',
     "hasEvaluationGuideline"),
    # ORKG types no threat to validity; a paper that discusses none holds "False" in threatToValidity (or nothing)
    ("How many papers do not discuss any threats to validity?",
     f'FILTER NOT EXISTS {{ ?p <{ORKGP}contribution> ?c . ?c <{ORKGP}threatToValidity> ?t FILTER(LCASE(STR(?t)) != "false") }}',
     "threatToValidity"),
])
async def test_a_value_or_kind_that_names_a_predicate_is_that_yes_no_attribute(
        path: KgqanPath, virtuoso, question: str, papers: str, predicate: str) -> None:  # noqa: ANN001
    async with open_endpoint(virtuoso, "orkg-path-attribute", "orkg") as orkg:
        truth = await orkg.sparql.select(
            f"SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE {{ ?p a <http://orkg.org/orkg/class/Paper> . {papers} }}")
        result = await path.answer(question, orkg, KGQAN_ONLY)
    assert 1 < int(truth.rows[0]["n"].value) < 153
    assert [a.value for a in result.answers] == [truth.rows[0]["n"].value]
    assert f"<{ORKGP}{predicate}>" in result.evidence.sparql and '!= "false"' in result.evidence.sparql


async def test_a_value_stated_false_is_not_counted(path: KgqanPath, virtuoso) -> None:  # noqa: ANN001
    """"How many different evaluation methods are used across the papers?": ORKG keeps "no method" as the literal
    "False" among the methods; it is not one more method."""
    async with open_endpoint(virtuoso, "orkg-path-false-count", "orkg") as orkg:
        truth = await orkg.sparql.select(f"SELECT (COUNT(DISTINCT ?m) AS ?n) (SUM(IF(LCASE(STR(?m)) = 'false', 1, 0)) AS ?f) "
                                         f"WHERE {{ SELECT DISTINCT ?m WHERE {{ ?c <{ORKGP}evaluationMethod> ?m }} }}")
        result = await path.answer_understood(
            understood("count :: ?u2 | is a | papers ; ?u2 | evaluation methods | ?u1", AnswerType(AnswerKind.NUMBER)),
            orkg, KGQAN_ONLY)
    assert int(truth.rows[0]["f"].value) == 1
    assert [a.value for a in result.answers] == [str(int(truth.rows[0]["n"].value) - 1)]


async def test_an_asked_kind_the_graph_lacks_is_read_as_what_the_related_things_hold(path: KgqanPath,
                                                                                     virtuoso) -> None:  # noqa: ANN001
    """"Which research objects have been evaluated through controlled experiments?": ORKG types no research
    object; the contributions evaluated so hold them as `researchObject` values."""
    orkgp = "http://orkg.org/orkg/predicate/"
    async with open_endpoint(virtuoso, "orkg-path-held-kind", "orkg") as orkg:
        truth = await orkg.sparql.select(f'SELECT DISTINCT ?o WHERE {{ ?c <{orkgp}evaluationMethod> "Controlled Experiment" ; '
                                         f'<{orkgp}researchObject> ?o }}')
        asked = replace(understood("list :: ?u1 | is a | research objects ; ?u1 | evaluated through | controlled experiments",
                                   AnswerType(AnswerKind.RESOURCE, "research objects")),
                        question="Which research objects have been evaluated through controlled experiments?")
        result = await path.answer_readings(asked, orkg, KGQAN_ONLY)
    assert len(truth.rows) > 1 and {a.value for a in result.answers} == {row["o"].value for row in truth.rows}
    assert any("held by the things so related" in note for note in result.notes)


async def test_things_next_to_the_asked_kind_lead_to_it(path: KgqanPath, virtuoso) -> None:  # noqa: ANN001
    """"In which venues has X published?" reaches X's papers (no venue is related to X directly); each
    paper has one `venue` of class Venue, so the venues are given, with a note."""
    async with open_endpoint(virtuoso, "orkg-path-venues-of", "orkg") as orkg:
        truth = await orkg.sparql.select(
            "SELECT DISTINCT ?v WHERE { ?p <http://orkg.org/orkg/predicate/authors> ?l . "
            '?l <http://orkg.org/orkg/predicate/hasListElement> "Heiko Koziolek" . ?p <http://orkg.org/orkg/predicate/venue> ?v }')
        result = await path.answer_understood(understood("list :: ?u1 | published | Heiko Koziolek",
                                                         AnswerType(AnswerKind.RESOURCE, "venues")), orkg, KGQAN_ONLY)
    assert len(truth.rows) > 1 and {a.value for a in result.answers} == {row["v"].value for row in truth.rows}
    assert any("they link to by <http://orkg.org/orkg/predicate/venue>" in note for note in result.notes)
    assert "?kgqaAsked a <http://orkg.org/orkg/class/Venue>" in result.evidence.sparql


async def test_a_course_named_in_its_own_column_is_the_course(path: KgqanPath) -> None:
    """"Who teaches Math?": "Math" is the course (its `course#course`), whose arrangements name the
    teachers, not a value that the answer itself holds (which answered "Math")."""
    from conftest import SPIDER

    endpoint = EndpointPool().get(EndpointConfig(name="course-teach-path", url=f"embedded:{SPIDER / 'course_teach.ttl'}"))
    try:
        truth = await endpoint.sparql.select(
            'SELECT ?n WHERE { ?c <http://valuenet/ontop/course#course> "Math" . ?a <http://valuenet/ontop/course_arrange#ref-course_id> ?c ; '
            "<http://valuenet/ontop/course_arrange#ref-teacher_id> ?t . ?t <http://valuenet/ontop/teacher#name> ?n }")
        result = await path.answer_understood(understood("list :: ?u1 | teaches | Math", AnswerType(AnswerKind.STRING)),
                                              endpoint, KGQAN_ONLY)
    finally:
        await endpoint.close()
    assert len(truth.rows) == 2 and sorted(a.value for a in result.answers) == sorted(r["n"].value for r in truth.rows)


@pytest.mark.parametrize(("negated", "unused"), [(False, False), (True, True)])
async def test_two_kinds_are_linked_by_the_predicate_between_them_where_the_phrase_fits_none(
        path: KgqanPath, negated: bool, unused: bool) -> None:
    """"Which templates are (not) used by a document?": "used by" fits no predicate; documents refer to their
    template (`documents#ref-template_id`), which links the two kinds: the best query, ahead of the templates'
    own attributes (which lead to no document) and of paths through records (on Virtuoso, from the template
    types that "templates" also names)."""
    from conftest import SPIDER

    endpoint = EndpointPool().get(EndpointConfig(name="cre-doc-path", url=f"embedded:{SPIDER / 'cre_doc_template_mgt.ttl'}"))
    used = "?d <http://valuenet/ontop/documents#ref-template_id> ?t"
    try:
        truth = await endpoint.sparql.select(
            "SELECT DISTINCT ?id WHERE { ?t a <http://valuenet/ontop/templates> ; <http://valuenet/ontop/templates#template_id> ?id . "
            f"{f'FILTER NOT EXISTS {{ {used} }}' if unused else used} }}")
        relation = "not used by" if negated else "used by"
        result = await path.answer_understood(
            understood(f"list :: ?u1 | is a | templates ; ?u1 | {relation} | ?u2 ; ?u2 | is a | document",
                       AnswerType(AnswerKind.STRING, "templates")), endpoint, KGQAN_ONLY)
    finally:
        await endpoint.close()
    assert len(truth.rows) > 3 and {a.value for a in result.answers} == {r["id"].value for r in truth.rows}
    assert "documents#ref-template_id> ?unknown1" in result.evidence.queries[0].query.sparql


@pytest.mark.parametrize(("owner", "link"), [("visitor", "ref-visitor_id"), ("museum", "ref-museum_id")])
async def test_a_count_its_records_store_is_summed_per_owner_of_the_asked_kind(path: KgqanPath, owner: str,
                                                                             link: str) -> None:
    """"Which visitor bought the most tickets?" decoded as `?u1 | visitor | ?u2 ; ?u2 | is a | tickets :: order
    count ?u2 desc 1`: the graph stores tickets per visit (`visit#num_of_ticket`), so the visitor is the asked
    kind whose visits' tickets are summed, not the visit with the most tickets."""
    from conftest import SPIDER

    endpoint = EndpointPool().get(EndpointConfig(name=f"museum-path-{owner}", url=f"embedded:{SPIDER / 'museum_visit.ttl'}"))
    try:
        truth = await endpoint.sparql.select(
            f"SELECT ?n (SUM(?t) AS ?s) WHERE {{ ?v <http://valuenet/ontop/visit#{link}> ?o ; "
            f"<http://valuenet/ontop/visit#num_of_ticket> ?t . ?o <http://valuenet/ontop/{owner}#name> ?n }} "
            "GROUP BY ?n ORDER BY DESC(?s) LIMIT 2")
        question = UnderstoodQuestion(f"Which {owner} sold the most tickets?", PhraseGraphPattern.from_text(
            f"list :: ?u1 | {owner} | ?u2 ; ?u2 | is a | tickets :: order count ?u2 desc 1"),
            AnswerType(AnswerKind.STRING, owner), "hand-written", wh_noun=owner)
        result = await path.answer_understood(question, endpoint, KGQAN_ONLY)
    finally:
        await endpoint.close()
    assert float(truth.rows[0]["s"].value) > float(truth.rows[1]["s"].value)  # no tie
    assert [a.value for a in result.answers] == [truth.rows[0]["n"].value]
    assert "SUM(" in result.evidence.sparql and f"visit#{link}" in result.evidence.sparql


async def test_a_key_column_reached_through_a_neighbour_is_read_as_its_link(path: KgqanPath) -> None:
    """"Which teacher is in charge of the course that starts on 7 May?": the arrangement's `teacher_id`
    fits "teacher" as well as its `ref-teacher_id`, but the teacher is asked, not the number."""
    from conftest import SPIDER

    endpoint = EndpointPool().get(EndpointConfig(name="course-teach-key", url=f"embedded:{SPIDER / 'course_teach.ttl'}"))
    try:
        truth = await endpoint.sparql.select(
            'SELECT ?n WHERE { ?c <http://valuenet/ontop/course#staring_date> "7 May" . ?a '
            "<http://valuenet/ontop/course_arrange#ref-course_id> ?c ; <http://valuenet/ontop/course_arrange#ref-teacher_id> ?t . "
            "?t <http://valuenet/ontop/teacher#name> ?n }")
        result = await path.answer_understood(
            understood("list :: ?u1 | teacher | ?u2 ; ?u2 | is a | course ; ?u2 | starts on | 7 May",
                       AnswerType(AnswerKind.STRING, "course")), endpoint, KGQAN_ONLY)
    finally:
        await endpoint.close()
    assert len(truth.rows) == 1 and [a.value for a in result.answers] == [truth.rows[0]["n"].value]
    assert "course_arrange#ref-teacher_id" in result.evidence.sparql


def test_a_key_column_is_read_as_its_link_first_and_as_itself_next() -> None:
    """Where no `ref-` link stands beside a key column, the link's query finds nothing and the column's answers."""
    from linking.path import KEY_COLUMN_FACTOR, _read_for_key
    from linking.relations import LinkedPredicate

    column = LinkedPredicate("http://valuenet/ontop/course_arrange#teacher_id", "teacher id", 0.5, "out")
    (link, first), (itself, second) = _read_for_key(column, "teacher")
    assert link.iri == "http://valuenet/ontop/course_arrange#ref-teacher_id" and not link.literal and first == 1.0
    assert itself == column and second == KEY_COLUMN_FACTOR < 1.0
    assert _read_for_key(column, "teacher id") == ((column, 1.0),)  # the number asked for
    named = LinkedPredicate("http://valuenet/ontop/teacher#name", "name", 0.5, "out")
    assert _read_for_key(named, "teacher") == ((named, 1.0),)


async def test_a_common_noun_that_only_some_names_contain_is_its_class(path: KgqanPath) -> None:
    """"Does any orchestra use the DVD record format?" read `orchestra | format | DVD`: "orchestra" is
    part of some orchestras' names (their `orchestra#orchestra`), but names the class orchestra."""
    from conftest import SPIDER

    endpoint = EndpointPool().get(EndpointConfig(name="orchestra-path", url=f"embedded:{SPIDER / 'orchestra.ttl'}"))
    try:
        result = await path.answer_understood(understood("boolean :: orchestra | format | DVD",
                                                         AnswerType(AnswerKind.BOOLEAN)), endpoint, KGQAN_ONLY)
    finally:
        await endpoint.close()
    assert [a.value for a in result.answers] == ["true"]
    assert "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://valuenet/ontop/orchestra>" in result.evidence.sparql


async def test_a_reading_whose_answers_do_not_fit_gives_way_to_one_whose_answers_do(path: KgqanPath,
                                                                                    virtuoso) -> None:  # noqa: ANN001
    """"What research objects does the paper X look at?": the best reading (`?u1 | is a | research
    objects ; ?u1 | the paper | X`) answers with the paper's year, which is no research object; the
    reading with the kind as the relation reaches the paper's `researchObject` values."""
    async with open_endpoint(virtuoso, "orkg-path-objects", "orkg") as orkg:
        truth = await orkg.sparql.select(
            "SELECT ?t (GROUP_CONCAT(?o; separator='|') AS ?os) WHERE { ?p a <http://orkg.org/orkg/class/Paper> ; "
            "<http://www.w3.org/2000/01/rdf-schema#label> ?t ; <http://orkg.org/orkg/predicate/contribution> ?c . "
            '?c <http://orkg.org/orkg/predicate/researchObject> ?o FILTER(?t = "Technical Architectures for Automotive Systems") } GROUP BY ?t')
        result = await path.answer('What research objects does the paper "Technical Architectures for Automotive '
                                   'Systems" look at?', orkg, KGQAN_ONLY)
    assert sorted(a.value for a in result.answers) == sorted(truth.rows[0]["os"].value.split("|"))
    assert any(note.startswith("no answer of the best reading") for note in result.notes)


async def test_a_us_state_that_names_nothing_is_found_as_its_postal_code(path: KgqanPath, oxigraph) -> None:  # noqa: ANN001
    """voter_1 stores states as "TX": "How many area codes does Texas have?" counts those of "TX"."""
    from understanding.demonyms import state_code_of

    assert state_code_of("Texas") == "TX" and state_code_of("new  york") == "NY" and state_code_of("Paris") is None
    async with open_endpoint(oxigraph, "voter-path", "voter_1") as voter:
        truth = await voter.sparql.select("SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?a "
                                          '<http://valuenet/ontop/area_code_state#state> "TX" ; '
                                          "<http://valuenet/ontop/area_code_state#area_code> ?c }")
        result = await path.answer_understood(understood("count :: ?u1 | area codes | Texas", AnswerType(AnswerKind.NUMBER)),
                                              voter, KGQAN_ONLY)
    assert int(truth.rows[0]["n"].value) > 1 and [a.value for a in result.answers] == [truth.rows[0]["n"].value]
    assert '"TX"' in result.evidence.sparql


async def test_things_of_the_asked_kind_found_through_records_are_shown_by_their_names(path: KgqanPath, oxigraph) -> None:  # noqa: ANN001
    """"Which employees were hired by FC Haka?": the hiring records lead to the employees, rows without labels,
    shown (as other unlabelled answers are) by their name column."""
    async with open_endpoint(oxigraph, "employee-path-hired", "employee_hire_evaluation") as shops:
        truth = await shops.sparql.select(
            'SELECT ?n WHERE { ?s <http://valuenet/ontop/shop#name> "FC Haka" . ?h <http://valuenet/ontop/hiring#ref-shop_id> ?s ; '
            "<http://valuenet/ontop/hiring#ref-employee_id> ?e . ?e <http://valuenet/ontop/employee#name> ?n }")
        result = await path.answer_understood(
            understood("list :: ?u1 | is a | employees ; ?u1 | hired by | FC Haka", AnswerType(AnswerKind.RESOURCE, "employees")),
            shops, KGQAN_ONLY)
    assert len(truth.rows) > 1 and {a.value for a in result.answers} == {row["n"].value for row in truth.rows}


async def test_unlabelled_groups_of_a_count_are_shown_by_their_names(path: KgqanPath, oxigraph) -> None:  # noqa: ANN001
    """"How many votes did each contestant receive?": a contestant is a row without a label, shown (as an unlabelled
    answer is) by its name column, beside its count; the query says so."""
    async with open_endpoint(oxigraph, "voter-path-groups", "voter_1") as voter:
        truth = await voter.sparql.select(
            "SELECT ?name (COUNT(?v) AS ?n) WHERE { ?v <http://valuenet/ontop/votes#ref-contestant_number> ?c . "
            "?c <http://valuenet/ontop/contestants#contestant_name> ?name } GROUP BY ?name")
        result = await path.answer_understood(
            understood("count :: ?u1 | votes | ?u2 ; ?u2 | is a | contestant :: group ?u2", AnswerType(AnswerKind.NUMBER)),
            voter, KGQAN_ONLY)
    expected = {(row["name"].value, row["n"].value) for row in truth.rows}
    assert len(expected) > 1 and {(a.row[0][1].value, a.value) for a in result.answers} == expected
    assert "contestant_name> ?unknown2Name } GROUP BY ?unknown2 ?unknown2Name" in result.evidence.sparql


async def test_a_numbered_thing_is_found_by_the_number_its_kind_names(path: KgqanPath, oxigraph) -> None:  # noqa: ANN001
    """"vote 3": the vote whose `vote_id` is 3, not the votes for contestant number 3."""
    async with open_endpoint(oxigraph, "voter-path-numbered", "voter_1") as voter:
        truth = await voter.sparql.select('SELECT ?p WHERE { ?v <http://valuenet/ontop/votes#vote_id> 3 ; '
                                          "<http://valuenet/ontop/votes#phone_number> ?p }")
        result = await path.answer_understood(understood("list :: ?u1 | phone number | vote 3",
                                                         AnswerType(AnswerKind.STRING)), voter, KGQAN_ONLY)
    assert len(truth.rows) == 1 and [a.value for a in result.answers] == [truth.rows[0]["p"].value]
    assert "votes#vote_id" in result.evidence.sparql and "contestant_number" not in result.evidence.sparql


def test_a_mirrored_pattern_names_what_answers_it_trivially() -> None:
    from linking.path import mirrored_names

    coauthors = PhraseGraphPattern.from_text("list :: ?u2 | authors | Ingo Weber ; ?u1 | authors | ?u2")
    assert mirrored_names(coauthors) == {"ingo weber"}
    assert mirrored_names(PhraseGraphPattern.from_text("list :: ?u2 | authors | Ingo Weber ; ?u1 | venue | ?u2")) == set()
    assert mirrored_names(PhraseGraphPattern.from_text("list :: ?u1 | authors | Ingo Weber")) == set()


async def test_co_authors_of_a_name_leave_the_name_out(path: KgqanPath, virtuoso) -> None:  # noqa: ANN001
    async with open_endpoint(virtuoso, "orkg-path-coauthors", "orkg") as orkg:
        truth = await orkg.sparql.select(
            "SELECT ?a (COUNT(DISTINCT ?b) AS ?n) WHERE { ?p <http://orkg.org/orkg/predicate/authors> ?l . "
            "?l <http://orkg.org/orkg/predicate/hasListElement> ?a , ?b FILTER(?a != ?b) } GROUP BY ?a ORDER BY DESC(?n) ?a "
            "LIMIT 1")
        author = truth.rows[0]["a"].value
        result = await path.answer_understood(understood(
            f"list :: ?u2 | authors | {author} ; ?u1 | authors | ?u2", AnswerType(AnswerKind.RESOURCE)), orkg, KGQAN_ONLY)
    values = {a.value for a in result.answers}
    assert len(values) == int(truth.rows[0]["n"].value) and author not in values
    assert any("left out" in note for note in result.notes)


async def test_a_plural_value_phrase_finds_the_singular_value(path: KgqanPath, virtuoso) -> None:  # noqa: ANN001
    """"Which papers use interviews ...": the graph stores the value "Interview"."""
    async with open_endpoint(virtuoso, "orkg-path-values", "orkg") as orkg:
        linking = await path.link(PhraseGraphPattern.from_text(
            "list :: ?u1 | is a | papers ; ?u1 | evaluation method | interviews"), orkg, KGQAN_ONLY)
    values = [c.label for c in linking.linked.nodes["interviews"] if c.is_literal]
    assert "Interview" in values


async def test_a_vertex_leads_to_the_answer_through_the_things_that_point_to_it(path: KgqanPath,
                                                                               ck25: Endpoint) -> None:
    """"The email addresses of Marketing" leaves the members unsaid: `?e memberOf <Marketing> . ?e email
    ?answer`, a first hop into the vertex; going back along the same predicate (`?e memberOf ?other`)
    would only find sibling departments and is never offered."""
    result = await path.answer_understood(
        understood("list :: ?u1 | email addresses | Marketing", AnswerType(AnswerKind.STRING)), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT ?m WHERE {{ ?d <{PV}name> "Marketing" . ?e <{PV}memberOf> ?d ; '
                                     f'<{PV}email> ?m }}')
    assert len(truth.rows) == 10 and {a.value for a in result.answers} == {t.value for t in truth.column("m")}
    assert f"?kgqaHolder0 <{PV}memberOf> " in result.evidence.sparql
    relation = result.to_dict()["evidence"]["relations"][0]["candidates"][0]
    assert relation["through"] == PV + "memberOf" and relation["through_direction"] == "in"
    hops = await path.relation_linker.predicates_beyond(
        [c for c in (await path.link(PhraseGraphPattern.from_text("list :: ?u1 | email | Marketing"), ck25,
                                     KGQAN_ONLY)).linked.nodes["Marketing"] if not c.is_literal], ck25)
    assert any(not out and first == PV + "memberOf" for _, first, out in hops)
    assert all((PV + "memberOf", "out") not in s.pairs for (_, first, out), s in hops.items()
               if not out and first == PV + "memberOf")


async def test_a_value_held_by_an_intermediate_node_is_reached_through_an_unnamed_connector(
        path: KgqanPath, virtuoso) -> None:  # noqa: ANN001
    """ORKG hangs "evaluation method" off a paper's contribution: `?paper contribution ?c . ?c
    evaluationMethod "Interview"`; the question names the value's predicate, never "contribution"."""
    async with open_endpoint(virtuoso, "orkg-path-connector", "orkg") as orkg:
        result = await path.answer_understood(
            understood("list :: ?u1 | is a | papers ; ?u1 | evaluation method | interviews",
                       AnswerType(AnswerKind.RESOURCE, "papers")), orkg, KGQAN_ONLY)
    assert "/contribution>" in result.evidence.sparql and '"Interview"' in result.evidence.sparql
    papers = {a.value.rsplit("/", 1)[-1] for a in result.answers}
    assert {"R868569", "R868651", "R868823"} <= papers


class FixedReadings(KgqanPath):
    """The KGQAN path with a fixed understanding standing in for the model: the `best` reading (a
    pattern, or a function of the question giving one), then the `following` ones."""

    def __init__(self, best: str | Callable[[str], str], *following: str, kind: AnswerKind = AnswerKind.RESOURCE) -> None:
        super().__init__()
        self.best, self.following, self.kind = best, following, kind

    async def understand(self, question: str) -> UnderstoodQuestion:
        best = self.best(question) if callable(self.best) else self.best
        return UnderstoodQuestion(question, PhraseGraphPattern.from_text(best), AnswerType(self.kind), "model",
                                  alternatives=tuple(PhraseGraphPattern.from_text(t) for t in self.following))


NOWHERE = "list :: ?u1 | zebra stripes | Nowhere Unheard-Of"  # a reading that finds nothing


async def test_the_next_reading_answers_when_the_best_finds_nothing(ck25: Endpoint) -> None:
    two_readings = FixedReadings(NOWHERE, "list :: ?u1 | product manager | Franz Kornhaeusel")
    result = await two_readings.answer("Which products does Franz Kornhaeusel manage?", ck25, KGQAN_ONLY)
    assert result.answers and all(a.kind == "iri" for a in result.answers)
    assert "next reading" in result.notes[0] and "zebra stripes" in result.notes[0]
    assert result.to_dict()["evidence"]["understanding"]["pattern"].endswith("product manager | Franz Kornhaeusel")
    assert 0 < result.sparql_requests < 30  # both tries counted


async def test_the_rule_reading_answers_when_the_models_readings_find_nothing(ck25: Endpoint) -> None:
    unhelpful = FixedReadings(NOWHERE, "list :: ?u1 | unicorn horns | Nowhere Unheard-Of", kind=AnswerKind.NUMBER)
    result = await unhelpful.answer("How heavy is the Network Driver?", ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT ?w WHERE {{ ?h <{PV}name> "Network Driver" ; <{PV}weight_g> ?w }}')
    assert sorted(a.value for a in result.answers) == sorted(r["w"].value for r in truth.rows)  # 3 share the name
    assert "rule-based reading" in result.notes[0] and result.to_dict()["evidence"]["understanding"]["source"] == "rules"
    assert 0 < result.sparql_requests < 30  # all three tries counted, repeated lookups sent once


async def test_a_reading_that_fits_the_graph_poorly_gives_way_to_the_next_one(path: KgqanPath, ck25: Endpoint) -> None:
    """"How many parts does the bill of material ElectroTide VortexLine have?" read as `?u1 | bill |
    ElectroTide VortexLine` links "bill" only weakly (to a label): the next reading, `?u1 | parts | ...`,
    fits clearly better and answers. A reading that fits well is kept whatever comes next."""
    number = AnswerType(AnswerKind.NUMBER)
    weak = replace(understood("count :: ?u1 | bill | ElectroTide VortexLine", number),
                   alternatives=(PhraseGraphPattern.from_text("count :: ?u1 | parts | ElectroTide VortexLine"),))
    alone = await path.answer_understood(weak, ck25, KGQAN_ONLY)
    result = await path.answer_readings(weak, ck25, KGQAN_ONLY)
    assert [a.value for a in result.answers] == ["9"] and [a.value for a in alone.answers] != ["9"]
    assert "fits the graph poorly" in result.notes[0] and result.sparql_requests > alone.sparql_requests
    strong = replace(understood("count :: ?u1 | parts | ElectroTide VortexLine", number),
                     alternatives=(PhraseGraphPattern.from_text("count :: ?u1 | bill | ElectroTide VortexLine"),))
    kept = await path.answer_readings(strong, ck25, KGQAN_ONLY)
    assert [a.value for a in kept.answers] == ["9"] and not any("reading" in n for n in kept.notes)


async def test_labelled_resources_fit_a_string_answer(path: KgqanPath, ck25: Endpoint) -> None:
    """The answer-kind classifier often says "string" for "Who ...?"/"Which ...?" (its training graphs
    answer with names). In a graph whose resources carry labels, they are presented by their labels,
    so they fit: no type mismatch, no penalty."""
    result = await path.answer_understood(
        understood("list :: ?u1 | product manager | Franz Kornhaeusel", AnswerType(AnswerKind.STRING)), ck25, KGQAN_ONLY)
    best = result.to_dict()["evidence"]["queries"][0]
    assert result.answers and best["status"] == "match"
    assert not any("fits the expected type" in note for note in result.notes)


async def test_values_win_over_things_the_graph_neither_names_nor_types(path: KgqanPath, ck25: Endpoint) -> None:
    """ck25's `country` fits "country" best but links out to DBpedia IRIs the graph says nothing of;
    `addressCountry` ("Canada") fits nearly as well and can be read, so its values answer."""
    question = understood("list :: ?u1 | country | Cooper, Walker and Perez", AnswerType(AnswerKind.RESOURCE, "country"))
    result = await path.answer_understood(question, ck25, KGQAN_ONLY)
    assert [a.value for a in result.answers] == ["Canada"]
    assert any("neither names nor types" in note for note in result.notes)
    best = result.to_dict()["evidence"]["queries"][0]
    assert best["answers"] == ["http://dbpedia.org/resource/Canada"] and f"<{PV}country>" in best["sparql"]

async def test_a_number_answer_reaches_the_value_through_the_thing(path: KgqanPath, ck25: Endpoint) -> None:
    """"What is the price of the most expensive service?": `price` leads to a price node, whose
    `amount` is the number asked for (a two-hop reading, as for ordered values)."""
    pattern = "list :: ?u1 | price | ?u2 ; ?u2 | expensive | ?u3 ; ?u2 | is a | service :: order ?u3 desc 1"
    result = await path.answer_understood(understood(pattern, AnswerType(AnswerKind.NUMBER)), ck25, KGQAN_ONLY)
    assert [a.value for a in result.answers] == ["1709.54"]


async def test_a_question_keeps_to_its_request_budget(path: KgqanPath, ck25: Endpoint) -> None:
    """A pattern whose queries all come back empty runs up to 6 of them (EMPTY_READING_QUERIES);
    `max_requests` bounds the requests of the whole question (linking, execution, naming), so execution
    stops earlier."""
    pattern = "list :: ?u1 | product manager | Franz Kornhaeusel ; ?u1 | weigh | ?u2 :: filter ?u2 > 1000"
    question = understood(pattern, AnswerType(AnswerKind.RESOURCE))
    free = await path.answer_understood(question, ck25, replace(KGQAN_ONLY, max_requests=100))
    bounded = await path.answer_understood(question, ck25, replace(KGQAN_ONLY, max_requests=11))
    assert not free.answers and not bounded.answers
    assert free.sparql_requests > 11 >= bounded.sparql_requests


async def test_two_named_things_values_compared_answer_yes_or_no(path: KgqanPath, ck25: Endpoint) -> None:
    """"Is the Sensor Adjustment service more expensive than the Component Confabulation service?" one
    way round and the other: ASK with each named thing's price compared."""
    truth = await ck25.sparql.select(f'SELECT ?n ?a WHERE {{ ?s <{PV}name> ?n ; <{PV}price>/<{PV}amount> ?a '
                                     f'FILTER(?n IN ("Sensor Adjustment", "Component Confabulation")) }}')
    price = {row["n"].value: float(row["a"].value) for row in truth.rows}
    for first, second in (("Sensor Adjustment", "Component Confabulation"), ("Component Confabulation", "Sensor Adjustment")):
        result = await path.answer_understood(
            understood(f"boolean :: {first} | price | ?u1 ; {second} | price | ?u2 :: filter ?u1 > ?u2",
                       AnswerType(AnswerKind.BOOLEAN)), ck25, KGQAN_ONLY)
        assert [a.value for a in result.answers] == [str(price[first] > price[second]).lower()]


async def test_a_count_compared_with_a_named_things_count(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which departments have more members than the Engineering department?": each department's count
    against Engineering's, in one HAVING."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | departments ; ?u1 | members | ?u2 ; Engineering | members | ?u3 "
                   ":: filter count ?u2 > ?u3", AnswerType(AnswerKind.RESOURCE)), ck25, KGQAN_ONLY)
    counts = await ck25.sparql.select(
        f'SELECT ?d (COUNT(?m) AS ?n) WHERE {{ ?d a <{PV}Department> . ?m <{PV}memberOf> ?d }} GROUP BY ?d')
    engineering = await ck25.sparql.select(f'SELECT (COUNT(?m) AS ?n) WHERE {{ ?e <{PV}name> "Engineering" . '
                                           f'?m <{PV}memberOf> ?e }}')
    bound = int(engineering.rows[0]["n"].value)
    expected = {row["d"].value for row in counts.rows if int(row["n"].value) > bound}
    assert 0 < len(expected) < len(counts.rows)
    assert {a.value for a in result.answers} == expected
    assert "COUNT(DISTINCT ?unknown2) > COUNT(DISTINCT ?unknown3)" in result.evidence.sparql


async def test_linking_alone_does_not_pass_the_request_budget(path: KgqanPath, ck25: Endpoint) -> None:
    """Three named places with their relations take more lookups than a budget of 8: linking stops at
    the budget (the requests past it are refused unsent) and the reading says why it has no answer."""
    pattern = ("list :: ?u1 | is a | suppliers ; ?u1 | country | United States ; ?u1 | country | Brazil ; "
               "?u1 | country | India")
    question = understood(pattern, AnswerType(AnswerKind.RESOURCE))
    free = await path.answer_understood(question, ck25, replace(KGQAN_ONLY, max_requests=100))
    bounded = await path.answer_understood(question, ck25, replace(KGQAN_ONLY, max_requests=8))
    assert free.sparql_requests > 8 >= bounded.sparql_requests
    assert not bounded.answers and "request budget" in bounded.notes[0]


async def test_the_wh_noun_filters_answers_where_the_pattern_has_no_class(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which suppliers are located in Switzerland?" decoded as `?u1 | suppliers | ?u2 ; ?u2 | located in |
    Switzerland` reads best as the products supplied from there; the question's wh-noun ("suppliers")
    makes the type filter prefer the reading whose answers are suppliers."""
    pattern = "list :: ?u1 | suppliers | ?u2 ; ?u2 | located in | Switzerland"
    plain = understood(pattern, AnswerType(AnswerKind.RESOURCE))
    asked = replace(plain, wh_noun="suppliers")
    without = await path.answer_understood(plain, ck25, KGQAN_ONLY)
    with_noun = await path.answer_understood(asked, ck25, KGQAN_ONLY)
    assert without.answers and all("/hw-" in a.value for a in without.answers)
    assert with_noun.answers and all("/suppl-" in a.value for a in with_noun.answers)


async def test_a_value_the_relation_phrase_swallowed_is_put_back_when_the_graph_holds_it(virtuoso) -> None:  # noqa: ANN001
    """"Which papers deal with architectural assumptions?" read as `?u1 | deal with architectural
    assumptions | ?u2`: the graph holds "Architectural Assumptions" (a contribution's research object,
    the only predicate carrying it), so the reading becomes `?u1 | deal with | architectural
    assumptions`, reached from the papers through their unnamed `contribution`."""
    path = FixedReadings("list :: ?u1 | is a | papers ; ?u1 | deal with architectural assumptions | ?u2",
                         kind=AnswerKind.RESOURCE)
    async with open_endpoint(virtuoso, "orkg-path-swallowed", "orkg") as orkg:
        result = await path.answer("Which papers deal with architectural assumptions?", orkg, KGQAN_ONLY)
        truth = await orkg.sparql.select(
            "SELECT ?p WHERE { ?p a <http://orkg.org/orkg/class/Paper> ; <http://orkg.org/orkg/predicate/contribution> ?c . "
            '?c <http://orkg.org/orkg/predicate/researchObject> "Architectural Assumptions" }')
    assert result.evidence.pattern == "list :: ?u1 | is a | papers ; ?u1 | deal with | architectural assumptions"
    assert {a.value for a in result.answers} == {r["p"].value for r in truth.rows} and truth.rows


async def test_a_value_the_pattern_left_out_is_put_back_when_the_graph_holds_it(virtuoso) -> None:  # noqa: ANN001
    """"How many papers use a case study as evaluation method?" read as `?u1 | evaluation method |
    ?u2`: the graph holds "Case Study", a word run of the question the pattern uses nowhere."""
    path = FixedReadings("count :: ?u1 | is a | papers ; ?u1 | evaluation method | ?u2", kind=AnswerKind.NUMBER)
    async with open_endpoint(virtuoso, "orkg-path-dropped", "orkg") as orkg:
        result = await path.answer("How many papers use a case study as evaluation method?", orkg, KGQAN_ONLY)
        truth = await orkg.sparql.select(
            "SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a <http://orkg.org/orkg/class/Paper> ; "
            "<http://orkg.org/orkg/predicate/contribution>/<http://orkg.org/orkg/predicate/evaluationMethod> ?m "
            'FILTER(LCASE(STR(?m)) = "case study") }')
    assert result.evidence.pattern == "count :: ?u1 | is a | papers ; ?u1 | evaluation method | case study"
    assert [a.value for a in result.answers] == [truth.rows[0]["n"].value] and truth.rows[0]["n"].value != "0"


CONCERT = "http://valuenet/ontop/concert"


@pytest.mark.parametrize(("pattern", "truth", "evidence"), [
    # a concert has no location; the stadium it refers to (`ref-stadium_id`, a foreign key) has
    ("list :: ?u1 | location | ?u2 ; ?u2 | is a | concerts ; ?u2 | year | 2014",
     f'SELECT DISTINCT ?v WHERE {{ ?c a <{CONCERT}> ; <{CONCERT}#year> "2014" ; '
     f"<{CONCERT}#ref-stadium_id>/<http://valuenet/ontop/stadium#location> ?v }}",
     f"<{CONCERT}#ref-stadium_id> ?kgqaVia"),
    # stadiums have no theme; the concerts that refer to them (`ref-stadium_id`, read backwards) have
    ("list :: ?u1 | themes | ?u2 ; ?u2 | is a | stadium ; ?u2 | capacity | ?u3 :: filter ?u3 > 10000",
     f"SELECT DISTINCT ?v WHERE {{ ?c <{CONCERT}#ref-stadium_id> ?s ; <{CONCERT}#theme> ?v . "
     "?s <http://valuenet/ontop/stadium#capacity> ?n FILTER(?n > 10000) }",
     f"?kgqaHolder0 <{CONCERT}#ref-stadium_id> ?unknown2"),
])
async def test_an_attribute_no_predicate_fits_is_read_one_reference_away(path: KgqanPath, concert: Endpoint,
                                                                         pattern: str, truth: str, evidence: str) -> None:
    """Nothing of the things fits the attribute phrase, so the attributes of the things they refer to
    (or that refer to them) are read behind an unnamed first hop, as tables joined by a foreign key."""
    result = await path.answer_understood(understood(pattern, AnswerType(AnswerKind.STRING)), concert, KGQAN_ONLY)
    rows = await concert.sparql.select(truth)
    assert sorted(a.value for a in result.answers) == sorted(r["v"].value for r in rows.rows) and rows.rows
    assert evidence in result.evidence.sparql


async def test_a_tie_for_first_answers_with_the_first_unless_asked_in_the_plural(path: KgqanPath,
                                                                               ck25: Endpoint) -> None:
    """Seven products share the highest reliability index. "Which product has ...?" answers as ORDER BY
    ... LIMIT 1 does, with the first in the endpoint's order and a note; "Which products have ...?" and
    the keep_ties option answer with all seven."""
    text = "list :: ?u1 | is a | {} ; ?u1 | reliability index | ?u2 :: order ?u2 desc 1"
    tied = (await ck25.sparql.select(
        f"SELECT ?s WHERE {{ ?s <{PV}reliabilityIndex> ?r . {{ SELECT (MAX(?x) AS ?m) WHERE {{ ?t <{PV}reliabilityIndex> ?x }} }} "
        "FILTER(?r = ?m) }")).column("s")
    assert len(tied) == 7
    one = replace(understood(text.format("product"), AnswerType(AnswerKind.RESOURCE)),
                  question="Which product has the highest reliability index?")
    first = await path.answer_understood(one, ck25, KGQAN_ONLY)
    assert len(first.answers) == 1 and first.answers[0].value in {t.value for t in tied}
    assert any("7 answers tie for first" in note for note in first.notes)
    assert first.evidence.sparql.endswith("LIMIT 1") and "ORDER BY DESC(" in first.evidence.sparql
    kept = await path.answer_understood(one, ck25, replace(KGQAN_ONLY, keep_ties=True))
    several = replace(understood(text.format("products"), AnswerType(AnswerKind.RESOURCE)),
                      question="Which products have the highest reliability index?")
    plural = await path.answer_understood(several, ck25, KGQAN_ONLY)
    for result in (kept, plural):
        assert {a.value for a in result.answers} == {t.value for t in tied}
        assert not any("tie for first" in note for note in result.notes)


async def test_a_count_that_every_reading_finds_zero_is_zero(path: KgqanPath, ck25: Endpoint) -> None:
    """No product weighs more than 90 g: a count of 0 from a well-fitting query is the answer, said so."""
    heavy = replace(understood("count :: ?u1 | is a | products ; ?u1 | weight | ?u2 :: filter ?u2 > 90",
                               AnswerType(AnswerKind.NUMBER)), question="How many products weigh more than 90 grams?")
    result = await path.answer_readings(heavy, ck25, KGQAN_ONLY)
    assert [a.value for a in result.answers] == ["0"] and any("counted nothing" in note for note in result.notes)
    unknown = replace(understood("count :: ?u1 | is a | products ; ?u1 | zzqx flavour | ?u2 :: filter ?u2 > 90",
                                 AnswerType(AnswerKind.NUMBER)), question="How many products have a zzqx flavour above 90?")
    assert (await path.answer_readings(unknown, ck25, KGQAN_ONLY)).answers == []  # nothing fits: no answer


@pytest.mark.parametrize(("measure", "descending"), [("avg", True), ("sum", False)])
async def test_groups_are_ranked_by_an_average_or_a_total_of_their_members_values(
        path: KgqanPath, ck25: Endpoint, measure: str, descending: bool) -> None:
    """"Which category has the highest average reliability index?" / "the lowest total weight": each
    category's members' values aggregated, the best group answers."""
    attribute, predicate = ("reliability index", "reliabilityIndex") if measure == "avg" else ("weight", "weight_g")
    pattern = (f"list :: ?u1 | is a | category ; ?u2 | category | ?u1 ; ?u2 | {attribute} | ?u3 "
               f":: order {measure} ?u3 {'desc' if descending else 'asc'} 1")
    result = await path.answer_understood(understood(pattern, AnswerType(AnswerKind.RESOURCE)), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(
        f"SELECT ?c WHERE {{ ?h <{PV}hasCategory> ?c ; <{PV}{predicate}> ?v }} GROUP BY ?c "
        f"ORDER BY {'DESC' if descending else 'ASC'}({measure.upper()}(?v)) LIMIT 1")
    assert [a.value for a in result.answers] == [truth.rows[0]["c"].value]
    assert f"{measure.upper()}(" in result.evidence.sparql


async def test_a_negated_relation_excludes_what_it_links_to(path: KgqanPath, ck25: Endpoint) -> None:
    """"How many suppliers are not based in Germany?": the suppliers less those whose country is
    Germany (FILTER NOT EXISTS), and only through a reading that matches something in the graph, so a
    predicate that holds nowhere does not let every supplier through."""
    result = await path.answer_understood(
        understood("count :: ?u1 | is a | suppliers ; ?u1 | not based in | Germany", AnswerType(AnswerKind.NUMBER)),
        ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT (COUNT(?s) AS ?n) WHERE {{ ?s a <{PV}Supplier> . '
                                     f'FILTER NOT EXISTS {{ ?s <{PV}addressCountry> "Germany" }} }}')
    assert [a.value for a in result.answers] == [truth.rows[0]["n"].value]
    assert "FILTER NOT EXISTS" in result.evidence.sparql and "FILTER EXISTS" in result.evidence.sparql


async def test_a_negation_alone_never_binds_the_answer(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which marketing people don't have a phone number?" where no class is "marketing people": what is left,
    a phone number that must not hold, binds no answer, and the engine would answer with anything at all
    (predicates, classes). No query is the honest outcome."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | marketing people ; ?u1 | not phone number | ?u2",
                   AnswerType(AnswerKind.RESOURCE, "marketing people")), ck25, KGQAN_ONLY)
    assert result.answers == [] and not any("NOT EXISTS" in q.sparql for q in result.evidence.queries)


async def test_the_kind_of_what_a_negated_link_reaches_is_inside_the_negation(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which suppliers do not supply any product?": the other thing's kind is only reached through the
    negated relation, so it belongs inside the FILTER NOT EXISTS; outside, it would ask for suppliers
    that do not supply some one product, which is every supplier."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | suppliers ; ?u1 | not supply | ?u2 ; ?u2 | is a | product",
                   AnswerType(AnswerKind.RESOURCE)), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?s WHERE {{ ?s a <{PV}Supplier> FILTER NOT EXISTS {{ ?p <{PV}hasSupplier> ?s }} }}")
    expected = {row["s"].value for row in truth.rows}
    assert 0 < len(expected) < 50
    assert {a.value for a in result.answers} == expected
    negation = result.evidence.sparql.split("FILTER NOT EXISTS", 1)[1].split("FILTER EXISTS", 1)[0]
    assert "type" in negation and "hasSupplier" in negation


async def test_a_value_compared_inside_a_negation_is_compared_there(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which papers do not provide a replication package?" (`?u1 | not provide ... | ?u2 :: filter ?u2 !=
    false`): the comparison of a value only the negated relation reaches goes inside the FILTER NOT EXISTS
    (outside, on an unbound value, it would drop every answer). Here: products with no weight above 10."""
    result = await path.answer_understood(
        understood("count :: ?u1 | is a | products ; ?u1 | not weight | ?u2 :: filter ?u2 > 10",
                   AnswerType(AnswerKind.NUMBER)), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE {{ ?p a ?c FILTER(?c IN (<{PV}Product>, "
                                     f"<{PV}Hardware>, <{PV}Service>)) FILTER NOT EXISTS "
                                     f"{{ ?p <{PV}weight_g> ?w FILTER(?w > 10) }} }}")
    assert int(truth.rows[0]["n"].value) > 0
    assert [a.value for a in result.answers] == [truth.rows[0]["n"].value]


async def test_a_next_reading_says_yes_only_by_asking_about_all_it_names(path: KgqanPath, ck25: Endpoint) -> None:
    """"Does Gretel Roth have expertise in compensators?": no, she has other areas. The next reading makes
    "compensators" a class, which ck25 lacks; its query asks only whether she has any expertise (yes), so
    it does not replace the best reading's no."""
    from linking.path import BETTER_READING

    best = understood("boolean :: Gretel Roth | expertise in | compensators", AnswerType(AnswerKind.BOOLEAN))
    first = await path.answer_understood(best, ck25, KGQAN_ONLY)
    assert [a.value for a in first.answers] == ["false"]
    asked = replace(best, alternatives=(
        PhraseGraphPattern.from_text("boolean :: ?u1 | expertise in | Gretel Roth ; ?u1 | is a | compensators"),))
    result = await path._next_reading(asked, first, ck25, KGQAN_ONLY, BETTER_READING)
    assert [a.value for a in result.answers] == ["false"]


async def test_a_text_match_filters_the_values_case_insensitively(path: KgqanPath, ck25: Endpoint) -> None:
    """"List the suppliers whose name starts with 'Ad'." / "... containing 'and Sons'"."""
    for operator, text, test in (("starts", "ad", "STRSTARTS"), ("contains", "AND SONS", "CONTAINS"), ("ends", "plc", "STRENDS")):
        result = await path.answer_understood(
            understood(f"list :: ?u1 | is a | suppliers ; ?u1 | name | ?u2 :: filter ?u2 {operator} {text}",
                       AnswerType(AnswerKind.RESOURCE)), ck25, KGQAN_ONLY)
        truth = await ck25.sparql.select(f'SELECT ?s WHERE {{ ?s a <{PV}Supplier> ; <{PV}name> ?n '
                                         f'FILTER({test}(LCASE(?n), "{text.lower()}")) }}')
        assert {a.value for a in result.answers} == {t.value for t in truth.column("s")} and truth.rows


async def test_members_of_a_kind_the_graph_names_by_a_thing_anchor_their_values(path: KgqanPath, ck25: Endpoint) -> None:
    """"What is the lowest price of a resistor?" (`?u2 | is a | resistor`): ck25 has no class Resistor
    but a category; its members anchor the edge to the aggregated value, which goes on through the
    price node to its amount."""
    pattern = "min :: ?u1 | price | ?u2 ; ?u2 | is a | resistor"
    result = await path.answer_understood(understood(pattern, AnswerType(AnswerKind.NUMBER)), ck25, KGQAN_ONLY)
    truth = (await ck25.sparql.select(f'SELECT (MIN(?a) AS ?v) WHERE {{ ?h <{PV}hasCategory>/<{PV}name> "Resistor" ; '
                                      f'<{PV}price>/<{PV}amount> ?a }}')).column("v")
    assert [float(a.value) for a in result.answers] == [pytest.approx(float(truth[0].value))]
    assert f"<{PV}amount>" in result.evidence.sparql and "prod-cat-Resistor" in result.evidence.sparql


def test_a_kind_after_a_peoples_adjective_is_the_kind_from_that_country() -> None:
    brazilian = PhraseGraphPattern.from_text("list :: ?u1 | is a | Brazilian supplier ; ?u1 | offers | ?u2")
    assert with_demonym_kinds(brazilian).to_text() == \
        "list :: ?u1 | is a | supplier ; ?u1 | country | Brazilian ; ?u1 | offers | ?u2"
    for kept in ("list :: ?u1 | is a | Network Dipole", "list :: ?u1 | is a | national park",
                 "list :: ?u1 | supplier | Brazilian"):
        assert with_demonym_kinds(PhraseGraphPattern.from_text(kept)).to_text() == kept


async def test_things_compared_with_a_named_things_value(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which services are cheaper than Manual Inspection?": each service's price against the named one's."""
    pattern = PhraseGraphPattern.from_text(
        "list :: ?u1 | is a | services ; ?u1 | price | ?u2 ; Manual Inspection | price | ?u3 :: filter ?u2 < ?u3")
    asked = UnderstoodQuestion("Which services are cheaper than Manual Inspection?", pattern,
                               AnswerType(AnswerKind.RESOURCE, "services"), "hand-written")
    result = await path.answer_understood(asked, ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(
        f'SELECT DISTINCT ?s WHERE {{ ?r <{PV}name> "Manual Inspection" ; <{PV}price>/<{PV}amount> ?limit . '
        f'?s a <{PV}Service> ; <{PV}price>/<{PV}amount> ?a FILTER(?a < ?limit) }}')
    assert truth.rows and {a.value for a in result.answers} == {r["s"].value for r in truth.rows}


async def test_a_yes_no_question_is_answered_through_one_thing_between_two_names(path: KgqanPath,
                                                                                 ck25: Endpoint) -> None:
    """"Is the supplier of <product> located in <country>?" read as `<product> | supplier | <country>`:
    no direct link, but one through the supplier; a country the supplier is not in stays no."""
    assert linked_through_one(PhraseGraphPattern.from_text("boolean :: A | supplier | B")).to_text() == \
        "boolean :: A | supplier | ?u1 ; ?u1 | supplier | B"
    assert linked_through_one(PhraseGraphPattern.from_text("boolean :: A | is a | supplier")) is None
    truth = await ck25.sparql.select(
        f"SELECT ?name ?country WHERE {{ ?p <{PV}name> ?name ; <{PV}hasSupplier> ?s . ?s <{PV}addressCountry> ?country "
        f"FILTER(?country IN ('Finland', 'Pakistan')) }} ORDER BY ?name LIMIT 1")
    name, country = truth.rows[0]["name"].value, truth.rows[0]["country"].value
    other = "Pakistan" if country == "Finland" else "Finland"
    for place, expected in ((country, "true"), (other, "false")):
        asked = UnderstoodQuestion(f"Is the supplier of {name} located in {place}?",
                                   PhraseGraphPattern.from_text(f"boolean :: {name} | supplier | {place}"),
                                   AnswerType(AnswerKind.BOOLEAN), "model")
        result = await path.answer_readings(asked, ck25, KGQAN_ONLY)
        assert [a.value for a in result.answers] == [expected], (place, result.notes)


@pytest.fixture(scope="module")
async def poker(oxigraph) -> AsyncIterator[Endpoint]:  # noqa: ANN001
    async with open_endpoint(oxigraph, "poker-path", "poker_player") as endpoint:
        yield endpoint


async def test_a_yes_no_class_question_is_answered_by_a_record_that_refers_to_the_thing(path: KgqanPath,
                                                                                      poker: Endpoint) -> None:
    """"Is X a poker player?" where a poker player is an unlabelled record referring to a person (a table's
    row): yes for a person such a record refers to, no for one no record refers to."""
    assert role_record_reading(PhraseGraphPattern.from_text("boolean :: A | is a | poker player")).to_text() == \
        "boolean :: ?u1 | is a | poker player ; ?u1 | poker player | A"
    assert role_record_reading(PhraseGraphPattern.from_text("boolean :: A | supplier | B")) is None
    people = "http://valuenet/ontop/people#name"
    truth = await poker.sparql.select(
        f"SELECT ?name (BOUND(?r) AS ?plays) WHERE {{ ?p <{people}> ?name OPTIONAL {{ ?r a <http://valuenet/ontop/poker_player> ; "
        f"?link ?p }} }} ORDER BY ?name")
    playing = next(r["name"].value for r in truth.rows if r["plays"].value == "true")
    others = [r["name"].value for r in truth.rows if r["plays"].value == "false"
              and r["name"].value not in {o["name"].value for o in truth.rows if o["plays"].value == "true"}]
    assert others, "the graph has people who play no poker"
    for name, expected in ((playing, "true"), (others[0], "false")):
        asked = UnderstoodQuestion(f"Is {name} a poker player?",
                                   PhraseGraphPattern.from_text(f"boolean :: {name} | is a | poker player"),
                                   AnswerType(AnswerKind.BOOLEAN), "model")
        result = await path.answer_readings(asked, poker, KGQAN_ONLY)
        assert [a.value for a in result.answers] == [expected], (name, result.notes)


async def test_an_unknown_next_to_a_name_is_looked_around_where_its_phrase_leads(path: KgqanPath, ck25: Endpoint) -> None:
    """"the manager of the product manager of the Sensor Adjustment service": the product manager is what
    the service's `hasProductManager` leads to, so "manager" is looked for around that person, not around
    every product the service is eligible for."""
    result = await path.answer_understood(
        understood("list :: ?u1 | manager | ?u2 ; ?u2 | product manager | Sensor Adjustment service",
                   AnswerType(AnswerKind.RESOURCE)), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT ?m WHERE {{ ?s <{PV}name> "Sensor Adjustment" ; <{PV}hasProductManager> ?p . '
                                     f'?p <{PV}hasManager> ?m }}')
    assert truth.rows and [a.value for a in result.answers] == [r["m"].value for r in truth.rows]
    assert f"<{PV}hasProductManager> ?unknown2" in result.evidence.sparql


async def test_an_edge_no_predicate_of_its_things_fits_is_looked_for_one_hop_beyond(path: KgqanPath,
                                                                                     ck25: Endpoint) -> None:
    """"the suppliers of the parts listed in the BOM X": the BOM lists part records (a part and its
    quantity), which have no supplier; the parts they point to do (`?u2 hasPart ?x . ?x hasSupplier ?u1`, or
    the hardware "parts" also names, reached through the records: `<X> hasBomPart ?r . ?r hasPart ?u2`)."""
    result = await path.answer_understood(
        understood("list :: ?u1 | suppliers | ?u2 ; ?u2 | is a | parts ; ?u2 | listed in | ElectroSphere Vesselink",
                   AnswerType(AnswerKind.RESOURCE, "suppliers")), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT DISTINCT ?s WHERE {{ ?b <{PV}name> "ElectroSphere Vesselink" ; '
                                     f'<{PV}hasBomPart>/<{PV}hasPart>/<{PV}hasSupplier> ?s }}')
    assert truth.rows and sorted(a.value for a in result.answers) == sorted(r["s"].value for r in truth.rows)
    assert f"<{PV}hasBomPart>" in result.evidence.sparql and f"<{PV}hasPart>" in result.evidence.sparql


async def test_records_are_ranked_by_the_value_of_the_thing_they_link_to(path: KgqanPath, ck25: Endpoint) -> None:
    """"the three most expensive parts in the BOM X": the part records have a quantity, no price; the part
    each links to has a price node with its amount (`?r hasPart ?x . ?x price ?p . ?p amount ?value`, or
    the hardware itself, reached through the records)."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | parts ; ?u1 | in | PulseCraft Vertex ; ?u1 | expensive | ?u2 :: order ?u2 desc 3",
                   AnswerType(AnswerKind.RESOURCE, "parts")), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT ?x WHERE {{ ?b <{PV}name> "PulseCraft Vertex" ; <{PV}hasBomPart>/<{PV}hasPart> ?x . '
                                     f'?x <{PV}price>/<{PV}amount> ?a }} ORDER BY DESC(?a) LIMIT 3')
    assert len(truth.rows) == 3 and sorted(a.value for a in result.answers) == sorted(r["x"].value for r in truth.rows)
    assert f"<{PV}hasPart>" in result.evidence.sparql and f"<{PV}amount>" in result.evidence.sparql


async def test_things_of_the_asked_kind_holding_a_record_of_the_name_are_found(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which bills of material use the product Driver Strain?": no bill points to the product; each lists
    part records, one of which points to it (`?u1 hasBomPart ?r . ?r hasPart <Driver Strain>`); "use" names
    neither hop, the asked kind does. A phrase that says no holding ("in") finds no such path."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | bills of material ; ?u1 | use | Driver Strain",
                   AnswerType(AnswerKind.RESOURCE, "bills of material")), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT DISTINCT ?b WHERE {{ ?p <{PV}name> "Driver Strain" . '
                                     f'?b <{PV}hasBomPart>/<{PV}hasPart> ?p }}')
    assert truth.rows and sorted(a.value for a in result.answers) == sorted(r["b"].value for r in truth.rows)
    assert f"<{PV}hasBomPart> ?kgqaHolder" in result.evidence.sparql
    located = await path.answer_understood(
        understood("list :: ?u1 | is a | bills of material ; ?u1 | in | Driver Strain",
                   AnswerType(AnswerKind.RESOURCE, "bills of material")), ck25, KGQAN_ONLY)
    assert f"<{PV}hasBomPart> ?kgqaHolder" not in (located.evidence.sparql or "")


async def test_things_holding_a_record_of_a_restricted_thing_are_found(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which bills of material include a part from the Crystal category?": the bills list part records,
    the records link to the parts, the parts have the category (`?u1 hasBomPart ?r . ?r hasPart ?u2 . ?u2
    hasCategory <Crystal>`); "include" names none of the links."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | bills of material ; ?u1 | include | ?u2 ; ?u2 | category | Crystal",
                   AnswerType(AnswerKind.RESOURCE, "bills of material")), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT DISTINCT ?b WHERE {{ ?c <{PV}name> "Crystal" . '
                                     f'?b <{PV}hasBomPart>/<{PV}hasPart>/<{PV}hasCategory> ?c }}')
    assert truth.rows and sorted(a.value for a in result.answers) == sorted(r["b"].value for r in truth.rows)


async def test_things_of_the_asked_kind_in_a_named_holder_are_found_through_its_records(path: KgqanPath,
                                                                                        ck25: Endpoint) -> None:
    """"Which hardware product in the bill of material NaviTech Pulsar is the heaviest?": the bill lists
    part records, which point to the hardware (`<bom> hasBomPart ?r . ?r hasPart ?u1`); "in" names neither."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | hardware product ; ?u1 | in | NaviTech Pulsar ; ?u1 | heaviest | ?u2 "
                   ":: order ?u2 desc 1", AnswerType(AnswerKind.RESOURCE, "hardware product")), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT ?x WHERE {{ ?b <{PV}name> "NaviTech Pulsar" ; <{PV}hasBomPart>/<{PV}hasPart> ?x . '
                                     f'?x <{PV}weight_g> ?w }} ORDER BY DESC(xsd:double(?w)) LIMIT 1'.replace(
                                         "xsd:double", "<http://www.w3.org/2001/XMLSchema#double>"))
    assert len(truth.rows) == 1 and [a.value for a in result.answers] == [truth.rows[0]["x"].value]


@pytest.mark.parametrize(("question", "names"), [
    ("What are the phone numbers of Lili Geier and Erhard Fried?", ("Lili Geier", "Erhard Fried")),
    ("What do the Compensator Switch and the Flow Compensator cost?", ("Compensator Switch", "Flow Compensator")),
    ("Which products are supplied by Bennett, Best and Jacobson?", None),  # the last two of a list of names
    ("Do Lili Geier and Erhard Fried work in the same department?", None),  # related to each other
    ("Which products are compatible with both A100 and B200?", None),
    ('How many authors does "A Framework for the Automation and Execution of Workflows" have?', None),  # one title
])
def test_two_names_asked_one_after_the_other(question: str, names: tuple[str, str] | None) -> None:
    from linking.split import two_names_asked

    assert two_names_asked(question) == names


async def test_a_question_about_two_names_is_answered_for_each(path: KgqanPath, ck25: Endpoint) -> None:
    result = await path.answer("What are the phone numbers of Lili Geier and Erhard Fried?", ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT ?p WHERE {{ VALUES ?n {{ "Lili Geier" "Erhard Fried" }} '
                                     f'?e <{PV}name> ?n ; <{PV}phone> ?p }}')
    assert len(truth.rows) == 2 and {a.value for a in result.answers} == {r["p"].value for r in truth.rows}
    assert "answered for each" in result.notes[0]
    one = await path.answer("Which products does Lee and Sons supply?", ck25, KGQAN_ONLY)
    assert not any("answered for each" in n for n in one.notes)  # the graph names one supplier so


@pytest.mark.parametrize(("best", "alternative", "drops"), [
    ("boolean :: Karch Moeller | report to | Elena Herzog", "boolean :: ?u1 | report to | Elena Herzog", True),
    ("boolean :: orchestra | use | DVD record format", "boolean :: orchestra | format | DVD", False),  # said again
    ("boolean :: Tracy Kim | own | dog", "boolean :: ?u1 | own | Tracy Kim", False),  # a kind, not a name, left out
    ("list :: ?u1 | report to | Elena Herzog", "list :: ?u1 | report to | ?u2", False),  # only yes/no readings
])
def test_a_yes_no_reading_is_not_replaced_by_one_without_its_names(best: str, alternative: str, drops: bool) -> None:
    assert _drops_a_name_asked_about(PhraseGraphPattern.from_text(best), PhraseGraphPattern.from_text(alternative)) is drops


async def test_a_value_two_things_share_is_no_thing_linking_them(path: KgqanPath, virtuoso) -> None:  # noqa: ANN001
    """A no said directly is not turned into yes through a value in common: the paper's threat-to-validity "False"
    and some other contribution's guideline flag "False" are no link from the paper to confirmability."""
    question = 'Does "Architectural Technical Debt: A Grounded Theory" discuss confirmability as a threat to validity?'
    async with open_endpoint(virtuoso, "orkg-path-shared", "orkg") as orkg:
        result = await path.answer(question, orkg, KGQAN_ONLY)
        truth = await orkg.sparql.ask(
            'ASK { ?p <http://www.w3.org/2000/01/rdf-schema#label> "Architectural Technical Debt: A Grounded Theory" ; '
            '<http://orkg.org/orkg/predicate/contribution>/<http://orkg.org/orkg/predicate/threatToValidity> ?t . '
            'FILTER(LCASE(STR(?t)) = "confirmability") }')
    assert truth is False
    assert [a.value for a in result.answers] == ["false"]


async def test_a_yes_from_a_query_without_a_named_thing_is_no(path: KgqanPath, ck25: Endpoint) -> None:
    """A yes counts only from a query about everything the question names: one that leaves the German
    supplier out asks only whether the product has any compatible product."""
    question = "is F383-6450755 compatible with any product supplied by a German supplier"
    result = await path.answer(question, ck25, KGQAN_ONLY)
    truth = await ck25.sparql.ask(
        'PREFIX pv: <http://ld.company.org/prod-vocab/> ASK { ?p pv:id "F383-6450755" ; pv:compatibleProduct ?c . '
        '?c pv:hasSupplier ?s . ?s pv:addressCountry "Germany" }')
    assert truth is False
    assert [a.value for a in result.answers] == ["false"]


def test_a_phrase_of_no_words_names_nothing_a_query_must_hold() -> None:
    from gateway.models import PathResult
    from linking.entities import NodeLinks
    from linking.path import KgqanEvidence

    evidence = KgqanEvidence(entities=[NodeLinks("?", kind="class"), NodeLinks("museum", kind="class")],
                             sparql="ASK WHERE { ?u <http://x/visited> ?m }")
    assert not _asks_every_node(PathResult("kgqan", evidence=evidence))  # the museum is not asked about
    evidence.entities = evidence.entities[:1]
    assert _asks_every_node(PathResult("kgqan", evidence=evidence))


@pytest.mark.parametrize(("best", "alternative", "keeps_only"), [
    ("list :: ?u1 | is a | papers ; ?u1 | conducted | interviews", "list :: ?u1 | is a | papers", True),
    ("count :: ?u1 | is a | suppliers ; ?u1 | located in | southern hemisphere", "count :: ?u1 | is a | suppliers", True),
    ("list :: ?u1 | is a | properties :: order ?u1 desc 1", "list :: ?u1 | is a | properties", True),
    ("list :: ?u1 | is a | reference", "list :: ?u1 | is a | papers", False),  # the best says no more than its class
    ("sum :: ?u1 | number | ?u2 ; ?u2 | is a | singers", "count :: ?u1 | is a | singers", False),  # names nothing
    ("list :: ?u1 | is a | papers ; ?u1 | used | interviews", "list :: ?u1 | is a | papers ; ?u1 | conducted | interviews", False),
    ("list :: ?u1 | products | zero", "list :: ?u1 | price | ?u2 :: filter ?u2 = 0", False),
])
def test_a_next_reading_of_only_the_class_does_not_replace_conditions(best: str, alternative: str, keeps_only: bool) -> None:
    assert _keeps_only_the_class(PhraseGraphPattern.from_text(best), PhraseGraphPattern.from_text(alternative)) is keeps_only


def test_a_reading_without_the_negation_never_answers_in_its_place() -> None:
    never = PhraseGraphPattern.from_text("list :: ?u1 | is a | airlines ; ?u1 | not out | AAF")
    assert _drops_a_negation(never, PhraseGraphPattern.from_text("list :: ?u1 | airlines | AAF"))
    assert not _drops_a_negation(never, PhraseGraphPattern.from_text("list :: ?u1 | is a | airlines ; ?u1 | not fly | AAF"))
    assert not _drops_a_negation(PhraseGraphPattern.from_text("list :: ?u1 | airlines | AAF"), never)


async def test_a_negated_question_is_not_answered_by_a_reading_without_its_negation(path: KgqanPath, oxigraph) -> None:  # noqa: ANN001
    """"Which airlines never fly out of AAF?": where the negated reading finds nothing, the reading with the asked kind
    as the relation (the airlines of AAF's flights) would answer the opposite; no answer is the honest one."""
    async with open_endpoint(oxigraph, "flight-path-never", "flight_2") as flights:
        never = understood("list :: ?u1 | is a | airlines ; ?u1 | not out | AAF", AnswerType(AnswerKind.RESOURCE, "airlines"))
        result = await path.answer_readings(replace(never, question="Which airlines never fly out of AAF?"),
                                            flights, KGQAN_ONLY)
    assert not any("asked kind as the relation" in note for note in result.notes)
    assert all("flights" not in a.value for a in result.answers)


async def test_a_value_of_the_things_a_names_holder_points_to(path: KgqanPath, oxigraph) -> None:  # noqa: ANN001
    """"How many different destination airports does JetBlue Airways fly to?": the name is an airline's
    (`airlines#airline`), the airline points to its flights (`airlines#ref-uid`), and their destination airports
    are what is counted; nothing around the airline itself fits "destination airports"."""
    v = "http://valuenet/ontop/"
    async with open_endpoint(oxigraph, "flight-path-beyond", "flight_2") as flights:
        result = await path.answer_understood(understood("count :: ?u1 | destination airports | JetBlue Airways",
                                                         AnswerType(AnswerKind.NUMBER)), flights, KGQAN_ONLY)
        truth = await flights.sparql.select(
            f'SELECT (COUNT(DISTINCT ?d) AS ?n) WHERE {{ ?a <{v}airlines#airline> "JetBlue Airways" ; <{v}airlines#uid> ?u . '
            f"?f <{v}flights#airline> ?u ; <{v}flights#destairport> ?d }}")
    assert int(truth.rows[0]["n"].value) > 1
    assert [a.value for a in result.answers] == [truth.rows[0]["n"].value]


async def test_parts_are_also_the_things_the_part_records_record(path: KgqanPath, ck25: Endpoint) -> None:
    """"parts" links to the class BOM Part best, whose records hold no reliability index; the hardware they
    record under `hasPart` is what "parts" means too: all of it, in a bill of material or not."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | parts ; ?u1 | reliability index | ?u2 :: filter ?u2 < 0.42",
                   AnswerType(AnswerKind.RESOURCE, "parts")), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?x WHERE {{ ?x a <{PV}Hardware> ; <{PV}reliabilityIndex> ?r FILTER(?r < 0.42) }}")
    listed = await ck25.sparql.select(f"SELECT DISTINCT ?x WHERE {{ ?r <{PV}hasPart> ?x ; a <{PV}BomPart> . "
                                      f"?x <{PV}reliabilityIndex> ?v FILTER(?v < 0.42) }}")
    assert len(truth.rows) > len(listed.rows)  # some of them are in no bill of material
    assert sorted(a.value for a in result.answers) == sorted(r["x"].value for r in truth.rows)
    counted = await path.answer_understood(
        understood("count :: ?u1 | is a | parts ; ?u1 | price | ?u2 :: filter ?u2 < 1", AnswerType(AnswerKind.NUMBER)),
        ck25, KGQAN_ONLY)
    cheap = await ck25.sparql.select(f"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ ?x a <{PV}Hardware> ; <{PV}price>/<{PV}amount> ?a "
                                     f"FILTER(?a < 1) }}")
    assert [a.value for a in counted.answers] == [cheap.rows[0]["n"].value]


async def test_a_measure_asked_beside_the_answers_is_the_number_its_thing_holds(path: KgqanPath, ck25: Endpoint) -> None:
    """"Every service with its price": a service's `price` is a price node; the value beside each service
    is that node's amount, and a department beside its members stays the department."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | service ; ?u1 | price | ?u2 :: select ?u1 ?u2", AnswerType(AnswerKind.RESOURCE,
                                                                                                   "service")),
        ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?s ?a WHERE {{ ?s a <{PV}Service> ; <{PV}price>/<{PV}amount> ?a }}")
    assert {tuple(v.value for v in a.values()) for a in result.answers} == \
        {(r["s"].value, r["a"].value) for r in truth.rows}
    members = await path.answer_understood(
        understood("list :: ?u1 | is a | manager ; ?u1 | department | ?u2 :: select ?u1 ?u2",
                   AnswerType(AnswerKind.RESOURCE, "manager")), ck25, KGQAN_ONLY)
    departments = await ck25.sparql.select(f"SELECT ?m ?d WHERE {{ ?m a <{PV}Manager> ; <{PV}memberOf> ?d }}")
    assert {tuple(v.value for v in a.values()) for a in members.answers} == \
        {(r["m"].value, r["d"].value) for r in departments.rows}


async def test_a_value_beside_things_listed_through_records_is_the_records(path: KgqanPath, ck25: Endpoint) -> None:
    """"The parts of bill of material X with their quantity": the bill lists its hardware through BOM part
    records, and each record, not the hardware, holds the quantity."""
    result = await path.answer_understood(
        understood("list :: ?u1 | parts | Mechtron SynthWave ; ?u1 | quantity | ?u2 :: select ?u1 ?u2",
                   AnswerType(AnswerKind.RESOURCE)), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?part ?q WHERE {{ ?bom <{PV}name> \"Mechtron SynthWave\" ; <{PV}hasBomPart> ?r . "
                                     f"?r <{PV}hasPart> ?part ; <{PV}quantity> ?q }}")
    assert truth.rows
    assert {tuple(v.value for v in a.values()) for a in result.answers} == {(r["part"].value, r["q"].value) for r in truth.rows}


async def test_a_sum_of_values_times_quantities(path: KgqanPath, ck25: Endpoint) -> None:
    """"The total cost of the parts of X, taking the quantities into account": each part's price times the
    quantity its BOM part record lists, summed (`times ?u3`)."""
    result = await path.answer_understood(
        understood("sum :: ?u1 | cost | ?u2 ; ?u2 | parts | ElectroMech ProDrive ; ?u2 | quantity | ?u3 :: times ?u3",
                   AnswerType(AnswerKind.NUMBER)), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(
        f'SELECT (SUM(<http://www.w3.org/2001/XMLSchema#double>(?q) * ?a) AS ?total) WHERE {{ ?bom <{PV}name> '
        f'"ElectroMech ProDrive" ; <{PV}hasBomPart> ?r . ?r <{PV}hasPart> ?part ; <{PV}quantity> ?q . '
        f"?part <{PV}price>/<{PV}amount> ?a }}")
    plain = await ck25.sparql.select(
        f'SELECT (SUM(?a) AS ?total) WHERE {{ ?bom <{PV}name> "ElectroMech ProDrive" ; <{PV}hasBomPart> ?r . '
        f"?r <{PV}hasPart> ?part . ?part <{PV}price>/<{PV}amount> ?a }}")
    expected = float(truth.rows[0]["total"].value)
    assert abs(expected - float(plain.rows[0]["total"].value)) > 1  # the quantities change the sum
    assert [round(float(a.value), 2) for a in result.answers] == [round(expected, 2)], result.evidence.sparql


async def test_things_whose_average_value_passes_a_bound(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which suppliers have an average reliability index above 0.9?": a supplier has no reliability index;
    the products it supplies do, and each supplier's average of them is compared (GROUP BY, HAVING)."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | supplier ; ?u1 | reliability index | ?u2 :: filter avg ?u2 > 0.9",
                   AnswerType(AnswerKind.RESOURCE, "supplier")), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?s WHERE {{ ?s a <{PV}Supplier> . ?p <{PV}hasSupplier> ?s ; <{PV}reliabilityIndex> ?r }} "
                                     f"GROUP BY ?s HAVING(AVG(?r) > 0.9)")
    everything = await ck25.sparql.select(f"SELECT DISTINCT ?s WHERE {{ ?p <{PV}hasSupplier> ?s ; <{PV}reliabilityIndex> ?r }}")
    assert 0 < len(truth.rows) < min(100, len(everything.rows))  # within the answers a question keeps
    assert {a.value for a in result.answers} == {r["s"].value for r in truth.rows}, (len(result.answers), len(truth.rows))


async def test_a_value_aggregated_per_group_with_no_kind_named(path: KgqanPath, ck25: Endpoint) -> None:
    """"What is the average price per category?" (`avg :: ?u1 | price | ?u2 ; ?u2 | category | ?u3 :: group
    ?u3`): nothing names what holds the prices, so the things between price and category are looked around,
    and the price node is taken on to its amount."""
    result = await path.answer_understood(
        understood("avg :: ?u1 | price | ?u2 ; ?u2 | category | ?u3 :: group ?u3", AnswerType(AnswerKind.NUMBER)),
        ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?c (AVG(?a) AS ?avg) WHERE {{ ?p <{PV}hasCategory> ?c ; "
                                     f"<{PV}price>/<{PV}amount> ?a }} GROUP BY ?c")
    assert sorted(round(float(a.value), 4) for a in result.answers) == \
        sorted(round(float(r["avg"].value), 4) for r in truth.rows), result.evidence.sparql


async def test_a_group_two_hops_away_is_reached_through_the_predicates_beyond(path: KgqanPath, ck25: Endpoint) -> None:
    """"How many products are supplied from each country?": a product has no country; its supplier has, and
    the supplier's predicates are scored by their words (not by their IRIs, which were not described)."""
    result = await path.answer_understood(
        understood("count :: ?u1 | is a | products ; ?u1 | country | ?u2 :: group ?u2", AnswerType(AnswerKind.NUMBER)),
        ck25, KGQAN_ONLY)
    assert f"<{PV}hasSupplier> ?kgqaVia1 . ?kgqaVia1 <{PV}country> ?unknown2" in result.evidence.sparql
    truth = await ck25.sparql.select(f"SELECT ?c (COUNT(DISTINCT ?p) AS ?n) WHERE {{ ?p a <{PV}Hardware> ; "
                                     f"<{PV}hasSupplier>/<{PV}country> ?c }} GROUP BY ?c")
    assert sorted(int(a.value) for a in result.answers) == sorted(int(r["n"].value) for r in truth.rows)


async def test_a_relation_named_by_a_synonym_of_its_kind_word(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which vendors make parts in the Sensor category?" and "Who is the boss of X?": `hasSupplier` and
    `hasManager` fit "vendors" and "boss" through their synonyms "suppliers" and "manager"."""
    vendors = await path.answer_understood(
        understood("list :: ?u1 | vendors | Sensor", AnswerType(AnswerKind.RESOURCE)), ck25, KGQAN_ONLY)
    assert f"<{PV}hasSupplier> ?unknown1" in vendors.evidence.sparql
    boss = await path.answer_understood(
        understood("list :: ?u1 | boss | Franz Kornhaeusel", AnswerType(AnswerKind.RESOURCE)), ck25, KGQAN_ONLY)
    assert f"<{PV}hasManager>" in boss.evidence.sparql


async def test_a_number_per_group_of_things_the_graph_does_not_name_is_given_per_value(path: KgqanPath,
                                                                                       ck25: Endpoint) -> None:
    """"How many suppliers are there in each country?": grouped by `country` (DBpedia IRIs the graph neither
    names nor types) the groups say nothing; grouped by `addressCountry` ("Canada"), close behind, they do."""
    result = await path.answer_understood(
        understood("count :: ?u1 | is a | suppliers ; ?u1 | country | ?u2 :: group ?u2", AnswerType(AnswerKind.NUMBER)),
        ck25, KGQAN_ONLY)
    assert f"<{PV}addressCountry> ?unknown2" in result.evidence.sparql
    assert any("neither names nor types" in n for n in result.notes)
    truth = await ck25.sparql.select(f"SELECT ?c (COUNT(DISTINCT ?s) AS ?n) WHERE {{ ?s a <{PV}Supplier> ; "
                                     f"<{PV}addressCountry> ?c }} GROUP BY ?c")
    assert sorted(int(a.value) for a in result.answers) == sorted(int(r["n"].value) for r in truth.rows)


async def test_a_range_of_values_per_group(path: KgqanPath, ck25: Endpoint) -> None:
    """"The difference between the most and the least expensive product in each category" (`range :: ...
    :: group ?u3`): MAX - MIN of the prices' amounts per category; a kind named by a category ("the price range
    of Transformer products") is its members, never the category alone."""
    result = await path.answer_understood(
        understood("range :: ?u1 | price | ?u2 ; ?u2 | is a | products ; ?u2 | category | ?u3 :: group ?u3",
                   AnswerType(AnswerKind.NUMBER)), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?c ((MAX(?a) - MIN(?a)) AS ?r) WHERE {{ ?p <{PV}hasCategory> ?c ; "
                                     f"<{PV}price>/<{PV}amount> ?a }} GROUP BY ?c")
    assert sorted(round(float(a.value), 2) for a in result.answers) == sorted(round(float(r["r"].value), 2)
                                                                               for r in truth.rows)
    members = await path.answer_understood(
        understood("range :: ?u1 | price | ?u2 ; ?u2 | is a | Transformer", AnswerType(AnswerKind.NUMBER)), ck25,
        KGQAN_ONLY)
    spread = await ck25.sparql.select(f"SELECT ((MAX(?a) - MIN(?a)) AS ?r) WHERE {{ ?p <{PV}hasCategory>/<{PV}name> "
                                      f'"Transformer" ; <{PV}price>/<{PV}amount> ?a }}')
    assert [round(float(a.value), 2) for a in members.answers] == [round(float(spread.rows[0]["r"].value), 2)]


async def test_a_bound_in_centimetres_against_a_width_in_millimetres(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which products are wider than 7.7 cm?": ck25 stores `width_mm`, so the bound is 77."""
    result = await path.answer_understood(
        understood("list :: ?u1 | is a | products ; ?u1 | width | ?u2 :: filter ?u2 > 7.7 cm",
                   AnswerType(AnswerKind.RESOURCE, "products")), ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?p WHERE {{ ?p <{PV}width_mm> ?w FILTER(?w > 77) }}")
    assert 0 < len(truth.rows) < 100 and {a.value for a in result.answers} == {r["p"].value for r in truth.rows}


@pytest.mark.parametrize(("question", "first", "second"), [
    ("Which suppliers are based in France or Germany?",
     "Which suppliers are based in France?", "Which suppliers are based in Germany?"),
    ("Which suppliers are located in either the United States or in Canada?",
     "Which suppliers are located in the United States?", "Which suppliers are located in Canada?"),
    ("How many products weigh under 5 kg or over 20 kg?",
     "How many products weigh under 5 kg?", "How many products weigh over 20 kg?"),
    ("Which employees or managers work in Sales?", "Which employees work in Sales?", "Which managers work in Sales?"),
    ("Which is cheaper, the Compensator Switch or the Flow Compensator?", None, None),  # a choice between the two
    ("Is the Multiplexer Crystal Switch supplied by Moran, Martin and Freeman or by Bryan-James?",
     "Is the Multiplexer Crystal Switch supplied by Moran, Martin and Freeman?",
     "Is the Multiplexer Crystal Switch supplied by Bryan-James?"),
    ("Are there suppliers in Japan or not?", None, None),
    ("Is it more or less expensive?", None, None),
    ("Which products cost 10 or 20 or 30 EUR?", None, None),  # more than two
    ("List the names of singers born before 1942 or after 1960.",
     "List the names of singers born before 1942.", "List the names of singers born after 1960."),
    ("Show the names of teachers who teach Math or History.",
     "Show the names of teachers who teach Math.", "Show the names of teachers who teach History."),
    ("List the names of teachers who are 32 or 33 years old.", None, None),  # numbers: one reading
    ("What is the course or courses taught by Lucy Wong?", None, None),  # one word and its plural
    ("Show the singers with a net worth above 28 million or whose citizenship is France.", None, None),
    ("How many singers are either male or younger than 30?",  # "either" says where the alternatives start
     "How many singers are male?", "How many singers are younger than 30?"),
    ("Find the names of the museums that either opened in 2008 or have more than 20 staff.",
     "Find the names of the museums that opened in 2008.", "Find the names of the museums that have more than 20 staff."),
    ("Show the names of teachers who teach either the 'Math' course or the 'Music' course.",
     "Show the names of teachers who teach the 'Math' course.", "Show the names of teachers who teach the 'Music' course."),
    ("Show the name of teachers aged either 32 or 33?", None, None),  # two numbers: one range
    ("Which museums either opened in 2008 or 2009, and which staff?", None, None),  # the second does not end it
    ("Find the names of museums with more than 30 staff or opened after 2010.", None, None),  # two clauses
    ("Which papers cite 'Pride or Prejudice in Software Architecture'?", None, None),  # one quoted title
    ("What are the number of votes from state 'NY' or 'CA'?",  # two quoted names
     "What are the number of votes from state 'NY'?", "What are the number of votes from state 'CA'?"),
])
def test_alternatives_asked_split_at_or(question: str, first: str | None, second: str | None) -> None:
    from linking.split import alternatives_asked

    either = alternatives_asked(question)
    assert (either.first, either.second) == (first, second) if first else either is None


async def test_a_question_about_either_of_two_alternatives_joins_their_answers(path: KgqanPath,
                                                                              ck25: Endpoint) -> None:
    listed = await path.answer("Which suppliers are based in France or Germany?", ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT DISTINCT ?s WHERE {{ ?s a <{PV}Supplier> ; <{PV}addressCountry> ?c . '
                                     f'VALUES ?c {{ "France" "Germany" }} }}')
    assert len(truth.rows) > 2 and {a.value for a in listed.answers} == {r["s"].value for r in truth.rows}
    assert "either of two alternatives" in listed.notes[0]
    union = await ck25.sparql.select(listed.evidence.sparql)  # one query for both (TEXT2SPARQL, the evidence)
    assert "UNION" in listed.evidence.sparql and {r["unknown1"].value for r in union.rows} == {a.value for a in listed.answers}
    counted = await path.answer("How many hardware products cost less than 0.50 EUR or more than 5.50 EUR?", ck25,
                                KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE {{ ?p a <{PV}Hardware> ; <{PV}price> ?v . '
                                     f'?v <{PV}amount> ?a FILTER(?a < 0.5 || ?a > 5.5) }}')
    assert [a.value for a in counted.answers] == [truth.rows[0]["n"].value]
    assert (await ck25.sparql.select(counted.evidence.sparql)).rows[0]["count"].value == truth.rows[0]["n"].value


@pytest.mark.parametrize(("question", "first", "second"), [
    ("Find the names of the visitors who visited both 'Capital Plaza Museum' and 'Willow Grande Museum'.",
     "Find the names of the visitors who visited 'Capital Plaza Museum'.",
     "Find the names of the visitors who visited 'Willow Grande Museum'."),
    ("Show the names of teachers who teach courses in both grade 1 and grade 7.",  # a noun and a number each
     "Show the names of teachers who teach courses in grade 1.", "Show the names of teachers who teach courses in grade 7."),
    ("List the states in which voters voted both for the contestant 'Tabatha Gehling' and the contestant 'Kelly Clauss'.",
     "List the states in which voters voted for the contestant 'Tabatha Gehling'.",  # the preposition said once
     "List the states in which voters voted for the contestant 'Kelly Clauss'."),
    ("Which countries have both male and female singers?", None, None),  # no names
    ("Are both Lee and Sons suppliers?", None, None),  # a yes/no question relates the two
])
def test_both_asked_split_at_both_and(question: str, first: str | None, second: str | None) -> None:
    from linking.split import both_asked

    both = both_asked(question)
    assert (both.first, both.second, both.both) == (first, second, True) if first else both is None


@pytest.mark.parametrize(("question", "first", "second"), [
    ("Which cities have both employees older than 35 and employees younger than 25?",
     "Which cities have employees older than 35?", "Which cities have employees younger than 25?"),
    ("Which students have both a pet heavier than 10 and a pet lighter than 10? Give me their first names.",
     "Which students have a pet heavier than 10? Give me their first names.",  # the next sentence stays with each
     "Which students have a pet lighter than 10? Give me their first names."),
    ("Show the record companies used by both orchestras founded before 2003 and orchestras founded after 2003.",
     "Show the record companies used by orchestras founded before 2003.",
     "Show the record companies used by orchestras founded after 2003."),
    ("Which countries have both male and female singers?", None, None),  # nothing compared
    ("Which suppliers supply both products cheaper than 5 EUR and sensors?", None, None),  # one side compares nothing
    ("Are both products cheaper than 5 EUR and sensors heavier than 2 grams?", None, None),  # a yes/no question
])
def test_both_compared_split_at_both_and(question: str, first: str | None, second: str | None) -> None:
    from linking.split import both_compared

    both = both_compared(question)
    assert (both.first, both.second, both.both, both.named) == (first, second, True, False) if first else both is None


@pytest.mark.parametrize(("question", "first", "second"), [
    ("Find the first name of students who have a dog but not a cat.",
     "Find the first name of students who have a dog.", "Find the first name of students who have a cat."),
    ("Find all airlines that have flights from airport 'ANC' but not from airport 'ABQ'.",
     "Find all airlines that have flights from airport 'ANC'.", "Find all airlines that have flights from airport 'ABQ'."),
    ("Find the names of singers who performed in a concert in 2014 but not in any concert in 2015.",  # "any": "a"
     "Find the names of singers who performed in a concert in 2014.",
     "Find the names of singers who performed in a concert in 2015."),
    ("Which employees are young but not in Sales?", None, None),  # what stands against "in Sales" starts otherwise
    ("Do students have dogs but not cats?", None, None),  # a yes/no question
    ("Which students who are not female have a dog but not a cat?", None, None),  # another negation
])
def test_but_not_splits_into_the_things_of_the_first_less_those_of_the_second(question: str, first: str | None,
                                                                              second: str | None) -> None:
    from linking.split import but_not_asked

    split = but_not_asked(question)
    assert (split.first, split.second, split.excluded, split.both) == (first, second, True, False) if first else \
        split is None


async def test_things_of_one_but_not_another_are_the_first_answers_less_the_seconds(path: KgqanPath,
                                                                                   oxigraph) -> None:  # noqa: ANN001
    """"Find the first name of students who own a dog but not a cat.": each asked alone, the first's answers less the
    second's; the evidence is one query, the first's MINUS the second's."""
    async with open_endpoint(oxigraph, "pets-but-not", "pets_1") as pets:
        result = await path.answer("Find the first name of students who own a dog but not a cat.", pets, KGQAN_ONLY)
        truth = await pets.sparql.select(
            "SELECT DISTINCT ?f WHERE { ?s <http://valuenet/ontop/student#fname> ?f . ?h <http://valuenet/ontop/has_pet#"
            "ref-stuid> ?s ; <http://valuenet/ontop/has_pet#ref-petid> ?p . ?p <http://valuenet/ontop/pets#pettype> \"dog\" "
            "FILTER NOT EXISTS { ?h2 <http://valuenet/ontop/has_pet#ref-stuid> ?s ; <http://valuenet/ontop/has_pet#ref-petid> "
            "?p2 . ?p2 <http://valuenet/ontop/pets#pettype> \"cat\" } }")
        assert sorted(a.value for a in result.answers) == sorted(t.value for t in truth.column("f")) != []
        assert "but not of another" in result.notes[0] and " MINUS " in result.evidence.sparql
        again = await pets.sparql.select(result.evidence.sparql)
        assert sorted(t.value for row in again for t in row.values()) == sorted(a.value for a in result.answers)


async def test_things_of_both_of_two_names_are_answered_apart_where_the_whole_loses_one(path: KgqanPath,
                                                                                       ck25: Endpoint) -> None:
    """"How many products belong to both the Inductor and the Oscillator categories?": the best reading of the whole
    loses "Inductor", so each is asked alone and the things both lists hold are counted; "... both the Encoder and
    the Transformer category" is read with both names and answered whole."""
    cat = "http://ld.company.org/prod-instances/prod-cat-"
    counted = await path.answer("How many products belong to both the Inductor and the Oscillator categories?", ck25,
                                KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE {{ ?p <{PV}hasCategory> <{cat}Inductor> , "
                                     f"<{cat}Oscillator> }}")
    assert [a.value for a in counted.answers] == [truth.rows[0]["n"].value] and "both of two things" in counted.notes[0]
    listed = await path.answer("Which hardware products belong to both the Encoder and the Transformer category?", ck25,
                               KGQAN_ONLY)
    truth = await ck25.sparql.select(f"SELECT ?p WHERE {{ ?p a <{PV}Hardware> ; <{PV}hasCategory> <{cat}Encoder> , "
                                     f"<{cat}Transformer> }}")
    assert {a.value for a in listed.answers} == {t.value for t in truth.column("p")} != set()
    assert not any("both of two things" in note for note in listed.notes)


def test_the_things_of_both_are_those_both_answers_hold() -> None:
    from gateway.models import Answer, PathResult
    from linking.path import _either
    from linking.split import Alternatives
    from understanding.pgp import QuestionForm

    def result(*values: str) -> PathResult:
        return PathResult("kgqan", answers=[Answer(v, "literal") for v in values], sparql_requests=3)

    both = Alternatives("q A", "q B", ("A", "B"), named=True, both=True)
    listed = _either(result("x", "y", "z"), result("y", "z", "w"), both, QuestionForm.LIST)
    assert [a.value for a in listed.answers] == ["y", "z"] and listed.sparql_requests == 6
    assert "both of two things" in listed.notes[0]
    assert [a.value for a in _either(result("x", "y"), result("y"), both, QuestionForm.COUNT).answers] == ["1"]
    assert _either(result("x"), result(), both, QuestionForm.COUNT).answers == []  # one side found nothing: no count
    said = _either(PathResult("kgqan", answers=[Answer.boolean(True)]), PathResult("kgqan", answers=[Answer.boolean(False)]),
                   both, QuestionForm.BOOLEAN)
    assert [a.value for a in said.answers] == ["false"]
    but_not = Alternatives("q A", "q B", ("A", "B"), excluded=True)
    assert [a.value for a in _either(result("x", "y", "z"), result("y", "w"), but_not, QuestionForm.LIST).answers] == \
        ["x", "z"]
    assert [a.value for a in _either(result("x", "y"), result("y"), but_not, QuestionForm.COUNT).answers] == ["1"]


def test_the_union_of_two_alternatives_queries() -> None:
    from linking.queries import union_query
    from understanding.pgp import QuestionForm

    a, b = "SELECT DISTINCT ?unknown1 WHERE { ?unknown1 <p> <A> } LIMIT 100", "SELECT DISTINCT ?unknown1 WHERE { ?unknown1 <p> <B> }"
    assert union_query(a, b, QuestionForm.LIST, 50) == (
        "SELECT DISTINCT ?unknown1 WHERE { { SELECT DISTINCT ?unknown1 WHERE { ?unknown1 <p> <A> } } UNION "
        "{ SELECT DISTINCT ?unknown1 WHERE { ?unknown1 <p> <B> } } } LIMIT 50")
    assert union_query(a, b, QuestionForm.COUNT).startswith("SELECT (COUNT(DISTINCT ?unknown1) AS ?count) WHERE {")
    assert union_query("ASK WHERE { <x> <p> <A> }", "ASK { <x> <p> <B> }", QuestionForm.BOOLEAN) == (
        "ASK { { <x> <p> <A> } UNION { <x> <p> <B> } }")
    assert union_query(a, "SELECT ?unknown1 ?unknown2 WHERE { ?unknown1 <p> ?unknown2 }", QuestionForm.LIST) is None
    assert union_query(a, b, QuestionForm.LIST, 50, both=True) == (  # the things of both: the join
        "SELECT DISTINCT ?unknown1 WHERE { { SELECT DISTINCT ?unknown1 WHERE { ?unknown1 <p> <A> } } "
        "{ SELECT DISTINCT ?unknown1 WHERE { ?unknown1 <p> <B> } } } LIMIT 50")
    assert union_query("ASK { <x> <p> <A> }", "ASK { <x> <p> <B> }", QuestionForm.BOOLEAN, both=True) is None
    assert union_query(a, b, QuestionForm.LIST, 50, excluded=True) == (  # the first's things less the second's
        "SELECT DISTINCT ?unknown1 WHERE { { SELECT DISTINCT ?unknown1 WHERE { ?unknown1 <p> <A> } } MINUS "
        "{ SELECT DISTINCT ?unknown1 WHERE { ?unknown1 <p> <B> } } } LIMIT 50")


async def test_a_kind_the_answer_is_said_not_to_be_is_left_out(path: KgqanPath, ck25: Endpoint) -> None:
    """"How many products are not sensors?": the products less those in the category the phrase links to."""
    result = await path.answer("How many products are not sensors?", ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE {{ ?p a ?c FILTER(?c IN (<{PV}Product>, '
                                     f'<{PV}Hardware>, <{PV}Service>)) FILTER NOT EXISTS {{ ?p <{PV}hasCategory> '
                                     f'<http://ld.company.org/prod-instances/prod-cat-Sensor> }} }}')
    assert [a.value for a in result.answers] == [truth.rows[0]["n"].value]


async def test_a_value_compared_with_its_average_over_its_kind(path: KgqanPath, concert: Endpoint,
                                                               ck25: Endpoint) -> None:
    """"... whose capacity is greater than the average capacity of all stadiums" (`filter ?u3 > average`): the
    average of that predicate's values over the holder's class, in a subquery; through a thing one hop on (a
    product's price node and its amount) the average follows the same two hops."""
    question = understood("list :: ?u1 | names | ?u2 ; ?u2 | is a | stadiums ; ?u2 | capacity | ?u3 :: filter ?u3 > average",
                          AnswerType(AnswerKind.STRING, "stadiums"))
    result = await path.answer_understood(question, concert, KGQAN_ONLY)
    capacity = "<http://valuenet/ontop/stadium#capacity>"
    truth = await concert.sparql.select(
        f"SELECT ?n WHERE {{ ?s <http://valuenet/ontop/stadium#name> ?n ; {capacity} ?c . {{ SELECT (AVG(?a) AS ?m) "
        f"WHERE {{ ?t {capacity} ?a }} }} FILTER(?c > ?m) }}")
    assert sorted(a.value for a in result.answers) == sorted(t.value for t in truth.column("n")) != []
    cheaper = await path.answer_understood(understood(
        "list :: ?u1 | is a | hardware ; ?u1 | price | ?u2 :: filter ?u2 < average", AnswerType(AnswerKind.RESOURCE, "hardware")),
        ck25, replace(KGQAN_ONLY, max_answers=1000))
    truth = await ck25.sparql.select(
        f"SELECT ?p WHERE {{ ?p a <{PV}Hardware> ; <{PV}price>/<{PV}amount> ?a . {{ SELECT (AVG(?b) AS ?m) WHERE {{ "
        f"?q a <{PV}Hardware> ; <{PV}price>/<{PV}amount> ?b }} }} FILTER(?a < ?m) }}")
    assert {a.value for a in cheaper.answers} == {t.value for t in truth.column("p")} != set()


async def test_a_count_of_the_values_a_question_asks_for_counts_values_not_holders(path: KgqanPath,
                                                                                   concert: Endpoint) -> None:
    """"How many different countries are there?" as `count :: ?u1 | countries | ?u2`: the phrase is what is asked,
    so the answer is the value end (the countries), not the singers holding them, where both read alike."""
    question = replace(understood("count :: ?u1 | countries | ?u2", AnswerType(AnswerKind.NUMBER)),
                       question="How many different countries are there?", wh_noun="different countries")
    result = await path.answer_understood(question, concert, KGQAN_ONLY)
    truth = await concert.sparql.select("SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?s <http://valuenet/ontop/singer#country> ?c }")
    assert [a.value for a in result.answers] == [truth.rows[0]["n"].value]


async def test_a_kind_reached_through_another_kind_is_answered_along_the_chain(path: KgqanPath, ck25: Endpoint) -> None:
    """"Which departments are responsible for products supplied by suppliers located in Japan?": three steps."""
    result = await path.answer("Which departments are responsible for products supplied by suppliers located in Japan?",
                               ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT DISTINCT ?d WHERE {{ ?d <{PV}responsibleFor> ?p . ?p <{PV}hasSupplier> ?s . '
                                     f'?s <{PV}addressCountry> "Japan" }}')
    assert truth.rows and {a.value for a in result.answers} == {r["d"].value for r in truth.rows}


async def test_people_sharing_a_value_with_a_named_person_hold_it_as_that_person_does(path: KgqanPath,
                                                                                      ck25: Endpoint) -> None:
    """"Who are Liese Adam's colleagues in her department?": `?u1 | department | ?u2 ; Liese Adam | department |
    ?u2`, both edges linked to one predicate with the department at the same end (not the department's
    members' departments), Liese Adam left out."""
    result = await path.answer("Who are Liese Adam's colleagues in her department?", ck25, KGQAN_ONLY)
    truth = await ck25.sparql.select(f'SELECT DISTINCT ?c WHERE {{ ?l <{PV}name> "Liese Adam" ; <{PV}memberOf> ?d . '
                                     f'?c <{PV}memberOf> ?d FILTER(?c != ?l) }}')
    assert truth.rows and {a.value for a in result.answers} == {r["c"].value for r in truth.rows}


def test_a_dated_name_is_the_name_and_a_year() -> None:
    from linking.path import with_dated_names

    pattern = PhraseGraphPattern.from_text("list :: ?u1 | is a | papers ; ?u1 | presented at | ECSA 2017")
    assert with_dated_names(pattern, ["ECSA 2017"]) == PhraseGraphPattern.from_text(
        "list :: ?u1 | is a | papers ; ?u1 | presented at | ECSA ; ?u1 | year | 2017")
    assert with_dated_names(pattern, []) == pattern


async def test_a_dated_venue_is_split_where_the_graph_names_the_venue_alone(path: KgqanPath, virtuoso) -> None:  # noqa: ANN001
    async with open_endpoint(virtuoso, "orkg-path-dated", "orkg") as orkg:
        result = await path.answer("Which papers were presented at ECSA 2017?", orkg, KGQAN_ONLY)
        truth = await orkg.sparql.select(
            "SELECT ?p WHERE { ?p a <http://orkg.org/orkg/class/Paper> ; <http://orkg.org/orkg/predicate/venue> ?v ; "
            '<http://orkg.org/orkg/predicate/publicationYear> "2017" . ?v <http://www.w3.org/2000/01/rdf-schema#label> '
            '"European Conference on Software Architecture (ECSA)" }')
    assert truth.rows and {a.value for a in result.answers} == {t.value for t in truth.column("p")}
    assert "| ECSA ; ?u1 | year | 2017" in result.evidence.pattern


async def test_who_did_what_a_record_records_is_the_thing_it_names_by_the_verbs_agent(path: KgqanPath,
                                                                                       concert: Endpoint) -> None:
    """"Who sang at the Auditions concert?" reaches `singer_in_concert` rows; the singer each names
    (`ref-singer_id`, the agent of "sang") is the answer, by name."""
    from linking.path import agent_nouns, verb_stems

    assert verb_stems("sang") == {"sing"} and "visitor" in agent_nouns(verb_stems("visited"))
    assert "manager" in agent_nouns(verb_stems("manages")) and "owner" in agent_nouns(verb_stems("owns"))
    question = UnderstoodQuestion("Who sang at the Auditions concert?",
                                  PhraseGraphPattern.from_text("list :: ?u1 | sang at | Auditions concert"),
                                  AnswerType(AnswerKind.RESOURCE), "hand-written")
    result = await path.answer_understood(question, concert, KGQAN_ONLY)
    assert sorted(a.value for a in result.answers) == ["John Nizinik", "Justin Brown", "Timbaland"]
    assert "ref-singer_id" in result.evidence.sparql


def test_a_reading_answered_only_by_its_own_names_answered_nothing() -> None:
    """"Show the names of teachers who teach History." read next as `?u1 | names | History` answers "History"
    (the course's own name column): the question's own words are no answer, so the next reading is not taken."""
    from gateway.models import Answer, PathResult

    def result(*values: str) -> PathResult:
        return PathResult("kgqan", answers=[Answer(v, "literal") for v in values])

    echo = PhraseGraphPattern.from_text("list :: ?u1 | names | History")
    assert _echoes_its_names(result("History"), echo)
    assert not _echoes_its_names(result("History", "Anne Walker"), echo)
    assert not _echoes_its_names(result("Anne Walker"), echo) and not _echoes_its_names(result(), echo)
    assert not _echoes_its_names(result("teachers"), PhraseGraphPattern.from_text("list :: ?u1 | is a | teachers"))


# the students (`?s`) who own a dog, through the rows of `has_pet`
_DOG_OWNERS = ('?h <http://valuenet/ontop/has_pet#ref-petid> ?p ; <http://valuenet/ontop/has_pet#ref-stuid> ?s . '
               '?p <http://valuenet/ontop/pets#pettype> "dog" .')


async def test_things_joined_to_a_value_through_a_link_tables_rows_answer_for_it(path: KgqanPath,
                                                                                 oxigraph) -> None:  # noqa: ANN001
    """"Which students own a dog?" where "dog" is a pet's `pettype` and students own pets through `has_pet` rows
    (`ref-stuid`, `ref-petid`): no predicate of a pet reaches a student, so the two hops from the pets through
    the rows are read as the connector; the students, not the pets or the rows, answer (by their given and family
    names: a student has no name column)."""
    question = UnderstoodQuestion("Which students own a dog?",
                                  PhraseGraphPattern.from_text("list :: ?u1 | is a | students ; ?u1 | own | dog"),
                                  AnswerType(AnswerKind.STRING, "students"), "hand-written")
    async with open_endpoint(oxigraph, "pets-path", "pets_1") as pets:
        truth = await pets.sparql.select(f"SELECT DISTINCT ?f ?l WHERE {{ {_DOG_OWNERS} ?s <http://valuenet/ontop/student#fname> "
                                         "?f ; <http://valuenet/ontop/student#lname> ?l }")
        result = await path.answer_understood(question, pets, KGQAN_ONLY)
    assert sorted((a.value, dict(a.row)["family name"].value) for a in result.answers) == \
        sorted((row["f"].value, row["l"].value) for row in truth) != []
    assert "has_pet#ref-stuid" in result.evidence.sparql


async def test_things_whose_ids_are_asked_are_shown_by_their_key(path: KgqanPath, oxigraph) -> None:  # noqa: ANN001
    """"Give me the ids of the students who own a dog.": the students answer by their key (`stuid`), not by the
    names that present them otherwise; a student picked by its id ("with id 1001") is no ids asked."""
    question = UnderstoodQuestion("Give me the ids of the students who own a dog.",
                                  PhraseGraphPattern.from_text("list :: ?u1 | is a | students ; ?u1 | own | dog"),
                                  AnswerType(AnswerKind.STRING, "students"), "hand-written")
    async with open_endpoint(oxigraph, "pets-path-ids", "pets_1") as pets:
        truth = await pets.sparql.select(f"SELECT DISTINCT ?id WHERE {{ {_DOG_OWNERS} ?s <http://valuenet/ontop/student#stuid> ?id }}")
        result = await path.answer_understood(question, pets, KGQAN_ONLY)
    assert sorted(a.value for a in result.answers) == sorted(t.value for t in truth.column("id")) != []
    assert [_IDS_ASKED.search(q) is not None for q in (
        "Show the student id and the number of pets.", "What is the id of Tracy Kim?",
        "What is the name of the student with id 1001?", "Which student has ID 1001?", "Show the student whose id is 5.",
    )] == [True, True, False, False, False]


async def test_a_phrase_naming_the_vertexs_kind_reaches_the_asked_kind_through_the_rows_naming_the_vertex(
        path: KgqanPath, oxigraph) -> None:  # noqa: ANN001
    """"What is the average age of the teachers who teach the 'Math' course?" read as `?u2 | course | Math`: "course"
    names the column that holds the course's own name (`course#course`), not how teachers relate to it; the
    `course_arrange` rows naming the course refer to the teachers, whose ages are averaged."""
    question = UnderstoodQuestion("What is the average age of the teachers who teach the 'Math' course?",
                                  PhraseGraphPattern.from_text(
                                      "avg :: ?u1 | age | ?u2 ; ?u2 | is a | teachers ; ?u2 | course | Math"),
                                  AnswerType(AnswerKind.NUMBER), "hand-written")
    async with open_endpoint(oxigraph, "course-path-rows", "course_teach") as courses:
        truth = await courses.sparql.select(
            "SELECT (AVG(<http://www.w3.org/2001/XMLSchema#double>(?age)) AS ?a) WHERE { { SELECT DISTINCT ?t ?age WHERE { "
            "?c <http://valuenet/ontop/course#course> \"Math\" . ?r <http://valuenet/ontop/course_arrange#ref-course_id> ?c ; "
            "<http://valuenet/ontop/course_arrange#ref-teacher_id> ?t . ?t <http://valuenet/ontop/teacher#age> ?age } } }")
        result = await path.answer_understood(question, courses, KGQAN_ONLY)
    assert [float(a.value) for a in result.answers] == [float(truth.rows[0]["a"].value)]
    assert "course_arrange#ref-teacher_id" in result.evidence.sparql


async def test_groups_a_number_is_given_for_are_shown_by_given_and_family_name(path: KgqanPath,
                                                                                oxigraph) -> None:  # noqa: ANN001
    """"How many pets does each student have?": the students counted for have no name column, so each count comes
    with the student's given name and family name (not the student's key)."""
    question = UnderstoodQuestion("How many pets does each student have?", PhraseGraphPattern.from_text(
        "count :: ?u1 | is a | pets ; ?u1 | student | ?u2 :: group ?u2"), AnswerType(AnswerKind.NUMBER), "hand-written")
    async with open_endpoint(oxigraph, "pets-path-groups", "pets_1") as pets:
        truth = await pets.sparql.select(
            "SELECT ?f ?l (COUNT(?p) AS ?n) WHERE { ?h <http://valuenet/ontop/has_pet#ref-petid> ?p ; "
            "<http://valuenet/ontop/has_pet#ref-stuid> ?s . ?s <http://valuenet/ontop/student#fname> ?f ; "
            "<http://valuenet/ontop/student#lname> ?l } GROUP BY ?f ?l")
        result = await path.answer_understood(question, pets, KGQAN_ONLY)
    shown = sorted((a.value, *(cell.value for _, cell in a.row)) for a in result.answers)
    assert shown == sorted((row["n"].value, row["f"].value, row["l"].value) for row in truth) != []
    assert [column for column, _ in result.answers[0].row] == ["student", "family name"]


async def test_two_kinds_joined_only_through_a_link_tables_rows_are_joined_through_them(path: KgqanPath,
                                                                                        oxigraph) -> None:  # noqa: ANN001
    """"Which pets are owned by students older than 18?": no predicate of a pet reaches a student (the `has_pet`
    rows refer to both), so the two hops through the rows join the two kinds, whatever the phrase; the rows
    themselves, which have no age, are no students."""
    question = UnderstoodQuestion("Which pets are owned by students older than 18?", PhraseGraphPattern.from_text(
        "list :: ?u1 | is a | pets ; ?u1 | owned by | ?u2 ; ?u2 | is a | students ; ?u2 | age | ?u3 :: filter ?u3 > 18"),
        AnswerType(AnswerKind.STRING, "pets"), "hand-written")
    async with open_endpoint(oxigraph, "pets-path-kinds", "pets_1") as pets:
        truth = await pets.sparql.select(
            "SELECT DISTINCT ?id WHERE { ?h <http://valuenet/ontop/has_pet#ref-petid> ?p ; "
            "<http://valuenet/ontop/has_pet#ref-stuid> ?s . ?s <http://valuenet/ontop/student#age> ?age "
            "FILTER(?age > 18) ?p <http://valuenet/ontop/pets#petid> ?id }")
        result = await path.answer_understood(question, pets, KGQAN_ONLY)
    assert sorted(a.value for a in result.answers) == sorted(t.value for t in truth.column("id")) != []
    assert "has_pet#ref-stuid" in result.evidence.sparql


async def test_things_not_of_a_class_kept_as_rows_referring_to_them_are_those_no_row_refers_to(
        path: KgqanPath, poker: Endpoint) -> None:
    """"Which people are not poker players?" where no person is of class `poker_player`: a poker player is an
    unlabelled row referring to a person, so the people no such row refers to answer (not every person)."""
    people = "http://valuenet/ontop/people#name"
    truth = await poker.sparql.select(
        f"SELECT ?name WHERE {{ ?p <{people}> ?name FILTER NOT EXISTS {{ ?r a <http://valuenet/ontop/poker_player> ; "
        "<http://valuenet/ontop/poker_player#ref-people_id> ?p } }")
    question = UnderstoodQuestion("Which people are not poker players?",
                                  PhraseGraphPattern.from_text("list :: ?u1 | is a | people ; ?u1 | not is a | poker players"),
                                  AnswerType(AnswerKind.STRING, "people"), "hand-written")
    result = await path.answer_understood(question, poker, KGQAN_ONLY)
    assert sorted(a.value for a in result.answers) == sorted(t.value for t in truth.column("name")) != []


async def test_an_attribute_of_the_things_rows_naming_a_vertex_refer_to_answers(path: KgqanPath, oxigraph) -> None:  # noqa: ANN001
    """"What type of pet does Linda Smith have?": `has_pet` rows refer to her (`ref-stuid`) and to a pet
    (`ref-petid`); the pet's `pettype` (glued words: "pet type") fits the phrase, so its value answers,
    not the row or the pet."""
    async with open_endpoint(oxigraph, "pets-path-attribute", "pets_1") as pets:
        truth = await pets.sparql.select(
            "SELECT DISTINCT ?t WHERE { ?s <http://valuenet/ontop/student#fname> \"Linda\" ; "
            "<http://valuenet/ontop/student#lname> \"Smith\" . ?h <http://valuenet/ontop/has_pet#ref-stuid> ?s ; "
            "<http://valuenet/ontop/has_pet#ref-petid> ?p . ?p <http://valuenet/ontop/pets#pettype> ?t }")
        result = await path.answer_understood(
            UnderstoodQuestion("What type of pet does Linda Smith have?",
                               PhraseGraphPattern.from_text("list :: ?u1 | type of pet | Linda Smith"),
                               AnswerType(AnswerKind.STRING), "hand-written"), pets, KGQAN_ONLY)
    assert [a.value for a in result.answers] == [t.value for t in truth.column("t")] != []
    assert "pets#pettype" in result.evidence.sparql


async def test_a_phrase_that_fits_no_predicate_reaches_the_asked_kind_through_the_rows_of_the_vertex(
        path: KgqanPath, oxigraph) -> None:  # noqa: ANN001
    """"Which airlines fly out of Aspen airport?" read as `?u1 | out | Aspen airport`: "out" fits no predicate;
    flights refer to the airport and airlines to the flights, so the airlines of those rows answer (by name),
    not the flights."""
    airports = "http://valuenet/ontop/airports/airportcode=ASE"
    async with open_endpoint(oxigraph, "flights-path-kind", "flight_2") as flights:
        truth = await flights.sparql.select(
            f"SELECT DISTINCT ?name WHERE {{ ?f <http://valuenet/ontop/flights#ref-sourceairport> <{airports}> . "
            "?a <http://valuenet/ontop/airlines#ref-uid> ?f ; <http://valuenet/ontop/airlines#airline> ?name }")
        result = await path.answer_understood(
            UnderstoodQuestion("Which airlines fly out of Aspen airport?",
                               PhraseGraphPattern.from_text("list :: ?u1 | is a | airlines ; ?u1 | out | Aspen airport"),
                               AnswerType(AnswerKind.RESOURCE, "airlines"), "hand-written"), flights, KGQAN_ONLY)
    assert sorted(a.value for a in result.answers) == sorted(t.value for t in truth.column("name")) != []


async def test_a_kind_said_female_or_male_is_the_kind_of_that_sex_stored_as_a_code(path: KgqanPath,
                                                                                  oxigraph) -> None:  # noqa: ANN001
    """"How many female students are there?" (the model's reading keeps only `students`): the sex the question
    says is added (`?u1 | sex | female`) and linked as the code the table stores ("F")."""
    def added(question: str, pattern: str) -> str:
        return with_sex_kinds(question, PhraseGraphPattern.from_text(pattern)).to_text()

    assert added("How many female students are there?", "count :: ?u1 | is a | students") == \
        "count :: ?u1 | is a | students ; ?u1 | sex | female"
    assert added("Which female students are older than 20?", "list :: ?u1 | is a | female students") == \
        "list :: ?u1 | is a | students ; ?u1 | sex | female"
    assert added("List the male singers.", "list :: ?u1 | is a | singers") == "list :: ?u1 | is a | singers ; ?u1 | sex | male"
    assert added("How many students are there?", "count :: ?u1 | is a | students") == "count :: ?u1 | is a | students"
    async with open_endpoint(oxigraph, "pets-path-sex", "pets_1") as pets:
        truth = await pets.sparql.select("SELECT (COUNT(?s) AS ?n) WHERE { ?s <http://valuenet/ontop/student#sex> \"F\" }")
        result = await path.answer("How many female students are there?", pets, KGQAN_ONLY)
    assert [a.value for a in result.answers] == [truth.rows[0]["n"].value]


async def test_a_year_no_value_equals_is_the_year_of_a_date(path: KgqanPath, poker: Endpoint) -> None:
    """"Who was born in 1987?" where birth dates are written "May 26, 1987": no value is "1987", so the year
    is compared with the year of a date (`?u1 | born in | ?u2 :: filter ?u2 = 1987`)."""
    from linking.relaxation import read_as_years

    assert read_as_years(PhraseGraphPattern.from_text("list :: ?u1 | born in | 1987"), ["1987"]).to_text() == \
        "list :: ?u1 | born in | ?u2 :: filter ?u2 = 1987"
    truth = await poker.sparql.select(
        'SELECT ?name WHERE { ?p <http://valuenet/ontop/people#birth_date> ?d ; <http://valuenet/ontop/people#name> ?name '
        'FILTER(STRENDS(?d, "1987")) }')
    result = await path.answer_understood(understood("list :: ?u1 | born in | 1987", AnswerType(AnswerKind.STRING)),
                                          poker, KGQAN_ONLY)
    assert sorted(a.value for a in result.answers) == sorted(t.value for t in truth.column("name")) != []


async def test_a_sex_the_graph_stores_no_code_for_is_read_without_it_next(path: KgqanPath, concert: Endpoint) -> None:
    """"the male singers" on a graph that keeps sex as `is_male` true/false, no "M": the reading with the sex finds
    nothing, and the reading without it comes next (as before the sex was read), not no answer at all."""
    result = await path.answer("What is the maximum age of the male singers?", concert, KGQAN_ONLY)
    assert result.answers and any("sex | male" in note for note in result.notes), result.notes


@pytest.mark.parametrize(("question", "kind", "asked"), [
    ("Which airline has the most flights?", "airline", True),
    ("Show all template ids and the number of documents using each.", "template", False),  # their ids
    ("List the flight numbers of Virgin America flights.", "flight", False),
    ("Which email does the head of services have?", "services", False),
])
def test_questions_that_ask_for_things_of_a_kind(question: str, kind: str, asked: bool) -> None:
    """Where one such thing is asked, numbers the graph types as such are its keys (`keys_unfit`)."""
    assert _asks_for_things(question, kind) is asked
