"""`kgqa eval`: run a benchmark through both answer paths and score them the QALD way.

Gold answers come from running each question's gold SPARQL on the same engine and graph the paths
see (or, for the ORKG CSV, from its gold triples). Each path is scored per question (precision,
recall, F1 over normalised answer sets, GERBIL's "Macro F1 QALD" convention for empty answers),
then averaged over questions: overall, per question form and per graph. Paths whose evidence holds
`retrieved_triples` are also scored against gold triples (`hublink.metrics.score_retrieval`).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import logging
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from tqdm import tqdm

from gateway.aio import run as run_async
from gateway.config import EMBEDDED_URL, EndpointConfig, EndpointRegistry
from gateway.errors import ConfigurationError, GatewayError
from gateway.models import Answer, AnswerStatus, PathResult
from gateway.qa import PATH_NAMES, WHOLE_LIST_ANSWERS, AskOptions, Gateway
from gateway.questions import (
    XSD,
    AnswerValue,
    BenchmarkQuestion,
    is_ask_query,
    load_questions,
    normalize_literal,
    normalize_term,
)
from gateway.sparql import SparqlEndpoint

log = logging.getLogger(__name__)

EMPTY_ANSWER_SCORING = (
    "QALD/GERBIL 'Macro F1 QALD': precision, recall and F1 per question, then averaged over questions. "
    "Empty gold and empty answer: P=1 R=1 F1=1. Non-empty gold and empty answer: P=1 R=0 F1=0. "
    "Empty gold and non-empty answer: P=0 R=0 F1=0. A path that failed, timed out or is not available "
    "scores as an empty answer. ASK questions compare booleans."
)
GOLD_RULE = (
    "Gold answers are the results of the gold SPARQL run on the same engine and graph as the paths; a gold "
    "result with several columns is the set of all values in all its columns, and so is a path's answer with "
    "its row (a count with its group). Questions whose gold query "
    "fails are skipped and listed. ORKG CSV (no SPARQL): values derived from the gold triples "
    "(gateway.questions.orkg_answer_values), none for counting questions."
)
NORMALISATION = (
    "IRIs compared as IRIs; literals by lexical form (whitespace collapsed, case folded, language tags "
    "ignored); numbers numerically (1 == 1.0 == \"1\"^^xsd:integer); dates and dateTimes by ISO date; "
    "xsd:boolean as booleans."
)
RETRIEVAL_METRICS = ("triple_recall", "triple_precision", "triple_f1", "hits_at_10", "mrr")
RDF_FILE_SUFFIXES = (".ttl", ".nt", ".nq", ".rdf", ".owl", ".xml")


# --- scoring -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class AnswerScore:
    precision: float
    recall: float
    f1: float

    def to_dict(self) -> dict[str, float]:
        return {"precision": round(self.precision, 4), "recall": round(self.recall, 4), "f1": round(self.f1, 4)}


def score_answers(gold: Iterable[AnswerValue], system: Iterable[AnswerValue]) -> AnswerScore:
    """One question's precision, recall and F1 under the QALD/GERBIL empty-answer convention."""
    gold_set, system_set = set(gold), set(system)
    if not gold_set and not system_set:
        return AnswerScore(1.0, 1.0, 1.0)
    if not system_set:
        return AnswerScore(1.0, 0.0, 0.0)
    if not gold_set:
        return AnswerScore(0.0, 0.0, 0.0)
    hits = len(gold_set & system_set)
    precision = hits / len(system_set)
    recall = hits / len(gold_set)
    f1 = 2 * precision * recall / (precision + recall) if hits else 0.0
    return AnswerScore(precision, recall, f1)


def normalize_answer(answer: Answer) -> AnswerValue:
    """A path's `Answer` as the same `AnswerValue` the gold side uses."""
    if answer.kind == "iri":
        return AnswerValue("iri", answer.value)
    if answer.kind == "bnode":
        return AnswerValue("bnode", answer.value)
    if answer.kind == "boolean":
        return normalize_literal(answer.value, XSD + "boolean")
    return normalize_literal(answer.value, None if answer.language else answer.datatype)


def percentile(values: Sequence[float], fraction: float) -> float | None:
    """Nearest-rank percentile (p95 = the smallest value at or above 95 % of the values)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


# --- gold ----------------------------------------------------------------------------------------

@dataclass
class GoldResult:
    """The gold answers of one question, where they came from, and why there are none."""

    answers: frozenset[AnswerValue] | None
    source: str  # "query", "file", "triples" or "none"
    error: str | None = None
    truncated: str | None = None
    elapsed_ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"source": self.source,
                               "answers": sorted(str(v) for v in self.answers) if self.answers is not None else None}
        if self.error:
            out["error"] = self.error
        if self.truncated:
            out["truncated"] = self.truncated
        return out


async def run_gold(question: BenchmarkQuestion, sparql: SparqlEndpoint, *, timeout_s: float,
                   prefer_stored: bool = False) -> GoldResult:
    """Runs the gold SPARQL on the question's graph; falls back to stored answers when there is no query."""
    if question.gold_sparql is None or (prefer_stored and question.gold_answers is not None):
        if question.gold_answers is None:
            return GoldResult(None, "none")
        return GoldResult(question.gold_answers, "triples" if question.gold_triples else "file")
    started = time.perf_counter()
    try:
        if is_ask_query(question.gold_sparql):
            value = await sparql.ask(question.gold_sparql, timeout_s=timeout_s)
            return GoldResult(frozenset({normalize_term(value)}), "query",
                              elapsed_ms=(time.perf_counter() - started) * 1000)
        result = await sparql.select(question.gold_sparql, timeout_s=timeout_s)
    except GatewayError as exc:
        return GoldResult(None, "query", error=str(exc))
    except Exception as exc:  # the gold side of one question must not stop the run
        log.debug("gold query of %s failed", question.id, exc_info=True)
        return GoldResult(None, "query", error=f"{type(exc).__name__}: {exc}")
    values = frozenset(normalize_term(term) for row in result.rows for term in row.values())
    return GoldResult(values, "query", truncated=result.truncation_reason, elapsed_ms=result.elapsed_ms)


# --- per question --------------------------------------------------------------------------------

RetrievalScorer = Callable[[Any, Any], Mapping[str, float]]


def load_retrieval_scorer() -> tuple[RetrievalScorer | None, str | None]:
    """`hublink.metrics.score_retrieval` if the HubLink package provides it yet, else why not."""
    try:
        from hublink.metrics import score_retrieval
    except ImportError as exc:
        return None, f"triple metrics skipped: hublink.metrics.score_retrieval is not importable ({exc})"
    return score_retrieval, None


def retrieved_triples(result: PathResult) -> Any | None:
    """The ranked retrieved triples of a path's evidence, if it reports any (HubLink does)."""
    evidence = result.evidence
    if evidence is None:
        return None
    triples = getattr(evidence, "retrieved_triples", None)
    if triples is None:
        triples = evidence.to_dict().get("retrieved_triples")
    return triples


@dataclass
class PathOutcome:
    """One path's answer to one question, normalised and scored."""

    path: str
    status: str
    answers: list[Answer]
    values: frozenset[AnswerValue]
    score: AnswerScore | None  # None: the question has no answer-level gold
    total_ms: float | None
    sparql_requests: int = 0
    error: str | None = None
    error_kind: str | None = None
    retrieval: dict[str, float] | None = None
    notes: list[str] = field(default_factory=list)
    evidence: dict[str, Any] | None = None  # the path's own evidence, for --out (e.g. KGQAN's queries)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "answers": [a.to_dict() for a in self.answers],
                               "normalised": sorted(str(v) for v in self.values),
                               "score": self.score.to_dict() if self.score else None,
                               "ms": round(self.total_ms, 1) if self.total_ms is not None else None,
                               "sparql_requests": self.sparql_requests}
        if self.error:
            out["error"] = self.error
            out["error_kind"] = self.error_kind
        if self.retrieval is not None:
            out["retrieval"] = {k: round(float(v), 4) for k, v in self.retrieval.items()}
        if self.notes:
            out["notes"] = self.notes
        if self.evidence:
            out["evidence"] = self.evidence
        return out


@dataclass
class QuestionOutcome:
    """One question: its gold, and every path's scored answer (none when the gold failed)."""

    index: int
    question: BenchmarkQuestion
    endpoint: str
    gold: GoldResult
    paths: dict[str, PathOutcome]

    @property
    def skipped(self) -> bool:
        return self.gold.error is not None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"index": self.index, **self.question.to_dict(), "endpoint": self.endpoint,
                               "gold": self.gold.to_dict()}
        out.update({name: outcome.to_dict() for name, outcome in self.paths.items()})
        return out


def path_outcome(result: PathResult, question: BenchmarkQuestion, gold: GoldResult,
                 scorer: RetrievalScorer | None) -> PathOutcome:
    # like the gold side, every column counts: a count's group, the e-mail beside a name
    values = frozenset(normalize_answer(v) for a in result.answers for v in a.values())
    score = score_answers(gold.answers, values) if gold.answers is not None else None
    outcome = PathOutcome(result.path, result.status.value, list(result.answers), values, score,
                          result.timings_ms.get("total"), result.sparql_requests, result.error, result.error_kind,
                          notes=list(result.notes))
    if result.evidence is not None:
        try:
            outcome.evidence = result.evidence.to_dict()
        except Exception as exc:  # evidence is for reading; a broken one must not lose the score
            outcome.notes.append(f"evidence could not be serialised: {type(exc).__name__}: {exc}")
    if question.gold_triples and scorer is not None:
        triples = retrieved_triples(result)
        if triples is not None:
            try:
                outcome.retrieval = {k: float(v) for k, v in scorer(triples, question.gold_triples).items()}
            except Exception as exc:  # a scorer bug is reported per question, not fatal
                outcome.notes.append(f"triple metrics failed: {type(exc).__name__}: {exc}")
    return outcome


# --- the run -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class EvaluationTargets:
    """Which endpoint each question runs on: its graph by `kg_name`, else the default."""

    default: EndpointConfig | None = None
    by_kg: Mapping[str, EndpointConfig] = field(default_factory=dict)

    def for_question(self, question: BenchmarkQuestion) -> EndpointConfig:
        if question.kg_name and question.kg_name in self.by_kg:
            return self.by_kg[question.kg_name]
        if self.default is not None:
            return self.default
        raise ConfigurationError(f"no graph is loaded for kg_name {question.kg_name!r}")


@dataclass(frozen=True)
class EvaluationSettings:
    paths: tuple[str, ...] = PATH_NAMES
    timeout_s: float = 60.0
    concurrency: int = 4
    gold_from_file: bool = False
    progress: bool = False
    # One untimed question per graph first, so model loading and HubLink's index build are not charged
    # to (or time out) the first benchmark questions. 0 skips it.
    warmup_timeout_s: float = 0.0
    max_answers: int = WHOLE_LIST_ANSWERS


WARMUP_QUESTION = "Which things are there?"


@dataclass
class WarmupResult:
    graph: str
    seconds: float
    statuses: dict[str, str]

    def to_dict(self) -> dict[str, Any]:
        return {"graph": self.graph, "seconds": round(self.seconds, 2), "statuses": self.statuses}


def _distinct_targets(questions: Sequence[BenchmarkQuestion], targets: EvaluationTargets) -> list[EndpointConfig]:
    configs: dict[str, EndpointConfig] = {}
    for question in questions:
        try:
            config = targets.for_question(question)
        except GatewayError:
            continue
        configs.setdefault(f"{config.name}|{config.cache_key}", config)
    return list(configs.values())


async def warm_up(configs: Sequence[EndpointConfig], gateway: Gateway, settings: EvaluationSettings) -> list[WarmupResult]:
    """Asks a fixed, benchmark-independent question once per graph, one graph at a time (index builds are
    CPU-heavy); its answers are discarded."""
    results: list[WarmupResult] = []
    options = AskOptions(paths=settings.paths, timeout_s=settings.warmup_timeout_s)
    for config in configs:
        started = time.perf_counter()
        answer = await gateway.ask(WARMUP_QUESTION, config, options)
        statuses = {name: result.status.value + (f" ({result.error_kind})" if result.error_kind else "")
                    for name, result in answer.paths.items()}
        results.append(WarmupResult(config.name, time.perf_counter() - started, statuses))
    return results


async def evaluate_question(index: int, question: BenchmarkQuestion, targets: EvaluationTargets, gateway: Gateway,
                            settings: EvaluationSettings, scorer: RetrievalScorer | None) -> QuestionOutcome:
    """Gold first (a question whose gold fails is skipped), then both paths through `Gateway.ask`."""
    try:
        config = targets.for_question(question)
        endpoint = gateway.endpoint(config)
    except GatewayError as exc:
        return QuestionOutcome(index, question, "", GoldResult(None, "none", error=str(exc)), {})
    gold = await run_gold(question, endpoint.sparql, timeout_s=settings.timeout_s,
                          prefer_stored=settings.gold_from_file)
    if gold.error:
        return QuestionOutcome(index, question, config.name, gold, {})
    options = AskOptions(paths=settings.paths, timeout_s=settings.timeout_s, max_answers=settings.max_answers)
    started = time.perf_counter()
    try:
        # Each path has its own timeout inside `ask`; this guards the question as a whole.
        async with asyncio.timeout(settings.timeout_s + 30):
            result = await gateway.ask(question.question, config, options)
        results = dict(result.paths)
        failure = (result.error_kind, result.error) if result.error else None
    except TimeoutError:
        results = {}
        failure = ("timeout", f"no answer within {settings.timeout_s + 30:g} s")
    elapsed = (time.perf_counter() - started) * 1000
    for name in settings.paths:
        if name not in results:
            kind, message = failure or ("error", "the path returned nothing")
            results[name] = PathResult(name, status=AnswerStatus.ERROR, error=message, error_kind=kind,
                                       timings_ms={"total": elapsed})
    paths = {name: path_outcome(results[name], question, gold, scorer) for name in settings.paths}
    return QuestionOutcome(index, question, config.name, gold, paths)


async def evaluate(questions: Sequence[BenchmarkQuestion], targets: EvaluationTargets,
                   settings: EvaluationSettings | None = None, *, gateway: Gateway | None = None,
                   out: TextIO | None = None, metadata: Mapping[str, Any] | None = None) -> EvaluationReport:
    """Evaluates every question with bounded concurrency; writes JSON lines to `out` as they finish."""
    settings = settings or EvaluationSettings()
    if settings.concurrency < 1:
        raise ConfigurationError("--concurrency must be at least 1")
    own_gateway = gateway is None
    gateway = gateway or Gateway(EndpointRegistry())
    notes: list[str] = []
    scorer: RetrievalScorer | None = None
    if any(q.gold_triples for q in questions):
        scorer, why_not = load_retrieval_scorer()
        if why_not:
            notes.append(why_not)
    bar: tqdm[Any] | None = None
    semaphore = asyncio.Semaphore(settings.concurrency)

    async def one(index: int, question: BenchmarkQuestion) -> QuestionOutcome:
        async with semaphore:
            outcome = await evaluate_question(index, question, targets, gateway, settings, scorer)
        if bar is not None:
            bar.update(1)
        if out is not None:
            out.write(json.dumps(outcome.to_dict(), ensure_ascii=False) + "\n")
            out.flush()
        return outcome

    warmups: list[WarmupResult] = []
    try:
        if settings.warmup_timeout_s > 0:
            configs = _distinct_targets(questions, targets)
            if settings.progress:
                print(f"kgqa eval: warming up the answer paths on {len(configs)} graph(s) (model loading, HubLink "
                      f"index; up to {settings.warmup_timeout_s:g} s each)...", file=sys.stderr)
            warmups = await warm_up(configs, gateway, settings)
        bar = tqdm(total=len(questions), desc="kgqa eval", unit="q", file=sys.stderr, disable=not settings.progress,
                   dynamic_ncols=True)
        started = time.perf_counter()
        outcomes = await asyncio.gather(*(one(i, q) for i, q in enumerate(questions)))
    finally:
        if bar is not None:
            bar.close()
        if own_gateway:
            await gateway.close()
    return EvaluationReport(list(outcomes), settings, dict(metadata or {}), notes,
                            wall_s=time.perf_counter() - started, warmups=warmups)


# --- summaries -----------------------------------------------------------------------------------

def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _round(value: float | None, digits: int = 4) -> float | None:
    return round(value, digits) if value is not None else None


@dataclass
class PathSummary:
    """Macro scores of one path over a set of questions."""

    path: str
    questions: int
    answered: int
    macro_precision: float | None
    macro_recall: float | None
    macro_f1: float | None
    median_ms: float | None
    p95_ms: float | None
    statuses: dict[str, int]
    by_form: dict[str, dict[str, Any]]
    retrieval: dict[str, float] | None = None
    retrieval_questions: int = 0
    top_errors: list[tuple[str, int]] = field(default_factory=list)
    misses: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "macro_precision": _round(self.macro_precision), "macro_recall": _round(self.macro_recall),
            "macro_f1": _round(self.macro_f1), "questions": self.questions, "answered": self.answered,
            "median_ms": _round(self.median_ms, 1), "p95_ms": _round(self.p95_ms, 1),
            "statuses": self.statuses, "by_form": self.by_form, "misses": self.misses,
            "top_errors": [{"error": message, "count": count} for message, count in self.top_errors],
        }
        if self.retrieval is not None:
            out.update({k: _round(v) for k, v in self.retrieval.items()})
            out["retrieval_questions"] = self.retrieval_questions
        return out


def _form_summary(runs: Sequence[tuple[PathOutcome, AnswerScore]]) -> dict[str, Any]:
    """Macro figures of one question form: where its F1 is low, precision and recall say whether its
    answers were wrong or incomplete, and `answered` how many were given at all."""
    return {"macro_f1": _round(_mean([s.f1 for _, s in runs])),
            "macro_precision": _round(_mean([s.precision for _, s in runs])),
            "macro_recall": _round(_mean([s.recall for _, s in runs])),
            "questions": len(runs), "answered": sum(1 for p, _ in runs if p.values)}


def miss_kind(gold: frozenset[AnswerValue], score: AnswerScore, answers: frozenset[AnswerValue],
              notes: Sequence[str] = ()) -> str | None:
    """How an imperfect answer falls short, in a few coarse kinds (None: not a miss). Counted over a run,
    they say where a path loses most (answers of another kind than the gold's, extra answers, missing
    ones) without showing any one question."""
    if score.f1 == 1.0 or not gold:
        return None if score.f1 == 1.0 else "answered where the gold is empty"
    if not answers:
        declined = any(note.startswith("not answered:") for note in notes)
        return "not answered: declined as unsupported" if declined else "not answered: nothing found"
    gold_kinds, kinds = {v.kind for v in gold}, {v.kind for v in answers}
    if score.f1 == 0.0:
        if not gold_kinds & kinds:
            return f"wrong kind: {'/'.join(sorted(kinds))} where the gold has {'/'.join(sorted(gold_kinds))}"
        return f"wrong answers of the gold's kind ({'/'.join(sorted(gold_kinds & kinds))})"
    if score.recall == 1.0:
        return "the gold and more"
    if score.precision == 1.0:
        return "part of the gold"
    return "some of the gold and more"


def summarize_path(name: str, outcomes: Sequence[QuestionOutcome]) -> PathSummary:
    runs = [(o, o.paths[name]) for o in outcomes if name in o.paths]
    scored = [(o, p) for o, p in runs if p.score is not None]
    times = [p.total_ms for _, p in runs if p.total_ms is not None]
    forms: dict[str, list[tuple[PathOutcome, AnswerScore]]] = {}
    for o, p in scored:
        forms.setdefault(o.question.form, []).append((p, p.score))  # type: ignore[arg-type]
    retrieval: dict[str, float] | None = None
    with_gold_triples = [(o, p) for o, p in runs if o.question.gold_triples]
    if any(p.retrieval is not None for _, p in with_gold_triples):
        # A question for which the path retrieved nothing (or failed) counts as 0, not as missing.
        retrieval = {metric: sum(float((p.retrieval or {}).get(metric, 0.0)) for _, p in with_gold_triples)
                     / len(with_gold_triples) for metric in RETRIEVAL_METRICS}
    return PathSummary(
        path=name,
        questions=len(scored),
        answered=sum(1 for _, p in runs if p.values),
        macro_precision=_mean([p.score.precision for _, p in scored]),  # type: ignore[union-attr]
        macro_recall=_mean([p.score.recall for _, p in scored]),  # type: ignore[union-attr]
        macro_f1=_mean([p.score.f1 for _, p in scored]),  # type: ignore[union-attr]
        median_ms=statistics.median(times) if times else None,
        p95_ms=percentile(times, 0.95),
        statuses=dict(Counter(p.status for _, p in runs)),
        by_form={form: _form_summary(runs) for form, runs in sorted(forms.items())},
        retrieval=retrieval,
        retrieval_questions=len(with_gold_triples) if retrieval is not None else 0,
        top_errors=Counter(f"{p.error_kind}: {p.error[:300]}" for _, p in runs if p.error).most_common(3),
        misses=dict(Counter(kind for o, p in scored
                            if (kind := miss_kind(o.gold.answers or frozenset(), p.score, p.values, p.notes))).most_common()),
    )


@dataclass
class EvaluationReport:
    """Everything a run measured: per-question outcomes, per-path macro scores, run metadata."""

    outcomes: list[QuestionOutcome]
    settings: EvaluationSettings
    metadata: dict[str, Any]
    notes: list[str]
    wall_s: float = 0.0
    warmups: list[WarmupResult] = field(default_factory=list)

    @property
    def evaluated(self) -> list[QuestionOutcome]:
        return [o for o in self.outcomes if not o.skipped]

    @property
    def skipped(self) -> list[QuestionOutcome]:
        return [o for o in self.outcomes if o.skipped]

    def summary(self, path: str, graph: str | None = None) -> PathSummary:
        outcomes = [o for o in self.evaluated if graph is None or o.question.kg_name == graph]
        return summarize_path(path, outcomes)

    def graphs(self) -> list[str]:
        return sorted({o.question.kg_name for o in self.evaluated if o.question.kg_name})

    def to_dict(self) -> dict[str, Any]:
        evaluated = self.evaluated
        out: dict[str, Any] = {
            **self.metadata,
            "paths": list(self.settings.paths),
            "timeout_s": self.settings.timeout_s,
            "concurrency": self.settings.concurrency,
            "scoring": "Macro F1 QALD",
            "empty_answer_scoring": EMPTY_ANSWER_SCORING,
            "gold": GOLD_RULE if not self.settings.gold_from_file else
            "Gold answers are the answers stored in the question file (--gold-from-file).",
            "normalisation": NORMALISATION,
            "questions": len(self.outcomes),
            "evaluated": len(evaluated),
            "no_answer_gold": sum(1 for o in evaluated if o.gold.answers is None),
            "gold_truncated": sum(1 for o in evaluated if o.gold.truncated),
            "skipped_gold_errors": {
                "count": len(self.skipped),
                "questions": [{"id": o.question.id, "kg_name": o.question.kg_name, "question": o.question.question,
                               "error": o.gold.error} for o in self.skipped],
            },
            "wall_s": round(self.wall_s, 2),
            "warmup": [w.to_dict() for w in self.warmups],
        }
        for name in self.settings.paths:
            out[name] = self.summary(name).to_dict()
        graphs = self.graphs()
        if len(graphs) > 1:
            out["by_graph"] = {
                graph: {"questions": sum(1 for o in evaluated if o.question.kg_name == graph),
                        **{name: {k: v for k, v in self.summary(name, graph).to_dict().items()
                                  if k in ("macro_precision", "macro_recall", "macro_f1", "questions", "answered")}
                           for name in self.settings.paths}}
                for graph in graphs
            }
        if self.notes:
            out["notes"] = self.notes
        return out

    def render_text(self) -> str:
        data = self.to_dict()
        paths = list(self.settings.paths)
        where = data.get("endpoint") or f"{data.get('engine')} ({', '.join(data.get('graphs') or [])})"
        lines = [
            f"kgqa eval: {data.get('questions_file', '')} on {where}",
            f"{data['questions']} questions, {data['evaluated']} evaluated, "
            f"{data['skipped_gold_errors']['count']} skipped because the gold query failed, "
            f"{data['no_answer_gold']} without answer-level gold, {data['wall_s']:.1f} s"
            + (f" after {sum(w.seconds for w in self.warmups):.1f} s of warm-up" if self.warmups else ""),
            "",
            f"{'path':<10}{'questions':>10}{'answered':>10}{'P':>8}{'R':>8}{'F1':>8}{'median ms':>11}{'p95 ms':>9}",
        ]

        def fmt(value: float | None, width: int, digits: int = 3) -> str:
            return f"{value:>{width}.{digits}f}" if value is not None else f"{'-':>{width}}"

        for name in paths:
            s = data[name]
            lines.append(f"{name:<10}{s['questions']:>10}{s['answered']:>10}{fmt(s['macro_precision'], 8)}"
                         f"{fmt(s['macro_recall'], 8)}{fmt(s['macro_f1'], 8)}{fmt(s['median_ms'], 11, 0)}"
                         f"{fmt(s['p95_ms'], 9, 0)}")
        statuses = "; ".join(f"{name}: " + ", ".join(f"{k} {v}" for k, v in sorted(data[name]["statuses"].items()))
                             for name in paths)
        lines.append(f"status: {statuses}")
        for warmup in self.warmups:
            lines.append(f"warm-up on {warmup.graph}: {warmup.seconds:.0f} s; " +
                         ", ".join(f"{name} {status}" for name, status in warmup.statuses.items()))
        for name in paths:
            lines += [f"  {name} error ({item['count']}x): {item['error']}" for item in data[name]["top_errors"]]
        forms = sorted({form for name in paths for form in data[name]["by_form"]})
        if forms:
            lines += ["", "macro F1 by question form:", f"{'form':<14}{'questions':>10}" +
                      "".join(f"{name:>10}" for name in paths)]
            for form in forms:
                count = max(data[name]["by_form"].get(form, {}).get("questions", 0) for name in paths)
                lines.append(f"{form:<14}{count:>10}" + "".join(
                    fmt(data[name]["by_form"].get(form, {}).get("macro_f1"), 10) for name in paths))
        if "by_graph" in data:
            lines += ["", "macro F1 by graph:", f"{'graph':<26}{'questions':>10}" + "".join(f"{n:>10}" for n in paths)]
            for graph, row in data["by_graph"].items():
                lines.append(f"{graph:<26}{row['questions']:>10}" + "".join(fmt(row[n]["macro_f1"], 10) for n in paths))
        retrieval_paths = [name for name in paths if "triple_recall" in data[name]]
        if retrieval_paths:
            lines += ["", "retrieval against gold triples (macro means):",
                      f"{'path':<10}" + "".join(f"{m:>18}" for m in RETRIEVAL_METRICS)]
            for name in retrieval_paths:
                lines.append(f"{name:<10}" + "".join(fmt(data[name][m], 18) for m in RETRIEVAL_METRICS))
        if self.skipped:
            lines += ["", "skipped (gold query failed):"]
            lines += [f"  {o.question.id}: {o.gold.error}" for o in self.skipped[:20]]
            if len(self.skipped) > 20:
                lines.append(f"  ... and {len(self.skipped) - 20} more (see --json)")
        lines += ["", f"scoring: {EMPTY_ANSWER_SCORING}", f"gold: {data['gold']}", f"normalisation: {NORMALISATION}"]
        lines += [f"note: {note}" for note in self.notes]
        return "\n".join(lines)


# --- graphs and engines --------------------------------------------------------------------------

@dataclass(frozen=True)
class GraphPlan:
    """Which files go into which named graph, and whether questions are routed by `kg_name`."""

    graphs: dict[str, tuple[Path, ...]]
    per_kg: bool


def graph_files(graph_args: Sequence[Path], questions_file: Path) -> list[Path]:
    """`--graph` files and folders expanded; without `--graph`, the RDF files beside the questions."""
    files: list[Path] = []
    sources = list(graph_args)
    if not sources:
        beside = sorted(p for p in questions_file.resolve().parent.iterdir() if p.suffix.lower() in RDF_FILE_SUFFIXES)
        if not beside:
            raise ConfigurationError("say which graph to load: --graph FILE (or a folder of graph files)")
        log.warning("no --graph given: loading %s from beside the questions", ", ".join(p.name for p in beside))
        return beside
    for source in sources:
        if source.is_dir():
            found = sorted(p for p in source.iterdir() if p.suffix.lower() in RDF_FILE_SUFFIXES)
            if not found:
                raise ConfigurationError(f"--graph {source}: no RDF files ({', '.join(RDF_FILE_SUFFIXES)}) in it")
            files += found
        elif source.is_file():
            if source.suffix.lower() not in RDF_FILE_SUFFIXES:
                raise ConfigurationError(f"--graph {source}: not an RDF file ({', '.join(RDF_FILE_SUFFIXES)})")
            files.append(source)
        else:
            raise ConfigurationError(f"--graph {source}: no such file or folder")
    return [f.resolve() for f in files]


def plan_graphs(files: Sequence[Path], questions: Sequence[BenchmarkQuestion]) -> GraphPlan:
    """One named graph per `kg_name` when the files are named after the questions' graphs (Spider),
    else every file into one graph that all questions share."""
    by_stem = {f.stem: f for f in files}
    kg_names = sorted({q.kg_name for q in questions if q.kg_name})
    if len(files) > 1 and kg_names and any(k in by_stem for k in kg_names):
        missing = [k for k in kg_names if k not in by_stem]
        if missing or any(q.kg_name is None for q in questions):
            raise ConfigurationError(f"no graph file for kg_name(s): {', '.join(missing) or '(questions without one)'}")
        return GraphPlan({k: (by_stem[k],) for k in kg_names}, per_kg=True)
    if len(kg_names) > 1:
        raise ConfigurationError(
            f"the questions are for {len(kg_names)} graphs ({', '.join(kg_names[:5])}...): pass the folder of graph "
            "files named after them (--graph DIR), or choose one with --kg-name"
        )
    name = kg_names[0] if kg_names else files[0].stem
    return GraphPlan({name: tuple(files)}, per_kg=False)


def embedded_targets(plan: GraphPlan) -> EvaluationTargets:
    """In-process pyoxigraph stores (gateway/embedded.py), one per graph."""
    if importlib.util.find_spec("gateway.embedded") is None:
        raise ConfigurationError("--engine embedded needs gateway/embedded.py, which is not available yet")
    configs = {name: EndpointConfig(name=name, url=EMBEDDED_URL + "|".join(str(p) for p in paths))
               for name, paths in plan.graphs.items()}
    return _targets(plan, configs)


def engine_stopped(engine: Any) -> str | None:
    """Why the run's own engine is gone, if it stopped before the run ended (the questions after that
    failed as unreachable: the run is to be repeated, not read as the gateway's quality)."""
    process = getattr(engine, "process", None)
    code = process.poll() if process is not None else None
    if code is None:
        return None
    return (f"the local {type(engine).__name__} stopped during the run (exit code {code}); the questions after it "
            "failed as unreachable, so run again (KGQA_KEEP_ENGINE_LOGS=1 keeps the engine's folder and log)")


ENGINE_ATTEMPTS = 2  # a local engine that dies during a run is started once more (Virtuoso 7 has aborted after loading)


def _evaluate_on_own_engine(kind: str, plan: GraphPlan, questions: Sequence[BenchmarkQuestion],
                            settings: EvaluationSettings, metadata: dict[str, Any], out: TextIO | None) -> EvaluationReport:
    """The run on a local engine of `kind` started for it; where the engine stops during the run (every later
    question would be "unreachable", which says nothing of the gateway), once more on a fresh engine, and the
    report says so."""
    from gateway.engines import running_engine

    lost: list[str] = []
    files = sum(len(paths) for paths in plan.graphs.values())
    for attempt in range(1, ENGINE_ATTEMPTS + 1):
        if out is not None:  # the per-question lines are the repeat's only
            out.seek(0)
            out.truncate()
        started = time.perf_counter()
        print(f"kgqa eval: starting {kind} and loading {files} graph file(s)...", file=sys.stderr)
        with running_engine(kind, {}) as engine:
            for name, paths in plan.graphs.items():
                for path in paths:
                    engine.load(path, name)
            metadata["engine_load_s"] = round(time.perf_counter() - started, 2)
            targets = _targets(plan, {name: engine.endpoint(name, name) for name in plan.graphs})
            report = run_async(evaluate(questions, targets, settings, out=out, metadata=metadata))
            stopped = engine_stopped(engine)
        if stopped is None:
            break
        lost.append(stopped)
        if attempt < ENGINE_ATTEMPTS:
            print(f"kgqa eval: {stopped.split(';')[0]}; running again on a fresh engine", file=sys.stderr)
    if lost and stopped is None:
        report.notes.append(f"{lost[0].split(';')[0]} in attempt 1 of {len(lost) + 1}; these figures are from a repeat "
                            "on a fresh engine")
    elif lost:
        report.notes.append(lost[-1])
    return report


def _targets(plan: GraphPlan, configs: dict[str, EndpointConfig]) -> EvaluationTargets:
    if plan.per_kg:
        return EvaluationTargets(by_kg=configs)
    return EvaluationTargets(default=next(iter(configs.values())))


# --- CLI -----------------------------------------------------------------------------------------

def main(args: argparse.Namespace) -> int:
    """`kgqa eval`: see `gateway.cli` for the options."""
    questions_file: Path = args.questions
    questions = load_questions(questions_file, kg_name=args.kg_name)
    if args.limit is not None:
        if args.limit < 1:
            raise ConfigurationError("--limit must be at least 1")
        questions = questions[: args.limit]
    if not questions:
        raise ConfigurationError(f"{questions_file} holds no questions")
    if args.engine and args.endpoint:
        raise ConfigurationError("use either --engine (with --graph) or --endpoint, not both")
    if args.timeout <= 0:
        raise ConfigurationError("--timeout must be positive")
    settings = EvaluationSettings(paths=tuple(args.path or PATH_NAMES), timeout_s=args.timeout,
                                  concurrency=getattr(args, "concurrency", 4),
                                  gold_from_file=getattr(args, "gold_from_file", False), progress=True,
                                  warmup_timeout_s=getattr(args, "warmup_timeout", 0.0),
                                  max_answers=getattr(args, "max_answers", WHOLE_LIST_ANSWERS))
    metadata: dict[str, Any] = {"questions_file": str(questions_file), "format": questions[0].source_format,
                                "kg_name": args.kg_name}
    registry = EndpointRegistry.from_file(args.endpoints_file)

    with ExitStack() as stack:
        if args.endpoint:
            config = registry.resolve(args.endpoint)
            kg_names = {q.kg_name for q in questions if q.kg_name}
            if len(kg_names) > 1:
                log.warning("the questions are for %d graphs but one endpoint is given: use --kg-name", len(kg_names))
            targets = EvaluationTargets(default=config)
            metadata.update(endpoint=config.name, endpoint_url=config.url)
        elif args.engine:
            files = graph_files(args.graph, questions_file)
            plan = plan_graphs(files, questions)
            metadata.update(engine=args.engine, graphs=list(plan.graphs),
                            graph_files=[str(p) for paths in plan.graphs.values() for p in paths])
            if args.engine == "embedded":
                targets = embedded_targets(plan)
        else:
            raise ConfigurationError("say where to evaluate: --engine virtuoso|oxigraph|embedded with --graph FILE, "
                                     "or --endpoint NAME|URL")
        out = stack.enter_context(args.out.open("w", encoding="utf-8")) if args.out else None
        if args.engine and args.engine != "embedded":
            report = _evaluate_on_own_engine(args.engine, plan, questions, settings, metadata, out)
        else:
            report = run_async(evaluate(questions, targets, settings, out=out, metadata=metadata))
    if args.json:
        json.dump(report.to_dict(), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        print(report.render_text())
    return 0
