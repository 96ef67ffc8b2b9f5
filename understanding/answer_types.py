"""Expected answer types from a question and its pattern.

The kind (date, number, boolean, string, resource) comes from the model's classifier or, in the
fallback, from the rules below; the semantic type is the class phrase of the answer (`?u1 | is a |
sea` -> "sea"). The same word lists turn gold predicates into gold kinds when training data is
derived (understanding.derive), so the model learns what these rules describe.
"""

from __future__ import annotations

import re
from typing import Any

from understanding.grading import is_grading_phrase, singular
from understanding.pgp import ANSWER, TEXT_OPERATORS, AnswerKind, AnswerType, PhraseGraphPattern, QuestionForm


def wordset(text: str) -> frozenset[str]:
    """A set of words written as one string, for readable word lists."""
    return frozenset(text.split())


# Attribute words whose values are dates, numbers or plain strings (matched on word stems).
DATE_WORDS = wordset("date year years birthday birthdate century decade dob")
PLACE_WORDS = wordset("place location city country region area venue site home residence address")
NUMBER_WORDS = wordset(
    "age population number count amount height weight length width depth area size elevation "
    "altitude price cost budget revenue income salary capacity rank ranking score rating total sum "
    "average percentage percent share speed distance duration runtime volume mass gross sales "
    "employees attendance points goals votes temperature density capital_amount quantity"
)
STRING_WORDS = wordset(
    "name names title titles label description email address url website homepage phone code "
    "abbreviation acronym nickname motto slogan id identifier isbn doi zip postcode text "
    "comment summary orcid"
)
_NUMBER_QUESTION = re.compile(
    r"^\s*(how (many|much|tall|high|long|big|old|large|deep|wide|heavy|far|often|fast)|what (is|was) the (number|total|average|sum|count))\b",
    re.I,
)
_DATE_QUESTION = re.compile(r"^\s*(when\b|(in )?(what|which) (year|date|day|month|decade|century)\b)", re.I)
_WORD = re.compile(r"[a-z]+")


def words(text: str) -> list[str]:
    """Lower-case words of a phrase or a predicate local name (camelCase and snake_case split)."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return _WORD.findall(spaced.lower())


def _stems(text: str) -> set[str]:
    out: set[str] = set()
    for word in words(text):
        out.add(word)
        if word.endswith("s") and len(word) > 3:
            out.add(word[:-1])
    return out


def kind_of_attribute(text: str) -> AnswerKind | None:
    """The value kind an attribute phrase or predicate name suggests ("birth date" -> date)."""
    stems = _stems(text)
    if stems & PLACE_WORDS and "address" not in stems:
        return None
    if stems & DATE_WORDS:
        return AnswerKind.DATE
    if stems & NUMBER_WORDS:
        return AnswerKind.NUMBER
    if stems & STRING_WORDS:
        return AnswerKind.STRING
    return None


def answer_class(pattern: PhraseGraphPattern) -> str | None:
    """The class phrase of the answer node, if the pattern names one."""
    for triple in pattern.triples:
        if triple.is_type and triple.subject == ANSWER:
            return triple.object
    return None


def owner_class(pattern: PhraseGraphPattern) -> str | None:
    """For an attribute answer (`?u2 | is a | heads ; ?u2 | age | ?u1`), the class of its owner. Things
    counted per answer own nothing ("Which country has the most suppliers?": not a supplier's country)."""
    counted = {c.node for c in pattern.comparisons if c.by_count}
    if pattern.ordering is not None and pattern.ordering.by_count:
        counted.add(pattern.ordering.node)
    for triple in pattern.triples:
        if triple.is_type or ANSWER not in triple.nodes():
            continue
        other = triple.object if triple.subject == ANSWER else triple.subject
        if other in counted:
            continue
        for inner in pattern.triples:
            if inner.is_type and inner.subject == other:
                return inner.object
    return None


def answer_relations(pattern: PhraseGraphPattern) -> list[str]:
    """Relations of the answer itself, not those leading to an ORDER BY or FILTER value."""
    modifiers = pattern.modified_nodes()
    return [
        t.relation for t in pattern.triples
        if not t.is_type and ANSWER in t.nodes() and not (set(t.nodes()) & modifiers)
    ]


def rule_kind(question: str, pattern: PhraseGraphPattern) -> AnswerKind:
    """The fallback's guess of the answer kind, from the form, the wh-phrase and the answer's relations."""
    if pattern.form is QuestionForm.BOOLEAN:
        return AnswerKind.BOOLEAN
    if pattern.form.is_aggregate and pattern.form in (QuestionForm.COUNT, QuestionForm.AVG, QuestionForm.SUM):
        return AnswerKind.NUMBER
    if _DATE_QUESTION.match(question):
        return AnswerKind.DATE
    if _NUMBER_QUESTION.match(question):
        return AnswerKind.NUMBER
    if answer_class(pattern) is None:
        for relation in answer_relations(pattern):
            kind = kind_of_attribute(relation)
            if kind is not None:
                return kind
    return AnswerKind.NUMBER if pattern.form.is_aggregate else AnswerKind.RESOURCE


def graded_thing(pattern: PhraseGraphPattern) -> bool:
    """Whether the answer is a thing ranked by a value a superlative alone names: "What is the heaviest
    product?" as `?u1 | heaviest | ?u2 :: order ?u2 desc 1` asks for the product, not its weight; or a
    group ranked by an average or a total of its members' values."""
    ordering = pattern.ordering
    if pattern.form is not QuestionForm.LIST or ordering is None or ordering.by_count or ordering.node == ANSWER:
        return False
    if ordering.aggregate is not None:  # groups ranked by an average or a total: the answer is the group
        return True
    return any(not t.is_type and set(t.nodes()) == {ANSWER, ordering.node} and is_grading_phrase(t.relation)
               for t in pattern.triples)


def compared_thing(pattern: PhraseGraphPattern, *, by_text: bool = False) -> bool:
    """Whether a list asks for things of a kind by a value of theirs compared with a number ("Which
    Resistors weigh less than 3 grams?") or, with `by_text`, matching a text ("Which employees have a
    phone number starting with +49?"): it asks for the things, not the value the model saw."""
    return pattern.form is QuestionForm.LIST and any(t.is_type and t.subject == ANSWER for t in pattern.triples) and \
        any(c.node != ANSWER and not c.by_count and (not by_text or c.operator in TEXT_OPERATORS)
            for c in pattern.comparisons)


_WHICH_OR_WHO = re.compile(r"^\s*(?:which|who)\b(?!\s+(?:number|amount|count)\b)", re.I)


def ranked_by_count(question: str, pattern: PhraseGraphPattern) -> bool:
    """Whether "Which/Who ..." ranks its answers by how many things of another unknown each has ("Which
    supplier offers the largest number of products?"): it asks for the ranked things, not the number."""
    ordering = pattern.ordering
    return pattern.form is QuestionForm.LIST and ordering is not None and ordering.by_count and \
        ordering.node != ANSWER and pattern.projection == (ANSWER,) and _WHICH_OR_WHO.match(question) is not None


def predicted_kind(kind: AnswerKind, pattern: PhraseGraphPattern, decoded: QuestionForm | None = None) -> AnswerKind:
    """The classifier's kind, unless the pattern shows the answer is a graded, matched or compared
    thing, not a value, or a repair made the `decoded` form an aggregate ("weigh together" read as a
    SUM): then a number."""
    if kind in (AnswerKind.NUMBER, AnswerKind.DATE) and (graded_thing(pattern) or compared_thing(pattern, by_text=True)):
        return AnswerKind.RESOURCE
    if kind is AnswerKind.NUMBER and compared_thing(pattern):
        return AnswerKind.RESOURCE
    if decoded is not None and decoded is not pattern.form and pattern.form.is_aggregate and \
            kind not in (AnswerKind.NUMBER, AnswerKind.DATE):
        return AnswerKind.NUMBER
    return kind


_PLACE_OR_PERSON_QUESTION = re.compile(r"^\s*(where|who|whom|whose)\b", re.I)


# "What is the price of ...?": the attribute asked for, before "of"
_ASKED_ATTRIBUTE = re.compile(r"^\s*(?:what|which)(?:'s|\s+is|\s+was|\s+are|\s+were)\s+the\s+(?P<attribute>[a-z]+)\s+of\b",
                              re.I)


# "What does the Sensor Warp cost?": a measuring verb asked about with "what"
_WHAT_DOES_MEASURE = re.compile(r"^\s*what\s+(?:does|do|did|would|will)\s+.+\s+(?:cost|weigh)\s*\?*\s*$", re.I)


def stated_kind(question: str, kind: AnswerKind) -> AnswerKind:
    """"Where ..." and "Who ..." ask for a place or a person, never a number or a date: the
    classifier's number or date for them becomes a resource. "What is the price of ...?" and "What
    does X cost?" ask for a number, whatever the classifier says of a string or a resource."""
    if kind in (AnswerKind.NUMBER, AnswerKind.DATE) and _PLACE_OR_PERSON_QUESTION.match(question):
        return AnswerKind.RESOURCE
    if kind in (AnswerKind.STRING, AnswerKind.RESOURCE) and _WHAT_DOES_MEASURE.match(question):
        return AnswerKind.NUMBER
    asked = _ASKED_ATTRIBUTE.match(question)
    if asked is not None and kind in (AnswerKind.STRING, AnswerKind.RESOURCE):
        attribute_kind = kind_of_attribute(asked.group("attribute"))
        if attribute_kind in (AnswerKind.NUMBER, AnswerKind.DATE):
            return attribute_kind
    return kind


_NOT_A_CLASS = wordset("type kind sort number name names amount percentage part parts one ones")


_IMPERATIVE_KIND = re.compile(r"^\s*(?:give\s+me|list|show(?:\s+me)?|name|find)\s+(?:all\s+)?(?:of\s+)?(?:the\s+|our\s+)?"
                              r"(?P<noun>[a-z]+s)\s+(?!of\b|and\b|or\b)[a-z]", re.I)


def wh_noun(doc: Any) -> str | None:
    """The noun a question's wh-determiner asks for ("Which suppliers are located in Ghana?" ->
    "suppliers", "In which country ..." -> "country", "How many suppliers ..." -> "suppliers"), or an
    imperative asks for ("Give me all suppliers located in Japan."), from a spaCy parse; None for
    "What is ...", "What type of ..." and the like."""
    tokens = list(doc)
    imperative = _IMPERATIVE_KIND.match(doc.text)
    if imperative is not None and imperative.group("noun").lower() not in _NOT_A_CLASS and \
            len(imperative.group("noun")) > 3:
        return imperative.group("noun")
    for token in tokens[:4]:
        following = tokens[token.i + 1] if token.i + 1 < len(tokens) else None
        if token.lower_ in ("which", "what") and token.dep_ == "pobj" and following is not None and \
                following.tag_ in ("NN", "NNS") and following.lower_ not in _NOT_A_CLASS:
            return following.text  # "In which city is ...", parsed with "which" as the preposition's object
        if token.lower_ == "many" and token.i > 0 and tokens[token.i - 1].lower_ == "how" and \
                token.head.pos_ in ("NOUN", "PROPN") and token.head.i > token.i:  # "How many suppliers ..."
            pass
        elif token.lower_ not in ("which", "what") or token.dep_ != "det" or token.head.pos_ not in ("NOUN", "PROPN"):
            continue
        head = token.head
        words = [t for t in head.subtree if t.i > token.i and t.i <= head.i]
        if not words or head.lower_ in _NOT_A_CLASS or any(t.pos_ in ("VERB", "AUX", "ADP") for t in words):
            return None
        return " ".join(t.text for t in words)
    return None


_ASKED_IN_PLURAL = re.compile(r"^\s*(?:what|which|who)\s+are\b", re.I)


def asks_for_several(question: str, pattern: PhraseGraphPattern, noun: str | None) -> bool:
    """Whether the question asks in the plural ("Which products have the highest price?", "What are
    the cheapest ..."): then every answer tied for first answers "the most/least ...", where "Which
    product has ...?" asks for one."""
    if _ASKED_IN_PLURAL.match(question):
        return True
    phrase = answer_class(pattern) or noun
    if not phrase:
        return False
    last = phrase.split()[-1].lower()
    return len(last) > 3 and singular(last) != last


def with_wh_class(answer_type: AnswerType, pattern: PhraseGraphPattern, noun: str | None) -> AnswerType:
    """A resource or string answer without a class phrase in its pattern takes the question's wh-noun
    as its semantic type, for filtering answers: "Which suppliers ..." decoded as `?u1 | suppliers |
    ?u2` still asks for suppliers. (Not part of the understood answer type itself: the derived gold
    names a semantic type only where its pattern has the class; with it there, dev answer-type
    accuracy fell from 0.895 to 0.860.)"""
    if noun is None or answer_type.semantic_type is not None or pattern.form is not QuestionForm.LIST or \
            answer_type.kind not in (AnswerKind.RESOURCE, AnswerKind.STRING):
        return answer_type
    return AnswerType(answer_type.kind, noun, answer_type.confidence)


def build_answer_type(kind: AnswerKind, pattern: PhraseGraphPattern, confidence: float = 1.0) -> AnswerType:
    """Attaches the semantic type (the answer's class phrase) to a predicted kind."""
    semantic: str | None = None
    if kind is AnswerKind.RESOURCE:
        semantic = answer_class(pattern)
    elif kind is AnswerKind.STRING:
        semantic = answer_class(pattern) or owner_class(pattern)
    return AnswerType(kind, semantic, confidence)
