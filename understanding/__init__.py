"""Question understanding, independent of any knowledge graph: a question becomes a phrase graph
pattern (`PhraseGraphPattern`) and an expected answer type (`AnswerType`).

Entry point: `get_parser()` -> `QuestionParser`; `await parser.parse([...])` or `parser.parse_sync([...])`.
"""

import os

# Before anything imports torch: OpenMP threads that wait by sleeping, not spinning. The gateway shares
# the machine with SPARQL engines (often on the same cores); spinning threads then cost a single
# question 3-10x its latency (benchmarks in README, `understanding` section).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# Models load from the packages that ship them, never from the network.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from understanding.parser import InvalidQuestion, QuestionParser, get_parser  # noqa: E402
from understanding.pgp import (  # noqa: E402
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
