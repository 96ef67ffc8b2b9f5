"""Question understanding, independent of any knowledge graph: a question becomes a phrase graph
pattern (`PhraseGraphPattern`) and an expected answer type (`AnswerType`).

Entry point: `get_parser()` -> `QuestionParser`; `await parser.parse([...])` or `parser.parse_sync([...])`.
"""

from understanding.parser import InvalidQuestion, QuestionParser, get_parser
from understanding.pgp import (
    AnswerKind,
    AnswerType,
    Comparison,
    Ordering,
    PGPParseError,
    PhraseGraphPattern,
    PhraseTriple,
    QuestionForm,
    UnderstoodQuestion,
)

__all__ = [
    "AnswerKind", "AnswerType", "Comparison", "InvalidQuestion", "Ordering", "PGPParseError",
    "PhraseGraphPattern", "PhraseTriple", "QuestionForm", "QuestionParser", "UnderstoodQuestion", "get_parser",
]
