"""The question parser: questions -> `UnderstoodQuestion`s, batched, cached, off the event loop.

The trained pattern model (understanding.model) answers first; a question whose model output does
not parse, or every question when no model is available, goes to the spaCy rules
(understanding.fallback), and `source` says which one answered and why.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

from gateway.errors import GatewayError
from understanding.answer_types import (
    answer_class,
    build_answer_type,
    predicted_kind,
    ranked_by_count,
    stated_kind,
    wh_noun,
)
from understanding.coverage import (
    negated_kind,
    positive_question,
    unsupported_reason,
    with_negated_clause,
    with_negated_kind,
    with_negation,
)
from understanding.grading import StatedOrdering, same_words, stated_ordering
from understanding.groups import (
    GROUPING_WORDS,
    GroupNoun,
    group_noun,
    grouped_readings,
    with_best_of_group,
    without_group,
)
from understanding.pgp import (
    ANSWER,
    NEGATION,
    TEXT_OPERATORS,
    TYPE_RELATION,
    AnswerKind,
    AnswerType,
    PGPParseError,
    PhraseGraphPattern,
    PhraseTriple,
    QuestionForm,
    UnderstoodQuestion,
    is_unknown,
    next_unknown_number,
)
from understanding.repairs import (
    chosen_reading,
    finished,
    kind_relation_reading,
    located_thing,
    measured_things,
    named_answers,
    repaired,
    role_kind_reading,
    shown_answers,
    sorted_as_asked,
    weighted_by_quantity,
    with_acronym_qualifier,
    with_companions,
    with_comparison_of,
    with_named_clause,
    with_named_exception,
    with_negated_having,
    with_ordering_of,
)
from understanding.rewording import (
    SortClause,
    aggregated_things,
    by_name,
    companion_clause,
    compared_tail,
    conjoined_conditions,
    named_clause,
    names_of_restricted,
    owned_tail,
    quantity_weighted,
    ranged,
    ranked_restriction,
    read_text,
    several_aggregates,
    shown_values,
    sort_clause,
)
from understanding.syntax import (
    aggregate_reading,
    attribute_of_a_name,
    attribute_of_a_verbed_kind,
    attribute_the_kind_has,
    attributes_of_a_name,
    chain_reading,
    clause_object_reading,
    compared_with_named,
    coordinated_comparisons,
    coordinated_predicates,
    count_compared_with_named,
    counted_chain_reading,
    counted_superlative_reading,
    counted_things_of_kind,
    kind_a_name_relates_to,
    kind_a_name_verbs,
    kind_by_name_verbed,
    kind_compared,
    kind_having_a_thing,
    kind_having_own,
    kind_holding_a_thing,
    kind_of_an_owned_things_relation,
    kind_related_to_name,
    kind_verbed_with_value,
    kind_verbing_name,
    kind_with_counted_things,
    most_common_value,
    name_is_relation_of_kind,
    named_compared_with_named,
    named_compared_with_value,
    named_having_a_thing,
    named_holding_a_thing,
    named_related_to_named,
    named_verbed_with_value,
    negated_link,
    participle_chain,
    place_of_a_name,
    placed_kind_related,
    ranked_by_when,
    restricted_comparison,
    restricted_kind_related,
    same_as_named,
    self_compared,
    stated_value_of_kind,
    superlative_reading,
    through_a_clause,
    value_as_attribute,
)

log = logging.getLogger(__name__)
T = TypeVar("T")  # a part of a question read apart (`QuestionParser._read_apart`)
# readers of the question's words alone (no parse): a question any of them reads gets the spaCy batch
_TEXT_READERS = (attribute_of_a_name, attributes_of_a_name, attribute_of_a_verbed_kind, restricted_comparison, coordinated_comparisons, compared_with_named,
                 named_compared_with_named, named_compared_with_value, count_compared_with_named, self_compared,
                 kind_related_to_name, through_a_clause, kind_of_an_owned_things_relation, value_as_attribute,
                 place_of_a_name, kind_having_a_thing, stated_value_of_kind, same_as_named, kind_a_name_relates_to,
                 restricted_kind_related, placed_kind_related, kind_compared, kind_having_own, kind_verbing_name,
                 named_related_to_named, kind_holding_a_thing, named_holding_a_thing, participle_chain,
                 kind_verbed_with_value, named_having_a_thing, ranked_by_when,
                 kind_with_counted_things, most_common_value, named_verbed_with_value, counted_things_of_kind,
                 kind_by_name_verbed, kind_a_name_verbs, name_is_relation_of_kind,
                 attribute_the_kind_has)

# readers of a grouped question's words without its group ("For each year, how many papers provide a
# replication package?"), whose readings come before the model's when the model lost their words
_GROUPLESS_READERS = (kind_having_a_thing, kind_verbed_with_value)

MAX_QUESTION_CHARS = 1000
MAX_ALTERNATIVES = 2  # readings after the best one kept for a second try (`UnderstoodQuestion.alternatives`)
MODEL_SWITCH = "KGQA_UNDERSTANDING_MODEL"  # "off" forces the fallback (for comparisons)
_HAS_WORD = re.compile(r"\w")
_OF = re.compile(r"\bof\b", re.I)
# a hop of a chain besides "of": "Yanka Schreiber's manager", "the product manager for product X"
_CHAIN_LINK = re.compile(r"\b(?!(?:what|who|where|how|that|it|there|here|he|she)'s)[A-Za-z]+'s\b|\bfor\b", re.I)
# "... and are supplied from Japan": a second condition on the answer (not "Bennett, Best and Jacobson")
_TWO_NUMBERS = re.compile(r"\d.*\band\b.*\d")  # two compared values ("wider than 75 mm and lower than 20 mm")
# "the products that the Production department is responsible for": a relative clause with a named subject
_COUNTING_SUPERLATIVE = re.compile(r"\b(?:largest|smallest|highest|lowest|greatest|biggest)\s+number\b", re.I)
_NAMED_CLAUSE = re.compile(r"\b(?:that|which|whom)\s+(?:the\s+)?[A-Z]")
_AGGREGATE_ASKED = re.compile(r"\b(?:average|mean|total)\s+[a-z]+", re.I)  # "the average price of ..."
# "Which suppliers supply the parts of Mechtron SynthWave?": a verb's object restricted by a name
_NAMED_OBJECT = re.compile(r"^(?:which|who|what)\s+(?:[a-z]+\s+){0,2}?the\s+[a-z]+(?:\s+[a-z]+)?\s+(?:of|in|from|by|"
                           r"[a-z]+ed\s+(?:in|by|from|for))\s+(?:the\s+)?[A-Z0-9]", re.I)
_COORDINATED = re.compile(r"\band\s+(?:(?:is|are|was|were|has|have|had|do|does|did)\s+)?[a-z]+\b")


class InvalidQuestion(GatewayError):
    """The text cannot be a question: empty, only punctuation, or far too long."""

    kind = "invalid-question"


@dataclass(frozen=True)
class ModelOutput:
    """What the pattern model says about one question: the PGP text form and the answer kind."""

    text: str
    kind: AnswerKind
    kind_confidence: float
    alternatives: tuple[str, ...] = ()  # the model's next readings, best first (beam search)


class PatternModel(Protocol):
    """A trained question -> PGP model (understanding.model.PatternModel implements it)."""

    def predict(self, questions: list[str]) -> list[ModelOutput]: ...


def normalise_question(question: object) -> str:
    """The question as the parser sees it (whitespace collapsed), or `InvalidQuestion` saying why not."""
    if not isinstance(question, str):
        raise InvalidQuestion(f"a question must be text, got {type(question).__name__}")
    text = " ".join(question.split())
    if not text:
        raise InvalidQuestion("the question is empty")
    if len(text) > MAX_QUESTION_CHARS:
        raise InvalidQuestion(f"the question is {len(text)} characters long; the limit is {MAX_QUESTION_CHARS}")
    if not _HAS_WORD.search(text):
        raise InvalidQuestion(f"the question {text!r} has no words")
    return text



class QuestionParser:
    """Turns questions into phrase graph patterns with answer types; one per process (`get_parser`)."""

    def __init__(self, model: PatternModel | None = None, *, use_model: bool = True, cache_size: int = 4096,
                 repairs: bool = True) -> None:
        self._model = model
        self._repairs = repairs  # `understanding.repairs` on the model's patterns (off only to measure them)
        switched_off = os.environ.get(MODEL_SWITCH, "").lower() in ("off", "0", "false")
        self._use_model = use_model and not switched_off
        self._model_unavailable: str | None = None
        if not use_model:
            self._model_unavailable = "model disabled"
        elif switched_off:
            self._model_unavailable = f"model disabled ({MODEL_SWITCH}=off)"
        self._model_loaded = model is not None
        self._fallback = None
        self._cache: OrderedDict[str, UnderstoodQuestion] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
        self._work_lock = threading.Lock()  # one batch at a time: the CPU is shared

    async def parse(self, questions: Sequence[str]) -> list[UnderstoodQuestion]:
        """Parses a batch; model and spaCy work runs in a thread, cached questions cost nothing."""
        texts = [normalise_question(q) for q in questions]
        missing = self._missing(texts)
        if missing:
            await asyncio.to_thread(self._compute, missing)
        return self._collect(questions, texts)

    def parse_sync(self, questions: Sequence[str]) -> list[UnderstoodQuestion]:
        """The same as `parse`, for scripts and benchmarks (blocks the calling thread)."""
        texts = [normalise_question(q) for q in questions]
        missing = self._missing(texts)
        if missing:
            self._compute(missing)
        return self._collect(questions, texts)

    async def rule_reading(self, question: str) -> UnderstoodQuestion:
        """The spaCy rules' reading of a question, whatever the model says: a last, independent
        reading for when the model's readings find nothing in the graph."""
        def parse() -> UnderstoodQuestion:
            text = normalise_question(question)
            with self._work_lock:
                pattern, answer_type = self._ensure_fallback().parse_batch([text])[0]
            return UnderstoodQuestion(question, pattern, answer_type, "rules", pattern.to_text(), 0.0,
                                      unsupported=unsupported_reason(question, pattern))

        return await asyncio.to_thread(parse)

    def load(self) -> None:
        """Loads the model (or notes why it cannot) and spaCy now instead of on the first question."""
        with self._work_lock:
            self._ensure_model()
            self._ensure_fallback()

    @property
    def model(self) -> PatternModel | None:
        """The loaded pattern model, if any (after `load()` or the first question)."""
        return self._model

    @property
    def model_status(self) -> str:
        """"model" when the trained model is in use, else why not."""
        if self._model_loaded and self._model is not None:
            return "model"
        return self._model_unavailable or "model not loaded yet"

    def cache_clear(self) -> None:
        with self._cache_lock:
            self._cache.clear()

    # --- internals --------------------------------------------------------------------------------
    def _missing(self, texts: list[str]) -> list[str]:
        with self._cache_lock:
            return list(dict.fromkeys(t for t in texts if t not in self._cache))

    def _collect(self, originals: Sequence[str], texts: list[str]) -> list[UnderstoodQuestion]:
        out: list[UnderstoodQuestion] = []
        with self._cache_lock:
            for original, text in zip(originals, texts, strict=True):
                result = self._cache.get(text)
                if result is None:  # evicted by a concurrent batch: recompute below
                    break
                self._cache.move_to_end(text)
                out.append(result if result.question == original else _with_question(result, original))
            else:
                return out
        self._compute([t for t in texts if t not in self._cache])
        return self._collect(originals, texts)

    def _compute(self, texts: list[str]) -> None:
        with self._work_lock:
            results = [_with_exception(text, result) for text, result in
                       zip(texts, self._understand_weighted(texts), strict=True)]
        with self._cache_lock:
            for text, result in zip(texts, results, strict=True):
                self._cache[text] = result
                self._cache.move_to_end(text)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    @staticmethod
    def _read_apart(texts: list[str], part_of: Callable[[str], T | None], told_of: Callable[[T], str],
                    reader: Callable[[list[str]], list[UnderstoodQuestion]]) -> list[tuple[int, T, UnderstoodQuestion]]:
        """Per question with a part to read apart (`part_of`): its index, the part and the model's reading of
        the question told without it (`told_of`), all read in one batch by `reader`; readings the model did
        not make or does not support are left out."""
        found = [(i, part) for i, text in enumerate(texts) if (part := part_of(text)) is not None]
        if not found:
            return []
        told = reader([told_of(part) for _, part in found])
        return [(i, part, reading) for (i, part), reading in zip(found, told, strict=True)
                if reading.source == "model" and not reading.unsupported]

    def _understand_weighted(self, texts: list[str]) -> list[UnderstoodQuestion]:
        """Every question's readings (of the question as read, `read_text`); a measure whose things count
        as many times as their quantity ("the total cost of the parts of X, taking the quantities into
        account") is read without saying so and weighted (`understanding.rewording.quantity_weighted`,
        `understanding.repairs.weighted_by_quantity`), in place of the readings of the whole question, which
        read the weighting as a relation ("quantity times part price") and answer a plain sum. A spread
        ("the difference between the most and the least expensive X") is read as the average of those values
        (`understanding.rewording.ranged`) and answered as their range (`QuestionForm.RANGE`); things asked for
        by name ("... Just the name please.", "... Give me its title.") are read without saying so and answered by their
        names or titles (`understanding.rewording.by_name`, `understanding.repairs.shown_answers`), or by the values the
        question names after ("... Give me the contestant number and name.", `understanding.rewording.shown_values`), as are "the names of X who ..." where
        the readings of the whole lost the clause (`understanding.rewording.names_of_restricted`); several aggregates of the same
        values ("the average, minimum and maximum ages") are read with the first and the others answered beside it
        (`understanding.rewording.several_aggregates`, the pattern's `also`)."""
        results = self._understand([read_text(t) for t in texts])
        for i, _, told in self._read_apart(texts, lambda t: ranged(read_text(t)), read_text, self._understand):
            readings = [replace(p, form=QuestionForm.RANGE) for p in (told.pattern, *told.alternatives)
                        if p.form is QuestionForm.AVG]
            if readings:  # the spread of the values the average is of
                results[i] = _read_as(results[i], readings, told, build_answer_type(
                    AnswerKind.NUMBER, readings[0], results[i].answer_type.confidence))
        for i, several, told in self._read_apart(texts, lambda t: several_aggregates(read_text(t)),
                                                 lambda found: found.question, self._understand):
            readings = _with_aggregates_beside(told, several.forms)
            if not readings:  # the first alone was misread ("the minimum number of" counted): the whole question's
                readings, told = _with_aggregates_beside(results[i], several.forms), results[i]
            if readings:  # the other aggregates of the same values, answered beside the first
                results[i] = _read_as(results[i], readings, told, build_answer_type(
                    AnswerKind.NUMBER, readings[0], results[i].answer_type.confidence))
        for i, _, told in self._read_apart(texts, by_name, read_text, self._understand):
            said = "title" if re.search(r"\btitles?\b[^?.!]*[.!?]?\s*$", texts[i], re.IGNORECASE) else "name"
            readings = [n for p in (told.pattern, *told.alternatives) if (n := shown_answers(p, (said,))) is not None]
            if readings:  # the things the question asks for, answered by their names
                results[i] = _read_as(results[i], readings, told,
                                      AnswerType(AnswerKind.STRING, None, results[i].answer_type.confidence))
        for i, shown, told in self._read_apart(texts, shown_values, lambda found: read_text(found.question),
                                               self._understand):
            if _shows_all(results[i].pattern, shown.attributes):
                continue  # the reading of the whole answers those values already
            where = re.match(r"\s*where\b", shown.question, re.IGNORECASE) is not None  # the values of what is located
            readings = [n for p in (told.pattern, *told.alternatives)
                        if (n := shown_answers(located_thing(p) if where else p, shown.attributes)) is not None]
            if readings:  # the things the question asks for, answered by the values it names (of things of a kind)
                results[i] = _read_as(results[i], readings, told, build_answer_type(
                    AnswerKind.STRING, readings[0], results[i].answer_type.confidence))
        for i, _, told in self._read_apart(texts, names_of_restricted, read_text, self._understand):
            if not _clause_lost(results[i].pattern):
                continue
            readings = [n for p in (told.pattern, *told.alternatives)  # with the clause, answering things of the kind
                        if not _clause_lost(p) and any(t.is_type and t.subject == ANSWER for t in p.triples)
                        and (n := named_answers(p)) is not None]
            if readings:  # the names of the things the clause restricts, where the whole's readings lost it
                results[i] = _read_as(results[i], readings, told, results[i].answer_type)
        for i, _, told in self._read_apart(texts, quantity_weighted, read_text, self._understand):
            readings = [w for p in (told.pattern, *told.alternatives) if (w := weighted_by_quantity(p)) is not None]
            if readings:  # in place of the readings of the whole, which read the weighting as a relation
                results[i] = _read_as(results[i], readings, told, build_answer_type(
                    AnswerKind.NUMBER, readings[0], results[i].answer_type.confidence))
        return results

    def _understand(self, texts: list[str]) -> list[UnderstoodQuestion]:
        """Every question's readings; one that asks values beside its answers ("... together with their
        cities") is read without them too, and they are put back as the answers' own, projected beside them
        (`understanding.rewording.companion_clause`, `understanding.repairs.with_companions`), first unless
        the model's reading of the whole projects more than the answer itself."""
        results = self._understand_owned(texts)
        for i, companions, told in self._read_apart(texts, companion_clause, lambda c: c.question, self._understand_owned):
            readings = [r for p in (told.pattern, *told.alternatives)
                        if (r := with_companions(p, companions.attributes)) is not None]
            asked = results[i]
            if not readings or asked.pattern.projection != (ANSWER,):
                continue
            results[i] = _offered(asked, readings, first=True, kind=told.answer_type.kind)
        return results

    def _understand_owned(self, texts: list[str]) -> list[UnderstoodQuestion]:
        """Every question's readings (measures and comparisons of restricted things read in parts:
        `_understand_measured`, `_understand_compared`); restricted things asked with what they have ("Which
        hardware products in the Switch category have a reliability index?") are read without it and it is
        put back as a relation of the answer (`understanding.rewording.owned_tail`), unless the reading has it."""
        results = self._understand_compared(self._understand_measured(texts), texts)
        owned = {i: tail for i, text in enumerate(texts) if (tail := owned_tail(text)) is not None
                 and not _relates(results[i].pattern, tail.thing)}
        if not owned:
            return results
        for (i, tail), told in zip(owned.items(), self._understand_owned([t.question for t in owned.values()]),
                                   strict=True):
            if told.source != "model" or told.unsupported or _values_of_things(told.pattern):
                continue  # "the names of departments that have ...": what the answers' things have, not theirs
            readings = [replace(p, triples=(*p.triples, PhraseTriple(ANSWER, tail.thing,
                                                                     f"?unknown{next_unknown_number(p.unknowns())}")))
                        for p in (told.pattern, *told.alternatives)]
            results[i] = replace(told, question=results[i].question, pattern=readings[0],
                                 alternatives=tuple(dict.fromkeys(readings[1:])))
        return results

    def _understand_compared(self, results: list[UnderstoodQuestion], texts: list[str]) -> list[UnderstoodQuestion]:
        """Restricted things with a comparison said last (or first, by a participle) are read as the restricted
        things and as the kind with the comparison, and the two put together (`understanding.rewording.compared_tail`):
        first where the model's reading of the whole lost a name of the restriction (or, the comparison said
        first, a word of its relations), next otherwise. So are two conditions said with "also" or "both"
        (`conjoined_conditions`) and the best of restricted things (`ranked_restriction`: the restricted things
        ranked as the ranking alone reads), first where the whole lost a word either part says."""
        found = {i: tail for i, text in enumerate(texts)
                 if (tail := compared_tail(text) or conjoined_conditions(text) or ranked_restriction(text)) is not None}
        if not found:
            return results
        parts = self._understand_clauses([q for tail in found.values() for q in (tail.restricted, tail.compared)])
        for n, (i, _) in enumerate(found.items()):
            restricted, compared = parts[2 * n], parts[2 * n + 1]
            if restricted.source != "model" or compared.source != "model" or restricted.unsupported or compared.unsupported:
                continue
            if found[i].conjoined and any(all(t.is_type for t in part.pattern.triples) for part in (restricted, compared)) \
                    and not all(t.is_type for t in results[i].pattern.triples):
                continue  # a part read as nothing but the kind drops its condition: only better than no condition at all
            merged = with_ordering_of(restricted.pattern, compared.pattern) if found[i].ranked else \
                with_comparison_of(restricted.pattern, compared.pattern, compares=not found[i].conjoined)
            asked = results[i]
            if merged is None or merged == asked.pattern:
                continue
            kept = _said_words(asked.pattern) | {w for c in asked.pattern.comparisons for w in str(c.value).lower().split()}
            if found[i].conjoined or found[i].ranked:  # first where the model's reading of the whole lost a word either part says
                named = {w for part in (restricted.pattern, compared.pattern) for t in part.triples if not t.is_type
                         for phrase in (t.relation, *t.nodes()) if not is_unknown(phrase) for w in phrase.lower().split()}
            else:  # or a name of the restriction
                named = {w for t in restricted.pattern.triples if not t.is_type for n in t.nodes() if not is_unknown(n)
                         for w in n.lower().split()}
            if found[i].said_first:  # the model's reading kept the comparison said first and lost what follows
                named |= {w for t in restricted.pattern.triples if not t.is_type for w in t.relation.lower().split()}
                if any(re.match(r"\d+\s+[a-z]", n) for n in asked.pattern.nodes()):  # or glued it to the number
                    kept = set()
            # first where the model's reading of the whole lost a name the restriction has
            results[i] = _offered(asked, [merged], first=bool(named - kept), kind=asked.answer_type.kind)
        return results

    def _understand_measured(self, texts: list[str]) -> list[UnderstoodQuestion]:
        """Every question's readings; a measure of restricted things ("the average price of hardware
        supplied by companies based in Germany") is read as the list of those things too, and measured
        (`understanding.rewording.aggregated_things`): first where the model's reading of the question glued
        the restriction into the kind or lost a name of it, next otherwise."""
        results = self._understand_clauses(texts)
        for i, found, told in self._read_apart(texts, aggregated_things, lambda f: f.listing, self._understand_clauses):
            readings = [m for p in (told.pattern, *told.alternatives)
                        if (m := measured_things(p, QuestionForm(found.measure), found.attribute)) is not None]
            asked = results[i]
            if not readings or asked.pattern == readings[0]:
                continue
            said = _said_words(asked.pattern)
            lost = {w for n in readings[0].nodes() if not is_unknown(n) and re.search(r"[A-Z0-9]", n)
                    for w in n.lower().split()} - said  # a name the model's reading of the whole lost
            # (not where it merely misses a relation word: on the training questions that put 10 readings
            # worse and 4 better)
            first = not _glued_kind(readings[0], asked.pattern) and (_glued_kind(asked.pattern, readings[0]) or bool(lost))
            results[i] = _offered(asked, readings, first=first, kind=AnswerKind.NUMBER)
        return results

    def _understand_clauses(self, texts: list[str]) -> list[UnderstoodQuestion]:
        """Every question's readings; one with a kind a named subject's clause restricts ("the products
        the Marketing department is responsible for") is read without the clause and the clause put back
        in its readings (`understanding.repairs.with_named_clause`), unless the model's own reading has it."""
        results = self._understand_sorted(texts)
        clauses = {i: clause for i, text in enumerate(texts) if (clause := named_clause(text)) is not None}
        if not clauses:
            return results
        for (i, clause), told in zip(clauses.items(), self._understand_sorted([c.question for c in clauses.values()]),
                                     strict=True):
            asked = results[i]
            if any(t.relation.lower() == clause.relation and clause.name in t.nodes() for t in asked.pattern.triples):
                continue  # the model read the clause
            readings = [r for p in (told.pattern, *told.alternatives) if (r := with_named_clause(p, clause)) is not None]
            if not readings:
                continue
            readings = list(dict.fromkeys([*readings, asked.pattern]))
            kind = AnswerKind.RESOURCE if clause.kind is None else told.answer_type.kind
            results[i] = replace(told, question=asked.question, pattern=readings[0],
                                 alternatives=tuple(readings[1:MAX_ALTERNATIVES + 1]),
                                 answer_type=build_answer_type(kind, readings[0], told.answer_type.confidence))
        return results

    def _understand_sorted(self, texts: list[str]) -> list[UnderstoodQuestion]:
        """Every question's readings; one that asks its answers sorted is read without the sort clause
        and its readings sorted as the clause says (`understanding.repairs.sorted_as_asked`)."""
        results = [_with_role_kind(r) for r in self._read(texts)]
        sorts = {i: clause for i, text in enumerate(texts) if (clause := sort_clause(text)) is not None}
        if not sorts:
            return results
        for (i, clause), told in zip(sorts.items(), self._read([c.question for c in sorts.values()]), strict=True):
            asked = results[i]
            readings = [sorted_as_asked(p, clause) for p in (told.pattern, *told.alternatives)]
            if _sorts_as(asked.pattern, clause):  # the model read the sort as the clause says: its reading stands
                alternatives = tuple(dict.fromkeys(r for r in readings if r != asked.pattern))
                results[i] = replace(asked, alternatives=alternatives[:MAX_ALTERNATIVES])
                continue
            if asked.pattern.form is QuestionForm.LIST and asked.pattern.ordering is not None \
                    and asked.pattern.ordering.limit is None:
                readings.insert(1, asked.pattern)  # sorted, by something else: tried next
            readings = list(dict.fromkeys(readings))
            results[i] = replace(told, question=asked.question, pattern=readings[0],
                                 alternatives=tuple(readings[1:MAX_ALTERNATIVES + 1]))
        return results

    def _read(self, texts: list[str]) -> list[UnderstoodQuestion]:
        started = time.perf_counter()
        model = self._ensure_model()
        results: list[UnderstoodQuestion | None] = [None] * len(texts)
        reasons: dict[int, str] = {}
        outputs: list[ModelOutput] = []
        best_of_groups: dict[int, GroupNoun] = {}
        if model is not None:
            try:
                outputs = model.predict(texts)
            except Exception as exc:  # a broken model must not take the gateway down
                log.exception("pattern model failed on a batch of %d questions", len(texts))
                outputs = []
                reasons = {i: f"model failed: {exc}" for i in range(len(texts))}
            per_question = (time.perf_counter() - started) * 1000 / max(1, len(texts))
            for i, output in enumerate(outputs):
                readings: list[tuple[str, PhraseGraphPattern]] = []
                for text in (output.text, *output.alternatives):
                    try:
                        readings.append((text, PhraseGraphPattern.from_text(text)))
                    except PGPParseError as exc:
                        if text == output.text:
                            reasons[i] = f"model output unparseable: {exc}"
                if not readings or readings[0][0] != output.text:
                    continue
                decoded_forms = {text: p.form for text, p in readings}
                if self._repairs:
                    readings = [(text, repaired(texts[i], p)) for text, p in readings]
                    readings.insert(0, readings.pop(chosen_reading(texts[i], [p for _, p in readings])))
                (raw, pattern), later = readings[0], readings[1:]
                kind = (stated_kind(texts[i], predicted_kind(output.kind, pattern, decoded_forms[raw]))
                        if self._repairs else output.kind)
                if self._repairs and kind is AnswerKind.NUMBER and ranked_by_count(texts[i], pattern):
                    kind = AnswerKind.RESOURCE
                answer_type = build_answer_type(kind, pattern, output.kind_confidence)
                alternatives = tuple(dict.fromkeys(p for _, p in later if p != pattern))[:MAX_ALTERNATIVES]
                results[i] = UnderstoodQuestion(texts[i], pattern, answer_type, "model", raw, per_question,
                                                alternatives=alternatives)
            best_of_groups = self._read_syntax(results) if self._repairs else {}
            self._add_wh_nouns(results)
        else:
            reasons = {i: self._model_unavailable or "no model" for i in range(len(texts))}
        pending = [i for i, r in enumerate(results) if r is None]
        if pending:
            fallback_started = time.perf_counter()
            parsed = self._ensure_fallback().parse_batch([texts[i] for i in pending])
            per_question = (time.perf_counter() - fallback_started) * 1000 / len(pending)
            for i, (pattern, answer_type) in zip(pending, parsed, strict=True):
                raw = outputs[i].text if i < len(outputs) else pattern.to_text()
                results[i] = UnderstoodQuestion(
                    texts[i], pattern, answer_type, f"fallback: {reasons.get(i, 'no model output')}", raw, per_question
                )
        understood = [replace(r, unsupported=r.unsupported or unsupported_reason(r.question, r.pattern))
                      for r in results if r is not None]
        if best_of_groups:
            understood = self._with_best_of_groups(understood, best_of_groups)
        return [_finished(r) for r in map(_with_negated_having, self._with_negations(understood))]

    def _with_best_of_groups(self, results: list[UnderstoodQuestion],
                             groups: dict[int, GroupNoun]) -> list[UnderstoodQuestion]:
        """A ranking per group ("Which product is the heaviest in each category?") is read without its
        group ("Which product is the heaviest?"), by the model, and that reading answers the best of
        each group (`understanding.groups.with_best_of_group`). "per" groups only after the thing
        ranked ("the cheapest product per supplier"); after a count or a measure it is a rate ("the most
        employees per manager", "the highest price per gram"). Only where the question without its
        group states a superlative, the reading ranks as it says (by a count for "the most songs"), and
        the question asks for a thing ("Which singer ...", whatever kind the classifier says), not the
        value; otherwise the question stays unsupported."""
        stated = {i: (stripped, ordering) for i, group in groups.items()
                  if (stripped := without_group(results[i].question, group)) and (ordering := stated_ordering(stripped))
                  and not (_PER.match(group.marker) and ordering.by_count)}
        if not stated:
            return results
        readings = self._understand([stripped for stripped, _ in stated.values()])
        for (i, (_, ordering)), reading in zip(stated.items(), readings, strict=True):
            asks_thing = reading.answer_type.kind in (AnswerKind.RESOURCE, AnswerKind.STRING) or reading.wh_noun
            if reading.source != "model" or reading.unsupported or not asks_thing:
                continue  # the best value per group ("the highest GPA for every department") is a MAX per group
            best = [b for p in (reading.pattern, *reading.alternatives)
                    if _ranks_as_stated(p, ordering) and _per_thing(results[i].question, groups[i], p)
                    and (b := with_best_of_group(p, groups[i]))]
            if best:
                results[i] = replace(reading, question=results[i].question, pattern=best[0],
                                     alternatives=tuple(dict.fromkeys(best[1:])), unsupported=None)
        return results

    def _with_negations(self, results: list[UnderstoodQuestion]) -> list[UnderstoodQuestion]:
        """A negated question ("Which suppliers are not located in Japan?") is read without its
        negation, by the model, and the relation the negation governs is negated in that reading
        (`?u1 | not located in | Japan`, `understanding.coverage.with_negation`); where that fails
        the question stays unsupported."""
        unsupported = [i for i, r in enumerate(results) if r.unsupported and r.unsupported.startswith("negation")]
        kinds = {i: found for i in unsupported if (found := negated_kind(results[i].question)) is not None}
        kind_readings = self._understand([found[0] for found in kinds.values()]) if kinds else []
        for (i, (_, kind)), reading in zip(kinds.items(), kind_readings, strict=True):
            pattern = with_negated_kind(reading.pattern, kind) if reading.source == "model" else None
            if pattern is not None:  # "Which products managed by X are not sensors?": `?u1 | not is a | sensors`
                asked = results[i].answer_type  # the kind the whole question asks for
                results[i] = replace(reading, question=results[i].question, pattern=pattern, alternatives=(),
                                     unsupported=None,
                                     answer_type=build_answer_type(asked.kind, pattern, asked.confidence))
        negated = {i: found for i in unsupported if results[i].unsupported  # (not read as a negated kind)
                   and (found := positive_question(results[i].question)) is not None}
        if not negated:
            return results
        readings = self._understand([found[0] for found in negated.values()])
        for (i, (_, words)), reading in zip(negated.items(), readings, strict=True):
            linked = negated_link(results[i].question)  # "Which suppliers do not supply any product?"
            if linked is not None:
                results[i] = replace(reading, question=results[i].question, pattern=linked, alternatives=(),
                                     unsupported=None,
                                     answer_type=build_answer_type(AnswerKind.NUMBER if linked.form is QuestionForm.COUNT
                                                                   else AnswerKind.RESOURCE, linked,
                                                                   reading.answer_type.confidence))
                continue
            # "Which suppliers are not ..." read as `?u1 | suppliers | ?u2 ; ?u2 | ...`: the negation is
            # of the suppliers themselves
            positive = kind_relation_reading(reading.pattern, reading.wh_noun) or reading.pattern
            pattern = (with_negation(positive, words) or with_negated_clause(positive, results[i].question)) \
                if reading.source == "model" else None
            if pattern is not None:
                results[i] = replace(reading, question=results[i].question, pattern=pattern, alternatives=(),
                                     unsupported=None)
        return results

    def _read_syntax(self, results: list[UnderstoodQuestion | None]) -> dict[int, GroupNoun]:
        """Groups, superlatives, counts, comparisons, chains and coordinated predicates read from the
        question's syntax (`understanding.syntax`), one spaCy batch; the model's reading becomes the next
        one. A chain is taken only where the model's reading dropped one of its nouns, a count superlative
        only where the model garbled it, a count or a restricted comparison only where the model's reading
        misses one of its words; otherwise they go second (`_NextReading`). A question per "each N" has
        all its readings grouped (`understanding.groups`)."""
        wanted = [i for i, r in enumerate(results) if r is not None and (
            (stated_ordering(r.question) is not None)
            or len(_OF.findall(r.question)) + len(_CHAIN_LINK.findall(r.question)) >= 2
            or _COORDINATED.search(r.question) or _NAMED_CLAUSE.search(r.question) or _NAMED_OBJECT.match(r.question)
            or _AGGREGATE_ASKED.search(r.question)
            or GROUPING_WORDS.search(r.question) or _TWO_NUMBERS.search(r.question)
            or r.question.lower().startswith("how many ")
            or any(read(r.question) is not None for read in _TEXT_READERS))]
        best_of_groups: dict[int, GroupNoun] = {}
        if not wanted:
            return best_of_groups
        docs = self._ensure_fallback().nlp.pipe([results[i].question for i in wanted], batch_size=64)  # type: ignore[union-attr]
        for i, doc in zip(wanted, docs, strict=True):
            understood = results[i]
            if understood is None:
                continue
            try:
                if GROUPING_WORDS.search(understood.question) and (group := group_noun(doc)) is not None:
                    results[i], best_wanted = _grouped(understood, group)
                    if best_wanted:
                        best_of_groups[i] = group
                    continue
                if any(c.operator in TEXT_OPERATORS for c in understood.pattern.comparisons):
                    continue  # a text match the question spells out (`repairs.with_text_match`) stands
                found = self._syntax_reading(understood, doc)
            except Exception:  # a reading of the parse is an extra: its failure must not lose the question
                log.exception("syntax reading failed on %r", understood.question)
                continue
            if found is None:
                continue
            pattern, kind = found
            if isinstance(pattern, _NextReading):  # the model's reading stands, this one is tried next
                if not _same_reading(pattern.pattern, understood.pattern):
                    alternatives = (pattern.pattern, *(p for p in understood.alternatives
                                                       if not _same_reading(p, pattern.pattern)))
                    results[i] = replace(understood, alternatives=alternatives[:MAX_ALTERNATIVES])
                continue
            pattern = with_acronym_qualifier(understood.question, pattern)  # "ECSA papers" read as papers of ECSA
            if _same_reading(pattern, understood.pattern):
                continue
            results[i] = replace(
                understood, pattern=pattern,
                answer_type=build_answer_type(kind or understood.answer_type.kind, pattern,
                                              understood.answer_type.confidence),
                alternatives=tuple(dict.fromkeys(p for p in (understood.pattern, *understood.alternatives)
                                                 if not _same_reading(p, pattern)))[:MAX_ALTERNATIVES])
        return best_of_groups

    def _syntax_reading(self, understood: UnderstoodQuestion,
                        doc: object) -> tuple[PhraseGraphPattern | _NextReading, AnswerKind | None] | None:
        """The reading of the parse that replaces the model's, with the answer kind it implies, or None."""
        reading = superlative_reading(doc)
        grouped = understood.pattern.ordering is not None and understood.pattern.ordering.aggregate is not None
        if reading is not None and not grouped:  # "the highest average price" ranks groups: the repair's reading
            return reading.pattern, reading.kind
        counted = counted_superlative_reading(doc)  # "Which supplier from Brazil supplies the most products?"
        if counted is not None:
            if not _keeps(understood.pattern, counted.pattern):
                return counted.pattern, counted.kind
            return _NextReading(counted.pattern), None  # "Which department has the most people?"
        counted_chain = counted_chain_reading(doc)  # "How many suppliers provide products in the category Meter?"
        if counted_chain is not None and not _same_reading(counted_chain, understood.pattern):
            if not _says_all(understood.pattern, counted_chain):
                return counted_chain, AnswerKind.NUMBER
            return _NextReading(counted_chain), None
        aggregated = aggregate_reading(doc)  # "What's the average price of the services that X is responsible for?"
        if aggregated is not None and not _same_reading(aggregated, understood.pattern):
            # taken where the kind's restrictions are what the model lost (an adjective of the kind alone is
            # often a value the graph keeps elsewhere: "female students")
            if understood.pattern.form is not aggregated.form or \
                    (len(aggregated.triples) > 2 and not _says_all(understood.pattern, aggregated)):
                return aggregated, AnswerKind.NUMBER
            return _NextReading(aggregated), None
        clause_object = clause_object_reading(doc)  # "Who supplies the products that the X department is responsible for?"
        if clause_object is not None and not _same_reading(clause_object, understood.pattern):
            if not _says_all(understood.pattern, clause_object):
                return clause_object, AnswerKind.RESOURCE
            return _NextReading(clause_object), None
        compared = coordinated_comparisons(understood.question)
        if compared is not None:  # "Which products are wider than 75 mm and lower than 20 mm?"
            return compared, AnswerKind.NUMBER if compared.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        named = compared_with_named(understood.question)  # "Which services are cheaper than Predictive Maintenance?"
        if named is not None:  # the model has no comparison of two values: its reading is never this one
            return named, AnswerKind.NUMBER if named.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        both = named_compared_with_named(understood.question) or \
            named_compared_with_value(understood.question)  # "Is service X dearer than service Y / than 800 EUR?"
        if both is not None:
            return both, AnswerKind.BOOLEAN
        held = named_holding_a_thing(understood.question)  # "Does the X BOM contain any part from a German supplier?"
        if held is not None and not _same_reading(held, understood.pattern):
            return held, AnswerKind.BOOLEAN
        verbed_name = named_verbed_with_value(understood.question)  # "Was 'X' evaluated with a controlled experiment?"
        if verbed_name is not None and not _same_reading(verbed_name, understood.pattern):
            return verbed_name, AnswerKind.BOOLEAN
        had = named_having_a_thing(understood.question)  # "Does 'X' provide a replication package?"
        if had is not None and not _same_reading(had, understood.pattern):
            return had, AnswerKind.BOOLEAN
        related_names = named_related_to_named(understood.question)  # "Is the service X eligible for the product Y?"
        if related_names is not None and not set(related_names.nodes()) <= set(understood.pattern.nodes()):
            return related_names, AnswerKind.BOOLEAN
        itself = self_compared(understood.question)  # "Which products are taller than they are wide?"
        if itself is not None:
            return itself, AnswerKind.NUMBER if itself.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        ranked = ranked_by_when(understood.question)  # "Which museum opened most recently?"
        if ranked is not None and not _same_reading(ranked, understood.pattern):
            return ranked, AnswerKind.RESOURCE
        common = most_common_value(understood.question)  # "What is the most common evaluation method across the papers?"
        if common is not None and not _same_reading(common, understood.pattern):
            return common, None
        counted = kind_with_counted_things(understood.question)  # "Which papers have more than seven authors?"
        if counted is not None and not _same_reading(counted, understood.pattern):
            if not understood.pattern.comparisons:  # the model lost the count (not a value compared: "more than 3 credits")
                return counted, AnswerKind.NUMBER if counted.form is QuestionForm.COUNT else AnswerKind.RESOURCE
            return _NextReading(counted), None  # the model's grouping reading fits a graph where the things are a class
        things_of = counted_things_of_kind(understood.question)  # "How many distinct authors appear across all papers?"
        if things_of is not None and not _same_reading(things_of, understood.pattern):
            return things_of, AnswerKind.NUMBER
        counts = count_compared_with_named(understood.question)  # "Which departments have more members than X?"
        if counts is not None:
            return counts, AnswerKind.NUMBER if counts.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        valued = value_as_attribute(understood.question) or stated_value_of_kind(understood.question)
        if valued is not None and not _same_reading(valued, understood.pattern) and \
                not _names_the_value(understood.pattern, valued):
            return valued, AnswerKind.NUMBER if valued.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        having = kind_having_a_thing(understood.question)  # "Which papers provide a replication package?"
        if having is not None and not _says_all(understood.pattern, having):
            if _says_all(understood.pattern, replace(having, triples=(PhraseTriple(
                    "?unknown2", having.triples[-1].relation.split()[-1], "?unknown3"),))):
                return _NextReading(having), None  # the model kept the thing ("contain a sensor" as `| sensor`)
            return having, AnswerKind.NUMBER if having.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        made = kind_by_name_verbed(understood.question)  # "Which papers by X were published in 2021?"
        if made is not None and not _says_all(understood.pattern, made):
            return made, AnswerKind.NUMBER if made.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        verbed = kind_verbed_with_value(understood.question)  # "Which papers were evaluated with a case study?"
        if verbed is not None and (not _says_all(understood.pattern, verbed) or not any(
                same_words(node, verbed.triples[-1].object) for node in understood.pattern.nodes())):
            return verbed, AnswerKind.NUMBER if verbed.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        own = kind_having_own(understood.question)  # "How many hardware products have a compatible product?"
        if own is not None and not _says_all(understood.pattern, own):
            return own, AnswerKind.NUMBER if own.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        same = same_as_named(understood.question)  # "Which suppliers are in the same country as Neal LLC?"
        if same is not None and not _same_reading(same, understood.pattern):
            return same, AnswerKind.NUMBER if same.form is QuestionForm.COUNT else None
        place = place_of_a_name(understood.question)  # "In which city is Drake Ltd located?"
        if place is not None:  # (the model's reading, where it is this one, stands against the readers below)
            return None if _same_reading(place, understood.pattern) else (place, None)
        attribute = attribute_of_a_name(understood.question)  # "What is the price of the hardware product X?"
        if attribute is not None and (not _says_all(understood.pattern, attribute) or _splits_a_name(understood.pattern, attribute)
                                      or answer_class(understood.pattern) == attribute.triples[0].relation  # the
                                      or _name_as_class(understood.pattern, attribute)):
            return attribute, None  # attribute read as the answer's class ("the research object of 'X'")
        verbed = attribute_of_a_verbed_kind(understood.question)  # "What is the version of the template used by X?"
        if verbed is not None and not _says_all(understood.pattern, verbed):
            return verbed, None
        attributes = attributes_of_a_name(understood.question)  # "What are the width, height and depth of X?"
        if attributes is not None and not _same_reading(attributes, understood.pattern):
            return attributes, None
        stranded = kind_of_an_owned_things_relation(understood.question)  # "Which department is the manager of X a member of?"
        if stranded is not None and not _same_reading(stranded, understood.pattern):
            return stranded, None
        chain = participle_chain(understood.question)  # "departments responsible for products supplied by suppliers in X"
        if chain is not None and not _same_reading(chain, understood.pattern) and not _says_all(understood.pattern, chain):
            if chain.triples[0] in understood.pattern.triples and _says_all(understood.pattern, replace(
                    chain, triples=tuple(t for t in chain.triples if t.is_type or not is_unknown(t.object)))):
                return _NextReading(chain), None  # the model kept the asked kind, every other and the name
            return chain, AnswerKind.NUMBER if chain.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        clause = through_a_clause(understood.question)  # "products whose product manager sits in X"
        if clause is not None and not _same_reading(clause, understood.pattern) and (
                not _says_all(understood.pattern, clause)
                or len(understood.pattern.unknowns()) < len(clause.unknowns())):  # the chain folded into one edge
            return clause, AnswerKind.NUMBER if clause.form is QuestionForm.COUNT else None
        related = kind_related_to_name(understood.question)  # "Which products are compatible with X?"
        if related is not None and not _same_reading(related, understood.pattern) and (
                not _says_all(understood.pattern, related)
                or (related.triples[0] not in understood.pattern.triples  # the kind read as a relation
                    and re.search(rf"{re.escape(related.triples[1].relation)}\s+['\"\u2018\u201c]?{re.escape(related.triples[1].object)}",
                                  understood.question))):  # the name after the relation, quoted or not
            return related, AnswerKind.NUMBER if related.form is QuestionForm.COUNT else None
        holding = kind_holding_a_thing(understood.question)  # "Which BOMs include a part from the Crystal category?"
        if holding is not None and not _same_reading(holding, understood.pattern) and \
                not _says_all(understood.pattern, holding):
            return holding, AnswerKind.NUMBER if holding.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        verbing = kind_verbing_name(understood.question)  # "Which bills of material use the product X?"
        if verbing is not None and not _same_reading(verbing, understood.pattern) and \
                not _says_all(understood.pattern, verbing):
            return verbing, AnswerKind.NUMBER if verbing.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        relating = kind_a_name_relates_to(understood.question)  # "Which products is the Production department
        if relating is not None and not _same_reading(relating, understood.pattern) and \
                not _says_all(understood.pattern, relating):  # responsible for?"
            return relating, AnswerKind.NUMBER if relating.form is QuestionForm.COUNT else None
        verbs = kind_a_name_verbs(understood.question)  # "Which films did Steven Spielberg direct?"
        if verbs is not None and not _same_reading(verbs, understood.pattern):
            names = set(verbs.entity_phrases())
            near = {n for t in understood.pattern.triples if ANSWER in t.nodes() for n in t.nodes()}
            pieces = {n for name in names for n in near if n != name and n in name}  # "A and B" the model split
            names = {n for n in names if not any(piece in n for piece in pieces)} | pieces
            said = {t.relation for t in understood.pattern.triples if names & set(t.nodes())}
            if not names <= near or len(names) > 1 and len(said) > 1:  # the model reached the name through another
                # unknown, or joined "A and both B", or related them differently
                return verbs, AnswerKind.NUMBER if verbs.form is QuestionForm.COUNT else None
            return _NextReading(verbs), None  # the model's relation to the name stands ("Which instruments does X play?")
        relation_of = name_is_relation_of_kind(understood.question)  # "Berlin is the capital of which country?"
        if relation_of is not None and not _says_all(understood.pattern, relation_of):
            return relation_of, None
        owned = attribute_the_kind_has(understood.question)  # "What nicknames do the universities in X have?"
        if owned is not None and not _says_all(understood.pattern, owned):
            return owned, None
        placed = placed_kind_related(understood.question)  # "Which suppliers based in Germany supply products
        if placed is not None and not _says_all(understood.pattern, placed):  # in the Sensor category?"
            return placed, None
        both = restricted_kind_related(understood.question)  # "Which members of the Marketing department are
        if both is not None and not _says_all(understood.pattern, both):  # experts in capacitors?"
            return both, None
        compared = kind_compared(understood.question)  # "Which French suppliers have a latitude below 44?"
        # the model lost the kind, or made it a relation to something else ("Which resistors have a height
        # between 50 and 60 mm?" as `?u1 | resistors | ?u2 ; ?u2 | height | ?u3 ...`)
        if compared is not None and (not _says_kind(understood.pattern, compared) or
                                     not any(t.is_type and t.subject == ANSWER for t in understood.pattern.triples)):
            return compared, AnswerKind.NUMBER if compared.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        if compared is not None and _misreads_bounds(understood.pattern, compared):  # "priced between 700 and
            return compared, AnswerKind.NUMBER if compared.form is QuestionForm.COUNT else AnswerKind.RESOURCE  # 1,100"
        if compared is not None and not _says_all(understood.pattern, compared):  # "cost" read as the price
            return _NextReading(compared), None
        restricted = restricted_comparison(understood.question)  # "products from X that cost under 2 EUR?"
        if restricted is not None and not _same_reading(restricted, understood.pattern):
            if not _says_all(understood.pattern, restricted) or not understood.pattern.comparisons:
                return restricted, AnswerKind.NUMBER if restricted.form is QuestionForm.COUNT else AnswerKind.RESOURCE
            return _NextReading(restricted), None
        chain = chain_reading(doc)
        if chain is not None and not chain.kept_by(understood.pattern):
            return chain.pattern, None
        if coordinated_predicates(doc) and _chained_name(understood.pattern):
            rules = self._ensure_fallback().pattern(understood.question, doc)
            if _conditions_of_answer(rules) >= 2:  # "Which products weigh less than 3 grams and are supplied from Japan?"
                return rules, None
        return None

    def _add_wh_nouns(self, results: list[UnderstoodQuestion | None]) -> None:
        """What "Which <noun> ..." asks for, where the pattern names no answer class (one spaCy batch)."""
        wanted = [i for i, r in enumerate(results) if r is not None and r.answer_type.semantic_type is None
                  and r.pattern.form in (QuestionForm.LIST, QuestionForm.COUNT)]
        if not wanted:
            return
        docs = self._ensure_fallback().nlp.pipe([results[i].question for i in wanted], batch_size=64)  # type: ignore[union-attr]
        for i, doc in zip(wanted, docs, strict=True):
            results[i] = replace(results[i], wh_noun=wh_noun(doc))  # type: ignore[type-var]

    def _ensure_model(self) -> PatternModel | None:
        if self._model_loaded or not self._use_model:
            return self._model
        self._model_loaded = True
        try:
            from understanding.model import load_pattern_model

            self._model = load_pattern_model()
        except FileNotFoundError as exc:
            self._model_unavailable = f"no trained model ({exc})"
        except Exception as exc:  # torch missing, corrupt weights: answer with the rules instead
            log.exception("could not load the pattern model")
            self._model_unavailable = f"model could not be loaded: {exc}"
        return self._model

    def _ensure_fallback(self):  # noqa: ANN202 - FallbackParser, imported lazily
        if self._fallback is None:
            from understanding.fallback import FallbackParser
            from understanding.resources import spacy_pipeline

            self._fallback = FallbackParser(spacy_pipeline())
        return self._fallback


_PER = re.compile(r"per\b", re.IGNORECASE)


# "the average number of products per supplier", "On average, how many parts does each bill of material have?"
_MEASURED_COUNT = re.compile(r"\b(?:(?P<measure>average|mean|maximum|minimum|highest|lowest|largest|smallest)"
                             r"\s+(?:number|count|amount)\s+of|on\s+average\b.*\bhow\s+many)\b", re.IGNORECASE)
_COUNT_WORDS = re.compile(r"^(?:the\s+)?(?:number|count|amount)\s+of\s+", re.IGNORECASE)  # "number of products"
_MEASURE_OF_COUNTS = {"average": QuestionForm.AVG, "mean": QuestionForm.AVG,
                      **dict.fromkeys(("maximum", "highest", "largest"), QuestionForm.MAX),
                      **dict.fromkeys(("minimum", "lowest", "smallest"), QuestionForm.MIN)}


def _with_negated_having(understood: UnderstoodQuestion) -> UnderstoodQuestion:
    """The negation moved to the having of things (`repairs.with_negated_having`), once the negation is read."""
    pattern = with_negated_having(understood.question, understood.pattern)
    if pattern == understood.pattern:
        return understood
    asked = understood.answer_type
    return replace(understood, pattern=pattern, answer_type=build_answer_type(asked.kind, pattern, asked.confidence))


# what a bare count per group says besides its counted noun and its group ("are there", "does ... have")
_BARE_COUNT_WORDS = frozenset({"how", "many", "are", "is", "there", "does", "do", "have", "has", "exist", "in", "of",
                               "for", "the", "a", "an", "with", "to", "belong", "belongs", "and", "show", "list", "give",
                               "me", "find", "return", "number", "what"})


def _bare_count_per_group(question: str, group: GroupNoun) -> bool:
    """Whether the question says nothing but how many of its counted noun each group has ("For each template type
    code, how many templates are there?", "How many templates are there of each template type?")."""
    assert group.counted is not None
    text = re.sub(rf"\b{re.escape(group.marker)}\b", " ", question, flags=re.IGNORECASE)
    text = re.sub(rf"\b{re.escape(group.counted)}\b", " ", text, flags=re.IGNORECASE)
    return all(word in _BARE_COUNT_WORDS for word in re.findall(r"[a-z]+", text.lower()))


def _grouped(understood: UnderstoodQuestion, group: GroupNoun) -> tuple[UnderstoodQuestion, bool]:
    """The question answered per group, its readings grouped (first a text reader's reading of the question
    without its group, where the model lost its words); an average (or extreme) of the counts per
    group is one number (`per`); where it asks for a count or an aggregate per group and no reading
    can be grouped, unsupported rather than answered as a total.
    The best of each group is unsupported here too, and flagged (True): the parser then reads it
    without its group (`QuestionParser._with_best_of_groups`)."""
    measured = _MEASURED_COUNT.search(understood.question)
    if measured is not None and group.counted is not None:  # "the average number of products per supplier"
        form = _MEASURE_OF_COUNTS[(measured.group("measure") or "average").lower()]
        counted = grouped_readings([replace(r, form=QuestionForm.COUNT) for r in
                                    (understood.pattern, *understood.alternatives)], group)
        plain = PhraseGraphPattern(form=form, per=("?unknown2",), triples=(  # the counted kind, by the group's noun
            PhraseTriple(ANSWER, TYPE_RELATION, group.counted), PhraseTriple(ANSWER, group.phrase, "?unknown2")))
        readings = list(dict.fromkeys([plain, *(replace(r, form=form, group=(), per=r.group, triples=tuple(
            replace(t, relation=_COUNT_WORDS.sub("", t.relation) or t.relation) for t in r.triples)) for r in counted)]))
        if readings:
            return replace(understood, pattern=readings[0], alternatives=tuple(readings[1:MAX_ALTERNATIVES + 1]),
                           answer_type=build_answer_type(AnswerKind.NUMBER, readings[0],
                                                         understood.answer_type.confidence)), False
    plain = without_group(understood.question, group)  # "How many papers provide a replication package?"
    told = [r for read in _GROUPLESS_READERS if plain and (r := read(plain)) is not None
            and not _says_all(understood.pattern, r)]  # what the model lost of the question without its group
    readings = grouped_readings([*told, understood.pattern, *understood.alternatives], group)
    if group.counted is not None and _bare_count_per_group(understood.question, group):
        # "For each template type code, how many templates are there?": the counted kind, by the group's noun
        bare = PhraseGraphPattern(form=QuestionForm.COUNT, group=("?unknown2",), triples=(
            PhraseTriple(ANSWER, TYPE_RELATION, group.counted), PhraseTriple(ANSWER, group.phrase, "?unknown2")))
        readings = list(dict.fromkeys([bare, *readings]))
    if readings:
        return replace(understood, pattern=readings[0], alternatives=tuple(readings[1:MAX_ALTERNATIVES + 1]),
                       answer_type=build_answer_type(AnswerKind.NUMBER, readings[0],
                                                     understood.answer_type.confidence)), False
    if understood.pattern.form.is_aggregate:  # a list per group ("the name and number of followers for
        # each user") is answered as the list it is
        return replace(understood, unsupported=f"an answer per {group.phrase}: no reading of the question could be "
                                               "grouped so, and a total would be wrong"), False
    ordering = understood.pattern.ordering
    stated = stated_ordering(understood.question)
    if (ordering is not None and ordering.limit is not None) or (
            ordering is None and stated is not None and stated.limit in (None, 1)):
        # "Which product is the heaviest in each category?", also where the reading lost the superlative
        # (a sorted list per "each" keeps its ordering and is answered)
        return replace(understood, unsupported=f"the best per {group.phrase}: read neither as the best of "
                                               "each group nor as a rate, and the best overall would be wrong"), True
    return understood, False


def _per_thing(question: str, group: GroupNoun, pattern: PhraseGraphPattern) -> bool:
    """Whether "per N" follows the thing the reading ranks ("the cheapest product per supplier": the
    answer's class), not a measure ("price per gram"); true for "each" and "every"."""
    if not _PER.match(group.marker):
        return True
    before = re.findall(r"[a-z]+", question[:question.lower().find(group.marker.lower())].lower())[-1:]
    kinds = [t.object for t in pattern.triples if t.is_type and t.subject == ANSWER]
    return bool(before) and any(same_words(before[0], kind.split()[-1]) for kind in kinds)


def _with_role_kind(understood: UnderstoodQuestion) -> UnderstoodQuestion:
    """The reading with a role noun as the answer's kind too (`understanding.repairs.role_kind_reading`),
    tried next: linking takes it where it fits the graph about as well (a class more)."""
    typed = role_kind_reading(understood.pattern)
    if typed is None or typed in understood.alternatives[:1]:
        return understood
    alternatives = (typed, *(a for a in understood.alternatives if a != typed))
    return replace(understood, alternatives=alternatives[:MAX_ALTERNATIVES])


def _sorts_as(pattern: PhraseGraphPattern, clause: SortClause) -> bool:
    """Whether a reading sorts all its answers as a sort clause says: the same way, by the clause's attribute
    (or by the answers themselves where the clause names none)."""
    ordering = pattern.ordering
    if pattern.form is not QuestionForm.LIST or ordering is None or ordering.limit is not None or \
            ordering.descending != clause.descending:
        return False
    if clause.attribute is None:
        return ordering.node == ANSWER
    said = clause.attribute.split()[-1]  # "the number of people killed" may be a count or a value: either
    return any(ordering.node in t.nodes() and same_words((t.object if t.is_type else t.relation).split()[-1], said)
               for t in pattern.triples if not t.is_type or ordering.by_count)


def _ranks_as_stated(pattern: PhraseGraphPattern, stated: StatedOrdering) -> bool:
    """Whether a reading ranks as the question's superlative says: by a count where it names counted
    things ("the most songs"), by a value where it names an attribute."""
    return pattern.ordering is not None and (stated.by_count is None or pattern.ordering.by_count == stated.by_count)


@dataclass(frozen=True)
class _NextReading:
    """A reading of the parse that the model's reading already says in its way: it is tried next,
    where the model's fits the graph poorly."""

    pattern: PhraseGraphPattern


def _keeps(model: PhraseGraphPattern, reading: PhraseGraphPattern) -> bool:
    """Whether the model's reading of a count superlative says what the parse's reading says: ordered
    by a count the same way, of the counted noun's class, the answer's class, and every name on a
    relation (not as a class)."""
    if model.ordering is None or reading.ordering is None or not model.ordering.by_count or \
            model.ordering.descending != reading.ordering.descending:
        return False
    if any(_COUNTING_SUPERLATIVE.search(t.relation) for t in model.triples):
        return False  # "the largest number" kept as a relation (`?u2 | largest number | ?u3`) besides the count
    # the answer's class, or the asked noun as the relation to the counted things ("Which range contains
    # the most mountains?" as `?u1 | range | ?u2`, the derived training patterns' way)
    classes = {t.object.lower() if t.is_type else t.relation.lower() for t in model.triples
               if (t.is_type and t.subject == ANSWER) or (not t.is_type and ANSWER in t.nodes())}
    if any(t.is_type and t.subject == ANSWER and not any(same_words(t.object, c) for c in classes)
           for t in reading.triples):
        return False
    counted = {t.object for t in reading.triples if t.is_type and t.subject == reading.ordering.node}
    if counted and not any(t.is_type and t.subject == model.ordering.node and any(same_words(t.object, c) for c in counted)
                           for t in model.triples):
        return False  # "Who manages the most products?" as `?u1 | is a | products`: the count is of something else
    names = {n for t in reading.triples if not t.is_type for n in t.nodes() if not is_unknown(n)}
    return all(any(n in t.nodes() for t in model.triples if not t.is_type) for n in names)


def _names_the_value(model: PhraseGraphPattern, reading: PhraseGraphPattern) -> bool:
    """Whether the model's reading has the reading's value (its last triple's object) as a node."""
    value = reading.triples[-1].object.lower()
    return any(node.lower() == value for node in model.nodes())


def _misreads_bounds(model: PhraseGraphPattern, reading: PhraseGraphPattern) -> bool:
    """Whether the model's reading lost a bound of the parse's ("priced between 700 and 1,100 EUR" with
    no filter) or keeps one as a node ("weigh between 10 and 15 g" as `?u1 | weigh | 10` beside the two
    filters); its bounds' values may differ, being repaired already ("50 cents" as 0.5)."""
    values = {c.value for c in reading.comparisons}
    return len(model.comparisons) < len(reading.comparisons) or any(node in values for node in model.nodes())


def _said_words(pattern: PhraseGraphPattern) -> set[str]:
    """The lower-case words of a pattern's relations, classes and names."""
    return {w for t in pattern.triples for phrase in t.nodes() + (t.relation,) if not is_unknown(phrase)
            for w in phrase.lower().split()}


def _says_all(model: PhraseGraphPattern, reading: PhraseGraphPattern) -> bool:
    """Whether the model's reading says every word of the parse's (its relations, classes and names)."""
    said = _said_words(model)
    return all(w in said for t in reading.triples for phrase in t.nodes() + (t.relation,)
               if not is_unknown(phrase) and phrase != TYPE_RELATION for w in phrase.lower().split())


def _name_as_class(model: PhraseGraphPattern, reading: PhraseGraphPattern) -> bool:
    """Whether the model's reading makes a name of the parse's a class (`?u2 | is a | Product Analysis` for
    "What is the price of Product Analysis?")."""
    names = set(reading.entity_phrases())
    return any(t.is_type and t.object in names for t in model.triples)


def _splits_a_name(model: PhraseGraphPattern, reading: PhraseGraphPattern) -> bool:
    """Whether the model's reading has a name of the parse's in pieces: "the Transformer Inductor Encoder
    J555-1586043" read as `Transformer Inductor` and `Encoder J555-1586043`."""
    pieces = model.entity_phrases()
    return any(name not in pieces and sum(1 for piece in pieces if piece in name) >= 2 for name in reading.entity_phrases())


def _glued_kind(model: PhraseGraphPattern, reading: PhraseGraphPattern) -> bool:
    """Whether a kind of several words in the model's reading holds a relation's word of the reading
    (`| is a | hardware supplied by companies` where the reading has `| supplied by |`)."""
    related = {w for t in reading.triples if not t.is_type for w in t.relation.lower().split()}
    kinds = {w for t in reading.triples if t.is_type for w in t.object.lower().split()}
    return any(len(t.object.split()) > 1 and set(t.object.lower().split()) & (related - kinds)
               for t in model.triples if t.is_type)


def _says_kind(model: PhraseGraphPattern, reading: PhraseGraphPattern) -> bool:
    """Whether the model's reading names every word of the reading's kinds ("French suppliers")."""
    said = _said_words(model)
    return all(w in said for t in reading.triples if t.is_type for w in t.object.lower().split())


def _chained_name(pattern: PhraseGraphPattern) -> bool:
    """Whether a name hangs off an unknown that is not the answer but hangs off the answer
    (`?u1 | grams | ?u2 ; ?u2 | supplied from | Japan`)."""
    near = {n for t in pattern.triples if not t.is_type and ANSWER in t.nodes() for n in t.nodes() if n != ANSWER}
    return any(not t.is_type and any(is_unknown(n) and n in near for n in t.nodes())
               and any(not is_unknown(n) for n in t.nodes()) for t in pattern.triples)


def _clause_lost(pattern: PhraseGraphPattern) -> bool:
    """Whether a reading of "the names of X who ..." says nothing but the names of things of a kind."""
    return not pattern.comparisons and all(  # ("not names": the clause's negation put on the names)
        t.is_type or t.relation.strip().lower().removeprefix(NEGATION) in ("name", "names") for t in pattern.triples)


def _with_aggregates_beside(understood: UnderstoodQuestion, forms: tuple[str, ...]) -> list[PhraseGraphPattern]:
    """The readings whose form is one of the aggregates `forms` a question asks, with the others answered beside it."""
    return [replace(p, also=tuple(f for f in forms if f != p.form.value))
            for p in (understood.pattern, *understood.alternatives)
            if p.form.value in forms and not (p.group or p.per or p.times)]


def _read_as(understood: UnderstoodQuestion, readings: list[PhraseGraphPattern], told: UnderstoodQuestion,
             answer_type: AnswerType) -> UnderstoodQuestion:
    """The question answered by `readings` of it read apart (`told`: the reading of what was told), best
    first, in place of the readings of the whole question."""
    return replace(understood, pattern=readings[0], alternatives=tuple(readings[1:MAX_ALTERNATIVES + 1]),
                   unsupported=told.unsupported, answer_type=answer_type)


def _finished(understood: UnderstoodQuestion) -> UnderstoodQuestion:
    """Every reading with the repairs applied last (`understanding.repairs.finished`); a question unsupported
    for a negation its reading lacked is supported where the repaired reading has it."""
    best = finished(understood.question, understood.pattern)
    alternatives = tuple(finished(understood.question, a) for a in understood.alternatives)
    if best == understood.pattern and alternatives == understood.alternatives:
        return understood
    answer_type = build_answer_type(understood.answer_type.kind, best, understood.answer_type.confidence) \
        if answer_class(best) != answer_class(understood.pattern) else understood.answer_type  # a kind it added
    unsupported = understood.unsupported  # a negation the repairs put in (`with_none_of_a_kind`) is read now
    if unsupported and unsupported.startswith("negation") and best != understood.pattern:
        unsupported = unsupported_reason(understood.question, best)
    return replace(understood, pattern=best, alternatives=alternatives, answer_type=answer_type, unsupported=unsupported)


def _conditions_of_answer(pattern: PhraseGraphPattern) -> int:
    """How many conditions a reading puts on the answer itself, 0 when any relation is elsewhere."""
    relations = [t for t in pattern.triples if not t.is_type]
    if any(ANSWER not in t.nodes() for t in relations) or pattern.form is not QuestionForm.LIST:
        return 0
    return len(relations)


def _offered(asked: UnderstoodQuestion, readings: Sequence[PhraseGraphPattern], *, first: bool,
             kind: AnswerKind) -> UnderstoodQuestion:
    """The question with readings of its parts put together: the first of them in place of the model's
    reading (which is tried after them, the answer of `kind`), or tried right after it."""
    if not first:
        return replace(asked, alternatives=tuple(dict.fromkeys((*readings[:1], *asked.alternatives)))[:MAX_ALTERNATIVES])
    alternatives = tuple(dict.fromkeys((*readings[1:], asked.pattern, *asked.alternatives)))[:MAX_ALTERNATIVES]
    return replace(asked, pattern=readings[0], alternatives=alternatives,
                   answer_type=build_answer_type(kind, readings[0], asked.answer_type.confidence))


def _shows_all(pattern: PhraseGraphPattern, attributes: Sequence[str]) -> bool:
    """Whether a reading answers each of the values by a relation of that name on an answered unknown, of a
    thing, not of the value it ranks by ("Which pet is the heaviest? Give its id and type." read with the id and
    type of the weight)."""
    ranked = pattern.ordering.node if pattern.ordering is not None else None
    answered = [t.relation for t in pattern.triples if not t.is_type and set(t.nodes()) & set(pattern.projection)
                and ranked not in t.nodes()]
    return all(any(same_words(attribute, relation) for relation in answered) for attribute in attributes)


def _values_of_things(pattern: PhraseGraphPattern) -> bool:
    """Whether the answers are values of things of a kind (`?u1 | names | ?u2 ; ?u2 | is a | departments`),
    not things themselves."""
    typed = {t.subject for t in pattern.triples if t.is_type}
    return ANSWER not in typed and any(not t.is_type and t.subject == ANSWER and t.object in typed for t in pattern.triples)


def _relates(pattern: PhraseGraphPattern, thing: str) -> bool:
    """Some relation of the pattern says the thing's head word ("reliability index" in `| reliability index |`),
    to an unknown (`?u1 | address | Marketing` says a name, not an address the things have)."""
    head = thing.split()[-1].lower()
    return any(head in t.relation.lower().split() and is_unknown(t.subject) and is_unknown(t.object)
               for t in pattern.triples if not t.is_type)


def _same_reading(one: PhraseGraphPattern, other: PhraseGraphPattern) -> bool:
    return set(one.triples) == set(other.triples) and replace(one, triples=()) == replace(other, triples=())


def _with_exception(question: str, understood: UnderstoodQuestion) -> UnderstoodQuestion:
    """Every reading of a question read without its named exception ("other than Marketing") with the
    exception put back (`understanding.repairs.with_named_exception`)."""
    pattern = with_named_exception(question, understood.pattern)
    alternatives = tuple(with_named_exception(question, a) for a in understood.alternatives)
    if pattern == understood.pattern and alternatives == understood.alternatives:
        return understood
    return replace(understood, pattern=pattern, alternatives=alternatives)


def _with_question(result: UnderstoodQuestion, question: str) -> UnderstoodQuestion:
    return replace(result, question=question)


_parser: QuestionParser | None = None
_parser_lock = threading.Lock()


def get_parser() -> QuestionParser:
    """The process-wide parser; nothing is loaded until the first question (or `load()`)."""
    global _parser
    with _parser_lock:
        if _parser is None:
            _parser = QuestionParser()
        return _parser
