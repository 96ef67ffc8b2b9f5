"""The question as the model and the readers read it (`read_text`): the same question in the words the
pattern model was trained on. Each rewrite is a paraphrase of everyday English that the model reads
worse than its plain form ("Among the X ..., which one ..." asked directly, "furthest south" as the
lowest latitude, "a single part" as "a part"); the understood question keeps the words as asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from understanding.demonyms import COUNTRY_OF
from understanding.grading import SHOWN_BY, SUPERLATIVE_DESCENDING, plural, singular, stated_ordering
from understanding.groups import GROUPING_WORDS
from understanding.resources import known_words

# "the bill of material PulseCraft Vertex": a kind of two words joined by "of" before a name, which the
# model splits across the pattern ("?u1 | bill | material PulseCraft Vertex"); the name alone says it
_KIND_OF_KIND_BEFORE_NAME = re.compile(
    r"\b(?P<preposition>in|into|of|from|for|to|on|at|with|by) the [a-z]+ of "
    r"(?!(?:the|a|an|our|their|its|product|all|which|whom|whose|that)\b)[a-z]+ (?=['\"‘“]?[A-Z0-9])")


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
_WHICH_OF_OUR = re.compile(r"^(?P<wh>which|what|how\s+many(?=\s+of\s+(?:our|the)\b))\s+of\s+(?:all\s+)?(?:our|the)\s+"
                           r"(?!(?:two|three|four|five|following|above|below|these|those)\b)(?=(?:[a-z-]+\s+){0,2}[a-z]+s\s+(?!of\b)[a-z])",
                           re.IGNORECASE)
# "How much is the Sensor Warp?", "how much is product C721-7900144 (price in EUR)?", 'How much does the service
# "X" cost?', "How much does the Product Analysis service cost?": a named thing's price
_HOW_MUCH_IS_NAMED = re.compile(r"^\s*(?i:how\s+much)\s+(?:(?P<is>is|are)|does|do)\s+(?:the\s+)?"
                                r"(?:(?:product|service|item|hardware(?:\s+item)?)\s+)?[\"“]?"
                                r"(?P<name>[A-Z0-9][\w&'-]*(?:\s+[A-Z0-9][\w&'-]*)*)[\"”]?\s*"
                                r"(?:(?:product|service|item|component|part)\s*)?"
                                r"(?(is)(?:\(\s*(?:price|cost)(?:\s+in\s+[A-Za-z\u20ac$]+)?\s*\))?|cost)\s*[?.!]?\s*$")
# "How many grams does the component Z170-8513315 weigh?", "How many euros does X cost?": a named thing's weight or
# price asked in its unit
_HOW_MANY_UNITS = re.compile(r"^\s*(?i:how\s+many)\s+(?:(?P<weight>grams|kilograms|kilos|g|kg|pounds|ounces)|"
                             r"(?P<price>euros?|dollars?|eur|usd))\s+(?:does|do|did)\s+(?:the\s+)?(?:[a-z]+\s+)?"
                             r"(?P<name>[A-Z0-9][\w&'-]*(?:\s+[A-Z0-9][\w&'-]*)*)\s+"
                             r"(?(weight)weigh|cost)\s*[?.!]?\s*$")
# "How much is Alice Walton worth, in millions?": the worth of a name
_HOW_MUCH_WORTH = re.compile(r"^\s*(?i:how\s+much)\s+(?:is|was|are|were)\s+(?P<name>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)*)"
                             r"\s+worth\s*(?:,?\s*in\s+[a-z]+\s*)?[?.!]?\s*$")
# "How old is the teacher named 'Gustaaf Deloor'?": the model reads "old is the teacher" as one relation; the age of
# a named thing of a kind, asked plainly, it reads well
_HOW_OLD_IS_KIND = re.compile(r"^\s*(?i:how\s+old)\s+(?:is|was)\s+(?P<kind>the\s+[a-z]+(?:\s+[a-z]+)?)\s+"
                              r"(?P<name>(?:named|called)\s+[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)*|"
                              r"(?:(?:named|called)\s+)?['\"“‘][^'\"”’]+['\"”’])"
                              r"\s*[?.!]?\s*$")
# "the best-selling song": the song with the highest sales
_BEST_SELLING = re.compile(r"\bthe\s+(?:best|top)[- ]selling\s+(?P<kind>[a-z]+)\b", re.IGNORECASE)
# "Cheapest sensor?", "Most reliable resistor from Japan?": a superlative noun phrase asked alone
_ELLIPTIC_SUPERLATIVE = re.compile(r"^\s*(?:the\s+)?(?P<phrase>(?:most|least)\s+[a-z]+\s+[a-z]|(?P<word>[a-z]+)\s+[a-z])",
                                   re.IGNORECASE)
# "Who are Liese Adam's colleagues in her department?": who works in the same department as she does
_COLLEAGUES_IN = re.compile(r"^\s*(?:who|which\s+(?:people|employees|persons))\s+are\s+(?P<name>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)'s?"
                            r"\s+(?:colleagues|co-?workers|workmates|teammates)\s+in\s+(?:his|her|their|the)\s+"
                            r"(?P<unit>department|team|group|division|unit|office)\s*\?\s*$", re.IGNORECASE)
# "Is Lili Geier in the same department as Erhard Fried?": asked as "Are A and B in the same X?", which the model
# reads (`?u1 | department | A ; ?u1 | department | B`)
_NAMED_SAME_AS_NAMED = re.compile(
    r"^\s*(?P<aux>(?i:is|was|does|did))\s+(?P<first>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)\s+(?:(?P<verb>work|sit|live|belong|come)s?\s+)?"
    r"(?P<preposition>in|at|from|to)\s+the\s+same\s+(?P<attribute>[a-z]+(?:\s+[a-z]+)?)\s+as\s+"
    r"(?P<second>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)\s*\??\s*$")
_PLURAL_AUXILIARY = {"is": "Are", "was": "Were", "does": "Do", "did": "Did"}
# "any supplier in the same town as Reese-Williams?", as typed into a search box: "Which supplier is in ...?"
_ANY_KIND_PLACED = re.compile(r"^\s*(?i:any)\s+(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s+(?P<rest>(?:in|from|at|near)\s+[^?]+?)\s*\??\s*$")
# "email waldtraud kuttner", "Price Predictive Maintenance?": an attribute typed before a name, as in a search box
_TERSE_ATTRIBUTE = re.compile(r"^\s*(?P<attribute>e-?mail(?:\s+address)?|phone(?:\s+number)?|telephone(?:\s+number)?|"
                              r"address|price|cost|weight|manager|supervisor|boss)\s+(?!(?:of|for|in|from|by|and|or|is|are|"
                              r"the|a|an|all|each|every|our|my|their|his|her)\b)(?P<name>[\w'-]+(?:\s+(?!(?:of|for|in|from|by|with|at|"
                              r"on|and|or)\b)[\w'-]+){0,3}?)\s*[?.!]?\s*$", re.IGNORECASE)
# "price of Predictive Maintenance?", "Weight of A145-1240844": an attribute of a named thing asked alone
_ELLIPTIC_ATTRIBUTE = re.compile(r"^\s*(?:the\s+)?(?P<attribute>(?!(?i:" + _QUESTION_WORDS + r"|list|give|show|name|find|"
                                 r"tell|get|return|display|count|number|all|each|every|any|some|most|least|none)\b)[A-Za-z][a-z]+"
                                 r"(?:\s+(?!(?:the|a|an)\b)[a-z]+){0,2})\s+of\s+(?P<owner>(?:the\s+)?[A-Z0-9][\w'&.-]*(?:\s+(?:of\s+|and\s+|the\s+)?"
                                 r"[A-Z0-9][\w'&.-]*)*)\s*[?.!]?\s*$")
_STATED_VERB = re.compile(r"\b(?:is|are|was|were|do|does|did|has|have|had)\b", re.IGNORECASE)
# "wider than 75 mm but less than 15 mm high": "but" joins two comparisons as "and" does
_BUT_COMPARED = re.compile(r"(?<=\d)(?P<unit>\s*[a-zA-Z\u20ac$%]*)\s+but\s+(?=(?:less|more|[a-z]+er)\s+than\b)")
# "For each country, what is the average age of the singers?": the group put first, read after the question
_GROUP_FIRST = re.compile(r"^\s*(?P<group>(?i:for|in)\s+(?i:each|every)\s+[^,?]+?),\s*(?P<asked>" + _ASKING +
                          r"[^?]*?)\s*(?P<end>[?.!]?)\s*$")
# "Show the name and the number of employees for each department.", "Show each document id together with the number of
# paragraphs it contains.": a count per group, its group shown by an attribute, asked as "How many employees does each
# department have?" (the group is answered beside each count)
_LISTED_WITH_COUNT = (
    re.compile(r"^\s*(?i:show|list|give(?:\s+me)?|return|find|display|what\s+(?:are|is))\s+(?i:me\s+)?(?i:the\s+)?"
               r"(?:(?P<attributes>[a-z]+(?:\s+[a-z]+)?)\s+)?(?i:and|together\s+with|along\s+with|with)\s+(?i:the|their|its)\s+"
               r"(?i:total\s+)?(?i:number|count)\s+of\s+(?P<counted>[a-z]+(?:\s+[a-z]+)?)\s+(?i:for|in|of|per)\s+(?i:each|every)\s+"
               r"(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s*[.?!]?\s*$"),
    re.compile(r"^\s*(?i:show|list|give(?:\s+me)?|return|find|display)\s+(?i:me\s+)?(?i:each|every|all(?:\s+the)?)\s+"
               r"(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s+(?i:and|together\s+with|along\s+with|with)\s+(?i:the|their|its)\s+"
               r"(?i:total\s+)?(?i:number|count)\s+of\s+(?P<counted>[a-z]+(?:\s+[a-z]+)?)\s+(?:(?i:it|they|each)\s+"
               r"[a-z]+(?:\s+(?i:to|in|at|on|for|with))?|(?i:from|in|of|for|at|with)\s+(?i:that|this|each|the\s+same)\s+(?P=kind))"
               r"\s*[.?!]?\s*$"),
)


# "How many museums were opened in each year? Show the opening year and the number of museums.": a count per group,
# then what to show, which a count per group shows anyway (each group beside its count)
_COUNT_THEN_SHOWN = re.compile(r"^(?P<asked>(?i:how\s+many|for\s+(?:each|every))[^?]*\?)\s+"
                               r"(?i:show|list|give(?:\s+me)?|return|display)\b[^?.!]*\b(?i:number|count|total)\b[^?.!]*[.?!]?\s*$")


def _count_per_listed(question: str) -> str:
    """"Show the name and the number of employees for each department." as "How many employees does each department
    have?"; a count per group followed by what to show ("... in each year? Show the year and the number of
    museums.") as the count alone; the question as it is where it has no such shape."""
    restated = _COUNT_THEN_SHOWN.match(question)
    if restated is not None and GROUPING_WORDS.search(restated.group("asked")):
        return restated.group("asked")
    for shape in _LISTED_WITH_COUNT:
        found = shape.match(question)
        if found is None:
            continue
        words = found.group("kind").split()
        if words[-1].lower() in SHOWN_BY:  # "each document id": the documents, shown by their ids
            words = words[:-1]
        shown = (found.groupdict().get("attributes") or "name").split()
        if not words or not (set(w.lower() for w in shown) & SHOWN_BY or shown == found.group("kind").split()):
            continue  # (the kind itself shown: "Show the nationality and the number of players of each nationality")
        return f"How many {found.group('counted')} does each {' '.join([*words[:-1], singular(words[-1])])} have?"
    return question


_ASKED = re.compile(r"(?i:" + _QUESTION_WORDS + r"|in|on|at|from|for)\b")  # a question ("In which city ..."), not an imperative
# "In which country is the supplier of the cheapest sensor located?": the place of a thing described by a
# superlative (the model reads "the supplier of X" well, the chain to a superlative not)
_PLACE_OF_A_DESCRIBED_THING = re.compile(r"^\s*(?:in|at)\s+which\s+(?P<kind>[a-z]+)\s+(?:is|are|was|were)\s+"
                                         r"(?P<thing>the\s+[a-z].*?\s+of\s+.+?)\s+(?:located|based|situated|headquartered)\s*\?\s*$"
                                         r"|^\s*from\s+which\s+(?P<origin>[a-z]+)\s+(?:comes?|is|are)\s+(?P<coming>the\s+[a-z].*?"
                                         r"\s+of\s+.+?)(?:\s+from)?\s*\?\s*$", re.IGNORECASE)
# "of the products managed by Karen Brant", "of the products Karen Brant manages": things described by a
# participle and a name, or by a name and its verb
_DESCRIBED_BY_NAME = re.compile(r"\bof\s+(?:the\s+)?[a-z]+\s+(?:[a-z]+(?:ed|en)\s+(?:by|in|from|at)\s+(?:the\s+)?[A-Z0-9]|"
                                r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*\s+[a-z]+s\b)")  # "... managed by X", "... X manages"
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
_DIRECTIONS = "|".join(_COMPASS)  # north|south|east|west
_PLACED = "located|situated|based|lying"
_COMPASS_EXTREME = re.compile(r"\b(?:(?:is|are|was|were)\s+)?(?:(?:" + _PLACED + r"|lies|lie)\s+)?(?:the\s+)?"
                              r"(?:furthest|farthest|most)\s+(?:to\s+the\s+)?(?P<direction>" + _DIRECTIONS + r")"
                              r"(?:ern|wards?)?\b(?!\s+of\b)", re.IGNORECASE)
_COMPASS_MOST = re.compile(r"\b(?:(?P<direction>" + _DIRECTIONS + r")ernmost|most\s+(?P<adjective>" + _DIRECTIONS + r")ern)"
                           r"\s+(?P<noun>[a-z]+(?:\s+[a-z]+s)?)\b(?P<place>\s+(?:in|from|of)\s+(?:the\s+)?"
                           r"[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*)*)?", re.IGNORECASE)
_COMPASS_BOUND = re.compile(r"\b(?P<copula>(?:is|are|was|were|lies|lie)\s+)?(?:(?:" + _PLACED + r")\s+)?"
                            r"(?:(?:further|farther|more)\s+)?(?P<direction>" + _DIRECTIONS + r")(?:ern)?\s+(?:of|than)\s+"
                            r"(?:(?P<value>-?\d+(?:\.\d+)?)\s*(?:degrees|°)?"
                            r"(?:\s*(?P<hemisphere>" + _DIRECTIONS + r"|[NSEW])(?:ern)?\b)?(?:\s+(?:latitude|longitude)\b)?"
                            r"|the\s+(?:equator|prime\s+meridian|greenwich\s+meridian|meridian))", re.IGNORECASE)
# "for more hardware products than anyone else", "fewer employees than any other department": the most, fewest
_MORE_THAN_ANY = re.compile(r"\b(?P<more>more|fewer|less)\s+(?P<things>[a-z]+(?:\s+[a-z]+){0,2}?)\s+than\s+"
                            r"(?:any(?:one|body|thing)?(?:\s+else)?|any\s+other(?:\s+[a-z]+)?|all\s+(?:the\s+)?others|"
                            r"every(?:one|body|thing)\s+else)(?=\s*[?.!,]|$)", re.IGNORECASE)
# "For which products can the X service be booked?", "To which department does X belong?": the preposition
# put back after the verb, as the readers of "Which products is X responsible for?" read it
_PREPOSITION_FIRST = re.compile(r"^\s*(?P<preposition>for|to|with|from|by|about)\s+(?P<wh>which|what|how\s+many)\s+"
                                r"(?P<kind>[a-z]+(?:\s+[a-z]+)?)"
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
# "In which country is the supplier of the Network Memristor?" (or "of hardware product J731-7469427"): the place
# of a named thing's owner, asked as its attribute ("the country of the supplier of ...")
_PLACE_OF_A_NAMED_THINGS_OWNER = re.compile(
    r"^\s*(?:in|at)\s+which\s+(?P<kind>[a-z]+)\s+(?:is|are|was|were)\s+(?P<thing>the\s+[a-z]+(?:\s+[a-z]+)?\s+of\s+"
    r"(?:the\s+)?(?:[a-z]+\s+){0,2}(?-i:[A-Z0-9][\w&.,'-]*(?:\s+[A-Z0-9][\w&.,'-]*)*))"
    r"(?:\s+(?:located|based|situated|headquartered|registered))?\s*\?\s*$", re.IGNORECASE)
# a product code's start: capitals and digits, ending in a digit ("J731", "E469")
_CODE_START = r"[A-Z][A-Z0-9]*\d"
# "of hardware product J731-7469427": a code after its kind's words
_CODE_AFTER_KIND = re.compile(r"\bof\s+(?:the\s+)?(?:[a-z]+\s+){1,2}" + _CODE_START + r"[\w-]*$")
# "What phone number can I use to reach Karen Brant's manager?": the means of reaching someone is theirs
_USED_TO_REACH = re.compile(r"^\s*(?:what|which)\s+(?P<means>[a-z]+(?:[\s-][a-z]+)?)\s+(?:can|could|should|do|may)\s+"
                            r"(?:i|we|you)\s+use\s+to\s+(?:reach|contact|call|e-?mail|write\s+to)\s+(?P<whom>[^?]+?)\s*\?\s*$",
                            re.IGNORECASE)
# "the bill of material of the NexaCore Integrator": the kind and its "of the" before the name
_KIND_OF_KIND_OF_THE = re.compile(r"\b(?P<preposition>in|of|from|for|to|on|at|with|by) the [a-z]+ of [a-z]+ of "
                                  r"(?:the\s+)?(?=[A-Z0-9])")
# "For how many hardware products is no reliability index recorded?": the things that have none
_NONE_RECORDED = re.compile(r"^\s*for\s+how\s+many\s+(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|are)\s+no\s+"
                            r"(?P<thing>[a-z]+(?:\s+[a-z]+){0,2}?)\s+(?:recorded|stored|given|listed|known|available|"
                            r"specified|on\s+record|on\s+file)\s*\?\s*$", re.IGNORECASE)
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
VERB_VALUE = {"cost": "price", "weigh": "weight"}  # the value a verb says ("cost": the price)
# "On average, how heavy are the products managed by ...?", "How reliable, on average, are the parts ...?": the
# averaged value asked by its adjective
_ADJECTIVE_VALUE = {"heavy": "weight", "expensive": "price", "costly": "price", "reliable": "reliability index",
                    "tall": "height", "high": "height", "wide": "width", "long": "length", "deep": "depth"}
_ADJECTIVE_AVERAGED = re.compile(
    rf"^\s*(?:on\s+average,?\s+how\s+(?P<first>{'|'.join(_ADJECTIVE_VALUE)})|how\s+(?P<between>{'|'.join(_ADJECTIVE_VALUE)}),?"
    r"\s+on\s+average,?)\s+(?:is|are|was|were)\s+(?P<thing>[^?]+?)\s*\?\s*$", re.IGNORECASE)
# "the sum of the prices of all products ...": the total price
_SUM_OF_THE = re.compile(r"\bthe\s+sum\s+of\s+(?:all\s+)?(?:the\s+)?(?P<attribute>[a-z]+?)(?P<plural>ies|s)?\s+of\b", re.IGNORECASE)
# "How much do all products of the category Switch cost in total?", "How much does a service cost on average?":
# the summed or averaged value asked as its attribute
# "How much would it cost to buy one of every product supplied by X?", "If we bought one unit of each ...,
# how much would that cost in total?": the total price of all those things
_ONE_OF_EACH = (r"(?:one(?:\s+unit|\s+piece)?\s+of\s+)?(?:every|each)(?:\s+one)?\s+(?:of\s+)?(?:(?:our|the)\s+)?"
                r"(?P<things>[a-z][\w'-]*(?:\s+[\w'&,-]+)*?)(?:\s+once)?")
_COST_OF_ONE_OF_EACH = re.compile(
    r"^\s*(?:(?:how\s+much|what)\s+(?:would|will|does|do|did)\s+it\s+cost(?:\s+(?:us|me))?(?:\s+(?:altogether|in\s+total|"
    r"overall|combined))?\s+to\s+(?:buy|book|order|purchase|get)\s+" + _ONE_OF_EACH + r"(?:\s+(?:altogether|in\s+total))?"
    r"|if\s+we\s+(?:bought|booked|ordered|purchased)\s+" + _ONE_OF_EACH.replace("things", "things_first")
    + r"\s*,\s*(?:how\s+much|what)\s+would\s+(?:that|it|this)\s+cost(?:\s+(?:us|in\s+total|altogether|overall))*)"
    r"\s*[?.!]?\s*$", re.IGNORECASE)
# "What's the highest reliability index among Encoder products?": the maximum over those things (the model
# reads "highest" before a name as the named thing's own value, ranked)
_EXTREME_OF_NAMED_KIND = re.compile(
    r"^\s*what(?:['’]s|\s+is|\s+was)\s+the\s+(?P<grade>highest|lowest)\s+(?P<attribute>(?-i:[a-z]+)(?:\s+(?-i:[a-z]+))?)\s+"
    r"(?:among|of|for|across)\s+(?:(?:an?|any|all|the|our)\s+)?(?P<named>(?-i:[A-Z][\w-]*)(?:\s+(?-i:[A-Z][\w-]*))*)\s+"
    r"(?P<kind>(?-i:[a-z]+))\s*[?.!]?\s*$", re.IGNORECASE)
_VERB_AGGREGATED = re.compile(r"^\s*how\s+much\s+(?:does|do|did)\s+(?P<thing>.+?)\s+(?P<verb>cost|weigh)\s+"
                              r"(?P<how>in\s+total|altogether|together|combined|overall|in\s+all|on\s+average)\s*\?\s*$",
                              re.IGNORECASE)
# "the hardware products that Wolfgang Martin is product manager for": the things whose product manager is he
_ROLE_FOR = re.compile(r"\b(?P<kind>[a-z]+s)\s+(?:(?:that|which)\s+)?(?P<name>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)+)\s+(?:is|was)\s+"
                       r"(?:the\s+)?(?P<role>[a-z]+(?:\s+[a-z]+)?)\s+(?:for|of)(?=\s*[?.!]?\s*$)")
# "the products Bert Blumstein is responsible for as product manager": the same as "... is the product manager for"
_RESPONSIBLE_AS = re.compile(r"\b(?P<kind>[a-z]+s)\s+(?:(?:that|which)\s+)?(?P<name>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)+)\s+"
                             r"(?:is|was)\s+responsible\s+for\s+as\s+(?:the\s+|an?\s+)?(?P<role>[a-z]+(?:\s+[a-z]+)?)"
                             r"(?=\s*[?.!]?\s*$)")
# "the product manager responsible for Z763-7274829", "the manager who is responsible for X": a person's role
# over a thing said by "responsible for", which means the role's "of"
_ROLE_RESPONSIBLE = re.compile(r"\b(?P<role>(?:[a-z]+\s+)?(?:manager|owner|lead|head|supervisor|contact|engineer|"
                               r"officer|coordinator))\s+(?:(?:who|that)\s+(?:is|was)\s+)?responsible\s+for\s+", re.IGNORECASE)
# "the Marketing dept": a department
_DEPT = re.compile(r"\b(?P<dept>[Dd])ept(?P<plural>s)?\b\.?(?=\s|[,?!]|$)")
# "the largest quantity of a single part": "single" and "individual" only stress the article
_SINGLE = re.compile(r"\b(?P<article>a|an|one|each|any|every)\s+(?:single|individual)\s+(?=[a-z])", re.IGNORECASE)
# "How many units of parts in total are needed to build X?", "the total number of component units": the
# summed quantity, which graphs keep as a value of each part line ("quantity"), not as things to count
_UNITS_IN_TOTAL = re.compile(r"^\s*how\s+many\s+(?:units|pieces)(?:\s+of\s+(?P<things>[a-z]+(?:\s+[a-z]+)?))?\s+"
                             r"(?:in\s+total|altogether|overall|in\s+all)\s+(?:(?:are|is|were|was|do|does)\s+)?(?P<rest>.+)$",
                             re.IGNORECASE)
# "the manager of the product manager of the product Multiplexer Capacitor": at the end of a chain of "of", a
# name's kind word before it only hides where the name starts ("the product Multiplexer" read as a role)
_CHAIN_END_KIND = r"(?:hardware\s+)?(?:product|service|supplier|employee|part|hardware|department)\s+"
# (without "the", only before a code: "of product E469-1218832", not "a part of department 520")
_KIND_WORD_ENDING_A_CHAIN = re.compile(r"(?P<chain>\bof\b.*\bof\s+)(?:the\s+" + _CHAIN_END_KIND + r"(?=[A-Z0-9])|"
                                       + _CHAIN_END_KIND + r"(?=" + _CODE_START + r"))")
# "Which departments other than Marketing have more than 6 members?": a named exception after the asked kind,
# read without it (`understanding.repairs.with_named_exception` puts it back as `other Marketing`)
_EXCEPTED = (r"\s+(?:other\s+than|besides|except(?:\s+for)?|excluding|apart\s+from|not\s+counting)\s+(?:the\s+)?"
             r"(?P<name>[A-Z][\w&.'-]*(?:,?\s+(?:and\s+)?[A-Z][\w&.'-]*)*)")
NAMED_EXCEPTION = re.compile(r"(?<=[a-z]s)" + _EXCEPTED + r"(?:\s+(?:department|category|supplier|service|product|team))?"
                             r"(?=\s+[a-z])")
# "..., not counting Lili herself?", "..., excluding Drake Ltd?": an exception said last, read without it
TRAILING_EXCEPTION = re.compile(r",?" + _EXCEPTED + r"(?:\s+(?:herself|himself|itself|themselves))?(?=\s*[?.!]?\s*$)")
# "taller than the Ceramic Potentiometer Gauge Encoder (Z293-3675192)": a name compared with, its code in brackets,
# is the code
_NAME_WITH_CODE = re.compile(r"\bthan\s+(?:the\s+)?(?:[A-Z][\w-]*\s+){1,6}\((?P<code>(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{4,})\)")
# "after January 1, 2005", "before 9 March 2018": a date written in words, compared and matched as an ISO date
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
           "december")
_MONTH = r"(?P<month>" + "|".join(f"{m[:3]}(?:{m[3:]})?" if len(m) > 3 else m for m in _MONTHS) + r"|sept)\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_WRITTEN_DATES = (re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+(?P<year>\d{{4}})\b", re.IGNORECASE),
                  re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+(?P<year>\d{{4}})\b", re.IGNORECASE))


def _iso_date(found: re.Match[str]) -> str:
    """A `_WRITTEN_DATES` match as YYYY-MM-DD (as written where the day cannot be one)."""
    month = next(i for i, m in enumerate(_MONTHS, 1) if m.startswith(found.group("month").lower()[:3]))
    day = int(found.group("day"))
    return f"{found.group('year')}-{month:02d}-{day:02d}" if 1 <= day <= 31 else found.group()


# "from California (CA)", "the International Conference on Software Architecture (ICSA)": a name's abbreviation in
# brackets after it says the name again (and the bracket cuts the name the model copies)
_NAME_THEN_ABBREVIATION = re.compile(r"\b(?P<name>[A-Z][a-z]{2,})\s*\([A-Z]{2,6}\)")
# "the hardware product with the ID K334-8882985": a thing named by its identifier is the identifier
_WITH_THE_ID = re.compile(r"\bthe\s+(?:[a-z]+\s+){1,2}?(?:with|having)\s+the\s+(?:ID|id|identifier|code|product\s+number)\s+"
                          r"(?P<code>(?=[\w-]*\d)[A-Z0-9][\w-]*)")
# "the hardware products the department Production is responsible for": the department named before its kind
_DEPARTMENT_FIRST = re.compile(r"\bthe\s+department\s+(?P<name>[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*)*)")
# "Which part of ElectroMech ProDrive is needed in the largest quantity?", "Which product of X has the highest
# price?": the thing of a name with the extreme value, asked as "What is the part of X with the largest quantity?"
_OF_NAME_WITH_THE_EXTREME = re.compile(
    r"^\s*(?i:which)\s+(?P<noun>[a-z]+)\s+of\s+(?P<name>(?:the\s+)?(?:[a-z]+\s+){0,3}?[A-Z0-9][^?]*?)\s+"
    r"(?:has|is\s+(?:needed|used|required|included|contained)\s+in|comes\s+in)\s+the\s+"
    r"(?P<grade>largest|highest|greatest|biggest|smallest|lowest)\s+(?!(?:average|mean|total)\b)"
    r"(?P<attribute>[a-z]+(?:\s+[a-z]+)?)\s*\?\s*$")
# "Which parts are needed in a quantity of more than 60 in the bill of material X?", "In the X BOM, which parts are
# used in a quantity of at least 40?": the parts of X whose quantity is bounded (a value of each part line)
_NEEDED_IN_QUANTITY = re.compile(
    r"^\s*(?:in\s+(?P<first>[^,]+?),\s*)?(?P<wh>which|what)\s+(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s+(?:are|is)\s+"
    r"(?:needed|used|required|included|contained)\s+(?:in|with)\s+(?:an?\s+)?(?:quantity|quantities|amounts?)\s+(?:of\s+)?"
    r"(?P<bound>(?:more|fewer|less|greater)\s+than|at\s+least|at\s+most|over|under|above|below)\s+(?P<value>\d+)"
    r"(?:\s+(?:in|for)\s+(?P<last>[^?.!]+?))?\s*[?.!]?\s*$", re.IGNORECASE)
# "How many parts are needed in total for the bill of material X?": "in total" sums each part line's quantity
_THINGS_IN_TOTAL = re.compile(r"^\s*how\s+many\s+(?P<things>parts|components|pieces|units|items)\s+(?:are|is)\s+"
                              r"(?:needed|required|used)\s+(?:in\s+total|altogether|overall|in\s+all)\s+"
                              r"(?P<rest>(?:for|in|by)\s+.+)$", re.IGNORECASE)
_TOTAL_UNITS = re.compile(r"\btotal\s+number\s+of\s+(?:[a-z]+\s+)?(?:units|pieces)\b", re.IGNORECASE)
# "furthest west, i.e. has the smallest longitude": a restatement of what was just asked, left out
_RESTATED = re.compile(r"\s*(?:,\s*|\s\()(?:i\.\s?e\.|that is,|in other words,?|(?:summing|adding|counting|taking)\s+(?:up\s+)?"
                       r"(?:the|all|its|their)\b)[^),?]*\)?(?=\s*[?.!]?\s*$)", re.IGNORECASE)
# "the average price in EUR of ...": the unit after the attribute says nothing the attribute does not
_UNIT_AFTER_ATTRIBUTE = re.compile(r"\b(?P<attribute>price|cost|weight|height|width|depth|length|much|heavy|tall|wide|deep|"
                                   r"long)\s+\(?in\s+(?:EUR|euros?|USD|"
                                   r"dollars?|grams?|g|kg|kilograms?|mm|cm|millimet(?:er|re)s|centimet(?:er|re)s)\b\)?",
                                   re.IGNORECASE)  # also "(in grams)"
# "What is the address of the property called park?": a name typed in lower case after "the <kind> called" (or
# "named"), which the model drops; quoted, it reads it as the name ("the property named 'park'"); not "a streetcar
# named desire", a title
_CALLED_IN_LOWER_CASE = re.compile(r"\bthe\s+(?P<kind>[a-z]+)\s+(?:called|named)\s+(?P<name>(?!(?:after|by|for|in|on|at|the|a|an|as|"
                                   r"to|from|with|of|and|or)\b)[a-z][\w-]*(?:\s+(?!(?:have|has|had|is|are|was|were|do|does|did)\b)[a-z][\w-]*){0,2})"
                                   r"(?=\s*[?.!]?\s*$)")
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
    def extreme_of(direction: str) -> str:  # "south": "the lowest latitude"
        coordinate, up = _COMPASS[direction.lower()]
        return f"the {'highest' if up else 'lowest'} {coordinate}"

    def extreme(found: re.Match[str]) -> str:
        return f"has {extreme_of(found.group('direction'))}"

    def most(found: re.Match[str]) -> str:
        place = found.group("place") or ""
        end = "." if place.endswith(".") else ""  # "... in Canada.": the sentence's stop stays last
        return f"{found.group('noun')}{place.removesuffix('.')} with " \
               f"{extreme_of(found.group('direction') or found.group('adjective'))}{end}"

    def bound(found: re.Match[str]) -> str:
        coordinate, up = _COMPASS[found.group("direction").lower()]
        value = found.group("value") or "0"
        if (found.group("hemisphere") or "n")[0].lower() in "sw" and not value.startswith("-"):
            value = "-" + value  # "30 degrees south": -30
        return f"{'have' if found.group('copula') else 'with'} a {coordinate} {'greater' if up else 'less'} than {value}"

    question = _COMPASS_MOST.sub(most, question)
    question = _COMPASS_EXTREME.sub(extreme, question)
    return _COMPASS_BOUND.sub(bound, question)


# "Hi, ...", "Please list ...", "Could you tell me which ...", "Can I get the email of ...", "..., please.": the
# words around the question that ask politely; what they ask is the question itself
_GREETING = re.compile(r"^\s*(?:hi|hello|hey|dear\s+\w+)(?:\s+there)?\s*[,!.:;-]*\s+(?=\w)", re.IGNORECASE)
_POLITE_ASKING = re.compile(r"^\s*(?:(?:please|kindly)\s+|(?:can|could|would|will)\s+you\s+(?:please\s+|kindly\s+)?"
                            r"(?:(?:tell|show)\s+me\s+|let\s+me\s+know\s+|find\s+out\s+)?|i(?:'d| would)\s+like\s+to\s+know\s+"
                            r"|i\s+want\s+to\s+know\s+|do\s+you\s+know\s+)(?=\w)", re.IGNORECASE)
_MAY_I_HAVE = re.compile(r"^\s*(?:(?:can|could|may)\s+i\s+(?:please\s+)?(?:get|have|see)|"
                         r"i\s+(?:need|want)(?=\s+(?:the|all)\b)(?!.*\b(?:what|which|who|how)\b))\s+(?=\w)", re.IGNORECASE)
_POLITE_END = re.compile(r"\s*,?\s+please\s*(?=[?.!]?\s*$)", re.IGNORECASE)
# "Who did Anne Koziolek co-author papers with?", "Who has co-authored a paper with X?", "Who has X written papers
# with?": X's co-authors
_WRITTEN_WITH = r"(?:co-?authored|co-?written|co-?wrote|co-?authors?|co-?write|written|wrote|write|authored|author|published)"
_PAPERS = r"(?:(?:on\s+)?(?:a\s+)?(?P<papers>papers?|publications?|articles?)\s+)?"
_COAUTHORS_OF = (
    re.compile(r"^\s*(?i:who|which\s+(?:people|persons|authors|researchers))\s+(?:(?:has|have|did)\s+)?(?P<verb>"
               + _WRITTEN_WITH + r")\s+" + _PAPERS + r"with\s+(?P<name>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)+)\s*[?.!]?\s*$"),
    re.compile(r"^\s*(?i:who|whom|with\s+whom)\s+(?:has|have|did)\s+(?P<name>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)+)\s+"
               r"(?P<verb>" + _WRITTEN_WITH + r")\s+" + _PAPERS + r"(?:with)?\s*[?.!]?\s*$"),
)
# "... in this collection?", "across the whole dataset", "Which papers in the collection are ...?": the graph asked is
# the collection; the words say nothing more
_IN_THIS_COLLECTION = re.compile(r"\s+(?:in|of|from|across|within)\s+(?:this|the(?:\s+whole)?|our)\s+"
                                 r"(?:collection|dataset|data\s+set|knowledge\s+graph|graph)"
                                 r"(?=\s*[?.!,]?\s*$|\s+(?:is|are|was|were|have|has|had|do|does|did|appear(?:ed|s)?|"
                                 r"came|come|studied|stud(?:y|ies)|used?|uses)\b)", re.IGNORECASE)
# "Who is the most prolific author?": the author with the most publications
_MOST_PROLIFIC = re.compile(r"^\s*(?:who|which\s+[a-z]+)\s+(?:is|was)\s+the\s+(?P<end>most|least)\s+prolific\s+"
                            r"(?P<kind>author|researcher|writer|scholar|scientist)\s*[?.!]?\s*$", re.IGNORECASE)
# "Please list everyone who reports to X." asks "Who reports to X?"
_EVERYONE_WHO = re.compile(r"^\s*(?:list|show|give\s+me|name|find)\s+(?:all\s+)?(?:everyone|everybody|anyone|anybody|"
                           r"(?:all\s+)?(?:the\s+)?(?:people|persons|employees|staff)|all\s+those|those)\s+who\s+(?P<rest>.+?)"
                           r"\s*[.?!]?\s*$", re.IGNORECASE)
# "deliver at least one Capacitor": a Capacitor (not a count: "at least one" is there being one)
_AT_LEAST_ONE = re.compile(r"\bat\s+least\s+one\s+(?=[A-Za-z])(?!(?:of|more|other)\b)", re.IGNORECASE)
# "in charge of" says "responsible for"
_IN_CHARGE_OF = re.compile(r"\b(?:is|are|was|were)\s+in\s+charge\s+of\b", re.IGNORECASE)
# "whoever heads the Data Services department": the head of it
_WHOEVER = re.compile(r"\bwhoever\s+(?P<verb>heads|leads|manages|runs)\s+(?=the\b|[A-Z])")
# "the boss of whoever is product manager for the Aluminum Switch": the role's holder
_WHOEVER_IS = re.compile(r"\bwhoever\s+is\s+(?:the\s+)?(?P<role>[a-z]+(?:\s+[a-z]+)?)\s+(?:for|of)\s+(?=the\b|[A-Z0-9])")
_WHOEVER_ROLE = {"heads": "head", "leads": "lead", "manages": "manager", "runs": "head"}
# "Which department has the most people in it?": "in it" says nothing more
_IN_IT = re.compile(r"\b(?P<counted>(?:most|fewest|least|more|fewer)\s+[a-z]+)(?:\s+(?:working|employed|listed|based))?\s+in\s+"
                    r"(?:it|them)(?=\s*[?.!]?\s*$)", re.IGNORECASE)
# "Which people have Sensor as an area of expertise?": expertise in Sensor
_AS_AREA = re.compile(r"\b(?P<have>have|has)\s+(?P<thing>[A-Za-z][\w-]*(?:\s+[A-Z][\w-]*)*)\s+as\s+(?:an?|their|his|her)\s+"
                      r"(?:area|field)\s+of\s+(?P<what>expertise|responsibility|interest)\b")
# "Who in Procurement has expertise in coils?": the people in Procurement
_WHO_IN = re.compile(r"^\s*(?i:who)\s+(?P<preposition>in|from|at)\s+(?P<place>(?:the\s+)?[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*)*"
                     r"(?:\s+(?:department|team))?)\s+(?P<verb>has|is|was|[a-z]+s)\b")
_PLURAL_VERB = {"has": "have", "is": "are", "was": "were"}
# "Where does Elena Herzog live? I need her address.": the question the second sentence says it asks
_NEED_ITS = re.compile(r"^(?P<first>(?:[^?.!]*?\s)?(?P<name>[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)+)\b[^?.!]*)[?.!]\s+"
                       r"(?i:i\s+(?:need|want|am\s+looking\s+for)|(?:please\s+)?(?:give|send|tell)\s+me)\s+"
                       r"(?i:his|her|their|its)\s+(?P<wanted>(?!list\b)[a-z]+(?:[\s-][a-z]+)?)\s*[.!?]?\s*$")
# "the best reliability index any of our Oscillators reaches": the best of our Oscillators
_ANY_REACHES = re.compile(r"\b(?:that\s+)?any\s+(?:of\s+)?(?P<owner>our|the)\s+(?P<kind>(?:[A-Za-z]+\s+)?[A-Za-z]+s)\s+"
                          r"(?:reaches|reach|has|have|gets|get|achieves|achieve|attains|attain)(?=\s*[?.!]?\s*$)")
# "the least reliable Encoder we carry", "the lowest price we pay for a Switch": what "we" do says nothing more
_WE_DO = re.compile(r"(?<=[A-Za-z])(?<!\bdo)(?<!\bdid)(?<!\bcan)(?<!\bwill)(?<!\bwould)(?<!\bcould)\s+(?:that\s+|which\s+)?"
                    r"we\s+(?:carry|stock|sell|have|offer|keep|use)(?=\s*[?.!]?\s*$)"
                    r"|\b(?P<price>price|cost)\s+we\s+(?:pay|charge)\s+(?=for\b)", re.IGNORECASE)
# "the second-largest number": the ordinal and the superlative as two words
_HYPHENATED_ORDINAL = re.compile(r"\b(?P<ordinal>second|third|fourth|fifth)-(?=(?:[a-z]+est|most|least)\b)", re.IGNORECASE)
# "For the Sensor category, which ...?": the group said first, put after the question ("... in the Sensor category?")
_GROUP_SAID_FIRST = re.compile(r"^\s*(?i:for|in|within)\s+(?P<group>the\s+(?:[A-Z][\w&-]*\s+)+(?:category|department|team|"
                               r"group|division)|the\s+(?:category|department|team|group|division)\s+[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*)*)"
                               r"\s*,\s*(?P<asked>(?i:which|what|who|how)\b[^?]*?)\s*\?\s*$")
# "Top 3 heaviest products from Japan": a ranking asked without a verb
_ELLIPTIC_TOP = re.compile(r"^\s*(?P<top>top\s+(?:\d+|two|three|four|five|ten))\s+(?P<rest>[a-z][^?]*?)\s*[?.!]?\s*$", re.IGNORECASE)
# "the Marketing department's most expensive hardware product": the possessive as "of"
_GROUP_POSSESSIVE = re.compile(r"\bthe\s+(?P<owner>(?:[A-Z][\w&-]*\s+)+(?:department|team|group|division|category))['’]s\s+"
                               r"(?P<thing>(?:(?:most|least)\s+[a-z]+\s+|[a-z]+est\s+)?[a-z]+(?:\s+[a-z]+)?)(?=\s*[?.!,]|\s*$)")
# "the hardware whose reliability index is above 0.96": "with a reliability index above 0.96"
_WHOSE_BOUND = re.compile(r"\b(?P<kind>[a-z]+)\s+whose\s+(?P<attribute>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|are)\s+"
                          r"(?P<bound>(?:above|below|over|under|(?:more|less|greater|higher|lower)\s+than|at\s+(?:least|most))\s+[\d.]+)")
# "breakers heavier than 18 g", "sensors cheaper than 2 EUR?": a kind compared, asked without a verb
_ELLIPTIC_COMPARISON = re.compile(r"^\s*(?:all\s+)?(?P<kind>(?:[a-z]+\s+)?[a-z]+s)\s+(?P<compared>(?:[a-z]+er|more\s+[a-z]+|"
                                  r"less\s+[a-z]+)\s+than\s+[^?]+?)\s*[?.!]?\s*$", re.IGNORECASE)
# "Are there hardware items that we sell for less than 5 cents? Which ones?": which they are
_ARE_THERE_WHICH = re.compile(r"^\s*(?:are|is)\s+there\s+(?:any\s+)?(?P<things>[^?]+?)\s*\?\s*(?:and\s+)?(?:if\s+so,?\s+)?"
                              r"(?:which|what)\s+(?:ones|are\s+they|ones\s+are\s+they)\s*\??\s*$", re.IGNORECASE)


# "Sits the supplier Swanson-Kennedy in Germany?", "Costs the service X less than 1000 EUR?": a yes/no question
# with the verb first, as German asks it
_VERB_FIRST = re.compile(r"^\s*(?P<verb>sits|costs|weighs|belongs|works|lives|comes|supplies|manages|contains|lies|"
                         r"includes|delivers|produces|offers|provides|reports|has)\s+"
                         r"(?P<subject>(?:the\s+)?(?:[a-z]+\s+){0,2}?(?-i:[A-Z0-9][\w&.'-]*(?:,?\s+(?:and\s+)?[A-Z0-9][\w&.'-]*)*))"
                         r"\s+(?P<rest>[^?]+?)\s*\?\s*$", re.IGNORECASE)
_VERB_BASE = {"has": "have", "supplies": "supply", "lies": "lie"}
# "a weight of 19 gram or more", "two or more members": the bound said after the value
_OR_MORE = re.compile(r"\b(?P<value>(?:\d[\d,.]*|(?-i:two|three|four|five|six|seven|eight|nine|ten)(?=\s+or\s+(?:more|fewer|less)\b))"
                      r"(?:\s*[A-Za-z]+)?)\s+or\s+(?P<way>more|above|higher|greater|over|less|fewer|"
                      r"below|lower|under)\b", re.IGNORECASE)
# "all columns of the albums", "all details for each swimmer": a table's row, said of the things themselves
_ALL_COLUMNS = re.compile(r"\ball\s+(?:the\s+)?(?:columns|details|fields|data)\s+(?:of|for|about|from|on)\b", re.IGNORECASE)
# "the email from the manager of ...": an attribute "from" its holder, as German says it ("von")
_ATTRIBUTE_FROM = re.compile(r"\b(?P<attribute>e-?mail(?: address)?|phone(?: number)?|address|price|salary)\s+from\s+(?=the\b)",
                             re.IGNORECASE)
# "whats the cheapest part ...": a contraction typed without its apostrophe
_UNMARKED_IS = re.compile(r"\b(what|where|who|how|which)s\b", re.IGNORECASE)


def _asked_with_does(question: str) -> str:
    """A verb-first yes/no question asked with "does" ("Sits the supplier X in Germany?" -> "Does the
    supplier X sit in Germany?"); "Has X published ..." is a perfect tense and stays."""
    first = _VERB_FIRST.match(question)
    if first is None:
        return question
    verb = first.group("verb").lower()
    if verb == "has" and not re.match(r"(?:a|an|any|some|more|less|fewer|at|no|\d)\b", first.group("rest"), re.IGNORECASE):
        return question
    return f"Does {first.group('subject')} {_VERB_BASE.get(verb, verb[:-1])} {first.group('rest')}?"


def _bound_first(found: re.Match[str]) -> str:
    """"19 gram or more" as "at least 19 gram", "5 EUR or less" as "at most 5 EUR"."""
    lower_bound = found.group("way").lower() in ("more", "above", "higher", "greater", "over")
    return ("at least " if lower_bound else "at most ") + found.group("value")


# "suppliers from brazil", "Lili Geier's department", "height of the Film Oscillator in mm": a noun phrase typed as
# into a search box, asked for
_NOT_BARE = re.compile(r"^\s*(?:" + _QUESTION_WORDS + r"|in|on|at|from|for|list|give|show|name|find|count|tell|get|return|"
                       r"display|provide|fetch|retrieve|sort|rank|order|please|i|we|what['’]?s|who['’]?s|where['’]?s|"
                       r"compute|calculate|determine|identify|select|search|look|lookup|enumerate|output|report|"
                       r"summari[sz]e|describe|explain|locate|see|check|let|a\s+list|the\s+list)\b|"
                       r"\b(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|shall|may|might|must|"
                       r"which|what|who|whom|whose|where|when|how)(?:n['’]?t)?\b|[.!]\s+(?-i:[A-Z])", re.IGNORECASE)


def _bare_noun_phrase_asked(question: str) -> str:
    """A bare noun phrase, typed without a final mark, as "Give me <it>." (a common noun first with "the");
    anything else as it is."""
    text = question.strip()
    if len(text.split()) < 3 or text.endswith((".", "!", "?")) or _NOT_BARE.search(text):  # "NIPS authors" is read well
        return question
    first, second = text.split()[:2]
    if first[:1].isupper() and (second[:1].isupper() or "'" in first or "’" in first or first.isupper()):
        return f"Give me {text}."  # a name first: "Lili Geier's department"
    if re.match(r"(?:the|a|an|all|our|every|each|any|some|\d)", first, re.IGNORECASE):
        return f"Give me {text[:1].lower()}{text[1:]}."
    return f"Give me the {text[:1].lower()}{text[1:]}."


# words questions ask with, whose misspellings ("avrage", "Whcih", "suplier", "reliabilty") cost a reading
_COMMON_WORDS = frozenset(" ".join("""
which what where when whose average maximum minimum number total amount highest lowest largest smallest biggest
cheapest heaviest lightest expensive greatest oldest youngest newest latest supplier suppliers product products
category categories department departments employee employees manager managers customer customers company
companies service services hardware price prices quantity quantities reliability weight height width depth length
compatible located based country countries city cities account address material materials responsible eligible
together including between greater fewer sorted ordered descending ascending alphabetical manufacturer
manufacturers member members order orders part parts component components email emails phone phones
telephone contact people person persons staff colleague colleagues expertise team teams location
""".splitlines()).split())


def _one_edit_apart(word: str, other: str) -> bool:
    """Whether one letter added, dropped, changed or two neighbours swapped turn `word` into `other`."""
    if abs(len(word) - len(other)) > 1 or word == other:
        return False
    if len(word) == len(other):
        diffs = [i for i, (a, b) in enumerate(zip(word, other, strict=True)) if a != b]
        return len(diffs) == 1 or (len(diffs) == 2 and diffs[1] == diffs[0] + 1 and
                                   word[diffs[0]] == other[diffs[1]] and word[diffs[1]] == other[diffs[0]])
    short, long = (word, other) if len(word) < len(other) else (other, word)
    i = next((i for i, (a, b) in enumerate(zip(short, long, strict=False)) if a != b), len(short))
    return short[i:] == long[i + 1:]


def _terse_attribute(question: str) -> str:
    """"email waldtraud kuttner" as "What is the email of Waldtraud Kuttner?" (its name capitalised)."""
    terse = _TERSE_ATTRIBUTE.match(question)
    if terse is None or _STATED_VERB.search(question) is not None:
        return question
    words = terse.group("name").split()
    known = known_words()
    if all(w.islower() and w.isalpha() and w in known for w in words):  # "price list": common words, no name
        return question
    name = " ".join(w[:1].upper() + w[1:] for w in words)
    return f"What is the {terse.group('attribute').lower()} of {name}?"


def spelled(question: str) -> str:
    """Common question words spelled right ("avrage price per product category" -> "average ..."): a word
    of five or more lower-case letters (the first word may be capitalised) that no English vocabulary knows
    (`resources.known_words`), nor its singular, and that one edit makes one of `_COMMON_WORDS` and no other,
    with its first letter kept. Names and known words stay."""
    return re.sub(r"(?<![\w'-])[A-Za-z][a-z]{4,}(?![\w'-])", _spelled_word, question)


def _spelled_word(found: re.Match[str]) -> str:
    word = found.group(0)
    lower = word.lower()
    if lower in _COMMON_WORDS or (word != lower and found.start() > 0):  # a capital inside: part of a name
        return word
    known = known_words()
    if not known or lower in known or re.sub(r"e?s$", "", lower) in known:  # "prixes": a known word's plural
        return word
    fits = [w for w in _COMMON_WORDS if w[0] == lower[0] and _one_edit_apart(lower, w)
            and (len(lower) > 5 or sorted(w) == sorted(lower))]  # a five-letter word: two letters swapped only
    if len(fits) != 1:
        return word
    return fits[0] if word == lower else fits[0][:1].upper() + fits[0][1:]


def asked_plainly(question: str) -> str:
    """The question without the words that ask it politely or as a chat would ("Hi, which oscillator
    ...", "Could you tell me which ...", "Can I get the email ...", "I need the email ...", "..., please"), "List
    everyone who X" as "Who X?", "Who did X co-author papers with?" as "Who are the co-authors of X?", "in
    this collection" said last left out, "the most prolific author" as the author with the most publications,
    "whoever heads the X" as "the head of the X", "whoever is product manager for X" as "the product manager of
    X", "in it" after a count left out, a kind
    compared without a verb ("breakers heavier than 18 g") as "Which breakers are heavier than 18 g?", and
    "Are there X? Which ones?" as "Which X?", a bare noun phrase ("suppliers from brazil") as "Give me the
    suppliers from brazil.", "whats" as "what is", a yes/no question with its verb
    first ("Sits the supplier X in Germany?") as "Does the supplier X sit in Germany?", "19 gram or
    more" as "at least 19 gram", "the email from the manager" as "the email of the manager", and "all columns
    of" or "all details for" the things as "all information about" them."""
    question = _UNMARKED_IS.sub(lambda found: found.group(1) + " is", question)
    question = _asked_with_does(question)
    question = _ATTRIBUTE_FROM.sub(lambda found: found.group("attribute") + " of ", question)
    question = _OR_MORE.sub(_bound_first, question)
    question = _ALL_COLUMNS.sub("all information about", question)
    question = _GREETING.sub("", question)
    question = _POLITE_END.sub("", question)
    if (may := _MAY_I_HAVE.match(question)) is not None:
        question = "Give me " + question[may.end():]
    polite = _POLITE_ASKING.match(question)
    if polite is not None:  # "I'd like to know the addresses of ..." asks for them; "... which ..." is a question
        rest = question[polite.end():]
        question = ("Give me " + rest) if re.match(r"(?:the|a|an|all|our|its|their)\b", rest, re.IGNORECASE) else rest
    collection = _IN_THIS_COLLECTION.search(question)
    if collection is not None and not re.search(r"\b(?:is|are|was|were)$", question[:collection.start()], re.IGNORECASE):
        question = question[:collection.start()] + question[collection.end():]  # (not "Which songs are in the collection?")
    if (prolific := _MOST_PROLIFIC.match(question)) is not None:
        fewest = "fewest" if prolific.group("end").lower() == "least" else "most"
        question = f"Which {prolific.group('kind').lower()} has the {fewest} publications?"
    for shape in _COAUTHORS_OF:
        if (coauthors := shape.match(question)) is not None and re.search(r"\bwith\b", question, re.IGNORECASE) and (
                coauthors.group("verb").lower().startswith("co") or coauthors.group("papers")):
            question = f"Who are the co-authors of {coauthors.group('name')}?"
    if (everyone := _EVERYONE_WHO.match(question)) is not None:
        question = f"Who {everyone.group('rest')}?"
    question = _WHOEVER.sub(lambda found: f"the {_WHOEVER_ROLE[found.group('verb')]} of ", question)
    question = _WHOEVER_IS.sub(lambda found: f"the {found.group('role')} of ", question)
    if (need := _NEED_ITS.match(question)) is not None and len(re.findall(r"\b[A-Z][a-z]+\s+[A-Z]", need.group("first"))) == 1:
        question = f"What is the {need.group('wanted').lower()} of {need.group('name')}?"
    question = _HYPHENATED_ORDINAL.sub(r"\g<ordinal> ", question)
    question = _WE_DO.sub(lambda found: f"{found.group('price')} " if found.group("price") else "", question)
    question = _ANY_REACHES.sub(lambda found: f"of {found.group('owner')} {found.group('kind')}", question)
    question = _AS_AREA.sub(lambda found: f"{found.group('have')} {found.group('what')} in {found.group('thing')}", question)
    if (who := _WHO_IN.match(question)) is not None:
        verb = who.group("verb").lower()
        plural = _PLURAL_VERB.get(verb, verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb)
        question = f"Which people {who.group('preposition').lower()} {who.group('place')} {plural}{question[who.end():]}"
    question = _IN_IT.sub(lambda found: found.group("counted"), question)
    question = _AT_LEAST_ONE.sub("a ", question)
    question = _IN_CHARGE_OF.sub(lambda found: found.group(0).split()[0] + " responsible for", question)
    if (compared := _ELLIPTIC_COMPARISON.match(question)) is not None and not _ASKED.match(question) \
            and not re.match(r"\s*(?:list|give|show|name|find|count)\b", question, re.IGNORECASE):
        question = f"Which {compared.group('kind')} are {compared.group('compared')}?"
    if (there := _ARE_THERE_WHICH.match(question)) is not None:
        question = f"Which {there.group('things')}?"
    if (first := _GROUP_SAID_FIRST.match(question)) is not None:  # after the asked noun where a verb follows it
        asked, group = first.group("asked"), first.group("group")
        noun = re.match(r"(?i:which|what)\s+(?:[a-z]+\s+){0,3}?[a-z]+(?=\s+(?:has|have|is|are|was|were|does|do|did|can)\b)", asked)
        question = (f"{asked[:noun.end()]} in {group}{asked[noun.end():]}?" if noun is not None
                    else f"{asked} in {group}?")
    if (top := _ELLIPTIC_TOP.match(question)) is not None:
        question = f"What are the {top.group('top').lower()} {top.group('rest')}?"
    question = _GROUP_POSSESSIVE.sub(lambda found: f"the {found.group('thing')} of the {found.group('owner')}", question)
    question = _WHOSE_BOUND.sub(lambda found: f"{found.group('kind')} with a {found.group('attribute')} {found.group('bound')}",
                                question)
    question = _bare_noun_phrase_asked(question)
    return question[:1].upper() + question[1:]


# "Which museums have never had any visitors?": have none, said as "have no visitors"
_NEVER_HAD = re.compile(r"\b(?P<have>have|has)\s+never\s+had\s+(?:any\s+|an?\s+)?(?=[a-z])")
# "How many contestants got no votes?": none had, said as "did not get any votes" (which the model reads as a negation)
_PAST_BASE = {"got": "get", "received": "receive", "won": "win", "earned": "earn", "attracted": "attract",
              "obtained": "obtain", "scored": "score", "sold": "sell", "made": "make"}
_VERBED_NONE = re.compile(r"\b(?P<verb>" + "|".join(f"{past}|{base}s|{base}" for past, base in _PAST_BASE.items())
                          + r")\s+no\s+(?=[a-z])")


# "How many contestants ended up with no votes?": got none
_ENDED_UP_WITH_NONE = re.compile(r"\b(?:(?P<past>ended|wound)|(?P<third>ends|winds)|end|wind)\s+up\s+with\s+no\s+(?=[a-z])")


def _did_not_verb_any(found: re.Match[str]) -> str:
    """"got no" as "did not get any", "gets no" as "does not get any", "get no" as "do not get any"."""
    verb = found.group("verb")
    if verb in _PAST_BASE:
        return f"did not {_PAST_BASE[verb]} any "
    return f"does not {verb[:-1]} any " if verb not in _PAST_BASE.values() else f"do not {verb} any "


# "Which members of Data Services have no address on file?", "Which singers don't have any songs in the database?":
# what is had, not a file or a database it is in
_ON_FILE = re.compile(r"(?P<had>\b(?:have|has|had|with)\s+(?:no|an?|any)\s+[a-z][a-z -]*?)\s+(?:on\s+(?:file|record)|"
                      r"in\s+(?:the|our)\s+(?:database|records|system|data))\b")


# "the combined weight in grams of every hardware product in the catalogue": a measure of all of them, not
# one per product; the catalogue is everything
_MEASURE_OF_EVERY = re.compile(r"\b(?P<head>(?:total|combined|overall|summed|average|mean|sum)\s+[a-z]+(?:\s+[a-z]+)?"
                               r"(?:\s+in\s+[a-z]+)?\s+of\s+)every\s+(?P<thing>[a-z]+(?:\s+[a-z]+)?)"
                               r"(?=\s+(?:in|from)\s+(?:the|our)\s+catalog|\s*[?.!]?$)", re.IGNORECASE)
# "Which vendors don't supply us with any products at all?": who is supplied, and "at all", say nothing more
_TO_US = re.compile(r"\b(?P<verb>supply|supplies|supplied|provide|provides|provided|deliver|delivers|delivered|sell|sells|"
                    r"sold)\s+us\s+with\b|\s+at\s+all(?=\s*[?.!]?\s*$)", re.IGNORECASE)
# "the average price of the Capacitor category": the values of the things in it (a category has none of its own)
_MEASURE_OF_CATEGORY = re.compile(r"\b(?P<head>(?:average|mean|total|combined|highest|lowest|maximum|minimum)\s+[a-z]+"
                                  r"(?:\s+index)?)\s+(?:of|in|for)\s+the\s+(?P<name>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)\s+"
                                  r"(?P<group>categor(?:y|ies))\b")
# "how many suppliers do we have in germany", "german suppliers": country names and people's adjectives typed
# in lower case, capitalised as names (the model copies names it sees capitalised)
_COUNTRY_OF_LOWER = {country.lower(): country for country in COUNTRY_OF.values()}
_LOWER_COUNTRY = re.compile(r"\b(?P<preposition>(?:in|from|of|to|at|or|and)(?:\s+the)?)\s+(?P<country>" + "|".join(
    re.escape(c) for c in sorted(_COUNTRY_OF_LOWER, key=len, reverse=True)) + r")\b")
_LOWER_DEMONYM = re.compile(r"\b(?P<adjective>" + "|".join(re.escape(a) for a in sorted(
    (a for a in COUNTRY_OF if len(a) > 4 and "." not in a and a not in ("polish", "britain", "holland")), key=len, reverse=True))
    + r")(?=\s+[a-z]+s\b)")
# a decimal comma ("5,95 Euro"): one or two digits and a unit after it (not a thousands separator, not a list)
_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d{1,2}\s*(?:€|eur|euros?|usd|dollars?|cents?|g|grams?|kg|mm|cm|m|%)(?!\w))",
                            re.IGNORECASE)
# "Which Switch is the most narrow?", "the most light product": "most" before an adjective that grades by
# "-est" is that superlative (a low end's "most" ascends: the most narrow is the narrowest)
_MOST_PLAIN_SUPERLATIVE = {"narrow": "narrowest", "light": "lightest", "cheap": "cheapest", "short": "shortest",
                           "small": "smallest", "thin": "thinnest", "shallow": "shallowest", "low": "lowest",
                           "young": "youngest", "heavy": "heaviest", "wide": "widest", "tall": "tallest",
                           "deep": "deepest", "thick": "thickest", "high": "highest", "large": "largest", "big": "biggest",
                           "old": "oldest", "new": "newest"}
_MOST_PLAIN = re.compile(r"\b(?P<most>most|least)\s+(?P<adjective>" + "|".join(_MOST_PLAIN_SUPERLATIVE) + r")\b(?!\s+(?:of|than)\b)",
                         re.IGNORECASE)


def _most_plain(found: re.Match[str]) -> str:
    if found.group("most").lower() == "least":
        return found.group(0)  # "the least narrow": not said so often that a rule should turn it
    return _MOST_PLAIN_SUPERLATIVE[found.group("adjective").lower()]


# "Which parts are both narrower than 15 mm and less than 15 mm high?": "both" before comparisons says nothing more
_BOTH_COMPARED = re.compile(r"\b(?P<verb>are|is|were|was)\s+both\s+(?=[a-z]+er\s+than\b|(?:less|more|fewer)\s+(?:[a-z]+\s+)?than\b|"
                            r"at\s+(?:least|most)\b|between\b|under\b|over\b|above\b|below\b)", re.IGNORECASE)
# "the price of its most expensive product for each supplier", "the cheapest product price for each
# manager": the maximum or minimum of the values per group
_EXTREME_VALUES = {"most expensive": ("maximum", "price"), "priciest": ("maximum", "price"),
                   "costliest": ("maximum", "price"), "cheapest": ("minimum", "price"),
                   "least expensive": ("minimum", "price"), "heaviest": ("maximum", "weight"),
                   "lightest": ("minimum", "weight"), "most reliable": ("maximum", "reliability"),
                   "least reliable": ("minimum", "reliability")}
_GRADE = r"(?P<grade>" + "|".join(g.replace(" ", r"\s+") for g in _EXTREME_VALUES) + r")"
_PER_EACH = r"(?P<group>\s+(?:(?:for|in|of|per)\s+(?:each|every)|per)\s+[a-z]+(?:\s+[a-z]+)?\s*[?.]?\s*$)"
_EXTREME_VALUE_PER_GROUP = (
    re.compile(r"\bthe\s+(?P<attribute>price|cost|weight|reliability(?:\s+index)?)\s+of\s+(?:its|their|the)\s+" + _GRADE
               + r"\s+(?P<thing>[a-z]+(?:\s+[a-z]+)??)" + _PER_EACH, re.IGNORECASE),
    re.compile(r"\bthe\s+" + _GRADE + r"\s+(?P<thing>[a-z]+(?:\s+[a-z]+)?\s+)??(?P<attribute>price|cost|weight|"
               r"reliability(?:\s+index)?)" + _PER_EACH, re.IGNORECASE))


def _extreme_value_per_group(question: str) -> str:
    for shape in _EXTREME_VALUE_PER_GROUP:
        found = shape.search(question)
        if found is None:
            continue
        measure, value = _EXTREME_VALUES[" ".join(found.group("grade").lower().split())]
        attribute = found.group("attribute").lower()
        if value not in ("price" if attribute == "cost" else attribute):
            continue
        thing = (found.group("thing") or "").strip()
        things = f" of {plural(thing)}" if thing else ""
        return f"{question[:found.start()]}the {measure} {attribute}{things}{found.group('group')}"
    return question


# "the average price of products, broken down by category", "... of hardware by product category?": an
# aggregate per group, as "per" says it (not "supplied by X": a passive's agent)
_GROUPED_BY = re.compile(r"(?:,?\s+(?i:broken\s+down|grouped|split(?:\s+up)?)\s+by|(?<=[a-z])(?<!ed)\s+by)\s+"
                         r"(?:(?i:each|every)\s+)?(?P<group>[a-z]+(?:\s+[a-z]+)?)(?P<end>\s*[?.]?\s*)$")
_AGGREGATE_ASKED = re.compile(r"\b(?:average|mean|total|sum|number|count|maximum|minimum|how\s+many)\b", re.IGNORECASE)


_NOT_GROUPED = re.compile(r"\b(?:order(?:ed)?|sort(?:ed)?|alphabetically|descending|ascending|ranked|top)\b", re.IGNORECASE)
_NOT_GROUPS = frozenset({"them", "it", "him", "her", "us", "me", "you", "count", "descending", "ascending", "name", "size"})


def _grouped_by(question: str) -> str:
    found = _GROUPED_BY.search(question)
    if found is None or _AGGREGATE_ASKED.search(question[:found.start()]) is None or \
            _NOT_GROUPED.search(question) is not None or found.group("group").split()[0].lower() in _NOT_GROUPS or \
            singular(found.group("group").split()[-1]) != found.group("group").split()[-1]:
        return question
    return f"{question[:found.start()]} per {found.group('group')}{found.group('end')}"


# "Name the most recently founded orchestra.": asked as "Which orchestra was founded most recently?", the shape the
# syntax reads as an ordering by the verb's date (the model counts the orchestras)
_BEST_BY_WHEN = re.compile(
    r"^(?:name|which\s+is|what\s+is|who\s+is|what's|who's|give\s+me|show\s+me|tell\s+me|find)\s+the\s+"
    r"(?P<end>most\s+recently|earliest|latest|first|last)\s+(?P<verb>[a-z]+(?:ed|en)|built|made|held|born)\s+"
    r"(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s*[?.!]?$", re.IGNORECASE)
_IN_THE_CATALOGUE = re.compile(r"\s+(?:in|from)\s+(?:the|our)\s+(?:product\s+)?catalog(?:ue)?\b", re.IGNORECASE)
# "Who in the company knows about capacitors?": everyone asked about is in it; the company is no kind or place
_IN_THE_COMPANY = re.compile(r"^(?P<ask>who|which\s+[a-z]+)\s+(?:in|at|within|across)\s+(?:the|our|this)\s+"
                             r"(?:company|organi[sz]ation|firm|business)\s+(?=[a-z])", re.IGNORECASE)


def read_text(question: str) -> str:
    """The question as the model and the readers read it: capitalised and ended by "?" (or "." after
    an imperative) where it was not, the context told before the question left
    out, a group put first ("For each country, what is ...?") put after the question, "Which of our
    <things>" read as "Which <things>", a superlative asked alone ("Cheapest
    sensor?") as "What is the cheapest sensor?", "but" between comparisons as "and", and a kind joined
    by "of" (or an acronym) before or after a name left out ("the parts of the bill of material
    PulseCraft Vertex" or "of the PulseCraft Vertex BOM" -> "the parts of PulseCraft Vertex"), "In which
    country is the supplier of the cheapest X located?" (or "... of the Network Memristor?") as "What is the
    country of the supplier of the cheapest X?", "What phone number can I use to reach X?" as "What is the
    phone number of X?", "Among/Of the products ..., which one ..." asked directly, compass directions as
    coordinates ("furthest south": the lowest latitude), "more X than anyone else" as "the most X", "On average, how heavy are X?" as "What is the average weight of X?", "how
    many units in total" (or "how many parts are needed in total for X") as the total quantity, "which
    parts are needed in a quantity of more than N in X" as "which parts of X have a quantity of more than
    N", "Which part of X is needed in the largest quantity?" as "What is the part of X with the largest
    quantity?", a kind word before the name ending a chain of "of" left out, a named exception ("other than
    Marketing", or said last: "..., not counting Lili herself") left out, a name compared with,
    its code in brackets, read as the code, a name's abbreviation in brackets left out, a date written in words
    ("January 1, 2005") as an ISO date, "got no votes" (or "ended up with no votes") as "did not get any votes", "Show the name and the number
    of Y for each X" as "How many Y does each X have?", "the product with the ID X" as "X",
    "the department X" as "the X department", "dept" as "department", "a single part" as "a part",
    "the product manager responsible for X" as "the product manager of X", "For which X can Y be booked?"
    as "Which X can Y be booked for?", a restatement after "i.e.", "on file" after what is had and "in the
    catalogue" left out, "broken down by X" or "by X" after an aggregate as "per X", "the price of its most
    expensive product for each X" as "the maximum price of products for each X", "both" before comparisons
    left out, "supply us with" as "supply" and a final "at all" left out, "the average price of the X
    category" as "... of the things in the X category", country names and people's adjectives typed in lower
    case capitalised, a decimal comma as a point, "the most narrow" as "the narrowest", a measure
    "of every X" as "of all Xs", an attribute of a name asked alone ("price of X?", "email waldtraud
    kuttner") as "What is the price of X?" (a name typed in lower case capitalised), "Who are X's colleagues
    in her department?" as "Who works in the same department as X?", "Is A in the same X as B?" as "Are A
    and B in the same X?", "any supplier in X?" as "Which supplier is in X?", "How much is X?" as "What is the
    price of X?", "How many grams does X weigh?" as "What is the weight of X?", "How much is X worth?" as
    "What is the worth of X?", "the best-selling X" as "the X with the highest sales", "have never had any X"
    as "have no X", a name typed in lower case after "called" quoted ("the property named 'park'"); the
    understood question keeps the words as asked."""
    question = _count_per_listed(asked_plainly(_terse_attribute(spelled(question))))
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
    worth = _HOW_MUCH_WORTH.match(question)
    if worth is not None:
        question = f"What is the worth of {worth.group('name')}?"
    aged = _HOW_OLD_IS_KIND.match(question)
    if aged is not None:
        question = f"What is the age of {aged.group('kind')} {aged.group('name')}?"
    question = _BEST_SELLING.sub(lambda found: f"the {found.group('kind')} with the highest sales", question)
    priced = _HOW_MUCH_IS_NAMED.match(question)
    if priced is not None:
        question = f"What is the price of {priced.group('name')}?"
    units = _HOW_MANY_UNITS.match(question)
    if units is not None:
        question = f"What is the {'weight' if units.group('weight') else 'price'} of {units.group('name')}?"
    when = _BEST_BY_WHEN.match(question)
    if when is not None:
        question = f"Which {when.group('kind')} was {when.group('verb')} {' '.join(when.group('end').lower().split())}?"
    elliptic = _ELLIPTIC_SUPERLATIVE.match(question)
    word = (elliptic.group("word") or "most").lower() if elliptic is not None else ""
    if word in SUPERLATIVE_DESCENDING and word not in ("first", "best", "max", "min") and \
            _STATED_VERB.search(question) is None:
        phrase = question[elliptic.start("phrase"):]
        question = "What is the " + phrase[:1].lower() + phrase[1:]
    attribute = _ELLIPTIC_ATTRIBUTE.match(question)  # "price of Predictive Maintenance?"
    if attribute is not None and _STATED_VERB.search(question) is None:
        question = f"What is the {attribute.group('attribute').lower()} of {attribute.group('owner')}?"
    placed = _ANY_KIND_PLACED.match(question)
    if placed is not None and _STATED_VERB.search(question) is None:
        kind = placed.group("kind")
        question = f"Which {kind} {'are' if plural(singular(kind)) == kind else 'is'} {placed.group('rest')}?"
    same = _NAMED_SAME_AS_NAMED.match(question)
    if same is not None:
        verb = f"{same.group('verb').lower()} " if same.group("verb") else ""
        question = (f"{_PLURAL_AUXILIARY[same.group('aux').lower()]} {same.group('first')} and {same.group('second')} "
                    f"{verb}{same.group('preposition').lower()} the same {same.group('attribute')}?")
    colleagues = _COLLEAGUES_IN.match(question)
    if colleagues is not None:
        question = f"Who works in the same {colleagues.group('unit').lower()} as {colleagues.group('name')}?"
    question = _RESTATED.sub("", question)
    question = _CALLED_IN_LOWER_CASE.sub(lambda found: f"the {found.group('kind')} named '{found.group('name')}'", question)
    question = _ON_FILE.sub(lambda found: found.group("had"), question)
    question = _NEVER_HAD.sub(lambda found: f"{found.group('have')} no ", question)
    question = _ENDED_UP_WITH_NONE.sub(
        lambda found: "got no " if found.group("past") else "gets no " if found.group("third") else "get no ", question)
    question = _VERBED_NONE.sub(_did_not_verb_any, question)
    question = _MEASURE_OF_EVERY.sub(lambda found: f"{found.group('head')}all {plural(found.group('thing'))}", question)
    question = _IN_THE_CATALOGUE.sub("", question)
    question = _IN_THE_COMPANY.sub(lambda found: f"{found.group('ask')} ", question)
    question = _extreme_value_per_group(_grouped_by(question))
    question = _BOTH_COMPARED.sub(lambda found: found.group("verb") + " ", question)
    question = _MOST_PLAIN.sub(_most_plain, question)
    question = _LOWER_COUNTRY.sub(lambda found: f"{found.group('preposition')} {_COUNTRY_OF_LOWER[found.group('country')]}",
                                  question)
    question = _LOWER_DEMONYM.sub(lambda found: found.group("adjective").title(), question)
    question = _DECIMAL_COMMA.sub(".", question)
    question = _TO_US.sub(lambda found: found.group("verb") or "", question)
    question = _MEASURE_OF_CATEGORY.sub(lambda found: f"{found.group('head')} of the things in the {found.group('name')} "
                                                      f"{found.group('group')}", question)
    question = _UNIT_AFTER_ATTRIBUTE.sub(lambda found: found.group("attribute"), question)
    question = _COUNT_PER_ONE.sub(lambda found: f"{found.group('head')} per "
                                                f"{found.group('group') or found.group('agent') or found.group('container')}", question)
    question = _SINGLE.sub(lambda found: found.group("article") + " ", question)
    question = _DEPT.sub(lambda found: f"{found.group('dept')}epartment{found.group('plural') or ''}", question)
    question = _ROLE_RESPONSIBLE.sub(lambda found: f"{found.group('role')} of ", question)
    for shape in (_ROLE_FOR, _RESPONSIBLE_AS):
        question = shape.sub(lambda found: f"{found.group('kind')} whose {found.group('role')} is {found.group('name')}",
                             question)
    question = _GRADED_MEASURE.sub(_graded_measure, question)
    if (best := _VERB_OF_THE_BEST.match(question)) is not None:
        question = f"What is the {VERB_VALUE[best.group('verb').lower()]} of {best.group('thing')}?"
    question = _SUM_OF_THE.sub(lambda found: f"the total {found.group('attribute')}"
                                             f"{'y' if (found.group('plural') or '').lower() == 'ies' else ''} of", question)
    if (extreme := _EXTREME_OF_NAMED_KIND.match(question)) is not None:
        measure = "maximum" if extreme.group("grade").lower() == "highest" else "minimum"
        question = (f"What is the {measure} {extreme.group('attribute')} of {extreme.group('named')} "
                    f"{plural(extreme.group('kind'))}?")
    if (bought := _COST_OF_ONE_OF_EACH.match(question)) is not None:
        head, _, rest = (bought.group("things") or bought.group("things_first")).partition(" ")
        question = f"What is the total price of all {plural(head)}{' ' + rest if rest else ''}?"
    if (summed := _VERB_AGGREGATED.match(question)) is not None:
        measure = "average" if summed.group("how").lower() == "on average" else "total"
        question = f"What is the {measure} {VERB_VALUE[summed.group('verb').lower()]} of {summed.group('thing')}?"
    if (averaged := _ADJECTIVE_AVERAGED.match(question)) is not None:
        adjective = (averaged.group("first") or averaged.group("between")).lower()
        question = f"What is the average {_ADJECTIVE_VALUE[adjective]} of {averaged.group('thing')}?"
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
    question = TRAILING_EXCEPTION.sub("", NAMED_EXCEPTION.sub("", question, count=1), count=1)
    question = _NAME_WITH_CODE.sub(lambda found: "than " + found.group("code"), question)
    question = _NAME_THEN_ABBREVIATION.sub(lambda found: found.group("name"), question)
    for written in _WRITTEN_DATES:
        question = written.sub(_iso_date, question)
    question = _WITH_THE_ID.sub(lambda found: found.group("code"), question)
    question = _DEPARTMENT_FIRST.sub(lambda found: f"the {found.group('name')} department", question)
    question = _KIND_WORD_ENDING_A_CHAIN.sub(lambda found: found.group("chain"), question)
    extreme = _OF_NAME_WITH_THE_EXTREME.match(question)
    if extreme is not None:
        name = re.sub(r"^the\s+(?=[A-Z0-9])", "", extreme.group("name"))  # "of the ElectroMech ProDrive": the name
        question = (f"What is the {extreme.group('noun')} of {name} with the {extreme.group('grade')} "
                    f"{extreme.group('attribute')}?")
    needed = _NEEDED_IN_QUANTITY.match(question)
    if needed is not None and (needed.group("first") is None) != (needed.group("last") is None) and \
            re.search(r"[A-Z0-9]", needed.group("first") or needed.group("last")):  # a named bill, not "in a bill"
        question = (f"{needed.group('wh').capitalize()} {needed.group('kind')} of {needed.group('first') or needed.group('last')} "
                    f"have a quantity of {needed.group('bound')} {needed.group('value')}?")
    units = _UNITS_IN_TOTAL.match(question) or _THINGS_IN_TOTAL.match(question)
    if units is not None:
        question = f"What is the total quantity of {units.group('things') or 'parts'} {units.group('rest')}"
    question = _TOTAL_UNITS.sub("total quantity of parts", question)
    question = _compass_read_as_coordinates(question)
    question = _MORE_THAN_ANY.sub(lambda found: f"the {'most' if found.group('more').lower() == 'more' else 'fewest'} "
                                                f"{found.group('things')}", question)
    question = _BUT_COMPARED.sub(lambda found: found.group("unit") + " and ", question)
    described = _PLACE_OF_A_DESCRIBED_THING.match(question)
    thing = described.group("thing") or described.group("coming") if described is not None else None
    placed = described or _PLACE_OF_A_NAMED_THINGS_OWNER.match(question)
    if placed is not None and (thing is None  # "the supplier of the Network Memristor"
                               or stated_ordering(thing) is not None  # of the cheapest ...: a chain
                               or _DESCRIBED_BY_NAME.search(thing)  # "the suppliers of the products managed by X"
                               or _CODE_AFTER_KIND.search(thing)):  # "of hardware product J731-7469427"
        thing = placed.group("thing") or placed.group("coming")
        question = f"What is the {singular(placed.group('kind') or placed.group('origin'))} of {thing}?"
        question = _KIND_WORD_ENDING_A_CHAIN.sub(lambda found: found.group("chain"), question)  # a chain now
    if (reach := _USED_TO_REACH.match(question)) is not None:
        question = f"What is the {reach.group('means')} of {reach.group('whom')}?"
    question = _among_asked_directly(question)
    question = _KIND_OF_KIND_AFTER_NAME.sub(r"\g<preposition> \g<name>", question)
    return _KIND_OF_KIND_BEFORE_NAME.sub(r"\g<preposition> ", question)


@dataclass(frozen=True)
class SortClause:
    """How a question asks its answers sorted ("..., cheapest first", "sorted by price", "in alphabetical
    order"): the question read without it, the attribute to sort by (None: the answers themselves),
    whether descending, and whether the attribute is a count ("by number of employees": `counted`)."""

    question: str
    attribute: str | None
    descending: bool
    counted: bool = False


_GRADE = r"(?:most|least)\s+[a-z]+|[a-z]+"
# "highest first", "with the cheapest ones first", "ascending", "in descending order", "from most to least expensive"
_DIRECTION = (r"(?:,?\s*(?:in\s+)?(?:an?\s+)?(?P<way>ascending|descending|increasing|decreasing|reverse|"
              r"alphabetical(?=\s+order)|alphabetically|lexicographically)(?:\s+order)?"
              r"|,?\s*(?:with\s+)?(?:the\s+)?(?P<first>" + _GRADE + r")(?:\s+(?!ones?\b)(?P<first_attribute>[a-z]+))?"
              r"\s+(?:ones?\s+)?first"
              r"|,?\s*(?:from\s+)?(?:the\s+)?(?P<start>" + _GRADE + r")(?:\s+to\s+(?:the\s+)?(?P<end>" + _GRADE + r")"
              r"(?:\s+(?!please\b)(?P<end_attribute>[a-z]+))?|\s+(?:down|up)(?:wards?)?))?")
_WAYS = r"ascending|descending|increasing|decreasing|alphabetical|reverse"
_CLAUSE_END = r"(?:,?\s+please)?\s*[.?!]?\s*$"
_SORTING_VERB = (r"(?:sorted|ordered|ranked|arranged|listed|sorting|ordering|ranking)"
                 r"|(?:sort|order|rank|arrange|list)\s+(?:them|it|these|those|the\s+(?:list|results|answers?|ones))")
_SORTED_BY = re.compile(r"(?P<cut>\s*,\s*|\s+(?:and\s+)?|(?P<stop>[.?!])\s+)(?:please\s+)?"
                        r"(?:(?:" + _SORTING_VERB + r")\s+(?:by|according\s+to)\s+|(?:(?:" + _SORTING_VERB + r")\s+)?"
                        r"(?:in\s+(?:an?\s+|the\s+)?(?:(?P<way_before>" + _WAYS + r")\s+)?|(?:an?\s+|the\s+)?(?P<way_said>"
                        + _WAYS + r")\s+)order\s+(?:of|by)\s+)"
                        r"(?P<attribute>[a-z][a-z' ]*?)" + _DIRECTION + _CLAUSE_END, re.IGNORECASE)
_IN_ORDER = re.compile(r"(?P<cut>\s*,\s*|\s+(?:and\s+)?|(?P<stop>[.?!])\s+)(?:please\s+)?(?:(?:" + _SORTING_VERB + r")\s+)?"
                       r"(?:(?:in\s+)?(?:an?\s+|the\s+)?(?P<way>(?:(?:ascending|descending|reverse)\s+)?"
                       r"alphabetical|ascending|descending|increasing|decreasing)\s+order|(?P<alphabetically>alphabetically)|from\s+a\s+to\s+z)" + _CLAUSE_END,
                       re.IGNORECASE)
_FIRST_OR_FROM = re.compile(r"(?P<cut>\s*,\s*|\s+(?:and\s+)?|(?P<stop>[.?!])\s+)(?:please\s+)?(?:(?:" + _SORTING_VERB + r")\s+)?"
                            r"(?=(?:with\s+|from\s+)?(?:the\s+)?(?:" + _GRADE + r")\s+(?:(?:ones?|[a-z]+)\s+first|first|to\b|(?:down|up)(?:wards?)?\b))"
                            + _DIRECTION + _CLAUSE_END, re.IGNORECASE)
# "Rank our services by price, highest first.", "Sort the suppliers in Spain by city."
_SORT_IMPERATIVE = re.compile(r"^\s*(?:please\s+)?(?P<verb>sort|order|rank|arrange)\s+(?P<things>.+?)\s+"
                              r"(?:by|according\s+to)\s+(?P<attribute>[a-z][a-z' ]*?)" + _DIRECTION + _CLAUSE_END,
                              re.IGNORECASE)
_BY_ATTRIBUTE = re.compile(r"\s+by\s+(?:the\s+|their\s+|its\s+)?(?P<attribute>[a-z]+(?:\s+[a-z]+){0,2})$")  # lower case: no name
_ASCENDING_WAYS = ("ascending", "increasing", "alphabetical", "lexicographical")
_COUNTED_ATTRIBUTE = re.compile(r"^(?:the\s+)?(?:number|count|amount)\s+of\s+(?P<counted>[a-z][a-z ]*)$|^how\s+many\s+"
                                r"(?P<many>[a-z][a-z ]*?)(?:\s+(?:they|it)\s+(?:have|has))?$")
# "the town they are in", "their price": the attribute's own words
_ATTRIBUTE_TAIL = re.compile(r"\s+(?:(?:they|it)\s+(?:are|is|were|was)|they're|it's)(?:\s+[a-z]+)?$|\s+(?:of\s+)?(?:each|every)(?:\s+[a-z]+)?$"
                             r"|\s+(?:that|which|who)\s+(?:have|has|had)(?:\s+(?:each|it|them|one))?$")


def _grade_of(words: str | None) -> tuple[str, bool] | None:
    """"cheapest" -> ("cheapest", ascending), "most expensive" -> ("expensive", descending); None for
    words that grade nothing."""
    if not words:
        return None
    words = words.lower()
    if words.startswith(("most ", "least ")):
        most, adjective = words.split(None, 1)
        return adjective, most == "most"
    if words in SUPERLATIVE_DESCENDING and words not in ("first", "best", "worst", "max", "min", "most", "least", "fewest"):
        return words, SUPERLATIVE_DESCENDING[words]
    return None


def sort_clause(question: str) -> SortClause | None:
    """The sorting a question asks for, and the question without it, or None. A sort changes which
    answers a question has only where it picks some ("the three cheapest"), so "..., cheapest first" or
    "sorted by price" is read apart: the model, trained on few such clauses, reads "cheapest" as the
    cheapest one; the question without the clause is read as usual and its reading sorted."""
    imperative = _SORT_IMPERATIVE.match(question)
    if imperative is not None:
        told = f"List {imperative.group('things')}."
        return _sorted(told, imperative, imperative.group("verb").lower() == "rank")
    for shape in (_SORTED_BY, _IN_ORDER, _FIRST_OR_FROM):
        found = shape.search(question)
        if found is None or found.start() == 0:
            continue
        told = question[:found.start()].rstrip(" ,;")
        if not re.search(r"[a-z]", told, re.IGNORECASE):
            continue
        by = _BY_ATTRIBUTE.search(told) if shape is _IN_ORDER else None  # "... by reliability index in descending order"
        told = told[:by.start()] if by is not None else told
        told += found.group("stop") or ("?" if _ASKED.match(told) else ".")
        if shape is _IN_ORDER:
            way = (found.group("way") or "alphabetical").lower()
            return SortClause(told, by.group("attribute") if by is not None else None, not way.startswith(_ASCENDING_WAYS))
        clause = _sorted(told, found, (found.group(0).lower().lstrip(" ,.?!").startswith(("ranked", "ranking"))))
        if clause is not None:
            return clause
    return None


def _sorted(told: str, found: re.Match[str], ranked: bool) -> SortClause | None:
    """The sort a clause says: by its attribute (or the superlative's adjective), in its direction
    (ascending unless it says otherwise or ranks)."""
    groups = found.groupdict()
    attribute = groups.get("attribute")
    descending = ranked
    way = (groups.get("way") or groups.get("way_before") or groups.get("way_said") or "").lower()
    if way:
        descending = not way.startswith(_ASCENDING_WAYS)
    graded = _grade_of(groups.get("first")) or _grade_of(groups.get("start"))
    ending = _grade_of(groups.get("end"))
    said_from = groups.get("start") and re.search(r"\bfrom\s+(?:the\s+)?$", found.string[:found.start("start")], re.I)
    if groups.get("first_attribute") and _grade_of(groups.get("first")) is None:
        return None  # "Which product comes first?": no grade, no sort
    if groups.get("start") and not said_from and (ending is None or _grade_of(groups["start"]) is None):
        return None  # "the closest to the sea", "applied to the most hardware": no sort without "from" or two grades
    if graded is not None:
        descending = graded[1]
    elif groups.get("start") and ending is not None:  # "from the cheapest to the most expensive"
        descending = not ending[1]
    elif groups.get("start") and groups["start"].lower() in ("high", "higher", "large", "big"):  # not graded words
        descending = True
    if attribute is None:  # "..., cheapest first", "from most to least expensive"
        attribute = groups.get("end_attribute") or groups.get("first_attribute") or (ending[0] if ending and groups.get("start", "").lower()
                                                    in ("most", "least") else None) or (graded[0] if graded else None)
    if not attribute:
        return None
    attribute = re.sub(r"^(?:the|their|its|his|her|our)\s+", "", attribute.strip().lower())
    attribute = _ATTRIBUTE_TAIL.sub("", attribute).strip()
    counted = _COUNTED_ATTRIBUTE.match(attribute)
    if counted is not None:
        return SortClause(told, counted.group("counted") or counted.group("many"), descending, counted=True)
    if attribute in ("name", "names", "alphabet"):
        return SortClause(told, None, descending)
    return SortClause(told, attribute, descending)


@dataclass(frozen=True)
class NamedClause:
    """A kind restricted by a named subject's relative clause ("the products the Marketing department is
    responsible for"): the question read without the clause, the kind, the name and the clause's relation."""

    question: str
    kind: str | None
    name: str
    relation: str


_NAMED_CLAUSE = re.compile(
    r"\b(?P<before>(?i:which)(?:\s+of)?(?:\s+(?:the|our|all))?|(?i:how)\s+many|the|our|all|any|every|(?i:list|show|give\s+me))\s+"
    r"(?P<kind>everything|anything|(?:[a-z]+\s+){0,2}?[a-z]+s)(?P<clause>\s+(?:that\s+|which\s+)?(?:the\s+|our\s+)?"
    r"(?P<name>[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*)*)(?:\s+(?:department|team|division|unit|group|service|product))?\s+"
    r"(?:is|are|was|were)\s+"
    r"(?P<relation>responsible\s+for|in\s+charge\s+of|eligible\s+for|[a-z]+ed\s+(?:for|to|in|with|by))(?!\s+(?:the|a|an|our)\b))"
    r"(?=\s*(?:[,?.!]|$|[a-z]))")


def named_clause(question: str) -> NamedClause | None:
    """A kind a named subject's relative clause picks out ("Which of the products the Marketing department
    is responsible for cost less than 1 EUR?"), and the question without the clause, or None. The model
    reads the question without it well and loses the clause with it; the clause becomes a relation from the
    name to the things of that kind (`understanding.repairs.with_named_clause`)."""
    found = _NAMED_CLAUSE.search(question)
    if found is None:
        return None
    told = question[:found.start("clause")] + question[found.end("clause"):]
    kind = None if found.group("kind") in ("everything", "anything") else found.group("kind")
    return NamedClause(told, kind, found.group("name"), re.sub(r"\s+", " ", found.group("relation")))


@dataclass(frozen=True)
class OwnedTail:
    """A question that asks for restricted things having one of something ("Which hardware products in the
    Switch category have a reliability index?"): the question without that tail and the thing."""

    question: str
    thing: str


_OWNED_TAIL = re.compile(
    r"^(?P<head>(?i:which|what|how\s+many|list|show(?:\s+me)?|give\s+me|name|find)\s+\S.*?)\s+"
    r"(?:(?:that|which|who)\s+)?(?:have|has)\s+(?:an?|any)\s+"
    r"(?P<thing>[a-z][a-z-]*(?: [a-z][a-z-]*){0,2}?)(?:\s+at\s+all|\s+on\s+(?:record|file))?\s*[?.!]?$")
_NOT_OWNED = frozenset({"than", "that", "which", "who", "and", "or", "not", "more", "less", "fewer", "same", "such",
                        "named", "called", "titled", "labelled", "labeled", "lot", "total", "number", "value",
                        "of", "in", "for", "with", "from", "by", "to", "on", "at"})  # "a city of springfield": a name


def owned_tail(question: str) -> OwnedTail | None:
    """The asked things' restriction read apart from what they have: the model reads "Which hardware
    products in the Switch category?" well and drops "have a reliability index" after it; the thing
    becomes a relation of the answer (`QuestionParser._understand`). None where the head is the bare
    kind ("Which employees have a manager?" is read whole) or the tail is no owned thing."""
    found = _OWNED_TAIL.match(question.strip())
    if found is None or set(found.group("thing").split()) & _NOT_OWNED:
        return None
    head = found.group("head")
    if len(head.split()) <= 3 and not re.search(r"[A-Z0-9'\"]", head[1:]):
        return None  # "Which hardware products": nothing read apart
    return OwnedTail(head + "?", found.group("thing"))


@dataclass(frozen=True)
class Companions:
    """Things asked with values of their own beside them ("List the suppliers in Germany together with the
    city each is located in"): the question without the companions and their attribute phrases ("city")."""

    question: str
    attributes: tuple[str, ...]


_COMPANION_WORD = (r"(?![a-z]+est\b)(?!(?:a|an|first|last|too|also|well|in|at|from|on|of|to|for|by|with|above|below|over|under|than|and|or|not|greater|less|more|"
                   r"fewer|higher|lower|is|are|was|were|do|does|did|can|that|which|who|where|they|it|each|located|based|sorted|required|needed|"
                   r"ordered|ranked|most|least)\b)(?-i:[a-z])[a-z'-]*")  # lower case: "together with the Encoder Transformer" names
_COMPANION_PHRASE = rf"(?:(?:the|their|its|his|her|respective|corresponding)\s+)*{_COMPANION_WORD}(?:\s+{_COMPANION_WORD}){{0,2}}"
_COMPANIONS = rf"(?P<attributes>{_COMPANION_PHRASE}(?:\s*(?:,\s*(?:and\s+)?|\s+and\s+){_COMPANION_PHRASE})*)"
_COMPANION_REFERENCE = (r"(?:\s+(?:(?:in|at|for|of)\s+which|that|which|where|they|it|he|she|each|of\s+each|for\s+each|"
                        r"of\s+them|required|needed|located|based|is|are|was|were|do|does|did|can)\b"
                        r"(?:(?!(?-i:[A-Z0-9]))[^,?.!])*)?")  # "... is Marcus Bibulus": a condition, not a reference
_COMPANION_END = (r"(?P<rest>\s*,\s*(?:(?:sorted|ordered|ranked|listed)\b|(?:the\s+)?(?:most|least|[a-z]+est)\s+"
                  r"(?:[a-z]+\s+)?first\b|from\s+(?:the\s+)?(?:(?:most|least)\s+[a-z]+|[a-z]+est)\b|in\s+(?:ascending|descending|alphabetical)\b)"
                  r"[^?.!]*|\s+(?:sorted|ordered|ranked|listed)\s+by\b[^?.!]*)?\s*(?P<stop>[?.!]?)\s*$")
_COMPANION_SHAPES = (
    # "... together with their cities", "... along with the city they're located in", "..., including their prices"
    re.compile(r"^(?P<head>\S.*?)\s*,?\s+(?:(?:together|along)\s+with|alongside|as\s+well\s+as|including|plus)\s+"
               r"(?=(?:the|their|its|his|her)\s)" + _COMPANIONS + _COMPANION_REFERENCE + _COMPANION_END, re.IGNORECASE),
    # "list every service with its price, most expensive first"; "... and their e-mail addresses"
    re.compile(r"^(?P<head>\S.*?)\s*,?\s+(?:with|and)\s+(?=(?:their|its|his|her)\s)" + _COMPANIONS
               + _COMPANION_REFERENCE + _COMPANION_END, re.IGNORECASE),
    # "..., and what are their phone numbers?", "... and in which quantity?", "... and at what price?"
    re.compile(r"^(?P<head>\S.*?)\s*,?\s+and\s+(?:(?:in|at|for|of|with)\s+)?(?:what|which)\s+(?:(?:is|are|was|were)\s+"
               r"(?=(?:the|their|its|his|her)\s))?" + _COMPANIONS + r"(?:\s+of\s+(?:each(?:\s+[a-z]+)?|them|it|those|these))?"
               + _COMPANION_REFERENCE + _COMPANION_END, re.IGNORECASE),
    # "Which Coil hardware weighs at least 19 grams? Include the weight.", "..., showing the price", "..., with prices"
    re.compile(r"^(?P<head>\S.*?[^\s,;:])\s*(?:[,;:\u2013\u2014]|\s-)\s*(?:please\s+)?(?:and\s+)?(?:also\s+)?"
               r"(?:include|including|show|showing|display|displaying|giving|listing|with|plus)\s+(?:me\s+)?"
               + _COMPANIONS + r"(?:\s+(?:too|as\s+well|also))?" + _COMPANION_END, re.IGNORECASE),
    # a sentence of its own: "Include the weight.", "Show the index too, highest first."
    re.compile(r"^(?P<head>\S.*?[?.!])\s+(?:please\s+)?(?:also\s+)?(?:include|add)\s+" + _COMPANIONS
               + r"(?:\s+(?:too|as\s+well|also))?" + _COMPANION_END, re.IGNORECASE),
    re.compile(r"^(?P<head>\S.*?[?.!])\s+(?:please\s+)?(?:also\s+)?(?:show|display|give|list)\s+(?:me\s+)?" + _COMPANIONS
               + r"\s+(?:too|as\s+well|also)" + _COMPANION_END, re.IGNORECASE),
    # "..., and what does each of those items cost?", "... and how much do they weigh?"
    re.compile(r"^(?P<head>\S.*?)\s*,?\s+and\s+(?:what|how\s+much)\s+(?:does|do|did|would)\s+(?:it|they|those|these|"
               r"each(?:\s+one)?(?:\s+of\s+(?:them|those|these)(?:\s+[a-z]+)?)?|each\s+[a-z]+)\s+(?P<attributes>cost|weigh)"
               + _COMPANION_END, re.IGNORECASE),
)
_COMPANION_DROPPED = re.compile(r"^(?:(?:the|their|its|his|her|respective|corresponding)\s+)+", re.IGNORECASE)


# "What are the names and song names of singers from France?", "List the vote ids, phone numbers and area codes of
# all votes.": several values of one kind of things asked first (not aggregates: "the average, minimum and maximum age")
_LEADING_WORD = r"(?!(?:average|mean|minimum|maximum|min|max|total|sum|count|most|least)\b|number\s+of\b)" + _COMPANION_WORD
_LEADING_PHRASE = rf"{_LEADING_WORD}(?:\s+{_LEADING_WORD}){{0,2}}"
_LEADING_COMPANIONS = re.compile(
    r"^(?P<lead>(?:what|which)\s+(?:are|is|were|was)|show(?:\s+me)?|list|find|give(?:\s+me)?|return|display)\s+"
    r"(?P<the>(?:the\s+)?(?:(?:different|distinct)\s+)?)"
    rf"(?P<attributes>{_LEADING_PHRASE}(?:\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?:the\s+)?{_LEADING_PHRASE})+)"
    r"\s+(?P<rest>(?:of|for)\s+\S.*)$", re.IGNORECASE)


def _listed_attributes(text: str) -> list[str]:
    """"the names, ages and their song names" -> ["names", "ages", "song names"]."""
    return [_COMPANION_DROPPED.sub("", a.strip()) for a in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", text) if a.strip()]


def _leading_companions(text: str) -> Companions | None:
    """The values asked first, as the first one asked (the question's head; the names, where asked) and the others
    beside it."""
    found = _LEADING_COMPANIONS.match(text)
    if found is None:
        return None
    listed = _listed_attributes(found.group("attributes"))
    listed.sort(key=lambda a: a.lower() not in ("name", "names", "title", "titles"))  # asked by name, the model reads best
    return Companions(f"{found.group('lead')} {found.group('the')}{listed[0]} {found.group('rest')}", tuple(listed[1:]))


def companion_clause(question: str) -> Companions | None:
    """The values asked beside the answers, and the question without them: the model, trained on few
    such questions, reads "together with the city" into the restriction (`?u1 | city | Germany`); the
    question without them is read as usual and the values put back as the answers' own
    (`understanding.repairs.with_companions`). None where the head asks nothing or names no kind. Values
    asked first ("the names and ages of singers") are the first asked and the others beside it."""
    text = question.strip()
    leading = _leading_companions(text)
    if leading is not None:
        return leading
    for shape in _COMPANION_SHAPES:
        found = shape.match(text)
        if found is None:
            continue
        head = found.group("head").rstrip(" ,;")
        if len(head.split()) < 2 or not re.match(r"(?i:" + _QUESTION_WORDS + r"|list|give|show|name|find|tell)\b", head):
            continue
        mark = head[-1] if head[-1] in "?.!" else found.group("stop")
        head = head.rstrip("?.! ")
        attributes = tuple(VERB_VALUE.get(a.lower(), _COMPANION_DROPPED.sub("", a.strip())) for a in
                           re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", found.group("attributes")) if a.strip())
        if not attributes:
            continue
        told = head + (found.group("rest") or "") + (mark or ("?" if _ASKED.match(head) else "."))
        return Companions(told, attributes)
    return None


_QUANTITY = (r"(?:(?:the|its|their|all)\s+)?(?:(?:required|needed|listed|respective|part|each\s+part['’]s)\s+)?"
             r"quantit(?:y|ies)(?:\s+of\s+(?:each|every|all)\s+(?:the\s+)?[a-z]+)?(?:\s+in(?:to)?\s+ac+ount)?")
_QUANTITY_PRODUCT = (r"(?:the\s+)?(?:part\s+)?quantit(?:y|ies)\s+(?:x|times|\*|multiplied\s+by)\s+(?:the\s+)?(?:part\s+|unit\s+)?"
                     r"prices?")
# ", taking the quantities into account", "in the required quantities", "(quantity times part price)"
_WEIGHTED_LAST = re.compile(
    r"(?:\s*,\s*|\s*\(\s*|\s+)(?:(?:taking|counting|considering|including|factoring\s+in|accounting\s+for|using|with)\s+"
    r"(?:each\s+part['’]s\s+price\s+times\s+)?" + _QUANTITY + r"|in\s+the\s+(?:required|needed|listed|given)\s+quantities"
    r"|(?:computed|calculated)\s+as\s+(?:the\s+)?sum\s+of\s+" + _QUANTITY_PRODUCT + "|" + _QUANTITY_PRODUCT
    + r")\s*\)?(?P<stop>\s*[?.!]?)\s*$", re.IGNORECASE)
# "Taking quantities into account, how much ...?", "Based on the quantities in its bill of materials, what ...?"
_WEIGHTED_FIRST = re.compile(r"^\s*(?:taking|counting|considering|based\s+on|using)\s+" + _QUANTITY
                             + r"(?:\s+in\s+(?:its|the|their)\s+bills?\s+of\s+materials?)?\s*,\s*", re.IGNORECASE)


def quantity_weighted(question: str) -> str | None:
    """The question without what says that each thing's value counts as many times as its quantity
    ("the total cost of the parts of X, taking the quantities into account"), or None where it says
    nothing so: read as the plain measure, then weighted (`understanding.repairs.weighted_by_quantity`)."""
    found = _WEIGHTED_LAST.search(question)
    if found is not None and found.start() > 0:
        told = question[:found.start()].rstrip(" ,;")
        return told + (found.group("stop").strip() or ("?" if _ASKED.match(told) else "."))
    found = _WEIGHTED_FIRST.match(question)
    if found is not None:
        rest = question[found.end():]
        return rest[:1].upper() + rest[1:]
    return None


@dataclass(frozen=True)
class AggregatedThings:
    """A measure of restricted things ("the average price of hardware supplied by companies based in
    Germany"): the things asked for as a list ("Give me all hardware supplied by companies based in
    Germany."), the measure ("avg") and the attribute measured ("price")."""

    listing: str
    measure: str
    attribute: str


_MEASURES = {"average": "avg", "mean": "avg", "total": "sum", "combined": "sum", "overall": "sum", "summed": "sum",
             "highest": "max", "maximum": "max", "lowest": "min", "minimum": "min"}  # "the largest city of ...": a thing
_AGGREGATED_THINGS = re.compile(
    r"^(?:(?:what|how\s+much)\s+(?:is|was|are|were)\s+|what['’]s\s+|tell\s+me\s+|give\s+me\s+|show\s+me\s+|calculate\s+|compute\s+)?"
    rf"the\s+(?P<measure>{'|'.join(_MEASURES)})\s+(?P<attribute>[a-z]+(?:\s+[a-z]+){{0,2}}?)\s+(?:of|for|across|among)\s+"
    r"(?:the\s+|an?\s+|any\s+|all\s+(?:of\s+)?(?:the\s+|our\s+)?|our\s+)?(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s+"
    r"(?P<rest>(?:that|which|who|whose|[a-z]+ed|in|from|by|with|under|made|sold|built)\s+[^?]*?[A-Z0-9'\"][^?]*?)\s*[?.!]?$",
    re.I)


def aggregated_things(question: str) -> AggregatedThings | None:
    """A measure of things a clause or a preposition restricts, asked as a list of those things: the model
    reads long restrictions of listed things better than inside a measure ("the average price of hardware
    supplied by companies based in Germany" decoded with `| is a | hardware supplied by companies`); the
    measure goes back on top (`QuestionParser._understand`). Only where the restriction names something."""
    found = _AGGREGATED_THINGS.match(question.strip())
    if found is None or found.group("kind").split()[-1].lower() in ("that", "which", "who", "whose", "everything",
                                                                    "anything", "everyone", "anyone") or \
            found.group("attribute").split()[0] in ("number", "count", "amount", "sum", "quantity"):
        return None  # "the total number of politicians whose ...": a count
    kind = found.group("kind")
    if re.search(r"\b(?:an?|any)\s+" + re.escape(kind) + r"\b", found.group(0)):  # "for a Switch": all Switches
        kind = " ".join([*kind.split()[:-1], plural(kind.split()[-1])])
    return AggregatedThings(f"Give me all {kind} {found.group('rest')}.",
                            _MEASURES[found.group("measure").lower()], found.group("attribute").lower())


@dataclass(frozen=True)
class ComparedTail:
    """Restricted things with a comparison said last ("Which hardware products whose product manager belongs to
    the Engineering department cost more than 5.90 euros?"): the restricted things asked alone ("Which
    hardware products whose product manager belongs to the Engineering department?") and the kind with the
    comparison alone ("Which hardware products cost more than 5.90 euros?")."""

    restricted: str
    compared: str
    said_first: bool = False  # "Which papers published before 2019 provide a replication package?"
    conjoined: bool = False  # two conditions of any sort (`conjoined_conditions`), no comparison needed
    ranked: bool = False  # `compared` ranks the kind (`ranked_restriction`): its ordering, not a comparison


# how a question asking for things read apart starts ("Which papers", "How many of the papers", "List all the papers")
_ASKED_THINGS = r"^(?P<ask>(?i:which|what|how\s+many|list|show(?:\s+me)?|give\s+me|find))\s+(?:(?i:all)\s+)?(?:(?i:the|our)\s+)?"
# a participle's bound in time: "published before 2019", "founded later than 1990"
_TIME_BOUND = r"(?:before|after|since|until|prior\s+to|earlier\s+than|later\s+than)"
# "Which papers published before 2019 provide a replication package?": a participle's comparison with a number
# said first, then what the things do
_COMPARED_FIRST = re.compile(
    _ASKED_THINGS +
    r"(?P<kind>(?:[A-Z][A-Za-z0-9&-]*\s+)?[a-z]+(?:\s+(?![a-z]+ed\b)[a-z]+)?)\s+"
    r"(?P<comparison>(?P<participle>[a-z]+ed)\s+" + _TIME_BOUND + r"\s+\d+)\s+"
    r"(?P<rest>(?!(?:and|or|but|in|of|for|with|from|on|at|by|to)\b)[a-z][^?]*?)\s*[?.!]?$")


_COMPARED_TAIL = re.compile(
    r"^(?P<ask>(?i:which|what|how\s+many|list|show(?:\s+me)?|give\s+me|find|name))\s+(?:(?i:all)\s+)?(?:(?i:the|our)\s+)?"
    r"(?P<kind>[a-z]+(?:\s+(?![a-z]+ed\b)(?!(?:whose|that|which|who|from|in|of|by)\b)[a-z]+)?)\s+"
    r"(?P<clause>(?:whose|that|which|who|from|in|of|by|supplied|managed|made|sold)\s+"
    r"[^?]*?[A-Z0-9][^?]*?)\s+(?P<tail>(?:(?:that|which|and)\s+)?(?:costs?|weighs?|weigh|have|has|are|is|with|were|was)\s+"
    r"(?:an?\s+[a-z]+(?:\s+[a-z]+)?\s+(?:of\s+)?)?(?:more|less|fewer|greater|higher|lower|at\s+least|at\s+most|under|over|"
    r"above|below|between)\b[^?]*?)\s*[?.!]?$")


# "Which papers that used a controlled experiment were published before 2019?": a relative clause on the things,
# then a participle's comparison with a year said last
_CLAUSE_THEN_DATED = re.compile(
    _ASKED_THINGS +
    r"(?P<kind>[a-z]+(?:\s+(?!(?:that|which|who)\b)[a-z]+)?)\s+(?:that|which|who)\s+"
    r"(?P<clause>(?!(?:is|are|was|were|have|has|had)\b)[a-z][^?]*?)\s+"
    r"(?P<tail>(?:were|was|are|is|have\s+been|has\s+been)\s+[a-z]+ed\s+" + _TIME_BOUND + r"\s+\d{4})\s*[?.!]?$")


def _counted_or_which(ask: str) -> str:
    """How a part read apart asks: "How many" after "How many", else "Which" ("List", "Show me", ...)."""
    return "How many" if ask.lower().startswith("how") else "Which"


def compared_tail(question: str) -> ComparedTail | None:
    """The restricted things and the comparison said after them (or first, with a participle: "Which papers
    published before 2019 provide a replication package?"; or a year after a relative clause: "Which papers that
    used a controlled experiment were published before 2019?"), asked apart: the model drops one of the two in the
    whole question and reads each alone well (`QuestionParser._understand`). None for another shape."""
    first = _COMPARED_FIRST.match(question.strip())
    if first is not None:
        wh = _counted_or_which(first.group("ask"))
        return ComparedTail(f"{wh} {first.group('kind')} {first.group('rest')}?",
                            f"{wh} {first.group('kind')} were {first.group('comparison')}?", said_first=True)
    dated = _CLAUSE_THEN_DATED.match(question.strip())
    if dated is not None:
        wh = _counted_or_which(dated.group("ask"))
        return ComparedTail(f"{wh} {dated.group('kind')} {dated.group('clause')}?", f"{wh} {dated.group('kind')} "
                                                                                    f"{dated.group('tail')}?")
    found = _COMPARED_TAIL.match(question.strip())
    if found is None or found.group("kind").split()[-1] in ("that", "which", "who", "whose") or \
            found.group("clause").startswith("of ") or (  # "names of properties": the comparison may be of either
                re.search(r"\bwhose\b", found.group("clause"))
                and re.match(r"(?:(?:that|which|and)\s+)?(?:is|are|was|were)\b", found.group("tail"))):
        return None  # "whose agreed selling price is greater than ...": the whose-noun's comparison
    ask = found.group("ask")
    tail = re.sub(r"^(?:that|which|and)\s+", "", found.group("tail"))
    wh = _counted_or_which(ask)
    return ComparedTail(f"{wh} {found.group('kind')} {found.group('clause')}?", f"{wh} {found.group('kind')} {tail}?")


# "Which papers followed an evaluation guideline and also provide a replication package?", "Which papers that discuss
# construct validity also reference a guideline?": two conditions on the things, the second said with "also" (or the
# first with "both")
_CONJOINED = (
    re.compile(_ASKED_THINGS + r"(?P<kind>[a-z]+(?:\s+(?!(?:that|which|who|are|is|were|was|have|has)\b)[a-z]+)?)\s+"
               r"(?P<first>(?!(?:that|which|who)\b)[a-z][^?]*?)\s+(?:and|but)\s+also\s+(?P<second>[a-z][^?]*?)\s*[?.!]?$"),
    re.compile(_ASKED_THINGS + r"(?P<kind>[a-z]+(?:\s+(?!(?:that|which|who)\b)[a-z]+)?)\s+(?:that|which|who)\s+"
               r"(?P<first>[a-z][^?]*?)\s+(?:and\s+)?also\s+(?P<second>[a-z][^?]*?)\s*[?.!]?$"),
    # "Which papers both provide a replication package and reference a guideline?": "both" before two verbs' phrases
    re.compile(_ASKED_THINGS + r"(?P<kind>[a-z]+)\s+(?:(?:that|which|who)\s+)?both\s+"
               r"(?P<first>(?!(?:the|a|an|their|its|his|her|our)\b)[a-z]+\s+[a-z][^?]*?)\s+and\s+"
               r"(?P<second>(?!(?:the|a|an|their|its|his|her|our)\b)[a-z]+\s+[a-z][^?]*?)\s*[?.!]?$"),
)


def conjoined_conditions(question: str) -> ComparedTail | None:
    """Two conditions on the asked things, the second said with "also" ("Which suppliers are based in Germany
    and also supply sensors?") or both with "both", asked apart ("Which suppliers are based in Germany?", "Which
    suppliers supply sensors?"): the model keeps one of them in the whole question. None for another shape."""
    for shape in _CONJOINED:
        found = shape.match(question.strip())
        if found is None or re.match(r"(?:are|is|were|was|have|has|do|does)$", found.group("first")):
            continue
        kind, first, second = found.group("kind"), found.group("first"), found.group("second")
        words = kind.split()
        if len(words) == 2 and len(words[0]) > 3 and words[0].endswith("s"):  # "papers followed": a plural ends the kind
            kind, first = words[0], f"{words[1]} {first}"
        copula = re.match(r"(?:are|is|were|was)\b", first)
        if copula and (" " not in second or re.match(r"(?:[a-z]+ed|not)\b", second)):  # "are cheap and also light"
            second = f"{copula.group()} {second}"
        wh = _counted_or_which(found.group("ask"))
        return ComparedTail(f"{wh} {kind} {first}?", f"{wh} {kind} {second}?", conjoined=True)
    return None


# "Which is the most recent paper that studies technical debt?", "What is the earliest paper by Uwe Zdun?": the best
# of a kind by a superlative, the kind restricted after it by a clause, "by"/"from" a name or a participle
_SUPERLATIVE_WORD = "|".join(sorted((w for w in SUPERLATIVE_DESCENDING if w not in ("most", "least", "max", "min")),
                                    key=len, reverse=True))
_RANKED_RESTRICTION = re.compile(
    r"^\s*(?P<ask>which|what|who)\s+(?:is|was)\s+the\s+(?P<grade>(?:most|least)\s+(?:recently\s+published|[a-z]+)|"
    rf"(?:{_SUPERLATIVE_WORD}))\s+(?P<kind>[a-z]+)\s+(?P<rest>(?:(?:that|which|who)\s+|(?:by|from|about|on|published|"
    r"written|supplied|made|located|based)\s+)[^?.!]+?)\s*[?.!]?\s*$", re.IGNORECASE)


def ranked_restriction(question: str) -> ComparedTail | None:
    """The best thing of a kind that a clause or a "by"/"from" phrase restricts ("Which is the most recent paper
    that studies technical debt?"), asked apart: the restricted things ("Which paper studies technical debt?")
    and the ranking alone ("Which is the most recent paper?"). None for another shape."""
    found = _RANKED_RESTRICTION.match(question)
    if found is None:
        return None
    kind, rest = found.group("kind"), found.group("rest")
    rest = re.sub(r"^(?:that|which|who)\s+", "", rest, flags=re.IGNORECASE)
    return ComparedTail(f"Which {kind} {rest}?", f"Which is the {found.group('grade')} {kind}?", ranked=True)


# The spread of a value: "the difference between the most and the least expensive product in each category",
# "the gap between the largest and the smallest part quantity", "How far apart are the prices of the cheapest
# and the most expensive Transformer products?", "the price range of Sensor products"
_GRADE_WORDS = (r"(?:most|least|highest|lowest|largest|smallest|biggest|greatest|maximum|minimum|max|min|heaviest|"
                r"lightest|cheapest|priciest|costliest|dearest)")
_GRADED = rf"(?:the\s+)?(?P<{{name}}>{_GRADE_WORDS})(?:\s+(?P<{{name}}_adjective>expensive|heavy|reliable|costly))?"
_RANGE_SHAPES = (
    re.compile(r"^(?P<head>.*?)\bthe\s+(?:difference|gap|spread)\s+between\s+" + _GRADED.format(name="first") + r"\s+and\s+"
               + _GRADED.format(name="second") + r"\s+(?P<what>[^?.]+?)\s*(?P<end>[?.]?)\s*$", re.IGNORECASE),
    re.compile(r"^\s*how\s+far\s+apart\s+are\s+the\s+(?P<attributes>[a-z]+)\s+of\s+" + _GRADED.format(name="first")
               + r"\s+and\s+" + _GRADED.format(name="second") + r"\s+(?P<what>[^?.]+?)\s*(?P<end>[?.]?)\s*$", re.IGNORECASE),
    re.compile(r"^(?P<head>.*?)\bthe\s+(?:(?P<attribute>[a-z]+)\s+range|range\s+of\s+(?P<attributes>[a-z]+))\s+"
               r"(?:of|for|among|across)\s+(?P<what>[^?.]+?)\s*(?P<end>[?.]?)\s*$", re.IGNORECASE),
)
_GRADE_VALUE = {"heaviest": "weight", "lightest": "weight", "cheapest": "price", "priciest": "price",
                "costliest": "price", "dearest": "price"}
_SPREAD_ATTRIBUTES = frozenset({"price", "weight", "quantity", "height", "width", "depth", "length", "cost", "reliability",
                                "age", "salary", "size", "amount", "index"})


# "What are the average, minimum, and maximum ages of singers from France?", "Show the minimum and maximum price of X":
# several aggregates of the same values, asked with the first alone and answered beside it (`also`)
_AGGREGATE_WORDS = {"average": "avg", "mean": "avg", "minimum": "min", "min": "min", "lowest": "min", "smallest": "min",
                    "maximum": "max", "max": "max", "highest": "max", "largest": "max", "greatest": "max",
                    "biggest": "max", "total": "sum", "sum": "sum"}
_AGGREGATE_WORD = r"(?:" + "|".join(_AGGREGATE_WORDS) + r")"
# "the smallest and largest area codes" asked as "the minimum area code" (the model reads a lone "smallest" before a
# plural as no aggregate)
_SUPERLATIVE_AS_AGGREGATE = {"smallest": "minimum", "lowest": "minimum", "largest": "maximum", "highest": "maximum",
                             "greatest": "maximum", "biggest": "maximum"}
_SEVERAL_AGGREGATES = re.compile(
    rf"\b(?:(?P<are>are|were)\s+)?(?P<the>the\s+)?(?P<first>{_AGGREGATE_WORD})(?P<rest>(?:\s*,\s*(?:the\s+)?{_AGGREGATE_WORD})*"
    rf"\s*,?\s+and\s+(?:the\s+)?{_AGGREGATE_WORD})\b(?=\s+[a-z])", re.IGNORECASE)


@dataclass(frozen=True)
class SeveralAggregates:
    """A question asking several aggregates of the same values, asked with the first alone (`question`), and the
    aggregates in the order asked (`forms`: "avg", "min", "max", "sum")."""

    question: str
    forms: tuple[str, ...]


def several_aggregates(question: str) -> SeveralAggregates | None:
    """"What are the average, minimum, and maximum ages of singers from France?" as "What is the average age of
    singers from France?" and the aggregates avg, min, max ("the smallest and largest" asked as "the minimum");
    None where the question asks one aggregate (or the same twice)."""
    found = _SEVERAL_AGGREGATES.search(question)
    if found is None:
        return None
    words = [found.group("first"), *re.findall(_AGGREGATE_WORD, found.group("rest"), re.IGNORECASE)]
    forms = tuple(dict.fromkeys(_AGGREGATE_WORDS[w.lower()] for w in words))
    if len(forms) < 2:
        return None
    verb = "is " if found.group("are") else ""
    first = found.group("first")
    if not re.match(r"\s*(?:who|which)\b", question, re.IGNORECASE):  # "Who has the highest ...": people, ranked
        first = _SUPERLATIVE_AS_AGGREGATE.get(first.lower(), first)
    asked = f"{verb}{found.group('the') or ''}{first}"
    rest = question[found.end():]
    head = re.match(r"\s+(?:(?!of\b)[a-z]+\s+){0,2}?(?P<noun>[a-z]+s)\b(?=\s+(?:of|for|among|across|in|per|from|with)\b|\s*[?.!]?\s*$)",
                    rest, re.IGNORECASE)
    if head is not None and verb:  # "What are the average ages of ..." asked as one: "What is the average age of ..."
        rest = rest[:head.start("noun")] + singular(head.group("noun")) + rest[head.end("noun"):]
    return SeveralAggregates(question[:found.start()] + asked + rest, forms)


def ranged(question: str) -> str | None:
    """The question asked as the average of the values whose spread (maximum less minimum) it asks for
    ("What is the difference between the most and the least expensive product in each category?" -> "What
    is the average price of products in each category?"), or None where it asks for no spread: read as the
    average, then answered as the range (`QuestionForm.RANGE`)."""
    for shape in _RANGE_SHAPES:
        found = shape.match(question)
        if found is None:
            continue
        groups = found.groupdict()
        what = found.group("what").strip()
        adjective = next((groups.get(g) for g in ("first_adjective", "second_adjective") if groups.get(g)), None)
        grades = [(groups.get(g) or "").lower() for g in ("first", "second")]
        attribute = groups.get("attribute") or (singular(groups["attributes"].lower()) if groups.get("attributes") else None)
        if attribute is None and adjective is not None:
            attribute = _ADJECTIVE_VALUE[adjective.lower()]
        attribute = attribute or next((_GRADE_VALUE[g] for g in grades if g in _GRADE_VALUE), None)
        grouped = re.match(r"^(?P<core>.+?)(?P<group>\s+(?:(?:for|in|per|of)\s+(?:each|every)|per)\s+[^?.]+)?$", what,
                           re.IGNORECASE)
        what, group = grouped.group("core"), grouped.group("group") or ""
        things = what
        if attribute is None:  # "... part quantity", "... price of Sensor products"
            of = re.match(r"(?P<attribute>[a-z]+(?:\s+index)?)\s+of\s+(?P<things>.+)$", what, re.IGNORECASE)
            words = what.split()
            if of is not None:
                attribute, things = of.group("attribute"), of.group("things")
            elif len(words) >= 2 and words[-1].lower() in _SPREAD_ATTRIBUTES:
                attribute, things = words[-1].lower(), " ".join(words[:-1])
            else:
                continue
        if attribute.split()[-1].lower() not in _SPREAD_ATTRIBUTES:
            continue
        first, _, rest = things.partition(" ")
        if first.islower() and not first.lower().startswith(("the", "all", "our", "each", "every")):
            things = plural(first) + (" " + rest if rest else "")
        head = (groups.get("head") or "").strip()
        asked = "What is" if not head or head.lower().rstrip(",").endswith(("what is", "what's")) else None
        if asked is None:
            continue
        return f"What is the average {attribute} of {things}{group}{found.group('end') or '?'}"
    return None


# "Which manager has the fewest direct reports? Just the name please.", "..., tell me only its name": the
# answers asked for by their names, said apart from the question
_NAMES = r"(?:names?|titles?)"  # "Just the titles please."
_BY_NAME = re.compile(r"(?:[?.!]\s*|,\s*)(?:(?:and\s+)?(?:please\s+)?(?:just|only|simply)\s+(?:give\s+me\s+|tell\s+me\s+)?"
                      r"(?:the|its|their|his|her)\s+" + _NAMES + r"|(?:please\s+)?(?:give|tell|show)(?:\s+me)?\s+(?:only\s+|just\s+)?"
                      r"(?:the|its|their|his|her)\s+" + _NAMES + r"(?:\s+only)?|i\s+(?:need|want|only\s+need)\s+(?:only\s+|just\s+)?"
                      r"(?:the|its|their|his|her)\s+" + _NAMES + r"|" + _NAMES + r"\s+only|(?:the\s+)?" + _NAMES +
                      r"(?=,?\s*(?:please|pls|plz)\b))(?:,?\s*(?:please|pls|plz))?\s*[.!?]?\s*$", re.IGNORECASE)


def by_name(question: str) -> str | None:
    """The question without what asks for its answers by name ("Which manager has the fewest direct
    reports? Just the name please." -> "Which manager has the fewest direct reports?"), or None where it
    asks nothing so: read as asked, then answered by the answers' names (`repairs.named_answers`)."""
    found = _BY_NAME.search(question)
    if found is None or found.start() == 0:
        return None
    told = question[:found.start()].rstrip(" ,;")
    return told + ("?" if _ASKED.match(told) else ".")


@dataclass(frozen=True)
class ShownValues:
    """A question whose answers are asked for by values of theirs, said apart ("Which song has the highest
    sales? Give me its title."): the question without them and the values' attribute phrases."""

    question: str
    attributes: tuple[str, ...]


# "Which contestant received the most votes? Give me the contestant number and name.", "... ? Return their ids."
_SHOWN_AFTER = re.compile(
    r"^(?P<told>.+?[?.])\s+(?:please\s+)?(?:(?:give|tell|show)(?:\s+me)?|return|list|find|display|what\s+(?:is|are))\s+"
    r"(?:only\s+|just\s+)?(?:its|their|his|her|the)\s+"
    rf"(?P<attributes>{_LEADING_PHRASE}(?:\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?:the\s+|its\s+|their\s+)?{_LEADING_PHRASE})*)"
    r"\s*[.?!]?\s*$", re.IGNORECASE)


def shown_values(question: str) -> ShownValues | None:
    """The question without what asks for its answers by values of theirs ("... ? Give me the contestant number
    and name." -> ("contestant number", "name")), or None (also where only their names are asked, `by_name`):
    read as asked, then answered by those values (`repairs.shown_answers`)."""
    if by_name(question) is not None:
        return None
    found = _SHOWN_AFTER.match(question.strip())
    if found is None:
        return None
    attributes = tuple(_listed_attributes(found.group("attributes")))
    told = found.group("told").rstrip("?.")
    return ShownValues(told + ("?" if _ASKED.match(told) else "."), attributes)


# "What are the names of the employees who were hired full time?": the names of things a clause restricts
_NAMES_OF_CLAUSE = re.compile(
    r"^(?:what\s+(?:are|were)|list|show(?:\s+me)?|give(?:\s+me)?|find|tell\s+me|return)\s+(?:all\s+)?the\s+names\s+of\s+"
    r"(?:all\s+)?(?:the\s+)?(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s+(?:who|that|which)\s+(?P<clause>[a-z].*?)\s*[?.!]?$",
    re.IGNORECASE)


def names_of_restricted(question: str) -> str | None:
    """The question asked as which things the clause restricts ("Find the names of employees who never
    received any award." -> "Which employees never received any award?"), or None for another shape: the
    model reads the clause of the "which" question and often drops it after "the names of"; the answers
    are then the things' names (`repairs.named_answers`)."""
    found = _NAMES_OF_CLAUSE.match(question.strip())
    if found is None or singular(found.group("kind").split()[-1]) == found.group("kind").split()[-1]:
        return None
    return f"Which {found.group('kind')} {found.group('clause')}?"

