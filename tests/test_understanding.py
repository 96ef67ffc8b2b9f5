"""Question understanding: the PGP text form, the parser API, the spaCy fallback, answer types.

Questions here are in the style of the *training* data (LC-QuAD, Spider4SPARQL), never from the
evaluation graphs in shared/data/kgs.
"""

from __future__ import annotations

import asyncio

import pytest

from understanding import (
    AnswerKind,
    InvalidQuestion,
    PGPParseError,
    PhraseGraphPattern,
    QuestionForm,
    QuestionParser,
    get_parser,
)
from understanding.parser import ModelOutput

ROUND_TRIP = [
    "count :: ?u1 | directed by | Stanley Kubrick ; ?u1 | is a | movies",
    "list :: ?u1 | is a | singers ; ?u1 | age | ?u2 :: order ?u2 desc 3",
    "boolean :: ?u1 | member of | Sales ; ?u1 | name | Karen Brant",
    "list :: ?u1 | is a | heads ; ?u1 | age | ?u2 :: filter ?u2 > 56 :: select ?u1 ?u2",
    "boolean :: Michelle Obama | wife | Barack Obama",
    "avg :: ?u2 | is a | singers ; ?u2 | age | ?u1",
    "list :: ?u1 | capital | ?u2 ; ?u2 | flows into | Danish Straits :: order ?u1 asc",
]

MALFORMED = [
    ("", "expected 'form :: triples'"),
    ("list ?u1 | is a | city", "expected 'form :: triples'"),
    ("question :: ?u1 | is a | city", "unknown question form"),
    ("list :: ?u1 | is a", "three non-empty parts"),
    ("list :: ?u1 |  | city", "three non-empty parts"),
    ("list :: Paris | capital of | France", "has no unknown"),
    ("list :: ?u1 | is a | city :: order ?u1 sideways", "order must be"),
    ("list :: ?u1 | is a | city :: order ?u1 desc zero", "positive integer"),
    ("list :: ?u1 | is a | city :: filter ?u1 ~ 3", "unknown comparison operator"),
    ("list :: ?u1 | is a | city :: order ?u3 desc", "appears in no triple"),
    ("list :: ?u1 | is a | city :: limit 3", "unknown section"),
    ("list :: ?u1 | is a | city :: select Paris", "must be an unknown"),
    ("list ::  ", "at least one triple"),
]


class UnparseableModel:
    """A model whose output is not a PGP, to see the parser fall back and say so."""

    def __init__(self) -> None:
        self.calls = 0

    def predict(self, questions: list[str]) -> list[ModelOutput]:
        self.calls += 1
        return [ModelOutput("list :: Stanley Kubrick | directed", AnswerKind.RESOURCE, 0.9) for _ in questions]


class EchoModel:
    """A model that returns a fixed, valid pattern: checks the model path of the parser end to end."""

    def predict(self, questions: list[str]) -> list[ModelOutput]:
        return [ModelOutput("count :: ?u1 | is a | movies ; ?u1 | direct | Stanley Kubrick", AnswerKind.NUMBER, 0.8)
                for _ in questions]


@pytest.fixture(scope="session")
def fallback_parser() -> QuestionParser:
    return QuestionParser(use_model=False)


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_pgp_text_round_trip(text: str) -> None:
    pattern = PhraseGraphPattern.from_text(text)
    assert pattern.to_text() == text
    assert PhraseGraphPattern.from_text(pattern.to_text()) == pattern


@pytest.mark.parametrize(("text", "message"), MALFORMED)
def test_pgp_strict_parse_errors(text: str, message: str) -> None:
    with pytest.raises(PGPParseError, match=message):
        PhraseGraphPattern.from_text(text)


def test_pgp_accessors() -> None:
    pattern = PhraseGraphPattern.from_text("count :: ?unknown1 | directed by | Stanley Kubrick ; ?u1 | is a | movies")
    assert pattern.form is QuestionForm.COUNT
    assert pattern.entity_phrases() == ["Stanley Kubrick"]
    assert pattern.class_phrases() == ["movies"]
    assert pattern.relation_phrases() == ["directed by"]


def test_fallback_training_style_questions(fallback_parser: QuestionParser) -> None:
    results = fallback_parser.parse_sync([
        "How many movies did Stanley Kubrick direct?",
        "Is Michelle Obama the wife of Barack Obama?",
        "Which companies have more than 1000 employees?",
        "What are the names of the three oldest singers?",
        "What is the capital of the country where the Danish Straits flow into?",
        "List all boardgames by GMT.",
    ])
    count, boolean, comparison, superlative, hop, imperative = (r.pattern for r in results)
    assert count.form is QuestionForm.COUNT
    assert count.class_phrases() == ["movies"] and count.entity_phrases() == ["Stanley Kubrick"]
    assert boolean.form is QuestionForm.BOOLEAN
    assert set(boolean.entity_phrases()) == {"Michelle Obama", "Barack Obama"}
    assert "wife" in boolean.relation_phrases()
    assert comparison.comparisons and comparison.comparisons[0].operator == ">"
    assert comparison.comparisons[0].value == "1000" and "employees" in comparison.relation_phrases()
    assert superlative.ordering is not None and superlative.ordering.descending and superlative.ordering.limit == 3
    assert "age" in superlative.relation_phrases()
    assert "Danish Straits" in hop.entity_phrases() and len(hop.unknowns()) == 2
    assert imperative.class_phrases() == ["boardgames"] and imperative.entity_phrases() == ["GMT"]
    assert all(r.source.startswith("fallback: model disabled") for r in results)
    for result in results:
        assert PhraseGraphPattern.from_text(result.pattern.to_text()) == result.pattern


def test_answer_types(fallback_parser: QuestionParser) -> None:
    results = fallback_parser.parse_sync([
        "How many movies did Stanley Kubrick direct?",
        "Was Albert Einstein born in Ulm?",
        "When was the Battle of Hastings?",
        "Which rivers flow into the North Sea?",
        "What is the name of the head of the Treasury department?",
    ])
    kinds = [r.answer_type.kind for r in results]
    assert kinds == [AnswerKind.NUMBER, AnswerKind.BOOLEAN, AnswerKind.DATE, AnswerKind.RESOURCE, AnswerKind.STRING]
    assert results[3].answer_type.semantic_type == "rivers"
    assert str(results[3].answer_type) == "resource:rivers"


async def test_get_parser_is_lazy_and_process_wide() -> None:
    parser = get_parser()
    assert get_parser() is parser
    results = await parser.parse(["Who developed Skype?"])
    assert results[0].pattern.entity_phrases() == ["Skype"]
    assert results[0].source == "model" or results[0].source.startswith("fallback: ")
    assert parser.model_status != "model not loaded yet"


async def test_batch_parse_keeps_order_and_caches() -> None:
    model = UnparseableModel()
    parser = QuestionParser(model=model, cache_size=8)
    questions = ["Which city's founder is John Forbes?", "Who developed Skype?", "Which city's founder is John Forbes?"]
    first, second = await asyncio.gather(parser.parse(questions), parser.parse(questions[:2]))
    assert [r.question for r in first] == questions
    assert first[0] == first[2]
    assert second[0].pattern == first[0].pattern
    calls = model.calls
    again = await parser.parse(["Who  developed   Skype?"])
    assert model.calls == calls, "a cached question must not reach the model again"
    assert again[0].question == "Who  developed   Skype?" and again[0].pattern == first[1].pattern


def test_fallback_when_model_output_is_unparseable() -> None:
    parser = QuestionParser(model=UnparseableModel())
    result = parser.parse_sync(["Which city's founder is John Forbes?"])[0]
    assert result.source.startswith("fallback: model output unparseable:")
    assert "three non-empty parts" in result.source
    assert result.raw_output == "list :: Stanley Kubrick | directed"
    assert result.pattern.class_phrases() == ["city"]


def test_model_output_used_when_it_parses() -> None:
    parser = QuestionParser(model=EchoModel())
    result = parser.parse_sync(["How many movies did Stanley Kubrick direct?"])[0]
    assert result.source == "model"
    assert result.answer_type.kind is AnswerKind.NUMBER and result.answer_type.confidence == 0.8
    assert result.pattern.entity_phrases() == ["Stanley Kubrick"]


@pytest.mark.parametrize(
    ("question", "message"),
    [("", "empty"), ("   \n\t ", "empty"), ("?!?...", "no words"), ("why " * 400, "limit is 1000"), (None, "must be text")],
)
def test_bad_input_gives_clear_errors(fallback_parser: QuestionParser, question: object, message: str) -> None:
    with pytest.raises(InvalidQuestion, match=message) as info:
        fallback_parser.parse_sync([question])  # type: ignore[list-item]
    assert info.value.kind == "invalid-question"


@pytest.mark.parametrize("question", ["¿Dónde nació Pablo Picasso?", "北京是哪个国家的首都", "x", "42", "Kubrick"])
def test_odd_input_gives_a_best_effort_pattern(fallback_parser: QuestionParser, question: str) -> None:
    result = fallback_parser.parse_sync([question])[0]
    assert result.pattern.triples
    assert PhraseGraphPattern.from_text(result.pattern.to_text()) == result.pattern
