"""The one affinity scorer of the KGQAN path: word vectors plus a character fallback."""

from __future__ import annotations

import numpy as np
import pytest

from linking.affinity import (
    STEM_SIMILARITY,
    AffinityScorer,
    content_words,
    same_stem,
    split_words,
    trigram_similarity,
)
from understanding.grading import singular


@pytest.fixture(scope="module")
def scorer() -> AffinityScorer:
    return AffinityScorer()


def test_words_of_labels_and_local_names() -> None:
    assert split_words("hasProductManager") == ["has", "product", "manager"]
    assert split_words("song_release_year") == ["song", "release", "year"]
    assert split_words("ref-stadium_id") == ["ref", "stadium", "id"]
    assert split_words("IDs") == ["id"] and split_words("hasURLs") == ["has", "url"]  # acronyms in the plural
    assert split_words("e-mail address") == split_words("E-Mail address") == ["email", "address"]  # one word
    assert split_words("J370-9195708") == ["j370", "9195708"]
    assert content_words("the name of the singer") == ["name", "singer"]
    assert content_words("of the") == ["of", "the"]  # nothing but stop words: keep them
    assert singular("singers") == "singer" and singular("cities") == "city" and singular("address") == "address"


def test_equal_and_plural_phrases_score_one(scorer: AffinityScorer) -> None:
    assert scorer.score("singers", "singer") == pytest.approx(1.0)
    assert scorer.score("Stanley Kubrick", "stanley kubrick") == pytest.approx(1.0)


def test_relation_phrase_prefers_the_right_predicate(scorer: AffinityScorer) -> None:
    scores = scorer.score_many("product manager", ["has product manager", "has supplier", "width mm", "compatible product"])
    assert int(np.argmax(scores)) == 0
    scores = scorer.score_many("age", ["age", "song release year", "singer id", "is male"])
    assert int(np.argmax(scores)) == 0 and scores[0] > scores[1:].max() + 0.3


def test_synonyms_score_above_unrelated_words(scorer: AffinityScorer) -> None:
    near, far = scorer.score_many("nationality", ["country", "capacity"])
    assert near > far


def test_unknown_words_fall_back_to_characters(scorer: AffinityScorer) -> None:
    # codes the word vectors do not know: characters decide, so a near spelling beats another code
    near, far = scorer.score_many("C247-3833661", ["C247-3833662", "X874-7370643"])
    assert near > far
    assert trigram_similarity("kubrick", "kubrik") > 0.5 > trigram_similarity("kubrick", "stadium")
    no_fallback = AffinityScorer(method="best_match", char_fallback=False)
    assert no_fallback.score("Kornhaeusel", "Kornhausel") < scorer.score("Kornhaeusel", "Kornhausel")


def test_methods_and_batches(scorer: AffinityScorer) -> None:
    texts = ["singer in concert", "stadium", "singer"]
    for method in ("pairwise", "best_match", "mean_vector"):
        scores = AffinityScorer(method=method).score_many("singers", texts)
        assert scores.shape == (3,) and float(scores.max()) == pytest.approx(1.0)
        assert all(0.0 <= s <= 1.0 for s in scores)
    assert scorer.score_matrix(["age", "name"], texts).shape == (2, 3)
    assert scorer.score("", "singer") == 0.0
    with pytest.raises(ValueError, match="unknown affinity method"):
        AffinityScorer(method="nope")


async def test_scoring_off_the_event_loop(scorer: AffinityScorer) -> None:
    scores = await scorer.ascore_many("capacity", ["capacity", "location"])
    assert scores[0] > scores[1]


def test_forms_of_one_word_score_as_near_synonyms(scorer: AffinityScorer) -> None:
    assert same_stem("evaluated", "evaluation") and same_stem("supplies", "supplier") and same_stem("managed", "manager")
    assert not same_stem("compatible", "company") and not same_stem("international", "internet")
    plain = AffinityScorer(scorer.vectors, morphology=False)
    assert plain.score("supplies", "supplier") < STEM_SIMILARITY <= scorer.score("supplies", "supplier")
    assert scorer.score("evaluated with", "evaluation method") > plain.score("evaluated with", "evaluation method")


def test_stemming_from_several_threads_at_once() -> None:
    """Scoring runs in worker threads (`ascore_many`); one Snowball stemmer shared by them broke the word
    another thread was stemming (IndexError), failing a question now and then under `kgqa eval`."""
    import threading

    from linking.affinity import _stemmer

    words = ["evaluation", "supplies", "located", "responsibilities", "organizational", "a", "it"] * 3000
    errors: list[Exception] = []

    def stem_all() -> None:
        try:
            for word in words:
                _stemmer().stemWord(word)
        except Exception as exc:  # noqa: BLE001 - any error is the failure
            errors.append(exc)

    threads = [threading.Thread(target=stem_all) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_two_known_words_written_together_are_split_and_known_words_stay_whole() -> None:
    """Column names glue words ("pettype", "airportname"); a question says "type of pet", "airport name"."""
    from linking.affinity import unglued

    assert unglued("pettype") == "pet type" and unglued("airportname") == "airport name"
    assert unglued("sourceairport") == "source airport" and unglued("contestant number") == "contestant number"
    assert unglued("hometown") == "hometown" and unglued("nationality") == "nationality"  # known words
    assert unglued("fname") == "fname" and unglued("flightno") == "flightno"  # no two known words of 3 letters


def test_the_two_ends_of_a_journey_are_told_apart(scorer: AffinityScorer) -> None:
    """Word vectors place "depart" nearer "destination" than "source": a flight's two airports would swap."""
    departing = scorer.score_many("flights departing from", ["source airport", "destination airport"])
    assert departing[0] > departing[1]
    arriving = scorer.score_many("flights arriving in", ["source airport", "destination airport"])
    assert arriving[1] > arriving[0]
    assert scorer.score("leave from", "origin") > 0.8
    # whole words, not stems: a department is no departure
    assert scorer.score("source", "department") < 0.5
