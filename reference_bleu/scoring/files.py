"""Scoring files: parallel text files streamed segment by segment (spec CLI-FILES).

A hypothesis file and its reference files are read in step, one line a segment (lines end
at "\\n" only, as in sacrebleu; a "\\r" before it is trailing whitespace), as strict UTF-8,
in chunks; each chunk's statistics are computed (optionally on several processes) and
summed, so memory stays flat however long the files are. Statistics can be saved as JSON
and merged later: the sum is exact, so merging gives exactly the score of one run.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import io
import json
import lzma
import os
import signal
import sys
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, fields
from functools import partial
from itertools import zip_longest
from typing import Any, BinaryIO, cast

from reference_bleu.conventions.registry import BY_NAME, PAPER_TEXT
from reference_bleu.conventions.space import Point
from reference_bleu.errors import BleuError, BleuInputError
from reference_bleu.fast.counts import (
    COUNTS_LINES,
    COUNTS_ROWS,
    collector_paused,
    counted_statistics,
    fast_system_statistics,
)
from reference_bleu.formulas.inputs import SegmentRules
from reference_bleu.formulas.length import REF_LENGTH_RULES, RefLengthRule
from reference_bleu.formulas.statistics import MAX_STATISTICS_ORDERS, Statistics
from reference_bleu.interrupts import SIGNALS, signals_held
from reference_bleu.scoring.blocks import (
    KernelCounting,
    bad_line,
    block_rows,
    block_statistics,
    line_counts_differ,
    not_utf8,
    too_long,
    unreadable,
)
from reference_bleu.text.tokenizers import (
    KERNEL_TOKENIZERS,
    check_case_folding,
    check_case_order,
    check_split_rule,
    fold_case,
    kernel_folding,
    line_tokenizer,
    tokenizer,
)

#: Counting fields a statistics file may leave out (files of earlier versions), with their defaults:
#: the paper's values (the registry's).
OPTIONAL_COUNTING = {
    name: BY_NAME[name].paper for name in ("split", "empty_references", "empty_candidates", "case_order")
}
#: Segments per chunk handed to a worker, at most.
CHUNK_SIZE = 2000
#: Characters per chunk (its rows' text, every file's line), at most unless one row alone is
#: longer: counting holds about 75 bytes per character of a row at its peak, so memory is bounded
#: by this, or by one row (``--max-line-bytes``), never by the number of lines (CLI-INPUT).
CHUNK_CHARS = 1 << 20
STATS_FORMAT = "reference-bleu-statistics"
STATS_FORMAT_VERSION = 2


@dataclass(frozen=True)
class Counting:
    """Everything that decides the statistics of a file: orders, r rule, tokenizer, case folding."""

    orders: int
    ref_length: RefLengthRule = BY_NAME["ref_length"].paper
    tokenize: str = PAPER_TEXT["tokenize"]
    lowercase: str = PAPER_TEXT["lowercase"]
    #: TOK-SPLIT-RULE: Python's ``str.split()``, Perl's ASCII ``split`` or ``split(" ")``.
    split: str = PAPER_TEXT["split"]
    #: EC-005: empty references kept, dropped or refused while counting.
    empty_references: str = BY_NAME["empty_references"].paper
    #: EC-004: empty hypothesis lines kept, dropped or refused while counting.
    empty_candidates: str = BY_NAME["empty_candidates"].paper
    #: TOK-CASE-ORDER: case folded before the tokenizer (sacrebleu) or after it (torchmetrics).
    case_order: str = PAPER_TEXT["case_order"]

    def __post_init__(self) -> None:
        tokenizer(self.tokenize)
        check_case_folding(self.lowercase)
        check_case_order(self.case_order)
        check_split_rule(self.split)
        if self.ref_length not in REF_LENGTH_RULES:
            raise BleuInputError("EC-001", f"unknown reference length rule {self.ref_length!r}")
        self.rules  # noqa: B018 -- validates the segment rules (EC-004, EC-005)

    @classmethod
    def at(cls, point: Point) -> Counting:
        """What decides the statistics of files at ``point``: its orders, r rule, segment rules and
        text conventions (a BleuInputError where one is refused)."""
        options = point.options
        return cls(
            options.statistics_orders,
            options.ref_length,
            empty_references=options.empty_references,
            empty_candidates=options.empty_candidates,
            **point.text_conventions,
        )

    @property
    def rules(self) -> SegmentRules:
        """The segment rules of EC-004 and EC-005 (a line always gives a reference: EC-006 cannot arise)."""
        return SegmentRules(self.empty_references, "error", self.empty_candidates)

    @property
    def text(self) -> dict[str, str]:
        """The text conventions, as ``tokenize_line`` keywords."""
        return {name: getattr(self, name) for name in PAPER_TEXT}

    def signature(self) -> str:
        """``case:mixed|tok:13a`` and so on: the text options that change the number."""
        case = {"none": "mixed", "unicode": "lc", "ascii": "lc-ascii"}[self.lowercase]
        shown = [
            f"|{name}:{getattr(self, name)}"
            for name in ("case_order", "split", "empty_references", "empty_candidates")
            if getattr(self, name) != BY_NAME[name].paper
        ]
        return f"case:{case}|tok:{self.tokenize}{''.join(shown)}"


#: Longest line read, in bytes without its "\n" (CLI-INPUT); ``--max-line-bytes`` changes it.
MAX_LINE_BYTES = 16 * 1024 * 1024
#: A UTF-8 byte-order mark, kept in the first token as sacrebleu keeps it unless asked to strip it.
BYTE_ORDER_MARK = "\ufeff"

#: Compressed formats recognised by their first bytes (CLI-INPUT), whatever the file is called:
#: name, test of the first ten bytes, reader of the decompressed bytes.
_MAGIC: tuple[tuple[str, Callable[[bytes], bool], Callable[[BinaryIO], Any]], ...] = (
    ("gzip", lambda head: head.startswith(b"\x1f\x8b"), lambda raw: gzip.GzipFile(fileobj=raw, mode="rb")),
    ("xz", lambda head: head.startswith(b"\xfd7zXZ\x00"), lambda raw: lzma.LZMAFile(raw, mode="rb")),  # noqa: SIM115
    (
        "bzip2",
        lambda head: (
            head[:3] == b"BZh" and head[3:4].isdigit() and head[4:10] in (b"1AY&SY", b"\x17rE8P\x90")
        ),
        lambda raw: bz2.BZ2File(raw, mode="rb"),
    ),
)


@dataclass(frozen=True)
class Reading:
    """How text files are read (spec CLI-INPUT): byte-order marks and the longest line allowed."""

    strip_bom: bool = False
    max_line_bytes: int = MAX_LINE_BYTES
    #: Warnings (a byte-order mark kept) go to standard error unless False.
    warn: bool = True


def _binary(path: str, stack: ExitStack) -> tuple[BinaryIO, str]:
    """The bytes of ``path`` ("-": standard input), decompressed when they start like gzip, xz or bzip2."""
    if path == "-":
        raw: BinaryIO = getattr(sys.stdin, "buffer", None) or io.BytesIO(sys.stdin.read().encode("utf-8"))
    else:
        try:
            raw = stack.enter_context(open(path, "rb"))  # noqa: SIM115 -- the ExitStack closes it
        except OSError as error:
            raise BleuInputError("CLI-INPUT", f"cannot read {path}: {error.strerror or error}") from None
    peek = getattr(raw, "peek", None)
    head = peek(10)[:10] if peek is not None else b""
    if not head and not isinstance(raw, io.BufferedReader) and raw.seekable():
        head = raw.read(10)
        raw.seek(0)
    for kind, matches, decompressed in _MAGIC:
        if matches(head):
            return stack.enter_context(decompressed(raw)), kind
    return raw, "text"


class Source:
    """One input file read line by line: exact line numbers in errors, bounded lines, a content digest.

    Spec CLI-INPUT. ``digest=False`` leaves the SHA-256 out (``digest`` is then ``None``); the
    kernel's path reads the same file in blocks (:mod:`reference_bleu.scoring.blocks`).
    """

    def __init__(self, path: str, stack: ExitStack, reading: Reading, *, digest: bool = True) -> None:
        self.path = path
        self.name = "standard input" if path == "-" else path
        self.reading = reading
        self.strip_bom = reading.strip_bom
        self.max_line_bytes = reading.max_line_bytes
        self.stream, self.kind = _binary(path, stack)
        self.digest: Any = None
        if digest:
            import hashlib  # noqa: PLC0415 -- 2.6 ms of start-up, only where a digest is asked for

            self.digest = hashlib.sha256()

    def __iter__(self) -> Iterator[str]:
        limit = self.reading.max_line_bytes
        readline = self.stream.readline
        update = None if self.digest is None else self.digest.update
        number = 0
        try:
            for number, raw in enumerate(iter(partial(readline, limit + 1), b""), start=1):
                if update is not None:
                    update(raw)
                if len(raw) > limit and not raw.endswith(b"\n"):
                    raise too_long(self.name, number, limit)
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as error:
                    raise not_utf8(self.name, number, raw, error) from None
                if number == 1 and line.startswith(BYTE_ORDER_MARK):
                    line = self._first_line_mark(line)
                yield line
        except (OSError, EOFError, lzma.LZMAError) as error:
            raise unreadable(self.name, self.kind, number, error) from None

    def _first_line_mark(self, line: str) -> str:
        if self.reading.strip_bom:
            return line[1:]
        self.warn_mark()
        return line

    def warn_mark(self) -> None:
        """Say on standard error that the file starts with a byte-order mark, which is kept (unless quiet)."""
        if self.reading.warn:
            print(
                f"reference-bleu: warning: {self.name} starts with a byte-order mark (U+FEFF); it is kept "
                "in the first token, as sacrebleu keeps it, and can stop that token matching "
                "(--strip-bom removes it; spec CLI-INPUT)",
                file=sys.stderr,
            )


def parallel_lines(sources: Sequence[Source], allow_empty: bool = False) -> Iterator[tuple[str, ...]]:
    """Rows (hypothesis lines..., reference lines...) of the files read in step; unequal lengths: an error.

    Empty files are an error (EC-012) unless ``allow_empty`` (``empty_corpus="zero"``)."""
    names = [source.name for source in sources]
    streams = [iter(source) for source in sources]
    number = 0
    for number, row in enumerate(zip_longest(*streams), start=1):
        if None in row:  # a file ended (cells are str, never equal to None)
            raise _line_counts(names, streams, row, number - 1)
        yield cast("tuple[str, ...]", row)
    if number == 0 and not allow_empty:
        raise BleuInputError("EC-012", f"{names[0]} is empty: BLEU needs at least one segment")


def _line_counts(
    names: Sequence[str], streams: Sequence[Iterator[str]], row: tuple[str | None, ...], read: int
) -> BleuInputError:
    """CLI-FILES: the line counts of every file, once one of them ended after ``read`` lines and the
    others did not (their rest is read to count it), and, when the lines a longer file has beyond
    the others are all blank, that they are (a blank line at its end?)."""
    counts, blank = [], []
    for name, stream, cell in zip(names, streams, row, strict=True):
        if cell is None:
            counts.append(read)
            continue
        extra = [cell, *stream]
        counts.append(read + len(extra))
        if all(not line.strip() for line in extra):
            blank.append(name)
    return line_counts_differ(names, counts, blank)


#: Each system's statistics of a chunk, and the chunk's number of rows.
Chunk = tuple[list[list[Statistics]], int]


def kernel_counting(counting: Counting) -> tuple[KernelCounting, str] | None:
    """NUM-KERNEL. What the kernel needs to count under ``counting``, and the case folding to apply to the
    text first; ``None`` where Python counts (no kernel, or conventions it does not run)."""
    folding = kernel_folding(**counting.text)
    if folding is None or COUNTS_ROWS is None:
        return None
    number = KERNEL_TOKENIZERS[counting.tokenize]
    return KernelCounting(number, counting.orders, counting.ref_length, counting.rules), folding


def chunk_statistics(
    rows: Sequence[tuple[str, ...]], counting: Counting, keep: bool, start: int = 0, systems: int = 1
) -> Chunk:
    """The statistics of a chunk of rows for each of its ``systems`` hypothesis columns, and its size.

    Each system's statistics are their sum, or each segment's when ``keep``. ``start`` is the
    number of the chunk's first segment (counted from 0), for error messages. The references
    are tokenized and counted once for all systems (NUM-FAST). Summed statistics under a tokenizer
    the kernel runs are tokenized and counted by its ``counts_rows`` in one call (NUM-KERNEL).
    """
    kernel = None if keep else kernel_counting(counting)
    if kernel is not None and COUNTS_ROWS is not None:
        number, folding = kernel[0].tokenizer, kernel[1]
        if folding != "none":
            rows = [tuple(fold_case(cell, folding) for cell in row) for row in rows]  # type: ignore[arg-type]
        matches, lengths, totals, sums = COUNTS_ROWS(rows, systems, counting.orders, number)
        summed = counted_statistics(
            matches,
            memoryview(lengths).cast("q"),
            len(rows[0]) if rows else systems + 1,
            counting.ref_length,
            rules=counting.rules,
            start=start,
            sums=(totals, sums),
        )
        return summed, len(rows)
    tokens = line_tokenizer(**counting.text)
    with collector_paused():
        tokenized = [[tokens(cell) for cell in row] for row in rows]
    statistics = fast_system_statistics(
        [[row[k] for row in tokenized] for k in range(systems)],
        [row[systems:] for row in tokenized],
        counting.orders,
        counting.ref_length,
        rules=counting.rules,
        keep_segments=keep,
        start=start,
    )
    return statistics, len(rows)


def _chunks(rows: Iterable[tuple[str, ...]]) -> Iterator[tuple[int, list[tuple[str, ...]]]]:
    """Chunks of at most CHUNK_SIZE rows and CHUNK_CHARS characters (or one longer row), each with
    the number of its first row (from 0): memory bounded by the text's length in characters, not
    by the number of lines (CLI-INPUT)."""
    start, chunk, size = 0, [], 0
    for row in rows:
        chunk.append(row)
        size += sum(map(len, row))
        if len(chunk) >= CHUNK_SIZE or size >= CHUNK_CHARS:
            yield start, chunk
            start, chunk, size = start + len(chunk), [], 0
    if chunk:
        yield start, chunk


#: prctl's request to be sent a signal when the parent dies (Linux, <linux/prctl.h>).
_PR_SET_PDEATHSIG = 1


def _start_worker(parent: int) -> None:
    """A worker leaves Ctrl-C to the main process, which stops it, and dies with the main process
    however that ends (SIGKILL included: Linux's parent-death signal), never an orphan (CLI-INPUT)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in SIGNALS:  # the main process's handlers (held or raising) are not a worker's
        signal.signal(number, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        import ctypes  # noqa: PLC0415 -- Linux only

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the main process died before the request took effect
        os._exit(1)


def _in_processes(
    work: Callable[..., Any], tasks: Iterator[tuple[Any, ...]], jobs: int
) -> Generator[tuple[tuple[Any, ...], Any], None, None]:
    """Each task's arguments and ``work(*arguments)``, computed on ``jobs`` processes, in order, with at
    most 2 x jobs tasks in flight.

    When the main process is interrupted (Ctrl-C, SIGTERM, SIGHUP: an exception here, or the
    generator closed), the tasks not started are cancelled and the workers are waited for."""
    from concurrent.futures import Future, ProcessPoolExecutor  # noqa: PLC0415 -- 13 ms of start-up: --jobs only

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(os.getpid(),))
    try:
        pending: list[tuple[tuple[Any, ...], Future[Any]]] = []
        for arguments in tasks:
            with signals_held():  # the first submit starts the pool: never cut in two
                pending.append((arguments, pool.submit(work, *arguments)))
            if len(pending) >= 2 * jobs:
                done, future = pending.pop(0)
                yield done, future.result()
        for done, future in pending:
            yield done, future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def systems_statistics(
    hyp_paths: Sequence[str],
    ref_paths: Sequence[str],
    counting: Counting,
    *,
    keep_segments: bool = False,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    reading: Reading = Reading(),
    digests: dict[str, str] | None = None,
    allow_empty: bool = False,
) -> tuple[list[list[Statistics]], int]:
    """The statistics of hypothesis files against the same reference files, all streamed in one pass.

    Returns, per hypothesis file, its corpus statistics as a one-item list (or every
    segment's, with ``keep_segments``, for macro aggregation), and the number of segments;
    ``progress`` is called with the number of segments done after each chunk. Memory stays
    flat: a chunk of rows at a time (2 x ``jobs`` chunks in flight). ``reading`` says how the
    files are read (CLI-INPUT); ``digests``, when given, receives each path's SHA-256 (of its
    decompressed bytes) once all are read. Empty files are an error (EC-012) unless
    ``allow_empty``: each system's statistics are then no segment at all.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise BleuInputError("CLI-FILES", f"--jobs must be at least 1, not {jobs!r}")
    jobs = min(jobs, os.cpu_count() or 1)  # more processes than CPUs only cost memory and start-up
    systems = len(hyp_paths)
    kept: list[list[Statistics]] = [[] for _ in hyp_paths]
    totals, count = [Statistics.zero(counting.orders) for _ in hyp_paths], 0
    kernel = None if COUNTS_LINES is None else kernel_counting(counting)
    with ExitStack() as stack:
        paths = [*hyp_paths, *ref_paths]
        # named files first: a missing one is reported before standard input is waited on
        opened = {
            k: Source(p, stack, reading, digest=digests is not None)
            for k, p in sorted(enumerate(paths), key=lambda kp: kp[1] == "-")
        }
        sources = [opened[k] for k in range(len(paths))]
        if kernel is not None:
            results = _block_results(
                sources,
                kernel,
                keep_segments,
                jobs=jobs,
                systems=systems,
                allow_empty=allow_empty,
                stack=stack,
            )
        else:
            results = _line_results(
                sources,
                counting,
                keep_segments,
                jobs=jobs,
                systems=systems,
                allow_empty=allow_empty,
                stack=stack,
            )
        for per_system, size in results:
            count += size
            for k, stats in enumerate(per_system):
                if keep_segments:
                    kept[k].extend(stats)
                else:
                    totals[k] = totals[k] + stats[0]
            if progress is not None:
                progress(count)
        if digests is not None:
            digests.update({source.path: source.digest.hexdigest() for source in sources})
    if count == 0:  # allowed empty: no segment, which the score turns into EC-012's answer
        return [[] for _ in hyp_paths], 0
    return (kept if keep_segments else [[total] for total in totals]), count


def _line_results(
    sources: Sequence[Source],
    counting: Counting,
    keep: bool,
    *,
    jobs: int,
    systems: int,
    allow_empty: bool,
    stack: ExitStack,
) -> Iterator[Chunk]:
    """Each chunk's statistics, the files read line by line (CLI-INPUT) and counted by
    :func:`chunk_statistics` here or on ``jobs`` processes."""
    chunks = _chunks(parallel_lines(sources, allow_empty))
    if jobs == 1:
        return (chunk_statistics(c, counting, keep, k, systems) for k, c in chunks)
    tasks = ((rows, counting, keep, start, systems) for start, rows in chunks)
    pooled = _in_processes(chunk_statistics, tasks, jobs)
    stack.callback(pooled.close)  # an interruption stops the workers here, not at exit
    return (result for _, result in pooled)


def _block_results(
    sources: Sequence[Source],
    kernel: tuple[KernelCounting, str],
    keep: bool,
    *,
    jobs: int,
    systems: int,
    allow_empty: bool,
    stack: ExitStack,
) -> Iterator[Chunk]:
    """Each chunk's statistics (summed, or with ``keep`` each kept segment's), the files read in blocks
    and counted by the kernel (NUM-KERNEL, :mod:`reference_bleu.scoring.blocks`) here or on ``jobs``
    processes; a line the kernel finds not to be UTF-8 raises the line reader's error once the rows
    before it are counted."""
    counting, folding = kernel
    readers: list[Any] = []  # the readers of the chunks, which word a line's error

    def tasks() -> Iterator[tuple[Any, ...]]:
        for start, pieces, current in block_rows(sources, folding, allow_empty):
            readers[:] = current
            yield pieces, counting, start, systems, keep

    if jobs == 1:
        answers: Iterator[tuple[tuple[Any, ...], Any]] = ((task, block_statistics(*task)) for task in tasks())
    else:
        pooled = _in_processes(block_statistics, tasks(), jobs)
        stack.callback(pooled.close)  # an interruption stops the workers here, not at exit
        answers = pooled
    for (pieces, _, start, *_), (summed, rows, bad) in answers:
        yield summed, rows
        if bad >= 0:
            bad_line(readers, pieces, bad, rows, start + rows + 1)


def file_statistics(
    hyp_path: str,
    ref_paths: Sequence[str],
    counting: Counting,
    *,
    keep_segments: bool = False,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[Statistics], int]:
    """The statistics of one hypothesis file against its reference files (:func:`systems_statistics`).

    Spec CLI-FILES.
    """
    (statistics,), count = systems_statistics(
        [hyp_path], ref_paths, counting, keep_segments=keep_segments, jobs=jobs, progress=progress
    )
    return statistics, count


# --- statistics files ------------------------------------------------------------------------


#: A statistics file is small (a few hundred bytes); anything far larger is not one (CLI-STATS).
MAX_STATS_FILE_BYTES = 1024 * 1024
MAX_SEGMENTS = 2**48


@dataclass(frozen=True)
class InputDigest:
    """A file that went into a statistics document: its name, lines and SHA-256 (CLI-STATS)."""

    path: str
    sha256: str
    lines: int

    def to_json(self) -> dict[str, Any]:
        """As written in the document."""
        return {"path": self.path, "sha256": self.sha256, "lines": self.lines}


def statistics_document(
    stats: Statistics,
    counting: Counting,
    hypothesis: InputDigest,
    references: Sequence[InputDigest],
    segments: int,
) -> dict[str, Any]:
    """CLI-STATS. The JSON document ``reference-bleu stats`` writes: statistics plus what produced them.

    The counting options, and the name, line count and SHA-256 of the hypothesis file and of
    each reference file, so that merging can refuse the same input counted twice.
    """
    return {
        "format": STATS_FORMAT,
        "format_version": STATS_FORMAT_VERSION,
        "orders": counting.orders,
        "ref_length": counting.ref_length,
        "tokenize": counting.tokenize,
        "lowercase": counting.lowercase,
        "split": counting.split,
        **{name: getattr(counting, name) for name in OPTIONAL_COUNTING},
        "nrefs": len(references),
        "segments": segments,
        "hypothesis": hypothesis.to_json(),
        "references": [reference.to_json() for reference in references],
        "statistics": stats.to_json(),
    }


def _field(document: dict[str, Any], key: str, kind: type, path: str) -> Any:
    value = document.get(key)
    if type(value) is not kind:
        raise BleuInputError("CLI-STATS", f"{path}: {key!r} must be a {kind.__name__}, got {value!r:.60}")
    return value


def _count_field(document: dict[str, Any], key: str, path: str, low: int, high: int) -> int:
    value: int = _field(document, key, int, path)
    if not low <= value <= high:
        raise BleuInputError("CLI-STATS", f"{path}: {key!r} must lie in {low}..{high}, got {value}")
    return value


def _digest(value: object, what: str, path: str) -> str:
    sha = value.get("sha256") if isinstance(value, dict) else None
    if not isinstance(sha, str) or len(sha) != 64 or any(ch not in "0123456789abcdef" for ch in sha):
        raise BleuInputError("CLI-STATS", f"{path}: {what} has no SHA-256 (made by another version? recount)")
    return sha


def _load_document(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as stream:
            data = stream.read(MAX_STATS_FILE_BYTES + 1)
    except OSError as error:
        raise BleuInputError("CLI-STATS", f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_STATS_FILE_BYTES:
        raise BleuInputError("CLI-STATS", f"{path} is larger than a statistics file can be")
    try:
        document = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as error:
        raise BleuInputError("CLI-STATS", f"{path} is not JSON: {str(error)[:120]}") from None
    if not isinstance(document, dict):
        raise BleuInputError(
            "CLI-STATS", f"{path} holds a {type(document).__name__}, not a statistics object"
        )
    if document.get("format") != STATS_FORMAT or document.get("format_version") != STATS_FORMAT_VERSION:
        raise BleuInputError(
            "CLI-STATS",
            f"{path} is not a {STATS_FORMAT} v{STATS_FORMAT_VERSION} file (older versions: count again)",
        )
    return document


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a count")


def _read_one(path: str) -> tuple[Statistics, Counting, int, int, tuple[str, ...]]:
    """One statistics file, every field checked: statistics, counting, nrefs, segments, input digests."""
    document = _load_document(path)
    orders = _count_field(document, "orders", path, 1, MAX_STATISTICS_ORDERS)
    names = {key: _field(document, key, str, path) for key in ("ref_length", "tokenize", "lowercase")}
    optional = {key: document.get(key, default) for key, default in OPTIONAL_COUNTING.items()}
    if not all(isinstance(value, str) for value in optional.values()):
        raise BleuInputError(
            "CLI-STATS", f"{path}: {', '.join(map(repr, OPTIONAL_COUNTING))} must be strings"
        )
    counting = Counting(orders, names["ref_length"], names["tokenize"], names["lowercase"], **optional)
    nrefs = _count_field(document, "nrefs", path, 1, 10**6)
    segments = _count_field(document, "segments", path, 1, MAX_SEGMENTS)
    references = document.get("references")
    if not isinstance(references, list) or len(references) != nrefs:
        raise BleuInputError("CLI-STATS", f"{path}: 'references' must list the {nrefs} reference file(s)")
    digests = (
        _digest(document.get("hypothesis"), "the hypothesis", path),
        *(_digest(r, f"reference {k}", path) for k, r in enumerate(references, 1)),
    )
    try:
        stats = Statistics.from_json(document.get("statistics"))
    except BleuError as error:
        raise BleuInputError("CLI-STATS", f"{path}: {error}") from None
    if len(stats.totals) != orders:
        raise BleuInputError(
            "CLI-STATS", f"{path}: {len(stats.totals)} orders of statistics, 'orders' says {orders}"
        )
    try:
        stats.check_consistent(segments)
    except BleuInputError as error:
        raise BleuInputError("CLI-STATS", f"{path}: inconsistent statistics: {error}") from None
    return stats, counting, nrefs, segments, digests


#: The registry's fields a counting records (the rest of :class:`Counting` is ``orders``).
COUNTING_FIELDS = tuple(f.name for f in fields(Counting) if f.name in BY_NAME)
#: The command-line option behind each counting field, for the messages that name it.
COUNTING_OPTIONS = {"orders": "--orders", **{name: BY_NAME[name].cli_flags[0] for name in COUNTING_FIELDS}}


def counting_difference(this: Counting, other: Counting, other_name: str) -> str:
    """CLI-STATS. The options on which two countings differ, each named with both values:
    ``--tokenize 13a, not none as in a.json``."""
    return "; ".join(
        f"{option} {getattr(this, name)}, not {getattr(other, name)} as in {other_name}"
        for name, option in COUNTING_OPTIONS.items()
        if getattr(this, name) != getattr(other, name)
    )


def read_statistics(paths: Sequence[str]) -> tuple[Statistics, Counting, int, int]:
    """CLI-STATS. Merge statistics files: the summed statistics, their common counting, nrefs and segments.

    Every field is checked (types, bounds, the consistency of the counts); files made with
    other orders, reference length rule, tokenizer or case folding cannot be merged (their
    sum would mean nothing: the message names the options that differ), nor can the same
    hypothesis file counted twice, against the same references or others (its segments would
    count twice; two references are counted together, not merged): both are errors.
    """
    merged: Statistics | None = None
    counting: Counting | None = None
    nrefs: set[int] = set()
    seen: dict[tuple[str, ...], str] = {}
    hypotheses: dict[str, str] = {}
    segments = 0
    for path in paths:
        stats, this, refs, count, digests = _read_one(path)
        if digests in seen:
            raise BleuInputError(
                "CLI-STATS",
                f"{path} counts the same files as {seen[digests]}: merging would count them twice",
            )
        if digests[0] in hypotheses:
            raise BleuInputError(
                "CLI-STATS",
                f"{path} counts the same hypothesis file as {hypotheses[digests[0]]}, against other "
                "references: merging would count its segments twice, which is not BLEU with both "
                "references (count once with every reference: stats -r REF1 REF2 ...)",
            )
        seen[digests], hypotheses[digests[0]] = path, path
        if counting is not None and this != counting:
            raise BleuInputError(
                "CLI-STATS", f"{path} was counted with {counting_difference(this, counting, paths[0])}"
            )
        counting = this
        nrefs.add(refs)
        segments += count
        merged = stats if merged is None else merged + stats
    if merged is None or counting is None:
        raise BleuInputError("CLI-STATS", "no statistics files given")
    return merged, counting, (nrefs.pop() if len(nrefs) == 1 else -1), segments
