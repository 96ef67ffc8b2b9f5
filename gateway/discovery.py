"""What an endpoint's graph uses for names: label predicates, the text-search dialect, labels of IRIs
and readable words for predicates. Everything here is bounded (ASKs, LIMITed samples, batched VALUES)
so it stays cheap on endpoints with billions of triples, and cached per endpoint.
"""

from __future__ import annotations

import asyncio
import logging
import re
import urllib.parse
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pyoxigraph as ox

from gateway.endpoint import EndpointProfile
from gateway.errors import EndpointUnreachable, SparqlError
from gateway.sparql import RDF_TYPE, make_iri
from gateway.textsearch import detect_dialect, iri_ref, settings_cache
from understanding.names import name_words

if TYPE_CHECKING:
    from gateway.endpoint import Endpoint

log = logging.getLogger(__name__)

RDFS = "http://www.w3.org/2000/01/rdf-schema#"
SKOS = "http://www.w3.org/2004/02/skos/core#"
RDFS_LABEL = RDFS + "label"
SKOS_PREF_LABEL = SKOS + "prefLabel"
# Well-known label predicates, in order of preference when an entity has several.
WELL_KNOWN_LABELS: tuple[str, ...] = (
    RDFS_LABEL,
    SKOS_PREF_LABEL,
    "http://schema.org/name",
    "https://schema.org/name",
    "http://xmlns.com/foaf/0.1/name",
    "http://purl.org/dc/terms/title",
    "http://purl.org/dc/elements/1.1/title",
    SKOS + "altLabel",
)
# Describe things rather than name them, though some end in "label": never label predicates.
NOT_LABELS = frozenset({
    RDFS + "comment", SKOS + "definition", SKOS + "note", SKOS + "hiddenLabel", "http://schema.org/description",
    "http://purl.org/dc/terms/description", "http://purl.org/dc/elements/1.1/description",
})
# Engine bookkeeping that a default graph may include (Virtuoso's system graphs): never the data's names.
SYSTEM_NAMESPACES = ("http://www.openlinksw.com/schemas/", "http://www.w3.org/ns/sparql-service-description#")
_NAMEISH = re.compile(r"(label|name|title)$", re.IGNORECASE)
_NOT_NAMEISH = re.compile(r"(file|user|host|domain|class|type|method|table|column|field|var|variable)name$", re.I)
MAX_GRAPH_SPECIFIC = 6
PREDICATE_LIST_LIMIT = 5000
SAMPLE_TRIPLES = 20_000
LABEL_BATCH = 50
DISCOVERY_TIMEOUT_S = 20.0


def local_name(iri: str) -> str:
    """The last segment of an IRI: after `#`, else the last non-empty `/` segment, else after `:`."""
    if "#" in iri and iri.rsplit("#", 1)[1]:
        return urllib.parse.unquote(iri.rsplit("#", 1)[1])
    path = iri.rstrip("/")
    segment = path.rsplit("/", 1)[-1] if "/" in path else path
    if ":" in segment:
        segment = segment.rsplit(":", 1)[-1]
    return urllib.parse.unquote(segment)


def _split_words(name: str) -> list[str]:
    """Words of an identifier: separators, lower-to-upper case changes (`birthPlace`), the end of an
    acronym (`ISBNNumber`) and letter/digit changes (`hasISBN13`) all start a new word."""
    tokens: list[str] = []
    current = ""
    for i, ch in enumerate(name):
        if not ch.isalnum():
            if current:
                tokens.append(current)
            current = ""
            continue
        if current:
            prev = current[-1]
            nxt = name[i + 1] if i + 1 < len(name) else ""
            if ((prev.islower() and ch.isupper()) or (prev.isdigit() != ch.isdigit())
                    or (prev.isupper() and ch.isupper() and nxt.islower())):
                tokens.append(current)
                current = ""
        current += ch
    if current:
        tokens.append(current)
    return tokens


# whole local names that abbreviate a word (WGS84's `geo:lat`/`geo:long`, used by DBpedia and many graphs):
# word vectors place "long" near "length" and "lat" nowhere, so "longitude" would link to `lat`
_ABBREVIATED_NAMES = {"lat": "latitude", "long": "longitude", "lon": "longitude", "lng": "longitude",
                      "alt": "altitude"}


def local_name_words(iri: str) -> str | None:
    """The IRI's local name as lower-case words (`birthPlace`, `birth_place`, `birth-place` ->
    `birth place`; `lat` -> `latitude`; a schema's `dept_no`, `sourceairport` -> `department number`,
    `source airport`: `understanding.names`); None when it has no word of two letters or more (Wikidata's `P227`)."""
    tokens = _split_words(local_name(iri))
    if not any(sum(ch.isalpha() for ch in t) >= 2 for t in tokens):
        return None
    words = " ".join(t.lower() for t in tokens)
    if words in _ABBREVIATED_NAMES:
        return _ABBREVIATED_NAMES[words]
    split = words.split()
    return " ".join(piece for i, word in enumerate(split) for piece in name_words(word, last=i == len(split) - 1))


def _named_after_its_table(iri: str) -> bool:
    """A column named as its table (`.../course#course`, `.../orchestra#orchestra`): in a relational
    database published as RDF that column names the rows, as `name` does elsewhere."""
    if "#" not in iri:
        return False
    table, column = iri.rsplit("#", 1)
    return bool(column) and column.casefold() == local_name(table).casefold()


async def _ask_uses_literals(endpoint: Endpoint, predicate: str) -> bool:
    query = f"ASK {{ ?s {iri_ref(predicate)} ?o . FILTER(isLiteral(?o)) }}"
    return await endpoint.sparql.ask(query, timeout_s=min(endpoint.config.timeout_s, DISCOVERY_TIMEOUT_S))


async def _predicates_in_graph(endpoint: Endpoint, notes: list[str]) -> list[str]:
    """Distinct predicates, bounded; on a graph too big for that in time, those of a sample."""
    timeout = min(endpoint.config.timeout_s, DISCOVERY_TIMEOUT_S)
    try:
        result = await endpoint.sparql.select(
            f"SELECT DISTINCT ?p WHERE {{ ?s ?p ?o }} LIMIT {PREDICATE_LIST_LIMIT}", timeout_s=timeout)
    except EndpointUnreachable:
        raise
    except SparqlError as exc:
        notes.append(f"listing predicates failed ({exc.kind}); sampled {SAMPLE_TRIPLES} triples instead")
        result = await endpoint.sparql.select(
            f"SELECT DISTINCT ?p WHERE {{ {{ SELECT ?p WHERE {{ ?s ?p ?o }} LIMIT {SAMPLE_TRIPLES} }} }}",
            timeout_s=timeout)
    return [p.value for p in result.column("p") if isinstance(p, ox.NamedNode)]


async def discover_label_predicates(endpoint: Endpoint) -> tuple[tuple[str, ...], list[str]]:
    """The predicates that carry names in this graph, best first, and how they were found.

    Well-known label predicates are checked with one ASK each; graph-specific ones are predicates
    whose local name ends in label/name/title and whose values are literals.
    """
    config = endpoint.config
    if config.label_predicates:
        return tuple(config.label_predicates), ["label predicates: from the configuration"]
    # The embedded store answers in milliseconds and its files may change: it is never cached.
    cached = None if config.is_embedded else settings_cache.get(config, "label_predicates")
    if isinstance(cached, dict) and isinstance(cached.get("predicates"), list) and cached["predicates"]:
        return tuple(cached["predicates"]), [f"label predicates: {', '.join(cached['predicates'])} (found earlier, cached)"]

    notes: list[str] = []
    persist = not config.is_embedded

    async def check(predicate: str) -> bool:
        nonlocal persist
        try:
            return await _ask_uses_literals(endpoint, predicate)
        except EndpointUnreachable:
            raise
        except SparqlError as exc:
            persist = False
            notes.append(f"ASK for <{predicate}> failed ({exc.kind})")
            return False

    known_used = await asyncio.gather(*(check(p) for p in WELL_KNOWN_LABELS))
    found = [p for p, used in zip(WELL_KNOWN_LABELS, known_used, strict=True) if used]
    try:
        listed = await _predicates_in_graph(endpoint, notes)
    except EndpointUnreachable:
        raise
    except SparqlError as exc:
        persist = False
        notes.append(f"could not list predicates ({exc.kind}); only well-known label predicates checked")
        listed = []
    nameish = sorted(p for p in listed if p not in WELL_KNOWN_LABELS and p not in NOT_LABELS
                     and not p.startswith(SYSTEM_NAMESPACES)
                     and ((_NAMEISH.search(local_name(p)) and not _NOT_NAMEISH.search(local_name(p)))
                          or _named_after_its_table(p)))
    nameish = nameish[: MAX_GRAPH_SPECIFIC * 2]
    specific_used = await asyncio.gather(*(check(p) for p in nameish))
    found += [p for p, used in zip(nameish, specific_used, strict=True) if used][:MAX_GRAPH_SPECIFIC]
    if not found:
        notes.insert(0, "label predicates: none found; using rdfs:label")
        return (RDFS_LABEL,), notes
    notes.insert(0, f"label predicates: {', '.join(found)} (ASK per well-known predicate; "
                    "graph predicates named *label/*name/*title or as their table, with literal values)")
    if not config.is_embedded:
        settings_cache.put(config, "label_predicates", {"predicates": found}, persist=persist)
    return tuple(found), notes


async def discover_profile(endpoint: Endpoint) -> EndpointProfile:
    """Label predicates and the text-search dialect of an endpoint, with notes saying how."""
    predicates, notes = await discover_label_predicates(endpoint)
    detection = await detect_dialect(endpoint, predicates)
    return EndpointProfile(detection.dialect, predicates, [*notes, *detection.notes])


def _language_rank(literal: ox.Literal, language: str) -> int:
    tag = (literal.language or "").lower()
    wanted = language.lower()
    if wanted and (tag == wanted or tag.startswith(wanted + "-")):
        return 0
    return 1 if not tag else 2


async def fetch_labels(endpoint: Endpoint, iris: list[str], *, predicates: Sequence[str] | None = None) -> dict[str, str]:
    """The best label of each IRI that has one, in batches of `LABEL_BATCH` (VALUES).

    Prefers the configured language, then no language tag, then any; among predicates, the
    profile's order (rdfs:label before skos:altLabel, ...).
    """
    if not iris:
        return {}
    if predicates is None:
        predicates = (await endpoint.profile()).label_predicates
    predicates = tuple(dict.fromkeys(predicates)) or (RDFS_LABEL,)
    order = {p: i for i, p in enumerate(predicates)}
    values_p = " ".join(iri_ref(p) for p in predicates)
    language = endpoint.config.language

    async def batch(chunk: list[str]) -> dict[str, str]:
        values_s = " ".join(iri_ref(iri) for iri in chunk)
        query = (f"SELECT ?s ?p ?label WHERE {{ VALUES ?s {{ {values_s} }} VALUES ?p {{ {values_p} }} "
                 f"?s ?p ?label . FILTER(isLiteral(?label)) }}")
        result = await endpoint.sparql.select(query)
        best: dict[str, tuple[tuple[int, int, int], str]] = {}
        for row in result.rows:
            subject, predicate, label = row.get("s"), row.get("p"), row.get("label")
            if not isinstance(subject, ox.NamedNode) or not isinstance(label, ox.Literal):
                continue
            rank = (_language_rank(label, language), order.get(getattr(predicate, "value", ""), len(order)),
                    len(label.value))
            if subject.value not in best or rank < best[subject.value][0]:
                best[subject.value] = (rank, label.value)
        return {iri: label for iri, (_, label) in best.items()}

    unique = list(dict.fromkeys(iris))
    # IRIs are matched back by their encoded form, since that is what the query holds.
    encoded = {make_iri(i).value: i for i in unique}
    chunks = [unique[i:i + LABEL_BATCH] for i in range(0, len(unique), LABEL_BATCH)]
    labels: dict[str, str] = {}
    for found in await asyncio.gather(*(batch(chunk) for chunk in chunks)):
        for iri, label in found.items():
            labels[encoded.get(iri, iri)] = label
    return labels


async def describe_predicates(endpoint: Endpoint, iris: Sequence[str]) -> dict[str, str]:
    """Words for each predicate: its label when the graph has one (rdfs:label, skos:prefLabel or a
    label predicate of the graph), else its local name split into words. Predicates with neither
    (a Wikidata `P227` without a label) are left out."""
    unique = list(dict.fromkeys(iris))
    if not unique:
        return {}
    profile_predicates = (await endpoint.profile()).label_predicates
    labels = await fetch_labels(endpoint, unique, predicates=(RDFS_LABEL, SKOS_PREF_LABEL, *profile_predicates))
    described: dict[str, str] = {}
    for iri in unique:
        text = labels.get(iri) or local_name_words(iri)
        if text:
            described[iri] = " ".join(text.split())
    return described



async def member_predicate(endpoint: Endpoint, container_class: str) -> str | None:
    """The predicate that holds the members of a container class's instances (ORKG's `List` of
    authors holds each name by `hasListElement`): the one most of its statements use besides type and
    labels, if it is used at least twice as often as any other; None otherwise or on an error."""
    skipped = ", ".join(iri_ref(p) for p in (RDF_TYPE, *(await endpoint.profile()).label_predicates))
    query = (f"SELECT ?m (COUNT(*) AS ?n) WHERE {{ ?c a {iri_ref(container_class)} . ?c ?m ?v "
             f"FILTER(?m NOT IN ({skipped})) }} GROUP BY ?m ORDER BY DESC(?n) LIMIT 2")
    try:
        result = await endpoint.sparql.select(query)
    except SparqlError as exc:
        log.info("no member predicate for %s: %s", container_class, exc)
        return None
    counts = [(row["m"].value, int(row["n"].value)) for row in result.rows if "m" in row and "n" in row]
    if not counts or (len(counts) > 1 and counts[0][1] < 2 * counts[1][1]):
        return None
    return counts[0][0]
