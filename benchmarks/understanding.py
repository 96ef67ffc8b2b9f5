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
from understanding.metrics import TripleScore, normalise  # noqa: E402
from understanding.parser import QuestionParser  # noqa: E402
from understanding.pgp import AnswerKind, PhraseGraphPattern  # noqa: E402


def score(rows: list[dict[str, Any]], predictions: dict[str, Any]) -> dict[str, Any]:
    triples = TripleScore()
    form = kind = answer_type = compared = operators_right = 0
    for row in rows:
        gold = PhraseGraphPattern.from_text(row["pattern"])
        result = predictions[row["question"]]
        predicted = result.pattern
        triples.add(gold, predicted)
        gold_operators = sorted(c.operator for c in gold.comparisons if not c.by_count)
        if gold_operators:
            compared += 1
            operators_right += gold_operators == sorted(c.operator for c in predicted.comparisons if not c.by_count)
        form += gold.form == predicted.form
        gold_type = build_answer_type(AnswerKind(row["answer_kind"] or "resource"), gold)
        kind += gold_type.kind == result.answer_type.kind
        answer_type += gold_type.kind == result.answer_type.kind and normalise(gold_type.semantic_type or "") == normalise(
            result.answer_type.semantic_type or ""
        )
    n = max(1, len(rows))
    return {
        "questions": len(rows),
        "exact_match": round(triples.exact_match, 4),
        "triple_precision": round(triples.precision, 4),
        "triple_recall": round(triples.recall, 4),
        "triple_f1": round(triples.f1, 4),
        "form_accuracy": round(form / n, 4),
        "answer_kind_accuracy": round(kind / n, 4),
        "answer_type_accuracy": round(answer_type / n, 4),
        "comparison_operators": {"questions": compared, "right": operators_right},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=OUT_DIR / "derived.jsonl")
    parser.add_argument("--fallback", action="store_true", help="measure the spaCy fallback instead of the model")
    parser.add_argument("--latency-sample", type=int, default=200)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--weights", type=Path, default=None,
                        help="a weights folder other than understanding/weights (for comparing training runs)")
    parser.add_argument("--report", type=Path, default=None, help="where to write the JSON report")
    parser.add_argument("--threads", type=int, default=None,
                        help="torch threads for every call (default: 2 for batches as understanding.resources sets, "
                             "1 for fewer than 8 questions as the model does)")
    parser.add_argument("--no-repairs", action="store_true",
                        help="the model's patterns as decoded, without understanding.repairs (to measure them)")
    parser.add_argument("--eos-penalty", type=float, default=None,
                        help="the model's end-of-pattern penalty (default: the shipped EOS_PENALTY)")
    parser.add_argument("--beam", type=int, default=None, help="beam width (default: the shipped BEAM; 1 is greedy)")
    parser.add_argument("--length-alpha", type=float, default=None,
                        help="beam hypotheses ranked by log-probability / length ** alpha (default: LENGTH_ALPHA)")
    args = parser.parse_args(argv)
    if not args.data.exists():
        derive_main(["--out", str(args.data.parent)])
    rows = [json.loads(line) for line in args.data.read_text().splitlines()]
    dev = [r for r in rows if r["split"] == "dev" and r["pattern"]]
    full = [r for r in dev if r["alignment"] == "full"]

    model = None
    if args.weights is not None and not args.fallback:
        from understanding.model import load_pattern_model

        model = load_pattern_model(args.weights)
    question_parser = QuestionParser(model, use_model=not args.fallback, cache_size=100_000,
                                     repairs=not args.no_repairs)
    load_started = time.perf_counter()
    question_parser.load()
    load_seconds = time.perf_counter() - load_started
    if args.eos_penalty is not None and question_parser.model is not None:
        question_parser.model.eos_penalty = args.eos_penalty
    if args.beam is not None and question_parser.model is not None:
        question_parser.model.beam = args.beam
    if args.length_alpha is not None and question_parser.model is not None:
        question_parser.model.length_alpha = args.length_alpha
    if args.threads is not None:  # exactly this many threads, also for single questions
        import torch

        torch.set_num_threads(args.threads)
        if question_parser.model is not None:
            question_parser.model.single_thread_for_few = False
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
        "dev_full_per_group_counts": score([r for r in full if PhraseGraphPattern.from_text(r["pattern"]).grouped],
                                           predictions),
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
        } if latencies else None,
        "batch": {
            "batch_size": args.batch_size,
            "questions": len(questions),
            "questions_per_second": round(len(questions) / batch_seconds, 1),
        },
        "load_seconds": round(load_seconds, 1),
        "load_average_1min": round(os.getloadavg()[0], 1),
        "command": " ".join(["python -m benchmarks.understanding", *(argv if argv is not None else sys.argv[1:])]),
        "torch_threads": args.threads,
        "data": str(args.data),
        "weights": str(args.weights) if args.weights else "understanding/weights",
    }
    out = args.report or OUT_DIR / ("benchmark-fallback.json" if args.fallback else "benchmark.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
