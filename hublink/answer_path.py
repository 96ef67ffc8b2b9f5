"""`HubLinkPath`: the HubLink answer path of the gateway (`gateway.qa.AnswerPath`).

Per question: make sure the endpoint's hub index exists (building it on first contact, or answering
`indexing` at once when the caller does not wait), split the question into components, retrieve hubs
by the direct and/or traversal strategy, rank the triples of their best paths, and answer from them
with sources (extractively, or through the configured LLM as in the thesis).

Per-request settings: `AskOptions.hublink_top_hubs`, and `AskOptions.extra["hublink"]`, a mapping of
`HubLinkSettings` names to values (for example `{"strategy": "direct"}`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from gateway.endpoint import Endpoint
from gateway.errors import ConfigurationError, GatewayError
from gateway.models import AnswerStatus, PathResult
from gateway.qa import AskOptions
from gateway.sparql import counting_requests
from hublink import embedding
from hublink.answers import extractive_answers, hub_evidence, rank_triples, select_paths
from hublink.evidence import HubEvidence, HubLinkEvidence
from hublink.llm import LLMClient, LLMConfig
from hublink.manager import IndexManager, index_manager
from hublink.question import ProcessedQuestion, process_question
from hublink.retrieval import HubRetriever, RetrievalResult, ScoredHub, reachable_hubs
from hublink.settings import HubLinkSettings
from hublink.store import HubIndex
from hublink.topics import TopicEntity, link_topic_entities

log = logging.getLogger(__name__)

LLM_CONCURRENCY = 4
INDEX_WAIT_SHARE = 0.8  # of the path's time limit, spent at most waiting for an index build


def _index_summary(index: HubIndex) -> dict[str, Any]:
    manifest = index.manifest
    return {"status": "ready", "hubs": manifest.hubs, "paths": manifest.paths, "vectors": manifest.vectors,
            "built_at": manifest.built_at, "hub_classes": list(manifest.discovery.classes)}


class HubLinkPath:
    """Answers from a lazily built, persistent hub index, with the hubs, paths and triples as sources."""

    name = "hublink"

    def __init__(self, settings: HubLinkSettings | None = None, manager: IndexManager | None = None) -> None:
        self.settings = settings or HubLinkSettings.from_env()
        self.manager = manager or index_manager()
        self._llm: LLMClient | None = None
        self._llm_error: str | None = None
        try:
            config = LLMConfig.from_env()
        except ConfigurationError as exc:
            self._llm_error = str(exc)
            config = None
        if config is not None:
            self._llm = LLMClient(config)

    def settings_for(self, options: AskOptions) -> HubLinkSettings:
        overrides: dict[str, Any] = {"top_hubs": options.hublink_top_hubs}
        extra = options.extra.get("hublink") if options.extra else None
        if isinstance(extra, dict):
            overrides.update(extra)
        return self.settings.with_overrides(overrides)

    async def answer(self, question: str, endpoint: Endpoint, options: AskOptions) -> PathResult:
        started = time.perf_counter()
        timings: dict[str, float] = {}
        with counting_requests() as counter:
            result = await self._answer(question, endpoint, options, timings)
        timings["total"] = (time.perf_counter() - started) * 1000
        result.timings_ms = timings
        result.sparql_requests = counter.count
        result.setup_requests = counter.setup
        return result

    async def _answer(self, question: str, endpoint: Endpoint, options: AskOptions,
                      timings: dict[str, float]) -> PathResult:
        settings = self.settings_for(options)
        mark = time.perf_counter()
        # leave time to answer once the index is there; past that, say the index is still building
        budget = max(1.0, options.timeout_s * INDEX_WAIT_SHARE)
        try:
            async with asyncio.timeout(budget if options.hublink_wait_for_index else None):
                index = await self.manager.get(endpoint, settings, wait=options.hublink_wait_for_index)
        except TimeoutError:
            index = None
        timings["index"] = (time.perf_counter() - mark) * 1000
        if index is None:
            status = self.manager.status(endpoint.config)
            waited = f"after waiting {budget:.0f} s " if options.hublink_wait_for_index else ""
            return PathResult(
                self.name, status=AnswerStatus.INDEXING,
                evidence=HubLinkEvidence(index={"status": "building", **status.to_dict()}),
                notes=[f"the HubLink index of {endpoint.name} is still being built {waited}({status.describe()}); "
                       "the KGQAN path answers alone meanwhile"])
        notes: list[str] = []
        if self._llm_error:
            notes.append(f"LLM not used: {self._llm_error}")
        if index.is_empty:
            notes.extend(index.manifest.discovery.notes or ["the index holds no hubs"])
            return PathResult(self.name, evidence=HubLinkEvidence(index=_index_summary(index)), notes=notes)

        mark = time.perf_counter()
        processed = await process_question(question, self._llm)
        timings["understanding"] = (time.perf_counter() - mark) * 1000

        mark = time.perf_counter()
        vectors_task = asyncio.ensure_future(embedding.encode(processed.texts))
        topics: list[TopicEntity] = []
        if settings.strategy != "direct" and processed.entity_phrases:
            try:
                topics = await link_topic_entities(endpoint, processed.entity_phrases, settings.topic_candidates)
            except Exception as exc:  # without topic entities the direct strategy still answers
                log.warning("topic entity linking failed on %r: %s", question, exc)
                notes.append(f"topic entities not linked ({type(exc).__name__}: {exc}); direct strategy only")
        processed.vectors = await vectors_task
        timings["linking_and_embedding"] = (time.perf_counter() - mark) * 1000

        mark = time.perf_counter()
        retrieval = await self._retrieve(endpoint, index, processed, topics, settings)
        timings["retrieval"] = (time.perf_counter() - mark) * 1000
        notes.extend(retrieval.notes)

        mark = time.perf_counter()
        hubs = hub_evidence(index, retrieval.hubs)
        selected = await asyncio.to_thread(select_paths, index, retrieval.hubs, processed.vectors, settings)
        triples = rank_triples(index, selected, settings)
        answers = extractive_answers(question, index, selected, hubs, settings)
        timings["answers"] = (time.perf_counter() - mark) * 1000

        evidence = HubLinkEvidence(
            index=_index_summary(index), hubs=hubs, retrieved_triples=triples, strategy=retrieval.strategy,
            components=processed.components,
            understanding={"source": processed.source, "pattern": processed.pattern,
                           "entity_phrases": processed.entity_phrases},
            topic_entities=[t.to_dict() for t in topics])
        if retrieval.traversal:
            evidence.understanding["traversal"] = retrieval.traversal
        if self._llm is not None and hubs:
            mark = time.perf_counter()
            try:
                evidence.answer_text = await self._llm_answer(question, hubs, settings)
            except GatewayError as exc:
                notes.append(f"LLM answer failed, extractive answers only: {exc}")
            timings["llm"] = (time.perf_counter() - mark) * 1000
        return PathResult(self.name, answers=answers, evidence=evidence, notes=notes)

    async def _retrieve(self, endpoint: Endpoint, index: HubIndex, processed: ProcessedQuestion,
                        topics: list[TopicEntity], settings: HubLinkSettings) -> RetrievalResult:
        retriever = HubRetriever(index, settings)
        queries = processed.vectors
        assert queries is not None
        traversal: list[ScoredHub] = []
        info: dict[str, Any] = {}
        notes: list[str] = []
        if topics and settings.strategy in ("auto", "traversal"):
            numbers, origin, hops = await reachable_hubs(endpoint, index, topics, settings.max_traversal_hops)
            info = {"hubs_reached": len(numbers), "hops": hops}
            if numbers:
                traversal = await asyncio.to_thread(retriever.within, queries, numbers, settings.top_hubs,
                                                    settings.top_paths_per_hub, origin)
        if settings.strategy == "traversal":
            if not traversal:
                notes.append("traversal found no hub from the question's entities")
            return RetrievalResult(traversal, "traversal", notes, info)
        direct = await asyncio.to_thread(retriever.direct, queries, settings.top_hubs, settings.top_paths_per_hub)
        if not traversal:
            return RetrievalResult(direct, "direct", notes, info)
        chosen = {h.number for h in traversal}
        merged = sorted(traversal + [h for h in direct if h.number not in chosen], key=lambda h: h.score, reverse=True)
        return RetrievalResult(merged[: settings.top_hubs], "traversal+direct", notes, info)

    async def _llm_answer(self, question: str, hubs: list[HubEvidence], settings: HubLinkSettings) -> str | None:
        """Partial answers per hub, then a final answer citing them as [i] (the thesis's answer generator)."""
        assert self._llm is not None
        llm = self._llm
        limit = asyncio.Semaphore(LLM_CONCURRENCY)

        async def partial(hub: HubEvidence) -> str | None:
            async with limit:
                paths = [(p.text, [t.text() for t in p.triples]) for p in hub.paths]
                return await llm.partial_answer(question, hub.label, paths)

        partials = await asyncio.gather(*(partial(hub) for hub in hubs))
        useful: list[tuple[HubEvidence, str]] = []
        for hub, text in zip(hubs, partials, strict=True):
            hub.partial_answer = text
            if text:
                useful.append((hub, text))
        if not useful:
            return None
        final = await llm.final_answer(question, [text for _, text in useful])
        if final is None:
            return None
        sources = [f"[{i}] {hub.label} <{hub.hub}>" for i, (hub, _) in enumerate(useful, 1) if f"[{i}]" in final]
        return final + ("\n\n" + "\n".join(sources) if sources else "")

    async def close(self) -> None:
        if self._llm is not None:
            await self._llm.close()

