"""Topic entities for the traversal strategy: graph vertices named by the question's entity phrases.

`link_topic_entities` is the one switch point: it uses the KGQAN path's just-in-time entity linker
(`linking.EntityLinker`) when that is installed, and otherwise the endpoint's own full-text label search
(`Endpoint.search`) scored by string similarity of phrase and label.
"""

from __future__ import annotations

import asyncio
import difflib
import logging
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

import pyoxigraph as ox

from gateway.endpoint import Endpoint
from gateway.errors import GatewayError

log = logging.getLogger(__name__)

MIN_SCORE = 0.6


@dataclass(frozen=True)
class TopicEntity:
    """A vertex linked to an entity phrase of the question, with how well its label matches."""

    phrase: str
    iri: str
    label: str
    score: float

    def to_dict(self) -> dict[str, object]:
        return {"phrase": self.phrase, "iri": self.iri, "label": self.label, "score": round(self.score, 3)}


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", text)).strip()


def label_similarity(phrase: str, label: str) -> float:
    """1.0 for the same words, else the character-level ratio, lifted when one contains the other."""
    a, b = normalise(phrase), normalise(label)
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    ratio = difflib.SequenceMatcher(None, a, b).ratio()
    if a in b or b in a:
        ratio = max(ratio, 0.5 + 0.5 * min(len(a), len(b)) / max(len(a), len(b)))
    return ratio


async def _search_one(endpoint: Endpoint, phrase: str, per_phrase: int) -> list[TopicEntity]:
    try:
        hits = await endpoint.search(phrase, limit=100)
    except GatewayError as exc:
        log.info("label search for %r failed: %s", phrase, exc)
        return []
    best: dict[str, TopicEntity] = {}
    for hit in hits:
        if not isinstance(hit.entity, ox.NamedNode):
            continue
        score = label_similarity(phrase, hit.label)
        current = best.get(hit.entity.value)
        if score >= MIN_SCORE and (current is None or score > current.score):
            best[hit.entity.value] = TopicEntity(phrase, hit.entity.value, hit.label, score)
    return sorted(best.values(), key=lambda t: t.score, reverse=True)[:per_phrase]


_LINKER: Any = None


def _entity_linker() -> Any:
    """The KGQAN path's `EntityLinker` (one per process), or None when `linking` is not installed."""
    global _LINKER
    if _LINKER is None:
        try:
            from linking.affinity import default_scorer
            from linking.entities import EntityLinker
        except ImportError:
            return None
        _LINKER = EntityLinker(default_scorer())
    return _LINKER


async def _with_entity_linker(endpoint: Endpoint, phrases: list[str], per_phrase: int) -> list[TopicEntity] | None:
    linker = _entity_linker()
    if linker is None:
        return None

    async def one(phrase: str) -> list[TopicEntity]:
        try:
            found = await linker.link_entities(phrase, endpoint, top_k=per_phrase)
        except GatewayError as exc:
            log.info("linking %r failed: %s", phrase, exc)
            return []
        return [TopicEntity(phrase, c.term.value, c.label, float(c.score)) for c in found[:per_phrase]
                if isinstance(c.term, ox.NamedNode) and float(c.score) >= MIN_SCORE]

    groups = await asyncio.gather(*(one(phrase) for phrase in phrases))
    return [entity for group in groups for entity in group]


async def link_topic_entities(endpoint: Endpoint, phrases: list[str], per_phrase: int = 3) -> list[TopicEntity]:
    """The best-matching vertices for each phrase, best first."""
    phrases = [p for p in dict.fromkeys(phrases) if normalise(p)]
    if not phrases:
        return []
    linked = await _with_entity_linker(endpoint, phrases, per_phrase)
    if linked is None:
        groups = await asyncio.gather(*(_search_one(endpoint, phrase, per_phrase) for phrase in phrases))
        linked = [entity for group in groups for entity in group]
    return sorted(linked, key=lambda t: t.score, reverse=True)
