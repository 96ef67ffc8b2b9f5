"""Per-group answers: "How many employees does each department have?", "What is the average weight of
the products in each category?".

The derivation leaves per-group aggregates out of the training patterns, so the model reads such a
question as one total (`count :: ?u1 | is a | employees`), which is a wrong answer. The parse says
which noun groups ("each N", "every N", "per N") and which noun is counted ("how many X", "the
number of X"); the model's readings then get that noun as a group unknown (`group ?u2`):

- a name the reading made of it becomes the group ("How many parts does each bill of material
  have?": `?u1 | parts | bill of material` -> `?u1 | parts | ?u2 ; ?u2 | is a | bill of material`);
- an unknown the reading already typed as it, or reached by an edge named so, is the group;
- a reading that counts the groups themselves ("How many orchestras does each record company have?"
  read as `count :: ?u1 | is a | record company`) counts the counted noun instead, grouped;
- otherwise the counted thing (or the owner of the aggregated value) gets an edge named after the
  group noun ("?u1 | department | ?u2"), which linking reads as a predicate or as a class.

Readings that cannot be grouped so are dropped: a total where the question asks per group would be
a wrong answer, and no answer is better.

The best of each group ("Which product is the heaviest in each category?") is read from the question
without its group (`without_group`), which the model reads well, and that ranking gets the group
(`with_best_of_group`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from understanding.coverage import QUOTED
from understanding.grading import SHOWN_BY, same_words, singular
from understanding.pgp import (
    ANSWER,
    TYPE_RELATION,
    PhraseGraphPattern,
    PhraseTriple,
    QuestionForm,
    is_unknown,
    next_unknown_number,
)

GROUPING_WORDS = re.compile(r"\b(?:each|every|per)\b", re.IGNORECASE)
_LINK_WORDS = r"(?:in|of|for|from|at|with|by|to)"


@dataclass(frozen=True)
class GroupNoun:
    """What a question groups by, as written."""

    phrase: str  # "department", "bill of material", "product manager"
    marker: str  # the words to take out of the model's phrases: "each department", "per category"
    counted: str | None  # the noun "how many" or "the number of" counts ("employees"), if any
    restrictions: tuple[tuple[str, str], ...] = ()  # the group noun's own conditions: ("in", "Japan")


def group_noun(doc: Any) -> GroupNoun | None:
    """The one noun the parsed question groups by, or None."""
    quoted = [m.span() for m in QUOTED.finditer(doc.text)]  # "per" in a quoted title groups nothing
    markers = [t for t in doc if ((t.lower_ in ("each", "every") and t.dep_ == "det")
                                  or (t.lower_ == "per" and t.dep_ == "prep" and not _in_a_name(doc, t)))
               and not any(start <= t.idx < end for start, end in quoted)]
    if len(markers) != 1:
        return None
    marker = markers[0]
    noun = marker.head if marker.lower_ != "per" else next((c for c in marker.children if c.dep_ == "pobj"), None)
    if noun is None or noun.pos_ not in ("NOUN", "PROPN") or noun.i < marker.i:
        return None
    words = [c for c in _left_compounds(noun) if c.i > marker.i] + [noun]
    restrictions: list[tuple[str, str]] = []
    for prep in (c for c in noun.children if c.dep_ == "prep" and c.i > noun.i):
        objects = [c for c in prep.children if c.dep_ == "pobj"]
        if not objects:
            continue
        target = objects[0]
        span = [t for t in target.subtree if t.dep_ != "det"]
        if prep.lower_ == "of" and not any(c.dep_ == "det" for c in target.children):
            words += [prep, *span]  # "bill of material"
        elif target.pos_ == "PROPN":
            restrictions.append((prep.lower_, " ".join(t.text for t in sorted(span, key=lambda t: t.i))))
    words.sort(key=lambda t: t.i)
    after = doc[words[-1].i + 1] if words[-1].i + 1 < len(doc) else None
    if after is not None and after.dep_ == "prep" and after.head.i != noun.i and not restrictions:
        objects = [c for c in after.children if c.dep_ == "pobj" and c.pos_ == "PROPN"]
        if objects:  # "the products of each supplier in Japan", "in Japan" attached to "products"
            span = sorted((t for t in objects[0].subtree if t.dep_ != "det"), key=lambda t: t.i)
            restrictions.append((after.lower_, " ".join(t.text for t in span)))
    if len(words) > 1 and words[-1] is noun and _verb_read_as_noun(doc, noun):
        words = words[:-1]  # "How many products does each supplier supply?": "supply" is the verb
    phrase = " ".join(t.text for t in words)
    marker_text = " ".join(t.text for t in doc[marker.i:words[-1].i + 1])
    return GroupNoun(phrase, marker_text, _counted_noun(doc, noun), tuple(restrictions))


def _in_a_name(doc: Any, token: Any) -> bool:
    """"per" inside a name or measure after a capitalised word ("the highest Bits per byte score")."""
    return token.i > 1 and doc[token.i - 1].text[:1].isupper()


def _verb_read_as_noun(doc: Any, noun: Any) -> bool:
    """Whether the parser took the verb of "does each N <verb>?" for the last word of the noun: after
    an auxiliary "do", no verb follows, and the noun ends the question."""
    aux = [t for t in doc if t.lemma_ == "do" and t.i < noun.i]
    rest = [t for t in doc[noun.i + 1:] if not t.is_punct]
    return bool(aux) and not rest and not any(t.pos_ == "VERB" for t in doc[aux[0].i + 1:])


def _counted_noun(doc: Any, group: Any) -> str | None:
    """The noun of "how many X" or "the number of X"."""
    for token in doc:
        if token.lower_ == "many" and token.i > 0 and doc[token.i - 1].lower_ == "how" and token.head.pos_ == "NOUN":
            return _compound(token.head) if token.head.i != group.i else None
        if token.lower_ == "number":
            for prep in (c for c in token.children if c.dep_ == "prep" and c.lower_ == "of"):
                nouns = [c for c in prep.children if c.dep_ == "pobj" and c.pos_ == "NOUN"]
                if nouns and nouns[0].i != group.i:
                    return _compound(nouns[0])
    return None


def _left_compounds(noun: Any) -> list[Any]:
    """The words before a noun that make one compound with it, also through one another ("template" of "template
    type code", a compound of "type")."""
    words = []
    for child in (c for c in noun.children if c.i < noun.i and c.dep_ in ("compound", "amod") and c.lower_ != "many"):
        words += [*_left_compounds(child), child]
    return words


def _compound(noun: Any) -> str:
    return " ".join(t.text for t in sorted([*_left_compounds(noun), noun], key=lambda t: t.i))


def grouped_readings(readings: list[PhraseGraphPattern], group: GroupNoun) -> list[PhraseGraphPattern]:
    """The readings that can be grouped by `group`, grouped, best first and without repeats; where none can, those
    that typed the aggregated value's owner as the group ("What is the average pet age for each pet type?" read as
    `avg :: ?u1 | pet age | ?u2 ; ?u2 | is a | pet type`), grouped by the owner's group noun instead."""
    out: list[PhraseGraphPattern] = []
    for retyped in (False, True):
        for reading in readings:
            grouped = with_group(reading, group, owner_typed=retyped)
            if grouped is not None and grouped not in out:
                out.append(grouped)
        if out:
            break
    return out


def with_group(pattern: PhraseGraphPattern, group: GroupNoun, *, owner_typed: bool = False) -> PhraseGraphPattern | None:
    """`pattern` answering once per `group`, or None where it cannot. `owner_typed`: an owner of the aggregated
    value typed as the group is grouped by the group noun as its relation (else None: another reading may say what
    the owner is)."""
    form = pattern.form
    if not form.is_aggregate:
        if group.counted is None or form is not QuestionForm.LIST:
            return None
        form = QuestionForm.COUNT  # "List each department with its number of employees."
    elif form is not QuestionForm.COUNT and group.counted is not None:
        return None  # "the average number of employees per department": an aggregate of counts
    if pattern.form.is_aggregate and pattern.ordering is not None and not pattern.ordering.per_group \
            and (pattern.ordering.limit is None or _restates_extreme(pattern)):
        pattern = replace(pattern, ordering=None)  # an aggregate has one value: a plain ordering the model added says nothing
    if pattern.ordering is not None or pattern.grouped or pattern.group or pattern.projection != (ANSWER,):
        return None
    triples = _without_marker(pattern.triples, group.marker)
    if triples is None:
        return None
    fresh = f"?unknown{next_unknown_number(n for t in triples for n in t.nodes())}"
    owner = _value_owner(triples, form)
    node: str | None = None
    for name in {n for t in triples for n in t.nodes() if not is_unknown(n) and not t.is_type}:
        if same_words(name, group.phrase):  # a name the reading made of the group noun
            triples = [PhraseTriple(fresh if t.subject == name else t.subject, t.relation,
                                    fresh if t.object == name else t.object) for t in triples]
            triples.append(PhraseTriple(fresh, TYPE_RELATION, group.phrase))
            node = fresh
            break
    if node is None:
        node = next((t.subject for t in triples if t.is_type and t.subject != ANSWER and same_words(t.object, group.phrase)),
                    None)
        if node is not None and node == owner and form is not QuestionForm.COUNT:
            if not owner_typed:
                return None  # "the average height of the people of each nationality" typed the owner so
            triples = [t for t in triples if not (t.is_type and t.subject == owner and same_words(t.object, group.phrase))]
            node = None  # grouped below by the owner's relation named by the group noun
    if node is None:
        node = next((other for t in triples if not t.is_type and owner in t.nodes() and same_words(t.relation, group.phrase)
                     for other in t.nodes() if other != owner and is_unknown(other)), None)
    if node is None and form is QuestionForm.COUNT and any(
            t.is_type and t.subject == ANSWER and same_words(t.object, group.phrase) for t in triples):
        if group.counted is None:
            return None
        triples = [PhraseTriple(ANSWER, TYPE_RELATION, group.counted) if t.is_type and t.subject == ANSWER else t
                   for t in triples]  # the reading counted the groups: count the counted noun instead
    if node is None:
        node = fresh
        triples.append(PhraseTriple(owner, group.phrase, node))
    if node == ANSWER:
        return None
    if form is QuestionForm.COUNT and group.counted is not None:
        triples = _counting_the_counted(triples, node, group)
    triples = _restricted(triples, node, group)
    return replace(pattern, triples=tuple(triples), form=form, group=(node,))


def _counting_the_counted(triples: list[PhraseTriple], node: str, group: GroupNoun) -> list[PhraseTriple]:
    """A count per group that counts the counted noun, where the reading counted something else:
    - the group typed as the counted noun ("Show each city and the number of airports in it" read as
      `?u1 | city | ?u2 ; ?u2 | is a | airports :: group ?u2`): the answer and the group change places;
    - the answer only the group's name or id ("For each museum, show the museum name and the number of
      visits" read as `?u1 | name | ?u2 ; ?u2 | is a | museum`): the answer becomes the counted noun,
      tied to the group by the group noun (the group is answered with its name anyway)."""
    def words(phrase: str) -> set[str]:
        return {singular(w) for w in phrase.lower().split()}

    counted = words(group.counted)
    if any(t.is_type and t.subject == node and words(t.object) <= counted for t in triples) and not any(
            t.is_type and t.subject == ANSWER for t in triples):
        swapped = {ANSWER: node, node: ANSWER}
        return [PhraseTriple(swapped.get(t.subject, t.subject), t.relation, swapped.get(t.object, t.object))
                for t in triples]
    answered = [t for t in triples if ANSWER in t.nodes()]
    if len(answered) == 1 and not answered[0].is_type and node in answered[0].nodes() \
            and answered[0].relation.lower() in SHOWN_BY \
            and not any(words(p) & counted for t in triples for p in (t.relation, t.object)):
        return [t for t in triples if t is not answered[0]] + [PhraseTriple(ANSWER, TYPE_RELATION, group.counted),
                                                              PhraseTriple(ANSWER, group.phrase, node)]
    return triples


def _restates_extreme(pattern: PhraseGraphPattern) -> bool:
    """A MAX ordered by its own value descending (a MIN ascending): "the highest price" read twice,
    as the aggregate and as an ordering of its one value."""
    ordering = pattern.ordering
    return ordering is not None and ordering.node == ANSWER and (
        (pattern.form is QuestionForm.MAX and ordering.descending)
        or (pattern.form is QuestionForm.MIN and not ordering.descending))


def _marked(marker: str) -> str:
    """The pattern of a group marker as written, with the word that links it ("in each category")."""
    return rf"\b(?:{_LINK_WORDS}\s+)?{re.escape(marker)}\b"


def _without_marker(triples: tuple[PhraseTriple, ...], marker: str) -> list[PhraseTriple] | None:
    """The triples with "in each category" taken out of their phrases ("products in each category" ->
    "products"); a triple left without a phrase goes."""
    taken = re.compile(rf"\s*{_marked(marker)}", re.IGNORECASE)
    out: list[PhraseTriple] = []
    for triple in triples:
        parts = [taken.sub("", p).strip() if not is_unknown(p) else p
                 for p in (triple.subject, triple.relation, triple.object)]
        if any(not p for p in parts):
            continue
        out.append(PhraseTriple(*parts))
    return out if any(ANSWER in t.nodes() for t in out) else None


def _value_owner(triples: list[PhraseTriple], form: QuestionForm) -> str:
    """The node the group hangs off: what is counted, or what has the aggregated value (the answer
    itself when typed, "the average age of the conductors": the conductor)."""
    if form is QuestionForm.COUNT or any(t.is_type and t.subject == ANSWER for t in triples):
        return ANSWER
    return next((n for t in triples if not t.is_type and ANSWER in t.nodes() for n in t.nodes()
                 if n != ANSWER and is_unknown(n)), ANSWER)


def _restricted(triples: list[PhraseTriple], node: str, group: GroupNoun) -> list[PhraseTriple]:
    """The group noun's own conditions ("each supplier in Japan") on the group: a triple the reading
    hung the name on elsewhere moves to it."""
    for preposition, name in group.restrictions:
        kept = [t for t in triples if not (name in t.nodes() and node not in t.nodes() and not t.is_type)]
        if len(kept) < len(triples) and any(ANSWER in t.nodes() for t in kept):
            triples = kept
        if not any(name in t.nodes() for t in triples):
            triples.append(PhraseTriple(node, preposition, name))
    return triples


def without_group(question: str, group: GroupNoun) -> str | None:
    """The question with its group taken out ("Which product is the heaviest in each category?" ->
    "Which product is the heaviest?"), to be read as a plain ranking; None where the marker is not
    found or grouping words remain."""
    restrictions = "".join(rf"(?:\s+{re.escape(p)}\s+{re.escape(n)})?" for p, n in group.restrictions)
    found = re.search(rf",?\s*{_marked(group.marker)}{restrictions}\s*,?", question, re.IGNORECASE)
    if found is None:
        return None
    stripped = f"{question[:found.start()]} {question[found.end():]}".strip()
    stripped = re.sub(r"\s+([?.!,])", r"\1", re.sub(r"\s+", " ", stripped)).lstrip(", ")
    if not stripped or GROUPING_WORDS.search(stripped):
        return None
    return stripped[0].upper() + stripped[1:]


def with_best_of_group(pattern: PhraseGraphPattern, group: GroupNoun) -> PhraseGraphPattern | None:
    """A ranking read from the question without its group (`without_group`) answering the best of
    each group: `?u1 | category | ?u3 ... :: group ?u3`, the group noun's own conditions on the group.
    None unless it ranks by one of the answer's values or by a count per answer and keeps the best
    (limit 1)."""
    ordering = pattern.ordering
    if pattern.form is not QuestionForm.LIST or ordering is None or ordering.limit != 1 or ordering.node == ANSWER \
            or pattern.group or any(c.by_count for c in pattern.comparisons) or pattern.projection != (ANSWER,):
        return None
    # the group belongs to the thing ranked ("the code of the product that is cheapest in each category":
    # the product's category, not the code's); ranked by a count, the answer
    ranked = ANSWER if ordering.per_group else next(
        (other for t in pattern.triples if not t.is_type and ordering.node in t.nodes()
         for other in t.nodes() if other != ordering.node and is_unknown(other)), ANSWER)
    node = f"?unknown{next_unknown_number(pattern.unknowns())}"
    triples = _restricted([*pattern.triples, PhraseTriple(ranked, group.phrase, node)], node, group)
    return replace(pattern, triples=tuple(triples), group=(node,))
