"""A reader of the gold SPARQL in the training sets, just deep enough to derive training targets.

The training sets use dialects no strict parser accepts (LC-QuAD's `SELECT DISTINCT COUNT(?uri)`,
DBLP-QuAD's `MIN(xsd:integer(?x)) AS ?y`, Spider4SPARQL's `:table\\#column` names, `ORDER BY ASC
((count(*) as ?a))` and comma-separated projections in SciQA), and rdflib's parser needs minutes for
16,000 queries here. This reader tokenizes, then walks the query: the form, the projection with
aggregates, triple patterns (with `;`, `,` and `a`), FILTERs reduced to comparisons and label
matches, nested groups and subqueries (flattened), ORDER BY and LIMIT. What it cannot interpret it
records in `unsupported`, so the derivation can say why a question did not align.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
KNOWN_PREFIXES = {
    "": "http://valuenet/ontop/",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "dbo": "http://dbpedia.org/ontology/",
    "dbr": "http://dbpedia.org/resource/",
    "res": "http://dbpedia.org/resource/",
    "dbp": "http://dbpedia.org/property/",
    "dbc": "http://dbpedia.org/resource/Category:",
    "yago": "http://dbpedia.org/class/yago/",
    "dct": "http://purl.org/dc/terms/",
    "orkgp": "http://orkg.org/orkg/predicate/",
    "orkgc": "http://orkg.org/orkg/class/",
    "orkgr": "http://orkg.org/orkg/resource/",
}
AGGREGATES = ("count", "min", "max", "avg", "sum", "sample", "group_concat")

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+|\#[^\n]*)
    |(?P<iri><[^<>"{}|^`\\\s]*>)
    |(?P<var>[?$][A-Za-z0-9_]+)
    |(?P<str>(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")(?:@[A-Za-z-]+|\^\^(?:<[^>]*>|[A-Za-z_][\w-]*:[\w-]*))?)
    |(?P<date>\d{4}-\d\d-\d\d)
    |(?P<num>[+-]?(?:\d+\.\d+|\d+|\.\d+)(?:[eE][+-]?\d+)?)
    |(?P<pname>(?:[A-Za-z][\w\-]*)?:(?:[\w\-%]|\\[\#.\-~/&]|\.(?=[\w\\]))*)
    |(?P<op>&&|\|\||!=|<=|>=|\^\^|[{}().;,=<>!*+/\-\[\]|])
    |(?P<word>[A-Za-z_]\w*)
    """,
    re.X,
)


class GoldQueryError(ValueError):
    """The query could not be read at all."""


@dataclass(frozen=True)
class Term:
    """A node of a triple pattern: `kind` is var, iri or literal; `value` the name, IRI or text."""

    kind: str
    value: str
    datatype: str | None = None

    @property
    def is_var(self) -> bool:
        return self.kind == "var"

    def __str__(self) -> str:
        return f"?{self.value}" if self.is_var else (f"<{self.value}>" if self.kind == "iri" else repr(self.value))


@dataclass(frozen=True)
class GoldTriple:
    subject: Term
    predicate: Term
    object: Term


@dataclass(frozen=True)
class GoldFilter:
    """`var op value`; op `~` is a label match (REGEX/CONTAINS), `=` with a literal an equality."""

    var: str
    op: str
    value: Term


@dataclass(frozen=True)
class Projection:
    var: str | None  # the projected or aggregated variable; None for COUNT(*)
    aggregate: str | None = None
    alias: str | None = None


@dataclass
class GoldQuery:
    form: str  # "select" or "ask"
    projections: list[Projection] = field(default_factory=list)
    select_all: bool = False
    triples: list[GoldTriple] = field(default_factory=list)
    filters: list[GoldFilter] = field(default_factory=list)
    order: list[tuple[str | None, str | None, bool]] = field(default_factory=list)  # var, aggregate, desc
    limit: int | None = None
    group_by: list[str] = field(default_factory=list)
    having: list[tuple[Projection, str, str]] = field(default_factory=list)  # COUNT(?x) >= 2
    aggregate_aliases: dict[str, Projection] = field(default_factory=dict)  # alias -> aggregate (any depth)
    unsupported: list[str] = field(default_factory=list)
    optional_vars: set[str] = field(default_factory=set)


def _unescape_local(name: str) -> str:
    return re.sub(r"\\(.)", r"\1", name)


class _Reader:
    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        while pos < len(text):
            match = _TOKEN.match(text, pos)
            if match is None:
                raise GoldQueryError(f"cannot read the query at {text[pos:pos + 30]!r}")
            pos = match.end()
            kind = match.lastgroup or ""
            if kind != "ws":
                self.tokens.append((kind, match.group(kind)))
        self.i = 0
        self.prefixes = dict(KNOWN_PREFIXES)

    def peek(self, offset: int = 0) -> tuple[str, str]:
        j = self.i + offset
        return self.tokens[j] if j < len(self.tokens) else ("eof", "")

    def next(self) -> tuple[str, str]:
        token = self.peek()
        self.i += 1
        return token

    def at_word(self, *words: str) -> bool:
        kind, value = self.peek()
        return kind == "word" and value.lower() in words

    def expect(self, value: str) -> None:
        kind, got = self.next()
        if got != value:
            raise GoldQueryError(f"expected {value!r}, got {got!r}")

    def balanced(self) -> list[tuple[str, str]]:
        """The tokens of a parenthesised expression starting at '(' (exclusive of the outer parens)."""
        self.expect("(")
        depth, out = 1, []
        while True:
            kind, value = self.next()
            if kind == "eof":
                raise GoldQueryError("unbalanced parentheses")
            if value == "(":
                depth += 1
            elif value == ")":
                depth -= 1
                if depth == 0:
                    return out
            out.append((kind, value))

    def term(self, kind: str, value: str) -> Term:
        if kind == "var":
            return Term("var", value[1:])
        if kind == "iri":
            return Term("iri", value[1:-1])
        if kind == "pname":
            prefix, _, local = value.rstrip(".").partition(":")
            base = self.prefixes.get(prefix)
            if base is None:
                raise GoldQueryError(f"unknown prefix {prefix!r}")
            return Term("iri", base + _unescape_local(local))
        if kind == "word" and value == "a":
            return Term("iri", RDF_TYPE)
        if kind == "str":
            return _literal(value)
        if kind in ("num", "date"):
            return Term("literal", value, "number" if kind == "num" else "date")
        if kind == "word" and value.lower() in ("true", "false"):
            return Term("literal", value.lower(), "boolean")
        raise GoldQueryError(f"unexpected {value!r} in a triple")


def _literal(token: str) -> Term:
    match = re.match(r"""^(['"])(.*)\1(?:@[A-Za-z-]+|\^\^(.+))?$""", token, re.S)
    if not match:
        raise GoldQueryError(f"bad literal {token!r}")
    text = re.sub(r"\\(.)", r"\1", match.group(2))
    return Term("literal", text, match.group(3))


def parse_gold_query(text: str) -> GoldQuery:
    """Reads one gold query; raises `GoldQueryError` only when nothing sensible can be read."""
    reader = _Reader(text)
    while reader.at_word("prefix", "base"):
        if reader.next()[1].lower() == "prefix":
            name = reader.next()[1]
            iri = reader.next()[1]
            reader.prefixes[name.rstrip(":")] = iri[1:-1]
        else:
            reader.next()
    query = _query(reader, top=True)
    return query


def _query(reader: _Reader, top: bool, into: GoldQuery | None = None) -> GoldQuery:
    kind, value = reader.next()
    if value.lower() == "ask":
        query = into or GoldQuery("ask")
        if reader.at_word("where"):
            reader.next()
        _group(reader, query)
        _modifiers(reader, query)
        return query
    if value.lower() != "select":
        raise GoldQueryError(f"expected SELECT or ASK, got {value!r}")
    query = GoldQuery("select") if into is None else into
    projections: list[Projection] = []
    select_all = False
    while reader.at_word("distinct", "reduced"):
        reader.next()
    while True:
        kind, value = reader.peek()
        if value == "{" or (kind == "word" and value.lower() in ("where", "from")) or kind == "eof":
            break
        if value == "*":
            reader.next()
            select_all = True
        elif kind == "var":
            reader.next()
            projections.append(Projection(value[1:]))
        elif value == ",":
            reader.next()
        elif value == "(" or (kind == "word" and value.lower() in AGGREGATES):
            projections.append(_projection_expression(reader, query))
        else:
            reader.next()
            query.unsupported.append(f"projection token {value!r}")
    while reader.at_word("from"):
        reader.next()
        reader.next()
    if reader.at_word("where"):
        reader.next()
    if top or into is None:
        query.projections, query.select_all = projections, select_all
    _group(reader, query)
    _modifiers(reader, query, top=top)
    return query


def _projection_expression(reader: _Reader, query: GoldQuery) -> Projection:
    """`(COUNT(DISTINCT ?x) AS ?c)`, LC-QuAD's bare `COUNT(?uri)`, DBLP's `MIN(xsd:integer(?a)) AS ?a`."""
    if reader.peek()[1] == "(":
        tokens = reader.balanced()
    else:
        name = reader.next()[1]
        tokens = [("word", name), ("op", "(")] + reader.balanced() + [("op", ")")]
        if reader.at_word("as"):
            tokens += [reader.next(), reader.next()]
    projection = _aggregate_of(tokens)
    if projection.aggregate and projection.alias:
        query.aggregate_aliases[projection.alias] = projection
    return projection


def _aggregate_of(tokens: list[tuple[str, str]]) -> Projection:
    aggregate = next((v.lower() for k, v in tokens if k == "word" and v.lower() in AGGREGATES), None)
    alias = None
    body = tokens
    for j, (kind, value) in enumerate(tokens):
        if kind == "word" and value.lower() == "as" and j + 1 < len(tokens) and tokens[j + 1][0] == "var":
            alias = tokens[j + 1][1][1:]
            body = tokens[:j]
    inner = [v[1:] for k, v in body if k == "var"]
    return Projection(inner[0] if inner else None, aggregate, alias)


def _count_condition(tokens: list[tuple[str, str]]) -> tuple[Projection, str, str] | None:
    """`COUNT(?x) > 2` (or `COUNT(*)`, flipped when the number comes first); anything else is None."""
    ops = [j for j, (kind, value) in enumerate(tokens) if kind == "op" and value in ("<", ">", "<=", ">=", "=", "!=")]
    if len(ops) != 1:
        return None
    left, op, right = tokens[: ops[0]], tokens[ops[0]][1], tokens[ops[0] + 1:]
    if len(left) == 1 and left[0][0] == "num":
        left, right = right, left
        op = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
    if len(right) != 1 or right[0][0] != "num":
        return None
    projection = _aggregate_of(left)
    if projection.aggregate != "count":
        return None
    return projection, op, right[0][1]


def _group(reader: _Reader, query: GoldQuery, optional: bool = False) -> None:
    reader.expect("{")
    subject: Term | None = None
    predicate: Term | None = None
    while True:
        kind, value = reader.peek()
        if kind == "eof":
            raise GoldQueryError("unclosed group")
        if value == "}":
            reader.next()
            return
        if kind == "word" and value.lower() == "select":
            _query(reader, top=False, into=_SubQuery(query))
            subject = predicate = None
            continue
        if value == "{":
            if reader.peek(1)[1].lower() == "select":
                reader.next()
                _query(reader, top=False, into=_SubQuery(query))
                reader.expect("}")
            else:
                _group(reader, query, optional)
            subject = predicate = None
            continue
        if value == ".":
            reader.next()
            subject = predicate = None
            continue
        if kind == "word" and value.lower() in ("filter",):
            reader.next()
            if reader.at_word("not", "exists"):
                query.unsupported.append("FILTER NOT EXISTS")
                while reader.at_word("not", "exists"):
                    reader.next()
                _skip_group(reader)
                continue
            tokens = reader.balanced() if reader.peek()[1] == "(" else _call(reader)
            _filter(tokens, query)
            continue
        if kind == "word" and value.lower() == "optional":
            reader.next()
            before = len(query.triples)
            _group(reader, query, optional=True)
            for triple in query.triples[before:]:
                for term in (triple.subject, triple.object):
                    if term.is_var:
                        query.optional_vars.add(term.value)
            continue
        if kind == "word" and value.lower() in ("union", "minus"):
            reader.next()
            query.unsupported.append(value.upper())
            continue
        if kind == "word" and value.lower() == "bind":
            reader.next()
            reader.balanced()
            query.unsupported.append("BIND")
            continue
        if kind == "word" and value.lower() == "values":
            reader.next()
            while reader.peek()[1] != "{":
                reader.next()
            _skip_group(reader)
            query.unsupported.append("VALUES")
            continue
        if kind == "word" and value.lower() in ("group", "order", "limit", "having", "offset"):
            raise GoldQueryError("solution modifier inside a group")
        if value == ";":
            reader.next()
            predicate = None
            continue
        if value == ",":
            reader.next()
            continue
        reader.next()
        term = reader.term(kind, value)
        if subject is None:
            subject = term
        elif predicate is None:
            predicate = term
        else:
            query.triples.append(GoldTriple(subject, predicate, term))


class _SubQuery(GoldQuery):
    """A subquery writes its triples and filters into the outer query; its projection is dropped."""

    def __init__(self, outer: GoldQuery) -> None:  # noqa: D107
        super().__init__("select")
        self.triples = outer.triples
        self.filters = outer.filters
        self.unsupported = outer.unsupported
        self.aggregate_aliases = outer.aggregate_aliases
        self.optional_vars = outer.optional_vars
        self.outer = outer


def _skip_group(reader: _Reader) -> None:
    reader.expect("{")
    depth = 1
    while depth:
        value = reader.next()[1]
        if value == "{":
            depth += 1
        elif value == "}":
            depth -= 1


def _call(reader: _Reader) -> list[tuple[str, str]]:
    name = reader.next()
    return [name, ("op", "(")] + reader.balanced() + [("op", ")")]


_COMPARATORS = ("=", "!=", "<", ">", "<=", ">=")


def _filter(tokens: list[tuple[str, str]], query: GoldQuery) -> None:
    for conjunct in _split_top(tokens, "&&"):
        _conjunct(conjunct, query)


def _split_top(tokens: list[tuple[str, str]], separator: str) -> list[list[tuple[str, str]]]:
    parts: list[list[tuple[str, str]]] = [[]]
    depth = 0
    for token in tokens:
        if token[1] == "(":
            depth += 1
        elif token[1] == ")":
            depth -= 1
        if depth == 0 and token[1] == separator:
            parts.append([])
        else:
            parts[-1].append(token)
    return [p for p in parts if p]


def _strip_parens(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    while len(tokens) >= 2 and tokens[0][1] == "(" and tokens[-1][1] == ")" and not _split_top(tokens[1:-1], ")")[1:]:
        tokens = tokens[1:-1]
    return tokens


def _conjunct(tokens: list[tuple[str, str]], query: GoldQuery) -> None:
    tokens = _strip_parens(tokens)
    if any(v == "||" for _, v in tokens):
        query.unsupported.append("FILTER with ||")
        return
    words = [v.lower() for k, v in tokens if k == "word"]
    if words and words[0] in ("regex", "contains", "strstarts") and tokens[1][1] == "(":
        variables = [v[1:] for k, v in tokens if k == "var"]
        strings = [v for k, v in tokens if k == "str"]
        if variables and strings:
            query.filters.append(GoldFilter(variables[0], "~", _literal(strings[0])))
            return
    if words and words[0] == "lang" or "langmatches" in words:
        return
    depth = 0
    for j, (kind, value) in enumerate(tokens):
        if value == "(":
            depth += 1
        elif value == ")":
            depth -= 1
        elif depth == 0 and kind == "op" and value in _COMPARATORS:
            left, right = tokens[:j], tokens[j + 1:]
            lvars = [v[1:] for k, v in left if k == "var"]
            rvars = [v[1:] for k, v in right if k == "var"]
            rvalues = [(k, v) for k, v in right if k in ("str", "num", "date", "iri", "pname")]
            if len(lvars) == 1 and not rvars and rvalues:
                kind_v, value_v = rvalues[0]
                term = _literal(value_v) if kind_v == "str" else (
                    Term("iri", value_v[1:-1]) if kind_v == "iri" else Term("literal", value_v, "number" if kind_v == "num" else "date")
                )
                if kind_v == "pname":
                    query.unsupported.append(f"filter against {value_v}")
                    return
                query.filters.append(GoldFilter(lvars[0], value, term))
                return
            if len(lvars) == 1 and len(rvars) == 1:
                alias = query.aggregate_aliases.get(rvars[0])
                if value == "=" and alias is not None and alias.aggregate in ("max", "min"):
                    query.filters.append(GoldFilter(lvars[0], "=" + alias.aggregate, Term("var", rvars[0])))
                    return
                query.filters.append(GoldFilter(lvars[0], value, Term("var", rvars[0])))
                return
    if "in" in words and len([1 for k, _ in tokens if k == "var"]) >= 2:
        query.unsupported.append("FILTER IN (set operation)")
        return
    query.unsupported.append("FILTER " + " ".join(v for _, v in tokens)[:60])


def _modifiers(reader: _Reader, query: GoldQuery, top: bool = True) -> None:
    target = query.outer if isinstance(query, _SubQuery) else query
    while True:
        kind, value = reader.peek()
        lower = value.lower()
        if kind == "eof" or value == "}":
            return
        reader.next()
        if lower == "group":
            reader.next()  # BY
            while reader.peek()[0] == "var":
                query.group_by.append(reader.next()[1][1:])
        elif lower == "having":
            condition = _count_condition(reader.balanced())
            if condition is None or isinstance(query, _SubQuery):
                target.unsupported.append("HAVING")
            else:
                target.having.append(condition)
        elif lower == "order":
            reader.next()
            while True:
                kind, value = reader.peek()
                if kind == "word" and value.lower() in ("asc", "desc"):
                    reader.next()
                    tokens = reader.balanced()
                    projection = _aggregate_of(tokens)
                    if not projection.aggregate and projection.var in query.aggregate_aliases:
                        projection = query.aggregate_aliases[projection.var]
                    if isinstance(query, _SubQuery):
                        continue
                    target.order.append((projection.var, projection.aggregate, value.lower() == "desc"))
                elif kind == "var":
                    reader.next()
                    alias = query.aggregate_aliases.get(value[1:])
                    if not isinstance(query, _SubQuery):
                        target.order.append(
                            (alias.var, alias.aggregate, False) if alias else (value[1:], None, False)
                        )
                elif value == "(":
                    projection = _aggregate_of(reader.balanced())
                    if not isinstance(query, _SubQuery):
                        target.order.append((projection.var, projection.aggregate, False))
                else:
                    break
        elif lower == "limit":
            number = reader.next()[1]
            if not isinstance(query, _SubQuery) and number.isdigit():
                query.limit = int(number)
        elif lower == "offset":
            reader.next()
            if not isinstance(query, _SubQuery):
                target.unsupported.append("OFFSET")
        else:
            target.unsupported.append(f"after the query: {value!r}")
