"""Batch throughput: N questions over 3 local graphs with the engine behind `/qa/batch` and `kgqa batch`.

Starts Virtuoso (ck25, the ORKG subset) and Oxigraph (Spider's concert_singer), takes N questions
from the *training* data (Spider4SPARQL train, the first questions per graph in file order, cycling
graphs), and runs every question on all 3 graphs with `gateway.batch.run_batch`. Reports items
(question, graph) per second, per-status counts, and whether every item was reported exactly once.

    .venv/bin/python benchmarks/batch.py [--questions 200] [--paths kgqan] [--concurrency 4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gateway.batch import run_batch  # noqa: E402
from gateway.config import EndpointRegistry  # noqa: E402
from gateway.engines import OxigraphEngine, VirtuosoEngine  # noqa: E402
from gateway.qa import AskOptions, Gateway  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
TRAIN = DATA / "train" / "spider4sparql-train.json"


def training_questions(count: int) -> list[str]:
    """Questions from the training split only (never the evaluation set under kgs/)."""
    items = json.loads(TRAIN.read_text())
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item["question"].strip(), None)
        if len(seen) == count:
            break
    return list(seen)


async def run(questions: list[str], registry: EndpointRegistry, options: AskOptions, concurrency: int | None) -> dict:
    gateway = Gateway(registry)
    endpoints = [registry.resolve(n) for n in ("ck25", "orkg", "concert_singer")]
    warm = time.perf_counter()
    await gateway.ask("Which singers are there?", endpoints[2], options)  # model loading is not throughput
    warm_s = time.perf_counter() - warm
    statuses: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    indices: list[int] = []
    latencies: list[float] = []
    started = time.perf_counter()
    try:
        async for finished in run_batch(gateway, questions, endpoints, options, concurrency=concurrency):
            statuses[finished.status] += 1
            if finished.error_kind:
                kinds[finished.error_kind] += 1
            indices.append(finished.item.index)
            latencies.append(finished.elapsed_ms)
    finally:
        await gateway.close()
    wall = time.perf_counter() - started
    expected = len(questions) * len(endpoints)
    return {
        "questions": len(questions), "graphs": len(endpoints), "items": len(indices), "expected_items": expected,
        "every_item_once": sorted(indices) == list(range(expected)), "statuses": dict(statuses),
        "error_kinds": dict(kinds), "wall_s": round(wall, 1), "items_per_s": round(len(indices) / wall, 2),
        "questions_per_s": round(len(questions) / wall, 2), "item_p50_ms": round(statistics.median(latencies), 1),
        "warm_up_s": round(warm_s, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--paths", default="kgqan", help="comma-separated answer paths (default: kgqan)")
    parser.add_argument("--concurrency", type=int, default=None, help="questions in flight per graph")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per question and path")
    args = parser.parse_args()
    questions = training_questions(args.questions)
    virtuoso, oxigraph = VirtuosoEngine(), OxigraphEngine()
    try:
        virtuoso.start()
        oxigraph.start()
        virtuoso.load(DATA / "kgs" / "ck25" / "graph.ttl", "ck25")
        virtuoso.load(DATA / "kgs" / "orkg-swa-distributed" / "graph.ttl", "orkg")
        oxigraph.load(DATA / "kgs" / "spider4sparql" / "concert_singer.ttl", "concert_singer")
        registry = EndpointRegistry({"ck25": virtuoso.endpoint("ck25", "ck25"),
                                     "orkg": virtuoso.endpoint("orkg", "orkg"),
                                     "concert_singer": oxigraph.endpoint("concert_singer", "concert_singer")})
        options = AskOptions(paths=tuple(args.paths.split(",")), timeout_s=args.timeout,
                             hublink_wait_for_index=False)
        figures = asyncio.run(run(questions, registry, options, args.concurrency))
    finally:
        virtuoso.stop()
        oxigraph.stop()
    print(json.dumps(figures, indent=2))
    return 0 if figures["every_item_once"] else 1


if __name__ == "__main__":
    sys.exit(main())
