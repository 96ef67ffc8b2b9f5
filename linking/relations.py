"""Relation linking: the predicates around the linked vertices, scored against the relation phrase.

KGQAN (SIGMOD 2023, section 5) collects the outgoing and incoming predicates of the candidate vertices
of an edge and scores their words by semantic affinity. Here every vertex of the question is asked in
ONE request (VALUES, both directions), predicates of unlabelled graphs are described by their IRI's
local name split into words, and edges between two unknowns ("?u1 | age | ?u2") get the predicates
around a sample of the anchored unknown's bindings (instances of its class, or neighbours of a
linked vertex).

The same request also says what each predicate leads to: the classes of the things at its other
end, and whether its values are literals. Questions often name the other end rather than the
relation ("Which department does Karen work in?" -> `?u1 | department | Karen`): a predicate whose
other end is a Department fits the phrase "department" even though it is called `memberOf`, so a
predicate scores the better of its own words and (slightly discounted) its other end's class.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

import pyoxigraph as ox

from gateway.endpoint import Endpoint
from gateway.sparql import optional_select, term_to_sparql
from linking.affinity import AffinityScorer, content_words, split_words, unglued
from linking.entities import RDF_TYPE, SYNONYM_FACTOR, LinkedEntity, kind_synonyms, local_name
from linking.naming import OWN_NAME_SCORE, naming_score
from understanding.grading import singular

OUT = "out"  # the anchor (vertex, literal's subject side or anchored unknown) is the subject
IN = "in"  # the anchor is the object
MAX_PREDICATE_ROWS = 5000
ANCHOR_SAMPLE = 200
MAX_GLOBAL_PREDICATES = 2000
CLASS_WEIGHT = 0.9  # a predicate matched through its other end's class, not its own words
CLASS_BONUS = 0.05  # added for the other end's class fitting the phrase as well
# added for a predicate named after the kind of the thing it is asked of ("the id of the pet": `petid`, not `stuid`
# of the same pet-owning record), which the phrase does not say: it tells near ties apart
OWN_KIND_BONUS = 0.02
# the two ends of a span ("effective start date": `date_effective_from`, not `date_effective_to`); "from" and "to" are
# stop words to the affinity scorer, which therefore scores both alike: the end a phrase names adds (or the other
# end takes away) this much
SPAN_ENDS = (frozenset({"start", "starts", "started", "starting", "begin", "begins", "began", "beginning", "from", "since"}),
             frozenset({"end", "ends", "ended", "ending", "finish", "finishes", "finished", "until", "till", "to"}))
SPAN_END_BONUS = 0.02
HOP_FACTOR = 0.9  # a predicate of the thing holding a question value, one hop away from the value
PATH_FACTOR = 0.85  # a predicate of a thing next to the linked vertex (vertex -> ?x -> answer, or ?x -> vertex)
NEIGHBOUR_SAMPLE = 400
UNANCHORED_SAMPLE = 2000
HOP_TIMEOUT_S = 5.0  # two-hop lookups are optional: a slow one is given up, not waited for
K = TypeVar("K")  # what a two-hop lookup groups its rows by
SYNONYM_MIN_FIT = 0.5  # a synonym of the phrase's kind word counts only where it names the predicate
PARAPHRASE_FACTOR = 0.9  # a predicate fitting a paraphrase of the phrase, not the phrase itself
# Relation phrases whose usual predicate shares no word with them ("Who reports to X?" is `hasManager`):
# general English, the same for every graph; each phrase (matched as a whole, by its words) with the
# words a predicate for it is often named by.
PARAPHRASES: dict[tuple[str, ...], str] = {
    ("reports", "to"): "manager supervisor", ("report", "to"): "manager supervisor",
    ("reporting", "to"): "manager supervisor", ("works", "for"): "employer member of",
    ("work", "for"): "employer member of", ("works", "in"): "member of department",
    ("work", "in"): "member of department", ("belongs", "to"): "member of part of",
    ("belong", "to"): "member of part of", ("married", "to"): "spouse", ("born", "in"): "birth place",
    ("wrote",): "author", ("written", "by"): "author", ("leads",): "head manager", ("heads",): "head manager",
    ("led", "by"): "head manager", ("headed", "by"): "head manager",
    **dict.fromkeys([("delivers",), ("deliver",), ("delivered",), ("delivered", "by"), ("delivering",), ("provides",),
                     ("provide",), ("provided", "by"), ("providing",)], "supplier supplies provider"),
    **dict.fromkeys([("located",), ("located", "in"), ("located", "at"), ("based",), ("based", "in"), ("situated", "in"),
                     ("where",)], "location address locality place"),
    # "Where did X appear?", "papers that appeared at ICSA": where a work was published
    **dict.fromkeys([("appear",), ("appeared",), ("appears",), ("appear", "in"), ("appeared", "in"), ("appears", "in"),
                     ("appear", "at"), ("appeared", "at"), ("appears", "at")], "venue conference journal"),
    **dict.fromkeys([("email", "address"), ("email", "addresses"), ("e-mail", "address"), ("e-mail", "addresses"),
                     ("mail", "address")], "email"),
    **dict.fromkeys([("knows", "about"), ("know", "about"), ("specializes", "in"), ("specialize", "in"),
                     ("specialises", "in"), ("specialise", "in"), ("expert", "on"), ("expert", "in"), ("expert", "for")],
                    "expertise skill"),
    # "the titles of the ECSA papers": their labels (not the authors, whose values are names too)
    **dict.fromkeys([("name",), ("names",), ("title",), ("titles",)], "label name title"),
    # a thing's time superlative ranks it by when it happened ("the most recent paper" by its year, "the earliest vote")
    **dict.fromkeys([("recent",), ("most", "recent"), ("newest",), ("latest",), ("earliest",), ("most", "recently")],
                    "date year"),
    # "the youngest singer" where singers have a birth year and no age (the order turns: `_age_held_as_time_point`)
    ("age",): "birth date year born",
}


_NAMING_PHRASES = frozenset({("name",), ("names",), ("title",), ("titles",)})


def table_of(predicate: str) -> str:
    """The table a relational export's column belongs to (`.../airlines#airline` -> `.../airlines`)."""
    return predicate.rsplit("#", 1)[0] if "#" in predicate else predicate.rsplit("/", 1)[0]


_ADVERBS = frozenset({"directly", "immediately", "currently", "still", "also", "actually", "mainly", "only"})


# "published before", "hired after", "founded since": a relation ending in a word of time compares when
_TIME_ENDINGS = frozenset({"before", "after", "since", "until", "till"})
_NOT_TIME = frozenset({"named", "called", "looks", "look", "looking", "looked", "asked", "ask", "asks", "inquired"})


def paraphrase(phrase: str) -> str | None:
    """The words a predicate for `phrase` is often named by, if the phrase (its adverbs left out:
    "reporting directly to") is a known paraphrase or compares a time ("published before")."""
    words = tuple(w for w in phrase.lower().split() if w not in _ADVERBS)
    if words in PARAPHRASES:
        return PARAPHRASES[words]
    if len(words) > 1 and words[-1] in _TIME_ENDINGS and not _NOT_TIME & set(words):
        return "date year"
    return None


@dataclass(frozen=True)
class LinkedPredicate:
    """A predicate for a relation phrase, with the direction seen from the edge's anchor."""

    iri: str
    label: str
    score: float
    direction: str  # OUT: anchor --p--> other; IN: other --p--> anchor
    via_class: str | None = None  # the other end's class that made the predicate fit the phrase
    literal: bool = False  # its values (seen from the anchor) are literals
    to_things: bool = False  # its values (seen from the anchor) were seen, and all are things (IRIs)
    through: str | None = None  # two hops: the first hop's predicate, to an intermediate thing this one starts from
    through_out: bool = False  # the first hop goes out of the anchor (anchor -through-> ?x); else ?x -through-> anchor
    value_of: str | None = None  # one hop more, out to the number or date of the thing this one leads to (`amount`)
    members: bool = False  # `value_of` reaches a container's members: a number compared with them counts them
    then: str | None = None  # one hop more, from the thing this one leads to on to the other end (a link table's row)
    then_out: bool = False  # that hop goes out of the thing in between (?mid -then-> other); else other -then-> ?mid

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"iri": self.iri, "label": self.label, "score": round(self.score, 4),
                                  "direction": self.direction}
        if self.via_class:
            out["via_class"] = self.via_class
        if self.through:
            out["through"] = self.through
            out["through_direction"] = OUT if self.through_out else IN
        if self.value_of:
            out["value_of"] = self.value_of
        if self.then:
            out["then"] = self.then
            out["then_direction"] = OUT if self.then_out else IN
        return out


@dataclass(frozen=True)
class PredicateSet:
    """Predicates found around one anchor: (iri, direction) pairs, the classes at their other end,
    which of them lead to literals and which were seen leading to things (IRIs)."""

    pairs: frozenset[tuple[str, str]]
    ends: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict, compare=False)
    literal: frozenset[tuple[str, str]] = frozenset()
    things: frozenset[tuple[str, str]] = frozenset()

    def outgoing(self) -> PredicateSet:
        """The same set with only the predicates that go out of the anchor."""
        return replace(self, pairs=frozenset(pair for pair in self.pairs if pair[1] == OUT))


class _Collector:
    """Accumulates (predicate, direction, other end's class, literal) rows into a `PredicateSet`."""

    def __init__(self) -> None:
        self.pairs: set[tuple[str, str]] = set()
        self.ends: dict[tuple[str, str], set[str]] = {}
        self.literal: set[tuple[str, str]] = set()
        self.things: set[tuple[str, str]] = set()

    def add(self, row: dict) -> None:  # type: ignore[type-arg]
        predicate, direction = row.get("p"), row.get("dir")
        if not isinstance(predicate, ox.NamedNode) or direction is None:
            return
        pair = (predicate.value, direction.value)
        self.pairs.add(pair)
        kind = row.get("t")
        if isinstance(kind, ox.NamedNode):
            self.ends.setdefault(pair, set()).add(kind.value)
        flag = row.get("lit")
        if flag is not None:
            (self.literal if flag.value in ("true", "1") else self.things).add(pair)

    def result(self) -> PredicateSet:
        return PredicateSet(frozenset(self.pairs), {k: frozenset(v) for k, v in self.ends.items()},
                            frozenset(self.literal), frozenset(self.things))


def _around(variable: str, binding: str) -> str:
    """Both directions of predicates around `variable` (bound by `binding` in each branch: Virtuoso
    loses a VALUES binding declared outside a UNION that is followed by OPTIONAL), with the other
    end's class and whether it is a literal."""
    return (f'{{ {binding} {variable} ?p ?kgqaOther BIND("{OUT}" AS ?dir) {_ENDS} }} UNION '
            f'{{ {binding} ?kgqaOther ?p {variable} BIND("{IN}" AS ?dir) {_ENDS} }}')


_ENDS = f"OPTIONAL {{ ?kgqaOther <{RDF_TYPE}> ?t }} BIND(isLiteral(?kgqaOther) AS ?lit)"  # the other end's class, literal?


def _sample(anchor_pattern: str, variable: str) -> str:
    """A bounded sample of the values `variable` takes in `anchor_pattern` (a WHERE body), as a subquery."""
    return f"{{ SELECT DISTINCT {variable} WHERE {{ {anchor_pattern} }} LIMIT {ANCHOR_SAMPLE} }}"


def _first_predicate(row: dict) -> str | None:  # type: ignore[type-arg]
    """The grouping key of rows found one hop beyond sampled things: the first hop's predicate."""
    first = row.get("kgqaFirst")
    return first.value if isinstance(first, ox.NamedNode) else None


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
        query = (f"SELECT DISTINCT ?v ?p ?dir ?t ?lit WHERE {{ {_around('?v', f'VALUES ?v {{ {values} }}')} }} "
                 f"LIMIT {MAX_PREDICATE_ROWS}")
        result = await endpoint.sparql.select(query)
        found: dict[str, _Collector] = {iri: _Collector() for iri in iris}
        for row in result:
            vertex = row.get("v")
            if isinstance(vertex, ox.NamedNode):
                found.setdefault(vertex.value, _Collector()).add(row)
        return {iri: collector.result() for iri, collector in found.items()}

    async def predicates_of_bindings(self, anchor_pattern: str, variable: str, endpoint: Endpoint) -> PredicateSet:
        """Predicates around a sample of the values `variable` takes in `anchor_pattern` (a WHERE body)."""
        query = (f"SELECT DISTINCT ?p ?dir ?t ?lit WHERE {{ {_around(variable, _sample(anchor_pattern, variable))} }} "
                 f"LIMIT {MAX_PREDICATE_ROWS}")
        result = await optional_select(endpoint.sparql, query)
        if result is None:
            return PredicateSet(frozenset())
        collector = _Collector()
        for row in result:
            collector.add(row)
        return collector.result()

    async def predicates_of_holders(self, literals: Sequence[LinkedEntity],
                                    endpoint: Endpoint) -> dict[tuple[str, str], PredicateSet]:
        """Predicates around the things that hold each literal value, per (value, carrying predicate),
        in one request: "the abbreviation of Delta Airlines" is `?x airline "Delta Airlines" ;
        abbreviation ?answer` in graphs where names are plain attributes of rows."""
        pairs = sorted({(term_to_sparql(lit.term), p) for lit in literals if lit.is_literal for p in lit.predicates})
        if not pairs:
            return {}
        values = " ".join(f"({value} <{p}>)" for value, p in pairs)
        binding = f"VALUES (?kgqaValue ?kgqaCarrier) {{ {values} }} ?kgqaHolder ?kgqaCarrier ?kgqaValue ."
        query = (f"SELECT DISTINCT ?kgqaValue ?kgqaCarrier ?p ?dir ?t ?lit WHERE "
                 f"{{ {_around('?kgqaHolder', binding)} }} LIMIT {MAX_PREDICATE_ROWS}")

        def key(row: dict) -> tuple[str, str] | None:  # type: ignore[type-arg]
            value, carrier = row.get("kgqaValue"), row.get("kgqaCarrier")
            predicate, direction = row.get("p"), row.get("dir")
            if value is None or not isinstance(carrier, ox.NamedNode):
                return None
            if isinstance(predicate, ox.NamedNode) and predicate.value == carrier.value and \
                    direction is not None and direction.value == OUT:
                return None  # the value itself
            return value.value, carrier.value

        return await _grouped(endpoint, query, key)

    async def predicates_beyond(self, vertices: Sequence[LinkedEntity],
                                endpoint: Endpoint) -> dict[tuple[str, str, bool], PredicateSet]:
        """Outgoing predicates of the things next to each vertex, per (vertex, first predicate, whether
        the first hop goes out of the vertex), in one request over bounded samples of each direction:
        "the research object of <paper>" is `<paper> :contribution ?c . ?c :researchObject ?answer` in
        graphs that hang facts off intermediate nodes, and "the suppliers of <category Encoder>" is
        `?p :hasCategory <Encoder> . ?p :hasSupplier ?answer` when the question leaves the products unsaid
        (back along the same predicate, `?p :hasCategory ?other`, only finds siblings and is left out); and
        the things pointing to those that point to the vertex: "the bills of material that use <part>" is
        `?answer :hasBomPart ?record . ?record :hasPart <part>` where a record holds a part and its quantity."""
        iris = list(dict.fromkeys(v.term.value for v in vertices if isinstance(v.term, ox.NamedNode)))
        if not iris:
            return {}
        values = " ".join(f"<{iri}>" for iri in iris)

        def sample(way: str, first_hop: str) -> str:
            return (f'{{ SELECT ?v ?kgqaFirst ?kgqaMid ("{way}" AS ?kgqaWay) WHERE {{ VALUES ?v {{ {values} }} '
                    f"{first_hop} FILTER(isIRI(?kgqaMid) && ?kgqaFirst != <{RDF_TYPE}> && ?kgqaMid != ?v) }} "
                    f"LIMIT {NEIGHBOUR_SAMPLE} }}")

        outgoing, incoming = sample(OUT, "?v ?kgqaFirst ?kgqaMid"), sample(IN, "?kgqaMid ?kgqaFirst ?v")
        query = (f"SELECT DISTINCT ?v ?kgqaFirst ?kgqaWay ?p ?dir ?t ?lit WHERE {{ {{ {{ {outgoing} }} UNION "
                 f'{{ {incoming} }} ?kgqaMid ?p ?kgqaOther FILTER(?kgqaOther != ?v && (?kgqaWay = "{OUT}" || ?p != ?kgqaFirst)) '
                 f'BIND("{OUT}" AS ?dir) OPTIONAL {{ ?kgqaOther <{RDF_TYPE}> ?t }} BIND(isLiteral(?kgqaOther) AS ?lit) }} '
                 f'UNION {{ {incoming} ?kgqaOther ?p ?kgqaMid FILTER(?kgqaOther != ?v && ?p != <{RDF_TYPE}>) '
                 f'BIND("{IN}" AS ?dir) OPTIONAL {{ ?kgqaOther <{RDF_TYPE}> ?t }} BIND(false AS ?lit) }} '
                 f"}} LIMIT {MAX_PREDICATE_ROWS}")

        def key(row: dict) -> tuple[str, str, bool] | None:  # type: ignore[type-arg]
            vertex, first, way = row.get("v"), row.get("kgqaFirst"), row.get("kgqaWay")
            if isinstance(vertex, ox.NamedNode) and isinstance(first, ox.NamedNode) and way is not None:
                return vertex.value, first.value, way.value == OUT
            return None

        return await _grouped(endpoint, query, key)

    async def predicates_through_bindings(self, anchor_pattern: str, variable: str,
                                          endpoint: Endpoint) -> dict[str, PredicateSet]:
        """Predicates around the things a sample of `variable`'s values (bound by `anchor_pattern`) point
        to, per first predicate, in one request: "the suppliers of the parts of BOM X" is `X :hasBomPart
        ?bp . ?bp :hasPart ?part . ?part :hasSupplier ?answer` where a bill of material lists its parts
        through records of each part and its quantity."""
        mids = (f"{{ SELECT DISTINCT ?kgqaFirst ?kgqaMid WHERE {{ {_sample(anchor_pattern, variable)} "
                f"{variable} ?kgqaFirst ?kgqaMid . FILTER(isIRI(?kgqaMid) && ?kgqaFirst != <{RDF_TYPE}> && "
                f"?kgqaMid != {variable}) }} LIMIT {NEIGHBOUR_SAMPLE} }}")
        query = (f'SELECT DISTINCT ?kgqaFirst ?p ?dir ?t ?lit WHERE {{ {{ {mids} ?kgqaMid ?p ?kgqaOther '
                 f'FILTER(?p != <{RDF_TYPE}>) BIND("{OUT}" AS ?dir) {_ENDS} }} UNION {{ {mids} ?kgqaOther ?p ?kgqaMid '
                 f'FILTER(?p != ?kgqaFirst) BIND("{IN}" AS ?dir) {_ENDS} }} }} LIMIT {MAX_PREDICATE_ROWS}')
        return await _grouped(endpoint, query, _first_predicate)

    async def predicates_beyond_bindings(self, anchor_pattern: str | None, variable: str, firsts: Sequence[str],
                                         endpoint: Endpoint) -> dict[str, PredicateSet]:
        """Predicates to numbers or dates of the things that a sample of `variable`'s values (bound by
        `anchor_pattern`, if any) points to by each of the `firsts` predicates, in one request;
        `literal` marks them."""
        if not firsts:
            return {}
        members = ", ".join(f"<{iri}>" for iri in firsts)  # FILTER IN, not VALUES: Virtuoso times out on VALUES here
        bound = f"{_sample(anchor_pattern, variable)} " if anchor_pattern else ""
        limit = "" if anchor_pattern else f" LIMIT {UNANCHORED_SAMPLE}"  # anchored: bounded by the anchor sample
        sample = (f"{{ SELECT DISTINCT ?kgqaFirst ?kgqaMid WHERE {{ {bound}{variable} ?kgqaFirst ?kgqaMid . "
                  f"FILTER(isIRI(?kgqaMid) && ?kgqaFirst IN ({members})) }}{limit} }}")
        number = 'REGEX(STR(?kgqaOther), "^[+-]?[0-9]+([.][0-9]+)?$|^[0-9]{4}-[0-9]{2}")'
        query = (f'SELECT DISTINCT ?kgqaFirst ?p ?dir ?lit WHERE {{ {sample} ?kgqaMid ?p ?kgqaOther '
                 f'FILTER(isLiteral(?kgqaOther)) BIND("{OUT}" AS ?dir) '
                 f"BIND((isNumeric(?kgqaOther) || {number}) AS ?lit) }} LIMIT {MAX_PREDICATE_ROWS}")
        return await _grouped(endpoint, query, _first_predicate)

    async def attributes_of_neighbours(self, anchor_pattern: str, variable: str, outgoing: Sequence[str],
                                       incoming: Sequence[str], endpoint: Endpoint) -> dict[tuple[str, bool], PredicateSet]:
        """Predicates to literals of the things next to a sample of `variable`'s values (bound by
        `anchor_pattern`): those they point to by the `outgoing` predicates and those pointing to them
        by the `incoming` ones (tables joined by a foreign key, either way), per (first predicate,
        whether it goes out of the bound things), in one request."""
        if not outgoing and not incoming:
            return {}
        bound = f"{_sample(anchor_pattern, variable)} "

        def sample(way: str, first_hop: str, firsts: Sequence[str]) -> str:
            members = ", ".join(f"<{iri}>" for iri in firsts)
            return (f'{{ {{ SELECT DISTINCT ?kgqaFirst ?kgqaMid ("{way}" AS ?kgqaWay) WHERE {{ {bound}{first_hop} '
                    f"FILTER(isIRI(?kgqaMid) && ?kgqaFirst IN ({members})) }} LIMIT {NEIGHBOUR_SAMPLE} }} }}")

        samples = [sample(way, hop, firsts) for way, hop, firsts in (
            (OUT, f"{variable} ?kgqaFirst ?kgqaMid", outgoing), (IN, f"?kgqaMid ?kgqaFirst {variable}", incoming))
            if firsts]
        query = (f"SELECT DISTINCT ?kgqaFirst ?kgqaWay ?p ?dir ?lit WHERE {{ {' UNION '.join(samples)} "
                 f'?kgqaMid ?p ?kgqaOther FILTER(isLiteral(?kgqaOther)) BIND("{OUT}" AS ?dir) '
                 f"BIND(isLiteral(?kgqaOther) AS ?lit) }} LIMIT {MAX_PREDICATE_ROWS}")

        def key(row: dict) -> tuple[str, bool] | None:  # type: ignore[type-arg]
            first, way = row.get("kgqaFirst"), row.get("kgqaWay")
            if isinstance(first, ox.NamedNode) and way is not None:
                return first.value, way.value == OUT
            return None

        return await _grouped(endpoint, query, key)

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
                   descriptions: dict[str, str] | None = None,
                   class_words: dict[str, str] | None = None, own_kinds: Sequence[str] = ()) -> list[LinkedPredicate]:
        """The `top_k` (predicate, direction) pairs by affinity to `phrase` of the predicate's words or
        (discounted by `CLASS_WEIGHT`) of the words of a class at its other end (`class_words`); a predicate
        whose words name one of `own_kinds` (the kinds of the thing the phrase is asked of) and the phrase
        does not gains `OWN_KIND_BONUS`."""
        pairs = [(iri, direction) for iri, direction in predicates.pairs if iri != RDF_TYPE]
        if not pairs:
            return []
        iris = list(dict.fromkeys(iri for iri, _ in pairs))
        words = dict(descriptions or {})
        missing = [iri for iri in iris if iri not in words]  # predicates found beyond those described (one hop on)
        if missing:
            words.update(await endpoint.describe_predicates(missing))
        # a lower-case column name may glue its words ("pettype"); camelCase and labels say where words end
        texts = [unglued(text) if local_name(iri).islower() else text for iri in iris
                 for text in [words.get(iri) or iri]]
        classes = sorted({c for pair in pairs for c in predicates.ends.get(pair, ()) if class_words and c in class_words})
        class_texts = [class_words[c] for c in classes] if class_words else []
        scores = await self.scorer.ascore_many(phrase, texts + class_texts)
        by_iri = {iri: (text, float(score)) for iri, text, score in zip(iris, texts, scores, strict=False)}
        by_class = dict(zip(classes, (float(s) for s in scores[len(texts):]), strict=True))
        other_words = paraphrase(phrase)
        if other_words is not None:  # "reports to": the predicate may be named `hasManager`
            for iri, text, score in zip(iris, texts, await self.scorer.ascore_many(other_words, texts), strict=True):
                by_iri[iri] = (text, max(by_iri[iri][1], PARAPHRASE_FACTOR * float(score)))
        if tuple(phrase.lower().split()) in _NAMING_PHRASES:  # "airline names": the table's column named after it
            for iri, text in zip(iris, texts, strict=True):
                if naming_score(iri, table_of(iri)) == OWN_NAME_SCORE:
                    by_iri[iri] = (text, max(by_iri[iri][1], PARAPHRASE_FACTOR * OWN_NAME_SCORE))
        for synonym in kind_synonyms(phrase, relation=True):  # "vendors", "boss": `hasSupplier`, `hasManager`, the class Supplier
            synonym_scores = [float(s) for s in await self.scorer.ascore_many(synonym, texts + class_texts)]
            for iri, text, score in zip(iris, texts, synonym_scores, strict=False):
                if score >= SYNONYM_MIN_FIT:
                    by_iri[iri] = (text, max(by_iri[iri][1], SYNONYM_FACTOR * score))
            for c, score in zip(classes, synonym_scores[len(texts):], strict=True):
                if score >= SYNONYM_MIN_FIT:
                    by_class[c] = max(by_class[c], SYNONYM_FACTOR * score)
        said = {singular(w) for w in content_words(phrase)}
        kinds = {singular(w) for kind in own_kinds for w in content_words(kind)} - said
        named_after_kind = {iri for iri in iris if kinds and kinds & {singular(w) for w in content_words(by_iri[iri][0])}}
        asked_end = span_end(phrase)
        named_ends = {iri: span_end(by_iri[iri][0]) for iri in iris} if asked_end is not None else {}
        linked = []
        for iri, direction in pairs:
            text, score = by_iri[iri]
            if iri in named_after_kind:  # once per predicate, not per direction
                score += OWN_KIND_BONUS
            if named_ends.get(iri) is not None:
                score += SPAN_END_BONUS if named_ends[iri] == asked_end else -SPAN_END_BONUS
            via = None
            ends = [c for c in predicates.ends.get((iri, direction), ()) if c in by_class]
            if ends:
                best = max(ends, key=lambda c: by_class[c])
                if CLASS_WEIGHT * by_class[best] > score:
                    score, via = CLASS_WEIGHT * by_class[best], best
                score += CLASS_BONUS * by_class[best]  # tells the two directions of one predicate apart
            pair = (iri, direction)
            linked.append(LinkedPredicate(iri, text, score, direction, via, pair in predicates.literal,
                                          to_things=pair in predicates.things and pair not in predicates.literal))
        linked.sort(key=lambda p: (-p.score, p.iri, p.direction))
        return linked[:top_k]


def span_end(text: str) -> int | None:
    """Which end of a span `text` names (0 the start, 1 the end; `SPAN_ENDS`), or None for neither or both."""
    words = set(split_words(text))
    named = [i for i, end in enumerate(SPAN_ENDS) if end & words]
    return named[0] if len(named) == 1 else None


async def _grouped(endpoint: Endpoint, query: str, key: Callable[[dict], K | None]) -> dict[K, PredicateSet]:  # type: ignore[type-arg]
    """Runs an optional two-hop lookup (capped at `HOP_TIMEOUT_S`; a failure finds nothing) and
    collects its (predicate, direction, class, literal) rows per `key(row)` (None: row skipped)."""
    result = await optional_select(endpoint.sparql, query, timeout_s=HOP_TIMEOUT_S)
    if result is None:
        return {}
    found: dict[K, _Collector] = {}
    for row in result:
        group = key(row)
        if group is not None:
            found.setdefault(group, _Collector()).add(row)
    return {group: collector.result() for group, collector in found.items()}


def literal_predicates(literal: LinkedEntity) -> PredicateSet:
    """Predicates that carry a linked literal value: the literal is always the object."""
    ends: dict[tuple[str, str], set[str]] = {}
    for predicate, kind in literal.subject_classes:
        ends.setdefault((predicate, IN), set()).add(kind)
    return PredicateSet(frozenset((p, IN) for p in literal.predicates), {k: frozenset(v) for k, v in ends.items()})


def sparql_term(entity: LinkedEntity) -> str:
    return term_to_sparql(entity.term)


def union(sets: Iterable[PredicateSet | None]) -> PredicateSet:
    """The predicates around several vertices read as one (vertices with the same label)."""
    pairs: set[tuple[str, str]] = set()
    ends: dict[tuple[str, str], set[str]] = {}
    literal: set[tuple[str, str]] = set()
    things: set[tuple[str, str]] = set()
    for found in sets:
        if found is None:
            continue
        pairs |= found.pairs
        literal |= found.literal
        things |= found.things
        for key, classes in found.ends.items():
            ends.setdefault(key, set()).update(classes)
    return PredicateSet(frozenset(pairs), {k: frozenset(v) for k, v in ends.items()}, frozenset(literal),
                        frozenset(things))
