"""The KGQAN answer path: question -> phrase graph pattern -> just-in-time linking -> ranked SPARQL ->
execution -> answers filtered by type, with the evidence of every step.

Nothing is pre-computed per graph: each question costs a handful of SPARQL requests (one text search
per entity phrase, one literal lookup, one predicate lookup for all vertices, one each for the
two-hop readings (through a value's holder, through an intermediate node next to a vertex, to the numeric attribute
of an ordered thing), the predicate and class descriptions, then the candidate queries in waves), all
counted with `counting_requests()`. Imperfect patterns are repaired first (`linking.relaxation`) and
read several ways (a class phrase as a class, a value or a name; a relation phrase as a class), each
reading discounted so that Eq. 2 ranks the best-supported one first.
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pyoxigraph as ox

from gateway.discovery import WELL_KNOWN_LABELS
from gateway.endpoint import Endpoint
from gateway.errors import GatewayError, RequestBudgetSpent, SparqlError
from gateway.models import XSD, Answer, AnswerStatus, PathResult
from gateway.qa import AskOptions
from gateway.sparql import (
    SelectResult,
    Term,
    counting_requests,
    optional_select,
    sharing_results,
    term_to_sparql,
)
from gateway.textsearch import RDFS_LABEL
from linking.affinity import AffinityScorer, default_scorer, split_words
from linking.entities import (
    RDF_TYPE,
    YEAR,
    EntityLinker,
    LinkedEntity,
    NodeLinks,
    iri_words,
    is_value_phrase,
    kind_heads,
    local_name,
    records_of,
)
from linking.execution import ExecutedQuery, QueryExecutor, readable_alternative, select_answer, term_key
from linking.filtering import AnswerTypeFilter, FilterOutcome
from linking.naming import OWN_NAME_SCORE, EntityNamer, Naming, naming_score
from linking.queries import (
    FAMILY_COLUMN,
    CandidateQuery,
    EdgeLinks,
    LinkedPattern,
    QueryBuilder,
    answers_are_many,
    companion_values,
    ranked_owner,
    reading_factor,
    union_candidate,
    union_query,
    unlabelled,
    valued_nodes,
)
from linking.relations import (
    HOP_FACTOR,
    IN,
    OUT,
    PATH_FACTOR,
    LinkedPredicate,
    PredicateSet,
    RelationLinker,
    literal_predicates,
    table_of,
    union,
)
from linking.relaxation import (
    counted_as_attribute,
    is_count_attribute,
    named_as_itself,
    read_as_classes,
    read_as_years,
    relax,
)
from linking.split import (
    Alternatives,
    alternatives_asked,
    both_asked,
    both_compared,
    but_not_asked,
    one_of,
    said_name,
    two_names_asked,
)
from understanding.answer_types import (
    asks_for_several,
    build_answer_type,
    graded_thing,
    kind_of_attribute,
    with_wh_class,
)
from understanding.demonyms import country_of, state_code_of
from understanding.grading import same_words, singular
from understanding.pgp import (
    ANSWER,
    NEGATION,
    TYPE_RELATION,
    AnswerKind,
    AnswerType,
    PhraseGraphPattern,
    PhraseTriple,
    QuestionForm,
    UnderstoodQuestion,
    is_unknown,
    node_degrees,
)
from understanding.repairs import (
    adds_a_class,
    chosen_reading,
    common_word_values,
    compound_kinds,
    coordinated_names,
    dropped_values,
    holder_kind_reading,
    kind_relation_reading,
    relation_kind_reading,
    swallowed_values,
    with_attribute_named,
    with_compound_kind,
    with_counted_relation,
    with_dropped_value,
    with_named_by_its_kind,
    with_swallowed_value,
    with_whole_name,
)

NAME = "kgqan"
CONTAINER_CLASSES = ("list", "seq", "bag", "alt", "collection", "container")
MEMBER_FACTOR = 1.01  # a container's members read through it are what is asked, a little ahead of the container
COUNTED_ALTERNATIVES = 5000  # how many things each alternative of a count question may list
MERGE_MIN_SCORE = 0.7  # a relation phrase must name a class this clearly to be read as one
# Two-hop readings (through a value's holder or an intermediate node) are many: only those whose
# predicate fits the relation phrase well, and a few per first hop, compete with the direct ones.
MIN_HOP_SCORE = 0.2
# a relation phrase saying that one thing holds or uses another ("use", "contain", "include", "need"), which a
# graph may keep as records between the two (a bill of material's part lines)
_CONTAINING = re.compile(r"^(?:uses?|used|using|contains?|contained|containing|includes?|included|including|needs?|"
                         r"needed|requires?|required|comprises?|consists? of|lists?|features?)(?: in)?$", re.IGNORECASE)
# ... and one saying the other way round that a thing is held ("the hardware products in the BOM X")
_CONTAINED = re.compile(r"^(?:in|within|inside|of|part of|(?:used|included|contained|listed|needed|required) in)$",
                        re.IGNORECASE)
KIND_PATH_SCORE = 0.5  # a path from a thing of the asked kind through a record to the vertex, its phrase unfitting
# a predicate linking the vertex's kind straight to the other end's, where the phrase fits no predicate: ahead of a
# path through records (KIND_PATH_SCORE), with a tenth of its own fit added so that several keep their order
KIND_LINK_SCORE = 0.55
CONNECTOR_MIN_FIT = 0.6  # the value's own predicate must say about what the relation phrase says
CONNECTOR_FACTOR = 0.9  # an unnamed connector hop (paper -contribution-> ?c) costs a little more
MAX_ROW_LOOKUPS = 1  # requests per edge for attributes of the things beyond rows that refer to a vertex
CONNECTOR_HOLDERS = 20  # things holding a question value sampled for connectors two hops long
MAX_HOPS = 3
WEAK_VALUE_FIT = 0.6  # below it no value reading fits an ordered or compared phrase (`_values_of_linked_things`)
VALUE_PATHS = 2  # two-hop readings to things that are taken on to the things' value (`price` -> `amount`)
REFERENCE_BELOW = 0.7  # an attribute no predicate of the things fits this well may be a referred thing's
# "Which parts of X ...", "Which hardware part of X ..."
_ASKED_WORD = re.compile(r"(?:which|what)\s+((?:[a-z]+\s+)?[a-z]+(?=\s+(?:of|from|in|for)\b)|[a-z]+\b)", re.IGNORECASE)
_WHO_VERB = re.compile(r"^\s*who\s+(?:(?:has|have|had|did|does|do)\s+)?(?:ever\s+)?(?P<verb>[a-z]+)\b", re.IGNORECASE)
_IRREGULAR_PAST = {"sang": "sing", "sung": "sing", "wrote": "write", "written": "write", "taught": "teach", "led": "lead",
                   "drove": "drive", "driven": "drive", "flew": "fly", "flown": "fly", "built": "build", "made": "make",
                   "bought": "buy", "sold": "sell", "won": "win", "ran": "run", "held": "hold", "paid": "pay",
                   "spoke": "speak", "spoken": "speak", "gave": "give", "given": "give", "took": "take", "taken": "take"}


def verb_stems(verb: str) -> set[str]:
    """The plain forms a verb as asked may have ("visited" -> visit, "owns" -> own, "sang" -> sing)."""
    verb = verb.lower()
    if verb in _IRREGULAR_PAST:
        return {_IRREGULAR_PAST[verb]}
    if verb.endswith("ied") or verb.endswith("ies"):
        return {verb[:-3] + "y"}
    if verb.endswith("ed"):
        return {verb[:-2], verb[:-1]}  # "visited", "hired"
    if verb.endswith("es"):
        return {verb[:-2], verb[:-1]}  # "teaches", "manages"
    if verb.endswith("s") and not verb.endswith("ss"):
        return {verb[:-1]}
    return {verb}


def agent_nouns(stems: set[str]) -> set[str]:
    """Who does what the verb says ("visit" -> visitor, "sing" -> singer, "manage" -> manager)."""
    return {stem + ("r" if stem.endswith("e") else ending) for stem in stems for ending in ("er", "or")}


_WHICH = re.compile(r"^\s*(?:(?:which|what)\s+|(?:give\s+me|list|show(?:\s+me)?|name|find)\s+(?:all\s+)?(?:of\s+)?"
                    r"(?:the\s+|our\s+)?)(?P<rest>.*)$", re.IGNORECASE | re.DOTALL)


def _asks_for_kind(question: str, semantic_type: str | None) -> bool:
    """Whether "Which <semantic type> ..." or "Show me the <semantic type> ..." asks for things of
    that kind ("Which services is the Marketing department responsible for?"), rather than the type
    being the owner's class."""
    found = _WHICH.match(question)
    if found is None or not semantic_type:
        return False
    return found.group("rest").lower().startswith(semantic_type.lower() + " ")


def _asks_for_things(question: str, semantic_type: str | None) -> bool:
    """`_asks_for_kind`, and the kind's word is not followed by a value of theirs ("Which airline has the
    most flights?", not "Show the template ids ...")."""
    if not _asks_for_kind(question, semantic_type):
        return False
    rest = _WHICH.match(question).group("rest")[len(semantic_type or ""):].split()  # type: ignore[union-attr]
    word = rest[0].lower().strip("?,.") if rest else ""
    return not word or all(kind_of_attribute(w) is None for w in {word, singular(word), word.removesuffix("s")})


MAX_RECORDS = 200  # answers probed for the link to the thing they record
DEMONYM_FACTOR = 0.95  # "Irish" linked as Ireland: a little below the name itself
REFERENCE_FACTOR = 0.95  # ... behind an unnamed first hop (a foreign key), which costs a little
KEY_COLUMN_FACTOR = 0.99  # a key column (`teacher_id`) read after the link ontop writes beside it (`ref-teacher_id`)
REFERRER_FACTOR = 0.85  # the many things referring to one ("a document's paragraphs") less than the one it refers to
_FUNCTION_WORDS = frozenset({"whose", "which", "that", "who", "whom", "of", "with", "in", "on", "for", "by", "from", "to",
                             "the", "a", "an", "and", "or", "all", "any", "each", "every", "other", "our", "their"})
MAX_NAMED_HOLDERS = 1  # a value between two names stands for its holder only when one thing holds it
HOLDER_FACTOR = 0.95  # ... a little below the value itself
NEIGHBOUR_FIT = 0.8  # a relation phrase fitting a predicate of a value's holder this well names a thing next to it
MIN_FIT_BEFORE_BEYOND = 0.5  # below it around a value's holder, the things the holder points to are looked at too
NAMED_THING = 0.9  # a thing found this well by a name that names an unknown ("the property named 'park'") is it
CLASS_FIT = 0.9  # a class phrase that no class fits this well is also looked for as a thing ("sensors")
KIND_LINK_FACTOR = 0.9  # a relation phrase naming the answer's class, read as any link to things of that class
MAX_OPENED_VALUES = 100  # answers looked into for their one value ("the price" node -> its amount)
NAMED_LINK_FACTOR = 0.95  # a capitalised class phrase read as what its members link to, not as the thing
MAX_LINKING_PREDICATES = 4  # predicates into a thing a class phrase names, read as membership
# The model's next reading is tried too when its best one answers nothing or fits the graph poorly
# (its best query's Eq. 2 score below WEAK_READING); it answers instead when it fits clearly better.
WEAK_READING = 0.65
BETTER_READING = 0.15
NARROWER_SLACK = 0.05  # a next reading that only adds a class answers unless it fits this much worse
NEXT_READING_REQUESTS = 15  # a poor fit is retried only below this many requests
MIN_READING_REQUESTS = 6  # a next reading needs at least this many requests left of `max_requests`
AFTER_EXECUTION = 3  # requests kept for after execution: containers, naming, labels
# "Find the ids of the students ...", "show the student id and ...": ids asked for, not a thing picked by its id
_IDS_ASKED = re.compile(r"(?<!\bwith )(?<!\bwhose )(?<!\bhaving )\b(?:ids?|identifiers?)\b"
                        r"(?!\s*(?:is\b|are\b|was\b|=|equals?\b|of\s+\d|no\.|number\b|\d|['\"‘“]))", re.IGNORECASE)
DATED_NAME_MARGIN = 0.15  # "ECSA 2017" is ECSA and 2017 when "ECSA" alone fits a label this much better
WHOLE_NAME_FIT = 0.95  # "Bennett, Best and Jacobson" is one name when a label matches it this well
LABELLED_ANSWERS = 100  # answers presented with their labels: more (whole lists asked for) cost a request per 50
EMPTY_READING_QUERIES = 6  # a reading whose best 6 queries find nothing gives way to the next reading


@dataclass
class EdgeEvidence:
    phrase: str
    triple: str
    anchor: str
    candidates: list[LinkedPredicate]

    def to_dict(self) -> dict[str, Any]:
        return {"phrase": self.phrase, "triple": self.triple, "anchor": self.anchor,
                "candidates": [c.to_dict() for c in self.candidates]}


@dataclass
class KgqanEvidence:
    """What the KGQAN path did for one question (docs/DESIGN.md, "KGQAN evidence")."""

    pattern: str = ""
    answer_type: str = ""
    source: str = ""
    entities: list[NodeLinks] = field(default_factory=list)
    relations: list[EdgeEvidence] = field(default_factory=list)
    queries: list[ExecutedQuery] = field(default_factory=list)
    sparql: str | None = None
    filtered: dict[str, Any] = field(default_factory=dict)
    zero_counts: list[ExecutedQuery] = field(default_factory=list)  # of readings tried after this one
    unfitted: bool = False  # no answer fits the expected type: the best query's answers are given unfiltered

    def all_zero_counts(self) -> list[ExecutedQuery]:
        """The count queries that counted nothing, of this reading and of those tried after it."""
        return [q for q in self.queries if q.zero_count] + self.zero_counts

    def to_dict(self) -> dict[str, Any]:
        return {
            "understanding": {"pattern": self.pattern, "answer_type": self.answer_type, "source": self.source},
            "entities": [e.to_dict() for e in self.entities],
            "relations": [r.to_dict() for r in self.relations],
            "queries": [q.to_dict() for q in self.queries],
            "sparql": self.sparql,
            "filtered": self.filtered,
        }


def _unfitted(result: PathResult) -> bool:
    """Whether a reading answered, but with no answer that fits the expected type."""
    return bool(result.answers) and isinstance(result.evidence, KgqanEvidence) and result.evidence.unfitted


def _graph_fit(result: PathResult) -> float:
    """`fit` before the cost of a type mismatch: how well the reading's best answered query fits the graph."""
    if not result.answers or not isinstance(result.evidence, KgqanEvidence):
        return -1.0
    return max((q.query.score for q in result.evidence.queries if q.effective_score > -1.0), default=-1.0)


def _reached_by_kind(result: PathResult, kind: str | None) -> bool:
    """Whether the answers are the values of a predicate named with the asked kind's words ("research
    objects" as `researchObject` literals): values the graph keeps as text, of the kind asked for."""
    if not kind or not isinstance(result.evidence, KgqanEvidence) or not result.evidence.sparql:
        return False
    words = {singular(w) for w in re.findall(r"[a-z]+", kind.lower())}
    return any(words <= iri_words(found) for found in re.findall(r"<([^<>\s]+)> \?unknown1\b", result.evidence.sparql))


def fit(result: PathResult) -> float:
    """How well a reading fits the graph: the best effective score among its answered queries
    (-1 when it answered nothing)."""
    if not result.answers or not isinstance(result.evidence, KgqanEvidence):
        return -1.0
    return max((q.effective_score for q in result.evidence.queries), default=-1.0)


@dataclass
class Linking:
    """The result of linking one pattern, for query building and evidence."""

    linked: LinkedPattern
    entities: list[NodeLinks]
    relations: list[EdgeEvidence]


class KgqanPath:
    """KGQAN (Omar et al., SIGMOD 2023) over any SPARQL endpoint, as a `gateway.qa.AnswerPath`."""

    name = NAME

    def __init__(self, scorer: AffinityScorer | None = None) -> None:
        self.scorer = scorer or default_scorer()
        self.entity_linker = EntityLinker(self.scorer)
        self.relation_linker = RelationLinker(self.scorer)
        self.builder = QueryBuilder()
        self.type_filter = AnswerTypeFilter(self.scorer)
        self.namer = EntityNamer()

    async def close(self) -> None:
        return None

    async def understand(self, question: str) -> UnderstoodQuestion:
        try:
            from understanding import get_parser  # type: ignore[attr-defined]
        except ImportError as exc:
            raise GatewayError(f"question understanding is not available: {exc}") from exc
        parsed = await get_parser().parse([question])
        return parsed[0]

    async def rule_reading(self, question: str) -> UnderstoodQuestion:
        """The rule-based reading (spaCy), independent of the model's."""
        from understanding import get_parser  # type: ignore[attr-defined]

        return await get_parser().rule_reading(question)

    async def answer(self, question: str, endpoint: Endpoint, options: AskOptions) -> PathResult:
        """The answers to the question; one about two named things joined by "and" ("the phone numbers of
        Lili Geier and Erhard Fried") is answered for each and the answers joined, unless the graph names
        one thing so ("Lee and Sons")."""
        both = two_names_asked(question)
        if both is None:
            either = alternatives_asked(question) or both_compared(question) or but_not_asked(question) or \
                await self._both_apart(question)
            if either is not None:
                return await self._answer_either(question, either, endpoint, options)
            return await self._answer_one(question, endpoint, options)
        with counting_requests(limit=options.max_requests) as counter:  # the look-up counts against the budget
            one_thing = await self._names_one_thing(f"{both[0]} and {both[1]}", endpoint, options)
        options = replace(options, max_requests=max(1, options.max_requests - counter.count))
        if one_thing:
            result = await self._answer_one(question, endpoint, options)
        else:
            first = await self._answer_one(one_of(question, both, both[0]), endpoint, options)
            left = replace(options, max_requests=max(1, options.max_requests - first.sparql_requests))
            second = await self._answer_one(one_of(question, both, both[1]), endpoint, left)
            result = _joined(first, second, both)
        result.sparql_requests += counter.count
        result.setup_requests += counter.setup
        return result

    async def _both_apart(self, question: str) -> Alternatives | None:
        """"... visited both 'Plaza Museum' and 'Willow Museum'" asked as two questions (`both_asked`), where the
        best reading of the whole lost one of the two names or made it a kind ("both the Encoder and the Transformer
        category" is read well whole)."""
        both = both_asked(question)
        if both is None:
            return None
        pattern = (await self.understand(question)).pattern
        kinds = set(pattern.class_phrases())
        names = [n.lower() for n in pattern.nodes() if not is_unknown(n) and n not in kinds]
        return None if all(any(said_name(said).lower() in n for n in names) for said in both.said) else both

    async def _answer_either(self, question: str, either: Alternatives, endpoint: Endpoint,
                             options: AskOptions) -> PathResult:
        """A question asking for the things of either of two alternatives ("in France or Germany", "less than
        10 or more than 500"): each alternative asked alone and the answers joined; a count counts the
        distinct things of both lists, a yes/no question is yes when either is. Aggregates of values and
        counts per group are answered whole, as are names the graph has whole ("Pride or Prejudice"). The
        things of both ("visited both A and B") are those both lists hold; where one list is empty, the
        question is asked whole (one name read alone may be read worse than both together)."""
        understood = await self.understand(either.first)
        form = understood.pattern.form
        whole = form not in (QuestionForm.LIST, QuestionForm.BOOLEAN, QuestionForm.COUNT) or understood.pattern.group
        with counting_requests(limit=options.max_requests) as counter:
            if not whole and either.named:
                whole = await self._names_one_thing((" and " if either.both else " or ").join(either.said), endpoint,
                                                    options)
        options = replace(options, max_requests=max(1, options.max_requests - counter.count))
        if whole:
            result = await self._answer_one(question, endpoint, options)
        else:
            listed = replace(options, max_answers=COUNTED_ALTERNATIVES) if form is QuestionForm.COUNT else options
            first = await self._answer_one(either.first, endpoint, listed, as_list=form is QuestionForm.COUNT)
            left = replace(listed, max_requests=max(1, listed.max_requests - first.sparql_requests))
            second = await self._answer_one(either.second, endpoint, left, as_list=form is QuestionForm.COUNT)
            result = _either(first, second, either, form)
            if either.both and not (first.answers and second.answers):  # one asked alone found nothing: the whole
                left = replace(options, max_requests=max(1, left.max_requests - second.sparql_requests))
                result = _taken(result, await self._answer_one(question, endpoint, left),
                                "the things of both of two things, each asked alone, found nothing: asked whole")
            if isinstance(first.evidence, KgqanEvidence) and isinstance(second.evidence, KgqanEvidence) and \
                    isinstance(result.evidence, KgqanEvidence) and first.evidence.sparql and second.evidence.sparql:
                # one query for both (TEXT2SPARQL, the evidence): the union of the two alternatives'
                result.evidence.sparql = union_query(first.evidence.sparql, second.evidence.sparql, form,
                                                     options.max_answers, both=either.both,
                                                     excluded=either.excluded) or result.evidence.sparql
        result.sparql_requests += counter.count
        result.setup_requests += counter.setup
        return result

    async def _names_one_thing(self, phrase: str, endpoint: Endpoint, options: AskOptions) -> bool:
        """Whether a thing of the graph is labelled with the whole phrase ("Lee and Sons")."""
        found = await self.entity_linker.link_entities(phrase, endpoint, max_vertices=options.max_vertices,
                                                       top_k=options.vertices_per_node + 2)
        return any(c.label.casefold() == phrase.casefold() for c in found)

    async def _answer_one(self, question: str, endpoint: Endpoint, options: AskOptions, *,
                          as_list: bool = False) -> PathResult:
        """One question's answers; `as_list` lists the things a count question counts."""
        started = time.perf_counter()
        # the readings share their lookups, and the question's budget: none of them sends a request past it
        with counting_requests(limit=options.max_requests) as counter, sharing_results():
            understood = await self._understood_on(question, endpoint, options)
            if as_list:
                understood = _listed(understood)
            understanding_ms = (time.perf_counter() - started) * 1000
            # the readings share what is left of the budget after the lookups of understanding
            left = replace(options, max_requests=max(1, options.max_requests - counter.count))
            result = await self.answer_readings(understood, endpoint, left)
        result.timings_ms = {"understanding": understanding_ms, **result.timings_ms,
                             "total": (time.perf_counter() - started) * 1000}
        result.sparql_requests += counter.count  # linking and execution counted their own
        result.setup_requests += counter.setup
        return result

    async def _understood_on(self, question: str, endpoint: Endpoint, options: AskOptions) -> UnderstoodQuestion:
        """The question understood, with names the model split read whole and values a relation phrase
        swallowed put back, where this graph has them (for answering and for generating SPARQL alike)."""
        understood = await self._whole_names(await self.understand(question), endpoint, options)
        understood = await self._dated_names(understood, endpoint, options)
        understood = _each_reading(await self._compound_kinds(understood, endpoint), with_demonym_kinds)
        sexed = _each_reading(understood, functools.partial(with_sex_kinds, understood.question))
        if sexed.pattern != understood.pattern:  # a graph without the sex as a code ("is_male") reads it without
            sexed = replace(sexed, alternatives=tuple(dict.fromkeys((understood.pattern, *sexed.alternatives))))
        understood = sexed
        understood = await self._attribute_values(await self._swallowed_values(understood, endpoint), endpoint, options)
        return with_counted_kind_reading(understood)

    async def _whole_names(self, understood: UnderstoodQuestion, endpoint: Endpoint,
                           options: AskOptions) -> UnderstoodQuestion:
        """Readings with "Bennett, Best and Jacobson" as one name where the model split it as a list,
        if the graph has a thing labelled so (one text search, which linking then reuses)."""
        names = [n for n in coordinated_names(understood.question) if with_whole_name(understood.pattern, n) !=
                 understood.pattern or any(with_whole_name(a, n) != a for a in understood.alternatives)]
        found = await asyncio.gather(*(self.entity_linker.link_entities(n, endpoint, max_vertices=options.max_vertices)
                                       for n in names))
        whole = [n for n, hits in zip(names, found, strict=True)
                 if hits and hits[0].score >= WHOLE_NAME_FIT and n.casefold() in hits[0].label.casefold()]
        if not whole:
            return understood

        def merged(pattern: PhraseGraphPattern) -> PhraseGraphPattern:
            for name in whole:
                pattern = with_whole_name(pattern, name)
            return with_named_by_its_kind(understood.question, pattern)  # "the supplier Baker, Medina and George"

        return _each_reading(understood, merged)

    async def _dated_names(self, understood: UnderstoodQuestion, endpoint: Endpoint,
                           options: AskOptions) -> UnderstoodQuestion:
        """Readings with "ECSA 2017" as the thing named "ECSA" and the year 2017 ("Which papers were presented
        at ECSA 2017?": `?u1 | presented at | ECSA ; ?u1 | year | 2017`) where a label holding the name without
        its year fits it clearly better than any fits the whole (two text searches per such name, which
        linking then reuses)."""
        readings = [understood.pattern, *understood.alternatives]
        dated = {n: found.group("name") for p in readings for n in p.nodes() if (found := _DATED_NAME.match(n))}
        if not dated:
            return understood
        found = await asyncio.gather(*(self.entity_linker.link_entities(n, endpoint, max_vertices=options.max_vertices)
                                       for name, bare_name in dated.items() for n in (name, bare_name)))
        split = [name for (name, bare_name), whole, bare in zip(dated.items(), found[::2], found[1::2], strict=True)
                 if bare and re.search(rf"(?<!\w){re.escape(bare_name)}(?!\w)", bare[0].label)
                 and bare[0].score - max((hit.score for hit in whole), default=0.0) >= DATED_NAME_MARGIN]
        if not split:
            return understood
        return _each_reading(understood, lambda pattern: with_dated_names(pattern, split))

    async def _compound_kinds(self, understood: UnderstoodQuestion, endpoint: Endpoint) -> UnderstoodQuestion:
        """Readings with "bill of material" as one kind where the model split it into a relation and a
        class (`?u1 | bill | ?u2 ; ?u2 | is a | material`), if the graph has a class whose name holds
        both nouns (no request: the class list is fetched once per endpoint). A reading the merge
        undoes is dropped; the others keep their order."""
        readings = [understood.pattern, *understood.alternatives]
        kinds = [k for k in compound_kinds(understood.question) if any(with_compound_kind(p, k) != p for p in readings)]
        if not kinds:
            return understood
        found = await asyncio.gather(*(self.entity_linker.link_classes(k, endpoint, top_k=1) for k in kinds))
        named = [k for k, classes in zip(kinds, found, strict=True) if classes and _names_both(classes[0].label, k)]
        for kind in named:
            merged = [with_counted_relation(understood.question, m) if (m := with_compound_kind(p, kind)) not in (None, p)
                      else m for p in readings]
            if any(m is not None for m in merged):
                readings = [m for m in merged if m is not None]
        if readings[0] == understood.pattern and readings[1:] == list(understood.alternatives):
            return understood
        readings.insert(0, readings.pop(chosen_reading(understood.question, readings)))  # the one ordering as asked
        return replace(understood, pattern=readings[0], alternatives=tuple(dict.fromkeys(readings[1:])),
                       answer_type=build_answer_type(understood.answer_type.kind, readings[0],
                                                     understood.answer_type.confidence))

    async def _swallowed_values(self, understood: UnderstoodQuestion, endpoint: Endpoint) -> UnderstoodQuestion:
        """Readings with the value a relation phrase swallowed put back as its object ("investigate
        reference architectures" with a dangling unknown: `?u1 | investigate | reference architectures`)
        where the graph holds that value as a literal (one request for every candidate)."""
        found = {pattern: (swallowed_values(pattern), dropped_values(understood.question, pattern))
                 for pattern in (understood.pattern, *understood.alternatives)}
        values = list(dict.fromkeys(value for swallowed, dropped in found.values() for _, value in (*swallowed, *dropped)))
        if not values:
            return understood
        held = await self.entity_linker.link_literals(values, endpoint,
                                                      extra_forms={v: [_singular_phrase(v)] for v in values})

        def restored(pattern: PhraseGraphPattern) -> PhraseGraphPattern:
            swallowed, dropped = found[pattern]
            done: set[PhraseTriple] = set()
            for triple, value in swallowed:  # longest value first
                if triple not in done and held.get(value):
                    pattern = with_swallowed_value(pattern, triple, value)
                    done.add(triple)
            if not done:  # a value the pattern left out altogether ("use a case study as evaluation method")
                left_out = next(((t, v) for t, v in dropped if held.get(v)), None)
                if left_out is not None:
                    pattern = with_dropped_value(pattern, *left_out)
            return pattern

        return _each_reading(understood, restored)

    async def _attribute_values(self, understood: UnderstoodQuestion, endpoint: Endpoint,
                                options: AskOptions) -> UnderstoodQuestion:
        """Readings with a value named by common words that the graph holds as no value but whose best
        labelled vertex is one of its predicates ("How many papers followed an evaluation guideline?":
        `hasEvaluationGuideline` "True"/"False") read as having that attribute (`with_attribute_named`);
        a text search per such value, which linking then reuses, and one lookup of their literals."""
        readings = [understood.pattern, *understood.alternatives]
        values = list(dict.fromkeys(v for pattern in readings for v in common_word_values(pattern)))
        if not values:
            return understood
        held, predicates, *vertices = await asyncio.gather(
            self.entity_linker.link_literals(values, endpoint, extra_forms={v: [_singular_phrase(v)] for v in values}),
            self.relation_linker.all_predicates(endpoint),
            *(self.entity_linker.link_entities(v, endpoint, max_vertices=options.max_vertices) for v in values))
        named_by = {iri for iri, _ in predicates.pairs}
        attributes = [v for v, hits in zip(values, vertices, strict=True)
                      if not held.get(v) and hits and hits[0].term.value in named_by]
        if not attributes:
            return understood

        def read(pattern: PhraseGraphPattern) -> PhraseGraphPattern:
            for value in attributes:
                pattern = with_attribute_named(pattern, value)
            return pattern

        return _each_reading(understood, read)

    async def answer_readings(self, understood: UnderstoodQuestion, endpoint: Endpoint,
                              options: AskOptions) -> PathResult:
        """Answers with the model's best reading, and with its next one as well when the best one
        answers nothing, fits the graph poorly or leaves out a class the next one names (see
        `_next_reading`); when those find nothing, with the reading that makes the wh-noun the answer's
        kind (`kind_relation_reading`) or the asked kind the relation to a name (`relation_kind_reading`),
        then with the spaCy rules' reading (`_rule_reading`); a count
        that every reading found 0 answers 0 (`_counted_nothing`)."""
        alternatives = bool(understood.alternatives) and not understood.unsupported and \
            not _drops_a_name_asked_about(understood.pattern, understood.alternatives[0]) and \
            not _keeps_only_the_class(understood.pattern, understood.alternatives[0]) and \
            not _drops_a_negation(understood.pattern, understood.alternatives[0])
        result = await self.answer_understood(understood, endpoint, options)
        weak = not result.answers or (fit(result) < WEAK_READING and result.sparql_requests < NEXT_READING_REQUESTS)
        # the next reading says one class more ("the cheapest service"): it answers if it fits about as well
        narrower = alternatives and adds_a_class(understood.pattern, understood.alternatives[0])
        left = options.max_requests - result.sparql_requests
        if alternatives and (weak or narrower) and left >= MIN_READING_REQUESTS:
            margin = BETTER_READING if weak else -NARROWER_SLACK
            result = await self._next_reading(understood, result, endpoint, replace(options, max_requests=left), margin)
        # the wh-noun as the answer's kind where the model made it a relation, and the asked kind as the named
        # thing's relation where the graph has no such kind
        kind_readings = [(reading, what) for reading, what in (
            (kind_relation_reading(understood.pattern, understood.wh_noun), "the reading with the asked noun as the answer's kind"),
            (relation_kind_reading(understood.pattern), "the reading with the asked kind as the relation"))
            if reading is not None and reading not in understood.alternatives[:1] and not understood.unsupported
            and not _drops_a_negation(understood.pattern, reading)]
        # ... and, where answers of another kind came, the asked kind as what the things so related hold (not where
        # nothing came: a value the model cut would hold anything)
        held = holder_kind_reading(understood.pattern) if not understood.unsupported else None
        held = None if held is None or _drops_a_negation(understood.pattern, held) else held
        fitting = [*kind_readings, *(((held, "the reading with the asked kind held by the things so related"),) if held else ())]
        # ... when the answers are not of the kind asked for: it answers instead if its answers are, and it fits the
        # graph as well
        asked_kind = understood.answer_type.kind is AnswerKind.RESOURCE and \
            _asks_for_kind(understood.question, understood.answer_type.semantic_type)
        for reading, what in fitting:
            left = options.max_requests - result.sparql_requests
            if asked_kind and _unfitted(result) and left >= MIN_READING_REQUESTS:
                result = await self._fitting_reading(understood, reading, result, endpoint,
                                                     replace(options, max_requests=left), what)
        # ... when nothing answered
        for reading, what in kind_readings:
            left = options.max_requests - result.sparql_requests
            if not result.answers and left >= MIN_READING_REQUESTS:
                result = await self._next_reading(replace(understood, alternatives=(reading,)), result, endpoint,
                                                  replace(options, max_requests=left), what=what)
        left = options.max_requests - result.sparql_requests
        if not result.answers and understood.source == "model" and not understood.unsupported and \
                left >= MIN_READING_REQUESTS:
            result = await self._rule_reading(understood, result, endpoint, replace(options, max_requests=left))
        left = options.max_requests - result.sparql_requests
        linked_through = linked_through_one(understood.pattern)
        if linked_through is not None and not _said_yes(result) and left >= MIN_READING_REQUESTS:
            result = await self._yes_through_one(replace(understood, pattern=linked_through, alternatives=()), result,
                                                 endpoint, replace(options, max_requests=left))
        left = options.max_requests - result.sparql_requests
        record = role_record_reading(understood.pattern)
        if record is not None and result.answers and not _said_yes(result) and left >= MIN_READING_REQUESTS:
            result = await self._yes_as_a_record(replace(understood, pattern=record, alternatives=()), result,
                                                 endpoint, replace(options, max_requests=left))
        if _said_yes(result) and not _asks_every_node(result):  # "Has X ever visited a museum?" asked without the museum
            result.answers = [Answer.boolean(False)]
            result.notes.append("the yes came from a query that leaves out a thing the question names: the answer is no")
        return _counted_nothing(result) if not result.answers else result

    async def _yes_as_a_record(self, understood: UnderstoodQuestion, first: PathResult, endpoint: Endpoint,
                               options: AskOptions) -> PathResult:
        """"Is Teodor Salparov a poker player?" said no by his classes, on a graph where a poker player is a
        record of its own that refers to the person (a table's row): yes where a thing of the kind refers to
        him and things of the kind have no labels (records, not things in their own right: "Is Berlin a
        country?" is not answered by a country whose capital Berlin is). One request more."""
        second = await self.answer_understood(understood, endpoint, options)
        sparql = second.evidence.sparql if isinstance(second.evidence, KgqanEvidence) else None
        typed = _RECORD_TYPED.search(sparql or "")
        if not _said_yes(second) or typed is None or not _RECORD_REFERS.search(sparql or ""):
            return _kept(first, second, None)
        try:
            labelled = await endpoint.sparql.ask(f"ASK {{ ?r <{RDF_TYPE}> <{typed.group(1)}> ; <{RDFS_LABEL}> ?l }}")
        except GatewayError:
            return _kept(first, second, None)
        second.sparql_requests += 1
        if labelled:
            return _kept(first, second, None)
        return _taken(first, second, f"not of the class itself; a {understood.pattern.triples[0].object} record "
                                     "refers to it")

    async def _yes_through_one(self, understood: UnderstoodQuestion, first: PathResult, endpoint: Endpoint,
                               options: AskOptions) -> PathResult:
        """"Is the supplier of X located in the United States?" read as `X | supplier | United States`:
        no direct link says no, but the two may be linked through one thing between them (`X | supplier
        | ?u1 ; ?u1 | supplier | United States`); yes where that reading finds such a thing."""
        second = await self.answer_understood(understood, endpoint, options)
        if not _said_yes(second) or _joined_by_one_predicate(second):
            return _kept(first, second, None)
        return _taken(first, second, f"no direct link; linked through one thing ({understood.pattern.to_text()})")

    async def _rule_reading(self, understood: UnderstoodQuestion, first: PathResult, endpoint: Endpoint,
                            options: AskOptions) -> PathResult:
        """The last try when the model's readings found nothing: the spaCy rules' reading, if it
        differs from those tried and is supported; it answers if it finds anything."""
        try:
            rules = await self._swallowed_values(await self.rule_reading(understood.question), endpoint)
        except RequestBudgetSpent:
            return first
        if rules.unsupported or rules.pattern == understood.pattern or rules.pattern in understood.alternatives[:1] or \
                _drops_a_negation(understood.pattern, rules.pattern):
            return first
        second = await self.answer_understood(rules, endpoint, options)
        if not second.answers:
            return _kept(first, second, f"the rule-based reading ({rules.pattern.to_text()}) found no answer either")
        return _taken(first, second, "the model's readings found no answer; answered with the rule-based reading "
                                     f"({rules.pattern.to_text()})")

    async def _fitting_reading(self, understood: UnderstoodQuestion, reading: PhraseGraphPattern, first: PathResult,
                               endpoint: Endpoint, options: AskOptions, what: str) -> PathResult:
        """Another reading where the first one's answers are not of the kind asked for ("What research
        objects does the paper X look at?" answered with its year): it answers if its answers are (or are
        the values of a predicate named with the kind, where the first one's are not) and it fits the
        graph at least as well."""
        answer_type = build_answer_type(understood.answer_type.kind, reading, understood.answer_type.confidence)
        second = await self.answer_understood(replace(understood, pattern=reading, answer_type=answer_type,
                                                      alternatives=()), endpoint, options)
        if not second.answers or _graph_fit(second) < _graph_fit(first) or (_unfitted(second) and not (
                _reached_by_kind(second, understood.answer_type.semantic_type)
                and not _reached_by_kind(first, understood.answer_type.semantic_type))):
            return _kept(first, second, None)
        return _taken(first, second, f"no answer of the best reading ({understood.pattern.to_text()}) fits the "
                                     f"expected type {understood.answer_type}; answered with {what}")

    async def _next_reading(self, understood: UnderstoodQuestion, first: PathResult, endpoint: Endpoint,
                            options: AskOptions, margin: float = BETTER_READING,
                            what: str = "the model's next reading") -> PathResult:
        """A second try with the model's next reading of the question, when its best one answered
        nothing or fits the graph poorly, or when the next one only adds a class: the next reading
        answers if it fits better by `margin` (BETTER_READING; a class-adding reading may fit a little
        worse), or if it answers at all where the best one did not."""
        alternative = understood.alternatives[0]
        answer_type = build_answer_type(understood.answer_type.kind, alternative, understood.answer_type.confidence)
        second = await self.answer_understood(replace(understood, pattern=alternative, answer_type=answer_type,
                                                      alternatives=()), endpoint, options)
        same = {a.value for a in second.answers} == {a.value for a in first.answers}
        # a yes the best reading did not say comes only from a query that asks about everything the next one names
        unasked = _said_yes(second) and first.answers and not _asks_every_node(second)
        if not second.answers or same or unasked or _echoes_its_names(second, alternative) or \
                (first.answers and fit(second) <= fit(first) + margin):
            return _kept(first, second, None if first.answers else
                         f"{what} ({alternative.to_text()}) found no answer either")
        scores = f"(best query score {fit(first):.2f} against {fit(second):.2f})"
        why = ("found no answer" if not first.answers else f"fits the graph poorly {scores}" if margin >= 0 else
               f"leaves out the class the next reading names {scores}")
        return _taken(first, second, f"the best reading ({understood.pattern.to_text()}) {why}; "
                                     f"answered with {what}")

    async def generate(self, question: str, endpoint: Endpoint, options: AskOptions) -> list[CandidateQuery]:
        """Ranked SPARQL for a question, without running it (SPARQL proxy, TEXT2SPARQL); for a question asked
        as two alternatives ("in France or Germany"), the union of the two alternatives' best patterns."""
        either = alternatives_asked(question) if two_names_asked(question) is None else None
        if either is not None:  # (the things of both: the question's own best pattern)
            firsts, seconds = (await self._generate_one(either.first, endpoint, options),
                               await self._generate_one(either.second, endpoint, options))
            first, second = await endpoint.first_matching(firsts), await endpoint.first_matching(seconds)
            union = union_candidate(first, second) if first is not None and second is not None else None
            if union is not None:
                return [union]
        return await self._generate_one(question, endpoint, options)

    async def _generate_one(self, question: str, endpoint: Endpoint, options: AskOptions) -> list[CandidateQuery]:
        with sharing_results():  # the whole-name lookup and linking share their text search
            understood = await self._understood_on(question, endpoint, options)
            if understood.unsupported:
                return []
            _, queries = await self.link_and_build(understood, endpoint, options)
        return queries

    async def answer_understood(self, understood: UnderstoodQuestion, endpoint: Endpoint,
                                options: AskOptions) -> PathResult:
        """Answers an already understood question (also used with hand-written patterns)."""
        # the type the answers are filtered by: with the question's wh-noun where the pattern has no class
        understood = replace(understood, answer_type=with_wh_class(understood.answer_type, understood.pattern,
                                                                    understood.wh_noun))
        evidence = KgqanEvidence(pattern=understood.pattern.to_text(), answer_type=str(understood.answer_type),
                                 source=understood.source)
        if understood.unsupported:
            return PathResult(NAME, answers=[], evidence=evidence, status=AnswerStatus.OK,
                              notes=[f"not answered: {understood.unsupported}"])
        timings: dict[str, float] = {}
        with counting_requests(limit=options.max_requests) as counter:  # no reading passes its budget, linking neither
            started = time.perf_counter()
            try:
                linking, queries = await self.link_and_build(understood, endpoint, options)
            except RequestBudgetSpent as spent:
                return PathResult(NAME, answers=[], evidence=evidence, status=AnswerStatus.OK,
                                  notes=[f"not answered: linking this reading would pass the request budget ({spent})"],
                                  sparql_requests=counter.count, setup_requests=counter.setup)
            evidence.entities, evidence.relations = linking.entities, linking.relations
            timings["linking"] = (time.perf_counter() - started) * 1000
            started = time.perf_counter()
            class_words, superclasses = await self._semantic_classes(understood.answer_type, endpoint, options)
            filter_ms = 0.0
            namings: dict[int, Naming] = {}
            unnamed: dict[int, tuple[list[Term], dict[str, list[str]]]] = {}
            filter_needs_names = options.filter_by_type and understood.answer_type.kind is AnswerKind.STRING
            asked_by_kind = _asks_for_kind(understood.question, understood.answer_type.semantic_type)
            # "Which airline ...?" asking one thing: numbers the graph types so are its keys, not it
            keys_unfit = understood.pattern.projection == (ANSWER,) and _asks_for_things(
                understood.question, understood.answer_type.semantic_type)

            async def check(answers: list[Term], types: dict[str, list[str]]) -> FilterOutcome:
                nonlocal filter_ms
                naming = None
                if filter_needs_names:  # a named resource fits a string answer
                    naming = await self._naming(answers, types, endpoint)
                    if naming is not None:
                        namings[id(answers)] = naming
                else:  # only the chosen query's answers are presented by name: looked up once chosen
                    unnamed[id(answers)] = (answers, types)
                began = time.perf_counter()
                try:
                    if not options.filter_by_type:
                        return FilterOutcome(list(answers))
                    if superclasses:  # a Hardware answer is also one of the "products" asked for
                        types = {a: [*cs, *(p for c in cs for p in superclasses.get(c, ()) if p not in cs)]
                                 for a, cs in types.items()}
                    return self.type_filter.filter(answers, understood.answer_type, types, class_words,
                                                   named=naming is not None and not naming.keyed and (
                                                       naming.predicate is not None or naming.labelled),
                                                   asked_by_kind=asked_by_kind, keys_unfit=keys_unfit)
                finally:
                    filter_ms += (time.perf_counter() - began) * 1000

            deadline = time.monotonic() + max(1.0, options.timeout_s * 0.8)
            budget = max(1, options.max_requests - counter.count - AFTER_EXECUTION)
            executed = await QueryExecutor(timeout_s=min(10.0, options.timeout_s),
                                           max_requests=min(QueryExecutor.max_requests_default, budget),
                                           empty_limit=EMPTY_READING_QUERIES).run(
                queries, endpoint, check, deadline=deadline,
                requests_left=lambda: options.max_requests - counter.count - AFTER_EXECUTION)
            timings["execution"] = (time.perf_counter() - started) * 1000 - filter_ms
            started = time.perf_counter()
            chosen = select_answer(executed)
            opaque_instead: ExecutedQuery | None = None
            values_opened = False
            kind_opened: str | None = None
            if chosen is not None:
                naming = namings.get(id(chosen.raw_answers))
                if naming is None and id(chosen.raw_answers) in unnamed:
                    naming = await self._naming(*unnamed[id(chosen.raw_answers)], endpoint)
                readable = readable_alternative(chosen, executed) if naming is not None and naming.opaque else None
                if naming is None and await self._opaque_groups(chosen, endpoint):
                    readable = readable_alternative(chosen, executed)
                if readable is not None:
                    opaque_instead, chosen, naming = chosen, readable, None
                await self._open_containers(chosen, endpoint, options)
                if await self._open_records(chosen, understood, endpoint, options):
                    naming = await self._naming(chosen.answers, {}, endpoint)  # of the things recorded, not the records
                elif await self._open_values(chosen, understood, endpoint):
                    naming, values_opened = None, True
                elif (kind_opened := await self._open_asked_kind(chosen, understood, endpoint, options)) is not None:
                    naming = await self._naming(chosen.answers, {}, endpoint)  # of the things of the asked kind
                ids_asked = _IDS_ASKED.search(understood.question) is not None
                await self._present_by_name(chosen, naming, endpoint, ids_asked)
                await self._present_groups_by_name(chosen, endpoint, ids_asked)
            answers = await self._answers(chosen, understood.pattern, endpoint, options)
            timings["filtering"] = filter_ms + (time.perf_counter() - started) * 1000
        evidence.queries = executed
        notes: list[str] = []
        itself = mirrored_names(understood.pattern)  # "Who has co-authored papers with Ingo Weber?": not Ingo Weber
        others = [a for a in answers if (a.label or a.value).strip().lower() not in itself]
        if itself and others and len(others) < len(answers):
            answers = others
            notes.append(f"{', '.join(sorted(itself))} left out: the pattern reaches the answers from it through the "
                         "same relation twice, which it answers itself")
        if chosen is not None:
            evidence.sparql = chosen.query.sparql
            if chosen.filtered is not None and chosen.filtered.removed:
                evidence.filtered = {"removed": chosen.filtered.removed, "reason": chosen.filtered.reason}
            if opaque_instead is not None:
                notes.append(f"the best query (score {opaque_instead.effective_score:.2f}) answered with things the "
                             "graph neither names nor types; the values of the next query are given instead")
            elif kind_opened is not None:
                notes.append(f"the best query answered with things that are not {understood.answer_type.semantic_type}; "
                             f"the {understood.answer_type.semantic_type} they link to by <{kind_opened}> are given")
            elif values_opened:
                notes.append(f"the best query answered with things where {understood.answer_type} is expected; "
                             "each holds one such value, which is given")
            elif chosen.status == "mismatch":
                evidence.unfitted = True
                notes.append(f"no answer fits the expected type {understood.answer_type}; "
                             "answers of the best query that answered are given unfiltered")
            if chosen.truncated:
                notes.append("the endpoint cut the result; answers may be incomplete")
            if chosen.query.first_of_ties and len(answers) < len(chosen.answers):
                notes.append(f"{len(chosen.answers)} answers tie for first; the first in the endpoint's order is "
                             "given, as ORDER BY ... LIMIT 1 answers (option keep_ties lists them all)")
        elif not queries:
            notes.append("linking found no query for the pattern: " + _why_no_query(linking))
            if understood.pattern.form is QuestionForm.BOOLEAN and _unmatched_names(linking):
                answers = [Answer.boolean(False)]
                notes.append("a thing the yes/no question names is not in the graph: the answer is no")
        else:
            notes.append(f"none of the {sum(1 for e in executed if e.status != 'skipped')} queries run had an answer")
        return PathResult(NAME, answers=answers, evidence=evidence, timings_ms=timings,
                          sparql_requests=counter.count, setup_requests=counter.setup, status=AnswerStatus.OK,
                          notes=notes)

    async def _opaque_groups(self, chosen: ExecutedQuery, endpoint: Endpoint) -> bool:
        """Whether the groups a number per group is answered for are things the graph neither names nor
        types ("How many products are supplied from each country?" grouped by DBpedia countries)."""
        naming = await self._naming([c for _, columns in chosen.rows for c in columns if c is not None], {}, endpoint) \
            if chosen.query.columns else None
        return naming is not None and naming.opaque

    async def _naming(self, answers: list[Term], types: dict[str, list[str]], endpoint: Endpoint) -> Naming | None:
        """How resource answers are presented (None: not all answers are IRIs)."""
        iris = [a for a in answers if isinstance(a, ox.NamedNode)]
        if not iris or len(iris) < len(answers):
            return None
        return await self.namer.naming(iris, types, endpoint)

    async def _open_containers(self, chosen: ExecutedQuery, endpoint: Endpoint, options: AskOptions) -> None:
        """Answers that are containers (instances of a List, Seq, Bag or Collection class: "the authors"
        of a paper as one `authors list` node) are replaced by their members, one request; the query
        is rewritten to say so."""
        query = chosen.query
        iris = [a for a in chosen.answers if isinstance(a, ox.NamedNode)]
        if chosen.boolean is not None or not iris or len(iris) < len(chosen.answers) or \
                not query.sparql.startswith(f"SELECT DISTINCT {query.answer_var} WHERE"):
            return
        if not all(any(_is_container(c) for c in chosen.types.get(a.value, [])) for a in iris):
            return
        profile = await endpoint.profile()
        skipped = ", ".join(f"<{p}>" for p in (RDF_TYPE, *profile.label_predicates))
        await _answer_one_hop_on(chosen, f"?kgqaMemberOf ?kgqaMember FILTER(?kgqaMemberOf NOT IN ({skipped}))",
                                 "?kgqaMember", f" LIMIT {options.max_answers}", endpoint, first_of_ties=False)

    async def _open_values(self, chosen: ExecutedQuery, understood: UnderstoodQuestion, endpoint: Endpoint) -> bool:
        """Answers that are things where a number or a date is asked, each thing holding exactly one such
        value through one and the same predicate ("the price" as a price node with its amount and its
        currency), are replaced by those values: one request to look, one to rewrite the query."""
        kind = understood.answer_type.kind
        iris = [a for a in chosen.answers if isinstance(a, ox.NamedNode)]
        if chosen.status != "mismatch" or kind not in (AnswerKind.NUMBER, AnswerKind.DATE) or \
                chosen.boolean is not None or not iris or len(iris) < len(chosen.answers) or \
                re.search(rf"\{chosen.query.answer_var}\b", chosen.query.modifiers):  # ordered by the things themselves
            return False
        fits = "isNumeric(?kgqaValue)" if kind is AnswerKind.NUMBER else \
            f"datatype(?kgqaValue) IN (<{XSD}date>, <{XSD}dateTime>)"
        things = " ".join(term_to_sparql(i) for i in iris[:MAX_OPENED_VALUES])
        try:
            held = await endpoint.sparql.select(f"SELECT DISTINCT ?kgqaThing ?kgqaHolding ?kgqaValue WHERE {{ VALUES "
                                                f"?kgqaThing {{ {things} }} ?kgqaThing ?kgqaHolding ?kgqaValue "
                                                f"FILTER({fits}) }}")
        except GatewayError:
            return False
        values: dict[str, set[str]] = {}
        for row in held.rows:
            values.setdefault(row["kgqaThing"].value, set()).add(row["kgqaHolding"].value)
        holdings = {p for ps in values.values() for p in ps}
        if len(values) < len(iris[:MAX_OPENED_VALUES]) or len(holdings) != 1 or len(held.rows) != len(values):
            return False
        return await _answer_one_hop_on(chosen, f"<{holdings.pop()}> ?kgqaValue", "?kgqaValue", chosen.query.modifiers,
                                        endpoint, first_of_ties=chosen.query.first_of_ties)

    async def _open_records(self, chosen: ExecutedQuery, understood: UnderstoodQuestion, endpoint: Endpoint,
                            options: AskOptions) -> bool:
        """Answers that record a thing rather than being it (a bill of material's `BomPart` nodes, each
        with its quantity and `hasPart` the hardware) are replaced by that thing where the question asks
        for it by the record's own word ("Which parts of X ..."): the answers' one class is named with
        the word, and each answer has one link named with it. Up to two requests (none where the answers'
        classes are known and none is such a record); the query is rewritten.
        True where the answers were replaced."""
        query = chosen.query
        iris = _plain_things(chosen)
        asked = understood.wh_noun or understood.answer_type.semantic_type or (
            found.group(1) if (found := _ASKED_WORD.match(understood.question)) else None)
        # the head, "hardware part"; "component": a part; "BomPart" records "parts"
        heads = kind_heads(asked) if asked else set()
        stems: set[str] = set()
        if (who := _WHO_VERB.match(understood.question)) is not None:
            stems = verb_stems(who.group("verb"))  # "Who sang at X?": `singer_in_concert` rows, `ref-singer_id`
            heads |= agent_nouns(stems)  # "Who visited X?": `visit` rows (records of the verb), `ref-visitor_id`
        if not iris or not heads:
            return False

        def recording(class_iri: str) -> bool:
            return records_of(class_iri, heads) or bool(stems & iri_words(class_iri))

        known = {c for a in iris for c in chosen.types.get(a.value, [])}
        if known and not any(recording(c) for c in known):
            return False  # the classes are known already: no request
        records = iris[:MAX_RECORDS]
        result = await _probed(endpoint, records, "(COUNT(?o) AS ?m) (COUNT(DISTINCT ?o) AS ?k) (SAMPLE(?o) AS ?c)",
                               "FILTER(isIRI(?o))", "?p")
        if result is None:
            return False
        rows = [row for row in result if isinstance(row.get("p"), ox.NamedNode) and isinstance(row.get("c"), ox.NamedNode)]

        def named(iri: str) -> bool:
            return bool(heads & iri_words(iri))

        typed = [row for row in rows if row["p"].value == RDF_TYPE]
        if len(typed) != 1 or int(typed[0]["k"].value) != 1 or int(typed[0]["n"].value) != len(records) or \
                not recording(typed[0]["c"].value):
            return False  # not all of one class named with the asked word and more
        links = [row["p"].value for row in rows if row["p"].value != RDF_TYPE and named(row["p"].value)
                 and int(row["n"].value) == len(records) == int(row["m"].value)]
        if len(links) != 1:
            return False
        modifiers = query.modifiers or f" LIMIT {options.max_answers}"  # an ordering keeps its order and limit
        return await _answer_one_hop_on(chosen, f"<{links[0]}> ?kgqaRecorded", "?kgqaRecorded", modifiers, endpoint,
                                        first_of_ties=query.first_of_ties)

    async def _open_asked_kind(self, chosen: ExecutedQuery, understood: UnderstoodQuestion, endpoint: Endpoint,
                               options: AskOptions) -> str | None:
        """Answers that are not of the asked kind, where each links by one and the same predicate to
        things of a class named with the kind's word ("In which venues has X published?" answered with X's
        papers, each with a `venue` of class Venue), are replaced by those things: the pattern reached the
        things next to the asked ones. One request to look, one to rewrite the query. The predicate used,
        or None where nothing was replaced."""
        query = chosen.query
        asked = understood.answer_type.semantic_type
        iris = _plain_things(chosen)
        if chosen.status != "mismatch" or understood.answer_type.kind is not AnswerKind.RESOURCE or not asked or not iris:
            return None
        heads = kind_heads(asked)
        probed = iris[:MAX_RECORDS]
        result = await _probed(endpoint, probed, "", f". ?o a ?c FILTER(?p != <{RDF_TYPE}>)", "?p ?c")
        if result is None:
            return None
        links = {(row["p"].value, row["c"].value) for row in result
                 if isinstance(row.get("p"), ox.NamedNode) and isinstance(row.get("c"), ox.NamedNode)
                 and iri_words(row["c"].value) <= heads and int(row["n"].value) == len(probed)}
        if len({p for p, _ in links}) != 1:
            return None
        link, kind = sorted(links)[0]
        modifiers = query.modifiers or f" LIMIT {options.max_answers}"
        if not await _answer_one_hop_on(chosen, f"<{link}> ?kgqaAsked . ?kgqaAsked a <{kind}>", "?kgqaAsked",
                                        modifiers, endpoint, first_of_ties=query.first_of_ties):
            return None
        return link

    async def _present_by_name(self, chosen: ExecutedQuery, naming: Naming | None, endpoint: Endpoint,
                               ids_asked: bool = False) -> None:
        """Resources without labels answer with their naming attribute (their key where the question asks for ids);
        the query is rewritten to say so."""
        query = chosen.query
        if naming is None or naming.predicate is None or chosen.boolean is not None:
            return
        if ids_asked:
            naming = naming.by_key()
        if not query.sparql.startswith(f"SELECT DISTINCT {query.answer_var} WHERE"):
            return  # several projected columns: keep them as they are
        iris = [a for a in chosen.answers if isinstance(a, ox.NamedNode)]
        try:
            names = await self.namer.names(iris, naming, endpoint)
        except GatewayError:
            return
        if not names:
            return
        chosen.answers = list(dict.fromkeys(names[a.value][0] for a in iris if a.value in names))
        chosen.query = query.named_by(naming.path, naming.family_path)
        if naming.family:  # a person's given name answers, the family name beside it
            chosen.rows = list({(given.value, family.value if family else ""): (given, (family,))
                                for given, family in (names[a.value] for a in iris if a.value in names)}.values())

    async def _present_groups_by_name(self, chosen: ExecutedQuery, endpoint: Endpoint, ids_asked: bool = False) -> None:
        """The groups a number per group is answered for ("How many votes did each contestant receive?"), where they
        are things without labels, are shown by their naming attribute (their key where the question asks for ids),
        as unlabelled answers are; the query is rewritten to say so. Two requests at most (the naming and the
        names)."""
        query = chosen.query
        if len(query.columns) != 1 or not query.form.is_aggregate or not chosen.rows:
            return
        group = f"?{query.columns[0]}"
        cells = [cells[0] for _, cells in chosen.rows]
        iris = [c for c in cells if isinstance(c, ox.NamedNode)]
        if not iris or len(iris) < len(cells) or not re.search(rf"GROUP BY {re.escape(group)}(?![\w])", query.sparql):
            return
        try:
            naming = await self.namer.naming(iris, {}, endpoint)
            if naming.predicate is None or naming.labelled:
                return
            if ids_asked:
                naming = naming.by_key()
            names = await self.namer.names(iris, naming, endpoint)
        except GatewayError:
            return
        if len(names) < len({c.value for c in iris}):
            return  # a group without a name would lose its count's meaning
        chosen.rows = [(term, names[cells[0].value] if naming.family else names[cells[0].value][:1])
                       for term, cells in chosen.rows]
        chosen.query = query.group_named_by(naming.path, naming.family_path)

    async def _all_class_words(self, endpoint: Endpoint) -> dict[str, str]:
        try:
            return dict(await self.entity_linker.classes(endpoint))
        except GatewayError:
            return {}

    async def _semantic_classes(self, answer_type: AnswerType, endpoint: Endpoint, options: AskOptions
                                ) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
        """What the semantic type filter compares answers' classes with: the graph's class words, and
        each class's declared superclasses (nothing when there is no semantic type to check)."""
        if not (options.filter_by_type and answer_type.semantic_type):
            return {}, {}
        try:
            return dict(await self.entity_linker.classes(endpoint)), await self.entity_linker.superclasses(endpoint)
        except GatewayError:
            return {}, {}

    async def _answers(self, chosen: ExecutedQuery | None, pattern: PhraseGraphPattern, endpoint: Endpoint,
                       options: AskOptions) -> list[Answer]:
        """The chosen query's answers, labelled, each with the other cells of its result row (named by
        what the pattern calls their node)."""
        if chosen is None:
            return []
        if chosen.boolean is not None:
            return [Answer.boolean(chosen.boolean)]
        terms = chosen.answers[: 1 if chosen.query.first_of_ties else options.max_answers]
        kept = {term_key(t) for t in terms}
        with_rows = bool(chosen.query.columns and chosen.rows)  # several columns, read from the result rows
        rows = [(t, cells) for t, cells in chosen.rows if term_key(t) in kept][:options.max_answers] \
            if with_rows else [(t, ()) for t in terms]
        iris = list(dict.fromkeys(term for t, cells in rows for term in (t, *cells)
                                  if isinstance(term, ox.NamedNode)))[:LABELLED_ANSWERS]
        labels = await endpoint.labels(iris) if iris else {}
        columns = [c if c in pattern.also else "family name" if c == FAMILY_COLUMN else pattern.node_phrase("?" + c)
                   for c in chosen.query.columns] if with_rows else []

        def answer(term: Term, **extra: Any) -> Answer:
            return Answer.from_term(term, label=labels.get(term.value) if isinstance(term, ox.NamedNode) else None,
                                    **extra)

        return [replace(answer(t, score=round(chosen.query.score, 4), sources=(chosen.rank,)),
                        row=tuple((c, answer(cell)) for c, cell in zip(columns, cells, strict=True) if cell is not None))
                for t, cells in rows]

    async def link_and_build(self, understood: UnderstoodQuestion, endpoint: Endpoint,
                             options: AskOptions) -> tuple[Linking, list[CandidateQuery]]:
        """Links the pattern and builds its ranked queries. A per-group count is also read as an
        attribute that stores the count (`counted_as_attribute`), where the graph has a predicate
        named so ("number products"); both readings' queries compete by score."""
        # "the most expensive service" asks for the service: its price is no answer variant
        kind = AnswerKind.RESOURCE if graded_thing(understood.pattern) else understood.answer_type.kind
        build = functools.partial(self.builder.build, max_queries=options.max_queries,
                                  max_answers=options.max_answers, answer_kind=kind, asked=understood.wh_noun,
                                  keep_ties=options.keep_ties or asks_for_several(understood.question, understood.pattern,
                                                                                  understood.wh_noun))
        value_answer = kind in (AnswerKind.NUMBER, AnswerKind.DATE) and understood.pattern.form is QuestionForm.LIST
        relaxed = relax(understood.pattern)
        reading = counted_as_attribute(relaxed, understood.question)
        if reading is None:
            linking = await self.link(understood.pattern, endpoint, options, value_answer=value_answer)
            return linking, build(linking.linked)
        linking, other = await asyncio.gather(self.link(understood.pattern, endpoint, options, value_answer=value_answer),
                                              self.link(reading.pattern, endpoint, options, retry=False))
        added = reading.edge

        def counts(edge: EdgeLinks) -> EdgeLinks:
            """Only predicates named like a stored count, pointing from the owner to the number (a value)."""
            outward = OUT if edge.anchor != added.object else IN
            return replace(edge, by_anchor={k: [replace(p, literal=True) for p in ps if p.direction == outward
                                                and is_count_attribute(p.label, reading.thing)]
                                            for k, ps in edge.by_anchor.items()})

        def stored_in(linked: LinkedPattern) -> tuple[list[EdgeLinks], bool]:
            """The reading's edges with the added one kept to stored counts, and whether any is left."""
            edges = [counts(e) if e.triple == added else e for e in linked.edges]
            return edges, any(p for e in edges if e.triple == added for p in e.by_anchor.values())

        edges, stored = stored_in(other.linked)
        typed = counted_as_attribute(relaxed, understood.question, understood.wh_noun) if stored else None
        if typed is not None and typed.pattern != reading.pattern:
            # "Which museum sold the most tickets?" (`?u1 | museum | ?u2`): where the graph stores such counts,
            # the owner is also linked as the asked kind, whose things or rows hold them
            kind = await self.link(typed.pattern, endpoint, options, retry=False)
            kind_edges, kind_stored = stored_in(kind.linked)
            if kind_stored:
                other, edges = kind, kind_edges
        if stored and reading.counted_edge is not None:
            # "the most rooms" where `room_count` holds them: counting that attribute's values counts one each
            def uncounted(edge: EdgeLinks) -> EdgeLinks:
                return replace(edge, by_anchor={k: [p for p in ps if not is_count_attribute(p.label, reading.thing)]
                                                for k, ps in edge.by_anchor.items()})

            linking = replace(linking, linked=replace(linking.linked, edges=[
                uncounted(e) if e.triple == reading.counted_edge else e for e in linking.linked.edges]))
        queries = build(linking.linked)
        if stored:
            # the stored count only orders or filters: the answer is its owner, never the count itself; where
            # the owner's rows hold it (`visit#num_of_ticket`, the visits referring to the museum), their sum
            def held_by_rows(p: LinkedPredicate) -> bool:
                return p.through is not None and not p.through_out

            def kept(edge: EdgeLinks, rows: bool) -> EdgeLinks:
                return replace(edge, by_anchor={k: [p for p in ps if held_by_rows(p) == rows]
                                                for k, ps in edge.by_anchor.items()}) if edge.triple == added else edge

            owners = build(replace(other.linked, edges=[kept(e, False) for e in edges]), answer_kind=AnswerKind.RESOURCE)
            if any(held_by_rows(p) for e in edges if e.triple == added for ps in e.by_anchor.values() for p in ps):
                owners += build(replace(other.linked, pattern=_summed(other.linked.pattern, added.object),
                                        edges=[kept(e, True) for e in edges]), answer_kind=AnswerKind.RESOURCE)
            queries = sorted(queries + owners, key=lambda q: -q.score)
            queries = queries[: options.max_queries]
        relations = linking.relations + [r for r in other.relations if r.phrase == added.relation]
        return replace(linking, relations=relations), queries

    async def link(self, pattern: PhraseGraphPattern, endpoint: Endpoint, options: AskOptions, *,
                   retry: bool = True, value_answer: bool = False) -> Linking:
        """Links the pattern (`_link`) with its negated relations stated positively; the query builder
        puts those back as FILTER NOT EXISTS."""
        negated = frozenset(t.positive() for t in pattern.triples if t.negated)
        linking = await self._link(pattern.positive() if negated else pattern, endpoint, options, retry=retry,
                                   value_answer=value_answer)
        if negated:
            linking.linked = replace(linking.linked, negated=negated)
        return linking

    async def _link(self, pattern: PhraseGraphPattern, endpoint: Endpoint, options: AskOptions, *,
                    retry: bool = True, value_answer: bool = False) -> Linking:
        """Links every node and edge of the pattern (entity search, literals, classes, predicates),
        after repairing comparisons the pattern left in its words (`linking.relaxation`). A named
        node that matches nothing but names a class ("the average age of conductors") is linked
        again as an unknown of that class. `value_answer`: the answer is a number or date, so an edge
        to it may also lead through a thing to its value ("the price" -> `price/amount`)."""
        pattern = relax(pattern)
        entity_phrases = list(dict.fromkeys([*pattern.entity_phrases(), *pattern.others]))  # "other than X": X linked
        class_phrases = list(dict.fromkeys(pattern.class_phrases()))
        searched = [p for p in entity_phrases if not is_value_phrase(p)]
        singulars = {p: [_singular_phrase(p)] for p in class_phrases}
        # common nouns among the values too ("use interviews as method" -> the value "Interview"); not names
        for phrase in searched:
            if phrase == phrase.lower() and (single := _singular_phrase(phrase)) != phrase:
                singulars.setdefault(phrase, [single])
            if phrase.lower() in SEX_CODES:  # "female" as tables store it: "F"
                singulars.setdefault(phrase, []).extend(SEX_CODES[phrase.lower()])
        # the class list is fetched once per endpoint: after the first question this sends no request
        class_lists = await asyncio.gather(*(self.entity_linker.link_classes(p, endpoint) for p in class_phrases))
        found_classes = dict(zip(class_phrases, class_lists, strict=True))
        named_classes = [p for p in class_phrases if p not in entity_phrases and _looks_like_a_name(p)
                         and not _anchored_by_name(p, pattern)]
        # a class phrase no class fits may name a thing its members link to ("sensors" -> the category Sensor),
        # and so may a word a fitting class leaves over that names no class ("sensor hardware": Hardware
        # linked to Sensor; not "hardware products")
        class_words = {w for words in (await self._all_class_words(endpoint)).values() for w in _word_set(words)}
        left = {p: word for p in class_phrases if (word := _left_by_class(p, found_classes[p])) not in (None, *class_words)}
        kinds = [p for p in class_phrases if p not in entity_phrases and p not in named_classes
                 and (max((c.score for c in found_classes[p]), default=0.0) < CLASS_FIT or p in left)]
        searches = [*searched, *named_classes, *kinds]
        kind_words = {p: left.get(p) or _singular_phrase(p) for p in kinds}
        vertex_lists, literal_map = await asyncio.gather(
            asyncio.gather(*(self.entity_linker.link_entities(kind_words.get(p, p), endpoint,
                                                              max_vertices=options.max_vertices,
                                                              top_k=options.vertices_per_node)
                             for p in searches)),
            self.entity_linker.link_literals([*entity_phrases, *class_phrases], endpoint, extra_forms=singulars),
        )
        vertices = dict(zip(searches, vertex_lists, strict=True))
        # "Which Resistors ...": a capitalised plural that names nothing is a kind (members of the category Resistor)
        plurals = [p for p in named_classes if not vertices[p] and _singular_phrase(p) != p
                   and max((c.score for c in found_classes[p]), default=0.0) < CLASS_FIT]
        # "the average price of Sensors" (`?u1 | price | Sensors`), "an expert in capacitors": a plural that
        # names nothing, singular
        plural_names = [p for p in searched if not vertices[p] and not literal_map.get(p) and _singular_phrase(p) != p]
        for phrase, found in zip([*plurals, *plural_names], await asyncio.gather(*(
                self.entity_linker.link_entities(_singular_phrase(p), endpoint, max_vertices=options.max_vertices,
                                                 top_k=options.vertices_per_node) for p in [*plurals, *plural_names])),
                                 strict=True):
            vertices[phrase] = found
            if phrase in plurals:
                named_classes.remove(phrase)
                kinds.append(phrase)
        await self._link_demonyms(searched, vertices, literal_map, endpoint, options)
        kind_vertices = {p: [c for c in vertices[p] if not c.is_literal] for p in searches
                         if p in named_classes or p in kinds}
        nodes: dict[str, list[LinkedEntity]] = {}
        for phrase in entity_phrases:
            nodes[phrase] = sorted(vertices.get(phrase, []) + literal_map.get(phrase, []), key=lambda c: -c.score)
        await self._holders_of_named_values(pattern, nodes, endpoint)
        if retry:
            things = {p for p in entity_phrases if nodes[p] and not nodes[p][0].is_literal and nodes[p][0].score >= NAMED_THING}
            itself = named_as_itself(pattern, things)
            if itself is not None:  # "the property named 'park'": the thing found by that name
                return await self.link(itself, endpoint, options, retry=False, value_answer=value_answer)
            unmatched = [p for p in entity_phrases if not nodes[p] and not is_value_phrase(p)]
            # "Does any orchestra use ...": a common noun that only some names contain ("... Orchestra") and
            # that names a class is the class
            partly = [p for p in entity_phrases if nodes[p] and p == p.lower() and not is_value_phrase(p)
                      and not nodes[p][0].is_literal and nodes[p][0].score < NAMED_THING]
            named = await asyncio.gather(*(self.entity_linker.link_classes(p, endpoint, top_k=1,
                                                                           min_score=MERGE_MIN_SCORE if p in unmatched
                                                                           else CLASS_FIT)
                                           for p in [*unmatched, *partly]))
            as_classes = [p for p, found in zip([*unmatched, *partly], named, strict=True) if found]
            if as_classes:
                return await self.link(read_as_classes(pattern, as_classes), endpoint, options, retry=False,
                                       value_answer=value_answer)
            years = [p for p in entity_phrases if not nodes[p] and YEAR.match(p)]
            if years:  # "Who was born in 1987?" where no value is 1987: the year of a date
                return await self.link(read_as_years(pattern, years), endpoint, options, retry=False,
                                       value_answer=value_answer)
        classes = {}
        for phrase, found in found_classes.items():
            readings = list(found)
            if phrase not in nodes:
                readings += literal_map.get(phrase, []) + (vertices.get(phrase, []) if phrase in named_classes else [])
            classes[phrase] = sorted(readings, key=lambda c: -c.score * reading_factor(c))
        for phrase, members in (await self._qualified_kinds(found_classes, endpoint, options)).items():
            classes[phrase] = sorted(classes[phrase] + members, key=lambda c: -c.score * reading_factor(c))
        extra = [c for found in kind_vertices.values() for c in found]
        (edges, relations, around), relation_classes = await asyncio.gather(
            self._link_edges(pattern, nodes, classes, endpoint, options, value_answer, extra,
                             {p: found for p, found in kind_vertices.items() if p in kinds}),
            self._relation_classes(pattern, endpoint))
        for phrase, found in kind_vertices.items():
            # a capitalised class phrase names the thing itself first ("is a | Network Dipole")
            factor = NAMED_LINK_FACTOR if phrase in named_classes else 1.0
            linked = [_linked_reading(phrase, replace(v, score=v.score * factor), around.get(v.term.value),
                                      found_classes[phrase]) for v in found]
            classes[phrase] = sorted(classes[phrase] + [c for c in linked if c is not None],
                                     key=lambda c: -c.score * reading_factor(c))
        entities = [NodeLinks(p, nodes[p]) for p in entity_phrases] + \
                   [NodeLinks(p, classes[p], kind="class") for p in class_phrases]
        return Linking(LinkedPattern(pattern, nodes, classes, edges, relation_classes), entities, relations)

    async def _holders_of_named_values(self, pattern: PhraseGraphPattern, nodes: dict[str, list[LinkedEntity]],
                                       endpoint: Endpoint) -> None:
        """"Is C247-3833661 compatible with Y728-2083256?": between two names, a name found as a value
        (an `id` literal) stands for the one thing holding it, which is offered as a vertex right after
        the value (the value cannot be related to the other name; its holder can). One request."""
        between = {n for t in pattern.triples if not t.is_type and not is_unknown(t.subject)
                   and not is_unknown(t.object) for n in t.nodes()}
        wanted = [(p, nodes[p][0]) for p in sorted(between) if nodes.get(p) and nodes[p][0].is_literal
                  and nodes[p][0].predicates]
        if not wanted:
            return
        values = " ".join(f"({term_to_sparql(c.term)} <{c.predicates[0]}>)" for _, c in wanted)
        query = (f"SELECT ?kgqaValue (SAMPLE(?kgqaHolder) AS ?kgqaOne) (COUNT(DISTINCT ?kgqaHolder) AS ?kgqaN) WHERE {{ "
                 f"VALUES (?kgqaValue ?kgqaCarrier) {{ {values} }} ?kgqaHolder ?kgqaCarrier ?kgqaValue "
                 f"FILTER(isIRI(?kgqaHolder)) }} GROUP BY ?kgqaValue")
        try:
            rows = list(await endpoint.sparql.select(query))
        except SparqlError:
            return
        for phrase, value in wanted:
            # counted per value, so that no LIMIT hides a second holder: a value many things hold names none of them
            held_by = [row["kgqaOne"] for row in rows if row.get("kgqaValue") is not None and row.get("kgqaOne") is not None
                       and row["kgqaValue"].value == value.term.value and int(row["kgqaN"].value) <= MAX_NAMED_HOLDERS]
            if not held_by:
                continue
            holder = LinkedEntity(held_by[0], value.label, value.score * HOLDER_FACTOR)
            nodes[phrase] = [value, holder, *(c for c in nodes[phrase][1:] if c.term != held_by[0])]

    async def _qualified_kinds(self, found_classes: dict[str, list[LinkedEntity]], endpoint: Endpoint,
                               options: AskOptions) -> dict[str, list[LinkedEntity]]:
        """"the manager of the marketing department" (`?u2 | is a | marketing department`): a lower-case
        word before the name of the class that fits may name one member of it (the department labelled
        "Marketing"), which then reads the phrase as a thing. One search per such phrase and one request
        to check membership; nothing where the class covers every word."""
        wanted: dict[str, tuple[str, LinkedEntity]] = {}
        for phrase, found in found_classes.items():
            if not found or phrase != phrase.lower() or found[0].kind != "class":
                continue
            named = _word_set(found[0].label)
            rest = [w for w in phrase.split() if singular(w) not in named]
            if named and named < _word_set(phrase) and len(rest) <= 2 and not set(rest) & _FUNCTION_WORDS:
                wanted[phrase] = (" ".join(rest), found[0])
        if not wanted:
            return {}
        hits = await asyncio.gather(*(self.entity_linker.link_entities(words, endpoint, max_vertices=options.max_vertices,
                                                                      top_k=options.vertices_per_node + 2)
                                      for words, _ in wanted.values()))
        named_so = {phrase: [h for h in found if not h.is_literal and h.label.casefold() == words.casefold()]
                    for (phrase, (words, _)), found in zip(wanted.items(), hits, strict=True)}
        pairs = [(h.term.value, iri) for phrase, found in named_so.items() for h in found
                 for iri in (wanted[phrase][1].term.value, *wanted[phrase][1].subclasses)]
        if not pairs:
            return {}
        values = " ".join(f"(<{thing}> <{kind}>)" for thing, kind in pairs)
        try:
            rows = await endpoint.sparql.select(f"SELECT DISTINCT ?kgqaThing WHERE {{ VALUES (?kgqaThing ?kgqaClass) "
                                                f"{{ {values} }} ?kgqaThing a ?kgqaClass }}")
        except SparqlError:
            return {}
        members = {row["kgqaThing"].value for row in rows if row.get("kgqaThing") is not None}
        return {phrase: [h for h in found if h.term.value in members] for phrase, found in named_so.items()
                if any(h.term.value in members for h in found)}

    async def _link_demonyms(self, searched: list[str], vertices: dict[str, list[LinkedEntity]],
                             literal_map: dict[str, list[LinkedEntity]], endpoint: Endpoint,
                             options: AskOptions) -> None:
        """"Irish suppliers" (`?u1 | supplier | Irish`): a people's adjective that names nothing is linked
        as its country, a vertex or a value ("Ireland"), a little below a name the question says; so is
        the name at the end of a phrase that names nothing ("material AeroVibe Matrix", the rest of "the
        bill of material AeroVibe Matrix"), and a US state that names nothing as its postal code ("Texas" ->
        "TX", as tables store it)."""
        countries = {p: country for p in searched if not vertices[p] and not literal_map.get(p)
                     and (country := country_of(p) or state_code_of(p) or _named_tail(p)) is not None}
        if not countries:
            return
        found, values = await asyncio.gather(
            asyncio.gather(*(self.entity_linker.link_entities(c, endpoint, max_vertices=options.max_vertices,
                                                              top_k=options.vertices_per_node)
                             for c in countries.values())),
            self.entity_linker.link_literals(list(dict.fromkeys(countries.values())), endpoint))
        for (phrase, country), linked in zip(countries.items(), found, strict=True):
            vertices[phrase] = [replace(v, score=v.score * DEMONYM_FACTOR) for v in linked]
            head = phrase[: -len(country)] if phrase.endswith(country) and phrase != country else ""
            if values.get(country):
                literal_map[phrase] = [replace(_held_by_the_head(v, head), score=v.score * DEMONYM_FACTOR)
                                       for v in values[country]]

    async def _relation_classes(self, pattern: PhraseGraphPattern, endpoint: Endpoint) -> dict[str, list[LinkedEntity]]:
        """Classes named by the relation phrases of edges between two unknowns (no request: the class
        list is fetched once per endpoint)."""
        phrases = list(dict.fromkeys(t.relation for t in pattern.triples
                                     if not t.is_type and is_unknown(t.subject) and is_unknown(t.object)))
        found = await asyncio.gather(*(self.entity_linker.link_classes(p, endpoint, top_k=1, min_score=MERGE_MIN_SCORE)
                                       for p in phrases))
        return {p: f for p, f in zip(phrases, found, strict=True) if f}

    async def _link_edges(self, pattern: PhraseGraphPattern, nodes: dict[str, list[LinkedEntity]],
                          classes: dict[str, list[LinkedEntity]], endpoint: Endpoint,
                          options: AskOptions, value_answer: bool = False, extra: list[LinkedEntity] | None = None,
                          kinds: dict[str, list[LinkedEntity]] | None = None,
                          ) -> tuple[list[EdgeLinks], list[EdgeEvidence], dict[str, PredicateSet]]:
        """Ranked predicates per edge, their evidence, and the predicates around the `extra` vertices
        (fetched in the same request as those around the pattern's own vertices). `kinds`: the things
        that name a class phrase no class fits (the category Resistor), which anchor its members."""
        triples = [t for t in pattern.triples if not t.is_type]
        if not triples:
            around = await self.relation_linker.predicates_around(extra, endpoint) if extra else {}
            return [], [], around
        vertices = [c for candidates in nodes.values() for c in candidates if not c.is_literal]
        vertices += [LinkedEntity(ox.NamedNode(iri), c.label, c.score) for c in vertices for iri in c.twins]
        vertices += extra or []
        held = {n for t in triples for n, other in ((t.subject, t.object), (t.object, t.subject))
                if not is_unknown(n) and is_unknown(other)}
        literals = [c for phrase in held for c in nodes.get(phrase, []) if c.is_literal]
        pointing = [c for phrase in held for c in nodes.get(phrase, []) if not c.is_literal]
        around, holders, beyond = await asyncio.gather(
            self.relation_linker.predicates_around(vertices, endpoint) if vertices else _nothing(),
            self.relation_linker.predicates_of_holders(literals, endpoint) if literals else _nothing(),
            self.relation_linker.predicates_beyond(pointing, endpoint) if pointing else _nothing())
        plans: list[tuple[PhraseTriple, str, dict[str, PredicateSet]]] = []
        unanchored: list[tuple[PhraseTriple, str, str | None]] = []
        related = await self._related_to_holders(triples, nodes, holders, endpoint)
        related.update(await self._related_to_vertices(triples, pattern, nodes, around, beyond, endpoint))
        valued = valued_nodes(pattern) | ({ANSWER} if value_answer else set()) | companion_values(pattern)
        degrees = node_degrees(pattern.triples)
        for triple in triples:
            anchor = _entity_anchor(triple)
            far = (triple.object if anchor == triple.subject else triple.subject) if anchor is not None else None
            if anchor is not None and far is not None and not is_unknown(far) and nodes.get(anchor) and \
                    nodes.get(far) and all(c.is_literal for c in nodes[anchor]) and \
                    not any(c.is_literal for c in nodes[far]):
                anchor = far  # "Is Uwe Zdun one of the authors of X?": the thing has the paths, the value only its holders
            if anchor is not None:
                sets = {}
                for candidate in nodes.get(anchor, []):
                    sets[candidate.term.value] = (literal_predicates(candidate) if candidate.is_literal
                                                  else union(around.get(iri) for iri in candidate.iris))
                plans.append((triple, anchor, sets))
            else:
                anchor_node, anchor_pattern = _unknown_anchor(triple, pattern, nodes, classes, kinds or {}, related)
                if anchor_pattern is None and anchor_node in valued and triple.object not in valued and \
                        degrees[triple.object] > 1:
                    anchor_node = triple.object  # "the average price per category": the value's holder is looked around
                unanchored.append((triple, anchor_node, anchor_pattern))
        to_values = {triple: (anchor_node, anchor_pattern) for triple, anchor_node, anchor_pattern in unanchored
                     if (set(triple.nodes()) - {anchor_node}) & valued}
        to_attributes = {triple: (anchor_node, anchor_pattern) for triple, anchor_node, anchor_pattern in unanchored
                         if anchor_pattern and all(is_unknown(n) and degrees[n] == 1
                                                   for n in set(triple.nodes()) - {anchor_node})}
        sampled = await asyncio.gather(*(
            self.relation_linker.predicates_of_bindings(anchor_pattern, anchor_node, endpoint) if anchor_pattern
            else self.relation_linker.all_predicates(endpoint)
            for _, anchor_node, anchor_pattern in unanchored))
        for (triple, anchor_node, _), predicate_set in zip(unanchored, sampled, strict=True):
            plans.append((triple, anchor_node, {"": predicate_set}))
        anchor_patterns = {triple: (anchor_node, anchor_pattern) for triple, anchor_node, anchor_pattern in unanchored
                           if anchor_pattern}
        iris = sorted({iri for _, _, sets in plans for s in sets.values() for iri, _ in s.pairs} |
                      {iri for s in [*holders.values(), *beyond.values()] for iri, _ in s.pairs})
        descriptions = await endpoint.describe_predicates(iris) if iris else {}
        class_words = await self._all_class_words(endpoint)
        named_kinds = await self._named_kinds([t for t, anchor, _ in plans if anchor in held], endpoint)
        edges: list[EdgeLinks] = []
        evidence: list[EdgeEvidence] = []
        order = {t: i for i, t in enumerate(pattern.triples)}
        for triple, anchor, sets in sorted(plans, key=lambda plan: order[plan[0]]):
            ranked = {}
            other = triple.object if triple.subject == anchor else triple.subject
            holds, held_in = bool(_CONTAINING.match(triple.relation)), bool(_CONTAINED.match(triple.relation))
            asked_kinds = _classes_of(other, pattern, classes) if is_unknown(other) and (holds or held_in) else set()
            own_kinds = [t.object for t in pattern.triples if t.is_type and t.subject == anchor]
            for key, predicate_set in sets.items():
                ranked[key] = await self.relation_linker.rank(triple.relation, predicate_set, endpoint,
                                                              top_k=options.predicates_per_edge,
                                                              descriptions=descriptions, class_words=class_words,
                                                              own_kinds=own_kinds)
                ranked[key] = await _with_container_members(ranked[key], predicate_set, endpoint)
                if anchor not in held:
                    weak = not ranked[key] or ranked[key][0].score < MIN_HOP_SCORE  # no predicate of theirs fits
                    holding = holds and not any(  # "contain" may name a record's link to a thing of no said kind
                        t.is_type and t.subject == other for t in pattern.triples)
                    if (weak or holding) and anchor_patterns.get(triple) and triple not in to_values:
                        ranked[key] = await self._through_bindings(triple, ranked[key], anchor_patterns[triple],
                                                                   endpoint, descriptions, class_words,
                                                                   options.predicates_per_edge, holding=holding)
                    if triple in to_values:
                        ranked[key] = await self._valued_hops(triple, ranked[key], to_values[triple], endpoint,
                                                              class_words)
                    if triple in to_attributes:
                        ranked[key] = await self._referenced_attributes(triple, ranked[key], predicate_set,
                                                                        to_attributes[triple], endpoint, class_words)
                    if is_unknown(other) and triple not in to_values:
                        ranked[key] = await self._rows_between_kinds(
                            ranked[key], predicate_set, _classes_of(anchor, pattern, classes),
                            _sole_classes_of(anchor, pattern, classes), _best_classes_of(other, pattern, classes),
                            endpoint)
                    continue
                if triple.relation in named_kinds:
                    ranked[key] = _with_kind_links(ranked[key], predicate_set, *named_kinds[triple.relation],
                                                   descriptions)
                for (value, carrier), holder_set in holders.items():
                    if value != key:
                        continue
                    hops = await self.relation_linker.rank(triple.relation, holder_set, endpoint, top_k=MAX_HOPS,
                                                           descriptions=descriptions, class_words=class_words)
                    ranked[key] += [replace(p, score=p.score * HOP_FACTOR, through=carrier)
                                    for p in hops if p.score >= MIN_HOP_SCORE]
                    value_term = next((c.term for c in nodes.get(anchor, []) if c.term.value == key), None)
                    ranked[key] += await self._connectors(triple, carrier, holder_set, _classes_of(
                        triple.object if triple.subject == anchor else triple.subject, pattern, classes), endpoint,
                        sole=sum(1 for v, _ in holders if v == key) == 1, value=value_term)
                    if value_term is not None and is_unknown(other) and degrees[other] == 1 and \
                            max((p.score for p in ranked[key]), default=0.0) < MIN_FIT_BEFORE_BEYOND:
                        ranked[key] += await self._beyond_holders(triple, carrier, value_term, endpoint, class_words)
                first_scores = {(p.iri, p.direction == OUT): p.score for p in ranked[key] if not p.through}
                paths: list[LinkedPredicate] = []
                # "What type of pet does Linda Smith have?": an attribute of the things the rows naming her refer to
                leaf = is_unknown(other) and degrees[other] == 1 and not any(
                    t.is_type and other in t.nodes() for t in pattern.triples)
                rows_left = MAX_ROW_LOOKUPS
                # things of an asked kind touching the vertex: no record between them ("parts" of a bill of
                # material: its BOM part records touch it, the hardware they record does not)
                # ... or whatever the phrase, where it fits no predicate at all ("Which airlines fly out of Aspen
                # airport?": flights refer to the airport, airlines to the flights)
                meaningless = is_unknown(other) and max((p.score for p in ranked[key]), default=0.0) < MIN_HOP_SCORE
                # ... or where the phrase names the vertex's own kind ("the teachers who teach the Math course" read
                # as `?u2 | course | Math`: `course#course` holds the name, and says nothing of the teachers)
                own_kind = is_unknown(other) and bool(ranked[key]) and _names_own_kind(ranked[key][0], triple.relation) \
                    and bool(_classes_of(other, pattern, classes))
                if own_kind:  # a thing of a kind is no value of the vertex
                    ranked[key] = [p for p in ranked[key] if p.through or (p.iri, p.direction) not in predicate_set.literal]
                wanted = asked_kinds or (_classes_of(other, pattern, classes) if meaningless or own_kind else set())
                kinds = {k for k in wanted if not any(k in ends for ends in predicate_set.ends.values())}
                for (vertex, first, first_out), mid_set in beyond.items():
                    if vertex != key:
                        continue
                    onward = mid_set.outgoing()
                    hops = await self.relation_linker.rank(triple.relation, onward, endpoint, top_k=MAX_HOPS,
                                                           descriptions=descriptions, class_words=class_words)
                    first_score = first_scores.get((first, first_out), 0.0)
                    for p in hops:  # into the vertex, the first hop is unnamed: the phrase is the second's
                        hop_fit = max(p.score, (p.score + first_score) / 2) if first_out else p.score
                        if hop_fit >= MIN_HOP_SCORE:
                            paths.append(replace(p, score=PATH_FACTOR * hop_fit, through=first, through_out=first_out))
                    if first_out == held_in:  # holders of the vertex, or what the vertex holds, through records
                        paths += _record_links(mid_set, first, descriptions, paths, out=held_in, kinds=kinds)
                    if own_kind and not first_out:  # the rows naming the vertex refer to the things of the asked kind
                        paths += [LinkedPredicate(iri, descriptions.get(iri) or iri, PATH_FACTOR, OUT,
                                                  via_class=sorted(ends)[0], through=first, to_things=True)
                                  for iri, direction in sorted(onward.pairs)
                                  if (ends := mid_set.ends.get((iri, direction), frozenset()) & kinds)]
                    if not first_out and leaf and rows_left > 0 and \
                            max((p.score for p in [*ranked[key], *paths]), default=0.0) < NEIGHBOUR_FIT:
                        found = await self._attributes_beyond_rows(triple, vertex, first, mid_set, endpoint,
                                                                   class_words)
                        rows_left -= found is not None
                        paths += found or []
                ranked[key] += paths
                if is_unknown(other) and other in valued:
                    ranked[key] += await self._values_beyond(key, ranked[key], endpoint)
                ranked[key] = sorted(ranked[key], key=lambda p: -p.score)[: options.predicates_per_edge]
            edges.append(EdgeLinks(triple, anchor, ranked))
            best = sorted({p for r in ranked.values() for p in r}, key=lambda p: -p.score)[: options.predicates_per_edge]
            evidence.append(EdgeEvidence(triple.relation, f"{triple.subject} | {triple.relation} | {triple.object}",
                                         anchor, best))
        return edges, evidence, around


    async def _through_bindings(self, triple: PhraseTriple, ranked: list[LinkedPredicate], anchored: tuple[str, str],
                                endpoint: Endpoint, descriptions: dict[str, str], class_words: dict[str, str],
                                top_k: int, *, holding: bool = False) -> list[LinkedPredicate]:
        """An edge between two unknowns whose anchor's things have no predicate fitting the phrase well
        ("?u1 | suppliers | ?u2" where ?u2 are the part records of a bill of material): the predicates of
        the things one hop beyond them (the parts), each after its first hop, as paths (PATH_FACTOR). A
        phrase that says holding also takes every link of those records to things (`_record_links`)."""
        anchor_node, anchor_pattern = anchored
        beyond = await self.relation_linker.predicates_through_bindings(anchor_pattern, anchor_node, endpoint)
        paths: list[LinkedPredicate] = []
        for first, mid_set in beyond.items():
            hops = await self.relation_linker.rank(triple.relation, mid_set, endpoint, top_k=MAX_HOPS,
                                                   descriptions=descriptions, class_words=class_words)
            paths += [replace(p, score=PATH_FACTOR * p.score, through=first, through_out=True)
                      for p in hops if p.score >= NEIGHBOUR_FIT]
            if holding:
                paths += _record_links(mid_set, first, descriptions, paths, out=True)
        return sorted([*ranked, *paths], key=lambda p: -p.score)[:top_k]

    async def _related_to_holders(self, triples: list[PhraseTriple], nodes: dict[str, list[LinkedEntity]],
                                  holders: dict[tuple[str, str], PredicateSet], endpoint: Endpoint,
                                  ) -> dict[tuple[str, str], tuple[str, str]]:
        """Unknowns next to the thing holding a question value rather than that thing itself: "the
        department of the product manager of M770-3602005" (`?u2 | product manager | M770-3602005`,
        the code an `id` literal) names the holder's `hasProductManager`, so ?u2 is what that predicate
        leads to; "?u2 | product | Z763-7274829" (the holder's class) or "?u2 | state | CA" (the
        carrier) is the holder. Per (unknown, value): the predicate and its direction from the holder."""
        related: dict[tuple[str, str], tuple[str, str]] = {}
        for triple in triples:
            for node, named in ((triple.subject, triple.object), (triple.object, triple.subject)):
                found = nodes.get(named) if is_unknown(node) and not is_unknown(named) else None
                if not found or not found[0].is_literal or not found[0].predicates:
                    continue
                value, carrier = found[0], found[0].predicates[0]
                holder_set = holders.get((value.term.value, carrier))
                if not holder_set:
                    continue
                kinds = await self.entity_linker.link_classes(triple.relation, endpoint, top_k=1, min_score=CLASS_FIT)
                holder_classes = {c for _, c in value.subject_classes}
                if kinds and holder_classes & {kinds[0].term.value, *kinds[0].subclasses}:
                    continue
                carrier_fit = await self.relation_linker.rank(triple.relation, PredicateSet(frozenset({(carrier, OUT)})),
                                                              endpoint, top_k=1)
                ranked = await self.relation_linker.rank(triple.relation, holder_set, endpoint, top_k=1)
                if ranked and ranked[0].score >= NEIGHBOUR_FIT and \
                        ranked[0].score > (carrier_fit[0].score if carrier_fit else 0.0):
                    related[(node, named)] = (ranked[0].iri, ranked[0].direction)
        return related

    async def _related_to_vertices(self, triples: list[PhraseTriple], pattern: PhraseGraphPattern,
                                   nodes: dict[str, list[LinkedEntity]], around: dict[str, PredicateSet],
                                   beyond: dict[tuple[str, str, bool], PredicateSet],
                                   endpoint: Endpoint) -> dict[tuple[str, str], tuple[str, ...]]:
        """Unknowns next to a named thing whose relation phrase names one of its predicates clearly ("the
        manager of the product manager of X": `?u2 | product manager | X`, X's `hasProductManager`): ?u2 is
        what that predicate leads to, so the edges beyond ?u2 are looked for around those things, not
        around everything next to X. Only for unknowns that also have an edge to another unknown and no
        class. Per (unknown, name): the predicate and its direction from the thing; or, where the phrase
        names a path through records out of the thing better than any predicate of its own ("the parts of
        <BOM>": `hasBomPart` then `hasPart`), the second predicate, its direction and the first one."""
        related: dict[tuple[str, str], tuple[str, ...]] = {}
        for triple in triples:
            for node, named in ((triple.subject, triple.object), (triple.object, triple.subject)):
                found = nodes.get(named) if is_unknown(node) and not is_unknown(named) else None
                if not found or found[0].is_literal or any(t.is_type and t.subject == node for t in pattern.triples) or \
                        not any(t is not triple and not t.is_type and node in t.nodes() and
                                all(is_unknown(n) for n in t.nodes()) for t in triples):
                    continue
                predicate_set = union(around.get(iri) for iri in found[0].iris)
                ranked = await self.relation_linker.rank(triple.relation, predicate_set, endpoint, top_k=2)
                if ranked and ranked[0].score >= NEIGHBOUR_FIT and not ranked[0].through and \
                        (len(ranked) < 2 or ranked[1].score < ranked[0].score or ranked[1].iri == ranked[0].iri):
                    related[(node, named)] = (ranked[0].iri, ranked[0].direction)
                elif (through := await self._related_through(triple, found[0], ranked, beyond, endpoint)) is not None:
                    related[(node, named)] = through
        return related

    async def _related_through(self, triple: PhraseTriple, vertex: LinkedEntity, ranked: list[LinkedPredicate],
                               beyond: dict[tuple[str, str, bool], PredicateSet], endpoint: Endpoint
                               ) -> tuple[str, str, str] | None:
        """The one path out of a vertex through the things it points to whose second predicate the phrase
        names clearly (`NEIGHBOUR_FIT`) and better than any predicate of the vertex's own."""
        own = ranked[0].score if ranked else 0.0
        best: list[tuple[float, str, str, str]] = []
        for (key, first, first_out), mid_set in beyond.items():
            if key not in vertex.iris or not first_out:
                continue
            onward = mid_set.outgoing()
            for p in await self.relation_linker.rank(triple.relation, onward, endpoint, top_k=2):
                best.append((p.score, p.iri, p.direction, first))
        best.sort(reverse=True)
        if not best or best[0][0] < NEIGHBOUR_FIT or best[0][0] <= own or (len(best) > 1 and best[1][0] == best[0][0]
                                                                          and best[1][1:] != best[0][1:]):
            return None
        _, predicate, direction, first = best[0]
        return predicate, direction, first

    async def _named_kinds(self, triples: list[PhraseTriple], endpoint: Endpoint
                           ) -> dict[str, tuple[LinkedEntity, set[str]]]:
        """Relation phrases between a linked thing and an unknown that name a class ("?u1 | products |
        <Estes, Johnston and Richardson>"), with that class and its subclasses (no request: the class
        list is fetched once per endpoint)."""
        phrases = list(dict.fromkeys(t.relation for t in triples))
        if not phrases:
            return {}
        found = await asyncio.gather(*(self.entity_linker.link_classes(p, endpoint, top_k=1, min_score=CLASS_FIT)
                                       for p in phrases))
        return {phrase: (classes[0], {classes[0].term.value, *classes[0].subclasses})
                for phrase, classes in zip(phrases, found, strict=True) if classes}

    async def _connectors(self, triple: PhraseTriple, carrier: str, holder_set: PredicateSet,
                          answer_classes: set[str], endpoint: Endpoint, *, sole: bool = False,
                          value: Term | None = None) -> list[LinkedPredicate]:
        """When the predicate carrying a question value already says what the relation phrase says
        ("uses interviews as evaluation method": `?c evaluationMethod "Interview"`), the hop from the
        thing holding the value to the answer is an unnamed connector (a paper's `contribution`): the
        holder's predicates whose other end is of the answer's class, scored by the carrier's fit.
        `sole`: no other predicate carries the value ("investigate" a "Reference Architecture", only
        ever a `researchObject`), so the carrier is read whatever its fit, at that fit's score. Where no
        predicate of the holder reaches the answer's class, two connector hops through the thing in between
        (`_linked_through_rows`)."""
        if not answer_classes:
            return []
        fit = await self.relation_linker.rank(triple.relation, PredicateSet(frozenset({(carrier, OUT)})), endpoint,
                                              top_k=1)
        if not fit or (fit[0].score < CONNECTOR_MIN_FIT and not sole):
            return []
        pairs = sorted(pair for pair in holder_set.pairs if holder_set.ends.get(pair, frozenset()) & answer_classes)
        if not pairs and value is not None:
            holders = (f"{{ SELECT DISTINCT ?h WHERE {{ ?h <{carrier}> {term_to_sparql(value)} }} "
                       f"LIMIT {CONNECTOR_HOLDERS} }}")
            return await self._linked_through_rows(holders, answer_classes, endpoint,
                                                   fit[0].score * HOP_FACTOR * CONNECTOR_FACTOR * CONNECTOR_FACTOR,
                                                   carrier=carrier)
        labels = await endpoint.describe_predicates([iri for iri, _ in pairs]) if pairs else {}
        return [LinkedPredicate(iri, labels.get(iri) or local_name(iri), fit[0].score * HOP_FACTOR * CONNECTOR_FACTOR,
                                direction, through=carrier) for iri, direction in pairs[:MAX_HOPS]]

    async def _beyond_holders(self, triple: PhraseTriple, carrier: str, value: Term, endpoint: Endpoint,
                              class_words: dict[str, str]) -> list[LinkedPredicate]:
        """"How many different destination airports does JetBlue Airways fly to?" where the name is held by an
        airline (`airlines#airline`) that points to its flights (`airlines#ref-uid`), whose destination airports
        fit the phrase: paths value <- holder -> thing -> answer, for second hops fitting the phrase well (one
        request, only where nothing around the holder fits the phrase)."""
        mids = await self.relation_linker.predicates_through_bindings(
            f"?kgqaHeld <{carrier}> {term_to_sparql(value)} .", "?kgqaHeld", endpoint)
        iris = sorted({iri for found in mids.values() for iri, _ in found.pairs})
        descriptions = await endpoint.describe_predicates(iris) if iris else {}
        paths: list[LinkedPredicate] = []
        for first, mid_set in sorted(mids.items())[:MAX_HOPS]:
            onward = mid_set.outgoing()
            hops = await self.relation_linker.rank(triple.relation, onward, endpoint, top_k=MAX_HOPS,
                                                   descriptions=descriptions, class_words=class_words)
            paths += [LinkedPredicate(first, local_name(first), HOP_FACTOR * PATH_FACTOR * p.score, OUT, literal=p.literal,
                                      through=carrier, then=p.iri, then_out=True)
                      for p in hops if p.score >= NEIGHBOUR_FIT]
        return paths

    async def _attributes_beyond_rows(self, triple: PhraseTriple, vertex: str, first: str, rows: PredicateSet,
                                      endpoint: Endpoint, class_words: dict[str, str]) -> list[LinkedPredicate] | None:
        """"What type of pet does Linda Smith have?" where rows (`has_pet`) refer to her by `first` (`ref-stuid`)
        and to other things (`ref-petid` -> a pet): the attributes of those things that fit the relation phrase
        (`pettype`), as paths vertex <- row -> thing -> value (one request; None where the rows refer to nothing
        else or are labelled, without a request)."""
        links = sorted(iri for iri, direction in rows.things - rows.literal if direction == OUT and iri not in (first, RDF_TYPE))
        if not links or any((label, OUT) in rows.pairs for label in WELL_KNOWN_LABELS):
            return None  # labelled things in their own right (a class's properties), not a table's rows
        beyond = await self.relation_linker.predicates_beyond_bindings(f"?kgqaRow <{first}> <{vertex}> .", "?kgqaRow",
                                                                       links[:MAX_HOPS], endpoint)
        iris = sorted({iri for found in beyond.values() for iri, _ in found.pairs})
        descriptions = await endpoint.describe_predicates(iris) if iris else {}
        paths = []
        for link, attributes in beyond.items():
            hops = await self.relation_linker.rank(triple.relation, attributes, endpoint, top_k=MAX_HOPS,
                                                   descriptions=descriptions, class_words=class_words)
            paths += [LinkedPredicate(link, local_name(link), PATH_FACTOR * PATH_FACTOR * p.score, OUT, literal=True,
                                      through=first, then=p.iri, then_out=True)
                      for p in hops if p.score >= NEIGHBOUR_FIT]
        return paths

    @staticmethod
    async def _linked_through_rows(holders: str, answer_classes: set[str], endpoint: Endpoint, score: float, *,
                                   carrier: str | None = None) -> list[LinkedPredicate]:
        """"Which students own a dog?" where a pet holds "dog" and students own pets through the rows of a link
        table (`has_pet`: `ref-petid`, `ref-stuid`): the two hops from a sample of `holders` (a subquery binding
        ?h: the value's holders, by its `carrier`, or the things of an edge's anchor) through the unlabelled
        things next to them (rows, not papers in their own right) to things of the answer's class, as unnamed
        connectors (one request; none where it fails)."""
        kinds = ", ".join(f"<{c}>" for c in sorted(answer_classes))
        first = (f'{{ ?h ?p1 ?m BIND("{OUT}" AS ?d1) }} UNION {{ ?m ?p1 ?h BIND("{IN}" AS ?d1) }} '
                 f"FILTER(isIRI(?m) && ?m != ?h && ?p1 != <{RDF_TYPE}>) {unlabelled('?m')}")
        second = (f'{{ ?m ?p2 ?a BIND("{OUT}" AS ?d2) }} UNION {{ ?a ?p2 ?m BIND("{IN}" AS ?d2) }} '
                  f"FILTER(?p2 != ?p1 && ?p2 != <{RDF_TYPE}> && ?a != ?h)")
        query = (f"SELECT DISTINCT ?p1 ?d1 ?p2 ?d2 WHERE {{ {holders} {first} {second} ?a <{RDF_TYPE}> ?c . "
                 f"FILTER(?c IN ({kinds})) }} LIMIT {MAX_HOPS * 4}")
        result = await optional_select(endpoint.sparql, query)
        links = []
        for row in result or []:
            p1, d1, p2, d2 = (row.get(v) for v in ("p1", "d1", "p2", "d2"))
            if isinstance(p1, ox.NamedNode) and isinstance(p2, ox.NamedNode) and d1 is not None and d2 is not None:
                links.append(LinkedPredicate(p1.value, local_name(p1.value), score, d1.value, through=carrier,
                                             then=p2.value, then_out=d2.value == OUT))
        return sorted(links, key=lambda p: (p.iri, p.direction, p.then or ""))[:MAX_HOPS]

    async def _rows_between_kinds(self, ranked: list[LinkedPredicate], predicate_set: PredicateSet,
                                  anchor_classes: set[str], anchor_best: set[str], other_classes: set[str],
                                  endpoint: Endpoint) -> list[LinkedPredicate]:
        """"Which singers have not performed in any concert?" where no predicate of the singers fitting the
        phrase reaches a concert (the rows of `singer_in_concert` refer to both): the two hops from things of
        the anchor's classes through such rows to things of the other end's best class (`_linked_through_rows`),
        whatever the phrase, at KIND_PATH_SCORE (one request, only where no predicate fits the phrase well).
        Where predicates of things of the anchor's best classes reach things of that class themselves ("Which
        templates are used by a document?": `documents#ref-template_id`), they are the link instead, at
        KIND_LINK_SCORE (`_links_between_kinds`; one request either way)."""
        fitting = [p for p in ranked if p.score >= MIN_HOP_SCORE]
        if not anchor_classes or not other_classes or anchor_classes & other_classes or \
                any(p.score >= NEIGHBOUR_FIT or other_classes & predicate_set.ends.get((p.iri, p.direction), frozenset())
                    for p in fitting):
            return ranked
        direct = await self._links_between_kinds(
            sorted(pair for pair, ends in predicate_set.ends.items() if other_classes & ends and pair[0] != RDF_TYPE),
            anchor_best, other_classes, endpoint)
        if direct:
            lifted = [replace(p, score=KIND_LINK_SCORE + p.score / 10) if (p.iri, p.direction) in direct and not p.through
                      else p for p in ranked]
            seen = {(p.iri, p.direction) for p in ranked if not p.through}
            lifted += [LinkedPredicate(iri, local_name(iri), KIND_LINK_SCORE, direction, to_things=True)
                       for iri, direction in sorted(direct - seen)]
            return sorted(lifted, key=lambda p: -p.score)
        members = ", ".join(f"<{c}>" for c in sorted(anchor_classes))
        holders = (f"{{ SELECT DISTINCT ?h WHERE {{ ?h a ?kgqaHolderClass FILTER(?kgqaHolderClass IN ({members})) }} "
                   f"LIMIT {CONNECTOR_HOLDERS} }}")
        rows = await self._linked_through_rows(holders, other_classes, endpoint, KIND_PATH_SCORE)
        return sorted([*ranked, *rows], key=lambda p: -p.score)

    @staticmethod
    async def _links_between_kinds(pairs: Sequence[tuple[str, str]], anchor_classes: set[str], other_classes: set[str],
                                   endpoint: Endpoint) -> set[tuple[str, str]]:
        """Which of the (predicate, direction) `pairs` found around an anchor link things of its `anchor_classes`
        to things of `other_classes`: the anchor's other class candidates have predicates of their own (a
        `has_pet` row's `ref-stuid` reaches a student, a pet's predicates do not). One request; none if no pairs."""
        if not pairs or not anchor_classes:
            return set()
        branches = " UNION ".join(
            f'{{ ?h <{iri}> ?o BIND("{OUT}" AS ?d) BIND(<{iri}> AS ?p) }}' if direction == OUT else
            f'{{ ?o <{iri}> ?h BIND("{IN}" AS ?d) BIND(<{iri}> AS ?p) }}' for iri, direction in pairs)
        anchors = ", ".join(f"<{c}>" for c in sorted(anchor_classes))
        others = ", ".join(f"<{c}>" for c in sorted(other_classes))
        query = (f"SELECT DISTINCT ?p ?d WHERE {{ {branches} ?h <{RDF_TYPE}> ?ka FILTER(?ka IN ({anchors})) "
                 f"?o <{RDF_TYPE}> ?ko FILTER(?ko IN ({others})) }} LIMIT {len(pairs)}")
        result = await optional_select(endpoint.sparql, query)
        return {(row["p"].value, row["d"].value) for row in result or [] if row.get("p") is not None and row.get("d") is not None}

    async def _valued_hops(self, triple: PhraseTriple, ranked: list[LinkedPredicate], anchor: tuple[str, str | None],
                           endpoint: Endpoint, class_words: dict[str, str]) -> list[LinkedPredicate]:
        """An edge to a value that is ordered, compared or aggregated ("the most expensive product")
        whose best predicates lead to things, not values (`price` -> a price node): the numeric or
        date attributes of those things (`price/amount`) as two-hop readings (one request)."""
        out = list(ranked)
        firsts = [p for p in ranked if p.direction == OUT and not p.literal and not p.through][:MAX_HOPS]
        if not firsts or firsts[0].score < MIN_HOP_SCORE:
            return sorted([*out, *await self._values_of_linked_things(triple, firsts, out, anchor, endpoint, class_words)],
                          key=lambda p: -p.score)
        first_scores = {p.iri: p.score for p in firsts}
        anchor_node, anchor_pattern = anchor
        hops_by_first = await self.relation_linker.predicates_beyond_bindings(anchor_pattern, anchor_node,
                                                                              list(first_scores), endpoint)
        iris = sorted({iri for s in hops_by_first.values() for iri, _ in s.pairs})
        descriptions = await endpoint.describe_predicates(iris) if iris else {}
        for first, hop_set in hops_by_first.items():
            if first not in first_scores:
                continue
            literal_only = PredicateSet(hop_set.literal, hop_set.ends, hop_set.literal)
            hops = await self.relation_linker.rank(triple.relation, literal_only, endpoint, top_k=MAX_HOPS,
                                                   descriptions=descriptions, class_words=class_words)
            # a thing with one number or date (a price's amount) has that as its value: the phrase named the thing
            sole = len(literal_only.pairs) == 1
            out += [replace(p, score=PATH_FACTOR * (max(p.score, first_scores[first]) if sole else
                                                    (p.score + first_scores[first]) / 2),
                            through=first, through_out=True) for p in hops]
        return sorted(out, key=lambda p: -p.score)

    async def _values_of_linked_things(self, triple: PhraseTriple, firsts: list[LinkedPredicate],
                                       ranked: list[LinkedPredicate], anchor: tuple[str, str | None], endpoint: Endpoint,
                                       class_words: dict[str, str]) -> list[LinkedPredicate]:
        """"The cheapest part in the NaviTech Pulsar BOM" where the parts are records of a bill of material
        (`record hasPart ?part`) and no value of the records fits: the value nodes of the one thing a
        record links to, taken on to their number (`?part price ?p . ?p amount ?value`), as readings
        through that link (two requests, only where no value reading fits at all)."""
        anchor_node, anchor_pattern = anchor
        if not anchor_pattern or len(firsts) != 1 or \
                max((p.score for p in ranked if p.literal or p.value_of), default=0.0) >= WEAK_VALUE_FIT:
            return []
        first = firsts[0]
        bound = f"{anchor_pattern} {anchor_node} <{first.iri}> ?kgqaThing"
        around = await self.relation_linker.predicates_of_bindings(bound, "?kgqaThing", endpoint)
        to_things = frozenset(pair for pair in around.pairs if pair[1] == OUT and pair not in around.literal
                              and pair[0] != RDF_TYPE)
        if not to_things:
            return []
        descriptions = await endpoint.describe_predicates(sorted(iri for iri, _ in to_things))
        fitting = [p for p in await self.relation_linker.rank(triple.relation, PredicateSet(to_things), endpoint,
                                                              top_k=VALUE_PATHS, descriptions=descriptions,
                                                              class_words=class_words) if p.score >= MIN_HOP_SCORE]
        if not fitting:
            return []
        found = await self.relation_linker.predicates_beyond_bindings(bound, "?kgqaThing", [p.iri for p in fitting],
                                                                      endpoint)
        return [replace(p, score=PATH_FACTOR * p.score, through=first.iri, through_out=True, value_of=value, literal=True)
                for p in fitting if (value := _sole_value(found, p.iri))]

    async def _values_beyond(self, vertex: str, ranked: list[LinkedPredicate],
                             endpoint: Endpoint) -> list[LinkedPredicate]:
        """A value that is asked for, ordered, compared or aggregated, where the vertex's best readings
        lead to things, not values: "the price of <Aluminum Switch>" (`<v> price ?x`) or "the average
        price of Resistor products" (`?p hasCategory <Resistor> . ?p price ?x`) go one hop more to the
        things' number or date (`?x amount ?value`) when they have one such attribute, at the reading's
        own score (one request per first hop, for the best such readings)."""
        things = sorted((p for p in ranked if p.direction == OUT and not p.literal and not p.value_of),
                        key=lambda p: -p.score)[:VALUE_PATHS]
        by_first: dict[tuple[str, bool], list[LinkedPredicate]] = {}
        for p in things:
            by_first.setdefault((p.through or "", p.through_out), []).append(p)

        async def values(first: str, first_out: bool, hops: list[LinkedPredicate]) -> list[LinkedPredicate]:
            anchor_pattern = (f"VALUES ?kgqaNext {{ <{vertex}> }}" if not first else
                              f"<{vertex}> <{first}> ?kgqaNext" if first_out else f"?kgqaNext <{first}> <{vertex}>")
            found = await self.relation_linker.predicates_beyond_bindings(anchor_pattern, "?kgqaNext",
                                                                          [p.iri for p in hops], endpoint)
            return [replace(p, value_of=value, literal=True) for p in hops if (value := _sole_value(found, p.iri))]

        found = await asyncio.gather(*(values(first, first_out, hops) for (first, first_out), hops in by_first.items()))
        return [p for group in found for p in group]

    async def _referenced_attributes(self, triple: PhraseTriple, ranked: list[LinkedPredicate],
                                     predicate_set: PredicateSet, anchor: tuple[str, str | None], endpoint: Endpoint,
                                     class_words: dict[str, str]) -> list[LinkedPredicate]:
        """"The names of poker players" where a poker player has no name but refers to a person who
        has (`ref-people_id/name`, as tables joined by a foreign key), or "the paragraph texts of a
        document" held by the paragraphs that refer to it: when no predicate of the things fits the
        attribute phrase well, the literal attributes of the things they refer to or that refer to them,
        as two-hop readings behind an unnamed first hop (one request)."""
        if ranked and ranked[0].score >= REFERENCE_BELOW:
            return ranked

        def references(way: str) -> list[str]:
            return sorted(iri for iri, direction in predicate_set.pairs
                          if direction == way and iri != RDF_TYPE and predicate_set.ends.get((iri, direction)))[:MAX_HOPS]

        anchor_node, anchor_pattern = anchor
        outgoing, incoming = references(OUT), references(IN)
        if not anchor_pattern or not (outgoing or incoming):
            return ranked
        beyond = await self.relation_linker.attributes_of_neighbours(anchor_pattern, anchor_node, outgoing, incoming,
                                                                     endpoint)
        iris = sorted({iri for s in beyond.values() for iri, _ in s.pairs})
        descriptions = await endpoint.describe_predicates(iris) if iris else {}
        out = list(ranked)
        for (first, first_out), hop_set in beyond.items():
            hops = await self.relation_linker.rank(triple.relation, hop_set, endpoint, top_k=MAX_HOPS,
                                                   descriptions=descriptions, class_words=class_words)
            factor = PATH_FACTOR * REFERENCE_FACTOR * (1.0 if first_out else REFERRER_FACTOR)
            out += [replace(read, score=factor * weight * p.score, through=first, through_out=first_out)
                    for p in hops if p.score >= MIN_HOP_SCORE for read, weight in _read_for_key(p, triple.relation)]
        return sorted(out, key=lambda p: -p.score)


_ASKS_A_KEY = re.compile(r"\b(?:ids?|identifiers?|numbers?|codes?|keys?)\b", re.IGNORECASE)


def _read_for_key(predicate: LinkedPredicate, phrase: str) -> tuple[tuple[LinkedPredicate, float], ...]:
    """A key column reached through a neighbour (`course_arrange#teacher_id`) read first as the link that
    relational data published as RDF writes beside it (`course_arrange#ref-teacher_id`, ontop's naming),
    then as itself: "Which teacher ..." asks for the teacher, not its number; where no such link exists its
    query finds nothing and the column answers. As it is where the phrase asks for an id or a number."""
    table, _, column = predicate.iri.rpartition("#")
    if not table or not column.endswith("_id") or column.startswith("ref-") or _ASKS_A_KEY.search(phrase):
        return ((predicate, 1.0),)
    link = replace(predicate, iri=f"{table}#ref-{column}", label=f"ref {predicate.label}", literal=False, to_things=True)
    return (link, 1.0), (predicate, KEY_COLUMN_FACTOR)


def _echoes_its_names(result: PathResult, pattern: PhraseGraphPattern) -> bool:
    """Whether every answer only repeats a name the reading starts from (`?u1 | names | History` answered
    "History", the course's own name column): a reading that answers with the question's own words found nothing."""
    names = {n.strip().strip("\"'").lower() for t in pattern.triples if not t.is_type
             for n in t.nodes() if not is_unknown(n)}
    return bool(names) and bool(result.answers) and all(
        (a.label or a.value).strip().lower() in names for a in result.answers)


def mirrored_names(pattern: PhraseGraphPattern) -> set[str]:
    """The names a mirrored pattern reaches the answer from (`?u2 | authors | Ingo Weber ; ?u1 | authors |
    ?u2`: the co-authors of Ingo Weber), lower-cased: the name answers such a pattern trivially (everyone
    co-wrote with himself), so it is no answer; empty for any other pattern."""
    names = set()
    for named in pattern.triples:
        if named.is_type or is_unknown(named.object) or not is_unknown(named.subject):
            continue
        middle = named.subject
        if any(t.relation.lower() == named.relation.lower() and t.object == middle and t.subject == ANSWER
               for t in pattern.triples):
            names.add(named.object.strip().strip("\"'").lower())
    return names


def _sole_value(found: dict[str, PredicateSet], first: str) -> str | None:
    """The one number or date predicate of the things reached by `first`, if they have exactly one: a
    thing with one such value (a price's amount) has it as its value."""
    numeric = sorted(iri for iri, _ in found.get(first, PredicateSet(frozenset())).literal)
    return numeric[0] if len(numeric) == 1 else None


def _with_kind_links(ranked: list[LinkedPredicate], around: PredicateSet, kind: LinkedEntity, members: set[str],
                     descriptions: dict[str, str]) -> list[LinkedPredicate]:
    """"The products supplied by <Estes...>" read as "?u1 | products | <Estes...>": the thing's
    predicates whose other end is of the class the relation phrase names (`?u1 hasSupplier <Estes>`,
    the ?u1 being Hardware, a kind of Product) link it to the answer, scored by the class's fit
    (`KIND_LINK_FACTOR` less: the phrase named the kind, not the link), unless one of its predicates
    fits the phrase itself."""
    if any(p.score >= REFERENCE_BELOW for p in ranked if not p.through and not p.value_of):
        return ranked  # a predicate of the thing fits the phrase itself ("compatible product")
    score = kind.score * KIND_LINK_FACTOR
    links = [LinkedPredicate(iri, descriptions.get(iri) or local_name(iri), score, direction, via_class=kind.term.value)
             for iri, direction in sorted(around.pairs)
             if iri != RDF_TYPE and around.ends.get((iri, direction), frozenset()) & members][:MAX_HOPS]
    linked = {(p.iri, p.direction) for p in links}
    kept = [p for p in ranked if p.through or p.value_of or (p.iri, p.direction) not in linked]
    return sorted(kept + links, key=lambda p: -p.score)


def with_counted_kind_reading(understood: UnderstoodQuestion) -> UnderstoodQuestion:
    """"How many products of the category Switch are there?" read as `count :: ?u1 | category |
    Switch`: the counted thing's kind ("products", the question's wh-noun) is offered as the next
    reading, `?u1 | is a | products` added, which answers when it fits about as well (see
    `adds_a_class`). Not in understanding: the derived gold mostly leaves such classes out."""
    pattern, noun = understood.pattern, understood.wh_noun
    if pattern.form is not QuestionForm.COUNT or not noun or pattern.grouped or \
            any(t.is_type and t.subject == ANSWER for t in pattern.triples) or \
            _word_set(noun) & {w for t in pattern.triples for part in (t.subject, t.relation, t.object)
                               for w in _word_set(part)}:
        return understood
    counted = replace(pattern, triples=(*pattern.triples, PhraseTriple(ANSWER, TYPE_RELATION, noun)))
    return replace(understood, alternatives=(counted, *(a for a in understood.alternatives if a != counted)))


# "female students": the sex a table stores as a code ("F") or a word, tried in this order
SEX_CODES = {"female": ("F", "Female"), "male": ("M", "Male")}


def with_sex_kinds(question: str, pattern: PhraseGraphPattern) -> PhraseGraphPattern:
    """"Which female students are older than 20?" (`?u1 | is a | female students`, or the model's `students`
    alone): a kind the question says "female" or "male" of is the kind of that sex (`?u1 | is a | students ;
    ?u1 | sex | female`, the word linked as the code the graph stores)."""
    if any(t.relation == "sex" for t in pattern.triples):
        return pattern
    triples: list[PhraseTriple] = []
    for triple in pattern.triples:
        adjective, _, kind = triple.object.partition(" ")
        if triple.is_type and kind and adjective.lower() in SEX_CODES:
            triples += [replace(triple, object=kind), PhraseTriple(triple.subject, "sex", adjective.lower())]
            continue
        triples.append(triple)
        said = re.search(rf"\b({'|'.join(SEX_CODES)})\s+{re.escape(triple.object)}\b", question, re.IGNORECASE) \
            if triple.is_type else None
        if said is not None:
            triples.append(PhraseTriple(triple.subject, "sex", said.group(1).lower()))
    return pattern if len(triples) == len(pattern.triples) else replace(pattern, triples=tuple(triples))


def with_demonym_kinds(pattern: PhraseGraphPattern) -> PhraseGraphPattern:
    """"Which Brazilian supplier offers ...?" (`?u1 | is a | Brazilian supplier`): a kind after a people's
    adjective is the kind from that country (`?u1 | is a | supplier ; ?u1 | country | Brazilian`, the
    adjective linked as its country), where the class alone would drop the country."""
    triples: list[PhraseTriple] = []
    for triple in pattern.triples:
        adjective, _, kind = triple.object.partition(" ")
        if triple.is_type and kind and country_of(adjective) is not None and adjective[:1].isupper():
            triples += [replace(triple, object=kind), PhraseTriple(triple.subject, "country", adjective)]
        else:
            triples.append(triple)
    return pattern if len(triples) == len(pattern.triples) else replace(pattern, triples=tuple(triples))


def _drops_a_name_asked_about(best: PhraseGraphPattern, alternative: PhraseGraphPattern) -> bool:
    """Whether a yes/no reading's next one leaves out a name the best one asks about (a capitalised word of
    its names): "Does Karch Moeller report to Elena Herzog?" read next as `?u1 | report to | Elena Herzog`
    would say yes for anyone reporting to her, so a no of the best reading must stand."""
    if best.form is not QuestionForm.BOOLEAN:
        return False
    said = {w for phrase in alternative.entity_phrases() for w in phrase.split()}
    return any(w[:1].isupper() and w not in said for phrase in best.entity_phrases() for w in phrase.split())


def _drops_a_negation(best: PhraseGraphPattern, other: PhraseGraphPattern) -> bool:
    """Whether another reading leaves out a relation the best one says must not hold ("Which airlines never fly out
    of AAF?" read as the airlines of AAF's flights): answered in its place, it would answer the opposite."""
    def negated(pattern: PhraseGraphPattern) -> int:
        return sum(1 for t in pattern.triples if t.relation.startswith(NEGATION))

    return negated(other) < negated(best)


def _keeps_only_the_class(best: PhraseGraphPattern, alternative: PhraseGraphPattern) -> bool:
    """Whether the next reading says nothing of the answer but its class while the best one states conditions
    that name something: "Which papers conducted interviews and also used a questionnaire?" read next as
    `?u1 | is a | papers` would answer every paper when the papers so described are not in the graph (a
    condition among unknowns only, "the total number of singers" as `?u1 | number | ?u2`, names nothing)."""
    if alternative.comparisons or alternative.ordering or alternative.group or \
            any(not (t.is_type and t.subject == ANSWER) for t in alternative.triples):
        return False
    return bool(best.comparisons or best.ordering or any(
        not t.is_type and not all(is_unknown(node) for node in t.nodes()) for t in best.triples))


def linked_through_one(pattern: PhraseGraphPattern) -> PhraseGraphPattern | None:
    """A yes/no pattern of one relation between two named things (`X | supplier | United States`), read
    through one thing between them (`X | supplier | ?u1 ; ?u1 | supplier | United States`); else None."""
    if pattern.form is not QuestionForm.BOOLEAN or pattern.comparisons or len(pattern.triples) != 1:
        return None
    triple = pattern.triples[0]
    if triple.is_type or is_unknown(triple.subject) or is_unknown(triple.object) or triple.relation.startswith(NEGATION):
        return None
    return replace(pattern, triples=(PhraseTriple(triple.subject, triple.relation, ANSWER),
                                     PhraseTriple(ANSWER, triple.relation, triple.object)))


def role_record_reading(pattern: PhraseGraphPattern) -> PhraseGraphPattern | None:
    """A yes/no pattern of a named thing's class (`Teodor Salparov | is a | poker player`), read as a record of
    the class that refers to the thing (`?u1 | is a | poker player ; ?u1 | poker player | Teodor Salparov`); else None."""
    if pattern.form is not QuestionForm.BOOLEAN or pattern.comparisons or len(pattern.triples) != 1:
        return None
    triple = pattern.triples[0]
    if not triple.is_type or is_unknown(triple.subject) or is_unknown(triple.object):
        return None
    return replace(pattern, triples=(PhraseTriple(ANSWER, TYPE_RELATION, triple.object),
                                     PhraseTriple(ANSWER, triple.object, triple.subject)))


# a record's class and its reference to a named thing, in the SPARQL of `role_record_reading`
_RECORD_TYPED = re.compile(rf"\?unknown1 <{re.escape(RDF_TYPE)}> <([^>]+)>")
_RECORD_REFERS = re.compile(rf"\?unknown1 <(?!{re.escape(RDF_TYPE)}>)[^>]+> <[^>]+>")


def _joined_by_one_predicate(result: PathResult) -> bool:
    """Whether the thing between the two is reached by the same predicate from both ("both compatible
    with one product", "both eligible for it"): siblings, not a link between the two; or is a value two
    things hold by differently named predicates ("False" as one's threat to validity and another's guideline
    flag), not a thing linking them (a key and its reference share the name: `teacher_id`)."""
    sparql = result.evidence.sparql if isinstance(result.evidence, KgqanEvidence) else None
    if not sparql:
        return True
    body = sparql[sparql.find("{") + 1: sparql.rfind("}")]
    triples = [parts for triple in body.split(" . ") if ANSWER in triple and len(parts := triple.split()) >= 3]
    predicates = [parts[1] for parts in triples]
    shared_value = len(triples) > 1 and all(parts[2] == ANSWER for parts in triples) and \
        len({re.split(r"[/#]", p.strip("<>"))[-1] for p in predicates}) > 1
    return len(predicates) != len(set(predicates)) or shared_value


def _said_yes(result: PathResult) -> bool:
    return any(a.kind == "boolean" and a.value == "true" for a in result.answers)


def _asks_every_node(result: PathResult) -> bool:
    """Whether the chosen query holds a linked term of every node phrase of its reading: "Does Gretel Roth have
    expertise in compensators?" read as `?u1 | expertise in | Gretel Roth ; ?u1 | is a | compensators` on a graph
    without that class asks only whether she has any expertise."""
    evidence = result.evidence
    if not isinstance(evidence, KgqanEvidence) or not evidence.sparql:
        return False
    return all(any(f"<{iri}>" in evidence.sparql for c in node.candidates for iri in c.iris)
               or any(term_to_sparql(c.term) in evidence.sparql for c in node.candidates)
               for node in evidence.entities if any(ch.isalnum() for ch in node.phrase))  # ("?" names nothing)


# "ECSA 2017", "ICSA 2021": a name and a year
_DATED_NAME = re.compile(r"^(?P<name>[A-Z][\w&.-]*(?: [A-Z][\w&.-]*)*) (?P<year>(?:19|20)\d\d)$")


def with_dated_names(pattern: PhraseGraphPattern, names: Sequence[str]) -> PhraseGraphPattern:
    """The pattern with each of `names` ("ECSA 2017") as the name without its year, the year related to
    the same unknown (`?u1 | year | 2017`)."""
    triples: list[PhraseTriple] = []
    for triple in pattern.triples:
        for name in names:
            if name in triple.nodes() and not triple.is_type:
                found = _DATED_NAME.match(name)
                assert found is not None
                bare, year = found.group("name"), found.group("year")
                unknown = triple.subject if triple.object == name else triple.object
                triple = PhraseTriple(bare if triple.subject == name else triple.subject, triple.relation,
                                      bare if triple.object == name else triple.object)
                if is_unknown(unknown):
                    triples.append(triple)
                    triple = PhraseTriple(unknown, "year", year)
        triples.append(triple)
    return replace(pattern, triples=tuple(dict.fromkeys(triples)))


def _each_reading(understood: UnderstoodQuestion,
                  change: Callable[[PhraseGraphPattern], PhraseGraphPattern]) -> UnderstoodQuestion:
    """The question with `change` applied to its best reading and to each next one (kept once each)."""
    alternatives = tuple(dict.fromkeys(change(a) for a in understood.alternatives))
    return replace(understood, pattern=change(understood.pattern), alternatives=alternatives)


def _counted_nothing(result: PathResult) -> PathResult:
    """A count question whose every reading counted 0 ("How many products weigh more than 90 g?"):
    0 is the answer when the best-fitting query that counted it, of any reading, fits the graph well."""
    evidence = result.evidence
    if not isinstance(evidence, KgqanEvidence):
        return result
    zero = max(evidence.all_zero_counts(), key=lambda q: q.query.score, default=None)
    if zero is None or zero.query.score < WEAK_READING:
        return result
    result.answers = [Answer.count(0, score=round(zero.query.score, 4), sources=(zero.rank,))]
    evidence.sparql = zero.query.sparql
    result.notes.append(f"the best count query (score {zero.query.score:.2f}) counted nothing: the answer is 0")
    return result


def _kept(first: PathResult, tried: PathResult, note: str | None) -> PathResult:
    """The first reading's result stands; the requests of the reading tried after it count too."""
    first.sparql_requests += tried.sparql_requests
    first.setup_requests += tried.setup_requests
    if isinstance(first.evidence, KgqanEvidence) and isinstance(tried.evidence, KgqanEvidence):
        first.evidence.zero_counts += tried.evidence.all_zero_counts()
    if note:
        first.notes.append(note)
    return first


def _joined(first: PathResult, second: PathResult, both: tuple[str, str]) -> PathResult:
    """The first name's result with the second's answers added (each once), requests and time summed."""
    seen = {a.value for a in first.answers}
    first.answers += [a for a in second.answers if a.value not in seen]
    first.notes.insert(0, f"the question names two things ({both[0]}; {both[1]}): answered for each, answers joined")
    first.notes += [f"{both[1]}: {note}" for note in second.notes]
    first.sparql_requests += second.sparql_requests
    first.setup_requests += second.setup_requests
    first.timings_ms = {phase: spent + second.timings_ms.get(phase, 0.0) for phase, spent in first.timings_ms.items()}
    if not first.answers and second.answers:
        first.status = second.status
    return first


def _listed(understood: UnderstoodQuestion) -> UnderstoodQuestion:
    """A count question read as the list of what it counts ("How many products cost less than 10?" ->
    the products that do)."""
    def listed(pattern: PhraseGraphPattern) -> PhraseGraphPattern:
        return replace(pattern, form=QuestionForm.LIST) if pattern.form is QuestionForm.COUNT else pattern
    listed_understood = _each_reading(understood, listed)
    return replace(listed_understood, answer_type=build_answer_type(AnswerKind.RESOURCE, listed_understood.pattern))


def _either(first: PathResult, second: PathResult, either: Alternatives, form: QuestionForm) -> PathResult:
    """The two alternatives' results as one: the union of both lists (a count: its size), or yes if either
    says yes; the evidence of the one that answered (the first where both did)."""
    said = f"{either.said[0]}; {either.said[1]}"
    answering, other = (second, first) if second.answers and not first.answers else (first, second)
    if either.both:
        return _of_both(first, second, said, form)
    if either.excluded:
        return _of_first_only(first, second, said, form)
    if form is QuestionForm.BOOLEAN:
        if _said_yes(second) and not _said_yes(first):
            answering, other = second, first
        verdict = "yes: one of them says yes" if _said_yes(answering) else "no: neither says yes"
        return _taken(other, answering, f"the question asks about either of two alternatives ({said}): "
                                        f"each asked alone, {verdict}")
    seen = {a.value for a in first.answers}
    union = first.answers + [a for a in second.answers if a.value not in seen]
    if form is QuestionForm.COUNT:
        capped = any(len(r.answers) >= COUNTED_ALTERNATIVES for r in (first, second))
        joined = _taken(other, answering, f"the question counts the things of either of two alternatives ({said}): "
                                          f"each listed alone, {'at least ' if capped else ''}{len(union)} "
                                          "distinct things in all")
        # nothing found on either side is no count: the readings may have missed the graph
        joined.answers = [Answer.count(len(union))] if union else []
        return joined
    joined = _taken(other, answering, f"the question asks for the things of either of two alternatives ({said}): "
                                      "each asked alone, answers joined")
    joined.answers = union
    return joined


def _of_first_only(first: PathResult, second: PathResult, said: str, form: QuestionForm) -> PathResult:
    """The things the first result holds and the second does not (a count: how many); the first's evidence."""
    left_out = {a.value for a in second.answers}
    kept = [a for a in first.answers if a.value not in left_out]
    joined = _taken(second, first, f"the question asks for the things of one thing but not of another ({said}): each "
                                   f"asked alone, {len(first.answers) - len(kept)} of the first's answers left out")
    if form is QuestionForm.COUNT:
        joined.answers = [Answer.count(len(kept))] if first.answers else []
        return joined
    joined.answers = kept
    return joined


def _of_both(first: PathResult, second: PathResult, said: str, form: QuestionForm) -> PathResult:
    """The things both results hold (a count: how many), or yes where both say yes; the first's evidence."""
    if form is QuestionForm.BOOLEAN:
        verdict = "yes: both say yes" if _said_yes(first) and _said_yes(second) else "no: not both say yes"
        joined = _taken(second, first, f"the question asks about both of two things ({said}): each asked alone, {verdict}")
        joined.answers = [Answer.boolean(_said_yes(first) and _said_yes(second))]
        return joined
    kept = {a.value for a in second.answers}
    common = [a for a in first.answers if a.value in kept]
    if form is QuestionForm.COUNT:
        joined = _taken(second, first, f"the question counts the things of both of two things ({said}): each listed "
                                       f"alone, {len(common)} things in both")
        joined.answers = [Answer.count(len(common))] if first.answers and second.answers else []
        return joined
    joined = _taken(second, first, f"the question asks for the things of both of two things ({said}): each asked alone, "
                                   "the answers both hold")
    joined.answers = common
    return joined


def _taken(first: PathResult, second: PathResult, note: str) -> PathResult:
    """A later reading's result answers, with the first one's requests and time added and a note why."""
    second.notes.insert(0, note)
    second.sparql_requests += first.sparql_requests
    second.setup_requests += first.setup_requests
    second.timings_ms = {phase: first.timings_ms.get(phase, 0.0) + spent for phase, spent in second.timings_ms.items()}
    return second


def _left_by_class(phrase: str, found: list[LinkedEntity]) -> str | None:
    """"sensor hardware", "hardware sensors": the best class names some of a lower-case kind's words, and
    the one content word left ("sensor") may name a thing the class's members link to; else None."""
    if not found or phrase != phrase.lower() or found[0].kind != "class":
        return None
    named, words = _word_set(found[0].label), _word_set(phrase)
    left = words - named
    return next(iter(left)) if named and named < words and len(left) == 1 and not left & _FUNCTION_WORDS else None


def _singular_phrase(phrase: str) -> str:
    return " ".join(singular(w) for w in phrase.split())


def _names_both(label: str, kind: str) -> bool:
    """Whether a class name holds both nouns of "X of Y" ("Bill of Material (BOM)" for "bills of materials")."""
    head, _, tail = kind.partition(" of ")
    words = {singular(w) for w in re.findall(r"[a-z]+", label.lower())}
    return singular(head) in words and singular(tail) in words


def _word_set(text: str) -> set[str]:
    return {singular(w) for w in re.findall(r"\w+", text.lower())}


def _linked_reading(phrase: str, vertex: LinkedEntity, around: PredicateSet | None,
                    found_classes: list[LinkedEntity]) -> LinkedEntity | None:
    """A class phrase read as "linked to this thing" ("sensors" -> `?x hasCategory <Sensor>`): the
    predicates pointing into the vertex. When a class names the rest of the phrase's words ("LCD
    products": Product), that class is its partner, and the two make one reading together."""
    if around is None:
        return None
    predicates = sorted(iri for iri, direction in around.pairs if direction == IN)[:MAX_LINKING_PREDICATES]
    if not predicates:
        return None
    words, named = _word_set(phrase), _word_set(vertex.label)
    partner = next((c.term.value for c in found_classes
                    if (class_words := _word_set(c.label)) and not class_words & named and class_words | named == words),
                   None)
    if partner is None and named != words:  # "companies" is no thing named "X Company"
        return None
    return LinkedEntity(vertex.term, vertex.label, vertex.score, "linked", predicates=tuple(predicates), partner=partner)


def _names_own_kind(best: LinkedPredicate, phrase: str) -> bool:
    """Whether the predicate that best fits a phrase is a table's own-name column the phrase just names (`course#course`
    for "course"): the phrase says what the vertex is, not how the other end relates to it."""
    return best.direction == OUT and best.through is None and \
        naming_score(best.iri, table_of(best.iri)) == OWN_NAME_SCORE and same_words(phrase, " ".join(
            split_words(local_name(best.iri))))


def _record_links(mid_set: PredicateSet, first: str, descriptions: dict[str, str], found: list[LinkedPredicate], *,
                  out: bool, kinds: set[str] | None = None) -> list[LinkedPredicate]:
    """Links of the records one `first` hop from the anchor, whatever the relation phrase says beyond
    holding (`_CONTAINING`, `_CONTAINED`): "use", "contain" or "in" names no hop (KIND_PATH_SCORE), those
    not `found` already. With `kinds`, the links in direction `out` (else into the records) whose other
    end is of the asked kind: "Which bills of material use <part>?" is `?answer :hasBomPart ?record .
    ?record :hasPart <part>`, "the hardware products in the BOM X" `<X> :hasBomPart ?record . ?record
    :hasPart ?answer` (only where no thing of that kind touches the vertex itself). Without, every link
    out to things, the other unknown's own edges picking the right one ("Which bills of material contain
    a part from the Crystal category?")."""
    seen = {(p.iri, p.direction, p.through) for p in found}
    links = []
    for iri, direction in sorted(mid_set.pairs):
        if direction != (OUT if out else IN) or (iri, direction, first) in seen:
            continue
        if kinds is None:
            if iri == RDF_TYPE or (iri, direction) not in mid_set.things - mid_set.literal:
                continue
            via = None
        else:
            fitting = mid_set.ends.get((iri, direction), frozenset()) & kinds
            if not fitting:
                continue
            via = sorted(fitting)[0]
        links.append(LinkedPredicate(iri, descriptions.get(iri) or iri, PATH_FACTOR * KIND_PATH_SCORE, direction,
                                     via_class=via, through=first, through_out=out, to_things=out))
    return links


def _class_lists(node: str, pattern: PhraseGraphPattern, classes: dict[str, list[LinkedEntity]]) -> list[list[LinkedEntity]]:
    """The classes linked for each of a node's `is a` phrases, best first."""
    return [[c for c in classes.get(t.object, []) if c.kind == "class"] for t in pattern.triples
            if t.is_type and t.subject == node]


def _best_classes_of(node: str, pattern: PhraseGraphPattern, classes: dict[str, list[LinkedEntity]]) -> set[str]:
    """The best class IRI linked for each of a node's `is a` phrases ("concert": `concert`, not also
    `singer_in_concert`)."""
    return {found[0].term.value for found in _class_lists(node, pattern, classes) if found}


def _summed(pattern: PhraseGraphPattern, node: str) -> PhraseGraphPattern:
    """The pattern with its ordering and comparisons of `node`'s values made of each answer's sum of them: a
    quantity each of a thing's records holds ("the museum that sold the most tickets": its visits' tickets)."""
    ordering = pattern.ordering
    if ordering is not None and ordering.node == node and not ordering.per_group:
        ordering = replace(ordering, aggregate="sum")
    return replace(pattern, ordering=ordering, comparisons=tuple(
        replace(c, aggregate="sum") if c.node == node and not c.per_group else c for c in pattern.comparisons))


def _sole_classes_of(node: str, pattern: PhraseGraphPattern, classes: dict[str, list[LinkedEntity]]) -> set[str]:
    """The best class IRI of each of a node's `is a` phrases where no other class ties with it; none at all
    where one ties ("pets": `pets` and `has_pet` alike)."""
    lists = _class_lists(node, pattern, classes)
    if any(len(found) > 1 and found[1].score >= found[0].score for found in lists):
        return set()
    return {found[0].term.value for found in lists if found}


def _classes_of(node: str, pattern: PhraseGraphPattern, classes: dict[str, list[LinkedEntity]]) -> set[str]:
    """The class IRIs linked for a node's `is a` phrases."""
    return {c.term.value for found in _class_lists(node, pattern, classes) for c in found}


_LOWER_THEN_NAME = re.compile(r"^(?:[a-z][\w-]*\s+)+(?P<name>[A-Z0-9][\w&.,'-]*(?:\s+[\w&.,'-]+)*)$")


def _plain_things(chosen: ExecutedQuery) -> list[ox.NamedNode]:
    """The chosen query's answers where all are things answered by a plain SELECT (not grouped, not
    ordered by the things themselves): what the openings of answers may replace; empty otherwise."""
    query = chosen.query
    iris = [a for a in chosen.answers if isinstance(a, ox.NamedNode)]
    if chosen.boolean is not None or len(iris) < len(chosen.answers) or \
            not query.sparql.startswith(f"SELECT DISTINCT {query.answer_var} WHERE") or \
            "GROUP BY" in query.modifiers or query.answer_var in query.modifiers:
        return []
    return iris


async def _probed(endpoint: Endpoint, things: Sequence[ox.NamedNode], counts: str, where: str,
                  grouped_by: str) -> SelectResult | None:
    """The predicates (`?p`) from `things` (`?a`) to their objects (`?o`), grouped by `grouped_by`, with how
    many things have each (`?n`) and any further `counts`: one request; None where it fails."""
    values = " ".join(f"<{a.value}>" for a in things)
    try:
        return await endpoint.sparql.select(f"SELECT {grouped_by} (COUNT(DISTINCT ?a) AS ?n){' ' + counts if counts else ''} "
                                            f"WHERE {{ VALUES ?a {{ {values} }} ?a ?p ?o {where} }} GROUP BY {grouped_by}")
    except GatewayError:
        return None


async def _answer_one_hop_on(chosen: ExecutedQuery, hop: str, member: str, modifiers: str, endpoint: Endpoint, *,
                             first_of_ties: bool) -> bool:
    """The chosen query's answers replaced by what `hop` (a predicate and `member`, with any FILTER)
    leads to from each, one request; the query is rewritten to say so. False where nothing is reached."""
    query = chosen.query
    pattern = f"{query.pattern} . {query.answer_var} {hop}"
    sparql = f"SELECT DISTINCT {member} WHERE {{ {pattern} }}{modifiers}"
    try:
        result = await endpoint.sparql.select(sparql)
    except GatewayError:
        return False
    reached = [t for t in result.column(member[1:]) if t is not None]
    if reached:
        chosen.answers = list(dict.fromkeys(reached))
        chosen.query = replace(query, sparql=sparql, pattern=pattern, answer_var=member, execution_sparql=sparql,
                               result_var=member[1:], modifiers=modifiers, first_of_ties=first_of_ties)
    return bool(reached)


def _held_by_the_head(value: LinkedEntity, head: str) -> LinkedEntity:
    """"vote 3" found as the value 3: only the predicates named after the words before it (`vote_id`, not
    `contestant_number`), where any are; the value as found otherwise."""
    words = {singular(w) for w in re.findall(r"[a-z]+", head.lower())}
    named = tuple(p for p in value.predicates if words & iri_words(p))
    if not named:
        return value
    return replace(value, predicates=named, subject_classes=tuple(c for c in value.subject_classes if c[0] in named))


def _named_tail(phrase: str) -> str | None:
    """The name ending a phrase of lower-case words and a name ("material AeroVibe Matrix" -> "AeroVibe
    Matrix"), else None."""
    found = _LOWER_THEN_NAME.match(phrase.strip())
    return found.group("name") if found else None


async def _with_container_members(ranked: list[LinkedPredicate], around: PredicateSet,
                                  endpoint: Endpoint) -> list[LinkedPredicate]:
    """Predicates leading to containers ("the authors" of a paper as one `List` node) also read one hop
    more, to the containers' members (`authors/hasListElement`), a little ahead of the container itself:
    what is counted, ordered or listed are the members ("How many authors does X have?"). One request
    per container class and endpoint."""
    members: list[LinkedPredicate] = []
    for predicate in ranked:
        if predicate.direction != OUT or predicate.literal or predicate.through or predicate.value_of:
            continue
        containers = sorted(c for c in around.ends.get((predicate.iri, OUT), ()) if _is_container(c))
        member = await endpoint.member_predicate(containers[0]) if containers else None
        if member is not None:
            members.append(replace(predicate, value_of=member, literal=True, members=True,
                                   score=predicate.score * MEMBER_FACTOR))
    return sorted([*ranked, *members], key=lambda p: -p.score) if members else ranked


def _is_container(class_iri: str) -> bool:
    return local_name(class_iri).lower() in CONTAINER_CLASSES


def _looks_like_a_name(phrase: str) -> bool:
    """A capitalised class phrase ("is a | Network Dipole") may name one thing rather than a class."""
    words = phrase.split()
    return bool(words) and all(w[:1].isupper() or w[:1].isdigit() for w in words)


def _anchored_by_name(class_phrase: str, pattern: PhraseGraphPattern) -> bool:
    """Whether the things said to be `class_phrase` are also linked to a named thing: then the class
    phrase is not read as one more name (two names for one unknown rarely agree)."""
    typed = {t.subject for t in pattern.triples if t.is_type and t.object == class_phrase}
    return any(not t.is_type and node in typed and not is_unknown(other)
               for t in pattern.triples for node, other in ((t.subject, t.object), (t.object, t.subject)))


async def _nothing() -> dict:  # type: ignore[type-arg]
    return {}


def _entity_anchor(triple: PhraseTriple) -> str | None:
    """The named side of an edge: predicates are looked for around its candidates."""
    if not is_unknown(triple.subject):
        return triple.subject
    if not is_unknown(triple.object):
        return triple.object
    return None


def _unknown_anchor(triple: PhraseTriple, pattern: PhraseGraphPattern, nodes: dict[str, list[LinkedEntity]],
                    classes: dict[str, list[LinkedEntity]],
                    kinds: dict[str, list[LinkedEntity]],
                    related: dict[tuple[str, str], tuple[str, ...]] | None = None) -> tuple[str, str | None]:
    """For an edge between two unknowns: which unknown to look around, and a WHERE body binding it
    (its class, a link to the thing that names its kind, its link to a named thing, or its link to the
    thing holding a named value, `related`); None if nothing anchors either side."""
    for node in (triple.subject, triple.object):
        for other in pattern.triples:
            if not (other.is_type and other.subject == node):
                continue
            # the members of a ranked kind are anchored by what they are or link to, never by the one thing named so
            readings = [c for c in classes.get(other.object, [])
                        if c.kind != "vertex" or not (answers_are_many(pattern, node) or ranked_owner(pattern, node))]
            if readings:
                best = readings[0]
                if best.kind == "literal":
                    return node, f"{node} <{best.predicates[0]}> {term_to_sparql(best.term)}"
                if best.kind == "vertex":
                    return node, f"VALUES {node} {{ {term_to_sparql(best.term)} }}"
                recorded = [m for c in readings if c.recorded_by == best.term.value for m in (c.term.value, *c.subclasses)]
                members = ", ".join(f"<{c}>" for c in (best.term.value, *best.subclasses, *recorded))
                return node, f"{node} a ?kgqaAnchorClass FILTER(?kgqaAnchorClass IN ({members}))"
            named_by = [v for v in kinds.get(other.object, []) if v.score >= CLASS_FIT]
            if named_by:  # things of a kind the graph names by a thing ("resistor": the category Resistor)
                return node, f"{node} ?kgqaAnchorPredicate {term_to_sparql(named_by[0].term)}"
    for node in (triple.subject, triple.object):
        for other in pattern.triples:
            if other is triple or other.is_type or node not in other.nodes():
                continue
            named = other.object if other.subject == node else other.subject
            if is_unknown(named) or not nodes.get(named):
                continue
            term = nodes[named][0]
            value = str(term.term)
            hop = (related or {}).get((node, named))
            if term.is_literal and hop is not None:  # next to the value's holder ("the product manager of <code>")
                predicate, direction = hop
                step = f"?kgqaHolder <{predicate}> {node}" if direction == OUT else f"{node} <{predicate}> ?kgqaHolder"
                return node, f"?kgqaHolder <{term.predicates[0]}> {value} . {step}"
            if term.is_literal:
                return node, f"{node} ?anchorPredicate {value}"
            if hop is not None and len(hop) == 3:  # through the records the thing points to ("the parts of <BOM>")
                predicate, direction, first = hop
                step = f"?kgqaRecord <{predicate}> {node}" if direction == OUT else f"{node} <{predicate}> ?kgqaRecord"
                return node, f"{value} <{first}> ?kgqaRecord . {step}"
            if hop is not None:  # the predicate the edge's phrase names ("the product manager of X")
                predicate, direction = hop
                return node, f"{value} <{predicate}> {node}" if direction == OUT else f"{node} <{predicate}> {value}"
            return node, f"{{ {value} ?anchorPredicate {node} }} UNION {{ {node} ?anchorPredicate {value} }}"
    return triple.subject, None


def _unmatched_names(linking: Linking) -> list[str]:
    return [n.phrase for n in linking.entities if n.kind == "entity" and not n.candidates]


def _why_no_query(linking: Linking) -> str:
    missing = [n.phrase for n in linking.entities if not n.candidates]
    if missing:
        return "no graph term matches " + ", ".join(repr(m) for m in missing)
    empty = [e.phrase for e in linking.relations if not e.candidates]
    if empty:
        return "no predicate found for " + ", ".join(repr(m) for m in empty)
    return "no consistent combination of vertices and predicates"
