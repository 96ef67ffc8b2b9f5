"""Names for answers that are opaque resources: the attribute that names them in graphs without labels.

Graphs exported from relational tables (Spider4SPARQL, many Ontop/R2RML mappings) give each row an
IRI like `<.../conductor/conductor_id=8>` and no rdfs:label: the name is an ordinary column
(`conductor#name`, `orchestra#orchestra`, `airports#airportname`). Answering with the IRI tells a
user nothing; the row's naming attribute is the answer. A class's naming attribute is found from
the data, once per class and endpoint: a literal attribute that (nearly) every instance has, whose
values are text rather than numbers and mostly distinct, and whose name says it names
(`name`/`title`/`label`, or the class's own name). Classes whose instances carry a well-known label
(rdfs:label, skos:prefLabel, schema:name, ...) keep their IRIs: those graphs answer with resources.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pyoxigraph as ox

from gateway.discovery import WELL_KNOWN_LABELS
from gateway.endpoint import Endpoint
from gateway.errors import SparqlError
from linking.affinity import split_words
from linking.entities import RDF_TYPE, local_name
from linking.filtering import is_date, is_number
from understanding.grading import singular

NAMING_WORDS = ("name", "title", "label")
SAMPLE = 40
MIN_COVERAGE = 0.8
MIN_DISTINCT = 0.5
OWN_NAME_SCORE = 0.8  # a column named after its class (`orchestra#orchestra`) names it, less surely than `name`


@dataclass(frozen=True)
class Naming:
    """How a set of answer IRIs is presented: `predicate` names them (None: keep the IRIs)."""

    predicate: str | None
    reason: str
    labelled: bool = False  # the instances carry a well-known label: presented by it, they fit a string answer
    opaque: bool = False  # the graph holds no class and no value of the answers (links out of the graph)


def naming_score(predicate: str, class_iri: str) -> float:
    """How much a predicate's local name says it names instances of the class: 1 for a naming word
    alone (`name`), 0.9 for a naming word with others (`airport name`), 0.8 for the class's own
    name (`orchestra#orchestra`), else 0."""
    words = [singular(w) for w in split_words(local_name(predicate))]
    class_words = [singular(w) for w in split_words(local_name(class_iri))]
    if words and all(w in NAMING_WORDS for w in words):
        return 1.0
    if any(w in NAMING_WORDS for w in words):
        return 0.9
    if words and words == class_words[-len(words):]:
        return OWN_NAME_SCORE
    return 0.0


# the rest of a `SELECT ?s ?p ?o` over chosen instances `?s`: their classes and literal attributes
_CLASS_AND_LITERALS = f"?s ?p ?o . FILTER(isLiteral(?o) || ?p = <{RDF_TYPE}>) }} LIMIT 5000"


def _classes_and_literals(rows: Iterable[dict]) -> tuple[dict[str, str], dict[str, dict[str, list[ox.Literal]]]]:  # type: ignore[type-arg]
    """Each instance's (first) class and its literal values per predicate, from `?s ?p ?o` rows."""
    instance_class: dict[str, str] = {}
    literals: dict[str, dict[str, list[ox.Literal]]] = {}
    for row in rows:
        subject, predicate, value = row.get("s"), row.get("p"), row.get("o")
        if not isinstance(subject, ox.NamedNode) or not isinstance(predicate, ox.NamedNode):
            continue
        if predicate.value == RDF_TYPE and isinstance(value, ox.NamedNode):
            instance_class.setdefault(subject.value, value.value)
        elif isinstance(value, ox.Literal):
            literals.setdefault(subject.value, {}).setdefault(predicate.value, []).append(value)
    return instance_class, literals


class EntityNamer:
    """Finds (and caches per endpoint and class) the naming attribute of answer resources."""

    def __init__(self) -> None:
        self._by_class: dict[tuple[str, str], tuple[str | None, bool]] = {}
        self._lock = asyncio.Lock()

    async def naming(self, answers: Sequence[ox.NamedNode], types: dict[str, list[str]],
                     endpoint: Endpoint) -> Naming:
        """The naming attribute of the answers' (most common) class, chosen on a sample of the class; two
        requests on a cache miss."""
        key = endpoint.config.cache_key
        classes = Counter(c for a in answers for c in types.get(a.value, [])[:1])
        if classes:
            top = classes.most_common(1)[0][0]
            if (key, top) in self._by_class:
                return self._decision(top, *self._by_class[(key, top)])
        sample = list(dict.fromkeys(a.value for a in answers))[:SAMPLE]
        values = " ".join(f"<{iri}>" for iri in sample)
        try:
            result = await endpoint.sparql.select(f"SELECT ?s ?p ?o WHERE {{ VALUES ?s {{ {values} }} {_CLASS_AND_LITERALS}")
        except SparqlError as exc:
            return Naming(None, f"could not look up names ({exc.kind})")
        instance_class, literals = _classes_and_literals(result)
        if not instance_class:
            return Naming(None, "the answers have no class", opaque=not literals)
        top = Counter(instance_class.values()).most_common(1)[0][0]
        members = [s for s, c in instance_class.items() if c == top]
        attributes = {s: literals.get(s, {}) for s in members}
        labelled = any(p in WELL_KNOWN_LABELS for found in attributes.values() for p in found)
        if not labelled:  # decided on the class, not on the answers that came first (many rows of one state)
            attributes = await self._class_sample(top, endpoint) or attributes
        predicate = None if labelled else self._choose(top, attributes)
        async with self._lock:
            self._by_class[(key, top)] = (predicate, labelled)
        return self._decision(top, predicate, labelled)

    @staticmethod
    async def _class_sample(class_iri: str, endpoint: Endpoint) -> dict[str, dict[str, list[ox.Literal]]]:
        """The literal attributes of a sample of the class's instances (one request; none on failure)."""
        query = (f"SELECT ?s ?p ?o WHERE {{ {{ SELECT ?s WHERE {{ ?s <{RDF_TYPE}> <{class_iri}> }} LIMIT {SAMPLE} }} "
                 f"{_CLASS_AND_LITERALS}")
        try:
            result = await endpoint.sparql.select(query)
        except SparqlError:
            return {}
        instance_class, literals = _classes_and_literals(result)
        return {s: literals.get(s, {}) for s in instance_class}  # an instance without literals counts too

    @staticmethod
    def _decision(class_iri: str, predicate: str | None, labelled: bool) -> Naming:
        if labelled:
            return Naming(None, f"instances of <{class_iri}> have labels", labelled=True)
        if predicate is None:
            return Naming(None, f"instances of <{class_iri}> have no labels and no naming attribute")
        return Naming(predicate, f"instances of <{class_iri}> have no labels; <{predicate}> names them")

    @staticmethod
    def _choose(class_iri: str, members: dict[str, dict[str, list[ox.Literal]]]) -> str | None:
        if not members:
            return None
        best: tuple[float, str] | None = None
        predicates = {p for attributes in members.values() for p in attributes}
        for predicate in sorted(predicates):
            score = naming_score(predicate, class_iri)
            if score == 0.0:
                continue
            values = [v for attributes in members.values() for v in attributes.get(predicate, [])[:1]]
            if len(values) < MIN_COVERAGE * len(members):
                continue
            if sum(1 for v in values if is_number(v) or is_date(v)) > len(values) / 2:
                continue
            if len({v.value for v in values}) < MIN_DISTINCT * len(values):
                continue
            if best is None or score > best[0]:
                best = (score, predicate)
        return best[1] if best else None

    async def names(self, answers: Sequence[ox.NamedNode], predicate: str, endpoint: Endpoint) -> dict[str, ox.Literal]:
        """The naming attribute's value of each answer (one request)."""
        if not answers:
            return {}
        values = " ".join(f"<{a.value}>" for a in dict.fromkeys(answers))
        query = f"SELECT ?s ?o WHERE {{ VALUES ?s {{ {values} }} ?s <{predicate}> ?o }}"
        result = await endpoint.sparql.select(query)
        found: dict[str, ox.Literal] = {}
        for row in result:
            subject, value = row.get("s"), row.get("o")
            if isinstance(subject, ox.NamedNode) and isinstance(value, ox.Literal):
                found.setdefault(subject.value, value)
        return found
