"""The rule-based question parser over spaCy (en_core_web_sm): used when no trained model is loaded or
the model's output cannot be used, so the gateway keeps answering.

What it does, in order: the form from the wh-analysis ("how many" -> count, a leading auxiliary ->
boolean, "average"/"sum of"/"maximum" -> aggregates); numeric comparisons ("more than 1000
employees", "older than 56", "before 1990"); superlatives and "ordered by" ("the three oldest" ->
order desc 3); entity phrases (quoted text, named entities, proper-noun runs, free numbers); the
answer's class ("Which city", "How many movies", "List all boardgames"); relation phrases (the
remaining verbs, prepositions, nouns and adjectives, grouped into contiguous runs). Each entity is
tied to its nearest relation phrase; an unused relation phrase before them becomes a hop through an
intermediate unknown ("the capital of the country where X flows into").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from understanding.answer_types import build_answer_type, rule_kind, wordset
from understanding.grading import ASCENDING, ATTRIBUTE_OF, COMPARATIVE_OPERATOR, number_value
from understanding.pgp import (
    ANSWER,
    TYPE_RELATION,
    Comparison,
    Ordering,
    PhraseGraphPattern,
    PhraseTriple,
    QuestionForm,
)

IMPERATIVES = wordset(
    "list give show name tell find return count display enumerate provide get identify mention state "
    "retrieve fetch"
)
BOOLEAN_STARTS = wordset("is are was were does do did has have had can could will would should")
WH_WORDS = wordset("what which who whom whose where when how why")
FILLERS = wordset(
    "me us all the a an some any each every also please different distinct there many much "
    "that this these those it its their his her them they"
)
_COUNT = re.compile(r"^\s*(how many|count)\b|\b(number|count) of\b", re.I)
_AVG = re.compile(r"\b(average|mean)\b", re.I)
_SUM = re.compile(r"\b(sum of|in total|total amount|combined)\b", re.I)
_MAX = re.compile(r"\b(maximum|max)\b", re.I)
_MIN = re.compile(r"\b(minimum|min)\b", re.I)
_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|(?<!\w)'([^']+)'(?!\w)")
_DESCENDING = re.compile(r"\b(descending|decreasing|desc|highest first|largest first)\b", re.I)
_ORDER_BY = re.compile(r"\b(?:ordered|sorted|ranked|order|sort)\s+(?:them\s+)?(?:by|of)\b", re.I)
_FORM_WORDS = wordset("average mean sum total maximum minimum max min number count")
_SKIP_ENTITY_LABELS = frozenset({"CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY"})


@dataclass
class _Span:
    start: int  # token index
    end: int  # exclusive
    text: str


@dataclass
class _Analysis:
    """Token roles found so far; a token belongs to at most one span."""

    used: set[int] = field(default_factory=set)
    entities: list[_Span] = field(default_factory=list)
    answer_class: _Span | None = None
    comparisons: list[tuple[str, str, int]] = field(default_factory=list)  # attribute, op, value
    ordering: tuple[str, bool, int | None, int] | None = None  # attribute, descending, limit, position
    hop_classes: list[_Span] = field(default_factory=list)

    def free(self, start: int, end: int) -> bool:
        return not any(i in self.used for i in range(start, end))

    def take(self, start: int, end: int) -> None:
        self.used.update(range(start, end))


def _span_text(doc: Any, start: int, end: int) -> str:
    return doc[start:end].text.strip(" \t?.!,;:")


class FallbackParser:
    """Parses questions with spaCy rules; never raises on any non-empty text."""

    def __init__(self, nlp: Any) -> None:
        self.nlp = nlp

    def parse_batch(self, questions: list[str]) -> list[tuple[PhraseGraphPattern, Any]]:
        docs = list(self.nlp.pipe(questions, batch_size=64))
        results = []
        for question, doc in zip(questions, docs, strict=True):
            pattern = self.pattern(question, doc)
            results.append((pattern, build_answer_type(rule_kind(question, pattern), pattern, confidence=0.6)))
        return results

    def pattern(self, question: str, doc: Any) -> PhraseGraphPattern:
        analysis = _Analysis()
        lower = question.lower()
        form = self._form(doc, lower)
        for i, token in enumerate(doc):
            filler = token.is_punct or token.lower_ in FILLERS or token.tag_ in ("WDT", "WP", "WP$", "WRB")
            auxiliary = token.pos_ == "AUX" or (token.lemma_ in ("be", "do") and token.dep_ in ("ROOT", "aux", "auxpass"))
            if filler or auxiliary:
                analysis.used.add(i)
        if doc and doc[0].lower_ in IMPERATIVES | {"how"}:
            analysis.used.add(0)
        for i, token in enumerate(doc):
            form_word = token.lower_ in _FORM_WORDS or (
                token.lower_ == "of" and i > 0 and doc[i - 1].lower_ in ("number", "count", "sum")
            )
            if form_word and (form is not QuestionForm.LIST or token.lower_ in ("number", "count")):
                analysis.used.add(i)
        self._quoted(question, doc, analysis)
        self._comparisons(doc, analysis)
        self._ordering(doc, lower, analysis)
        self._named_entities(doc, analysis)
        self._answer_class(doc, analysis, form)
        self._hop_classes(doc, analysis)
        relations = self._relation_runs(doc, analysis)
        return self._assemble(doc, form, analysis, relations)

    # --- form -------------------------------------------------------------------------------------
    @staticmethod
    def _form(doc: Any, lower: str) -> QuestionForm:
        if _COUNT.search(lower):
            return QuestionForm.COUNT
        first = doc[0].lower_ if len(doc) else ""
        if first in BOOLEAN_STARTS:
            return QuestionForm.BOOLEAN
        if _AVG.search(lower):
            return QuestionForm.AVG
        if _SUM.search(lower):
            return QuestionForm.SUM
        if _MAX.search(lower):
            return QuestionForm.MAX
        if _MIN.search(lower):
            return QuestionForm.MIN
        return QuestionForm.LIST

    # --- spans ------------------------------------------------------------------------------------
    @staticmethod
    def _quoted(question: str, doc: Any, analysis: _Analysis) -> None:
        for match in _QUOTED.finditer(question):
            start_char, end_char = match.span()
            span = doc.char_span(start_char, end_char, alignment_mode="expand")
            if span is None or not analysis.free(span.start, span.end):
                continue
            text = next(g for g in match.groups() if g is not None).strip()
            if text:
                analysis.entities.append(_Span(span.start, span.end, text))
                analysis.take(span.start, span.end)

    def _comparisons(self, doc: Any, analysis: _Analysis) -> None:
        for i, token in enumerate(doc):
            word = token.lower_
            value_at = None
            op = None
            if word in ("more", "less", "fewer", "greater") or token.tag_ in ("JJR", "RBR"):
                if i + 2 < len(doc) + 1 and i + 1 < len(doc) and doc[i + 1].lower_ == "than":
                    value_at = i + 2
                    op = COMPARATIVE_OPERATOR.get(word, ">" if word.endswith("er") else "<")
            elif word == "at" and i + 2 < len(doc) and doc[i + 1].lower_ in ("least", "most"):
                value_at, op = i + 2, (">=" if doc[i + 1].lower_ == "least" else "<=")
            elif word in ("over", "above", "exceeding", "under", "below", "after", "before", "since"):
                value_at, op = i + 1, COMPARATIVE_OPERATOR[word]
            if value_at is None or value_at >= len(doc) or not analysis.free(i, value_at + 1):
                continue
            value = number_value(doc[value_at].text)
            if value is None:
                continue
            end = value_at + 1
            if end < len(doc) and doc[end].lower_ in ("million", "billion", "thousand"):
                value = value * {"million": 10**6, "billion": 10**9, "thousand": 10**3}[doc[end].lower_]
                end += 1
            attribute = self._graded_attribute(doc, i, end, analysis)
            if attribute is None:
                continue
            analysis.comparisons.append((attribute, op or ">", value))
            analysis.take(i, end)

    @staticmethod
    def _graded_attribute(doc: Any, at: int, end: int, analysis: _Analysis) -> str | None:
        """The attribute a comparison or superlative is about: the noun after the number
        ("1000 employees"), the adjective's attribute ("older" -> age), or the noun before it."""
        if end < len(doc) and doc[end].pos_ in ("NOUN", "PROPN") and end not in analysis.used:
            stop = end + 1
            while stop < len(doc) and doc[stop].pos_ == "NOUN" and stop not in analysis.used:
                stop += 1
            analysis.take(end, stop)
            return doc[end:stop].text
        lemma = doc[at].lemma_.lower()
        if lemma in ATTRIBUTE_OF:
            return ATTRIBUTE_OF[lemma]
        if doc[at].lower_ not in ("more", "less", "fewer", "greater", "over", "under", "above", "below", "at"):
            return lemma
        for j in range(at - 1, -1, -1):
            if doc[j].pos_ == "NOUN":
                analysis.take(j, j + 1)
                return doc[j].text
        if doc[at].lower_ in ("after", "before", "since"):
            return "date"
        return None

    def _ordering(self, doc: Any, lower: str, analysis: _Analysis) -> None:
        match = _ORDER_BY.search(lower)
        if match:
            span = doc.char_span(match.start(), match.end(), alignment_mode="expand")
            if span is not None:
                stop = span.end
                while stop < len(doc) and (doc[stop].lower_ in ("the", "their", "its") or doc[stop].pos_ in ("NOUN", "ADJ", "PROPN", "VERB")):
                    stop += 1
                words = [t.text for t in doc[span.end:stop] if t.lower_ not in ("the", "their", "its")]
                if words:
                    analysis.ordering = (" ".join(words), bool(_DESCENDING.search(lower)), None, span.start)
                    analysis.take(span.start, stop)
                    for k in range(stop, len(doc)):
                        if doc[k].lower_ in ("in", "descending", "ascending", "order", "decreasing", "increasing", "desc", "asc"):
                            analysis.take(k, k + 1)
                    return
        for i, token in enumerate(doc):
            if token.tag_ not in ("JJS", "RBS") or i in analysis.used:
                continue
            word = token.lower_
            at = i
            if word in ("most", "least") and i + 1 < len(doc) and doc[i + 1].pos_ == "ADJ":
                at = i + 1
            limit = 1
            for j in range(max(0, i - 3), i):
                value = number_value(doc[j].text)
                if value is not None and isinstance(value, int) and doc[j].pos_ == "NUM":
                    limit = value
                    analysis.take(j, j + 1)
            if i > 0 and doc[i - 1].lower_ == "top":
                analysis.take(i - 1, i)
            noun_at = at + 1
            attribute: str
            head = token.head
            if noun_at < len(doc) and doc[noun_at].pos_ == "NOUN" and word in ("most", "least", "highest", "lowest", "largest", "greatest", "biggest", "smallest", "fewest") and head.i == noun_at and self._noun_is_attribute(doc, noun_at):
                attribute = doc[noun_at].text
                analysis.take(noun_at, noun_at + 1)
            else:
                lemma = doc[at].lemma_.lower()
                attribute = ATTRIBUTE_OF.get(lemma, lemma)
            descending = word not in ASCENDING and doc[at].lower_ not in ASCENDING
            analysis.ordering = (attribute, descending, limit, i)
            analysis.take(i, at + 1)
            return

    @staticmethod
    def _noun_is_attribute(doc: Any, at: int) -> bool:
        """"the highest population" names an attribute; "the highest mountain" a class."""
        token = doc[at]
        return token.dep_ in ("dobj", "pobj", "attr") and any(t.tag_ in ("WDT", "WP") for t in doc[:at])

    def _named_entities(self, doc: Any, analysis: _Analysis) -> None:
        for ent in doc.ents:
            start, end = ent.start, ent.end
            while start < end and doc[start].lower_ in ("the", "a", "an"):
                start += 1
            if start >= end or not analysis.free(start, end):
                continue
            if ent.label_ in _SKIP_ENTITY_LABELS and not any(t.like_num for t in doc[start:end]):
                continue
            analysis.entities.append(_Span(start, end, _span_text(doc, start, end)))
            analysis.take(start, end)
        i = 0
        while i < len(doc):
            token = doc[i]
            proper = token.pos_ == "PROPN" or (token.tag_ in ("NNP", "NNPS") and i > 0)
            if proper and i not in analysis.used and token.lower_ not in IMPERATIVES:
                j = i + 1
                while j < len(doc) and j not in analysis.used and (
                    doc[j].pos_ == "PROPN" or (doc[j].lower_ in ("of", "de", "the", "&") and j + 1 < len(doc) and doc[j + 1].pos_ == "PROPN")
                ):
                    j += 1
                text = _span_text(doc, i, j)
                if text:
                    analysis.entities.append(_Span(i, j, text))
                    analysis.take(i, j)
                i = j
                continue
            if token.like_num and i not in analysis.used:
                analysis.entities.append(_Span(i, i + 1, token.text))
                analysis.take(i, i + 1)
            i += 1
        analysis.entities.sort(key=lambda s: s.start)

    def _answer_class(self, doc: Any, analysis: _Analysis, form: QuestionForm) -> None:
        """The class of the answer: the noun of the wh-determiner ("which city"), of "how many", or
        the object of a leading imperative ("list all boardgames") unless that noun is an attribute
        ("give me the birth date of X")."""
        noun_at: int | None = None
        for i, token in enumerate(doc):
            if token.tag_ in ("WDT", "WP$") or (token.lower_ == "what" and token.dep_ == "det"):
                noun_at = self._noun_after(doc, i + 1, analysis)
                break
            if token.lower_ == "many" and i > 0 and doc[i - 1].lower_ == "how":
                noun_at = self._noun_after(doc, i + 1, analysis)
                break
            if i > 4:
                break
        if noun_at is None and form is not QuestionForm.BOOLEAN and len(doc) and doc[0].lower_ in IMPERATIVES:
            candidate = self._noun_after(doc, 1, analysis)
            if candidate is not None and not self._followed_by_of(doc, candidate, analysis):
                noun_at = candidate
        if noun_at is None and len(doc) > 3 and doc[0].lower_ in ("what", "which", "who") and doc[1].lemma_ == "be":
            candidate = self._noun_after(doc, 2, analysis)
            if candidate is not None and not self._followed_by_of(doc, candidate, analysis) and (
                doc[candidate].tag_ == "NNS" or analysis.ordering is not None
            ):
                noun_at = candidate
        if noun_at is None and form is QuestionForm.BOOLEAN:
            for i in range(1, len(doc) - 1):
                if doc[i].lower_ in ("a", "an") and (i - 1) in analysis.used and doc[i - 1].pos_ in ("PROPN", "NOUN", "NUM"):
                    noun_at = self._noun_after(doc, i + 1, analysis)
                    break
        if noun_at is None:
            return
        start = noun_at
        while start > 0 and (start - 1) not in analysis.used and doc[start - 1].pos_ in ("NOUN", "ADJ", "PROPN") and doc[start - 1].tag_ not in ("JJS", "JJR"):
            start -= 1
        end = noun_at + 1
        while end < len(doc) and end not in analysis.used and doc[end].pos_ == "NOUN" and doc[end].dep_ == "compound":
            end += 1
        text = _span_text(doc, start, end)
        if text:
            analysis.answer_class = _Span(start, end, text)
            analysis.take(start, end)

    @staticmethod
    def _noun_after(doc: Any, start: int, analysis: _Analysis) -> int | None:
        for j in range(start, min(len(doc), start + 5)):
            if doc[j].pos_ in ("NOUN",) and j not in analysis.used:
                k = j
                while k + 1 < len(doc) and doc[k + 1].pos_ == "NOUN" and (k + 1) not in analysis.used:
                    k += 1
                return k
            if doc[j].pos_ in ("VERB", "ADP", "AUX") or j in analysis.used and doc[j].pos_ == "PROPN":
                return None
        return None

    @staticmethod
    def _followed_by_of(doc: Any, at: int, analysis: _Analysis) -> bool:
        """An attribute noun ("the birth date of X", "the name, age and ...") rather than a class."""
        return at + 1 < len(doc) and doc[at + 1].lower_ in ("of", ",", "and")

    def _hop_classes(self, doc: Any, analysis: _Analysis) -> None:
        """A common noun with a relative clause ("the country where X flows into") is the class of an
        intermediate unknown."""
        for i, token in enumerate(doc):
            if i in analysis.used or token.pos_ != "NOUN":
                continue
            if any(child.dep_ in ("relcl", "acl") for child in token.children) and i + 1 < len(doc) and doc[i + 1].lower_ in ("where", "which", "that", "who", "whose", "whom"):
                analysis.hop_classes.append(_Span(i, i + 1, token.text))
                analysis.take(i, i + 1)

    @staticmethod
    def _relation_runs(doc: Any, analysis: _Analysis) -> list[_Span]:
        runs: list[_Span] = []
        i = 0
        while i < len(doc):
            if i in analysis.used or doc[i].pos_ in ("CCONJ", "PART", "PRON", "DET", "SCONJ") or doc[i].lower_ in BOOLEAN_STARTS:
                i += 1
                continue
            j = i
            while j < len(doc) and j not in analysis.used and doc[j].pos_ not in ("CCONJ", "PRON", "DET", "SCONJ", "PUNCT") and doc[j].lower_ not in ("'s", "’s"):
                j += 1
            start, end = i, j
            while start < end and doc[start].pos_ == "ADP" and end - start > 1:
                start += 1
            while end - start > 1 and doc[end - 1].pos_ == "ADP" and doc[end - 2].pos_ in ("NOUN", "ADJ", "PROPN"):
                end -= 1
            text = _span_text(doc, start, end)
            if text and any(t.pos_ in ("VERB", "NOUN", "ADJ", "ADP", "ADV", "NUM", "X", "PROPN", "INTJ") for t in doc[start:end]):
                runs.append(_Span(start, end, text))
            i = max(j, i + 1)
        return runs

    # --- graph ------------------------------------------------------------------------------------
    def _assemble(self, doc: Any, form: QuestionForm, analysis: _Analysis, relations: list[_Span]) -> PhraseGraphPattern:
        triples: list[PhraseTriple] = []
        counter = [1]

        def new_unknown() -> str:
            counter[0] += 1
            return f"?unknown{counter[0]}"

        entities = analysis.entities
        assigned: dict[int, _Span] = {}
        for index, entity in enumerate(entities):
            before = [r for r in relations if r.end <= entity.start]
            after = [r for r in relations if r.start >= entity.end]
            choice = None
            if before:
                choice = before[-1]
            if after and (choice is None or after[0].start - entity.end < entity.start - choice.end - 1):
                choice = after[0]
            if choice is not None:
                assigned[index] = choice
        used_relations = {id(r) for r in assigned.values()}

        if form is QuestionForm.BOOLEAN and len(entities) >= 2:
            subject = entities[0]
            relation = assigned.get(1) or assigned.get(0)
            if relation is None and analysis.answer_class is None:
                relation_text = "related to"
            else:
                relation_text = relation.text if relation else TYPE_RELATION
            for other in entities[1:]:
                triples.append(PhraseTriple(subject.text, relation_text, other.text))
            return self._finish(triples, form, analysis, new_unknown, doc)
        if form is QuestionForm.BOOLEAN and len(entities) == 1 and analysis.answer_class is not None and 0 not in assigned:
            triples.append(PhraseTriple(entities[0].text, TYPE_RELATION, analysis.answer_class.text))
            return self._finish(triples, form, analysis, new_unknown, doc, class_used=True)

        spare = [r for r in relations if id(r) not in used_relations]
        hop_node = ANSWER
        first_entity_at = entities[0].start if entities else len(doc)
        leading = [r for r in spare if r.end <= first_entity_at and (analysis.ordering is None or r.start != analysis.ordering[3])]
        if entities and leading and assigned and (analysis.hop_classes or doc[leading[-1].end - 1].pos_ == "NOUN"):
            nxt = new_unknown()
            triples.append(PhraseTriple(hop_node, " ".join(r.text for r in leading), nxt))
            hop_node = nxt
            for hop_class in analysis.hop_classes:
                triples.append(PhraseTriple(hop_node, TYPE_RELATION, hop_class.text))
            spare = [r for r in spare if r not in leading]
        for index, entity in enumerate(entities):
            relation = assigned.get(index)
            triples.append(PhraseTriple(hop_node, relation.text if relation else "related to", entity.text))
        if not entities:
            for relation in spare[:2] if not (analysis.answer_class and (analysis.comparisons or analysis.ordering)) else []:
                triples.append(PhraseTriple(ANSWER, relation.text, new_unknown()))
        return self._finish(triples, form, analysis, new_unknown, doc)

    @staticmethod
    def _finish(
        triples: list[PhraseTriple],
        form: QuestionForm,
        analysis: _Analysis,
        new_unknown: Any,
        doc: Any,
        class_used: bool = False,
    ) -> PhraseGraphPattern:
        if analysis.answer_class is not None and not class_used:
            triples.insert(0, PhraseTriple(ANSWER, TYPE_RELATION, analysis.answer_class.text))
        comparisons: list[Comparison] = []
        attribute_nodes: dict[str, str] = {}

        def attribute_node(attribute: str) -> str:
            if attribute.lower() not in attribute_nodes:
                node = new_unknown()
                attribute_nodes[attribute.lower()] = node
                triples.append(PhraseTriple(ANSWER, attribute, node))
            return attribute_nodes[attribute.lower()]

        for attribute, op, value in analysis.comparisons:
            comparisons.append(Comparison(attribute_node(attribute), op, str(value)))
        ordering = None
        if analysis.ordering is not None:
            attribute, descending, limit, _ = analysis.ordering
            ordering = Ordering(attribute_node(attribute), descending, limit)
        if not triples:
            words = [t.text for t in doc if not t.is_punct and not t.is_stop] or [t.text for t in doc if not t.is_punct]
            triples.append(PhraseTriple(ANSWER, "related to", " ".join(words) or doc.text))
        notes = ("rules over spaCy en_core_web_sm",)
        return PhraseGraphPattern(tuple(_clean(t) for t in triples), form, ordering, tuple(comparisons), notes=notes)


def _clean(triple: PhraseTriple) -> PhraseTriple:
    return PhraseTriple(clean_phrase(triple.subject), clean_phrase(triple.relation), clean_phrase(triple.object))


def clean_phrase(phrase: str) -> str:
    """Keeps a phrase inside the text form: the separators `|`, `::` and ` ; ` cannot occur in it."""
    cleaned = phrase.replace("|", "/").replace("::", ":").replace(" ; ", ", ")
    cleaned = re.sub(r"\s+", " ", cleaned).strip()
    return cleaned or "?"
