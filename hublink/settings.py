"""HubLink parameters in one place, with the thesis's defaults.

The retrieval defaults follow the final HubLink configuration of the thesis
(`Sidies/MasterThesis-HubLink`, Code/sqa-system/experiments/1_experiment/base_configs/HubLink/
base_config_ollama.json and sqa_system/retrieval/implementations/HubLink/models/hub_link_settings.py):
10 hubs, 10 paths per hub, diversity penalty 0.05, path weight alpha 5. The indexing limits are ours:
they keep a first contact with a large public endpoint bounded.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from typing import Any

from gateway.errors import ConfigurationError

# Vocabularies that describe schemas, not data: their classes are never hubs.
SCHEMA_NAMESPACES = (
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "http://www.w3.org/2000/01/rdf-schema#",
    "http://www.w3.org/2002/07/owl#",
    "http://www.w3.org/ns/shacl#",
    "http://www.openlinksw.com/schemas/virtrdf#",
)


@dataclass(frozen=True)
class HubLinkSettings:
    """Everything that shapes a HubLink index and its retrieval."""

    # hub discovery (profiling the endpoint)
    min_hub_instances: int = 3
    min_hub_share: float = 0.05  # of the instances of the most populous class
    min_hub_predicates: int = 3
    min_link_ratio: float = 0.5  # share of instances with an edge to another entity
    min_paths_per_instance: float = 3.0
    max_candidate_classes: int = 40
    profile_sample: int = 200  # instances per class looked at while profiling
    subordinate_ratio: float = 0.5  # instances reached from a better hub class: part of that hub
    # hub paths
    max_path_length: int = 4
    max_paths_per_hub: int = 300
    max_hubs: int = 20_000
    max_total_paths: int = 200_000  # bounds the embedding work on first contact with a large endpoint
    page_size: int = 5_000  # rows per SPARQL page (Virtuoso cuts at 10,000)
    subjects_per_query: int = 100
    # embedding
    embed_batch_size: int = 128
    embed_chunk_size: int = 512  # texts embedded between progress reports and saved partial results
    # retrieval (thesis defaults)
    top_hubs: int = 10
    top_paths_per_hub: int = 10
    diversity_penalty: float = 0.05
    path_weight_alpha: float = 5.0
    strategy: str = "auto"  # auto | direct | traversal
    max_traversal_hops: int = 2
    topic_candidates: int = 3  # linked vertices per entity phrase
    max_retrieved_triples: int = 100
    # evidence selection without an LLM (ours): hubs within hub_margin of the best hub score, paths
    # within path_margin (in standard deviations) of the most relevant path
    hub_margin: float = 0.1
    path_margin: float = 1.0
    answer_margin: float = 0.5  # answers: ends of the selected paths this close to the most relevant
    relevance: str = "mean"  # how standardised scores of several query vectors combine: mean | max
    # answers
    max_answers: int = 10

    def with_overrides(self, overrides: dict[str, Any]) -> HubLinkSettings:
        """A copy with `overrides` applied; unknown names and wrong types are configuration errors."""
        known = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        for name, value in overrides.items():
            if name not in known:
                raise ConfigurationError(f"unknown HubLink setting {name!r}")
            current = getattr(self, name)
            try:
                changes[name] = type(current)(value)
            except (TypeError, ValueError) as exc:
                raise ConfigurationError(f"HubLink setting {name}={value!r}: {exc}") from exc
        settings = replace(self, **changes)
        if settings.strategy not in ("auto", "direct", "traversal"):
            raise ConfigurationError(f"HubLink strategy must be auto, direct or traversal, not {settings.strategy!r}")
        return settings

    @classmethod
    def from_env(cls) -> HubLinkSettings:
        """Defaults, overridden by `KGQA_HUBLINK_<NAME>` environment variables."""
        prefix = "KGQA_HUBLINK_"
        overrides = {
            key[len(prefix):].lower(): value
            for key, value in os.environ.items()
            if key.startswith(prefix) and key[len(prefix):].lower() in {f.name for f in fields(cls)}
        }
        return cls().with_overrides(overrides)

    def index_fingerprint(self) -> dict[str, Any]:
        """The settings that change what an index holds; an index built with others is rebuilt."""
        names = ("min_hub_instances", "min_hub_share", "min_hub_predicates", "min_link_ratio", "min_paths_per_instance",
                 "max_candidate_classes", "profile_sample", "subordinate_ratio", "max_path_length",
                 "max_paths_per_hub", "max_hubs", "max_total_paths")
        return {name: getattr(self, name) for name in names}
