"""Names for opaque answers (`linking.naming`): decided once per class, whichever answers came first."""

from __future__ import annotations

import pyoxigraph as ox
from conftest import open_endpoint

from linking.naming import EntityNamer

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
        assert len(names) == len(players) and all(not n.value.isdigit() for n in names.values())


async def test_a_row_without_a_name_is_named_by_its_key_and_a_record_of_two_keys_is_not(oxigraph) -> None:  # noqa: ANN001
    """A vote has no name and refers to a contestant many votes share: its key (`vote_id=3` -> "3") names it.
    A singer-in-concert record, keyed by two columns, is a link between things, not a thing: no name."""
    async with open_endpoint(oxigraph, "voter-key-naming", "voter_1") as voter:
        votes = await _instances(voter, "http://valuenet/ontop/votes")
        naming = await EntityNamer().naming(votes, {}, voter)
        assert (naming.predicate, naming.through, naming.keyed) == ("http://valuenet/ontop/votes#vote_id", None, True), naming
        names = await EntityNamer().names(votes, naming, voter)
        assert {iri.rsplit("=", 1)[1] for iri in names} == {n.value for n in names.values()}
    async with open_endpoint(oxigraph, "concert-record-naming", "concert_singer") as concert:
        records = await _instances(concert, "http://valuenet/ontop/singer_in_concert")
        naming = await EntityNamer().naming(records, {}, concert)
        assert naming.predicate is None and not naming.labelled, naming
