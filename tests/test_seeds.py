"""Every number the four seed tutorials print, reproduced under the options that produce it.

Inputs are tokenized as each document did. Where a document's number comes from a float
program, the test says whether the reference's correctly rounded value equals it to the
last digit or differs by a stated number of units in the last place (ulp), and why.

Seed 000's sentence scores were printed by an nltk release of 2016-2017 that dropped the
orders whose precision was 0 from the weighted sum without renormalising the weights
(nltk PR #1238, January 2016, until issue #1838 was fixed by PR #1844, merged October
2017, first released in nltk 3.3). Under the paper's defaults most of them are 0; the
convention is ``zero_precision="skip"`` (spec EC-002). Current nltk (3.10.4) returns tiny
numbers such as 1.2e-77 instead (its sentinel ``sys.float_info.min``; see the divergence
chapter), so the printed numbers cannot come from it.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest

from reference_bleu import corpus_bleu, sentence_bleu
from reference_bleu.formulas.combination import cumulative_weights, individual_weights
from reference_bleu.formulas.counting import count, count_clip, max_ref_count, modified_precision
from reference_bleu.formulas.length import best_match_length

# --- seed 000: "Introduction to BLEU in Python" (str.split tokens) --------------------------

SEED0_REFS = [s.split() for s in ["this is a ship", "it is ship", "ship it is", "a ship, it is"]]

SEED0_PRINTED = [
    ("it is ship", "1.0"),
    ("it is a ship", "0.8408964152537145"),
    ("it", "0.1353352832366127"),
    ("it it it it it it it", "0.6147881529512643"),
    ("it a b c d e f g h i j k l m n", "0.6042750794713536"),
    ("ship ship ship", "0.7598356856515925"),
    ("it ship", "0.6065306597126334"),
]


@pytest.mark.parametrize(("translation", "printed"), SEED0_PRINTED)
def test_seed_000_sentence_scores_are_reproduced_to_the_last_digit_under_old_nltk_skip(
    translation: str, printed: str
) -> None:
    result = sentence_bleu(translation.split(), SEED0_REFS, zero_precision="skip")
    assert repr(result.score) == printed  # 0 ulp: the correctly rounded value is what was printed


def test_seed_000_scores_are_not_the_papers_the_zero_orders_make_them_zero() -> None:
    # Under the paper's defaults every one but 'it is ship' has a zero precision; 'it is
    # ship' has p_4 = 0/0. All are exactly 0.
    for translation, _printed in SEED0_PRINTED:
        assert sentence_bleu(translation.split(), SEED0_REFS).score == 0.0


def test_seed_000_counts_ngrams_of_this_is_is_a_ship() -> None:
    counts = count("this is is a ship".split(), 1)
    assert counts == {("is",): 2, ("this",): 1, ("ship",): 1, ("a",): 1}


def test_seed_000_count_clip_of_is_some() -> None:
    references = ["this is a test".split(), "this is is is test".split()]
    max_ref = max_ref_count(references, 1)
    candidate = count("is some".split(), 1)
    clipped = {g[0]: count_clip(k, max_ref[g]) for g, k in candidate.items()}
    assert clipped == {"is": 1, "some": 0}  # printed: {('is',): 1, ('some',): 0}


# --- seed 001: Korean blog post (token lists as printed) -------------------------------------


def test_seed_001_table_of_counts_and_clipped_counts() -> None:
    reference = ["the cat is on the mat".split()]
    table = {
        "the cat the cat is on the mat": {
            "the": (2, 3, 2),
            "cat": (1, 2, 1),
            "is": (1, 1, 1),
            "on": (1, 1, 1),
            "mat": (1, 1, 1),
        },
        "the the the the the the the the": {"the": (2, 8, 2)},
    }
    for candidate, rows in table.items():
        counts = count(candidate.split(), 1)
        max_ref = max_ref_count(reference, 1)
        for word, (max_ref_cnt, cand_cnt, clipped) in rows.items():
            g = (word,)
            assert (max_ref[g], counts[g], count_clip(counts[g], max_ref[g])) == (
                max_ref_cnt,
                cand_cnt,
                clipped,
            )


def test_seed_001_modified_precisions_075_and_025() -> None:
    reference = ["the cat is on the mat".split()]
    m, t = modified_precision("the cat the cat is on the mat".split(), reference, 1)
    assert Fraction(m, t) == Fraction(3, 4)  # (2+1+1+1+1)/8 = 0.75
    m, t = modified_precision("the the the the the the the the".split(), reference, 1)
    assert Fraction(m, t) == Fraction(1, 4)  # 2/8 = 0.25


@pytest.mark.parametrize(
    ("candidate", "references"),
    [
        (["this", "is", "a", "test"], [["this", "is", "a", "test"], ["this", "is", "test"]]),
        (
            ["어제", "스테이크", "를", "먹", "었", "다"],
            [["어제", "스테이크", "를", "먹", "었", "다"], ["스테이크", "어제", "먹", "었", "다"]],
        ),
    ],
)
def test_seed_001_sentence_bleu_of_a_candidate_equal_to_a_reference_is_1(
    candidate: list[str], references: list[list[str]]
) -> None:
    assert sentence_bleu(candidate, references).score == 1.0  # printed: BLEU: 1.0


def test_seed_001_corpus_bleu_of_the_korean_corpus_is_1() -> None:
    hyp = ["어제", "스테이크", "를", "먹", "었", "다"]
    refs = [[hyp, ["어제", "스테이크", "먹", "었", "다"]]]
    assert corpus_bleu([hyp], refs).score == 1.0


SEED1_REFS = [s.split(" ") for s in ["i took a hard test yesterday", "yesterday i took a trcky test"]]
SEED1_CAND = "i took a difficult test yesterday".split(" ")


@pytest.mark.parametrize(("order", "printed"), [(1, "0.83"), (2, "0.60"), (3, "0.25"), (4, "0.00")])
def test_seed_001_individual_ngram_scores_printed_to_two_decimals(order: int, printed: str) -> None:
    # p_1..p_4 = 5/6, 3/5, 1/4, 0/3 and BP = 1 (c = r = 6), so the individual scores are
    # exactly those ratios; the document prints them with {:.2f}.
    result = sentence_bleu(SEED1_CAND, SEED1_REFS, weights=individual_weights(order, 4))
    assert f"{result.score:.2f}" == printed
    assert result.score == float([Fraction(5, 6), Fraction(3, 5), Fraction(1, 4), Fraction(0)][order - 1])


def test_seed_001_cumulative_3gram_score_is_one_half() -> None:
    # (5/6 · 3/5 · 1/4)^(1/3) = (1/8)^(1/3) = 1/2: the '(hand)' and '(scipy)' lines, 0.50.
    result = sentence_bleu(SEED1_CAND, SEED1_REFS, weights=cumulative_weights(3, 4))
    assert result.score == 0.5


def test_seed_001_nltk_cumulative_with_weights_033_is_printed_050() -> None:
    # The document passes (0.33, 0.33, 0.33, 0) to nltk, which uses them as given: each
    # factor carries 0.33, so the score is (1/8)^0.33 = 0.5035..., printed 0.50 (EC-007).
    result = sentence_bleu(
        SEED1_CAND, SEED1_REFS, weights=["0.33", "0.33", "0.33", "0"], unnormalized_weights=True
    )
    assert f"{result.score:.2f}" == "0.50"
    assert math.isclose(result.score, 0.125**0.33, rel_tol=1e-15)


def test_seed_001_closest_reference_length_example() -> None:
    # "candidate length 15, references 7, 16 and 20: the closest is 16"
    assert best_match_length(15, [7, 16, 20]) == 16


# --- seed 002: "Biweekly Report 3" (lower-case, [^\w\s] removed, split on ' ') -----------------


def seed2_tokens(text: str) -> list[str]:
    """The document's own preprocessing of one sentence."""
    return re.sub(r"[^\w\s]", "", text.lower()).split(" ")


def seed2_corpus(document: str) -> list[list[str]]:
    """The document's n_gram_helper: split at '.', drop the trailing piece, strip, tokenize."""
    return [seed2_tokens(s.strip()) for s in document.lower().split(".")[:-1]]


SEED2_CAT = [seed2_tokens(s) for s in ["The cat is on the mat.", "There is a cat on the mat"]]
SEED2_DOG = [seed2_tokens(s) for s in ["The dog is at the door", "There is a dog at the door"]]
SEED2_CAT_BP = [seed2_tokens(s) for s in ["The cat is on the mat", "There is a cat on the mat."]]


def test_seed_002_pn_single_of_the_cat_the_cat_the_cat_is_05() -> None:
    result = sentence_bleu(seed2_tokens("The cat the cat the cat."), SEED2_CAT)
    assert result.precisions[0] == Fraction(1, 2)  # printed 0.5
    assert result.precisions[1] == Fraction(1, 5)  # worked out in the text: 1/(3 + 2)


@pytest.mark.parametrize(
    ("document", "printed"),
    [
        ("The cat the cat the cat. The cat the cat the cat.", "0.5"),
        ("The the the the the the the. The cat the cat the cat.", "0.38461538461538464"),
    ],
)
def test_seed_002_corpus_unigram_precision(document: str, printed: str) -> None:
    hyps = seed2_corpus(document)
    result = corpus_bleu(hyps, [SEED2_CAT] * len(hyps))
    assert repr(float(result.precisions[0] or 0)) == printed  # float of the exact 6/12 and 5/13: 0 ulp


@pytest.mark.parametrize(
    ("document", "printed"),
    [
        ("The cat the cat the cat. There is not a dog door.", "1.0"),
        ("cat. dog.", "0.006737946999085467"),
    ],
)
def test_seed_002_brevity_penalty(document: str, printed: str) -> None:
    # c = 12, r = 12 gives exp(0) = 1; c = 2, r = 12 gives exp(-5). 0 ulp both.
    result = corpus_bleu(seed2_corpus(document), [SEED2_CAT_BP, SEED2_DOG])
    assert repr(result.brevity_penalty) == printed


def test_seed_002_bleu_score_is_within_one_ulp_of_the_printed_float() -> None:
    # Exact value: exp(1 - 12/11) · (8/11 · 4/9 · 2/7 · 1/5)^(1/4) = 0.336618412271200823361...
    # The document's numpy program printed 0.3366184122712009; the correctly rounded double
    # is 0.3366184122712008, one ulp below: the program's own rounding (its four logs and
    # two exps each round), not a different convention.
    hyps = seed2_corpus("The cat the cat the cat. There is a dog door.")
    result = corpus_bleu(hyps, [SEED2_CAT_BP, SEED2_DOG])
    printed = 0.3366184122712009
    assert result.score == 0.3366184122712008
    assert printed - result.score == math.ulp(result.score)


def test_seed_002_five_gram_precision_is_zero_and_so_is_the_score() -> None:
    # "What if we set N = 5? ... p_5 = 0 must be true": the score is exactly 0 (EC-002).
    hyps = seed2_corpus("The cat the cat the cat. There is a dog door.")
    result = corpus_bleu(hyps, [SEED2_CAT_BP, SEED2_DOG], max_order=5)
    assert (result.matches[4], result.totals[4]) == (0, 3)
    assert result.score == 0.0


# --- seed 003: "BLEU from scratch" (lower().split()) ------------------------------------------

SEED3_REFS = [
    s.lower().split()
    for s in [
        "It is a guide to action that ensures that the military will forever heed Party commands",
        "It is the guiding principle which guarantees the military forces always being under the command of the Party",
        "It is the practical guide for the army always to heed the directions of the party",
    ]
]
CA_1 = "It is a guide to action which ensures that the military always obeys the commands of the party"


def test_seed_003_ca_1_bleu_equals_the_papers_0_5045666840058485() -> None:
    # The document says its own bleu() and nltk agree; both equal the paper's value.
    assert sentence_bleu(CA_1.lower().split(), SEED3_REFS).score == 0.5045666840058485


def test_seed_003_bad_ca_unigram_precision_is_1_13() -> None:
    m, t = modified_precision("It it it it it it it it it it it it it".lower().split(), SEED3_REFS, 1)
    assert (m, t) == (1, 13)


def test_seed_003_ca_3_unigram_precision_equals_ca_1() -> None:
    ca_3 = "the that military a is It guide ensures which to commands the of action obeys always party the"
    assert modified_precision(ca_3.lower().split(), SEED3_REFS, 1) == (17, 18)
