#!/usr/bin/env python3
"""Label-search latency per dialect: Virtuoso `bif:contains`, the regex scan (on Virtuoso and on
Oxigraph) and the embedded label index, on ck25 plus an optional synthetic graph that makes the
label set large (`--synthetic N` adds N labelled entities, 3 triples each).

Prints the median and 90th percentile milliseconds of `Endpoint.search` over phrases taken from the
graph's own labels (their last 1-3 words, so mostly specific names), and the median ratio
regex/bif:contains on the same phrases.
Usage: .venv/bin/python benchmarks/textsearch.py [--synthetic 300000] [--phrases 60]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CK25 = ROOT.parent / "shared" / "data" / "kgs" / "ck25" / "graph.ttl"
_WORD_TEXT = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa "
         "quebec romeo sierra tango uniform victor whiskey xray yankee zulu amber basalt cobalt dune ember "
         "fjord granite harbor island jasper kestrel lagoon meadow nectar orchid prairie quartz river summit "
         "thistle valley willow")
WORDS = _WORD_TEXT.split()


def synthetic_graph(path: Path, entities: int, seed: int = 7) -> None:
    """N entities with a 2-4 word rdfs:label, a type and a number: a big label set for the scan."""
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for i in range(entities):
            label = " ".join(rng.choice(WORDS).capitalize() for _ in range(rng.randint(2, 4)))
            iri = f"<http://bench.kgqa.local/e{i}>"
            out.write(f'{iri} <http://www.w3.org/2000/01/rdf-schema#label> "{label} {i}" .\n')
            out.write(f"{iri} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://bench.kgqa.local/Thing> .\n")
            out.write(f'{iri} <http://bench.kgqa.local/rank> "{i}"^^<http://www.w3.org/2001/XMLSchema#integer> .\n')


async def timed_searches(endpoint, phrases: list[str]) -> list[float]:  # type: ignore[no-untyped-def]
    await endpoint.profile()
    await endpoint.search(phrases[0], limit=400)  # warm-up
    times = []
    for phrase in phrases:
        started = time.perf_counter()
        await endpoint.search(phrase, limit=400)
        times.append((time.perf_counter() - started) * 1000)
    return times


def summary(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"{name:<34} median {statistics.median(times):8.1f} ms   p90 {p90:8.1f} ms   (n={len(times)})"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--synthetic", type=int, default=0, help="extra labelled entities (3 triples each)")
    parser.add_argument("--phrases", type=int, default=60)
    args = parser.parse_args()
    os.environ.setdefault("KGQA_CACHE_DIR", tempfile.mkdtemp(prefix="kgqa-bench-cache-"))

    from gateway.config import EndpointConfig
    from gateway.endpoint import EndpointPool
    from gateway.engines import OxigraphEngine, VirtuosoEngine
    from gateway.textsearch import content_words

    files = {"ck25": CK25}
    workdir = Path(tempfile.mkdtemp(prefix="kgqa-bench-"))
    if args.synthetic:
        synthetic = workdir / "synthetic.nt"
        synthetic_graph(synthetic, args.synthetic)
        files["synthetic"] = synthetic
    graph = "synthetic" if args.synthetic else "ck25"

    virtuoso, oxigraph = VirtuosoEngine(), OxigraphEngine()
    pool = EndpointPool()
    try:
        started = time.perf_counter()
        virtuoso.start()
        oxigraph.start()
        for name, path in files.items():
            virtuoso.load(path, name)
            oxigraph.load(path, name)
        print(f"engines started and loaded in {time.perf_counter() - started:.0f} s: {', '.join(files)}")

        sample = await pool.get(oxigraph.endpoint("sample", graph)).sparql.select(
            "SELECT ?l WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l } LIMIT 5000")
        rng = random.Random(1)
        labels = [row["l"].value for row in sample if content_words(row["l"].value)]
        phrases = []
        for label in rng.sample(labels, min(args.phrases, len(labels))):
            words = content_words(label)  # the last words: a specific name, as entity phrases are
            phrases.append(" ".join(words[-rng.randint(1, 3):]))

        label_predicates = ("http://www.w3.org/2000/01/rdf-schema#label",)
        runs = {
            f"virtuoso bif:contains ({graph})": pool.get(virtuoso.endpoint("v-bif", graph, text_search="virtuoso",
                                                                           label_predicates=label_predicates)),
            f"virtuoso regex scan ({graph})": pool.get(virtuoso.endpoint("v-regex", graph, text_search="regex",
                                                                         label_predicates=label_predicates)),
            f"oxigraph regex scan ({graph})": pool.get(oxigraph.endpoint("o-regex", graph, text_search="regex",
                                                                         label_predicates=label_predicates)),
        }
        embedded_url = "embedded:" + str(files[graph])
        runs[f"embedded label-index ({graph})"] = pool.get(EndpointConfig(
            name="embedded", url=embedded_url, label_predicates=label_predicates))
        results = {name: await timed_searches(endpoint, phrases) for name, endpoint in runs.items()}
        for name, times in results.items():
            print(summary(name, times))
        bif = results[f"virtuoso bif:contains ({graph})"]
        regex = results[f"virtuoso regex scan ({graph})"]
        ratios = [r / b for r, b in zip(regex, bif, strict=True) if b > 0]
        print(f"median ratio regex scan / bif:contains on Virtuoso: {statistics.median(ratios):.1f}x")
    finally:
        await pool.close()
        virtuoso.stop()
        oxigraph.stop()


if __name__ == "__main__":
    asyncio.run(main())
