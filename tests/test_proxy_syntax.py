"""The proxy's pure parts: update detection, cache keys, magic-triple rewriting, content negotiation,
the response cache, and answers as SPARQL results. Rewritten queries are checked by pyoxigraph's parser."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

import pyoxigraph as ox
import pytest

from gateway.errors import SparqlSyntaxError
from gateway.models import Answer, PathResult, QAResult
from gateway.proxy import (
    NoGeneratedPattern,
    ResponseCache,
    answers_as_results,
    is_acceptable,
    parse_accept,
    preferred_type,
    transcode,
    upstream_accept,
)
from gateway.sparql_syntax import classify, find_magic_triples, normalise, rewrite_magic_triples


@dataclass(frozen=True)
class Generated:
    sparql: str
    pattern: str
    answer_var: str


BALTIC = Generated(
    sparql="PREFIX dbo: <http://dbpedia.org/ontology/>\nSELECT DISTINCT ?unknown1 WHERE { ?unknown1 dbo:nearestCity ?c . "
           "?c dbo:sea <http://dbpedia.org/resource/Baltic_Sea> }",
    pattern="?unknown1 dbo:nearestCity ?c . ?c dbo:sea <http://dbpedia.org/resource/Baltic_Sea>",
    answer_var="?unknown1",
)


def parses(query: str) -> None:
    """Raises SyntaxError unless pyoxigraph parses (and runs, on an empty store) the query."""
    ox.Store().query(query)


@pytest.mark.parametrize("text", [
    "INSERT DATA { <a> <b> <c> }",
    "delete where { ?s ?p ?o }",
    "PREFIX ex: <http://ex/> WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
    "LOAD <http://example.org/data.ttl>",
    "CLEAR ALL", "DROP GRAPH <http://g>", "CREATE GRAPH <http://g>",
    "COPY <http://a> TO <http://b>", "MOVE DEFAULT TO <http://b>", "ADD <http://a> TO <http://b>",
    "SELECT * WHERE { ?s ?p ?o } ; DROP ALL",
    "# a comment\nPREFIX x: <http://x/>\n  insert data { x:a x:b x:c }",
])
def test_updates_are_recognised(text: str) -> None:
    assert classify(text).is_update


@pytest.mark.parametrize(("text", "form"), [
    ('SELECT * WHERE { ?s ?p "INSERT DATA { <a> <b> <c> }" }', "SELECT"),
    ("SELECT * WHERE { ?s <http://ex/delete#drop> ?o }", "SELECT"),
    ("# DROP ALL\nASK { ?s ?p ?o }", "ASK"),
    ("PREFIX insert: <http://ex/> CONSTRUCT { ?s insert:load ?o } WHERE { ?s ?p ?o }", "CONSTRUCT"),
    ("DESCRIBE <http://ex/a>", "DESCRIBE"),
    ("SELECT ?insert ?delete WHERE { ?insert ?p ?delete }", "SELECT"),
    ("define input:inference 'x' SELECT ?s WHERE { ?s ?p ?o . ?o bif:contains \"'clear'\" }", "SELECT"),
    ("SELECT * WHERE { ?s ?p '''multi\nline DROP''' }", "SELECT"),
])
def test_queries_with_update_words_in_strings_iris_comments_and_names_pass(text: str, form: str) -> None:
    kind = classify(text)
    assert not kind.is_update
    assert kind.form == form


TRICKY_FOR_THE_SHORTCUT = [
    "SELECT * WHERE { ?s ?p ?o } 1DROP ALL", "SELECT * {} ;DROP ALL", "SELECT * { ?s <a> ?o }DROP ALL",
    "PREFIX select: <http://x/> SELECT ?s WHERE { ?s select:p ?o }", "PREFIX : <http://x/> ASK { :a :b :c }",
    "BASE <http://x/> DESCRIBE <a>", "select:x", "ASK:", "SELECTED ?x", "CONSTRUCT-ish", "?x < ?y DROP",
    "SELECT ?with WHERE { ?with ?p ?o }", "SELECT * WHERE { ?s ?p ?o FILTER(?o<5&&?o>2) } LIMIT 1",
    "SELECT * WHERE { <http://x/a b> ?p ?o } DROP ALL", "prefix ex: <http://ex/> select * { ex:insert ?p ?o }",
    "  \n\tselect\t?s\n{ ?s ?p ?o }", "SELECT * WHERE { ?s ?p ?o }\u00a0LOAD <http://x>",
]


def test_the_analysis_shortcut_agrees_with_the_lexer_on_every_training_query() -> None:
    """`analyse` skips the lexer for plain queries; on ~17,000 real queries (the gold SPARQL of
    ../shared/data/train) and on crafted edge cases, its answer is the lexer's."""
    from gateway.sparql_syntax import _analyse_tokens, analyse
    from understanding.derive import read_items

    texts = [item.sparql for item in read_items()] + TRICKY_FOR_THE_SHORTCUT
    texts += [t.replace("SELECT", "DELETE", 1) for t in texts[:2000]]  # and as many updates
    assert len(texts) > 15000
    disagreements = [t for t in texts if analyse(t) != _analyse_tokens(t)]
    assert disagreements == []


def test_normalise_ignores_comments_and_whitespace_but_not_strings() -> None:
    a = "SELECT ?s  WHERE {\n  ?s ?p \"a  b\" # note\n}"
    b = "SELECT ?s WHERE { ?s ?p \"a  b\" }"
    assert normalise(a) == normalise(b)
    assert normalise(b) != normalise(b.replace("a  b", "a b"))


def test_magic_triple_is_replaced_by_the_generated_pattern_with_variables_renamed() -> None:
    query = ('SELECT ?city ?c WHERE { ?city <urn:kgqa:answers> "cities on the shore of the Baltic Sea" . '
             '?city <http://ex/population> ?c FILTER(?c > 1000) } ORDER BY ?city')
    rewritten = rewrite_magic_triples(query, {"cities on the shore of the Baltic Sea": BALTIC})
    assert "urn:kgqa:answers" not in rewritten
    assert "?city <http://dbpedia.org/ontology/nearestCity> ?kgqa1_c" in rewritten
    assert "?kgqa1_c <http://dbpedia.org/ontology/sea> <http://dbpedia.org/resource/Baltic_Sea>" in rewritten
    assert "?city <http://ex/population> ?c FILTER(?c > 1000)" in rewritten  # the client's ?c is untouched
    parses(rewritten)


def test_magic_triple_with_prefix_semicolon_and_two_questions() -> None:
    query = ("PREFIX q: <urn:kgqa:>\nSELECT * WHERE {\n  ?x q:answers 'cities on the shore of the Baltic Sea' ; "
             "<http://ex/p> ?v .\n  ?y q:answers \"\"\"cities on the shore of the Baltic Sea\"\"\"\n}")
    triples = find_magic_triples(query)
    assert [(t.variable, t.continues) for t in triples] == [("x", True), ("y", False)]
    rewritten = rewrite_magic_triples(query, {"cities on the shore of the Baltic Sea": BALTIC})
    assert "?x <http://ex/p> ?v" in rewritten
    assert "?kgqa1_c" in rewritten and "?kgqa2_c" in rewritten
    parses(rewritten)


def test_renamed_variables_avoid_the_clients_names() -> None:
    query = 'SELECT * WHERE { ?a <urn:kgqa:answers> "q" . ?kgqa1_c ?p ?o }'
    rewritten = rewrite_magic_triples(query, {"q": BALTIC})
    assert "?kgqa1_c_ <http://dbpedia.org/ontology/sea>" in rewritten
    parses(rewritten)


def test_magic_strings_inside_literals_are_not_rewritten() -> None:
    query = 'SELECT * WHERE { ?s ?p "?x <urn:kgqa:answers> \\"q\\"" }'
    assert find_magic_triples(query) == []
    assert rewrite_magic_triples(query, {}) == query


@pytest.mark.parametrize("query", [
    "SELECT * WHERE { <http://ex/a> <urn:kgqa:answers> \"q\" }",
    "SELECT * WHERE { ?a <urn:kgqa:answers> ?b }",
    "SELECT * WHERE { ?a <urn:kgqa:answers> \"q\", \"r\" }",
    "SELECT * WHERE { ?a <http://ex/p> ?b ; <urn:kgqa:answers> \"q\" }",
    "SELECT * WHERE { ?a <urn:kgqa:answers> \"  \" }",
])
def test_malformed_magic_triples_are_clear_syntax_errors(query: str) -> None:
    with pytest.raises(SparqlSyntaxError):
        find_magic_triples(query)


def test_a_question_without_a_generated_query_matches_nothing() -> None:
    query = 'SELECT ?x WHERE { ?x <urn:kgqa:answers> "unanswerable" }'
    rewritten = rewrite_magic_triples(query, {"unanswerable": NoGeneratedPattern()})
    assert "FILTER(false)" in rewritten
    assert list(ox.Store().query(rewritten)) == []


def test_accept_parsing_and_negotiation() -> None:
    accepted = parse_accept("text/csv;q=0.5, application/sparql-results+xml, */*;q=0.1, text/html;q=0")
    assert [m for m, _ in accepted] == ["application/sparql-results+xml", "text/csv", "*/*"]
    assert preferred_type(accepted, returns_graph=False) == "application/sparql-results+xml"
    assert preferred_type(parse_accept("*/*"), returns_graph=True) == "text/turtle"
    assert preferred_type(parse_accept("application/ld+json"), returns_graph=True) == "application/ld+json"
    assert is_acceptable("text/csv; charset=utf-8", accepted)
    assert not is_acceptable("text/html", parse_accept("text/csv"))
    assert upstream_accept("", returns_graph=False) == "application/sparql-results+json"
    assert upstream_accept("text/csv", returns_graph=False) == "text/csv"
    rdflib_accept = "application/sparql-results+xml, application/rdf+xml;q=0.9, */*;q=0.1"
    assert upstream_accept(rdflib_accept, returns_graph=True) == "application/rdf+xml;q=0.9"
    assert upstream_accept(rdflib_accept, returns_graph=False) == "application/sparql-results+xml"


def test_transcoding_results_and_graphs() -> None:
    results = json.dumps({"head": {"vars": ["s"]}, "results": {"bindings": [
        {"s": {"type": "uri", "value": "http://ex/a"}}]}}).encode()
    csv = transcode(results, "application/sparql-results+json", "text/csv")
    assert csv.decode().splitlines() == ["s", "http://ex/a"]
    graph = b"<http://ex/a> <http://ex/p> \"x\" .\n"
    jsonld = json.loads(transcode(graph, "application/n-triples", "application/ld+json"))
    assert "http://ex/a" in json.dumps(jsonld)


def test_response_cache_expires_and_stays_within_its_byte_bound() -> None:
    cache = ResponseCache(ttl_s=0.2, max_bytes=100, max_entry_bytes=60)
    cache.put(("e", "a", "q1"), b"x" * 50, "text/plain")
    assert cache.get(("e", "a", "q1")) is not None
    cache.put(("e", "a", "q2"), b"y" * 50, "text/plain")
    cache.put(("e", "a", "q3"), b"z" * 50, "text/plain")  # evicts the least recently used
    assert cache.get(("e", "a", "q1")) is None and cache.get(("e", "a", "q3")) is not None
    cache.put(("e", "a", "big"), b"b" * 61, "text/plain")
    assert cache.get(("e", "a", "big")) is None
    time.sleep(0.25)
    assert cache.get(("e", "a", "q3")) is None
    assert not ResponseCache(ttl_s=0).enabled


def test_answers_as_sparql_results_in_every_format() -> None:
    kgqan = PathResult("kgqan", answers=[Answer("http://ex/Riga", "iri", label="Riga", score=0.9),
                                         Answer("42", "literal", datatype="http://www.w3.org/2001/XMLSchema#integer")])
    result = QAResult("q", "e", {"kgqan": kgqan})
    body, media_type = answers_as_results(result, "application/sparql-results+json")
    data = json.loads(body)
    assert media_type == "application/sparql-results+json"
    assert data["head"]["vars"] == ["answer", "label", "path", "score"]
    first = data["results"]["bindings"][0]
    assert first["answer"]["value"] == "http://ex/Riga" and first["label"]["value"] == "Riga"
    assert "label" not in data["results"]["bindings"][1]
    for accept, fmt in (("application/sparql-results+xml", ox.QueryResultsFormat.XML),
                        ("text/tab-separated-values", ox.QueryResultsFormat.TSV)):
        body, _ = answers_as_results(result, accept)
        assert len(list(ox.parse_query_results(body, fmt))) == 2
    csv, media_type = answers_as_results(result, "text/csv")
    assert media_type == "text/csv" and csv.decode().splitlines()[1].startswith("http://ex/Riga,Riga,kgqan,")
    yes = QAResult("q", "e", {"kgqan": PathResult("kgqan", answers=[Answer.boolean(True)])})
    assert json.loads(answers_as_results(yes, "")[0]) == {"head": {}, "boolean": True}


def test_a_generated_union_keeps_its_braces_when_renamed() -> None:
    """A question asked as two alternatives generates `{ A } UNION { B }`: not one braced group, so its outer
    braces stay (only `{ A }` is unwrapped)."""
    from gateway.sparql_syntax import rename_pattern

    @dataclass
    class Generated:
        sparql: str
        pattern: str
        answer_var: str

    union = Generated("SELECT ?unknown1 WHERE { x }", '{ ?unknown1 <p> "}" } UNION { ?unknown1 <q> ?unknown2 }', "?unknown1")
    assert rename_pattern(union, "s", set(), "m") == '{ ?s <p> "}" } UNION { ?s <q> ?m_unknown2 }'
    group = Generated("SELECT ?unknown1 WHERE { x }", "{ ?unknown1 <p> ?unknown2 }", "?unknown1")
    assert rename_pattern(group, "s", set(), "m") == "?s <p> ?m_unknown2"
