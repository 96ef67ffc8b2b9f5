"""Derives question -> phrase graph pattern training data from the gold SPARQL in ../shared/data/train.

    python -m understanding.derive            # writes build/understanding/derived.jsonl + stats.json

Every gold query is read (understanding.gold_sparql), reduced to a graph of variables, entities,
literals, classes and predicates, and each part is aligned to the question words that express it.
The target keeps only what aligned; what did not is listed per question. The heuristics, in order:

1. Labels are names. `?x rdfs:label ?l FILTER(str(?l) = "CIFAR-10")` (and REGEX/CONTAINS, and
   `?x :t#name ?n FILTER(?n = 'Bob')` for name/title/label columns) makes `?x` the entity phrase
   "CIFAR-10"; other `?v = literal` filters put the literal in place of `?v`. `FILTER(?v > 56)`
   becomes a comparison, `FILTER(?v = ?m)` with `?m = MAX(...)` from a subquery the ordering
   `order ?v desc 1`.
2. Entities (IRIs, literals) align to the question span that names them: the IRI's local name
   (underscores, camelCase and percent-escapes undone, a trailing "(disambiguation)" optional) or
   the literal, matched exactly, then fuzzily (difflib ratio >= 0.8 on normalised text). DBLP's
   opaque ids (pid/50/671-33, rec/...) take the leftover quoted title or proper-noun run.
3. Predicates align to a span of 1-4 question tokens outside entity spans: lexical match of the
   predicate's words against token lemmas (prefix match of 5 letters tolerates typos and
   derivations: "founder"/"founded"), the comparative/superlative -> attribute table of the fallback
   ("older" -> age), or WordLlama cosine >= 0.45. A span ending in a verb takes the following
   preposition ("flows into", "directed by").
4. Classes (`?x a dbo:City`, Spider tables) align to a noun ("cities"); a class the question does
   not name is implicit and dropped without penalty. When the query does not type the answer but
   the question names its class ("Which/What <noun>", "How many <noun>", "List (all) the <noun>"),
   that noun becomes `?u1 | is a | <noun>` for resource and count answers, so the gold agrees with
   what a reader (and the model) sees in the question.
5. A predicate that does not align, between two nodes the question names, takes the connecting
   words between them when they are a preposition or verb run of at most 3 tokens ("boardgames *by*
   GMT", "heads *of* the departments"). An unnamed intermediate variable on a path whose other edge
   aligned is contracted (Spider join tables, SciQA's contribution nodes).
6. The answer (`?u1`) is the first projected variable (a label variable stands for its resource);
   aggregates set the form (COUNT(*) counts the main variable); further projected variables become
   `select`; ORDER BY var [LIMIT n] becomes the ordering. Per-group counts of the answer become
   `order count ?uN` (ORDER BY COUNT) and `filter count ?uN op n` (HAVING COUNT): ?uN is the counted
   variable, or for COUNT(*) the variable farthest from the grouped one (the rows); the counted
   variable must keep a triple. UNION, MINUS, other HAVING conditions, other per-group aggregates,
   set operations (FILTER IN), ORDER BY another aggregate, BIND and OFFSET are not representable:
   not aligned.
7. Triples are ordered by where their words stand in the question, unknowns numbered in that
   order, and each triple written unknown-first, so equal questions get equal targets.
8. Canonical span boundaries, so that one wording always gets one target: a relation or class span
   covers its whole noun compound ("birth location", "TV show", "previous broadcast networks";
   aggregation and order words such as "average" or "highest" stay outside), an entity span never
   starts with a lower-case article, and the full entity name outranks its shortened forms.

A question aligns fully when every entity and predicate aligned and nothing unrepresentable was met;
partly when the target lost an entity or a relation; not at all when no triple is left or the query
could not be represented. Splits: 10% of question groups (both DBLP versions of one item form a
group) go to dev, chosen by a seeded hash, never seen by training. Never reads ../shared/data/kgs.
"""

from __future__ import annotations

import argparse
import collections
import difflib
import hashlib
import json
import re
import sys
import time
import unicodedata
import urllib.parse
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from understanding.answer_types import kind_of_attribute, words, wordset
from understanding.fallback import IMPERATIVES, clean_phrase
from understanding.gold_sparql import RDF_TYPE, GoldQuery, GoldQueryError, Term, parse_gold_query
from understanding.grading import ATTRIBUTE_OF, number_value
from understanding.names import ABBREVIATIONS, segment
from understanding.pgp import (
    TYPE_RELATION,
    AnswerKind,
    Comparison,
    Ordering,
    PGPParseError,
    PhraseGraphPattern,
    PhraseTriple,
    QuestionForm,
)

ROOT = Path(__file__).resolve().parent.parent
TRAIN_DIR = ROOT.parent / "shared" / "data" / "train"
OUT_DIR = ROOT / "build" / "understanding"
DEV_FRACTION = 0.10
SPLIT_SEED = "kgqa-understanding-2026"
LABEL_PREDICATES = {
    "http://www.w3.org/2000/01/rdf-schema#label",
    "http://www.w3.org/2004/02/skos/core#prefLabel",
    "http://xmlns.com/foaf/0.1/name",
}
DERIVED_NAME_WEIGHT = 0.95  # a shortened entity name ("John Forbes" of John_Forbes_(officer)) ranks below the full one
_NOT_CLASSES = wordset("kind type sort number one ones name names thing things")
_GENERIC_WORDS = frozenset(["has", "have", "is", "of", "the", "a", "ref", "by", "in", "to", "for", "p", "on"])
_STOP_EDGE = frozenset(["DET", "PUNCT", "CCONJ", "PRON", "AUX", "SCONJ", "PART", "SPACE"])
_DISPLAY_WORDS = frozenset(["name", "names", "title", "id", "label", "first", "last", "code"])
_WH = frozenset(["what", "which", "who", "whom", "whose", "where", "when", "how", "why"])


@dataclass(frozen=True)
class Item:
    """One training question with its gold query, as read from the source file."""

    id: str
    source: str
    group: str
    question: str
    sparql: str
    answer_type_hint: str | None = None  # QALD's answertype


@dataclass
class Derived:
    """A derived example: the target as question spans plus the PGP text, and how it aligned."""

    id: str
    source: str
    group: str
    split: str
    question: str
    alignment: str  # full | partial | none
    problems: list[str]
    pattern: str | None
    target: dict[str, Any] | None
    answer_kind: str | None


# --- reading the training files --------------------------------------------------------------------
def read_items(train_dir: Path = TRAIN_DIR) -> Iterator[Item]:
    for x in json.loads((train_dir / "lcquad1-train.json").read_text()):
        question = x.get("corrected_question") or ""
        if not question.strip() or question.strip() == "n/a":
            question = re.sub(r"[<>]", "", x.get("intermediary_question") or "")
        yield Item(f"lcquad:{x['_id']}", "lcquad", f"lcquad:{x['_id']}", question, x["sparql_query"])
    for x in json.loads((train_dir / "qald9-train.json").read_text())["questions"]:
        english = [q["string"] for q in x["question"] if q.get("language") == "en" and q.get("string")]
        sparql = (x.get("query") or {}).get("sparql")
        if english and sparql:
            yield Item(f"qald:{x['id']}", "qald", f"qald:{x['id']}", english[0], sparql, x.get("answertype"))
    for x in json.loads((train_dir / "sciqa-train.json").read_text())["questions"]:
        yield Item(f"sciqa:{x['id']}", "sciqa", f"sciqa:{x['id']}", x["question"]["string"], x["query"]["sparql"])
    for x in json.loads((train_dir / "dblpquad-valid.json").read_text())["questions"]:
        group = f"dblp:{x['id']}"
        yield Item(f"dblp:{x['id']}", "dblp", group, x["question"]["string"], x["query"]["sparql"])
        paraphrase = (x.get("paraphrased_question") or {}).get("string")
        if paraphrase:
            yield Item(f"dblp:{x['id']}:p", "dblp", group, paraphrase, x["query"]["sparql"])
    for i, x in enumerate(json.loads((train_dir / "spider4sparql-train.json").read_text())):
        group = f"spider:{x['kg_name']}:{' '.join(x['question'].lower().split())}"
        yield Item(f"spider:{i}", "spider", group, x["question"], x["query"])


def split_of(group: str) -> str:
    digest = hashlib.sha256(f"{SPLIT_SEED}:{group}".encode()).digest()
    return "dev" if int.from_bytes(digest[:8], "big") / 2**64 < DEV_FRACTION else "train"


# --- names of graph terms --------------------------------------------------------------------------
def local_name(iri: str) -> str:
    tail = re.split(r"[#/]", iri.rstrip("/#"))[-1]
    return urllib.parse.unquote(tail)


def predicate_words(iri: str) -> list[str]:
    """`dbo:birthPlace` -> [birth, place]; `dbp:placeofburial` -> [place, of, burial];
    Spider `:t#ref-head_id` -> [head]; `:t#emp_fname` -> [employee, first, name]; ORKG `P31` -> []."""
    name = local_name(iri)
    if re.fullmatch(r"P\d+", name):
        return []
    out: list[str] = []
    for word in words(name):
        if word == "ref":
            continue
        out.extend(ABBREVIATIONS.get(word, " ".join(segment(word))).split())
    if out and out[-1] == "id" and len(out) > 1 and "#ref-" in iri:
        out = out[:-1]
    return out


def entity_names(term: Term) -> list[str]:
    """Names a question may use for an entity; empty when the IRI is opaque."""
    if term.kind == "literal":
        return [term.value]
    name = local_name(term.value).replace("_", " ").strip()
    if "dblp.org" in term.value:
        if re.fullmatch(r"[A-Za-z][A-Za-z]+", name) and re.search(r"[a-z][A-Z]", name):
            return [re.sub(r"([a-z])([A-Z])", r"\1 \2", name)]
        return []
    if re.fullmatch(r"[A-Z]?\d+", name) or not re.search(r"[A-Za-z]", name):
        return []
    names = [name]
    base = re.sub(r"\s*\([^)]*\)\s*$", "", name)
    if base and base != name:
        names.append(base)
    if "," in base:
        names.append(base.split(",")[0].strip())
    return names


def class_words(iri: str) -> list[str]:
    return words(local_name(iri))


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


# --- the graph read from a query --------------------------------------------------------------------
@dataclass
class _Edge:
    subject: str  # node id
    predicate: str  # IRI
    object: str


@dataclass
class _Graph:
    nodes: dict[str, Term] = field(default_factory=dict)  # id -> term (var or fixed)
    edges: list[_Edge] = field(default_factory=list)
    classes: dict[str, list[str]] = field(default_factory=dict)  # var id -> class IRIs
    form: QuestionForm = QuestionForm.LIST
    answer: str | None = None
    select: list[str] = field(default_factory=list)
    comparisons: list[tuple[str, str, str, bool]] = field(default_factory=list)  # var id, op, value, by count
    ordering: tuple[str, bool, int | None, bool] | None = None  # var id, descending, limit, by count
    answer_kind: AnswerKind | None = None
    problems: list[str] = field(default_factory=list)

    def node_id(self, term: Term) -> str:
        key = f"?{term.value}" if term.is_var else f"{term.kind}:{term.value}"
        self.nodes.setdefault(key, term)
        return key


def graph_of(query: GoldQuery, answer_type_hint: str | None = None) -> _Graph:
    """Heuristics 1 and 6: the query as a graph of the question's parts."""
    graph = _Graph()
    for problem in query.unsupported:
        if not problem.startswith("FILTER !=") and problem not in ("FILTER NOT EXISTS",):
            graph.problems.append(f"unrepresentable: {problem}")
        elif problem == "FILTER NOT EXISTS":
            graph.problems.append("unrepresentable: FILTER NOT EXISTS")
    label_of: dict[str, str] = {}  # label var -> resource var
    substitutions: dict[str, Term] = {}
    triples = []
    seen: set[tuple[str, str, str]] = set()
    for triple in query.triples:
        key = (str(triple.subject), str(triple.predicate), str(triple.object))
        if key not in seen:
            seen.add(key)
            triples.append(triple)
    object_of = {t.object.value: t for t in triples if t.object.is_var}
    for gold_filter in query.filters:
        var, op, value = gold_filter.var, gold_filter.op, gold_filter.value
        if op.startswith("=") and len(op) > 1:  # =max / =min from a subquery
            graph.ordering = (f"?{var}", op == "=max", 1, False)
            continue
        if value.is_var:
            if op != "!=":
                graph.problems.append(f"unrepresentable: FILTER ?{var} {op} ?{value.value}")
            continue
        if value.kind == "iri":
            if op != "!=":
                substitutions[var] = value
            continue
        owner = object_of.get(var)
        if op in ("=", "~") and value.datatype not in ("number", "date"):
            if owner is not None and owner.subject.is_var and _is_name_predicate(owner.predicate.value):
                substitutions[owner.subject.value] = Term("literal", value.value)
                label_of[var] = owner.subject.value
            else:
                substitutions[var] = Term("literal", value.value)
        elif op == "=":
            substitutions[var] = Term("literal", value.value, value.datatype)
        elif op in ("<", ">", "<=", ">=", "!="):
            if op == "!=":
                graph.problems.append("unrepresentable: FILTER != literal")
                continue
            graph.comparisons.append((f"?{var}", op, value.value, False))
    for triple in triples:
        if triple.predicate.value in LABEL_PREDICATES and triple.subject.is_var and triple.object.is_var:
            label_of.setdefault(triple.object.value, triple.subject.value)

    def resolve(term: Term) -> Term:
        if term.is_var and term.value in substitutions:
            return substitutions[term.value]
        if term.is_var and term.value in label_of:
            return resolve(Term("var", label_of[term.value]))
        return term

    for triple in triples:
        subject, obj = resolve(triple.subject), resolve(triple.object)
        if triple.predicate.is_var:
            graph.problems.append("unrepresentable: variable predicate")
            continue
        if triple.predicate.value == RDF_TYPE:
            if subject.is_var and obj.kind == "iri":
                graph.classes.setdefault(graph.node_id(subject), []).append(obj.value)
            continue
        if triple.predicate.value in LABEL_PREDICATES and subject == obj:
            continue
        if triple.predicate.value in LABEL_PREDICATES and not obj.is_var and subject.is_var:
            substitutions[subject.value] = obj
            continue
        if subject == obj:
            continue
        graph.edges.append(_Edge(graph.node_id(subject), triple.predicate.value, graph.node_id(obj)))
    # substitutions found late (a label triple with a literal object) apply to edges already read
    for edge in graph.edges:
        for end in ("subject", "object"):
            node = getattr(edge, end)
            if node.startswith("?") and node[1:] in substitutions:
                setattr(edge, end, graph.node_id(substitutions[node[1:]]))
    graph.comparisons = [(f"?{label_of.get(v[1:], v[1:])}", op, val, count) for v, op, val, count in graph.comparisons]

    # heuristic 6: answer, form, projection, ordering
    if query.form == "ask":
        graph.form = QuestionForm.BOOLEAN
        graph.answer_kind = AnswerKind.BOOLEAN
    else:
        projected: list[str] = []
        aggregates = [p for p in query.projections if p.aggregate]
        plain = [p for p in query.projections if not p.aggregate]
        counted_order = bool(query.order) and query.order[0][1] == "count"
        if plain and query.group_by and (counted_order or query.having) and all(
                p.aggregate == "count" for p in aggregates):
            aggregates = []  # per-group counts shown beside a grouped answer that they order or filter
        if aggregates:
            aggregate = aggregates[0]
            if aggregate.aggregate not in ("count", "min", "max", "avg", "sum"):
                graph.problems.append(f"unrepresentable: {aggregate.aggregate.upper()}")
            else:
                graph.form = QuestionForm(aggregate.aggregate)
            if plain or len(aggregates) > 1 or query.group_by:
                graph.problems.append("unrepresentable: aggregate per group")
            var = aggregate.var if aggregate.var else _main_var(graph)
            if var:
                projected.append(_resolve_var(var, label_of))
        else:
            for projection in plain:
                if projection.var:
                    projected.append(_resolve_var(projection.var, label_of))
            if query.select_all or not projected:
                main = _main_var(graph)
                if main:
                    projected.append(main)
        projected = list(dict.fromkeys(f"?{v}" for v in projected))
        fixed = [v for v in projected if v[1:] in substitutions]
        if fixed:
            graph.problems.append("unrepresentable: the answer is fixed by a filter")
        if projected:
            graph.answer = projected[0]
            graph.select = projected[1:]
        else:
            graph.problems.append("no answer variable")
        # GROUP BY a thing whose attribute is projected ("the name of the stadium with the most events",
        # grouped by the stadium) is read as grouping by the answer: the same unless two share a name.
        grouped = {f"?{_resolve_var(v, label_of)}" for v in query.group_by}
        for projection, op, value in query.having:
            counted = _counted_var(graph, projection.var, label_of, grouped) if grouped else None
            if counted is None:
                graph.problems.append("unrepresentable: HAVING")
            else:
                graph.comparisons.append((counted, op, value, True))
        for var, aggregate, descending in query.order[:1]:
            if aggregate == "count" and grouped:
                counted = _counted_var(graph, var, label_of, grouped)
                if counted is None:
                    graph.problems.append("unrepresentable: ORDER BY a count of no single variable")
                else:
                    graph.ordering = (counted, descending, query.limit, True)
            elif aggregate:
                graph.problems.append("unrepresentable: ORDER BY an aggregate")
            elif var:
                graph.ordering = (f"?{_resolve_var(var, label_of)}", descending, query.limit, False)
        graph.answer_kind = _gold_kind(graph, answer_type_hint, label_of)
    return graph


def _is_name_predicate(iri: str) -> bool:
    if iri in LABEL_PREDICATES:
        return True
    tail = words(local_name(iri))
    return bool(tail) and tail[-1] in ("name", "label", "title", "names")


def _resolve_var(var: str, label_of: dict[str, str]) -> str:
    seen = set()
    while var in label_of and var not in seen:
        seen.add(var)
        var = label_of[var]
    return var


def _counted_var(graph: _Graph, var: str | None, label_of: dict[str, str], grouped: set[str]) -> str | None:
    """The variable a per-group COUNT counts: the named one (never a grouped one), or for COUNT(*) the
    one farthest from the grouped variables (None when several tie)."""
    if var:
        node = f"?{_resolve_var(var, label_of)}"
        return None if node in grouped else node
    # COUNT(*) counts the joined rows: the variable farthest from the grouped ones stands for them
    # ("the stadium with the most events": ?event -> ?stadium -> ?name, so ?event)
    distance = dict.fromkeys(grouped, 0)
    frontier = set(grouped)
    while frontier:
        reached = {end for edge in graph.edges for end in (edge.subject, edge.object)
                   if {edge.subject, edge.object} & frontier and end.startswith("?") and end not in distance}
        for node in reached:
            distance[node] = max(distance[n] for n in frontier) + 1
        frontier = reached
    farthest = max(distance.values(), default=0)
    candidates = [n for n, d in distance.items() if d == farthest and d > 0]
    return candidates[0] if len(candidates) == 1 else None


def _main_var(graph: _Graph) -> str | None:
    for node in graph.classes:
        return node[1:]
    for edge in graph.edges:
        if edge.subject.startswith("?"):
            return edge.subject[1:]
    return None


def _gold_kind(graph: _Graph, hint: str | None, label_of: dict[str, str]) -> AnswerKind:
    """The answer kind from the form, QALD's answertype, or the answer's predicate name."""
    if graph.form in (QuestionForm.COUNT, QuestionForm.AVG, QuestionForm.SUM):
        return AnswerKind.NUMBER
    hints = {"date": AnswerKind.DATE, "number": AnswerKind.NUMBER, "boolean": AnswerKind.BOOLEAN,
             "string": AnswerKind.STRING, "resource": AnswerKind.RESOURCE, "uri": AnswerKind.RESOURCE}
    if hint in hints:
        return hints[hint]
    answer = graph.answer
    predicate_kinds = []
    for edge in graph.edges:
        if edge.object == answer:
            predicate_kinds.append(kind_of_attribute(" ".join(predicate_words(edge.predicate))))
    kind = next((k for k in predicate_kinds if k is not None), None)
    if graph.form in (QuestionForm.MIN, QuestionForm.MAX):
        return kind if kind in (AnswerKind.DATE, AnswerKind.NUMBER) else AnswerKind.NUMBER
    if kind is not None:
        return kind
    if answer in graph.classes:
        return AnswerKind.RESOURCE
    if answer and answer[1:] in label_of.values() and graph.select == []:
        return AnswerKind.RESOURCE
    spider_literal = any(e.object == answer and "valuenet" in e.predicate for e in graph.edges)
    return AnswerKind.STRING if spider_literal else AnswerKind.RESOURCE


# --- alignment ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Span:
    start: int  # token index
    end: int  # exclusive


class Aligner:
    """Heuristics 2-5 and 7: aligns a query graph to the words of its question."""

    def __init__(self, nlp: Any, word_vectors: Any) -> None:
        self.nlp = nlp
        self.wl = word_vectors
        self._vector_cache: dict[str, Any] = {}

    def vectors(self, texts: list[str]) -> Any:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vector_cache]
        if missing:
            for text, vector in zip(missing, self.wl.embed(missing, norm=True), strict=True):
                self._vector_cache[text] = vector
        return [self._vector_cache[t] for t in texts]

    def derive(self, item: Item, doc: Any) -> Derived:
        split = split_of(item.group)
        try:
            query = parse_gold_query(item.sparql)
        except GoldQueryError as exc:
            return Derived(item.id, item.source, item.group, split, item.question, "none",
                           [f"gold query unreadable: {exc}"], None, None, None)
        graph = graph_of(query, item.answer_type_hint)
        if graph.answer is None and graph.form is not QuestionForm.BOOLEAN:
            return Derived(item.id, item.source, item.group, split, item.question, "none",
                           graph.problems, None, None, None)
        target, problems = self._align(item, doc, graph)
        problems = graph.problems + problems
        kind = graph.answer_kind.value if graph.answer_kind else None
        unrepresentable = any(p.startswith("unrepresentable") or p.startswith("no answer") for p in problems)
        if target is None or unrepresentable:
            return Derived(item.id, item.source, item.group, split, item.question, "none", problems, None, None, kind)
        pattern = target_pattern(item.question, target)
        try:
            PhraseGraphPattern.from_text(pattern.to_text())
        except PGPParseError as exc:
            return Derived(item.id, item.source, item.group, split, item.question, "none",
                           [*problems, f"invalid target: {exc}"], None, None, kind)
        alignment = "partial" if problems else "full"
        return Derived(item.id, item.source, item.group, split, item.question, alignment, problems,
                       pattern.to_text(), target, kind)

    # ------------------------------------------------------------------------------------------------
    def _align(self, item: Item, doc: Any, graph: _Graph) -> tuple[dict[str, Any] | None, list[str]]:
        problems: list[str] = []
        used: set[int] = set()
        spans: dict[str, _Span] = {}  # node id -> span (entities, literals)
        imperative = {0} if len(doc) and doc[0].lower_ in IMPERATIVES else set()  # "Count the ...": never a part
        fixed = [n for n, t in graph.nodes.items() if not t.is_var and any(n in (e.subject, e.object) for e in graph.edges)]
        fixed.sort(key=lambda n: -max((len(x) for x in entity_names(graph.nodes[n])), default=0))
        opaque: list[str] = []
        for node in fixed:
            names = entity_names(graph.nodes[node])
            span = self._find_entity(doc, names, used) if names else None
            if span is None:
                opaque.append(node)
                continue
            spans[node] = span
            used.update(range(span.start, span.end))
        if opaque:
            leftovers = self._leftover_names(doc, used)
            for node in opaque:
                term = graph.nodes[node]
                if leftovers and (term.kind == "iri" and "dblp.org" in term.value):
                    span = leftovers.pop(0)
                    spans[node] = span
                    used.update(range(span.start, span.end))
                else:
                    problems.append(f"entity not in question: {term.value}")
        # comparisons: the value must stand in the question
        comparisons: list[tuple[str, str, _Span, bool]] = []
        for var, op, value, by_count in graph.comparisons:
            span = self._find_value(doc, value, used)
            if span is None:
                problems.append(f"comparison value not in question: {value}")
                continue
            used.update(range(span.start, span.end))
            comparisons.append((var, op, span, by_count))
        used |= imperative
        # classes
        class_spans: dict[str, _Span] = {}
        for var, iris in graph.classes.items():
            for iri in iris:
                span = self._find_class(doc, class_words(iri), used)
                if span is not None:
                    class_spans[var] = span
                    used.update(range(span.start, span.end))
                    break
        # predicates
        relation_spans: dict[int, _Span] = {}
        by_predicate: dict[str, _Span] = {}  # "X and Y follow": one phrase for both edges
        order = sorted(range(len(graph.edges)), key=lambda i: -len(predicate_words(graph.edges[i].predicate)))
        for index in order:
            edge = graph.edges[index]
            span = by_predicate.get(edge.predicate) or self._find_relation(doc, predicate_words(edge.predicate), used)
            if span is not None:
                relation_spans[index] = span
                by_predicate[edge.predicate] = span
                used.update(range(span.start, span.end))
        # canonical boundaries once every predicate has its words: a relation covers its noun compound
        widened: dict[_Span, _Span] = {}
        for index, span in sorted(relation_spans.items(), key=lambda item: item[1].start):
            if span not in widened:
                widened[span] = _noun_compound(doc, span, used, adjectives=True)
                used.update(range(widened[span].start, widened[span].end))
            relation_spans[index] = widened[span]
        # heuristic 5: connectors between named ends, then contraction of unnamed intermediates
        def anchor(node: str) -> _Span | None:
            return spans.get(node) or class_spans.get(node)

        edges = [(e.subject, relation_spans.get(i), e.object, e.predicate) for i, e in enumerate(graph.edges)]
        protected = {graph.answer} | set(graph.select) | {c[0] for c in comparisons}
        if graph.ordering:
            protected.add(graph.ordering[0])
        edges = _contract_joins(edges, protected | set(class_spans) | set(spans))
        answer, select, edges, implicit = _implicit_display_attribute(graph, edges, class_spans)
        if implicit:
            protected |= {answer, *select}
        for index, (subject, relation, obj, predicate) in enumerate(edges):
            if relation is not None:
                continue
            left, right = anchor(subject), anchor(obj)
            if left and right:
                connector = self._connector(doc, left, right, used)
                if connector is not None:
                    edges[index] = (subject, connector, obj, predicate)
                    used.update(range(connector.start, connector.end))
        edges, contracted = _contract(edges, protected | set(class_spans) | set(spans))
        problems.extend(f"contracted: {local_name(p)}" for p in contracted if predicate_words(p) and "#ref-" not in p)
        kept = []
        for subject, relation, obj, predicate in edges:
            if relation is None:
                problems.append(f"relation not in question: {local_name(predicate)}")
                continue
            if (subject not in graph.nodes or obj not in graph.nodes) or (
                (not graph.nodes[subject].is_var and subject not in spans)
                or (not graph.nodes[obj].is_var and obj not in spans)
            ):
                continue
            kept.append((subject, relation, obj))
        kept = _connected(kept, answer, class_spans)
        resource_answer = graph.answer_kind is AnswerKind.RESOURCE or graph.form is QuestionForm.COUNT
        if kept and answer and answer not in class_spans and resource_answer:
            named = self._named_answer_class(doc, used)
            if named is not None:
                class_spans[answer] = named
                used.update(range(named.start, named.end))
        if not kept and not class_spans.get(answer or ""):
            return None, problems + ["no triple left"]
        counted = {c[0] for c in comparisons if c[3]} | ({graph.ordering[0]} if graph.ordering and graph.ordering[3] else set())
        in_use = {n for s, _, o in kept for n in (s, o)}
        if counted and (answer in counted or not counted <= in_use):
            return None, problems + ["unrepresentable: the counted variable has no triple left"]
        return self._target(doc, graph, answer, select, kept, spans, class_spans, comparisons), problems

    def _target(
        self,
        doc: Any,
        graph: _Graph,
        answer: str | None,
        select: list[str],
        kept: list[tuple[str, _Span, str]],
        spans: dict[str, _Span],
        class_spans: dict[str, _Span],
        comparisons: list[tuple[str, str, _Span, bool]],
    ) -> dict[str, Any]:
        """Heuristic 7: triples in question order, unknowns numbered in that order, unknown first."""
        nodes_in_use = {n for s, _, o in kept for n in (s, o)}
        if answer:
            nodes_in_use.add(answer)
        rows: list[tuple[int, str, Any, str]] = []
        for subject, relation, obj in kept:
            rows.append((relation.start, subject, relation, obj))
        for var, span in class_spans.items():
            if var in nodes_in_use:
                rows.append((span.start, var, TYPE_RELATION, f"class:{var}"))
        rows.sort(key=lambda r: r[0])
        numbering: dict[str, int] = {}
        if answer:
            numbering[answer] = 1
        for _, subject, _, obj in rows:
            for node in (subject, obj):
                if node.startswith("?") and node not in numbering:
                    numbering[node] = len(numbering) + 1

        def encode(node: str) -> dict[str, Any]:
            if node.startswith("class:"):
                return _char_span(doc, class_spans[node[6:]])
            if node.startswith("?"):
                return {"u": numbering[node]}
            return _char_span(doc, spans[node])

        triples = []
        for _, subject, relation, obj in rows:
            left, right = encode(subject), encode(obj)
            unknown_later = "u" in right and ("u" not in left or right["u"] < left["u"])
            phrase_earlier = "u" not in left and "u" not in right and right["span"][0] < left["span"][0]
            if unknown_later or phrase_earlier:
                left, right = right, left
            triples.append([left, "is a" if relation == TYPE_RELATION else _char_span(doc, relation), right])
        target: dict[str, Any] = {"form": graph.form.value, "triples": triples}
        if graph.ordering and graph.ordering[0] in numbering:
            node, descending, limit, by_count = graph.ordering
            target["ordering"] = {"u": numbering[node], "desc": descending, "limit": limit,
                                  **({"count": True} if by_count else {})}
        target["comparisons"] = [
            {"u": numbering[var], "op": op, "value": _char_span(doc, span), **({"count": True} if by_count else {})}
            for var, op, span, by_count in comparisons if var in numbering
        ]
        target["select"] = list(dict.fromkeys(numbering[v] for v in select if v in numbering and numbering[v] != 1))
        if target["select"]:
            target["select"] = [1, *target["select"]]
        return target

    # --- span finders --------------------------------------------------------------------------------
    def _find_entity(self, doc: Any, names: list[str], used: set[int]) -> _Span | None:
        """The span that best matches one of the names; the full name (the first) outranks the shortened
        ones, so "Al Gore presidential campaign of 2000" is not cut to "Al Gore presidential campaign"."""
        best: tuple[float, _Span] | None = None
        for rank, name in enumerate(names):
            target = _norm(name)
            if not target:
                continue
            weight = 1.0 if rank == 0 else DERIVED_NAME_WEIGHT
            n_words = len(target.split())
            for start in range(len(doc)):
                if start in used or doc[start].is_punct:
                    continue
                for length in range(max(1, n_words - 2), n_words + 3):
                    end = start + length
                    if end > len(doc) or any(i in used for i in range(start, end)):
                        break
                    if doc[end - 1].is_punct and length > 1:
                        continue
                    text = _norm(doc[start:end].text)
                    if not text:
                        continue
                    if text == target:
                        ratio = 1.0
                    else:
                        matcher = difflib.SequenceMatcher(None, text, target)
                        if matcher.real_quick_ratio() < 0.8 or matcher.quick_ratio() < 0.8:
                            continue
                        ratio = matcher.ratio()
                    if ratio >= 0.8 and (best is None or ratio * weight > best[0]):
                        best = (ratio * weight, _Span(start, end))
            if best is not None and best[0] == 1.0:
                break
        return _without_article(doc, best[1]) if best else None

    @staticmethod
    def _leftover_names(doc: Any, used: set[int]) -> list[_Span]:
        """Quoted titles and proper-noun runs not yet aligned, in question order (for DBLP ids)."""
        out: list[_Span] = []
        i = 0
        text = doc.text
        for match in re.finditer(r"'([^']{3,})'|\"([^\"]{3,})\"", text):
            inner_start = match.start() + 1
            inner_end = match.end() - 1
            span = doc.char_span(inner_start, inner_end, alignment_mode="expand")
            if span is not None and not any(j in used for j in range(span.start, span.end)):
                out.append(_Span(span.start, span.end))
        quoted = len(out)
        taken = {j for s in out for j in range(s.start, s.end)}
        while i < len(doc):
            token = doc[i]
            leading_verb = i == 0 and token.lower_ in IMPERATIVES
            if i not in used and i not in taken and token.pos_ == "PROPN" and not leading_verb:
                j = i + 1
                while j < len(doc) and j not in used and (doc[j].pos_ == "PROPN" or (doc[j].text in (",", ".") and j + 1 < len(doc) and doc[j + 1].pos_ == "PROPN")):
                    j += 1
                out.append(_Span(i, j))
                i = j
                continue
            i += 1
        return out[:quoted] + sorted(out[quoted:], key=lambda s: s.start)

    @staticmethod
    def _find_value(doc: Any, value: str, used: set[int]) -> _Span | None:
        wanted = value.strip("'\"").replace(",", "")
        number = number_value(wanted) if re.fullmatch(r"-?\d+(\.\d+)?", wanted) else None
        for i, token in enumerate(doc):
            if i in used:
                continue
            text = token.text.replace(",", "")
            if text == wanted or (number is not None and number_value(text) == number):
                return _Span(i, i + 1)
        return None

    def _find_class(self, doc: Any, class_terms: list[str], used: set[int]) -> _Span | None:
        if not class_terms:
            return None
        head = class_terms[-1]
        for i, token in enumerate(doc):
            if i in used or token.pos_ not in ("NOUN", "PROPN", "ADJ", "VERB"):
                continue
            if _word_match(token, head):
                start = i
                for k, word in enumerate(reversed(class_terms[:-1])):
                    j = i - 1 - k
                    if j >= 0 and j not in used and _word_match(doc[j], word):
                        start = j
                    else:
                        break
                return _noun_compound(doc, _Span(start, i + 1), used, adjectives=False, heads=False)
        phrase = " ".join(class_terms)
        candidates = [i for i, t in enumerate(doc) if i not in used and t.pos_ == "NOUN"]
        if not candidates:
            return None
        vectors = self.vectors([phrase] + [doc[i].text.lower() for i in candidates])
        scores = [float(vectors[0] @ v) for v in vectors[1:]]
        best = max(range(len(candidates)), key=lambda k: scores[k])
        if scores[best] < 0.6:
            return None
        return _noun_compound(doc, _Span(candidates[best], candidates[best] + 1), used, adjectives=False, heads=False)

    @staticmethod
    def _named_answer_class(doc: Any, used: set[int]) -> _Span | None:
        """The class a question names for its answer though the query does not type it: the noun of
        "Which/What <noun>", "How many <noun>" or "<List/Name/Give me> (all) (the) <noun>", with its
        compound ("Which american football players"). None when that noun already took part."""
        head = None
        for i, token in enumerate(doc[:4]):
            if token.lower_ in ("which", "what") and token.dep_ == "det":
                head = token.head
                break
            if token.lower_ == "how" and i + 1 < len(doc) and doc[i + 1].lower_ in ("many", "much"):
                head = doc[i + 1].head
                break
        if head is None and len(doc) and doc[0].lower_ in IMPERATIVES:
            head = next((t for t in doc[0].children if t.dep_ == "dobj"), None)
        if head is None or head.pos_ != "NOUN" or head.i in used or head.lower_ in _NOT_CLASSES:
            return None
        if head.i + 1 < len(doc) and doc[head.i + 1].lower_ == "of":  # "what kind of", "which type of"
            return None
        return _noun_compound(doc, _Span(head.i, head.i + 1), used, adjectives=True, heads=False)

    def _find_relation(self, doc: Any, predicate: list[str], used: set[int]) -> _Span | None:
        content = [w for w in predicate if w not in _GENERIC_WORDS] or predicate
        if not content:
            return None
        candidates: list[_Span] = []
        for start in range(len(doc)):
            for length in range(1, 5):
                end = start + length
                if end > len(doc) or any(i in used for i in range(start, end)):
                    break
                tokens = doc[start:end]
                if tokens[0].pos_ in _STOP_EDGE or tokens[-1].pos_ in _STOP_EDGE or any(t.is_punct for t in tokens):
                    continue
                if tokens[0].lower_ in _WH or tokens[0].pos_ == "ADP":
                    continue
                candidates.append(_Span(start, end))
        if not candidates:
            return None
        best: tuple[float, _Span] | None = None
        for span in candidates:
            tokens = [t for t in doc[span.start:span.end] if t.pos_ not in ("ADP", "DET")]
            if not tokens:
                continue
            matched_words = {w for w in content if any(_word_match(t, w) for t in tokens)}
            matched_tokens = [t for t in tokens if any(_word_match(t, w) for w in content)]
            recall = len(matched_words) / len(content)
            precision = len(matched_tokens) / len(tokens)
            if recall and precision:
                score = 2 * recall * precision / (recall + precision)
                if best is None or score > best[0] + 1e-9:
                    best = (score, span)
        if best is not None and best[0] >= 0.5:
            return self._extend(doc, best[1], used)
        phrase = " ".join(predicate)
        short = [s for s in candidates if s.end - s.start <= 2 and any(t.pos_ in ("NOUN", "VERB", "ADJ") for t in doc[s.start:s.end])]
        if not short:
            return None
        vectors = self.vectors([phrase] + [doc[s.start:s.end].text.lower() for s in short])
        scores = [float(vectors[0] @ v) - 0.05 * (s.end - s.start - 1) for v, s in zip(vectors[1:], short, strict=True)]
        k = max(range(len(short)), key=lambda j: scores[j])
        return self._extend(doc, short[k], used) if scores[k] >= 0.45 else None

    @staticmethod
    def _extend(doc: Any, span: _Span, used: set[int]) -> _Span:
        """A relation ending in a verb keeps its preposition ("flows into", "directed by")."""
        end = span.end
        if doc[end - 1].pos_ == "VERB" and end < len(doc) and end not in used and doc[end].pos_ == "ADP":
            end += 1
        return _Span(span.start, end)

    @staticmethod
    def _connector(doc: Any, left: _Span, right: _Span, used: set[int]) -> _Span | None:
        first, second = (left, right) if left.start < right.start else (right, left)
        between = [i for i in range(first.end, second.start) if doc[i].pos_ not in ("DET", "PUNCT")]
        if not between or len(between) > 3 or any(i in used for i in between):
            return None
        if between != list(range(between[0], between[-1] + 1)):
            return None
        if not any(doc[i].pos_ in ("ADP", "VERB") for i in between) or doc[between[0]].pos_ in _STOP_EDGE:
            return None
        return _Span(between[0], between[-1] + 1)


def _without_article(doc: Any, span: _Span) -> _Span:
    """Canonical entity spans: a leading lower-case article is never part of the name ("the Snaman"
    -> "Snaman"); a capitalised one inside the sentence is ("The Postman")."""
    start = span.start
    while start < span.end - 1 and doc[start].text in ("the", "a", "an"):
        start += 1
    return _Span(start, span.end)


# Modifiers that say how to aggregate, order or count, never what a relation or class is.
_NOT_MODIFIERS = wordset(
    "many much different distinct average total maximum minimum max min highest lowest largest smallest "
    "greatest least most more fewer less other same all each every only several various some any "
    "overall number common"
)


def _noun_compound(doc: Any, span: _Span, used: set[int], adjectives: bool, heads: bool = True) -> _Span:
    """Canonical phrase boundaries: a relation or class span covers its whole noun compound, i.e. the
    unused compound modifiers before it ("phD advisor", "movie ratings") and, when its last word
    modifies a following noun, that noun ("board members"). Aggregation and order words ("average",
    "highest") and superlatives stay outside."""

    def modifier(token: Any) -> bool:
        if token.i in used or token.lower_ in _NOT_MODIFIERS or token.lower_ in IMPERATIVES:
            return False
        if token.dep_ == "compound" and token.pos_ in ("NOUN", "PROPN"):
            return True
        return adjectives and token.dep_ == "amod" and token.pos_ == "ADJ" and token.tag_ == "JJ"

    start, end = span.start, span.end
    while start > 0 and modifier(doc[start - 1]) and span.start <= doc[start - 1].head.i < end:
        start -= 1
    while (heads and end < len(doc) and end not in used and doc[end - 1].dep_ == "compound" and doc[end - 1].head.i == end
           and doc[end].pos_ in ("NOUN", "PROPN") and doc[end].lower_ not in _NOT_MODIFIERS):
        end += 1
    return _Span(start, end)


def _word_match(token: Any, word: str) -> bool:
    lemma, lower = token.lemma_.lower(), token.lower_
    if word in (lemma, lower) or lower == word + "s" or lower == word + "es":
        return True
    if ATTRIBUTE_OF.get(lemma) == word or ATTRIBUTE_OF.get(lower.rstrip("er").rstrip("est")) == word:
        return True
    if len(word) >= 6 and len(lower) >= 6 and lower[:4] == word[:4]:
        return True
    return len(word) >= 5 and len(lower) >= 5 and (lower[:5] == word[:5])


_Edge4 = tuple[str, Any, str, str]  # subject, relation span or None, object, predicate IRI


def _contract_intermediates(edges: list[_Edge4], protected: set[str], merge: Any) -> list[_Edge4]:
    """Repeatedly replaces an unprotected variable of degree 2 and its two edges by the one edge that
    `merge(pair, ends)` returns (None keeps them)."""
    changed = True
    while changed:
        changed = False
        degree: collections.Counter[str] = collections.Counter()
        for s, _, o, _ in edges:
            degree[s] += 1
            degree[o] += 1
        for node, count in degree.items():
            if count != 2 or not node.startswith("?") or node in protected:
                continue
            pair = [e for e in edges if node in (e[0], e[2])]
            ends = [e[2] if e[0] == node else e[0] for e in pair]
            merged = merge(pair, ends) if ends[0] != ends[1] else None
            if merged is not None:
                edges = [e for e in edges if e not in pair] + [merged]
                changed = True
                break
    return edges


def _contract_joins(edges: list[_Edge4], protected: set[str]) -> list[_Edge4]:
    """An unnamed variable between two unaligned join edges (Spider's link tables, SciQA's `P31`
    contribution nodes) is contracted into one unaligned edge, which a connector may then name."""

    def merge(pair: list[_Edge4], ends: list[str]) -> _Edge4 | None:
        if any(e[1] is not None for e in pair) or not any(_is_join(e[3]) for e in pair):
            return None
        return (ends[0], None, ends[1], pair[0][3])

    return _contract_intermediates(edges, protected, merge)


def _is_join(predicate: str) -> bool:
    return "#ref-" in predicate or not predicate_words(predicate)


def _implicit_display_attribute(
    graph: _Graph, edges: list[tuple[str, Any, str, str]], class_spans: dict[str, _Span]
) -> tuple[str | None, list[str], list[tuple[str, Any, str, str]], bool]:
    """"papers citing X" projects the papers' title in Spider; when the projected attribute is not
    named in the question, its owner is the answer."""
    answer, select = graph.answer, list(graph.select)
    changed = False
    for var in [answer, *graph.select]:
        if var is None:
            continue
        owning = [e for e in edges if e[2] == var and e[0].startswith("?")]
        if len(owning) != 1 or owning[0][1] is not None or any(e[0] == var for e in edges):
            continue
        owner = owning[0][0]
        if not set(predicate_words(owning[0][3])) & _DISPLAY_WORDS:
            continue
        if owner not in class_spans and not any(e[1] is not None and owner in (e[0], e[2]) for e in edges):
            continue
        edges = [e for e in edges if e is not owning[0]]
        changed = True
        if var == answer:
            answer = owner
        select = [owner if v == var else v for v in select]
    select = [v for v in dict.fromkeys(select) if v != answer]
    return answer, select, edges, changed


def _contract(edges: list[_Edge4], protected: set[str]) -> tuple[list[_Edge4], list[str]]:
    """Removes unnamed intermediate variables of degree 2 when only one of their edges aligned; returns
    the edges and the predicates contracted away (a problem unless they are opaque or joins)."""
    contracted: list[str] = []

    def merge(pair: list[_Edge4], ends: list[str]) -> _Edge4 | None:
        aligned = [e for e in pair if e[1] is not None]
        if len(aligned) != 1:
            return None
        contracted.extend(e[3] for e in pair if e[1] is None)
        return (ends[0], aligned[0][1], ends[1], aligned[0][3])

    return _contract_intermediates(edges, protected, merge), contracted


def _connected(kept: list[tuple[str, _Span, str]], answer: str | None, class_spans: dict[str, _Span]) -> list[tuple[str, _Span, str]]:
    """Only the part connected to the answer (or every triple, for a boolean without an answer)."""
    if answer is None:
        return kept
    reach = {answer}
    changed = True
    while changed:
        changed = False
        for s, _, o in kept:
            if (s in reach) != (o in reach):
                reach.update((s, o))
                changed = True
    return [t for t in kept if t[0] in reach]


def _char_span(doc: Any, span: _Span) -> dict[str, Any]:
    start = doc[span.start].idx
    last = doc[span.end - 1]
    return {"span": [start, last.idx + len(last.text)]}


def target_pattern(question: str, target: dict[str, Any]) -> PhraseGraphPattern:
    """The PGP a target stands for; phrases are the question's own text."""

    def node(value: dict[str, Any]) -> str:
        if "u" in value:
            return f"?unknown{value['u']}"
        start, end = value["span"]
        return clean_phrase(question[start:end])

    triples = tuple(
        PhraseTriple(node(s), TYPE_RELATION if r == "is a" else node(r), node(o)) for s, r, o in target["triples"]
    )
    ordering = None
    if target.get("ordering"):
        o = target["ordering"]
        ordering = Ordering(f"?unknown{o['u']}", o["desc"], o["limit"], o.get("count", False))
    comparisons = tuple(
        Comparison(f"?unknown{c['u']}", c["op"], node(c["value"]), c.get("count", False))
        for c in target.get("comparisons", [])
    )
    projection = tuple(f"?unknown{u}" for u in target.get("select") or [1])
    return PhraseGraphPattern(triples, QuestionForm(target["form"]), ordering, comparisons, projection)


# --- the command -----------------------------------------------------------------------------------
def derive_all(train_dir: Path = TRAIN_DIR, limit: int | None = None) -> list[Derived]:
    from understanding.resources import spacy_pipeline, word_vectors

    nlp = spacy_pipeline()
    aligner = Aligner(nlp, word_vectors())
    items = list(read_items(train_dir))
    if limit:
        items = items[:limit]
    questions = [" ".join(item.question.split()) for item in items]
    items = [Item(i.id, i.source, i.group, q, i.sparql, i.answer_type_hint) for i, q in zip(items, questions, strict=True)]
    out: list[Derived] = []
    with nlp.select_pipes(disable=["ner"]):
        for item, doc in zip(items, nlp.pipe(questions, batch_size=256), strict=True):
            out.append(aligner.derive(item, doc))
    return out


def statistics(derived: list[Derived]) -> dict[str, Any]:
    stats: dict[str, Any] = {"questions": len(derived), "by_source": {}, "splits": {}, "problems": {}}
    by_source: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    problems: collections.Counter[str] = collections.Counter()
    per_group: collections.Counter[str] = collections.Counter()  # targets with `order count` / `filter count`
    for d in derived:
        by_source[d.source][d.alignment] += 1
        by_source["all"][d.alignment] += 1
        stats["splits"].setdefault(d.split, collections.Counter())[d.alignment] += 1
        if d.pattern and PhraseGraphPattern.from_text(d.pattern).grouped:
            per_group[f"{d.split}:{d.alignment}"] += 1
        for problem in d.problems:
            problems[re.sub(r":.*", "", problem)] += 1
    stats["by_source"] = {k: dict(v) for k, v in sorted(by_source.items())}
    stats["splits"] = {k: dict(v) for k, v in stats["splits"].items()}
    stats["problems"] = dict(problems.most_common())
    stats["per_group_counts"] = dict(sorted(per_group.items()))
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train-dir", type=Path, default=TRAIN_DIR)
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions (for a quick look)")
    args = parser.parse_args(argv)
    if "kgs" in args.train_dir.parts:
        parser.error("the evaluation graphs' questions (shared/data/kgs) are never training data")
    started = time.perf_counter()
    derived = derive_all(args.train_dir, args.limit)
    args.out.mkdir(parents=True, exist_ok=True)
    with (args.out / "derived.jsonl").open("w") as handle:
        for d in derived:
            handle.write(json.dumps(asdict(d), ensure_ascii=False) + "\n")
    stats = statistics(derived)
    stats["seconds"] = round(time.perf_counter() - started, 1)
    (args.out / "stats.json").write_text(json.dumps(stats, indent=2))
    json.dump({k: stats[k] for k in ("questions", "by_source", "splits", "per_group_counts", "seconds")}, sys.stdout,
              indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
