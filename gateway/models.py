"""Answers, evidence and results of the two answer paths, as typed data with one JSON shape.

Both paths return a `PathResult`; the gateway puts them side by side in a `QAResult`. Every
path-specific evidence object implements `to_dict()`; nothing else crosses layers as a bare dict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

import pyoxigraph as ox

from gateway.errors import GatewayError

XSD = "http://www.w3.org/2001/XMLSchema#"


class AnswerStatus(StrEnum):
    OK = "ok"
    ERROR = "error"
    NOT_AVAILABLE = "not-available"  # the path is not built or not configured
    INDEXING = "indexing"  # HubLink: the index for this endpoint is still being built


@dataclass(frozen=True)
class Answer:
    """One answer value: an IRI (with its label), a literal, or a boolean."""

    value: str
    kind: str  # "iri", "literal", "bnode", "boolean"
    label: str | None = None
    datatype: str | None = None
    language: str | None = None
    score: float | None = None
    sources: tuple[int, ...] = ()  # indices into the path's evidence items that support it
    # the other cells of its result row, by column: the group a count is for ("department" -> Sales),
    # the e-mail address beside a name
    row: tuple[tuple[str, Answer], ...] = ()

    @classmethod
    def from_term(cls, term: ox.NamedNode | ox.Literal | ox.BlankNode, *, label: str | None = None,
                  score: float | None = None, sources: tuple[int, ...] = ()) -> Answer:
        if isinstance(term, ox.NamedNode):
            return cls(term.value, "iri", label=label, score=score, sources=sources)
        if isinstance(term, ox.BlankNode):
            return cls(term.value, "bnode", label=label, score=score, sources=sources)
        datatype = term.datatype.value if term.datatype and not term.language else None
        if datatype == XSD + "string":
            datatype = None
        return cls(term.value, "literal", label=label, datatype=datatype, language=term.language,
                   score=score, sources=sources)

    @classmethod
    def boolean(cls, value: bool) -> Answer:
        return cls("true" if value else "false", "boolean", datatype=XSD + "boolean")

    @classmethod
    def count(cls, number: int, *, score: float | None = None, sources: tuple[int, ...] = ()) -> Answer:
        """A number of things, as an xsd:integer literal."""
        return cls(str(number), "literal", datatype=XSD + "integer", score=score, sources=sources)

    def to_term(self) -> ox.NamedNode | ox.Literal | ox.BlankNode:
        if self.kind == "iri":
            return ox.NamedNode(self.value)
        if self.kind == "bnode":
            return ox.BlankNode(self.value)
        if self.language:
            return ox.Literal(self.value, language=self.language)
        if self.datatype:
            return ox.Literal(self.value, datatype=ox.NamedNode(self.datatype))
        return ox.Literal(self.value)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value, "kind": self.kind}
        for key in ("label", "datatype", "language", "score"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.kind == "iri" and self.label is None:
            out["label"] = None
        if self.sources:
            out["sources"] = list(self.sources)
        if self.row:
            out["row"] = {column: cell.to_dict() for column, cell in self.row}
        return out

    def values(self) -> list[Answer]:
        """The answer and the other cells of its row."""
        return [self, *(cell for _, cell in self.row)]


class Evidence(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


@dataclass
class PathResult:
    """What one answer path returned for one question on one endpoint."""

    path: str
    answers: list[Answer] = field(default_factory=list)
    evidence: Evidence | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    sparql_requests: int = 0
    setup_requests: int = 0  # made once per endpoint (discovery, class list), not part of `sparql_requests`
    status: AnswerStatus = AnswerStatus.OK
    error: str | None = None
    error_kind: str | None = None
    notes: list[str] = field(default_factory=list)

    @classmethod
    def failed(cls, path: str, exc: BaseException, *, status: AnswerStatus = AnswerStatus.ERROR,
               timings_ms: dict[str, float] | None = None) -> PathResult:
        kind = exc.kind if isinstance(exc, GatewayError) else type(exc).__name__
        return cls(path, status=status, error=str(exc) or type(exc).__name__, error_kind=kind,
                   timings_ms=timings_ms or {})

    @classmethod
    def unavailable(cls, path: str, why: str) -> PathResult:
        return cls(path, status=AnswerStatus.NOT_AVAILABLE, error=why, error_kind="not-available")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status.value,
            "answers": [a.to_dict() for a in self.answers],
            "evidence": self.evidence.to_dict() if self.evidence is not None else {},
            "timings_ms": {k: round(v, 2) for k, v in self.timings_ms.items()},
            "sparql_requests": self.sparql_requests,
        }
        if self.setup_requests:
            out["endpoint_setup_requests"] = self.setup_requests
        if self.error is not None:
            out["error"] = self.error
            out["error_kind"] = self.error_kind
        if self.notes:
            out["notes"] = list(self.notes)
        return out


@dataclass
class QAResult:
    """Both answer paths, side by side, for one question on one endpoint."""

    question: str
    endpoint: str
    paths: dict[str, PathResult]
    timings_ms: dict[str, float] = field(default_factory=dict)
    error: str | None = None
    error_kind: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"question": self.question, "endpoint": self.endpoint}
        out.update({name: result.to_dict() for name, result in self.paths.items()})
        out["timings_ms"] = {k: round(v, 2) for k, v in self.timings_ms.items()}
        if self.error is not None:
            out["error"] = self.error
            out["error_kind"] = self.error_kind
        return out
