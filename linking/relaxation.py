"""Repairs of imperfect phrase graph patterns before linking, where the pattern's own words say what
was meant: a comparison left inside a relation phrase, or a superlative left as a comparison value.

The understanding model sometimes writes "Which orchestras were founded after 2005?" as
`?u1 | founded after | 2005` (an equality with the year) instead of
`?u1 | founded | ?u2 :: filter ?u2 > 2005`, and "the highest sales" as `filter ?u2 > highest`.
Both readings can be recovered from English comparatives alone, on any graph.
"""

from __future__ import annotations

import re
from dataclasses import replace

from understanding.grading import COMPARATIVE_PHRASES, IMPLIED_ORDER, SUPERLATIVE_DESCENDING
from understanding.pgp import (
    ANSWER,
    TYPE_RELATION,
    Comparison,
    Ordering,
    PhraseGraphPattern,
    PhraseTriple,
    is_unknown,
    node_degrees,
)

_VALUE = re.compile(r"^[+-]?\d+(?:[.,]\d+)?$|^\d{4}-\d{2}-\d{2}$")


def relax(pattern: PhraseGraphPattern) -> PhraseGraphPattern:
    """The pattern with comparisons recovered from relation phrases and superlative comparison values
    turned into an ordering; the pattern itself when there is nothing to repair."""
    triples: list[PhraseTriple] = []
    comparisons = list(pattern.comparisons)
    next_unknown = 1 + max((int(n[len("?unknown"):]) for n in pattern.unknowns()), default=0)
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
        implied = IMPLIED_ORDER.get(triple.relation.strip().lower())
        if implied is None or not (is_unknown(triple.subject) and is_unknown(triple.object)):
            continue
        attribute, descending = implied
        ends = (triple.subject, triple.object)
        value = triple.object if triple.object != ANSWER else None
        if value is not None and degree.get(value) == 1 and value not in compared and \
                (ordering is None or ordering.node == value):
            triples = [*triples[:index], PhraseTriple(triple.subject, attribute, value), *triples[index + 1:]]
            return triples, Ordering(value, descending=descending, limit=ordering.limit if ordering else 1)
        thing = ends[1] if ends[0] == ANSWER else ends[0] if ends[1] == ANSWER else None
        if thing is None or degree.get(ANSWER) != 1 or ANSWER in compared or pattern.projection != (ANSWER,):
            continue
        value = f"?unknown{1 + max(int(n[len('?unknown'):]) for n in degree if is_unknown(n))}"
        renamed = [PhraseTriple(*(ANSWER if n == thing else n for n in (t.subject, t.relation, t.object)))
                   for t in triples[:index] + triples[index + 1:]]
        limit = ordering.limit if ordering is not None and ordering.node in ends else 1
        return [PhraseTriple(ANSWER, attribute, value), *renamed], Ordering(value, descending=descending, limit=limit)
    return triples, ordering


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


def read_as_classes(pattern: PhraseGraphPattern, phrases: list[str]) -> PhraseGraphPattern:
    """The pattern with each named node in `phrases` replaced by a new unknown of that class:
    `?u1 | age | conductors` -> `?u1 | age | ?u2 ; ?u2 | is a | conductors`."""
    next_unknown = 1 + max((int(n[len("?unknown"):]) for n in pattern.unknowns()), default=0)
    renamed: dict[str, str] = {}
    for phrase in phrases:
        renamed[phrase] = f"?unknown{next_unknown}"
        next_unknown += 1
    triples = [PhraseTriple(renamed.get(t.subject, t.subject), t.relation, renamed.get(t.object, t.object))
               for t in pattern.triples]
    triples += [PhraseTriple(variable, TYPE_RELATION, phrase) for phrase, variable in renamed.items()]
    return replace(pattern, triples=tuple(triples))
