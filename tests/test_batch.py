"""The batch engine (`gateway.batch.run_batch`) and `kgqa batch`: every (question, endpoint) reported
exactly once, a slow or dead endpoint never holds back the others, question files in every format."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serverutil import LabelSearchPath, SlowPeer

from gateway.batch import load_question_texts, run_batch
from gateway.config import EndpointConfig, EndpointRegistry
from gateway.engines import OxigraphEngine, VirtuosoEngine, free_port
from gateway.errors import ConfigurationError
from gateway.qa import AskOptions, Gateway

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def slow_peer() -> Iterator[SlowPeer]:
    peer = SlowPeer(delay_s=3.0).start()
    yield peer
    peer.stop()


def label_gateway(registry: EndpointRegistry) -> Gateway:
    gateway = Gateway(registry)
    gateway.register_path("kgqan", LabelSearchPath())
    return gateway


async def test_slow_and_dead_endpoints_never_hold_back_the_others(virtuoso: VirtuosoEngine, oxigraph: OxigraphEngine,
                                                                  slow_peer: SlowPeer) -> None:
    endpoints = [virtuoso.endpoint("ck25", "ck25"), oxigraph.endpoint("orkg", "orkg"),
                 EndpointConfig(name="slow", url=slow_peer.url, timeout_s=30),
                 EndpointConfig(name="down", url=f"http://127.0.0.1:{free_port()}/sparql", timeout_s=5)]
    gateway = label_gateway(EndpointRegistry({e.name: e for e in endpoints}))
    questions = [f"Which {w}?" for w in ("product", "paper", "software", "manager", "department", "method")]
    started = time.perf_counter()
    seen = []
    try:
        async for finished in run_batch(gateway, questions, endpoints, AskOptions(paths=("kgqan",)),
                                        concurrency=2, item_timeout_s=1.0):
            seen.append((finished, time.perf_counter() - started))
    finally:
        await gateway.close()
    assert len(seen) == 24
    assert sorted(f.item.index for f, _ in seen) == list(range(24))
    fast = [t for f, t in seen if f.item.endpoint.name in ("ck25", "orkg")]
    slow = [f for f, _ in seen if f.item.endpoint.name == "slow"]
    assert all(f.status == "ok" for f, _ in seen if f.item.endpoint.name in ("ck25", "orkg")), [(f.item.endpoint.name, f.status, f.error) for f, _ in seen]
    assert all(f.status == "error" and f.error_kind == "timeout" for f in slow)
    assert all(f.status == "error" and f.error_kind == "unreachable" for f, _ in seen if f.item.endpoint.name == "down")
    assert max(fast) < 1.0 * 3  # 6 slow items at 2 in flight take 3 s of item timeouts; the fast ones never wait


async def test_stopping_early_cancels_the_remaining_work(virtuoso: VirtuosoEngine) -> None:
    endpoint = virtuoso.endpoint("ck25", "ck25")
    gateway = label_gateway(EndpointRegistry({"ck25": endpoint}))
    try:
        batch = run_batch(gateway, [f"Which product {i}?" for i in range(50)], [endpoint],
                          AskOptions(paths=("kgqan",)), concurrency=2)
        first = await batch.__anext__()
        await batch.aclose()
        assert first.status == "ok"
        await asyncio.sleep(0.1)
        assert not [t for t in asyncio.all_tasks() if t.get_coro().__qualname__.startswith("run_batch")]
    finally:
        await gateway.close()


def test_question_files_in_every_format(tmp_path: Path) -> None:
    text = tmp_path / "q.txt"
    text.write_text("# comment\nWhich products?\n\n  Who manages sales?  \n")
    assert load_question_texts(text) == ["Which products?", "Who manages sales?"]
    listed = tmp_path / "q.json"
    listed.write_text(json.dumps(["A?", {"question": "B?"}]))
    assert load_question_texts(listed) == ["A?", "B?"]
    qald = tmp_path / "qald.json"
    qald.write_text(json.dumps({"questions": [{"id": "1", "question": [
        {"language": "de", "string": "Welche?"}, {"language": "en", "string": "Which cities?"}],
        "query": {"sparql": "SELECT ?x WHERE { ?x a <http://ex/City> }"}}]}))
    assert load_question_texts(qald) == ["Which cities?"]
    ck25 = tmp_path / "questions.yml"
    ck25.write_text("dataset:\n  id: https://text2sparql.aksw.org/2025/corporate/\nquestions:\n"
                    "  - question:\n      en: Which products are there?\n    query:\n"
                    "      sparql: SELECT ?p WHERE { ?p a <http://ex/Product> }\n")
    assert load_question_texts(ck25) == ["Which products are there?"]
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ConfigurationError):
        load_question_texts(bad)
    with pytest.raises(ConfigurationError):
        load_question_texts(tmp_path / "missing.txt")


def test_kgqa_batch_cli_writes_every_item_with_a_progress_bar(virtuoso: VirtuosoEngine, tmp_path: Path) -> None:
    config = virtuoso.endpoint("ck25", "ck25")
    endpoints = tmp_path / "endpoints.yaml"
    endpoints.write_text(f"endpoints:\n  ck25:\n    url: {config.url}\n    default_graph: {config.default_graph}\n"
                         f"  down:\n    url: http://127.0.0.1:{free_port()}/sparql\n    timeout_s: 3\n")
    questions = tmp_path / "questions.txt"
    questions.write_text("Which products does the company sell?\nWho is the manager of the sales department?\n")
    out = tmp_path / "results.jsonl"
    run = subprocess.run([sys.executable, "-m", "gateway.cli", "batch", str(questions), "--endpoints-file",
                          str(endpoints), "-e", "ck25", "-e", "down", "--path", "kgqan", "--timeout", "120",
                          "--out", str(out)], capture_output=True, text=True, timeout=300, cwd=ROOT)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 4, run.stderr
    assert run.returncode == 1  # some items failed: the down endpoint
    assert {(line["question_index"], line["endpoint"]) for line in lines} == {(0, "ck25"), (1, "ck25"),
                                                                             (0, "down"), (1, "down")}
    assert all(line["status"] == "error" for line in lines if line["endpoint"] == "down")
    live = [line for line in lines if line["endpoint"] == "ck25"]
    assert all(line["status"] == "ok" and line["result"]["kgqan"]["answers"] for line in live), live
    assert "4/4" in run.stderr and "2 ok, 2 error" in run.stderr
