"""The English words that grade, in one place: comparatives and the operator they mean, superlatives
and the end they pick, and the attribute an adjective names without saying it ("older" -> age).

Used by the rule parser (`understanding/fallback.py`), the training-data derivation
(`understanding/derive.py`) and the repairs of imperfect patterns before linking
(`linking/relaxation.py`), so the three read "cheaper", "at least" or "the youngest" alike. Number
words live here too, so "more than two" means 2 in training targets, rule parses and FILTERs alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Adjective lemma -> the attribute it grades ("the oldest singer" orders singers by age).
ATTRIBUTE_OF = {
    "old": "age", "young": "age", "tall": "height", "high": "height", "short": "height", "long": "length",
    "heavy": "weight", "light": "weight", "large": "size", "big": "size", "small": "size", "wide": "width",
    "narrow": "width", "deep": "depth", "shallow": "depth", "thick": "thickness", "thin": "thickness",
    "expensive": "price", "pricey": "price", "cheap": "price", "rich": "wealth", "early": "date", "late": "date", "recent": "date", "new": "date", "populous": "population", "fast": "speed",
    "slow": "speed", "far": "distance", "close": "distance", "near": "distance",
}

# Single comparative words and prepositions -> the operator between the thing and the value.
COMPARATIVE_OPERATOR = {
    **dict.fromkeys(["more", "greater", "higher", "larger", "bigger", "older", "taller", "longer", "heavier", "later",
                     "wider", "deeper", "thicker", "faster", "richer", "more expensive", "pricier"], ">"),
    **dict.fromkeys(["less", "fewer", "lower", "smaller", "younger", "shorter", "lighter", "earlier", "cheaper",
                     "narrower", "shallower", "thinner", "slower", "poorer", "less expensive"], "<"),
    **dict.fromkeys(["above", "over", "exceeding", "after"], ">"),
    **dict.fromkeys(["below", "under", "before"], "<"),
    "since": ">=",
}
PREPOSITIONS = frozenset(["above", "over", "exceeding", "after", "below", "under", "before", "since"])
BOUNDS = (("at least", ">="), ("at most", "<="), ("no more than", "<="), ("no less than", ">="))
NEGATED_OPERATOR = {">": "<=", "<": ">="}  # "no wider than 12 mm": at most 12 mm wide
# "no wider than", "not older than": a comparative negated, before the comparative itself is matched
NEGATED_COMPARATIVES = tuple((f"{negation} {word} than", NEGATED_OPERATOR[operator])
                             for word, operator in COMPARATIVE_OPERATOR.items() if word not in PREPOSITIONS
                             for negation in ("no", "not") if f"{negation} {word} than" not in dict(BOUNDS))

# Comparative phrases as they end a relation phrase ("founded after", "more than"), longest first.
COMPARATIVE_PHRASES: tuple[tuple[str, str], ...] = (
    *BOUNDS,
    *NEGATED_COMPARATIVES,
    *((f"{word} than", op) for word, op in COMPARATIVE_OPERATOR.items() if word not in PREPOSITIONS),
    *((word, op) for word, op in COMPARATIVE_OPERATOR.items() if word in PREPOSITIONS),
)

# Superlatives -> descending (True: the largest value first).
SUPERLATIVE_DESCENDING = {
    **dict.fromkeys(["highest", "largest", "biggest", "most", "maximum", "max", "greatest", "oldest", "latest", "longest", "heaviest",
                     "tallest", "widest", "deepest", "thickest", "priciest", "fastest", "newest", "richest", "best"], True),
    **dict.fromkeys(["lowest", "smallest", "least", "fewest", "minimum", "min", "youngest", "earliest", "shortest", "lightest", "cheapest", "first", "slowest", "nearest", "closest", "narrowest", "shallowest",
                     "thinnest", "worst"], False),
}
ASCENDING = frozenset(word for word, descending in SUPERLATIVE_DESCENDING.items() if not descending)

# Superlatives that name their attribute reliably enough to rewrite `?u1 | oldest | ?u2` as an ordering
# by that attribute. "highest", "largest" or "latest" say which end, not which attribute ("the highest
# sales"), so they are left out although `ATTRIBUTE_OF` has a guess for the rule parser.
_SUPERLATIVE_OF = {"oldest": "old", "youngest": "young", "cheapest": "cheap", "most expensive": "expensive",
                   "expensive": "expensive", "heaviest": "heavy", "lightest": "light", "tallest": "tall",
                   "longest": "long", "widest": "wide", "narrowest": "narrow", "deepest": "deep", "priciest": "pricey",
                   "richest": "rich"}
# Superlatives of a measure whose attribute depends on the thing ("the shortest person" by height, "the
# shortest river" by length): a ranking by a value, its attribute left to linking.
MEASURED_SUPERLATIVES = frozenset({"shortest", "thickest", "thinnest", "fastest", "slowest", "shallowest"})
IMPLIED_ORDER = {
    word: (ATTRIBUTE_OF[adjective], word not in ASCENDING)
    for word, adjective in _SUPERLATIVE_OF.items()
}

# words that say how to count, not what ("How many different people ...")
COUNTING_QUALIFIERS = frozenset({"different", "distinct", "unique", "various"})

# the words that say a thing is shown by an attribute ("the names of the documents", "each document id")
SHOWN_BY = frozenset({"name", "names", "id", "ids", "code", "codes", "title", "titles"})


def plural(noun: str) -> str:
    """A crude English plural of a singular noun ("supplier" -> "suppliers", "company" -> "companies")."""
    if noun.endswith("s"):
        return noun
    if noun.endswith(("x", "z", "ch", "sh")):
        return noun + "es"
    return noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s"


def singular(word: str) -> str:
    """A crude English singular, enough to make 'singers' equal 'singer' and 'cities' equal 'city'."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "ches", "shes", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


# verbs saying a thing has another ("Which papers provide a replication package?"), as regex alternatives;
# the yes/no repair reads "have" and "has" too ("Does X have a manager?")
HAVING_VERB_FORMS = r"provides?|offers?|includes?|references?|reports?|mentions?|supports?|contains?|(?:comes?|came)\s+with"
HAVE_OR_HAVING_VERB = rf"(?:have|has|{HAVING_VERB_FORMS})"


def verb_base(verb: str) -> str:
    """The plain form of a having verb ("provides" -> "provide"); "has" stays."""
    return verb if verb == "has" or not verb.endswith("s") or verb.endswith("ss") else verb[:-1]


# units a number is measured in: "more than 12 grams" compares a value, "more than 12 parts" counts parts
MEASURE_UNITS = frozenset({
    "g", "gram", "grams", "kg", "kilogram", "kilograms", "ton", "tons", "tonne", "tonnes", "pound", "pounds", "lbs",
    "mm", "millimeter", "millimeters", "millimetre", "millimetres", "cm", "centimeter", "centimeters", "m", "meter",
    "meters", "metre", "metres", "km", "kilometer", "kilometers", "mile", "miles", "foot", "feet", "inch", "inches",
    "eur", "euro", "euros", "usd", "dollar", "dollars", "cent", "cents", "percent", "point", "points",
    "year", "years", "month", "months", "week", "weeks", "day", "days", "hour", "hours", "minute", "minutes",
    "second", "seconds", "millisecond", "milliseconds", "liter", "liters", "litre", "litres", "degree", "degrees",
    "million", "millions", "billion", "billions", "thousand", "thousands"})


# Length and mass units a compared value may be written in, per dimension, in that dimension's smallest unit:
# "wider than 6 cm" against a width stored in mm is 60 (`linking.queries.in_predicate_unit`)
UNIT_SCALES: tuple[dict[str, int], ...] = (
    {"mm": 1, "millimeter": 1, "millimeters": 1, "millimetre": 1, "millimetres": 1, "cm": 10, "centimeter": 10,
     "centimeters": 10, "centimetre": 10, "centimetres": 10, "m": 1000, "meter": 1000, "meters": 1000, "metre": 1000,
     "metres": 1000, "km": 1000000},
    {"mg": 1, "g": 1000, "gram": 1000, "grams": 1000, "kg": 1000000, "kilogram": 1000000, "kilograms": 1000000,
     "kilo": 1000000, "kilos": 1000000})


def same_words(phrase: str, other: str) -> bool:
    """The same words, singular or plural, any case ("Departments" and "department")."""
    return [singular(w) for w in phrase.lower().split()] == [singular(w) for w in other.lower().split()]


def comparative_attribute(phrase: str) -> str | None:
    """The attribute a comparative grades, by its adjective: "heavier" -> weight, "taller" -> height,
    "more expensive" -> price, "larger" -> size; None for other phrases ("more", "founded after")."""
    word = phrase.strip().lower()
    if word.endswith(" than"):
        word = word[:-5].strip()
    if word.startswith(("more ", "less ")):
        return ATTRIBUTE_OF.get(word.split(" ", 1)[1])
    if " " in word or not word.endswith("er"):
        return None
    stem = word[:-3] + "y" if word.endswith("ier") else word[:-2]
    for adjective in (stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else stem):
        if adjective in ATTRIBUTE_OF and adjective != "high":  # "higher than 900" is any greater number
            return ATTRIBUTE_OF[adjective]
    return None


# Cardinal words a question may use for a compared value ("more than two employees").
NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "hundred": 100, "thousand": 1000, "million": 1000000,
}


_UNIT_AFTER = re.compile(r"^([+-]?\d[\d,]*(?:\.\d+)?)\s*(?:[a-z%€$£]{1,12}\.?)$")


def number_value(text: str, *, unit: bool = False) -> int | float | None:
    """The number a written value stands for ("2", "2,000", "2.5", "two"), else None; with `unit`,
    also a number followed by one unit word ("800 EUR", "19 grams", "80mm")."""
    cleaned = text.strip().strip("\"'").replace(",", "").lower()
    if unit and (found := _UNIT_AFTER.match(cleaned)):
        cleaned = found.group(1)
    if cleaned in NUMBER_WORDS:
        return NUMBER_WORDS[cleaned]
    try:
        value = float(cleaned)
    except ValueError:
        return None
    if value != value or value in (float("inf"), float("-inf")):
        return None
    return int(value) if value.is_integer() else value


# Words with which a graph names an attribute that stores a count ("number_products", "num_employees",
# "staff_count"): "the shop with the most products" may be ordered by such an attribute.
COUNT_ATTRIBUTE_WORDS = frozenset({"number", "num", "count", "total", "amount", "quantity"})

# Words after a value that widen it to a bound ("25 or older", "2 or more", "100 and above").
AFTER_VALUE_OPERATOR: tuple[tuple[str, str], ...] = (
    *((f"{joint} {word}", ">=") for joint in ("or", "and") for word in
      ("more", "greater", "higher", "older", "later", "above", "over", "bigger", "larger", "longer", "taller")),
    *((f"{joint} {word}", "<=") for joint in ("or", "and") for word in
      ("less", "fewer", "lower", "younger", "earlier", "below", "under", "smaller", "shorter")),
)
_BEFORE = (*sorted(COMPARATIVE_PHRASES, key=lambda phrase: -len(phrase[0])), ("exactly", "="))  # "with exactly two airports"


def value_in_question(question: str, value: str) -> tuple[str, re.Match[str]] | None:
    """Where `value` stands in the question as a whole token: the lower-cased question with "10,000"
    written 10000, and the match in it; None when it is not there."""
    text = re.sub(r"(?<=\d),(?=\d{3})", "", question.lower())  # "10,000" is the value 10000
    wanted = re.sub(r"(?<=\d),(?=\d{3})", "", value.strip().strip("\"'").lower())
    if not wanted:
        return None
    found = re.search(rf"(?<![\w.]){re.escape(wanted)}(?!\w)", text)
    return None if found is None else (text, found)


def stated_operator(question: str, value: str) -> str | None:
    """The comparison the question's own words put on `value`: "above 10000" -> ">", "at most 23" ->
    "<=", "25 or older" -> ">=" (a unit word may sit between: "25 years or older"); None when the
    words around the value name no comparison or the value is not in the question."""
    located = value_in_question(question, value)
    if located is None:
        return None
    text, found = located
    before = " ".join(re.findall(r"[a-z]+", text[:found.start()])[-3:])
    for phrase, operator in _BEFORE:
        if before == phrase or before.endswith(" " + phrase):
            return operator
    after = re.findall(r"[a-z]+", text[found.end():])[:3]
    for start in (0, 1):
        following = " ".join(after[start:start + 2])
        for phrase, operator in AFTER_VALUE_OPERATOR:
            if following == phrase:
                return operator
    return None


@dataclass(frozen=True)
class StatedOrdering:
    """What a question's superlative says about the ordering it asks for: which end (`descending`),
    whether things are ranked by how many of something they have (`by_count`), and how many are
    wanted (`limit`, when a number stands before the superlative: "the three most expensive");
    None where the words do not say."""

    descending: bool | None
    by_count: bool | None
    limit: int | None = None


# Superlatives whose end is unambiguous ("first" is often "first name"; "most"/"least" are read with
# the word after them; "at least"/"at most" are bounds).
_PLAIN_SUPERLATIVES = {word: descending for word, descending in SUPERLATIVE_DESCENDING.items()
                       if word not in ("first", "max", "min", "most", "least")}
# Endings of adjectives that name an attribute ("the most reliable", "the most expensive"), unlike "the
# most products"; `_ADJECTIVE_END` also takes the looser endings the ordering's end is read from.
ATTRIBUTE_ADJECTIVE_ENDS = ("ive", "ous", "ful", "able", "ible", "al", "ic", "ant", "ent")
_ADJECTIVE_END = re.compile(r"(ive|ous|ful|able|ible|al|ic|ant|ent|ar|ing|ed|y)$")
IRREGULAR_PLURALS = frozenset({"people", "children", "men", "women"})  # not "staff": often a stored number
# participles that say which things are counted, not how much of a quality they have: "the most departing
# flights" counts flights (where "the most expensive products" grades them)
_COUNTED_PARTICIPLES = frozenset({"departing", "arriving", "outgoing", "incoming", "outbound", "inbound", "connecting",
                                  "participating", "competing", "remaining", "upcoming", "ongoing", "published"})
_COUNT_NOUN = re.compile(r"(number|count)\s+of\b")
_BY_COUNT = re.compile(r"\bby (?:the )?(?:number|count) of\b")
_RANK_NOUN = re.compile(r"\b(rank|ranking|position|place|placing)\b")
CARDINAL = r"\d+|" + "|".join(w for w in NUMBER_WORDS if 2 <= NUMBER_WORDS[w] <= 20)  # "3", "three": how many asked for


def stated_ordering(question: str) -> StatedOrdering | None:
    """The ordering a question's superlative states, or None when it has no superlative (or two that
    disagree on the end). Capitalised words are names ("Best Picture"), never superlatives."""
    words = re.findall(r"[A-Za-z]+|\d+", question)
    found: list[tuple[bool, bool | None, int]] = []  # (descending, by_count, index)
    for index, word in enumerate(words):
        lower = word.lower()
        if word[0].isupper() and index > 0:
            continue
        following = " ".join(w.lower() for w in words[index + 1: index + 4])
        previous = words[index - 1].lower() if index else ""
        if lower in ("most", "least", "fewest") and previous != "at":
            after = words[index + 1].lower() if index + 1 < len(words) else ""
            descending = lower == "most"
            if lower == "fewest" or _COUNT_NOUN.match(following) or (
                    after in _COUNTED_PARTICIPLES and following.split()[1:2] and following.split()[1].endswith("s")):
                found.append((descending, True, index))
            elif after in ATTRIBUTE_OF or _ADJECTIVE_END.search(after):
                found.append((descending, False, index))
            elif after.endswith("s") or after in IRREGULAR_PLURALS:  # "the most products", "the most people"
                found.append((descending, True, index))
            else:
                found.append((descending, None, index))
        elif lower in ("max", "min") and not previous.isdigit() and following[:1].isalpha():  # "max weight of ..."
            found.append((lower == "max", bool(_COUNT_NOUN.match(following)), index))
        elif lower == "top" and (re.match(rf"(?:{CARDINAL})\b", following) or " by " in f" {following} "):
            found.append((True, bool(_BY_COUNT.search(" ".join(words[index + 1:]).lower())), index))  # "the top 3 suppliers by number of products"
        elif lower in _PLAIN_SUPERLATIVES:
            by_count = bool(_COUNT_NOUN.match(following))
            descending = _PLAIN_SUPERLATIVES[lower]
            if lower in ("best", "worst") and _RANK_NOUN.search(following):
                descending = not descending  # the best rank is the lowest number
            found.append((descending, by_count, index))
    if not found or len({d for d, _, _ in found}) > 1:
        return None
    descending, by_count, index = found[0]
    before = " ".join(w.lower() for w in words[max(0, index - 2): index])
    limit_match = re.search(rf"\b(?:the|top)\s+({CARDINAL})$", before) or \
        re.search(rf"\btop\s+({CARDINAL})\b", question.lower()) or \
        re.search(rf"\bthe\s+({CARDINAL})\s+(?:[a-z]+\s+)?[a-z]+s\b", " ".join(words[:index]).lower()) or \
        re.match(rf"(?:which|what)\s+({CARDINAL})\s+(?!(?:is|was|has|does)\b)[a-z]+s\b", question.lower())  # "Which three countries have the most ..."
    limit = int(number_value(limit_match.group(1)) or 0) if limit_match else None
    counts = {c for _, c, _ in found if c is not None}
    return StatedOrdering(descending, counts.pop() if len(counts) == 1 else None, limit or None)


# ordinals -> the places before the one they name ("the second most expensive": one)
ORDINALS = {"second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3, "fifth": 4, "5th": 4}
ORDINAL_WORD = re.compile(r"\b(" + "|".join(ORDINALS) + r")\b", re.I)
_RANKED = re.compile(ORDINAL_WORD.pattern + r"[\s-]+(?:most|least|highest|lowest|largest|smallest|biggest|greatest|"
                     r"fewest|[a-z]+est)\b", re.I)


def stated_offset(question: str) -> int:
    """How many places before the one asked for an ordinal puts its superlative: "the second most
    expensive" -> 1, "the third largest" -> 2; 0 where none does."""
    found = _RANKED.search(question)
    return ORDINALS[found.group(1).lower()] if found else 0


# Words that grade a thing rather than name an attribute: "heaviest", "most expensive", "cheapest".
GRADING_WORDS = frozenset({*SUPERLATIVE_DESCENDING, *_SUPERLATIVE_OF, *ATTRIBUTE_OF, "most", "least"}) - {"first"}


def is_grading_phrase(phrase: str) -> bool:
    """Whether a relation phrase only grades ("heaviest", "most expensive"), naming no attribute."""
    words = re.findall(r"[a-z]+", phrase.lower())
    return bool(words) and all(w in GRADING_WORDS for w in words)
