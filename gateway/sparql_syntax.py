"""A small SPARQL lexer for the proxy: what kind of request a text is, its cache key, and the
rewriting of magic question triples.

The proxy must decide per request, in microseconds, whether a text is a query or an update, what
query form it has, and where `?v <urn:kgqa:answers> "question"` patterns are. A full parser is too
slow for that and rejects engine extensions (Virtuoso's `DEFINE`, `bif:`); a lexer that knows
strings, IRIs and comments is enough, because none of those decisions depends on more than the
token stream.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from gateway.errors import SparqlSyntaxError

MAGIC_PREDICATE = "urn:kgqa:answers"

# SPARQL 1.1 Update operations; none of these words is a keyword or function of the query language.
UPDATE_KEYWORDS = frozenset(
    {"INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH", "MODIFY"}
)
QUERY_FORMS = ("SELECT", "CONSTRUCT", "DESCRIBE", "ASK")

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<comment>\#[^\n\r]*)
  | (?P<string>\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"|'''(?:[^'\\]|\\.|'(?!''))*'''|"(?:[^"\\\n\r]|\\.)*"|'(?:[^'\\\n\r]|\\.)*')
  | (?P<iri><[^<>"{}|^`\\\x00-\x20]*>)
  | (?P<var>[?$][A-Za-z0-9_\u00B7\u00C0-\uFFFF]+)
  | (?P<bnode>_:[A-Za-z0-9_\u00C0-\uFFFF](?:[A-Za-z0-9_\-.\u00B7\u00C0-\uFFFF]*[A-Za-z0-9_\-\u00B7\u00C0-\uFFFF])?)
  | (?P<pname>(?:[A-Za-z\u00C0-\uFFFF](?:[A-Za-z0-9_\-.\u00B7\u00C0-\uFFFF]*[A-Za-z0-9_\-\u00B7\u00C0-\uFFFF])?)?:(?:(?:[A-Za-z0-9_:\-\u00B7\u00C0-\uFFFF]|%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?\#@%])(?:(?:[A-Za-z0-9_:\-.\u00B7\u00C0-\uFFFF]|%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?\#@%])*(?:[A-Za-z0-9_:\-\u00B7\u00C0-\uFFFF]|%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?\#@%]))?)?)
  | (?P<lang>@[A-Za-z]+(?:-[A-Za-z0-9]+)*)
  | (?P<number>[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?))
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>\^\^|&&|\|\||!=|<=|>=|[{}()\[\].;,*/+\-=<>!|^])
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass(frozen=True)
class Token:
    kind: str  # ws, comment, string, iri, var, bnode, pname, lang, number, word, punct, other
    text: str
    start: int
    end: int


def tokenize(text: str) -> list[Token]:
    """All tokens of `text`, whitespace and comments included, so spans can be rewritten in place."""
    tokens = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "other"
        tokens.append(Token(kind, match.group(), match.start(), match.end()))
    return tokens


def variables_renamed(text: str, suffix: str) -> str:
    """`text` with every variable given `suffix` (strings, IRIs and comments untouched): a copy of a
    pattern that can sit beside the original in one query without sharing its variables."""
    return "".join(t.text + suffix if t.kind == "var" else t.text for t in tokenize(text))


def significant(tokens: Sequence[Token]) -> list[Token]:
    return [t for t in tokens if t.kind not in ("ws", "comment")]


@dataclass(frozen=True)
class RequestKind:
    """What a request text is: a query of some form, or an update."""

    is_update: bool
    form: str | None  # SELECT, CONSTRUCT, DESCRIBE, ASK, or None when not recognised
    update_keyword: str | None = None

    @property
    def returns_graph(self) -> bool:
        return self.form in ("CONSTRUCT", "DESCRIBE")


def classify(text: str) -> RequestKind:
    """Query form or update, ignoring keywords inside strings, IRIs and comments.

    Any update keyword at token level makes the text an update, wherever it stands: a query never
    contains one, and a text that mixes a query with `; DROP ALL` must not reach the endpoint.
    """
    return analyse(text)[0]


def normalise(text: str) -> str:
    """The query with comments dropped and whitespace collapsed: equal texts are equal queries."""
    return analyse(text)[1]


_IRI = re.compile(r"<[^<>\"{}|^`\\\x00-\x20]*>")
# Every update keyword the lexer could find, and more (inside variables, prefixed names): no match, no update.
_MAYBE_UPDATE = re.compile(r"(?<![A-Za-z_])(?:" + "|".join(sorted(UPDATE_KEYWORDS)) + r")(?![A-Za-z0-9_])", re.I)
_PROLOGUE_AND_FORM = re.compile(
    r"\s*(?:(?:PREFIX\s+(?:[A-Za-z][A-Za-z0-9_\-.]*)?:\s*|BASE\s*)" + _IRI.pattern + r"\s*)*"
    r"(SELECT|CONSTRUCT|DESCRIBE|ASK)(?![A-Za-z0-9_:\-.])", re.I)


def analyse(text: str) -> tuple[RequestKind, str]:
    """`classify` and `normalise` in one pass over the tokens (the proxy needs both per request).

    Most queries take a shortcut with the same result: with IRIs set aside, no quote, no comment and
    no update keyword anywhere, and the form keyword right after the prologue, the query has no
    strings or comments to keep, so collapsing its whitespace is its normal form.
    """
    outside_iris = _IRI.sub(" ", text) if "<" in text else text
    if "#" not in outside_iris and '"' not in outside_iris and "'" not in outside_iris and not _may_update(outside_iris):
        found = _PROLOGUE_AND_FORM.match(text)
        if found is not None:
            return RequestKind(False, found.group(1).upper()), " ".join(text.split())
    return _analyse_tokens(text)


def _may_update(text: str) -> bool:
    upper = text.upper()
    for keyword in UPDATE_KEYWORDS:
        if keyword in upper:
            return _MAYBE_UPDATE.search(text) is not None
    return False


def _analyse_tokens(text: str) -> tuple[RequestKind, str]:
    form = None
    parts: list[str] = []
    for match in _TOKEN.finditer(text):  # no Token objects: this runs on every proxied request
        kind = match.lastgroup
        if kind == "ws" or kind == "comment":
            if parts and parts[-1] != " ":
                parts.append(" ")
            continue
        token_text = match.group()
        parts.append(token_text)
        if kind == "word":
            upper = token_text.upper()
            if upper in UPDATE_KEYWORDS:
                return RequestKind(True, None, upper), ""
            if form is None and upper in QUERY_FORMS:
                form = upper
    return RequestKind(False, form), "".join(parts).strip()


def prefixes(tokens: Sequence[Token]) -> dict[str, str]:
    """`PREFIX p: <iri>` declarations of a token stream, as {"p": "iri"}."""
    found: dict[str, str] = {}
    sig = significant(tokens)
    for i, token in enumerate(sig[:-2]):
        if token.kind == "word" and token.text.upper() == "PREFIX" and sig[i + 1].kind == "pname" \
                and sig[i + 2].kind == "iri":
            found[sig[i + 1].text[:-1]] = sig[i + 2].text[1:-1]
    return found


def _expand(token: Token, declared: Mapping[str, str]) -> str | None:
    """The full IRI of an IRI or prefixed-name token, if known."""
    if token.kind == "iri":
        return token.text[1:-1]
    if token.kind == "pname":
        prefix, _, local = token.text.partition(":")
        if prefix in declared:
            return declared[prefix] + re.sub(r"\\(.)", r"\1", local)
    return None


def unescape_string(text: str) -> str:
    """The value of a SPARQL string literal token."""
    body = text[3:-3] if text[:3] in ('"""', "'''") else text[1:-1]
    escapes = {"t": "\t", "n": "\n", "r": "\r", "b": "\b", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
    return re.sub(r"\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)",
                  lambda m: chr(int(m.group(1)[1:], 16)) if m.group(1)[0] in "uU" and len(m.group(1)) > 1
                  else escapes.get(m.group(1), m.group(1)), body)


@dataclass(frozen=True)
class MagicTriple:
    """One `?v <urn:kgqa:answers> "question"` pattern inside a client's query."""

    variable: str  # without the leading ? or $
    question: str
    start: int  # span in the query text to replace (subject to the end of the triple)
    end: int
    continues: bool  # the triple ended with `;`: the subject carries on with more predicates


class GeneratedPattern(Protocol):
    """What the rewriting needs of a generated query (`linking.GeneratedQuery` has these)."""

    sparql: str
    pattern: str
    answer_var: str


def may_hold_magic_triples(query: str) -> bool:
    """A cheap test before `find_magic_triples`: False means the query has none (the predicate is
    written in full, `urn:kgqa:answers`, or as a prefixed name ending in `answers`)."""
    return MAGIC_PREDICATE in query or "answers" in query


def find_magic_triples(query: str) -> list[MagicTriple]:
    """The magic question triples of `query`, in order; a malformed one is a clear syntax error."""
    tokens = significant(tokenize(query))
    declared = prefixes(tokens)
    found = []
    for i, token in enumerate(tokens):
        if token.kind not in ("iri", "pname") or _expand(token, declared) != MAGIC_PREDICATE:
            continue
        if i > 1 and tokens[i - 2].kind == "word" and tokens[i - 2].text.upper() == "PREFIX":
            continue  # the IRI of a PREFIX declaration
        subject = tokens[i - 1] if i > 0 else None
        before = tokens[i - 2] if i > 1 else None
        if subject is None or subject.kind != "var" or (before is not None and before.text in (";", ",")):
            raise SparqlSyntaxError(
                f"<{MAGIC_PREDICATE}> must follow a variable that starts a triple, as in "
                f'?answer <{MAGIC_PREDICATE}> "your question"'
            )
        if i + 1 >= len(tokens) or tokens[i + 1].kind != "string":
            raise SparqlSyntaxError(f"<{MAGIC_PREDICATE}> needs a question as a string literal object")
        literal = tokens[i + 1]
        j = i + 2
        if j < len(tokens) and tokens[j].kind == "lang":
            j += 1
        elif j + 1 < len(tokens) and tokens[j].text == "^^":
            j += 2
        end = tokens[j - 1].end
        continues = False
        if j < len(tokens):
            follow = tokens[j].text
            if follow == ".":
                end = tokens[j].end
            elif follow == ";":
                end, continues = tokens[j].end, True
            elif follow == ",":
                raise SparqlSyntaxError(f"one question per <{MAGIC_PREDICATE}> triple: repeat the triple instead of ','")
            elif follow != "}":
                raise SparqlSyntaxError(f"unexpected {follow!r} after the question of a <{MAGIC_PREDICATE}> triple")
        question = unescape_string(literal.text).strip()
        if not question:
            raise SparqlSyntaxError(f"the question of a <{MAGIC_PREDICATE}> triple is empty")
        found.append(MagicTriple(subject.text[1:], question, subject.start, end, continues))
    return found


def rename_pattern(generated: GeneratedPattern, answer_variable: str, taken: set[str], tag: str) -> str:
    """The generated group pattern with its answer variable renamed to `answer_variable` and every
    other variable renamed apart from `taken`; prefixed names expanded to full IRIs so the pattern
    does not depend on the generated query's PREFIX declarations."""
    declared = prefixes(tokenize(generated.sparql))
    answer = generated.answer_var.lstrip("?$")
    renamed: dict[str, str] = {answer: answer_variable}
    parts = []
    for token in tokenize(generated.pattern):
        if token.kind == "var":
            name = token.text[1:]
            if name not in renamed:
                fresh = f"{tag}_{name}"
                while fresh in taken:
                    fresh += "_"
                taken.add(fresh)
                renamed[name] = fresh
            parts.append("?" + renamed[name])
        elif token.kind == "pname" and (full := _expand(token, declared)) is not None:
            parts.append(f"<{full}>")
        elif token.kind == "comment":
            parts.append(" ")
        else:
            parts.append(token.text)
    body = "".join(parts).strip()
    if body.startswith("{") and body.endswith("}") and _one_group(body):
        body = body[1:-1].strip()
    return body


def _one_group(body: str) -> bool:
    """Whether `body` is one braced group (its first "{" closes at its end: not "{ A } UNION { B }")."""
    braces = [t.text for t in tokenize(body) if t.kind != "string" and t.text in ("{", "}")]
    depth = 0
    for i, brace in enumerate(braces):
        depth += 1 if brace == "{" else -1
        if depth == 0:
            return i == len(braces) - 1
    return False


def rewrite_magic_triples(query: str, generated: Mapping[str, GeneratedPattern]) -> str:
    """`query` with each magic triple replaced by the generated pattern of its question.

    `generated` maps a question (as written in the triple) to the query generated for it. The answer
    variable becomes the triple's subject, so the client's FILTER, ORDER BY and other triples apply.
    """
    triples = find_magic_triples(query)
    if not triples:
        return query
    taken = {t.text[1:] for t in tokenize(query) if t.kind == "var"}
    out = []
    position = 0
    for number, triple in enumerate(triples, start=1):
        if triple.question not in generated:
            raise KeyError(triple.question)
        body = rename_pattern(generated[triple.question], triple.variable, taken, f"kgqa{number}")
        out.append(query[position:triple.start])
        out.append("{ " + body + " }")
        out.append(f" ?{triple.variable}" if triple.continues else " ")
        position = triple.end
    out.append(query[position:])
    return "".join(out)
