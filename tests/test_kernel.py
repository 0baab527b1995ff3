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
    KERNEL_LINE_TOKENIZERS,
    TOKENIZERS,
    fold_case,
    kernel_folding,
    line_tokenizer,
    split_whitespace,
    tokenize_13a,
    tokenize_char,
    tokenize_intl,
    tokenize_none,
    tokenize_zh,
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


# --- the tokenizers in the kernel: tokens(line, k) == the literal tokenizer(line.rstrip()).split() ----

#: The spec's mirror of each tokenizer the kernel runs (spec chapter 11).
LITERAL_TOKENIZERS: dict[str, Callable[[str], str]] = {
    "none": tokenize_none,
    "13a": tokenize_13a,
    "intl": tokenize_intl,
    "zh": tokenize_zh,
    "char": tokenize_char,
}
KERNEL_NAMES = tuple(KERNEL_MODULE.TOKENIZERS) if KERNEL_MODULE is not None else tuple(LITERAL_TOKENIZERS)


def kernel_tokens(name: str) -> Callable[[str], list[str]]:
    assert KERNEL_MODULE is not None
    number = KERNEL_NAMES.index(name)
    function: Callable[[str, int], list[str]] = KERNEL_MODULE.tokens
    return lambda line: function(line, number)


def literal_tokens(name: str, line: str) -> list[str]:
    """TOK-PIPELINE by the spec's mirror: rstrip, the rule-by-rule tokenizer, the whitespace split."""
    return split_whitespace(LITERAL_TOKENIZERS[name](line.rstrip()))


def test_the_kernel_runs_the_literal_tokenizers() -> None:
    assert set(KERNEL_NAMES) == set(LITERAL_TOKENIZERS)


#: Pieces that exercise each rule: 13a's entities, <skipped>, line feeds, digits, periods, commas and
#: dashes; zh's ranges (ideographs, full-width forms, the general punctuation of its mistyped ranges);
#: intl's categories (numbers of every kind, punctuation and symbols outside ASCII); whitespace.
PIECES = [
    *("&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "-\n", "\n", "&", ";", "-", ".", ",", "1", "a", " "),
    *("\u00a0", "\u2028", "\x1c", "\r", "€", "\U0001f600", "我", "们", "，", "“", "”", "\u3000", "\uff0e"),
    *("\u2013", "²", "½", "٣", "Ⅻ", "«", "»", "¿", "§", "\u0301", "İ", "Σ", "x²", "1990.", ".5"),
]


@needs_kernel
@pytest.mark.parametrize("name", list(LITERAL_TOKENIZERS))
@given(text=st.one_of(texts(), st.text(st.characters(exclude_categories=["Cs"]), max_size=40)))
def test_the_kernel_tokenizes_generated_text_as_the_literal_tokenizer(name: str, text: str) -> None:
    assert kernel_tokens(name)(text) == literal_tokens(name, text)


@needs_kernel
@pytest.mark.parametrize("name", list(LITERAL_TOKENIZERS))
@given(text=st.lists(st.sampled_from(PIECES), max_size=24).map("".join))
def test_the_kernel_tokenizes_every_rule_as_the_literal_tokenizer(name: str, text: str) -> None:
    """13a's replacements in sequence (a removal can make an entity), the two-character rules of 13a,
    zh and intl at word and line ends (zh and intl pad nothing), the maps of characters."""
    assert kernel_tokens(name)(text) == literal_tokens(name, text)


@needs_kernel
def test_the_kernel_tokenizers_by_hand() -> None:
    """Each tokenizer's steps worked by hand (spec chapter 11), and 13a's replacements' order."""
    t13a, intl, zh, char = (kernel_tokens(name) for name in ("13a", "intl", "zh", "char"))
    assert t13a("The U.S. costs $3,000.50 -- isn't it? (1990-2000)\r\n") == (
        "The U . S . costs $ 3,000.50 -- isn't it ? ( 1990 - 2000 )".split()
    )
    assert t13a("&amp;quot; &amp;lt; a-<skipped>\nb") == ["&", "quot", ";", "<", "ab"]
    assert t13a(".5 x.") == [".", "5", "x", "."]  # the padding: "." follows a space
    assert intl("Größe: 3,5 m² — «gut», 1990.") == "Größe : 3,5 m² — « gut » , 1990.".split()  # ² is No
    assert zh("我们在2019年，“BLEU”得分.5") == "我 们 在 2019 年 ， “ BLEU ” 得 分 . 5".split()
    assert zh(".5 km") == [".5", "km"]  # no padding: nothing precedes the first "."
    assert char("Ab c\u0301") == ["A", "b", "c", "\u0301"]
    assert t13a("") == intl(" \t\u3000") == zh("\u3000") == char(" ") == []
    assert KERNEL_MODULE is not None
    with pytest.raises(TypeError):
        KERNEL_MODULE.tokens(b"a", 1)
    with pytest.raises(ValueError, match="unknown tokenizer"):
        KERNEL_MODULE.tokens("a", len(KERNEL_NAMES))


def assert_same_tokens(name: str, paths: list[Path]) -> int:
    unique = {line for path in paths for line in lines(path)}
    tokens = kernel_tokens(name)
    different = [line for line in sorted(unique) if tokens(line) != literal_tokens(name, line)]
    assert different == [], f"{len(different)} lines differ, e.g. {different[:3]}"
    return len(unique)


@needs_kernel
@pytest.mark.parametrize("name", list(LITERAL_TOKENIZERS))
def test_the_kernel_tokenizes_wmt17_as_the_literal_tokenizer(name: str) -> None:
    """The reference and two systems of WMT17 en-de here; every shipped line in the slow run."""
    folder = DATA / "wmt17-en-de"
    assert assert_same_tokens(name, [folder / "ref.de", *sorted(folder.glob("hyp.*.de"))[:2]]) > 8_000


@needs_kernel
@pytest.mark.slow  # the literal tokenizers on 56,705 lines each: 4-20 s a tokenizer, more under load
@pytest.mark.parametrize("name", list(LITERAL_TOKENIZERS))
def test_the_kernel_tokenizes_every_line_of_the_shipped_data_as_the_literal_tokenizer(name: str) -> None:
    paths = [path for path in sorted(DATA.glob("*/*.*")) if path.suffix != ".md"]
    assert assert_same_tokens(name, paths) > 40_000  # the 24 files of conformance/data (README.md there)


@pytest.mark.parametrize("name", list(LITERAL_TOKENIZERS))
@pytest.mark.parametrize("lowercase", ["none", "unicode", "ascii"])
@given(text=texts())
def test_line_tokenizer_gives_the_pipeline_of_the_literal_functions(
    name: str, lowercase: str, text: str
) -> None:
    """TOK-PIPELINE: case folding first, then rstrip, the tokenizer and the split, by the kernel where loaded."""
    folded = fold_case(text, lowercase)  # type: ignore[arg-type]
    assert line_tokenizer(name, lowercase)(text) == literal_tokens(name, folded)


def test_scoring_tokenizes_with_the_kernel_where_it_is_loaded() -> None:
    """line_tokenizer hands 13a, intl, zh and char to the kernel where it is loaded; none stays str.split."""
    for name in LITERAL_TOKENIZERS:
        kernel_path = fast.KERNEL is not None and name in KERNEL_LINE_TOKENIZERS
        tokens = line_tokenizer(name)
        assert (
            getattr(tokens, "__qualname__", "").startswith("line_tokenizer.<locals>.<lambda>")
        ) == kernel_path
    assert (kernel_folding("intl", "unicode") is not None) == (fast.KERNEL is not None)
    assert kernel_folding("13a", "unicode", case_order="after") is None
    assert kernel_folding("13a-sgml") is None


# --- counts_rows(rows, systems, orders, tokenizer) and counts_lines(blocks, ...): no str per token ---

Row = tuple[str, ...]
Answer = tuple[list[list[int]], list[int], list[list[int]], list[int]]


def expected_counts(rows: list[Row], systems: int, orders: int, name: str = "13a") -> Answer:
    """The kernel's answer by the oracles: the literal tokenizer's tokens counted by the Python path."""
    matches = [[0] * orders for _ in range(systems)]
    totals = [[0] * orders for _ in range(systems)]
    lengths: list[int] = []
    for row in rows:
        tokens = [literal_tokens(name, cell) for cell in row]
        lengths.extend(map(len, tokens))
        for k in range(systems):
            found = python_clipped_matches(tokens[k], tokens[systems:], orders)
            matches[k] = [a + b for a, b in zip(matches[k], found, strict=True)]
            totals[k] = [t + max(0, len(tokens[k]) - n) for n, t in enumerate(totals[k])]
    width = len(rows[0]) if rows else systems + 1
    sums = [sum(lengths[k::width]) for k in range(width)]
    return matches, lengths, totals, sums


def answer(matches: list[list[int]], lengths: bytes, totals: list[list[int]], sums: list[int]) -> Answer:
    return matches, memoryview(lengths).cast("q").tolist(), totals, sums


def assert_same_counts(rows: list[Row], systems: int, orders: int, name: str = "13a") -> None:
    assert KERNEL_MODULE is not None
    number = KERNEL_NAMES.index(name)
    expected = expected_counts(rows, systems, orders, name)
    assert answer(*KERNEL_MODULE.counts_rows(rows, systems, orders, number)) == expected
    if rows and not any("\n" in cell for row in rows for cell in row):  # a block holds lines
        for blocks in (
            ["".join(row[k] + "\n" for row in rows) for k in range(len(rows[0]))],
            ["".join(row[k] + "\n" for row in rows).encode() for k in range(len(rows[0]))],
        ):
            done, bad, *counted = KERNEL_MODULE.counts_lines(blocks, systems, orders, number)
            assert (done, bad, answer(*counted)) == (len(rows), -1, expected)
        *_, segments = KERNEL_MODULE.counts_lines(blocks, systems, orders, number, True)
        own = [
            python_clipped_matches(
                literal_tokens(name, row[k]), [literal_tokens(name, r) for r in row[systems:]], orders
            )
            for row in rows
            for k in range(systems)
        ]
        assert memoryview(segments).cast("q").tolist() == [m for matches in own for m in matches]


#: Words that overlap often, with what the tokenizers split (punctuation, numbers, entities, no-break
#: space, ideographs, symbols).
WORDS = (
    "a",
    "b",
    "a.",
    "b,",
    "(a)",
    "1-2",
    "3.5",
    "&amp;",
    "x\u00a0y",
    "É",
    "\U0001f600",
    "-",
    "我",
    "²",
    "«a»",
)


@st.composite
def text_rows(draw: st.DrawFn, max_systems: int = 3, max_references: int = 4) -> tuple[list[Row], int]:
    """Rows of lines (systems' candidates, then references) of overlapping words or arbitrary text."""
    systems = draw(st.integers(1, max_systems))
    width = systems + draw(st.integers(1, max_references))
    words = st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join)
    line = st.one_of(words, words.map(lambda text: text + " \r"), texts())
    rows = draw(st.lists(st.tuples(*[line] * width), max_size=6))
    return rows, systems


@needs_kernel
@pytest.mark.parametrize("name", list(LITERAL_TOKENIZERS))
@given(generated=text_rows(), orders=st.integers(0, 6))
def test_the_kernel_tokenizes_and_counts_generated_rows_as_the_literal_tokenizer_and_python(
    name: str, generated: tuple[list[Row], int], orders: int
) -> None:
    assert_same_counts(*generated, orders, name)


@needs_kernel
def test_the_kernels_counting_by_hand() -> None:
    """Papineni et al. 2002, sec. 2.1's seven "the" against two references, a second system, empty lines."""
    assert KERNEL_MODULE is not None
    row = ("the the the the the the the", "the cat.", "the cat is on the mat", "there is a cat on the mat")
    matches, lengths, totals, sums = KERNEL_MODULE.counts_rows([row, ("", "", "a", "")], 2, 2, 1)
    assert matches == [[2, 0], [2, 1]]  # "the cat ." : "the" and "cat" match, "the cat" too
    assert memoryview(lengths).cast("q").tolist() == [7, 3, 6, 7, 0, 0, 1, 0]
    assert (totals, sums) == ([[7, 6], [3, 2]], [7, 3, 7, 7])
    assert KERNEL_MODULE.counts_rows([], 1, 4, 1) == ([[0, 0, 0, 0]], b"", [[0, 0, 0, 0]], [0, 0])
    assert KERNEL_MODULE.counts_lines([b"", b""], 1, 2, 1) == (0, -1, [[0, 0]], b"", [[0, 0]], [0, 0])
    # A long line, then short ones: each candidate's table is a prefix of the largest allocated.
    long = " ".join(f"w{k % 700}" for k in range(3000))
    assert_same_counts([(long, long[::-1]), ("a b a", "a b"), ("b", long)], 1, 4)


@needs_kernel
def test_the_kernels_counting_refuses_malformed_rows() -> None:
    assert KERNEL_MODULE is not None
    counts, lines_ = KERNEL_MODULE.counts_rows, KERNEL_MODULE.counts_lines
    with pytest.raises(TypeError, match="must be a str"):
        counts([("a", b"a")], 1, 2, 1)
    with pytest.raises(ValueError, match="at least one reference"):
        counts([("a",)], 1, 2, 1)
    with pytest.raises(ValueError, match="as many lines"):
        counts([("a", "b"), ("a", "b", "c")], 1, 2, 1)
    with pytest.raises(ValueError, match="at least 1"):
        counts([("a", "b")], 0, 2, 1)
    with pytest.raises(ValueError, match="negative"):
        counts([("a", "b")], 1, -1, 1)
    with pytest.raises(ValueError, match="unknown tokenizer"):
        counts([("a", "b")], 1, 2, -1)
    with pytest.raises(TypeError):
        counts(3, 1, 2, 1)
    with pytest.raises(ValueError, match="as many lines"):
        lines_([b"a\nb\n", b"a\n"], 1, 2, 1)
    with pytest.raises(ValueError, match="as many lines"):
        lines_([b"a\n", b"a\nb\n"], 1, 2, 1)
    with pytest.raises(ValueError, match="as many lines"):
        lines_([b"a\n", b"a"], 1, 2, 1)  # a line must end with "\n"
    with pytest.raises(TypeError, match="bytes or str"):
        lines_([b"a\n", ["a"]], 1, 2, 1)


#: Lines of bytes: UTF-8 of every length, and what Python's strict decoder refuses (a lone
#: continuation byte, a truncated sequence, overlong forms, surrogates, beyond U+10FFFF, 0xFF).
BYTE_PIECES = [
    *(b"a", b" ", b".", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xef\xbb\xbf"),
    *(
        b"\x80",
        b"\xc3",
        b"\xe2\x82",
        b"\xc0\xaf",
        b"\xe0\x80\xaf",
        b"\xed\xa0\x80",
        b"\xf4\x90\x80\x80",
        b"\xff",
    ),
]


@needs_kernel
@given(st.lists(st.lists(st.sampled_from(BYTE_PIECES), max_size=6).map(b"".join), min_size=1, max_size=8))
def test_the_kernel_refuses_the_first_line_pythons_decoder_refuses(raw_lines: list[bytes]) -> None:
    """counts_lines decodes bytes as strictly as Python: it stops at the first line whose bytes
    ``bytes.decode("utf-8")`` refuses, having counted the rows before it, which are right."""
    assert KERNEL_MODULE is not None

    def valid(raw: bytes) -> bool:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            return False
        return True

    first_bad = next((k for k, raw in enumerate(raw_lines) if not valid(raw)), -1)
    given_lines = b"".join(raw + b"\n" for raw in raw_lines)
    reference = b"".join(b"a b\n" for _ in raw_lines)
    good = [raw.decode() for raw in (raw_lines if first_bad < 0 else raw_lines[:first_bad])]
    for file, blocks in ((0, [given_lines, reference]), (1, [reference, given_lines])):
        done, bad, *counted = KERNEL_MODULE.counts_lines(blocks, 1, 2, 1)
        assert (done, bad) == ((len(raw_lines), -1) if first_bad < 0 else (first_bad, file))
        rows = [(line, "a b") if file == 0 else ("a b", line) for line in good]
        assert answer(*counted) == answer(*KERNEL_MODULE.counts_rows(rows, 1, 2, 1))


@needs_kernel
@given(st.binary(max_size=60).map(lambda b: b.replace(b"\r", b"")), st.integers(0, 9))
def test_line_ends_found_by_the_kernel_are_pythons(data: bytes, limit: int) -> None:
    """skip_lines and long_line: the positions and indexes a Python loop over the bytes gives."""
    assert KERNEL_MODULE is not None
    ends = [k + 1 for k, byte in enumerate(data) if byte == 10]
    for count in range(len(ends) + 1):
        assert KERNEL_MODULE.skip_lines(data, 0, count) == (ends[count - 1] if count else 0)
        assert KERNEL_MODULE.skip_lines(data.decode("latin-1"), 0, count) == (ends[count - 1] if count else 0)
    with pytest.raises(ValueError, match="fewer lines"):
        KERNEL_MODULE.skip_lines(data, 0, len(ends) + 1)
    longest = next((k for k, line in enumerate(data.split(b"\n")) if len(line) > limit), -1)
    assert KERNEL_MODULE.long_line(data, limit) == longest


def rows_of(system: Path, nrefs: int) -> list[Row]:
    _, systems, ref = next(s for s in SETS if system in s[1])
    others = [s for s in systems if s != system][: nrefs - 1]
    return list(zip(*(lines(path) for path in [system, ref, *others]), strict=True))


@needs_kernel
@pytest.mark.parametrize(("nrefs", "name"), [(1, "13a"), (4, "13a"), (1, "intl"), (1, "zh"), (1, "char")])
def test_the_kernel_counts_the_first_wmt17_system_as_the_literal_tokenizer_and_python(
    nrefs: int, name: str
) -> None:
    assert_same_counts(rows_of(SETS[0][1][0], nrefs), 1, 4, name)


#: Every how many lines of the shipped data a literal tokenizer is run on: 13a on every line; the
#: literal intl, zh and char (Unicode category and range tests written out per character, 2-4
#: minutes each on every line of a loaded 2-core machine) on every 5th, the first included.
LITERAL_STRIDE = {"13a": 1}


@needs_kernel
@pytest.mark.slow  # the 24 shipped files through each literal tokenizer: about a minute each
@pytest.mark.parametrize("name", list(LITERAL_TOKENIZERS))
def test_the_kernel_counts_the_shipped_data_as_the_literal_tokenizer_and_python(name: str) -> None:
    """Each test set's systems in one call against its reference, then each file's lines against
    themselves (its count of tokens too): every line for 13a, every 5th for the others."""
    stride = LITERAL_STRIDE.get(name, 5)
    for _, systems, ref in SETS:
        rows = list(zip(*(lines(path) for path in [*systems, ref]), strict=True))
        assert_same_counts(rows[::stride], len(systems), 4, name)
    for path in sorted(DATA.glob("*/*.*")):
        if path.suffix != ".md":
            assert_same_counts([(line, line) for line in lines(path)[::stride]], 1, 4, name)


# --- the file scorer's chunks: the kernel's counts and lengths under every convention and rule -----


def literal_chunk(rows: list[Row], counting: Counting, systems: int, start: int) -> list[list[Statistics]]:
    """Each system's summed statistics of a chunk by the literal functions (TOK-PIPELINE by hand)."""

    def tokens(line: str) -> list[str]:
        folded_first = fold_case(line, counting.lowercase) if counting.case_order == "before" else line  # type: ignore[arg-type]
        split = literal_tokens(counting.tokenize, folded_first)
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
def countings(draw: st.DrawFn) -> Counting:
    """Countings of the kernel's tokenizers: any orders, reference length rule, case folding and its
    order, segment rules."""
    rules = st.sampled_from(["keep", "drop", "error"])
    return Counting(
        draw(st.integers(1, 5)),
        draw(st.sampled_from(REF_LENGTH_RULES)),
        draw(st.sampled_from(list(LITERAL_TOKENIZERS))),
        draw(st.sampled_from(CASE_FOLDINGS)),
        empty_references=draw(rules),
        empty_candidates=draw(rules),
        case_order=draw(st.sampled_from(CASE_ORDERS)),
    )


@given(text_rows(), countings(), st.integers(0, 9))
def test_chunks_counted_by_the_kernel_have_the_literal_statistics(
    generated: tuple[list[Row], int], counting: Counting, start: int
) -> None:
    """counts_rows's matches and lengths made statistics (fast.counted_statistics): the literal ones,
    with the same errors (EC-004, EC-005, EC-006 after dropping), for every reference length rule."""
    rows, systems = generated
    assert fast.COUNTS_ROWS is not None or fast.KERNEL is None
    expected = outcome(lambda: literal_chunk(rows, counting, systems, start))
    assert outcome(lambda: chunk_statistics(rows, counting, False, start, systems)[0]) == expected


def test_files_count_chunks_with_the_kernel_where_it_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """chunk_statistics calls counts_rows for summed statistics under the kernel's tokenizers, never for
    kept segments nor for a tokenizer it does not run."""
    calls: list[int] = []
    kernel = fast.COUNTS_ROWS

    def spy(rows: list[Row], systems: int, orders: int, tokenizer: int) -> object:
        calls.append(len(rows))
        assert kernel is not None
        return kernel(rows, systems, orders, tokenizer)

    if kernel is not None:
        monkeypatch.setattr(files, "COUNTS_ROWS", spy)
    rows = [("a b c", "a b d")]
    summed, _ = chunk_statistics(rows, Counting(2, tokenize="intl"), False)
    kept, _ = chunk_statistics(rows, Counting(2, tokenize="intl"), True)
    assert summed == kept == [[Statistics((2, 1), (3, 2), 3, 3)]]
    assert calls == ([1] if kernel is not None else [])
    chunk_statistics(rows, Counting(2, tokenize="13a-sgml"), False)
    assert calls == ([1] if kernel is not None else [])
