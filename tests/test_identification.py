"""identify (spec IDENT, ATTR-COST): full-precision numbers, the screen, one row per value, the first line.

The oracles are sacrebleu 2.6.0 itself (the numbers it returns at full precision, run here), the
scoring pass (what a point reports, against which the screen's estimates are checked) and
``tokenize_line`` (against which the counted corpus's shared tokenization is checked).
"""

from __future__ import annotations

import io
import logging
from contextlib import redirect_stdout
from dataclasses import replace
from decimal import Context, localcontext
from functools import cache
from typing import Any

import pytest

from conformance.data import WMT17, read_lines
from reference_bleu.analysis.counted import CountedCorpus
from reference_bleu.analysis.identification import (
    WIDTH,
    Identification,
    estimate_is_double,
    identify,
    most_likely,
    parse_reported,
    render,
    tool_values,
)
from reference_bleu.analysis.screen import (
    numpy_module,
    segment_arrays,
    unit_score,
    vector_scores,
    vectorizable,
)
from reference_bleu.cli.main import main
from reference_bleu.conventions.space import Point, make_point, named_points, neighbours
from reference_bleu.errors import BleuError
from reference_bleu.text.tokenizers import tokenize_line

UEDIN = "hyp.uedin-nmt.4722.de"
DATA = WMT17.compressed


def sacrebleu_scores(system: str) -> tuple[float, float]:
    """sacrebleu 2.6.0's ``BLEU().corpus_score(...).score``, mixed case and ``lowercase=True``."""
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415 -- the oracle, a test dependency

    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    hyp, ref = read_lines(WMT17, system), [read_lines(WMT17, "ref.de")]
    return BLEU().corpus_score(hyp, ref).score, BLEU(lowercase=True).corpus_score(hyp, ref).score


@cache
def corpus(system: str = UEDIN, size: int | None = None) -> CountedCorpus:
    hyp, ref = read_lines(WMT17, system)[:size], read_lines(WMT17, "ref.de")[:size]
    return CountedCorpus([hyp], [[r] for r in ref], [system])


@cache
def named_search(number: str) -> Identification:
    """The named profiles' tier alone on uedin-nmt (the default budget is the slow tier's)."""
    return identify(corpus(), [parse_reported(number)], budget=len(named_points()))


@pytest.mark.parametrize("lowercase", [False, True], ids=["mixed", "-lc"])
def test_sacrebleus_full_precision_number_is_reached_and_named_first(lowercase: bool) -> None:
    number = repr(sacrebleu_scores(UEDIN)[lowercase])
    result = named_search(number)
    best = result.matches[0]
    assert best.label == ("sacrebleu[lc=true]" if lowercase else "sacrebleu")
    assert best.exact  # every digit, in sacrebleu's own arithmetic
    assert most_likely(result).startswith(f"most likely: {best.label} (named profile, every digit")


def test_a_point_in_another_order_of_operations_is_a_near_match_ranked_after() -> None:
    # The paper's exact BLEU with 13a is within an ulp or two of sacrebleu's double, not equal to it.
    number = repr(sacrebleu_scores(UEDIN)[0])
    result = named_search(number)
    near = [m for m in result.matches if not m.exact]
    assert near, "sacrebleu-1.5 and the canonical binary64 points lie an ulp or two away"
    target = float(number)
    for m in near:
        assert m.ulps >= 1
        assert abs(float(m.values[0]) - target) <= 1e-13 * target
    first_near = result.matches.index(near[0])
    assert all(m.exact for m in result.matches[:first_near])


def test_equal_values_share_one_row_and_every_point_has_its_own_name() -> None:
    result = named_search("28.3")
    classes = result.classes()
    assert len(classes) < len(result.matches)  # sacrebleu's variants give the very same value here
    assert all(len({m.values for m in group}) == 1 for group in classes)
    assert len({group[0].values for group in classes}) == len(classes)
    labels = [m.label for m in result.matches]
    assert len(labels) == len(set(labels))


def test_the_default_text_fits_100_columns_and_verbose_shows_the_rest() -> None:
    result = named_search("28.3")
    short, full = render(result), render(result, verbose=True)
    assert max(len(line) for line in short.splitlines()) <= WIDTH
    assert short.splitlines()[0] == most_likely(result)
    assert len(full.splitlines()) > len(short.splitlines())
    assert "conventions of each match" in full
    assert "conventions of each match" not in short


@pytest.mark.slow
@pytest.mark.parametrize("system", [UEDIN, "hyp.online-B.0.de", "hyp.KIT.4950.de"])
@pytest.mark.parametrize("lowercase", [False, True], ids=["mixed", "-lc"])
def test_identify_names_sacrebleu_first_for_its_full_precision_numbers(system: str, lowercase: bool) -> None:
    """The command at its default budget, on the shipped files: the first line names sacrebleu (with
    ``-lc``'s point for the lower-cased number), in 100 columns."""
    number = repr(sacrebleu_scores(system)[lowercase])
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(
            [
                "identify",
                "-r",
                str(DATA / "ref.de.xz"),
                "-i",
                str(DATA / f"{system}.xz"),
                "--reported",
                number,
            ]
        )
    assert code == 0
    lines = out.getvalue().splitlines()
    name = "sacrebleu[lc=true]" if lowercase else "sacrebleu"
    assert lines[0].startswith(f"most likely: {name} (named profile, every digit"), lines[0]
    assert max(len(line) for line in lines) <= WIDTH


# --- ATTR-COST: the screen and the shared tokenization -----------------------------------------


def _points() -> list[Point]:
    """Every named point and the one-axis neighbours of the sacrebleu and nltk defaults."""
    points = list(named_points())
    for base in (p for p in named_points() if p.name in ("sacrebleu", "nltk", "paper")):
        for axis in ("smoothing", "zero_precision", "early_return", "denominator", "brevity_penalty"):
            for values in neighbours(base, (axis,)):
                try:
                    points.append(make_point(values, base.name))
                except BleuError:
                    continue
    return points


def test_a_screened_estimate_is_the_points_double_where_it_says_so() -> None:
    """estimate_is_double: the screen's binary64 evaluation is the scoring pass's reported number,
    to the last bit, for every point it claims (on 150 WMT17 segments, in both scales)."""
    small = corpus(UEDIN, 150)
    checked = 0
    for point in _points():
        for scale in ("unit", "percent"):
            at = Point(point.text, replace(point.options, scale=scale, round_digits=None), point.name)
            if not estimate_is_double(at.options) or "mecab" in at.text_conventions["tokenize"]:
                continue
            try:
                reported = [r.reported for r in small.results(at)]
            except BleuError:
                continue
            assert tool_values(small, at, small.screen(at)) == reported, at.name
            checked += 1
    assert checked > 100


def test_the_screen_is_within_its_error_of_the_exact_score() -> None:
    small = corpus(UEDIN, 150)
    for point in _points():
        if "mecab" in point.text_conventions["tokenize"]:
            continue
        try:
            exact = small.results(replace(point, options=replace(point.options, arithmetic="exact")))
        except BleuError:
            continue
        estimate = small.screen(point)[0]
        value = float(exact[0].score_decimal)
        assert (
            abs(estimate - value) <= 1e-12 * abs(value) + 1e-300 or point.options.arithmetic != "binary64"
        ), (
            point.name,
            estimate,
            value,
        )


def test_the_vectorised_screen_of_sentence_level_points_is_the_unit_at_a_time_one() -> None:
    """Each segment's estimate computed on arrays equals the one settled a segment at a time (within
    1e-12 relative: numpy sums the weighted logarithms without math.fsum's exact rounding)."""
    np = numpy_module()
    if np is None:
        pytest.skip("the vectorised screen needs numpy (the significance extra)")
    small = corpus(UEDIN, 120)
    variants: list[dict[str, Any]] = [
        {},
        {"brevity_penalty": "coco"},
        {"brevity_penalty": "plus-one"},
        {"undefined_precision": "skip"},
        {"undefined_precision": "one"},
        {"zero_precision": "limit"},
        {"zero_precision": "skip"},
        {"zero_precision": "sentinel"},
        {"early_return": "none"},
        {"effective_order": True},
        {"smoothing": "add-one"},
        {"smoothing": "add-k"},
        {"smoothing": "nltk-4"},
        {"smoothing": "nltk-5"},
        {"smoothing": "nltk-7"},
        {"undefined_precision": "reweigh-by-length", "effective_order": False},
    ]
    compared = 0
    for point in named_points():
        if point.options.aggregation != "macro" or "mecab" in point.text_conventions["tokenize"]:
            continue
        for variant in variants:
            try:
                options = replace(point.options, **variant)
                segments = small.segments(point.text, options)[0]
                units = small._scored_units(point.text, options)[0]
                with localcontext(Context(prec=24)):
                    one_by_one = [unit_score(s, tail, options) for s, tail in units]
            except BleuError:
                continue
            if not vectorizable(options):
                continue
            at_once = vector_scores(segment_arrays(segments, options.denominator, np), options, np)
            if at_once is None:
                continue
            for a, b in zip(one_by_one, at_once.tolist(), strict=True):
                assert abs(a - b) <= 1e-12 * abs(a), (point.name, variant, a, b)
            compared += 1
    assert compared > 100


#: Lines that tell the text conventions apart: trailing whitespace, a no-break space, entities in
#: both cases, a capital I with a dot (two characters lower-cased), an empty line, CJK, symbols.
TRICKY = [
    "Trailing spaces   ",
    "A no\u00a0break space and a\ttab.",
    "&QUOT;Quoted&QUOT; &amp; &lt;b&gt; &apos;x&apos;",
    "İstanbul ÄÖÜ straße",
    "",
    "我们在2019年，“BLEU”得分.5",
    "Größe: 3,5 m² — «gut», 1990.",
]


def test_the_shared_tokenization_is_tokenize_lines_under_every_text_convention() -> None:
    lines = [*read_lines(WMT17, UEDIN)[:150], *TRICKY]
    refs = [*read_lines(WMT17, "ref.de")[:150], *reversed(TRICKY)]
    tricky = CountedCorpus([lines], [[r] for r in refs], ["s"])
    plain = CountedCorpus([lines[:150]], [[r] for r in refs[:150]], ["s"])
    conventions = {p.text for p in _points()} | {
        tuple((k, v if k != "split" else rule) for k, v in p.text)
        for p in _points()
        for rule in ("ascii", "space")
    }
    for text in sorted(conventions):
        keywords = dict(text)
        if "mecab" in keywords["tokenize"]:
            continue
        for counted, hyps, references in ((tricky, lines, refs), (plain, lines[:150], refs[:150])):
            got_hyps, got_refs = counted.tokens(text)
            assert [list(t) for t in got_hyps[0]] == [tokenize_line(x, **keywords) for x in hyps], keywords
            assert [list(r[0]) for r in got_refs] == [tokenize_line(x, **keywords) for x in references], (
                keywords
            )
