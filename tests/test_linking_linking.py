"""Entity, literal, class and relation linking against live engines (Virtuoso and Oxigraph).

The phrases are names taken from the graphs themselves (an employee of ck25, a country value of
concert_singer), not from any evaluation question.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pyoxigraph as ox
import pytest
from conftest import open_endpoint

from gateway.endpoint import Endpoint
from gateway.sparql import counting_requests
from linking.affinity import default_scorer
from linking.entities import EntityLinker, is_value_phrase, literal_forms
from linking.relations import IN, OUT, PredicateSet, RelationLinker, literal_predicates

PV = "http://ld.company.org/prod-vocab/"
FRANZ = "http://ld.company.org/prod-instances/empl-Franz.Kornhaeusel%40company.org"
V = "http://valuenet/ontop/"


@pytest.fixture(scope="module")
async def ck25(virtuoso) -> AsyncIterator[Endpoint]:  # noqa: ANN001
    async with open_endpoint(virtuoso, "ck25-linking", "ck25") as endpoint:
        yield endpoint


@pytest.fixture(scope="module", params=["virtuoso", "oxigraph"])
async def concert(request: pytest.FixtureRequest) -> AsyncIterator[Endpoint]:
    """concert_singer on each engine: Virtuoso (bif:contains) and Oxigraph (no text index)."""
    async with open_endpoint(request.getfixturevalue(request.param), f"concert-{request.param}",
                             "concert_singer") as endpoint:
        yield endpoint


@pytest.fixture(scope="module")
async def concert_oxigraph(oxigraph) -> AsyncIterator[Endpoint]:  # noqa: ANN001
    async with open_endpoint(oxigraph, "concert-linking-ox", "concert_singer") as endpoint:
        yield endpoint


def test_value_phrases_and_literal_forms() -> None:
    assert is_value_phrase("1995") and is_value_phrase('"Hey Oh"') and is_value_phrase("2020-01-31")
    assert not is_value_phrase("France")
    forms = {str(f) for f in literal_forms("1995")}
    assert '"1995"^^<http://www.w3.org/2001/XMLSchema#integer>' in forms
    assert '"1995"^^<http://www.w3.org/2001/XMLSchema#gYear>' in forms and '"1995"' in forms
    assert '"France"@en' in {str(f) for f in literal_forms("france")}


async def test_entity_linking_uses_one_text_search_and_scores_labels(ck25: Endpoint) -> None:
    linker = EntityLinker(default_scorer())
    await ck25.profile()  # discovery is not the linker's cost
    with counting_requests() as counter:
        found = await linker.link_entities("Franz Kornhaeusel", ck25, max_vertices=400, top_k=1)
    assert counter.count <= 2  # the search (and, by the dialect, an exact-label lookup)
    assert found[0].term == ox.NamedNode(FRANZ) and found[0].score == pytest.approx(1.0)
    misspelt = await linker.link_entities("Franz Kornhausel", ck25, top_k=1)
    assert not misspelt or misspelt[0].score < 1.0
    assert await linker.link_entities("zzqx nonexistent words", ck25) == []


async def test_values_in_the_question_link_as_literals(concert: Endpoint) -> None:
    endpoint = concert
    linker = EntityLinker(default_scorer())
    await endpoint.profile()  # discovery is not the linker's cost
    with counting_requests() as counter:
        literals = await linker.link_literals(["france", "52", "Atlantis"], endpoint)
    assert counter.count == 1  # one lookup for all phrases
    france = literals["france"][0]
    assert france.is_literal and france.term.value == "France" and V + "singer#country" in france.predicates
    age = literals["52"][0]
    assert age.term.value == "52" and V + "singer#age" in age.predicates
    assert "Atlantis" not in literals


async def test_class_phrases_link_to_unlabelled_classes_by_local_name(concert: Endpoint) -> None:
    endpoint = concert
    linker = EntityLinker(default_scorer())
    classes = await linker.link_classes("singers", endpoint)
    assert classes[0].term.value == V + "singer" and classes[0].score == pytest.approx(1.0)
    with counting_requests() as counter:
        await linker.link_classes("stadiums", endpoint)
    assert counter.count == 0  # the class list is fetched once per endpoint


async def test_class_phrases_link_to_labelled_classes(ck25: Endpoint) -> None:
    classes = await EntityLinker(default_scorer()).link_classes("product categories", ck25)
    assert classes[0].term.value == PV + "ProductCategory"


async def test_an_acronym_links_to_the_class_it_abbreviates(ck25: Endpoint) -> None:
    """"Which BOMs contain ...": the class labelled "Bill of Material (BOM)", not "BOM Part"."""
    from linking.entities import ABBREVIATION_SCORE, _abbreviations

    assert _abbreviations("Bill of Material (BOM)") == {"BOM", "BM"} and _abbreviations("Hardware") == set()
    classes = await EntityLinker(default_scorer()).link_classes("BOMs", ck25)
    assert classes[0].term.value == PV + "BillOfMaterial" and classes[0].score == pytest.approx(ABBREVIATION_SCORE)
    parts = await EntityLinker(default_scorer()).link_classes("parts", ck25)
    assert parts[0].term.value == PV + "BomPart"
    # the BOM part records hold hardware under hasPart: "parts" are that hardware too, recorded by BomPart
    recorded = [c for c in parts if c.recorded_by == PV + "BomPart"]
    assert [c.term.value for c in recorded] == [PV + "Hardware"] and recorded[0].score < parts[0].score
    suppliers = await EntityLinker(default_scorer()).link_classes("suppliers", ck25)
    assert not any(c.recorded_by for c in suppliers)


async def test_a_kind_word_links_to_the_class_its_synonym_names(ck25: Endpoint) -> None:
    """"Which vendors ...": the graph names the kind Supplier; a synonym fits at a discount."""
    from linking.entities import SYNONYM_FACTOR, kind_synonyms

    assert kind_synonyms("vendors") == ["suppliers", "providers", "sellers", "companies", "firms"]
    assert kind_synonyms("Production team") == ["Production department", "Production division"]
    assert kind_synonyms("countries") == [] and kind_synonyms("component") == ["part"]
    assert kind_synonyms("researchers") == ["authors", "writers", "scholars"]  # a scholarly graph's authors
    assert kind_synonyms("companies")[0] == "suppliers"
    classes = await EntityLinker(default_scorer()).link_classes("vendors", ck25)
    assert classes[0].term.value == PV + "Supplier" and classes[0].score == pytest.approx(SYNONYM_FACTOR)
    companies = await EntityLinker(default_scorer()).link_classes("company", ck25)  # "Which company supplies X?"
    assert companies[0].term.value == PV + "Supplier"
    direct = await EntityLinker(default_scorer()).link_classes("suppliers", ck25)
    assert direct[0].term.value == PV + "Supplier" and direct[0].score == pytest.approx(1.0)


async def test_studies_are_the_papers_of_a_scholarly_graph(virtuoso) -> None:  # noqa: ANN001
    """"Which studies used a focus group?": no class is named Study; the papers are, not the research fields."""
    from linking.entities import kind_synonyms

    assert kind_synonyms("studies") == ["papers", "publications"]
    async with open_endpoint(virtuoso, "orkg-studies", "orkg") as orkg:
        classes = await EntityLinker(default_scorer()).link_classes("studies", orkg)
    assert classes[0].term.value == "http://orkg.org/orkg/class/Paper"


async def test_relation_linking_in_both_directions(ck25: Endpoint) -> None:
    scorer = default_scorer()
    vertex = (await EntityLinker(scorer).link_entities("Franz Kornhaeusel", ck25))[0]
    relations = RelationLinker(scorer)
    with counting_requests() as counter:
        around = await relations.predicates_around([vertex], ck25)
    assert counter.count == 1
    pairs = around[FRANZ].pairs
    assert (PV + "memberOf", OUT) in pairs and (PV + "hasProductManager", IN) in pairs
    # what each leads to, as seen: departments and products are things, the e-mail a literal
    assert {(PV + "memberOf", OUT), (PV + "hasProductManager", IN)} <= around[FRANZ].things
    assert (PV + "email", OUT) in around[FRANZ].literal and (PV + "email", OUT) not in around[FRANZ].things
    manages = await relations.rank("product manager", around[FRANZ], ck25, top_k=3)
    assert (manages[0].iri, manages[0].direction) == (PV + "hasProductManager", IN)
    member = await relations.rank("member of", around[FRANZ], ck25, top_k=3)
    assert (member[0].iri, member[0].direction) == (PV + "memberOf", OUT)
    assert len(await relations.rank("member of", around[FRANZ], ck25, top_k=2)) == 2


async def test_relation_linking_around_literals_and_unknowns(concert_oxigraph: Endpoint) -> None:
    scorer = default_scorer()
    france = (await EntityLinker(scorer).link_literals(["France"], concert_oxigraph))["France"][0]
    relations = RelationLinker(scorer)
    ranked = await relations.rank("nationality", literal_predicates(france), concert_oxigraph)
    assert ranked[0].iri == V + "singer#country" and ranked[0].direction == IN
    sampled = await relations.predicates_of_bindings(f"?x a <{V}singer>", "?x", concert_oxigraph)
    age = await relations.rank("age", sampled, concert_oxigraph, top_k=1)
    assert age[0].iri == V + "singer#age" and age[0].direction == OUT and age[0].literal and not age[0].to_things
    everything = await relations.all_predicates(concert_oxigraph)
    assert (V + "stadium#capacity", OUT) in everything.pairs and (V + "stadium#capacity", IN) in everything.pairs
    unseen = await relations.rank("capacity", everything, concert_oxigraph, top_k=2)
    assert not any(p.to_things for p in unseen)  # the endpoint's predicate list says nothing about values


async def test_a_relation_phrase_known_as_a_paraphrase_fits_its_usual_predicate(ck25: Endpoint) -> None:
    """"Who reports to X?" shares no word with `hasManager`: the paraphrase's words ("manager") do."""
    from linking.relations import paraphrase

    assert paraphrase("reports to") == "manager supervisor" and paraphrase("supplies") is None
    assert paraphrase("delivers") == paraphrase("provided by") == "supplier supplies provider"
    assert paraphrase("reporting directly to") == "manager supervisor"  # an adverb says nothing of the predicate
    assert paraphrase("knows about") == paraphrase("expert on") == "expertise skill"  # `areaOfExpertise`
    scorer = default_scorer()
    franz = (await EntityLinker(scorer).link_entities("Franz Kornhaeusel", ck25))[0]
    linker = RelationLinker(scorer)
    around = await linker.predicates_around([franz], ck25)
    ranked = await linker.rank("reports to", around[FRANZ], ck25)
    assert ranked[0].iri == PV + "hasManager"
    assert (await linker.rank("e-mail address", around[FRANZ], ck25))[0].iri == PV + "email"  # not his street address


ORKG = "http://orkg.org/orkg/predicate/"


async def _best_predicates_of_a_paper(virtuoso, phrases: tuple[str, ...]) -> dict[str, str]:  # noqa: ANN001
    """The best predicate around one ORKG paper for each relation phrase."""
    scorer = default_scorer()
    async with open_endpoint(virtuoso, "orkg-paper-predicates", "orkg") as orkg:
        paper = (await EntityLinker(scorer).link_entities(
            "Aligning Architecture with Business Goals in the Automotive Domain", orkg))[0]
        linker = RelationLinker(scorer)
        around = (await linker.predicates_around([paper], orkg))[paper.term.value]
        return {phrase: (await linker.rank(phrase, around, orkg))[0].iri for phrase in phrases}


async def test_a_time_superlative_ranks_by_a_date_or_year(virtuoso) -> None:  # noqa: ANN001
    """"the most recent paper": `?u1 | recent | ?u2` is its publication year, not its venue or its authors;
    "titles" are a paper's label, not its authors (whose values are names)."""
    from linking.relations import paraphrase

    assert paraphrase("most recent") == paraphrase("earliest") == paraphrase("newest") == "date year"
    best = await _best_predicates_of_a_paper(virtuoso, ("recent", "earliest", "latest", "titles", "title", "names"))
    assert best == {**dict.fromkeys(("recent", "earliest", "latest"), ORKG + "publicationYear"),
                    **dict.fromkeys(("titles", "title", "names"), "http://www.w3.org/2000/01/rdf-schema#label")}


async def test_a_relation_ending_in_a_word_of_time_compares_a_date_or_year(virtuoso) -> None:  # noqa: ANN001
    """"papers published before 2018": `?u1 | published before | ?u2` is the publication year, not the
    authors (whose phrase fit is higher); "named after" is no time; a paper appears at its venue ("Where did X
    appear?"), not its authors."""
    from linking.relations import paraphrase

    assert paraphrase("published before") == paraphrase("hired after") == paraphrase("founded since") == "date year"
    assert paraphrase("named after") is None and paraphrase("before") is None
    best = await _best_predicates_of_a_paper(virtuoso, ("published before", "published after", "appeared before",
                                                        "appear", "appeared at", "appeared in"))
    assert best == {**dict.fromkeys(("published before", "published after", "appeared before"), ORKG + "publicationYear"),
                    **dict.fromkeys(("appear", "appeared at", "appeared in"), ORKG + "venue")}


async def test_names_asked_of_a_table_fit_its_column_named_after_it(oxigraph) -> None:  # noqa: ANN001
    """"airline names": the `airlines` table's name column is `airlines#airline` (no naming word in it; the
    phrase fits `abbreviation` better than it)."""
    columns = PredicateSet(frozenset((V + f"airlines#{c}", OUT) for c in ("airline", "abbreviation", "country", "uid")))
    async with open_endpoint(oxigraph, "flight-names", "flight_2") as flights:
        linker = RelationLinker(default_scorer())
        for phrase in ("names", "name"):
            assert (await linker.rank(phrase, columns, flights))[0].iri == V + "airlines#airline", phrase
        assert (await linker.rank("country", columns, flights))[0].iri == V + "airlines#country"


async def test_a_lower_case_column_name_is_ranked_by_its_glued_words_and_a_camel_case_name_is_not_split(
        concert_oxigraph: Endpoint) -> None:
    """"type of pet" against `pets#pettype` (a column name gluing "pet" and "type") and `pets#petid`: the glued
    words are split, so the type fits best; `hasEvaluationGuideline` says where its words end ("Guideline"
    stays one word, though the tokenizer's vocabulary lacks it)."""
    relations = RelationLinker(default_scorer())
    pets = "http://valuenet/ontop/pets#"
    guideline = "http://orkg.org/orkg/predicate/hasEvaluationGuideline"
    predicates = PredicateSet(frozenset({(pets + "pettype", OUT), (pets + "petid", OUT), (guideline, OUT)}))
    ranked = await relations.rank("type of pet", predicates, concert_oxigraph, descriptions={
        pets + "pettype": "pettype", pets + "petid": "petid", guideline: "Has Evaluation Guideline"})
    assert ranked[0].iri == pets + "pettype" and ranked[0].label == "pet type"
    assert next(p.label for p in ranked if p.iri == guideline) == "Has Evaluation Guideline"


async def test_a_predicate_named_after_the_kind_asked_of_wins_a_near_tie() -> None:
    """"the id of the pet" on a pet-owning record (`has_pet`): its `petid`, not its `stuid` (a student's)."""
    pet_id, student_id = "http://valuenet/ontop/has_pet#petid", "http://valuenet/ontop/has_pet#stuid"
    predicates = PredicateSet(frozenset({(pet_id, OUT), (student_id, OUT)}))
    descriptions = {pet_id: "pet id", student_id: "student id"}
    linker = RelationLinker(default_scorer())
    plain = await linker.rank("id", predicates, None, descriptions=descriptions)  # type: ignore[arg-type]
    assert abs(plain[0].score - plain[1].score) < 0.02  # "id" fits both alike
    owned = await linker.rank("id", predicates, None, descriptions=descriptions, own_kinds=["pets"])  # type: ignore[arg-type]
    assert owned[0].iri == pet_id and owned[0].score > owned[1].score


@pytest.mark.parametrize(("phrase", "end"), [("effective start date", "from"), ("end date", "to"),
                                             ("date it began", "from"), ("valid until", "to")])
async def test_the_end_of_a_span_a_phrase_names_picks_its_predicate(phrase: str, end: str) -> None:
    """"effective start date" against `date_effective_from` and `date_effective_to`: "from" and "to" are stop
    words, so the scorer alone scores both alike."""
    templates = "http://valuenet/ontop/templates#"
    starts, ends = templates + "date_effective_from", templates + "date_effective_to"
    predicates = PredicateSet(frozenset({(starts, OUT), (ends, OUT)}))
    descriptions = {starts: "date effective from", ends: "date effective to"}
    ranked = await RelationLinker(default_scorer()).rank(phrase, predicates, None,  # type: ignore[arg-type]
                                                         descriptions=descriptions)
    assert ranked[0].iri == templates + f"date_effective_{end}" and ranked[0].score > ranked[1].score


async def test_an_age_is_found_in_a_birth_year_where_no_age_is_stored() -> None:
    """"the youngest singer" on a graph of birth years: word vectors put "age" as near `citizenship`."""
    birth, citizenship = "http://valuenet/ontop/singer#birth_year", "http://valuenet/ontop/singer#citizenship"
    predicates = PredicateSet(frozenset({(birth, OUT), (citizenship, OUT)}))
    descriptions = {birth: "birth year", citizenship: "citizenship"}
    ranked = await RelationLinker(default_scorer()).rank("age", predicates, None, descriptions=descriptions)  # type: ignore[arg-type]
    assert ranked[0].iri == birth and ranked[0].score > ranked[1].score + 0.3
    age = "http://valuenet/ontop/head#age"  # a stored age is still the age
    both = PredicateSet(frozenset({(birth, OUT), (age, OUT)}))
    assert (await RelationLinker(default_scorer()).rank("age", both, None, descriptions={
        birth: "birth year", age: "age"}))[0].iri == age  # type: ignore[arg-type]
