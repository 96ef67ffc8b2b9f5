"""Filtering answers by the predicted answer type (KGQAN, SIGMOD 2023, section 6).

Dates, numbers and booleans are checked by the literal's datatype (or lexical form for untyped
literals); strings must be literals; resources with a semantic type ("sea", "person") are checked by
the affinity of the type phrase to the answer's classes (their labels or local names). An answer
without any class is kept: absence of typing is no evidence against it.

The predicted type is itself a guess, so a query whose answers do not fit is not thrown away: its
outcome carries a `penalty` that execution subtracts from the query's score. A literal where a
resource was expected (or the reverse) costs little, since "In which city..." is answered by a city
name as often as by a city resource (only numbers or dates cost more: they name no thing); a wrong datatype for a number, date or yes/no costs more, and
so do answers that are all yes/no flags where the question asks what or which (ORKG's "provides
replication package" holds "True"/"False" beside "replication package link").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import pyoxigraph as ox

from gateway.sparql import XSD, Term
from linking.affinity import AffinityScorer
from linking.entities import describe_class, kind_affinity
from understanding.answer_types import kind_of_attribute
from understanding.grading import singular
from understanding.pgp import AnswerKind, AnswerType

DATE_TYPES = {XSD + t for t in ("date", "dateTime", "gYear", "gYearMonth", "dateTimeStamp")}
NUMBER_TYPES = {XSD + t for t in ("integer", "int", "long", "short", "decimal", "double", "float", "nonNegativeInteger",
                                  "positiveInteger", "negativeInteger", "nonPositiveInteger", "unsignedInt",
                                  "unsignedLong", "byte", "unsignedShort")}
_DATE_TEXT = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$")
_NUMBER_TEXT = re.compile(r"^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$")
SEMANTIC_THRESHOLD = 0.45
# What a mismatch costs a query's score (Eq. 2, in [0, 1]) when execution picks the best answer.
KIND_PENALTY = {AnswerKind.RESOURCE: 0.08, AnswerKind.STRING: 0.08, AnswerKind.NUMBER: 0.3, AnswerKind.DATE: 0.3,
                AnswerKind.BOOLEAN: 0.3}
SEMANTIC_PENALTY = 0.1
# only numbers or dates where a thing was expected: no name of one, so further from it than things of another class
# ("At which conference did X appear?" answered by its year rather than its venue)
VALUES_FOR_THING_PENALTY = 0.15
FLAG_PENALTY = 0.3  # only yes/no values ("True", "False") for a question that asks what or which


@dataclass
class FilterOutcome:
    """Which answers passed, how many were removed and why; `matched` is False when none fit."""

    kept: list[Term]
    removed: int = 0
    reason: str = ""
    matched: bool = True
    notes: list[str] = field(default_factory=list)
    penalty: float = 0.0  # subtracted from the query's score when none of its answers fit


def _datatype(term: ox.Literal) -> str | None:
    return term.datatype.value if term.datatype is not None else None


def is_date(term: Term) -> bool:
    if not isinstance(term, ox.Literal):
        return False
    datatype = _datatype(term)
    if datatype in DATE_TYPES:
        return True
    return datatype in (None, XSD + "string") and bool(_DATE_TEXT.match(term.value.strip()))


def is_number(term: Term) -> bool:
    if not isinstance(term, ox.Literal):
        return False
    if _typed_number(term):
        return True
    return _datatype(term) in (None, XSD + "string") and bool(_NUMBER_TEXT.match(term.value.strip()))


def _typed_number(term: Term) -> bool:
    """A literal the graph types as a number (not a string that reads as one: "42" may be a name)."""
    return isinstance(term, ox.Literal) and _datatype(term) in NUMBER_TYPES


def _names_a_value(kind: str) -> bool:
    """"id", "area codes", "year": a kind that is a value of things, not a thing (a number may be one)."""
    last = kind.lower().split()[-1] if kind.split() else ""
    return any(kind_of_attribute(w) is not None for w in (kind, last, singular(last)))


def is_boolean(term: Term) -> bool:
    return isinstance(term, ox.Literal) and (_datatype(term) == XSD + "boolean" or term.value.lower() in ("true", "false"))


class AnswerTypeFilter:
    """Keeps the answers that fit the expected `AnswerType`."""

    def __init__(self, scorer: AffinityScorer, *, threshold: float = SEMANTIC_THRESHOLD) -> None:
        self.scorer = scorer
        self.threshold = threshold

    def filter(self, answers: Sequence[Term], answer_type: AnswerType | None,
               types: dict[str, list[str]] | None = None, type_labels: dict[str, str] | None = None,
               *, named: bool = False, asked_by_kind: bool = False, keys_unfit: bool = False) -> FilterOutcome:
        """`types` maps an answer IRI to its class IRIs; `type_labels` gives class labels where known.
        `named`: the IRIs will be presented by a name (their labels, or a naming attribute where their
        graph has no labels), so they fit a string answer. `asked_by_kind`: the question asks for the
        semantic type itself ("Which services ..."), so named things of a string answer are checked
        against it too (otherwise a string's semantic type is often its owner's class). `keys_unfit`: one
        thing of the semantic type is asked ("Which airline ...?"), so numbers the graph types as such are its
        keys (`flights#airline` 12), which fit no string answer."""
        if answer_type is None or not answers:
            return FilterOutcome(list(answers))
        kind = answer_type.kind
        if kind is not AnswerKind.BOOLEAN and all(is_boolean(a) for a in answers):
            return _outcome(answers, [], f"yes/no flags where {kind.value} answers were expected", FLAG_PENALTY)
        checks = {AnswerKind.DATE: (is_date, "not a date"), AnswerKind.NUMBER: (is_number, "not a number"),
                  AnswerKind.BOOLEAN: (is_boolean, "not a boolean"),
                  AnswerKind.STRING: (lambda t: isinstance(t, ox.Literal) or named, "not a literal")}
        if (kind is AnswerKind.STRING and keys_unfit and answer_type.semantic_type and not _names_a_value(answer_type.semantic_type)
                and all(_typed_number(a) for a in answers)):
            return _outcome(answers, [], f"only numbers where a {answer_type.semantic_type} was asked",
                            VALUES_FOR_THING_PENALTY)
        if kind in checks:
            check, why = checks[kind]
            kept = [a for a in answers if check(a)]
            outcome = _outcome(answers, kept, f"{why} (expected {kind.value})", KIND_PENALTY[kind])
            if (kind is AnswerKind.STRING and named and asked_by_kind and outcome.matched and answer_type.semantic_type
                    and types and not any(isinstance(a, ox.Literal) for a in kept)):
                return self._semantic(kept, answer_type.semantic_type, types, type_labels or {}, outcome.removed)
            return outcome
        if kind is AnswerKind.RESOURCE:
            resources = [a for a in answers if not isinstance(a, ox.Literal)]
            values = all(is_number(a) or is_date(a) for a in answers)
            outcome = _outcome(answers, resources, "a literal where a resource was expected",
                               VALUES_FOR_THING_PENALTY if values else KIND_PENALTY[kind])
            if not outcome.matched or not answer_type.semantic_type or not types:
                return outcome
            return self._semantic(resources, answer_type.semantic_type, types, type_labels or {}, outcome.removed)
        return FilterOutcome(list(answers))

    def _semantic(self, answers: list[Term], semantic_type: str, types: dict[str, list[str]],
                  type_labels: dict[str, str], removed: int) -> FilterOutcome:
        classes = sorted({c for a in answers for c in types.get(a.value, [])})
        if not classes:
            return FilterOutcome(answers, removed, "a literal where a resource was expected" if removed else "")
        scores = kind_affinity(self.scorer, semantic_type, [describe_class(c, type_labels.get(c)) for c in classes])
        by_class = dict(zip(classes, (float(s) for s in scores), strict=True))
        kept = [a for a in answers
                if not types.get(a.value) or max(by_class[c] for c in types[a.value]) >= self.threshold]
        reason = f"no class close to '{semantic_type}' (affinity < {self.threshold})"
        outcome = _outcome(answers, kept, reason, SEMANTIC_PENALTY)
        outcome.removed += removed
        return outcome


def _outcome(answers: Sequence[Term], kept: list[Term], reason: str, penalty: float) -> FilterOutcome:
    removed = len(answers) - len(kept)
    return FilterOutcome(kept, removed, reason if removed else "", matched=bool(kept),
                         penalty=0.0 if kept else penalty)
