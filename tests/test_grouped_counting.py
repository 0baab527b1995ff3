"""Per-group counting as a stream (spec NUM-PARTIAL): each group's partial is one run's, memory flat.

The oracle is one ``corpus_bleu`` run on each group's rows (its statistics checked against an
independent literal implementation in tests/test_api.py); the error numbering is spelt out by
hand; the memory of a million rows is read from the counting process itself (VmHWM).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.data import WMT17, read_lines
from conformance.suite.strategies import corpora
from reference_bleu import BleuError, BleuInputError, corpus_bleu, make_conventions
from reference_bleu.partial import GroupedCounting, partials_by
from tests.test_partial import KEPT, SUMMED

ROOT = Path(__file__).resolve().parent.parent


@given(
    corpora(max_segments=12),
    st.lists(st.sampled_from("abc"), min_size=12, max_size=12),
    st.integers(1, 5),
    st.sampled_from(SUMMED + KEPT),
)
def test_each_groups_partial_is_one_run_on_its_rows(
    corpus: tuple[list[Any], list[Any]], keys: list[str], chunk: int, given_options: dict[str, Any]
) -> None:
    hyps, refs = corpus
    options = dict(given_options)
    profile = options.pop("profile", None)
    conventions = make_conventions(profile, text=False, **options)
    rows = list(zip(keys, hyps, refs, strict=False))
    with mock.patch("reference_bleu.partial.CHUNK_SIZE", chunk):  # groups flushed mid-stream
        try:
            grouped = partials_by(rows, conventions)
        except (
            BleuError
        ) as error:  # EC-004's zero_length="error": the first group's error, as one run gives it
            first = [(h, r) for k, h, r in rows if k == rows[0][0]]
            with pytest.raises(BleuError, match=re.escape(str(error).split(" (spec")[0][:30])):
                corpus_bleu([h for h, _ in first], [r for _, r in first], profile, **options)
            return
    assert list(grouped) == list(dict.fromkeys(k for k, _, _ in rows))  # in order of first appearance
    for key, part in grouped.items():
        mine = [(h, r) for k, h, r in rows if k == key]
        try:
            whole = corpus_bleu([h for h, _ in mine], [r for _, r in mine], profile, **options)
        except BleuError as error:
            with pytest.raises(BleuError, match=re.escape(str(error))):
                part.score()
            continue
        assert part.segments == len(mine)
        result = part.score()
        assert result.statistics == whole.statistics
        assert result.score_decimal == whole.score_decimal


def test_a_bad_row_is_named_by_its_position_in_the_stream() -> None:
    # By hand: rows 0..7 alternate between groups a and b; row 1 (group b) and row 3 (group b's
    # second) are fine, row 5 has no tokens list but a number, row 6 (group a) a None. With
    # chunks of 8 rows, group a is flushed first and fails on row 6; the stream's first bad
    # row is 5 (group b): that is the one named, as row 105 when the stream starts at 100.
    conventions = make_conventions(text=False, max_order=1)
    rows: list[tuple[str, Any, Any]] = [(("a", "b")[k % 2], ["x"], [["x"]]) for k in range(8)]
    rows[5] = ("b", 7, [["x"]])
    rows[6] = ("a", None, [["x"]])
    counting = GroupedCounting(conventions, start=100)
    with mock.patch("reference_bleu.partial.CHUNK_SIZE", 8):
        for row in rows[:7]:
            counting.add(*row)  # buffered, not counted yet
        with pytest.raises(BleuInputError, match=r"^hypothesis 105 must be a sequence of tokens, got int"):
            counting.add(*rows[7])  # the eighth row fills the chunk: counted
    assert counting.failed == (105, 7, [["x"]])


def test_rows_of_text_name_their_row_in_the_stream_not_in_their_group() -> None:
    conventions = make_conventions(tokenize="13a")
    rows = [("s1", "a b", "a b"), ("s2", "c d", "c d"), ("s2", "e", ["e", 3])]
    with pytest.raises(BleuInputError, match=r"^reference 1 of segment 2 is a int"):
        partials_by(rows, conventions)


#: Runs in a fresh process: 1M rows (the 16 WMT17 systems' 3,004 segments, 21 times over, made
#: one at a time) counted per system; prints each system's counts and the process's peak memory.
MILLION = """
import json, sys
from conformance.data import WMT17, read_lines
from reference_bleu import make_conventions
from reference_bleu.partial import partials_by

refs = read_lines(WMT17, "ref.de")
systems = {name: read_lines(WMT17, name) for name in WMT17.systems}

def rows():
    for _ in range(21):
        for name, lines in systems.items():
            for hyp, ref in zip(lines, refs, strict=True):
                yield name, hyp, ref

parts = partials_by(rows(), make_conventions("sacrebleu"))
status = open("/proc/self/status", encoding="utf-8").read()
peak_kb = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))
counts = {k: [p.segments, list(p.matches), list(p.totals), p.hyp_len, p.ref_len] for k, p in parts.items()}
print(json.dumps({"peak_mb": peak_kb / 1024, "counts": counts}))
"""


@pytest.mark.slow
def test_a_million_rows_per_system_are_counted_in_under_150_mb() -> None:
    done = subprocess.run(
        [sys.executable, "-c", MILLION], cwd=ROOT, capture_output=True, text=True, check=True, timeout=1800
    )
    report = json.loads(done.stdout)
    refs = read_lines(WMT17, "ref.de")
    assert sum(counts[0] for counts in report["counts"].values()) == 21 * 16 * 3004 == 1_009_344
    for name, (segments, matches, totals, hyp_len, ref_len) in report["counts"].items():
        one = corpus_bleu(read_lines(WMT17, name), refs, profile="sacrebleu")  # counts add: 21 runs' are 21x
        assert segments == 21 * len(refs)
        assert matches == [21 * m for m in one.matches]
        assert totals == [21 * t for t in one.totals]
        assert (hyp_len, ref_len) == (21 * one.hyp_len, 21 * one.ref_len)
    assert report["peak_mb"] < 150, report["peak_mb"]  # the whole process: interpreter, data, counting
