"""Query building: every combination of linked vertices, classes and predicates becomes a basic graph
pattern, ranked by KGQAN's Eq. 2 (the mean of its vertex and predicate scores), and the best
`max_queries` become SPARQL in the question's form: SELECT (with `OPTIONAL { ?unknown1 a ?type }` for
type filtering), ASK, COUNT, other aggregates, ORDER BY/LIMIT, FILTER.
"""

from __future__ import annotations

import heapq
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import pyoxigraph as ox

from gateway.discovery import WELL_KNOWN_LABELS
from gateway.sparql import term_to_sparql
from gateway.sparql_syntax import variables_renamed
from linking.affinity import split_words
from linking.entities import RDF_TYPE, LinkedEntity, local_name
from linking.relations import OUT, LinkedPredicate
from understanding.answer_types import kind_of_attribute
from understanding.grading import COUNTING_QUALIFIERS, UNIT_SCALES, number_value
from understanding.pgp import (
    ANSWER,
    TEXT_OPERATORS,
    AnswerKind,
    Comparison,
    Ordering,
    PhraseGraphPattern,
    PhraseTriple,
    QuestionForm,
    is_unknown,
    node_degrees,
)

TYPE_VAR = "?type"
XSD_DOUBLE = "<http://www.w3.org/2001/XMLSchema#double>"
HOLDER_ASKED_FACTOR = 0.99  # the holder of a value whose phrase the question asks for, a little behind the value
XSD_INTEGER = "<http://www.w3.org/2001/XMLSchema#integer>"
XSD_DECIMAL = "<http://www.w3.org/2001/XMLSchema#decimal>"
VALUE_VAR = "?value"
MAX_PRODUCT = 20000
DROP_SCORE = 0.3
CLASS_DROP_SCORE = 0.3
CLASS_VALUE_FACTOR = 0.9  # a class phrase read as an attribute value ("dogs" -> pettype "dog")
CLASS_VERTEX_FACTOR = 0.9  # a class phrase read as the name of one thing ("is a | Network Dipole")
MERGE_FACTOR = 0.9  # a relation phrase between two unknowns read as the class of one thing
THING_VALUE_FACTOR = 0.5  # ordering, comparing or aggregating things (IRIs) rather than values
RECORD_HELD_FACTOR = 0.99  # an attribute of a thing reached through a record, read as the record's
LITERAL_KINDS = (AnswerKind.STRING, AnswerKind.NUMBER, AnswerKind.DATE)
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")
_ISO_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}$")
_NUMBER = re.compile(r"^[+-]?\d+(?:\.\d+)?$")
_YEAR = re.compile(r"^\d{4}$")


@dataclass(frozen=True)
class EdgeLinks:
    """Predicate candidates of one PGP edge, per candidate of its anchor node.

    `anchor` is the node the predicates were found around (an entity phrase or an unknown);
    `by_anchor` maps the anchor candidate's term value ("" for an unknown anchor) to its ranked
    predicates, whose direction is seen from the anchor.
    """

    triple: PhraseTriple
    anchor: str
    by_anchor: dict[str, list[LinkedPredicate]]

    @property
    def other(self) -> str:
        return self.triple.object if self.anchor == self.triple.subject else self.triple.subject


@dataclass
class LinkedPattern:
    """Everything linking found for one PGP: the input of `QueryBuilder`."""

    pattern: PhraseGraphPattern
    nodes: dict[str, list[LinkedEntity]] = field(default_factory=dict)  # entity phrase -> vertices/literals
    classes: dict[str, list[LinkedEntity]] = field(default_factory=dict)  # class phrase -> classes
    edges: list[EdgeLinks] = field(default_factory=list)
    # relation phrase of an edge between two unknowns -> classes it names ("?u1 | suppliers | ?u2")
    relation_classes: dict[str, list[LinkedEntity]] = field(default_factory=dict)
    # triples of `pattern` (stated positively) that must not hold: rendered as FILTER NOT EXISTS
    negated: frozenset[PhraseTriple] = frozenset()


FOUND_VAR, PASSED_VAR = "kgqaFound", "kgqaPassed"  # a yes/no comparison: rows with the value, rows passing


FAMILY_COLUMN = "familyName"  # the result column of a person's family name beside the given name that answers


@dataclass(frozen=True)
class CandidateQuery:
    """One ranked SPARQL query. `pattern` is its WHERE body, in which `answer_var` is the answer."""

    sparql: str
    pattern: str
    answer_var: str
    score: float
    form: QuestionForm = QuestionForm.LIST
    execution_sparql: str = ""  # what is run: `sparql` plus the answer's types for LIST forms
    result_var: str = ""  # the column holding the answer in the executed query's results
    modifiers: str = ""  # ORDER BY / LIMIT after the WHERE clause of a SELECT
    ordered: bool = False  # answers are the best by some order: not to be joined with other queries' answers
    first_of_ties: bool = False  # it runs with all answers tied for first; the first in row order answers
    columns: tuple[str, ...] = ()  # other result columns shown beside each answer (a count's group)

    def to_dict(self) -> dict[str, object]:
        return {"sparql": self.sparql, "pattern": self.pattern, "answer_var": self.answer_var,
                "score": round(self.score, 4)}

    def named_by(self, path: str, family_path: str | None = None) -> CandidateQuery:
        """The same query answering with the name of its (resource) answer, reached by a SPARQL property path, and
        with the family name beside it where the name has two parts (a `FAMILY_COLUMN` column)."""
        name = f"{self.answer_var}Name"
        pattern = f"{self.pattern} . {self.answer_var} {path} {name}"
        modifiers = self.modifiers.replace(f" GROUP BY {self.answer_var} ", f" GROUP BY {self.answer_var} {name} ")
        projected, columns = name, self.columns
        if family_path:
            family = f"?{FAMILY_COLUMN}"
            pattern += f" OPTIONAL {{ {self.answer_var} {family_path} {family} }}"
            modifiers = modifiers.replace(f" GROUP BY {self.answer_var} {name} ", f" GROUP BY {self.answer_var} {name} {family} ")
            projected, columns = f"{name} {family}", (FAMILY_COLUMN,)
        sparql = f"SELECT DISTINCT {projected} WHERE {{ {pattern} }}{modifiers}"
        return replace(self, sparql=sparql, pattern=pattern, answer_var=name, execution_sparql=sparql,
                       result_var=name[1:], columns=columns)

    def group_named_by(self, path: str, family_path: str | None = None) -> CandidateQuery:
        """The same number-per-group query showing its one group column by the group's name (a property path), and
        the group's family name beside it where the name has two parts."""
        group = f"?{self.columns[0]}"
        name = f"{group}Name"
        family = f" OPTIONAL {{ {group} {family_path} ?{FAMILY_COLUMN} }}" if family_path else ""
        grouped = f"{name} ?{FAMILY_COLUMN}" if family_path else name
        sparql = re.sub(rf"^SELECT {re.escape(group)} ", f"SELECT {grouped} ", self.sparql)
        named = f" . {group} {path} {name}{family} }} GROUP BY {group} {grouped}"
        sparql = re.sub(rf" }} GROUP BY {re.escape(group)}(?![\w])", lambda _: named, sparql, count=1)
        columns = (*self.columns, FAMILY_COLUMN) if family_path else self.columns
        return replace(self, sparql=sparql, execution_sparql=sparql, columns=columns)


GeneratedQuery = CandidateQuery


def _var(node: str) -> str:
    return node if node.startswith("?") else "?" + node


@dataclass(frozen=True)
class _Choice:
    triple: str
    score: float
    counted: str = ""  # an ordered or compared unknown this choice reaches by a predicate to things


class QueryBuilder:
    """Turns a `LinkedPattern` into ranked `CandidateQuery`s."""

    def build(self, linked: LinkedPattern, *, max_queries: int = 40, max_answers: int = 100,
              answer_kind: AnswerKind | None = None, asked: str | None = None,
              keep_ties: bool = False) -> list[CandidateQuery]:
        """Ranked queries; when a literal answer is expected (string, number, date) each query is
        followed by variants answering with an attribute leaf of ?unknown1 ("?u1 | name | ?u2"), so
        type filtering can pick the node that holds the value."""
        pattern = linked.pattern
        negated = {i for i, t in enumerate(pattern.triples) if t in linked.negated}
        if len(negated) < len(linked.negated):
            return []  # a negation lost on the way must not turn into the opposite question
        entity_nodes = [n for n in pattern.nodes() if not is_unknown(n) and n not in set(pattern.class_phrases())]
        entity_nodes += [n for n in pattern.others if n not in entity_nodes and linked.nodes.get(n)]  # an exception
        candidates_per_node = [linked.nodes.get(n, []) for n in entity_nodes]  # named apart ("other than X")
        if any(not c for c in candidates_per_node):
            return []  # a named thing with no match in the graph: no query can be right
        # "Which suppliers do not supply any product?" (`?u1 | not supply | ?u2 ; ?u2 | is a | product`): what only
        # the negated relation reaches belongs inside the negation, its kind as well as a comparison of its value
        # ("Which papers do not provide a replication package?", `... | ?u2 :: filter ?u2 != false`)
        inside = inside_negations(pattern, negated)
        moved = {j for js in inside.values() for j in js}
        outside = {n for i, t in enumerate(pattern.triples) if i not in negated and i not in moved for n in t.nodes()}
        inner = {i: "".join(f" FILTER({comparison_expression(c)})" for c in pattern.comparisons
                            if not c.per_group and c.other_node is None and c.node not in outside
                            and any(c.node in pattern.triples[j].nodes() for j in (i, *inside[i]))) for i in negated}
        if any(inner.values()):
            kept = tuple(c for c in pattern.comparisons if c.per_group or c.other_node is not None or c.node in outside)
            pattern = replace(pattern, comparisons=kept)
        mirrored = mirrored_edges(pattern)
        ranked: list[tuple[float, str, frozenset[str]]] = []
        seen: set[str] = set()
        for assignment in itertools.product(*candidates_per_node):
            chosen = dict(zip(entity_nodes, assignment, strict=True))
            options = self._edge_options(linked, chosen, asked)
            if options is None:
                continue
            options = _with_mirrored_choices(options, mirrored, pattern, chosen)
            node_scores = [c.score for c in assignment]
            excluded = " ".join(f"<{iri}>" for n in pattern.others if n in chosen and not chosen[n].is_literal
                                for iri in chosen[n].iris)  # "Which other suppliers ... as X?": not X
            twins = " ".join(f"VALUES {twins_variable(n, chosen)} {{ {' '.join(f'<{i}>' for i in c.iris)} }}"
                             for n, c in chosen.items() if c.twins)
            for combination in _best_products(options, max_queries * 4):
                if any(not combination[i].triple or "FILTER(" in combination[i].triple for i in negated):
                    continue  # a negated relation is a real link, never dropped or merged
                if any(not _same_role(combination[i].triple, combination[j].triple, shared) for i, j, shared in mirrored):
                    continue  # "in the same department as X": both hold the department the same way
                body = " . ".join(choice.triple for i, choice in enumerate(combination)
                                  if choice.triple and i not in negated and i not in moved)
                if negated:
                    if not re.search(rf"{re.escape(ANSWER)}(?!\w)", body):
                        continue  # nothing but a negation binds the answer: the query would ask for anything at all
                    body = negations(body, [" . ".join([combination[i].triple, *(combination[j].triple for j in inside[i]
                                                                                  if combination[j].triple)]) + inner[i]
                                            for i in sorted(negated)])
                if body and twins:
                    body = f"{twins} {body}"
                if body and excluded and ANSWER in body:
                    body = f"{body} FILTER({ANSWER} NOT IN ({excluded}))"
                body = same_records(body)
                if not body or body in seen:
                    continue
                seen.add(body)
                scores = node_scores + [choice.score for choice in combination]
                score = sum(scores) / len(scores)
                counted = frozenset(choice.counted for choice in combination if choice.counted)
                ranked.append((score, body, counted))
                if not negated:
                    for held in held_by_records(body):
                        if held not in seen:
                            seen.add(held)
                            ranked.append((RECORD_HELD_FACTOR * score, held, counted))
        ranked.sort(key=lambda item: (-item[0], len(item[1]), item[1]))
        leaves = attribute_leaves(pattern) if answer_kind in LITERAL_KINDS else []
        had = merely_had(pattern, outside)
        queries: list[CandidateQuery] = []
        for score, body, counted in ranked[:max_queries]:
            read = counted_instead(pattern, counted)
            body += not_stated_false(had, body)
            queries.append(self._render(read, body, score, max_answers, keep_ties=keep_ties))
            for leaf in leaves:
                if leaf in body and not counted:
                    queries.append(self._render(grading_moved_to(pattern, leaf), body, score, max_answers, answer=leaf,
                                                keep_ties=keep_ties))
        return queries[:max_queries]

    def _edge_options(self, linked: LinkedPattern, chosen: dict[str, LinkedEntity],
                      asked: str | None = None) -> list[list[_Choice]] | None:
        options: list[list[_Choice]] = []
        by_triple = {edge.triple: edge for edge in linked.edges}
        dangling = dangling_unknowns(linked.pattern)
        valued = valued_nodes(linked.pattern)
        companions = companion_values(linked.pattern)
        countable = countable_values(linked.pattern)
        modified = linked.pattern.modified_nodes() - ({ANSWER} if sorted_by_itself(linked.pattern) else set())
        unmergeable = valued | (set(linked.pattern.projection) - {ANSWER}) | modified | shared_values(linked.pattern)  # a counted unknown
        # is many things, not the answer; a value two things share ("the same department as X") is neither of them
        for index, triple in enumerate(linked.pattern.triples):
            if triple.is_type:
                subject = self._node_term(triple.subject, chosen)
                if is_unknown(triple.object):
                    options.append([_Choice(f"{subject} <{RDF_TYPE}> {_var(triple.object)}", 1.0)])
                    continue
                candidates = linked.classes.get(triple.object, [])
                many = answers_are_many(linked.pattern, triple.subject)
                if ranked_owner(linked.pattern, triple.subject) and not many:
                    if candidates and all(c.kind == "vertex" for c in candidates):
                        return None  # the phrase names things, not a kind: nothing to rank ("the priciest Bolton, Sanchez")
                    many = True
                options.append(class_choices(subject, candidates, index, one_thing=not many))
                continue
            edge = by_triple.get(triple)
            if edge is None:
                return None
            anchor_key = chosen[edge.anchor].term.value if edge.anchor in chosen else ""
            predicates = edge.by_anchor.get(anchor_key, [])
            if edge.other in companions:  # the number a thing holds, not the thing (`price/amount`)
                held = {(p.iri, p.through) for p in predicates if p.value_of} | \
                       {(p.through, None) for p in predicates if p.through and p.through_out and p.literal}
                predicates = [p for p in predicates if p.value_of or p.through
                              or p.direction != OUT or (p.iri, p.through) not in held]
            # "Which suppliers ..." as `?u1 | suppliers | ?u2`: the answer is a supplier, so reading the
            # phrase as a predicate of the answer (`?u1 hasSupplier ?u2`) is the discounted one
            asked_for = asked is not None and ANSWER in triple.nodes() and _words(asked) == _words(triple.relation)
            # "How many distinct states are there?" as `?u1 | states | ?u2`: the answer is the state, the value end
            value_asked = asked is not None and ANSWER in triple.nodes() and all(is_unknown(n) for n in triple.nodes()) \
                and [w for w in _words(asked) if w not in COUNTING_QUALIFIERS] == _words(triple.relation)
            merged = merge_choices(triple, linked.relation_classes.get(triple.relation, []), dangling, index,
                                   unmergeable, asked_for)
            if not predicates and not merged:
                return None
            anchor = self._node_term(edge.anchor, chosen)
            other = self._node_term(edge.other, chosen)
            edge_choices = []
            to_value = edge.other in valued and is_unknown(edge.other)
            asks_class = asked_for and bool(merged)
            for predicate in predicates:
                if to_value and not predicate.literal:
                    predicate = replace(predicate, score=predicate.score * THING_VALUE_FACTOR)
                if asks_class:
                    predicate = replace(predicate, score=predicate.score * MERGE_FACTOR)
                if predicate.through or predicate.value_of or predicate.then:
                    # "Is Uwe Zdun one of the authors of X?": a named value held one hop on (`authors/hasListElement`)
                    held_value = bool(predicate.value_of) and not predicate.through and edge.other in chosen and \
                        chosen[edge.other].is_literal
                    if (not is_unknown(edge.other) and not held_value) or (predicate.direction != OUT and (
                            predicate.value_of or edge.other in valued - {ANSWER})):
                        continue  # an ordered, compared or aggregated value is never a subject
                    start, first = anchor, ""
                    if predicate.through:  # anchor -through-> ?via (or ?holder -through-> anchor), then the predicate
                        start = f"?kgqaVia{index}" if predicate.through_out else f"?kgqaHolder{index}"
                        first = (f"{anchor} <{predicate.through}> {start} . " if predicate.through_out
                                 else f"{start} <{predicate.through}> {anchor} . ")
                    if predicate.value_of:  # ... -price-> ?thing -amount-> value
                        thing = f"?kgqaThing{index}"
                        hop = f"{start} <{predicate.iri}> {thing} . {thing} <{predicate.value_of}> {other}"
                    elif predicate.then:  # ... <-ref-petid- ?mid -ref-stuid-> other (a link table's row between)
                        mid = f"?kgqaMid{index}"
                        first_hop = (f"{start} <{predicate.iri}> {mid}" if predicate.direction == OUT
                                     else f"{mid} <{predicate.iri}> {start}")
                        hop = first_hop + (f" . {mid} <{predicate.then}> {other}" if predicate.then_out
                                           else f" . {other} <{predicate.then}> {mid}")
                    else:
                        subject, obj = (start, other) if predicate.direction == OUT else (other, start)
                        hop = f"{subject} <{predicate.iri}> {obj}"
                    # "papers with at least 5 authors": a container's members are counted, not compared, where the
                    # phrase names them ("published before 2019" compares a year, whatever predicate it fits)
                    members = edge.other if predicate.members and to_value and edge.other in countable and \
                        {w.rstrip("s") for w in _words(predicate.label)} & {w.rstrip("s") for w in _words(triple.relation)} \
                        else ""
                    edge_choices.append(_Choice(first + hop, predicate.score, members))
                    continue
                if edge.other in chosen and chosen[edge.other].is_literal and (
                        predicate.direction != OUT or predicate.iri not in chosen[edge.other].predicates):
                    continue  # a literal is never a subject, and is reached only by a predicate that holds it
                if edge.anchor in chosen and chosen[edge.anchor].is_literal and predicate.direction == OUT:
                    continue
                counted = edge.other if to_value and predicate.to_things and edge.other in countable else ""
                if (edge.anchor if predicate.direction == OUT else edge.other) in valued - {ANSWER, counted}:
                    continue  # an ordered, compared or aggregated value is never a subject (the answer may
                    # be read as its attribute instead: `grading_moved_to`); things counted per answer may be
                subject, obj = (anchor, other) if predicate.direction == OUT else (other, anchor)
                score = predicate.score * (HOLDER_ASKED_FACTOR if value_asked and subject == _var(ANSWER) else 1.0)
                edge_choices.append(_Choice(f"{subject} <{predicate.iri}> {obj}", score, counted))
            edge_choices += merged
            if not edge_choices:
                return None
            if edge.other in dangling:
                edge_choices.append(_Choice("", DROP_SCORE))
            options.append(edge_choices)
        return options

    @staticmethod
    def _node_term(node: str, chosen: dict[str, LinkedEntity]) -> str:
        if is_unknown(node):
            return _var(node)
        if chosen[node].twins:
            return twins_variable(node, chosen)
        return term_to_sparql(chosen[node].term)

    def _render(self, pattern: PhraseGraphPattern, body: str, score: float, max_answers: int,
                answer: str | None = None, keep_ties: bool = False) -> CandidateQuery:
        if _age_held_as_time_point(pattern, body):  # "the oldest singer" on a graph of birth years: the earliest
            assert pattern.ordering is not None
            pattern = replace(pattern, ordering=replace(pattern.ordering, descending=not pattern.ordering.descending))
        filters = "".join(average_bound(c, body, i) if c.against_average else
                          f" FILTER({comparison_expression(in_predicate_unit(c, body))})"
                          for i, c in enumerate(pattern.comparisons) if not c.per_group)
        where = body + filters
        form = pattern.form
        if form is QuestionForm.BOOLEAN:
            if pattern.grouped:  # "Does Franz Kornhaeusel manage more than 20 products?"
                sparql = counted_ask(pattern, where)
                return CandidateQuery(sparql, where, ANSWER, score, form, sparql, "")
            sparql = f"ASK WHERE {{ {where} }}"
            compared = [comparison_expression(c) for c in pattern.comparisons if not c.per_group]
            if not compared:
                return CandidateQuery(sparql, where, ANSWER, score, form, sparql, "")
            # "Is it heavier than 10 grams?": answered when the value is there, yes when it passes
            passes = " && ".join(f"({e})" for e in compared)
            execution = (f"SELECT (COUNT(*) AS ?{FOUND_VAR}) (SUM(IF({passes}, 1, 0)) AS ?{PASSED_VAR}) "
                         f"WHERE {{ {body} }}")
            return CandidateQuery(sparql, where, ANSWER, score, form, execution, PASSED_VAR)
        if pattern.group and form.is_aggregate:  # "How many employees does each department have?"
            return grouped_aggregate(pattern, where, score, max_answers)
        if form is QuestionForm.COUNT and pattern.grouped:  # "How many countries have at least two singers?"
            inner = f"SELECT {ANSWER} WHERE {{ {where} }}{group_modifiers(pattern, (ANSWER,))}"
            sparql = f"SELECT (COUNT(*) AS ?count) WHERE {{ {{ {inner} }} }}"
            return CandidateQuery(sparql, where, ANSWER, score, form, sparql, "count")
        if form is QuestionForm.COUNT:
            sparql = count_query(ANSWER, where)
            return CandidateQuery(sparql, where, ANSWER, score, form, sparql, "count")
        if form.is_aggregate and pattern.per:  # "the average number of products per supplier"
            groups = " ".join(pattern.per)
            inner = f"SELECT {groups} (COUNT(DISTINCT {ANSWER}) AS ?kgqaN) WHERE {{ {where} }} GROUP BY {groups}"
            sparql = f"SELECT ({aggregated(form.value, '?kgqaN', raw=True)} AS {VALUE_VAR}) WHERE {{ {{ {inner} }} }}"
            return CandidateQuery(sparql, where, ANSWER, score, form, sparql, VALUE_VAR[1:])
        if form.is_aggregate:
            target = pattern.aggregated_node()
            rows = where if pattern.times else distinct_values(target, where)  # each row's product: every row
            values = measured(pattern, target)
            others = "".join(f" ({aggregated(other, values, raw=True)} AS ?{other})" for other in pattern.also)
            sparql = f"SELECT ({aggregated(form.value, values, raw=True)} AS {VALUE_VAR}){others} WHERE {{ {rows} }}"
            return CandidateQuery(sparql, where, target, score, form, sparql, VALUE_VAR[1:], columns=pattern.also)
        projected = (answer,) if answer else (pattern.projection or (ANSWER,))
        answer = ANSWER if ANSWER in projected else projected[0]
        projected = (*projected, *(n for n in pattern.group if n not in projected))  # the best of each group: beside it
        projection = " ".join(projected)
        modifiers = group_modifiers(pattern, projected)
        if pattern.ordering is not None:
            node = pattern.ordering.node
            key = group_measure(pattern.ordering) if pattern.ordering.per_group else sort_key(node)
            order = f" ORDER BY {'DESC' if pattern.ordering.descending else 'ASC'}({key})"
            if pattern.ordering.limit == 1 and not pattern.ordering.offset:
                # run with every answer tied for first, so that a reading where all tie shows; shown
                # (and answered, unless ties are kept) as ORDER BY ... LIMIT 1. Not for orderings per group
                # (counts, averages): their first row is the engine's hash order, which nothing
                # reproduces, so all ties answer
                first = not keep_ties and not pattern.ordering.per_group and not pattern.group
                tied = best_ties(pattern.ordering, where, projection, modifiers, pattern.group)
                execution = f"SELECT DISTINCT {projection} WHERE {{ {tied} }} LIMIT {max_answers}"
                sparql = f"SELECT DISTINCT {projection} WHERE {{ {where} }}{modifiers}{order} LIMIT 1" if first else execution
                return CandidateQuery(sparql, tied, answer, score, form, execution, answer[1:], f" LIMIT {max_answers}",
                                      ordered=True, first_of_ties=first,
                                      columns=tuple(n[1:] for n in projected if n != answer))
            modifiers += order
            limit = pattern.ordering.limit or max_answers
        else:
            limit = max_answers
        modifiers += f" LIMIT {limit}"
        if pattern.ordering is not None and pattern.ordering.offset:
            modifiers += f" OFFSET {pattern.ordering.offset}"
        sparql = f"SELECT DISTINCT {projection} WHERE {{ {where} }}{modifiers}"
        if pattern.ordering is None and not pattern.grouped:
            typed = (f"SELECT DISTINCT {projection} {TYPE_VAR} WHERE {{ {where} "
                     f"OPTIONAL {{ {answer} <{RDF_TYPE}> {TYPE_VAR} }} }} LIMIT {max(limit * 5, 500)}")
        else:
            typed = sparql
        return CandidateQuery(sparql, where, answer, score, form, typed, answer[1:], modifiers,
                              ordered=pattern.ordering is not None,
                              columns=tuple(n[1:] for n in projected if n != answer))


def counted_ask(pattern: PhraseGraphPattern, where: str) -> str:
    """A yes/no question about how many things there are: counted per answer where the answer is
    something else ("Is there a supplier with more than 10 products?"), else counted over all
    ("Does Franz Kornhaeusel manage more than 20 products?", `Franz Kornhaeusel | products | ?u1`)."""
    counted = [(c, number) for c in pattern.comparisons if c.by_count and (number := _written_number(c.value))]
    if ANSWER in pattern.nodes() and all(c.node != ANSWER for c, _ in counted):
        return f"ASK WHERE {{ {{ SELECT {ANSWER} WHERE {{ {where} }}{group_modifiers(pattern, (ANSWER,))} }} }}"
    counts = " ".join(f"(COUNT(DISTINCT {c.node}) AS ?kgqaN{i})" for i, (c, _) in enumerate(counted))
    conditions = " && ".join(f"?kgqaN{i} {c.operator} {number}" for i, (c, number) in enumerate(counted))
    return f"ASK WHERE {{ {{ SELECT {counts} WHERE {{ {where} }} }} FILTER({conditions or 'true'}) }}"


def grouped_aggregate(pattern: PhraseGraphPattern, where: str, score: float, max_answers: int) -> CandidateQuery:
    """One count or aggregate per group (`group ?u2`): the number answers, its group beside it."""
    keys = " ".join(pattern.group)
    if pattern.form is QuestionForm.COUNT:
        target, measure, column = ANSWER, f"COUNT(DISTINCT {ANSWER})", "count"
    else:
        target = pattern.aggregated_node()
        measure, column = aggregated(pattern.form.value, measured(pattern, target), raw=True), VALUE_VAR[1:]
    sparql = f"SELECT {keys} ({measure} AS ?{column}) WHERE {{ {where} }} GROUP BY {keys} LIMIT {max_answers}"
    return CandidateQuery(sparql, where, target, score, pattern.form, sparql, column,
                          columns=tuple(n[1:] for n in pattern.group))


_HOLDER_HOP = re.compile(r"(?P<holder>\?kgqaHolder\d+) (?P<predicate><[^>]+>) (?P<thing>\?unknown\d+)(?!\w)")


_SELECTED = re.compile(r"^\s*SELECT\s+(?:DISTINCT\s+)?(?P<variables>(?:\?\w+\s+)*\?\w+)\s+WHERE\s*\{", re.IGNORECASE)
_ASKED_BODY = re.compile(r"^\s*ASK\s+(?:WHERE\s*)?\{(?P<body>.*)\}\s*$", re.IGNORECASE | re.DOTALL)
_LIMIT = re.compile(r"\s+LIMIT\s+\d+\s*$", re.IGNORECASE)


def union_query(first: str, second: str, form: QuestionForm, max_answers: int = 100, *, both: bool = False,
                excluded: bool = False) -> str | None:
    """One SPARQL query for a question asked as two alternatives ("in France or Germany"): the union of the two
    alternatives' list queries (the distinct things of both, a count of them), or an ASK true where either
    holds; `both`: the join of the two list queries (the things both hold; no ASK, whose bodies would share
    their variables); `excluded`: the first's things MINUS the second's; None where the two do not answer alike
    (other columns, other forms)."""
    if form is QuestionForm.BOOLEAN:
        a, b = _ASKED_BODY.match(first), _ASKED_BODY.match(second)
        if both or excluded or a is None or b is None:
            return None
        return f"ASK {{ {{ {a.group('body').strip()} }} UNION {{ {b.group('body').strip()} }} }}"
    a, b = _SELECTED.match(first), _SELECTED.match(second)
    if a is None or b is None or a.group("variables").split() != b.group("variables").split():
        return None
    joiner = "" if both else "MINUS " if excluded else "UNION "
    joined = f"{{ {_LIMIT.sub('', first)} }} {joiner}{{ {_LIMIT.sub('', second)} }}"
    if form is QuestionForm.COUNT:
        return f"SELECT (COUNT(DISTINCT {a.group('variables').split()[0]}) AS ?count) WHERE {{ {joined} }}"
    return f"SELECT DISTINCT {a.group('variables')} WHERE {{ {joined} }} LIMIT {max_answers}"


def union_candidate(first: CandidateQuery, second: CandidateQuery) -> CandidateQuery | None:
    """Two alternatives' list patterns as one (`{ A } UNION { B }`), for the SPARQL proxy's question triple;
    None unless both are plain lists answering with the same variable."""
    if first.form is not QuestionForm.LIST or second.form is not QuestionForm.LIST or first.ordered or second.ordered \
            or first.answer_var != second.answer_var:
        return None
    pattern = f"{{ {first.pattern} }} UNION {{ {second.pattern} }}"
    return CandidateQuery(f"SELECT DISTINCT {first.answer_var} WHERE {{ {pattern} }}", pattern, first.answer_var,
                          (first.score + second.score) / 2)


def mirrored_edges(pattern: PhraseGraphPattern) -> list[tuple[int, int, str]]:
    """Pairs of triples saying the same relation of the answer and of a thing named apart, through one shared
    unknown ("the same department as X": `?u1 | department | ?u2 ; X | department | ?u2 :: other X`), with
    that unknown: both must be linked to the same predicate, the shared value at the same end."""
    if not pattern.others:
        return []
    pairs = []
    for i, first in enumerate(pattern.triples):
        for j, second in enumerate(pattern.triples):
            shared = set(first.nodes()) & set(second.nodes())
            if i < j and first.relation == second.relation and not first.is_type and len(shared) == 1 and \
                    is_unknown(node := next(iter(shared))) and node != ANSWER and \
                    ANSWER in first.nodes() + second.nodes() and set(pattern.others) & set(first.nodes() + second.nodes()):
                pairs.append((i, j, node))
    return pairs


def _with_mirrored_choices(options: list[list[_Choice]], mirrored: list[tuple[int, int, str]],
                           pattern: PhraseGraphPattern, chosen: dict[str, LinkedEntity]) -> list[list[_Choice]]:
    """The answer's edge of a mirrored pair may be linked as the named thing's is (`X memberOf ?u2` gives
    `?u1 memberOf ?u2`): the named end is linked against the graph, the answer's end has only the phrase."""
    if not mirrored:
        return options
    options = [list(o) for o in options]
    for i, j, _ in mirrored:
        answer_side, named_side = (i, j) if ANSWER in pattern.triples[i].nodes() else (j, i)
        named = next((n for n in pattern.triples[named_side].nodes() if n in chosen), None)
        if named is None or chosen[named].is_literal:
            continue
        have = {c.triple for c in options[answer_side]}
        for choice in options[named_side]:
            found = _SIMPLE_TRIPLE.match(choice.triple.strip())
            iris = {f"<{iri}>" for iri in chosen[named].iris}
            if found is None or not ({found.group("subject"), found.group("object")} & iris):
                continue
            ends = [ANSWER if end in iris else end for end in (found.group("subject"), found.group("object"))]
            triple = f"{ends[0]} {found.group('predicate')} {ends[1]}"
            if triple not in have:
                have.add(triple)
                options[answer_side].append(_Choice(triple, choice.score))
        options[answer_side].sort(key=lambda c: -c.score)  # (combinations are taken best first)
    return options


_SIMPLE_TRIPLE = re.compile(r"^(?P<subject>\S+) (?P<predicate><[^>]+>) (?P<object>\S+)$")


def _same_role(first: str, second: str, shared: str) -> bool:
    """Whether two linked triples (SPARQL text) are one predicate with `shared` at the same end (not two
    hops, nor a filter: the same value is held the same way)."""
    a, b = _SIMPLE_TRIPLE.match(first.strip()), _SIMPLE_TRIPLE.match(second.strip())
    if a is None or b is None:
        return False
    return a.group("predicate") == b.group("predicate") and (a.group("object") == shared) == (b.group("object") == shared)


def same_records(body: str) -> str:
    """A body that reaches a thing through a record (`?kgqaVia0 hasPart ?part`) and takes an attribute of
    the records holding that thing (`?kgqaHolder2 hasPart ?part . ?kgqaHolder2 quantity ?q`) takes it from
    that same record: the quantity the bill lists, not any bill's."""
    for held in _HOLDER_HOP.finditer(body):
        via = re.search(rf"(?P<via>\?kgqaVia\d+) {re.escape(held.group('predicate'))} {re.escape(held.group('thing'))}(?!\w)",
                        body)
        if via is not None:
            holder = held.group("holder")
            body = re.sub(rf"(?:^| \. ){re.escape(held.group(0))}(?= \.|$)", "", body, count=1)
            return same_records(re.sub(rf"{re.escape(holder)}(?!\w)", via.group("via"), body).lstrip(" ."))
    return body


_RECORD_HOP = re.compile(r"(?P<record>\?kgqaVia\d+) <[^>]+> (?P<thing>\?unknown\d+)(?!\w)")


def held_by_records(body: str) -> list[str]:
    """Bodies with an attribute of a thing reached through a record (`X hasBomPart ?r . ?r hasPart ?part`)
    read as the record's instead (`?r quantity ?q`, not `?part quantity ?q`): a bill of material's line
    holds how many of the part it lists. Only for a value beside the answer, used nowhere else in the body; tried right
    after the reading as written (`RECORD_HELD_FACTOR`), which answers where the thing holds it."""
    variants = []
    for hop in _RECORD_HOP.finditer(body):
        record, thing = hop.group("record"), hop.group("thing")
        for held in re.finditer(rf"(?:^|(?<=\. )){re.escape(thing)} (?P<predicate><[^>]+>) (?P<value>\?unknown\d+)(?= \.|$)",
                                body):
            value = held.group("value")
            if value != ANSWER and len(re.findall(rf"{re.escape(value)}(?!\w)", body)) == 1:
                variants.append(f"{body[:held.start()]}{record} {held.group('predicate')} {held.group('value')}"
                                f"{body[held.end():]}")
    return variants


def inside_negations(pattern: PhraseGraphPattern, negated: set[int]) -> dict[int, list[int]]:
    """For each negated triple, the other triples that only it connects to the answer (their unknowns
    are reached from ?unknown1 through no other relation): "do not supply any product" keeps "?u2 is a
    product" inside the negation, or it would ask for the suppliers not supplying some one product."""
    reached = {ANSWER}
    grown = True
    while grown:
        grown = False
        for i, triple in enumerate(pattern.triples):
            ends = {n for n in triple.nodes() if is_unknown(n)}
            if i not in negated and ends & reached and not ends <= reached:
                reached |= ends
                grown = True
    inside: dict[int, list[int]] = {i: [] for i in negated}
    for i in sorted(negated):
        unknowns = {n for n in pattern.triples[i].nodes() if is_unknown(n)} - reached
        grown = True
        while grown:
            grown = False
            for j, triple in enumerate(pattern.triples):
                ends = {n for n in triple.nodes() if is_unknown(n)}
                if j not in negated and j not in inside[i] and ends & unknowns and not ends & reached:
                    inside[i].append(j)
                    unknowns |= ends
                    grown = True
        reached |= unknowns
    return inside


def negations(body: str, negated: Sequence[str]) -> str:
    """`body` with relations that must not hold for the answer, each of which does hold for something
    the rest of the body describes: a reading that matches nothing would exclude nothing and answer
    with everything. A class the answer must not be of also excludes it where an unlabelled row of the class
    refers to it ("Which people are not poker players?": a poker player is a row referring to a person)."""
    filters = []
    for triple in negated:
        triple = _or_a_role_row(triple)
        possible = variables_renamed(f"{body} . {triple}" if body else triple, "_n")
        filters.append(f"FILTER NOT EXISTS {{ {triple} }} FILTER EXISTS {{ {possible} }}")
    return " . ".join([body, *filters] if body else filters)


_CLASS_TRIPLE = re.compile(rf"^(?P<thing>\?\w+) <{re.escape(RDF_TYPE)}> (?P<kind><[^>]+>)$")


def _or_a_role_row(triple: str) -> str:
    """`?x a <C>` as "?x is a C, or an unlabelled C row refers to ?x" (a role kept as a table of its own); any
    other negated relation as it is."""
    found = _CLASS_TRIPLE.match(triple.strip())
    if found is None:
        return triple
    thing, kind = found.group("thing"), found.group("kind")
    return (f"{{ {thing} <{RDF_TYPE}> {kind} }} UNION {{ ?kgqaRole <{RDF_TYPE}> {kind} . ?kgqaRole ?kgqaRoleOf {thing} "
            f"{unlabelled('?kgqaRole')} }}")


def unlabelled(variable: str) -> str:
    """A FILTER keeping the bindings of `variable` that carry no well-known label: rows of a table, not things in
    their own right."""
    labels = ", ".join(f"<{p}>" for p in WELL_KNOWN_LABELS)
    return (f"FILTER NOT EXISTS {{ {variable} ?kgqaLabelling ?kgqaLabel "
            f"FILTER(?kgqaLabelling IN ({labels})) }}")


_TIME_POINT_WORDS = frozenset({"birth", "born", "birthday", "dob", "year", "date", "founded", "foundation",
                               "established", "opened", "built", "created", "started", "since"})  # not "years": a span


def _age_held_as_time_point(pattern: PhraseGraphPattern, body: str) -> bool:
    """Whether an ordering by age ("the oldest", "the youngest") reaches a point in time instead (a birth
    year, a founding date): the oldest thing has the earliest one, so the order turns."""
    ordering = pattern.ordering
    if ordering is None or ordering.per_group or not any(
            ordering.node in t.nodes() and t.relation.strip().lower() == "age" for t in pattern.triples):
        return False
    held = re.search(rf"<(?P<iri>[^>]+)> {re.escape(_var(ordering.node))}(?!\w)", body)
    words = set(split_words(local_name(held.group("iri")))) if held else set()
    return bool(words & _TIME_POINT_WORDS) and "age" not in words


def best_ties(ordering: Ordering, where: str, projection: str, grouping: str, groups: Sequence[str] = ()) -> str:
    """The WHERE body of "the most/least ..." (ORDER BY ... LIMIT 1) that keeps every answer tied for
    first: "the most expensive product" is all products at the highest price, not one picked by the
    engine's row order. The best value comes from a copy of the pattern with its own variables; with
    `groups` ("the heaviest product in each category", "the shop with the most products in each
    district"), the copy shares them and the best is per group."""
    node, best = ordering.node, "MAX" if ordering.descending else "MIN"
    copy, copied_grouping = _renamed_but(where, groups), _renamed_but(grouping, groups)
    keys = "".join(f"{key} " for key in groups)
    per_group = f" GROUP BY {' '.join(groups)}" if groups else ""
    if ordering.per_group:
        grouping = grouping or f" GROUP BY {projection}"
        copied_grouping = copied_grouping or f" GROUP BY {_renamed_but(projection, groups)}"
        counts = f"SELECT {projection} ({group_measure(ordering)} AS ?kgqaN) WHERE {{ {where} }}{grouping}"
        copied = f"SELECT {keys}({group_measure(ordering, node + '_b')} AS ?kgqaM) WHERE {{ {copy} }}{copied_grouping}"
        return (f"{{ {counts} }} {{ SELECT {keys}({best}(?kgqaM) AS ?kgqaBest) WHERE {{ {{ {copied} }} }}{per_group} }} "
                f"FILTER(?kgqaN = ?kgqaBest)")
    return (f"{where} . {{ SELECT {keys}({best}({sort_key(node + '_b')}) AS ?kgqaBest) WHERE {{ {copy} }}{per_group} }} "
            f"FILTER({sort_key(node)} = ?kgqaBest)")


def _renamed_but(text: str, kept: Sequence[str]) -> str:
    """`text` with every variable but `kept` given the suffix `_b` (`variables_renamed`)."""
    copy = variables_renamed(text, "_b")
    for variable in kept:
        copy = re.sub(rf"{re.escape(variable)}_b\b", variable, copy)
    return copy


def grading_moved_to(pattern: PhraseGraphPattern, leaf: str) -> PhraseGraphPattern:
    """The reading in which an attribute leaf of ?unknown1 is the answer ("the largest bonus": ?unknown1
    has the bonus ?unknown2): an ordering or comparison the pattern put on ?unknown1 grades the
    answer, so it moves to the leaf; ordering the thing itself would sort IRIs."""
    ordering = pattern.ordering
    if ordering is not None and ordering.node == ANSWER and not ordering.by_count:
        ordering = replace(ordering, node=leaf)
    comparisons = tuple(replace(c, node=leaf) if c.node == ANSWER and not c.by_count else c
                        for c in pattern.comparisons)
    if ordering == pattern.ordering and comparisons == pattern.comparisons:
        return pattern
    return replace(pattern, ordering=ordering, comparisons=comparisons)


def group_modifiers(pattern: PhraseGraphPattern, projected: Sequence[str]) -> str:
    """GROUP BY the projected unknowns and HAVING the count comparisons, for patterns that order or
    filter by how many of another unknown each answer has; empty otherwise."""
    if not pattern.grouped:
        return ""
    counts = [(c, _written_number(c.value)) for c in pattern.comparisons if c.by_count]
    # "more members than the Engineering department": the named thing's count, the same in every group
    conditions = [f"COUNT(DISTINCT {c.node}) {c.operator} {number}" if number else
                  f"COUNT(DISTINCT {c.node}) {c.operator} COUNT(DISTINCT {c.other_node})"
                  for c, number in counts if number or c.other_node]
    conditions += [f"{aggregated(c.aggregate, c.node)} {c.operator} {number}" for c in pattern.comparisons
                   if c.aggregate and (number := _written_number(c.value))]  # "an average price above 3"
    having = f" HAVING({' && '.join(conditions)})" if conditions else ""
    return f" GROUP BY {' '.join(projected)}{having}"


def twins_variable(node: str, chosen: dict[str, LinkedEntity]) -> str:
    """The variable standing for a named node that is several vertices of the same label."""
    return f"?kgqaSame{list(chosen).index(node)}"


def membership(subject: str, candidate: LinkedEntity, index: int) -> str:
    """`subject` is an instance of the class, or of one of its subclasses."""
    if not candidate.subclasses:
        return f"{subject} <{RDF_TYPE}> <{candidate.term.value}>"
    variable = f"?kgqaClass{index}"
    members = ", ".join(f"<{c}>" for c in (candidate.term.value, *candidate.subclasses))
    return f"{subject} <{RDF_TYPE}> {variable} FILTER({variable} IN ({members}))"


def merge_choices(triple: PhraseTriple, classes: Sequence[LinkedEntity], dangling: set[str],
                  index: int, unmergeable: set[str], asked_for: bool = False) -> list[_Choice]:
    """An edge between two unknowns whose relation phrase names a class ("?u1 | suppliers | ?u2 ;
    ?u2 | located in | Switzerland") read as one thing of that class: both unknowns are the same
    (or the other one is dropped when nothing else uses it). Not when either is an ordered,
    compared, counted or aggregated unknown: a value is no thing of a class, and the things counted
    per answer are not the answer. When the phrase is what the question asks for (`asked_for`: "Which
    suppliers ...", "How many suppliers ..." with the answer at one end), the reading is not discounted."""
    if not (is_unknown(triple.subject) and is_unknown(triple.object)) or set(triple.nodes()) & unmergeable:
        return []
    target, other = (triple.object, triple.subject) if triple.object == ANSWER else (triple.subject, triple.object)
    same = "" if other in dangling else f" FILTER({target} = {other})"
    factor = 1.0 if asked_for else MERGE_FACTOR
    return [_Choice(membership(target, c, 100 + index) + same, c.score * factor) for c in classes]


def _words(phrase: str) -> list[str]:
    return re.findall(r"\w+", phrase.lower())


def answers_are_many(pattern: PhraseGraphPattern, node: str) -> bool:
    """One thing is never "the lightest" of anything, nor counted: a ranked or counted answer's class
    phrase is not read as the name of one thing ("the lightest Sensor" is not the category Sensor)."""
    return node == ANSWER and (pattern.ordering is not None or pattern.form is QuestionForm.COUNT)


def ranked_owner(pattern: PhraseGraphPattern, node: str) -> bool:
    """Whether the node's value, or the node itself, is what the pattern ranks ("the price of the most
    expensive Memristor": the Memristors) or spreads ("the price range of Transformer"): its class phrase
    names many things, never one. (Not for the other measures: their readings of one thing and the things
    linked to it are ranked against each other, as own dev was tuned with.)"""
    ranked = pattern.ordering.node if pattern.ordering is not None else \
        pattern.aggregated_node() if pattern.form is QuestionForm.RANGE and not pattern.per else None
    return ranked is not None and (node == ranked or any(
        not t.is_type and node in t.nodes() and ranked in t.nodes() for t in pattern.triples))


def class_choices(subject: str, candidates: Sequence[LinkedEntity], index: int, *,
                  one_thing: bool = True) -> list[_Choice]:
    """Ways to say "subject is a <class phrase>": membership of a linked class (or of one of its
    subclasses), an attribute equal to a value named like the class ("dogs" -> `pettype "dog"`), a
    link to a thing named like the class ("sensors" -> `hasCategory <Sensor>`), a class together with
    such a value or link when each names its own words of the phrase ("LCD products" -> Product with
    `hasCategory <LCD>`), or no constraint at all (`CLASS_DROP_SCORE`): class words in questions are
    often not classes."""
    choices = []
    valued = [c for c in candidates if c.kind in ("literal", "linked")]
    for candidate in candidates:
        if candidate.kind == "class":
            choices.append(_Choice(membership(subject, candidate, index), candidate.score))
            for value in valued:
                if value.partner == candidate.term.value:
                    score = candidate.score + value.score * (1 - candidate.score)  # together they say more
                    choices.extend(_Choice(f"{membership(subject, candidate, index)} . {subject} <{p}> "
                                           f"{term_to_sparql(value.term)}", score) for p in value.predicates)
        elif candidate.kind in ("literal", "linked"):
            value = term_to_sparql(candidate.term)
            choices.extend(_Choice(f"{subject} <{p}> {value}", candidate.score * CLASS_VALUE_FACTOR)
                           for p in candidate.predicates)
        elif subject.startswith("?") and one_thing:
            choices.append(_Choice(f"VALUES {subject} {{ {term_to_sparql(candidate.term)} }}",
                                   candidate.score * CLASS_VERTEX_FACTOR))
    choices.append(_Choice("", CLASS_DROP_SCORE))
    return choices


def reading_factor(candidate: LinkedEntity) -> float:
    """What reading a class phrase as this candidate costs (1 for a class)."""
    return {"class": 1.0, "literal": CLASS_VALUE_FACTOR, "linked": CLASS_VALUE_FACTOR}.get(candidate.kind,
                                                                                          CLASS_VERTEX_FACTOR)


def attribute_leaves(pattern: PhraseGraphPattern) -> list[str]:
    """Unknowns hanging off ?unknown1 by one attribute edge, those used for ORDER/FILTER last and only
    when ?unknown1 has no class: the value compared or ordered by is the condition, not the answer,
    of "the song with the highest sales" (a typed thing), but may be the answer of "the largest bonus"."""
    if pattern.form is not QuestionForm.LIST or pattern.projection != (ANSWER,) or pattern.grouped:
        return []
    modified = pattern.modified_nodes()
    leaves = pattern.answer_leaves()
    typed = pattern.answer_is_typed()
    return [n for n in leaves if n not in modified] + ([] if typed else [n for n in leaves if n in modified])


def valued_nodes(pattern: PhraseGraphPattern) -> set[str]:
    """Unknowns whose values are ordered, compared or aggregated: they must be literal values; not the
    answers of a list sorted by themselves ("Show the suppliers in Japan in alphabetical order"), which
    may be things."""
    nodes = pattern.valued_nodes() - ({ANSWER} if sorted_by_itself(pattern) else set())
    if pattern.form.is_measure and not pattern.per:
        nodes.add(pattern.aggregated_node())
        nodes.update(pattern.times)
    return {n for n in nodes if is_unknown(n)}


def companion_values(pattern: PhraseGraphPattern) -> set[str]:
    """Numbers and dates asked beside the answers (`:: select ?u1 ?u2`, `?u2` a leaf of one relation that
    names a measure or a date): where the relation leads to things that hold one number or date (a price
    node's amount), that is the value asked ("every service with its price"), not the thing. A
    department beside its members stays the department (its one number is an id)."""
    degree = node_degrees(pattern.triples)
    relation = {n: t.relation for t in pattern.triples if not t.is_type for n in t.nodes()}
    return {n for n in pattern.projection if n != ANSWER and is_unknown(n) and degree.get(n) == 1
            and kind_of_attribute(relation[n]) in (AnswerKind.NUMBER, AnswerKind.DATE)}


def sorted_by_itself(pattern: PhraseGraphPattern) -> bool:
    """Whether a list is sorted by its answers themselves, none of them compared or limited."""
    ordering = pattern.ordering
    return ordering is not None and ordering.node == ANSWER and ordering.limit is None and not ordering.per_group \
        and pattern.form is QuestionForm.LIST and not any(ANSWER in (c.node, c.other_node) for c in pattern.comparisons)


def countable_values(pattern: PhraseGraphPattern) -> set[str]:
    """Ordered or compared unknowns (not the answer) that a graph may hold as things rather than
    numbers: "Which products have more than 3 suppliers?" decoded as `filter ?u2 > 3` on `?u1 |
    suppliers | ?u2`. Reached by a predicate to things, they are counted per answer instead
    (`counted_instead`). Not when the unknown is aggregated or compared with a date or a text, nor
    when it is the answer, except in a yes/no question ("Does X manage more than 20 products?" as `X |
    products | ?u1 :: filter ?u1 > 20`)."""
    nodes = {c.node for c in pattern.comparisons if not c.per_group}
    if pattern.ordering is not None and not pattern.ordering.per_group:
        nodes.add(pattern.ordering.node)
    if pattern.form.is_measure:
        nodes.discard(pattern.aggregated_node())
    uncountable = {c.node for c in pattern.comparisons if not c.by_count and not _written_number(c.value)}
    if pattern.form is not QuestionForm.BOOLEAN:
        uncountable.add(ANSWER)
    return {n for n in nodes - uncountable - set(pattern.group) if is_unknown(n)}


def counted_instead(pattern: PhraseGraphPattern, nodes: frozenset[str]) -> PhraseGraphPattern:
    """The pattern with its orderings and comparisons on `nodes` made counts of them per answer."""
    if not nodes:
        return pattern
    ordering = pattern.ordering
    if ordering is not None and ordering.node in nodes and not ordering.per_group:
        ordering = replace(ordering, by_count=True)
    # a comparison of an aggregate of the same unknown ("an average attendance above 2000") stays one
    comparisons = tuple(replace(c, by_count=True) if c.node in nodes and not c.per_group else c
                        for c in pattern.comparisons)
    return replace(pattern, ordering=ordering, comparisons=comparisons)


def shared_values(pattern: PhraseGraphPattern) -> set[str]:
    """Unknowns reached by one relation phrase from two ends (`?u1 | department | ?u2 ; Karen Brant |
    department | ?u2`): what the two share, never one of them."""
    ends: dict[tuple[str, str], set[str]] = {}
    for triple in pattern.triples:
        if not triple.is_type:
            for node, other in ((triple.object, triple.subject), (triple.subject, triple.object)):
                if is_unknown(node):
                    ends.setdefault((node, triple.relation), set()).add(other)
    return {node for (node, _), others in ends.items() if len(others) >= 2}


def dangling_unknowns(pattern: PhraseGraphPattern) -> set[str]:
    """Unknowns that only hang off one edge and are used nowhere else ("?u1 | use | ?u3"): such an
    edge constrains little, so a query may drop it when no predicate fits it (score `DROP_SCORE`)."""
    degree = node_degrees(pattern.triples)
    used = {ANSWER, *pattern.projection, *pattern.group, *pattern.per, *pattern.modified_nodes()}
    if pattern.form.is_measure:
        used.add(pattern.aggregated_node())
        if pattern.ordering is not None and not pattern.group and not pattern.per and \
                pattern.ordering.node not in {c.node for c in pattern.comparisons}:
            used.discard(pattern.ordering.node)  # a measure renders no ordering: "shows that were first shows"
    return {n for n, d in degree.items() if d == 1 and is_unknown(n) and n not in used}


def _holding_triples(target: str, where: str) -> list[tuple[str, str]]:
    """(subject, predicate) of each triple of a query body whose object is `target`."""
    return re.findall(rf"(\?\w+) (<[^>]+>|\S+) {re.escape(target)}(?=\s*(?:\.|}}|$))", where)


def distinct_values(target: str, where: str) -> str:
    """The body an AVG/SUM runs over: each thing's value once (`SELECT DISTINCT ?thing ?value`), so a
    join the reading adds beside the thing (`?other hasSupplier ?supplier` next to the product's own
    supplier) does not count the value once per joined row; the plain body where no one triple holds
    the value."""
    holders = [holder for holder, _ in _holding_triples(target, where)]
    if len(holders) != 1 or holders[0] == target:
        return where
    return f"{{ SELECT DISTINCT {holders[0]} {target} WHERE {{ {where} }} }}"


# a predicate named as a stored quantity of things: "num_of_ticket", "number_products", "ticket_count" (not
# "contestant_number" or "phone_number", which name one thing)
_QUANTITY_FIRST = frozenset({"num", "number", "quantity", "amount"})


def _names_a_quantity(predicate: str) -> bool:
    words = [w.lower() for w in split_words(local_name(predicate))]
    return len(words) > 1 and (words[0] in _QUANTITY_FIRST or words[-1] == "count")


# a value stated "False" is no value where values are counted: ORKG keeps "no evaluation method" as the literal "False"
# among the methods ("How many different evaluation methods are used?" counts the methods, not the marker)
NOT_STATED_FALSE = 'FILTER(!isLiteral({variable}) || LCASE(STR({variable})) != "false")'


def merely_had(pattern: PhraseGraphPattern, outside: set[str]) -> list[str]:
    """Dangling unknowns (outside any negation) whose relation names no value of a known kind: what "shows that were
    first shows" (`?u1 | first shows | ?u2`) says of a show is that it has the attribute, so not as stated false. A
    name, date or number ("?u1 | name | ?u2") is never a yes/no value."""
    dangling = dangling_unknowns(pattern) & outside
    return sorted(n for t in pattern.triples if not t.is_type and kind_of_attribute(t.relation) is None
                  for n in t.nodes() if n in dangling)


def not_stated_false(nodes: Sequence[str], body: str) -> str:
    """FILTER text for each unknown in `nodes` that a triple of the body binds: a thing has a yes/no attribute only
    where the attribute is not stated false (graphs keep yes/no attributes as "true"/"false" or "True"/"False"; a
    value of another kind passes)."""
    bound = [_var(n) for n in nodes if re.search(rf"(?:<[^<>\s]+>|\?\w+) {re.escape(_var(n))}(?!\w)", body)]
    return "".join(f" {NOT_STATED_FALSE.format(variable=v)}" for v in bound)


def count_query(variable: str, where: str) -> str:
    """COUNT, except that one number is the answer itself: "How many staff does the museum have?"
    is `?museum :num_of_staff ?u1` in graphs that store the count, not a count of its values; and
    numbers held by a predicate named as a quantity are added up, once per holder ("How many tickets has
    X bought?" over X's visits, each with its `num_of_ticket`); a value stated "False" is not counted.
    (A subquery: Virtuoso fails to compile the aggregates inside IF.)"""
    number = '(isNumeric(?kgqaMin) || REGEX(STR(?kgqaMin), "^[0-9]+([.][0-9]+)?$"))'
    held = [(holder, predicate[1:-1]) for holder, predicate in _holding_triples(variable, where) if predicate.startswith("<")]
    if len(held) == 1 and held[0][0] != variable and _names_a_quantity(held[0][1]):
        inner = (f"SELECT (COUNT(DISTINCT {variable}) AS ?kgqaN) (MIN({variable}) AS ?kgqaMin) "
                 f"(SUM({XSD_DECIMAL}(STR({variable}))) AS ?kgqaSum) WHERE {{ {distinct_values(variable, where)} }}")
        return f"SELECT (IF({number}, ?kgqaSum, ?kgqaN) AS ?count) WHERE {{ {{ {inner} }} }}"
    inner = (f"SELECT (COUNT(DISTINCT {variable}) AS ?kgqaN) (MIN({variable}) AS ?kgqaMin) "
             f"WHERE {{ {where} {NOT_STATED_FALSE.format(variable=variable)} }}")
    return f"SELECT (IF(?kgqaN = 1 && {number}, ?kgqaMin, ?kgqaN) AS ?count) WHERE {{ {{ {inner} }} }}"


def sort_key(variable: str) -> str:
    """What a value is ordered by: as a number where it reads as one (numbers stored as strings), else
    as it is."""
    return f"COALESCE({XSD_DOUBLE}(str({variable})), {variable})"


def group_measure(ordering: Ordering, node: str | None = None) -> str:
    """What a per-group ordering ranks each answer by: how many `node`s it has, or an aggregate of
    their values (AVG/SUM/MIN/MAX of the numbers, as `numeric` reads them)."""
    node = node or ordering.node
    if ordering.aggregate:
        return aggregated(ordering.aggregate, node)
    return f"COUNT(DISTINCT {node})"


def aggregated(aggregate: str, node: str, *, raw: bool = False) -> str:
    """AVG/SUM/MIN/MAX, or the range MAX - MIN (`aggregate`, as the pattern writes it) of a node's numbers,
    as `numeric` reads them (`raw`: `node` is already the expression to aggregate)."""
    value = node if raw else numeric(node)
    if aggregate == QuestionForm.RANGE.value:
        return f"(MAX({value}) - MIN({value}))"
    return f"{aggregate.upper()}({value})"


def measured(pattern: PhraseGraphPattern, target: str) -> str:
    """What an avg/sum/min/max takes of each row: the target's number, times the numbers of the pattern's
    `times` unknowns ("the parts' cost taking quantities into account": price x quantity)."""
    return " * ".join(numeric(n) for n in (target, *pattern.times))


def numeric(variable: str) -> str:
    """A value to aggregate: typed numbers as they are, so AVG and SUM of decimals keep their exact
    digits (a cast to double comes back rounded to 6 digits from Virtuoso: 10599.23 -> 10599.2);
    numbers written as strings cast."""
    return f"IF(isNumeric({variable}), {variable}, {XSD_DOUBLE}(str({variable})))"


_WRITTEN_UNIT = re.compile(r"^\s*(?P<number>[+-]?\d+(?:\.\d+)?)\s*(?P<unit>[a-z]+)\.?\s*$", re.IGNORECASE)


def in_predicate_unit(comparison: Comparison, body: str) -> Comparison:
    """A compared value written in another unit than the one the predicate holding it names ("wider than 6 cm"
    against `width_mm`, "heavier than 0.02 kg" against `weight_g`), converted to that unit; else as it is."""
    written = _WRITTEN_UNIT.match(comparison.value)
    holder = re.search(rf"<(?P<iri>[^>]+)> {re.escape(comparison.node)}(?![\w])", body) if written else None
    if holder is None:
        return comparison
    stored = re.search(r"[_-](?P<unit>[a-z]+)$", holder.group("iri").rsplit("/", 1)[-1].rsplit("#", 1)[-1], re.IGNORECASE)
    said = written.group("unit").lower()
    for scales in UNIT_SCALES:
        if stored is not None and said in scales and stored.group("unit").lower() in scales:
            factor = scales[said] / scales[stored.group("unit").lower()]
            if factor == 1:
                return comparison
            value = float(written.group("number")) * factor
            return replace(comparison, value=str(int(value) if value.is_integer() else round(value, 9)))
    return comparison


def average_bound(comparison: Comparison, body: str, index: int) -> str:
    """" FILTER" text of a value compared with its average over all things of its holder's kind, as the
    body links them (`?s <capacity> ?u3 . ?s a <stadium>`): that average in a subquery beside the filter; a
    filter that holds nowhere where the body holds the value by no predicate of its own."""
    node = comparison.node
    held = re.search(rf"(?P<holder>\?\w+|<[^<>\s]+>) <(?P<iri>[^<>\s]+)> {re.escape(node)}(?![\w])", body)
    if held is None:
        return " FILTER(false)"
    holder, path = held["holder"], f"<{held['iri']}>"
    if holder.startswith(("?kgqaVia", "?kgqaThing")):  # a value of the thing one hop on (a price's amount)
        owner = re.search(rf"(?P<owner>\?\w+) <(?P<iri>[^<>\s]+)> {re.escape(holder)}(?![\w])", body)
        if owner is not None:
            holder, path = owner["owner"], f"<{owner['iri']}>/{path}"
    kind = re.search(rf"{re.escape(holder)} <{re.escape(RDF_TYPE)}> <(?P<iri>[^<>\s]+)>", body)
    typed = f" . ?kgqaOf{index} <{RDF_TYPE}> <{kind['iri']}>" if kind else ""
    average = f"?kgqaAverage{index}"
    return (f" {{ SELECT (AVG({XSD_DOUBLE}(str(?kgqaAll{index}))) AS {average}) WHERE {{ ?kgqaOf{index} {path} "
            f"?kgqaAll{index}{typed} }} }} FILTER({XSD_DOUBLE}(str({node})) {comparison.operator} {average})")


def comparison_expression(comparison: Comparison) -> str:
    """FILTER expression of a comparison that works for typed numbers, numeric strings, dates and years (an
    average bound needs the body: `average_bound`; alone it holds nowhere)."""
    node, operator, value = comparison.node, comparison.operator, comparison.value.strip().strip("\"'")
    if comparison.against_average:
        return "false"
    if comparison.other_node is not None and operator not in TEXT_OPERATORS:  # "cheaper than <Name>"
        return f"{XSD_DOUBLE}(str({node})) {operator} {XSD_DOUBLE}(str({comparison.other_node}))"
    if operator in TEXT_OPERATORS:  # "an email address containing 'Fried'", case-insensitive
        text = term_to_sparql(ox.Literal(value.lower()))
        function = {"contains": "CONTAINS", "starts": "STRSTARTS", "ends": "STRENDS"}[operator]
        return f"{function}(LCASE(str({node})), {text})"
    value = _written_number(value) or value
    if _ISO_DATE_TIME.match(value):  # "after 2018-03-09 19:03:36": to the second, whichever of " " or "T" is stored
        return f'SUBSTR(REPLACE(str({node}), "T", " "), 1, 19) {operator} "{value[:10]} {value[11:19]}"'
    if _ISO_DATE.match(value):
        return f'SUBSTR(str({node}), 1, 10) {operator} "{value[:10]}"'
    if _YEAR.match(value):  # an ISO date's year, a written date's last word ("May 26, 1986"), or a number
        return (f'IF(REGEX(str({node}), "^[0-9]{{4}}-"), {XSD_INTEGER}(SUBSTR(str({node}), 1, 4)), '
                f'IF(REGEX(str({node}), "[^0-9.][0-9]{{4}}$"), {XSD_INTEGER}(SUBSTR(str({node}), STRLEN(str({node})) - 3)), '
                f"{XSD_DOUBLE}(str({node})))) {operator} {value}")
    if _NUMBER.match(value):
        return f"{XSD_DOUBLE}(str({node})) {operator} {value}"
    return f"LCASE(str({node})) {operator} {term_to_sparql(ox.Literal(value.lower()))}"


def _written_number(value: str) -> str:
    """A compared value as a SPARQL number ("two" -> 2, "2,000" -> 2000, "800 EUR" -> 800), or "" if it is
    no number."""
    number = number_value(value, unit=True) if not _ISO_DATE.match(value.strip()) else None
    return "" if number is None else str(number)


def _best_products(options: Sequence[Sequence[_Choice]], limit: int) -> list[tuple[_Choice, ...]]:
    """The `limit` best combinations (one choice per edge) by total score, without enumerating all."""
    sorted_options = [sorted(o, key=lambda c: -c.score) for o in options]
    if not sorted_options:
        return [()]
    size = 1
    for option in sorted_options:
        size *= len(option)
    if size <= MAX_PRODUCT:
        combos = itertools.product(*sorted_options)
        return heapq.nlargest(limit, combos, key=lambda combo: sum(c.score for c in combo))
    start = (0,) * len(sorted_options)
    heap = [(-sum(o[0].score for o in sorted_options), start)]
    visited = {start}
    out: list[tuple[_Choice, ...]] = []
    while heap and len(out) < limit:
        negative, index = heapq.heappop(heap)
        out.append(tuple(o[i] for o, i in zip(sorted_options, index, strict=True)))
        for position in range(len(index)):
            if index[position] + 1 < len(sorted_options[position]):
                following = index[:position] + (index[position] + 1,) + index[position + 1:]
                if following not in visited:
                    visited.add(following)
                    delta = sorted_options[position][index[position]].score - sorted_options[position][index[position] + 1].score
                    heapq.heappush(heap, (negative + delta, following))
    return out
