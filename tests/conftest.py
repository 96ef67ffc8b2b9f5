"""Shared fixtures: real engines on 127.0.0.1 with real graphs from ../shared/data.

Engines are started once per test session and stopped at the end. Virtuoso comes from apt
(scripts/install-system.sh); tests that need it are skipped with a clear reason if it is missing.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from gateway.endpoint import Endpoint, open_sparql
from gateway.engines import LocalEngine, OxigraphEngine, VirtuosoEngine

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("KGQA_SHARED", ROOT.parent / "shared")).resolve()
DATA = SHARED / "data"
KGS = DATA / "kgs"
CK25 = KGS / "ck25" / "graph.ttl"
ORKG = KGS / "orkg-swa-distributed" / "graph.ttl"
SPIDER = KGS / "spider4sparql"

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@contextlib.asynccontextmanager
async def open_endpoint(engine: LocalEngine, name: str, graph: str) -> AsyncIterator[Endpoint]:
    """An `Endpoint` on one graph a test engine has loaded, closed afterwards."""
    config = engine.endpoint(name, graph)
    endpoint = Endpoint(config, open_sparql(config))
    try:
        yield endpoint
    finally:
        await endpoint.close()


def _need_data() -> None:
    if not CK25.exists():
        pytest.skip(f"shared data not found at {DATA}")


@pytest.fixture(scope="session")
def virtuoso() -> Iterator[VirtuosoEngine]:
    """A live Virtuoso with ck25, the ORKG subset and one Spider4SPARQL graph, each in its own graph."""
    _need_data()
    if not VirtuosoEngine.available():
        pytest.skip("Virtuoso is not installed (scripts/install-system.sh installs it)")
    engine = VirtuosoEngine()
    engine.start()
    try:
        engine.load(CK25, "ck25")
        engine.load(ORKG, "orkg")
        engine.load(SPIDER / "concert_singer.ttl", "concert_singer")
        yield engine
    finally:
        engine.stop()


@pytest.fixture(scope="session")
def oxigraph() -> Iterator[OxigraphEngine]:
    """A live Oxigraph server with the same graphs as the Virtuoso fixture, and six more Spider graphs
    (shops that store their number of products; area codes whose states are stored as postal codes; poker
    players as records that refer to people; flights whose airports are codes; students who own pets through
    the rows of a link table; teachers arranged to courses, each course named by a column of its own name)."""
    _need_data()
    engine = OxigraphEngine()
    engine.start()
    try:
        engine.load(CK25, "ck25")
        engine.load(ORKG, "orkg")
        engine.load(SPIDER / "concert_singer.ttl", "concert_singer")
        engine.load(SPIDER / "employee_hire_evaluation.ttl", "employee_hire_evaluation")
        engine.load(SPIDER / "voter_1.ttl", "voter_1")
        engine.load(SPIDER / "poker_player.ttl", "poker_player")
        engine.load(SPIDER / "flight_2.ttl", "flight_2")
        engine.load(SPIDER / "pets_1.ttl", "pets_1")
        engine.load(SPIDER / "course_teach.ttl", "course_teach")
        yield engine
    finally:
        engine.stop()
