"""Entity, literal and class linking: PGP node phrases to graph terms, just in time.

KGQAN (SIGMOD 2023, section 5) links a node phrase with one full-text query against the endpoint's
own index, then scores each found vertex's label by semantic affinity and keeps the top k. Beyond the
paper, values written in the question ("France", 1995, "Hey Oh") are also linked as *literals* when
the graph holds them as attribute values (relational data turned into RDF has no labelled entities
for them), and class phrases of `is a` edges are linked to the graph's classes by label or by the
IRI's local name.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pyoxigraph as ox

from gateway.endpoint import Endpoint
from gateway.sparql import RDF_TYPE, XSD, Term, endpoint_setup, optional_select
from linking.affinity import AffinityScorer, split_words
from understanding.grading import plural, singular
from understanding.resources import known_words

SUBCLASS_OF = "http://www.w3.org/2000/01/rdf-schema#subClassOf"
YEAR = re.compile(r"^(1[0-9]{3}|20[0-9]{2})$")  # a year written as a number
_NUMBER = re.compile(r"^[+-]?\d+(?:[.,]\d+)?$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_QUOTES = "\"'“”‘’«»"
MAX_CLASSES = 2000
MAX_LITERAL_FORMS = 24
MAX_TWINS = 20
SYNONYM_FACTOR = 0.9  # a class fitting a synonym of the phrase's kind word, not the word itself
# Kind words of everyday English that name one kind ("Which vendors ..." asks for suppliers): each group's
# words stand for each other when a class phrase is linked; general English, the same for every graph.
_KIND_SYNONYMS = (("supplier", "vendor", "provider", "seller", "company", "firm"),
                  ("product", "item", "article", "merchandise"),
                  ("employee", "staff", "worker", "personnel", "staffer", "colleague"),
                  ("department", "team", "division"), ("customer", "client", "buyer"), ("part", "component"),
                  ("manager", "boss", "supervisor"), ("author", "researcher", "writer", "scholar"),
                  ("paper", "publication", "study"))
KIND_SYNONYMS = {word: tuple(other for other in group if other != word) for group in _KIND_SYNONYMS for word in group}


# A person's "team" is who reports to them, more often than their department: not read so in a relation
_NOT_RELATION_SYNONYMS = frozenset({"team", "teams"})


def kind_synonyms(phrase: str, *, relation: bool = False) -> list[str]:
    """The phrase with its last (kind) word replaced by each synonym: "vendors" -> "suppliers", ...;
    none for a kind word outside the table (nor, for a `relation` phrase, for "team")."""
    words = phrase.split()
    if not words or (relation and words[-1].lower() in _NOT_RELATION_SYNONYMS):
        return []
    last = words[-1].lower()
    is_plural = singular(last) != last and singular(last) in KIND_SYNONYMS
    others = KIND_SYNONYMS.get(singular(last) if is_plural else last, ())
    return [" ".join([*words[:-1], plural(other) if is_plural else other]) for other in others]


def kind_heads(phrase: str) -> set[str]:
    """The phrase's kind word (its last), singular, with its synonyms: "components" -> {"component", "part"}."""
    words = split_words(phrase)
    if not words:
        return set()
    head = singular(words[-1])
    return {head, *KIND_SYNONYMS.get(head, ())}


def iri_words(iri: str) -> set[str]:
    """The singular words of an IRI's local name ("BomPart" -> {"bom", "part"})."""
    return {singular(w) for w in split_words(local_name(iri))}


def records_of(iri: str, heads: set[str]) -> bool:
    """Whether a class is named with a kind word and more ("BOM Part" for "parts"): its instances may be
    records of the things the word names."""
    return any({head} < iri_words(iri) for head in heads)


def kind_affinity(scorer: AffinityScorer, phrase: str, texts: Sequence[str]) -> np.ndarray:
    """Affinity of a kind phrase to class words, a synonym of its kind word counting at `SYNONYM_FACTOR`:
    one measure for linking class phrases and for filtering answers by their classes."""
    scores = scorer.score_many(phrase, texts)
    for synonym in kind_synonyms(phrase):
        scores = np.maximum(scores, SYNONYM_FACTOR * scorer.score_many(synonym, texts))
    return scores


@dataclass(frozen=True)
class LinkedEntity:
    """A graph term for a phrase: a vertex (IRI), a literal value, or a class; scored in [0, 1]."""

    term: Term
    label: str
    score: float
    kind: str = "vertex"  # "vertex", "literal", "class" or "linked" (the things linked to a vertex)
    predicates: tuple[str, ...] = ()  # literals and linked: the predicates that carry the value in the graph
    subject_classes: tuple[tuple[str, str], ...] = ()  # literals: (predicate, class of a subject carrying it)
    subclasses: tuple[str, ...] = ()  # classes: the subclasses whose instances are members too
    twins: tuple[str, ...] = ()  # vertices: other IRIs with the very same label (one reading for all of them)
    partner: str | None = None  # linked things and values of a class phrase: the class whose words they complete
    recorded_by: str | None = None  # classes: the record class whose instances hold these things (BomPart: Hardware)

    @property
    def is_literal(self) -> bool:
        return self.kind == "literal"

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"iri" if isinstance(self.term, ox.NamedNode) else "value": self.term.value,
                                  "label": self.label, "score": round(self.score, 4)}
        if self.kind != "vertex":
            out["kind"] = self.kind
        if self.twins:
            out["same_label"] = list(self.twins)
        return out

    @property
    def iris(self) -> tuple[str, ...]:
        """The vertex and its twins."""
        return (self.term.value, *self.twins)


@dataclass
class NodeLinks:
    """The ranked candidates of one PGP node phrase."""

    phrase: str
    candidates: list[LinkedEntity] = field(default_factory=list)
    kind: str = "entity"  # "entity" or "class"

    def to_dict(self) -> dict[str, object]:
        return {"phrase": self.phrase, "kind": self.kind, "candidates": [c.to_dict() for c in self.candidates]}


def literal_forms(phrase: str) -> list[ox.Literal]:
    """The literal terms a question value may be stored as: strings in a few casings, numbers, dates."""
    text = phrase.strip().strip(_QUOTES).strip()
    if not text:
        return []
    forms: list[ox.Literal] = []
    for variant in dict.fromkeys([text, text.title(), text.lower(), text.upper(), text[:1].upper() + text[1:]]):
        forms.append(ox.Literal(variant))
        forms.append(ox.Literal(variant, language="en"))
    compact = text.replace(",", "") if re.fullmatch(r"[+-]?\d{1,3}(,\d{3})+(\.\d+)?", text) else text
    if _NUMBER.match(compact):
        number = compact.replace(",", ".")
        if re.fullmatch(r"[+-]?\d+", number):
            forms.append(ox.Literal(str(int(number)), datatype=ox.NamedNode(XSD + "integer")))
            forms.append(ox.Literal(str(int(number)), datatype=ox.NamedNode(XSD + "int")))
        forms.append(ox.Literal(number if "." in number else number + ".0", datatype=ox.NamedNode(XSD + "decimal")))
        forms.append(ox.Literal(number, datatype=ox.NamedNode(XSD + "double")))
        if YEAR.match(number):
            forms.append(ox.Literal(number, datatype=ox.NamedNode(XSD + "gYear")))
    if _DATE.match(text):
        forms.append(ox.Literal(text, datatype=ox.NamedNode(XSD + "date")))
    return forms


def unknown_words(phrase: str) -> list[str]:
    """Words of the phrase no English vocabulary knows (nor their singular): misspelt, or names. The
    text search may find them spelt nearly so ("Maintanance", "Kutner") where nothing is spelt so;
    known words ("German", "gauges") are never read as typos of others ("Germany", "Gauge")."""
    known = known_words()
    return [w for w in re.findall(r"[a-z]+", phrase.lower()) if known and w not in known and singular(w) not in known
            and not (w.endswith("s") and w[:-1] in known)]


def is_value_phrase(phrase: str) -> bool:
    """Numbers, years, dates and quoted titles are values first: they are matched as literals."""
    text = phrase.strip()
    bare = text.strip(_QUOTES)
    return bool(_NUMBER.match(bare.replace(",", "")) or _DATE.match(bare) or (text[:1] in _QUOTES and len(bare) > 0))


def local_name(iri: str) -> str:
    """The last segment of an IRI (after #, / or :), the best words an unlabelled term has."""
    stripped = iri.rstrip("/#")
    cut = max(stripped.rfind("#"), stripped.rfind("/"), stripped.rfind(":"))
    return stripped[cut + 1:] if cut >= 0 else stripped


def describe_class(iri: str, label: str | None) -> str:
    return label or " ".join(split_words(local_name(iri)))


class EntityLinker:
    """Links node phrases to vertices, literal values and classes of one endpoint."""

    def __init__(self, scorer: AffinityScorer) -> None:
        self.scorer = scorer
        self._classes: dict[str, list[tuple[str, str]]] = {}
        self._subclasses: dict[str, dict[str, tuple[str, ...]]] = {}
        self._class_locks: dict[str, asyncio.Lock] = {}
        self._held: dict[tuple[str, str, str], str | None] = {}

    async def link_entities(self, phrase: str, endpoint: Endpoint, *, max_vertices: int = 400,
                            top_k: int = 1) -> list[LinkedEntity]:
        """Vertices whose label matches `phrase` (one text-search request), the best `top_k` by affinity.

        Vertices whose label scores exactly as the k-th are kept too (up to 5): affinity cannot tell
        equal labels apart, the graph (relation linking, execution) can. Vertices with the very same
        label ("Network Driver" x 3) are one reading: the question names them all (`twins`).
        """
        hits = await endpoint.search(phrase, limit=max_vertices, misspelt=unknown_words(phrase))
        if not hits:
            return []
        best: dict[str, tuple[Term, str]] = {}
        for hit in hits:
            if isinstance(hit.entity, ox.NamedNode) and hit.entity.value not in best:
                best[hit.entity.value] = (hit.entity, hit.label)
        if not best:
            return []
        items = list(best.values())
        scores = await self.scorer.ascore_many(phrase, [label for _, label in items])
        ranked = sorted(zip(items, scores, strict=True), key=lambda pair: -float(pair[1]))
        kept: list[LinkedEntity] = []
        for (term, label), score in ranked:
            same = next((i for i, k in enumerate(kept) if k.label.casefold() == label.casefold()
                         and abs(k.score - float(score)) < 1e-6), None)
            if same is not None:
                if len(kept[same].twins) < MAX_TWINS:
                    kept[same] = replace(kept[same], twins=(*kept[same].twins, term.value))
                continue
            if len(kept) >= top_k and (float(score) < kept[-1].score - 1e-6 or len(kept) >= top_k + 4):
                break
            kept.append(LinkedEntity(term, label, float(score)))
        return kept

    async def link_literals(self, phrases: Sequence[str], endpoint: Endpoint,
                            extra_forms: dict[str, Iterable[str]] | None = None) -> dict[str, list[LinkedEntity]]:
        """Literal values of the graph equal to the phrases (one request for all phrases).

        A value counts only when a predicate other than the label predicates carries it: a literal
        that is only ever a label names a vertex, which entity linking finds.
        """
        forms: dict[ox.Literal, str] = {}
        for phrase in phrases:
            candidates = literal_forms(phrase)
            for text in (extra_forms or {}).get(phrase, ()):
                candidates.extend(literal_forms(text)[:4])
            for form in candidates[:MAX_LITERAL_FORMS]:
                forms.setdefault(form, phrase)
        if not forms:
            return {}
        profile = await endpoint.profile()
        label_predicates = set(profile.label_predicates)
        values = " ".join(str(form) for form in forms)
        query = (f"SELECT DISTINCT ?o ?p ?t WHERE {{ VALUES ?o {{ {values} }} ?s ?p ?o "
                 f"OPTIONAL {{ ?s <{RDF_TYPE}> ?t }} }} LIMIT 1000")
        result = await optional_select(endpoint.sparql, query)
        if result is None:
            return {}
        found: dict[str, dict[ox.Literal, set[str]]] = {}
        ends: dict[ox.Literal, set[tuple[str, str]]] = {}
        for row in result:
            term, predicate, kind = row.get("o"), row.get("p"), row.get("t")
            if not isinstance(term, ox.Literal) or not isinstance(predicate, ox.NamedNode):
                continue
            if predicate.value in label_predicates:
                continue
            phrase = forms.get(term) or _match_form(term, forms)
            if phrase is None:
                continue
            found.setdefault(phrase, {}).setdefault(term, set()).add(predicate.value)
            if isinstance(kind, ox.NamedNode):
                ends.setdefault(term, set()).add((predicate.value, kind.value))
        out: dict[str, list[LinkedEntity]] = {}
        for phrase, terms in found.items():
            linked = []
            for term, predicates in terms.items():
                score = max(self.scorer.score(phrase, term.value), 0.99 if term.value.strip() else 0.0)
                linked.append(LinkedEntity(term, term.value, score, "literal", tuple(sorted(predicates)),
                                           tuple(sorted(ends.get(term, ())))))
            out[phrase] = sorted(linked, key=lambda e: -e.score)[:4]
        return out

    async def classes(self, endpoint: Endpoint) -> list[tuple[str, str]]:
        """The graph's classes with their words (label or local name); fetched once per endpoint.

        Besides the classes that have instances, superclasses declared with rdfs:subClassOf count
        ("products" -> Product, whose instances are typed Hardware or Service)."""
        key = endpoint.config.cache_key
        if key in self._classes:
            return self._classes[key]
        lock = self._class_locks.setdefault(key, asyncio.Lock())
        async with lock:
            if key not in self._classes:
                with endpoint_setup():
                    await self._fetch_classes(endpoint)
        return self._classes[key]

    async def _fetch_classes(self, endpoint: Endpoint) -> None:
        """The class list and hierarchy, with class labels (`classes`)."""
        key = endpoint.config.cache_key
        query = f"SELECT DISTINCT ?c WHERE {{ ?x <{RDF_TYPE}> ?c }} LIMIT {MAX_CLASSES}"
        hierarchy = f"SELECT DISTINCT ?s ?o WHERE {{ ?s <{SUBCLASS_OF}> ?o }} LIMIT {MAX_CLASSES}"
        result, pairs = await asyncio.gather(endpoint.sparql.select(query),
                                             self._optional_select(endpoint, hierarchy))
        iris = [t for t in result.column("c") if isinstance(t, ox.NamedNode)]
        parents: dict[str, set[str]] = {}
        for row in pairs:
            child, parent = row.get("s"), row.get("o")
            if isinstance(child, ox.NamedNode) and isinstance(parent, ox.NamedNode) and child != parent:
                parents.setdefault(child.value, set()).add(parent.value)
        subclasses = _descendants(parents, {t.value for t in iris})
        iris += [ox.NamedNode(c) for c in sorted(subclasses) if c not in {t.value for t in iris}]
        labels = await endpoint.labels(iris)
        self._subclasses[key] = subclasses
        self._classes[key] = [(t.value, describe_class(t.value, labels.get(t.value))) for t in iris]

    async def superclasses(self, endpoint: Endpoint) -> dict[str, tuple[str, ...]]:
        """Each instantiated class -> its declared superclasses (transitively): a Hardware answer is
        also a Product ("Which products ..."). Fetched with `classes`."""
        await self.classes(endpoint)
        found: dict[str, list[str]] = {}
        for parent, children in self._subclasses.get(endpoint.config.cache_key, {}).items():
            for child in children:
                found.setdefault(child, []).append(parent)
        return {child: tuple(sorted(parents)) for child, parents in found.items()}

    @staticmethod
    async def _optional_select(endpoint: Endpoint, query: str) -> list[dict[str, Term]]:
        result = await optional_select(endpoint.sparql, query)
        return list(result) if result is not None else []

    async def link_classes(self, phrase: str, endpoint: Endpoint, *, top_k: int = 2,
                           min_score: float = 0.35) -> list[LinkedEntity]:
        """Classes whose label (or local name) matches a class phrase ("singers" -> :singer), or a
        synonym of its kind word ("vendors" -> :Supplier, `kind_synonyms`)."""
        classes = await self.classes(endpoint)
        if not classes:
            return []
        subclasses = self._subclasses.get(endpoint.config.cache_key, {})
        scores = await asyncio.to_thread(kind_affinity, self.scorer, phrase, [words for _, words in classes])
        acronym = _ACRONYM.fullmatch(phrase.strip())
        if acronym is not None:  # "BOMs": the class abbreviated so ("Bill of Material (BOM)") fits best
            scores = [max(float(score), ABBREVIATION_SCORE) if acronym.group(1) in _abbreviations(words) else score
                      for (_, words), score in zip(classes, scores, strict=True)]
        ranked = sorted(zip(classes, scores, strict=True), key=lambda pair: -float(pair[1]))
        linked = [LinkedEntity(ox.NamedNode(iri), words, float(score), "class", subclasses=subclasses.get(iri, ()))
                  for (iri, words), score in ranked[:top_k] if float(score) >= min_score]
        words_of = dict(classes)
        for entity in list(linked):  # "parts": the BOM parts, and the hardware they record
            held = await self._held_class(entity.term.value, phrase, endpoint)
            if held is not None and held not in {e.term.value for e in linked}:
                linked.append(LinkedEntity(ox.NamedNode(held), words_of.get(held, describe_class(held, None)),
                                           entity.score * RECORDED_FACTOR, "class", subclasses=subclasses.get(held, ()),
                                           recorded_by=entity.term.value))
        return linked

    async def _held_class(self, record_class: str, phrase: str, endpoint: Endpoint) -> str | None:
        """For a class named with the phrase's kind word and more ("BOM Part" for "parts"), whose
        instances record a thing under a link named with that word (`hasPart`), the class of the
        things recorded (Hardware): "parts" are those things too. None for any other class; one request
        per class and endpoint, kept."""
        heads = kind_heads(phrase)
        if not records_of(record_class, heads):
            return None
        key = (endpoint.config.cache_key, record_class, " ".join(sorted(heads)))
        if key not in self._held:
            query = (f"SELECT ?p ?c (COUNT(DISTINCT ?x) AS ?n) WHERE {{ ?r <{RDF_TYPE}> <{record_class}> ; ?p ?x . "
                     f"?x <{RDF_TYPE}> ?c }} GROUP BY ?p ?c ORDER BY DESC(?n) LIMIT 20")
            with endpoint_setup():
                rows = await self._optional_select(endpoint, query)
            held = [row["c"].value for row in rows if isinstance(row.get("p"), ox.NamedNode)
                    and isinstance(row.get("c"), ox.NamedNode) and row["c"].value != record_class
                    and heads & iri_words(row["p"].value)]
            self._held[key] = held[0] if held else None
        return self._held[key]


_ACRONYM = re.compile(r"([A-Z]{2,})s?")
ABBREVIATION_SCORE = 0.95  # a class phrase that is the class's abbreviation
RECORDED_FACTOR = 0.98  # the things a record class records ("parts": the hardware the BOM parts record)


def _abbreviations(words: str) -> set[str]:
    """What a class's label abbreviates to: a stated one ("Bill of Material (BOM)") and its words'
    initials with and without the small words ("BOM", "BM")."""
    stated = set(re.findall(r"\(([A-Z]{2,})\)", words))
    plain = [w for w in split_words(re.sub(r"\([^)]*\)", " ", words)) if w]
    initials = "".join(w[0] for w in plain).upper()
    content = "".join(w[0] for w in plain if w.lower() not in ("of", "the", "and", "for", "a", "an")).upper()
    return stated | ({initials, content} if len(plain) > 1 else set())


def _descendants(parents: dict[str, set[str]], instantiated: set[str]) -> dict[str, tuple[str, ...]]:
    """Each superclass -> its instantiated descendants (transitively), for classes that have any."""
    out: dict[str, set[str]] = {}
    for child in instantiated:
        seen: set[str] = set()
        frontier = list(parents.get(child, ()))
        while frontier:
            parent = frontier.pop()
            if parent in seen:
                continue
            seen.add(parent)
            out.setdefault(parent, set()).add(child)
            frontier.extend(parents.get(parent, ()))
    return {parent: tuple(sorted(children)) for parent, children in out.items()}


def _match_form(term: ox.Literal, forms: dict[ox.Literal, str]) -> str | None:
    """Engines may return a value in another lexical form than asked (1995 vs 1995.0)."""
    for form, phrase in forms.items():
        if form.value == term.value or form.value.lower() == term.value.lower():
            return phrase
    return None
