"""The HubLink evidence shape (`kgqa ask --json` -> `hublink.evidence`, docs/DESIGN.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hublink.paths import PathTriple


@dataclass
class PathEvidence:
    """One retrieved path: its text, its triples, its score, and the embedded text that matched."""

    text: str
    triples: tuple[PathTriple, ...]
    score: float
    hash: str
    matched: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "triples": [[t.subject, t.predicate, t.object] for t in self.triples],
                "score": round(self.score, 4), "hash": self.hash, "matched": self.matched}


@dataclass
class HubEvidence:
    """A retrieved hub (e.g. a paper) with the paths that made it relevant."""

    hub: str
    label: str
    hub_class: str
    score: float
    via: str
    paths: list[PathEvidence]
    partial_answer: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hub": self.hub, "label": self.label, "class": self.hub_class,
                               "score": round(self.score, 4), "via": self.via,
                               "paths": [p.to_dict() for p in self.paths]}
        if self.partial_answer is not None:
            out["partial_answer"] = self.partial_answer
        return out


@dataclass
class RetrievedTriple:
    """A triple of a retrieved path, ranked; `hub` is its hub's position in the evidence's hub list."""

    triple: PathTriple
    score: float
    hub: int

    def to_dict(self) -> dict[str, Any]:
        return {**self.triple.to_evidence(), "score": round(self.score, 4), "hub": self.hub}


@dataclass
class HubLinkEvidence:
    index: dict[str, Any]
    hubs: list[HubEvidence] = field(default_factory=list)
    retrieved_triples: list[RetrievedTriple] = field(default_factory=list)
    answer_text: str | None = None
    strategy: str = ""
    components: list[str] = field(default_factory=list)
    understanding: dict[str, Any] = field(default_factory=dict)
    topic_entities: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": self.index,
            "strategy": self.strategy,
            "components": list(self.components),
            "understanding": self.understanding,
            "topic_entities": self.topic_entities,
            "hubs": [h.to_dict() for h in self.hubs],
            "retrieved_triples": [t.to_dict() for t in self.retrieved_triples],
        }
        if self.answer_text is not None:
            out["answer_text"] = self.answer_text
        return out
