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
import hashlib
import io
import json
import lzma
import os
import signal
import sys
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, fields
from functools import partial
from itertools import zip_longest
from typing import Any, BinaryIO, cast

from reference_bleu.conventions.registry import BY_NAME, PAPER_TEXT
from reference_bleu.conventions.space import Point
from reference_bleu.errors import BleuError, BleuInputError
from reference_bleu.fast.counts import (
    COUNTS_13A,
    collector_paused,
    counted_statistics,
    fast_system_statistics,
)
from reference_bleu.formulas.inputs import SegmentRules
from reference_bleu.formulas.length import REF_LENGTH_RULES, RefLengthRule
from reference_bleu.formulas.statistics import MAX_STATISTICS_ORDERS, Statistics
from reference_bleu.interrupts import SIGNALS, signals_held
from reference_bleu.text.tokenizers import (
    check_case_folding,
    check_case_order,
    check_split_rule,
    fold_case,
    kernel_13a_folding,
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

    Spec CLI-INPUT.
    """

    def __init__(self, path: str, stack: ExitStack, reading: Reading) -> None:
        self.path = path
        self.name = "standard input" if path == "-" else path
        self.reading = reading
        self.stream, self.kind = _binary(path, stack)
        self.digest = hashlib.sha256()

    def __iter__(self) -> Iterator[str]:
        limit = self.reading.max_line_bytes
        readline = self.stream.readline
        update = self.digest.update
        number = 0
        try:
            for number, raw in enumerate(iter(partial(readline, limit + 1), b""), start=1):
                update(raw)
                if len(raw) > limit and not raw.endswith(b"\n"):
                    raise BleuInputError(
                        "CLI-INPUT",
                        f"{self.name}: line {number} is longer than {limit} bytes "
                        "(a file without line ends? --max-line-bytes raises the limit)",
                    )
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as error:
                    bad = raw[error.start : error.start + 1].hex()
                    raise BleuInputError(
                        "CLI-INPUT",
                        f"{self.name}: line {number}, byte {error.start + 1}: not valid UTF-8 (0x{bad})",
                    ) from None
                if number == 1 and line.startswith(BYTE_ORDER_MARK):
                    line = self._first_line_mark(line)
                yield line
        except (OSError, EOFError, lzma.LZMAError) as error:
            raise BleuInputError(
                "CLI-INPUT", f"cannot read {self.name} ({self.kind}) after line {number}: {error}"
            ) from None

    def _first_line_mark(self, line: str) -> str:
        if self.reading.strip_bom:
            return line[1:]
        if self.reading.warn:
            print(
                f"reference-bleu: warning: {self.name} starts with a byte-order mark (U+FEFF); it is kept "
                "in the first token, as sacrebleu keeps it, and can stop that token matching "
                "(--strip-bom removes it; spec CLI-INPUT)",
                file=sys.stderr,
            )
        return line


def parallel_lines(sources: Sequence[Source], allow_empty: bool = False) -> Iterator[tuple[str, ...]]:
    """Rows (hypothesis lines..., reference lines...) of the files read in step; unequal lengths: an error.

    Empty files are an error (EC-012) unless ``allow_empty`` (``empty_corpus="zero"``)."""
    names = [source.name for source in sources]
    streams = [iter(source) for source in sources]
    number = 0
    for number, row in enumerate(zip_longest(*streams), start=1):
        if None in row:  # a file ended (cells are str, never equal to None)
            short = [n for n, cell in zip(names, row, strict=True) if cell is None]
            raise BleuInputError(
                "CLI-FILES", f"line counts differ: {', '.join(short)} end(s) at line {number - 1}"
            )
        yield cast("tuple[str, ...]", row)
    if number == 0 and not allow_empty:
        raise BleuInputError("EC-012", f"{names[0]} is empty: BLEU needs at least one segment")


#: Each system's statistics of a chunk, and the chunk's number of rows.
Chunk = tuple[list[list[Statistics]], int]


def chunk_statistics(
    rows: Sequence[tuple[str, ...]], counting: Counting, keep: bool, start: int = 0, systems: int = 1
) -> Chunk:
    """The statistics of a chunk of rows for each of its ``systems`` hypothesis columns, and its size.

    Each system's statistics are their sum, or each segment's when ``keep``. ``start`` is the
    number of the chunk's first segment (counted from 0), for error messages. The references
    are tokenized and counted once for all systems (NUM-FAST). Summed statistics of 13a text are
    tokenized and counted by the kernel's ``counts_13a`` in one call where it is loaded (NUM-KERNEL).
    """
    folding = None if COUNTS_13A is None or keep else kernel_13a_folding(**counting.text)
    if COUNTS_13A is not None and folding is not None:
        if folding != "none":
            rows = [tuple(fold_case(cell, folding) for cell in row) for row in rows]
        matches, lengths = COUNTS_13A(rows, systems, counting.orders)
        summed = counted_statistics(
            matches,
            memoryview(lengths).cast("q"),
            len(rows[0]) if rows else systems + 1,
            counting.ref_length,
            rules=counting.rules,
            start=start,
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
    chunks: Iterator[tuple[int, list[tuple[str, ...]]]],
    counting: Counting,
    keep: bool,
    jobs: int,
    systems: int,
) -> Generator[Chunk, None, None]:
    """Chunks scored on ``jobs`` processes, in order, with at most 2 x jobs chunks in flight.

    When the main process is interrupted (Ctrl-C, SIGTERM, SIGHUP: an exception here, or the
    generator closed), the chunks not started are cancelled and the workers are waited for."""
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(os.getpid(),))
    try:
        pending: list[Future[Chunk]] = []
        for start, chunk in chunks:
            with signals_held():  # the first submit starts the pool: never cut in two
                pending.append(pool.submit(chunk_statistics, chunk, counting, keep, start, systems))
            if len(pending) >= 2 * jobs:
                yield pending.pop(0).result()
        for future in pending:
            yield future.result()
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
    with ExitStack() as stack:
        paths = [*hyp_paths, *ref_paths]
        # named files first: a missing one is reported before standard input is waited on
        opened = {
            k: Source(p, stack, reading) for k, p in sorted(enumerate(paths), key=lambda kp: kp[1] == "-")
        }
        sources = [opened[k] for k in range(len(paths))]
        chunks = _chunks(parallel_lines(sources, allow_empty))
        if jobs == 1:
            results: Iterator[Chunk] = (
                chunk_statistics(c, counting, keep_segments, k, systems) for k, c in chunks
            )
        else:
            pooled = _in_processes(chunks, counting, keep_segments, jobs, systems)
            stack.callback(pooled.close)  # an interruption stops the workers here, not at exit
            results = pooled
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
