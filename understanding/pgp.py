"""The phrase graph pattern (PGP): what a question asks, in the question's own words.

A PGP is a small undirected graph. Nodes are entity phrases copied from the question ("Danish
Straits") or unknowns (`?unknown1` is always the answer, `?unknown2`... are intermediate); edges
are relation phrases ("flows into"). Class membership uses the relation `is a` ("?unknown1 is a
sea"). Beyond KGQAN, the PGP also carries the question's form (list, boolean, count, an aggregate),
an ordering with a limit ("the three oldest") and numeric/date comparisons ("older than 56"), so
the query builder can emit ASK, COUNT, ORDER BY/LIMIT and FILTER.

The model emits a compact text form, parsed strictly by `PhraseGraphPattern.from_text`:

    count :: ?u1 | directed by | Stanley Kubrick ; ?u1 | is a | movies
    list :: ?u1 | is a | singers ; ?u1 | age | ?u2 :: order ?u2 desc 3
    boolean :: ?u1 | member of | Sales ; ?u1 | name | Karen Brant
    list :: ?u1 | is a | heads ; ?u1 | age | ?u2 :: filter ?u2 > 56 :: select ?u1 ?u2
    list :: ?u1 | is a | department ; ?u2 | works in | ?u1 :: order count ?u2 desc 1
    list :: ?u1 | is a | countries ; ?u1 | country | ?u2 :: filter count ?u2 >= 2
    count :: ?u1 | is a | employees ; ?u1 | department | ?u2 :: group ?u2
    list :: ?u1 | is a | product ; ?u1 | weight | ?u2 ; ?u1 | category | ?u3 :: order ?u2 desc 1 :: group ?u3
    avg :: ?u1 | is a | products ; ?u1 | supplier | ?u2 ; ?u2 | is a | supplier :: per ?u2

`order count ?u2` and `filter count ?u2` group by the projected unknowns and order or compare by how
many distinct ?u2 each has ("the department with the most employees", "countries with at least two
singers"). `group ?u2` on a count or aggregate form answers once per ?u2 ("How many employees does
each department have?"): each answer is a number beside the group it is for; on a list form ordered
with limit 1 it answers the best of each group ("the heaviest product in each category", "the shop with
the most products in each district"), beside its group. `per ?u2` on an avg, sum, min or max form
aggregates how many ?u1 each ?u2 has ("the average number of products per supplier"), one number;
only the syntax readers write it (the model's vocabulary lacks it). `other NAME` says the answer is
not the thing NAME names ("Which other suppliers are in the same country as Neal LLC?"), and `order
?u2 desc 1 offset 1` skips the first ("the second most expensive service"); repairs write both, not
the model. `filter avg ?u2 > 3` (or sum, min, max) compares each answer's aggregate of its ?u2 values
("categories whose average price is above 3"), as `filter count` compares how many; a repair writes it.
`times ?u3` on an avg, sum, min or max form aggregates the answer's value times ?u3's in each
row ("the total cost of the parts of X, taking the quantities into account": `sum :: ?u1 | cost | ?u2 ;
?u2 | parts | X ; ?u2 | quantity | ?u3 :: times ?u3`); a composition writes it, not the model. The
`range` form is the maximum less the minimum of the values (`range :: ?u1 | price | ?u2 ; ?u2 | is a |
products ; ?u2 | category | ?u3 :: group ?u3`: "the difference between the most and the least expensive
product in each category"); the parser writes it for a spread read as an average, never the model.
`also min max` on an avg, sum, min or max form answers those aggregates of the same values beside the form's
("What are the average, minimum and maximum ages of singers from France?": `avg :: ?u1 | ages | ?u2 ; ?u2 |
is a | singers ; ?u2 | from | France :: also min max`); the parser writes it, not the model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum

ANSWER = "?unknown1"
TYPE_RELATION = "is a"
NEGATION = "not "  # a relation phrase starting so must not hold for the answer
OPERATORS = ("<=", ">=", "!=", "<", ">", "=")
TEXT_OPERATORS = ("contains", "starts", "ends")  # text matches, written by repairs only (not in the model's vocabulary)
# a compared value that is the average of the value over all things of its holder's kind ("whose capacity is greater
# than the average capacity of all stadiums": `filter ?u3 > average`), written by repairs only
AVERAGE_BOUND = "average"
GROUP_AGGREGATES = ("avg", "sum", "min", "max")  # what an ordering may rank groups by, besides a count
_UNKNOWN = re.compile(r"^\?(?:u|unknown)(\d+)$")


class PGPParseError(ValueError):
    """The text is not a well-formed phrase graph pattern; the message says where."""


class QuestionForm(StrEnum):
    LIST = "list"
    BOOLEAN = "boolean"
    COUNT = "count"
    AVG = "avg"
    SUM = "sum"
    MIN = "min"
    MAX = "max"
    RANGE = "range"  # the maximum less the minimum ("the difference between the most and least expensive")

    @property
    def is_aggregate(self) -> bool:
        return self is QuestionForm.COUNT or self.is_measure

    @property
    def is_measure(self) -> bool:
        """An average, total, minimum, maximum or range of values (an aggregate that does not count)."""
        return self in (QuestionForm.AVG, QuestionForm.SUM, QuestionForm.MIN, QuestionForm.MAX, QuestionForm.RANGE)


def is_unknown(node: str) -> bool:
    return bool(_UNKNOWN.match(node))


def next_unknown_number(nodes: Iterable[str]) -> int:
    """The N of a fresh `?unknownN` beside `nodes`: one past the highest unknown among them (1 if none)."""
    return 1 + max((int(match.group(1)) for node in nodes if (match := _UNKNOWN.match(node))), default=0)


def canonical_node(node: str) -> str:
    """`?u2` and `?unknown2` are the same unknown; phrases are kept as written (trimmed)."""
    match = _UNKNOWN.match(node.strip())
    return f"?unknown{int(match.group(1))}" if match else node.strip()


def _short(node: str) -> str:
    match = _UNKNOWN.match(node)
    return f"?u{match.group(1)}" if match else node


@dataclass(frozen=True)
class PhraseTriple:
    """One edge of the PGP. Direction is not meaningful: linking decides it against the graph."""

    subject: str
    relation: str
    object: str

    def nodes(self) -> tuple[str, str]:
        return (self.subject, self.object)

    @property
    def is_type(self) -> bool:
        return self.relation == TYPE_RELATION

    @property
    def negated(self) -> bool:
        """A relation that must not hold ("?u1 | not located in | United States")."""
        return self.relation.lower().startswith(NEGATION) and len(self.relation) > len(NEGATION)

    def positive(self) -> PhraseTriple:
        """The same triple with its negation taken off."""
        return replace(self, relation=self.relation[len(NEGATION):]) if self.negated else self


def node_degrees(triples: Iterable[PhraseTriple]) -> dict[str, int]:
    """How many of the triples each node is in (a leaf is in one)."""
    degree: dict[str, int] = {}
    for triple in triples:
        for node in triple.nodes():
            degree[node] = degree.get(node, 0) + 1
    return degree


@dataclass(frozen=True)
class Ordering:
    """ORDER BY the value of `node` (an unknown), by how many `node`s each answer has (`by_count`),
    or by an aggregate of each answer's `node` values (`aggregate`: avg, sum, min or max; "the category
    with the highest average price"), descending or not, optionally LIMIT."""

    node: str
    descending: bool = False
    limit: int | None = None
    by_count: bool = False
    aggregate: str | None = None
    offset: int = 0  # "the second most expensive": one past the first

    def __post_init__(self) -> None:
        if self.aggregate is not None and (self.aggregate not in GROUP_AGGREGATES or self.by_count):
            raise PGPParseError(f"an ordering aggregates with one of {' '.join(GROUP_AGGREGATES)}, "
                                f"and does not also count; got {self.aggregate!r}")

    @property
    def per_group(self) -> bool:
        """Whether answers are grouped and ranked by a count or an aggregate of `node`."""
        return self.by_count or self.aggregate is not None

    def to_text(self) -> str:
        measure = "count " if self.by_count else f"{self.aggregate} " if self.aggregate else ""
        text = f"order {measure}{_short(self.node)} {'desc' if self.descending else 'asc'}"
        text = text if self.limit is None else f"{text} {self.limit}"
        return f"{text} offset {self.offset}" if self.offset else text


@dataclass(frozen=True)
class Comparison:
    """FILTER(node operator value), or with `by_count` HAVING(COUNT(node) operator value), or with
    `aggregate` HAVING(AVG(node) operator value) ("categories whose average price is above 3"); value is
    a number or an ISO date as written, a text the value contains, starts or ends with (`TEXT_OPERATORS`),
    another unknown whose value it is compared with ("cheaper than Predictive Maintenance":
    `filter ?u2 < ?u3`), or the average of the value over its holder's kind (`AVERAGE_BOUND`)."""

    node: str
    operator: str
    value: str
    by_count: bool = False
    aggregate: str | None = None

    @property
    def other_node(self) -> str | None:
        """The unknown compared with, where the value is one."""
        return self.value if is_unknown(self.value) else None

    @property
    def per_group(self) -> bool:
        """Whether each answer's count or aggregate of `node` is compared (HAVING), not each value."""
        return self.by_count or self.aggregate is not None

    @property
    def against_average(self) -> bool:
        """Whether the value is compared with its average over all things of its holder's kind."""
        return self.value.lower() == AVERAGE_BOUND and not self.per_group

    def to_text(self) -> str:
        measure = "count " if self.by_count else f"{self.aggregate} " if self.aggregate else ""
        return f"filter {measure}{_short(self.node)} {self.operator} {_short(self.value)}"

    def __post_init__(self) -> None:
        if self.operator not in OPERATORS + TEXT_OPERATORS:
            raise PGPParseError(f"unknown comparison operator {self.operator!r}; "
                                f"use one of {' '.join(OPERATORS + TEXT_OPERATORS)}")
        if self.aggregate is not None and (self.aggregate not in GROUP_AGGREGATES or self.by_count):
            raise PGPParseError(f"a comparison aggregates with one of {' '.join(GROUP_AGGREGATES)}, "
                                f"and does not also count; got {self.aggregate!r}")


@dataclass(frozen=True)
class PhraseGraphPattern:
    triples: tuple[PhraseTriple, ...]
    form: QuestionForm = QuestionForm.LIST
    ordering: Ordering | None = None
    comparisons: tuple[Comparison, ...] = ()
    projection: tuple[str, ...] = (ANSWER,)
    group: tuple[str, ...] = ()  # an aggregate form answers once per value of these unknowns
    per: tuple[str, ...] = ()  # an avg/sum/min/max of how many answers each value of these unknowns has
    others: tuple[str, ...] = ()  # named things the answer is not ("Which other suppliers ... as Neal LLC?")
    times: tuple[str, ...] = ()  # an avg/sum/min/max of the answer's value times these unknowns' values, per row
    also: tuple[str, ...] = ()  # other aggregates (avg, sum, min, max) of the same values, answered beside the form's
    notes: tuple[str, ...] = field(default=(), compare=False)

    def nodes(self) -> list[str]:
        seen: dict[str, None] = {}
        for triple in self.triples:
            for node in triple.nodes():
                seen.setdefault(node, None)
        return list(seen)

    def unknowns(self) -> list[str]:
        return [n for n in self.nodes() if is_unknown(n)]

    def entity_phrases(self) -> list[str]:
        """Node phrases to link to graph vertices (class phrases of `is a` edges excluded)."""
        classes = {t.object for t in self.triples if t.is_type}
        return [n for n in self.nodes() if not is_unknown(n) and n not in classes]

    def positive(self) -> PhraseGraphPattern:
        """The pattern with every negated relation stated positively (for linking)."""
        return replace(self, triples=tuple(t.positive() for t in self.triples))

    @property
    def grouped(self) -> bool:
        """Whether answers are grouped and ordered or filtered by a count of another unknown."""
        return bool(self.ordering and self.ordering.per_group) or any(c.per_group for c in self.comparisons)

    def valued_nodes(self) -> set[str]:
        """Unknowns whose own values are ordered or compared (not counted)."""
        nodes = {n for c in self.comparisons if not c.by_count for n in (c.node, c.other_node) if n is not None}
        if self.ordering is not None and not self.ordering.by_count:
            nodes.add(self.ordering.node)
        return nodes

    def answer_leaves(self) -> list[str]:
        """Unknowns in one triple only, an attribute edge of ?unknown1, in pattern order."""
        degree = node_degrees(self.triples)
        return list(dict.fromkeys(other for t in self.triples if not t.is_type and ANSWER in t.nodes()
                                  for other in t.nodes() if other != ANSWER and is_unknown(other) and degree[other] == 1))

    def answer_is_typed(self) -> bool:
        return any(t.is_type and t.subject == ANSWER for t in self.triples)

    def aggregated_node(self) -> str:
        """The unknown an AVG/SUM/MIN/MAX applies to: the answer, unless the answer is a typed thing
        ("?u1 is a singer") with one attribute leaf ("?u1 | age | ?u2"): then the attribute."""
        if not self.answer_is_typed():
            return ANSWER
        leaves = self.answer_leaves()
        return leaves[0] if len(leaves) == 1 else ANSWER

    def modified_nodes(self) -> set[str]:
        """Unknowns an ordering, a comparison or a product (`times`) refers to, by value or by count."""
        nodes = {n for c in self.comparisons for n in (c.node, c.other_node) if n is not None} | set(self.times)
        if self.ordering is not None:
            nodes.add(self.ordering.node)
        return nodes

    def held_nodes(self) -> set[str]:
        """Unknowns the pattern uses beyond its triples: compared, ordered, multiplied, selected or grouped by."""
        return self.modified_nodes() | set(self.projection) | set(self.group)

    def node_phrase(self, node: str) -> str:
        """What the question calls a node: its class phrase, else the relation phrase of its first edge,
        else its short name (a column heading for the node's values)."""
        for triple in self.triples:
            if triple.is_type and triple.subject == node:
                return triple.object
        for triple in self.triples:
            if not triple.is_type and node in triple.nodes():
                return triple.relation
        return _short(canonical_node(node))

    def class_phrases(self) -> list[str]:
        return [t.object for t in self.triples if t.is_type and not is_unknown(t.object)]

    def relation_phrases(self) -> list[str]:
        return list(dict.fromkeys(t.relation for t in self.triples if not t.is_type))

    def to_text(self) -> str:
        triples = " ; ".join(f"{_short(t.subject)} | {t.relation} | {_short(t.object)}" for t in self.triples)
        parts = [self.form.value, triples]
        if self.ordering is not None:
            parts.append(self.ordering.to_text())
        parts.extend(comparison.to_text() for comparison in self.comparisons)
        if self.projection != (ANSWER,):
            parts.append("select " + " ".join(_short(n) for n in self.projection))
        if self.group:
            parts.append("group " + " ".join(_short(n) for n in self.group))
        if self.per:
            parts.append("per " + " ".join(_short(n) for n in self.per))
        parts.extend(f"other {name}" for name in self.others)
        if self.times:
            parts.append("times " + " ".join(_short(n) for n in self.times))
        if self.also:
            parts.append("also " + " ".join(self.also))
        return " :: ".join(parts)

    def __str__(self) -> str:
        return self.to_text()

    @classmethod
    def from_text(cls, text: str) -> PhraseGraphPattern:
        """Strict parser of the model's output; raises `PGPParseError` saying what is wrong."""
        sections = [s.strip() for s in text.strip().split("::")]
        if len(sections) < 2:
            raise PGPParseError(f"expected 'form :: triples', got {text!r}")
        try:
            form = QuestionForm(sections[0].lower())
        except ValueError:
            raise PGPParseError(
                f"unknown question form {sections[0]!r}; use one of {', '.join(f.value for f in QuestionForm)}"
            ) from None
        triples: list[PhraseTriple] = []
        for raw in sections[1].split(" ; "):
            raw = raw.strip()
            if not raw:
                continue
            parts = [p.strip() for p in raw.split("|")]
            if len(parts) != 3 or not all(parts):
                raise PGPParseError(f"triple {raw!r} must be 'node | relation | node' with three non-empty parts")
            subject, relation, obj = canonical_node(parts[0]), parts[1], canonical_node(parts[2])
            if not (is_unknown(subject) or is_unknown(obj)) and form is not QuestionForm.BOOLEAN:
                # only a yes/no question may check a fact between two named things ("Is X the wife of Y?")
                raise PGPParseError(f"triple {raw!r} has no unknown: outside boolean patterns every triple must touch one")
            triples.append(PhraseTriple(subject, relation, obj))
        if not triples and form is not QuestionForm.BOOLEAN:
            raise PGPParseError("a pattern needs at least one triple")
        ordering: Ordering | None = None
        comparisons: list[Comparison] = []
        projection: tuple[str, ...] = (ANSWER,)
        group: tuple[str, ...] = ()
        per: tuple[str, ...] = ()
        others: list[str] = []
        times: tuple[str, ...] = ()
        also: tuple[str, ...] = ()
        for section in sections[2:]:
            words = section.split()
            if not words:
                continue
            keyword = words[0].lower()
            by_count = len(words) > 1 and words[1].lower() == "count" and keyword in ("order", "filter")
            aggregate = words[1].lower() if len(words) > 1 and words[1].lower() in GROUP_AGGREGATES and \
                keyword in ("order", "filter") else None
            if by_count or aggregate:
                words = [words[0], *words[2:]]
            if keyword == "order":
                offset = 0
                if len(words) == 6 and words[4].lower() == "offset" and words[5].isdigit():
                    offset, words = int(words[5]), words[:4]
                if len(words) not in (3, 4) or words[2].lower() not in ("asc", "desc"):
                    raise PGPParseError(f"order must be 'order [count|avg|sum|min|max] ?uN asc|desc [limit [offset N]]', "
                                        f"got {section!r}")
                if ordering is not None:
                    raise PGPParseError("at most one order section")
                limit = None
                if len(words) == 4:
                    if not words[3].isdigit() or int(words[3]) < 1:
                        raise PGPParseError(f"order limit must be a positive integer, got {words[3]!r}")
                    limit = int(words[3])
                ordering = Ordering(_unknown_arg(words[1], section), words[2].lower() == "desc", limit, by_count, aggregate,
                                    offset)
            elif keyword == "filter":
                if len(words) < 4:
                    raise PGPParseError(f"filter must be 'filter [count] ?uN op value', got {section!r}")
                comparisons.append(Comparison(_unknown_arg(words[1], section), words[2],
                                              canonical_node(" ".join(words[3:])), by_count, aggregate))
            elif keyword == "select":
                projection = tuple(_unknown_arg(w, section) for w in words[1:])
                if not projection:
                    raise PGPParseError("select needs at least one unknown")
            elif keyword == "group":
                group = tuple(_unknown_arg(w, section) for w in words[1:])
                if not group:
                    raise PGPParseError("group needs at least one unknown")
            elif keyword == "per":
                per = tuple(_unknown_arg(w, section) for w in words[1:])
                if not per:
                    raise PGPParseError("per needs at least one unknown")
            elif keyword == "other":
                name = section.split(None, 1)[1].strip() if len(words) > 1 else ""
                if not name or is_unknown(name) or name not in {n for t in triples for n in t.nodes()}:
                    raise PGPParseError(f"other must name a thing of the triples, got {section!r}")
                others.append(name)
            elif keyword == "times":
                times = tuple(_unknown_arg(w, section) for w in words[1:])
                if not times or not form.is_measure:
                    raise PGPParseError("times needs unknowns, on an avg, sum, min or max form")
            elif keyword == "also":
                also = tuple(w.lower() for w in words[1:])
                if not also or not set(also) <= set(GROUP_AGGREGATES) or form.value in also or len(set(also)) < len(also) \
                        or form not in (QuestionForm.AVG, QuestionForm.SUM, QuestionForm.MIN, QuestionForm.MAX):
                    raise PGPParseError("also needs other aggregates (avg, sum, min, max), each once, on an avg, sum, min "
                                        "or max form")
            else:
                raise PGPParseError(f"unknown section {keyword!r}; expected order, filter, select, group, per, other, "
                                    f"times or also")
        pattern = cls(tuple(triples), form, ordering, tuple(comparisons), projection, group, per, tuple(others), times,
                      also=also)
        known = set(pattern.unknowns())
        compared = [n for c in comparisons for n in (c.node, c.other_node) if n is not None]
        for node in ([ordering.node] if ordering else []) + compared + list(projection) + list(group) + list(per) + list(times):
            if triples and node not in known and not (form is QuestionForm.BOOLEAN and not known):
                raise PGPParseError(f"{_short(node)} is used in a modifier but appears in no triple")
        if group:
            _check_group(pattern)
        if per and (not form.is_measure
                    or ANSWER in per or group or ordering is not None):
            raise PGPParseError("per needs an avg, sum, min or max form over ?u1 counted per other unknowns, "
                                "without group or order")
        if also and (group or per or times):
            raise PGPParseError("also answers one number per aggregate: not with group, per or times")
        return pattern


def _check_group(pattern: PhraseGraphPattern) -> None:
    """A group answers a count or an aggregate once per group, or the best of each group (a list
    ordered with limit 1, by a value or by a count per answer); it does not also filter by counts."""
    if ANSWER in pattern.group:
        raise PGPParseError("group must name unknowns other than ?u1, the counted, aggregated or best one")
    if pattern.form is QuestionForm.LIST:
        ordering = pattern.ordering
        if ordering is None or ordering.limit != 1 or ordering.node == ANSWER or ordering.node in pattern.group:
            raise PGPParseError("group on a list needs `order [count] ?uN asc|desc 1` on another unknown: the best of each group")
    elif not pattern.form.is_aggregate:
        raise PGPParseError(f"group needs a count, aggregate or ordered list form, not {pattern.form.value}")
    elif pattern.ordering is not None:
        raise PGPParseError("group on a count or aggregate does not combine with order")
    if any(c.by_count for c in pattern.comparisons):
        raise PGPParseError("group does not combine with filter count")


def _unknown_arg(word: str, section: str) -> str:
    if not is_unknown(word):
        raise PGPParseError(f"{word!r} in {section!r} must be an unknown like ?u1")
    return canonical_node(word)


class AnswerKind(StrEnum):
    RESOURCE = "resource"  # an entity, with a semantic type phrase such as "sea" or "person"
    STRING = "string"
    NUMBER = "number"
    DATE = "date"
    BOOLEAN = "boolean"


@dataclass(frozen=True)
class AnswerType:
    """What kind of answer the question expects; filters answers after execution."""

    kind: AnswerKind
    semantic_type: str | None = None  # e.g. "sea", "person", "department" (for RESOURCE/STRING)
    confidence: float = 1.0

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.semantic_type}" if self.semantic_type else self.kind.value


@dataclass(frozen=True)
class UnderstoodQuestion:
    """The output of question understanding, for one question."""

    question: str
    pattern: PhraseGraphPattern
    answer_type: AnswerType
    source: str  # "model" or "fallback" (and why), so outputs say which was used
    raw_output: str = ""
    elapsed_ms: float = 0.0
    unsupported: str | None = None  # why the pattern cannot stand for the question (negation, ...)
    alternatives: tuple[PhraseGraphPattern, ...] = ()  # the model's next readings, best first
    wh_noun: str | None = None  # what "Which <noun> ..." asks for, where the pattern names no answer class
