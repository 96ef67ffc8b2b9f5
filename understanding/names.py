"""Words in the names schemas give their terms.

Relational schemas published as RDF name columns `fname`, `dept_no`, `sourceairport`, `flightno`:
word vectors and a reader's words ("first name", "department number", "source airport") meet only once
the abbreviations are spelled out and run-together names split. The training-data derivation
(`understanding.derive`) and the gateway's predicate words (`gateway.discovery`) both read names here.
"""

from __future__ import annotations

import functools

from understanding.resources import known_words

ABBREVIATIONS = {
    "fname": "first name", "lname": "last name", "dob": "date of birth", "num": "number", "no": "number",
    "emp": "employee", "dept": "department", "stu": "student", "prof": "professor", "addr": "address",
    "qty": "quantity", "amt": "amount", "desc": "description", "cnt": "count", "yr": "year", "pop": "population",
    "info": "information", "org": "organization", "govt": "government", "loc": "location", "aid": "id",
    "pid": "id", "cid": "id", "kid": "id", "uid": "id", "pct": "percent", "avg": "average", "max": "maximum",
    "min": "minimum", "mgr": "manager", "std": "student", "crs": "course", "dname": "name", "lang": "language",
}
# the short words a run-together name may hold ("placeofburial"); other pieces have three letters or more
_SHORT_WORDS = frozenset({"of", "in", "by", "on", "to", "at"})
# abbreviations found inside run-together names only (`destairport`, `countryabbrev`): as whole words
# they are words of their own ("dest" aside) or not in the derived training data's predicates
_PIECE_ABBREVIATIONS = {"dest": "destination", "src": "source", "abbrev": "abbreviation", "no": "number",
                        "id": "id", "stu": "student", "num": "number"}


@functools.cache
def _vocabulary() -> frozenset[str]:
    return frozenset(w for w in known_words() if len(w) > 2 or w in _SHORT_WORDS)


@functools.cache
def _pieces_with_abbreviations() -> frozenset[str]:
    return _vocabulary() | _PIECE_ABBREVIATIONS.keys()


def _fewest_pieces(word: str, pieces: frozenset[str]) -> list[str] | None:
    """`word` cut into the fewest known pieces, or None."""
    best: list[list[str] | None] = [[]] + [None] * len(word)
    for end in range(1, len(word) + 1):
        for start in range(max(0, end - 20), end):
            piece = word[start:end]
            previous = best[start]
            if previous is not None and piece in pieces:
                candidate = [*previous, piece]
                if best[end] is None or len(candidate) < len(best[end]):
                    best[end] = candidate
    return best[-1]


def segment(word: str) -> list[str]:
    """Splits run-together lower-case names ("placeofburial") into known words (MiniLM's vocabulary),
    preferring the fewest pieces; a word shorter than eight letters or one it cannot split stays whole."""
    if len(word) < 8:
        return [word]
    pieces = _fewest_pieces(word, _vocabulary())
    return pieces if pieces and len(pieces) > 1 else [word]


# abbreviations that are also plain words: read so only as the last word of a name (`dept_no`, not `noLabel`)
_LAST_ONLY = frozenset({"no"})


def name_words(word: str, *, last: bool = True) -> list[str]:
    """One lower-case word of a name as the words it stands for: an abbreviation spelled out (`fname`
    -> first name), a run-together name split (`airportcode` -> airport code), also around an
    abbreviation (`destairport` -> destination airport, `flightno` -> flight number, `petid` -> pet id).
    A word of the vocabulary stays as it is; `last`: the word ends its name."""
    if word in ABBREVIATIONS and (last or word not in _LAST_ONLY):
        return ABBREVIATIONS[word].split()
    if len(word) < 5 or not word.isalpha() or word in known_words():
        return [word]
    split = segment(word)
    if len(split) > 1:
        return split
    pieces = _fewest_pieces(word, _pieces_with_abbreviations())
    if not pieces or len(pieces) != 2:
        return [word]
    return " ".join(_PIECE_ABBREVIATIONS.get(piece, piece) for piece in pieces).split()
