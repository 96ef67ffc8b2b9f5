"""Retrieval metrics of the HubLink thesis: retrieved triples against gold triples.

Definitions from `Sidies/MasterThesis-HubLink`, Code/sqa-system/sqa_system/experimentation/evaluation/
implementations/:

- `basic_score_evaluator.py` (k = -1, context type triple): precision = |R ∩ G| / |R|, recall =
  |R ∩ G| / |G| over the *sets* of retrieved and gold triples, F1 their harmonic mean; with no gold
  triples, 1.0 if nothing was retrieved, else 0.0.
- `hit_at_k_evaluator.py` (k = 10): the share of gold triples found among the first 10 retrieved.
- `mrr_at_k_evaluator.py` (k = 10): 1 / rank of the first retrieved triple (among the first 10) that is
  a gold triple, else 0.

The thesis compares triple *strings* `(R1:subject label, predicate label, R2:object label)`, both sides
taken from the same ORKG. Our graph is the RDF conversion of that data: resources keep their ids (the
local name of the `orkgr:` IRI) but literals lost theirs (`L…` in the gold). So a retrieved triple
matches a gold triple when the subject ids are equal, the predicate labels are equal, and the objects
are equal by id (an IRI object) or by label (a literal object); labels compare case-folded with
whitespace collapsed. The thesis's summary F1 is computed from the mean precision and recall
(`summarize_retrieval`), not as the mean of per-question F1.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from hublink.paths import local_name

HITS_K = 10
MRR_K = 10


class GoldTripleLike(Protocol):
    subject_id: str
    subject_label: str
    predicate_label: str
    object_id: str
    object_label: str


@dataclass(frozen=True)
class TripleKey:
    """What makes two triples the same for the metrics."""

    subject: str
    predicate: str
    object: str


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", str(text or "")).strip().casefold()


def _is_id(text: str) -> bool:
    return bool(text) and not any(ch.isspace() for ch in text)


def gold_key(gold: GoldTripleLike | Mapping[str, Any]) -> TripleKey:
    get = (lambda name: gold.get(name, "")) if isinstance(gold, Mapping) else (lambda name: getattr(gold, name, ""))
    subject_id, subject_label = str(get("subject_id") or ""), str(get("subject_label") or "")
    object_id, object_label = str(get("object_id") or ""), str(get("object_label") or "")
    subject = "id:" + _norm(subject_id) if _is_id(subject_id) else "label:" + _norm(subject_label)
    # ORKG literals carry `L…` ids the RDF conversion does not keep: compare them by label
    if _is_id(object_id) and not re.fullmatch(r"L\d+", object_id):
        obj = "id:" + _norm(object_id)
    else:
        obj = "label:" + _norm(object_label)
    return TripleKey(subject, _norm(str(get("predicate_label") or "")), obj)


def retrieved_key(item: Any) -> TripleKey:
    """Key of a retrieved triple: a `RetrievedTriple`, a `PathTriple`, or its evidence dict."""
    triple = getattr(item, "triple", item)
    if isinstance(triple, Mapping):
        subject, predicate_label = str(triple.get("subject", "")), str(triple.get("predicate_label", ""))
        obj, object_label = str(triple.get("object", "")), str(triple.get("object_label", ""))
        literal = bool(triple.get("object_is_literal", False)) or not re.match(r"^[a-z][a-z0-9+.-]*:", obj, re.I)
    else:
        subject, predicate_label = triple.subject, triple.predicate_label
        obj, object_label, literal = triple.object, triple.object_label, triple.object_is_literal
    object_key = "label:" + _norm(object_label or obj) if literal else "id:" + _norm(local_name(obj))
    return TripleKey("id:" + _norm(local_name(subject)), _norm(predicate_label), object_key)


def score_retrieval(retrieved: Sequence[Any], gold: Iterable[GoldTripleLike | Mapping[str, Any]]) -> dict[str, float]:
    """triple_recall, triple_precision, triple_f1, hits_at_10 and mrr of one question (thesis definitions)."""
    ranked = [retrieved_key(item) for item in retrieved]
    gold_keys = [gold_key(g) for g in gold]
    gold_set = set(gold_keys)
    if not gold_set:
        empty = 1.0 if not ranked else 0.0
        return {"triple_recall": empty, "triple_precision": empty, "triple_f1": empty,
                "hits_at_10": empty, "mrr": empty}
    retrieved_set = set(ranked)
    true_positives = len(retrieved_set & gold_set)
    precision = true_positives / len(retrieved_set) if retrieved_set else 0.0
    recall = true_positives / len(gold_set)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    top = set(ranked[:HITS_K])
    hits = sum(1 for key in gold_set if key in top) / len(gold_set)
    mrr = next((1.0 / rank for rank, key in enumerate(ranked[:MRR_K], 1) if key in gold_set), 0.0)
    return {"triple_recall": recall, "triple_precision": precision, "triple_f1": f1, "hits_at_10": hits, "mrr": mrr}


def summarize_retrieval(rows: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """Means over questions, with F1 from the mean precision and recall as the thesis summarises."""
    if not rows:
        return {}
    names = ("triple_recall", "triple_precision", "hits_at_10", "mrr")
    means = {name: sum(float(r.get(name, 0.0)) for r in rows) / len(rows) for name in names}
    p, r = means["triple_precision"], means["triple_recall"]
    means["triple_f1"] = 2 * p * r / (p + r) if p + r else 0.0
    return means
