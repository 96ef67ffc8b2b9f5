"""One knowledge graph as the answer paths see it: SPARQL access plus what was learned about it.

An `Endpoint` wraps a `SparqlEndpoint` (HTTP or the embedded store) and discovers, once and lazily,
how to search its labels (the text-search dialect) and which label predicates it uses. The answer
paths ask it for entity search, labels and predicate descriptions; nothing else needs to know which
engine is behind the URL.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

import pyoxigraph as ox

from gateway.config import EndpointConfig
from gateway.errors import SparqlError
from gateway.sparql import HttpSparqlClient, SparqlEndpoint, Term, endpoint_setup

if TYPE_CHECKING:
    from gateway.sparql_syntax import GeneratedPattern

log = logging.getLogger(__name__)
MATCH_CHECKS = 5  # generated patterns checked with ASK for a match, best-ranked first
Generated = TypeVar("Generated", bound="GeneratedPattern")


@dataclass(frozen=True)
class LabelHit:
    """A vertex found by text search, with the label literal that matched."""

    entity: Term
    label: str


@dataclass
class EndpointProfile:
    """What discovery learned about an endpoint, and how (for evidence and `kgqa index`)."""

    dialect: str
    label_predicates: tuple[str, ...]
    notes: list[str] = field(default_factory=list)


class Endpoint:
    """A knowledge graph behind one SPARQL endpoint, with lazily discovered search settings."""

    def __init__(self, config: EndpointConfig, sparql: SparqlEndpoint) -> None:
        self.config = config
        self.sparql = sparql
        self._profile: EndpointProfile | None = None
        self._profile_lock = asyncio.Lock()
        self._labels: dict[str, str | None] = {}
        self._predicate_text: dict[str, str] = {}
        self._members: dict[str, str | None] = {}

    @property
    def name(self) -> str:
        return self.config.name

    async def profile(self) -> EndpointProfile:
        """Detects (once) the text-search dialect and label predicates, honouring the config."""
        if self._profile is None:
            async with self._profile_lock:
                if self._profile is None:
                    from gateway.discovery import discover_profile

                    with endpoint_setup():
                        self._profile = await discover_profile(self)
        return self._profile

    async def search(self, text: str, *, limit: int = 400, misspelt: Collection[str] = ()) -> list[LabelHit]:
        """Vertices whose label matches `text`, through the endpoint's own full-text index (words in
        `misspelt` may be found spelt nearly so, where nothing is found as spelt)."""
        from gateway.textsearch import search_labels

        return await search_labels(self, text, limit=limit, misspelt=misspelt)

    async def first_matching(self, ranked: Sequence[Generated], *, checks: int = MATCH_CHECKS) -> Generated | None:
        """The best-ranked generated pattern that has a match in the graph (as KGQAN's execution picks), among
        the first `checks` (asked at once), or None."""
        from gateway.sparql_syntax import rename_pattern

        tried = list(ranked[:checks])

        async def matches(candidate: Generated) -> bool:
            try:
                body = rename_pattern(candidate, candidate.answer_var.lstrip("?$"), set(), "m")
                return await self.sparql.ask(f"ASK {{ {body} }}")
            except SparqlError:
                return False

        found = await asyncio.gather(*(matches(c) for c in tried))
        return next((c for c, ok in zip(tried, found, strict=True) if ok), None)

    async def labels(self, terms: Iterable[Term]) -> dict[str, str]:
        """Labels of IRIs (in the configured language when the graph has several), batched and cached."""
        from gateway.discovery import fetch_labels

        wanted = [t.value for t in terms if isinstance(t, ox.NamedNode) and t.value not in self._labels]
        wanted = list(dict.fromkeys(wanted))
        if wanted:
            with endpoint_setup():  # kept for every later question: counted apart, like the setup
                found = await fetch_labels(self, wanted)
            for iri in wanted:
                self._labels[iri] = found.get(iri)
        return {t.value: self._labels[t.value] for t in terms
                if isinstance(t, ox.NamedNode) and self._labels.get(t.value)}  # type: ignore[misc]

    async def describe_predicates(self, iris: Sequence[str]) -> dict[str, str]:
        """Words for each predicate: its label when the graph has one, else its IRI's local name split."""
        from gateway.discovery import describe_predicates

        missing = [iri for iri in dict.fromkeys(iris) if iri not in self._predicate_text]
        if missing:
            with endpoint_setup():  # kept for every later question: counted apart, like the setup
                self._predicate_text.update(await describe_predicates(self, missing))
        return {iri: self._predicate_text[iri] for iri in iris if iri in self._predicate_text}

    async def member_predicate(self, container_class: str) -> str | None:
        """The predicate holding the members of a container class's instances (asked once per class)."""
        from gateway.discovery import member_predicate

        if container_class not in self._members:
            with endpoint_setup():  # kept for every later question: counted apart, like the setup
                self._members[container_class] = await member_predicate(self, container_class)
        return self._members[container_class]

    async def close(self) -> None:
        await self.sparql.close()


def open_sparql(config: EndpointConfig) -> SparqlEndpoint:
    """The SPARQL access for a config: HTTP for URLs, the in-process store for `embedded:`."""
    if config.is_embedded:
        from gateway.embedded import EmbeddedStore

        return EmbeddedStore.for_config(config)
    return HttpSparqlClient(config)


class EndpointPool:
    """One `Endpoint` per distinct endpoint in the process, so discovery and caches are shared."""

    def __init__(self) -> None:
        self._endpoints: dict[str, Endpoint] = {}

    def get(self, config: EndpointConfig) -> Endpoint:
        key = f"{config.name}|{config.cache_key}"
        endpoint = self._endpoints.get(key)
        if endpoint is None:
            endpoint = Endpoint(config, open_sparql(config))
            self._endpoints[key] = endpoint
        return endpoint

    async def close(self) -> None:
        endpoints, self._endpoints = list(self._endpoints.values()), {}
        await asyncio.gather(*(e.close() for e in endpoints), return_exceptions=True)
