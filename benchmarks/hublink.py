"""HubLink on a real engine: index build time and size, then time per question (median, p95).

Starts Virtuoso (or Oxigraph) on 127.0.0.1, loads a graph (default: the ORKG subset), builds the hub
index into a fresh cache folder (timed, with its phases), rebuilds nothing on a second call (timed: the
load from disk), then asks questions through `HubLinkPath` and reports the median and p95 time per
question. Questions come from a file (one per line, or the ORKG CSV's `question` column); only their
text is used, never their gold, so timing on the evaluation questions tunes nothing.

    .venv/bin/python benchmarks/hublink.py [--engine virtuoso] [--graph FILE] [--questions FILE] [--limit N]
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KGS = ROOT.parent / "shared" / "data" / "kgs"
DEFAULT_GRAPH = KGS / "orkg-swa-distributed" / "graph.ttl"
DEFAULT_QUESTIONS = KGS / "orkg-swa-distributed" / "questions.csv"


def read_questions(path: Path, limit: int) -> list[str]:
    if path.suffix == ".csv":
        with path.open(newline="", encoding="utf-8") as handle:
            questions = [row["question"] for row in csv.DictReader(handle) if row.get("question")]
    else:
        questions = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return questions[:limit]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def run(engine_kind: str, graph: Path, questions: list[str]) -> dict[str, object]:
    from gateway.endpoint import EndpointPool
    from gateway.engines import ENGINES
    from gateway.qa import AskOptions
    from hublink import HubLinkPath, IndexManager
    from hublink.settings import HubLinkSettings
    from understanding.resources import sentence_encoder

    engine = ENGINES[engine_kind]()
    engine.start()
    try:
        engine.load(graph, "bench")
        config = engine.endpoint("bench", "bench")
        await asyncio.to_thread(sentence_encoder)  # model loading is not index building
        pool = EndpointPool()
        endpoint = pool.get(config)
        manager = IndexManager()
        started = time.perf_counter()
        index = await manager.get(endpoint, HubLinkSettings())
        build_s = time.perf_counter() - started
        assert index is not None
        reload_manager = IndexManager()
        started = time.perf_counter()
        await reload_manager.get(endpoint, HubLinkSettings())
        load_s = time.perf_counter() - started

        path = HubLinkPath(manager=manager)
        await path.answer(questions[0], endpoint, AskOptions())  # warm: parser, linker, caches
        times: list[float] = []
        phases: dict[str, list[float]] = {}
        for question in questions:
            result = await path.answer(question, endpoint, AskOptions())
            times.append(result.timings_ms["total"])
            for phase, ms in result.timings_ms.items():
                phases.setdefault(phase, []).append(ms)
        await path.close()
        await pool.close()
        manifest = index.manifest
        return {
            "engine": engine_kind, "graph": graph.name, "hub_classes": manifest.discovery.classes,
            "hubs": manifest.hubs, "paths": manifest.paths, "vectors": manifest.vectors,
            "texts_embedded": manifest.build.get("texts_embedded"),
            "build_s": round(build_s, 1), "build_phases_s": {k: v for k, v in manifest.build.items() if k.endswith("_s")},
            "load_from_disk_s": round(load_s, 2), "index_mb": round(index.size_bytes() / 1e6, 2),
            "questions": len(times), "median_ms": round(statistics.median(times), 1),
            "p95_ms": round(percentile(times, 0.95), 1),
            "median_phase_ms": {k: round(statistics.median(v), 1) for k, v in phases.items()},
            "load_average": os.getloadavg(), "cpus": os.cpu_count(),
        }
    finally:
        engine.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=("virtuoso", "oxigraph"), default="virtuoso")
    parser.add_argument("--graph", type=Path, default=DEFAULT_GRAPH)
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    parser.add_argument("--limit", type=int, default=50)
    args = parser.parse_args()
    os.environ["KGQA_CACHE_DIR"] = tempfile.mkdtemp(prefix="kgqa-bench-hublink-")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    questions = read_questions(args.questions, args.limit)
    if not questions:
        raise SystemExit(f"no questions in {args.questions}")
    print(json.dumps(asyncio.run(run(args.engine, args.graph, questions)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
