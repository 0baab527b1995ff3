"""N-grams, counts, clipping and modified precision: Papineni et al. (2002), sec. 2.1.

Everything here is exact integer arithmetic. A precision is carried as its
``(matches, total)`` pair, never as a reduced fraction: "0 of 7" and "0 of 0" are
different facts (spec NUM-EXACT, EC-003).

Legend (spec/00-notation.md): ``C`` a candidate (hypothesis) token sequence, ``R`` one
reference, ``refs`` the references of one candidate, ``g`` an n-gram, ``n`` its order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

Token = str
Sentence = Sequence[Token]
NGram = tuple[Token, ...]


class NGramCounts(NamedTuple):
    """Clipped matches and total candidate n-grams of one order: the pair behind p_n."""

    matches: int
    total: int


def ngrams(sentence: Sentence, n: int) -> list[NGram]:
    """BLEU-NGRAM. The n-grams of ``sentence``: its ``len - n + 1`` windows, in order.

    Papineni et al. 2002, sec. 2.1. A sentence shorter than ``n`` has none.

    >>> ngrams(["the", "cat", "sat"], 2)
    [('the', 'cat'), ('cat', 'sat')]
    >>> ngrams(["the"], 2)
    []
    """
    # zip of the n shifted copies stops at the shortest: exactly the len - n + 1 windows.
    return list(zip(*(sentence[i:] for i in range(n)), strict=False))


def count(sentence: Sentence, n: int) -> Counter[NGram]:
    """BLEU-COUNT. Count(g): how often each n-gram g occurs in ``sentence``.

    Papineni et al. 2002, sec. 2.1 ("count the maximum number of times a word occurs").

    >>> count("this is is a ship".split(), 1)[("is",)]
    2
    """
    return Counter(ngrams(sentence, n))


def max_ref_count(references: Iterable[Sentence], n: int) -> Counter[NGram]:
    """BLEU-MAX-REF-COUNT. Max_Ref_Count(g): the largest count of g in any *single* reference.

    Papineni et al. 2002, sec. 2.1: "the maximum number of times a word occurs in any
    single reference translation". Not the sum over references.

    >>> refs = ["this is a test".split(), "this is is is test".split()]
    >>> max_ref_count(refs, 1)[("is",)]
    3
    """
    result: Counter[NGram] = Counter()
    for reference in references:
        for g, k in count(reference, n).items():
            result[g] = max(result[g], k)
    return result


def count_clip(candidate_count: int, max_ref: int) -> int:
    """BLEU-CLIP. Count_clip = min(Count, Max_Ref_Count). Papineni et al. 2002, sec. 2.1.

    >>> count_clip(7, 2)  # "the" seven times in the candidate, twice at most in a reference
    2
    """
    return min(candidate_count, max_ref)


def modified_precision(candidate: Sentence, references: Sequence[Sentence], n: int) -> NGramCounts:
    """BLEU-PREC. p_n of one candidate as (Σ_g Count_clip(g), Σ_g Count(g)).

    Papineni et al. 2002, sec. 2.1. Returned as the pair, not a ratio: the total may be 0
    (a candidate shorter than n, spec EC-003).

    >>> modified_precision("the the the the the the the".split(),
    ...                    ["the cat is on the mat".split(), "there is a cat on the mat".split()], 1)
    NGramCounts(matches=2, total=7)
    """
    counts = count(candidate, n)
    max_ref = max_ref_count(references, n)
    matches = sum(count_clip(k, max_ref[g]) for g, k in counts.items())
    return NGramCounts(matches, sum(counts.values()))


def corpus_modified_precision(per_candidate: Iterable[NGramCounts]) -> NGramCounts:
    """BLEU-PREC-CORPUS. Corpus p_n: numerators and denominators summed over candidates.

    Papineni et al. 2002, sec. 2.1.1: a micro-average, not the mean of sentence precisions.

    >>> corpus_modified_precision([NGramCounts(2, 7), NGramCounts(3, 6)])
    NGramCounts(matches=5, total=13)
    """
    matches = total = 0
    for pair in per_candidate:
        matches += pair.matches
        total += pair.total
    return NGramCounts(matches, total)
