"""Speed of the KGQAN path: median and p95 time per question per phase, and SPARQL requests per question,
on a local Virtuoso and a local Oxigraph holding ck25 and concert_singer.

The questions are our own (written for this benchmark from the graphs' vocabulary, not taken from any
evaluation set). Each question is asked once to warm up (model loading, endpoint discovery), then
`--rounds` times with the question parser's cache cleared before each ask (so understanding is
measured, not looked up); figures are over all timed asks.

    .venv/bin/python benchmarks/kgqan.py [--rounds 3] [--engines virtuoso,oxigraph]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gateway.engines import ENGINES  # noqa: E402
from gateway.qa import AskOptions, Gateway  # noqa: E402
from understanding import get_parser  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "kgs"
GRAPHS = {"ck25": DATA / "ck25" / "graph.ttl", "concert_singer": DATA / "spider4sparql" / "concert_singer.ttl"}
QUESTIONS = {
    "ck25": [
        "Which products does Franz Kornhaeusel manage?",
        "Which department is Franz Kornhaeusel a member of?",
        "What is the phone number of Franz Kornhaeusel?",
        "How many managers are there?",
        "Which product categories are there?",
        "Who is the manager of Elena Herzog?",
    ],
    "concert_singer": [
        "How many singers are there?",
        "Which singers are from France?",
        "What is the average age of all singers?",
        "Which stadiums have a capacity greater than 10000?",
        "Who is the oldest singer?",
        "Is there a singer from the Netherlands?",
    ],
}
PHASES = ("understanding", "linking", "execution", "filtering", "total")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def run_engine(kind: str, rounds: int) -> dict[str, list[float]]:
    engine = ENGINES[kind]()
    engine.start()
    figures: dict[str, list[float]] = {phase: [] for phase in (*PHASES, "requests")}
    try:
        for name, path in GRAPHS.items():
            engine.load(path, name)
        gateway = Gateway()
        options = AskOptions(paths=("kgqan",), timeout_s=60)
        try:
            for graph, questions in QUESTIONS.items():
                config = engine.endpoint(f"{kind}-{graph}", graph)
                for question in questions:
                    await gateway.ask(question, config, options)  # warm-up
                for _ in range(rounds):
                    for question in questions:
                        get_parser().cache_clear()
                        result = (await gateway.ask(question, config, options)).paths["kgqan"]
                        for phase in PHASES:
                            figures[phase].append(result.timings_ms.get(phase, 0.0))
                        figures["requests"].append(float(result.sparql_requests))
        finally:
            await gateway.close()
    finally:
        engine.stop()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--engines", default="virtuoso,oxigraph")
    args = parser.parse_args()
    count = sum(len(q) for q in QUESTIONS.values())
    print(f"{count} questions x {args.rounds} rounds per engine (after one warm-up round)\n")
    print("| engine | " + " | ".join(f"{p} median / p95 ms" for p in PHASES) + " | SPARQL requests median / max |")
    print("|---|" + "---|" * (len(PHASES) + 1))
    for kind in args.engines.split(","):
        figures = asyncio.run(run_engine(kind, args.rounds))
        cells = [f"{statistics.median(figures[p]):.0f} / {percentile(figures[p], 0.95):.0f}" for p in PHASES]
        requests = figures["requests"]
        print(f"| {kind} | " + " | ".join(cells) + f" | {statistics.median(requests):.0f} / {max(requests):.0f} |")


if __name__ == "__main__":
    main()
