"""The compiled kernel gives the pure-Python path's integers and the literal 13a tokens (spec NUM-KERNEL).

As CPython's ``_decimal`` is checked against ``_pydecimal``, the kernel's ``clipped_matches`` is
checked against :func:`reference_bleu.fast.counts.python_clipped_matches`, itself checked against the
literal functions (tests/test_fast_statistics.py), on generated corpora (hypothesis; 1 to 8
orders, two-word vocabularies for heavy clipping) and on every segment of the shipped data
with every tokenizer at 1 and 4 references (the first system of each test set by default, every
system under the slow marker). ``counts_13a``, TOK-13A and counting of a chunk of text rows in one
call, is checked against the literal TOK-13A's tokens counted by the Python path, on generated rows
and on the shipped data, and the statistics the file scorer makes from it against the literal
functions' under every segment rule. The kernel is imported directly, so these tests compare it
even when ``REFERENCE_BLEU_PURE_PYTHON=1`` keeps the rest of the process on the Python path;
they skip where it was not built (no compiler at install time), unless
``REFERENCE_BLEU_REQUIRE_KERNEL=1`` (CI) makes its absence a failure.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from itertools import product
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.data import plain_root
from conformance.suite.strategies import corpora, texts
from reference_bleu.fast import counts as fast
from reference_bleu.fast.counts import python_clipped_matches
from reference_bleu.fast.kernel import PURE_PYTHON_VARIABLE, load_kernel
from reference_bleu.formulas.inputs import SegmentRules
from reference_bleu.formulas.length import REF_LENGTH_RULES
from reference_bleu.formulas.statistics import Statistics, corpus_statistics
from reference_bleu.scoring import files
from reference_bleu.scoring.files import Counting, chunk_statistics
from reference_bleu.text.tokenizers import (
    CASE_FOLDINGS,
    CASE_ORDERS,
    KERNEL_13A,
    TOKENIZERS,
    fold_case,
    line_tokenizer,
    split_whitespace,
    tokenize_13a,
)
from tests.test_fast_statistics import SETS, literal, outcome, real_corpus
from tests.test_real_data import lines

DATA = plain_root()  # the shipped test sets, decompressed (conformance/data/README.md)

Corpus = tuple[list[list[str]], list[list[list[str]]]]


def kernel_module() -> ModuleType | None:
    try:
        return importlib.import_module("reference_bleu.fast._kernel")
    except ImportError:
        if os.environ.get("REFERENCE_BLEU_REQUIRE_KERNEL") == "1":
            raise
        return None


KERNEL_MODULE = kernel_module()
needs_kernel = pytest.mark.skipif(
    KERNEL_MODULE is None, reason="the compiled kernel was not built here (no C compiler at install time)"
)


def kernel() -> Callable[[list[str], list[list[str]], int], list[int]]:
    assert KERNEL_MODULE is not None
    function: Callable[[list[str], list[list[str]], int], list[int]] = KERNEL_MODULE.clipped_matches
    return function


def assert_same_matches(hyps: list[list[str]], refs: list[list[list[str]]], orders: int) -> None:
    count = kernel()
    for i, (h, r) in enumerate(zip(hyps, refs, strict=True)):
        assert count(h, r, orders) == python_clipped_matches(h, r, orders), i


@needs_kernel
@given(corpora(), st.integers(0, 8))
def test_the_kernel_counts_generated_corpora_as_python(corpus: Corpus, orders: int) -> None:
    assert_same_matches(*corpus, orders)


@needs_kernel
@given(corpora(vocabulary=("a", "b")), st.integers(1, 8))
def test_the_kernel_clips_as_python_on_two_words(corpus: Corpus, orders: int) -> None:
    assert_same_matches(*corpus, orders)


@needs_kernel
@given(corpora(vocabulary=("a", "b", "c")), st.integers(0, 6))
def test_the_kernels_sum_is_the_sum_of_pythons_segments(corpus: Corpus, orders: int) -> None:
    """summed_clipped_matches: one call for many segments, the sum of the Python path's per segment."""
    assert KERNEL_MODULE is not None
    hyps, refs = corpus
    expected = [0] * orders
    for h, r in zip(hyps, refs, strict=True):
        expected = [a + b for a, b in zip(expected, python_clipped_matches(h, r, orders), strict=True)]
    assert KERNEL_MODULE.summed_clipped_matches(hyps, refs, orders) == expected


@needs_kernel
def test_the_kernels_sum_refuses_unpaired_segments() -> None:
    assert KERNEL_MODULE is not None
    with pytest.raises(ValueError, match="one set of references per candidate"):
        KERNEL_MODULE.summed_clipped_matches([["a"]], [], 1)


@needs_kernel
def test_hand_cases() -> None:
    """Papineni et al. 2002, sec. 2.1: "the the the the the the the" clips to 2 unigrams."""
    refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    assert kernel()("the the the the the the the".split(), refs, 2) == [2, 0]
    # No reference, an empty candidate, an order above the length, tokens equal but not identical.
    assert kernel()(["a", "b"], [], 3) == [0, 0, 0]
    assert kernel()([], [["a"]], 2) == [0, 0]
    assert kernel()(["a", "b"], [["a", "b"]], 4) == [2, 1, 0, 0]
    assert kernel()(["ab"[:1] + "c", "d"], [["ac", "d"]], 2) == [2, 1]


@needs_kernel
def test_errors_are_pythons() -> None:
    with pytest.raises(TypeError):
        kernel()([["unhashable"]], [["a"]], 1)  # type: ignore[list-item]
    with pytest.raises(TypeError):
        kernel()(["a"], 3, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="negative"):
        kernel()(["a"], [["a"]], -1)


#: By default the first WMT17 system with every tokenizer but char (its long token lists take ~10 s
#: a case); everything else, both test sets, is the slow run.
EVERY_CASE = list(product([system for _, systems, _ in SETS for system in systems], TOKENIZERS, (1, 4)))
CASES = [case for case in EVERY_CASE if case[0] == SETS[0][1][0] and case[1] != "char"]
ALL_CASES = [case for case in EVERY_CASE if case not in CASES]


def check_real(system: Path, tokenize: str, nrefs: int) -> None:
    _, systems, ref = next(s for s in SETS if system in s[1])
    others = [s for s in systems if s != system][: nrefs - 1]
    hyps, refs = real_corpus(system, [ref, *others], tokenize)
    assert_same_matches(hyps, refs, 4)


@needs_kernel
@pytest.mark.parametrize(("system", "tokenize", "nrefs"), CASES, ids=str)
def test_real_data_first_systems(system: Path, tokenize: str, nrefs: int) -> None:
    check_real(system, tokenize, nrefs)


@needs_kernel
@pytest.mark.slow
@pytest.mark.parametrize(("system", "tokenize", "nrefs"), ALL_CASES, ids=str)
def test_real_data_every_system(system: Path, tokenize: str, nrefs: int) -> None:
    check_real(system, tokenize, nrefs)


def test_the_variable_forces_the_python_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    assert load_kernel() is None
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "0")
    assert (load_kernel() is None) == (KERNEL_MODULE is None)


def test_this_process_counts_with_what_the_variable_says() -> None:
    """The loaded path: the kernel unless the variable is set or it was not built (both ways, in CI)."""
    forced = os.environ.get(PURE_PYTHON_VARIABLE) == "1"
    assert (fast.KERNEL is None) == (forced or KERNEL_MODULE is None)


# --- TOK-13A in the kernel: tokens_13a(line) == the literal tokenize_13a(line.rstrip()).split() ------


def kernel_13a() -> Callable[[str], list[str]]:
    assert KERNEL_MODULE is not None
    function: Callable[[str], list[str]] = KERNEL_MODULE.tokens_13a
    return function


def literal_13a(line: str) -> list[str]:
    """TOK-PIPELINE by the spec's mirror: rstrip, the rule-by-rule TOK-13A, the whitespace split."""
    return split_whitespace(tokenize_13a(line.rstrip()))


@needs_kernel
@given(st.one_of(texts(), st.text(st.characters(exclude_categories=["Cs"]), max_size=40)))
def test_the_kernel_tokenizes_generated_text_as_the_literal_13a(text: str) -> None:
    assert kernel_13a()(text) == literal_13a(text)


@needs_kernel
@given(
    st.lists(
        st.sampled_from(
            [
                "&quot;",
                "&amp;",
                "&lt;",
                "&gt;",
                "<skipped>",
                "-\n",
                "\n",
                "&",
                ";",
                "-",
                ".",
                ",",
                "1",
                "a",
                " ",
                "\u00a0",
                "\u2028",
                "\x1c",
                "\r",
                "€",
                "\U0001f600",
            ]
        ),
        max_size=24,
    ).map("".join)
)
def test_the_kernel_tokenizes_entities_and_numbers_as_the_literal_13a(text: str) -> None:
    """The replacements of steps 1 and 2 in sequence (a removal can make an entity), the rules of steps 5 to 7."""
    assert kernel_13a()(text) == literal_13a(text)


@needs_kernel
def test_the_kernel_13a_by_hand() -> None:
    """TOK-13A's steps worked by hand (spec chapter 11), and the replacements' order."""
    assert kernel_13a()("The U.S. costs $3,000.50 -- isn't it? (1990-2000)\r\n") == (
        "The U . S . costs $ 3,000.50 -- isn't it ? ( 1990 - 2000 )".split()
    )
    assert kernel_13a()("&amp;quot; &amp;lt; a-<skipped>\nb") == ["&", "quot", ";", "<", "ab"]
    assert kernel_13a()(".5 x.") == [".", "5", "x", "."]  # the padding: "." follows a space
    assert kernel_13a()("") == kernel_13a()(" \t\u3000") == []
    with pytest.raises(TypeError):
        kernel_13a()(b"a")  # type: ignore[arg-type]


def assert_same_13a(paths: list[Path]) -> int:
    unique = {line for path in paths for line in lines(path)}
    different = [line for line in sorted(unique) if kernel_13a()(line) != literal_13a(line)]
    assert different == [], f"{len(different)} lines differ, e.g. {different[:3]}"
    return len(unique)


@needs_kernel
def test_the_kernel_tokenizes_wmt17_as_the_literal_13a() -> None:
    """The reference and two systems of WMT17 en-de here; every shipped line in the slow run."""
    folder = DATA / "wmt17-en-de"
    assert assert_same_13a([folder / "ref.de", *sorted(folder.glob("hyp.*.de"))[:2]]) > 8_000


@needs_kernel
@pytest.mark.slow  # the literal TOK-13A on 56,705 lines: 4 s idle, 10 s under load
def test_the_kernel_tokenizes_every_line_of_the_shipped_data_as_the_literal_13a() -> None:
    paths = [path for path in sorted(DATA.glob("*/*.*")) if path.suffix != ".md"]
    assert assert_same_13a(paths) > 40_000  # the 24 files of conformance/data (README.md there)


@pytest.mark.parametrize("lowercase", ["none", "unicode", "ascii"])
@given(text=texts())
def test_line_tokenizer_gives_the_pipeline_of_the_literal_functions(lowercase: str, text: str) -> None:
    """TOK-PIPELINE: case folding first, then rstrip, TOK-13A and the split, by the kernel where loaded."""
    assert line_tokenizer("13a", lowercase)(text) == literal_13a(fold_case(text, lowercase))  # type: ignore[arg-type]


def test_scoring_tokenizes_13a_with_the_kernel_where_it_is_loaded() -> None:
    expected = None if fast.KERNEL is None else kernel_13a()
    assert KERNEL_13A is expected
    assert (line_tokenizer("13a") is expected) or expected is None


# --- counts_13a(rows, systems, orders): TOK-13A and counting of a chunk, no str per token -----------

Row = tuple[str, ...]


def expected_counts(rows: list[Row], systems: int, orders: int) -> tuple[list[list[int]], list[int]]:
    """counts_13a's answer by the oracles: the literal TOK-13A's tokens counted by the Python path."""
    matches = [[0] * orders for _ in range(systems)]
    lengths: list[int] = []
    for row in rows:
        tokens = [literal_13a(cell) for cell in row]
        lengths.extend(map(len, tokens))
        for k in range(systems):
            found = python_clipped_matches(tokens[k], tokens[systems:], orders)
            matches[k] = [a + b for a, b in zip(matches[k], found, strict=True)]
    return matches, lengths


def assert_same_counts(rows: list[Row], systems: int, orders: int) -> None:
    assert KERNEL_MODULE is not None
    matches, lengths = KERNEL_MODULE.counts_13a(rows, systems, orders)
    assert (matches, memoryview(lengths).cast("q").tolist()) == expected_counts(rows, systems, orders)


#: Words that overlap often, with what TOK-13A splits (punctuation, numbers, entities, no-break space).
WORDS = ("a", "b", "a.", "b,", "(a)", "1-2", "3.5", "&amp;", "x\u00a0y", "É", "\U0001f600", "-")


@st.composite
def text_rows(draw: st.DrawFn, max_systems: int = 3, max_references: int = 4) -> tuple[list[Row], int]:
    """Rows of lines (systems' candidates, then references) of overlapping words or arbitrary text."""
    systems = draw(st.integers(1, max_systems))
    width = systems + draw(st.integers(1, max_references))
    words = st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join)
    line = st.one_of(words, words.map(lambda text: text + " \r\n"), texts())
    rows = draw(st.lists(st.tuples(*[line] * width), max_size=6))
    return rows, systems


@needs_kernel
@given(text_rows(), st.integers(0, 6))
def test_the_kernel_tokenizes_and_counts_generated_rows_as_the_literal_13a_and_python(
    generated: tuple[list[Row], int], orders: int
) -> None:
    assert_same_counts(*generated, orders)


@needs_kernel
def test_the_kernels_chunk_counting_by_hand() -> None:
    """Papineni et al. 2002, sec. 2.1's seven "the" against two references, a second system, empty lines."""
    assert KERNEL_MODULE is not None
    row = ("the the the the the the the", "the cat.", "the cat is on the mat", "there is a cat on the mat")
    matches, lengths = KERNEL_MODULE.counts_13a([row, ("", "", "a", "")], 2, 2)
    assert matches == [[2, 0], [2, 1]]  # "the cat ." : "the" and "cat" match, "the cat" too
    assert memoryview(lengths).cast("q").tolist() == [7, 3, 6, 7, 0, 0, 1, 0]
    assert KERNEL_MODULE.counts_13a([], 1, 4) == ([[0, 0, 0, 0]], b"")
    # A long line, then short ones: each candidate's table is a prefix of the largest allocated.
    long = " ".join(f"w{k % 700}" for k in range(3000))
    assert_same_counts([(long, long[::-1]), ("a b a", "a b"), ("b", long)], 1, 4)


@needs_kernel
def test_the_kernels_chunk_counting_refuses_malformed_rows() -> None:
    assert KERNEL_MODULE is not None
    with pytest.raises(TypeError, match="must be a str"):
        KERNEL_MODULE.counts_13a([("a", b"a")], 1, 2)
    with pytest.raises(ValueError, match="at least one reference"):
        KERNEL_MODULE.counts_13a([("a",)], 1, 2)
    with pytest.raises(ValueError, match="as many lines"):
        KERNEL_MODULE.counts_13a([("a", "b"), ("a", "b", "c")], 1, 2)
    with pytest.raises(ValueError, match="at least 1"):
        KERNEL_MODULE.counts_13a([("a", "b")], 0, 2)
    with pytest.raises(ValueError, match="negative"):
        KERNEL_MODULE.counts_13a([("a", "b")], 1, -1)
    with pytest.raises(TypeError):
        KERNEL_MODULE.counts_13a(3, 1, 2)


def rows_of(system: Path, nrefs: int) -> list[Row]:
    _, systems, ref = next(s for s in SETS if system in s[1])
    others = [s for s in systems if s != system][: nrefs - 1]
    return list(zip(*(lines(path) for path in [system, ref, *others]), strict=True))


@needs_kernel
@pytest.mark.parametrize("nrefs", [1, 4])
def test_the_kernel_counts_the_first_wmt17_system_as_the_literal_13a_and_python(nrefs: int) -> None:
    assert_same_counts(rows_of(SETS[0][1][0], nrefs), 1, 4)


@needs_kernel
@pytest.mark.slow  # every line of the 24 shipped files through the literal TOK-13A: 20-40 s
def test_the_kernel_counts_every_line_of_the_shipped_data_as_the_literal_13a_and_python() -> None:
    """Each test set's systems in one call against its reference (every line of both sets), then each
    file's lines against themselves (every line of every shipped file, its count of tokens too)."""
    for _, systems, ref in SETS:
        rows = list(zip(*(lines(path) for path in [*systems, ref]), strict=True))
        assert_same_counts(rows, len(systems), 4)
    for path in sorted(DATA.glob("*/*.*")):
        if path.suffix != ".md":
            assert_same_counts([(line, line) for line in lines(path)], 1, 4)


# --- the file scorer's chunks: the kernel's counts and lengths under every convention and rule -----


def literal_chunk(rows: list[Row], counting: Counting, systems: int, start: int) -> list[list[Statistics]]:
    """Each system's summed statistics of a chunk by the literal functions (TOK-PIPELINE by hand)."""

    def tokens(line: str) -> list[str]:
        folded_first = fold_case(line, counting.lowercase) if counting.case_order == "before" else line  # type: ignore[arg-type]
        split = split_whitespace(tokenize_13a(folded_first.rstrip()))
        return split if counting.case_order == "before" else [fold_case(t, counting.lowercase) for t in split]  # type: ignore[arg-type]

    tokenized = [[tokens(cell) for cell in row] for row in rows]
    references = [row[systems:] for row in tokenized]
    rules = SegmentRules(counting.empty_references, "error", counting.empty_candidates)
    for i, row in enumerate(tokenized, start):  # the first error in the rows' order, as files read them
        if rules.references(row[systems:], i) is not None:
            for candidate in row[:systems]:
                rules.keeps_candidate(candidate, i)
    hyps = [[row[k] for row in tokenized] for k in range(systems)]
    segments = [
        literal(h, references, counting.orders, counting.ref_length, rules, start=start) for h in hyps
    ]
    return [[corpus_statistics(s, counting.orders)] for s in segments]


@st.composite
def countings_13a(draw: st.DrawFn) -> Counting:
    """13a countings: any orders, reference length rule, case folding and its order, segment rules."""
    rules = st.sampled_from(["keep", "drop", "error"])
    return Counting(
        draw(st.integers(1, 5)),
        draw(st.sampled_from(REF_LENGTH_RULES)),
        "13a",
        draw(st.sampled_from(CASE_FOLDINGS)),
        empty_references=draw(rules),
        empty_candidates=draw(rules),
        case_order=draw(st.sampled_from(CASE_ORDERS)),
    )


@needs_kernel
@given(text_rows(), countings_13a(), st.integers(0, 9))
def test_chunks_counted_by_the_kernel_have_the_literal_statistics(
    generated: tuple[list[Row], int], counting: Counting, start: int
) -> None:
    """counts_13a's matches and lengths made statistics (fast.counted_statistics): the literal ones,
    with the same errors (EC-004, EC-005, EC-006 after dropping), for every reference length rule."""
    rows, systems = generated
    assert fast.COUNTS_13A is not None or os.environ.get(PURE_PYTHON_VARIABLE) == "1"
    expected = outcome(lambda: literal_chunk(rows, counting, systems, start))
    assert outcome(lambda: chunk_statistics(rows, counting, False, start, systems)[0]) == expected


def test_files_count_13a_chunks_with_the_kernel_where_it_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """chunk_statistics calls counts_13a for summed 13a statistics, never for kept segments."""
    calls: list[int] = []
    kernel = fast.COUNTS_13A

    def spy(rows: list[Row], systems: int, orders: int) -> tuple[list[list[int]], bytes]:
        calls.append(len(rows))
        assert kernel is not None
        return kernel(rows, systems, orders)

    if kernel is not None:
        monkeypatch.setattr(files, "COUNTS_13A", spy)
    rows = [("a b c", "a b d")]
    summed, _ = chunk_statistics(rows, Counting(2, tokenize="13a"), False)
    kept, _ = chunk_statistics(rows, Counting(2, tokenize="13a"), True)
    assert summed == kept == [[Statistics((2, 1), (3, 2), 3, 3)]]
    assert calls == ([1] if kernel is not None else [])
    chunk_statistics(rows, Counting(2, tokenize="intl"), False)
    assert calls == ([1] if kernel is not None else [])
