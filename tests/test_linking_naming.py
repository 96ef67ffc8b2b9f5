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
