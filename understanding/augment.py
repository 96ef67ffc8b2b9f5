"""Entity substitution: more training questions from the derived ones, with the same structure and other
names.

The model copies entity phrases by pointing at question spans, so what it must learn about entities
is where a name starts and ends, whatever the name. Swapping each entity span of a derived question
for another entity name of the same source ("Which rivers flow into the North Sea?" -> "... into the
Lake Geneva?") keeps the target valid: every span of the target is moved to its new character
offsets. Only the training part of the train split is augmented (never validation or dev).
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterable
from typing import Any

from understanding.derive import target_pattern

Span = tuple[int, int]


def entity_spans(target: dict[str, Any]) -> list[Span]:
    """Character spans of the entity nodes of a target (not relations, classes or comparison values)."""
    out: set[Span] = set()
    for subject, relation, obj in target["triples"]:
        for node in (subject,) if relation == "is a" else (subject, obj):
            if isinstance(node, dict) and "span" in node:
                out.add((node["span"][0], node["span"][1]))
    return sorted(out)


def substitute(question: str, target: dict[str, Any], replacements: dict[Span, str]) -> tuple[str, dict[str, Any]]:
    """The question with each replaced span rewritten, and the target with every span moved to match."""
    ordered = sorted(replacements.items())
    parts: list[str] = []
    last = 0
    for (start, end), text in ordered:
        parts += [question[last:start], text]
        last = end
    parts.append(question[last:])

    def move(position: int) -> int:
        return position + sum(len(text) - (end - start) for (start, end), text in ordered if end <= position)

    def remap(value: Any) -> None:
        if isinstance(value, dict):
            if "span" in value:
                start, end = value["span"]
                if (start, end) in replacements:
                    new_start = move(start)
                    value["span"] = [new_start, new_start + len(replacements[(start, end)])]
                else:
                    value["span"] = [move(start), move(end)]
            for inner in value.values():
                if isinstance(inner, dict | list):
                    remap(inner)
        elif isinstance(value, list):
            for inner in value:
                remap(inner)

    moved = copy.deepcopy(target)
    remap(moved)
    return "".join(parts), moved


def _shape(text: str) -> str:
    return "number" if re.fullmatch(r"[\d.,\-/ ]+", text) else "name"


def augment(rows: Iterable[dict[str, Any]], fraction: float, rng: random.Random) -> list[dict[str, Any]]:
    """One substituted copy for about `fraction` of the rows that name entities; the replacement names
    come from the other rows of the same source (numbers are swapped for numbers)."""
    rows = list(rows)
    pools: dict[tuple[str, str], list[str]] = {}
    for row in rows:
        for start, end in entity_spans(row["target"]):
            text = row["question"][start:end]
            pools.setdefault((row["source"], _shape(text)), []).append(text)
    pools = {key: sorted(set(names)) for key, names in pools.items()}
    out = []
    for row in rows:
        spans = entity_spans(row["target"])
        if not spans or rng.random() >= fraction:
            continue
        replacements = {}
        for start, end in spans:
            text = row["question"][start:end]
            pool = pools.get((row["source"], _shape(text)), [])
            choice = rng.choice(pool) if len(pool) > 1 else text
            replacements[(start, end)] = choice if choice != text else rng.choice(pool)
        question, target = substitute(row["question"], row["target"], replacements)
        out.append({**row, "id": f"{row['id']}:substituted", "question": question, "target": target,
                    "pattern": target_pattern(question, target).to_text()})
    return out
