"""`kgqa eval`: question loaders for every data format, QALD scoring, and end-to-end runs on real engines.

End-to-end runs use stand-in answer paths (an oracle that runs the gold query it is handed, and a
path that answers nothing), so the harness is tested independently of the real paths' quality; one
subprocess run of the CLI uses the real paths.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph as ox
import pytest
from conftest import DATA, KGS, ROOT, SPIDER

from gateway.cli import main as cli_main
from gateway.config import EndpointRegistry
from gateway.endpoint import Endpoint
from gateway.engines import OxigraphEngine, VirtuosoEngine
from gateway.errors import ConfigurationError
from gateway.evaluation import (
    EvaluationSettings,
    EvaluationTargets,
    GoldResult,
    QuestionOutcome,
    engine_stopped,
    evaluate,
    graph_files,
    miss_kind,
    normalize_answer,
    path_outcome,
    percentile,
    plan_graphs,
    run_gold,
    score_answers,
    summarize_path,
)
from gateway.models import Answer, PathResult
from gateway.qa import AskOptions, Gateway
from gateway.questions import (
    XSD,
    AnswerValue,
    BenchmarkQuestion,
    GoldTriple,
    add_spider_prefix,
    expand_declared_escapes,
    is_ask_query,
    load_questions,
    normalize_literal,
    normalize_term,
    orkg_answer_values,
    parse_gold_triple,
    parse_gold_triples,
    question_form,
    sparql_features,
)

CK25_QUESTIONS = KGS / "ck25" / "questions.yml"
ORKG_QUESTIONS = KGS / "orkg-swa-distributed" / "questions.csv"
SPIDER_QUESTIONS = SPIDER / "questions.json"

pytestmark = pytest.mark.skipif(not CK25_QUESTIONS.exists(), reason=f"shared data not found at {DATA}")


# --- loaders ---------------------------------------------------------------------------------------

def test_ck25_yaml() -> None:
    questions = load_questions(CK25_QUESTIONS)
    assert len(questions) == 50
    assert len({q.id for q in questions}) == 50
    assert all(q.question and q.gold_sparql and q.kg_name == "ck25" for q in questions)
    assert all(q.source_format == "ck25-yaml" and q.gold_answers is None for q in questions)
    # the file's own features are kept next to the ones derived from the query
    assert sum("ASK" in q.features for q in questions) == 3
    assert Counter(q.form for q in questions)["boolean"] == 3
    assert all(q.form in {"boolean", "superlative", "count", "aggregate", "order", "filter", "list"} for q in questions)


def test_spider_json_adds_the_prefix_and_filters_by_graph() -> None:
    questions = load_questions(SPIDER_QUESTIONS)
    assert len(questions) == 382
    assert len({q.kg_name for q in questions}) == 11
    assert all(q.gold_sparql.startswith("PREFIX : <http://valuenet/ontop/>\n") for q in questions)  # type: ignore[union-attr]
    assert not any("\\#" in q.gold_sparql for q in questions)  # type: ignore[operator]
    concert = load_questions(SPIDER_QUESTIONS, kg_name="concert_singer")
    assert len(concert) == 45 and {q.kg_name for q in concert} == {"concert_singer"}
    assert len({q.id for q in questions}) == 382
    with pytest.raises(ConfigurationError, match="no questions for kg_name 'nope'.*concert_singer"):
        load_questions(SPIDER_QUESTIONS, kg_name="nope")


def test_orkg_csv_gold_triples_and_derived_answers() -> None:
    questions = load_questions(ORKG_QUESTIONS)
    assert len(questions) == 170
    assert all(q.gold_sparql is None and q.source_format == "orkg-csv" for q in questions)
    assert not any(q.metadata.get("unparsed_triples") for q in questions)
    # one cell holds the literal 'None' among its triples: it is not a triple
    assert sum(len(q.gold_triples) for q in questions) == 882
    assert all(q.gold_triples for q in questions)
    counting = [q for q in questions if q.form == "counting"]
    assert counting and all(q.gold_answers is None for q in counting)
    assert all(q.gold_answers for q in questions if q.form != "counting")
    ids = {t.subject_id[0] for q in questions for t in q.gold_triples} | {t.object_id[0] for q in questions
                                                                          for t in q.gold_triples}
    assert ids <= {"R", "L"}


@pytest.mark.parametrize(("name", "count", "with_answers"), [
    ("train/qald9-train.json", 408, 408),
    ("train/sciqa-train.json", 1795, 0),
    ("train/dblpquad-valid.json", 1000, 0),
    ("train/lcquad1-train.json", 4000, 0),
    ("train/spider4sparql-train.json", 8659, 0),
    ("remote/qald9-test-dbpedia.json", 150, 150),
    ("remote/yago100.json", 100, 100),
    ("remote/dblp100.json", 100, 100),
])
def test_every_json_file_in_the_data_folder_loads(name: str, count: int, with_answers: int) -> None:
    questions = load_questions(DATA / name)
    assert len(questions) == count
    assert all(q.question and q.gold_sparql for q in questions)
    assert sum(q.gold_answers is not None for q in questions) == with_answers


def test_qald_stored_answers_are_normalised_including_booleans() -> None:
    questions = load_questions(DATA / "train" / "qald9-train.json")
    booleans = [q for q in questions if q.form == "boolean"]
    assert booleans
    assert all(q.gold_answers and {v.kind for v in q.gold_answers} == {"boolean"} for q in booleans)
    assert all(is_ask_query(q.gold_sparql) for q in booleans)  # type: ignore[arg-type]
    kinds = {v.kind for q in questions for v in q.gold_answers or ()}
    assert {"iri", "boolean", "number"} <= kinds


def test_unknown_and_broken_files_give_clear_errors(tmp_path: Path) -> None:
    cases = {
        "q.txt": "Who?",
        "q.json": json.dumps({"items": []}),
        "list.json": json.dumps([{"text": "Who?"}]),
        "bad.json": "{not json",
        "q.yml": "just: a mapping",
        "q.csv": "a,b\n1,2\n",
    }
    for name, content in cases.items():
        (tmp_path / name).write_text(content)
        with pytest.raises(ConfigurationError) as info:
            load_questions(tmp_path / name)
        assert name in str(info.value)
    with pytest.raises(ConfigurationError, match="does not exist"):
        load_questions(tmp_path / "missing.json")


# --- gold triples ----------------------------------------------------------------------------------

def test_gold_triple_labels_may_hold_commas_colons_and_parentheses() -> None:
    triple = parse_gold_triple("(R872741:Availability-Driven Change: UML, Petri Nets, and More, venue, "
                               "R820814:International Conference on Software Architecture (ICSA))")
    assert triple == GoldTriple("R872741", "Availability-Driven Change: UML, Petri Nets, and More", "venue",
                                "R820814", "International Conference on Software Architecture (ICSA)")
    literal = parse_gold_triple("(R1:Evidence 1, Replication Package Link, L2:https://doi.org/10.5281/zenodo.1)")
    assert literal.object_id == "L2" and literal.object_label == "https://doi.org/10.5281/zenodo.1"
    assert literal.predicate_label == "Replication Package Link"
    commas_in_object = parse_gold_triple("(R5:authors list, has list element, L6:Bass, Len (ed.))")
    assert commas_in_object.object_label == "Bass, Len (ed.)" and commas_in_object.subject_label == "authors list"
    with pytest.raises(ValueError, match="not a gold triple"):
        parse_gold_triple("R1 venue R2")


def test_gold_triple_cells_skip_none_and_keep_what_they_cannot_parse() -> None:
    triples, unparsed = parse_gold_triples("['(R1:a, p, L2:b)', 'None', '(broken)']")
    assert [t.object_label for t in triples] == ["b"] and unparsed == ["(broken)"]
    assert parse_gold_triples("") == ([], [])
    # not a Python literal: quoted triples are still found
    triples, _ = parse_gold_triples("['(R1:it's, p, L2:b)']")
    assert triples and triples[0].subject_label == "it's"


def test_orkg_answers_are_the_non_topic_side_minus_question_conditions() -> None:
    triples = [GoldTriple("R1", "Paper A", "publication year", "L1", "2019"),
               GoldTriple("R2", "Paper B", "publication year", "L2", "2020"),
               GoldTriple("R3", "Paper C", "venue", "R9", "ICSA")]
    values = orkg_answer_values(triples, "R100", "Software Architecture", "When were they published?")
    assert values == {AnswerValue("number", "2019"), AnswerValue("number", "2020"),
                      AnswerValue("iri", "http://orkg.org/orkg/resource/R9")}
    # the topic entity is the object: the subject is the answer
    assert orkg_answer_values(triples[2:], "R9", "ICSA", "Which paper?") == {
        AnswerValue("iri", "http://orkg.org/orkg/resource/R3")}
    # a value written in the question is a condition, not an answer
    assert orkg_answer_values(triples[:2], "R100", "x", "Which paper of 2019 ...?") == {AnswerValue("number", "2020")}


# --- query forms -----------------------------------------------------------------------------------

def test_forms_from_the_gold_query() -> None:
    assert question_form(sparql_features("ASK { ?s ?p ?o }")) == "boolean"
    assert question_form(sparql_features("SELECT ?s WHERE { ?s <http://x/p> ?o } ORDER BY DESC(?o) LIMIT 1")) \
        == "superlative"
    assert question_form(sparql_features("SELECT (COUNT(?s) AS ?c) WHERE { ?s ?p ?o }")) == "count"
    assert question_form(sparql_features("select (avg(?a) as ?x) where { ?s :age ?a }")) == "aggregate"
    assert question_form(sparql_features("SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?o")) == "order"
    assert question_form(sparql_features("SELECT ?s WHERE { ?s ?p ?o FILTER(?o > 3) }")) == "filter"
    # keywords inside IRIs, strings and comments do not count; an escaped '#' is no comment
    assert question_form(sparql_features('SELECT ?s WHERE { ?s <http://x/ORDER#LIMIT> "ASK" } # COUNT(')) == "list"
    assert "FILTER" in sparql_features("SELECT ?a WHERE { ?t :singer\\#age ?a . FILTER(?a > 3) }")
    assert is_ask_query("PREFIX a: <http://x/SELECT>\nASK { ?s ?p ?o }")
    assert not is_ask_query("SELECT ?x WHERE { ?x ?p 'ASK' }")


def test_spider_prefix_and_escaped_names() -> None:
    query = add_spider_prefix('select ?n where { ?t a :singer . ?t :singer\\#name ?n . FILTER(?n != "a :b\\#c") }')
    assert query.startswith("PREFIX : <http://valuenet/ontop/>\n")
    assert "<http://valuenet/ontop/singer#name>" in query and ":singer ." in query
    assert '"a :b\\#c"' in query  # strings are left alone
    declared = "PREFIX : <http://valuenet/ontop/>\nASK { ?s a :x }"
    assert add_spider_prefix(declared) == declared


def test_qald_gold_queries_lose_escapes_by_their_own_prefixes(tmp_path: Path) -> None:
    data = {"dataset": {"id": "singer"}, "questions": [{"id": "1", "question": [{"language": "en", "string": "Names?"}],
            "query": {"sparql": "PREFIX s: <http://x/>\nSELECT ?n WHERE { ?t s:singer\\#name ?n ; u:a\\#b ?m }"}}]}
    (tmp_path / "q.json").write_text(json.dumps(data))
    [question] = load_questions(tmp_path / "q.json")
    assert "<http://x/singer#name>" in question.gold_sparql
    assert "u:a\\#b" in question.gold_sparql  # an undeclared prefix is left as written
    assert expand_declared_escapes("SELECT * { ?s ?p ?o }") == "SELECT * { ?s ?p ?o }"


# --- normalisation and scoring ---------------------------------------------------------------------

def test_numbers_compare_numerically() -> None:
    one = normalize_literal("1", XSD + "integer")
    assert one == normalize_literal("1.0", XSD + "decimal") == normalize_literal("1") == normalize_literal("1E0", XSD + "double")
    assert normalize_answer(Answer("1.00", "literal", datatype=XSD + "decimal")) == one
    assert normalize_literal("0.1") != one
    assert normalize_literal("3.3333333333333335", XSD + "double") == normalize_literal("3.333333333333333333", XSD + "decimal")
    assert normalize_literal("12345678901234", XSD + "integer") != normalize_literal("12345678901235", XSD + "integer")


def test_dates_booleans_strings_and_iris() -> None:
    assert normalize_literal("2019-03-01T00:00:00Z", XSD + "dateTime") == normalize_literal("2019-03-01", XSD + "date")
    assert normalize_literal("2019-03-01").kind == "date"
    assert normalize_answer(Answer.boolean(True)) == normalize_term(True) == normalize_literal("1", XSD + "boolean")
    assert normalize_term(False) != normalize_term(True)
    assert normalize_term(ox.Literal("Hampden  Park", language="en")) == normalize_answer(Answer("hampden park", "literal"))
    iri = normalize_term(ox.NamedNode("http://x/A"))
    assert iri == normalize_answer(Answer("http://x/A", "iri", label="A")) and iri != normalize_literal("http://x/A")


def test_qald_empty_answer_convention() -> None:
    a, b, c = AnswerValue("iri", "a"), AnswerValue("iri", "b"), AnswerValue("iri", "c")
    assert score_answers([], []) == (score := score_answers(set(), set())) and (score.precision, score.recall,
                                                                              score.f1) == (1, 1, 1)
    empty_system = score_answers([a], [])
    assert (empty_system.precision, empty_system.recall, empty_system.f1) == (1, 0, 0)
    empty_gold = score_answers([], [a])
    assert (empty_gold.precision, empty_gold.recall, empty_gold.f1) == (0, 0, 0)
    partial = score_answers([a, b], [b, c, AnswerValue("iri", "d")])
    assert partial.precision == pytest.approx(1 / 3) and partial.recall == 0.5 and partial.f1 == pytest.approx(0.4)
    assert score_answers([a], [c]).f1 == 0
    assert score_answers([normalize_term(True)], [normalize_answer(Answer.boolean(False))]).f1 == 0
    assert score_answers([normalize_term(True)], [normalize_answer(Answer.boolean(True))]).f1 == 1


def test_misses_are_told_apart_by_kind() -> None:
    a, b, c = AnswerValue("iri", "a"), AnswerValue("iri", "b"), AnswerValue("iri", "c")
    name = normalize_literal("A", None)

    def kind(gold: set[AnswerValue], answers: set[AnswerValue]) -> str | None:
        return miss_kind(frozenset(gold), score_answers(gold, answers), frozenset(answers))

    assert kind({a}, {a}) is None and kind(set(), set()) is None
    assert kind({a}, set()) == "not answered: nothing found"
    assert miss_kind(frozenset({a}), score_answers({a}, set()), frozenset(),
                     ["not answered: a sum over a stored number"]) == "not answered: declined as unsupported"
    assert kind(set(), {a}) == "answered where the gold is empty"
    assert kind({a}, {name}) == "wrong kind: string where the gold has iri"
    assert kind({a}, {b}) == "wrong answers of the gold's kind (iri)"
    assert kind({a}, {a, b}) == "the gold and more"
    assert kind({a, b}, {a}) == "part of the gold"
    assert kind({a, b}, {a, c}) == "some of the gold and more"


def test_an_answer_is_scored_with_its_row_as_gold_columns_are() -> None:
    """A count per department is scored with its department, as the gold's two columns are."""
    dept = Answer("http://x/dept-1", "iri", label="Sales")
    count = Answer("6", "literal", datatype=XSD + "integer", row=(("department", dept),))
    gold = GoldResult(answers=frozenset({AnswerValue("iri", "http://x/dept-1"), normalize_literal("6", XSD + "integer")}),
                      source="query")
    question = BenchmarkQuestion("q1", "How many employees does each department have?", None, None, "list")
    outcome = path_outcome(PathResult("kgqan", answers=[count]), question, gold, None)
    assert outcome.score is not None and outcome.score.f1 == 1.0
    alone = path_outcome(PathResult("kgqan", answers=[Answer("6", "literal", datatype=XSD + "integer")]), question,
                         gold, None)
    assert alone.score is not None and alone.score.recall == 0.5


def test_a_run_whose_own_engine_stopped_says_so() -> None:
    engine = OxigraphEngine().start()
    try:
        assert engine_stopped(engine) is None
        engine.process.kill()
        engine.process.wait(10)
        note = engine_stopped(engine)
        assert note is not None and "stopped during the run" in note and "run again" in note
    finally:
        engine.stop()


def test_an_engine_folder_is_kept_for_its_log_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """`KGQA_KEEP_ENGINE_LOGS=1` (which the "engine stopped" note recommends) leaves the engine's folder and log;
    without it the folder goes."""
    import shutil

    for keep in (True, False):
        if keep:
            monkeypatch.setenv("KGQA_KEEP_ENGINE_LOGS", "1")
        else:
            monkeypatch.delenv("KGQA_KEEP_ENGINE_LOGS", raising=False)
        engine = OxigraphEngine().start()
        engine.stop()
        try:
            assert engine.workdir.exists() == keep and (not keep or any(engine.workdir.iterdir()))
        finally:
            shutil.rmtree(engine.workdir, ignore_errors=True)


def test_a_run_whose_own_engine_dies_is_repeated_once_on_a_fresh_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Virtuoso 7 has aborted right after loading (a heap-corruption abort in its own log): every question would
    be "unreachable". The run is repeated once on a fresh engine, its per-question lines are the repeat's, and the
    report says so."""
    import contextlib

    import gateway.engines as engines

    real, started = engines.running_engine, []

    @contextlib.contextmanager
    def dying_once(kind: str, files: dict[str, Path]):  # type: ignore[no-untyped-def]  # noqa: ANN202
        with real(kind, files) as engine:
            started.append(engine)
            if len(started) == 1:
                load = engine.load

                def load_and_die(path: Path, name: str) -> str:
                    iri = load(path, name)
                    engine.process.kill()
                    engine.process.wait(10)
                    return iri

                engine.load = load_and_die
            yield engine

    monkeypatch.setattr(engines, "running_engine", dying_once)
    out = tmp_path / "questions.jsonl"
    assert cli_main(["eval", str(CK25_QUESTIONS), "--graph", str(KGS / "ck25" / "graph.ttl"), "--engine", "oxigraph",
                     "--limit", "2", "--timeout", "30", "--path", "kgqan", "--json", "--out", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(started) == 2
    assert any("attempt 1 of 2" in note and "repeat on a fresh engine" in note for note in data["notes"])
    assert not any("run again" in note for note in data["notes"])
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 2 and all(line["kgqan"]["status"] == "ok" and "gold" in line for line in lines)


def test_percentile_is_nearest_rank() -> None:
    values = list(range(1, 101))
    assert percentile(values, 0.95) == 95 and percentile([7.0], 0.95) == 7.0 and percentile([], 0.5) is None


@dataclass
class _RetrievalEvidence:
    retrieved_triples: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {"retrieved_triples": self.retrieved_triples}


def test_triple_metrics_count_failed_retrieval_as_zero() -> None:
    gold = [GoldTriple("R1", "a", "p", "L1", "b")]
    question = BenchmarkQuestion("q", "Which?", gold_triples=gold, gold_answers=frozenset())

    def scorer(retrieved: list[str], gold_triples: list[GoldTriple]) -> dict[str, float]:
        assert gold_triples == gold
        hit = float("R1 p L1" in retrieved)
        return {"triple_recall": hit, "triple_precision": hit, "triple_f1": hit, "hits_at_10": hit, "mrr": hit}

    hit = path_outcome(PathResult("hublink", evidence=_RetrievalEvidence(["R1 p L1"])), question,
                       GoldResult(frozenset(), "triples"), scorer)
    failed = path_outcome(PathResult.unavailable("hublink", "no index"), question, GoldResult(frozenset(), "triples"),
                          scorer)
    assert hit.retrieval == {"triple_recall": 1.0, "triple_precision": 1.0, "triple_f1": 1.0, "hits_at_10": 1.0,
                             "mrr": 1.0}
    assert failed.retrieval is None
    assert hit.to_dict()["evidence"] == {"retrieved_triples": ["R1 p L1"]} and "evidence" not in failed.to_dict()
    outcomes = [QuestionOutcome(i, question, "t", GoldResult(frozenset(), "triples"), {"hublink": o})
                for i, o in enumerate((hit, failed))]
    summary = summarize_path("hublink", outcomes).to_dict()
    assert summary["triple_recall"] == 0.5 and summary["mrr"] == 0.5 and summary["retrieval_questions"] == 2
    no_metrics = summarize_path("hublink", outcomes[1:]).to_dict()
    assert "triple_recall" not in no_metrics


# --- graphs ----------------------------------------------------------------------------------------

def test_graph_planning() -> None:
    spider = load_questions(SPIDER_QUESTIONS)
    files = graph_files([SPIDER], SPIDER_QUESTIONS)
    plan = plan_graphs(files, spider)
    assert plan.per_kg and len(plan.graphs) == 11 and plan.graphs["concert_singer"][0].name == "concert_singer.ttl"
    concert = [q for q in spider if q.kg_name == "concert_singer"]
    single = plan_graphs([SPIDER / "concert_singer.ttl"], concert)
    assert not single.per_kg and list(single.graphs) == ["concert_singer"]
    with pytest.raises(ConfigurationError, match="11 graphs"):
        plan_graphs([SPIDER / "concert_singer.ttl"], spider)
    with pytest.raises(ConfigurationError, match="no graph file for kg_name"):
        plan_graphs([SPIDER / "concert_singer.ttl", SPIDER / "singer.ttl"], spider)
    ck25 = load_questions(CK25_QUESTIONS)
    assert list(plan_graphs([KGS / "ck25" / "graph.ttl"], ck25).graphs) == ["ck25"]
    assert graph_files([], CK25_QUESTIONS) == [(KGS / "ck25" / "graph.ttl").resolve()]
    with pytest.raises(ConfigurationError, match="no such file"):
        graph_files([Path("/nonexistent.ttl")], CK25_QUESTIONS)
    with pytest.raises(ConfigurationError, match="not an RDF file"):
        graph_files([CK25_QUESTIONS], CK25_QUESTIONS)


# --- end to end on real engines ----------------------------------------------------------------------

class _OraclePath:
    """Answers with the gold query it was handed: the harness must score it F1 = 1 everywhere."""

    name = "kgqan"

    def __init__(self, questions: list[BenchmarkQuestion]) -> None:
        self.sparql = {q.question: q.gold_sparql for q in questions}

    async def answer(self, question: str, endpoint: Endpoint, options: AskOptions) -> PathResult:
        query = self.sparql[question]
        assert query is not None
        if is_ask_query(query):
            return PathResult(self.name, answers=[Answer.boolean(await endpoint.sparql.ask(query))],
                              timings_ms={"total": 1.0})
        result = await endpoint.sparql.select(query)
        return PathResult(self.name, answers=[Answer.from_term(t) for row in result.rows for t in row.values()],
                          timings_ms={"total": 2.0})

    async def close(self) -> None:
        pass


class _SilentPath:
    name = "hublink"

    def __init__(self, delay_s: float = 0.0) -> None:
        self.delay_s = delay_s

    async def answer(self, question: str, endpoint: Endpoint, options: AskOptions) -> PathResult:
        await asyncio.sleep(self.delay_s)
        return PathResult(self.name)

    async def close(self) -> None:
        pass


def _gateway(oracle: _OraclePath, silent: _SilentPath) -> Gateway:
    gateway = Gateway(EndpointRegistry())
    gateway._paths.update(kgqan=oracle, hublink=silent)  # type: ignore[arg-type]
    return gateway


@pytest.mark.virtuoso
async def test_ck25_on_virtuoso_end_to_end(virtuoso: VirtuosoEngine) -> None:
    questions = load_questions(CK25_QUESTIONS)
    out = io.StringIO()
    report = await evaluate(questions, EvaluationTargets(default=virtuoso.endpoint("ck25", "ck25")),
                            EvaluationSettings(concurrency=6, timeout_s=30),
                            gateway=_gateway(_OraclePath(questions), _SilentPath()), out=out,
                            metadata={"questions_file": str(CK25_QUESTIONS), "engine": "virtuoso", "graphs": ["ck25"]})
    data = report.to_dict()
    skipped = data["skipped_gold_errors"]
    assert data["questions"] == 50 == data["evaluated"] + skipped["count"]
    assert all(item["error"] for item in skipped["questions"])
    assert data["evaluated"] >= 45
    oracle, silent = data["kgqan"], data["hublink"]
    assert oracle["macro_f1"] == oracle["macro_precision"] == oracle["macro_recall"] == 1.0
    assert oracle["questions"] == data["evaluated"] and oracle["median_ms"] in (1.0, 2.0)
    assert set(oracle["by_form"]) >= {"boolean", "count", "list"}
    assert all(form["macro_f1"] == form["macro_recall"] == 1.0 for form in oracle["by_form"].values())
    assert sum(form["answered"] for form in oracle["by_form"].values()) == oracle["answered"]
    assert all(form["answered"] == 0 and form["macro_precision"] == 1.0 for form in silent["by_form"].values())
    empty_gold = sum(1 for o in report.evaluated if not o.gold.answers)
    assert silent["macro_f1"] == pytest.approx(round(empty_gold / data["evaluated"], 4))
    assert silent["macro_precision"] == 1.0 and silent["answered"] == 0
    assert "Empty gold and empty answer: P=1 R=1 F1=1" in data["empty_answer_scoring"]
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(lines) == 50 and {line["id"] for line in lines} == {q.id for q in questions}
    answered = next(line for line in lines if "kgqan" in line and line["gold"]["answers"])
    assert answered["kgqan"]["score"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0}
    assert "Macro F1 QALD" in data["scoring"] and "Macro F1 QALD" in report.render_text()


@pytest.mark.virtuoso
async def test_spider_gold_runs_on_virtuoso_per_graph(virtuoso: VirtuosoEngine) -> None:
    """The ':' prefix and the escaped names are fixed, so every concert_singer gold query runs on Virtuoso."""
    questions = load_questions(SPIDER_QUESTIONS, kg_name="concert_singer")[:12]
    ck25 = load_questions(CK25_QUESTIONS)[:3]
    targets = EvaluationTargets(by_kg={"concert_singer": virtuoso.endpoint("concert_singer", "concert_singer"),
                                       "ck25": virtuoso.endpoint("ck25", "ck25")})
    report = await evaluate([*questions, *ck25], targets, EvaluationSettings(concurrency=4),
                            gateway=_gateway(_OraclePath([*questions, *ck25]), _SilentPath()))
    data = report.to_dict()
    assert data["skipped_gold_errors"]["count"] == 0
    assert data["kgqan"]["macro_f1"] == 1.0
    assert set(data["by_graph"]) == {"concert_singer", "ck25"}
    assert data["by_graph"]["concert_singer"]["questions"] == 12
    assert data["by_graph"]["ck25"]["kgqan"]["macro_f1"] == 1.0


@pytest.mark.virtuoso
async def test_multi_column_gold_failed_gold_and_slow_paths(virtuoso: VirtuosoEngine) -> None:
    config = virtuoso.endpoint("ck25", "ck25")
    two_columns = BenchmarkQuestion("two", "Two columns?", gold_sparql=(
        "SELECT ?s ?label WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?label } ORDER BY ?s LIMIT 3"))
    gateway = Gateway(EndpointRegistry())
    gold = await run_gold(two_columns, gateway.endpoint(config).sparql, timeout_s=30)
    assert gold.error is None and gold.answers is not None
    kinds = Counter(v.kind for v in gold.answers)
    assert kinds["iri"] >= 1 and kinds["iri"] + kinds["string"] + kinds["number"] + kinds["date"] == len(gold.answers)
    assert len(gold.answers) > 3  # both columns are in the gold set
    broken = BenchmarkQuestion("broken", "Broken?", gold_sparql="SELECT ?x WHERE { ?x ?p }")
    report = await evaluate([two_columns, broken], EvaluationTargets(default=config),
                            EvaluationSettings(timeout_s=0.3),
                            gateway=_gateway(_OraclePath([two_columns, broken]), _SilentPath(delay_s=5)))
    data = report.to_dict()
    assert data["skipped_gold_errors"]["count"] == 1
    assert data["skipped_gold_errors"]["questions"][0]["id"] == "broken"
    assert "syntax" in data["skipped_gold_errors"]["questions"][0]["error"]
    assert data["hublink"]["statuses"] == {"error": 1}
    assert data["hublink"]["top_errors"][0]["error"].startswith("timeout")
    assert (data["hublink"]["macro_precision"], data["hublink"]["macro_f1"]) == (1.0, 0.0)
    assert data["kgqan"]["macro_f1"] == 1.0
    await gateway.close()


class _GoldTriplesPath:
    """Retrieves exactly the gold triples of each ORKG question, in the shape HubLink's evidence uses."""

    name = "hublink"

    def __init__(self, questions: list[BenchmarkQuestion]) -> None:
        self.triples = {q.question: q.gold_triples for q in questions}

    async def answer(self, question: str, endpoint: Endpoint, options: AskOptions) -> PathResult:
        resource = "http://orkg.org/orkg/resource/"
        retrieved = [{"subject": resource + t.subject_id, "predicate": "http://orkg.org/orkg/predicate/p",
                      "object": t.object_label if t.object_id.startswith("L") else resource + t.object_id,
                      "subject_label": t.subject_label, "predicate_label": t.predicate_label,
                      "object_label": t.object_label, "object_is_literal": t.object_id.startswith("L")}
                     for t in self.triples[question]]
        return PathResult(self.name, evidence=_RetrievalEvidence(retrieved), timings_ms={"total": 3.0})

    async def close(self) -> None:
        pass


@pytest.mark.virtuoso
async def test_orkg_triple_metrics_with_the_hublink_scorer(virtuoso: VirtuosoEngine) -> None:
    pytest.importorskip("hublink.metrics")
    questions = load_questions(ORKG_QUESTIONS)[:8]
    gateway = Gateway(EndpointRegistry())
    gateway._paths.update(kgqan=_SilentPath(), hublink=_GoldTriplesPath(questions))  # type: ignore[arg-type]
    report = await evaluate(questions, EvaluationTargets(default=virtuoso.endpoint("orkg", "orkg")), gateway=gateway)
    data = report.to_dict()
    hublink, kgqan = data["hublink"], data["kgqan"]
    assert data["evaluated"] == 8 and "notes" not in data
    assert hublink["retrieval_questions"] == 8
    assert hublink["triple_recall"] == hublink["triple_precision"] == hublink["mrr"] == 1.0
    many = sum(1 for q in questions if len({(t.subject_id, t.predicate_label, t.object_id) for t in q.gold_triples}) > 10)
    assert (hublink["hits_at_10"] == 1.0) == (many == 0)
    assert "triple_recall" not in kgqan  # no retrieved triples in its evidence
    assert kgqan["questions"] == hublink["questions"] == sum(q.gold_answers is not None for q in questions)
    assert "retrieval against gold triples" in report.render_text()


class _CountingPath(_SilentPath):
    def __init__(self) -> None:
        super().__init__()
        self.asked: list[tuple[str, str]] = []

    async def answer(self, question: str, endpoint: Endpoint, options: AskOptions) -> PathResult:
        self.asked.append((question, endpoint.name))
        return PathResult(self.name, timings_ms={"total": 1.0})


async def test_warm_up_asks_once_per_graph_before_the_timed_run() -> None:
    pytest.importorskip("gateway.embedded")
    from gateway.evaluation import WARMUP_QUESTION, embedded_targets

    questions = [q for q in load_questions(SPIDER_QUESTIONS) if q.kg_name in ("singer", "poker_player")]
    plan = plan_graphs(graph_files([SPIDER / "singer.ttl", SPIDER / "poker_player.ttl"], SPIDER_QUESTIONS), questions)
    counting = _CountingPath()
    gateway = Gateway(EndpointRegistry())
    gateway._paths.update(kgqan=_OraclePath(questions), hublink=counting)  # type: ignore[arg-type]
    report = await evaluate(questions, embedded_targets(plan), EvaluationSettings(warmup_timeout_s=60),
                            gateway=gateway)
    warmups = [q for q in counting.asked if q[0] == WARMUP_QUESTION]
    assert sorted(graph for _, graph in warmups) == ["poker_player", "singer"]
    assert counting.asked[:2] == warmups  # before any benchmark question
    assert len(counting.asked) == len(questions) + 2
    data = report.to_dict()
    assert [w["graph"] for w in data["warmup"]] == [g for _, g in warmups]
    assert data["hublink"]["questions"] == len(questions)  # the warm-up is not scored
    text = report.render_text()
    assert "warm-up on singer" in text and "warm-up on poker_player" in text


class _OptionsPath(_SilentPath):
    def __init__(self) -> None:
        super().__init__()
        self.max_answers: list[int] = []

    async def answer(self, question: str, endpoint: Endpoint, options: AskOptions) -> PathResult:
        self.max_answers.append(options.max_answers)
        return PathResult(self.name, timings_ms={"total": 1.0})


async def test_evaluation_keeps_whole_answer_lists_not_the_interactive_cut() -> None:
    """`ask` keeps 100 answers; an evaluation compares whole lists, so it asks for 1000 (or --max-answers)."""
    pytest.importorskip("gateway.embedded")
    from gateway.evaluation import embedded_targets

    questions = [q for q in load_questions(SPIDER_QUESTIONS) if q.kg_name == "singer"][:3]
    plan = plan_graphs(graph_files([SPIDER / "singer.ttl"], SPIDER_QUESTIONS), questions)
    assert AskOptions().max_answers == 100
    for settings, expected in ((EvaluationSettings(), 1000), (EvaluationSettings(max_answers=7), 7)):
        seen = _OptionsPath()
        gateway = Gateway(EndpointRegistry())
        gateway._paths.update(kgqan=_OraclePath(questions), hublink=seen)  # type: ignore[arg-type]
        await evaluate(questions, embedded_targets(plan), settings, gateway=gateway)
        assert seen.max_answers == [expected] * len(questions)
        await gateway.close()


async def test_embedded_engine_targets() -> None:
    pytest.importorskip("gateway.embedded")
    from gateway.evaluation import embedded_targets

    questions = load_questions(SPIDER_QUESTIONS, kg_name="singer")[:5]
    plan = plan_graphs(graph_files([SPIDER / "singer.ttl"], SPIDER_QUESTIONS), questions)
    targets = embedded_targets(plan)
    assert targets.default is not None and targets.default.is_embedded
    report = await evaluate(questions, targets, gateway=_gateway(_OraclePath(questions), _SilentPath()))
    assert report.to_dict()["kgqan"]["macro_f1"] == 1.0


def test_cli_errors_are_clear(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert cli_main(["eval", str(CK25_QUESTIONS)]) == 2
    assert "--engine" in capsys.readouterr().err
    assert cli_main(["eval", str(CK25_QUESTIONS), "--engine", "oxigraph", "--endpoint", "x"]) == 2
    assert "not both" in capsys.readouterr().err
    (tmp_path / "q.txt").write_text("Who?")
    assert cli_main(["eval", str(tmp_path / "q.txt"), "--endpoint", "default"]) == 2
    assert "unknown question file format" in capsys.readouterr().err
    assert cli_main(["eval", str(SPIDER_QUESTIONS), "--engine", "oxigraph", "--graph",
                     str(SPIDER / "singer.ttl")]) == 2
    assert "--kg-name" in capsys.readouterr().err


def test_cli_subprocess_on_oxigraph(tmp_path: Path) -> None:
    """One real `kgqa eval` run with the real KGQAN path, whatever state it is in (HubLink is left out
    to keep the suite fast: its first question builds the hub index)."""
    out = tmp_path / "questions.jsonl"
    env = {**os.environ, "KGQA_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "gateway.cli", "eval", str(CK25_QUESTIONS), "--graph", str(KGS / "ck25" / "graph.ttl"),
         "--engine", "oxigraph", "--limit", "3", "--timeout", "30", "--path", "kgqan", "--json", "--out", str(out)],
        capture_output=True, text=True, timeout=600, cwd=ROOT, env=env,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads(done.stdout)
    assert data["questions"] == 3 and data["engine"] == "oxigraph" and data["graphs"] == ["ck25"]
    assert "hublink" not in data and data["paths"] == ["kgqan"]
    for path in ("kgqan",):
        assert {"macro_precision", "macro_recall", "macro_f1", "questions", "answered", "median_ms", "p95_ms",
                "by_form"} <= set(data[path])
        assert 0.0 <= data[path]["macro_f1"] <= 1.0
    assert "kgqa eval" in done.stderr  # the progress bar
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 3 and all("gold" in line and "kgqan" in line for line in lines)
