"""How a predicted phrase graph pattern is compared with a gold one (training's model selection and
benchmarks/understanding.py use the same rules).

Phrases are compared after lower-casing and dropping punctuation; triples are undirected (linking
decides the direction against the graph); counts are micro-averaged over questions.
"""

from __future__ import annotations

import collections
import re
from dataclasses import dataclass
from typing import Any

from understanding.pgp import PhraseGraphPattern, PhraseTriple, is_unknown


def normalise(phrase: str) -> str:
    if is_unknown(phrase):
        return phrase
    return " ".join(re.findall(r"\w+", phrase.lower()))


def triple_key(triple: PhraseTriple) -> tuple[str, str, str]:
    a, b = sorted((normalise(triple.subject), normalise(triple.object)))
    return (a, normalise(triple.relation), b)


def pattern_key(pattern: PhraseGraphPattern) -> tuple[Any, ...]:
    """Two patterns with equal keys are an exact match."""
    return (
        pattern.form,
        frozenset(triple_key(t) for t in pattern.triples),
        pattern.ordering,
        frozenset((c.node, c.operator, normalise(c.value), c.by_count) for c in pattern.comparisons),
        pattern.projection,
    )


@dataclass
class TripleScore:
    """Running phrase-triple counts and exact matches over a set of questions."""

    true_positives: int = 0
    false_positives: int = 0
    false_negatives: int = 0
    exact: int = 0
    questions: int = 0

    def add(self, gold: PhraseGraphPattern, predicted: PhraseGraphPattern) -> None:
        gold_triples = collections.Counter(triple_key(t) for t in gold.triples)
        predicted_triples = collections.Counter(triple_key(t) for t in predicted.triples)
        overlap = sum((gold_triples & predicted_triples).values())
        self.true_positives += overlap
        self.false_positives += sum(predicted_triples.values()) - overlap
        self.false_negatives += sum(gold_triples.values()) - overlap
        self.exact += pattern_key(gold) == pattern_key(predicted)
        self.questions += 1

    @property
    def precision(self) -> float:
        return self.true_positives / max(1, self.true_positives + self.false_positives)

    @property
    def recall(self) -> float:
        return self.true_positives / max(1, self.true_positives + self.false_negatives)

    @property
    def f1(self) -> float:
        return 2 * self.precision * self.recall / max(1e-9, self.precision + self.recall)

    @property
    def exact_match(self) -> float:
        return self.exact / max(1, self.questions)
