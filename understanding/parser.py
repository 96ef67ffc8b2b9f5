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
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from gateway.errors import GatewayError
from understanding.answer_types import answer_class, build_answer_type, predicted_kind, stated_kind, wh_noun
from understanding.coverage import positive_question, unsupported_reason, with_negation
from understanding.grading import (
    SUPERLATIVE_DESCENDING,
    StatedOrdering,
    same_words,
    singular,
    stated_ordering,
)
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
    TYPE_RELATION,
    AnswerKind,
    PGPParseError,
    PhraseGraphPattern,
    PhraseTriple,
    QuestionForm,
    UnderstoodQuestion,
    is_unknown,
)
from understanding.repairs import chosen_reading, finished, kind_relation_reading, repaired
from understanding.syntax import (
    chain_reading,
    compared_with_named,
    coordinated_comparisons,
    coordinated_predicates,
    counted_chain_reading,
    counted_superlative_reading,
    kind_a_name_relates_to,
    kind_compared,
    kind_having_a_thing,
    kind_having_own,
    kind_of_an_owned_things_relation,
    kind_related_to_name,
    place_of_a_name,
    placed_kind_related,
    restricted_comparison,
    restricted_kind_related,
    same_as_named,
    stated_value_of_kind,
    superlative_reading,
    through_a_clause,
    value_as_attribute,
)

log = logging.getLogger(__name__)
# readers of the question's words alone (no parse): a question any of them reads gets the spaCy batch
_TEXT_READERS = (restricted_comparison, coordinated_comparisons, compared_with_named, kind_related_to_name,
                 through_a_clause, kind_of_an_owned_things_relation, value_as_attribute, place_of_a_name,
                 kind_having_a_thing, stated_value_of_kind, same_as_named, kind_a_name_relates_to,
                 restricted_kind_related, placed_kind_related, kind_compared, kind_having_own)

MAX_QUESTION_CHARS = 1000
MAX_ALTERNATIVES = 2  # readings after the best one kept for a second try (`UnderstoodQuestion.alternatives`)
MODEL_SWITCH = "KGQA_UNDERSTANDING_MODEL"  # "off" forces the fallback (for comparisons)
_HAS_WORD = re.compile(r"\w")
_OF = re.compile(r"\bof\b", re.I)
# a hop of a chain besides "of": "Yanka Schreiber's manager", "the product manager for product X"
_CHAIN_LINK = re.compile(r"\b(?!(?:what|who|where|how|that|it|there|here|he|she)'s)[A-Za-z]+'s\b|\bfor\b", re.I)
# "... and are supplied from Japan": a second condition on the answer (not "Bennett, Best and Jacobson")
_TWO_NUMBERS = re.compile(r"\d.*\band\b.*\d")  # two compared values ("wider than 75 mm and lower than 20 mm")
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


# "the bill of material PulseCraft Vertex": a kind of two words joined by "of" before a name, which the
# model splits across the pattern ("?u1 | bill | material PulseCraft Vertex"); the name alone says it
_KIND_OF_KIND_BEFORE_NAME = re.compile(
    r"\b(?P<preposition>in|of|from|for|to|on|at|with|by) the [a-z]+ of "
    r"(?!(?:the|a|an|our|their|its|product|all|which|whom|whose|that)\b)[a-z]+ (?=[A-Z0-9])")


# "the PulseCraft Vertex bill of material", "the Mechtron SynthWave BOM": the same kind after the name
_KIND_OF_KIND_AFTER_NAME = re.compile(
    r"\b(?P<preposition>in|of|from|for|to|on|at|with|by) the (?P<name>[A-Z0-9][\w-]*(?: [A-Z0-9][\w-]*)*?)"
    r" (?:[a-z]+ of [a-z]+|[A-Z]{2,5})(?=\s+[a-z]|\s*[?.,!]|$)")
_QUESTION_WORDS = "which|what|who|whom|whose|where|when|how|is|are|was|were|do|does|did|can|has|have"
_ASKING = r"(?i:" + _QUESTION_WORDS + r"|list|give|show|name)\b"  # a question or an imperative starts so
# "I have a customer in Zurich asking about local sourcing - which of our products ...?": the context
# before the question, told first and not itself a question; a new sentence starts with a capital
_TOLD_FIRST = re.compile(r"^(?!\s*" + _ASKING + r")[^?]*?(?:\s[-\u2013\u2014]\s|:\s+|(?<=[a-z]{2})[.;!]\s+(?=[A-Z]))"
                         r"(?P<asked>" + _ASKING + r"[^?]*\?)\s*$")
# "Which of our hardware products come from ...?" asks what "Which hardware products ...?" asks; the
# model, trained on few such questions, makes the things asked among an intermediate node
_WHICH_OF_OUR = re.compile(r"^(?P<wh>which|what)\s+of\s+(?:all\s+)?(?:our|the)\s+"
                           r"(?!(?:two|three|four|five|following|above|below|these|those)\b)(?=(?:[a-z-]+\s+){0,2}[a-z]+s\s+(?!of\b)[a-z])",
                           re.IGNORECASE)
# "Cheapest sensor?", "Most reliable resistor from Japan?": a superlative noun phrase asked alone
_ELLIPTIC_SUPERLATIVE = re.compile(r"^\s*(?:the\s+)?(?P<phrase>(?:most|least)\s+[a-z]+\s+[a-z]|(?P<word>[a-z]+)\s+[a-z])",
                                   re.IGNORECASE)
_STATED_VERB = re.compile(r"\b(?:is|are|was|were|do|does|did|has|have|had)\b", re.IGNORECASE)
# "wider than 75 mm but less than 15 mm high": "but" joins two comparisons as "and" does
_BUT_COMPARED = re.compile(r"(?<=\d)(?P<unit>\s*[a-zA-Z\u20ac$%]*)\s+but\s+(?=(?:less|more|[a-z]+er)\s+than\b)")
# "For each country, what is the average age of the singers?": the group put first, read after the question
_GROUP_FIRST = re.compile(r"^\s*(?P<group>(?i:for|in)\s+(?i:each|every)\s+[^,?]+?),\s*(?P<asked>" + _ASKING +
                          r"[^?]*?)\s*(?P<end>[?.!]?)\s*$")
_ASKED = re.compile(r"(?i:" + _QUESTION_WORDS + r"|in|on|at|from|for)\b")  # a question ("In which city ..."), not an imperative
# "In which country is the supplier of the cheapest sensor located?": the place of a thing described by a
# superlative (the model reads "the supplier of X" well, the chain to a superlative not)
_PLACE_OF_A_DESCRIBED_THING = re.compile(r"^\s*(?:in|at)\s+which\s+(?P<kind>[a-z]+)\s+(?:is|are|was|were)\s+"
                                         r"(?P<thing>the\s+[a-z].*?\s+of\s+.+?)\s+(?:located|based|situated|headquartered)\s*\?\s*$",
                                         re.IGNORECASE)
# what a verb after "which" starts ("which is ...", "which costs the most"), not a noun ("which category has")
_VERB_ASKED = (r"(?:is|are|was|were|has|have|had|does|do|did|can)\b|[a-z]+s\s+(?:the|a|an|more|most|less|least|"
               r"fewest|over|under)\b")
# "Among the products whose supplier is in Japan, which one costs the most?", "Of the products the Marketing
# department is responsible for, which one is the heaviest?", "Among the switches, which product has the best
# reliability index?": the kind, restricted, asked directly (a superlative as "What is the heaviest product
# that ...?"); a name in the restriction may hold commas, so the last ", which" ends it
_AMONG_WHICH_ONE = re.compile(r"^\s*(?:among|of)\s+(?:all\s+)?(?:the\s+|our\s+|these\s+|those\s+)?"
                              r"(?P<kind>(?:[a-z]+\s+(?!(?:the|a|an|our|its|their)\b)(?=[a-z]+s\b))?[a-z]+s)\b"
                              r"(?:\s+(?P<rest>[^?]+?))?,\s*which(?:\s+one|\s+of\s+(?:them|these)|\s+(?!" + _VERB_ASKED + r")(?P<noun>[a-z]+))?"
                              r"\s+(?P<asked>[a-z].*)$", re.IGNORECASE)
_AMONG_ANY_OF = ("product", "products", "item", "items", "ones")  # "which product" among switches asks for a switch
_AMONG_RELATIVE = re.compile(r"(?:whose|that|which|who|whom|from|of|in|on|at|with|without|by|for|under|over|"
                             r"[a-z]+ed|[a-z]+ing)\b")
_ASKED_BY_VERB = re.compile(_VERB_ASKED + r"|[a-z]+(?:s|ed)\b(?!\s+(?:is|are|was|were|has|have|does|do)\b)")
_SINGULAR_VERB = re.compile(r"(?:is|was|has|does)\b|[a-z]+[^s\W]s\b")
_IS_THE_SUPERLATIVE = re.compile(r"^(?:is|was)\s+the\s+(?P<grade>(?:most|least)\s+[a-z]+|[a-z]+est|best|worst)\s*[?.!]?$",
                                 re.IGNORECASE)
# "furthest south", "the most northern", "northernmost": the extreme of a coordinate; "north of 60 degrees
# latitude", "south of the equator": a bound on it (the coordinate's words are what graphs name them by)
_COMPASS = {"north": ("latitude", True), "south": ("latitude", False), "east": ("longitude", True),
            "west": ("longitude", False)}
_COMPASS_EXTREME = re.compile(r"\b(?:(?:is|are|was|were)\s+)?(?:(?:located|situated|based|lying|lies|lie)\s+)?(?:the\s+)?"
                              r"(?:furthest|farthest|most)\s+(?:to\s+the\s+)?(?P<direction>north|south|east|west)"
                              r"(?:ern|wards?)?\b(?!\s+of\b)", re.IGNORECASE)
_COMPASS_MOST = re.compile(r"\b(?:(?P<direction>north|south|east|west)ernmost|most\s+(?P<adjective>north|south|east|west)ern)"
                           r"\s+(?P<noun>[a-z]+(?:\s+[a-z]+s)?)\b(?P<place>\s+(?:in|from|of)\s+(?:the\s+)?"
                           r"[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*)*)?", re.IGNORECASE)
_COMPASS_BOUND = re.compile(r"\b(?P<copula>(?:is|are|was|were|lies|lie)\s+)?(?:(?:located|situated|based|lying)\s+)?"
                            r"(?:(?:further|farther|more)\s+)?(?P<direction>north|south|east|west)(?:ern)?\s+(?:of|than)\s+(?:(?P<value>-?\d+(?:\.\d+)?)\s*(?:degrees|°)?"
                            r"(?:\s*(?P<hemisphere>north|south|east|west|[NSEW])(?:ern)?\b)?(?:\s+(?:latitude|longitude)\b)?"
                            r"|the\s+(?:equator|prime\s+meridian|greenwich\s+meridian|meridian))", re.IGNORECASE)
# "for more hardware products than anyone else", "fewer employees than any other department": the most, fewest
_MORE_THAN_ANY = re.compile(r"\b(?P<more>more|fewer|less)\s+(?P<things>[a-z]+(?:\s+[a-z]+){0,2}?)\s+than\s+"
                            r"(?:any(?:one|body|thing)?(?:\s+else)?|any\s+other(?:\s+[a-z]+)?|all\s+(?:the\s+)?others|"
                            r"every(?:one|body|thing)\s+else)(?=\s*[?.!,]|$)", re.IGNORECASE)
# "For which products can the X service be booked?", "To which department does X belong?": the preposition
# put back after the verb, as the readers of "Which products is X responsible for?" read it
_PREPOSITION_FIRST = re.compile(r"^\s*(?P<preposition>for|to|with|from|by|about)\s+(?P<wh>which|what|how\s+many)\s+(?P<kind>[a-z]+(?:\s+[a-z]+)?)"
                                r"\s+(?P<rest>(?:is|are|was|were|does|do|did|can|could|may|will)\s+[^?]+?)\s*\?\s*$",
                                re.IGNORECASE)
# "Which part is needed in the largest quantity in the bill of material X?" (or "In X, which part is needed in
# the largest quantity?"): the parts' quantity ranked, not a count of them
_NEEDED = (r"(?:is|are)\s+(?:needed|used|required|included|contained)\s+in\s+the\s+"
           r"(?P<grade>largest|highest|greatest|biggest|smallest|lowest)\s+(?:quantity|amount|number)")
_QUANTITY_RANKED = (
    re.compile(r"^\s*(?P<wh>which|what)\s+(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s+" + _NEEDED +
               r"\s+(?:in|within|of|for)\s+(?P<place>[^?]+?)\s*\?\s*$", re.IGNORECASE),
    re.compile(r"^\s*(?:in|within|for)\s+(?P<place>[^,]+),\s*(?P<wh>which|what)\s+(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s+" +
               _NEEDED + r"\s*\?\s*$", re.IGNORECASE),
)
# "the bill of material of the NexaCore Integrator": the kind and its "of the" before the name
_KIND_OF_KIND_OF_THE = re.compile(r"\b(?P<preposition>in|of|from|for|to|on|at|with|by) the [a-z]+ of [a-z]+ of (?:the\s+)?(?=[A-Z0-9])")
# "For how many hardware products is no reliability index recorded?": the things that have none
_NONE_RECORDED = re.compile(r"^\s*for\s+how\s+many\s+(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|are)\s+no\s+(?P<thing>[a-z]+(?:\s+[a-z]+){0,2}?)\s+"
                            r"(?:recorded|stored|given|listed|known|available|specified|on\s+record|on\s+file)\s*\?\s*$", re.IGNORECASE)
# "On average, how many parts does a bill of material list?": per bill of material, as "each" says it
_ON_AVERAGE_A = re.compile(r"^(?P<head>\s*on\s+average,?\s+how\s+many\s+.+?\s+(?:does|do|did)\s+)(?:a|an|one)\s+", re.IGNORECASE)
# "the largest number of hardware products that a single supplier provides", "... supplied by one supplier":
# the extreme of a count per supplier
_COUNT_PER_ONE = re.compile(r"\b(?P<head>(?:largest|highest|greatest|biggest|maximum|max|smallest|lowest|minimum|min)\s+"
                            r"(?:number|count|amount)\s+of\s+[a-z]+(?:\s+[a-z]+)?)\s+(?:(?:that|which)\s+(?:a|an|one|any)\s+"
                            r"(?:single\s+)?(?P<group>[a-z]+)\s+[a-z]+(?:\s+[a-z]+)?|[a-z]+ed\s+by\s+(?:a|an|one|any)\s+"
                            r"(?:single\s+)?(?P<agent>[a-z]+)|(?:in|within|on)\s+(?:a|an|one|any)\s+(?:single\s+)?"
                            r"(?P<container>[a-z]+(?:\s+of\s+[a-z]+)?))(?=\s*[?.!]?\s*$)", re.IGNORECASE)
# "the best reliability index" (the highest), "the lightest weight" (the lowest), "... among the products" (of)
_GRADED_MEASURE = re.compile(r"\bthe\s+(?:(?P<good>best|worst)\s+(?P<quality>reliability index|reliability|rating|score|quality)|"
                             r"(?P<light>lightest|heaviest)\s+weight|(?P<cheap>cheapest|most\s+expensive)\s+price)\b",
                             re.IGNORECASE)
_MEASURE_AMONG = re.compile(r"\b(?P<measure>(?:lowest|highest|smallest|largest|minimum|maximum)\s+[a-z]+(?:\s+[a-z]+)?)\s+among\s+"
                            r"(?=(?:the|all|our)\b)", re.IGNORECASE)
# "What does the most reliable product in the Warp category cost?", "How much does ... weigh?": the value of
# the thing a superlative describes asked as its attribute
_VERB_OF_THE_BEST = re.compile(r"^\s*(?:what|how\s+much)\s+(?:does|do|did)\s+(?P<thing>the\s+(?:most|least|[a-z]+est)\b.+?)\s+"
                               r"(?P<verb>cost|weigh)\s*\?\s*$", re.IGNORECASE)
_VERB_VALUE = {"cost": "price", "weigh": "weight"}
# "the largest quantity of a single part": "single" and "individual" only stress the article
_SINGLE = re.compile(r"\b(?P<article>a|an|one|each|any|every)\s+(?:single|individual)\s+(?=[a-z])", re.IGNORECASE)
# "How many units of parts in total are needed to build X?", "the total number of component units": the
# summed quantity, which graphs keep as a value of each part line ("quantity"), not as things to count
_UNITS_IN_TOTAL = re.compile(r"^\s*how\s+many\s+(?:units|pieces)(?:\s+of\s+(?P<things>[a-z]+(?:\s+[a-z]+)?))?\s+"
                             r"(?:in\s+total|altogether|overall|in\s+all)\s+(?:(?:are|is|were|was|do|does)\s+)?(?P<rest>.+)$",
                             re.IGNORECASE)
_TOTAL_UNITS = re.compile(r"\btotal\s+number\s+of\s+(?:[a-z]+\s+)?(?:units|pieces)\b", re.IGNORECASE)
# "furthest west, i.e. has the smallest longitude": a restatement of what was just asked, left out
_RESTATED = re.compile(r"\s*(?:,\s*|\s\()(?:i\.\s?e\.|that is,|in other words,?|(?:summing|adding|counting|taking)\s+(?:up\s+)?"
                       r"(?:the|all|its|their)\b)[^),?]*\)?(?=\s*[?.!]?\s*$)", re.IGNORECASE)
# "the average price in EUR of ...": the unit after the attribute says nothing the attribute does not
_UNIT_AFTER_ATTRIBUTE = re.compile(r"\b(?P<attribute>price|cost|weight|height|width|depth|length)\s+in\s+(?:EUR|euros?|USD|dollars?|"
                                   r"grams?|g|kg|kilograms?|mm|cm|millimet(?:er|re)s|centimet(?:er|re)s)\b", re.IGNORECASE)
_REFERS_BACK = re.compile(r"\b(?:their|its|his|her|them|they|it|he|she|this|that|these|those|there)\b", re.IGNORECASE)


def _graded_measure(found: re.Match[str]) -> str:
    """"the best reliability index" -> "the highest reliability index", "the lightest weight" -> "the
    lowest weight", "the cheapest price" -> "the lowest price"."""
    if found.group("good"):
        return f"the {'highest' if found.group('good').lower() == 'best' else 'lowest'} {found.group('quality')}"
    if found.group("light"):
        return f"the {'lowest' if found.group('light').lower() == 'lightest' else 'highest'} weight"
    return f"the {'lowest' if found.group('cheap').lower() == 'cheapest' else 'highest'} price"


def _among_asked_directly(question: str) -> str:
    """"Among the <things> <restriction>, which one <asked>" as "Which <things> <restriction> <asked>", and
    "..., which one is the heaviest?" as "What is the heaviest <thing> <restriction>?"; unchanged where the
    noun after "which" asks for another kind ("Among hardware products, which category ...")."""
    among = _AMONG_WHICH_ONE.match(question)
    if among is None:
        return question
    kind, rest, noun = among.group("kind"), among.group("rest") or "", (among.group("noun") or "").lower()
    if noun and (noun not in _AMONG_ANY_OF and singular(noun) != singular(kind.split()[-1].lower())
                 or not _ASKED_BY_VERB.match(among.group("asked"))):  # "which product category has ..."
        return question
    if rest and not _AMONG_RELATIVE.match(rest):  # "the Marketing department is responsible for": a clause
        rest = "that " + rest
    if not rest and noun in _AMONG_ANY_OF:  # "Among the switches, which product ...": the switches are asked
        noun = ""
    superlative = _IS_THE_SUPERLATIVE.match(among.group("asked"))
    if superlative is not None:
        words = kind.split()
        return " ".join(["What is the", superlative.group("grade"), *words[:-1], singular(words[-1]), rest]).strip() + "?"
    asked = among.group("asked")
    if _SINGULAR_VERB.match(asked):  # "which one costs the most": one thing asked, "Which product ... costs ..."
        words = kind.split()
        kind = " ".join([*words[:-1], singular(words[-1])])
    return " ".join(["Which", kind, rest, asked]).replace("  ", " ")


def _compass_read_as_coordinates(question: str) -> str:
    """"Which supplier is located furthest south?" as "Which supplier has the lowest latitude?", "the
    northernmost supplier" as "the supplier with the highest latitude", "suppliers located north of 60
    degrees" as "suppliers with a latitude greater than 60"."""
    def extreme(found: re.Match[str]) -> str:
        coordinate, up = _COMPASS[found.group("direction").lower()]
        return f"has the {'highest' if up else 'lowest'} {coordinate}"

    def most(found: re.Match[str]) -> str:
        coordinate, up = _COMPASS[(found.group("direction") or found.group("adjective")).lower()]
        place = found.group("place") or ""
        end = "." if place.endswith(".") else ""  # "... in Canada.": the sentence's stop stays last
        return f"{found.group('noun')}{place.removesuffix('.')} with the {'highest' if up else 'lowest'} {coordinate}{end}"

    def bound(found: re.Match[str]) -> str:
        coordinate, up = _COMPASS[found.group("direction").lower()]
        value = found.group("value") or "0"
        if (found.group("hemisphere") or "n")[0].lower() in "sw" and not value.startswith("-"):
            value = "-" + value  # "30 degrees south": -30
        return f"{'have' if found.group('copula') else 'with'} a {coordinate} {'greater' if up else 'less'} than {value}"

    question = _COMPASS_MOST.sub(most, question)
    question = _COMPASS_EXTREME.sub(extreme, question)
    return _COMPASS_BOUND.sub(bound, question)


def read_text(question: str) -> str:
    """The question as the model and the readers read it: capitalised and ended by "?" (or "." after
    an imperative) where it was not, the context told before the question left
    out, a group put first ("For each country, what is ...?") put after the question, "Which of our
    <things>" read as "Which <things>", a superlative asked alone ("Cheapest
    sensor?") as "What is the cheapest sensor?", "but" between comparisons as "and", and a kind joined
    by "of" (or an acronym) before or after a name left out ("the parts of the bill of material
    PulseCraft Vertex" or "of the PulseCraft Vertex BOM" -> "the parts of PulseCraft Vertex"), "In which
    country is the supplier of the cheapest X located?" as "What is the country of the supplier of the
    cheapest X?", "Among/Of the products ..., which one ..." asked directly, compass directions as
    coordinates ("furthest south": the lowest latitude), "more X than anyone else" as "the most X", "how
    many units in total" as the total quantity, "a single part" as "a part", "For which X can Y be booked?"
    as "Which X can Y be booked for?", and a restatement after "i.e." left out; the understood question keeps the words as asked."""
    question = question[:1].upper() + question[1:]  # "how many people work in Data Services" as asked formally
    if question[-1:].isalnum():
        question += "?" if _ASKED.match(question) else "."
    told = _TOLD_FIRST.match(question)
    asked = told.group("asked") if told is not None else question
    if asked != question and _REFERS_BACK.search(asked) is None:  # "... - what's their email?" needs the context
        question = asked[:1].upper() + asked[1:]
    grouped = _GROUP_FIRST.match(question)
    if grouped is not None:
        asked = grouped.group("asked")
        group = grouped.group("group")
        question = f"{asked[:1].upper()}{asked[1:]} {group[:1].lower()}{group[1:]}{grouped.group('end') or '?'}"
    question = _WHICH_OF_OUR.sub(lambda found: found.group("wh") + " ", question)
    elliptic = _ELLIPTIC_SUPERLATIVE.match(question)
    word = (elliptic.group("word") or "most").lower() if elliptic is not None else ""
    if word in SUPERLATIVE_DESCENDING and word not in ("first", "best", "max", "min") and \
            _STATED_VERB.search(question) is None:
        phrase = question[elliptic.start("phrase"):]
        question = "What is the " + phrase[:1].lower() + phrase[1:]
    question = _RESTATED.sub("", question)
    question = _UNIT_AFTER_ATTRIBUTE.sub(lambda found: found.group("attribute"), question)
    question = _COUNT_PER_ONE.sub(lambda found: f"{found.group('head')} per "
                                                f"{found.group('group') or found.group('agent') or found.group('container')}", question)
    question = _SINGLE.sub(lambda found: found.group("article") + " ", question)
    question = _GRADED_MEASURE.sub(_graded_measure, question)
    if (best := _VERB_OF_THE_BEST.match(question)) is not None:
        question = f"What is the {_VERB_VALUE[best.group('verb').lower()]} of {best.group('thing')}?"
    question = _MEASURE_AMONG.sub(lambda found: found.group("measure") + " of ", question)
    if (none := _NONE_RECORDED.match(question)) is not None:
        question = f"How many {none.group('kind')} have no {none.group('thing')}?"
    question = _ON_AVERAGE_A.sub(lambda found: found.group("head") + "each ", question)
    for shape in _QUANTITY_RANKED:
        if (ranked := shape.match(question)) is not None:
            question = (f"{ranked.group('wh').capitalize()} {ranked.group('kind')} in {ranked.group('place').strip()} "
                        f"has the {ranked.group('grade').lower()} quantity?")
            break
    question = _KIND_OF_KIND_OF_THE.sub(r"\g<preposition> ", question)
    stranded = _PREPOSITION_FIRST.match(question)
    if stranded is not None:
        question = (f"{stranded.group('wh').capitalize()} {stranded.group('kind')} {stranded.group('rest')} "
                    f"{stranded.group('preposition').lower()}?")
    units = _UNITS_IN_TOTAL.match(question)
    if units is not None:
        question = f"What is the total quantity of {units.group('things') or 'parts'} {units.group('rest')}"
    question = _TOTAL_UNITS.sub("total quantity of parts", question)
    question = _compass_read_as_coordinates(question)
    question = _MORE_THAN_ANY.sub(lambda found: f"the {'most' if found.group('more').lower() == 'more' else 'fewest'} "
                                                f"{found.group('things')}", question)
    question = _BUT_COMPARED.sub(lambda found: found.group("unit") + " and ", question)
    placed = _PLACE_OF_A_DESCRIBED_THING.match(question)  # "In which country is the supplier of ... located?"
    if placed is not None and stated_ordering(placed.group("thing")) is not None:  # of the cheapest ...: a chain
        question = f"What is the {placed.group('kind')} of {placed.group('thing')}?"
    question = _among_asked_directly(question)
    question = _KIND_OF_KIND_AFTER_NAME.sub(r"\g<preposition> \g<name>", question)
    return _KIND_OF_KIND_BEFORE_NAME.sub(r"\g<preposition> ", question)


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
            results = self._understand([read_text(t) for t in texts])
        with self._cache_lock:
            for text, result in zip(texts, results, strict=True):
                self._cache[text] = result
                self._cache.move_to_end(text)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def _understand(self, texts: list[str]) -> list[UnderstoodQuestion]:
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
        return [_finished(r) for r in self._with_negations(understood)]

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
        negated = {i: found for i, r in enumerate(results)
                   if r.unsupported and r.unsupported.startswith("negation")
                   and (found := positive_question(r.question)) is not None}
        if not negated:
            return results
        readings = self._understand([found[0] for found in negated.values()])
        for (i, (_, words)), reading in zip(negated.items(), readings, strict=True):
            # "Which suppliers are not ..." read as `?u1 | suppliers | ?u2 ; ?u2 | ...`: the negation is
            # of the suppliers themselves
            positive = kind_relation_reading(reading.pattern, reading.wh_noun) or reading.pattern
            pattern = with_negation(positive, words) if reading.source == "model" else None
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
            or _COORDINATED.search(r.question)
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
        compared = coordinated_comparisons(understood.question)
        if compared is not None:  # "Which products are wider than 75 mm and lower than 20 mm?"
            return compared, AnswerKind.NUMBER if compared.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        named = compared_with_named(understood.question)  # "Which services are cheaper than Predictive Maintenance?"
        if named is not None:  # the model has no comparison of two values: its reading is never this one
            return named, AnswerKind.RESOURCE
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
        own = kind_having_own(understood.question)  # "How many hardware products have a compatible product?"
        if own is not None and not _says_all(understood.pattern, own):
            return own, AnswerKind.NUMBER if own.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        same = same_as_named(understood.question)  # "Which suppliers are in the same country as Neal LLC?"
        if same is not None and not _same_reading(same, understood.pattern):
            return same, AnswerKind.NUMBER if same.form is QuestionForm.COUNT else None
        place = place_of_a_name(understood.question)  # "In which city is Drake Ltd located?"
        if place is not None and not _same_reading(place, understood.pattern):
            return place, None
        stranded = kind_of_an_owned_things_relation(understood.question)  # "Which department is the manager of X a member of?"
        if stranded is not None and not _same_reading(stranded, understood.pattern):
            return stranded, None
        clause = through_a_clause(understood.question)  # "products whose product manager sits in X"
        if clause is not None and not _same_reading(clause, understood.pattern) and (
                not _says_all(understood.pattern, clause)
                or len(understood.pattern.unknowns()) < len(clause.unknowns())):  # the chain folded into one edge
            return clause, AnswerKind.NUMBER if clause.form is QuestionForm.COUNT else None
        related = kind_related_to_name(understood.question)  # "Which products are compatible with X?"
        if related is not None and not _same_reading(related, understood.pattern) and \
                not _says_all(understood.pattern, related):
            return related, AnswerKind.NUMBER if related.form is QuestionForm.COUNT else None
        relating = kind_a_name_relates_to(understood.question)  # "Which products is the Production department
        if relating is not None and not _same_reading(relating, understood.pattern) and \
                not _says_all(understood.pattern, relating):  # responsible for?"
            return relating, AnswerKind.NUMBER if relating.form is QuestionForm.COUNT else None
        placed = placed_kind_related(understood.question)  # "Which suppliers based in Germany supply products
        if placed is not None and not _says_all(understood.pattern, placed):  # in the Sensor category?"
            return placed, None
        both = restricted_kind_related(understood.question)  # "Which members of the Marketing department are
        if both is not None and not _says_all(understood.pattern, both):  # experts in capacitors?"
            return both, None
        compared = kind_compared(understood.question)  # "Which French suppliers have a latitude below 44?"
        if compared is not None and not _says_kind(understood.pattern, compared):  # the model lost the kind
            return compared, AnswerKind.NUMBER if compared.form is QuestionForm.COUNT else AnswerKind.RESOURCE
        restricted = restricted_comparison(understood.question)  # "products from X that cost under 2 EUR?"
        if restricted is not None and not _same_reading(restricted, understood.pattern):
            if not _says_all(understood.pattern, restricted) or not understood.pattern.comparisons:
                return restricted, AnswerKind.RESOURCE
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


def _grouped(understood: UnderstoodQuestion, group: GroupNoun) -> tuple[UnderstoodQuestion, bool]:
    """The question answered per group, its readings grouped; an average (or extreme) of the counts per
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
    readings = grouped_readings([understood.pattern, *understood.alternatives], group)
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


def _says_all(model: PhraseGraphPattern, reading: PhraseGraphPattern) -> bool:
    """Whether the model's reading says every word of the parse's (its relations, classes and names)."""
    said = {w for t in model.triples for phrase in t.nodes() + (t.relation,) if not is_unknown(phrase)
            for w in phrase.lower().split()}
    return all(w in said for t in reading.triples for phrase in t.nodes() + (t.relation,)
               if not is_unknown(phrase) and phrase != TYPE_RELATION for w in phrase.lower().split())


def _says_kind(model: PhraseGraphPattern, reading: PhraseGraphPattern) -> bool:
    """Whether the model's reading names every word of the reading's kinds ("French suppliers")."""
    said = {w for t in model.triples for phrase in t.nodes() + (t.relation,) if not is_unknown(phrase)
            for w in phrase.lower().split()}
    return all(w in said for t in reading.triples if t.is_type for w in t.object.lower().split())


def _chained_name(pattern: PhraseGraphPattern) -> bool:
    """Whether a name hangs off an unknown that is not the answer but hangs off the answer
    (`?u1 | grams | ?u2 ; ?u2 | supplied from | Japan`)."""
    near = {n for t in pattern.triples if not t.is_type and ANSWER in t.nodes() for n in t.nodes() if n != ANSWER}
    return any(not t.is_type and any(is_unknown(n) and n in near for n in t.nodes())
               and any(not is_unknown(n) for n in t.nodes()) for t in pattern.triples)


def _finished(understood: UnderstoodQuestion) -> UnderstoodQuestion:
    """Every reading with the repairs applied last (`understanding.repairs.finished`)."""
    best = finished(understood.question, understood.pattern)
    alternatives = tuple(finished(understood.question, a) for a in understood.alternatives)
    if best == understood.pattern and alternatives == understood.alternatives:
        return understood
    answer_type = build_answer_type(understood.answer_type.kind, best, understood.answer_type.confidence) \
        if answer_class(best) != answer_class(understood.pattern) else understood.answer_type  # a kind it added
    return replace(understood, pattern=best, alternatives=alternatives, answer_type=answer_type)


def _conditions_of_answer(pattern: PhraseGraphPattern) -> int:
    """How many conditions a reading puts on the answer itself, 0 when any relation is elsewhere."""
    relations = [t for t in pattern.triples if not t.is_type]
    if any(ANSWER not in t.nodes() for t in relations) or pattern.form is not QuestionForm.LIST:
        return 0
    return len(relations)


def _same_reading(one: PhraseGraphPattern, other: PhraseGraphPattern) -> bool:
    return set(one.triples) == set(other.triples) and replace(one, triples=()) == replace(other, triples=())


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
