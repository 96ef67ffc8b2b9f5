"""Benchmark questions from every format the project meets, as one typed shape for `kgqa eval`.

Formats: QALD JSON (QALD-9, the KGQAN remote sets, SciQA, DBLP-QuAD), LC-QuAD 1.0 JSON, the
TEXT2SPARQL ck25 YAML, Spider4SPARQL JSON (several graphs, one `kg_name` each) and the HubLink ORKG
CSV (gold triples instead of gold SPARQL). Gold answers are sets of `AnswerValue`s: RDF terms
normalised so that equal answers compare equal whatever the engine's spelling (see
`normalize_term`).
"""

from __future__ import annotations

import ast
import csv
import json
import logging
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import yaml

from gateway.errors import ConfigurationError
from gateway.sparql import term_from_json

log = logging.getLogger(__name__)

XSD = "http://www.w3.org/2001/XMLSchema#"
SPIDER_PREFIX = "http://valuenet/ontop/"
ORKG_RESOURCE = "http://orkg.org/orkg/resource/"

_NUMERIC_TYPES = {XSD + t for t in (
    "integer", "decimal", "double", "float", "int", "long", "short", "byte", "nonNegativeInteger",
    "positiveInteger", "negativeInteger", "nonPositiveInteger", "unsignedInt", "unsignedLong",
    "unsignedShort", "unsignedByte", "gYear",
)}
_DATE_TYPES = {XSD + "date", XSD + "dateTime", XSD + "dateTimeStamp"}
_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$")
_ISO_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[T ][\d:.]+)?(?:Z|[+-]\d{2}:?\d{2})?$")


@dataclass(frozen=True, order=True)
class AnswerValue:
    """One normalised answer: `kind` is iri, number, date, boolean, string or bnode."""

    kind: str
    value: str

    def __str__(self) -> str:
        return self.value


def _canonical_number(lexical: str) -> str | None:
    try:
        number = Decimal(lexical.strip())
    except InvalidOperation:
        return None
    if not number.is_finite():
        return lexical.strip().lower()
    if number == number.to_integral_value() and abs(number) < 10**18:
        return str(int(number))
    return format(float(number), ".12g")


def normalize_literal(lexical: str, datatype: str | None = None) -> AnswerValue:
    """Numbers numerically (1 == 1.0 == "1"^^xsd:integer), dates by ISO date, booleans as booleans,
    other text with whitespace collapsed and case folded; language tags are ignored."""
    text = lexical.strip()
    if datatype == XSD + "boolean" and text.lower() in ("true", "false", "1", "0"):
        return AnswerValue("boolean", "true" if text.lower() in ("true", "1") else "false")
    if (datatype in _NUMERIC_TYPES or not datatype or datatype == XSD + "string") and _NUMBER.match(text):
        canonical = _canonical_number(text)
        if canonical is not None:
            return AnswerValue("number", canonical)
    if datatype in _DATE_TYPES or not datatype or datatype == XSD + "string":
        match = _ISO_DATE.match(text)
        if match:
            return AnswerValue("date", match.group(1))
    return AnswerValue("string", " ".join(text.split()).casefold())


def normalize_term(term: ox.NamedNode | ox.Literal | ox.BlankNode | bool) -> AnswerValue:
    """IRIs by IRI; literals by `normalize_literal`; a boolean (ASK) as a boolean."""
    if isinstance(term, bool):
        return AnswerValue("boolean", "true" if term else "false")
    if isinstance(term, ox.NamedNode):
        return AnswerValue("iri", term.value)
    if isinstance(term, ox.BlankNode):
        return AnswerValue("bnode", term.value)
    datatype = term.datatype.value if term.datatype is not None and not term.language else None
    return normalize_literal(term.value, datatype)


@dataclass(frozen=True)
class GoldTriple:
    """One gold triple of the ORKG CSV: `(R872741:Paper title, venue, R820814:ICSA)`.

    Ids are ORKG ids as written (`R…` resources, `L…` literals); labels are the written labels.
    """

    subject_id: str
    subject_label: str
    predicate_label: str
    object_id: str
    object_label: str

    def to_dict(self) -> dict[str, str]:
        return {"subject_id": self.subject_id, "subject_label": self.subject_label,
                "predicate_label": self.predicate_label, "object_id": self.object_id,
                "object_label": self.object_label}


@dataclass
class BenchmarkQuestion:
    """One question with its gold: SPARQL, stored answers and/or gold triples."""

    id: str
    question: str
    gold_sparql: str | None = None
    gold_answers: frozenset[AnswerValue] | None = None
    gold_triples: list[GoldTriple] = field(default_factory=list)
    form: str = "list"
    features: tuple[str, ...] = ()
    kg_name: str | None = None
    source_format: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "question": self.question, "form": self.form,
                               "features": list(self.features), "kg_name": self.kg_name}
        if self.gold_sparql is not None:
            out["gold_sparql"] = self.gold_sparql
        if self.gold_triples:
            out["gold_triples"] = [t.to_dict() for t in self.gold_triples]
        return out


# --- question form, from the gold SPARQL ---------------------------------------------------------

_SPARQL_NOISE = re.compile(r'(?<!\\)#[^\n]*|"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|<[^<>\s"{}|^`\\]*>')
_FEATURE_PATTERNS = {
    "ASK": r"\bASK\b", "SELECT": r"\bSELECT\b", "COUNT": r"\bCOUNT\s*\(", "SUM": r"\bSUM\s*\(",
    "AVG": r"\bAVG\s*\(", "MIN": r"\bMIN\s*\(", "MAX": r"\bMAX\s*\(", "GROUP": r"\bGROUP\s+BY\b",
    "HAVING": r"\bHAVING\b", "ORDER": r"\bORDER\s+BY\b", "LIMIT": r"\bLIMIT\b", "OFFSET": r"\bOFFSET\b",
    "FILTER": r"\bFILTER\b", "OPTIONAL": r"\bOPTIONAL\b", "UNION": r"\bUNION\b", "MINUS": r"\bMINUS\b",
    "EXISTS": r"\bEXISTS\b", "NOT_EXISTS": r"\bNOT\s+EXISTS\b", "BIND": r"\bBIND\s*\(",
    "DISTINCT": r"\bDISTINCT\b",
}


def sparql_features(sparql: str) -> tuple[str, ...]:
    """Keywords the query uses (outside strings, IRIs and comments), ck25-style: ORDER, COUNT, ..."""
    text = _SPARQL_NOISE.sub(" ", sparql).upper()
    found = [name for name, pattern in _FEATURE_PATTERNS.items() if re.search(pattern, text)]
    if len(re.findall(r"\bSELECT\b", text)) > 1:
        found.append("SUBSELECT")
    return tuple(found)


def question_form(features: tuple[str, ...] | set[str]) -> str:
    """One form per question, the most specific first: boolean, superlative (ORDER BY + LIMIT),
    count, aggregate (SUM/AVG/MIN/MAX/GROUP BY), order, filter, list."""
    present = {f.upper() for f in features}
    if "ASK" in present:
        return "boolean"
    if "ORDER" in present and "LIMIT" in present:
        return "superlative"
    if "COUNT" in present:
        return "count"
    if present & {"SUM", "AVG", "MIN", "MAX", "GROUP", "HAVING"}:
        return "aggregate"
    if "ORDER" in present:
        return "order"
    if present & {"FILTER", "MINUS", "NOT_EXISTS"}:
        return "filter"
    return "list"


def is_ask_query(sparql: str) -> bool:
    """Whether the query form (the first of SELECT/ASK/CONSTRUCT/DESCRIBE) is ASK."""
    match = re.search(r"\b(SELECT|ASK|CONSTRUCT|DESCRIBE)\b", _SPARQL_NOISE.sub(" ", sparql), re.I)
    return bool(match) and match.group(1).upper() == "ASK"


_ESCAPED_NAME = re.compile(
    r"(?P<skip>\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|<[^<>\s\"{}|^`\\]*>)"
    r"|(?<![\w?$\\:])(?P<prefix>[A-Za-z][\w\-]*)?:(?P<local>(?:[\w\-.]|\\.)*(?:[\w\-]|\\.))"
)
_ESCAPE = re.compile(r"\\(.)")


def expand_escaped_names(sparql: str, prefixes: dict[str, str]) -> str:
    """Prefixed names with backslash escapes (`:singer\\#name`) as full IRIs: standard SPARQL, but
    Virtuoso rejects the escapes ("Bad character '\\'"), so the gold queries avoid them."""

    def expand(match: re.Match[str]) -> str:
        local = match["local"]
        namespace = prefixes.get(match["prefix"] or "")
        if match["skip"] or "\\" not in local or namespace is None:
            return match.group(0)
        return "<" + namespace + _ESCAPE.sub(r"\1", local) + ">"

    return _ESCAPED_NAME.sub(expand, sparql)


_PREFIX_DECLARATION = re.compile(r"PREFIX\s+(?P<prefix>[A-Za-z][\w\-.]*)?:\s*<(?P<iri>[^<>\s]*)>", re.I)


def expand_declared_escapes(sparql: str) -> str:
    """`expand_escaped_names` with the query's own PREFIX declarations: a gold query of any file may write
    `:singer\\#name`, which Virtuoso rejects."""
    if "\\" not in sparql:
        return sparql
    prefixes = {m["prefix"] or "": m["iri"] for m in _PREFIX_DECLARATION.finditer(sparql)}
    return expand_escaped_names(sparql, prefixes)


def add_spider_prefix(sparql: str) -> str:
    """Spider4SPARQL gold queries use `:` without declaring it; it is `<http://valuenet/ontop/>`.

    Escaped local names are expanded too (`expand_escaped_names`), so every engine reads the query.
    """
    sparql = expand_escaped_names(sparql, {"": SPIDER_PREFIX})
    if re.search(r"^\s*PREFIX\s+:\s*<", sparql, re.I | re.M):
        return sparql
    return f"PREFIX : <{SPIDER_PREFIX}>\n{sparql}"


def _with_form(question: BenchmarkQuestion, extra_features: tuple[str, ...] = ()) -> BenchmarkQuestion:
    derived = sparql_features(question.gold_sparql) if question.gold_sparql else ()
    merged = tuple(dict.fromkeys([*(f.upper() for f in extra_features), *derived]))
    question.features = merged
    question.form = question_form(merged)
    return question


# --- QALD / LC-QuAD / Spider JSON ----------------------------------------------------------------

def _english(question: Any) -> str | None:
    if isinstance(question, str):
        return question
    if isinstance(question, dict):
        text = question.get("string") or question.get("en")
        return str(text) if text else None
    if isinstance(question, list):
        for item in question:
            if isinstance(item, dict) and item.get("language", "en") == "en" and item.get("string"):
                return str(item["string"])
    return None


def _qald_answers(answers: Any) -> frozenset[AnswerValue] | None:
    """The stored answers of a QALD question (SPARQL JSON results: bindings or a boolean)."""
    if not answers:
        return None
    values: set[AnswerValue] = set()
    for doc in answers if isinstance(answers, list) else [answers]:
        if not isinstance(doc, dict):
            continue
        if "boolean" in doc:
            values.add(normalize_term(bool(doc["boolean"])))
            continue
        for binding in (doc.get("results") or {}).get("bindings", []):
            for cell in binding.values():
                try:
                    values.add(normalize_term(term_from_json(cell)))
                except (ValueError, TypeError):
                    log.debug("unreadable stored answer %r", cell)
    return frozenset(values)


def _load_qald(data: dict[str, Any]) -> list[BenchmarkQuestion]:
    dataset = data.get("dataset") or {}
    default_kg = str(dataset.get("id")) if isinstance(dataset, dict) and dataset.get("id") else None
    out: list[BenchmarkQuestion] = []
    skipped = 0
    for index, item in enumerate(data.get("questions") or []):
        text = _english(item.get("question"))
        if not text:
            skipped += 1
            continue
        query = item.get("query")
        sparql = query.get("sparql") if isinstance(query, dict) else query if isinstance(query, str) else None
        metadata = {k: item[k] for k in ("answertype", "aggregation", "query_type", "template_id", "onlydbo", "hybrid")
                    if k in item}
        question = BenchmarkQuestion(
            id=str(item.get("id", item.get("_id", index))), question=text.strip(),
            gold_sparql=expand_declared_escapes(sparql) if sparql else None,
            gold_answers=_qald_answers(item.get("answers")), kg_name=default_kg, source_format="qald-json",
            metadata=metadata,
        )
        out.append(_with_form(question, ("ASK",) if item.get("answertype") == "boolean" else ()))
    if skipped:
        log.warning("%d questions have no English text and were skipped", skipped)
    return out


def _load_json_list(items: list[Any]) -> list[BenchmarkQuestion]:
    out: list[BenchmarkQuestion] = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise ConfigurationError(f"item {index} of the question list is not an object")
        if "kg_name" in item and "query" in item:
            kg = str(item["kg_name"])
            question = BenchmarkQuestion(
                id=f"{kg}-{index}", question=str(item["question"]).strip(),
                gold_sparql=add_spider_prefix(str(item["query"])), kg_name=kg, source_format="spider4sparql-json",
                metadata={"index": index},
            )
        elif "sparql_query" in item:
            text = item.get("corrected_question") or item.get("question") or item.get("intermediary_question")
            question = BenchmarkQuestion(
                id=str(item.get("_id", index)), question=str(text).strip(), gold_sparql=str(item["sparql_query"]),
                source_format="lcquad-json", metadata={"template_id": item.get("sparql_template_id")},
            )
        else:
            raise ConfigurationError(
                f"item {index} is neither Spider4SPARQL ({{kg_name, question, query}}) nor LC-QuAD "
                f"({{corrected_question, sparql_query}}): keys {sorted(item)}"
            )
        out.append(_with_form(question))
    return out


# --- ck25 YAML -----------------------------------------------------------------------------------

def _load_ck25(data: dict[str, Any]) -> list[BenchmarkQuestion]:
    dataset = data.get("dataset") or {}
    kg = str(dataset.get("prefix") or dataset.get("id") or "") or None
    out: list[BenchmarkQuestion] = []
    for index, item in enumerate(data.get("questions") or []):
        text = _english(item.get("question"))
        if not text:
            log.warning("ck25 question %s has no English text; skipped", item.get("id", index))
            continue
        query = item.get("query") or {}
        sparql = query.get("sparql") if isinstance(query, dict) else str(query)
        question = BenchmarkQuestion(
            id=str(item.get("id", index)), question=text.strip(), gold_sparql=sparql or None, kg_name=kg,
            source_format="ck25-yaml",
            metadata={k: item[k] for k in ("classes", "properties") if k in item},
        )
        out.append(_with_form(question, tuple(str(f) for f in item.get("features") or ())))
    return out


# --- ORKG CSV (HubLink) --------------------------------------------------------------------------

_ID = r"[A-Za-z][\w-]*"
_GOLD_TRIPLE = re.compile(
    rf"^\(\s*(?P<sid>{_ID}):(?P<slabel>.*?),\s*(?P<pred>[^,]+?),\s*(?P<oid>{_ID}):(?P<olabel>.*)\)\s*$", re.S
)


def parse_gold_triple(text: str) -> GoldTriple:
    """`(R1:subject label, predicate, L2:object label)`; labels may hold commas, colons and parentheses.

    The subject label ends at the first `, <predicate>, <ID>:` (predicate labels hold no comma).
    """
    match = _GOLD_TRIPLE.match(text.strip())
    if not match:
        raise ValueError(f"not a gold triple '(ID:label, predicate, ID:label)': {text[:200]!r}")
    return GoldTriple(match["sid"], match["slabel"].strip(), match["pred"].strip(), match["oid"],
                      match["olabel"].strip())


def parse_gold_triples(cell: str) -> tuple[list[GoldTriple], list[str]]:
    """The `golden_triples` cell (a Python list literal of triple strings): (triples, unparsed items)."""
    cell = (cell or "").strip()
    if not cell:
        return [], []
    try:
        items = ast.literal_eval(cell)
    except (ValueError, SyntaxError):
        items = re.findall(r"'(\(.*?\))'(?=\s*[,\]])", cell) or [cell]
    if isinstance(items, str):
        items = [items]
    triples: list[GoldTriple] = []
    unparsed: list[str] = []
    for item in items:
        text = str(item).strip()
        if not text or text == "None":
            continue
        try:
            triples.append(parse_gold_triple(text))
        except ValueError:
            unparsed.append(text)
    return triples, unparsed


def orkg_answer_values(triples: list[GoldTriple], topic_id: str, topic_label: str, question: str,
                       resource_namespace: str = ORKG_RESOURCE) -> frozenset[AnswerValue]:
    """Answer-level gold from gold triples (approximate; the triple metrics are the primary measure).

    Rule: of each triple take the side that is not the topic entity (`topic_entity_id` or its label);
    when neither side is the topic entity, the object (the value end of the path). `L…` ids are
    literals (compared by label), other ids resources (`orkgr:<id>`). Values whose label is written in
    the question are conditions, not answers, and are dropped unless nothing else is left.
    """
    topic_label = topic_label.strip().casefold()
    picked: list[tuple[str, str]] = []
    for triple in triples:
        subject_is_topic = triple.subject_id == topic_id or triple.subject_label.casefold() == topic_label
        object_is_topic = triple.object_id == topic_id or triple.object_label.casefold() == topic_label
        if object_is_topic and not subject_is_topic:
            picked.append((triple.subject_id, triple.subject_label))
        else:
            picked.append((triple.object_id, triple.object_label))
    asked = question.casefold()
    answers = [p for p in picked if p[1].casefold() not in asked] or picked

    def value(node_id: str, label: str) -> AnswerValue:
        if node_id.startswith("L"):
            return normalize_literal(label)
        return AnswerValue("iri", resource_namespace + node_id)

    return frozenset(value(*p) for p in answers)


def _load_orkg_csv(path: Path) -> list[BenchmarkQuestion]:
    out: list[BenchmarkQuestion] = []
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        for row_number, row in enumerate(reader, start=2):
            triples, unparsed = parse_gold_triples(row.get("golden_triples", ""))
            if unparsed:
                log.warning("%s line %d: %d gold triples could not be parsed", path.name, row_number, len(unparsed))
            operation = (row.get("retrieval_operation") or "").strip()
            # A count is not in the triples (they hold the counted items), so no answer-level gold.
            gold = None if operation == "counting" or not triples else orkg_answer_values(
                triples, (row.get("topic_entity_id") or "").strip(), row.get("topic_entity_value") or "",
                row["question"])
            metadata = {k: row[k] for k in ("golden_answer", "topic_entity_id", "topic_entity_value", "hops",
                                            "retrieval_operation", "answer_format", "answer_type",
                                            "graph_representation", "used_in_reduced") if k in row}
            if unparsed:
                metadata["unparsed_triples"] = unparsed
            out.append(BenchmarkQuestion(
                id=row.get("uid") or str(row_number), question=row["question"].strip(), gold_answers=gold,
                gold_triples=triples, form=operation or "list", features=(operation.upper(),) if operation else (),
                source_format="orkg-csv", metadata=metadata,
            ))
    return out


# --- entry point ---------------------------------------------------------------------------------

def load_questions(path: Path | str, kg_name: str | None = None) -> list[BenchmarkQuestion]:
    """All questions of a benchmark file (format detected from its content); `kg_name` keeps one graph's."""
    path = Path(path)
    if not path.is_file():
        raise ConfigurationError(f"question file {path} does not exist")
    suffix = path.suffix.lower()
    try:
        if suffix == ".csv":
            with path.open(newline="", encoding="utf-8") as handle:
                header = next(csv.reader(handle), [])
            if "question" not in header or "golden_triples" not in header:
                raise ConfigurationError(
                    f"{path.name}: unknown CSV format; expected the ORKG columns question, golden_triples"
                )
            questions = _load_orkg_csv(path)
        elif suffix in (".yml", ".yaml"):
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
                raise ConfigurationError(f"{path.name}: unknown YAML format; expected the ck25 'questions' list")
            questions = _load_ck25(data)
        elif suffix == ".json":
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and isinstance(data.get("questions"), list):
                questions = _load_qald(data)
            elif isinstance(data, list):
                questions = _load_json_list(data)
            else:
                raise ConfigurationError(
                    f"{path.name}: unknown JSON format; expected QALD ({{questions: [...]}}), "
                    "Spider4SPARQL or LC-QuAD (a list of questions)"
                )
        else:
            raise ConfigurationError(
                f"{path.name}: unknown question file format {suffix or '(no suffix)'}; "
                "use QALD/Spider4SPARQL/LC-QuAD .json, ck25 .yml or ORKG .csv"
            )
    except (json.JSONDecodeError, yaml.YAMLError, UnicodeDecodeError, csv.Error, KeyError) as exc:
        raise ConfigurationError(f"{path.name} could not be read as a question file: {exc}") from exc
    except ConfigurationError as exc:
        if path.name in exc.message:
            raise
        raise ConfigurationError(f"{path.name}: {exc.message}") from exc
    if kg_name is not None:
        names = sorted({q.kg_name for q in questions if q.kg_name})
        questions = [q for q in questions if q.kg_name == kg_name]
        if not questions:
            raise ConfigurationError(f"{path.name} has no questions for kg_name {kg_name!r}; it has: "
                                     f"{', '.join(names) or 'none (no kg_name in this format)'}")
    return questions
