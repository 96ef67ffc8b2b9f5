"""Question components: the parts of a question HubLink embeds next to the question itself.

The thesis asks an LLM for the components (`BaseRetrievalStrategy._get_question_components` in
`sqa_system/retrieval/implementations/HubLink/retrieval/base_retrieval_strategy.py`) and embeds each
next to the whole question. Without an LLM the components come from the phrase graph pattern of the
understanding parser (one per triple, plus the entity phrases), from quoted names, and from clauses.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

import numpy as np

from hublink.llm import LLMClient

log = logging.getLogger(__name__)

MAX_COMPONENTS = 6
_QUOTED = re.compile(r"""['"“‘«]([^'"”’»]{3,300})['"”’»]""")
_CLAUSE_SPLIT = re.compile(r"[,;:?!()]|\b(?:and|or|but|which|that|who|whose|where|when|with|by|in|of)\b", re.I)


@dataclass
class ProcessedQuestion:
    """A question with its components and their embeddings (question first)."""

    question: str
    components: list[str]
    entity_phrases: list[str]
    pattern: str | None = None
    source: str = ""
    vectors: np.ndarray | None = field(default=None, repr=False)

    @property
    def texts(self) -> list[str]:
        return [self.question, *self.components]


def quoted_names(question: str) -> list[str]:
    """Names written in quotes ('Some Paper Title'): the most reliable entity phrases a question has."""
    return [m.group(1).strip() for m in _QUOTED.finditer(question) if len(m.group(1).split()) >= 1]


def clause_components(question: str) -> list[str]:
    """Clauses of at least two words, split at punctuation, conjunctions and relative pronouns."""
    text = _QUOTED.sub(" ", question)
    pieces = [p.strip() for p in _CLAUSE_SPLIT.split(text) if p and p.strip()]
    return [p for p in pieces if len(p.split()) >= 2]


def residual_question(question: str, names: list[str]) -> str:
    """The question without the names it mentions: what is asked *about* them ("What is the DOI of ?").

    Inside one hub every path text starts with the hub's name, so the named entity dominates the
    question's similarity to all of them alike; the residual question tells the paths apart.
    """
    text = question
    for name in sorted(names, key=len, reverse=True):
        if len(name) >= 3:
            text = re.sub(r"['\"“‘«]?" + re.escape(name) + r"['\"”’»]?", " ", text, flags=re.I)
    text = re.sub(r"\s+", " ", text).strip()
    return text if text != question.strip() and len(text.split()) >= 2 else ""


def _covered(component: str, names: list[str]) -> bool:
    """A component made mostly of the words of a quoted name (a title fragment) adds nothing."""
    words = set(re.findall(r"\w+", component.lower()))
    if not words:
        return True
    for name in names:
        inside = words & set(re.findall(r"\w+", name.lower()))
        if len(inside) >= 0.7 * len(words) and component.strip().lower() != name.strip().lower():
            return True
    return False


def _dedupe(items: list[str], question: str) -> list[str]:
    seen = {question.strip().lower()}
    out: list[str] = []
    for item in items:
        key = re.sub(r"\s+", " ", item.strip().lower())
        if len(key) >= 2 and key not in seen:
            seen.add(key)
            out.append(item.strip())
    return out[:MAX_COMPONENTS]


async def _from_parser(question: str) -> tuple[list[str], list[str], str | None, str]:
    try:
        from understanding import get_parser  # type: ignore[attr-defined]
    except ImportError:
        return [], [], None, "clauses (no understanding parser installed)"
    from understanding.pgp import is_unknown

    try:
        understood = (await get_parser().parse([question]))[0]
    except Exception as exc:  # the parser is optional for HubLink: fall back to clauses
        log.warning("question parser failed on %r: %s", question, exc)
        return [], [], None, f"clauses (parser failed: {exc})"
    pattern = understood.pattern
    components = []
    for triple in pattern.triples:
        words = [part for part in (triple.subject, triple.relation, triple.object)
                 if not is_unknown(part) and part != "is a"]
        if words:
            components.append(" ".join(words))
    return components, pattern.entity_phrases(), pattern.to_text(), f"phrase graph pattern ({understood.source})"


async def process_question(question: str, llm: LLMClient | None = None) -> ProcessedQuestion:
    """Components and entity phrases of `question` (LLM if configured, else the parser, else clauses)."""
    quoted = quoted_names(question)
    if llm is not None:
        try:
            components = await llm.question_components(question)
            entity_phrases = _dedupe(quoted + components, question)
            return ProcessedQuestion(question, _dedupe(components + quoted, question), entity_phrases,
                                     source=f"LLM ({llm.config.model})")
        except Exception as exc:  # an LLM failure must not stop retrieval
            log.warning("LLM question components failed: %s", exc)
    components, entities, pattern, source = await _from_parser(question)
    components = components + clause_components(question)
    components = [c for c in components if not _covered(c, quoted)]
    entities = [e for e in entities if not _covered(e, quoted)]
    residual = residual_question(question, quoted)
    return ProcessedQuestion(question, _dedupe(quoted + ([residual] if residual else []) + components, question),
                             _dedupe(quoted + entities, question), pattern, source)
