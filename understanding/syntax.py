"""Question shapes read from the question's syntax (spaCy), where the model's reading is often garbled.

Superlatives (`superlative_reading`). The training questions rank things mostly by a relation named
after the superlative ("the highest mountain"); questions over a product catalogue say "the heaviest
product from a supplier in Germany", "Who manages the most reliable product?" or "What does the
heaviest hardware product cost?", which the model decodes as `?u1 | heaviest | ?u2 ; ...` with the
ordering lost or on the wrong node. A parse says which noun the superlative grades, how that noun is
restricted (its prepositional phrases and participles) and how the asked thing hangs off it (the noun
itself, a chain of "X of Y", the verb whose object or subject it is), which is all the pattern needs.
Only superlatives that name their attribute are read ("heaviest", "cheapest", "most reliable";
`IMPLIED_ORDER`), "highest"/"lowest" of an attribute that ranks its owner ("the product with the
highest weight"), and "highest"/"lowest" of an attribute over a kind ("the lowest price of a
resistor", a MIN).

Chains of "of" (`chain_reading`): "What is the email address of the manager of Yanka Schreiber?"
decoded as `?u1 | email address | Yanka Schreiber`, the middle hop dropped. The chain is read as
`?u1 | email address | ?u2 ; ?u2 | manager | Yanka Schreiber`; the parser takes it only where the
model's reading lacks one of its nouns.

Two predicates of the asked subject joined by "and" (`coordinated_predicates`): the parser then takes
the spaCy rules' reading, which puts both conditions on the answer, where the model hung a name off an
intermediate unknown.

Superlatives of a count (`counted_superlative_reading`): "Which supplier from Brazil supplies the most
products?", "Which product category contains the largest number of products?". The model reads the
plain ones well ("Which department has the most employees?") but garbles those whose asked noun has
restrictions (`?u1 | supplier | ?u2 ; ?u2 | is a | Brazil`); the parse gives the asked noun with its
restrictions, the verb and the counted noun.

Two comparisons of different attributes joined by "and" (`coordinated_comparisons`): "Which products
are wider than 75 mm and lower than 20 mm?", "weigh more than 20 grams and cost less than 5 EUR",
"with a weight above 20 g and a height below 30 mm", "have both a height and a width of less than 15
mm". The model folds them into one value or a unit relation; each conjunct names its attribute (by the
comparative, the verb or the noun; "lower" by a length unit is the height) and its bound, and the
answer gets one attribute edge per conjunct. A kind with one named restriction and one comparison
(`restricted_comparison`): "products from Bolton, Sanchez and Rodgers that cost under 2 EUR?".

Counts of things doing something to a kind (`counted_chain_reading`): "How many different suppliers
provide products in the category Meter?", which the model reads as `?u1 | suppliers | Meter`.

The readers take the asker's own catalogue as the whole graph ("our least reliable sensor", "the most
expensive Rheostat we carry"), a possessor as a restriction ("Karen Brant's products") or a hop of a
chain ("the email of Yanka Schreiber's manager"), and a bare noun phrase as a question ("phone number
of the product manager for product X?").

Anything a reader does not fully understand (a relative clause, a coordination, a second sentence)
gives None, and the model's reading stands.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from understanding.grading import (
    ATTRIBUTE_ADJECTIVE_ENDS,
    ATTRIBUTE_OF,
    COMPARATIVE_PHRASES,
    HAVING_VERB_FORMS,
    IMPLIED_ORDER,
    IRREGULAR_PLURALS,
    MEASURED_SUPERLATIVES,
    NEGATED_OPERATOR,
    NUMBER_WORDS,
    ORDINALS,
    SUPERLATIVE_DESCENDING,
    comparative_attribute,
    number_value,
    stated_offset,
    stated_ordering,
    verb_base,
)
from understanding.pgp import (
    ANSWER,
    NEGATION,
    TYPE_RELATION,
    AnswerKind,
    Comparison,
    Ordering,
    PhraseGraphPattern,
    PhraseTriple,
    QuestionForm,
)

_WH = frozenset({"what", "which", "who", "whom"})
_IMPERATIVES = frozenset({"name", "list", "give", "show", "find", "return", "tell", "get"})
_EXTREMES = {"highest": True, "largest": True, "greatest": True, "biggest": True, "maximum": True, "max": True,
             "lowest": False, "smallest": False, "minimum": False, "min": False}
_EXTREME_MODIFIERS = frozenset({"maximum", "max", "minimum", "min"})  # "the maximum weight", "max weight"
_COUNTING_ADJECTIVES = frozenset({"frequent", "common", "popular", "prevalent", "usual"})
_RANK_WORDS = frozenset({"top", "bottom"})
_OWN = frozenset({"our", "your", "my"})
_ASKERS = frozenset({"we", "you", "i"})
_HOLDING_VERBS = frozenset({"carry", "sell", "offer", "stock", "have", "list", "keep", "provide", "make"})
_HANDLED_MODIFIERS = frozenset({"det", "compound", "amod", "nummod", "prep", "acl", "relcl", "punct", "advmod",
                                "poss"})


@dataclass(frozen=True)
class SuperlativeReading:
    """A pattern read from a superlative question, and the answer kind it implies (None: the model's)."""

    pattern: PhraseGraphPattern
    kind: AnswerKind | None


class _Unreadable(Exception):
    """The question has a part the reader does not understand."""


class _Builder:
    """The triples of a reading as they are read, with fresh unknowns after `?unknown1`."""

    def __init__(self) -> None:
        self.triples: list[PhraseTriple] = []
        self.count = 1

    def fresh(self) -> str:
        self.count += 1
        return f"?unknown{self.count}"

    def add(self, subject: str, relation: str, obj: str) -> None:
        self.triples.append(PhraseTriple(subject, relation, obj))


def superlative_reading(doc: Any) -> SuperlativeReading | None:
    """The pattern of a superlative question from its spaCy parse, or None (see the module docstring)."""
    try:
        return _read(doc)
    except _Unreadable:
        return None


def _read(doc: Any) -> SuperlativeReading | None:
    """`superlative_reading`, raising `_Unreadable` from deep in the parse."""
    stated = stated_ordering(doc.text)
    if stated is None or stated.by_count is not False or not _plain(doc):
        return None  # no superlative of a value
    found = _superlative(doc)
    if found is None:
        return None
    word, descending, graded, adjective = found
    ranked = _graded_noun(adjective)
    if ranked is None:
        return None
    builder = _Builder()
    handled: set[int] = set()
    if word in _EXTREMES:
        owner = _owner_of_attribute(ranked)
        if owner is None:
            return _extreme(doc, builder, ranked, descending)
        # "the product with the highest weight", "Which product from X has the highest reliability index?"
        word, graded, limit_of = _kind_phrase(ranked, skip=graded), set(), owner
        handled = {ranked.head.i} if ranked.dep_ == "pobj" else {ranked.i}
        ranked = owner
    else:
        limit_of = ranked
    asked_verb = _verb_read_as_noun(doc, ranked)
    value_asked = _value_asked(doc, ranked)
    if asked_verb is not None:  # "What does the heaviest hardware product cost?"
        ranked = [c for c in ranked.children if c.dep_ == "compound"][-1]
        node = builder.fresh()
        builder.add(ANSWER, asked_verb, node)
        kind: AnswerKind | None = None
    elif value_asked:  # "How expensive is our most expensive service?": the value it is ranked by
        node, kind = builder.fresh(), AnswerKind.NUMBER
    else:
        node, kind = _attach(doc, builder, ranked)
    builder.add(node, TYPE_RELATION, _kind_phrase(ranked, skip=graded))
    _restrict(builder, node, ranked, handled)
    value = ANSWER if value_asked else builder.fresh()
    # the value asked for by its attribute ("How expensive ...": the price), a ranked thing by its grade
    builder.add(node, ATTRIBUTE_OF.get(doc[1].lower_, word) if value_asked else word, value)
    limit = stated.limit or _stated_number(limit_of) or 1
    pattern = PhraseGraphPattern(triples=tuple(builder.triples), form=QuestionForm.LIST,
                                 ordering=Ordering(value, descending=descending, limit=limit, offset=stated_offset(doc.text)))
    return SuperlativeReading(pattern, kind)


def _plain(doc: Any) -> bool:
    """One sentence without an aside: a second sentence asks for more ("... ? List ..."), and a bracket
    holds what the readers do not read ("(in USD)")."""
    return len(list(doc.sents)) == 1 and "(" not in doc.text


def _superlative(doc: Any) -> tuple[str, bool, set[int], Any] | None:
    """The one superlative: its words, its end, the indexes of its tokens, and its adjective token."""
    found = []
    for token in doc:
        lower = token.lower_
        if token.i > 0 and token.text[:1].isupper():
            continue
        if lower in ("most", "least") and token.i + 1 < len(doc):
            adjective = doc[token.i + 1]
            if adjective.lower_ in _COUNTING_ADJECTIVES:
                return None  # "the most frequent result" counts
            if adjective.tag_ in ("JJ", "RB") and (adjective.lower_ in ATTRIBUTE_OF or adjective.lower_.endswith(ATTRIBUTE_ADJECTIVE_ENDS)):
                phrase = f"{lower} {adjective.lower_}"
                descending = IMPLIED_ORDER[phrase][1] if phrase in IMPLIED_ORDER else lower == "most"
                # the adjective names the attribute, as the training patterns write it ("expensive")
                found.append((adjective.lower_, descending, {token.i, adjective.i}, adjective))
        elif token.tag_ == "JJS" and lower in IMPLIED_ORDER:
            found.append((lower, IMPLIED_ORDER[lower][1], {token.i}, token))
        elif token.tag_ == "JJS" and lower in MEASURED_SUPERLATIVES:
            found.append((lower, SUPERLATIVE_DESCENDING[lower], {token.i}, token))
        elif (token.tag_ == "JJS" or (lower in _EXTREME_MODIFIERS and token.dep_ in ("amod", "compound"))) \
                and lower in _EXTREMES:
            found.append((lower, _EXTREMES[lower], {token.i}, token))
        elif token.tag_ in ("JJS", "RBS") and lower in SUPERLATIVE_DESCENDING:
            return None  # another superlative ("the most products", "the best"): not ours to read
    return found[0] if len(found) == 1 else None


def _owner_of_attribute(attribute: Any) -> Any | None:
    """The thing an attribute with "highest"/"lowest" ranks: "the product with the highest weight",
    "Which product ... has the highest reliability index?"; None where the attribute is asked for."""
    if attribute.dep_ == "pobj" and attribute.head.lower_ == "with" and attribute.head.head.pos_ == "NOUN":
        return attribute.head.head
    if attribute.dep_ == "dobj" and attribute.head.lemma_ == "have":
        subjects = [c for c in attribute.head.children if c.dep_ == "nsubj" and (c.pos_ == "NOUN" or _asked_name(c))]
        if len(subjects) == 1:
            return subjects[0]
    return None


def _asked_name(noun: Any) -> bool:
    """"Which Memristor has ...": a capitalised kind right after the question word, parsed as a name."""
    return noun.pos_ == "PROPN" and noun.i == 1 and noun.doc[0].lower_ in ("which", "what")


def _graded_noun(adjective: Any) -> Any | None:
    """The noun the superlative grades: its head ("the heaviest product"), or the subject of "is the
    shortest" ("Which capacitor is the shortest?")."""
    if (adjective.dep_ == "amod" or (adjective.dep_ == "compound" and adjective.lower_ in _EXTREME_MODIFIERS)) \
            and adjective.head.pos_ in ("NOUN", "PROPN"):
        noun = adjective.head
        while noun.dep_ == "compound" and noun.head.pos_ in ("NOUN", "PROPN"):  # "the lowest reliability index"
            noun = noun.head
        return noun
    if adjective.dep_ in ("attr", "acomp") and adjective.head.lemma_ == "be":
        subjects = [c for c in adjective.head.children if c.dep_ == "nsubj" and c.pos_ in ("NOUN", "PROPN")]
        if len(subjects) == 1 and any(c.lower_ in ("which", "what") for c in subjects[0].children):
            return subjects[0]
    return None


def _asked_by_determiner(noun: Any) -> bool:
    """"Which product ...", "What supplier ...": the noun carries the question's wh-determiner."""
    return any(c.dep_ == "det" and c.lower_ in ("which", "what") for c in noun.children)


def _is_asked(doc: Any, noun: Any) -> bool:
    """Whether the question asks for `noun` itself: "What is the heaviest product ...", "Which are the
    three widest products?", "Which capacitor is ...", "Name the lightest product ...", "Which product
    ..." (the wh-determiner on the noun)."""
    if _asked_by_determiner(noun) or _asked_name(noun):
        return True
    head = noun.head
    if noun.dep_ in ("nsubj", "attr") and head.lemma_ == "be":
        return any(c.lower_ in _WH and c.dep_ in ("nsubj", "attr") for c in head.children if c != noun)
    return noun.dep_ == "dobj" and head.i == 0 and head.lower_ in _IMPERATIVES


def _attach(doc: Any, builder: _Builder, ranked: Any) -> tuple[str, AnswerKind | None]:
    """Relates the asked thing to the graded noun; returns the graded noun's node and the answer kind."""
    if _is_asked(doc, ranked):
        return ANSWER, AnswerKind.RESOURCE
    chain = []  # "the email address of the manager of the heaviest product": email address, manager
    current = ranked
    while current.dep_ == "pobj" and current.head.lower_ == "of" and current.head.head.pos_ == "NOUN":
        current = current.head.head
        chain.append(current)
    if chain:
        if not _is_asked(doc, current):
            raise _Unreadable
        nodes = [ANSWER, *(builder.fresh() for _ in chain)]
        for index, owner in enumerate(reversed(chain)):
            _only_modifiers(owner, allowed={"det", "compound", "amod", "prep"}, of_only=True)
            builder.add(nodes[index], _kind_phrase(owner), nodes[index + 1])
        return nodes[-1], None
    verb = ranked.head
    if ranked.dep_ == "dobj" and verb.pos_ == "VERB" and verb.dep_ == "ROOT":  # "Who manages the most reliable product?"
        subject = _wh_subject(verb)
        node = builder.fresh()  # "Which team has the oldest player?": the relation is the player
        builder.add(ANSWER, _kind_phrase(ranked) if verb.lemma_ == "have" else verb.text, node)
        if subject is not None and subject.pos_ in ("NOUN", "PROPN"):
            builder.add(ANSWER, TYPE_RELATION, _kind_phrase(subject))
            _restrict(builder, ANSWER, subject)  # "Which supplier from Italy ..."
        return node, AnswerKind.RESOURCE
    if ranked.dep_ == "pobj" and verb.dep_ == "prep" and verb.head.dep_ == "acomp" and verb.head.head.dep_ == "ROOT" \
            and verb.head.head.lemma_ == "be":  # "Which department is responsible for the most expensive service?"
        subject = _wh_subject(verb.head.head)
        node = builder.fresh()
        builder.add(ANSWER, f"{verb.head.text} {verb.lower_}", node)
        if subject is not None and subject.pos_ in ("NOUN", "PROPN"):
            builder.add(ANSWER, TYPE_RELATION, _kind_phrase(subject))
            _restrict(builder, ANSWER, subject)
        return node, AnswerKind.RESOURCE
    if ranked.dep_ == "nsubj" and verb.pos_ == "VERB" and verb.dep_ == "ROOT" and doc[0].lower_ in ("what", "how"):
        node = builder.fresh()  # "What does the heaviest product cost?" parsed right
        builder.add(ANSWER, verb.text, node)
        return node, None
    raise _Unreadable


def _verb_read_as_noun(doc: Any, ranked: Any) -> str | None:
    """"What does the heaviest hardware product cost?" parsed with "cost" as the subject's last noun:
    the verb, when the graded noun ends the question after "What/How much does" and has a compound."""
    asked_by_do = (ranked.dep_ == "nsubj" and ranked.head.lemma_ == "do") or \
        (ranked.dep_ == "ROOT" and any(c.dep_ == "aux" and c.lemma_ == "do" for c in ranked.children))
    if not asked_by_do or doc[0].lower_ not in ("what", "how") or \
            ranked.i != len(doc) - 2 or not doc[-1].is_punct or \
            not any(c.dep_ == "compound" and c.pos_ in ("NOUN", "PROPN") for c in ranked.children):
        return None
    return ranked.text


def _value_asked(doc: Any, ranked: Any) -> bool:
    """"How expensive is our most expensive service?", "How heavy is the heaviest Coil product?": the
    question asks how much of the attribute the ranked thing has, its value."""
    return len(doc) > 2 and doc[0].lower_ == "how" and doc[1].dep_ == "acomp" and doc[1].head.lemma_ == "be" and \
        doc[1].head.dep_ == "ROOT" and ranked.dep_ == "nsubj" and ranked.head == doc[1].head


def _wh_subject(verb: Any) -> Any | None:
    """The subject of `verb` when it is what the question asks for ("Who", "Which supplier"), else raise."""
    for child in verb.children:
        if child.dep_ == "nsubj":
            if child.lower_ in _WH:
                return None
            if _asked_by_determiner(child):
                return child
    raise _Unreadable


def _extreme(doc: Any, builder: _Builder, attribute: Any, descending: bool) -> SuperlativeReading | None:
    """"What is the lowest price of a resistor?": the MIN (MAX) of an attribute over a kind."""
    return _over_a_kind(doc, builder, attribute, QuestionForm.MAX if descending else QuestionForm.MIN)


_AGGREGATE_ADJECTIVES = {"average": QuestionForm.AVG, "mean": QuestionForm.AVG, "total": QuestionForm.SUM}


def aggregate_reading(doc: Any) -> PhraseGraphPattern | None:
    """"What's the average price of the services that the Marketing department is responsible for?" as
    `avg :: ?u1 | price | ?u2 ; ?u2 | is a | services ; Marketing | responsible for | ?u2`: the average
    (total) of an attribute over a kind and its restrictions, which the model folds into the kind or
    drops. None for anything else."""
    if not _plain(doc) or stated_ordering(doc.text) is not None:
        return None
    found = [t for t in doc if t.lower_ in _AGGREGATE_ADJECTIVES and t.dep_ == "amod" and t.head.pos_ == "NOUN"]
    if len(found) != 1:
        return None
    attribute = found[0].head
    while attribute.dep_ == "compound" and attribute.head.pos_ == "NOUN":  # "the average reliability index"
        attribute = attribute.head
    try:
        reading = _over_a_kind(doc, _Builder(), attribute, _AGGREGATE_ADJECTIVES[found[0].lower_])
    except _Unreadable:
        return None
    return reading.pattern if reading is not None else None


def _over_a_kind(doc: Any, builder: _Builder, attribute: Any, form: QuestionForm) -> SuperlativeReading | None:
    """An aggregate (`form`) of the asked attribute over the things of the kind "of"/"among" names."""
    if not (_is_asked(doc, attribute) or _asked_alone(doc, attribute)):
        return None
    kinds = [c for c in attribute.children if c.dep_ == "prep" and c.lower_ in ("of", "among", "across")]
    if len(kinds) != 1:
        return None
    owners = [c for c in kinds[0].children if c.dep_ == "pobj" and c.pos_ == "NOUN"]
    if len(owners) != 1 or not _any_of_a_kind(owners[0]) or \
            any(c.dep_ not in ("det", "amod", "compound", "prep", "punct") for c in attribute.children):
        return None  # "the largest city of the country ..." ranks cities
    owner = builder.fresh()
    builder.add(ANSWER, _kind_phrase(attribute, skip={c.i for c in attribute.children
                                                      if c.dep_ == "amod" or c.lower_ in _EXTREME_MODIFIERS}), owner)
    builder.add(owner, TYPE_RELATION, _kind_phrase(owners[0]))
    _restrict(builder, owner, owners[0])
    return SuperlativeReading(PhraseGraphPattern(triples=tuple(builder.triples), form=form), AnswerKind.NUMBER)


def _any_of_a_kind(noun: Any) -> bool:
    """"a resistor", "all products", "resistors": any thing of a kind, not one named or known thing."""
    determiners = [c.lower_ for c in noun.children if c.dep_ in ("det", "predet")]
    if any(c.dep_ == "compound" and c.pos_ == "PROPN" for c in noun.children):
        return False
    # "resistors", "the products in ...", "the hardware that the Data Services department is responsible for"
    return any(d in ("a", "an", "all", "any", "each", "every") for d in determiners) or \
        (determiners in ([], ["the"]) and noun.tag_ == "NNS") or \
        (determiners in ([], ["the"]) and any(c.dep_ == "relcl" for c in noun.children))


def _kind_phrase(noun: Any, skip: set[int] | frozenset[int] = frozenset()) -> str:
    """The noun with its compounds and plain adjectives ("hardware product", "email address"), without
    the superlative ("the most reliable product": "product") and the tokens in `skip`."""
    words = [c for c in noun.children if c.i < noun.i and c.dep_ in ("compound", "amod") and c.i not in skip
             and c.lower_ not in _RANK_WORDS and c.lower_ not in ORDINALS
             and not any(g.tag_ in ("JJS", "RBS") or g.lower_ in ("most", "least") or g.i in skip
                         for g in ([c] if c.dep_ == "compound" else c.subtree))]  # "the lowest reliability index"
    if any(g.dep_ in ("cc", "conj") for w in words for g in w.subtree):
        raise _Unreadable  # "the first and last name"
    return "".join(t.text_with_ws for t in sorted([*words, noun], key=lambda t: t.i)).strip()


def _stated_number(noun: Any) -> int | None:
    for child in noun.children:
        if child.dep_ == "nummod":
            value = number_value(child.lower_)
            if isinstance(value, int) and value > 0:
                return value
    return None


def _only_modifiers(noun: Any, allowed: set[str], of_only: bool = False) -> None:
    """Raises `_Unreadable` for a modifier of `noun` outside `allowed` (`of_only`: any preposition but "of")."""
    for child in noun.children:
        if child.dep_ not in allowed or (of_only and child.dep_ == "prep" and child.lower_ != "of"):
            raise _Unreadable


def _restrict(builder: _Builder, node: str, noun: Any, handled: set[int] | frozenset[int] = frozenset()) -> None:
    """The restrictions on a noun: "from a supplier in Germany", "in the Crystal category", "supplied
    by Brown PLC" (`handled`: modifiers already read)."""
    for child in noun.children:
        if child.i in handled or _says_nothing(child):
            continue
        if child.dep_ not in _HANDLED_MODIFIERS or (child.dep_ == "advmod" and child.lower_ not in ("most", "least")):
            raise _Unreadable
        if child.dep_ == "poss":  # "Karen Brant's products": related to their owner by the noun
            if child.pos_ != "PROPN":
                raise _Unreadable
            builder.add(node, _kind_phrase(noun), _owner_name(child))
        elif child.dep_ == "prep":
            if child.lower_ == "of" and not _names_by_a_kind(child):  # "the heaviest product of X": which
                raise _Unreadable  # relation "of" means is not said ("of the category Coil": the category)
            _relate(builder, node, child.lower_, child)
        elif child.dep_ == "amod" and child.i > noun.i:  # "compatible with X", "available from X"
            preps = [c for c in child.children if c.dep_ == "prep"]
            if len(preps) != 1 or len(list(child.children)) != 1:
                raise _Unreadable
            _relate(builder, node, f"{child.text} {preps[0].lower_}", preps[0])
        elif child.dep_ == "acl":  # "supplied by X", "managed by X"
            preps = [c for c in child.children if c.dep_ in ("agent", "prep")]
            if len(preps) != 1 or len(list(child.children)) != 1:
                raise _Unreadable
            _relate(builder, node, f"{child.text} {preps[0].lower_}", preps[0])
        elif child.dep_ == "relcl" and (named := _whose_name(child) or _which_name(child)) is not None:
            builder.add(node, *named)  # "whose product manager is X", "for which the service X is eligible"
        elif child.dep_ == "relcl" and (owned := _whose_owned_relates(child)) is not None:
            other = builder.fresh()  # "whose product manager belongs to the Procurement department"
            builder.add(node, owned[0], other)
            builder.add(other, owned[1], owned[2])
        elif child.dep_ == "relcl" and (said := _named_subject_clause(child)) is not None:
            builder.add(said[0], said[1], node)  # "the Marketing department is responsible for", "that X supplies"
        elif child.dep_ == "relcl":  # "we buy from X"
            preps = [c for c in child.children if c.dep_ == "prep"]
            rest = [c for c in child.children if c.dep_ != "prep"]
            if len(preps) != 1 or len(rest) != 1 or rest[0].dep_ != "nsubj" or rest[0].lower_ not in _ASKERS:
                raise _Unreadable
            _relate(builder, node, f"{child.text} {preps[0].lower_}", preps[0])


def _names_by_a_kind(preposition: Any) -> bool:
    """"of the category Coil", "of the Coil category": a name said with the noun of its kind, which is the
    relation (`_relate`)."""
    name = _name_span(preposition.doc, preposition)
    objects = [c for c in preposition.children if c.dep_ == "pobj"]
    if name is None or len(objects) != 1:
        return False
    return (objects[0].pos_ == "NOUN" and objects[0].i >= name.end) or \
        any(t.pos_ == "NOUN" for t in preposition.doc[preposition.i + 1:name.start])


def _whose_subjects(clause: Any) -> list[Any]:
    """The clause's noun subjects owned by "whose" ("whose product manager ...")."""
    return [c for c in clause.children if c.dep_ == "nsubj" and c.pos_ == "NOUN"
            and any(g.dep_ == "poss" and g.lower_ == "whose" for g in c.children)]


def _whose_name(clause: Any) -> tuple[str, str] | None:
    """"whose product manager is Gretel Roth": (the relation, the name), else None."""
    if clause.lemma_ != "be":
        return None
    subjects = _whose_subjects(clause)
    names = [c for c in clause.children if c.dep_ == "attr" and c.pos_ == "PROPN"]
    if len(subjects) != 1 or len(names) != 1 or any(c.dep_ not in ("nsubj", "attr") for c in clause.children):
        return None
    words = sorted(names[0].subtree, key=lambda t: t.i)
    return _kind_phrase(subjects[0]), " ".join(t.text for t in words)


def _whose_owned_relates(clause: Any) -> tuple[str, str, str] | None:
    """"whose product manager belongs to the Procurement department": (the owned thing's noun, the
    verb with its preposition, the name), else None."""
    subjects = _whose_subjects(clause)
    preps = [c for c in clause.children if c.dep_ == "prep"]
    if clause.pos_ != "VERB" or len(subjects) != 1 or len(preps) != 1 or \
            any(c.dep_ not in ("nsubj", "prep") for c in clause.children):
        return None
    name = _name_span(clause.doc, preps[0])
    if name is None:
        return None
    return _kind_phrase(subjects[0]), f"{clause.text} {preps[0].lower_}", _whole_name(name)


def _which_name(clause: Any) -> tuple[str, str] | None:
    """"for which the service Component Confabulation is eligible": ("eligible for", the name), else None."""
    preps = [c for c in clause.children if c.dep_ == "prep"
             and any(g.dep_ == "pobj" and g.lower_ in ("which", "whom") for g in c.children)]
    adjectives = [c for c in clause.children if c.dep_ == "acomp"]
    subjects = [c for c in clause.children if c.dep_ == "nsubj"]
    if clause.lemma_ != "be" or len(preps) != 1 or len(adjectives) != 1 or len(subjects) != 1 or \
            any(c.dep_ not in ("prep", "acomp", "nsubj") for c in clause.children):
        return None
    names = [t for t in sorted(subjects[0].subtree, key=lambda t: t.i) if t.pos_ == "PROPN"]
    if not names:
        return None
    return f"{adjectives[0].text} {preps[0].lower_}", " ".join(t.text for t in names)


_RELATIVE_PRONOUNS = frozenset({"that", "which", "whom"})


def _named_subject_clause(clause: Any) -> tuple[str, str] | None:
    """"(that) the Marketing department is responsible for", "that Wolfgang Martin is product manager of",
    "that Bennett, Best and Jacobson supplies": a named subject with the relation the clause leaves open
    for the noun it modifies, as (the name, the relation); None for any other clause."""
    subjects = [c for c in clause.children if c.dep_ == "nsubj"]
    rest = [c for c in clause.children if c.dep_ not in ("nsubj", "mark", "punct") and
            not (c.dep_ in ("dobj", "pobj") and c.lower_ in _RELATIVE_PRONOUNS)]
    if len(subjects) != 1:
        return None
    words = sorted(subjects[0].subtree, key=lambda t: t.i)
    named = [t for t in words if t.text[:1].isupper() or any(ch.isdigit() for ch in t.text)]
    if not named or any(t.dep_ not in ("det", "compound", "punct", "cc", "conj", "nsubj", "amod") for t in words) or \
            any(t.i > named[-1].i and t.pos_ != "NOUN" for t in words):
        return None
    name = " ".join(t.text for t in words if named[0].i <= t.i <= named[-1].i).replace(" ,", ",")

    def stranded(head: Any) -> str | None:  # "responsible for", "manager of": a preposition whose object is
        preps = [c for c in head.children if c.dep_ == "prep"]  # the noun the clause modifies ("that", or none)
        if len(preps) != 1 or any(not (c.dep_ == "pobj" and c.lower_ in _RELATIVE_PRONOUNS) for c in preps[0].children) \
                or len(list(head.children)) - len(preps) > sum(1 for c in head.children if c.dep_ in ("compound", "amod", "det")):
            return None
        return preps[0].lower_
    if clause.lemma_ == "be":
        if len(rest) != 1 or rest[0].dep_ not in ("acomp", "attr"):
            return None
        preposition = stranded(rest[0])
        if preposition is None:
            return None
        said = _kind_phrase(rest[0]) if rest[0].dep_ == "attr" else rest[0].text
        return name, f"{said} {preposition}"
    if clause.pos_ != "VERB" or any(c.dep_ not in ("prep", "advmod") for c in rest):
        return None
    preps = [c for c in rest if c.dep_ == "prep"]
    if any(any(c.lower_ not in _RELATIVE_PRONOUNS for c in p.children) for p in preps) or len(preps) > 1:
        return None  # "that X supplies to Y": the clause has more to say
    return name, " ".join([clause.text, *(p.lower_ for p in preps)])


def _says_nothing(modifier: Any) -> bool:
    """"our" and "we carry" in "our least reliable sensor", "the most expensive Rheostat we carry": the
    asker's own catalogue, which is the whole graph."""
    if modifier.dep_ == "poss":
        return modifier.lower_ in _OWN
    if modifier.dep_ != "relcl" or modifier.lemma_ not in _HOLDING_VERBS:
        return False
    children = list(modifier.children)
    return all(c.dep_ in ("nsubj", "aux", "advmod") for c in children) and \
        any(c.dep_ == "nsubj" and c.lower_ in _ASKERS for c in children)


def _relate(builder: _Builder, node: str, relation: str, preposition: Any) -> None:
    """`node` related by `relation` to what the preposition names: a name ("in Germany", "by Brown PLC",
    "with product J785-9314350"; "in the Crystal category" by the noun after the name) or a thing of
    its own that is itself restricted ("from a supplier in Germany")."""
    objects = [c for c in preposition.children if c.dep_ == "pobj"]
    if len(objects) != 1 or len(list(preposition.children)) != 1:
        raise _Unreadable
    target = objects[0]
    name = _name_span(target.doc, preposition)
    if name is not None:
        after = target.pos_ == "NOUN" and target.i >= name.end  # "the Crystal category": the noun relates
        # "in the category Resistor": the noun relates where the preposition alone would ("compatible with
        # product X" keeps its relation)
        before = [t for t in target.doc[preposition.i + 1:name.start] if t.pos_ == "NOUN"
                  and relation == preposition.lower_]
        builder.add(node, target.text if after else before[-1].text if before else relation, name.text)
    elif target.pos_ == "NOUN" and any(c.dep_ in ("prep", "acl") for c in target.children):
        # "from a supplier in Germany": a thing of its own, related by its noun ("in the world" says nothing);
        # "managed by members of the Production department": by the verb that relates it
        other = builder.fresh()
        builder.add(node, _kind_phrase(target) if relation == preposition.lower_ else relation, other)
        _restrict(builder, other, target)
    else:
        raise _Unreadable


def chain_reading(doc: Any) -> ChainReading | None:
    """"What is the A of the B of NAME?" as `?u1 | A | ?u2 ; ?u2 | B | NAME`, with the chain's nouns
    (see the module docstring); None for anything else."""
    if not _plain(doc):
        return None
    asked = [t for t in doc if t.pos_ == "NOUN" and (t.dep_ in ("nsubj", "attr", "dobj") and _is_asked(doc, t)
                                                     or _asked_alone(doc, t)) and not _asked_by_determiner(t)]
    if len(asked) != 1:
        return None
    current, name = asked[0], None
    try:
        phrases = [_kind_phrase(current)]
        while name is None:
            for child in current.children:
                if child.dep_ == "punct" or (child.dep_ == "npadvmod" and child.like_num):
                    continue  # a bare noun phrase's "?", and the number the parse cut off a name
                if child.dep_ not in ("det", "compound", "amod", "prep") or \
                        (child.dep_ == "prep" and child.lower_ not in _CHAIN_PREPOSITIONS):
                    raise _Unreadable
            preps = [c for c in current.children if c.dep_ == "prep"]
            if len(preps) != 1:
                return None
            span = _name_span(doc, preps[0])
            name = _whole_name(span) if span is not None else None
            if name is None:
                objects = [c for c in preps[0].children if c.dep_ == "pobj"]
                if len(objects) != 1 or objects[0].pos_ != "NOUN":
                    return None
                current = objects[0]
                owner = _possessor(current)
                if owner is not None:  # "of Yanka Schreiber's manager": the manager of Yanka Schreiber
                    phrases.append(_kind_phrase(current))
                    name = owner
                elif any(c.dep_ == "det" for c in current.children):  # "of the manager": a hop
                    phrases.append(_kind_phrase(current))
                else:  # "areas of expertise": one noun phrase
                    phrases[-1] = f"{phrases[-1]} of {_kind_phrase(current)}"
    except _Unreadable:
        return None
    if len(phrases) < 2:
        return None
    nodes = [ANSWER, *(f"?unknown{n}" for n in range(2, len(phrases) + 1)), name]
    triples = tuple(PhraseTriple(nodes[i], phrase, nodes[i + 1]) for i, phrase in enumerate(phrases))
    return ChainReading(PhraseGraphPattern(triples=triples), tuple(phrases))


_CHAIN_PREPOSITIONS = frozenset({"of", "for"})  # "the product manager for product X"


def _asked_alone(doc: Any, noun: Any) -> bool:
    """A question typed as a bare noun phrase: "phone number of the manager of X?"."""
    return noun.dep_ == "ROOT" and all(t.pos_ in ("DET", "NOUN", "ADJ", "PROPN") for t in doc[:noun.i])


def _possessor(noun: Any) -> str | None:
    """The name that owns a noun ("Yanka Schreiber's manager" -> "Yanka Schreiber"), else None; a
    noun with a possessor and anything else but a compound or an adjective is not read."""
    owners = [c for c in noun.children if c.dep_ == "poss" and c.pos_ == "PROPN"]
    if len(owners) != 1:
        return None
    if any(c.dep_ not in ("poss", "compound", "amod") for c in noun.children):
        raise _Unreadable
    return _owner_name(owners[0])


def _owner_name(possessor: Any) -> str:
    """The name of a possessor token, without its "'s"."""
    words = [t for t in possessor.subtree if t.dep_ != "case"]
    return " ".join(t.text for t in sorted(words, key=lambda t: t.i))


def _whole_name(span: Any) -> str:
    """The name with the rest of its last word where the parse cut it ("C247" of "C247-3833661")."""
    text = span.doc.text
    end = span.end_char
    while end < len(text) and not text[end].isspace():
        end += 1
    return text[span.start_char:end].rstrip("?.!,;:")


@dataclass(frozen=True)
class ChainReading:
    """A chain of "of" read from a question, and the relation nouns it must keep."""

    pattern: PhraseGraphPattern
    nouns: tuple[str, ...]

    def kept_by(self, pattern: PhraseGraphPattern) -> bool:
        """Whether `pattern` says every noun of the chain (in a relation or a class)."""
        said = {w for t in pattern.triples for phrase in (t.relation, t.object) for w in phrase.lower().split()}
        return all(set(noun.lower().split()) - {"of"} <= said for noun in self.nouns)


def _name_span(doc: Any, preposition: Any) -> Any | None:
    """The name a preposition leads to ("of Yanka Schreiber", "with product Z763-7274829", "of the
    Marketing department", "by Cooper and Sons": the capitalised or numbered words) as a span of the
    parse, or None where it names no thing."""
    span = sorted(preposition.subtree, key=lambda t: t.i)[1:]
    named = [t for t in span if (t.text[:1].isupper() or any(ch.isdigit() for ch in t.text)) and t.dep_ != "det"]
    if not named:
        return None
    first, last = named[0].i, named[-1].i
    inside = doc[first:last + 1]
    # "Cooper and Sons", "Bennett, Best and Jacobson": capitalised words joined by "and" are one name here
    # (linking reads a list of names the model split as one where the graph has it, `KgqanPath._whole_names`)
    joined = all(t.text[:1].isupper() or t.lower_ in ("and", "&", ",") for t in inside) and \
        not any(t.i > last and t.tag_ == "NNS" for t in span)  # "the Sensor and Switch categories": two
    if any(t.dep_ in ("prep", "relcl", "acl") or (t.dep_ in ("cc", "conj") and not joined) for t in inside) or \
            any(t.i > last and t.pos_ not in ("NOUN",) for t in span) or \
            any(t.i < first and t.pos_ not in ("DET", "NOUN") for t in span):
        return None
    return inside


def coordinated_predicates(doc: Any) -> bool:
    """Whether the question joins two predicates of its asked subject with "and" ("Which products weigh
    less than 3 grams and are supplied from Japan?"), not two things asked for ("the first and last
    name", "... and where are they affiliated?": the second predicate has a subject of its own)."""
    for token in doc:
        root = token.head
        if token.dep_ != "conj" or token.pos_ not in ("VERB", "AUX") or root.dep_ != "ROOT" or \
                root.pos_ not in ("VERB", "AUX") or any(c.dep_.startswith("nsubj") for c in token.children):
            continue
        subjects = [c for c in root.children if c.dep_.startswith("nsubj")]
        if len(subjects) == 1 and (subjects[0].lower_ in ("which", "who", "what") or _asked_by_determiner(subjects[0])):
            return True
    return False


_ASKED_KIND = re.compile(r"^(?:which|what|list|show(?: me)?|give me|find|name)\s+(?:the\s+|all\s+(?:the\s+)?)?"
                         r"(?P<kind>[a-z]+(?: [a-z]+)?)\s+(?:that\s+|which\s+)?(?P<rest>.+?)\s*[?.!]?$")
_ASKED_KIND_ONE_WORD = re.compile(_ASKED_KIND.pattern.replace("(?: [a-z]+)?)", ")", 1))
_HOW_MANY_KIND = re.compile(r"^how many (?P<rest>.+)$")
# a plural noun, a participle or a relative pronoun ("products that are at least 75 mm high and ...")
_ELLIPTIC_KIND = re.compile(r"^[a-z]+s (?:(?!(?:and|or|of|are|is|have|has|do)\b)[a-z]+ing|that|which)\b")
# between two comparisons: "and", "and that", "that", "but" ("weighing at least 19 g that cost under 2 EUR")
_CONJUNCTION = re.compile(r"\s+(?:and(?:\s+(?:that|which|also))?|but(?:\s+also)?|yet|that|which)\s+")
_VALUE = r"(?P<value>-?\d[\d,]*(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten)\s*(?P<unit>[a-z€$%]+)?"
_OPERATOR = "|".join(re.escape(phrase) for phrase, _ in sorted(COMPARATIVE_PHRASES, key=lambda p: -len(p[0])))
_CONJUNCTS = (
    re.compile(rf"^(?:(?:are|is)\s+)?(?:(?P<negated>no|not)\s+)?(?P<adjective>[a-z]+er|more [a-z]+|less [a-z]+) than {_VALUE}$"),
    re.compile(rf"^(?:(?:is|are)\s+)?(?P<verb>weighs?|weighing|costs?|costing|measures?|measuring|priced)\s+(?:at\s+)?"
               rf"(?P<operator>{_OPERATOR}) {_VALUE}$"),  # "priced at more than 5.80 EUR"
    re.compile(rf"^(?:(?:with|have|has)\s+)?(?:an?\s+)?(?P<noun>[a-z]+(?: (?!of\b)[a-z]+)?)\s+(?:of\s+)?"
               rf"(?P<operator>{_OPERATOR}) {_VALUE}$"),
    # "less than 15 mm high": the dimension after its bound
    re.compile(rf"^(?:(?:are|is)\s+)?(?P<operator>{_OPERATOR}) {_VALUE}\s+(?P<dimension>high|tall|wide|long|deep|thick|heavy)$"),
)
_DIMENSION_ATTRIBUTE = {"high": "height", "tall": "height", "wide": "width", "long": "length", "deep": "depth",
                        "thick": "thickness", "heavy": "weight"}
# "have both a height and a width of less than 15 mm": one bound for two attributes
_SHARED_BOUND = re.compile(rf"^(?:(?:have|has|with)\s+)?(?:both\s+)?(?:an?\s+)?(?P<first>[a-z]+) and (?:an?\s+)?"
                           rf"(?P<second>[a-z]+)\s+(?:both\s+)?(?:of\s+)?(?P<bound>(?:{_OPERATOR}) {_VALUE})$")  # "... both over 75 mm"
# "are both taller and wider than 75 mm": one bound for two comparatives
_SHARED_COMPARATIVE = re.compile(rf"^(?:(?:are|is)\s+)?(?:both\s+)?(?P<first>[a-z]+er) and (?P<second>[a-z]+er)\s+"
                                 rf"(?P<bound>than {_VALUE})$")
_VERB_ATTRIBUTE = {"weigh": "weight", "cost": "price", "measure": "size", "priced": "price", "weighing": "weight",
                   "costing": "price", "measuring": "size"}
_UNIT_ATTRIBUTE = {**dict.fromkeys(["g", "gram", "grams", "kg", "kilograms"], "weight"),
                   **dict.fromkeys(["eur", "euro", "euros", "€", "$", "usd", "dollars"], "price")}
_LENGTH_UNITS = frozenset({"mm", "cm", "m", "millimeters", "centimeters", "meters", "inches"})


def coordinated_comparisons(question: str) -> PhraseGraphPattern | None:
    """"Which products are wider than 75 mm and lower than 20 mm?" as one attribute edge per conjunct,
    each with its bound; None unless every conjunct after the asked kind is such a comparison and
    they name different attributes."""
    text = question.strip().lower()
    counted = _HOW_MANY_KIND.match(text)
    if counted is not None:  # "How many hardware products weigh more than 18 grams and cost ...?"
        text = "which " + counted.group("rest")
    elif _ELLIPTIC_KIND.match(text):  # "sensors weighing at least 19 g that cost under 2 EUR"
        text = "which " + text
    one_word = _ASKED_KIND_ONE_WORD.match(text)
    shapes = (_ASKED_KIND_ONE_WORD, _ASKED_KIND)  # "products", then "hardware products"
    if one_word is not None and not one_word.group("kind").endswith("s"):
        shapes = shapes[::-1]  # "hardware products weigh ...": the plural noun ends the kind
    for shape in shapes:
        asked = shape.match(text)
        if asked is None or not _CONJUNCTION.search(asked.group("rest")) or \
                asked.group("kind").split()[-1] in _NOT_A_KINDS_END:  # "hardware with": the kind ends before
            continue
        shared = _SHARED_BOUND.match(asked.group("rest")) or _SHARED_COMPARATIVE.match(asked.group("rest"))
        conjuncts = ([f"{shared.group('first')} {shared.group('bound')}", f"{shared.group('second')} {shared.group('bound')}"]
                     if shared else _CONJUNCTION.split(asked.group("rest")))
        conditions = [_comparison(conjunct.strip()) for conjunct in conjuncts]
        if all(c is not None for c in conditions) and len({c[0] for c in conditions if c}) == len(conditions):
            pattern = _compared(_as_said(question, asked.group("kind")), [c for c in conditions if c is not None])
            return replace(pattern, form=QuestionForm.COUNT) if counted is not None else pattern
    return None


_NOT_A_KINDS_END = frozenset({"in", "of", "from", "with", "by", "at", "on", "for", "to", "that", "which", "who"})


def kind_compared(question: str) -> PhraseGraphPattern | None:
    """"Which French suppliers have a latitude below 44?" as `?u1 | is a | French suppliers ; ?u1 |
    latitude | ?u2 :: filter ?u2 < 44` (counted for "How many ..."): the asked kind and one comparison
    of its own value; None for anything else (two comparisons are `coordinated_comparisons`')."""
    text = question.strip().lower()
    counted = _HOW_MANY_KIND.match(text)
    if counted is not None:
        text = "which " + counted.group("rest")
    for shape in (_ASKED_KIND_ONE_WORD, _ASKED_KIND):
        asked = shape.match(text)
        kind = asked.group("kind").split() if asked is not None else []
        if not kind or kind[0] in _NOT_KINDS or kind[-1] in _NOT_A_KINDS_END:
            continue
        rest = asked.group("rest").strip()
        if shape is _ASKED_KIND_ONE_WORD and _plural_then_word(" ".join(rest.split()[:2])):
            continue  # "Which meter products cost ...": the plural noun ends the kind, not its attribute
        ranged = _range(rest)  # "have a price between 5 and 5.50 euros": one value, two bounds
        if ranged is None and _CONJUNCTION.search(rest):
            continue
        condition = ranged[0] if ranged and None not in ranged else _comparison(rest)
        if condition is None or any(re.search(rf"\b{re.escape(w.capitalize())}\b", question)
                                    and not re.search(rf"\b{re.escape(w)}\b", question) for w in condition[0].split()):
            continue  # "Which volcanos in Japan erupted since 2000?": a name is no attribute ("japan erupted")
        pattern = _compared(_as_said(question, asked.group("kind")), [condition])
        if ranged and None not in ranged and len(ranged) == 2:
            pattern = replace(pattern, comparisons=tuple(Comparison(pattern.comparisons[0].node, op, value)
                                                         for _, op, value in ranged))
        return replace(pattern, form=QuestionForm.COUNT) if counted is not None else pattern
    return None


# a name or a code ("Bolton, Sanchez and Rodgers", "Y863-3538159"), and the same after an optional "the" and
# kind word ("the product Y863-3538159"), as the readers below match them
_NAME_OR_CODE = r"[A-Z0-9][\w&.'-]*(?:,? (?:and |& )?[A-Z0-9][\w&.'-]*)*"
_NAME = r"(?:the\s+)?(?:[a-z]+\s+)?(?P<name>" + _NAME_OR_CODE + r")"
AGENT_NOUNS = ("suppliers", "vendors", "manufacturers", "makers", "producers", "companies", "firms")
# "products from Bolton, Sanchez and Rodgers that cost under 2 EUR?", "Which resistors supplied by Brown PLC
# weigh more than 15 g?": a kind, one named restriction, one comparison
_RESTRICTED_KIND = re.compile(
    r"^(?:(?P<ask>how many)\s+|(?:which|what|list|show(?: me)?|give me|find|name)\s+)?(?:the\s+|all\s+(?:the\s+)?)?"
    r"(?P<kind>[a-z]+(?: (?!(?:supplied|delivered|made|managed|sold|provided)\b)[a-z]+)?)\s+"
    r"(?P<relation>from|supplied by|supplied from|delivered by|delivered from|made by|made in|managed by|sold by|"
    r"in the category|of the category|eligible for|compatible with|in|of)\s+(?:the\s+(?=[A-Z0-9]))?(?P<name>" +
    _NAME_OR_CODE + r"(?: (?:" + "|".join(AGENT_NOUNS) + r"))?)\s+(?:(?:service|product)\s+)?"
    r"(?:that\s+|which\s+)?(?P<condition>[a-z].+?)\s*[?.!]?$")
# "Show me the products from suppliers in Germany that cost less than 1 EUR.", "How many products supplied by
# companies in China cost more than 5 EUR?": a kind, its agents' place, one comparison
_AGENT_PLACED_KIND = re.compile(
    r"^(?:(?P<ask>how many)\s+|(?:which|what|list|show(?: me)?|give me|find|name)\s+)?(?:the\s+|all\s+(?:the\s+)?)?"
    r"(?P<kind>[a-z]+(?: (?!(?:from|supplied|delivered|made|sold|provided)\b)[a-z]+)?)\s+"
    r"(?:from|(?P<verb>supplied by|delivered by|made by|sold by|provided by))\s+(?:the\s+)?(?P<agents>" + "|".join(AGENT_NOUNS) +
    r")\s+"
    r"(?:(?:that|which|who)\s+are\s+)?(?:in|from|based in|located in|situated in)\s+(?:the\s+)?(?P<name>" + _NAME_OR_CODE +
    r")\s+(?:that\s+|which\s+)?(?P<condition>[a-z].+?)\s*[?.!]?$")
# "Which products in the Warp category have a reliability index above 0.93?": the name before its kind
_NAMED_KIND_OF_KIND = re.compile(
    r"^(?:(?:which|what|list|show(?: me)?|give me|find|name)\s+)?(?:the\s+|all\s+(?:the\s+)?)?"
    r"(?P<kind>[a-z]+(?: [a-z]+)?)\s+(?:in|of|from) the\s+(?P<name>[A-Z0-9][\w&.'-]*(?: [A-Z0-9][\w&.'-]*)*)\s+"
    r"(?P<relation>category|department|class|group|family|series)\s+(?:that\s+|which\s+)?(?P<condition>[a-z].+?)\s*[?.!]?$")


# "which of Rebecca Hall's products weigh more than 15 g?": the owner's things, one comparison
_OWNED_KIND = re.compile(r"^(?:which|what) of (?P<name>[A-Z][\w&.-]*(?: [A-Z][\w&.-]*)*)'s (?P<kind>[a-z]+) "
                         r"(?:that\s+|which\s+)?(?P<condition>[a-z].+?)\s*[?.!]?$")


# "... are in the Capacitor category": the restricted things' category instead of a comparison
_IN_CATEGORY = re.compile(r"^(?:are|is)\s+(?:in|of|from)\s+the\s+(?P<category>[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*)*)\s+category$")


def restricted_comparison(question: str) -> PhraseGraphPattern | None:
    """"products from Bolton, Sanchez and Rodgers that cost under 2 EUR?" as `?u1 | is a | products ;
    ?u1 | from | Bolton, Sanchez and Rodgers ; ?u1 | price | ?u2 :: filter ?u2 < 2` ("which of Rebecca
    Hall's products weigh ...": related by the noun; "products in the Warp category": by "category";
    "hardware from German suppliers": the name with its agents; "products from suppliers in Germany":
    the agents' place, counted after "How many"; "... are in the Capacitor category": their category
    instead of a comparison); None for anything else."""
    text = question.strip()
    text = text[:1].lower() + text[1:]
    for shape in (_RESTRICTED_KIND, _NAMED_KIND_OF_KIND, _OWNED_KIND, _AGENT_PLACED_KIND):
        found = shape.match(text)
        if found is None or found.group("kind").split()[0] in _NOT_KINDS | {"which", "what"}:
            continue  # "which of Rebecca Hall's products": not the kind "which" of a name
        categorised = _IN_CATEGORY.match(found.group("condition"))
        conditions = [] if categorised is not None else \
            _range(found.group("condition").lower()) or [_comparison(found.group("condition").lower())]
        if None not in conditions:  # "in the Warp category have ...": not "in the Warp" and a condition
            break
    else:
        return None
    groups = found.groupdict()
    relation = groups["relation"].removeprefix("in the ").removeprefix("of the ") if "relation" in groups \
        else groups.get("verb") or groups.get("agents") or found.group("kind")  # "from suppliers in Germany":
    # `suppliers | Germany`; "supplied by companies in China": `supplied by | China`
    if relation == "of":  # "Which parts of PulseCraft Vertex have a quantity ...": its parts, related by the noun
        relation = found.group("kind").split()[-1]
    name = found.group("name")
    adjective, _, agents = name.rpartition(" ")
    if agents in AGENT_NOUNS and adjective and " " not in adjective:  # "from German suppliers": `suppliers | German`
        relation, name = agents, adjective
    pattern = _compared(found.group("kind"), [c for c in conditions if c is not None])
    if categorised is not None:  # "Which products from German suppliers are in the Capacitor category?"
        pattern = replace(pattern, triples=(*pattern.triples, PhraseTriple(ANSWER, "category", categorised.group("category"))))
    if len(conditions) == 2:  # one value between two bounds: one attribute edge
        pattern = replace(pattern, triples=pattern.triples[:2], comparisons=tuple(
            replace(c, node=pattern.comparisons[0].node) for c in pattern.comparisons))
    return replace(pattern, form=QuestionForm.COUNT if groups.get("ask") else QuestionForm.LIST,
                   triples=(*pattern.triples[:1], PhraseTriple(ANSWER, relation, name), *pattern.triples[1:]))


# "cost between 5 and 5.5 euros", "weigh between 10 and 20 g", "with a height between 50 and 60 mm"
_RANGE = re.compile(r"^(?:(?:is|are)\s+)?(?:(?P<verb>weighs?|costs?|priced)|(?:(?:with|have|has)\s+)?(?:an?\s+)?"
                    r"(?P<noun>[a-z]+(?: [a-z]+)?))\s+between\s+(?P<low>\d[\d,]*(?:\.\d+)?)\s+and\s+"
                    r"(?P<high>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>[a-z€$%]+)?$")


def _range(condition: str) -> list[tuple[str, str, str]] | None:
    """Both bounds of a value between two numbers (attribute, >=, low) and (attribute, <=, high), or None."""
    found = _RANGE.match(condition)
    if found is None:
        return None
    attribute = (_VERB_ATTRIBUTE.get(found.group("verb").rstrip("s")) if found.group("verb") else found.group("noun"))
    if not attribute or attribute.split()[-1] in _NOT_ATTRIBUTES:
        return None
    low, high = (found.group(g).replace(",", "") for g in ("low", "high"))
    return [(attribute, ">=", low), (attribute, "<=", high)]


_NOT_KINDS = frozenset({"is", "are", "was", "were", "do", "does", "did", "how", "many", "much"})
# "Which products are compatible with Y863-3538159?", "Which services are eligible for the Film LCD Strain?"
_KIND_RELATED_TO_NAME = re.compile(
    r"^(?P<ask>which|what|how many)\s+(?P<kind>[a-z]+(?: [a-z]+)?)\s+(?:are|is|were|was)\s+(?P<relation>[a-z]+(?:\s+[a-z]+)?\s+"
    r"(?:with|for|to|in|by|from|on|at))\s+" + _NAME + r"(?:\s+(?:service|product|department|category|supplier))?\s*[?.!]?$")


# "How many hardware products belong to the Sensor category?": a verb of membership instead of "are ... with"
_KIND_BELONGS_TO_NAME = re.compile(
    r"^(?P<ask>which|what|how many)\s+(?P<kind>[a-z]+(?: [a-z]+)?)\s+(?P<relation>(?:belongs?|come|comes|fall|falls)\s+"
    r"(?:to|from|under|into|in))\s+" + _NAME + r"(?:\s+(?:category|department|group|team|division|class))?\s*[?.!]?$")

# "List all suppliers located in Germany.", "Show me the employees based in Berlin.": a participle after a
# listing verb, no "are"
_LISTED_KIND_RELATED_TO_NAME = re.compile(
    r"^(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?(?P<ask>list|show me|show|give me|find)\s+(?:all\s+)?(?:the\s+|our\s+)?"
    r"(?P<kind>(?!(?:few|some|several|many|any|things|ones|items|entities)\b)[a-z]+(?: [a-z]+)?s)\s+"
    r"(?P<relation>[a-z]+ed\s+(?:with|for|to|in|by|from|on|at))\s+" + _NAME + r"\s*[?.!]?$")


def kind_related_to_name(question: str) -> PhraseGraphPattern | None:
    """"Which products are compatible with Y863-3538159?" (or "with the product Y863-3538159") as `?u1 |
    is a | products ; ?u1 | compatible with | Y863-3538159`, which the model often reads without the
    adjective (`?u1 | products | Y863-3538159`); also "List all suppliers located in Germany.", "How many
    hardware products belong to the Sensor category?" and "How many ... are eligible for ...?" (counted); None for anything else."""
    found = _asked_kind_shape(question, (_KIND_RELATED_TO_NAME, _LISTED_KIND_RELATED_TO_NAME, _KIND_RELATED_TO_TITLE)) or \
        _lowered_match(question, _KIND_BELONGS_TO_NAME)
    if found is None or found.group("relation").split()[0] in ("more", "less", "not", "no", "there") or \
            found.group("kind").split()[0] in _NOT_KINDS:
        return None
    counted = found.group("ask") == "how many"
    name = (_quoted_title(found) or "").strip() if found.re is _KIND_RELATED_TO_TITLE else _sentence_name(found)
    return PhraseGraphPattern(form=QuestionForm.COUNT if counted else QuestionForm.LIST,
                              triples=(PhraseTriple(ANSWER, TYPE_RELATION, found.group("kind")),
                                       PhraseTriple(ANSWER, found.group("relation"), name)))


def _sentence_name(found: re.Match[str], group: str = "name") -> str:
    """The name a shape matched, without the full stop ending the sentence ("Germany." but "Garcia Ltd.")."""
    name = found.group(group)
    return name[:-1] if name.endswith(".") and len(name.split()[-1]) > 4 else name


# "Which bills of material use the product Driver Strain?", "How many suppliers deliver Gauge Warp?", "What products
# work together with the Encoder Transformer?": a kind (one word, two, or a plural joined by "of") doing what a verb
# says to a name, the name's kind word left out
_KIND_VERBING_NAME = re.compile(
    r"^(?P<ask>which|what|how many)\s+(?P<kind>[a-z]+(?:\s+of\s+[a-z]+|\s+(?!(?:is|are|was|were|has|have|had|do|does|did|currently|still|also|ever|now)\b|"
    r"[a-z]+ly\b|[a-z]+\s+(?:together|well|closely|directly)\b)[a-z]+)?)\s+"
    r"(?P<relation>(?!(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|must|may|might|the|a|an|"
    r"of|in|on|at|to|for|from|with|by|that|which|who|not)\b)[a-z]+(?:(?:\s+(?:together|well|closely|directly))?\s+(?:to|for|with|on|at|from|into))?)\s+"
    r"(?:(?:the|a|an)\s+(?:[a-z]+\s+)?)?(?P<name>" + _NAME_OR_CODE + r")\s*[?.!]?$")


def kind_verbing_name(question: str) -> PhraseGraphPattern | None:
    """"Which bills of material use the product Driver Strain?" as `?u1 | is a | bills of material ; ?u1 |
    use | Driver Strain` (counted after "How many"; "Which team members report to X?": a verb with its
    preposition): the model splits a kind joined by "of" and a name of common words, or reads the kind as the
    relation; None for anything else."""
    found = _asked_kind_shape(question, (_KIND_VERBING_NAME,))
    if found is None or found.group("kind").split()[-1] in _NOT_A_KINDS_END:
        return None
    return PhraseGraphPattern(form=QuestionForm.COUNT if found.group("ask") == "how many" else QuestionForm.LIST,
                              triples=(PhraseTriple(ANSWER, TYPE_RELATION, found.group("kind")),
                                       PhraseTriple(ANSWER, found.group("relation"), found.group("name"))))


# "How many products have a product manager who belongs to the Engineering department?", "Which products
# have a supplier that is located in Japan?", "List the products whose product manager sits in Data Services."
_ASKED_FOR = (r"^(?P<ask>how many|count|which|what|list|show me|give me|name)\s+(?:all\s+)?(?:the\s+|our\s+)?"
              r"(?:(?P<qualifier>[A-Z][A-Za-z0-9&-]*)\s+)?(?P<kind>[a-z]+(?: (?!(?:that|which|who|are|is|were|was)\b)[a-z]+)?)\s+")
_THROUGH_A_CLAUSE = (
    re.compile(_ASKED_FOR + r"(?:(?:that|which|who)\s+)?(?:have|has|with)\s+an?\s+(?P<noun>[a-z]+(?: [a-z]+)?)\s+(?:who|that|which)\s+"
               r"(?P<verb>(?!(?:is|are)\s+(?:more|less|older|younger|[a-z]+er)\b)[a-z]+(?: [a-z]+){0,2}?)\s+"
               r"(?:the\s+)?(?P<name>" + _NAME_OR_CODE + r")(?: [a-z]+)?\s*[?.!]?$"),
    re.compile(_ASKED_FOR + r"whose\s+(?P<noun>[a-z]+(?: [a-z]+)?)\s+"
               r"(?P<verb>(?:works?|sits?|belongs?|lives?|comes?|is based|are based|is located|are located)"
               r"(?: [a-z]+){0,2}?)\s+"  # "whose company is HBO" names the owned thing itself: not a chain
               r"(?:the\s+)?(?P<name>" + _NAME_OR_CODE + r")(?: [a-z]+)?\s*[?.!]?$"),
    # "Which Switch products are managed by someone from the Marketing department?": an unnamed agent
    re.compile(_ASKED_FOR + r"(?:(?:that|which)\s+)?(?:(?:are|is|were|was)\s+)?(?P<noun>[a-z]+ed\s+by)\s+(?:someone|somebody|anyone|anybody|"
               r"a\s+member|members|an\s+employee|employees|people|a\s+person|staff)\s+(?P<verb>from|in|of)\s+"
               r"(?:the\s+)?(?P<name>" + _NAME_OR_CODE + r")(?: [a-z]+)?\s*[?.!]?$"),
    # "How many products are managed by product managers who work in the Engineering department?": an agent of a
    # kind with its own clause
    re.compile(_ASKED_FOR + r"(?:(?:that|which)\s+)?(?:(?:are|is|were|was|get|gets)\s+)?(?P<noun>[a-z]+ed\s+by)\s+"
               r"(?:the\s+|an?\s+|our\s+)?(?P<agent>[a-z]+(?: [a-z]+)?)\s+(?:who|that|which)\s+(?:(?:is|are)\s+(?=[a-z]+ed\b))?"
               r"(?P<verb>(?!(?:is|are)\s+(?:more|less|older|younger|[a-z]+er)\b)[a-z]+(?: [a-z]+){0,2}?)\s+"
               r"(?:the\s+)?(?P<name>" + _NAME_OR_CODE + r")(?: [a-z]+)?\s*[?.!]?$"),
)


def through_a_clause(question: str) -> PhraseGraphPattern | None:
    """"How many products have a product manager who belongs to the Engineering department?" as
    `count :: ?u1 | is a | products ; ?u1 | product manager | ?u2 ; ?u2 | belongs to | Engineering`
    (also "whose <noun> <verb> <Name>", and "managed by someone from <Name>": `?u1 | managed by | ?u2 ;
    ?u2 | in | <Name>`, "managed by product managers who work in <Name>": `?u1 | managed by | ?u2 ; ?u2 | is a |
    product managers ; ?u2 | work in | <Name>`): the relative clause is the owned thing's condition, which the model drops or
    folds into one edge; None for anything else."""
    found = _asked_kind_shape(question, _THROUGH_A_CLAUSE)
    if found is None:
        return None
    form = QuestionForm.COUNT if found.group("ask") in ("how many", "count") else QuestionForm.LIST
    if found.re is _THROUGH_A_CLAUSE[-1]:  # the agents' kind and their own condition
        kind = " ".join(k for k in (found.group("qualifier"), found.group("kind")) if k)
        return PhraseGraphPattern(form=form, triples=(
            PhraseTriple(ANSWER, TYPE_RELATION, kind), PhraseTriple(ANSWER, found.group("noun"), "?unknown2"),
            PhraseTriple("?unknown2", TYPE_RELATION, found.group("agent")),
            PhraseTriple("?unknown2", found.group("verb"), found.group("name").removesuffix("."))))
    if found.re is _THROUGH_A_CLAUSE[-2]:  # someone from a group is someone in it; "Switch products": one kind
        kind = " ".join(k for k in (found.group("qualifier"), found.group("kind")) if k)
        return PhraseGraphPattern(form=form, triples=(
            PhraseTriple(ANSWER, TYPE_RELATION, kind), PhraseTriple(ANSWER, found.group("noun"), "?unknown2"),
            PhraseTriple("?unknown2", "in", found.group("name"))))
    qualified = (PhraseTriple(ANSWER, found.group("kind"), found.group("qualifier")),) if found.group("qualifier") else ()
    return PhraseGraphPattern(form=form, triples=(
        PhraseTriple(ANSWER, TYPE_RELATION, found.group("kind")), *qualified, PhraseTriple(ANSWER, found.group("noun"), "?unknown2"),
        PhraseTriple("?unknown2", found.group("verb"), found.group("name").removesuffix("."))))  # an imperative's "."


# "Which departments are responsible for products supplied by suppliers located in Japan?", "How many products
# are made by suppliers based in cities served by ...": a kind reached from the asked one through another kind,
# each step a participle with its preposition ("supplied by", "located in"), ending in a name
_IRREGULAR_PARTICIPLE = r"born|made|sold|held|built|bought|kept|found|run"
_CHAIN_STEP = (r"(?:(?:that|which|who)\s+(?:are|is|were|was)\s+)?(?P<{0}>(?:[a-z]+(?:ed|en)|" + _IRREGULAR_PARTICIPLE
               + r")\s+(?:by|in|from|at|for|with|to|on))")
_STEP_PREPOSITION = r"(?:for|by|in|from|at|of|with|to|on)"
# the first step: a participle ("supplied by", "starring in"), a word with its preposition ("responsible for",
# "similar to"), having, or a common verb of things ("manage", "supply")
_FIRST_STEP = (r"(?P<first>(?:[a-z]+(?:ed|en|ing)|" + _IRREGULAR_PARTICIPLE + r")(?:\s+" + _STEP_PREPOSITION
               + r")?|(?!(?:more|less|[a-z]+er|there)\b)[a-z]+\s+" + _STEP_PREPOSITION + r"|have|has|had|with|"
               r"(?:manage|supply|suppl(?:ies)|make|produce|use|contain|need|include|serve|employ|own|sell|buy|build|"
               r"cover|hold|run|lead|head)s?)")
_CHAIN_START = (_ASKED_FOR + r"(?:(?:that|which|who)\s+)?(?:(?:are|is|were|was)\s+)?" + _FIRST_STEP
                + r"\s+(?:the\s+|our\s+)?(?P<middle>[a-z]+s)\s+")
_HAVE = frozenset({"have", "has", "had", "with"})
_NOT_CHAIN_KINDS = frozenset({"all", "everything", "anything", "something", "the", "a", "an", "our", "their", "some",
                              "different", "any", "many", "various", "other", "ones", "one", "there"})
_STEP_PREPOSITIONS = frozenset({"in", "of", "for", "by", "from", "at", "with", "to", "on"})
_CHAIN_NAME = r"\s+(?:the\s+)?(?P<name>" + _NAME_OR_CODE + r")\s*[?.!]?$"
_PARTICIPLE_CHAINS = (
    re.compile(_CHAIN_START + _CHAIN_STEP.format("second") + r"\s+(?:the\s+|our\s+)?(?P<last>[a-z]+s)\s+"
               + _CHAIN_STEP.format("third") + _CHAIN_NAME),
    re.compile(_CHAIN_START + _CHAIN_STEP.format("second") + _CHAIN_NAME),  # two steps: "products supplied by
)                                                                           # suppliers located in Japan"


def participle_chain(question: str) -> PhraseGraphPattern | None:
    """"Which departments are responsible for products supplied by suppliers located in Japan?" as `?u1 | is a
    | departments ; ?u1 | responsible for | ?u2 ; ?u2 | is a | products ; ?u2 | supplied by | ?u3 ; ?u3 | is a
    | suppliers ; ?u3 | located in | Japan`: three steps the model folds into one or two; None for anything else."""
    found = _asked_kind_shape(question, _PARTICIPLE_CHAINS)
    three = found is not None and found.re is _PARTICIPLE_CHAINS[0]
    if found is None or found.group("middle") in _NOT_KINDS or (three and found.group("last") in _NOT_KINDS):
        return None
    kind, first = found.group("kind").split(), found.group("first")
    if kind[0] in _NOT_CHAIN_KINDS or found.group("middle") in _NOT_CHAIN_KINDS or (len(kind) > 1 and (kind[1] in _HAVE or kind[1].endswith(("ing", "ed")))) or \
            first.split()[0] in _NOT_CHAIN_KINDS | _STEP_PREPOSITIONS:
        return None  # "all martial artists", "labels have published ...", "actors starring in": not this shape
    form = QuestionForm.COUNT if found.group("ask") in ("how many", "count") else QuestionForm.LIST
    qualified = (PhraseTriple(ANSWER, found.group("kind"), found.group("qualifier")),) if found.group("qualifier") else ()
    name = found.group("name").removesuffix(".")
    last = (PhraseTriple("?unknown2", found.group("second"), "?unknown3"),
            PhraseTriple("?unknown3", TYPE_RELATION, found.group("last")),
            PhraseTriple("?unknown3", found.group("third"), name)) if three else (
        PhraseTriple("?unknown2", found.group("second"), name),)
    # "What team has players born in X?": what is had names the relation (`?u1 | players | ?u2`)
    had = (PhraseTriple(ANSWER, found.group("middle"), "?unknown2"),) if first in _HAVE else (
        PhraseTriple(ANSWER, first, "?unknown2"), PhraseTriple("?unknown2", TYPE_RELATION, found.group("middle")))
    return PhraseGraphPattern(form=form, triples=(
        PhraseTriple(ANSWER, TYPE_RELATION, found.group("kind")), *qualified, *had, *last))

# "Which papers use a benchmark as their evaluation method?", "How many papers have technical debt as a
# research object?": a value named as what an attribute of the asked things is
# how many / which [<Name>] <kind> [that]: the start the readers of a counted or listed kind share ("Which
# ICSA papers ...": the kind qualified by a name)
_COUNTED_OR_LISTED_KIND = (r"^(?P<ask>how many|which|what|list|show me|give me|find|name)\s+(?:all\s+)?"
                           r"(?:the\s+|our\s+|some\s+|any\s+)?(?:(?P<qualifier>[A-Z][A-Za-z0-9&-]*)\s+)?"
                           # "bills of material": a plural joined by "of" to a noun is one kind
                           r"(?P<kind>[a-z]+s of (?!(?:the|a|an|our|their|its|all|which|whom|whose)\b)[a-z]+|"
                           r"[a-z]+(?: (?!(?:that|which|who|currently|still|also|ever)\b)[a-z]+)?)\s+"
                           # "ECSA papers from 2021": the things' year
                           r"(?:(?:from|of)\s+(?P<year>(?:19|20)\d\d)\s+)?(?:(?:that|which|who)\s+)?")
_VALUE_AS_ATTRIBUTE = re.compile(
    _COUNTED_OR_LISTED_KIND + r"(?:do\s+|does\s+|did\s+)?"
    r"(?:uses?|used|using|have|has|had|having|applies|apply|applied|employs?|employed|with|report|reports|name|names|"
    r"list|lists|mention|mentions|evaluates?|evaluated|investigates?|investigated|stud(?:y|ies|ied)|address(?:es|ed)?|"
    r"considers?|considered|targets?|targeted|adopts?|adopted|follows?|followed)\s+(?:an?\s+|the\s+)?(?P<value>[\w][\w -]*?)\s+as\s+(?:their|its|the|an?)?\s*"
    r"(?P<attribute>[a-z][a-z-]*(?: [a-z][a-z-]*){0,2})\s*[?.!]?$")


# "Which papers are classified as personal experience papers?", "How many papers are at the secondary research
# level?": a value the asked things are said to be, by a participle with "as" or a grade noun
_CLASSIFIED_AS = re.compile(
    _COUNTED_OR_LISTED_KIND + r"(?:are|is|were|was)\s+(?P<attribute>classified|categori[sz]ed|labell?ed|tagged|marked|typed|"
    r"rated|ranked|listed)\s+as\s+(?:an?\s+)?(?P<value>[a-z][a-z -]*?)\s*[?.!]?$")
# "Which papers are secondary research?", "How many papers are case studies?": a class of the things said as a
# value (two words, or a plural noun), with no verb
_ARE_A_VALUE = re.compile(
    _COUNTED_OR_LISTED_KIND + r"(?:are|is|were|was)\s+(?:an?\s+)?(?P<value>(?!(?:not|there|all|both|also|still|now|more|less|"
    r"the|in|of|from|by|with|at|on|for|to)\b)[a-z]+(?:[a-z]*[^s\W]s| (?!(?:in|of|from|by|with|at|on|for|to|than|and|or)\b)"
    r"[a-z]+(?: [a-z]+)?))\s*[?.!]?$")
# "Show me papers whose research object is technical debt.": an attribute of the things and its value, which the
# model reads as a class of an intermediate or drops (not "whose price is above 5", a comparison, nor "whose
# company is owned by X", a relation)
_WHOSE_VALUE = re.compile(
    _COUNTED_OR_LISTED_KIND + r"whose\s+(?P<attribute>[a-z][a-z-]*(?: [a-z][a-z-]*){0,2})\s+(?:is|are|was|were)\s+"
    r"(?:an?\s+|the\s+)?(?P<value>(?![\w -]*\b(?:than|above|below|over|under|between|least|most|before|after|"
    r"since|until|by|in|of|from|at|on|with|for|to)\b)[A-Za-z0-9][\w-]*(?: (?!(?:is|are|was|were|has|have|had|do|does|"
    r"did|and|or|that|which|who)\b)[\w-]+)*)(?:\s+(?:are|is|were|was)\s+there)?\s*[?.!]?$")
_AT_A_GRADE = re.compile(
    _COUNTED_OR_LISTED_KIND + r"(?:are|is|were|was)\s+(?:at|in|on|of)\s+(?:the|an?)\s+(?P<value>[a-z][a-z -]*?)\s+"
    r"(?P<attribute>level|stage|phase|type|category|class|kind|grade|tier|status)\s*[?.!]?$")


def stated_value_of_kind(question: str) -> PhraseGraphPattern | None:
    """"Which papers are classified as personal experience papers?" as `?u1 | is a | papers ; ?u1 |
    classified as | personal experience papers`, "... at the secondary research level" as `?u1 | level
    | secondary research`, "Which papers are secondary research?" as classified so, "papers whose research
    object is technical debt" as `?u1 | research object | technical debt`: the value is an
    attribute's (the model reads it as a class or drops it); None for anything else (not "Which papers are
    cheaper?", "... available?", "... published?")."""
    for shape in (_CLASSIFIED_AS, _AT_A_GRADE, _WHOSE_VALUE, _ARE_A_VALUE):
        read = _counted_or_listed(question, shape, "value")
        if read is None:
            continue
        found, asked = read
        value = found.group("value")
        if shape is _ARE_A_VALUE and (re.search(r"(?:er|est|ed|ing|able|ible)\b|\b(?:born|first|last)\b", value)
                                      or value.split()[0] in ("most", "least", "fewest", "many", "few", "some")
                                      or value.split()[-1] in _NOT_A_KINDS_END):  # "Which country are most suppliers from?"
            continue
        attribute = "classified as" if shape is _ARE_A_VALUE else \
            found.group("attribute") + (" as" if shape is _CLASSIFIED_AS else "")
        return replace(asked, triples=(*asked.triples, PhraseTriple(ANSWER, attribute, value)))
    return None


def value_as_attribute(question: str) -> PhraseGraphPattern | None:
    """"Which papers use a benchmark as their evaluation method?" as `?u1 | is a | papers ; ?u1 |
    evaluation method | benchmark`: the value and the attribute it is said to be, which the model
    reads as classes or drops ("?u2 | is a | debt"); None for anything else."""
    read = _counted_or_listed(question, _VALUE_AS_ATTRIBUTE, "value")
    if read is None:
        return None
    found, asked = read
    return replace(asked, triples=(*asked.triples, PhraseTriple(ANSWER, found.group("attribute"), found.group("value"))))


# "Which papers provide a replication package?", "How many papers reference a threats-to-validity guideline?":
# the asked things have a thing of a kind, which the model drops
_HAVING_A_THING = re.compile(
    _COUNTED_OR_LISTED_KIND + r"(?P<verb>" + HAVING_VERB_FORMS + r")\s+"
    r"(?:an?\s+|any\s+|some\s+)?(?P<thing>[a-z][a-z-]*(?: (?!(?:in|of|for|with|from|on|at|by|to|about)\b)[a-z][a-z-]*){0,3})"
    r"\s*[?.!]?$")  # (not "expertise in rheostats": the model relates expertise to rheostats)
# "Which papers make a replication package available?": the same said as making the thing available
_MAKING_A_THING_AVAILABLE = re.compile(
    _COUNTED_OR_LISTED_KIND + r"(?P<verb>make|makes|made)\s+(?:an?\s+|the\s+|their\s+|its\s+)?"
    r"(?P<thing>[a-z][a-z-]*(?: (?!(?:in|of|for|with|from|on|at|by|to|about|and|or)\b)[a-z][a-z-]*){0,3}?)"
    r"\s+(?:publicly\s+|openly\s+|freely\s+)?available\s*[?.!]?$")


# a title in quotes, straight or curly ('X', "X", ‘X’, “X”), read by `_quoted_title`
_QUOTED_TITLE = (r"(?:'(?P<quoted>[^']+)'|\"(?P<double>[^\"]+)\"|[\u2018\u201c](?P<curly>[^\u2019\u201d]+)"
                 r"[\u2019\u201d])")


# "Which quality attributes were evaluated in 'A Comparison of MQTT Brokers ...'?": `kind_related_to_name` with a
# quoted title for the name
_KIND_RELATED_TO_TITLE = re.compile(
    r"^(?P<ask>which|what|how many)\s+(?P<kind>[a-z]+(?: [a-z]+){0,2})\s+(?:are|is|were|was|have\s+been|has\s+been)\s+"
    r"(?P<relation>[a-z]+(?:\s+[a-z]+)?\s+(?:with|for|to|in|by|from|on|at))\s+" + _QUOTED_TITLE + r"\s*[?.!]?$")


def _quoted_title(found: re.Match[str]) -> str | None:
    """The title a `_QUOTED_TITLE` matched, without its quotes."""
    return found.group("quoted") or found.group("double") or found.group("curly")


# "Does 'Trace Link Recovery for Software Architecture Documentation' provide a replication package?", "Does the
# paper X reference a threats-to-validity guideline?": whether a named thing has a thing of a kind
_NAMED_HAVING_A_THING = re.compile(
    r"^(?:does|did)\s+(?:the\s+(?:paper|study|article|publication|work)\s+)?(?:" + _QUOTED_TITLE + r"|"
    r"(?P<name>" + _NAME_OR_CODE + r"))\s+"
    r"(?P<verb>provide|offer|reference|report|mention|include|come\s+with)\s+(?:an?\s+|any\s+|some\s+)?"
    r"(?P<thing>[a-z][a-z-]*(?: (?!(?:in|of|for|with|from|on|at|by|to|about)\b)[a-z][a-z-]*){0,3})\s*[?.!]?$")


# a participle's preposition and the value written in lower case after it ("evaluated with a case study")
_WITH_VALUE = (r"(?P<preposition>with|using|through|via|by\s+means\s+of|by\s+way\s+of)\s+(?:an?\s+|the\s+)?"
               r"(?P<value>[a-z][a-z-]*(?: (?!(?:and|or|but|in|of|for|with|from|on|at|by|to|about)\b)[a-z][a-z-]*){0,3})"
               r"\s*[?.!]?$")
# "Was 'Two Architectural Threat Analysis Techniques Compared' evaluated with a controlled experiment?": a named
# title related by a participle to a value written in lower case
_NAMED_VERBED_WITH_VALUE = re.compile(
    r"^(?:was|were|is|are|has\s+been|have\s+been)\s+(?:the\s+(?:paper|study|article|publication|work)\s+)?"
    + _QUOTED_TITLE + r"\s+(?P<verb>[a-z]+ed)\s+" + _WITH_VALUE)


def named_verbed_with_value(question: str) -> PhraseGraphPattern | None:
    """"Was 'X' evaluated with a controlled experiment?" as `boolean :: X | evaluated with | controlled
    experiment` ("Did 'X' use a case study for its evaluation?" as `X | use for evaluation | case study`): what
    `kind_verbed_with_value` asks of things of a kind, asked of one quoted title; None for anything else."""
    found = _lowered_match(question, _NAMED_VERBED_WITH_VALUE) or _lowered_match(question, _NAMED_USING_A_VALUE)
    if found is None:
        return None
    name = _quoted_title(found) or ""
    if found.re is _NAMED_USING_A_VALUE:
        relation = _used_relation(found)
    else:
        relation = f"{found.group('verb')} {' '.join(found.group('preposition').split())}"
    return PhraseGraphPattern(form=QuestionForm.BOOLEAN, triples=(PhraseTriple(name.strip(), relation, found.group("value")),))


def named_having_a_thing(question: str) -> PhraseGraphPattern | None:
    """"Does 'Trace Link Recovery ...' provide a replication package?" as `boolean :: Trace Link Recovery ... |
    provide replication package | ?u1 :: filter ?u1 != false`: what `kind_having_a_thing` asks of things of a
    kind, asked of one named thing (the model copies the title into both ends); None for anything else."""
    found = _lowered_match(question, _NAMED_HAVING_A_THING)
    if found is None or found.group("thing").split()[0] in _NOT_ATTRIBUTES | _COMPARING_WORDS:
        return None
    name = _quoted_title(found) or found.group("name")
    return PhraseGraphPattern(form=QuestionForm.BOOLEAN,
                              triples=(PhraseTriple(name.strip(), f"{' '.join(found.group('verb').split())} {found.group('thing')}",
                                                    ANSWER),),
                              comparisons=(Comparison(ANSWER, "!=", "false"),))


# "How many hardware products have a compatible product?", "Which employees have a phone number?" (not
# "expertise in rheostats", which relates expertise to rheostats)
_HAVING_OWN = re.compile(_COUNTED_OR_LISTED_KIND + r"(?:have|has)\s+(?:an?\s+|any\s+)?"
                         r"(?P<thing>[a-z][a-z-]*(?: (?!(?:in|of|for|with|from|by|to|about)\b)[a-z][a-z-]*){0,2}?)(?:\s+at\s+all|\s+on\s+(?:record|file))?\s*[?.!]?$")


def kind_having_own(question: str) -> PhraseGraphPattern | None:
    """"How many hardware products have a compatible product?" as `?u1 | is a | hardware products ; ?u1
    | compatible product | ?u2`: the asked things that have one of their own (the model keeps the kind
    alone; read again without "no" for "have no compatible product"); None for anything else."""
    read = _counted_or_listed(question, _HAVING_OWN, "thing")
    if read is None:
        return None
    found, asked = read
    words = found.group("thing").split()
    if words[0] in _NOT_ATTRIBUTES | _COMPARING_WORDS | {"no", "more", "less"} \
            or set(words) & {"named", "called", "titled", "labelled", "labeled"}:
        return None  # "a city named springfield": a name, not a kind of thing
    if words[0] == "the" and len(words) > 1 and words[1] in SUPERLATIVE_DESCENDING:
        return None  # "Which museum has the most staff?": a superlative, not a thing each one has
    return replace(asked, triples=(*asked.triples, PhraseTriple(ANSWER, found.group("thing"), "?unknown2")))


def kind_having_a_thing(question: str) -> PhraseGraphPattern | None:
    """"Which papers provide a replication package?" as `?u1 | is a | papers ; ?u1 | provide
    replication package | ?u2 :: filter ?u2 != false`: things that have a thing of that kind (the
    model keeps only the kind), which is not having it stated false (graphs keep yes/no attributes
    as "True"/"False" values); None for anything else."""
    read = _counted_or_listed(question, _HAVING_A_THING, "thing") or \
        _counted_or_listed(question, _MAKING_A_THING_AVAILABLE, "thing")
    if read is None:
        return None
    found, asked = read
    relation = f"{verb_base(found.group('verb'))} {found.group('thing')}" if found.re is _HAVING_A_THING else \
        f"make available {found.group('thing')}"
    return replace(asked, triples=(*asked.triples, PhraseTriple(ANSWER, relation, "?unknown2")),
                   comparisons=(Comparison("?unknown2", "!=", "false"),))


# "Which papers were evaluated with a case study?", "How many papers were evaluated by means of a controlled
# experiment?": things a participle relates to a value written in lower case (which the model leaves out)
_VERBED_WITH_VALUE = re.compile(
    _COUNTED_OR_LISTED_KIND + r"(?:are|is|were|was|have\s+been|has\s+been)\s+(?P<verb>[a-z]+ed)\s+" + _WITH_VALUE)
# "How many papers evaluated their work with a case study?": the same said actively (their own work is no value)
_ACTIVELY_VERBED_WITH_VALUE = re.compile(
    _COUNTED_OR_LISTED_KIND + r"(?P<verb>[a-z]+ed)\s+(?:(?:their|its)\s+(?:own\s+)?(?:work|approach|solution|"
    r"contribution|result|finding|method|technique|proposal|idea)s?\s+)?" + _WITH_VALUE)

# "Which papers use a case study?", "Which ECSA papers used interviews for evaluation?": a method named by common
# words, in the active voice; "Which papers study architecture decision making?": a topic so named
_USED_VALUE = (r"\s+(?:an?\s+|the\s+)?(?P<value>[a-z][a-z-]*(?: (?!(?:and|or|but|in|of|for|with|from|on|at|by|to|about|as)\b)"
               r"[a-z][a-z-]*){0,3})(?:\s+(?P<purpose>for|as|in(?=\s+(?:their|its)\b))\s+(?:an?\s+|the\s+|their\s+|its\s+)?(?P<what>[a-z]+(?: [a-z]+){0,2}))?"
               r"\s*[?.!]?$")
_USING_VERBS = (r"uses?|used|appl(?:y|ies|ied)|(?:employ|adopt|follow|conduct|perform)(?:s|ed)?|rel(?:y|ies|ied)\s+on|"
                r"stud(?:y|ies|ied)|(?:investigat|examin|explor|analys|analyz)(?:e|es|ed)|(?:discuss|address)(?:es|ed)?|"
                r"knows?\s+about|(?:specialis|specializ)(?:e|es)\s+in|"  # "Who knows about capacitors?": a field of expertise
                r"deal(?:s|t)?\s+with|focus(?:es|ed)?\s+on|look(?:s|ed)?\s+(?:at|into)|(?:concern|cover|target)(?:s|ed)?|tackl(?:e|es|ed)")
_USING_A_VALUE = re.compile(_COUNTED_OR_LISTED_KIND + r"(?P<verb>" + _USING_VERBS + r")" + _USED_VALUE)
_WHO_USES_A_VALUE = re.compile(r"^(?P<ask>who)\s+(?:(?:is|are)\s+(?:our\s+|the\s+|an?\s+)?(?P<expert>experts?)\s+(?P<on>on|in|for)|"
                               r"(?P<verb>" + _USING_VERBS + r"))" + _USED_VALUE)  # "Who are our experts on switches?"
# "Did 'A Framework for Tunable Anomaly Detection' use a case study for its evaluation?": the same asked of one
# quoted title
_NAMED_USING_A_VALUE = re.compile(
    r"^(?:did|does|do)\s+(?:the\s+(?:paper|study|article|publication|work)\s+)?" + _QUOTED_TITLE +
    r"\s+(?P<verb>use|apply|employ|adopt|follow|conduct|perform|study|investigate|examine|explore|analy[sz]e|discuss|address)"
    + _USED_VALUE)

# "Which papers by Patrizio Pelliccione were published in 2021?": things a name made, and where or when they were
# done (the model keeps one of the two)
_KIND_BY_NAME_VERBED = re.compile(
    _COUNTED_OR_LISTED_KIND + r"(?P<by>by|from)\s+(?P<name>" + _NAME_OR_CODE + r")\s+(?:are|is|were|was|have\s+been|has\s+been)\s+"
    r"(?P<verb>[a-z]+ed)\s+(?P<preposition>in|at|on|during)\s+(?:the\s+)?(?P<value>" + _NAME_OR_CODE + r")\s*[?.!]?$")


def kind_by_name_verbed(question: str) -> PhraseGraphPattern | None:
    """"Which papers by Patrizio Pelliccione were published in 2021?" as `?u1 | is a | papers ; ?u1 | by |
    Patrizio Pelliccione ; ?u1 | published in | 2021` (counted after "How many"); None for anything else."""
    read = _counted_or_listed(question, _KIND_BY_NAME_VERBED, "verb")
    if read is None:
        return None
    found, asked = read
    return replace(asked, triples=(*asked.triples, PhraseTriple(ANSWER, found.group("by"), found.group("name")),
                                   PhraseTriple(ANSWER, f"{found.group('verb')} {found.group('preposition')}",
                                                _sentence_name(found, "value"))))


def kind_verbed_with_value(question: str) -> PhraseGraphPattern | None:
    """"Which papers were evaluated with a case study?" as `?u1 | is a | papers ; ?u1 | evaluated with |
    case study` (counted after "How many"; "ICSA papers" keeps its qualifying name; also "Which papers use a
    case study?"): the value is named by common words, which the model drops; None for anything else."""
    read = _counted_or_listed(question, _VERBED_WITH_VALUE, "value") or \
        _counted_or_listed(question, _ACTIVELY_VERBED_WITH_VALUE, "value") or _counted_or_listed(question, _USING_A_VALUE, "value")
    if read is None:
        who = _lowered_match(question, _WHO_USES_A_VALUE)  # "Who knows about capacitors?": whoever does
        if who is None or who.group("value").split()[0] in _NOT_ATTRIBUTES | _COMPARING_WORDS:
            return None
        relation = f"expert {who.group('on')}" if who.group("expert") else _used_relation(who)
        return PhraseGraphPattern(triples=(PhraseTriple(ANSWER, relation, who.group("value")),))
    found, asked = read
    if found.re is _USING_A_VALUE:  # "used interviews for evaluation": `?u1 | used for evaluation | interviews`
        return replace(asked, triples=(*asked.triples, PhraseTriple(ANSWER, _used_relation(found), found.group("value"))))
    preposition = " ".join(found.group("preposition").split())
    return replace(asked, triples=(*asked.triples, PhraseTriple(ANSWER, f"{found.group('verb')} {preposition}",
                                                                found.group("value"))))


def _used_relation(found: re.Match[str]) -> str:
    """The relation a `_USED_VALUE` match states: the verb, and what the value is used for ("used for evaluation")."""
    said = found.group("verb") + (f" {found.group('purpose')} {found.group('what')}" if found.group("what") else "")
    return " ".join(said.split())


def _counted_or_listed(question: str, shape: re.Pattern[str],
                       said: str) -> tuple[re.Match[str], PhraseGraphPattern] | None:
    """`shape`'s match with a real kind and a `said` group that is no comparison ("the same age"), and
    the asked things: the form the ask gives ("How many ..." counts), the kind and its qualifying name
    ("ICSA papers": `?u1 | papers | ICSA`)."""
    found = _asked_kind_shape(question, (shape,))
    if found is None or found.group(said).split()[0] in _NOT_ATTRIBUTES | _COMPARING_WORDS or \
            _plural_then_word(found.group("kind")):
        return None
    return found, _asked_things(found)


def _asked_things(found: re.Match[str]) -> PhraseGraphPattern:
    """The things a `_COUNTED_OR_LISTED_KIND` match asks for: counted after "How many", of its kind,
    with its qualifying name ("ICSA papers": `?u1 | papers | ICSA`) and year ("papers from 2021": `?u1 | year | 2021`)."""
    kind, qualifier, year = found.group("kind"), found.group("qualifier"), found.groupdict().get("year")
    triples = (PhraseTriple(ANSWER, TYPE_RELATION, kind), *((PhraseTriple(ANSWER, kind, qualifier),) if qualifier else ()),
               *((PhraseTriple(ANSWER, "year", year),) if year else ()))
    return PhraseGraphPattern(form=QuestionForm.COUNT if found.group("ask") == "how many" else QuestionForm.LIST,
                              triples=triples)


def _plural_then_word(kind: str) -> bool:
    """"papers investigate": a plural noun ends the kind, the next word is the verb (a compound kind's
    first noun is singular: "hardware products", "research papers")."""
    words = kind.split()
    return len(words) == 2 and _plural(words[0])


_COMPARING_WORDS = frozenset({"same", "such", "much", "many", "well", "long", "far", "soon", "more", "less", "fewer", "other"})  # "the same age as ..."


# "In which city is Drake Ltd located?", "Which country is the supplier Allen-Short based in?": the place a
# named thing is at, asked by its kind
_PLACE_VERB = r"(?P<verb>located|based|situated|headquartered|registered)"
_PLACE_OF_NAME = (
    re.compile(r"^(?:in|at)\s+(?:which|what)\s+(?P<kind>[a-z]+(?: [a-z]+)?)\s+(?:is|are|was|were)\s+" + _NAME +
               r"\s+" + _PLACE_VERB + r"\s*[?.!]?$"),
    re.compile(r"^(?:which|what)\s+(?P<kind>[a-z]+(?: [a-z]+)?)\s+(?:is|are|was|were)\s+" + _NAME +
               r"\s+" + _PLACE_VERB + r"\s+(?:in|at)\s*[?.!]?$"),
    # "In which country is the supplier of product J785-9314350 located?": the place of a named thing's owned thing
    re.compile(r"^(?:in|at)\s+(?:which|what)\s+(?P<kind>[a-z]+(?: [a-z]+)?)\s+(?:is|are|was|were)\s+the\s+"
               r"(?P<owned>[a-z]+(?: [a-z]+)?)\s+(?:of|for)\s+" + _NAME + r"\s+" + _PLACE_VERB + r"\s*[?.!]?$"),
    # "At which venue was "ECo-IoT: An Architectural Approach ..." published?": where a quoted title appeared
    re.compile(r"^(?:in|at)\s+(?:which|what)\s+(?P<kind>[a-z]+(?: [a-z]+)?)\s+(?:is|are|was|were)\s+(?:the\s+[a-z]+\s+)?"
               r"[\"'\u201c\u2018](?P<name>[^\"\u201d\u2019]+?)[\"'\u201d\u2019]\s+(?P<verb>published|presented|located|based)"
               r"\s*[?.!]?$"),
    # "Which country is the supplier of the Planck Network Warp in?": the same, its preposition last
    re.compile(r"^(?:which|what)\s+(?P<kind>[a-z]+(?: [a-z]+)?)\s+(?:is|are|was|were)\s+the\s+"
               r"(?P<owned>[a-z]+(?: [a-z]+)?)\s+(?:of|for)\s+" + _NAME + r"(?:\s+" + _PLACE_VERB + r")?\s+(?:in|at)\s*[?.!]?$"),
)


def place_of_a_name(question: str) -> PhraseGraphPattern | None:
    """"In which city is Drake Ltd located?" as `?u1 | city | Drake Ltd`: the kind of place asked for
    names the attribute (a graph keeps a supplier's city and country, not its "location"), which the
    model sometimes reads as a chain through an unknown (`?u1 | city | ?u2 ; ?u2 | located | Drake
    Ltd`); the place of a named thing's owned thing ("the supplier of product X") through an unknown.
    None for anything else."""
    found = _asked_kind_shape(question, _PLACE_OF_NAME)
    if found is None:
        return None
    if found.groupdict().get("owned"):  # `?u1 | country | ?u2 ; ?u2 | supplier | J785-9314350`
        return PhraseGraphPattern(triples=(PhraseTriple(ANSWER, found.group("kind"), "?unknown2"),
                                           PhraseTriple("?unknown2", found.group("owned"), found.group("name"))))
    return PhraseGraphPattern(triples=(PhraseTriple(ANSWER, found.group("kind"), found.group("name")),))


# "What is the price of the hardware product J785-9314350?", "What's the email of Karen Brant?": one
# attribute of a named thing, its kind said before its name or not
# no preposition, conjunction, relative word or verb "to be"
_PLAIN_WORD = r"(?!(?:of|in|and|or|for|with|by|from|to|at|on|per|whose|which|that|who|is|are|was|were)\b)[a-z]+"
# the thing an attribute is of: a name or a quoted title, after a kind word or two ('the paper "X"')
_ATTRIBUTE_OWNER = (r"(?:the\s+)?(?P<kind>" + _PLAIN_WORD + r"(?: " + _PLAIN_WORD + r")?\s+)?(?:(?P<name>" + _NAME_OR_CODE +
                    r")|" + _QUOTED_TITLE + r")\s*[?.!]?$")
_ATTRIBUTE_OF_NAME = re.compile(
    r"^(?:what|who)(?:'s|\s+(?:is|are|was|were))\s+the\s+(?P<attribute>" + _PLAIN_WORD + r"(?: " + _PLAIN_WORD +
    r"){0,2}?)\s+of\s+" + _ATTRIBUTE_OWNER)  # 'the research object of the paper "Exploring Web Search Engines ..."'
# 'What research level is assigned to "Guidelines for Architecting Android Apps"?': an attribute said through a verb
# that adds nothing but the attribute's being recorded; one attribute of a name, or any of a quoted title
_ATTRIBUTE_GIVEN_TO_NAME = re.compile(
    r"^(?:what|which)\s+(?P<attribute>" + _PLAIN_WORD + r"(?: " + _PLAIN_WORD + r"){0,2}?)\s+(?:is|are|was|were|has been|"
    r"have been)\s+(?:assigned|given|attributed|recorded|listed|specified|reported|stated|noted|documented)\s+(?:to|for)\s+" +
    _ATTRIBUTE_OWNER)
_AGGREGATE_WORDS = frozenset({"average", "mean", "total", "sum", "number", "count", "amount", "maximum", "minimum",
                              "highest", "lowest", "largest", "smallest", "overall", "combined"})


def _plural(words: str) -> bool:
    """Whether the last of the words is a plural noun ("singers", not "class")."""
    last = words.split()[-1] if words.split() else ""
    return last.endswith("s") and not last.endswith("ss")


def attribute_of_a_name(question: str) -> PhraseGraphPattern | None:
    """"What is the price of the hardware product J785-9314350?" as `?u1 | price | J785-9314350`; the
    model sometimes keeps the kind and loses the attribute (`?u1 | hardware product | J785-9314350`).
    Also "What research level is assigned to 'X'?". None for anything else."""
    found = _lowered_match(question, _ATTRIBUTE_OF_NAME)
    if found is None and (given := _lowered_match(question, _ATTRIBUTE_GIVEN_TO_NAME)) is not None and \
            (_quoted_title(given) or not _plural(given.group("attribute"))):  # "Which staff are assigned to X?": a kind
        found = given
    if found is None or found.group("attribute").split()[0] in _NOT_ATTRIBUTES | _AGGREGATE_WORDS or \
            (" and " in (found.group("name") or "") and "," not in found.group("name")) or \
            _plural(found.group("kind") or ""):  # "of the singers France": the name qualifies many things
        return None
    return PhraseGraphPattern(triples=(PhraseTriple(ANSWER, found.group("attribute"), found.group("name") or _quoted_title(found)),))


# 'What is the version number of the template used by "How to write a CV"?': an attribute of the thing of a kind
# that a participle relates to a name (or a quoted title)
_ATTRIBUTE_OF_VERBED_KIND = re.compile(
    r"^(?:what|who)(?:'s|\s+(?:is|are|was|were))\s+the\s+(?P<attribute>" + _PLAIN_WORD + r"(?: " + _PLAIN_WORD +
    r"){0,2}?)\s+of\s+the\s+(?P<kind>" + _PLAIN_WORD + r"(?: " + _PLAIN_WORD + r")?)\s+(?P<verb>[a-z]+(?:ed|en)|"
    + _IRREGULAR_PARTICIPLE + r"|used)\s+(?P<preposition>by|in|for|with|at|on|from)\s+(?:the\s+)?(?:" + _QUOTED_TITLE
    + r"|(?P<name>" + _NAME_OR_CODE + r"))\s*[?.!]?$")


def attribute_of_a_verbed_kind(question: str) -> PhraseGraphPattern | None:
    """'What is the version number of the template used by "How to write a CV"?' as `?u1 | version number | ?u2 ;
    ?u2 | is a | template ; ?u2 | used by | How to write a CV` (the model keeps the thing and the name, and loses
    the attribute); None for anything else."""
    found = _lowered_match(question, _ATTRIBUTE_OF_VERBED_KIND)
    if found is None or found.group("attribute").split()[0] in _NOT_ATTRIBUTES | _AGGREGATE_WORDS or \
            _plural(found.group("kind")):
        return None
    name = (_quoted_title(found) or "").strip() or _sentence_name(found)
    return PhraseGraphPattern(triples=(PhraseTriple(ANSWER, found.group("attribute"), "?unknown2"),
                                       PhraseTriple("?unknown2", TYPE_RELATION, found.group("kind")),
                                       PhraseTriple("?unknown2", f"{found.group('verb')} {found.group('preposition')}", name)))


# "What are the width, height and depth in millimetres of the Coil Inductor Multiplexer?": several attributes of
# one named thing, listed with commas and "and" (a unit after them or not)
# what separates the items of a list said in words ("width, height and depth", "Cam Plante and Doug Acomb")
_LIST_SEPARATOR = re.compile(r",\s*(?:and\s+)?|\s+and\s+")
_ATTRIBUTES_OF_NAME = re.compile(
    r"^(?:what|who)(?:'s|\s+(?:is|are|was|were))\s+(?:the\s+)?(?P<attributes>" + _PLAIN_WORD + r"(?: " + _PLAIN_WORD +
    r")?(?:,\s+(?:the\s+)?" + _PLAIN_WORD + r"(?: " + _PLAIN_WORD + r")?)+,?\s+and\s+(?:the\s+)?" + _PLAIN_WORD +
    r"(?: " + _PLAIN_WORD + r")?)(?:\s+in\s+[a-z€$%]+)?\s+of\s+(?:the\s+)?(?P<kind>" + _PLAIN_WORD + r"(?: " + _PLAIN_WORD +
    r")?\s+)?(?P<name>" + _NAME_OR_CODE + r")\s*[?.!]?$")


def attributes_of_a_name(question: str) -> PhraseGraphPattern | None:
    """"What are the width, height and depth of the Coil Inductor Multiplexer?" as `?u1 | width | Coil Inductor
    Multiplexer ; ?u2 | height | ... ; ?u3 | depth | ... :: select ?u1 ?u2 ?u3`: three or more attributes of
    one name, each answered (the model keeps two and splits the name); None for anything else."""
    found = _lowered_match(question, _ATTRIBUTES_OF_NAME)
    if found is None or _plural(found.group("kind") or ""):
        return None
    attributes = [re.sub(r"^the\s+", "", a.strip()) for a in _LIST_SEPARATOR.split(found.group("attributes"))]
    if any(not a or a.split()[0] in _NOT_ATTRIBUTES | _AGGREGATE_WORDS for a in attributes):
        return None
    nodes = [ANSWER, *(f"?unknown{n}" for n in range(2, len(attributes) + 1))]
    return PhraseGraphPattern(triples=tuple(PhraseTriple(node, attribute, found.group("name"))
                                            for node, attribute in zip(nodes, attributes, strict=True)),
                              projection=tuple(nodes))


# "Which department is the product manager of M770-3602005 a member of?", "Which country is the supplier of
# X located in?", "What team does the manager of Y belong to?": the asked thing at the end of a clause about
# another thing's owned thing, the preposition left at the end
_STRANDED = re.compile(
    r"^(?:in\s+)?(?:which|what)\s+(?P<kind>[a-z]+(?: [a-z]+)?)\s+(?:is|are|was|were|does|do|did)\s+the\s+"
    r"(?P<noun>[a-z]+(?: [a-z]+)?)\s+(?:of|for)\s+(?:the\s+)?(?:[a-z]+\s+)?"
    r"(?P<name>" + _NAME_OR_CODE + r")\s+"
    r"(?:an?\s+|the\s+)?(?P<verb>[a-z]+(?: [a-z]+){0,2}?\s+(?:of|in|to|for|at|on|with|from|by))\s*[?.!]?$")


# "Which supplier do we source the product H962-4715431 from?": what the asker does to a name with the
# asked thing, the preposition left at the end
_STRANDED_BY_US = re.compile(
    r"^(?:which|what)\s+(?P<kind>[a-z]+(?: [a-z]+)?)\s+(?:do|does|did|can|could)\s+(?:we|you|they|i)\s+"
    r"(?P<verb>[a-z]+)\s+(?:the\s+)?(?:[a-z]+\s+)?(?P<name>" + _NAME_OR_CODE + r")\s+"
    r"(?P<preposition>from|to|with|for|at|by|through|via)\s*[?.!]?$")


def kind_of_an_owned_things_relation(question: str) -> PhraseGraphPattern | None:
    """"Which department is the product manager of M770-3602005 a member of?" as `?u1 | is a |
    department ; ?u2 | product manager | M770-3602005 ; ?u2 | member of | ?u1`: the preposition left
    at the end relates the owned thing to the asked one; the model reads the owner as the asked
    thing's neighbour; "Which supplier do we source X from?" relates the name to the asked thing by the
    verb and its preposition. None for anything else."""
    by_us = _asked_kind_shape(question, (_STRANDED_BY_US,))
    if by_us is not None:  # "Which supplier do we source X from?": `?u1 | is a | supplier ; X | source from | ?u1`
        return PhraseGraphPattern(triples=(
            PhraseTriple(ANSWER, TYPE_RELATION, by_us.group("kind")),
            PhraseTriple(by_us.group("name"), f"{by_us.group('verb')} {by_us.group('preposition')}", ANSWER)))
    found = _asked_kind_shape(question, (_STRANDED,))
    if found is None or found.group("verb").split()[0] in _NOT_ATTRIBUTES:
        return None
    return PhraseGraphPattern(triples=(
        PhraseTriple(ANSWER, TYPE_RELATION, found.group("kind")),
        PhraseTriple("?unknown2", found.group("noun"), found.group("name")),
        PhraseTriple("?unknown2", found.group("verb"), ANSWER)))


def _asked_kind_shape(question: str, shapes: Sequence[re.Pattern[str]]) -> re.Match[str] | None:
    """The first of `shapes` the question (its first letter lower-cased) matches with a real kind."""
    for shape in shapes:
        found = _lowered_match(question, shape)
        if found is not None and found.group("kind").split()[0] not in _NOT_KINDS:
            return found
    return None


def _lowered_match(question: str, shape: re.Pattern[str]) -> re.Match[str] | None:
    """`shape` matched against the question with its first letter lower-cased ("Which" as "which")."""
    text = question.strip()
    return shape.match(text[:1].lower() + text[1:])


# a name: capitalised words, joined by commas and "and" ("Bennett, Best and Jacobson")
_PROPER_NAME = r"[A-Z][\w&.'-]*(?:,? (?:and |& )?[A-Z0-9][\w&.'-]*)*"
_NAMED = r"(?:the\s+(?:[a-z]+\s+){0,2})?(?P<name>" + _PROPER_NAME + r")\s*[?.!]?$"
# "than the Coil Driver", "than product Z763-7274829": the named thing, after its kind or not
_THAN_NAMED = r"\s+than\s+(?:the\s+)?(?:[a-z]+\s+){0,2}?(?P<name>" + _PROPER_NAME + r")\s*[?.!]?$"
_COMPARATIVE = r"(?:[a-z]+er|more [a-z]+|less [a-z]+)"
# "Which services are cheaper than Predictive Maintenance?", "Which products weigh more than the Coil Driver?",
# "Which suppliers have a higher reliability than Garcia Ltd?", "How many Crystal products are both cheaper and
# lighter than product Z655-3173353?": a kind compared with a named thing's values
_COMPARED_WITH_NAMED = (
    re.compile(_COUNTED_OR_LISTED_KIND + r"(?:are|is|were|was)\s+(?:both\s+)?(?P<adjective>" + _COMPARATIVE + r")"
               r"(?:\s+and\s+(?P<adjective2>" + _COMPARATIVE + r"))?" + _THAN_NAMED),
    re.compile(_COUNTED_OR_LISTED_KIND + r"(?P<verb>weighs?|costs?)\s+(?P<more>more|less)" + _THAN_NAMED),
    re.compile(_COUNTED_OR_LISTED_KIND + r"(?:have|has|had)\s+an?\s+(?P<degree>higher|lower|greater|smaller|larger|bigger)"
               r"\s+(?P<noun>[a-z]+(?: [a-z]+)?)" + _THAN_NAMED),
    # "Which services are priced higher than Enterprise Navigation?": a participle naming the attribute
    re.compile(_COUNTED_OR_LISTED_KIND + r"(?:are|is|were|was)\s+(?P<participle>priced|rated|valued)\s+"
               r"(?P<degree>higher|lower|greater|smaller|larger|bigger)" + _THAN_NAMED),
    # "Which products compatible with V156-6277722 are cheaper than it?": the named thing related, then compared
    re.compile(_COUNTED_OR_LISTED_KIND + r"(?P<relation>[a-z]+\s+(?:with|to|for|by|from))\s+(?:the\s+)?(?:[a-z]+\s+)?"
               r"(?P<name>" + _PROPER_NAME + r")\s+(?:are|is|were|was)\s+(?P<adjective>" + _COMPARATIVE + r")\s+than\s+"
               r"(?:it|that one|this one|that product|this product)\s*[?.!]?$"),
)
_PARTICIPLE_ATTRIBUTE = {"priced": "price", "rated": "rating", "valued": "value"}
_DEGREE_OPERATOR = {"higher": ">", "greater": ">", "larger": ">", "bigger": ">", "lower": "<", "smaller": "<"}


# "Which bills of material include a part from the Crystal category?", "Which BOMs contain a part supplied by
# White-Nash?", "... a part from a supplier in Japan": things holding a thing that a name restricts
_KIND_HOLDING_A_THING = re.compile(
    r"^(?P<ask>which|what|how many)\s+(?P<kind>[a-z]+(?:\s+of\s+[a-z]+|\s+[a-z]+)?|[A-Z]{2,}s)\s+"
    r"(?P<verb>contains?|includes?|uses?|needs?|requires?)\s+(?:an?|any|some|at least one)\s+(?P<noun>[a-z]+)\s+"
    r"(?:(?:that|which)\s+(?:is|are)\s+)?"
    r"(?:(?:from|in|of)\s+the\s+(?P<category>" + _PROPER_NAME + r")\s+category|(?:from|in|of)\s+the\s+category\s+"
    r"(?P<category_after>" + _PROPER_NAME + r")|from\s+an?\s+(?P<agent>supplier|manufacturer|vendor)\s+"
    r"(?:in|from|based\s+in|located\s+in)\s+(?:the\s+)?(?P<place>" + _PROPER_NAME + r")|"
    r"(?P<relation>supplied\s+by|delivered\s+by|made\s+by|manufactured\s+by|from)\s+(?:the\s+(?:supplier\s+)?)?"
    r"(?P<name>" + _NAME_OR_CODE + r"))\s*[?.!]?$")


# "Does the PulseCraft Vertex BOM contain any part from a supplier based in China?", "Does the AeroVibe Matrix
# BOM contain any part from a German supplier?": whether a named thing holds a thing so restricted
_NAMED_HOLDING_A_THING = re.compile(
    r"^(?:does|do|did)\s+(?:the\s+)?(?:(?:bill\s+of\s+materials?|BOM|product|service)\s+)?(?P<name>" + _PROPER_NAME +
    r")(?:\s+(?:BOM|bill\s+of\s+materials?))?\s+(?P<verb>contain|include|use|need|require)\s+"
    r"(?:an?|any|some|at\s+least\s+one)\s+(?P<noun>[a-z]+)\s+"
    r"(?:from\s+an?\s+(?P<demonym>[A-Z][a-z]+)\s+(?P<agent_after>supplier|manufacturer|vendor)|"
    r"from\s+an?\s+(?P<agent>supplier|manufacturer|vendor)\s+(?:in|from|based\s+in|located\s+in)\s+(?:the\s+)?"
    r"(?P<place>" + _PROPER_NAME + r")|(?:from|in|of)\s+the\s+(?P<category>" + _PROPER_NAME + r")\s+category|"
    r"(?P<relation>supplied\s+by|made\s+by)\s+(?P<maker>" + _NAME_OR_CODE + r"))\s*[?.!]?$")


def named_holding_a_thing(question: str) -> PhraseGraphPattern | None:
    """"Does the PulseCraft Vertex BOM contain any part from a supplier based in China?" as `boolean ::
    PulseCraft Vertex | contain | ?u1 ; ?u1 | supplier | ?u2 ; ?u2 | in | China` ("from a German supplier":
    `?u2 | in | German`, a people's adjective linked as its country); None for anything else."""
    found = _lowered_match(question, _NAMED_HOLDING_A_THING)
    if found is None:
        return None
    name = re.sub(r"\s+BOM$", "", found.group("name"))  # "the PulseCraft Vertex BOM": the bill's name
    return PhraseGraphPattern(form=QuestionForm.BOOLEAN, triples=(
        PhraseTriple(name, found.group("verb"), ANSWER), *_held_restriction(found, ANSWER, "?unknown2", "maker")))


def _held_restriction(found: re.Match[str], held: str, beyond: str, named: str) -> tuple[PhraseTriple, ...]:
    """The restriction of a held thing as the holding readers match it: its category (`held | category |
    Crystal`), its agent's place (`held | supplier | beyond ; beyond | in | Japan`, or a people's adjective),
    or the agent named after a participle (`held | supplied by | White-Nash`, the name in group `named`)."""
    groups = found.groupdict()
    category = groups.get("category") or groups.get("category_after")
    if category:
        return (PhraseTriple(held, "category", category),)
    agent = groups.get("agent") or groups.get("agent_after")
    if agent:
        return PhraseTriple(held, agent, beyond), PhraseTriple(beyond, "in", groups.get("place") or groups.get("demonym"))
    return (PhraseTriple(held, " ".join(groups["relation"].split()), groups[named]),)


def kind_holding_a_thing(question: str) -> PhraseGraphPattern | None:
    """"Which bills of material include a part from the Crystal category?" as `?u1 | is a | bills of
    material ; ?u1 | include | ?u2 ; ?u2 | category | Crystal` (counted after "How many"; "a part supplied
    by X": `?u2 | supplied by | X`; "a part from a supplier in Japan": `?u2 | supplier | ?u3 ; ?u3 | in |
    Japan`): the held thing's noun is left out, a graph may keep it as a record's link; None for anything else."""
    found = _asked_kind_shape(question, (_KIND_HOLDING_A_THING,))
    if found is None:
        return None
    return PhraseGraphPattern(form=QuestionForm.COUNT if found.group("ask") == "how many" else QuestionForm.LIST,
                              triples=(PhraseTriple(ANSWER, TYPE_RELATION, found.group("kind")),
                                       PhraseTriple(ANSWER, found.group("verb"), "?unknown2"),
                                       *_held_restriction(found, "?unknown2", "?unknown3", "name")))


def compared_with_named(question: str) -> PhraseGraphPattern | None:
    """"Which services are cheaper than Predictive Maintenance?" as `?u1 | is a | services ; ?u1 | price
    | ?u2 ; Predictive Maintenance | price | ?u3 :: filter ?u2 < ?u3` (counted after "How many", one
    pair of edges per comparative in "both cheaper and lighter than"); None for anything else (a
    comparison with a number is `restricted_comparison`'s or the model's)."""
    found = _asked_kind_shape(question, _COMPARED_WITH_NAMED)
    if found is None or _plural_then_word(found.group("kind")):
        return None
    compared = _compared_attributes(found)
    if compared is None:
        return None
    asked, name = _asked_things(found), found.group("name")
    triples, comparisons = list(asked.triples), []
    if found.groupdict().get("relation"):  # "compatible with V156-6277722 ... than it"
        triples.append(PhraseTriple(ANSWER, found.group("relation"), name))
    for index, (operator, attribute) in enumerate(compared):
        own, named = f"?unknown{2 * index + 2}", f"?unknown{2 * index + 3}"
        triples += [PhraseTriple(ANSWER, attribute, own), PhraseTriple(name, attribute, named)]
        comparisons.append(Comparison(own, operator, named))
    return replace(asked, triples=tuple(triples), comparisons=tuple(comparisons))


def _compared_attributes(found: re.Match[str]) -> list[tuple[str, str]] | None:
    """(operator, attribute) per comparison a `_COMPARED_WITH_NAMED`-like match states ("cheaper": <,
    price; "weigh more": >, weight; "a higher reliability index": >, reliability index), or None where
    one of them says no attribute."""
    groups = found.groupdict()
    compared: list[tuple[str | None, str | None]] = []
    for adjective in filter(None, (groups.get("adjective"), groups.get("adjective2"))):
        compared.append((_comparative_operator(adjective), comparative_attribute(adjective) or (
            adjective.split(" ", 1)[1] if adjective.startswith(("more ", "less ")) else None)))
    if groups.get("verb"):
        compared.append((">" if groups["more"] == "more" else "<", _VERB_ATTRIBUTE.get(groups["verb"].rstrip("s"))))
    if groups.get("degree"):
        compared.append((_DEGREE_OPERATOR[groups["degree"]],
                         groups["noun"] if groups.get("noun") else _PARTICIPLE_ATTRIBUTE[groups["participle"]]))
    if not compared or any(operator is None or not attribute for operator, attribute in compared):
        return None
    return [(operator, attribute) for operator, attribute in compared if operator and attribute]


# "Is the Sensor Adjustment service more expensive than the Component Confabulation service?", "Does product
# X weigh more than product Y?", "Does X have a higher reliability index than Y?": two named things' values
_FIRST_NAMED = r"^(?P<ask>is|was|does|did)\s+(?:the\s+)?(?:[a-z]+\s+){0,2}?(?P<first>" + _PROPER_NAME + r")(?:\s+[a-z]+)?\s+"
_THAN_NAMED_KIND = r"\s+than\s+(?:the\s+)?(?:[a-z]+\s+){0,2}?(?P<name>" + _PROPER_NAME + r")(?:\s+[a-z]+)?\s*[?.!]?$"
_NAMED_VS_NAMED = (
    re.compile(_FIRST_NAMED + r"(?P<adjective>" + _COMPARATIVE + r")" + _THAN_NAMED_KIND),
    re.compile(_FIRST_NAMED + r"(?P<verb>weigh|cost)\s+(?P<more>more|less)" + _THAN_NAMED_KIND),
    re.compile(_FIRST_NAMED + r"(?:have|has)\s+an?\s+(?P<degree>higher|lower|greater|smaller|larger|bigger)"
               r"\s+(?P<noun>[a-z]+(?: [a-z]+)?)" + _THAN_NAMED_KIND),
)


def named_compared_with_named(question: str) -> PhraseGraphPattern | None:
    """"Is the Sensor Adjustment service more expensive than the Component Confabulation service?" as
    `boolean :: Sensor Adjustment | price | ?u1 ; Component Confabulation | price | ?u2 :: filter ?u1 >
    ?u2` (the model compares the two names by one edge); None for anything else."""
    for shape in _NAMED_VS_NAMED:
        found = _lowered_match(question, shape)
        if found is None or (found.group("ask") in ("is", "was")) != (shape is _NAMED_VS_NAMED[0]):
            continue
        compared = _compared_attributes(found)
        if compared is None or len(compared) != 1:
            return None
        (operator, attribute), = compared
        return PhraseGraphPattern(form=QuestionForm.BOOLEAN, triples=(
            PhraseTriple(found.group("first"), attribute, ANSWER), PhraseTriple(found.group("name"), attribute, "?unknown2")),
            comparisons=(Comparison(ANSWER, operator, "?unknown2"),))
    return None


# "Is the service Predictive Maintenance eligible for the product Gauge Warp?": two names related by an adjective
# or a participle with its preposition, each after its kind word or not
_NAMED_RELATED_TO_NAMED = re.compile(
    r"^(?:is|are|was|were)\s+(?:the\s+(?:[a-z]+\s+){0,2}?)?(?P<first>" + _NAME_OR_CODE + r")\s+"
    r"(?P<relation>(?!(?:more|less|not|a|an|the|and|or)\b)[a-z]+(?:\s+[a-z]+)?\s+(?:for|with|to|by|in|of|from|on|at|under))\s+"
    r"(?:the\s+(?:[a-z]+\s+){0,2}?)?(?P<second>" + _NAME_OR_CODE + r")\s*[?.!]?$")


def named_related_to_named(question: str) -> PhraseGraphPattern | None:
    """"Is the service Predictive Maintenance eligible for the product Gauge Warp?" as `boolean ::
    Predictive Maintenance | eligible for | Gauge Warp` (the model takes the words between the names for
    part of the first name); None for anything else."""
    found = _lowered_match(question, _NAMED_RELATED_TO_NAMED)
    if found is None:
        return None
    return PhraseGraphPattern(form=QuestionForm.BOOLEAN,
                              triples=(PhraseTriple(found.group("first"), found.group("relation"), found.group("second")),))


# "Does the service Manual Inspection cost less than 1000 EUR?", "Is the Coil Resonator heavier than 10 grams?":
# one named thing's value against a number
_NAMED_VS_VALUE = re.compile(
    r"^(?P<ask>is|was|does|did)\s+(?:the\s+)?(?:(?:service|product|hardware|part|item|supplier)\s+)?"
    r"(?P<name>" + _NAME_OR_CODE + r")(?:\s+(?:service|product|hardware|part|item|supplier))?\s+"
    r"(?P<condition>[a-z][^?]*?\d[^?]*?)\s*[?.!]?$")


def named_compared_with_value(question: str) -> PhraseGraphPattern | None:
    """"Does the service Manual Inspection cost less than 1000 EUR?" as `boolean :: Manual Inspection |
    price | ?u1 :: filter ?u1 < 1000` (the model reads the number as a name or loses the bound); None for
    anything else."""
    found = _lowered_match(question, _NAMED_VS_VALUE)
    if found is None:
        return None
    compared = _comparison(found.group("condition").lower())
    if compared is None:
        return None
    attribute, operator, value = compared
    return PhraseGraphPattern(form=QuestionForm.BOOLEAN, triples=(PhraseTriple(found.group("name"), attribute, ANSWER),),
                              comparisons=(Comparison(ANSWER, operator, value),))


# "What is the most commonly used evaluation method across the papers?", "What is the most frequently studied
# research object among ECSA papers?": the value of an attribute that most things of a kind have
_MOST_COMMON_VALUE = re.compile(
    r"^(?:what|which)(?:'s|\s+is|\s+was|\s+are|\s+were)\s+the\s+most\s+(?:(?:commonly|frequently|often)\s+[a-z]+ed|"
    r"common|frequent|popular|used|studied|applied)\s+(?P<attribute>[a-z]+(?: [a-z]+){0,2}?)(?:\s+(?:across|among|of|in|for)\s+"
    r"(?:all\s+)?(?:the\s+|our\s+)?(?:(?P<qualifier>[A-Z][A-Za-z0-9&-]*)\s+)?(?P<kind>[a-z]+(?: [a-z]+)?))?\s*[?.!]?$")

# "Which threat to validity do authors mention most?", "Which evaluation method do ECSA papers use most often?": the
# same asked of what the things (or their authors, whoever they are) say most
_VALUE_SAID_MOST = re.compile(
    r"^(?:what|which)\s+(?P<attribute>[a-z]+(?: [a-z]+){0,3}?)\s+(?:do|did|does)\s+(?:the\s+|our\s+)?"
    r"(?:(?P<qualifier>[A-Z][A-Za-z0-9&-]*)\s+)?(?P<kind>[a-z]+(?: [a-z]+)?)\s+(?!(?:the|most)\b)[a-z]+\s+(?:the\s+)?most"
    r"(?:\s+(?:often|frequently|commonly))?\s*[?.!]?$")
_AGENTS = frozenset({"authors", "researchers", "people", "we", "they", "you", "scientists", "writers"})


def most_common_value(question: str) -> PhraseGraphPattern | None:
    """"What is the most commonly used evaluation method across the papers?" as `?u1 | evaluation method |
    ?u2 ; ?u2 | is a | papers :: order count ?u2 desc 1` (the value most things have; "ECSA papers": `?u2 |
    papers | ECSA`; "What is the most common evaluation method?" without the kind; also "Which evaluation method
    do papers use most?"); None for anything else."""
    found = _lowered_match(question, _MOST_COMMON_VALUE) or _lowered_match(question, _VALUE_SAID_MOST)
    if found is None:
        return None
    kind, qualifier = found.group("kind"), found.group("qualifier")
    if kind and kind.split()[0] in _NOT_KINDS:
        return None
    if found.re is _VALUE_SAID_MOST and kind in _AGENTS:  # who says it, not what holds it
        kind = qualifier = None
    triples = (PhraseTriple(ANSWER, found.group("attribute"), "?unknown2"),  # without a kind: the value most things have
               *((PhraseTriple("?unknown2", TYPE_RELATION, kind),) if kind else ()),
               *((PhraseTriple("?unknown2", kind, qualifier),) if qualifier else ()))
    return PhraseGraphPattern(triples=triples, ordering=Ordering("?unknown2", descending=True, limit=1, by_count=True))


# "Which museum opened most recently?", "Which paper was published first?": the thing whose verb's date (or value)
# comes last or first, an ordering by a value (the model often counts)
_RANKED_BY_WHEN = re.compile(
    r"^(?:which|what)\s+(?P<kind>[a-z]+(?: (?!(?:was|were|is|are|has|have)\b)[a-z]+)?)\s+(?:(?:was|were|has\s+been|have\s+been)\s+)?"
    r"(?P<verb>[a-z]+(?:ed|en)|born|built|made|held|begun|won)\s+(?P<end>most\s+recently|(?:the\s+)?(?:latest|last|earliest|first))"
    r"\s*[?.!]?$")


def ranked_by_when(question: str) -> PhraseGraphPattern | None:
    """"Which museum opened most recently?" as `?u1 | is a | museum ; ?u1 | opened | ?u2 :: order ?u2 desc 1`
    ("earliest" and "first" ascending); None for anything else."""
    found = _lowered_match(question, _RANKED_BY_WHEN)
    if found is None or found.group("kind").split()[0] in _NOT_KINDS:
        return None
    descending = found.group("end").split()[-1] in ("recently", "latest", "last")
    return PhraseGraphPattern(triples=(PhraseTriple(ANSWER, TYPE_RELATION, found.group("kind")),
                                       PhraseTriple(ANSWER, found.group("verb"), "?unknown2")),
                              ordering=Ordering("?unknown2", descending=descending, limit=1))


# "Which papers have more than seven authors?", "How many departments have at least 5 employees?": things of a
# kind counted by how many things of theirs they have
_KIND_WITH_COUNTED_THINGS = re.compile(
    _COUNTED_OR_LISTED_KIND + r"(?:have|has|had|with|"  # "Which papers investigate more than one research object?"
    r"(?:investigat|examin|us|analys|analyz)(?:e|es|ed)|stud(?:y|ies|ied)|(?:discuss|address)(?:es|ed)?)\s+"
    r"(?P<bound>more\s+than|fewer\s+than|less\s+than|at\s+least|"
    r"at\s+most|over|under|exactly)\s+(?P<number>\d+|" + "|".join(sorted(NUMBER_WORDS)) + r")\s+"
    r"(?P<things>(?:[a-z]+\s+)?[a-z]+s|(?<=one\s)(?:[a-z]+\s+)?[a-z]+)\s*[?.!]?$")


def kind_with_counted_things(question: str) -> PhraseGraphPattern | None:
    """"Which papers have more than seven authors?" as `?u1 | is a | papers ; ?u1 | authors | ?u2 :: filter
    count ?u2 > seven`: the answer's own things counted (the model reads Spider's grouping, `?u1 | papers |
    ?u2 ; ?u2 | is a | authors`, which fits a graph where the counted things are a class); None for
    anything else."""
    read = _counted_or_listed(question, _KIND_WITH_COUNTED_THINGS, "things")
    if read is None:
        return None
    found, asked = read
    bound = " ".join(found.group("bound").split())
    operator = "=" if bound == "exactly" else _OPERATOR_OF[bound]
    return replace(asked, triples=(*asked.triples, PhraseTriple(ANSWER, found.group("things"), "?unknown2")),
                   comparisons=(Comparison("?unknown2", operator, found.group("number"), by_count=True),))


# "How many distinct authors appear across all papers?", "How many different authors do the papers have?": the
# things of a kind's things counted, however many of them each has
_COUNTED_THINGS_OF_KIND = re.compile(
    r"^how\s+many\s+(?:distinct|different|unique|individual)\s+(?P<things>(?:[a-z]+\s+)?[a-z]+s)\s+(?:"
    r"(?:(?:appear|occur|(?:are|were)\s+(?:there|listed|named|mentioned|investigated|studied|examined|addressed|discussed|"
    r"covered|used))\s+(?:across|in|among|over|on|by)|(?:have\s+|has\s+)?contributed\s+to|"
    r"(?:have\s+)?(?:written|authored)|wrote|authored)\s+(?:all\s+)?(?:the\s+|our\s+)?"
    r"(?:(?P<qualifier>[A-Z][A-Za-z0-9&-]*)\s+)?(?P<kind>[a-z]+s)(?:\s+in\s+(?:this|the|our)\s+(?:collection|data\s*set|graph|database))?|"
    r"(?:do|did)\s+(?:all\s+)?(?:the\s+|our\s+)?(?:(?P<qualifier_had>[A-Z][A-Za-z0-9&-]*)\s+)?(?P<kind_had>[a-z]+s)\s+"
    r"(?:have|list|name|mention)(?:\s+(?:in\s+total|altogether|overall|together))?)\s*[?.!]?$")


def counted_things_of_kind(question: str) -> PhraseGraphPattern | None:
    """"How many distinct authors appear across all papers?" as `count :: ?u2 | is a | papers ; ?u2 |
    authors | ?u1`: the answer is the things named by the relation, each counted once (the model counts
    the papers that have authors); None for anything else."""
    found = _lowered_match(question, _COUNTED_THINGS_OF_KIND)
    if found is None:
        return None
    kind, qualifier = found.group("kind") or found.group("kind_had"), found.group("qualifier") or found.group("qualifier_had")
    if kind.split()[0] in _NOT_KINDS:
        return None
    return PhraseGraphPattern(form=QuestionForm.COUNT, triples=(
        PhraseTriple("?unknown2", TYPE_RELATION, kind), *((PhraseTriple("?unknown2", kind, qualifier),) if qualifier else ()),
        PhraseTriple("?unknown2", found.group("things"), ANSWER)))


# "Which departments have more members than the Engineering department?", "Which suppliers supply more products
# than Williamson-Young?", "How many employees have more areas of expertise than Gretel Roth?": counts compared
_COUNT_COMPARED_WITH_NAMED = re.compile(
    _COUNTED_OR_LISTED_KIND + r"(?:(?P<have>have|has|had|contain|contains|include|includes)|(?P<verb>[a-z]+))\s+"
    r"(?P<more>more|fewer|less)\s+(?P<noun>[a-z]+(?: [a-z]+){0,2}?)" + _THAN_NAMED_KIND)


def count_compared_with_named(question: str) -> PhraseGraphPattern | None:
    """"Which departments have more members than the Engineering department?" as `?u1 | is a |
    departments ; ?u1 | members | ?u2 ; Engineering | members | ?u3 :: filter count ?u2 > count ?u3`
    (a verb relates both to the counted kind: "supply more products than X"); counted after "How
    many"; None for anything else."""
    found = _asked_kind_shape(question, (_COUNT_COMPARED_WITH_NAMED,))
    if found is None or _plural_then_word(found.group("kind")):
        return None
    noun = found.group("noun")
    if not (_plural(noun) or " of " in noun) or found.group("verb") in _NOT_ATTRIBUTES | {"are", "is", "were", "was"} \
            or comparative_attribute(f"more {noun.split()[0]}"):
        return None  # "have more expensive ..." compares values, not counts
    asked, name = _asked_things(found), found.group("name")
    relation = found.group("verb") or noun
    triples = [*asked.triples, PhraseTriple(ANSWER, relation, "?unknown2"), PhraseTriple(name, relation, "?unknown3")]
    if found.group("verb"):
        triples += [PhraseTriple("?unknown2", TYPE_RELATION, noun), PhraseTriple("?unknown3", TYPE_RELATION, noun)]
    operator = ">" if found.group("more") == "more" else "<"
    return replace(asked, triples=tuple(triples), comparisons=(Comparison("?unknown2", operator, "?unknown3", by_count=True),))


# "Which products are taller than they are wide?", "Which products are deeper than they are tall and weigh more
# than 15 grams?": two of the asked things' own values compared, and maybe one bound more
_SELF_COMPARED = re.compile(
    _COUNTED_OR_LISTED_KIND + r"(?:are|is|were|was)\s+(?P<adjective>" + _COMPARATIVE + r")\s+than\s+(?:they|it)\s+"
    r"(?:are|is|were|was)\s+(?P<other>[a-z]+)(?:\s+and\s+(?P<condition>[a-z][^?]*?))?\s*[?.!]?$")


def self_compared(question: str) -> PhraseGraphPattern | None:
    """"Which products are taller than they are wide?" as `?u1 | is a | products ; ?u1 | height | ?u2 ;
    ?u1 | width | ?u3 :: filter ?u2 > ?u3` (and "... and weigh more than 15 grams": one comparison more);
    None for anything else."""
    found = _asked_kind_shape(question, (_SELF_COMPARED,))
    if found is None or _plural_then_word(found.group("kind")):
        return None
    adjective = found.group("adjective")
    operator, attribute = _comparative_operator(adjective), comparative_attribute(adjective)
    other = ATTRIBUTE_OF.get(found.group("other"))
    if operator is None or attribute is None or other is None or other == attribute:
        return None
    asked = _asked_things(found)
    triples = [*asked.triples, PhraseTriple(ANSWER, attribute, "?unknown2"), PhraseTriple(ANSWER, other, "?unknown3")]
    comparisons = [Comparison("?unknown2", operator, "?unknown3")]
    if found.group("condition"):
        value = compared_value(ANSWER, found.group("condition"), "?unknown4")
        if value is None:
            return None
        triples.append(value[0])
        comparisons.append(value[1])
    return replace(asked, triples=tuple(triples), comparisons=tuple(comparisons))


def _as_said(question: str, kind: str) -> str:
    """The kind as the question writes it, read from its lower-cased text ("Coil products", "French
    suppliers" keep their capitals)."""
    said = re.search(rf"\b{re.escape(kind)}\b", question, re.I)
    return said.group() if said else kind


def _compared(kind: str, conditions: list[tuple[str, str, str]]) -> PhraseGraphPattern:
    """The asked kind with one compared attribute edge per condition."""
    unknowns = [f"?unknown{i}" for i in range(2, len(conditions) + 2)]
    triples = (PhraseTriple(ANSWER, TYPE_RELATION, kind),
               *(PhraseTriple(ANSWER, attribute, node) for (attribute, _, _), node in zip(conditions, unknowns, strict=True)))
    comparisons = tuple(Comparison(node, operator, value)
                        for (_, operator, value), node in zip(conditions, unknowns, strict=True))
    return PhraseGraphPattern(triples=triples, comparisons=comparisons)


def _comparative_operator(adjective: str) -> str | None:
    """The operator a comparative states: "more reliable" >, "less heavy" <, "cheaper" <."""
    if adjective.startswith(("more ", "less ")):
        return ">" if adjective.startswith("more ") else "<"
    return _OPERATOR_OF.get(f"{adjective} than")


def compared_value(owner: str, conjunct: str, node: str) -> tuple[PhraseTriple, Comparison] | None:
    """The owner's value one conjunct compares ("costs more than 5 eur": `owner | price | node :: filter
    node > 5`), as its triple and comparison; None where the conjunct is no comparison."""
    compared = _comparison(conjunct)
    if compared is None:
        return None
    attribute, operator, bound = compared
    return PhraseTriple(owner, attribute, node), Comparison(node, operator, bound)


def _comparison(conjunct: str) -> tuple[str, str, str] | None:
    """(attribute, operator, value) of one conjunct ("wider than 75 mm": width, >, 75), or None."""
    for pattern in _CONJUNCTS:
        found = pattern.match(conjunct)
        if found is None:
            continue
        unit = (found.group("unit") or "").lower()
        value = found.group("value").replace(",", "")
        value = value if not value.isalpha() else str(number_value(value))  # "less than one euro"
        groups = found.groupdict()
        if groups.get("adjective"):
            adjective = groups["adjective"]
            operator = _comparative_operator(adjective)
            if groups.get("negated") and operator is not None:  # "but no wider than 12 mm"
                operator = NEGATED_OPERATOR.get(operator)
            attribute = comparative_attribute(adjective) or (
                "height" if adjective in ("higher", "lower") and unit in _LENGTH_UNITS else _UNIT_ATTRIBUTE.get(unit))
        else:
            if groups.get("noun") and _things_compared(conjunct, groups["noun"], groups["operator"]):
                return None
            operator = _OPERATOR_OF.get(groups["operator"])
            attribute = (_VERB_ATTRIBUTE.get(groups["verb"].rstrip("s")) if groups.get("verb")
                         else _DIMENSION_ATTRIBUTE[groups["dimension"]] if groups.get("dimension")
                         else groups["noun"] if groups["noun"].split()[-1] not in _NOT_ATTRIBUTES else None)
        if operator is None or attribute is None:
            return None
        return attribute, operator, value
    return None


# what a comparative says of people and things by itself ("younger" their age): after a plural noun without an article
# ("have employees younger than 25") the noun names the things compared, not their attribute
_OWN_ATTRIBUTES = frozenset({"age", "height", "weight", "price"})


def _things_compared(conjunct: str, noun: str, operator: str) -> bool:
    """Whether "<noun> <operator>" compares things of the noun by what the comparative names ("employees younger
    than 25"), not the noun's own value ("a latitude below 44", "salaries higher than 5000")."""
    return (noun.endswith("s") or noun in IRREGULAR_PLURALS) and len(noun.split()) == 1 and \
        comparative_attribute(operator) in _OWN_ATTRIBUTES and \
        re.search(rf"\ban?\s+{re.escape(noun)}\b", conjunct) is None


_NOT_ATTRIBUTES = frozenset({"than", "that", "which", "who", "are", "is", "be", "been", "and", "or", "not", "no",
                             "have", "has", "had", "with"})
_OPERATOR_OF = dict(COMPARATIVE_PHRASES)  # "more than" -> ">", "at most" -> "<="


# which end each word asks for, from the one table of superlatives ("the most products", "the largest number of")
_COUNTING_EXTREMES = {w: SUPERLATIVE_DESCENDING[w] for w in ("most", "fewest", "least")}
_NUMBER_EXTREMES = {w: _EXTREMES[w] for w in ("largest", "highest", "greatest", "biggest", "smallest", "lowest")}
_HAVING_VERBS = frozenset({"have", "contain", "include", "comprise", "hold", "own", "consist"})


def counted_superlative_reading(doc: Any) -> SuperlativeReading | None:
    """"Which supplier from Brazil supplies the most products?" as `?u1 | is a | supplier ; ?u1 | from
    | Brazil ; ?u1 | supplies | ?u2 ; ?u2 | is a | products :: order count ?u2 desc 1`; None unless the
    question is one asked noun (or "who") doing one verb to "the most/fewest <noun>" or "the largest
    number of <noun>"."""
    try:
        return _read_counted(doc)
    except _Unreadable:
        return None


def _asked_among(subject: Any) -> Any:
    """"Which of our services": the noun asked among, else the subject itself."""
    if subject.lower_ in ("which", "what"):
        nouns = [c for p in subject.children if p.dep_ == "prep" and p.lower_ == "of" for c in p.children
                 if c.dep_ == "pobj" and c.tag_ == "NNS"]
        if len(nouns) == 1:
            return nouns[0]
    return subject


def _read_counted(doc: Any) -> SuperlativeReading | None:
    stated = stated_ordering(doc.text)
    if stated is None or stated.by_count is not True or not _plain(doc):
        return None
    found = [(t, _COUNTING_EXTREMES[t.lower_]) for t in doc if t.lower_ in _COUNTING_EXTREMES and t.dep_ == "amod"
             and t.head.tag_ == "NNS"]
    found += [(t, _NUMBER_EXTREMES[t.lower_]) for t in doc if t.lower_ in _NUMBER_EXTREMES and t.dep_ == "amod"
              and t.head.lower_ == "number"]
    if len(found) != 1:
        return None
    extreme, descending = found[0]
    counted = extreme.head
    obj = counted
    if counted.lower_ == "number":  # "the largest number of products"
        nouns = [c for p in counted.children if p.dep_ == "prep" and p.lower_ == "of" for c in p.children
                 if c.dep_ == "pobj" and c.tag_ == "NNS"]
        if len(nouns) != 1:
            return None
        counted = nouns[0]
    verb, preposition = obj.head, None
    if obj.dep_ == "pobj" and verb.dep_ == "prep":  # "can be booked for the largest number of products"
        preposition, verb = verb, verb.head
    elif obj.dep_ != "dobj":
        return None
    if verb.pos_ not in ("VERB", "AUX") or verb.dep_ != "ROOT":
        return None
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    if len(subjects) != 1 or any(c.dep_ not in ("nsubj", "nsubjpass", "dobj", "punct", "aux", "auxpass")
                                 and c != preposition for c in verb.children):
        return None
    subject = _asked_among(subjects[0])
    builder = _Builder()
    if subject.lower_ not in ("who", "which", "what"):
        if subject.pos_ != "NOUN" or not (_asked_by_determiner(subject) or subject != subjects[0]):
            return None
        builder.add(ANSWER, TYPE_RELATION, _kind_phrase(subject))
        _restrict(builder, ANSWER, subject, {c.i for c in subject.children if c.dep_ in ("det", "compound", "amod")
                                             and c.i < subject.i})
    node = builder.fresh()
    if verb.lemma_ in _HAVING_VERBS and preposition is None:  # "has the fewest direct reports": the noun relates
        builder.add(ANSWER, _kind_phrase(counted, skip={extreme.i}), node)
    else:  # "supplies the most products": the verb relates, the noun is the counted things' kind
        builder.add(ANSWER, verb.text if preposition is None else f"{verb.text} {preposition.lower_}", node)
        builder.add(node, TYPE_RELATION, _kind_phrase(counted, skip={extreme.i}))
    _restrict(builder, node, counted, {c.i for c in counted.children if c.dep_ in ("det", "compound", "amod")
                                       and c.i < counted.i})
    return SuperlativeReading(PhraseGraphPattern(triples=tuple(builder.triples), form=QuestionForm.LIST, ordering=Ordering(
        node, descending=descending, limit=stated.limit or 1, by_count=True, offset=stated_offset(doc.text))),
        AnswerKind.RESOURCE)


def counted_chain_reading(doc: Any) -> PhraseGraphPattern | None:
    """"How many different suppliers provide products in the category Meter?" as `count :: ?u1 | is a |
    suppliers ; ?u1 | provide | ?u2 ; ?u2 | is a | products ; ?u2 | category | Meter`: the counted
    things, the verb, the kind of its object and the object's restrictions (a preposition the parse hangs
    on the verb restricts the object). None unless the question is just that."""
    try:
        return _read_counted_chain(doc)
    except _Unreadable:
        return None


_COUNTING_MODIFIERS = frozenset({"many", "different", "distinct", "separate", "unique"})


def _read_counted_chain(doc: Any) -> PhraseGraphPattern | None:
    if len(doc) < 5 or doc[0].lower_ != "how" or doc[1].lower_ != "many" or not _plain(doc):
        return None
    counted = doc[1].head
    verb = counted.head
    if counted.dep_ != "nsubj" or counted.tag_ != "NNS" or verb.dep_ != "ROOT" or verb.pos_ != "VERB" or \
            verb.lemma_ in _HAVING_VERBS:
        return None
    objects = [c for c in verb.children if c.dep_ == "dobj"]
    if len(objects) != 1 or objects[0].tag_ != "NNS" or not _any_of_a_kind(objects[0]) or \
            any(c.dep_ not in ("nsubj", "dobj", "prep", "punct", "aux") for c in verb.children):
        return None
    thing = objects[0]
    if any(t.like_num for t in thing.subtree):  # "weigh less than 3 grams" compares
        return None
    builder = _Builder()
    modifiers = {c.i for c in counted.children if c.lower_ in _COUNTING_MODIFIERS}
    builder.add(ANSWER, TYPE_RELATION, _kind_phrase(counted, skip=modifiers))
    _restrict(builder, ANSWER, counted, modifiers)
    node = builder.fresh()
    builder.add(ANSWER, verb.text, node)
    builder.add(node, TYPE_RELATION, _kind_phrase(thing))
    _restrict(builder, node, thing)
    for preposition in (c for c in verb.children if c.dep_ == "prep"):
        _relate(builder, node, preposition.lower_, preposition)
    return PhraseGraphPattern(triples=tuple(builder.triples), form=QuestionForm.COUNT)



# "Which suppliers are in the same country as Neal LLC?", "Which employees work in the same department as Karen
# Brant?": things of a kind sharing an attribute's value with a named thing, which is not one of them
_SAME_AS_NAMED = re.compile(
    _COUNTED_OR_LISTED_KIND.replace("(?:the\\s+|our", "(?:other\\s+)?(?:the\\s+|our", 1)
    + r"(?:[a-z]+\s+){0,3}?the\s+same\s+(?P<attribute>[a-z]+(?:\s+[a-z]+)?)\s+as\s+" + _NAMED)


# "Who works in the same department as Karen Brant?": people, whatever their kind
_WHO_SAME_AS_NAMED = re.compile(r"^(?P<ask>who)\s+(?:[a-z]+\s+){0,3}?the\s+same\s+(?P<attribute>[a-z]+(?:\s+[a-z]+)?)\s+as\s+"
                                + _NAMED)
# "Who works with Yanka Schreiber in the same department?": the name said first
_WHO_WITH_NAMED_IN_SAME = re.compile(r"^(?P<ask>who)\s+(?:[a-z]+\s+){1,2}?with\s+(?P<name>" + _PROPER_NAME + r")\s+"
                                     r"(?:in|at|on|from|for)\s+the\s+same\s+(?P<attribute>[a-z]+(?:\s+[a-z]+)?)\s*[?.!]?$")
_AUXILIARY_VERBS = frozenset({"is", "are", "was", "were", "has", "have", "had", "do", "does", "did"})


def same_as_named(question: str) -> PhraseGraphPattern | None:
    """"Which suppliers are in the same country as Neal LLC?" as `?u1 | is a | suppliers ; ?u1 |
    country | ?u2 ; Neal LLC | country | ?u2 :: other Neal LLC` (the model joins the name to the
    answer directly; "Who works in the same department as X?" without a kind, "Who works with X in the same
    department?"); None for anything else."""
    who = _lowered_match(question, _WHO_SAME_AS_NAMED) or _lowered_match(question, _WHO_WITH_NAMED_IN_SAME)
    if who is not None and who.group("attribute").split()[0] not in _NOT_ATTRIBUTES:
        name, attribute = who.group("name"), who.group("attribute")
        return PhraseGraphPattern(triples=(PhraseTriple(ANSWER, attribute, "?unknown2"),
                                           PhraseTriple(name, attribute, "?unknown2")), others=(name,))
    found = _lowered_match(question, _SAME_AS_NAMED)
    if found is None or found.group("kind").split()[0] in ("same", "other") or \
            found.group("attribute").split()[0] in _NOT_ATTRIBUTES:
        return None
    name, attribute, noun = found.group("name"), found.group("attribute"), found.group("kind")
    verb_after = len(noun.split()) == 2 and (noun.split()[1] in _AUXILIARY_VERBS or re.search(
        rf"\b{re.escape(noun)}\s+(?:in|at|from|for|with|to|on|under|of|by)\b", question) is not None)
    noun = noun.split()[0] if _plural_then_word(noun) or verb_after else noun  # "suppliers are", "employee works in"
    return PhraseGraphPattern(form=QuestionForm.COUNT if found.group("ask") == "how many" else QuestionForm.LIST, triples=(
        PhraseTriple(ANSWER, TYPE_RELATION, noun), PhraseTriple(ANSWER, attribute, "?unknown2"),
        PhraseTriple(name, attribute, "?unknown2")), others=(name,))


# "Which products is the Production department responsible for?", "Which suppliers does Acme Corp work with?":
# the asked things at the end of a relation from a name, its preposition left at the end
_NAME_RELATES_TO_KIND = re.compile(
    r"^(?P<ask>which|what|how many)\s+(?P<kind>(?:[A-Z][a-z]+|[a-z]+)(?: [a-z]+)?)\s+"  # "How many Switches is ...": a
    r"(?:is|are|was|were|does|do|did|(?P<modal>can|could|may|will))\s+"  # kind named as the graph's category may be
    r"(?:the\s+(?:(?:hardware\s+)?(?:product|service|supplier|employee|part|item)\s+(?=[A-Z0-9]))?)?"  # "the product X"
    r"(?P<name>" + _PROPER_NAME + r")(?:\s+(?P<noun>[a-z]+))?\s+(?(modal)(?:be\s+)?)"
    r"(?P<relation>[a-z]+(?:\s+[a-z]+)?\s+(?:for|to|with|in|on|of|by|from|at|about|after))\s*[?.!]?$")


# "What is the Marketing department responsible for?": the same without a kind asked
_NAME_RELATES_TO_WHAT = re.compile(
    r"^what\s+(?:is|are|was|were)\s+(?:the\s+)?(?P<name>" + _PROPER_NAME + r")(?:\s+(?:department|team|group|division|unit))?\s+"
    r"(?P<relation>responsible\s+for|in\s+charge\s+of|accountable\s+for)\s*[?.!]?$")


def kind_a_name_relates_to(question: str) -> PhraseGraphPattern | None:
    """"Which products is the Production department responsible for?" (or "can the X service be booked
    for?") as `?u1 | is a | products ; Production | responsible for | ?u1` (the noun after the name,
    "department", says what it is and goes); "What is the Marketing department responsible for?" as
    `Marketing | responsible for | ?u1`; None for anything else."""
    what = _lowered_match(question, _NAME_RELATES_TO_WHAT)
    if what is not None:
        return PhraseGraphPattern(triples=(PhraseTriple(what.group("name"), " ".join(what.group("relation").split()),
                                                        ANSWER),))
    found = _lowered_match(question, _NAME_RELATES_TO_KIND)
    if found is None or found.group("relation").split()[0] in _NOT_ATTRIBUTES | _COMPARING_WORDS or \
            found.group("kind").split()[0] in _NOT_KINDS or found.group("noun") == "both":  # two names (`kind_a_name_verbs`)
        return None
    return PhraseGraphPattern(form=QuestionForm.COUNT if found.group("ask").lower() == "how many" else QuestionForm.LIST,
                              triples=(PhraseTriple(ANSWER, TYPE_RELATION, found.group("kind")),
                                       PhraseTriple(found.group("name"), found.group("relation"), ANSWER)))


# "Which films did Steven Spielberg direct?", "In what tv shows did Jason Carter act?", "For which team did Cam
# Plante and Doug Acomb both play?": the asked things are what a name's verb reaches, the preposition before
# the question word or after the verb
_NAME_VERBS_KIND = re.compile(
    r"^(?:(?P<before>in|for|at|on|with|from|to|by|into)\s+)?(?P<ask>which|what|how many)\s+(?P<kind>[a-z]+(?: [a-z]+)?)\s+"
    r"(?:did|does|do)\s+(?:the\s+(?:(?P<role>[a-z]+)\s+)?)?(?P<name>" + _PROPER_NAME + r")\s+(?P<both>both\s+)?"
    r"(?P<verb>[a-z]+)(?:\s+(?P<after>in|for|at|on|with|from|to|by|into|about))?\s*[?.!]?$")
_NOT_NAME_VERBS = frozenset({"have", "has", "get", "do", "be", "mean", "look", "like", "say", "think", "cost", "weigh"})


def kind_a_name_verbs(question: str) -> PhraseGraphPattern | None:
    """"Which films did Steven Spielberg direct?" as `?u1 | is a | films ; Steven Spielberg | direct | ?u1`, "For
    which team did A and B both play?" as `?u1 | is a | team ; A | play for | ?u1 ; B | play for | ?u1` (the
    preposition joins the verb; "both" makes two names of one; counted after "How many"); None for anything else."""
    found = _lowered_match(question, _NAME_VERBS_KIND)
    if found is None or found.group("kind").split()[0] in _NOT_KINDS or found.group("verb") in _NOT_NAME_VERBS | _NOT_ATTRIBUTES \
            or (found.group("before") and found.group("after")) or _plural_then_word(found.group("kind")):
        return None
    relation = " ".join(w for w in (found.group("verb"), found.group("before") or found.group("after")) if w)
    names = _LIST_SEPARATOR.split(found.group("name")) if found.group("both") else [found.group("name")]
    return PhraseGraphPattern(form=QuestionForm.COUNT if found.group("ask") == "how many" else QuestionForm.LIST,
                              triples=(PhraseTriple(ANSWER, TYPE_RELATION, found.group("kind")),
                                       *(PhraseTriple(name, relation, ANSWER) for name in names)))


# "Berlin is the capital of which country?": the asked things hold the name by the relation, the question word last
_NAME_IS_RELATION_OF_KIND = re.compile(
    r"^(?:the\s+)?(?P<name>[A-Za-z0-9][\w&.'-]*(?:,? (?:and |& )?[A-Z0-9][\w&.'-]*)*)\s+(?:is|was|are|were)\s+the\s+"
    r"(?P<relation>[a-z]+(?: [a-z]+)?)\s+(?:of|for|in)\s+(?P<ask>which|what)\s+(?P<kind>[a-z]+(?: [a-z]+)?)\s*[?.!]?$")
_NOT_NAMES = frozenset({"it", "this", "that", "he", "she", "they", "what", "which", "who", "there", "here"})


def name_is_relation_of_kind(question: str) -> PhraseGraphPattern | None:
    """"Berlin is the capital of which country?" as `?u1 | is a | country ; ?u1 | capital | Berlin`; None
    for anything else."""
    found = _NAME_IS_RELATION_OF_KIND.match(question.strip())
    if found is None or found.group("name").lower() in _NOT_NAMES or found.group("kind").split()[0] in _NOT_KINDS or \
            found.group("relation").split()[0] in _NOT_ATTRIBUTES | _COMPARING_WORDS:
        return None
    return PhraseGraphPattern(triples=(PhraseTriple(ANSWER, TYPE_RELATION, found.group("kind")),
                                       PhraseTriple(ANSWER, found.group("relation"), found.group("name"))))


# "What nicknames do the universities in Norton, Massachusetts have?": an attribute of things of a kind a name restricts
_ATTRIBUTE_THE_KIND_HAS = re.compile(
    r"^(?:what|which)\s+(?P<attribute>[a-z]+(?: [a-z]+)?)\s+(?:do|does|did)\s+(?:the\s+|all\s+(?:the\s+)?)?"
    r"(?P<kind>[a-z]+(?: [a-z]+)?)\s+(?P<link>in|of|from|at|on|by)\s+(?:the\s+)?(?P<name>" + _PROPER_NAME + r")\s+"
    r"(?:have|has|had)\s*[?.!]?$")


def attribute_the_kind_has(question: str) -> PhraseGraphPattern | None:
    """"What nicknames do the universities in Norton, Massachusetts have?" as `?u1 | nicknames | ?u2 ; ?u2 |
    is a | universities ; ?u2 | in | Norton, Massachusetts`; None for anything else."""
    found = _lowered_match(question, _ATTRIBUTE_THE_KIND_HAS)
    if found is None or found.group("kind").split()[0] in _NOT_KINDS or \
            found.group("attribute").split()[0] in _NOT_ATTRIBUTES | _COMPARING_WORDS | _NOT_KINDS:
        return None
    return PhraseGraphPattern(triples=(PhraseTriple(ANSWER, found.group("attribute"), "?unknown2"),
                                       PhraseTriple("?unknown2", TYPE_RELATION, found.group("kind")),
                                       PhraseTriple("?unknown2", found.group("link"), found.group("name"))))


# "Which members of the Marketing department are experts in capacitors?", "Which products of Acme Corp are
# compatible with Y863-3538159?": a kind restricted by a name, and what those things are
_RESTRICTED_KIND_RELATED = re.compile(
    r"^(?:which|what)\s+(?P<kind>[a-z]+)\s+(?:of|from|in|(?P<link>(?:reporting|working|belonging)\s+(?:to|in|for)|"
    r"(?:managed|supplied|led|headed)\s+by))\s+(?:the\s+)?"
    r"(?P<name>" + _PROPER_NAME + r")(?:\s+(?:department|team|category|group|division|unit))?"
    r"\s+(?:(?:are|is)\s+(?:an?\s+)?(?P<relation>[a-z]+(?:\s+[a-z]+)?\s+(?:in|on|for|with|of|to|by|from|at))\s+(?:the\s+)?"
    r"(?P<other>[A-Za-z0-9][\w&.'-]*(?: [\w&.'-]+){0,3})|(?:have|has)\s+(?:an?\s+)?(?P<field>[a-z]+\s+(?:in|on|with))"
    r"\s+(?:the\s+)?(?P<fielded>[A-Za-z0-9][\w&.'-]*(?: [\w&.'-]+){0,3})|(?:have|has)\s+(?:an?\s+|any\s+)?"
    r"(?P<had>[a-z]+(?:\s+[a-z]+)?)(?:\s+on\s+(?:record|file))?)\s*[?.!]?$")


def restricted_kind_related(question: str) -> PhraseGraphPattern | None:
    """"Which members of the Marketing department are experts in capacitors?" (or "have expertise in
    capacitors") as `?u1 | members | Marketing ; ?u1 | experts in | capacitors` (or "... have a phone number": `?u1 | phone number |
    ?u2`): the model keeps one of the two (`?u1 | members | Marketing ; ?u1 | is a | department`); None
    for anything else."""
    found = _lowered_match(question, _RESTRICTED_KIND_RELATED)
    said = found.group("relation") or found.group("field") or found.group("had") if found is not None else None
    if found is None or said.split()[0] in _NOT_ATTRIBUTES | _COMPARING_WORDS:
        return None
    if found.group("relation") or found.group("field"):  # "are experts in X", "have expertise in X"
        related = PhraseTriple(ANSWER, said, found.group("other") or found.group("fielded"))
    else:  # "... have a phone number": one of their own
        related = PhraseTriple(ANSWER, said, "?unknown2")
    if found.group("link"):  # "Which employees reporting to Elena Herzog are ...": the kind and its link
        return PhraseGraphPattern(triples=(PhraseTriple(ANSWER, TYPE_RELATION, found.group("kind")),
                                           PhraseTriple(ANSWER, found.group("link"), found.group("name")), related))
    return PhraseGraphPattern(triples=(PhraseTriple(ANSWER, found.group("kind"), found.group("name")), related))


# "Which suppliers based in Germany supply products in the Sensor category?", "Which suppliers located in China
# supply products priced above 5 euros?": a kind placed somewhere, and a condition on the things it relates to
_PLACED_KIND = (r"^(?:which|what)\s+(?P<kind>[a-z]+)\s+(?P<placed>based|located|situated|headquartered)\s+in\s+(?:the\s+)?"
                r"(?P<place>[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*)*)\s+(?P<verb>[a-z]+)\s+(?P<things>[a-z]+)\s+")
_PLACED_KIND_IN_CATEGORY = re.compile(_PLACED_KIND + r"(?:in|of|from)\s+the\s+(?P<category>[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*)*)"
                                      r"\s+category\s*[?.!]?$")
_PLACED_KIND_COMPARED = re.compile(_PLACED_KIND + r"(?P<condition>[a-z].+?)\s*[?.!]?$")
# "Which suppliers from France deliver Gauge products?": the things named by their kind
_PLACED_KIND_NAMED_THINGS = re.compile(
    r"^(?:which|what)\s+(?P<kind>[a-z]+)\s+(?:(?P<placed>based|located|situated|headquartered)\s+in|from)\s+(?:the\s+)?"
    r"(?P<place>[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*)*)\s+(?P<verb>[a-z]+)\s+(?P<things>[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*)*\s+[a-z]+)"
    r"\s*[?.!]?$")


def placed_kind_related(question: str) -> PhraseGraphPattern | None:
    """"Which suppliers based in Germany supply products in the Sensor category?" as `?u1 | is a |
    suppliers ; ?u1 | based in | Germany ; ?u1 | supply | ?u2 ; ?u2 | is a | products ; ?u2 | category
    | Sensor` (or with "... products priced above 5 euros" a compared value of ?u2; "Which suppliers from
    France deliver Gauge products?": `?u2 | is a | Gauge products`): conditions on two things, which the
    model merges into one; None for anything else."""
    found = _lowered_match(question, _PLACED_KIND_IN_CATEGORY) or _lowered_match(question, _PLACED_KIND_COMPARED) or \
        _lowered_match(question, _PLACED_KIND_NAMED_THINGS)
    if found is None:
        return None
    triples = [PhraseTriple(ANSWER, TYPE_RELATION, found.group("kind")),
               PhraseTriple(ANSWER, f"{found.group('placed')} in" if found.group("placed") else "from", found.group("place")),
               PhraseTriple(ANSWER, found.group("verb"), "?unknown2"), PhraseTriple("?unknown2", TYPE_RELATION, found.group("things"))]
    if found.re is _PLACED_KIND_IN_CATEGORY:
        return PhraseGraphPattern(triples=(*triples, PhraseTriple("?unknown2", "category", found.group("category"))))
    if found.re is _PLACED_KIND_NAMED_THINGS:
        return PhraseGraphPattern(triples=tuple(triples))
    compared = compared_value("?unknown2", found.group("condition"), "?unknown3")
    if compared is None:
        return None
    return PhraseGraphPattern(triples=(*triples, compared[0]), comparisons=(compared[1],))


# "Which suppliers do not supply any product?", "How many hardware products are not covered by any service?",
# "Which services are not the responsibility of any department?", "Which German suppliers do not deliver any
# products in the Sensor category?": things with no link of a kind to anything of another kind
_ANY_OTHER = (r"\s+any\s+(?:of\s+(?:our|the)\s+|other\s+)?(?:(?P<other_qualifier>[A-Z][A-Za-z0-9&-]*)\s+)?"
              r"(?P<other>[a-z]+(?: [a-z]+){0,2}?)(?:\s+(?:in|of|from)\s+the\s+(?P<category>[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*)*)"
              r"\s+category)?(?:\s+at\s+all)?"
              # "any product cheaper than 3 EUR", "any part that costs more than 5 EUR": a value of the other thing
              r"(?:\s+(?:(?:that|which)\s+)?(?P<condition>(?:[a-z]+er|costs?|weighs?|is|are|has|have)\s+[^?]*?\d[^?]*?))?"
              r"\s*[?.!]?$")
_ANY_ONE = r"\s+(?:any(?:one|body|thing)|any\s+other)(?:\s+at\s+all)?\s*[?.!]?$"  # "do not manage anyone": any thing
_KIND_PLACE = (r"(?:(?:in|from)\s+the\s+(?P<place>[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*)*)\s+(?P<place_kind>category|department)\s+|"
               r"(?:from|in|based in|located in)\s+(?P<country>[A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*)*)\s+)?")
_PREPOSITION = r"(?:by|to|from|in|for|with|on|at|into|of|under)"
_NEGATED_VERB_LINK = _COUNTED_OR_LISTED_KIND + _KIND_PLACE + r"(?:(?:currently|still|ever)\s+)?(?:do|does|did)(?:\s+not|n't)\s+" \
    r"(?:(?:currently|ever)\s+)?(?P<relation>(?!(?:have|has|had)\b)[a-z]+(?:\s+" + _PREPOSITION + r")?)"
_NEGATED_STATE_LINK = _COUNTED_OR_LISTED_KIND + _KIND_PLACE + r"(?:are|is|were|was)(?:\s+not|n't)\s+(?:(?:currently|yet)\s+)?" \
    r"(?P<relation>(?:the\s+[a-z]+\s+of|[a-z]+(?:\s+as\s+an?\s+[a-z]+)?\s+" + _PREPOSITION + r"))"
_LINKING_WORDS = frozenset({"assigned", "associated", "linked", "related", "connected", "attached", "mapped", "tied",
                            "belong", "belongs"})
_NEGATED_LINKS = tuple(re.compile(link + other) for link in (_NEGATED_VERB_LINK, _NEGATED_STATE_LINK)
                       for other in (_ANY_OTHER, _ANY_ONE))


def negated_link(question: str) -> PhraseGraphPattern | None:
    """"Which suppliers do not supply any product?" as `?u1 | is a | suppliers ; ?u1 | not supply | ?u2 ;
    ?u2 | is a | product`: the negation is of a link to anything of the other kind (the query keeps the
    other thing's kind inside the negation); the model reads the positive question's kind as a relation
    (`?u1 | suppliers | ?u2`) and the negation has nothing to govern. None for anything else."""
    found = _asked_kind_shape(question, _NEGATED_LINKS)
    if found is None or _plural_then_word(found.group("kind")):
        return None
    groups = found.groupdict()
    relation = re.sub(r"^the\s+", "", found.group("relation"))
    if relation.split()[0] in _NOT_ATTRIBUTES | _COMPARING_WORDS:
        return None
    asked = _asked_things(found)
    triples = list(asked.triples)
    if groups.get("place"):  # "hardware products in the Driver category"
        triples.append(PhraseTriple(ANSWER, groups["place_kind"], groups["place"]))
    elif groups.get("country"):  # "suppliers from India"
        triples.append(PhraseTriple(ANSWER, found.group("kind"), groups["country"]))
    other = "?unknown2"
    if relation.split()[0] in _LINKING_WORDS and groups.get("other"):  # "not assigned to any category": the
        relation = groups["other"]  # other kind names the link ("has category"), the verb says only that there is one
    triples.append(PhraseTriple(ANSWER, NEGATION + relation, other))
    if groups.get("other"):
        triples.append(PhraseTriple(other, TYPE_RELATION, groups["other"]))
        if groups.get("other_qualifier"):
            triples.append(PhraseTriple(other, groups["other"], groups["other_qualifier"]))
        if groups.get("category"):
            triples.append(PhraseTriple(other, "category", groups["category"]))
    if groups.get("condition"):  # the other thing's value, compared inside the negation
        compared = compared_value(other, groups["condition"].lower(), "?unknown3")
        if compared is None:
            return None
        return replace(asked, triples=(*triples, compared[0]), comparisons=(compared[1],))
    return replace(asked, triples=tuple(triples))


def clause_object_reading(doc: Any) -> PhraseGraphPattern | None:
    """"Who supplies the products that the Production department is responsible for?" as `?u1 | supplies
    | ?u2 ; ?u2 | is a | products ; Production | responsible for | ?u2`: the asked thing's verb reaches
    things a named subject's relative clause picks out (or "of" a name, or a participle or preposition
    with a name: "the parts used in Mechtron SynthWave"); the model keeps one noun and the name. None
    for anything else."""
    try:
        return _read_clause_object(doc)
    except _Unreadable:
        return None


def _read_clause_object(doc: Any) -> PhraseGraphPattern | None:
    """`clause_object_reading`, raising `_Unreadable` from deep in the parse."""
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1 or not _plain(doc) or roots[0].pos_ != "VERB" or roots[0].lemma_ in ("be", "have", "do") or \
            stated_ordering(doc.text) is not None:  # a superlative is the superlative readers'
        return None
    verb = roots[0]
    objects = [c for c in verb.children if c.dep_ == "dobj" and c.pos_ == "NOUN"]
    if len(objects) != 1 or any(c.dep_ not in ("nsubj", "dobj", "punct", "aux") for c in verb.children):
        return None
    restrictions = [c for c in objects[0].children if c.dep_ not in ("det", "compound", "amod")]
    if len(restrictions) != 1 or restrictions[0].dep_ not in ("relcl", "prep", "acl") or restrictions[0].lower_ == "than" \
            or any(c.lower_ in ("more", "fewer", "less") for c in objects[0].children):
        return None  # "supply more products than X" compares counts
    restriction = restrictions[0]
    said = _named_subject_clause(restriction) if restriction.dep_ == "relcl" else None
    named = _name_span(doc, restriction) if restriction.dep_ == "prep" and restriction.lower_ == "of" else None
    if restriction.dep_ == "relcl" and said is None or restriction.lower_ == "of" and named is None:
        return None
    builder = _Builder()
    subject = _wh_subject(verb)
    things = builder.fresh()
    builder.add(ANSWER, verb.text, things)
    if subject is not None:
        if subject.pos_ != "NOUN":
            return None
        builder.add(ANSWER, TYPE_RELATION, _kind_phrase(subject))
        _restrict(builder, ANSWER, subject)
    builder.add(things, TYPE_RELATION, _kind_phrase(objects[0]))
    if said is not None:  # "the products that the Production department is responsible for"
        builder.add(said[0], said[1], things)
    elif named is not None:  # "the parts of Mechtron SynthWave": related by their noun
        builder.add(things, _kind_phrase(objects[0]), _whole_name(named))
    else:  # "the parts used in Mechtron SynthWave", "the products in the Sensor category"
        _restrict(builder, things, objects[0])
    return PhraseGraphPattern(triples=tuple(builder.triples))
