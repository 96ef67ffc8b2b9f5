"""Questions answered in two parts: about two names one after the other, or with an "or", which a phrase
graph pattern cannot say.

"What are the phone numbers of Lili Geier and Erhard Fried?" asks the same of each name (`two_names_asked`).
"Which suppliers are based in France or Germany?" and "How many products cost less than 10 or more
than 500?" ask for the things of either alternative (`alternatives_asked`). Each alternative is asked as its own question
("... based in France?", "... based in Germany?") and the answers are joined: a list is their union,
a count the number of distinct things in that union, a yes/no question yes when either says yes.
"Which visitors visited both 'Plaza Museum' and 'Willow Museum'?" asks for the things of both (`both_asked`):
the same two questions, the answers' intersection. "Which students have a dog but not a cat?" asks for the
things of the first that are not things of the second (`but_not_asked`): the answers' difference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gateway.textsearch import STOP_WORDS
from understanding.grading import singular

# a name (a capitalised word or a code, not a bare number: "32 or 33 years old" is one reading), "Moran, Martin
# and Freeman"; a dot only inside ("F.C"), not the question's last
_WORD_OF_NAME = r"[\w'&-]*(?:\.[\w'&-]+)*"
_NAME = (r"(?:[A-Z]|\d+[A-Za-z-])" + _WORD_OF_NAME + r"(?:,?\s+(?:of\s+|de\s+|the\s+|and\s+)?[A-Z0-9]" + _WORD_OF_NAME
         + r")*")
_PREPOSITION = r"(?:in|from|by|of|with|at|to|for|on|into|under)"
# "in France or Germany", "in the United States or in Canada", "by Marketing or Engineering", "in 'NY' or 'CA'"
_NAMES = re.compile(
    rf"(?P<prep>\b{_PREPOSITION}\s+)?(?:either\s+)?(?P<first>(?:the\s+)?{_NAME}|'[^']+')\s+or\s+(?P<prep2>{_PREPOSITION}\s+)?"
    rf"(?P<second>(?:the\s+)?{_NAME}|'[^']+')(?=\s*(?:[?.!,;]|$|\s+(?!of\b)[a-z]))"
)
_COMPARATIVE = (r"(?:(?:less|more|fewer|greater|higher|lower|cheaper|dearer|heavier|lighter|longer|shorter|bigger|"
                r"smaller|wider|narrower|larger|older|newer|earlier|later)\s+than|above|below|under|over|at\s+least|"
                r"at\s+most|exactly|before|after|since|until)")
_AMOUNT = r"[$€£]?\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|[a-zA-Z$€£]+(?:\s+[a-z]+)?))?"
# "less than 10 or more than 500", "under 5 kg or over 20 kg"
_COMPARISONS = re.compile(
    rf"(?:\beither\s+)?(?P<first>\b{_COMPARATIVE}\s+{_AMOUNT})\s+or\s+(?P<second>{_COMPARATIVE}\s+{_AMOUNT})(?=\s*(?:[?.!,;]|$|\s))",
    re.IGNORECASE,
)
# "sensors or actuators", "employees or managers", "propose or study": one word each, of one form (not "30
# staff or opened after 2010", a counted unit and a clause of its own)
_WORDS = re.compile(r"(?:\beither\s+)?\b(?P<first>[a-z]{3,})\s+or\s+(?P<second>[a-z]{3,})\b(?!\s+than\b)")
_NOT_ALTERNATIVES = frozenset({"more", "less", "not", "else", "other", "others", "fewer", "higher", "lower", "greater",
                               "smaller", "larger", "bigger", "both", "none", "any", "all", "what", "which", "who",
                               "how", "that", "this", "these", "those", "and", "the", "one", "two", "equal", "above",
                               "below", "over", "under", "later", "earlier", "before", "after", "same", "whose",
                               "whom", "where", "when", "why", "with", "without"})
# "the museums that either opened in 2008 or have more than 20 staff", "who teach either the 'Math' course or the
# 'Music' course": "either" says where the first alternative starts; the second runs to the question's end
_EITHER = re.compile(r"\beither\s+(?P<first>\S.*?)\s+or\s+(?P<second>[^?!.,;]*[^?!.,;\s])(?=\s*[?.!]?\s*$)", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# a yes/no question relates the two things of "both A and B" ("Are both A and B sensors?") rather than asking for both
_YES_NO = re.compile(r"^\s*(?:is|are|was|were|do|does|did|has|have|can)\b", re.IGNORECASE)
# a negated alternative is not a union ("not managers or heads" is neither)
_NEGATED = re.compile(r"\b(?:not|no|never|neither|nor|without|except|excluding|none)\b|n't\b", re.IGNORECASE)
# questions that weigh the alternatives against each other ("Which is cheaper, A or B?", "whether ... or
# not") rather than asking for the things of either
_CHOICE = re.compile(r"\b(?:whether|rather|between|compare[ds]?|either\s+one|which\s+one|or\s+not)\b", re.IGNORECASE)
# "Which is cheaper, the Compensator Switch or the Flow Compensator?": a question about no name, then the two
_WEIGHED = re.compile(rf"^\s*(?:which|what|who)\b(?P<before>[^,]*),\s*(?:the\s+)?{_NAME}\s+or\s+", re.IGNORECASE)


@dataclass(frozen=True)
class Alternatives:
    """A question that asks for the things of either of two alternatives, as one question per alternative."""

    first: str
    second: str
    said: tuple[str, str]  # the alternatives as the question words them
    named: bool = False  # the alternatives are names (which the graph may have as one: "Pride or Prejudice")
    both: bool = False  # the things of both ("visited both A and B"), not of either
    excluded: bool = False  # the things of the first and not of the second ("a dog but not a cat")


def alternatives_asked(question: str) -> Alternatives | None:
    """The question split at its one "or" between two names or two comparisons, or None."""
    if len(re.findall(r"\bor\b", question, re.IGNORECASE)) != 1 or _CHOICE.search(question) or _NEGATED.search(question):
        return None
    weighed = _WEIGHED.match(question)
    if weighed is not None and not re.search(r"\b[A-Z0-9]", weighed.group("before")):
        return None
    found = _COMPARISONS.search(question)
    if found is not None:
        first, second = found.group("first").strip(), found.group("second").strip()
        return _split(question, found, first, second)
    found = _NAMES.search(question)
    if found is not None and _quoted(question, found):
        return None
    if found is None:
        words = _WORDS.search(question)
        if words is None or {words.group("first"), words.group("second")} & (_NOT_ALTERNATIVES | STOP_WORDS) or \
                singular(words.group("first")) == singular(words.group("second")) or \
                words.group("first").endswith("ed") != words.group("second").endswith("ed"):  # "the course or courses"
            return _either_clauses(question)
        first, second = words.group("first"), words.group("second")
        return _split(question, words, first, second)
    prep = found.group("prep") or found.group("prep2") or ""
    first = f"{found.group('prep') or ''}{found.group('first')}".strip()
    second = f"{found.group('prep2') or prep}{found.group('second')}".strip()
    return _split(question, found, first, second, (found.group("first"), found.group("second")), named=True)


# "both 'Capital Plaza Museum' and 'Willow Grande Museum'", "in both grade 1 and grade 7", "both for the contestant
# 'Tabatha Gehling' and the contestant 'Kelly Clauss'": two names (quoted, capitalised, or a noun and a number),
# each with the words that say what it is
_BOTH_ITEM = (r"(?:the\s+)?(?:[a-z]+\s+){0,2}?(?:'[^']+'|\"[^\"]+\"|" + _NAME + r"|\d+(?:\.\d+)?)"
              r"(?:\s+(?!and\b)[a-z]+)?")
_BOTH = re.compile(rf"\bboth\s+(?P<prep>{_PREPOSITION}\s+)?(?P<first>{_BOTH_ITEM})\s+and\s+(?P<prep2>{_PREPOSITION}\s+)?"
                   rf"(?P<second>{_BOTH_ITEM})(?=\s*(?:[?.!,;]|$))")


def both_asked(question: str) -> Alternatives | None:
    """The question split at "both A and B" between two names, asked for the things of both, or None (a
    yes/no question relates the two: "Are both A and B sensors?")."""
    if _YES_NO.match(question):
        return None
    found = _BOTH.search(question)
    if found is None or not any(re.search(r"[A-Z0-9'\"]", found.group(g)) for g in ("first", "second")):
        return None
    prep = found.group("prep") or found.group("prep2") or ""
    first, second = found.group("first"), found.group("second")
    kind = re.search(r"(?<=[A-Za-z0-9'\"])\s+(?P<kind>[a-z]+)$", second)  # "the Encoder and the Transformer category"
    if kind is not None and re.search(r"(?:^|\s)(?:[A-Z0-9][\w&.-]*|'[^']*'|\"[^\"]*\")$", first):
        first += kind.group(0)
    return _split(question, found, f"{found.group('prep') or ''}{first}".strip(),
                  f"{found.group('prep2') or prep}{second}".strip(), (found.group("first"), found.group("second")),
                  named=True, both=True)


# "both employees older than 35 and employees younger than 25", "both a museum opened before 2005 and a museum opened
# after 2010": two clauses that end the question's sentence, each comparing a value with a number
_BOTH_CLAUSES = re.compile(r"\bboth\s+(?P<first>\S.*?)\s+and\s+(?P<second>[^?!.,;]*[^?!.,;\s])(?=\s*(?:[?.!].*)?$)",
                           re.IGNORECASE)
_COMPARED = re.compile(r"\b(?:[a-z]+er|more|less|fewer)\s+than\s+\d|\b(?:before|after|above|below|over|under|since)\s+\d",
                       re.IGNORECASE)


def both_compared(question: str) -> Alternatives | None:
    """The question split at "both A and B" that ends it, where A and B each compare a value with a number, asked
    for the things of both: one pattern cannot hold two things of one kind compared two ways."""
    if _YES_NO.match(question):
        return None
    found = _BOTH_CLAUSES.search(question)
    if found is None or not all(_COMPARED.search(found.group(g)) for g in ("first", "second")):
        return None
    return _split(question, found, found.group("first"), found.group("second"), both=True)


# "who have a dog but not a cat", "from airport 'ANC' but not from airport 'ABQ'", "in a concert in 2014 but not in
# any concert in 2015": what is excluded ends the question's sentence, worded as what it stands against
_BUT_NOT = re.compile(r"\s*,?\s+but\s+not\s+(?P<second>[^?!.,;]*[^?!.,;\s])(?=\s*(?:[?.!].*)?$)", re.IGNORECASE)
_ARTICLE = frozenset({"a", "an", "any", "the"})


def but_not_asked(question: str) -> Alternatives | None:
    """The question split at "A but not B" that ends it, asked for the things of A that are not things of B: B
    stands against as many words before "but" (A), which start alike (the same word, or both an article). None for a
    yes/no question or one with another negation."""
    found = _BUT_NOT.search(question)
    if found is None or _YES_NO.match(question) or len(_NEGATED.findall(question)) != 1:
        return None
    second = found.group("second").split()
    before = question[:found.start()].split()
    if len(before) <= len(second):
        return None
    first = before[-len(second):]
    if first[0].lower() != second[0].lower() and not {first[0].lower(), second[0].lower()} <= _ARTICLE:
        return None
    said = " ".join(second)
    asked = re.sub(r"\bany\b", "a", said, count=1) if "any" in {w.lower() for w in second[:2]} else said
    start = len(" ".join(before[:-len(second)])) + 1  # the first alternative's words start after a space
    stem, rest = question[:start], question[found.end():]
    return Alternatives(f"{stem}{' '.join(first)}{rest}", f"{stem}{asked}{rest}", (" ".join(first), said), excluded=True)


def _either_clauses(question: str) -> Alternatives | None:
    """The question split at "either A or B" that ends it, whatever A and B are (clauses, or a name with its
    kind); not two bare numbers ("aged either 32 or 33" is one range)."""
    found = _EITHER.search(question)
    if found is None or all(_NUMBER.fullmatch(found.group(g)) for g in ("first", "second")):
        return None
    return _split(question, found, found.group("first"), found.group("second"))


def said_name(said: str) -> str:
    """The name in an alternative as the question words it ("the 'Auditions' concert" -> "Auditions", "grade 7" ->
    "7", "the Transformer category" -> "Transformer")."""
    quoted = re.search(r"'([^']+)'|\"([^\"]+)\"", said)
    if quoted is not None:
        return quoted.group(1) or quoted.group(2)
    named = re.search(_NAME + r"|\d+(?:\.\d+)?", said)
    return named.group(0) if named is not None else said


def _split(question: str, found: re.Match[str], first: str, second: str, said: tuple[str, str] | None = None, *,
           named: bool = False, both: bool = False) -> Alternatives:
    """The question asked once with each alternative in place of the match (`said`: the alternatives as the question
    words them, where they are more than `first` and `second`)."""
    return Alternatives(_put(question, found, first), _put(question, found, second), said or (first, second),
                        named=named, both=both)


def _put(question: str, found: re.Match[str], alternative: str) -> str:
    """The question with the two alternatives replaced by one of them."""
    before = question[:found.start()]
    if before and not before.endswith(" "):
        before += " "
    return f"{before}{alternative}{question[found.end():]}"


# "the phone numbers of Lili Geier and Erhard Fried", "What do the Compensator Switch and the Flow Compensator
# cost?": two names joined by "and" (not the last two of a list of names, "Bennett, Best and Jacobson")
_TWO_NAMES = re.compile(r"(?<=[a-z] )(?:the\s+)?(?P<first>[A-Z0-9][\w'-]*(?:\s+[A-Z0-9][\w'-]*)*)\s+and\s+(?:the\s+)?"
                        r"(?P<second>[A-Z0-9][\w'-]*(?:\s+[A-Z0-9][\w'-]*)*)")
_JOINT = re.compile(r"\b(?:both|same|between|common|together|compare|than|either|neither)\b|^\s*(?:is|are|was|were|do|does|"
                    r"did|has|have|can)\b", re.IGNORECASE)


# a quoted title ("How many authors does "A Framework for the Automation and Execution of ..." have?")
_QUOTED = re.compile(r"(?<!\w)([\"\u201c\u2018]|')(?P<inside>.+?)([\"\u201d\u2019]|')(?!\w)")


def _quoted(question: str, found: re.Match[str]) -> bool:
    """Whether the match lies inside a quoted title: one name, whatever "and" or "or" it holds."""
    return any(q.start("inside") <= found.start() and found.end() <= q.end("inside") for q in _QUOTED.finditer(question))


def two_names_asked(question: str) -> tuple[str, str] | None:
    """The two names a question asks about one after the other ("... of A and B"), or None (also where the
    question relates them to each other: "both", "the same", "than", a yes/no question, or the names are
    in one quoted title)."""
    found = _TWO_NAMES.search(question)
    if found is None or _JOINT.search(question) or _quoted(question, found):
        return None
    return found.group("first"), found.group("second")


def one_of(question: str, both: tuple[str, str], name: str) -> str:
    """The question about one of the two names: "the phone numbers of A and B" -> "... of A"."""
    return re.sub(rf"{re.escape(both[0])}\s+and\s+(?:the\s+)?{re.escape(both[1])}", name, question, count=1)
