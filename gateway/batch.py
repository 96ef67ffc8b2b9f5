"""Many questions on many endpoints, concurrently: the engine behind `POST /qa/batch` and `kgqa batch`.

Each endpoint gets its own workers (its own concurrency limit), so a slow or dead endpoint only
delays its own items. Every (question, endpoint) pair is reported exactly once, as soon as it
finishes, with status `ok` or `error`; a per-item timeout bounds how long any one pair can take.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gateway.aio import run as run_async
from gateway.config import EndpointConfig
from gateway.errors import ConfigurationError, GatewayError
from gateway.models import AnswerStatus, QAResult
from gateway.qa import AskOptions, Gateway

log = logging.getLogger(__name__)

DEFAULT_CONCURRENCY = 4
TIMEOUT_MARGIN_S = 5.0


@dataclass(frozen=True)
class BatchItem:
    """One (question, endpoint) pair of a batch."""

    index: int
    question_index: int
    question: str
    endpoint: EndpointConfig


@dataclass(frozen=True)
class BatchItemResult:
    """How one pair ended: `ok` when at least one answer path answered, else `error` with why."""

    item: BatchItem
    status: str  # "ok" or "error"
    result: QAResult | None
    error: str | None
    error_kind: str | None
    elapsed_ms: float

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": self.item.index,
            "question_index": self.item.question_index,
            "question": self.item.question,
            "endpoint": self.item.endpoint.name,
            "status": self.status,
            "elapsed_ms": round(self.elapsed_ms, 2),
        }
        if self.error is not None:
            out["error"] = self.error
            out["error_kind"] = self.error_kind
        if self.result is not None:
            out["result"] = self.result.to_dict()
        return out


def item_status(result: QAResult) -> tuple[str, str | None, str | None]:
    """(status, error, error kind) of a finished pair."""
    if result.error:
        return "error", result.error, result.error_kind
    if any(p.status == AnswerStatus.OK for p in result.paths.values()):
        return "ok", None, None
    reasons = [f"{name}: {p.error or p.status.value}" for name, p in result.paths.items()]
    kinds = {p.error_kind for p in result.paths.values() if p.error_kind}
    kind = kinds.pop() if len(kinds) == 1 else "answer-failed"
    return "error", "no answer path answered; " + "; ".join(reasons), kind


def plan(questions: Sequence[str], endpoints: Sequence[EndpointConfig]) -> list[BatchItem]:
    """Every pair, endpoint-major within each question so early lines cover every endpoint."""
    items = []
    for q_index, question in enumerate(questions):
        for endpoint in endpoints:
            items.append(BatchItem(len(items), q_index, question, endpoint))
    return items


async def run_batch(gateway: Gateway, questions: Sequence[str], endpoints: Sequence[EndpointConfig],
                    options: AskOptions | None = None, *, concurrency: int | None = None,
                    item_timeout_s: float | None = None) -> AsyncIterator[BatchItemResult]:
    """Yields one result per (question, endpoint) as each finishes; never raises for one item's failure.

    `concurrency` is per endpoint (default: the smaller of 4 and the endpoint's `max_concurrency`).
    Stopping the iteration early cancels the work still running.
    """
    options = options or AskOptions()
    timeout = item_timeout_s if item_timeout_s is not None else options.timeout_s + TIMEOUT_MARGIN_S
    items = plan(questions, endpoints)
    if not items:
        return
    queues: dict[str, asyncio.Queue[BatchItem]] = {}
    limits: dict[str, int] = {}
    for item in items:
        key = item.endpoint.name
        if key not in queues:
            queues[key] = asyncio.Queue()
            limits[key] = max(1, concurrency or min(DEFAULT_CONCURRENCY, item.endpoint.max_concurrency))
        queues[key].put_nowait(item)
    finished: asyncio.Queue[BatchItemResult] = asyncio.Queue()

    async def run_one(item: BatchItem) -> BatchItemResult:
        started = time.perf_counter()
        try:
            async with asyncio.timeout(timeout):
                result = await gateway.ask(item.question, item.endpoint, options)
        except TimeoutError:
            return BatchItemResult(item, "error", None, f"no answer within {timeout:g} s", "timeout",
                                   (time.perf_counter() - started) * 1000)
        except GatewayError as exc:
            return BatchItemResult(item, "error", None, exc.message, exc.kind, (time.perf_counter() - started) * 1000)
        except Exception as exc:  # one item's bug is that item's error, never the batch's
            log.exception("batch item %d failed", item.index)
            return BatchItemResult(item, "error", None, str(exc) or type(exc).__name__, type(exc).__name__,
                                   (time.perf_counter() - started) * 1000)
        status, error, kind = item_status(result)
        return BatchItemResult(item, status, result, error, kind, (time.perf_counter() - started) * 1000)

    async def worker(queue: asyncio.Queue[BatchItem]) -> None:
        while not queue.empty():
            item = queue.get_nowait()
            await finished.put(await run_one(item))

    workers = [asyncio.create_task(worker(queue)) for key, queue in queues.items() for _ in range(limits[key])]
    try:
        for _ in range(len(items)):
            yield await finished.get()
    finally:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)


def load_question_texts(path: Path) -> list[str]:
    """Question texts from a text file (one per line), a JSON list (of strings or objects with
    `question`), or a benchmark file (QALD JSON, ck25 YAML, ...) read by `gateway.questions`."""
    if not path.exists():
        raise ConfigurationError(f"{path}: no such file")
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() in (".json", ".yml", ".yaml", ".csv"):
        if path.suffix.lower() == ".json":
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ConfigurationError(f"{path} is not valid JSON: {exc}") from exc
            if isinstance(data, list):
                return [_question_text(entry, path) for entry in data]
        return _benchmark_questions(path)
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _question_text(entry: Any, path: Path) -> str:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict) and isinstance(entry.get("question"), str):
        return entry["question"]
    raise ConfigurationError(f"{path}: a JSON list must hold strings or objects with a 'question' string")


def _benchmark_questions(path: Path) -> list[str]:
    try:
        from gateway import questions as question_formats
    except ImportError as exc:
        raise ConfigurationError(f"{path}: benchmark question files need gateway.questions ({exc})") from exc
    loaded = question_formats.load_questions(path)
    return [q.question if hasattr(q, "question") else str(q) for q in loaded]


def main(args: argparse.Namespace) -> int:
    """`kgqa batch`: NDJSON lines to --out (or stdout), a progress bar on stderr. Exit 1 if any item failed."""
    from tqdm import tqdm

    from gateway.cli import registry_from_args

    registry = registry_from_args(args)
    questions = load_question_texts(args.questions)
    if not questions:
        raise ConfigurationError(f"{args.questions}: no questions found")
    endpoints = [registry.resolve(name) for name in (args.endpoint or [None])]
    options = AskOptions(paths=tuple(args.path or ("kgqan", "hublink")), timeout_s=args.timeout)
    concurrency = getattr(args, "concurrency", None)

    async def run() -> tuple[int, int]:
        gateway = Gateway(registry)
        out = args.out.open("w", encoding="utf-8") if args.out else sys.stdout
        counts = {"ok": 0, "error": 0}
        progress = tqdm(total=len(questions) * len(endpoints), unit="item", file=sys.stderr,
                        disable=getattr(args, "no_progress", False))
        try:
            async for finished in run_batch(gateway, questions, endpoints, options, concurrency=concurrency):
                out.write(json.dumps(finished.to_dict(), ensure_ascii=False) + "\n")
                out.flush()
                counts[finished.status] += 1
                progress.update(1)
                progress.set_postfix(ok=counts["ok"], error=counts["error"], refresh=False)
        finally:
            progress.close()
            if out is not sys.stdout:
                out.close()
            await gateway.close()
        return counts["ok"], counts["error"]

    ok, failed = run_async(run())
    print(f"kgqa batch: {ok + failed} items, {ok} ok, {failed} error", file=sys.stderr)
    return 1 if failed else 0
