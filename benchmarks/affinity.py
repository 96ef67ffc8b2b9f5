"""Which word vectors and which phrase formula link best? Proxy tasks from ../shared/data/train only.

Relation task: an LC-QuAD 1.0 or Spider4SPARQL training question (its entity names removed) against
its gold predicates' words (IRI local names split) among up to 20 distractor predicates of the same
knowledge graph; a hit is a gold predicate ranked first. Entity task: an LC-QuAD entity phrase (the
bracketed span of the intermediary question closest to the gold entity) against the gold entity's
label among up to 20 distractor labels of other LC-QuAD entities sharing a word with it.
Never uses ../shared/data/kgs (the evaluation set).

    .venv/bin/python benchmarks/affinity.py [--items 400] [--backends wordllama,spacy-md]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from linking.affinity import AffinityScorer, content_words, make_vectors, split_words  # noqa: E402

TRAIN = ROOT.parent / "shared" / "data" / "train"
_IRI = re.compile(r"<(http://dbpedia\.org/(ontology|property|resource)/[^>]+)>")
_SPIDER_PRED = re.compile(r":([A-Za-z_]+)\\?#([A-Za-z_0-9\-]+)")


@dataclass(frozen=True)
class RankingItem:
    phrase: str
    gold: frozenset[str]
    candidates: tuple[str, ...]


def _words(local: str) -> str:
    return " ".join(split_words(local.replace("_", " ")))


def relation_items(rng: random.Random, limit: int) -> list[RankingItem]:
    items: list[RankingItem] = []
    lcquad = json.loads((TRAIN / "lcquad1-train.json").read_text())
    all_predicates = sorted({m.group(1) for q in lcquad for m in _IRI.finditer(q["sparql_query"])
                             if m.group(2) != "resource"})
    for question in lcquad:
        gold = {m.group(1) for m in _IRI.finditer(question["sparql_query"]) if m.group(2) != "resource"}
        entities = [m.group(1) for m in _IRI.finditer(question["sparql_query"]) if m.group(2) == "resource"]
        text = question.get("corrected_question") or ""
        if not gold or not isinstance(text, str):
            continue
        for entity in entities:
            for word in _words(entity.rsplit("/", 1)[1]).split():
                text = re.sub(rf"\b{re.escape(word)}\b", " ", text, flags=re.I)
        distractors = rng.sample([p for p in all_predicates if p not in gold], 20)
        words = tuple(dict.fromkeys(_words(p.rsplit("/", 1)[1]) for p in [*gold, *distractors]))
        gold_words = frozenset(_words(p.rsplit("/", 1)[1]) for p in gold)
        items.append(RankingItem(text, gold_words, words))
    spider = json.loads((TRAIN / "spider4sparql-train.json").read_text())
    per_kg: dict[str, set[str]] = defaultdict(set)
    for question in spider:
        per_kg[question["kg_name"]].update(m.group(2) for m in _SPIDER_PRED.finditer(question["query"]))
    for question in spider:
        gold = {m.group(2) for m in _SPIDER_PRED.finditer(question["query"])}
        pool = sorted(per_kg[question["kg_name"]] - gold)
        if not gold or len(pool) < 3:
            continue
        distractors = rng.sample(pool, min(20, len(pool)))
        words = tuple(dict.fromkeys(_words(p) for p in [*gold, *distractors]))
        items.append(RankingItem(question["question"], frozenset(_words(p) for p in gold), words))
    rng.shuffle(items)
    return items[:limit]


def entity_items(rng: random.Random, limit: int) -> list[RankingItem]:
    lcquad = json.loads((TRAIN / "lcquad1-train.json").read_text())
    labels = sorted({_words(m.group(1).rsplit("/", 1)[1]) for q in lcquad for m in _IRI.finditer(q["sparql_query"])
                     if m.group(2) == "resource"})
    by_word: dict[str, list[str]] = defaultdict(list)
    for label in labels:
        for word in set(content_words(label)):
            by_word[word].append(label)
    items: list[RankingItem] = []
    for question in lcquad:
        spans = re.findall(r"<([^>]+)>", question.get("intermediary_question") or "")
        for match in _IRI.finditer(question["sparql_query"]):
            if match.group(2) != "resource" or not spans:
                continue
            label = _words(match.group(1).rsplit("/", 1)[1])
            target = set(content_words(label))
            phrase = max(spans, key=lambda s: len(target & set(content_words(s))))
            if not target & set(content_words(phrase)):
                continue
            similar = sorted({other for w in target for other in by_word[w] if other != label})
            pool = similar if len(similar) >= 5 else [x for x in rng.sample(labels, 40) if x != label]
            distractors = rng.sample(pool, min(20, len(pool)))
            items.append(RankingItem(phrase, frozenset([label]), tuple(dict.fromkeys([label, *distractors]))))
    rng.shuffle(items)
    return items[:limit]


def evaluate(scorer: AffinityScorer, items: list[RankingItem]) -> tuple[float, float, float]:
    """(hits@1, MRR, median ms per item)."""
    hits, reciprocal, times = 0, 0.0, []
    for item in items:
        started = time.perf_counter()
        scores = scorer.score_many(item.phrase, item.candidates)
        times.append((time.perf_counter() - started) * 1000)
        order = sorted(range(len(item.candidates)), key=lambda i: (-float(scores[i]), i))
        rank = next(r for r, i in enumerate(order, 1) if item.candidates[i] in item.gold)
        hits += rank == 1
        reciprocal += 1 / rank
    times.sort()
    return hits / len(items), reciprocal / len(items), times[len(times) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=400, help="items per task (default 400)")
    parser.add_argument("--backends", default="wordllama,spacy-md")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    tasks = {"relation": relation_items(random.Random(args.seed), args.items),
             "entity": entity_items(random.Random(args.seed), args.items)}
    print(f"items: relation {len(tasks['relation'])}, entity {len(tasks['entity'])} (seed {args.seed})\n")
    print("| backend | method | char fallback | same stems | relation hits@1 | relation MRR | entity hits@1 | entity MRR "
          "| median ms/item |")
    print("|---|---|---|---|---|---|---|---|---|")
    for backend in args.backends.split(","):
        try:
            vectors = make_vectors(backend)
        except Exception as exc:  # a backend that is not installed is reported, not fatal
            print(f"| {backend} | not available: {exc} | | | | | | |")
            continue
        for method in ("pairwise", "best_match", "mean_vector"):
            for fallback, morphology in ((True, True), (True, False), (False, False)):
                scorer = AffinityScorer(vectors, method=method, char_fallback=fallback, morphology=morphology)
                relation = evaluate(scorer, tasks["relation"])
                entity = evaluate(scorer, tasks["entity"])
                print(f"| {backend} | {method} | {'yes' if fallback else 'no'} | {'yes' if morphology else 'no'} | "
                      f"{relation[0]:.3f} | {relation[1]:.3f} | {entity[0]:.3f} | {entity[1]:.3f} | "
                      f"{max(relation[2], entity[2]):.2f} |")


if __name__ == "__main__":
    main()
