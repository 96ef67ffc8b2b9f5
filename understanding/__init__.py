"""Question understanding, independent of any knowledge graph: a question becomes a phrase graph
pattern (`PhraseGraphPattern`) and an expected answer type (`AnswerType`)."""

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
    "AnswerKind", "AnswerType", "Comparison", "Ordering", "PGPParseError", "PhraseGraphPattern",
    "PhraseTriple", "QuestionForm", "UnderstoodQuestion",
]
