"""Input files read in blocks for the compiled kernel, with the line reader's errors (CLI-INPUT, NUM-KERNEL).

``scoring.files`` reads a file line by line where Python counts; where the kernel counts
(summed statistics under a tokenizer it runs) the files are read here instead, a block of bytes
at a time: Python finds the whole lines of a block (one ``rfind``), counts them (one ``count``),
checks their lengths (the kernel's ``long_line``, only when a block could hold a line over the
limit), updates the digest, and hands the kernel the same number of lines from every file; the
kernel decodes them (as strictly as Python's UTF-8 decoder), tokenizes and counts them. No Python
step is taken per line. Where the case is folded first, Python decodes and folds the block (one
``decode``, one ``lower``: folding never makes, removes or moves a line end, and str.lower's
final sigma looks no further than the line) and hands the kernel str.

The errors are the line reader's, word for word (the messages are worded here, once, for both):
a file's faults (a line over the limit, bytes that are not UTF-8, a read that fails) are found
ahead of the rows and kept until the rows reach their line; at that row the files are read in
order as the line reader reads them, so the same fault is reported first, and files that end
early are the same "line counts differ". A read that fails says "after line N", N the last line
of the blocks read before it (the line reader's N is where its own buffer ran out).
"""

from __future__ import annotations

import lzma
from collections.abc import Callable, Iterator, Sequence
from typing import Any, BinaryIO, NamedTuple, Protocol

from reference_bleu.errors import BleuInputError
from reference_bleu.fast.counts import COUNTS_LINES, counted_segments, counted_statistics
from reference_bleu.fast.kernel import kernel_module
from reference_bleu.formulas.inputs import SegmentRules
from reference_bleu.formulas.length import RefLengthRule
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.text.tokenizers import fold_case

#: Bytes read from a file at a time.
BLOCK_BYTES = 1 << 20
#: Rows counted per call of the kernel, at most (a chunk of ``--jobs``).
BLOCK_ROWS = 4096
#: Bytes held per file beyond what one line needs: reading stops there until rows are taken, so
#: memory is bounded by this, or by one line (``--max-line-bytes``), never by the number of lines.
BLOCK_BUDGET = 4 * BLOCK_BYTES
#: The byte-order mark in UTF-8.
BYTE_ORDER_MARK_BYTES = b"\xef\xbb\xbf"


def _python_skip_lines(buffer: bytes | str, start: int, count: int) -> int:
    """The position just after ``count`` line ends from ``start`` (the kernel's ``skip_lines``)."""
    end: Any = b"\n" if isinstance(buffer, bytes) else "\n"
    for _ in range(count):
        start = buffer.index(end, start) + 1
    return start


def _python_long_line(buffer: bytes, limit: int) -> int:
    """The index of the first line longer than ``limit`` bytes, or -1 (the kernel's ``long_line``)."""
    return next((k for k, line in enumerate(buffer.split(b"\n")) if len(line) > limit), -1)


#: Line ends found by the kernel where it is loaded (the only place this module is used), else by Python.
_SKIP_LINES: Callable[[bytes | str, int, int], int] = getattr(
    kernel_module(), "skip_lines", _python_skip_lines
)
_LONG_LINE: Callable[[bytes, int], int] = getattr(kernel_module(), "long_line", _python_long_line)


def too_long(name: str, number: int, limit: int) -> BleuInputError:
    """CLI-INPUT. Line ``number`` of ``name`` is longer than ``limit`` bytes."""
    return BleuInputError(
        "CLI-INPUT",
        f"{name}: line {number} is longer than {limit} bytes "
        "(a file without line ends? --max-line-bytes raises the limit)",
    )


def not_utf8(
    name: str, number: int, raw: bytes, error: UnicodeDecodeError, before: int = 0
) -> BleuInputError:
    """CLI-INPUT. Line ``number`` of ``name``, whose bytes are ``raw`` (after ``before`` bytes the reader
    took off: a byte-order mark), is not UTF-8 where Python's decoder says."""
    bad = raw[error.start : error.start + 1].hex()
    return BleuInputError(
        "CLI-INPUT", f"{name}: line {number}, byte {before + error.start + 1}: not valid UTF-8 (0x{bad})"
    )


def unreadable(name: str, kind: str, number: int, error: Exception) -> BleuInputError:
    """CLI-INPUT. ``name`` (plain text, or compressed as ``kind``) could not be read after line ``number``."""
    return BleuInputError("CLI-INPUT", f"cannot read {name} ({kind}) after line {number}: {error}")


def line_counts_differ(names: Sequence[str], counts: Sequence[int], blank: Sequence[str]) -> BleuInputError:
    """CLI-FILES. The files' line counts differ: every file with its count, and the files whose extra
    lines (beyond the shortest) are all blank, with the likely cause (a blank line at the end)."""
    listed = ", ".join(f"{name} has {count}" for name, count in zip(names, counts, strict=True))
    hint = f" ({', '.join(blank)}: the extra lines are blank; a blank line at the end?)" if blank else ""
    return BleuInputError("CLI-FILES", f"line counts differ: {listed} lines{hint}")


class BlockSource(Protocol):
    """What the block reader needs of an input file (``scoring.files.Source``)."""

    name: str
    kind: str
    stream: BinaryIO
    digest: Any
    strip_bom: bool
    max_line_bytes: int

    def warn_mark(self) -> None:
        """Say that the file starts with a byte-order mark, which is kept."""


class _Blocks:
    """One file's lines for the kernel: whole lines as UTF-8 bytes (str where the case is folded first),
    and the first fault found ahead, kept with its line number until the rows reach it."""

    def __init__(self, source: BlockSource, folding: str) -> None:
        self.source = source
        self.folding = folding
        self.limit = source.max_line_bytes
        self.buffer: bytes | str = b"" if folding == "none" else ""
        self.at = 0  # where the lines not yet taken start
        self.available = 0  # whole lines from there
        self.read = 0  # whole lines read so far
        self.carry = b""  # the bytes of a line not yet whole
        self.ended = False
        self.fault: tuple[int, BleuInputError] | None = None
        self.mark = 0  # the bytes of a byte-order mark taken off line 1
        self.short = False  # the last read gave less than a block
        self.marked = False  # line 1 starts with a byte-order mark that is kept, not yet said
        self.read_some: Callable[[int], bytes] = getattr(source.stream, "read1", source.stream.read)

    def fill(self, wanted: int) -> None:
        """Read blocks until ``wanted`` lines are held, or the budget, the end or a fault is reached,
        or the file gave less than a block while lines are held (a pipe that has no more yet: its
        lines are counted now, as the line reader would); at least one line, unless the file ends
        or a fault comes first."""
        while self.fault is None and not self.ended:
            held = len(self.buffer) - self.at + len(self.carry)
            if self.available >= wanted or (self.available and (held >= BLOCK_BUDGET or self.short)):
                return
            self._read_block()

    def take(self, count: int) -> bytes | str:
        """The next ``count`` lines, each ended by "\\n"."""
        end = _SKIP_LINES(self.buffer, self.at, count)
        piece = self.buffer[self.at : end]
        self.at, self.available = end, self.available - count
        return piece

    def check_next(self, number: int) -> None:
        """What the line reader does with the next line (line ``number``): raise its error if it is not
        UTF-8, and say that line 1 starts with a byte-order mark that is kept."""
        if isinstance(self.buffer, bytes):
            raw = self.buffer[self.at : self.buffer.index(b"\n", self.at)]
            self.check_line(raw, number)
        if number == 1 and self.marked:
            self.source.warn_mark()

    def rest(self, first: int) -> tuple[int, bool]:
        """The lines not yet taken (line ``first`` on) to the end of the file, read as the line reader
        reads the rest of a longer file: the first fault in line order raised (a line not UTF-8, a
        line too long, a read that fails); and whether they are all blank."""
        while not self.ended and self.fault is None:
            self._read_block()
        left = self.buffer[self.at :]
        if isinstance(left, bytes):
            raw = left.split(b"\n")[: self.available]
            for number, line in enumerate(raw, start=first):
                self.check_line(line, number)
            texts = [line.decode("utf-8") for line in raw]
        else:
            texts = left.split("\n")[: self.available]
        blank = all(not text.strip() for text in texts)
        if self.fault is not None:
            raise self.fault[1]
        return self.available, blank

    def check_line(self, raw: bytes, number: int) -> None:
        """Raise the line reader's error for line ``number`` (its bytes as the kernel had them)."""
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise not_utf8(self.source.name, number, raw, error, self.mark if number == 1 else 0) from None

    def _found(self, number: int, error: BleuInputError) -> None:
        if self.fault is None:
            self.fault = (number, error)

    def _read_block(self) -> None:
        source = self.source
        try:
            block = self.read_some(BLOCK_BYTES)
        except (OSError, EOFError, lzma.LZMAError) as error:
            self._found(self.read + 1, unreadable(source.name, source.kind, self.read, error))
            return
        if source.digest is not None:
            source.digest.update(block)
        self.short = len(block) < BLOCK_BYTES
        if block:
            data = self.carry + block
            cut = data.rfind(b"\n") + 1
            whole, self.carry = data[:cut], data[cut:]
        else:  # the end: a last line without "\n" is a line
            whole, self.carry, self.ended = (self.carry + b"\n" if self.carry else b""), b"", True
        lines = whole.count(b"\n")
        long = _LONG_LINE(whole, self.limit) if len(whole) > self.limit + 1 else -1
        if long >= 0:
            whole, lines = whole[: _SKIP_LINES(whole, 0, long)], long
        payload: bytes | str = whole
        if self.folding != "none":
            payload, lines = self._folded(whole, lines)
        if self.read == 0 and lines and whole.startswith(BYTE_ORDER_MARK_BYTES):
            if source.strip_bom:
                payload, self.mark = payload[1 if isinstance(payload, str) else 3 :], 3
            else:
                self.marked = True  # said when the rows reach line 1, as the line reader says it
        self.buffer = self.buffer[self.at :] + payload  # type: ignore[operator]  # bytes or str, as begun
        self.at, self.available, self.read = 0, self.available + lines, self.read + lines
        if long >= 0 or len(self.carry) > self.limit:  # a long line (its end perhaps not yet read)
            self._found(self.read + 1, too_long(source.name, self.read + 1, self.limit))

    def _folded(self, whole: bytes, lines: int) -> tuple[str, int]:
        """The whole lines decoded and case-folded, up to the first that is not UTF-8 (a fault)."""
        try:
            text = whole.decode("utf-8")
        except UnicodeDecodeError as error:
            start = whole.rfind(b"\n", 0, error.start) + 1
            index = whole.count(b"\n", 0, start)
            try:
                self.check_line(whole[start : whole.index(b"\n", start)], self.read + index + 1)
            except BleuInputError as fault:
                self._found(self.read + index + 1, fault)
            text, lines = whole[:start].decode("utf-8"), index
        return fold_case(text, self.folding), lines  # type: ignore[arg-type]  # checked by the caller


def block_rows(
    sources: Sequence[BlockSource], folding: str, allow_empty: bool = False
) -> Iterator[tuple[int, list[bytes | str], list[_Blocks]]]:
    """CLI-INPUT, NUM-KERNEL. Chunks of rows of the files read in step: (the number of the chunk's first
    row, from 0; each file's next lines, as many from each; the readers). Raises as
    ``files.parallel_lines`` at the row it reaches: a file's fault, files of unequal lengths, empty
    files (EC-012) unless ``allow_empty``."""
    readers = [_Blocks(source, folding) for source in sources]
    row = 0
    while True:
        for reader in readers:
            reader.fill(BLOCK_ROWS)
        take = min(reader.available for reader in readers)
        if take == 0:
            _at_row(readers, row + 1)
            break
        if row == 0:  # line 1 of each file, read in order as the line reader reads it
            for reader in readers:
                reader.check_next(1)
        yield row, [reader.take(take) for reader in readers], readers
        row += take
    if row == 0 and not allow_empty:
        raise BleuInputError("EC-012", f"{sources[0].name} is empty: BLEU needs at least one segment")


def _at_row(readers: Sequence[_Blocks], number: int) -> None:
    """Row ``number``, which some file cannot give, read file by file as the line reader reads it: the
    first file whose line is at fault raises its error; else files that ended make the line counts
    differ, unless all did (the end)."""
    ended = []
    for reader in readers:
        if reader.available:
            reader.check_next(number)  # a line the kernel has not seen: its bytes are checked here
        elif reader.fault is not None:
            raise reader.fault[1]
        else:
            ended.append(reader.source.name)
    if ended and len(ended) < len(readers):
        counts, blank = [], []
        for reader in readers:
            more, blank_only = (0, False) if reader.source.name in ended else reader.rest(number)
            counts.append(number - 1 + more)
            if more and blank_only:
                blank.append(reader.source.name)
        raise line_counts_differ([r.source.name for r in readers], counts, blank)


class KernelCounting(NamedTuple):
    """What the kernel's count of a chunk needs of ``files.Counting`` (NUM-KERNEL)."""

    tokenizer: int
    orders: int
    ref_length: RefLengthRule
    rules: SegmentRules


def block_statistics(
    pieces: Sequence[bytes | str], counting: KernelCounting, start: int, systems: int, keep: bool = False
) -> tuple[list[list[Statistics]], int, int]:
    """NUM-KERNEL. The kernel's count of a chunk: each system's summed statistics of the rows counted
    (``counted_statistics``), or with ``keep`` each kept segment's (``counted_segments``), the segment
    rules applied; the number of rows counted; and -1 or the file whose next line is not UTF-8 (the
    caller words the error)."""
    if COUNTS_LINES is None:
        raise RuntimeError("NUM-KERNEL: block_statistics needs the compiled kernel")
    rows, bad, matches, lengths, totals, sums, *segments = COUNTS_LINES(
        pieces, systems, counting.orders, counting.tokenizer, keep
    )
    counted = memoryview(lengths).cast("q")
    ruled: dict[str, Any] = {"rules": counting.rules, "start": start}
    if keep:
        own = memoryview(segments[0]).cast("q")
        return counted_segments(own, counted, len(pieces), systems, counting.ref_length, **ruled), rows, bad
    summed = counted_statistics(
        matches, counted, len(pieces), counting.ref_length, sums=(totals, sums), **ruled
    )
    return summed, rows, bad


def bad_line(
    readers: Sequence[_Blocks], pieces: Sequence[bytes | str], file: int, index: int, number: int
) -> None:
    """Raise the line reader's error for line ``index`` of chunk ``pieces[file]`` (line ``number`` of its
    file), which the kernel found not to be UTF-8."""
    piece = pieces[file]
    if isinstance(piece, bytes):  # the kernel decodes bytes only
        start = _SKIP_LINES(piece, 0, index)
        readers[file].check_line(piece[start : piece.index(b"\n", start)], number)
    raise RuntimeError(
        f"NUM-KERNEL: the kernel refused line {number} of {readers[file].source.name}, Python did not"
    )
