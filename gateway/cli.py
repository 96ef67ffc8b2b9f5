"""`kgqa`: ask questions, run batches, serve the gateway, build indexes, evaluate.

Only the standard library is imported at module level, so `kgqa --help` is instant and never
loads torch; each subcommand imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

PATHS = ("kgqan", "hublink")


def _add_endpoint_options(parser: argparse.ArgumentParser, *, multiple: bool = False) -> None:
    if multiple:
        parser.add_argument("-e", "--endpoint", action="append", default=None, metavar="NAME|URL",
                            help="endpoint name from endpoints.yaml or a SPARQL URL (repeatable; default: embedded)")
    else:
        parser.add_argument("-e", "--endpoint", default=None, metavar="NAME|URL",
                            help="endpoint name from endpoints.yaml or a SPARQL URL (default: the embedded store)")
    parser.add_argument("--load", action="append", default=[], metavar="FILE", type=Path,
                        help="load an RDF file (Turtle, N-Triples, RDF/XML, N-Quads) into the embedded store")
    parser.add_argument("--endpoints-file", type=Path, default=None, metavar="YAML",
                        help="endpoints file (default: $KGQA_ENDPOINTS or the repository's endpoints.yaml)")


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="log more (-v info, -vv debug)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kgqa",
        description="Question answering over any SPARQL endpoint: the KGQAN path (just-in-time linking) and "
        "the HubLink path (hub index retrieval), side by side, plus a SPARQL proxy.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    ask = sub.add_parser("ask", help="answer one question", description="Answer one question on one endpoint.")
    ask.add_argument("question", help="the question, in English")
    _add_endpoint_options(ask)
    ask.add_argument("--path", action="append", choices=PATHS, default=None,
                     help="run only this answer path (repeatable; default: both)")
    ask.add_argument("--timeout", type=float, default=60.0, metavar="S", help="seconds per answer path (default 60)")
    ask.add_argument("--no-wait-index", action="store_true",
                     help="do not wait for a HubLink index build; answer with KGQAN alone meanwhile")
    _add_output_options(ask)

    batch = sub.add_parser("batch", help="answer many questions on many endpoints concurrently",
                           description="Answer every question of a file on every endpoint; one JSON line per pair.")
    batch.add_argument("questions", type=Path, help="a text file (one question per line), JSON list or QALD/ck25 file")
    _add_endpoint_options(batch, multiple=True)
    batch.add_argument("--out", type=Path, default=None, help="write JSON lines here (default: stdout)")
    batch.add_argument("--path", action="append", choices=PATHS, default=None, help="only this answer path")
    batch.add_argument("--timeout", type=float, default=60.0, metavar="S", help="seconds per question and path")
    batch.add_argument("--concurrency", type=int, default=None, metavar="N",
                       help="questions in flight per endpoint (default: min(4, the endpoint's max_concurrency))")
    batch.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    _add_output_options(batch)

    serve = sub.add_parser("serve", help="serve the JSON API, the SPARQL proxy and the web page",
                           description="Serve the gateway over HTTP (aiohttp).")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    _add_endpoint_options(serve)
    serve.add_argument("--allow-any-endpoint", action="store_true",
                       help="let clients name ad-hoc endpoint URLs (off by default: no open proxy)")
    serve.add_argument("--allow-internal-endpoints", action="store_true",
                       help="with --allow-any-endpoint: also allow loopback, private, link-local and metadata addresses")
    serve.add_argument("--dataset", action="append", default=None, metavar="IRI=NAME",
                       help="map a TEXT2SPARQL dataset IRI to an endpoint (repeatable; also `datasets:` in the YAML)")
    serve.add_argument("--cache-ttl", type=float, default=300.0, metavar="S", help="proxy response cache TTL (0: off)")
    serve.add_argument("--no-relay", action="store_true",
                       help="serve every proxied query through aiohttp (no relay below it; for comparison)")
    serve.add_argument("--loop", choices=("auto", "uvloop", "asyncio"), default="auto",
                       help="event loop (auto: uvloop when installed, it lowers the proxy's overhead)")
    _add_output_options(serve)

    index = sub.add_parser("index", help="build or refresh the HubLink index of an endpoint",
                           description="Build (or refresh) the HubLink hub index of an endpoint.")
    index.add_argument("target", nargs="?", default=None, metavar="NAME|URL", help="endpoint (default: embedded)")
    index.add_argument("--load", action="append", default=[], metavar="FILE", type=Path,
                       help="load an RDF file into the embedded store first")
    index.add_argument("--endpoints-file", type=Path, default=None, metavar="YAML")
    index.add_argument("--refresh", action="store_true", help="re-index only hubs whose paths changed")
    _add_output_options(index)

    evaluate = sub.add_parser("eval", help="measure answer quality on a question set",
                              description="Run a question set (QALD JSON, ck25 YAML, Spider4SPARQL JSON, ORKG CSV) "
                              "and score each answer path against the gold SPARQL's answers (QALD macro P/R/F1).")
    evaluate.add_argument("questions", type=Path, help="question file")
    evaluate.add_argument("--graph", "--load", dest="graph", action="append", default=[], type=Path, metavar="FILE",
                          help="RDF file or folder of files to load into a local engine (repeatable; Spider4SPARQL: "
                          "the folder, one graph per file named after its kg_name)")
    evaluate.add_argument("--engine", choices=("virtuoso", "oxigraph", "embedded"), default=None,
                          help="start this engine locally for the run, load --graph, stop it afterwards")
    evaluate.add_argument("-e", "--endpoint", default=None, metavar="NAME|URL", help="evaluate on a running endpoint")
    evaluate.add_argument("--endpoints-file", type=Path, default=None, metavar="YAML")
    evaluate.add_argument("--kg-name", default=None, help="Spider4SPARQL: only questions of this graph")
    evaluate.add_argument("--path", action="append", choices=PATHS, default=None, help="only this answer path")
    evaluate.add_argument("--limit", type=int, default=None, help="only the first N questions")
    evaluate.add_argument("--timeout", type=float, default=60.0, metavar="S", help="seconds per question and path")
    evaluate.add_argument("--out", type=Path, default=None, help="write per-question results (JSON lines) here")
    evaluate.add_argument("--concurrency", type=int, default=4, metavar="N", help="questions in flight (default 4)")
    evaluate.add_argument("--gold-from-file", action="store_true",
                          help="score against the answers stored in the question file instead of running the gold SPARQL")
    evaluate.add_argument("--max-answers", type=int, default=1000, metavar="N",
                          help="answers kept per question and path (default 1000: gold lists can be long; ask keeps 100)")
    evaluate.add_argument("--warmup-timeout", type=float, default=900.0, metavar="S",
                          help="first ask one untimed question per graph (model loading, HubLink index build) "
                          "for up to S seconds (default 900; 0 skips)")
    _add_output_options(evaluate)
    return parser


def setup_logging(verbosity: int) -> None:
    level = logging.WARNING if verbosity <= 0 else logging.INFO if verbosity == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)


def registry_from_args(args: argparse.Namespace) -> Any:
    """The endpoint registry, with the embedded default pointed at `--load` files if given."""
    from gateway.config import EMBEDDED_URL, EndpointConfig, EndpointRegistry

    registry = EndpointRegistry.from_file(getattr(args, "endpoints_file", None))
    loads = [p.resolve() for p in getattr(args, "load", []) or []]
    if loads:
        for path in loads:
            if not path.exists():
                raise SystemExit(f"kgqa: --load {path}: no such file")
        url = EMBEDDED_URL + "|".join(str(p) for p in loads)
        registry.add(EndpointConfig(name="default", url=url, description="embedded store with " +
                                    ", ".join(p.name for p in loads)))
    return registry


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def _shown(answer: Any) -> str:
    """An answer as text: its value, and its label where that says more."""
    return f"{answer.value} ({answer.label})" if answer.label and answer.label != answer.value else answer.value


def render_text(result: Any) -> str:
    """A short human-readable rendering of a `QAResult`."""
    lines = [f"Q: {result.question}  [{result.endpoint}]"]
    if result.error:
        lines.append(f"error ({result.error_kind}): {result.error}")
        return "\n".join(lines)
    for name, path in result.paths.items():
        total = path.timings_ms.get("total")
        timing = f", {total:.0f} ms" if total is not None else ""
        setup = f" + {path.setup_requests} once for the endpoint" if path.setup_requests else ""
        lines.append(f"\n{name} ({path.status.value}{timing}, {path.sparql_requests} SPARQL requests{setup})")
        if path.error:
            lines.append(f"  error ({path.error_kind}): {path.error}")
        for answer in path.answers[:20]:
            row = "".join(f"  [{column}: {_shown(cell)}]" for column, cell in answer.row)
            lines.append(f"  - {_shown(answer)}{row}")
        if len(path.answers) > 20:
            lines.append(f"  ... and {len(path.answers) - 20} more")
        if not path.answers and not path.error:
            lines.append("  (no answer)")
        for note in path.notes:
            lines.append(f"  note: {note}")
    return "\n".join(lines)


async def show_index_progress(config: Any, stop: Any) -> None:
    """A progress bar on stderr while the HubLink index of `config` is being built (first contact)."""
    import asyncio
    import contextlib

    from tqdm import tqdm

    try:
        from hublink import index_status
    except ImportError:
        return
    bar = None
    while not stop.is_set():
        status = index_status(config)
        if status.state == "building":
            if bar is None:
                bar = tqdm(total=100, file=sys.stderr, disable=None, bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}")
            detail = f"{status.phase} {status.done}/{status.total}" if status.total else status.phase
            bar.set_description_str(f"HubLink index: {detail}"[:70])
            bar.n = round(status.progress * 100)
            bar.refresh()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.5)
    if bar is not None:
        bar.close()


def cmd_ask(args: argparse.Namespace) -> int:
    import asyncio

    from gateway.aio import run as run_async
    from gateway.qa import AskOptions, Gateway

    registry = registry_from_args(args)
    options = AskOptions(paths=tuple(args.path or PATHS), timeout_s=args.timeout,
                         hublink_wait_for_index=not args.no_wait_index)

    async def run() -> Any:
        gateway = Gateway(registry)
        stop = asyncio.Event()
        progress = None
        try:
            if "hublink" in options.paths:
                progress = asyncio.create_task(show_index_progress(registry.resolve(args.endpoint), stop))
            return await gateway.ask(args.question, args.endpoint, options)
        finally:
            stop.set()
            if progress is not None:
                await progress
            await gateway.close()

    result = run_async(run())
    if args.json:
        print_json(result.to_dict())
    else:
        print(render_text(result))
    return 1 if result.error else 0


def _delegate(module: str, function: str, args: argparse.Namespace) -> int:
    import importlib

    return int(getattr(importlib.import_module(module), function)(args) or 0)


COMMANDS = {
    "ask": cmd_ask,
    "batch": lambda a: _delegate("gateway.batch", "main", a),
    "serve": lambda a: _delegate("gateway.server", "main", a),
    "index": lambda a: _delegate("hublink.cli", "main", a),
    "eval": lambda a: _delegate("gateway.evaluation", "main", a),
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    setup_logging(getattr(args, "verbose", 0))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from gateway.errors import GatewayError

    try:
        code = COMMANDS[args.command](args)
    except GatewayError as exc:
        print(f"kgqa: {exc}", file=sys.stderr)
        code = 2
    except KeyboardInterrupt:
        print("kgqa: interrupted", file=sys.stderr)
        code = 130
    return code


def run() -> None:
    """The `kgqa` console script: `main`, then exit without lingering on abandoned worker threads."""
    code = main()
    from gateway.aio import exit_now

    exit_now(code)
    sys.exit(code)


if __name__ == "__main__":
    run()
