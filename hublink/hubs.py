"""Hub discovery: which classes of an endpoint root the hubs of its HubLink index.

The thesis configures hub types by hand (`hub_types: ["Paper"]` in
`sqa_system/retrieval/implementations/HubLink/models/hub_link_settings.py`, checked by
`Hub.is_hub_entity` in `models/hub.py`). A gateway that meets an unknown endpoint cannot ask for that,
so this module profiles the endpoint with a few aggregate SPARQL queries and picks the classes whose
instances root many outgoing paths:

- enough instances (`min_hub_instances`, and `min_hub_share` of the most populous class),
- several distinct outgoing predicates (`min_hub_predicates`, type and label predicates not counted),
- paths that reach other entities, not only literals (`min_link_ratio` of the instances link onward),
- many triples within two hops per instance (`min_paths_per_instance`),
- and not mostly reached from instances of a better hub class (then they are part of that class's hub
  paths, as ORKG contributions are part of their paper).

`endpoints.yaml` can name hub classes explicitly (`hub_classes:`); then nothing is discovered.
"""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import dataclass, field
from typing import Any

import pyoxigraph as ox

from gateway.endpoint import Endpoint
from gateway.errors import SparqlError
from gateway.sparql import RDF_TYPE
from hublink.settings import SCHEMA_NAMESPACES, HubLinkSettings

log = logging.getLogger(__name__)


@dataclass
class HubClassReport:
    """What profiling measured about one candidate class, and the verdict with its reason."""

    iri: str
    instances: int
    label: str = ""
    predicates: int = 0
    link_ratio: float = 0.0
    paths_per_instance: float = 0.0
    reached_from: dict[str, float] = field(default_factory=dict)  # other class -> share of instances
    score: float = 0.0
    selected: bool = False
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "class": self.iri, "label": self.label, "instances": self.instances, "predicates": self.predicates,
            "link_ratio": round(self.link_ratio, 3), "paths_per_instance": round(self.paths_per_instance, 2),
            "score": round(self.score, 3), "selected": self.selected, "reason": self.reason,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HubClassReport:
        return cls(iri=data["class"], instances=int(data.get("instances", 0)), label=data.get("label", ""),
                   predicates=int(data.get("predicates", 0)), link_ratio=float(data.get("link_ratio", 0.0)),
                   paths_per_instance=float(data.get("paths_per_instance", 0.0)),
                   score=float(data.get("score", 0.0)), selected=bool(data.get("selected")),
                   reason=data.get("reason", ""))


@dataclass
class HubDiscovery:
    """The hub classes of an endpoint and how they were chosen (`configured` or `discovered`)."""

    classes: list[str]
    source: str
    reports: list[HubClassReport] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"classes": list(self.classes), "source": self.source,
                "candidates": [r.to_dict() for r in self.reports], "notes": list(self.notes)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HubDiscovery:
        return cls(classes=list(data.get("classes", [])), source=data.get("source", ""),
                   reports=[HubClassReport.from_dict(r) for r in data.get("candidates", [])],
                   notes=list(data.get("notes", [])))


def iri_list(iris: list[str] | tuple[str, ...]) -> str:
    return " ".join(f"<{iri}>" for iri in iris)


def _int(row: dict[str, Any], name: str) -> int:
    term = row.get(name)
    if term is None:
        return 0
    try:
        return int(float(term.value))
    except (TypeError, ValueError):
        return 0


def is_schema_class(iri: str) -> bool:
    return iri.startswith(SCHEMA_NAMESPACES)


async def path_predicates_excluded(endpoint: Endpoint) -> tuple[str, ...]:
    """Predicates that are not edges of hub paths: rdf:type and the endpoint's label predicates."""
    profile = await endpoint.profile()
    return (RDF_TYPE, *profile.label_predicates)


class HubClassProfiler:
    """Profiles the classes of one endpoint with aggregate SPARQL over a sample of their instances."""

    def __init__(self, endpoint: Endpoint, settings: HubLinkSettings) -> None:
        self.endpoint = endpoint
        self.settings = settings

    async def discover(self) -> HubDiscovery:
        configured = self.endpoint.config.hub_classes
        if configured:
            return HubDiscovery(list(configured), "configured",
                                notes=[f"hub classes named in the endpoint configuration: {', '.join(configured)}"])
        excluded = await path_predicates_excluded(self.endpoint)
        candidates = await self._class_counts()
        if not candidates:
            return HubDiscovery([], "discovered", notes=["the endpoint has no typed instances (no rdf:type triples)"])
        reports = [HubClassReport(iri, n) for iri, n in candidates]
        largest = max(r.instances for r in reports)
        floor = max(self.settings.min_hub_instances, math.ceil(self.settings.min_hub_share * largest))
        eligible = [r for r in reports if r.instances >= floor]
        for report in reports:
            if report.instances < floor:
                report.reason = (f"only {report.instances} instance(s) (< {floor}: at least "
                                 f"{self.settings.min_hub_instances} and {self.settings.min_hub_share:.0%} of the "
                                 f"{largest} of the most populous class)")
        await asyncio.gather(*(self._profile(report, excluded) for report in eligible))
        labels = await self.endpoint.labels([ox.NamedNode(r.iri) for r in reports])
        for report in reports:
            report.label = labels.get(report.iri, "")
        return self._select(reports)

    async def _class_counts(self) -> list[tuple[str, int]]:
        query = (
            "SELECT ?class (COUNT(?s) AS ?n) WHERE { ?s a ?class . FILTER(isIRI(?class)) } "
            f"GROUP BY ?class ORDER BY DESC(?n) LIMIT {self.settings.max_candidate_classes + 20}"
        )
        result = await self.endpoint.sparql.select(query)
        counts: list[tuple[str, int]] = []
        for row in result:
            term = row.get("class")
            if isinstance(term, ox.NamedNode) and not is_schema_class(term.value):
                counts.append((term.value, _int(row, "n")))
        return counts[: self.settings.max_candidate_classes]

    def _sample(self, iri: str) -> str:
        return f"{{ SELECT DISTINCT ?s WHERE {{ ?s a <{iri}> . FILTER(isIRI(?s)) }} LIMIT {self.settings.profile_sample} }}"

    async def _profile(self, report: HubClassReport, excluded: tuple[str, ...]) -> None:
        sample = self._sample(report.iri)
        not_in = f"FILTER(?p NOT IN ({', '.join(f'<{p}>' for p in excluded)}))"
        not_in2 = not_in.replace("?p", "?p2")
        queries = {
            "size": f"SELECT (COUNT(?s) AS ?n) WHERE {{ {sample} }}",
            "predicates": f"SELECT ?p (COUNT(?o) AS ?n) WHERE {{ {sample} ?s ?p ?o . {not_in} }} GROUP BY ?p",
            "linked": f"SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE {{ {sample} ?s ?p ?o . {not_in} FILTER(isIRI(?o)) }}",
            "second": (f"SELECT (COUNT(*) AS ?n) WHERE {{ {sample} ?s ?p ?x . {not_in} FILTER(isIRI(?x)) "
                       f"?x ?p2 ?y . {not_in2} }}"),
            "incoming": (f"SELECT ?c (COUNT(DISTINCT ?s) AS ?n) WHERE {{ {sample} ?x ?p ?s . {not_in} "
                         f"?x a ?c . FILTER(isIRI(?c)) }} GROUP BY ?c"),
        }
        try:
            results = dict(zip(queries, await asyncio.gather(
                *(self.endpoint.sparql.select(q) for q in queries.values())), strict=True))
        except SparqlError as exc:
            report.reason = f"profiling failed: {exc}"
            log.info("profiling %s failed: %s", report.iri, exc)
            return
        size = max(1, _int(results["size"].rows[0], "n") if results["size"].rows else 0)
        first_hop = sum(_int(row, "n") for row in results["predicates"])
        report.predicates = len(results["predicates"].rows)
        report.link_ratio = (_int(results["linked"].rows[0], "n") / size) if results["linked"].rows else 0.0
        second_hop = _int(results["second"].rows[0], "n") if results["second"].rows else 0
        report.paths_per_instance = (first_hop + second_hop) / size
        for row in results["incoming"]:
            term = row.get("c")
            if isinstance(term, ox.NamedNode) and term.value != report.iri:
                report.reached_from[term.value] = _int(row, "n") / size
        report.score = report.link_ratio * math.log1p(report.paths_per_instance) * math.log1p(report.predicates)

    def _select(self, reports: list[HubClassReport]) -> HubDiscovery:
        settings = self.settings
        selected: list[HubClassReport] = []
        for report in sorted(reports, key=lambda r: r.score, reverse=True):
            if report.reason:
                continue
            if report.predicates < settings.min_hub_predicates:
                report.reason = f"only {report.predicates} distinct outgoing predicate(s) (< {settings.min_hub_predicates})"
            elif report.link_ratio < settings.min_link_ratio:
                report.reason = (f"paths do not reach other entities: {report.link_ratio:.0%} of instances link "
                                 f"onward (< {settings.min_link_ratio:.0%})")
            elif report.paths_per_instance < settings.min_paths_per_instance:
                report.reason = (f"only {report.paths_per_instance:.1f} triples within two hops per instance "
                                 f"(< {settings.min_paths_per_instance:g})")
            else:
                parent = next((h for h in selected
                               if report.reached_from.get(h.iri, 0.0) >= settings.subordinate_ratio), None)
                if parent is not None:
                    report.reason = (f"part of the hubs of {parent.label or parent.iri}: "
                                     f"{report.reached_from[parent.iri]:.0%} of its instances are reached from them")
                else:
                    report.selected = True
                    report.reason = (f"{report.instances} instances, {report.predicates} outgoing predicates, "
                                     f"{report.link_ratio:.0%} link to other entities, "
                                     f"~{report.paths_per_instance:.0f} triples within two hops each")
                    selected.append(report)
        notes: list[str] = []
        if not selected:
            notes.append("no class passed the hub criteria; the index is empty (name hub_classes in endpoints.yaml)")
        ordered = sorted(reports, key=lambda r: (not r.selected, -r.score, -r.instances))
        return HubDiscovery([r.iri for r in selected], "discovered", ordered, notes)
