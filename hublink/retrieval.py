"""HubLink retrieval: the direct and the traversal strategy, and the thesis's hub scoring.

Follows `Sidies/MasterThesis-HubLink`, Code/sqa-system/sqa_system/retrieval/implementations/HubLink/:

- `utils/vector_store.py`: each query vector fetches 2n candidates; candidates are re-ranked by the
  diversity ranker (a candidate whose embedded text is a triple `(subject, ...` loses
  `diversity_penalty` (lambda = 0.05) per earlier candidate with the same subject); paths are
  deduplicated by path hash, keeping the best match.
- `retrieval/direct_retrieval_strategy.py`: search the whole index until `top_hubs` hubs are found,
  then fill each hub to `top_paths_per_hub` paths with a search restricted to that hub.
- `retrieval/traversal_retrieval_strategy.py` + `utils/hub_finder.py`: from topic entities, walk the
  graph in both directions to the first hub roots, then rank the paths of those hubs.
- `retrieval/base_retrieval_strategy.py` `_prune_hubs`: a hub's score is the weighted mean of its path
  scores with weights exp(alpha * s) (alpha = 5); the best `top_hubs` hubs are kept.

Several query vectors (question + components) score a vector row by their best similarity to it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyoxigraph as ox

from gateway.endpoint import Endpoint
from gateway.errors import SparqlError
from gateway.sparql import RDF_TYPE
from hublink.hubs import iri_list
from hublink.settings import HubLinkSettings
from hublink.store import KIND_NAMES, HubIndex
from hublink.topics import TopicEntity

log = logging.getLogger(__name__)


@dataclass
class ScoredPath:
    """A path of a hub with its relevance to the question and the embedded text that matched."""

    number: int
    score: float
    matched_text: str
    matched_kind: str


@dataclass
class ScoredHub:
    """A candidate hub with its best paths and its weighted hub score."""

    number: int
    paths: list[ScoredPath]
    score: float = 0.0
    via: str = "direct"
    topic: TopicEntity | None = None


@dataclass
class RetrievalResult:
    hubs: list[ScoredHub]
    strategy: str
    notes: list[str] = field(default_factory=list)
    traversal: dict[str, Any] = field(default_factory=dict)


def diversity_rerank(candidates: list[tuple[int, float, str, int]], penalty: float) -> list[tuple[int, float, str, int]]:
    """The thesis's `_diversity_ranker_for_triples` on (path, score, embedded text, kind) candidates."""
    ranked = sorted(candidates, key=lambda c: c[1], reverse=True)
    if penalty <= 0:
        return ranked
    seen: dict[str, int] = {}
    out = []
    for path, score, text, kind in ranked:
        if text.startswith("("):
            subject = text.split(",")[0]
            count = seen.get(subject, 0)
            score -= penalty * count
            seen[subject] = count + 1
        out.append((path, score, text, kind))
    return sorted(out, key=lambda c: c[1], reverse=True)


def weighted_hub_score(scores: list[float], alpha: float) -> float:
    """Weighted mean of path scores with weights exp(alpha * s) (the thesis's `_prune_hubs`)."""
    if not scores:
        return 0.0
    values = np.asarray(scores, dtype=np.float64)
    weights = np.exp(alpha * values)
    return float(np.sum(weights * values) / np.sum(weights))


class HubRetriever:
    """Scores the paths and hubs of one index against one question's vectors."""

    def __init__(self, index: HubIndex, settings: HubLinkSettings) -> None:
        self.index = index
        self.settings = settings

    def _expand(self, rows: np.ndarray, scores: np.ndarray) -> list[tuple[int, float, str, int]]:
        """Vector rows to (path, score, text, kind) candidates: a shared row stands for each of its paths."""
        index = self.index
        return [(path, float(score), index.row_text[row], int(index.row_kind[row]))
                for row, score in zip(rows.tolist(), scores.tolist(), strict=True)
                for path in index.row_paths[row]]

    def _paths_from(self, candidates: list[tuple[int, float, str, int]], n: int,
                    exclude: set[str] | None = None) -> list[ScoredPath]:
        paths: list[ScoredPath] = []
        seen = set(exclude or ())
        for number, score, text, kind in diversity_rerank(candidates, self.settings.diversity_penalty):
            digest = self.index.paths[number].hash
            if digest in seen:
                continue
            seen.add(digest)
            paths.append(ScoredPath(number, score, text, KIND_NAMES[kind]))
            if len(paths) >= n:
                break
        return paths

    def hub_paths(self, queries: np.ndarray, hub: int, n: int, exclude: set[str] | None = None) -> list[ScoredPath]:
        """The top `n` paths of one hub (the thesis's `similarity_search_by_hub_entity` with 2n candidates)."""
        record = self.index.hubs[hub]
        if record.row_end <= record.row_start:
            return []
        block = self.index.vectors[record.row_start:record.row_end]
        similarity = block @ queries.T  # (rows, queries)
        best = similarity.max(axis=1)
        take = min(len(best), max(2 * n, n + len(exclude or ())) * 4)
        order = np.argsort(-best)[:take]
        rows = order + record.row_start
        return self._paths_from(self._expand(rows, best[order]), n, exclude)

    def _search_hubs(self, queries: np.ndarray, excluded: set[int], n: int) -> dict[int, list[ScoredPath]]:
        """Hubs with their best paths from a whole-index search that skips `excluded` hubs."""
        import faiss

        index = self.index
        params = None
        if excluded:
            rows = np.concatenate([np.arange(index.hubs[h].row_start, index.hubs[h].row_end) for h in excluded])
            params = faiss.SearchParameters(sel=faiss.IDSelectorNot(faiss.IDSelectorBatch(rows.astype(np.int64))))
        k = min(2 * n, index.vectors.shape[0])
        scores, rows = index.faiss_index.search(queries, k, params=params)
        by_hub: dict[int, list[tuple[int, float, str, int]]] = {}
        for row, score in zip(rows.ravel().tolist(), scores.ravel().tolist(), strict=True):
            if row < 0:
                continue
            by_hub.setdefault(int(index.row_hub[row]), []).extend(self._expand(np.array([row]), np.array([score])))
        return {hub: self._paths_from(candidates, n) for hub, candidates in by_hub.items()}

    def direct(self, queries: np.ndarray, top_hubs: int, top_paths: int) -> list[ScoredHub]:
        """The direct strategy: whole-index search until `top_hubs` hubs, fill, then prune."""
        candidates: dict[int, list[ScoredPath]] = {}
        seen_hashes: set[str] = set()
        while len(candidates) < top_hubs and len(candidates) < len(self.index.hubs):
            found = self._search_hubs(queries, set(candidates), top_paths)
            if not found:
                break
            for hub, paths in found.items():
                kept = candidates.setdefault(hub, [])
                for path in paths:
                    digest = self.index.paths[path.number].hash
                    if digest not in seen_hashes:
                        seen_hashes.add(digest)
                        kept.append(path)
        hubs = []
        for hub, paths in candidates.items():
            if len(paths) < top_paths:
                paths = self.hub_paths(queries, hub, top_paths)
            hubs.append(ScoredHub(hub, paths[:top_paths]))
        return self.prune(hubs, top_hubs)

    def within(self, queries: np.ndarray, hubs: list[int], top_hubs: int, top_paths: int,
               topics: dict[int, TopicEntity] | None = None) -> list[ScoredHub]:
        """The ranking step of the traversal strategy: the best paths inside the given hubs, pruned."""
        scored = []
        for hub in dict.fromkeys(hubs):
            paths = self.hub_paths(queries, hub, top_paths)
            if paths:
                topic = (topics or {}).get(hub)
                scored.append(ScoredHub(hub, paths, via=f"traversal from {topic.label}" if topic else "traversal",
                                        topic=topic))
        return self.prune(scored, top_hubs)

    def prune(self, hubs: list[ScoredHub], top_hubs: int) -> list[ScoredHub]:
        for hub in hubs:
            hub.score = weighted_hub_score([p.score for p in hub.paths], self.settings.path_weight_alpha)
        hubs.sort(key=lambda h: h.score, reverse=True)
        return hubs[:top_hubs]


async def reachable_hubs(endpoint: Endpoint, index: HubIndex, topics: list[TopicEntity], max_hops: int
                         ) -> tuple[list[int], dict[int, TopicEntity], int]:
    """Hub roots nearest to the topic entities (both directions, first level that has any), and the hops.

    The thesis's `HubFinder.find_hub_root_entities`: a path from a topic entity stops at the first hub
    root; a topic entity that is itself a hub root is found at level 0.
    """
    origin: dict[str, TopicEntity] = {}
    for topic in topics:
        origin.setdefault(topic.iri, topic)
    found: dict[int, TopicEntity] = {}
    for iri, topic in origin.items():
        number = index.hub_number(iri)
        if number is not None:
            found.setdefault(number, topic)
    if found:
        return list(found), found, 0
    frontier = dict(origin)
    visited = set(frontier)
    for hop in range(1, max_hops + 1):
        if not frontier:
            break
        nxt: dict[str, TopicEntity] = {}
        items = list(frontier.items())
        for start in range(0, len(items), 50):
            chunk = dict(items[start:start + 50])
            query = (f"SELECT DISTINCT ?e ?n WHERE {{ VALUES ?e {{ {iri_list(list(chunk))} }} "
                     f"{{ ?e ?p ?n }} UNION {{ ?n ?p ?e }} FILTER(isIRI(?n) && ?p != <{RDF_TYPE}>) }} LIMIT 20000")
            try:
                result = await endpoint.sparql.select(query)
            except SparqlError as exc:
                log.info("traversal from topic entities failed: %s", exc)
                return list(found), found, hop
            for row in result:
                e, n = row.get("e"), row.get("n")
                if isinstance(e, ox.NamedNode) and isinstance(n, ox.NamedNode) and n.value not in visited:
                    visited.add(n.value)
                    nxt.setdefault(n.value, chunk.get(e.value) or next(iter(chunk.values())))
        for iri, topic in nxt.items():
            number = index.hub_number(iri)
            if number is not None:
                found.setdefault(number, topic)
        if found:
            return list(found), found, hop
        frontier = dict(list(nxt.items())[:2000])
    return [], {}, max_hops
