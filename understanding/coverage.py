"""What a phrase graph pattern cannot say, detected in the question so that the answer is empty
rather than wrong.

Negation ("singers who are not from France", "papers without a dataset") has no PGP form: the model
was never trained on it (the derivation finds 494 of 507 negated non-yes/no training questions not
representable) and a pattern without the negation answers the opposite question. Yes/no questions
are left alone: their negations are mostly paraphrase artefacts ("Wasn't X not not published...").
"""

from __future__ import annotations

import re

from understanding.pgp import PhraseGraphPattern, QuestionForm

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|“[^”]*”")
_NEGATION = re.compile(r"\b(?:not|never|without|except|excluding|(?:do|does|did|is|are|was|were|has|have|had)n't)\b")


def unsupported_reason(question: str, pattern: PhraseGraphPattern) -> str | None:
    """Why the pattern cannot stand for the question (None when it can, as far as we can tell)."""
    if pattern.form is QuestionForm.BOOLEAN:
        return None
    match = _NEGATION.search(_QUOTED.sub(" ", question))
    if match is None:
        return None
    return (f"negation ({match.group(0)!r}) has no phrase graph pattern form; "
            "the KGQAN path answers nothing rather than the un-negated question")
