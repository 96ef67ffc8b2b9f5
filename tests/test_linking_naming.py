"""Names for opaque answers (`linking.naming`): decided once per class, whichever answers came first."""

from __future__ import annotations

import pyoxigraph as ox
from conftest import open_endpoint

from linking.naming import EntityNamer, name_part

AREA = "http://valuenet/ontop/area_code_state"


async def _area_codes(endpoint, state: str | None) -> list[ox.NamedNode]:  # noqa: ANN001
    where = f'?s <{AREA}#state> "{state}" .' if state else ""
    result = await endpoint.sparql.select(f"SELECT ?s WHERE {{ ?s a <{AREA}> . {where} }} LIMIT 40")
    return [term for term in result.column("s") if isinstance(term, ox.NamedNode)]


async def test_a_class_is_named_the_same_whichever_answers_come_first(oxigraph) -> None:  # noqa: ANN001
    """Many area codes of one state asked first (one distinct state among them) must not decide that
    `state` names no area code: the decision is taken on a sample of the class."""
    decisions = []
    for first_state in ("CA", None):
        async with open_endpoint(oxigraph, f"voter-naming-{first_state}", "voter_1") as voter:
            namer = EntityNamer()
            first = await namer.naming(await _area_codes(voter, first_state), {}, voter)
            again = await namer.naming((await _area_codes(voter, None))[:1], {}, voter)
            decisions.append((first.predicate, again.predicate))
    assert decisions[0] == decisions[1] and decisions[0][0] == decisions[0][1]


async def _instances(endpoint, class_iri: str) -> list[ox.NamedNode]:  # noqa: ANN001
    result = await endpoint.sparql.select(f"SELECT ?s WHERE {{ ?s a <{class_iri}> }} LIMIT 10")
    return [term for term in result.column("s") if isinstance(term, ox.NamedNode)]


async def test_a_row_without_a_name_of_its_own_is_named_by_the_one_thing_it_refers_to(oxigraph) -> None:  # noqa: ANN001
    """A poker player row has no name column but refers to one person of its own: the person's name names it,
    as a question over the tables is answered ("Which poker player ..." -> the person's name)."""
    async with open_endpoint(oxigraph, "poker-naming", "poker_player") as poker:
        namer = EntityNamer()
        players = await _instances(poker, "http://valuenet/ontop/poker_player")
        naming = await namer.naming(players, {}, poker)
        assert (naming.through, naming.predicate) == ("http://valuenet/ontop/poker_player#ref-people_id",
                                                      "http://valuenet/ontop/people#name"), naming
        names = await namer.names(players, naming, poker)
        assert len(names) == len(players) and all(not n.value.isdigit() and family is None
                                                  for n, family in names.values())


async def test_a_row_without_a_name_is_named_by_its_key_and_a_record_of_two_keys_is_not(oxigraph) -> None:  # noqa: ANN001
    """A vote has no name and refers to a contestant many votes share: its key (`vote_id=3` -> "3") names it.
    A singer-in-concert record, keyed by two columns, is a link between things, not a thing: no name."""
    async with open_endpoint(oxigraph, "voter-key-naming", "voter_1") as voter:
        votes = await _instances(voter, "http://valuenet/ontop/votes")
        naming = await EntityNamer().naming(votes, {}, voter)
        assert (naming.predicate, naming.through, naming.keyed) == ("http://valuenet/ontop/votes#vote_id", None, True), naming
        names = await EntityNamer().names(votes, naming, voter)
        assert {iri.rsplit("=", 1)[1] for iri in names} == {n.value for n, _ in names.values()}
    async with open_endpoint(oxigraph, "concert-record-naming", "concert_singer") as concert:
        records = await _instances(concert, "http://valuenet/ontop/singer_in_concert")
        naming = await EntityNamer().naming(records, {}, concert)
        assert naming.predicate is None and not naming.labelled, naming


def test_the_parts_of_a_persons_name_are_told_by_the_column_name() -> None:
    """Relational tables spell a person's name parts many ways; a course's or a department's name is no part."""
    given = ["student#fname", "employee#first_name", "staff#staff_first_name", "driver#forename", "p#name_first",
             "emp#emp_fname", "person#givenName"]
    family = ["student#lname", "employee#last_name", "driver#surname", "p#name_last", "person#familyName"]
    other = ["course#cname", "dept#dept_name", "user#login_name", "person#nickname", "singer#name", "state#first"]
    assert [name_part(f"http://x/{p}") for p in given] == ["given"] * len(given)
    assert [name_part(f"http://x/{p}") for p in family] == ["family"] * len(family)
    assert [name_part(f"http://x/{p}") for p in other] == [None] * len(other)


async def test_a_person_without_a_name_column_is_named_by_given_and_family_name(oxigraph) -> None:  # noqa: ANN001
    """A student row has `fname` and `lname` but no `name`: the two together name it ("Bruce" "Wilson"), not its
    key (`stuid`), which names no person for a reader."""
    async with open_endpoint(oxigraph, "pets-naming", "pets_1") as pets:
        students = await _instances(pets, "http://valuenet/ontop/student")
        namer = EntityNamer()
        naming = await namer.naming(students, {}, pets)
        assert (naming.predicate, naming.family, naming.keyed) == (
            "http://valuenet/ontop/student#fname", "http://valuenet/ontop/student#lname", False), naming
        names = await namer.names(students, naming, pets)
        truth = await pets.sparql.select("SELECT ?s ?f ?l WHERE { ?s <http://valuenet/ontop/student#fname> ?f ; "
                                         "<http://valuenet/ontop/student#lname> ?l }")
        expected = {row["s"].value: (row["f"].value, row["l"].value) for row in truth}
        assert {s: (f.value, family.value) for s, (f, family) in names.items() if family} == \
            {s.value: expected[s.value] for s in students}
