"""Names for answers that are opaque resources: the attribute that names them in graphs without labels.

Graphs exported from relational tables (Spider4SPARQL, many Ontop/R2RML mappings) give each row an
IRI like `<.../conductor/conductor_id=8>` and no rdfs:label: the name is an ordinary column
(`conductor#name`, `orchestra#orchestra`, `airports#airportname`). Answering with the IRI tells a
user nothing; the row's naming attribute is the answer. A class's naming attribute is found from
the data, once per class and endpoint: a literal attribute that (nearly) every instance has, whose
values are text rather than numbers and mostly distinct, and whose name says it names
(`name`/`title`/`label`, or the class's own name); a person's table without one is named by its given and
family name columns together (`student#fname`, `student#lname`: "Bruce", "Wilson"). A table's rows with no such attribute are named by the
name of the one thing each refers to (a poker player row by its person's `name`), else by their key, the
attribute whose value their IRIs carry (`templates/template_id=22` by `templates#template_id`): what a
question over the tables is answered with (Spider's gold queries select columns, never rows). Classes whose
instances carry a well-known label (rdfs:label, skos:prefLabel, schema:name, ...) keep their IRIs: those
graphs answer with resources.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import unquote

import pyoxigraph as ox

from gateway.discovery import WELL_KNOWN_LABELS
from gateway.endpoint import Endpoint
from gateway.errors import SparqlError
from linking.affinity import split_words
from linking.entities import RDF_TYPE, local_name
from linking.filtering import is_date, is_number
from understanding.grading import singular

NAMING_WORDS = ("name", "title", "label")
# a column holding one part of a person's name, by its words and adjacent word pairs (`emp_fname`, `first_name`,
# `name_first`, `surname`)
GIVEN_NAME_WORDS = frozenset({"fname", "firstname", "namefirst", "forename", "givenname", "personalname"})
FAMILY_NAME_WORDS = frozenset({"lname", "lastname", "namelast", "surname", "familyname"})
SAMPLE = 40
MIN_COVERAGE = 0.8
MIN_DISTINCT = 0.5
ONE_EACH = 0.9  # a reference names its rows where (nearly) every row refers to a thing of its own
OWN_NAME_SCORE = 0.8  # a column named after its class (`orchestra#orchestra`) names it, less surely than `name`


@dataclass(frozen=True)
class Naming:
    """How a set of answer IRIs is presented: `predicate` names them (None: keep the IRIs)."""

    predicate: str | None
    reason: str
    labelled: bool = False  # the instances carry a well-known label: presented by it, they fit a string answer
    opaque: bool = False  # the graph holds no class and no value of the answers (links out of the graph)
    through: str | None = None  # the one reference whose thing's attribute names them (a poker player: its person)
    keyed: bool = False  # named by their key: presented by it, but a key is no name a string answer asks for
    family: str | None = None  # the family name beside `predicate`'s given name (a person's table)
    key: str | None = None  # the attribute holding the key their IRIs carry: what a question asking their ids wants

    def by_key(self) -> Naming:
        """The same answers presented by their key ("Find the ids of the students ..."); itself without one."""
        if self.key is None or self.keyed:
            return self
        return Naming(self.key, f"their key <{self.key}> asked for", keyed=True, key=self.key)

    @property
    def path(self) -> str:
        """The SPARQL property path from an answer to its name (its given name, where it has two parts)."""
        return self._path(self.predicate)

    @property
    def family_path(self) -> str | None:
        """The SPARQL property path from an answer to its family name, where its name has two parts."""
        return self._path(self.family) if self.family else None

    def _path(self, predicate: str | None) -> str:
        return f"<{self.through}>/<{predicate}>" if self.through else f"<{predicate}>"


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


def name_part(predicate: str) -> str | None:
    """"given" or "family" where a predicate's local name says it holds that part of a person's name, else None."""
    words = split_words(local_name(predicate))
    found = set(words) | {a + b for a, b in zip(words, words[1:], strict=False)}
    if found & GIVEN_NAME_WORDS:
        return "given"
    if found & FAMILY_NAME_WORDS:
        return "family"
    return None


# a row IRI of a one-column key: `.../templates/template_id=22` (not a record's `stuid=1001;petid=2001`)
_ROW_KEY = re.compile(r"/(?P<column>[^/;=]+)=(?P<value>[^/;=]+)$")


def _key_attribute(members: dict[str, dict[str, list[ox.Literal]]]) -> str | None:
    """The attribute holding the key every member's row IRI carries (`template_id=22`: `...#template_id` "22"),
    where the members' IRIs have one-column keys of one column; None otherwise."""
    matches = [(s, _ROW_KEY.search(s)) for s in members]
    keys = {s: (m.group("column"), unquote(m.group("value"))) for s, m in matches if m}
    columns = {column for column, _ in keys.values()}
    if len(keys) < len(members) or len(columns) != 1:
        return None
    column = columns.pop()
    holding = Counter(p for s, attributes in members.items() for p, values in attributes.items()
                      if local_name(p) == column and any(v.value == keys[s][1] for v in values))
    if len(holding) != 1:
        return None
    predicate, count = holding.most_common(1)[0]
    return predicate if count >= MIN_COVERAGE * len(members) else None


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
        self._by_class: dict[tuple[str, str], Naming] = {}
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
                return self._by_class[(key, top)]
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
        if labelled:
            decision = Naming(None, f"instances of <{top}> have labels", labelled=True)
        else:  # decided on the class, not on the answers that came first (many rows of one state)
            decision = await self._unlabelled(top, await self._class_sample(top, endpoint) or attributes, endpoint)
        async with self._lock:
            self._by_class[(key, top)] = decision
        return decision

    async def _unlabelled(self, class_iri: str, members: dict[str, dict[str, list[ox.Literal]]],
                          endpoint: Endpoint) -> Naming:
        """A class without labels: named by its naming attribute; else, for table rows, by the naming attribute
        of the one thing each row refers to and no other row does (a poker player row by its person's name:
        one more request); else by its key."""
        chosen = self._choose(class_iri, members)
        key = _key_attribute(members)
        if chosen is not None:
            predicate, family = chosen
            if family is not None:
                return Naming(predicate, f"instances of <{class_iri}> have no labels; <{predicate}> and <{family}> "
                                         "name them", family=family, key=key)
            return Naming(predicate, f"instances of <{class_iri}> have no labels; <{predicate}> names them", key=key)
        if key is None:
            return Naming(None, f"instances of <{class_iri}> have no labels and no naming attribute")
        referred = await self._referred_naming(class_iri, endpoint)
        if referred is not None:
            through, (predicate, family) = referred
            return Naming(predicate, f"instances of <{class_iri}> have no labels; each is named by <{predicate}> of "
                                     f"the one thing it refers to by <{through}>", through=through, family=family,
                          key=key)
        return Naming(key, f"instances of <{class_iri}> have no labels and no naming attribute; their key <{key}> "
                           "names them", keyed=True, key=key)

    async def _referred_naming(self, class_iri: str, endpoint: Endpoint
                               ) -> tuple[str, tuple[str, str | None]] | None:
        """The reference (and the naming attribute beyond it) by which (nearly) every sampled row of the class
        refers to one thing with a name (`name`, `title`, `label`: a person, not an area code's state), a
        different one per row; None unless exactly one such reference."""
        query = (f"SELECT ?s ?p ?o ?c ?q ?v WHERE {{ {{ SELECT ?s WHERE {{ ?s <{RDF_TYPE}> <{class_iri}> }} "
                 f"LIMIT {SAMPLE} }} ?s ?p ?o . FILTER(isIRI(?o) && ?p != <{RDF_TYPE}>) ?o <{RDF_TYPE}> ?c . "
                 f"OPTIONAL {{ ?o ?q ?v . FILTER(isLiteral(?v)) }} }} LIMIT 5000")
        try:
            result = await endpoint.sparql.select(query)
        except SparqlError:
            return None
        rows: set[str] = set()
        referred: dict[str, dict[str, set[str]]] = {}  # reference -> row -> things
        classes: dict[str, set[str]] = {}
        things: dict[str, dict[str, list[ox.Literal]]] = {}
        for row in result:
            subject, reference, thing, kind = row.get("s"), row.get("p"), row.get("o"), row.get("c")
            if not all(isinstance(t, ox.NamedNode) for t in (subject, reference, thing, kind)):
                continue
            rows.add(subject.value)
            referred.setdefault(reference.value, {}).setdefault(subject.value, set()).add(thing.value)
            classes.setdefault(reference.value, set()).add(kind.value)
            attribute, value = row.get("q"), row.get("v")
            found = things.setdefault(thing.value, {})
            if isinstance(attribute, ox.NamedNode) and isinstance(value, ox.Literal) and \
                    value not in found.setdefault(attribute.value, []):
                found[attribute.value].append(value)
        namings = []
        for reference, by_row in sorted(referred.items()):
            targets = [t for ts in by_row.values() for t in ts]
            if len(classes[reference]) != 1 or any(len(ts) != 1 for ts in by_row.values()) or \
                    len(by_row) < MIN_COVERAGE * len(rows) or len(set(targets)) < ONE_EACH * len(targets):
                continue
            kind = next(iter(classes[reference]))
            chosen = self._choose(kind, {t: things.get(t, {}) for t in set(targets)})
            if chosen is not None and naming_score(chosen[0], kind) > OWN_NAME_SCORE:  # a name, not a state
                namings.append((reference, chosen))
        return namings[0] if len(namings) == 1 else None

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
    def _choose(class_iri: str, members: dict[str, dict[str, list[ox.Literal]]]) -> tuple[str, str | None] | None:
        """The naming attribute (and None), or a person's given and family name columns where the class has both
        and no naming attribute but one of them."""
        if not members:
            return None
        best: tuple[float, str] | None = None
        parts: dict[str, str] = {}
        predicates = {p for attributes in members.values() for p in attributes}
        for predicate in sorted(predicates):
            values = [v for attributes in members.values() for v in attributes.get(predicate, [])[:1]]
            if len(values) < MIN_COVERAGE * len(members) or sum(1 for v in values if is_number(v) or is_date(v)) > len(values) / 2:
                continue
            part = name_part(predicate)
            if part is not None:
                parts.setdefault(part, predicate)
            score = naming_score(predicate, class_iri)
            if score == 0.0 or len({v.value for v in values}) < MIN_DISTINCT * len(values):
                continue
            if best is None or score > best[0]:
                best = (score, predicate)
        if len(parts) == 2 and (best is None or name_part(best[1]) is not None):
            given, family = parts["given"], parts["family"]
            pairs = {(_first(attributes, given), _first(attributes, family)) for attributes in members.values()}
            if len(pairs) >= MIN_DISTINCT * len(members):
                return given, family
        return (best[1], None) if best else None

    async def names(self, answers: Sequence[ox.NamedNode], naming: Naming, endpoint: Endpoint
                    ) -> dict[str, tuple[ox.Literal, ox.Literal | None]]:
        """The name of each answer by a naming with a predicate (one request), with its family name where the
        naming has one (else None)."""
        if not answers:
            return {}
        values = " ".join(f"<{a.value}>" for a in dict.fromkeys(answers))
        family = f" OPTIONAL {{ ?s {naming.family_path} ?f }}" if naming.family_path else ""
        query = f"SELECT ?s ?o ?f WHERE {{ VALUES ?s {{ {values} }} ?s {naming.path} ?o .{family} }}"
        result = await endpoint.sparql.select(query)
        found: dict[str, tuple[ox.Literal, ox.Literal | None]] = {}
        for row in result:
            subject, value, second = row.get("s"), row.get("o"), row.get("f")
            if isinstance(subject, ox.NamedNode) and isinstance(value, ox.Literal):
                found.setdefault(subject.value, (value, second if isinstance(second, ox.Literal) else None))
        return found


def _first(attributes: dict[str, list[ox.Literal]], predicate: str) -> str | None:
    values = attributes.get(predicate)
    return values[0].value if values else None
