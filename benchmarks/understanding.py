"""Question understanding on the held-out dev split of the derived training data.

    .venv/bin/python -m benchmarks.understanding [--fallback] [--latency-sample 200]

Gold patterns come from understanding.derive (dev split, never trained on). Reports, for fully
aligned dev questions (and, separately, for fully + partly aligned ones): PGP exact match, phrase-
triple precision/recall/F1 (micro, after lower-casing and dropping punctuation; triples compared
undirected), form accuracy, answer-kind and answer-type (kind + semantic type) accuracy, per source;
then the median and p95 latency of single-question parses (cache cleared) and batch throughput on
this machine. Writes build/understanding/benchmark[-fallback].json.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file, its own folder would shadow the `understanding` package
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from understanding.answer_types import build_answer_type  # noqa: E402
from understanding.derive import OUT_DIR  # noqa: E402
from understanding.derive import main as derive_main  # noqa: E402
from understanding.parser import QuestionParser  # noqa: E402
from understanding.pgp import AnswerKind, PhraseGraphPattern, PhraseTriple, is_unknown  # noqa: E402


def normalise(phrase: str) -> str:
    if is_unknown(phrase):
        return phrase
    return " ".join(re.findall(r"\w+", phrase.lower()))


def triple_key(triple: PhraseTriple) -> tuple[str, str, str]:
    a, b = sorted((normalise(triple.subject), normalise(triple.object)))
    return (a, normalise(triple.relation), b)


def pattern_key(pattern: PhraseGraphPattern) -> tuple[Any, ...]:
    return (
        pattern.form,
        frozenset(triple_key(t) for t in pattern.triples),
        pattern.ordering,
        frozenset((c.node, c.operator, normalise(c.value)) for c in pattern.comparisons),
        pattern.projection,
    )


def score(rows: list[dict[str, Any]], predictions: dict[str, Any]) -> dict[str, Any]:
    tp = fp = fn = exact = form = kind = answer_type = 0
    for row in rows:
        gold = PhraseGraphPattern.from_text(row["pattern"])
        result = predictions[row["question"]]
        predicted = result.pattern
        gold_triples = collections.Counter(triple_key(t) for t in gold.triples)
        predicted_triples = collections.Counter(triple_key(t) for t in predicted.triples)
        overlap = sum((gold_triples & predicted_triples).values())
        tp += overlap
        fp += sum(predicted_triples.values()) - overlap
        fn += sum(gold_triples.values()) - overlap
        exact += pattern_key(gold) == pattern_key(predicted)
        form += gold.form == predicted.form
        gold_type = build_answer_type(AnswerKind(row["answer_kind"] or "resource"), gold)
        kind += gold_type.kind == result.answer_type.kind
        answer_type += gold_type.kind == result.answer_type.kind and normalise(gold_type.semantic_type or "") == normalise(
            result.answer_type.semantic_type or ""
        )
    n = max(1, len(rows))
    precision = tp / max(1, tp + fp)
    recall = tp / max(1, tp + fn)
    return {
        "questions": len(rows),
        "exact_match": round(exact / n, 4),
        "triple_precision": round(precision, 4),
        "triple_recall": round(recall, 4),
        "triple_f1": round(2 * precision * recall / max(1e-9, precision + recall), 4),
        "form_accuracy": round(form / n, 4),
        "answer_kind_accuracy": round(kind / n, 4),
        "answer_type_accuracy": round(answer_type / n, 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=OUT_DIR / "derived.jsonl")
    parser.add_argument("--fallback", action="store_true", help="measure the spaCy fallback instead of the model")
    parser.add_argument("--latency-sample", type=int, default=200)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args(argv)
    if not args.data.exists():
        derive_main(["--out", str(args.data.parent)])
    rows = [json.loads(line) for line in args.data.read_text().splitlines()]
    dev = [r for r in rows if r["split"] == "dev" and r["pattern"]]
    full = [r for r in dev if r["alignment"] == "full"]

    question_parser = QuestionParser(use_model=not args.fallback, cache_size=100_000)
    load_started = time.perf_counter()
    question_parser.load()
    load_seconds = time.perf_counter() - load_started
    questions = list(dict.fromkeys(r["question"] for r in dev))

    started = time.perf_counter()
    results = []
    for begin in range(0, len(questions), args.batch_size):
        results += question_parser.parse_sync(questions[begin: begin + args.batch_size])
    batch_seconds = time.perf_counter() - started
    predictions = dict(zip(questions, results, strict=True))
    sources = collections.Counter(r.source.split(":")[0] for r in results)
    fallback_reasons = collections.Counter(r.source for r in results if r.source != "model")

    latencies = []
    for question in questions[: args.latency_sample]:
        question_parser.cache_clear()
        one = time.perf_counter()
        question_parser.parse_sync([question])
        latencies.append((time.perf_counter() - one) * 1000)
    latencies.sort()

    report: dict[str, Any] = {
        "parser": "fallback" if args.fallback else question_parser.model_status,
        "dev_full": score(full, predictions),
        "dev_full_and_partial": score(dev, predictions),
        "by_source_full": {
            source: score([r for r in full if r["source"] == source], predictions)
            for source in sorted({r["source"] for r in full})
        },
        "outputs": dict(sources),
        "fallback_reasons": dict(fallback_reasons.most_common(5)),
        "latency_ms_single": {
            "median": round(statistics.median(latencies), 1),
            "p95": round(latencies[int(0.95 * (len(latencies) - 1))], 1),
            "n": len(latencies),
        },
        "batch": {
            "batch_size": args.batch_size,
            "questions": len(questions),
            "questions_per_second": round(len(questions) / batch_seconds, 1),
        },
        "load_seconds": round(load_seconds, 1),
        "load_average_1min": round(os.getloadavg()[0], 1),
        "command": "python -m benchmarks.understanding" + (" --fallback" if args.fallback else ""),
    }
    out = OUT_DIR / ("benchmark-fallback.json" if args.fallback else "benchmark.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
