"""Hub paths: from each hub root, the outgoing paths to leaves, to other hub roots, or to a maximum length.

Follows the thesis's `HubBuilder._get_hub_paths` (`sqa_system/retrieval/implementations/HubLink/utils/
hub_builder.py`): a breadth-first walk over outgoing edges from the root, each entity visited once per
hub, a path ending at a vertex without outgoing edges, at another hub root or at the length limit, and
the path's identity an MD5 over its triples (`path_to_hash`). Two deliberate differences: the edge into
another hub root is kept as the last triple of the path (the thesis drops it, losing e.g. citations), and
the path text is written from labels ("Title -> venue -> ICSA") instead of by an LLM.

The graph is read with paged SPARQL, level by level for all hubs at once, so a vertex shared by many hubs
(a venue, a research field) is fetched once.
"""

from __future__ import annotations

import hashlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pyoxigraph as ox

from gateway.endpoint import Endpoint
from gateway.sparql import Term
from hublink.hubs import iri_list, path_predicates_excluded
from hublink.settings import HubLinkSettings

log = logging.getLogger(__name__)

ProgressCallback = Callable[[str, int, int], None]
ARROW = " -> "


@dataclass(frozen=True)
class PathTriple:
    """One edge of a hub path, with the labels its text was written from."""

    subject: str
    predicate: str
    object: str
    subject_label: str
    predicate_label: str
    object_label: str
    object_is_literal: bool = False

    def text(self) -> str:
        """The triple as the thesis embeds it: `(subject, predicate, object)` in labels."""
        return f"({self.subject_label}, {self.predicate_label}, {self.object_label})"

    def identity(self) -> str:
        obj = f'"{self.object}"' if self.object_is_literal else f"<{self.object}>"
        return f"<{self.subject}> <{self.predicate}> {obj}"

    def to_list(self) -> list[Any]:
        return [self.subject, self.predicate, self.object, self.subject_label, self.predicate_label,
                self.object_label, self.object_is_literal]

    @classmethod
    def from_list(cls, data: list[Any]) -> PathTriple:
        return cls(str(data[0]), str(data[1]), str(data[2]), str(data[3]), str(data[4]), str(data[5]), bool(data[6]))

    def to_evidence(self) -> dict[str, str]:
        return {"subject": self.subject, "predicate": self.predicate, "object": self.object,
                "subject_label": self.subject_label, "predicate_label": self.predicate_label,
                "object_label": self.object_label}


@dataclass(frozen=True)
class HubPath:
    """A path of a hub: its triples, its text, and a hash of its content."""

    hub: str
    triples: tuple[PathTriple, ...]
    text: str
    hash: str

    @property
    def descriptions(self) -> tuple[str, str]:
        """What the path says without its hub's name: its tail ("venue -> ICSA") and its relations
        ("venue"). Inside one hub they tell paths apart, which texts starting with the hub's name cannot."""
        return tail_text(self.triples), ARROW.join(dict.fromkeys(t.predicate_label for t in self.triples))

    def to_dict(self) -> dict[str, Any]:
        return {"hub": self.hub, "text": self.text, "hash": self.hash, "triples": [t.to_list() for t in self.triples]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HubPath:
        return cls(data["hub"], tuple(PathTriple.from_list(t) for t in data["triples"]), data["text"], data["hash"])


@dataclass
class Hub:
    """A hub root with its paths; `content_hash` changes when any path does (for refresh)."""

    iri: str
    label: str
    hub_class: str
    paths: list[HubPath]
    truncated: bool = False

    @property
    def content_hash(self) -> str:
        return hashlib.md5("\n".join(sorted(p.hash for p in self.paths)).encode()).hexdigest()


def path_hash(triples: tuple[PathTriple, ...]) -> str:
    """MD5 over the path's triples and labels: the thesis's `path_to_hash`, label changes included."""
    content = "\n".join(f"{t.identity()} | {t.subject_label} | {t.predicate_label} | {t.object_label}" for t in triples)
    return hashlib.md5(content.encode()).hexdigest()


def tail_text(triples: tuple[PathTriple, ...]) -> str:
    parts: list[str] = []
    for triple in triples:
        parts.extend((triple.predicate_label, triple.object_label))
    return ARROW.join(parts)


def path_text(root_label: str, triples: tuple[PathTriple, ...]) -> str:
    return ARROW.join((root_label, tail_text(triples)))


def local_name(iri: str) -> str:
    """The last segment of an IRI: `http://orkg.org/orkg/resource/R123` -> `R123`."""
    for separator in ("#", "/", ":"):
        if separator in iri.rstrip(separator):
            tail = iri.rstrip(separator).rsplit(separator, 1)[1]
            if tail:
                return tail
    return iri


@dataclass(frozen=True)
class _Edge:
    predicate: str
    object: Term


class HubPathFetcher:
    """Reads hub roots and their outgoing neighbourhoods from an endpoint with paged SPARQL."""

    def __init__(self, endpoint: Endpoint, settings: HubLinkSettings,
                 progress: ProgressCallback | None = None) -> None:
        self.endpoint = endpoint
        self.settings = settings
        self.progress = progress or (lambda phase, done, total: None)
        self.skipped_hubs = 0  # hubs left out by `max_total_paths`

    async def hub_roots(self, classes: list[str]) -> dict[str, str]:
        """Hub root IRI -> its hub class, paged, at most `max_hubs`."""
        roots: dict[str, str] = {}
        for cls in classes:
            offset = 0
            while len(roots) < self.settings.max_hubs:
                page = min(self.settings.page_size, self.settings.max_hubs - len(roots))
                query = (f"SELECT DISTINCT ?s WHERE {{ ?s a <{cls}> . FILTER(isIRI(?s)) }} "
                         f"ORDER BY ?s LIMIT {page} OFFSET {offset}")
                result = await self.endpoint.sparql.select(query)
                for row in result:
                    term = row.get("s")
                    if isinstance(term, ox.NamedNode):
                        roots.setdefault(term.value, cls)
                self.progress("finding hubs", len(roots), len(roots))
                if len(result) < page:
                    break
                offset += page
        if len(roots) >= self.settings.max_hubs:
            log.warning("%s: stopped at %d hubs (max_hubs)", self.endpoint.name, self.settings.max_hubs)
        return roots

    async def _outgoing(self, subjects: list[str], excluded: tuple[str, ...]) -> list[tuple[str, str, Term]]:
        """All outgoing (s, p, o) of `subjects` except type/label edges, paged."""
        rows: list[tuple[str, str, Term]] = []
        not_in = ", ".join(f"<{p}>" for p in excluded)
        offset = 0
        while True:
            query = (f"SELECT ?s ?p ?o WHERE {{ VALUES ?s {{ {iri_list(subjects)} }} ?s ?p ?o . "
                     f"FILTER(?p NOT IN ({not_in})) FILTER(!isBlank(?o)) }} "
                     f"ORDER BY ?s ?p ?o LIMIT {self.settings.page_size} OFFSET {offset}")
            result = await self.endpoint.sparql.select(query)
            for row in result:
                s, p, o = row.get("s"), row.get("p"), row.get("o")
                if isinstance(s, ox.NamedNode) and isinstance(p, ox.NamedNode) and o is not None:
                    if isinstance(o, ox.Literal) and not o.value.strip():
                        continue  # an empty value says nothing
                    rows.append((s.value, p.value, o))
            if len(result) < self.settings.page_size:
                return rows
            offset += self.settings.page_size

    async def neighbourhood(self, roots: dict[str, str]) -> dict[str, list[_Edge]]:
        """Outgoing edges of every vertex within `max_path_length - 1` hops of a hub root."""
        excluded = await path_predicates_excluded(self.endpoint)
        adjacency: dict[str, list[_Edge]] = {}
        frontier = list(roots)
        chunk = self.settings.subjects_per_query
        for depth in range(self.settings.max_path_length):
            if not frontier:
                break
            found: list[str] = []
            for start in range(0, len(frontier), chunk):
                subjects = frontier[start:start + chunk]
                for s in subjects:
                    adjacency.setdefault(s, [])
                for s, p, o in await self._outgoing(subjects, excluded):
                    adjacency[s].append(_Edge(p, o))
                    if isinstance(o, ox.NamedNode) and o.value not in adjacency and o.value not in roots:
                        found.append(o.value)
                self.progress(f"reading paths (level {depth + 1})", min(start + chunk, len(frontier)), len(frontier))
            frontier = [o for o in dict.fromkeys(found) if o not in adjacency]
        return adjacency

    def walk(self, root: str, roots: dict[str, str], adjacency: dict[str, list[_Edge]]
             ) -> tuple[list[tuple[tuple[str, str, Term], ...]], bool]:
        """The raw paths of one hub (breadth first, each vertex expanded once), and whether it was cut."""
        max_length, cap = self.settings.max_path_length, self.settings.max_paths_per_hub
        paths: list[tuple[tuple[str, str, Term], ...]] = []
        visited = {root}
        queue: deque[tuple[str, tuple[tuple[str, str, Term], ...]]] = deque([(root, ())])
        while queue:
            if len(paths) >= cap:
                return paths[:cap], True
            node, path = queue.popleft()
            edges = adjacency.get(node, [])
            if not edges:
                if path:
                    paths.append(path)
                continue
            for edge in edges:
                obj = edge.object
                if isinstance(obj, ox.NamedNode) and obj.value == root:
                    continue
                extended = (*path, (node, edge.predicate, obj))
                ends = (not isinstance(obj, ox.NamedNode) or obj.value in roots or obj.value in visited
                        or len(extended) >= max_length or not adjacency.get(obj.value))
                if ends:
                    paths.append(extended)
                else:
                    visited.add(obj.value)
                    queue.append((obj.value, extended))
        return paths[:cap], len(paths) > cap

    async def fetch(self, classes: list[str], labeller: Callable[[list[str], list[str]], Awaitable[
            tuple[dict[str, str], dict[str, str]]]] | None = None) -> list[Hub]:
        """Every hub of `classes` with its labelled paths."""
        roots = await self.hub_roots(classes)
        if not roots:
            return []
        adjacency = await self.neighbourhood(roots)
        raw: dict[str, list[tuple[tuple[str, str, Term], ...]]] = {}
        truncated: set[str] = set()
        total = 0
        for index, root in enumerate(roots):
            paths, cut = self.walk(root, roots, adjacency)
            if total + len(paths) > self.settings.max_total_paths:
                self.skipped_hubs = len(roots) - index
                log.warning("%s: indexing %d of %d hubs (max_total_paths %d)", self.endpoint.name, index,
                            len(roots), self.settings.max_total_paths)
                break
            raw[root] = paths
            total += len(paths)
            if cut:
                truncated.add(root)
            if index % 500 == 0:
                self.progress("building paths", index + 1, len(roots))
        entities: dict[str, None] = dict.fromkeys(roots)
        predicates: dict[str, None] = {}
        for paths in raw.values():
            for path in paths:
                for s, p, o in path:
                    entities.setdefault(s)
                    predicates.setdefault(p)
                    if isinstance(o, ox.NamedNode):
                        entities.setdefault(o.value)
        self.progress("labelling", 0, len(entities))
        entity_labels, predicate_labels = await (labeller or self.labels)(list(entities), list(predicates))
        self.progress("labelling", len(entities), len(entities))
        hubs: list[Hub] = []
        for root, paths in raw.items():
            root_label = entity_labels.get(root) or local_name(root)
            hub_paths: list[HubPath] = []
            seen: set[str] = set()
            for path in paths:
                triples = tuple(_labelled(s, p, o, entity_labels, predicate_labels) for s, p, o in path)
                digest = path_hash(triples)
                if digest in seen:
                    continue
                seen.add(digest)
                hub_paths.append(HubPath(root, triples, path_text(root_label, triples), digest))
            hubs.append(Hub(root, root_label, roots[root], hub_paths, root in truncated))
        self.progress("building paths", len(roots), len(roots))
        return hubs

    async def labels(self, entities: list[str], predicates: list[str]) -> tuple[dict[str, str], dict[str, str]]:
        """Entity labels (through the endpoint's label predicates) and predicate words."""
        entity_labels: dict[str, str] = {}
        chunk = 2000
        for start in range(0, len(entities), chunk):
            entity_labels.update(await self.endpoint.labels([ox.NamedNode(e) for e in entities[start:start + chunk]]))
            self.progress("labelling", min(start + chunk, len(entities)), len(entities))
        predicate_labels = await self.endpoint.describe_predicates(predicates)
        return entity_labels, predicate_labels


def _labelled(s: str, p: str, o: Term, entity_labels: dict[str, str], predicate_labels: dict[str, str]) -> PathTriple:
    if isinstance(o, ox.NamedNode):
        obj, obj_label, literal = o.value, entity_labels.get(o.value) or local_name(o.value), False
    else:
        obj, obj_label, literal = o.value, o.value, True
    return PathTriple(s, p, obj, entity_labels.get(s) or local_name(s),
                      predicate_labels.get(p) or local_name(p), obj_label, literal)
