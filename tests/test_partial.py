"""Partial statistics (spec NUM-PARTIAL): any partition adds up to one run, exactly.

The oracle for the sums is one run of the reference over the whole corpus (``corpus_bleu``,
whose statistics tests/test_api.py checks against an independent literal implementation, and
``reference-bleu score``, checked against sacrebleu in tests/test_real_data.py); the
hand-computed cases below spell out their arithmetic.
"""

from __future__ import annotations

import itertools
import json
import pickle
import random
import re
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.data import WMT17, read_lines
from conformance.suite.strategies import corpora
from reference_bleu import (
    BleuError,
    BleuInputError,
    Partial,
    corpus_bleu,
    make_conventions,
    partial_statistics,
)
from reference_bleu.cli.main import main
from reference_bleu.partial import AVERAGE_SLOTS, partials_by

Corpus = tuple[list[list[str]], list[list[list[str]]]]

#: Conventions whose statistics are one sum (the vector applies) and conventions that keep segments.
SUMMED: list[dict[str, Any]] = [
    {},
    {"ref_length": "average"},
    {"ref_length": "shortest", "max_order": 2},
    {"profile": "sacrebleu"},
    {"profile": "coco"},
    {"profile": "nmt"},
    {"smoothing": "chen-cherry-5"},
]
KEPT: list[dict[str, Any]] = [
    {"profile": "nltk"},
    {"aggregation": "macro"},
    {"profile": "sacrebleu-sentence"},
]


def cut(draw: st.DrawFn, size: int) -> list[int]:
    """Sorted cut points of 0..size into pieces (empty pieces included)."""
    return sorted(draw(st.lists(st.integers(0, size), max_size=4)))


def pieces(rows: list[Any], cuts: list[int]) -> list[list[Any]]:
    bounds = [0, *cuts, len(rows)]
    return [rows[a:b] for a, b in itertools.pairwise(bounds)]


@st.composite
def partitioned(draw: st.DrawFn) -> tuple[Corpus, list[int]]:
    corpus = draw(corpora(max_segments=8))
    return corpus, cut(draw, len(corpus[0]))


@given(partitioned(), st.sampled_from(SUMMED + KEPT))
def test_any_partition_adds_up_to_one_runs_statistics_and_score(
    case: tuple[Corpus, list[int]], given_options: dict[str, Any]
) -> None:
    (hyps, refs), cuts = case
    options = dict(given_options)
    profile = options.pop("profile", None)
    conventions = make_conventions(profile, text=False, **options)
    rows = list(zip(hyps, refs, strict=True))
    parts = [partial_statistics(piece, conventions) for piece in pieces(rows, cuts)]
    total = sum(parts, Partial.zero(conventions))
    assert total.segments == len(hyps)
    try:
        whole = corpus_bleu(hyps, refs, profile, **options)
    except BleuError as error:  # c = r = 0 under zero_length="error" (EC-004): the same error, once
        with pytest.raises(BleuError, match=re.escape(str(error))):
            total.score()
        return
    result = total.score()
    assert result.statistics == whole.statistics
    assert result.score == whole.score
    assert result.score_decimal == whole.score_decimal
    assert result.reported_text == whole.reported_text
    # sum() from 0, the JSON form and, where the statistics are one sum, the int64 vector.
    assert sum(parts) == total
    assert Partial.from_json(json.loads(json.dumps(total.to_json()))) == total
    if conventions.keeps_segments:
        with pytest.raises(BleuInputError, match="each segment's statistics"):
            total.to_vector()
    else:
        vectors = [part.to_vector() for part in parts]
        summed = [sum(column) for column in zip(*vectors, strict=True)]
        assert len(summed) == conventions.vector_length
        assert Partial.from_vector(conventions, summed) == total


def test_r_under_average_is_kept_as_integer_sums_per_denominator() -> None:
    # By hand: segment 1 has references of lengths 2 and 3, r = 5/2 (slot 2 += 5); segment 2 has
    # lengths 1, 1, 2, r = 4/3 (slot 3 += 4); segment 3 one reference of length 2 (slot 1 += 2).
    # r = 2/1 + 5/2 + 4/3 = 12/6 + 15/6 + 8/6 = 35/6.
    conventions = make_conventions(text=False, ref_length="average", max_order=1)
    rows = [
        (["a"], [["a", "b"], ["a", "b", "c"]]),
        (["b"], [["b"], ["c"], ["b", "c"]]),
        (["c"], [["c", "a"]]),
    ]
    total = partial_statistics(rows, conventions)
    assert total.ref_sums == (2, 5, 4)
    assert total.ref_len == Fraction(35, 6)
    vector = total.to_vector()
    assert vector == [3, 3, 2, 5, 4, *[0] * (AVERAGE_SLOTS - 3), 3, 3]
    assert all(type(x) is int for x in vector)
    assert Partial.from_vector(conventions, vector) == total


def test_the_vector_layout_by_hand() -> None:
    # "the cat sat" against "the cat sat down": m = (3, 2), l = (3, 2), c = 3, r = 4.
    conventions = make_conventions(text=False, max_order=2)
    part = partial_statistics([(["the", "cat", "sat"], [["the", "cat", "sat", "down"]])], conventions)
    assert part.to_vector() == [1, 3, 4, 3, 2, 3, 2]
    assert conventions.vector_length == 7


def test_partials_refuse_other_conventions_naming_the_option() -> None:
    a = partial_statistics([(["a"], [["a"]])], make_conventions(text=False, max_order=1))
    b = partial_statistics(
        [(["a"], [["a"]])], make_conventions(text=False, max_order=1, ref_length="shortest")
    )
    with pytest.raises(BleuInputError, match="ref_length is 'closest' here and 'shortest' there"):
        a + b
    with pytest.raises(BleuInputError, match="the vector has 3 slots"):
        Partial.from_vector(a.conventions, [1, 1, 1])
    with pytest.raises(BleuInputError, match="an overflow wraps to a negative count"):
        Partial.from_vector(a.conventions, [1, 1, 1, 1, -5])
    forged = a.to_json() | {"fingerprint": "0" * 64}
    with pytest.raises(BleuInputError, match="fingerprint does not match"):
        Partial.from_json(forged)
    inconsistent = a.to_json() | {"hyp_len": 7}
    with pytest.raises(BleuInputError, match="hyp_len 7 differs"):
        Partial.from_json(inconsistent)


def test_a_fingerprint_is_stable_and_covers_what_changes_the_number() -> None:
    base = make_conventions("sacrebleu")
    shipped = pickle.loads(pickle.dumps(base))  # noqa: S301 -- our own bytes
    assert base.fingerprint == shipped.fingerprint
    assert base.fingerprint == make_conventions("sacrebleu", tokenize="13a").fingerprint
    for other in (
        make_conventions("sacrebleu", tokenize="intl"),
        make_conventions("sacrebleu[lc=true]"),
        make_conventions("sacrebleu", round_digits=2),
        make_conventions("sacrebleu", text=False),
        make_conventions("sacrebleu", smoothing="floor"),
    ):
        assert other.fingerprint != base.fingerprint


@pytest.mark.slow
def test_all_16_wmt17_systems_grouped_equal_one_score_run(capsys: pytest.CaptureFixture[str]) -> None:
    root = WMT17.compressed
    assert main(["score", "--json", "-q", "-tok", "13a", "-r", str(root / "ref.de.xz"),
                 "-i", *(str(root / f"{s}.xz") for s in WMT17.systems)]) == 0  # fmt: skip
    report = json.loads(capsys.readouterr().out)["systems"]
    refs = read_lines(WMT17, "ref.de")
    rows = [
        (name, hyp, ref)
        for name in WMT17.systems
        for hyp, ref in zip(read_lines(WMT17, name), refs, strict=True)
    ]
    random.Random(27).shuffle(rows)  # noqa: S311 -- a fixed, reproducible partition
    # rows of every system mixed, in 5 partitions of random sizes
    cuts = sorted(random.Random(5).sample(range(len(rows)), 4))  # noqa: S311
    conventions = make_conventions(tokenize="13a")
    grouped: dict[object, Partial] = {}
    for piece in pieces(rows, cuts):
        for key, part in partials_by(piece, conventions).items():
            grouped[key] = grouped[key] + part if key in grouped else part
    assert len(report) == len(WMT17.systems) == 16
    for name, document in zip(WMT17.systems, report, strict=True):
        result = grouped[name].score()
        assert grouped[name].segments == document["segments"] == len(refs)
        assert list(result.matches) == document["matches"]
        assert list(result.totals) == document["totals"]
        assert (result.hyp_len, result.ref_len) == (document["hyp_len"], document["ref_len"])
        assert str(result.score_decimal) == document["score_decimal"]
