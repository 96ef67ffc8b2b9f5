"""Quality of the KGQAN path on OUR OWN development questions (benchmarks/dev/*.json), per file and per
question form, on one local engine holding every graph they need.

The dev questions were written for this project by exploring the graphs with SPARQL (never from the
evaluation questions in ../shared/data/kgs); each QALD file's `dataset.id` names its graph: `ck25`,
`orkg-swa-distributed`, a Spider4SPARQL graph (`concert_singer`, ...) or `demo` (the embedded demo graph).
Scoring is `kgqa eval`'s (QALD macro P/R/F1 against the gold SPARQL's answers on the same engine).

    .venv/bin/python benchmarks/kgqan_dev.py [--engine virtuoso] [--files benchmarks/dev/ck25.json ...]
        [--out /tmp/dev.jsonl] [--keep /tmp/kgqan-dev-engine.json] [--stop /tmp/kgqan-dev-engine.json]

`--keep STATE` leaves the engine running and reuses it on the next run (graphs load once);
`--stop STATE` stops such an engine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import statistics
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gateway.config import EndpointConfig  # noqa: E402
from gateway.embedded import DEMO_GRAPH  # noqa: E402
from gateway.engines import ENGINES, LocalEngine  # noqa: E402
from gateway.evaluation import EvaluationSettings, EvaluationTargets, evaluate, summarize_path  # noqa: E402
from gateway.qa import Gateway  # noqa: E402
from gateway.questions import load_questions  # noqa: E402

DEV = ROOT / "benchmarks" / "dev"
KGS = ROOT.parent / "shared" / "data" / "kgs"


def graph_file(name: str) -> Path:
    """The RDF file of a dev file's `dataset.id`."""
    if name == "demo":
        return DEMO_GRAPH
    if (KGS / name / "graph.ttl").exists():
        return KGS / name / "graph.ttl"
    return KGS / "spider4sparql" / f"{name}.ttl"


def _alive(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "?query=ASK%7B%7D", timeout=3):
            return True
    except OSError:
        return False


def engine_configs(kind: str, graphs: list[str], keep: Path | None) -> tuple[dict[str, EndpointConfig], LocalEngine | None]:
    """Endpoint configs for every graph: from a kept engine's state file, else a new engine (kept if asked)."""
    if keep is not None and keep.exists():
        state = json.loads(keep.read_text())
        if state["kind"] == kind and _alive(state["url"]) and set(graphs) <= set(state["graphs"]):
            return {g: EndpointConfig(name=g, url=state["url"], default_graph=state["graphs"][g],
                                      data_id=state["digests"].get(g)) for g in graphs}, None
    engine = ENGINES[kind]()
    engine.start()
    for name in graphs:
        engine.load(graph_file(name), name)
    if keep is not None:
        pid = engine.process.pid if engine.process else None
        keep.write_text(json.dumps({"kind": kind, "url": engine.sparql_url, "graphs": engine.graphs,
                                    "digests": engine.digests, "pid": pid, "workdir": str(engine.workdir)}))
        return {g: engine.endpoint(g, g) for g in graphs}, None
    return {g: engine.endpoint(g, g) for g in graphs}, engine


def stop_kept(state_file: Path, wait_s: float = 15.0) -> None:
    """Stops a kept engine and, once it has exited, removes its folder (54 MB per Virtuoso otherwise left in /tmp)."""
    state = json.loads(state_file.read_text())
    pid = int(state["pid"]) if state.get("pid") else None
    if pid is not None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
        else:
            pid = None  # still running: its folder stays
    if pid is not None and state.get("workdir"):
        shutil.rmtree(state["workdir"], ignore_errors=True)
    state_file.unlink()


async def run(files: list[Path], configs: dict[str, EndpointConfig], out: Path | None,
              concurrency: int, timeout_s: float) -> dict[str, Any]:
    gateway = Gateway()
    results: dict[str, Any] = {"files": {}}
    pooled = []
    handle = out.open("w", encoding="utf-8") if out else None
    try:
        settings = EvaluationSettings(paths=("kgqan",), timeout_s=timeout_s, concurrency=concurrency,
                                      warmup_timeout_s=120)
        for path in files:
            questions = load_questions(path)
            report = await evaluate(questions, EvaluationTargets(by_kg=configs), settings, gateway=gateway, out=handle)
            settings = EvaluationSettings(paths=("kgqan",), timeout_s=timeout_s, concurrency=concurrency)
            summary = report.summary("kgqan").to_dict()
            requests = [o.paths["kgqan"].sparql_requests for o in report.evaluated]
            summary["median_requests"] = statistics.median(requests) if requests else None
            results["files"][path.name] = summary
            pooled += report.evaluated
    finally:
        if handle:
            handle.close()
        await gateway.close()
    results["pooled"] = summarize_path("kgqan", pooled).to_dict()
    requests = [o.paths["kgqan"].sparql_requests for o in pooled]
    results["pooled"]["median_requests"] = statistics.median(requests) if requests else None
    results["pooled"]["max_requests"] = max(requests, default=None)
    return results


def render(results: dict[str, Any]) -> str:
    lines = [f"{'file':<38}{'q':>4}{'answered':>9}{'P':>7}{'R':>7}{'F1':>7}{'med ms':>8}{'req':>5}"]
    rows = [*results["files"].items(), ("pooled", results["pooled"])]
    for name, s in rows:
        lines.append(f"{name:<38}{s['questions']:>4}{s['answered']:>9}{s['macro_precision']:>7.3f}"
                     f"{s['macro_recall']:>7.3f}{s['macro_f1']:>7.3f}{s['median_ms'] or 0:>8.0f}"
                     f"{s.get('median_requests') or 0:>5}")
    lines.append("")
    lines.append("pooled by form: " + ", ".join(f"{form} {v['macro_f1']:.3f} ({v['questions']})"
                                                for form, v in results["pooled"]["by_form"].items()))
    lines.append("pooled misses: " + (", ".join(f"{kind} {n}" for kind, n in results["pooled"]["misses"].items())
                                      or "none"))
    lines.append(f"SPARQL requests per question: median {results['pooled'].get('median_requests')}, "
                 f"max {results['pooled'].get('max_requests')}")
    return "\n".join(lines)


def set_decoding(eos_penalty: float | None, beam: int | None, length_alpha: float | None = None) -> None:
    """Loads the process-wide parser's model now and sets how it decodes (for comparisons)."""
    from understanding import get_parser

    question_parser = get_parser()
    question_parser.load()
    if question_parser.model is None:
        raise SystemExit(f"--eos-penalty/--beam: no pattern model ({question_parser.model_status})")
    if eos_penalty is not None:
        question_parser.model.eos_penalty = eos_penalty
    if beam is not None:
        question_parser.model.beam = beam
    if length_alpha is not None:
        question_parser.model.length_alpha = length_alpha


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", choices=sorted(ENGINES), default="virtuoso")
    parser.add_argument("--files", type=Path, nargs="*", default=None, help="dev files (default: all)")
    parser.add_argument("--out", type=Path, help="per-question results (JSON lines)")
    parser.add_argument("--keep", type=Path, help="engine state file: keep the engine running and reuse it")
    parser.add_argument("--stop", type=Path, help="stop the engine kept in this state file and exit")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--eos-penalty", type=float, default=None,
                        help="the pattern model's end-of-pattern penalty (default: the shipped EOS_PENALTY)")
    parser.add_argument("--beam", type=int, default=None,
                        help="the pattern model's beam width (default: the shipped BEAM; 1 is greedy)")
    parser.add_argument("--length-alpha", type=float, default=None,
                        help="beam hypotheses ranked by log-probability / length ** alpha (default: LENGTH_ALPHA)")
    args = parser.parse_args()
    if args.stop:
        stop_kept(args.stop)
        return 0
    files = args.files or sorted(DEV.glob("*.json"))
    graphs = sorted({name for f in files for name in [json.loads(f.read_text())["dataset"]["id"]]})
    if args.keep:
        graphs = sorted(set(graphs) | {json.loads(f.read_text())["dataset"]["id"] for f in DEV.glob("*.json")})
    if args.eos_penalty is not None or args.beam is not None or args.length_alpha is not None:
        set_decoding(args.eos_penalty, args.beam, args.length_alpha)
    started = time.perf_counter()
    configs, engine = engine_configs(args.engine, graphs, args.keep)
    try:
        results = asyncio.run(run(files, configs, args.out, args.concurrency, args.timeout))
    finally:
        if engine is not None:
            engine.stop()
    results["engine"] = args.engine
    results["wall_s"] = round(time.perf_counter() - started, 1)
    print(json.dumps(results, indent=2) if args.json else render(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
