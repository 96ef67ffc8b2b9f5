"""Query building (every question form), Eq. 2 ranking, and execution with early stop, on real engines.

Patterns are hand-linked here (vertices, classes and predicates of the concert_singer graph) so the
builder and the executor are tested on their own; linking itself is tested in test_linking_linking.py.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator

import pyoxigraph as ox
import pytest
from conftest import KGS, open_endpoint

from gateway.endpoint import Endpoint
from gateway.sparql import counting_requests
from linking.entities import RDF_TYPE, LinkedEntity
from linking.execution import EMPTY, MATCH, SKIPPED, QueryExecutor, select_answer
from linking.filtering import FilterOutcome
from linking.queries import (
    CandidateQuery,
    EdgeLinks,
    LinkedPattern,
    QueryBuilder,
    _best_products,
    _Choice,
)
from linking.relations import IN, OUT, LinkedPredicate
from understanding.pgp import PhraseGraphPattern, QuestionForm

V = "http://valuenet/ontop/"
SINGER = LinkedEntity(ox.NamedNode(V + "singer"), "singer", 1.0, "class")
STADIUM = LinkedEntity(ox.NamedNode(V + "stadium"), "stadium", 1.0, "class")
FRANCE = LinkedEntity(ox.Literal("France"), "France", 0.99, "literal", (V + "singer#country",))


def pred(local: str, score: float, direction: str = OUT) -> LinkedPredicate:
    """A predicate of concert_singer: links to things are the `#ref-` columns, the others hold values."""
    return LinkedPredicate(V + local, local, score, direction, literal=direction == OUT and "#ref-" not in local,
                           to_things="#ref-" in local)


def linked(text: str, *, classes: dict[str, list[LinkedEntity]] | None = None,
           nodes: dict[str, list[LinkedEntity]] | None = None,
           edges: dict[str, tuple[str, dict[str, list[LinkedPredicate]]]] | None = None) -> LinkedPattern:
    pattern = PhraseGraphPattern.from_text(text)
    edge_links = []
    for triple in pattern.triples:
        if triple.is_type:
            continue
        anchor, by_anchor = (edges or {})[triple.relation]
        edge_links.append(EdgeLinks(triple, anchor, by_anchor))
    return LinkedPattern(pattern, nodes or {}, classes or {}, edge_links)


@pytest.fixture(scope="module")
async def concert(oxigraph) -> AsyncIterator[Endpoint]:  # noqa: ANN001
    async with open_endpoint(oxigraph, "concert-oxigraph", "concert_singer") as endpoint:
        yield endpoint


def accept_all(answers: list, types: dict) -> FilterOutcome:  # noqa: ANN001
    return FilterOutcome(list(answers))


def test_list_query_ranks_by_eq2_and_asks_for_types() -> None:
    pattern = linked("list :: ?u1 | is a | singers ; ?u1 | country | France",
                     classes={"singers": [SINGER]}, nodes={"France": [FRANCE]},
                     edges={"country": ("France", {'"France"': [pred("singer#country", 0.9, IN),
                                                                pred("singer#name", 0.2, IN)]})})
    pattern.nodes["France"] = [LinkedEntity(ox.Literal("France"), "France", 0.99, "literal",
                                            (V + "singer#country", V + "singer#name"))]
    pattern.edges[0] = EdgeLinks(pattern.edges[0].triple, "France",
                                 {"France": [pred("singer#country", 0.9, IN), pred("singer#name", 0.2, IN)]})
    queries = QueryBuilder().build(pattern)
    assert len(queries) == 4  # 2 predicates x (class kept, class dropped)
    best = queries[0]
    assert best.score == pytest.approx((0.99 + 1.0 + 0.9) / 3)  # Eq. 2: mean of vertex, class, predicate scores
    assert f'?unknown1 <{V}singer#country> "France"' in best.pattern
    assert best.sparql.startswith("SELECT DISTINCT ?unknown1 WHERE") and "OPTIONAL" not in best.sparql
    assert "OPTIONAL { ?unknown1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> ?type }" in best.execution_sparql
    assert queries[1].score < best.score
    assert all(q.score < best.score for q in queries if "#type> <" not in q.pattern)  # a dropped class costs


def test_class_phrase_reads_as_subclasses_or_an_attribute_value() -> None:
    product = LinkedEntity(ox.NamedNode(V + "Product"), "product", 0.95, "class",
                           subclasses=(V + "Hardware", V + "Service"))
    dog = LinkedEntity(ox.Literal("dog"), "dog", 0.99, "literal", (V + "pets#pettype",))
    queries = QueryBuilder().build(linked("count :: ?u1 | is a | products", classes={"products": [product]}))
    assert f"FILTER(?kgqaClass0 IN (<{V}Product>, <{V}Hardware>, <{V}Service>))" in queries[0].pattern
    pets = QueryBuilder().build(linked("count :: ?u1 | is a | dogs", classes={"dogs": [dog]}))
    assert pets[0].pattern == f'?unknown1 <{V}pets#pettype> "dog"'


def test_class_phrase_reads_as_a_link_to_a_thing_alone_or_with_its_class() -> None:
    """"sensors" where no class is named so: the things linked to the category Sensor; "LCD products":
    products (the class names "products") linked to LCD (the thing names "LCD"), one reading."""
    pv, inst = "http://ld.company.org/prod-vocab/", "http://ld.company.org/prod-instances/"
    sensor = LinkedEntity(ox.NamedNode(inst + "prod-cat-Sensor"), "Sensor", 1.0, "linked", (pv + "hasCategory",))
    queries = QueryBuilder().build(linked("count :: ?u1 | is a | sensors", classes={"sensors": [sensor]}))
    assert queries[0].pattern == f"?unknown1 <{pv}hasCategory> <{inst}prod-cat-Sensor>"
    product = LinkedEntity(ox.NamedNode(pv + "Product"), "Product", 0.75, "class")
    lcd = LinkedEntity(ox.NamedNode(inst + "prod-cat-LCD"), "LCD", 0.75, "linked", (pv + "hasCategory",),
                       partner=pv + "Product")
    both = QueryBuilder().build(linked("count :: ?u1 | is a | LCD products", classes={"LCD products": [product, lcd]}))
    assert both[0].pattern == f"?unknown1 <{RDF_TYPE}> <{pv}Product> . ?unknown1 <{pv}hasCategory> <{inst}prod-cat-LCD>"
    assert both[0].score == pytest.approx(0.75 + 0.75 * 0.25)  # each reading explains its own words


def test_the_oldest_by_a_point_in_time_is_the_earliest() -> None:
    """"Who is the oldest singer?" on a graph of birth years, not ages: the earliest birth year; an age
    still orders as said, and so does a span of years ("years of work")."""
    oldest = "list :: ?u1 | is a | singers ; ?u1 | age | ?u2 :: order ?u2 desc 1"
    for local, best in (("singer#birth_year", "MIN("), ("singer#age", "MAX("), ("singer#years_of_work", "MAX(")):
        query = QueryBuilder().build(linked(oldest, classes={"singers": [SINGER]},
                                            edges={"age": ("?unknown1", {"": [pred(local, 1.0)]})}))[0]
        assert best in query.execution_sparql, local
    youngest = QueryBuilder().build(linked(oldest.replace("desc", "asc"), classes={"singers": [SINGER]},
                                           edges={"age": ("?unknown1", {"": [pred("singer#birth_year", 1.0)]})}))[0]
    assert "MAX(" in youngest.execution_sparql


def test_no_query_when_a_named_node_has_no_candidate() -> None:
    pattern = linked("list :: ?u1 | country | Atlantis", nodes={"Atlantis": []},
                     edges={"country": ("Atlantis", {})})
    assert QueryBuilder().build(pattern) == []


def test_forms_become_ask_count_aggregate_order_and_filter() -> None:
    age = {"age": ("?unknown1", {"": [pred("singer#age", 1.0)]})}
    builder = QueryBuilder()
    count = builder.build(linked("count :: ?u1 | is a | singers", classes={"singers": [SINGER]}))[0]
    assert count.sparql.startswith("SELECT (IF(?kgqaN = 1") and "(COUNT(DISTINCT ?unknown1) AS ?kgqaN)" in count.sparql
    ask = builder.build(linked("boolean :: ?u1 | is a | singers ; ?u1 | age | ?u2", classes={"singers": [SINGER]},
                               edges=age))[0]
    assert ask.sparql.startswith("ASK WHERE {")
    avg_pattern = PhraseGraphPattern.from_text("avg :: ?u1 | is a | singers ; ?u1 | age | ?u2")
    assert avg_pattern.aggregated_node() == "?unknown2"
    avg = builder.build(linked("avg :: ?u1 | is a | singers ; ?u1 | age | ?u2", classes={"singers": [SINGER]},
                               edges=age))[0]
    assert "AVG(" in avg.sparql and "?unknown2" in avg.sparql.split("WHERE")[0] and avg.answer_var == "?unknown2"
    ordered = builder.build(linked("list :: ?u1 | is a | singers ; ?u1 | age | ?u2 :: order ?u2 desc 3",
                                   classes={"singers": [SINGER]}, edges=age))[0]
    assert "ORDER BY DESC(" in ordered.sparql and ordered.sparql.endswith("LIMIT 3")
    oldest = builder.build(linked("list :: ?u1 | is a | singers ; ?u1 | age | ?u2 :: order ?u2 desc 1",
                                  classes={"singers": [SINGER]}, edges=age))[0]
    # run with every singer tied for oldest; shown as ORDER BY ... LIMIT 1, which answers with the first
    assert "MAX(" in oldest.execution_sparql and "?unknown2_b" in oldest.execution_sparql
    assert "ORDER BY" not in oldest.execution_sparql and oldest.sparql.endswith("LIMIT 1") and oldest.first_of_ties
    kept = builder.build(linked("list :: ?u1 | is a | singers ; ?u1 | age | ?u2 :: order ?u2 desc 1",
                                classes={"singers": [SINGER]}, edges=age), keep_ties=True)[0]
    assert kept.sparql == kept.execution_sparql == oldest.execution_sparql and not kept.first_of_ties
    most = builder.build(linked("list :: ?u1 | country | ?u2 ; ?u2 | is a | singers :: order count ?u2 desc 1",
                                classes={"singers": [SINGER]},
                                edges={"country": ("?unknown2", {"": [pred("singer#country", 1.0)]})}))
    assert most and not any(q.first_of_ties for q in most)  # a grouped count's ties all answer
    assert oldest.ordered and ordered.ordered and not filtered_free(builder, age).ordered
    filtered = builder.build(linked("list :: ?u1 | is a | singers ; ?u1 | age | ?u2 :: filter ?u2 > 40",
                                    classes={"singers": [SINGER]}, edges=age))[0]
    assert "FILTER(" in filtered.pattern and "> 40" in filtered.pattern


def filtered_free(builder: QueryBuilder, age: dict) -> object:  # noqa: ANN001
    return builder.build(linked("list :: ?u1 | is a | singers ; ?u1 | age | ?u2", classes={"singers": [SINGER]},
                                edges=age))[0]


def test_best_products_equals_brute_force() -> None:
    options = [[_Choice(f"a{i}", s) for i, s in enumerate([0.9, 0.5, 0.4, 0.1])],
               [_Choice(f"b{i}", s) for i, s in enumerate([0.8, 0.7, 0.2])],
               [_Choice(f"c{i}", s) for i, s in enumerate([0.6, 0.3])]]
    brute = sorted(itertools.product(*options), key=lambda c: -sum(x.score for x in c))
    fast = _best_products(options, 10)
    assert [round(sum(x.score for x in c), 6) for c in fast] == [round(sum(x.score for x in c), 6) for c in brute[:10]]
    import linking.queries as queries_module

    original = queries_module.MAX_PRODUCT
    queries_module.MAX_PRODUCT = 1  # force the lazy best-first enumeration
    try:
        lazy = _best_products(options, 10)
    finally:
        queries_module.MAX_PRODUCT = original
    assert [round(sum(x.score for x in c), 6) for c in lazy] == [round(sum(x.score for x in c), 6) for c in brute[:10]]


async def test_each_form_runs_on_a_real_engine(concert: Endpoint) -> None:
    builder = QueryBuilder()
    executor = QueryExecutor()
    age = {"age": ("?unknown1", {"": [pred("singer#age", 1.0)]})}
    cases = {
        "count :: ?u1 | is a | singers": ["6"],
        "avg :: ?u1 | is a | singers ; ?u1 | age | ?u2": ["37"],
        "max :: ?u1 | is a | singers ; ?u1 | age | ?u2": ["52"],
        "list :: ?u1 | is a | singers ; ?u1 | age | ?u2 :: order ?u2 desc 1": [V + "singer/singer_id=1"],
        "list :: ?u1 | is a | singers ; ?u1 | age | ?u2 :: order ?u2 asc 2": [V + "singer/singer_id=6",
                                                                              V + "singer/singer_id=3"],
    }
    for text, expected in cases.items():
        queries = builder.build(linked(text, classes={"singers": [SINGER]}, edges=age))
        chosen = select_answer(await executor.run(queries, concert, accept_all))
        assert chosen is not None, text
        values = [a.value for a in chosen.answers]
        if chosen.query.form.is_aggregate:
            assert [str(round(float(v))) for v in values] == expected, text
        else:
            assert values == expected, text
    over_40 = builder.build(linked("list :: ?u1 | is a | singers ; ?u1 | age | ?u2 :: filter ?u2 > 42",
                                   classes={"singers": [SINGER]}, edges=age))
    chosen = select_answer(await executor.run(over_40, concert, accept_all))
    assert sorted(a.value for a in chosen.answers) == [V + "singer/singer_id=1", V + "singer/singer_id=5"]
    ask = builder.build(linked("boolean :: ?u1 | is a | singers ; ?u1 | country | France",
                               classes={"singers": [SINGER]}, nodes={"France": [FRANCE]},
                               edges={"country": ("France", {"France": [pred("singer#country", 1.0, IN)]})}))
    chosen = select_answer(await executor.run(ask, concert, accept_all))
    assert chosen.boolean is True and ask[0].form is QuestionForm.BOOLEAN


async def test_per_group_counts_order_and_filter_on_a_real_engine(concert: Endpoint) -> None:
    """`order count` / `filter count` group the answers and count another unknown per answer."""
    builder = QueryBuilder()
    executor = QueryExecutor()
    country = {"country": ("?unknown2", {"": [pred("singer#country", 1.0)]})}
    cases = {
        "list :: ?u1 | country | ?u2 ; ?u2 | is a | singers :: order count ?u2 desc 1": ["France"],
        # one singer each: both countries are tied for fewest, and both are the answer
        "list :: ?u1 | country | ?u2 ; ?u2 | is a | singers :: order count ?u2 asc 1": ["Netherlands", "United States"],
        "list :: ?u1 | country | ?u2 ; ?u2 | is a | singers :: filter count ?u2 >= 2": ["France"],
        "list :: ?u1 | country | ?u2 ; ?u2 | is a | singers :: filter count ?u2 < 2": ["Netherlands", "United States"],
        "list :: ?u1 | country | ?u2 ; ?u2 | is a | singers :: filter count ?u2 < two": ["Netherlands", "United States"],
        "count :: ?u1 | country | ?u2 ; ?u2 | is a | singers :: filter count ?u2 < 2": ["2"],
    }
    for text, expected in cases.items():
        queries = builder.build(linked(text, classes={"singers": [SINGER]}, edges=country))
        assert "GROUP BY ?unknown1" in queries[0].sparql, queries[0].sparql
        chosen = select_answer(await executor.run(queries, concert, accept_all))
        assert chosen is not None, text
        assert sorted(str(a.value) for a in chosen.answers) == expected, (text, queries[0].sparql)
    named = builder.build(linked(
        "list :: ?u1 | country | ?u2 ; ?u2 | is a | singers :: order count ?u2 desc 1",
        classes={"singers": [SINGER]}, edges=country))[0].named_by(f"<{V}name>")
    assert "GROUP BY ?unknown1 }" in named.sparql and named.sparql.endswith("?unknown1 <" + V + "name> ?unknown1Name } LIMIT 100")


async def test_a_count_or_an_aggregate_per_group_answers_each_group_with_its_number(concert: Endpoint) -> None:
    """`group ?u2`: one number per group, the group beside it in each row; equal numbers of two groups
    stay two rows."""
    builder, executor = QueryBuilder(), QueryExecutor()
    country = {"country": ("?unknown1", {"": [pred("singer#country", 1.0)]})}
    truth = await concert.sparql.select(f"SELECT ?c (COUNT(?s) AS ?n) WHERE {{ ?s a <{V}singer> ; <{V}singer#country> ?c }} "
                                        "GROUP BY ?c")
    counted = builder.build(linked("count :: ?u1 | is a | singers ; ?u1 | country | ?u2 :: group ?u2",
                                   classes={"singers": [SINGER]}, edges=country))[0]
    assert "GROUP BY ?unknown2" in counted.sparql and counted.columns == ("unknown2",)
    chosen = select_answer(await executor.run([counted], concert, accept_all))
    assert chosen is not None
    assert sorted((c.value, a.value) for a, (c,) in chosen.rows) == sorted(
        (r["c"].value, r["n"].value) for r in truth.rows)
    assert len(chosen.rows) == 3 and len(chosen.raw_answers) < 3  # two countries have one singer each
    age = {"country": ("?unknown2", {"": [pred("singer#country", 1.0)]}), "age": ("?unknown2", {"": [pred("singer#age", 1.0)]})}
    averaged = builder.build(linked("avg :: ?u1 | age | ?u2 ; ?u2 | is a | singers ; ?u2 | country | ?u3 :: group ?u3",
                                    classes={"singers": [SINGER]}, edges=age))[0]
    assert averaged.sparql.startswith("SELECT ?unknown3 (AVG(") and "GROUP BY ?unknown3" in averaged.sparql
    chosen = select_answer(await executor.run([averaged], concert, accept_all))
    assert chosen is not None and {c.value for _, (c,) in chosen.rows} == {r["c"].value for r in truth.rows}


async def test_an_aggregate_of_the_counts_per_group_is_one_number(concert: Endpoint) -> None:
    """`per ?u2`: "the average number of singers per country" averages each country's count."""
    builder, executor = QueryBuilder(), QueryExecutor()
    country = {"country": ("?unknown1", {"": [pred("singer#country", 1.0)]})}
    truth = await concert.sparql.select(
        f"SELECT (AVG(?n) AS ?a) (MAX(?n) AS ?m) WHERE {{ {{ SELECT ?c (COUNT(?s) AS ?n) WHERE {{ ?s a <{V}singer> ; "
        f"<{V}singer#country> ?c }} GROUP BY ?c }} }}")
    for form, column in (("avg", "a"), ("max", "m")):
        query = builder.build(linked(f"{form} :: ?u1 | is a | singers ; ?u1 | country | ?u2 :: per ?u2",
                                     classes={"singers": [SINGER]}, edges=country))[0]
        assert f"SELECT ({form.upper()}(?kgqaN) AS ?value)" in query.sparql and "GROUP BY ?unknown2" in query.sparql
        chosen = select_answer(await executor.run([query], concert, accept_all))
        assert chosen is not None and float(chosen.answers[0].value) == float(truth.rows[0][column].value)


async def test_a_compared_or_ordered_unknown_reached_by_a_link_to_things_is_counted(concert: Endpoint) -> None:
    """"Which stadiums have more than one concert?" decoded as a value comparison (`filter ?u2 > 1`):
    where the predicate leads to things, not numbers, the query counts them per answer instead; a
    predicate to numbers keeps the comparison of values."""
    builder, executor = QueryBuilder(), QueryExecutor()
    stadium = LinkedEntity(ox.NamedNode(V + "stadium"), "stadium", 1.0, "class")
    held = {"concerts": ("?unknown1", {"": [pred("concert#ref-stadium_id", 1.0, IN)]})}
    for text in ("list :: ?u1 | is a | stadiums ; ?u1 | concerts | ?u2 :: filter ?u2 > 1",
                 "list :: ?u1 | is a | stadiums ; ?u1 | concerts | ?u2 :: order ?u2 desc 1"):
        queries = builder.build(linked(text, classes={"stadiums": [stadium]}, edges=held))
        assert "GROUP BY ?unknown1" in queries[0].sparql and "COUNT(DISTINCT ?unknown2)" in queries[0].sparql, text
        chosen = select_answer(await executor.run(queries, concert, accept_all))
        assert chosen is not None and [a.value for a in chosen.answers] == [V + "stadium/stadium_id=2"], text
    capacity = {"capacity": ("?unknown1", {"": [pred("stadium#capacity", 1.0)]})}
    valued = builder.build(linked("list :: ?u1 | is a | stadiums ; ?u1 | capacity | ?u2 :: filter ?u2 > 1",
                                  classes={"stadiums": [stadium]}, edges=capacity))
    assert "GROUP BY" not in valued[0].sparql and "> 1)" in valued[0].sparql
    # yes/no: "Is there a stadium with more than one concert?" counts per stadium; "Does stadium 2 hold
    # more than N concerts?" (`stadium 2 | concerts | ?u1`) counts over all
    for text, expected in (("boolean :: ?u1 | is a | stadiums ; ?u1 | concerts | ?u2 :: filter ?u2 > 1", True),
                           ("boolean :: ?u1 | is a | stadiums ; ?u1 | concerts | ?u2 :: filter ?u2 > 2", False),
                           ("boolean :: Stadium 2 | concerts | ?u1 :: filter ?u1 > 1", True),
                           ("boolean :: Stadium 2 | concerts | ?u1 :: filter ?u1 >= 3", False)):
        two = LinkedEntity(ox.NamedNode(V + "stadium/stadium_id=2"), "Stadium 2", 1.0, "vertex")
        edges = {"concerts": ("Stadium 2" if "Stadium 2" in text else "?unknown1",
                              {("" if "?u1 | is a" in text else two.term.value): [pred("concert#ref-stadium_id", 1.0, IN)]})}
        asked = builder.build(linked(text, classes={"stadiums": [stadium]}, nodes={"Stadium 2": [two]}, edges=edges))
        assert asked and "COUNT(DISTINCT" in asked[0].sparql, text
        chosen = select_answer(await executor.run(asked, concert, accept_all))
        assert chosen is not None and chosen.boolean is expected, (text, asked[0].sparql)


async def test_the_best_of_each_group_answers_with_its_group_beside_it(concert: Endpoint) -> None:
    """"Who is the oldest singer in each country?": the best is per group (France's oldest is 43, not
    the oldest overall), and each answer's row holds its group."""
    builder, executor = QueryBuilder(), QueryExecutor()
    edges = {"age": ("?unknown1", {"": [pred("singer#age", 1.0)]}),
             "country": ("?unknown1", {"": [pred("singer#country", 1.0)]})}
    queries = builder.build(linked("list :: ?u1 | is a | singers ; ?u1 | age | ?u2 ; ?u1 | country | ?u3 "
                                   ":: order ?u2 desc 1 :: group ?u3", classes={"singers": [SINGER]}, edges=edges))
    assert "GROUP BY ?unknown3" in queries[0].sparql and queries[0].columns == ("unknown3",)
    chosen = select_answer(await executor.run(queries, concert, accept_all))
    assert chosen is not None
    assert sorted((c.value, a.value.rsplit("=", 1)[1]) for a, (c,) in chosen.rows) == [
        ("France", "5"), ("Netherlands", "1"), ("United States", "2")]


async def test_the_best_of_each_group_by_a_count(concert: Endpoint) -> None:
    """"Which singer has the most concert entries in each country?": entries counted per singer, the
    best per country (France: singer 3 with three; the United States: singer 2, its only singer)."""
    builder, executor = QueryBuilder(), QueryExecutor()
    edges = {"singer": ("?unknown1", {"": [pred("singer_in_concert#ref-singer_id", 1.0, IN)]}),
             "country": ("?unknown1", {"": [pred("singer#country", 1.0)]})}
    queries = builder.build(linked("list :: ?u1 | is a | singers ; ?u2 | singer | ?u1 ; ?u1 | country | ?u3 "
                                   ":: order count ?u2 desc 1 :: group ?u3", classes={"singers": [SINGER]}, edges=edges))
    chosen = select_answer(await executor.run(queries[:1], concert, accept_all))
    assert chosen is not None, queries[0].sparql
    assert sorted((c.value, a.value.rsplit("=", 1)[1]) for a, (c,) in chosen.rows) == [("France", "3"), ("United States", "2")]


def test_a_counted_unknown_is_never_merged_into_the_answer() -> None:
    """"Which country has the most singers?": the singers counted per country are not the country, even
    when the relation phrase could name a class of things."""
    country = {"singers": ("?unknown2", {"": [pred("singer#country", 1.0)]})}
    for text in ("list :: ?u1 | singers | ?u2 :: order count ?u2 desc 1",
                 "list :: ?u1 | singers | ?u2 :: filter count ?u2 > 1"):
        pattern = linked(text, edges=country)
        pattern.relation_classes["singers"] = [SINGER]
        queries = QueryBuilder().build(pattern)
        assert queries and all("FILTER(?unknown1 = ?unknown2)" not in q.sparql for q in queries), text
        assert all("?unknown2" in q.pattern for q in queries), text
    listed = linked("list :: ?u1 | singers | ?u2", edges=country)
    listed.relation_classes["singers"] = [SINGER]
    assert any(f"?unknown1 <{RDF_TYPE}> <{SINGER.term.value}>" in q.pattern for q in QueryBuilder().build(listed))


async def test_execution_stops_after_the_first_wave_that_answers(concert: Endpoint) -> None:
    # 12 candidate predicates for "age": the 5th is the only one that answers with an age
    wrong = [pred(f"singer#missing_{i}", 0.9 - i * 0.01) for i in range(4)]
    right = [pred("singer#age", 0.5)]
    tail = [pred(f"singer#absent_{i}", 0.4 - i * 0.01) for i in range(7)]
    queries = QueryBuilder().build(linked("list :: ?u1 | is a | singers ; ?u1 | age | ?u2 :: select ?u2",
                                          classes={"singers": [SINGER]},
                                          edges={"age": ("?unknown1", {"": wrong + right + tail})}))
    assert len(queries) == 24  # each predicate with and without the class constraint
    with counting_requests() as counter:
        executed = await QueryExecutor(concurrency=4).run(queries, concert, accept_all)
    assert counter.count == 8  # two waves of four; the third wave is never sent
    assert [e.status for e in executed[:5]] == [EMPTY, EMPTY, EMPTY, EMPTY, MATCH]
    assert all(e.status == SKIPPED for e in executed[8:])
    assert select_answer(executed) is executed[4]


async def test_execution_gives_up_on_a_reading_whose_best_queries_find_nothing(concert: Endpoint) -> None:
    absent = [pred(f"singer#absent_{i}", 0.9 - i * 0.01) for i in range(12)]
    queries = QueryBuilder().build(linked("list :: ?u1 | is a | singers ; ?u1 | age | ?u2 :: select ?u2",
                                          classes={"singers": [SINGER]},
                                          edges={"age": ("?unknown1", {"": absent})}))
    with counting_requests() as counter:
        executed = await QueryExecutor(concurrency=4, empty_limit=8).run(queries, concert, accept_all)
    assert counter.count == 8 and all(e.status == EMPTY for e in executed[:8])
    assert select_answer(executed) is None


def test_an_edge_to_a_dangling_unknown_may_be_dropped() -> None:
    weak = {"use": ("?unknown1", {"": [pred("singer#song_name", 0.1)]})}
    queries = QueryBuilder().build(linked("count :: ?u1 | is a | singers ; ?u1 | use | ?u2",
                                          classes={"singers": [SINGER]}, edges=weak))
    assert [q.pattern.count(" . ") for q in queries][:2] == [0, 1]  # without the weak edge first, then with it
    strong = {"use": ("?unknown1", {"": [pred("singer#song_name", 0.9)]})}
    queries = QueryBuilder().build(linked("count :: ?u1 | is a | singers ; ?u1 | use | ?u2",
                                          classes={"singers": [SINGER]}, edges=strong))
    assert queries[0].pattern.count(" . ") == 1


def test_a_literal_answer_type_adds_variants_answering_with_the_attribute() -> None:
    from understanding.pgp import AnswerKind

    edges = {"name": ("?unknown1", {"": [pred("singer#name", 1.0)]}),
             "age": ("?unknown1", {"": [pred("singer#age", 1.0)]})}
    text = "list :: ?u1 | name | ?u2 ; ?u1 | age | ?u3 :: order ?u3 asc 1"
    plain = QueryBuilder().build(linked(text, edges=edges))
    assert {q.answer_var for q in plain} == {"?unknown1"}
    typed = QueryBuilder().build(linked(text, edges=edges), answer_kind=AnswerKind.STRING)
    assert [q.answer_var for q in typed[:3]] == ["?unknown1", "?unknown2", "?unknown3"]  # the ORDER node last
    assert typed[0].pattern == typed[1].pattern == typed[2].pattern
    songs = "list :: ?u1 | is a | songs ; ?u1 | name | ?u2 ; ?u1 | sales | ?u3 :: order ?u3 desc 1"
    sales = {"name": edges["name"], "sales": ("?unknown1", {"": [pred("song#sales", 1.0)]})}
    typed_songs = QueryBuilder().build(linked(songs, classes={"songs": [SINGER]}, edges=sales),
                                       answer_kind=AnswerKind.STRING)
    assert "?unknown3" not in {q.answer_var for q in typed_songs}  # "the song with the highest sales" is a song
    assert typed[1].sparql.startswith("SELECT DISTINCT ?unknown2 WHERE") and typed[1].result_var == "unknown2"
    bonus = {"bonus": ("?unknown1", {"": [pred("evaluation#bonus", 1.0)]})}
    largest = QueryBuilder().build(linked("list :: ?u1 | bonus | ?u2 :: order ?u1 desc 1", edges=bonus),
                                   answer_kind=AnswerKind.NUMBER)
    by_leaf = [q for q in largest if q.answer_var == "?unknown2"]
    assert by_leaf and all("MAX(COALESCE(" in q.execution_sparql and "(str(?unknown2)), ?unknown2) = ?kgqaBest" in q.pattern for q in by_leaf)
    above = QueryBuilder().build(linked("list :: ?u1 | bonus | ?u2 :: filter ?u1 > 1000", edges=bonus),
                                 answer_kind=AnswerKind.NUMBER)
    leaf_filters = [q for q in above if q.answer_var == "?unknown2"]
    assert leaf_filters and all("str(?unknown2)" in q.sparql and "str(?unknown1)" not in q.sparql for q in leaf_filters)


async def test_tied_best_list_queries_answer_with_their_union(concert: Endpoint) -> None:
    """Two predicates the relation phrase cannot tell apart (same score): both readings' answers, as one
    UNION query that gives exactly them; a lower-scored reading is not added."""
    edges = {"about": ("?unknown1", {"": [pred("singer#name", 0.9), pred("singer#country", 0.9),
                                          pred("singer#song_name", 0.5)]})}
    queries = QueryBuilder().build(linked("list :: ?u1 | is a | singers ; ?u1 | about | ?u2 :: select ?u2",
                                          classes={"singers": [SINGER]}, edges=edges))
    executed = await QueryExecutor(concurrency=8, max_requests=8).run(queries, concert, accept_all)
    chosen = select_answer(executed)
    assert chosen is not None and " UNION " in chosen.query.sparql
    values = {a.value for a in chosen.answers}
    assert "France" in values and any(v not in ("France", "Netherlands", "United States") for v in values)
    result = await concert.sparql.select(chosen.query.sparql)
    assert {row[chosen.query.answer_var[1:]].value for row in result} == values
    song = pred("singer#song_name", 0.5)
    assert not any(song.iri in part for part in chosen.query.pattern.split(" UNION "))


@pytest.fixture(scope="module")
async def ck25(virtuoso) -> AsyncIterator[Endpoint]:  # noqa: ANN001
    async with open_endpoint(virtuoso, "ck25-queries", "ck25") as endpoint:
        yield endpoint


async def test_superlatives_keep_ties_and_aggregates_keep_exact_decimals(ck25: Endpoint) -> None:
    """"Which products have the highest reliability index?": seven products share 0.962, and all seven
    are the answer (ORDER BY ... LIMIT 1 would pick one by the engine's row order). AVG over decimals
    keeps its digits (a cast to double comes back from Virtuoso rounded to 6 digits)."""
    pv = "http://ld.company.org/prod-vocab/"
    hardware = LinkedEntity(ox.NamedNode(pv + "Hardware"), "Hardware", 1.0, "class")
    reliability = {"reliability index": ("?unknown1", {"": [LinkedPredicate(pv + "reliabilityIndex", "reliability index",
                                                                            1.0, OUT, literal=True)]})}
    graph = ox.Store()
    graph.bulk_load(path=str(KGS / "ck25" / "graph.ttl"), format=ox.RdfFormat.TURTLE)
    best = {r["s"].value for r in graph.query(
        f"SELECT ?s WHERE {{ ?s a <{pv}Hardware> ; <{pv}reliabilityIndex> ?r . "
        f"{{ SELECT (MAX(?x) AS ?m) WHERE {{ ?t a <{pv}Hardware> ; <{pv}reliabilityIndex> ?x }} }} FILTER(?r = ?m) }}")}
    mean = next(iter(graph.query(f"SELECT (AVG(?x) AS ?m) WHERE {{ ?t a <{pv}Hardware> ; <{pv}reliabilityIndex> ?x }}")))["m"]
    assert len(best) > 1
    builder, executor = QueryBuilder(), QueryExecutor()
    queries = builder.build(linked("list :: ?u1 | is a | products ; ?u1 | reliability index | ?u2 :: order ?u2 desc 1",
                                   classes={"products": [hardware]}, edges=reliability))
    chosen = select_answer(await executor.run(queries, ck25, accept_all))
    assert chosen is not None and {a.value for a in chosen.answers} == best
    queries = builder.build(linked("avg :: ?u1 | is a | products ; ?u1 | reliability index | ?u2",
                                   classes={"products": [hardware]}, edges=reliability))
    chosen = select_answer(await executor.run(queries, ck25, accept_all))
    assert chosen is not None and float(chosen.answers[0].value) == pytest.approx(float(mean.value), abs=1e-12)
    assert len(chosen.answers[0].value.split(".")[1]) > 6


async def test_of_tied_superlative_readings_the_one_singling_out_fewer_answers_is_taken(ck25: Endpoint) -> None:
    """"Who is product manager for the most products?" read both ways round: products by their count of
    managers (each has one, so all 1,000 tie) or managers by their count of products (one wins)."""
    pv = "http://ld.company.org/prod-vocab/"
    both = {"product manager": ("?unknown1", {"": [LinkedPredicate(pv + "hasProductManager", "product manager", 1.0, OUT),
                                                   LinkedPredicate(pv + "hasProductManager", "product manager", 1.0, IN)]})}
    queries = QueryBuilder().build(linked("list :: ?u1 | product manager | ?u2 :: order count ?u2 desc 1", edges=both))
    assert queries[0].score == queries[1].score
    executed = await QueryExecutor().run(queries, ck25, accept_all)
    assert sorted(len(e.answers) for e in executed[:2])[0] == 1 and max(len(e.answers) for e in executed[:2]) > 1
    chosen = select_answer(executed)
    assert chosen is not None and [a.value for a in chosen.answers] == \
        ["http://ld.company.org/prod-instances/empl-Wolfgang.Martin%40company.org"]


def test_a_literal_is_never_the_subject_of_a_triple() -> None:
    """"Is Gomez Inc a supplier from Brazil?": a predicate pointing INTO the named thing cannot come from
    the literal "Brazil" (Virtuoso even answers `ASK { "Brazil" <p> <x> }` with true)."""
    singer = LinkedEntity(ox.NamedNode(V + "singer/singer_id=1"), "Joe Sharp", 1.0, "vertex")
    edges = {"country": ("Joe Sharp", {singer.term.value: [pred("concert#singer", 0.9, IN),
                                                           pred("singer#country", 0.8, OUT)]})}
    queries = QueryBuilder().build(linked("boolean :: Joe Sharp | country | France",
                                          nodes={"Joe Sharp": [singer], "France": [FRANCE]}, edges=edges))
    assert queries and all(not q.pattern.lstrip().startswith('"') for q in queries)
    assert [q.pattern for q in queries] == [f'<{singer.term.value}> <{V}singer#country> "France"']


def test_an_ordered_value_is_never_a_subject() -> None:
    """`?u1 | weight | ?u2 :: order ?u2` cannot read the weight predicate backwards (`?u2 <weight> ?u1`
    would order things by their IRIs)."""
    weight = {"weight": ("?unknown1", {"": [pred("singer#age", 0.9, OUT), pred("singer#age", 0.9, IN)]})}
    queries = QueryBuilder().build(linked("list :: ?u1 | weight | ?u2 :: order ?u2 desc 3", edges=weight))
    assert queries and all(q.pattern.startswith("?unknown1 <") for q in queries)
    # a predicate whose values were never seen (the endpoint's global list) is not read as leading to things
    unseen = {"weight": ("?unknown1", {"": [LinkedPredicate(V + "singer#age", "age", 0.9, IN)]})}
    assert QueryBuilder().build(linked("list :: ?u1 | weight | ?u2 :: order ?u2 desc 3", edges=unseen)) == []


def test_a_compared_value_with_a_unit_compares_as_its_number() -> None:
    """"Which services cost less than 800 EUR?" may be decoded with the unit in the value."""
    from linking.queries import comparison_expression
    from understanding.pgp import Comparison

    assert comparison_expression(Comparison("?unknown2", "<", "800 EUR")).endswith("(str(?unknown2)) < 800")
    assert comparison_expression(Comparison("?unknown2", ">", "19 grams")).endswith("(str(?unknown2)) > 19")
    assert "LCASE" in comparison_expression(Comparison("?unknown2", "=", "Route 15"))
    compared = comparison_expression(Comparison("?unknown2", "<", "?unknown3"))  # "cheaper than <Name>"
    assert compared.endswith("(str(?unknown2)) < <http://www.w3.org/2001/XMLSchema#double>(str(?unknown3))")


def test_a_relation_phrase_the_question_asks_for_reads_first_as_the_answers_class() -> None:
    """"How many suppliers are based in Germany?" decoded as `?u1 | suppliers | ?u2 ; ...`: with the
    wh-noun "suppliers", membership of the class (?u1 = ?u2, a Supplier) outranks a `hasSupplier`
    predicate that fits the phrase a little better; without it, the predicate stays first."""
    supplier = LinkedEntity(ox.NamedNode(V + "Supplier"), "Supplier", 0.95, "class")
    edges = {"suppliers": ("?unknown2", {"": [pred("hasSupplier", 0.97, IN)]})}
    pattern = PhraseGraphPattern.from_text("count :: ?u1 | suppliers | ?u2")
    linked_pattern = LinkedPattern(pattern, {}, {}, [EdgeLinks(pattern.triples[0], "?unknown2", edges["suppliers"][1])],
                                   {"suppliers": [supplier]})
    plain = QueryBuilder().build(linked_pattern)
    asked = QueryBuilder().build(linked_pattern, asked="suppliers")
    assert "hasSupplier" in plain[0].pattern
    assert asked[0].pattern.startswith("?unknown1 <" + RDF_TYPE + "> <" + V + "Supplier>")


async def test_the_executor_starts_only_as_many_queries_as_requests_are_left(concert: Endpoint) -> None:
    """Queries that find nothing would run up to `max_requests`; with five requests left the executor
    stops after five, and with none left it still runs the best query."""
    empty = [CandidateQuery(f"SELECT ?unknown1 WHERE {{ ?unknown1 <urn:kgqa:none{i}> ?x }}",
                            f"?unknown1 <urn:kgqa:none{i}> ?x", "?unknown1", 1.0 - i / 100,
                            execution_sparql=f"SELECT ?unknown1 WHERE {{ ?unknown1 <urn:kgqa:none{i}> ?x }}",
                            result_var="unknown1") for i in range(12)]
    for left, ran in ((5, 5), (0, 1)):
        with counting_requests() as counter:
            executed = await QueryExecutor().run(empty, concert, accept_all,
                                                 requests_left=lambda left=left: left - counter.count)
        assert sum(e.status != SKIPPED for e in executed) == ran == counter.count
    assert sum(e.status != SKIPPED for e in await QueryExecutor().run(empty, concert, accept_all)) == 12


def test_an_average_counts_each_things_value_once() -> None:
    """A join beside the thing (another product of the same supplier) must not weigh a value by its rows."""
    from linking.queries import distinct_values

    where = ("?h <http://x/supplier> ?s . ?h <http://x/depth> ?unknown1 . ?other <http://x/supplier> ?s . "
             "?s <http://x/country> \"Japan\"")
    assert distinct_values("?unknown1", where) == f"{{ SELECT DISTINCT ?h ?unknown1 WHERE {{ {where} }} }}"
    two_holders = "?a <http://x/depth> ?unknown1 . ?b <http://x/width> ?unknown1"
    assert distinct_values("?unknown1", two_holders) == two_holders  # no one thing holds the value


def test_a_list_sorted_by_its_answers_themselves_keeps_them_things() -> None:
    """"Show the suppliers in Japan in alphabetical order": the answers are sorted, not valued, so the
    asked unknown may still be merged with the one the place holds; a limit or a bound makes them values."""
    from linking.queries import sorted_by_itself, valued_nodes

    sorted_list = PhraseGraphPattern.from_text("list :: ?u1 | suppliers | ?u2 ; ?u2 | located in | Japan :: order ?u1 asc")
    assert sorted_by_itself(sorted_list) and "?unknown1" not in valued_nodes(sorted_list)
    for text in ("list :: ?u1 | quantity | ElectroMech ProDrive :: order ?u1 desc 1",
                 "list :: ?u1 | price | Encoder :: order ?u1 asc :: filter ?u1 > 2"):
        pattern = PhraseGraphPattern.from_text(text)
        assert not sorted_by_itself(pattern) and "?unknown1" in valued_nodes(pattern)


def test_an_attribute_of_a_thing_reached_through_a_record_is_also_read_as_the_records() -> None:
    from linking.queries import held_by_records

    listed = ("<bom> <hasBomPart> ?kgqaVia0 . ?kgqaVia0 <hasPart> ?unknown1 . ?unknown1 <quantity> ?unknown2")
    assert held_by_records(listed) == ["<bom> <hasBomPart> ?kgqaVia0 . ?kgqaVia0 <hasPart> ?unknown1 . "
                                       "?kgqaVia0 <quantity> ?unknown2"]
    # the answer itself, or a value used elsewhere in the body, stays where the reading put it
    assert held_by_records("?unknown2 <country> ?unknown1 . <x> <compatible> ?kgqaVia1 . "
                           "?kgqaVia1 <hasSupplier> ?unknown2") == []
    assert held_by_records(listed + " . ?unknown3 <quantity> ?unknown2") == []
    assert held_by_records("?unknown1 <a> ?unknown2") == []  # no record on the way


def test_an_attribute_of_the_records_holding_a_thing_reached_through_a_record_is_that_records() -> None:
    from linking.queries import same_records

    body = ("<bom> <hasBomPart> ?kgqaVia1 . ?kgqaVia1 <hasPart> ?unknown2 . ?kgqaHolder2 <hasPart> ?unknown2 . "
            "?kgqaHolder2 <quantity> ?unknown3")
    assert same_records(body) == "<bom> <hasBomPart> ?kgqaVia1 . ?kgqaVia1 <hasPart> ?unknown2 . ?kgqaVia1 <quantity> ?unknown3"
    alone = "?kgqaHolder2 <hasPart> ?unknown2 . ?kgqaHolder2 <quantity> ?unknown3"  # no record on the way: any record
    assert same_records(alone) == alone


def test_an_average_compared_per_answer_is_a_having() -> None:
    from linking.queries import group_modifiers

    pattern = PhraseGraphPattern.from_text("list :: ?u1 | is a | category ; ?u1 | price | ?u2 :: filter avg ?u2 > 3.2")
    assert pattern.grouped
    modifiers = group_modifiers(pattern, ("?unknown1",))
    assert modifiers.startswith(" GROUP BY ?unknown1 HAVING(AVG(") and modifiers.endswith(") > 3.2)")


def test_a_compared_value_is_read_in_the_unit_its_predicate_names() -> None:
    """"wider than 6 cm" against `width_mm` is 60; "heavier than 0.02 kg" against `weight_g` is 20; a value in the
    predicate's own unit, without a unit, or of another dimension stays as it is."""
    from linking.queries import in_predicate_unit
    from understanding.pgp import Comparison

    body = "?unknown1 <http://ld.company.org/prod-vocab/width_mm> ?unknown2 . ?unknown1 <http://x.org/v#weight_g> ?unknown3"
    assert in_predicate_unit(Comparison("?unknown2", ">", "6 cm"), body).value == "60"
    assert in_predicate_unit(Comparison("?unknown3", ">", "0.02 kg"), body).value == "20"
    for node, value in (("?unknown2", "15 mm"), ("?unknown2", "6"), ("?unknown3", "6 cm"), ("?unknown4", "6 cm")):
        assert in_predicate_unit(Comparison(node, ">", value), body).value == value


def test_counting_instead_leaves_an_aggregate_compared_alone() -> None:
    """"an average attendance above 2000 or a highest attendance below 900" read onto one unknown: the plain
    comparison becomes a count, the average stays an average (before, building it raised an error)."""
    from linking.queries import counted_instead

    pattern = PhraseGraphPattern.from_text("list :: ?u1 | is a | stadiums ; ?u1 | attendance | ?u2 :: order ?u2 desc 1 "
                                           ":: filter avg ?u2 > 2000 :: filter ?u2 < 900")
    counted = counted_instead(pattern, frozenset({"?unknown2"}))
    assert [(c.aggregate, c.by_count) for c in counted.comparisons] == [("avg", False), (None, True)]


async def test_a_count_of_stored_quantities_adds_them_up(oxigraph) -> None:  # noqa: ANN001
    """"How many products do the shops in Helsinki and Espoo have?": each shop stores its `number_products`, so
    the answer is their sum; a single holder's number is itself; an identifier named "..._number" is counted."""
    from linking.queries import count_query

    shop = "http://valuenet/ontop/shop#"
    async with open_endpoint(oxigraph, "employees-count", "employee_hire_evaluation") as endpoint:
        truth = await endpoint.sparql.select(f"SELECT (SUM(?n) AS ?s) (COUNT(?n) AS ?c) WHERE {{ ?shop <{shop}number_products> ?n }}")
        summed = await endpoint.sparql.select(count_query("?unknown1", f"?shop <{shop}number_products> ?unknown1"))
        one = await endpoint.sparql.select(count_query(
            "?unknown1", f'?shop <{shop}location> "Helsinki" . ?shop <{shop}number_products> ?unknown1'))
        single = await endpoint.sparql.select(f'SELECT ?n WHERE {{ ?shop <{shop}location> "Helsinki" ; <{shop}number_products> ?n }}')
    assert int(truth.rows[0]["c"].value) > 1
    assert float(summed.rows[0]["count"].value) == float(truth.rows[0]["s"].value)
    assert len(single.rows) == 1 and float(one.rows[0]["count"].value) == float(single.rows[0]["n"].value)
    assert "SUM" not in count_query("?unknown1", "?c <http://x/voter#contestant_number> ?unknown1")


@pytest.mark.parametrize("engine", ["oxigraph", "virtuoso"])
async def test_a_year_compares_with_iso_dates_written_dates_and_plain_years(engine: str, request) -> None:  # noqa: ANN001
    """"How many people were born before 1985?" where birth dates are written "May 26, 1986": the year is a
    written date's last word, as it is an ISO date's first; a number that merely has four digits is no date."""
    from linking.queries import comparison_expression
    from understanding.pgp import Comparison

    expression = comparison_expression(Comparison("?date", "<", "1985"))
    values = ["May 26, 1986", "October 1, 1984", "1984-02-03", "1983", "1986", "31/12/1980", "12345"]
    rows = " ".join(f'("{v}")' for v in values)
    async with open_endpoint(request.getfixturevalue(engine), f"year-{engine}", "concert_singer") as endpoint:
        result = await endpoint.sparql.select(f"SELECT ?date WHERE {{ VALUES (?date) {{ {rows} }} FILTER({expression}) }}")
    assert sorted(t.value for t in result.column("date")) == ["1983", "1984-02-03", "31/12/1980", "October 1, 1984"]


async def test_a_yes_no_attribute_that_is_only_had_is_not_stated_false(virtuoso) -> None:  # noqa: ANN001
    """"How many singers are male?" as `?u1 | male | ?u2`, linked to `is_male` (true/false): a singer has that
    attribute only where it is not false, also inside an average whose ordering the builder leaves out ("the average
    age of singers that were first singers"); a name (`?u1 | name | ?u2`) is no yes/no value and is left alone."""
    graph = ox.Store()
    graph.bulk_load(path=str(KGS / "spider4sparql" / "concert_singer.ttl"), format=ox.RdfFormat.TURTLE)
    male = {r["s"].value for r in graph.query(f"SELECT ?s WHERE {{ ?s <{V}singer#is_male> true }}")}
    ages = [float(r["a"].value) for r in graph.query(f"SELECT ?s ?a WHERE {{ ?s <{V}singer#is_male> true ; "
                                                     f"<{V}singer#age> ?a }}")]
    assert 0 < len(male) < len(list(graph.query(f"SELECT ?s WHERE {{ ?s a <{V}singer> }}")))
    edges = {"male": ("?unknown1", {"": [pred("singer#is_male", 1.0)]}),
             "age": ("?unknown2", {"": [pred("singer#age", 1.0)]}),
             "name": ("?unknown1", {"": [pred("singer#name", 1.0)]})}
    edges["male ones"] = ("?unknown2", edges["male"][1])
    builder, executor = QueryBuilder(), QueryExecutor()
    async with open_endpoint(virtuoso, "concert-yes-no", "concert_singer") as endpoint:
        listed = builder.build(linked("list :: ?u1 | is a | singers ; ?u1 | male | ?u2", classes={"singers": [SINGER]},
                                      edges=edges))
        chosen = select_answer(await executor.run(listed[:1], endpoint, accept_all))
        assert chosen is not None and {a.value for a in chosen.answers} == male
        counted = builder.build(linked("count :: ?u1 | is a | singers ; ?u1 | male | ?u2", classes={"singers": [SINGER]},
                                       edges=edges))
        chosen = select_answer(await executor.run(counted[:1], endpoint, accept_all))
        assert chosen is not None and int(chosen.answers[0].value) == len(male)
        averaged = builder.build(linked("avg :: ?u1 | age | ?u2 ; ?u2 | is a | singers ; ?u2 | male ones | ?u3 "
                                        ":: order ?u3 asc 1", classes={"singers": [SINGER]}, edges=edges))
        chosen = select_answer(await executor.run(averaged[:1], endpoint, accept_all))
        assert chosen is not None and float(chosen.answers[0].value) == pytest.approx(sum(ages) / len(ages))
    named = builder.build(linked("list :: ?u1 | is a | singers ; ?u1 | name | ?u2", classes={"singers": [SINGER]},
                                 edges=edges))
    assert named and not any("false" in q.sparql for q in named)
