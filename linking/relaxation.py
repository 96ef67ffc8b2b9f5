"""Repairs of imperfect phrase graph patterns before linking, where the pattern's own words say what
was meant: a comparison left inside a relation phrase, or a superlative left as a comparison value.

The understanding model sometimes writes "Which orchestras were founded after 2005?" as
`?u1 | founded after | 2005` (an equality with the year) instead of
`?u1 | founded | ?u2 :: filter ?u2 > 2005`, and "the highest sales" as `filter ?u2 > highest`.
Both readings can be recovered from English comparatives alone, on any graph. One reading is offered
beside the pattern rather than instead of it: a per-group count may be stored as an attribute
(`counted_as_attribute`), which only the graph can tell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from understanding.grading import (
    COMPARATIVE_PHRASES,
    COUNT_ATTRIBUTE_WORDS,
    IMPLIED_ORDER,
    SUPERLATIVE_DESCENDING,
    comparative_attribute,
    same_words,
    singular,
)
from understanding.pgp import (
    ANSWER,
    TYPE_RELATION,
    Comparison,
    Ordering,
    PhraseGraphPattern,
    PhraseTriple,
    is_unknown,
    next_unknown_number,
    node_degrees,
)

_VALUE = re.compile(r"^[+-]?\d+(?:[.,]\d+)?$|^\d{4}-\d{2}-\d{2}$")


def relax(pattern: PhraseGraphPattern) -> PhraseGraphPattern:
    """The pattern with comparisons recovered from relation phrases, superlative comparison values
    turned into an ordering, and a compared value's comparative relation ("heavier") named by the
    attribute it grades ("weight"); the pattern itself when there is nothing to repair."""
    triples: list[PhraseTriple] = []
    comparisons = list(pattern.comparisons)
    next_unknown = next_unknown_number(pattern.unknowns())
    for triple in pattern.triples:
        split = None if triple.is_type else _comparative(triple)
        if split is None:
            triples.append(triple)
            continue
        relation, operator, thing, value = split
        variable = f"?unknown{next_unknown}"
        next_unknown += 1
        subject, obj = (thing, variable) if triple.subject == thing else (variable, thing)
        triples.append(PhraseTriple(subject, relation, obj))
        comparisons.append(Comparison(variable, operator, value))
    ordering = pattern.ordering
    triples, ordering = _implied_orderings(triples, ordering, pattern)
    kept: list[Comparison] = []
    for comparison in comparisons:
        word = comparison.value.strip().strip("\"'").lower()
        if word in SUPERLATIVE_DESCENDING and ordering is None:
            ordering = Ordering(comparison.node, descending=SUPERLATIVE_DESCENDING[word], limit=1)
        elif word not in SUPERLATIVE_DESCENDING:
            kept.append(comparison)
    compared = {c.node for c in kept if not c.by_count}
    triples = [replace(t, relation=attribute) if not t.is_type and (set(t.nodes()) & compared)
               and (attribute := comparative_attribute(t.relation)) else t for t in triples]
    if triples == list(pattern.triples) and kept == list(pattern.comparisons) and ordering == pattern.ordering:
        return pattern
    return replace(pattern, triples=tuple(triples), comparisons=tuple(kept), ordering=ordering)


def _implied_orderings(triples: list[PhraseTriple], ordering: Ordering | None,
                       pattern: PhraseGraphPattern) -> tuple[list[PhraseTriple], Ordering | None]:
    """`?u1 | oldest | ?u2` (with ?u2 used nowhere else) -> `?u1 | age | ?u2 :: order ?u2 desc 1`.
    When instead the answer hangs off a thing by the superlative alone (`?u1 | oldest | ?u2 ;
    ?u2 | is a | conductor`), the thing is what is asked for: `?u1 | age | ?u3 ; ?u1 | is a |
    conductor :: order ?u3 desc 1`."""
    if pattern.grouped:
        return triples, ordering
    degree = node_degrees(triples)
    compared = {c.node for c in pattern.comparisons}
    for index, triple in enumerate(triples):
        implied = IMPLIED_ORDER.get(triple.relation.strip().lower()) or _graded_compound(triple.relation)
        if implied is None or not (is_unknown(triple.subject) and is_unknown(triple.object)):
            continue
        attribute, descending = implied
        ends = (triple.subject, triple.object)
        value = triple.object if triple.object != ANSWER else None
        if value is not None and degree.get(value) == 1 and value not in compared and \
                (ordering is None or ordering.node == value):
            triples = [*triples[:index], PhraseTriple(triple.subject, attribute, value), *triples[index + 1:]]
            return triples, Ordering(value, descending=descending, limit=ordering.limit if ordering else 1,
                                     offset=ordering.offset if ordering else 0)
        thing = ends[1] if ends[0] == ANSWER else ends[0] if ends[1] == ANSWER else None
        if thing is None or degree.get(ANSWER) != 1 or ANSWER in compared or pattern.projection != (ANSWER,):
            continue
        value = f"?unknown{next_unknown_number(degree)}"
        renamed = [PhraseTriple(*(ANSWER if n == thing else n for n in (t.subject, t.relation, t.object)))
                   for t in triples[:index] + triples[index + 1:]]
        limit = ordering.limit if ordering is not None and ordering.node in ends else 1
        offset = ordering.offset if ordering is not None and ordering.node in ends else 0
        return [PhraseTriple(ANSWER, attribute, value), *renamed], Ordering(value, descending=descending, limit=limit,
                                                                            offset=offset)
    return triples, ordering


def _graded_compound(relation: str) -> tuple[str, bool] | None:
    """"lowest-priced", "highest-rated": a superlative joined to the attribute it grades."""
    words = relation.strip().lower().split("-")
    if len(words) == 2 and words[0] in SUPERLATIVE_DESCENDING and words[0] not in ("most", "least", "first") \
            and words[1].isalpha():
        return words[1], SUPERLATIVE_DESCENDING[words[0]]
    return None


def _comparative(triple: PhraseTriple) -> tuple[str, str, str, str] | None:
    """(relation without the comparative, operator, the compared thing, the value) for an edge like
    `?u1 | founded after | 2005`; None when the edge is no comparison with a value."""
    for thing, value in ((triple.subject, triple.object), (triple.object, triple.subject)):
        if not is_unknown(thing) or is_unknown(value) or not _VALUE.match(value.strip().replace(",", "")):
            continue
        words = triple.relation.lower().split()
        for phrase, operator in COMPARATIVE_PHRASES:
            tail = phrase.split()
            if words[-len(tail):] == tail:
                rest = " ".join(triple.relation.split()[: -len(tail)]).strip()
                return rest or triple.relation, operator, thing, value.strip().replace(",", "")
    return None


@dataclass(frozen=True)
class StoredCountReading:
    """A per-group count read as a stored count: the new pattern, its new edge and the counted thing."""

    pattern: PhraseGraphPattern
    edge: PhraseTriple  # owner | number of <thing> | the count
    thing: str
    counted_edge: PhraseTriple | None = None  # the edge whose things are counted, where it has no class ("| rooms |")


def counted_as_attribute(pattern: PhraseGraphPattern, question: str = "", asked: str | None = None,
                         ) -> StoredCountReading | None:
    """The other reading of a per-group count: "Which shop has the most products?" as written
    (`?u1 | shop | ?u2 ; ?u2 | is a | products :: order count ?u2 desc 1`) counts products per shop,
    but a graph derived from a table may store that count as an attribute (`number_products`):
    `?u1 | number of products | ?u2 :: order ?u2 desc 1`. Only for a counted unknown that has a
    class phrase and one other edge, or no class and one edge named by a plural ("the most rooms":
    `?u1 | rooms | ?u2`, stored as `room_count`); None otherwise. The caller keeps the reading only where the
    graph has such an attribute (`is_count_attribute`). A singular edge counts where the question
    ranks or counts it so ("the fewest staff", "the number of staff": `num_of_staff`). Where the edge names
    the kind the question asks for (`asked`, "Which museum sold the most tickets?": `?u1 | museum | ?u2`), the
    owner keeps it as its class (`?u1 | is a | museum`)."""
    counted = {c.node for c in pattern.comparisons if c.by_count}
    if pattern.ordering is not None and pattern.ordering.by_count:
        counted.add(pattern.ordering.node)
    if len(counted) != 1:
        return None
    node = next(iter(counted))
    classes = [t for t in pattern.triples if t.is_type and t.subject == node and not is_unknown(t.object)]
    edges = [t for t in pattern.triples if not t.is_type and node in t.nodes()]
    if len(edges) != 1 or len(classes) > 1:
        return None
    owner = edges[0].object if edges[0].subject == node else edges[0].subject
    # "Which apartments have the most rooms?" (`?u1 | rooms | ?u2 :: order count ?u2 desc 1`): the things
    # counted are the edge's own (`room_count`)
    thing = classes[0].object if classes else edges[0].relation
    if not classes and (not is_unknown(owner) or (singular(thing) == thing and not _amount_asked(question, thing))):
        return None
    kept = [t for t in pattern.triples if t not in (*classes, edges[0])]
    if classes and asked and is_unknown(owner) and same_words(edges[0].relation, asked) and \
            not any(t.is_type and t.subject == owner for t in kept):
        kept.append(PhraseTriple(owner, TYPE_RELATION, edges[0].relation))
    stored = PhraseTriple(owner, f"number of {thing}", node)
    triples = [*kept, stored]
    ordering = pattern.ordering
    if ordering is not None and ordering.by_count:
        ordering = replace(ordering, by_count=False)
    comparisons = tuple(replace(c, by_count=False) if c.by_count else c for c in pattern.comparisons)
    return StoredCountReading(replace(pattern, triples=tuple(triples), ordering=ordering, comparisons=comparisons),
                              stored, thing, None if classes else edges[0])


def _amount_asked(question: str, thing: str) -> bool:
    """Whether the question ranks or counts `thing` by its amount ("the fewest staff", "number of staff")."""
    return re.search(rf"\b(?:most|fewest|least|number\s+of|count\s+of)\s+{re.escape(thing)}\b", question,
                     re.IGNORECASE) is not None


def is_count_attribute(label: str, thing: str) -> bool:
    """Whether a predicate label names a stored count of `thing` ("number products", "num of staff"); a
    number after the thing names one ("flight number", a schema's `flightno`), not how many there are."""
    ordered = re.findall(r"[a-z]+", label.lower())
    if len(ordered) > 1 and ordered[-1] == "number" and "number" not in ordered[:-1]:
        return False
    words = set(ordered)
    things = {singular(w) for w in re.findall(r"[a-z]+", thing.lower())} - {"of"}
    return bool(words & COUNT_ATTRIBUTE_WORDS) and bool(things) and things <= {singular(w) for w in words}


NAMING_RELATIONS = frozenset({"named", "called", "titled", "labelled", "labeled"})


def named_as_itself(pattern: PhraseGraphPattern, things: set[str]) -> PhraseGraphPattern | None:
    """"the address of the property named 'park'" (`?u1 | address | ?u2 ; ?u2 | is a | property ; ?u2 |
    named | park`) where "park" is found as a thing (by its name): that thing in place of the unknown it
    names (`?u1 | address | park`); None where no unknown besides the answer is named by one of `things`."""
    held = pattern.held_nodes()
    for naming in pattern.triples:
        if naming.is_type or naming.relation.lower() not in NAMING_RELATIONS:
            continue
        unknown, name = (naming.subject, naming.object) if is_unknown(naming.subject) else (naming.object, naming.subject)
        if not is_unknown(unknown) or unknown == ANSWER or unknown in held or name not in things:
            continue
        rest = [t for t in pattern.triples if t != naming and not (t.is_type and t.subject == unknown)]
        if not any(unknown in t.nodes() for t in rest):
            continue
        return replace(pattern, triples=tuple(PhraseTriple(name if t.subject == unknown else t.subject, t.relation,
                                                           name if t.object == unknown else t.object) for t in rest))
    return None


def read_as_years(pattern: PhraseGraphPattern, years: list[str]) -> PhraseGraphPattern:
    """The pattern with each year in `years` (one no value of the graph equals) replaced by a new unknown equal
    to it as a year: "Who was born in 1987?" where birth dates are written "May 26, 1987" (`?u1 | born in |
    1987` -> `?u1 | born in | ?u2 :: filter ?u2 = 1987`, compared by `queries.comparison_expression`)."""
    triples, renamed = _named_nodes_as_unknowns(pattern, years)
    comparisons = (*pattern.comparisons, *(Comparison(variable, "=", year) for year, variable in renamed.items()))
    return replace(pattern, triples=tuple(triples), comparisons=comparisons)


def read_as_classes(pattern: PhraseGraphPattern, phrases: list[str]) -> PhraseGraphPattern:
    """The pattern with each named node in `phrases` replaced by a new unknown of that class:
    `?u1 | age | conductors` -> `?u1 | age | ?u2 ; ?u2 | is a | conductors`."""
    triples, renamed = _named_nodes_as_unknowns(pattern, phrases)
    triples += [PhraseTriple(variable, TYPE_RELATION, phrase) for phrase, variable in renamed.items()]
    return replace(pattern, triples=tuple(triples))


def _named_nodes_as_unknowns(pattern: PhraseGraphPattern, phrases: list[str]) -> tuple[list[PhraseTriple], dict[str, str]]:
    """The pattern's triples with each named node in `phrases` replaced by a new unknown, and which unknown each
    became."""
    first = next_unknown_number(pattern.unknowns())
    renamed = {phrase: f"?unknown{first + i}" for i, phrase in enumerate(phrases)}
    triples = [PhraseTriple(renamed.get(t.subject, t.subject), t.relation, renamed.get(t.object, t.object))
               for t in pattern.triples]
    return triples, renamed
