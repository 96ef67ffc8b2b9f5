"""Relation linking: the predicates around the linked vertices, scored against the relation phrase.

KGQAN (SIGMOD 2023, section 5) collects the outgoing and incoming predicates of the candidate vertices
of an edge and scores their words by semantic affinity. Here every vertex of the question is asked in
ONE request (VALUES, both directions), predicates of unlabelled graphs are described by their IRI's
local name split into words, and edges between two unknowns ("?u1 | age | ?u2") get the predicates
around a sample of the anchored unknown's bindings (instances of its class, or neighbours of a
linked vertex).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pyoxigraph as ox

from gateway.endpoint import Endpoint
from gateway.errors import SparqlError
from gateway.sparql import term_to_sparql
from linking.affinity import AffinityScorer
from linking.entities import RDF_TYPE, LinkedEntity

OUT = "out"  # the anchor (vertex, literal's subject side or anchored unknown) is the subject
IN = "in"  # the anchor is the object
MAX_PREDICATE_ROWS = 5000
ANCHOR_SAMPLE = 200
MAX_GLOBAL_PREDICATES = 2000


@dataclass(frozen=True)
class LinkedPredicate:
    """A predicate for a relation phrase, with the direction seen from the edge's anchor."""

    iri: str
    label: str
    score: float
    direction: str  # OUT: anchor --p--> other; IN: other --p--> anchor

    def to_dict(self) -> dict[str, object]:
        return {"iri": self.iri, "label": self.label, "score": round(self.score, 4), "direction": self.direction}


@dataclass(frozen=True)
class PredicateSet:
    """Predicates found around one anchor: (iri, direction) pairs."""

    pairs: frozenset[tuple[str, str]]


class RelationLinker:
    """Finds and scores the predicates that may express a relation phrase."""

    def __init__(self, scorer: AffinityScorer) -> None:
        self.scorer = scorer
        self._global: dict[str, frozenset[tuple[str, str]]] = {}

    async def predicates_around(self, vertices: Sequence[LinkedEntity], endpoint: Endpoint) -> dict[str, PredicateSet]:
        """Outgoing and incoming predicates of every vertex, in one request."""
        iris = list(dict.fromkeys(v.term.value for v in vertices if isinstance(v.term, ox.NamedNode)))
        if not iris:
            return {}
        values = " ".join(f"<{iri}>" for iri in iris)
        query = (
            f'SELECT DISTINCT ?v ?p ?dir WHERE {{ VALUES ?v {{ {values} }} '
            f'{{ ?v ?p ?x BIND("{OUT}" AS ?dir) }} UNION {{ ?x ?p ?v BIND("{IN}" AS ?dir) }} }} '
            f"LIMIT {MAX_PREDICATE_ROWS}"
        )
        result = await endpoint.sparql.select(query)
        found: dict[str, set[tuple[str, str]]] = {iri: set() for iri in iris}
        for row in result:
            vertex, predicate, direction = row.get("v"), row.get("p"), row.get("dir")
            if isinstance(vertex, ox.NamedNode) and isinstance(predicate, ox.NamedNode) and direction is not None:
                found.setdefault(vertex.value, set()).add((predicate.value, direction.value))
        return {iri: PredicateSet(frozenset(pairs)) for iri, pairs in found.items()}

    async def predicates_of_bindings(self, anchor_pattern: str, variable: str, endpoint: Endpoint) -> PredicateSet:
        """Predicates around a sample of the values `variable` takes in `anchor_pattern` (a WHERE body)."""
        query = (
            f"SELECT DISTINCT ?p ?dir WHERE {{ {{ SELECT DISTINCT {variable} WHERE {{ {anchor_pattern} }} "
            f"LIMIT {ANCHOR_SAMPLE} }} "
            f'{{ {variable} ?p ?kgqaOther BIND("{OUT}" AS ?dir) }} UNION {{ ?kgqaOther ?p {variable} BIND("{IN}" AS ?dir) }} }} '
            f"LIMIT {MAX_PREDICATE_ROWS}"
        )
        try:
            result = await endpoint.sparql.select(query)
        except SparqlError:
            return PredicateSet(frozenset())
        pairs = {(row["p"].value, row["dir"].value) for row in result
                 if isinstance(row.get("p"), ox.NamedNode) and row.get("dir") is not None}
        return PredicateSet(frozenset(pairs))

    async def all_predicates(self, endpoint: Endpoint) -> PredicateSet:
        """Every predicate of the graph (bounded; fetched once): the last resort for an unanchored edge."""
        key = endpoint.config.cache_key
        if key not in self._global:
            query = f"SELECT DISTINCT ?p WHERE {{ ?s ?p ?o }} LIMIT {MAX_GLOBAL_PREDICATES}"
            result = await endpoint.sparql.select(query)
            pairs = set()
            for term in result.column("p"):
                if isinstance(term, ox.NamedNode):
                    pairs.add((term.value, OUT))
                    pairs.add((term.value, IN))
            self._global[key] = frozenset(pairs)
        return PredicateSet(self._global[key])

    async def rank(self, phrase: str, predicates: PredicateSet, endpoint: Endpoint, *, top_k: int = 20,
                   descriptions: dict[str, str] | None = None) -> list[LinkedPredicate]:
        """The `top_k` (predicate, direction) pairs by affinity of the predicate's words to `phrase`."""
        pairs = [(iri, direction) for iri, direction in predicates.pairs if iri != RDF_TYPE]
        if not pairs:
            return []
        iris = list(dict.fromkeys(iri for iri, _ in pairs))
        words = descriptions if descriptions is not None else await endpoint.describe_predicates(iris)
        texts = [words.get(iri) or iri for iri in iris]
        scores = await self.scorer.ascore_many(phrase, texts)
        by_iri = {iri: (text, float(score)) for iri, text, score in zip(iris, texts, scores, strict=True)}
        ranked = sorted(pairs, key=lambda pair: (-by_iri[pair[0]][1], pair[0], pair[1]))
        return [LinkedPredicate(iri, by_iri[iri][0], by_iri[iri][1], direction) for iri, direction in ranked[:top_k]]


def literal_predicates(literal: LinkedEntity) -> PredicateSet:
    """Predicates that carry a linked literal value: the literal is always the object."""
    return PredicateSet(frozenset((p, IN) for p in literal.predicates))


def sparql_term(entity: LinkedEntity) -> str:
    return term_to_sparql(entity.term)
