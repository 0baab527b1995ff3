"""Files read in blocks for the kernel give the line reader's integers and errors (spec CLI-INPUT, NUM-KERNEL).

The oracle is the line reader with the pure-Python counting (``scoring.files`` with the kernel's
counting switched off): each file read line by line, decoded, checked and tokenized by Python.
The block reader (``scoring.blocks``) must give the same statistics and number of segments, the
same error (the same line and byte, the same message), and the same warnings, on the shipped
data and on generated hostile files: bytes that are not UTF-8 (every kind Python refuses), lines
over the limit, byte-order marks kept or stripped, CR LF, a missing last line end, empty files,
files of unequal lengths, several faults at once in several files, and compressed files. Blocks
and chunks are made tiny here, so that lines, marks and faults fall across their boundaries.
"""

from __future__ import annotations

import gzip
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.data import WMT17, plain_root
from reference_bleu.errors import BleuInputError
from reference_bleu.fast import counts as fast
from reference_bleu.scoring import blocks, files
from reference_bleu.scoring.files import Counting, Reading, systems_statistics
from tests.test_kernel import BYTE_PIECES

pytestmark = pytest.mark.skipif(
    fast.COUNTS_LINES is None, reason="the block reader serves the compiled kernel"
)

DATA = plain_root() / WMT17.name


@contextmanager
def line_reader() -> Iterator[None]:
    """The oracle: files read line by line and counted by Python."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(files, "COUNTS_LINES", None)
        patch.setattr(files, "COUNTS_ROWS", None)
        yield


@contextmanager
def tiny_blocks(size: int, rows: int) -> Iterator[None]:
    """Blocks of ``size`` bytes and chunks of ``rows`` rows: every boundary falls somewhere."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(blocks, "BLOCK_BYTES", size)
        patch.setattr(blocks, "BLOCK_ROWS", rows)
        patch.setattr(blocks, "BLOCK_BUDGET", 4 * size)
        yield


def outcome(
    hyps: list[str],
    refs: list[str],
    counting: Counting,
    reading: Reading,
    capsys: pytest.CaptureFixture[str],
    *,
    keep: bool = False,
) -> tuple[object, str]:
    """What scoring the files gives: the statistics (summed, or each segment's with ``keep``), segments,
    digests and progress, or the error; and what it said on standard error."""
    progress: list[int] = []
    digests: dict[str, str] = {}
    try:
        result: object = (
            systems_statistics(
                hyps,
                refs,
                counting,
                keep_segments=keep,
                reading=reading,
                digests=digests,
                progress=progress.append,
            ),
            progress[-1:],
            digests,
        )
    except BleuInputError as error:
        result = str(error)
    return result, capsys.readouterr().err


PAPER_COUNTING, READING = Counting(4), Reading()


def same(
    hyps: list[str],
    refs: list[str],
    capsys: pytest.CaptureFixture[str],
    counting: Counting = PAPER_COUNTING,
    reading: Reading = READING,
    *,
    keep: bool = False,
) -> object:
    """The outcome of scoring the files by both readers, which must be the same."""
    with line_reader():
        expected = outcome(hyps, refs, counting, reading, capsys, keep=keep)
    got = outcome(hyps, refs, counting, reading, capsys, keep=keep)
    assert got == expected
    return got[0]


@pytest.mark.parametrize(("size", "rows"), [(1 << 20, 4096), (97, 3)], ids=["real blocks", "tiny blocks"])
@pytest.mark.parametrize(
    "counting",
    [
        Counting(4, tokenize="13a"),
        Counting(4, tokenize="intl", lowercase="unicode"),
        Counting(2, "shortest", "zh"),
    ],
    ids=["13a", "intl -lc", "zh"],
)
def test_the_shipped_data(
    size: int, rows: int, counting: Counting, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three WMT17 systems in one call and one against itself and the reference: the same integers."""
    systems = [str(DATA / name) for name in WMT17.systems[:3]]
    ref = str(DATA / "ref.de")
    with tiny_blocks(size, rows):
        result = same(systems, [ref], capsys, counting)
        assert not isinstance(result, str)
        same(systems[:1], [ref, systems[1]], capsys, counting)
        same(systems[:2], [ref], capsys, counting, keep=True)  # each segment's, as -sl and -pbs keep them


#: Pieces of lines: UTF-8 text (words, punctuation, digits, non-ASCII letters and spaces, CR), bytes that
#: are not UTF-8 (a lone continuation byte, a truncated sequence, overlong forms, a surrogate, beyond
#: U+10FFFF, 0xFF), and a byte-order mark (which counts only at the start of a file).
PIECES = [
    *(b"the", b"cat", b" ", b"  ", b"a.", b"1,5", b"-", b"&amp;", b"\xc3\xa9t\xc3\xa9", b"\xe2\x80\x9e"),
    *(b"\xc2\xa0", b"\xe6\x88\x91", b"\r", b"\t"),
    *BYTE_PIECES[7:],  # what Python's decoder refuses
]
GOOD = PIECES[:14]


@st.composite
def hostile_file(draw: st.DrawFn, lines: int) -> bytes:
    """A file of about ``lines`` lines: mostly good text, sometimes bad bytes, a mark, CR LF, no last end."""
    pieces = st.sampled_from(PIECES if draw(st.booleans()) else GOOD)
    count = draw(st.sampled_from([lines, lines, lines, lines - 1, lines + 1, 0]))
    body = [b"".join(draw(st.lists(pieces, max_size=8))) for _ in range(max(count, 0))]
    ended: bool = draw(st.booleans())
    data = b"\n".join(body) + (b"\n" if body and ended else b"")
    if draw(st.integers(0, 4)) == 0:
        data = blocks.BYTE_ORDER_MARK_BYTES + data
    return data


@st.composite
def hostile_files(draw: st.DrawFn) -> tuple[list[bytes], int]:
    lines = draw(st.integers(0, 9))
    count = draw(st.integers(2, 4))
    return [draw(hostile_file(lines)) for _ in range(count)], draw(st.integers(1, count - 1))


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # capsys is read after each run
@given(
    generated=hostile_files(),
    size=st.integers(1, 40),
    rows=st.integers(1, 4),
    limit=st.sampled_from([6, 12, 40, 1 << 20]),
    strip_bom=st.booleans(),
    lowercase=st.sampled_from(["none", "unicode"]),
    keep=st.booleans(),
)
def test_hostile_files(  # noqa: PLR0917 -- hypothesis draws each as an argument
    generated: tuple[list[bytes], int],
    size: int,
    rows: int,
    limit: int,
    strip_bom: bool,
    lowercase: str,
    keep: bool,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every fault at its line and byte, the first one as the line reader meets it (row by row, file by
    file), and the rows before it counted alike; the same warnings for a kept mark."""
    contents, systems = generated
    reading = Reading(strip_bom=strip_bom, max_line_bytes=limit)
    counting = Counting(3, tokenize="13a", lowercase=lowercase)
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for k, data in enumerate(contents):
            path = Path(folder) / f"f{k}"
            path.write_bytes(data)
            paths.append(str(path))
        with tiny_blocks(size, rows):
            same(paths[:systems], paths[systems:], capsys, counting, reading, keep=keep)


def test_faults_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The errors worded as the line reader words them, for one fault of each kind."""

    def write(name: str, data: bytes) -> str:
        path = tmp_path / name
        path.write_bytes(data)
        return str(path)

    good = write("good", b"a b\n" * 6)
    bad = write("bad", b"a b\n" * 4 + b"caf\xe9 b\n" + b"a b\n")
    assert same([bad], [good], capsys) == f"{bad}: line 5, byte 4: not valid UTF-8 (0xe9) (spec CLI-INPUT)"
    long = write("long", b"a b\n" * 2 + b"x" * 30 + b"\n" + b"a b\n" * 3)
    assert str(same([long], [good], capsys, reading=Reading(max_line_bytes=20))).startswith(
        f"{long}: line 3 is longer"
    )
    short = write("short", b"a b\n" * 5)
    counts = f"line counts differ: {good} has 6, {short} has 5 lines (spec CLI-FILES)"
    assert same([good], [short], capsys) == counts
    blank_end = write("blank-end", b"a b\n" * 5 + b" \n")
    hint = f"{blank_end}: the extra lines are blank; a blank line at the end?"
    assert same([blank_end], [short], capsys) == (
        f"line counts differ: {blank_end} has 6, {short} has 5 lines ({hint}) (spec CLI-FILES)"
    )
    marked = write("marked", b"\xef\xbb\xbfa b\n" + b"a b\n" * 5)
    result = same([marked], [good], capsys)
    assert not isinstance(result, str)
    strip = Reading(strip_bom=True)
    same([marked], [good], capsys, reading=strip)
    marked_bad = write("marked_bad", b"\xef\xbb\xbfa \xff\n" + b"a b\n" * 5)
    assert (
        same([marked_bad], [good], capsys, reading=strip)
        == f"{marked_bad}: line 1, byte 6: not valid UTF-8 (0xff) (spec CLI-INPUT)"
    )
    empty = write("empty", b"")
    assert (
        same([empty], [empty], capsys) == f"{empty} is empty: BLEU needs at least one segment (spec EC-012)"
    )


def test_compressed_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """gzip read in blocks as the line reader reads it; a corrupt one fails with the same words (the line
    after which it fails is where each reader's buffer ran out: not compared)."""
    text = "".join(f"{k * k:x} {k**3:o}\n" for k in range(3000)).encode()
    packed = tmp_path / "packed.gz"
    packed.write_bytes(gzip.compress(text))
    plain = tmp_path / "plain"
    plain.write_bytes(text)
    assert not isinstance(same([str(packed)], [str(plain)], capsys), str)
    broken = tmp_path / "broken.gz"
    whole = gzip.compress(text)
    broken.write_bytes(whole[: len(whole) // 2])
    with line_reader():
        expected = outcome([str(broken)], [str(plain)], Counting(4), Reading(), capsys)
    got = outcome([str(broken)], [str(plain)], Counting(4), Reading(), capsys)
    after = re.compile(r"after line \d+")
    assert isinstance(got[0], str)
    assert isinstance(expected[0], str)
    assert after.sub("after line N", got[0]) == after.sub("after line N", expected[0])
    assert "cannot read" in got[0]
    assert "(gzip)" in got[0]
