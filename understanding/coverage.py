"""What a phrase graph pattern cannot say, detected in the question so that the answer is empty
rather than wrong.

Negation ("singers who are not from France", "papers without a dataset") has no PGP form the model
writes: it was never trained on it (the derivation finds 494 of 507 negated non-yes/no training questions not
representable) and a pattern without the negation answers the opposite question. Where the parser
could negate the governed relation in the reading of the question without its negation
(`positive_question`, `with_negation`), the pattern says it. Yes/no questions
are left alone: their negations are mostly paraphrase artefacts ("Wasn't X not not published...").
"""

from __future__ import annotations

import re
from dataclasses import replace

from understanding.pgp import (
    ANSWER,
    NEGATION,
    TYPE_RELATION,
    PhraseGraphPattern,
    PhraseTriple,
    QuestionForm,
    is_unknown,
    next_unknown_number,
)

QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|“[^”]*”")  # a quoted title: its words are the title's, not the question's
_NEGATION = re.compile(r"\b(?:not|never|without|lacks?|lacking|except|excluding|(?:do|does|did|is|are|was|were|has|have|had)n't|"
                       r"(?<=have )no|(?<=has )no|(?<=had )no|(?<=with )no)\b(?!\s+(?:more|less|fewer|later|earlier)\b)"
                       r"(?!\s+[a-z]+er\s+than\b)")  # "not older than 40": a bound, at most 40


def unsupported_reason(question: str, pattern: PhraseGraphPattern) -> str | None:
    """Why the pattern cannot stand for the question (None when it can, as far as we can tell)."""
    if pattern.form is QuestionForm.BOOLEAN or any(t.negated for t in pattern.triples):
        return None  # (a negated relation says it: "?u1 | not located in | United States")
    match = _NEGATION.search(QUOTED.sub(" ", question))
    if match is None:
        return None
    return (f"negation ({match.group(0)!r}) has no phrase graph pattern form; "
            "the KGQAN path answers nothing rather than the un-negated question")


_NEGATED_VERB = re.compile(r"\b(?:(?P<aux>do|does|did)\s+not|(?P<be>are|is|were|was|have|has|had)\s+(?:not|never)|"
                           r"(?P<never>never)|"
                           r"(?P<aux2>do|does|did)n't|(?P<be2>are|is|were|was|have|has|had)n't|"
                           r"(?P<have>have|has|had|with)\s+no(?!\s+(?:more|less|fewer|later|earlier)\b)|"
                           r"(?P<without>without)(?:\s+(?:an?|any))?|(?P<lack>lacks?|lacking)(?:\s+(?:an?|any))?|"
                           r"(?<=[a-z]s )not(?=\s+[a-z]+ed\b))\s+"
                           r"(?P<rest>[^?.!]*)",
                           re.I)
_STOP = frozenset({"the", "a", "an", "in", "of", "by", "to", "from", "at", "on", "for", "with", "as"})


def positive_question(question: str) -> tuple[str, list[str]] | None:
    """The question without its one negated verb ("Which suppliers are not located in Japan?" ->
    "Which suppliers are located in Japan?", "Which papers never provide ..." -> "Which papers provide ...")
    and the content words the negation governs ("located",
    "japan"); None when the question's negation is not of that shape."""
    if len(_NEGATION.findall(QUOTED.sub(" ", question))) != 1:
        return None
    found = _NEGATED_VERB.search(question)
    if found is None:
        return None
    kept = found.group("be") or found.group("be2") or ""
    if found.group("have"):  # "Which employees have no phone number?" -> "... have a phone number?"
        kept = f"{found.group('have')} a"
    if found.group("without"):  # "employees without a phone number" -> "... with a phone number"
        kept = "with a"
    if found.group("lack"):  # "Which parts lack a reliability index?" -> "... have a reliability index?"
        kept = "with a" if found.group("lack") == "lacking" else "has a" if found.group("lack") == "lacks" else "have a"
    positive = question[:found.start()] + (kept + " " if kept else "") + found.group("rest") + question[found.end():]
    rest = found.group("rest")
    if found.group("have") or found.group("without") or found.group("lack"):  # "with no X are supplied by ...": the X
        rest = re.split(r"\b(?:are|is|was|were|that|which|who|and|or|but|in|by|from)\b", rest, maxsplit=1)[0]
    words = [w.lower() for w in re.findall(r"[A-Za-z0-9]+", rest) if w.lower() not in _STOP]
    return (positive, words) if words else None


def with_negation(pattern: PhraseGraphPattern, words: list[str]) -> PhraseGraphPattern | None:
    """The positive question's pattern with the relation the negation governs negated: the one
    non-type triple sharing the most of `words` (its relation and named end, then its relation); None when no triple or
    more than one fits best, or when the triple holds an ordered value or one compared elsewhere too (a
    value only it reaches may be compared: "do not provide a replication package", `?u2 != false`)."""
    if pattern.form not in (QuestionForm.LIST, QuestionForm.COUNT):
        return None
    wanted = set(words)

    def shared(triple: PhraseTriple) -> tuple[int, int]:
        """Words shared by the relation and its named end, then by the relation alone: the verb a
        negation governs ("not managed by someone from Marketing") over the name it reaches."""
        named = "" if is_unknown(triple.object) else triple.object
        said = {w.lower() for w in re.findall(r"[A-Za-z0-9]+", triple.relation)}
        return len(wanted & (said | {w.lower() for w in re.findall(r"[A-Za-z0-9]+", named)})), len(wanted & said)

    scored = sorted(((shared(t), i) for i, t in enumerate(pattern.triples) if not t.is_type and not t.negated),
                    reverse=True)
    if not scored or scored[0][0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    index = scored[0][1]
    triple = pattern.triples[index]
    elsewhere = {n for t in pattern.triples if t != triple for n in t.nodes()}
    compared_here = {c.node for c in pattern.comparisons if not c.by_count and c.other_node is None} - elsewhere
    if set(triple.nodes()) & (pattern.modified_nodes() - compared_here):
        return None  # "not in the largest major": an ordering inside the negation has no query form here
    triples = (*pattern.triples[:index], PhraseTriple(triple.subject, NEGATION + triple.relation, triple.object),
               *pattern.triples[index + 1:])
    return replace(pattern, triples=triples)


# the clause a negation governs, read as what the things before it do not do: "don't own a pet", "not used by any
# document", "have not been arranged to teach courses", "don't have any teacher assigned to them"
_NEGATED_CLAUSE = re.compile(r"\b(?:(?:do|does|did|have|has|had)\s+not|(?:do|does|did|have|has|had)n't|never|not)\s+"
                             r"(?:(?:been|be|ever|get|got)\s+)?(?P<verb>(?!(?:in|at|on|for|with|from|to|of|by|as|a|an|the|any|only|just|"
                             r"more|less|all|one)\b)[a-z]+(?:\s+(?:to\s+[a-z]+|by|in|at|on|for|with|from|"
                             r"into))?)\s+(?:(?P<det>any|an?|the)\s+)?(?P<thing>[a-z]+(?:\s+(?![a-z]+ed\b)[a-z]+)?)(?=\s*(?:[?.!,]|$)|\s+[a-z]+ed\b|"
                             r"\s+(?:to|for|in|by|with)\s+(?:it|them)\b)", re.IGNORECASE)
_HAVE = frozenset({"have", "has", "had"})


def with_negated_clause(pattern: PhraseGraphPattern, question: str) -> PhraseGraphPattern | None:
    """The positive question's pattern, where the model lost the negated clause (no triple to negate), with the
    clause added negated on the kind named last before it: "Which female students older than 19 don't own a pet?"
    -> `... ; ?u1 | not own | ?u3 ; ?u3 | is a | pet` (having: `?u1 | not teacher | ?u3 ; ?u3 | is a | teacher`);
    a thing after "the" is a value (`?u1 | not own | the cat`'s `cat`). None where the clause is not of that shape,
    no kind is named before it, or a word of it is in the pattern already."""
    found = _NEGATED_CLAUSE.search(QUOTED.sub(" ", question))
    if found is None or pattern.form not in (QuestionForm.LIST, QuestionForm.COUNT):
        return None
    verb, thing = found.group("verb").lower(), found.group("thing").lower()
    said = {w.lower() for t in pattern.triples for part in (t.subject, t.object, t.relation) if not is_unknown(part)
            for w in re.findall(r"[A-Za-z0-9]+", part)}
    if (set(verb.split()) - _STOP - _HAVE) & said or thing in said:
        return None
    before = question[:found.start()].lower()
    placed = [(before.rfind(t.object.lower()), t.subject) for t in pattern.triples
              if t.is_type and is_unknown(t.subject) and before.rfind(t.object.lower()) >= 0]
    if not placed:
        return None
    node = max(placed)[1]
    relation = thing if verb in _HAVE else verb
    if found.group("det") and found.group("det").lower() == "the":
        added: tuple[PhraseTriple, ...] = (PhraseTriple(node, NEGATION + relation, thing),)
    else:
        some = f"?unknown{next_unknown_number(pattern.unknowns())}"
        added = (PhraseTriple(node, NEGATION + relation, some), PhraseTriple(some, TYPE_RELATION, thing))
    return replace(pattern, triples=(*pattern.triples, *added))


# "Which products managed by Sabrina Bayer are not sensors?", "Which employees aren't managers?": the answer is
# said not to be of a kind (a plural noun, or a singular one after "a"/"an"), at the end of the question
_NOT_OF_KIND = re.compile(r"\s+(?:(?:are|is|were|was)\s+not|(?:are|is|were|was)n't)\s+(?!(?:in|on|at|from|by|of|for|with|"
                          r"under|over|part|made|used|sold|available|active|any|all|the|our|their|yet)\b)"
                          r"(?:(?:an?\s+)(?P<one>[a-z]+(?:\s+[a-z]+)?)|(?P<many>(?:[a-z]+\s+)?[a-z]+[^s\W]s))\s*[?.!]?\s*$")


# "What is the Marketing department responsible for, not counting services?": things of a kind left out, said last
_EXCEPT_KIND = re.compile(r",?\s+(?:not\s+counting|except(?:\s+for)?|excluding|other\s+than|apart\s+from|but\s+not)\s+"
                          r"(?:the\s+|any\s+)?(?P<many>(?:[a-z]+\s+)?[a-z]+[^s\W]s)\s*[?.!]?\s*$")


def negated_kind(question: str) -> tuple[str, str] | None:
    """The question without its closing "are not <kind>" (or ", not counting <kinds>") and that kind ("Which
    products managed by Sabrina Bayer are not sensors?" -> "Which products managed by Sabrina Bayer?",
    "sensors"), or None."""
    if len(_NEGATION.findall(QUOTED.sub(" ", question))) != 1:
        return None
    excepted = _EXCEPT_KIND.search(question)
    if excepted is not None:
        return question[:excepted.start()].rstrip() + "?", excepted.group("many").lower()
    found = _NOT_OF_KIND.search(question)
    if found is None or found.group(0).rstrip().endswith(("ed", "ed?", "ed.")):
        return None
    return question[:found.start()].rstrip() + "?", (found.group("one") or found.group("many")).lower()


def with_negated_kind(pattern: PhraseGraphPattern, kind: str) -> PhraseGraphPattern | None:
    """The reading of the question without its "are not <kind>" with the answer said not to be of that kind
    (`?u1 | not is a | sensors`); None for forms other than lists and counts, or a reading without the answer."""
    if pattern.form not in (QuestionForm.LIST, QuestionForm.COUNT) or not any(ANSWER in t.nodes() for t in pattern.triples):
        return None
    return replace(pattern, triples=(*pattern.triples, PhraseTriple(ANSWER, NEGATION + TYPE_RELATION, kind)))
