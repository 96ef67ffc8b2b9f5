"""From retrieved hubs to ranked triples and answers, each with its sources.

Ranked triples follow the thesis's `AnswerGenerator._get_relevant_triples_from_hubs`
(`utils/answer_generator.py`): the triples of each selected hub's paths, scored by their path's score,
sorted and deduplicated. Within a path, the triple that is itself closer to the question (its own vector
row) ranks first, so a path's deciding edge comes before the edges leading to it.

Without an LLM the answers are extractive: the ends of the selected paths, or their hubs when the
question already names the end (for "which papers were published at ICSA?" the paper is the answer).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyoxigraph as ox

from gateway.models import Answer
from hublink.evidence import HubEvidence, PathEvidence, RetrievedTriple
from hublink.paths import PathTriple
from hublink.retrieval import ScoredHub, ScoredPath
from hublink.settings import HubLinkSettings
from hublink.store import HubIndex
from hublink.topics import normalise

_STOPWORDS = frozenset({
    "a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "from", "and", "or", "is", "are", "was",
    "were", "be", "been", "has", "have", "had", "do", "does", "did", "which", "what", "who", "whom", "whose",
    "where", "when", "how", "many", "much",
})


def _content_words(text: str) -> set[str]:
    return {w for w in normalise(text).split() if w not in _STOPWORDS and len(w) > 1}


def mention_ratio(label: str, question_words: set[str]) -> float:
    """Share of a label's content words that the question contains."""
    words = _content_words(label)
    return len(words & question_words) / len(words) if words else 0.0


def hub_evidence(index: HubIndex, hubs: list[ScoredHub]) -> list[HubEvidence]:
    out = []
    for hub in hubs:
        record = index.hubs[hub.number]
        paths = [PathEvidence(index.paths[p.number].text, index.paths[p.number].triples, p.score,
                              index.paths[p.number].hash, p.matched_text) for p in hub.paths]
        out.append(HubEvidence(record.iri, record.label, record.hub_class, hub.score, hub.via, paths))
    return out


@dataclass
class SelectedPath:
    """A retrieved path chosen as evidence, with its relevance among all retrieved paths."""

    hub: int  # position in the evidence's hub list
    path: ScoredPath
    relevance: float


def _path_rows(index: HubIndex, hub_number: int) -> dict[int, list[int]]:
    record = index.hubs[hub_number]
    rows: dict[int, list[int]] = {}
    for row in range(record.row_start, record.row_end):
        for path in index.row_paths[row]:
            rows.setdefault(path, []).append(row)
    return rows


def select_paths(index: HubIndex, hubs: list[ScoredHub], queries: np.ndarray, settings: HubLinkSettings
                 ) -> list[SelectedPath]:
    """The retrieved paths that answer the question, most relevant first.

    Our stand-in for the thesis's LLM filter of output triples (`_filter_triple_contexts_by_llm`), used
    when no LLM is configured. Hubs scoring more than `hub_margin` below the best hub are dropped. Every
    path of the remaining hubs (not only the hub's top paths, which the hub's name dominates) is scored against every query vector by its best row (its text, its
    triples, and its descriptions: what it says without the hub's name); the scores are
    standardised per query vector over all these paths, so a query that tells paths apart (the residual
    question "What is the DOI of ?", a component "research level") outweighs one that scores them all
    alike (the paper title every path of a paper starts with); a path's relevance is its best
    standardised score, and paths more than `path_margin` below the best are dropped.
    """
    if not hubs:
        return []
    best_hub = max(h.score for h in hubs)
    candidates: list[tuple[int, ScoredPath, list[int]]] = []
    for position, hub in enumerate(hubs):
        if hub.score < best_hub - settings.hub_margin:
            continue
        rows = _path_rows(index, hub.number)
        retrieved = {p.number: p for p in hub.paths}
        record = index.hubs[hub.number]
        for number in range(record.path_start, record.path_end):
            path = retrieved.get(number) or ScoredPath(number, 0.0, "", "")
            candidates.append((position, path, rows.get(number, [])))
    if not candidates:
        return []
    raw = np.full((len(candidates), queries.shape[0]), -1.0, dtype=np.float32)
    for i, (_, path, rows) in enumerate(candidates):
        if rows:
            raw[i] = (index.vectors[rows] @ queries.T).max(axis=0)
        if index.description_vectors is not None and index.path_descriptions:
            described = index.description_vectors[index.path_descriptions[path.number]] @ queries.T
            raw[i] = np.maximum(raw[i], described.max(axis=0))
    spread = np.maximum(raw.std(axis=0), 0.02)
    standard = (raw - raw.mean(axis=0)) / spread
    relevance = standard.mean(axis=1) if settings.relevance == "mean" else standard.max(axis=1)
    order = np.argsort(-relevance, kind="stable")
    top = float(relevance[order[0]])
    return [SelectedPath(candidates[i][0], candidates[i][1], float(relevance[i])) for i in order
            if relevance[i] >= top - settings.path_margin]


def rank_triples(index: HubIndex, selected: list[SelectedPath], settings: HubLinkSettings) -> list[RetrievedTriple]:
    """The triples of the selected paths in path order, each once (the thesis's ranked output triples)."""
    seen: set[str] = set()
    ranked: list[RetrievedTriple] = []
    for item in selected:
        for triple in index.paths[item.path.number].triples:
            key = triple.identity()
            if key in seen:
                continue
            seen.add(key)
            ranked.append(RetrievedTriple(triple, item.relevance, item.hub))
            if len(ranked) >= settings.max_retrieved_triples:
                return ranked
    return ranked


def answer_triple(triples: Sequence[PathTriple], question_words: set[str]) -> PathTriple:
    """The triple whose object answers: the one whose predicate the question names best, the later on
    ties ("currency" in Japan -> currency -> Japanese Yen -> currency code -> JPY), else the last."""
    best, best_ratio = triples[-1], 0.0
    for triple in triples:
        ratio = mention_ratio(triple.predicate_label, question_words)
        if ratio > 0 and ratio >= best_ratio:
            best, best_ratio = triple, ratio
    return best


def extractive_answers(question: str, index: HubIndex, selected: list[SelectedPath], hubs: list[HubEvidence],
                       settings: HubLinkSettings) -> list[Answer]:
    """The ends of the most relevant selected paths, or their hubs when the question already names the end."""
    question_words = _content_words(question)
    answers: dict[str, Answer] = {}
    top = selected[0].relevance if selected else 0.0
    for item in selected:
        if len(answers) >= settings.max_answers or item.relevance < top - settings.answer_margin:
            break
        hub = hubs[item.hub]
        last = answer_triple(index.paths[item.path.number].triples, question_words)
        names_end = mention_ratio(last.object_label, question_words) > mention_ratio(hub.label, question_words) + 0.3
        if names_end:
            term: ox.NamedNode | ox.Literal = ox.NamedNode(hub.hub)
            label: str | None = hub.label
        elif last.object_is_literal:
            term, label = ox.Literal(last.object), None
        else:
            term, label = ox.NamedNode(last.object), last.object_label
        key = re.sub(r"\s+", " ", term.value)
        if key not in answers:
            answers[key] = Answer.from_term(term, label=label, score=round(item.relevance, 4), sources=(item.hub,))
    return list(answers.values())
