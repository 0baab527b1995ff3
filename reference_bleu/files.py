"""Scoring files: parallel text files streamed segment by segment (spec CLI-FILES).

A hypothesis file and its reference files are read in step, one line a segment (lines end
at "\\n" only, as in sacrebleu; a "\\r" before it is trailing whitespace), as strict UTF-8,
in chunks; each chunk's statistics are computed (optionally on several processes) and
summed, so memory stays flat however long the files are. Statistics can be saved as JSON
and merged later: the sum is exact, so merging gives exactly the score of one run.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from itertools import islice, zip_longest
from pathlib import Path
from typing import Any, TextIO

from reference_bleu.errors import BleuInputError
from reference_bleu.fast import fast_system_statistics
from reference_bleu.inputs import EMPTY_REFERENCE_RULES
from reference_bleu.length import REF_LENGTH_RULES, RefLengthRule
from reference_bleu.statistics import Statistics
from reference_bleu.tokenizers import check_case_folding, check_split_rule, tokenize_line, tokenizer

#: Segments per chunk handed to a worker.
CHUNK_SIZE = 2000
STATS_FORMAT = "reference-bleu-statistics"
STATS_FORMAT_VERSION = 1


@dataclass(frozen=True)
class Counting:
    """Everything that decides the statistics of a file: orders, r rule, tokenizer, case folding."""

    orders: int
    ref_length: RefLengthRule = "closest"
    tokenize: str = "none"
    lowercase: str = "none"
    #: TOK-SPLIT-RULE: Python's ``str.split()``, Perl's ASCII ``split`` or ``split(" ")``.
    split: str = "unicode"
    #: EC-005: empty references kept, dropped or refused while counting.
    empty_references: str = "keep"

    def __post_init__(self) -> None:
        tokenizer(self.tokenize)
        check_case_folding(self.lowercase)
        check_split_rule(self.split)
        if self.ref_length not in REF_LENGTH_RULES:
            raise BleuInputError("EC-001", f"unknown reference length rule {self.ref_length!r}")
        if self.empty_references not in EMPTY_REFERENCE_RULES:
            raise BleuInputError("EC-005", f"unknown empty reference rule {self.empty_references!r}")

    def signature(self) -> str:
        """``case:mixed|tok:13a`` and so on: the text options that change the number."""
        case = {"none": "mixed", "unicode": "lc", "ascii": "lc-ascii"}[self.lowercase]
        split = "" if self.split == "unicode" else f"|split:{self.split}"
        empty = "" if self.empty_references == "keep" else f"|empty_refs:{self.empty_references}"
        return f"case:{case}|tok:{self.tokenize}{split}{empty}"


def open_text(path: str, stack: ExitStack) -> TextIO:
    """``path`` (or standard input for "-") as strict UTF-8 with "\\n"-only line ends."""
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:  # standard input replaced by a text stream (as in tests)
            return sys.stdin
        wrapper = io.TextIOWrapper(buffer, encoding="utf-8", errors="strict", newline="\n")
        stack.callback(wrapper.detach)  # leave sys.stdin's buffer open
        return wrapper
    try:
        return stack.enter_context(open(path, encoding="utf-8", errors="strict", newline="\n"))
    except OSError as error:
        raise BleuInputError("CLI-FILES", f"cannot read {path}: {error.strerror or error}") from None


#: A UTF-8 byte-order mark, kept in the first token as sacrebleu keeps it (spec chapter 11).
BYTE_ORDER_MARK = "\ufeff"


def _lines(stream: TextIO, name: str) -> Iterator[str]:
    number = 0
    try:
        for number, line in enumerate(stream, start=1):
            if number == 1 and line.startswith(BYTE_ORDER_MARK):
                print(
                    f"reference-bleu: warning: {name} starts with a byte-order mark (U+FEFF); it is kept "
                    "in the first token, as sacrebleu keeps it, and can stop that token matching "
                    "(spec TOK-PIPELINE)",
                    file=sys.stderr,
                )
            yield line
    except UnicodeDecodeError:
        raise BleuInputError("CLI-FILES", f"{name}: not valid UTF-8 (after line {number})") from None
    except OSError as error:
        raise BleuInputError("CLI-FILES", f"cannot read {name}: {error.strerror or error}") from None


def parallel_lines(
    hyp_paths: Sequence[str], ref_paths: Sequence[str], stack: ExitStack
) -> Iterator[tuple[str, ...]]:
    """Rows (hypothesis lines..., reference lines...) of the files read in step; unequal lengths: an error."""
    names = [*hyp_paths, *ref_paths]
    streams = [_lines(open_text(name, stack), name) for name in names]
    number = 0
    for number, row in enumerate(zip_longest(*streams), start=1):
        if any(cell is None for cell in row):
            short = [n for n, cell in zip(names, row, strict=True) if cell is None]
            raise BleuInputError(
                "CLI-FILES", f"line counts differ: {', '.join(short)} end(s) at line {number - 1}"
            )
        yield tuple(cell for cell in row if cell is not None)
    if number == 0:
        raise BleuInputError("EC-012", f"{names[0]} is empty: BLEU needs at least one segment")


#: Each system's statistics of a chunk, and the chunk's number of rows.
Chunk = tuple[list[list[Statistics]], int]


def chunk_statistics(
    rows: Sequence[tuple[str, ...]], counting: Counting, keep: bool, start: int = 0, systems: int = 1
) -> Chunk:
    """The statistics of a chunk of rows for each of its ``systems`` hypothesis columns, and its size.

    Each system's statistics are their sum, or each segment's when ``keep``. ``start`` is the
    number of the chunk's first segment (counted from 0), for error messages. The references
    are tokenized and counted once for all systems (NUM-FAST).
    """
    text = (counting.tokenize, counting.lowercase, counting.split)
    tokenized = [[tokenize_line(cell, *text) for cell in row] for row in rows]
    statistics = fast_system_statistics(
        [[row[k] for row in tokenized] for k in range(systems)],
        [row[systems:] for row in tokenized],
        counting.orders,
        counting.ref_length,
        empty_references=counting.empty_references,
        keep_segments=keep,
        start=start,
    )
    return statistics, len(rows)


def _chunks(rows: Iterable[tuple[str, ...]]) -> Iterator[tuple[int, list[tuple[str, ...]]]]:
    """Chunks of at most CHUNK_SIZE rows, each with the number of its first row (from 0)."""
    iterator = iter(rows)
    start = 0
    while chunk := list(islice(iterator, CHUNK_SIZE)):
        yield start, chunk
        start += len(chunk)


def _in_processes(
    chunks: Iterator[tuple[int, list[tuple[str, ...]]]],
    counting: Counting,
    keep: bool,
    jobs: int,
    systems: int,
) -> Iterator[Chunk]:
    """Chunks scored on ``jobs`` processes, in order, with at most 2 x jobs chunks in flight."""
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: list[Future[Chunk]] = []
        for start, chunk in chunks:
            pending.append(pool.submit(chunk_statistics, chunk, counting, keep, start, systems))
            if len(pending) >= 2 * jobs:
                yield pending.pop(0).result()
        for future in pending:
            yield future.result()


def systems_statistics(
    hyp_paths: Sequence[str],
    ref_paths: Sequence[str],
    counting: Counting,
    *,
    keep_segments: bool = False,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[list[Statistics]], int]:
    """The statistics of hypothesis files against the same reference files, all streamed in one pass.

    Returns, per hypothesis file, its corpus statistics as a one-item list (or every
    segment's, with ``keep_segments``, for macro aggregation), and the number of segments;
    ``progress`` is called with the number of segments done after each chunk. Memory stays
    flat: a chunk of rows at a time (2 x ``jobs`` chunks in flight).
    """
    if jobs < 1:
        raise BleuInputError("CLI-FILES", f"--jobs must be at least 1, not {jobs}")
    systems = len(hyp_paths)
    kept: list[list[Statistics]] = [[] for _ in hyp_paths]
    totals, count = [Statistics.zero(counting.orders) for _ in hyp_paths], 0
    with ExitStack() as stack:
        chunks = _chunks(parallel_lines(hyp_paths, ref_paths, stack))
        if jobs == 1:
            results: Iterator[Chunk] = (
                chunk_statistics(c, counting, keep_segments, k, systems) for k, c in chunks
            )
        else:
            results = _in_processes(chunks, counting, keep_segments, jobs, systems)
        for per_system, size in results:
            count += size
            for k, stats in enumerate(per_system):
                if keep_segments:
                    kept[k].extend(stats)
                else:
                    totals[k] = totals[k] + stats[0]
            if progress is not None:
                progress(count)
    return (kept if keep_segments else [[total] for total in totals]), count


def file_statistics(
    hyp_path: str,
    ref_paths: Sequence[str],
    counting: Counting,
    *,
    keep_segments: bool = False,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[Statistics], int]:
    """The statistics of one hypothesis file against its reference files (:func:`systems_statistics`)."""
    (statistics,), count = systems_statistics(
        [hyp_path], ref_paths, counting, keep_segments=keep_segments, jobs=jobs, progress=progress
    )
    return statistics, count


# --- statistics files ------------------------------------------------------------------------


def statistics_document(stats: Statistics, counting: Counting, nrefs: int, segments: int) -> dict[str, Any]:
    """The JSON document ``reference-bleu stats`` writes: statistics plus what produced them."""
    return {
        "format": STATS_FORMAT,
        "format_version": STATS_FORMAT_VERSION,
        "orders": counting.orders,
        "ref_length": counting.ref_length,
        "tokenize": counting.tokenize,
        "lowercase": counting.lowercase,
        "split": counting.split,
        "empty_references": counting.empty_references,
        "nrefs": nrefs,
        "segments": segments,
        "statistics": stats.to_json(),
    }


def read_statistics(paths: Sequence[str]) -> tuple[Statistics, Counting, int, int]:
    """Merge statistics files: the summed statistics, their common counting, nrefs and segments.

    Files made with other orders, reference length rule, tokenizer or case folding cannot
    be merged (their sum would mean nothing): that is an error.
    """
    merged: Statistics | None = None
    counting: Counting | None = None
    nrefs: set[int] = set()
    segments = 0
    for path in paths:
        try:
            document = json.loads(Path(path).read_text(encoding="utf-8"))
            if (
                document.get("format") != STATS_FORMAT
                or document.get("format_version") != STATS_FORMAT_VERSION
            ):
                raise BleuInputError(
                    "CLI-FILES", f"{path} is not a {STATS_FORMAT} v{STATS_FORMAT_VERSION} file"
                )
            this = Counting(
                document["orders"],
                document["ref_length"],
                document["tokenize"],
                document["lowercase"],
                document.get("split", "unicode"),
                document.get("empty_references", "keep"),
            )
            stats = Statistics.from_json(document["statistics"])
            nrefs.add(int(document["nrefs"]))
            segments += int(document["segments"])
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            if isinstance(error, BleuInputError):
                raise
            raise BleuInputError("CLI-FILES", f"cannot read statistics from {path}: {error}") from None
        if counting is not None and this != counting:
            raise BleuInputError("CLI-FILES", f"{path} was counted with other options: {this} vs {counting}")
        counting = this
        merged = stats if merged is None else merged + stats
    if merged is None or counting is None:
        raise BleuInputError("CLI-FILES", "no statistics files given")
    return merged, counting, (nrefs.pop() if len(nrefs) == 1 else -1), segments
