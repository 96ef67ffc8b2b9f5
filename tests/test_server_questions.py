"""Questions through the SPARQL proxy and TEXT2SPARQL, end to end with the real KGQAN path on live
Virtuoso (ck25): `?question=` answers as SPARQL results, and the magic triple inside a client query.

The questions here are written for these tests, not taken from the evaluation set."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from collections.abc import Iterator

import pytest
from serverutil import ServerThread
from SPARQLWrapper import JSON, SPARQLWrapper

from gateway.config import EndpointRegistry
from gateway.engines import VirtuosoEngine
from gateway.server import ServerSettings

pytestmark = pytest.mark.slow
CORPORATE = "https://text2sparql.aksw.org/2025/corporate/"
QUESTION = "Which product categories are there?"


@pytest.fixture(scope="module")
def server(virtuoso: VirtuosoEngine) -> Iterator[ServerThread]:
    pytest.importorskip("linking")
    registry = EndpointRegistry({"default": virtuoso.endpoint("default", "ck25"),
                                 "ck25": virtuoso.endpoint("ck25", "ck25")})
    thread = ServerThread(registry, ServerSettings(datasets={CORPORATE: "ck25"})).start()
    thread.gateway.path("kgqan")  # loads the real KGQAN path of the `linking` package
    yield thread
    thread.stop()


def select(url: str, query: str) -> tuple[dict, dict[str, str]]:
    client = SPARQLWrapper(url)
    client.setQuery(query)
    client.setReturnFormat(JSON)
    response = client.query()
    return response.convert(), dict(response.info())


def test_question_parameter_returns_answers_as_sparql_results(server: ServerThread) -> None:
    url = f"{server.url}/sparql?" + urllib.parse.urlencode({"question": QUESTION, "path": "kgqan"})
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept": "application/sparql-results+json"}),
                                timeout=180) as response:
        data = json.loads(response.read())
    assert data["head"]["vars"] == ["answer", "label", "path", "score"]
    rows = data["results"]["bindings"]
    assert rows and all(row["path"]["value"] == "kgqan" for row in rows)
    assert all(row["answer"]["type"] in ("uri", "literal") and row["answer"]["value"] for row in rows)
    assert all(float(row["score"]["value"]) > 0 for row in rows)


def test_a_count_per_group_comes_with_its_group_as_a_column(server: ServerThread) -> None:
    url = f"{server.url}/sparql?" + urllib.parse.urlencode(
        {"question": "How many employees does each department have?", "path": "kgqan"})
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept": "application/sparql-results+json"}),
                                timeout=180) as response:
        data = json.loads(response.read())
    assert data["head"]["vars"] == ["answer", "label", "path", "score", "department"]
    rows = data["results"]["bindings"]
    assert len(rows) == 6 and all(row["department"]["type"] == "uri" and int(row["answer"]["value"]) > 0 for row in rows)
    assert sum(int(row["answer"]["value"]) for row in rows) == 53  # every member of a department, once


def test_magic_triple_is_answered_with_the_clients_own_sparql_around_it(server: ServerThread) -> None:
    label = "http://www.w3.org/2000/01/rdf-schema#label"
    query = (f'SELECT ?category ?name WHERE {{ ?category <urn:kgqa:answers> "{QUESTION}" . '
             f"?category <{label}> ?name }} ORDER BY ?name")
    data, headers = select(f"{server.url}/endpoints/ck25/sparql", query)
    rows = data["results"]["bindings"]
    assert headers.get("x-kgqa-rewritten") == "1"
    assert rows and all(row["category"]["type"] == "uri" and row["name"]["value"] for row in rows)
    names = [row["name"]["value"] for row in rows]
    assert names == sorted(names)  # the client's ORDER BY applies to the generated pattern's answers
    first = names[0]
    filtered, _ = select(f"{server.url}/endpoints/ck25/sparql",
                         query.replace("} ORDER BY", f'FILTER(STR(?name) = "{first}") }} ORDER BY'))
    kept = [row["name"]["value"] for row in filtered["results"]["bindings"]]
    assert kept and set(kept) == {first}  # the client's FILTER applies too
    assert len(kept) < len(names) or len(set(names)) == 1


def test_text2sparql_returns_the_kgqan_query_which_runs(server: ServerThread, virtuoso: VirtuosoEngine) -> None:
    url = f"{server.url}/text2sparql?" + urllib.parse.urlencode({"question": QUESTION, "dataset": CORPORATE})
    with urllib.request.urlopen(url, timeout=180) as response:
        answer = json.loads(response.read())
    assert answer["dataset"] == CORPORATE and answer["question"] == QUESTION
    query = answer["query"]
    assert "FILTER(false)" not in query, answer
    data, _ = select(f"{server.url}/endpoints/ck25/sparql", query)
    assert data["results"]["bindings"]


def test_text2sparql_answers_a_question_with_or_in_one_query(server: ServerThread) -> None:
    question = "Which suppliers are based in France or Germany?"
    url = f"{server.url}/text2sparql?" + urllib.parse.urlencode({"question": question, "dataset": CORPORATE})
    with urllib.request.urlopen(url, timeout=180) as response:
        query = json.loads(response.read())["query"]
    assert " UNION " in query and '"France"' in query and '"Germany"' in query
    data, _ = select(f"{server.url}/endpoints/ck25/sparql", query)
    assert len(data["results"]["bindings"]) > 2


def test_a_question_triple_with_or_is_the_union_of_both_alternatives(server: ServerThread) -> None:
    query = ('SELECT ?s WHERE { ?s <urn:kgqa:answers> "Which suppliers are based in France or Germany?" . '
             '?s <http://ld.company.org/prod-vocab/addressCountry> ?c }')
    data, headers = select(f"{server.url}/endpoints/ck25/sparql", query)
    assert headers.get("x-kgqa-rewritten") == "1"
    truth, _ = select(f"{server.url}/endpoints/ck25/sparql",
                      'SELECT ?s WHERE { ?s a <http://ld.company.org/prod-vocab/Supplier> ; '
                      '<http://ld.company.org/prod-vocab/addressCountry> ?c VALUES ?c { "France" "Germany" } }')
    found = {row["s"]["value"] for row in data["results"]["bindings"]}
    assert len(found) > 2 and found == {row["s"]["value"] for row in truth["results"]["bindings"]}
