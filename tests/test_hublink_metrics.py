"""HubLink retrieval metrics on hand-made examples (the thesis's definitions, hublink/metrics.py)."""

from __future__ import annotations

import pytest

from gateway.questions import GoldTriple, parse_gold_triple
from hublink.evidence import RetrievedTriple
from hublink.metrics import gold_key, retrieved_key, score_retrieval, summarize_retrieval
from hublink.paths import PathTriple

R = "http://orkg.org/orkg/resource/"
P = "http://orkg.org/orkg/predicate/"


def triple(s: str, slabel: str, p: str, plabel: str, o: str, olabel: str, literal: bool = False) -> RetrievedTriple:
    obj = o if literal else R + o
    return RetrievedTriple(PathTriple(R + s, P + p, obj, slabel, plabel, olabel, literal), 1.0, 0)


VENUE = triple("R1", "A Paper", "venue", "venue", "R9", "ICSA")
YEAR = triple("R1", "A Paper", "publicationYear", "publication year", "2018", "2018", literal=True)
DOI = triple("R1", "A Paper", "doi", "doi", "10.1/x", "10.1/x", literal=True)
OTHER = triple("R2", "Other Paper", "venue", "venue", "R9", "ICSA")


def test_gold_triples_of_the_orkg_csv_match_retrieved_triples_by_id_and_literal_label() -> None:
    venue = parse_gold_triple("(R1:A Paper, venue, R9:ICSA)")
    year = parse_gold_triple("(R1:A Paper, publication year, L77:2018)")
    assert gold_key(venue) == retrieved_key(VENUE)
    assert gold_key(year) == retrieved_key(YEAR)  # literal ids (L77) are not in the RDF: label decides
    assert gold_key(venue) != retrieved_key(OTHER)
    renamed = GoldTriple("R1", "a renamed label", "Venue", "R9", "whatever")
    assert gold_key(renamed) == retrieved_key(VENUE)  # resources compare by id, predicates case-folded


def test_precision_recall_f1_over_sets() -> None:
    gold = [parse_gold_triple("(R1:A Paper, venue, R9:ICSA)"), parse_gold_triple("(R1:A Paper, doi, L5:10.1/x)")]
    scores = score_retrieval([VENUE, YEAR, OTHER, VENUE], gold)
    assert scores["triple_recall"] == pytest.approx(0.5)
    assert scores["triple_precision"] == pytest.approx(1 / 3)  # the duplicate VENUE counts once
    assert scores["triple_f1"] == pytest.approx(2 * 0.5 * (1 / 3) / (0.5 + 1 / 3))


def test_hits_at_10_and_mrr_look_at_the_ranking() -> None:
    gold = [parse_gold_triple("(R1:A Paper, doi, L5:10.1/x)")]
    filler = [triple("R3", "x", "venue", "venue", f"R{100 + i}", "v") for i in range(10)]
    late = score_retrieval([*filler, DOI], gold)
    assert late["triple_recall"] == 1.0 and late["hits_at_10"] == 0.0 and late["mrr"] == 0.0
    third = score_retrieval([*filler[:2], DOI, *filler[2:]], gold)
    assert third["hits_at_10"] == 1.0 and third["mrr"] == pytest.approx(1 / 3)


def test_evidence_dicts_score_like_objects_and_empty_cases() -> None:
    gold = [parse_gold_triple("(R1:A Paper, venue, R9:ICSA)")]
    as_dicts = [t.to_dict() for t in (OTHER, VENUE)]
    assert score_retrieval(as_dicts, gold) == score_retrieval([OTHER, VENUE], gold)
    assert score_retrieval([], gold)["triple_recall"] == 0.0
    assert score_retrieval([], [])["triple_recall"] == 1.0
    assert score_retrieval([VENUE], [])["triple_precision"] == 0.0


def test_summary_f1_comes_from_mean_precision_and_recall() -> None:
    rows = [{"triple_recall": 1.0, "triple_precision": 0.2, "hits_at_10": 1.0, "mrr": 1.0},
            {"triple_recall": 0.0, "triple_precision": 0.0, "hits_at_10": 0.0, "mrr": 0.0}]
    summary = summarize_retrieval(rows)
    assert summary["triple_recall"] == 0.5 and summary["triple_precision"] == pytest.approx(0.1)
    assert summary["triple_f1"] == pytest.approx(2 * 0.5 * 0.1 / 0.6)


def test_the_answer_is_the_object_of_the_predicate_the_question_names() -> None:
    from hublink.answers import _content_words, answer_triple
    from hublink.paths import PathTriple

    path = [PathTriple("x:Japan", "x:currency", "x:Yen", "Japan", "currency", "Japanese Yen"),
            PathTriple("x:Yen", "x:code", "JPY", "Japanese Yen", "currency code", "JPY", True)]
    assert answer_triple(path, _content_words("Which currency is used in Japan?")).object == "x:Yen"
    assert answer_triple(path, _content_words("What is the code of the currency of Japan?")).object == "JPY"
    assert answer_triple(path, _content_words("What does Japan pay with?")).object == "JPY"
