"""Partial statistics: exact BLEU where the work is spread out (spec NUM-PARTIAL).

BLEU's corpus statistics are a sum over segments (BLEU-CORPUS), so any partition of a corpus,
counted anywhere, adds up to the statistics of one run. A :class:`Partial` is one such piece
with what makes the sum meaningful: the :class:`Conventions` it was counted and will be scored
under (a profile's text conventions and options), their fingerprint, and its number of
segments. Partials add exactly (``+``, ``sum``), refuse to mix conventions (naming the option
that differs), travel as JSON or as a fixed-length vector of int64 (an all-reduce by SUM is
their addition), and are scored once. Everything is an integer: under ``ref_length="average"``
r is kept as integer sums, one per denominator (the vector layout below).

:class:`BLEU`, the metric object of the Python API (spec API-METRIC), is a partial that grows
with ``update``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from functools import cached_property
from itertools import islice
from typing import Any

from reference_bleu.api import TEXT_OPTIONS, reference_sets, split_text_options, text_mode, tokenized_corpus
from reference_bleu.conventions.options import OPTION_NAMES, BleuOptions
from reference_bleu.conventions.space import PAPER_TEXT_FIELDS, Point, resolve_point
from reference_bleu.errors import BleuError, BleuInputError, BleuOptionError
from reference_bleu.fast.counts import fast_statistics
from reference_bleu.formulas.inputs import validate_corpus
from reference_bleu.formulas.length import Length
from reference_bleu.formulas.smoothing import SMOOTHING_METHODS
from reference_bleu.formulas.statistics import MAX_COUNT, Statistics, normal_length
from reference_bleu.scoring.files import CHUNK_SIZE, Counting
from reference_bleu.scoring.score import BleuResult, needs_segments, score

PARTIAL_FORMAT = "reference-bleu-partial"
PARTIAL_FORMAT_VERSION = 1
#: Slots of r in the vector under ``ref_length="average"``: denominators 1..32 (segments with up
#: to 32 references; more are refused by the vector, never by the JSON form).
AVERAGE_SLOTS = 32


def _canonical(value: object) -> Any:
    """A value of the options as JSON: Fractions as "p/q" strings, tuples as lists."""
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, tuple):
        return [_canonical(v) for v in value]
    return value


@dataclass(frozen=True)
class Conventions:
    """NUM-PARTIAL's conventions: how rows are counted and how their sum is scored.

    ``point`` is the point of the convention space (a profile's, with overrides; the paper's text
    conventions for token lists); ``text`` whether rows are lines of text (tokenized by the point's
    text conventions) or token lists. The point's ``profile`` and ``overridden`` label results only:
    the fingerprint covers what changes the statistics or the score.
    """

    point: Point
    text: bool = True

    @property
    def options(self) -> BleuOptions:
        """The scoring options."""
        return self.point.options

    @property
    def counting(self) -> Counting:
        """The text conventions and the counting options they imply (CLI-FILES)."""
        return Counting.at(self.point)

    @property
    def profile(self) -> str | None:
        """The profile the point was resolved from, if any (a label of results)."""
        return self.point.profile

    @property
    def overridden(self) -> tuple[str, ...]:
        """The options given beside the profile that changed its value (a label of results)."""
        return self.point.overridden

    @property
    def keeps_segments(self) -> bool:
        """Whether scoring reads each segment (macro averaging, nltk's denominators and methods 5-7)."""
        return needs_segments(self.options)

    @property
    def reads_order(self) -> bool:
        """Whether the score depends on the segments' order, not only on which they are.

        nltk's methods 5 to 7 read the last segment (SMOOTH-NLTK-5); a mean of sentence scores
        (EC-009) in a tool's floating-point arithmetic (CONV-ARITH) is summed in order. An engine
        without an order of its rows (Beam's PCollections) refuses these conventions.
        """
        options = self.options
        return SMOOTHING_METHODS[options.smoothing].needs_last_segment or (
            options.aggregation == "macro" and options.arithmetic != "exact"
        )

    @property
    def orders(self) -> int:
        """The orders counted: N, or N + 1 for the smoothings that read m_{N+1}."""
        return self.options.statistics_orders

    def description(self) -> dict[str, Any]:
        """Every convention that changes the statistics or the score, as JSON (the fingerprint's input).

        The scoring options (every field of :class:`BleuOptions`), the input (text or tokens) and,
        for text, the text conventions of TOK-PIPELINE.
        """
        described: dict[str, Any] = {"input": "text" if self.text else "tokens"}
        if self.text:
            described |= self.counting.text
        return described | {f.name: _canonical(getattr(self.options, f.name)) for f in fields(BleuOptions)}

    @cached_property
    def fingerprint(self) -> str:
        """NUM-PARTIAL. The SHA-256 of the canonical JSON of :meth:`description` (stable across machines)."""
        text = json.dumps(
            {"format": PARTIAL_FORMAT, "version": PARTIAL_FORMAT_VERSION, **self.description()},
            sort_keys=True,
            separators=(",", ":"),
        )
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def difference(self, other: Conventions) -> str | None:
        """The first convention on which ``other`` differs, as a phrase; ``None`` when they agree."""
        if self.fingerprint == other.fingerprint:
            return None
        return described_difference(self.description(), other.description())

    def check_same(self, other: Conventions) -> None:
        """BleuInputError naming the first convention that differs, unless the fingerprints are equal."""
        differs = self.difference(other)
        if differs is not None:
            raise BleuInputError(
                "NUM-PARTIAL", f"cannot add statistics counted or scored under other conventions: {differs}"
            )

    @property
    def reference_slots(self) -> int:
        """Slots of r in the vector: one (r is an integer), or AVERAGE_SLOTS under ``average``."""
        return AVERAGE_SLOTS if self.options.ref_length == "average" else 1

    @property
    def vector_length(self) -> int:
        """NUM-PARTIAL's vector: segments, c, the r slots, then m_1..m_M and l_1..l_M."""
        return 2 + self.reference_slots + 2 * self.orders

    @classmethod
    def from_description(cls, described: Mapping[str, Any]) -> Conventions:
        """The conventions :meth:`description` describes (BleuInputError naming NUM-PARTIAL otherwise)."""
        if not isinstance(described, Mapping) or described.get("input") not in ("text", "tokens"):
            raise BleuInputError(
                "NUM-PARTIAL", "the conventions must say whether the input is text or tokens"
            )
        text = described["input"] == "text"
        text_options = {name: described.get(name) for name in TEXT_OPTIONS} if text else {}
        options = {name: described[name] for name in OPTION_NAMES if name in described}
        try:
            made = make_conventions(None, text=text, **options, **text_options)
        except BleuOptionError as error:
            raise BleuInputError("NUM-PARTIAL", f"the conventions are not valid: {error}") from None
        return made


def described_difference(mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> str | None:
    """The first convention (``input`` first, then by name) on which two descriptions differ, as a phrase."""
    for name in ["input", *sorted(set(mine) | set(theirs))]:
        if mine.get(name) != theirs.get(name):
            return f"{name} is {mine.get(name, 'absent')!r} here and {theirs.get(name, 'absent')!r} there"
    return None


def make_conventions(profile: str | None = None, *, text: bool = True, **options: Any) -> Conventions:
    """NUM-PARTIAL's conventions from a profile name and options, as :func:`corpus_bleu` takes them.

    The text options (``tokenize``, ``lowercase``, ``split``, ``case_order``) override the
    profile's text conventions and apply to text only (``text=False``: rows are token lists).

    >>> make_conventions("sacrebleu").counting.tokenize
    '13a'
    >>> intl = make_conventions("sacrebleu", tokenize="intl")
    >>> intl.fingerprint != make_conventions("sacrebleu").fingerprint
    True
    """
    given_text, rest = split_text_options(options)
    if given_text and not text:
        raise BleuOptionError("API-TEXT", f"{', '.join(given_text)} applies to lines of text, not to tokens")
    point = resolve_point(profile, rest, given_text)
    conventions = Conventions(point if text else replace(point, text=PAPER_TEXT_FIELDS), text)
    conventions.counting  # noqa: B018 -- validates the text conventions (TOK-PIPELINE) now
    return conventions


def _add(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    longer, shorter = (a, b) if len(a) >= len(b) else (b, a)
    return tuple(x + (shorter[i] if i < len(shorter) else 0) for i, x in enumerate(longer))


def _count(value: object, what: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_COUNT:
        raise BleuInputError("NUM-PARTIAL", f"{what} must be an integer in 0..2^63-1, got {value!r:.40}")
    return value


@dataclass(frozen=True)
class Partial:
    """NUM-PARTIAL. The exact statistics of some segments, with the conventions they were counted under.

    ``segments`` counted segments (rows dropped by EC-004 or EC-006 are not counted); per order
    the clipped matches and candidate n-grams; c; and r as integer sums: ``ref_sums[q - 1]`` is
    the sum of the numerators of the segments' best match lengths whose lowest-terms
    denominator is q (only q = 1 outside ``ref_length="average"``), so r = Σ_q ref_sums[q-1]/q.
    ``kept``: each segment's statistics, in order, where the conventions need them.
    """

    conventions: Conventions
    segments: int
    matches: tuple[int, ...]
    totals: tuple[int, ...]
    hyp_len: int
    ref_sums: tuple[int, ...] = (0,)
    kept: tuple[Statistics, ...] | None = field(default=None, repr=False)

    @classmethod
    def zero(cls, conventions: Conventions) -> Partial:
        """The partial of no segment: the neutral element of ``+``."""
        orders = conventions.orders
        kept: tuple[Statistics, ...] | None = () if conventions.keeps_segments else None
        return cls(conventions, 0, (0,) * orders, (0,) * orders, 0, (0,), kept)

    @property
    def fingerprint(self) -> str:
        """The conventions' fingerprint."""
        return self.conventions.fingerprint

    @property
    def ref_len(self) -> Length:
        """r: Σ_q ref_sums[q - 1] / q, an int unless it is a proper fraction."""
        return normal_length(sum((Fraction(s, q) for q, s in enumerate(self.ref_sums, 1)), Fraction(0)))

    @property
    def statistics(self) -> Statistics:
        """The summed statistics (BLEU-CORPUS) of every segment counted."""
        return Statistics(self.matches, self.totals, self.hyp_len, self.ref_len)

    def __add__(self, other: object) -> Partial:
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self  # sum() starts from 0
        if not isinstance(other, Partial):
            return NotImplemented
        self.conventions.check_same(other.conventions)
        conventions = self.conventions
        if (conventions.profile, conventions.overridden) != (
            other.conventions.profile,
            other.conventions.overridden,
        ):
            unlabelled = replace(conventions.point, name="", profile=None, overridden=())
            conventions = replace(conventions, point=unlabelled)
        return Partial(
            conventions,
            self.segments + other.segments,
            _add(self.matches, other.matches),
            _add(self.totals, other.totals),
            self.hyp_len + other.hyp_len,
            _add(self.ref_sums, other.ref_sums),
            None if self.kept is None or other.kept is None else self.kept + other.kept,
        )

    __radd__ = __add__

    def scored_segments(self) -> list[Statistics]:
        """What scoring reads: each segment where the conventions need them, else the one sum."""
        if self.kept is not None:
            return list(self.kept)
        return [self.statistics] if self.segments else []

    def score(self) -> BleuResult:
        """BLEU of these statistics under their conventions (BLEU-EVAL; EC-012 when no segment)."""
        return score(self.conventions.point, self.scored_segments())

    # --- serialisation ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The JSON form: format, conventions, fingerprint, counts, and each segment where kept."""
        document: dict[str, Any] = {
            "format": PARTIAL_FORMAT,
            "format_version": PARTIAL_FORMAT_VERSION,
            "conventions": self.conventions.description(),
            "fingerprint": self.fingerprint,
            "profile": self.conventions.profile,
            "overridden": list(self.conventions.overridden),
            "segments": self.segments,
            "matches": list(self.matches),
            "totals": list(self.totals),
            "hyp_len": self.hyp_len,
            "ref_sums": list(self.ref_sums),
        }
        if self.kept is not None:
            document["kept"] = [s.to_json() for s in self.kept]
        return document

    @classmethod
    def from_json(cls, document: Any) -> Partial:
        """The inverse of :meth:`to_json`, every field checked (BleuInputError naming NUM-PARTIAL).

        The fingerprint is recomputed from the conventions and must match the one written.
        """
        if not isinstance(document, dict) or document.get("format") != PARTIAL_FORMAT:
            raise BleuInputError("NUM-PARTIAL", f"not a {PARTIAL_FORMAT} document")
        if document.get("format_version") != PARTIAL_FORMAT_VERSION:
            raise BleuInputError("NUM-PARTIAL", f"{PARTIAL_FORMAT} version {PARTIAL_FORMAT_VERSION} expected")
        conventions = Conventions.from_description(document.get("conventions", {}))
        if document.get("fingerprint") != conventions.fingerprint:
            raise BleuInputError("NUM-PARTIAL", "the fingerprint does not match the conventions written")
        profile, overridden = document.get("profile"), document.get("overridden", [])
        if not (profile is None or isinstance(profile, str)) or not isinstance(overridden, list):
            raise BleuInputError("NUM-PARTIAL", "'profile' must be a name or null, 'overridden' a list")
        labelled = replace(
            conventions.point, name=profile or "", profile=profile, overridden=tuple(map(str, overridden))
        )
        conventions = replace(conventions, point=labelled)
        orders = conventions.orders
        lists: dict[str, list[int]] = {}
        for key in ("matches", "totals", "ref_sums"):
            value = document.get(key)
            if not isinstance(value, list) or not value:
                raise BleuInputError("NUM-PARTIAL", f"{key} must be a non-empty list of counts")
            lists[key] = [_count(x, f"{key}[{k}]") for k, x in enumerate(value)]
        if len(lists["matches"]) != orders or len(lists["totals"]) != orders:
            raise BleuInputError("NUM-PARTIAL", f"matches and totals need {orders} orders")
        if conventions.options.ref_length != "average" and len(lists["ref_sums"]) != 1:
            raise BleuInputError("NUM-PARTIAL", "ref_sums has one entry unless ref_length is average")
        kept: tuple[Statistics, ...] | None = None
        if conventions.keeps_segments:
            raw = document.get("kept")
            if not isinstance(raw, list):
                raise BleuInputError("NUM-PARTIAL", "these conventions need each segment ('kept')")
            kept = tuple(Statistics.from_json(s) for s in raw)
        partial = cls(
            conventions,
            _count(document.get("segments"), "segments"),
            tuple(lists["matches"]),
            tuple(lists["totals"]),
            _count(document.get("hyp_len"), "hyp_len"),
            tuple(lists["ref_sums"]),
            kept,
        )
        partial.check()
        return partial

    def check(self) -> None:
        """BleuInputError unless the counts could be those of ``segments`` segments (BLEU-STATS's checks)."""
        if self.kept is not None and len(self.kept) != self.segments:
            raise BleuInputError("NUM-PARTIAL", f"{len(self.kept)} segments kept but {self.segments} counted")
        if self.segments == 0 and (self.hyp_len or any(self.ref_sums) or any(self.totals)):
            raise BleuInputError("NUM-PARTIAL", "no segment counted, yet some counts are not 0")
        self.statistics.check_consistent(self.segments)

    def to_vector(self) -> list[int]:
        """NUM-PARTIAL's fixed-length vector of int64: their element-wise sum is the partials' sum.

        ``[segments, c, r slots..., m_1..m_M, l_1..l_M]``; one r slot, or AVERAGE_SLOTS under
        ``average`` (slot q - 1: Σ numerators of segment r with denominator q). Refused where the
        conventions need each segment (macro, nltk's denominators and methods 5-7): gather rows.
        """
        if self.kept is not None:
            raise BleuInputError(
                "NUM-PARTIAL",
                "these conventions need each segment's statistics (macro averaging EC-009, nltk's "
                "per-segment denominator EC-015, nltk's methods 5-7): a sum vector cannot carry them; "
                "use the JSON form or gather the segments",
            )
        slots = self.conventions.reference_slots
        if len(self.ref_sums) > slots:
            raise BleuInputError(
                "NUM-PARTIAL", f"a segment has more than {slots} references under ref_length=average"
            )
        ref_sums = [*self.ref_sums, *[0] * (slots - len(self.ref_sums))]
        vector = [self.segments, self.hyp_len, *ref_sums, *self.matches, *self.totals]
        for k, value in enumerate(vector):
            _count(value, f"slot {k} of the vector")
        return vector

    @classmethod
    def from_vector(cls, conventions: Conventions, vector: Iterable[int]) -> Partial:
        """The partial a vector of :meth:`to_vector` (or a sum of them) holds, checked."""
        values = [int(v) for v in vector]
        if len(values) != conventions.vector_length:
            raise BleuInputError(
                "NUM-PARTIAL",
                f"the vector has {len(values)} slots; its conventions need {conventions.vector_length}",
            )
        for k, value in enumerate(values):
            _count(value, f"slot {k} of the vector (an overflow wraps to a negative count)")
        if conventions.keeps_segments:
            raise BleuInputError("NUM-PARTIAL", "these conventions need each segment, not a vector")
        slots, orders = conventions.reference_slots, conventions.orders
        ref_sums = values[2 : 2 + slots]
        while len(ref_sums) > 1 and ref_sums[-1] == 0:
            ref_sums.pop()
        start = 2 + slots
        partial = cls(
            conventions,
            values[0],
            tuple(values[start : start + orders]),
            tuple(values[start + orders :]),
            values[1],
            tuple(ref_sums),
        )
        partial.check()
        return partial


# --- counting -------------------------------------------------------------------------------------


def rows_of(hypotheses: object, references: object) -> list[tuple[object, object]]:
    """The rows (hypothesis, references) of a corpus given as two parallel sequences (spec BLEU-INPUT)."""
    lists = []
    for value, what in ((hypotheses, "hypotheses"), (references, "references")):
        if isinstance(value, str | bytes) or not isinstance(value, Iterable):
            raise BleuInputError("BLEU-INPUT", f"{what} must be a sequence, got {type(value).__name__}")
        lists.append(list(value))
    hyps, refs = lists
    if len(hyps) != len(refs):
        raise BleuInputError(
            "BLEU-INPUT",
            f"{len(hyps)} hypotheses but {len(refs)} reference sets: one set per hypothesis "
            "(sacrebleu's reference streams are list(zip(*streams)))",
        )
    return list(zip(hyps, refs, strict=True))


def _chunks(rows: Iterable[tuple[object, object]]) -> Iterator[list[tuple[object, object]]]:
    iterator = iter(rows)
    while chunk := list(islice(iterator, CHUNK_SIZE)):
        yield chunk


class _Accumulator:
    """A partial being counted: integers summed in place, segments kept only where needed."""

    def __init__(self, conventions: Conventions) -> None:
        self.conventions = conventions
        self.segments = self.hyp_len = 0
        self.matches = [0] * conventions.orders
        self.totals = [0] * conventions.orders
        self.ref_sums = [0]
        self.kept: list[Statistics] | None = [] if conventions.keeps_segments else None

    def add(self, stats: Statistics, segments: int, ref_sums: Sequence[int] | None = None) -> None:
        """Add ``segments`` segments' statistics; r as ``ref_sums``, or from one segment's r."""
        self.segments += segments
        self.hyp_len += stats.hyp_len
        for n in range(len(self.matches)):
            self.matches[n] += stats.matches[n]
            self.totals[n] += stats.totals[n]
        if ref_sums is None:
            r = Fraction(stats.ref_len)
            ref_sums = [0] * (r.denominator - 1) + [r.numerator]
        if len(self.ref_sums) < len(ref_sums):
            self.ref_sums.extend([0] * (len(ref_sums) - len(self.ref_sums)))
        for q, value in enumerate(ref_sums):
            self.ref_sums[q] += value

    def partial(self) -> Partial:
        kept = None if self.kept is None else tuple(self.kept)
        return Partial(
            self.conventions,
            self.segments,
            tuple(self.matches),
            tuple(self.totals),
            self.hyp_len,
            tuple(self.ref_sums),
            kept,
        )


def _count_chunk(into: _Accumulator, chunk: Sequence[tuple[object, object]], start: int) -> None:
    """Count one chunk of rows (numbered from ``start`` in errors) into ``into`` through NUM-FAST."""
    conventions = into.conventions
    options, counting = conventions.options, conventions.counting
    rules = options.segment_rules
    keep = conventions.keeps_segments or options.ref_length == "average" or rules.drops_segments
    hyps = [h for h, _ in chunk]
    refs = [r for _, r in chunk]
    if conventions.text:
        tokens, references = tokenized_corpus(hyps, refs, counting.text, start)
    else:
        tokens, references = validate_corpus(  # type: ignore[assignment]
            hyps, refs, no_reference=options.no_reference, empty_corpus="zero", start=start
        )
    counted = fast_statistics(
        tokens,
        references,
        conventions.orders,
        options.ref_length,
        rules=rules,
        keep_segments=keep,
        start=start,
    )
    if keep:
        for stats in counted:
            into.add(stats, 1)
            if into.kept is not None:
                into.kept.append(stats)
    else:
        into.add(counted[0], len(chunk))


def partial_statistics(
    rows: Iterable[tuple[object, object]], conventions: Conventions, *, start: int = 0
) -> Partial:
    """NUM-PARTIAL. The partial of a stream of rows (hypothesis, references), counted chunk by chunk.

    A row of text is a line and one reference line or a list of lines (API-TEXT); a row of
    tokens a token list and a list of token lists (BLEU-INPUT). Memory stays flat unless the
    conventions keep each segment. Rows are numbered from ``start`` in error messages.

    >>> conventions = make_conventions("sacrebleu")
    >>> part = partial_statistics([("The cat sat.", ["The cat sat on the mat."])], conventions)
    >>> part.segments, part.matches, part.hyp_len, part.ref_len  # "sat ." is not in the reference
    (1, (4, 2, 1, 0), 4, 7)
    """
    into = _Accumulator(conventions)
    for chunk in _chunks(rows):
        _count_chunk(into, chunk, start)
        start += len(chunk)
    return into.partial()


class GroupedCounting:
    """NUM-PARTIAL. Keyed rows counted as they stream in: each group's partial, in memory flat in the rows.

    ``add(key, hypothesis, references)`` buffers a row; every CHUNK_SIZE rows (all groups
    together) each group's buffered rows are counted in one NUM-FAST call and dropped, so memory
    holds one chunk of rows and one accumulator per group (plus each segment where the
    conventions keep them), however many rows a partition or a group has. Rows are numbered
    by their position in the stream, from ``start``: an error names the first bad row so, and
    ``failed`` holds it (its number, hypothesis and references) for an engine that knows where
    its stream starts only later (a partition's offset in its frame).
    """

    def __init__(self, conventions: Conventions, *, start: int = 0) -> None:
        self.conventions = conventions
        self.start = start
        self.rows = 0
        self.failed: tuple[int, object, object] | None = None
        self._groups: dict[Hashable, _Accumulator] = {}  # in order of first appearance
        self._buffer: dict[Hashable, list[tuple[int, object, object]]] = {}
        self._buffered = 0

    def add(self, key: Hashable, hypothesis: object, references: object) -> None:
        """Count one row into its group's partial (buffered; counted by the chunk)."""
        if key not in self._groups:
            self._groups[key] = _Accumulator(self.conventions)
        self._buffer.setdefault(key, []).append((self.start + self.rows, hypothesis, references))
        self.rows += 1
        self._buffered += 1
        if self._buffered >= CHUNK_SIZE:
            self._flush()

    def _flush(self) -> None:
        try:
            for key, rows in self._buffer.items():
                _count_chunk(self._groups[key], [(h, r) for _, h, r in rows], rows[0][0])
        except BleuError:
            self._raise_first_bad_row()
            raise
        self._buffer.clear()
        self._buffered = 0

    def _raise_first_bad_row(self) -> None:
        """The error of the first buffered row, in stream order, that fails alone (its own number)."""
        buffered = sorted((row for rows in self._buffer.values() for row in rows), key=lambda row: row[0])
        for number, hypothesis, references in buffered:
            try:
                _count_chunk(_Accumulator(self.conventions), [(hypothesis, references)], number)
            except BleuError:
                self.failed = (number, hypothesis, references)
                raise

    def partials(self) -> dict[Hashable, Partial]:
        """Each group's partial of every row added, in the order the groups first appeared."""
        self._flush()
        return {key: into.partial() for key, into in self._groups.items()}


def partials_by(
    rows: Iterable[tuple[Hashable, object, object]], conventions: Conventions, *, start: int = 0
) -> dict[Hashable, Partial]:
    """NUM-PARTIAL. The partial of each group of keyed rows ``(key, hypothesis, references)``, streamed.

    What a worker of a distributed engine computes for its share of the rows, grouped by any
    key (system, language pair, domain); the groups' partials from every worker add up to each
    group's statistics. Memory stays flat in the number of rows (:class:`GroupedCounting`); rows
    are numbered by their position in ``rows``, from ``start``, in error messages.

    >>> parts = partials_by([("a", ["x"], [["x"]]), ("b", ["y"], [["z"]]), ("a", ["x"], [["y"]])],
    ...                     make_conventions(text=False, max_order=1))
    >>> {key: (part.segments, part.matches) for key, part in parts.items()}
    {'a': (2, (1,)), 'b': (1, (0,))}
    """
    counting = GroupedCounting(conventions, start=start)
    for key, hypothesis, references in rows:
        counting.add(key, hypothesis, references)
    return counting.partials()


def indexed_partials(
    rows: Iterable[tuple[int, object, object]], conventions: Conventions
) -> list[tuple[int, Partial]]:
    """NUM-PARTIAL. Each row ``(index, hypothesis, references)`` as its own partial, with its dataset index.

    What a worker sends where a sampler may give it a row twice (PyTorch's DistributedSampler
    pads the last batch with repeated samples) or where the conventions need each segment:
    :func:`union_of_indexed` counts every index once, in index order.
    """
    indexed = []
    for index, hypothesis, references in rows:
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise BleuInputError("NUM-PARTIAL", f"a dataset index must be an int >= 0, got {index!r:.40}")
        indexed.append((index, partial_statistics([(hypothesis, references)], conventions, start=index)))
    return indexed


def union_of_indexed(indexed: Iterable[tuple[int, Partial]], conventions: Conventions) -> Partial:
    """NUM-PARTIAL. The sum, in index order, of indexed one-row partials, each index counted once.

    A repeated index must carry the same statistics (the same row counted twice); different
    statistics under one index are an error: two rows were given the same index.

    >>> conventions = make_conventions(text=False, max_order=1)
    >>> rows = [(0, ["a"], [["a"]]), (1, ["b"], [["c"]]), (0, ["a"], [["a"]])]  # index 0 padded in again
    >>> union_of_indexed(indexed_partials(rows, conventions), conventions).matches
    (1,)
    """
    chosen: dict[int, Partial] = {}
    for index, part in indexed:
        seen = chosen.setdefault(index, part)
        if seen != part:
            raise BleuInputError("NUM-PARTIAL", f"dataset index {index} was given to two different rows")
    return summed([chosen[index] for index in sorted(chosen)], conventions)


def summed(parts: Sequence[Partial], conventions: Conventions) -> Partial:
    """NUM-PARTIAL. ``sum(parts, Partial.zero(conventions))`` in one pass (kept segments joined once)."""
    into = _Accumulator(conventions)
    for part in parts:
        conventions.check_same(part.conventions)
        into.add(part.statistics, part.segments, part.ref_sums)
        if into.kept is not None and part.kept is not None:
            into.kept.extend(part.kept)
    return into.partial()


# --- the metric object ----------------------------------------------------------------------------


class BLEU:
    """API-METRIC. A metric object: ``update`` with batches, ``merge`` with others, ``compute`` once.

    Its state is one :class:`Partial` (exact integers, picklable), so chunks, processes and
    machines give the score of one :func:`~reference_bleu.corpus_bleu` call. Options and
    ``profile`` as :func:`~reference_bleu.corpus_bleu`, text options included; each update takes
    lines of text (under a tokenizer or a profile) or token lists, and ``references_layout`` as
    :func:`~reference_bleu.corpus_bleu` does. ``compute_on`` scores one batch alone, leaving the
    state as it was.

    >>> metric = BLEU(tokenize="13a")
    >>> metric.update(["The cat sat."], [["The cat sat."]])
    >>> metric.update(["A dog."], ["A dog ran."])
    >>> metric.compute().score == BLEU(tokenize="13a").compute_on(
    ...     ["The cat sat.", "A dog."], [["The cat sat."], ["A dog ran."]]).score
    True
    """

    def __init__(self, profile: str | None = None, **options: Any) -> None:
        self.profile = profile
        self.options = dict(options)
        given_text, rest = split_text_options(options)
        self.named = bool(given_text) or profile is not None
        self.text_conventions = make_conventions(profile, text=True, **options)
        self.token_conventions = None if given_text else make_conventions(profile, text=False, **rest)
        self.state: Partial | None = None

    def _conventions(self, text: bool) -> Conventions:
        if text:
            return self.text_conventions
        if self.token_conventions is None:
            given = ", ".join(split_text_options(self.options)[0])
            raise BleuInputError("API-TEXT", f"{given} applies to lines of text; the hypotheses are not text")
        return self.token_conventions

    def _counted(self, hypotheses: object, references: object, layout: str | None, start: int) -> Partial:
        """The partial of one batch (rows numbered from ``start``)."""
        if isinstance(hypotheses, Iterator):
            hypotheses = list(hypotheses)
        rows = rows_of(hypotheses, reference_sets(hypotheses, references, layout))
        text = text_mode([h for h, _ in rows], self.named)
        return partial_statistics(rows, self._conventions(text), start=start)

    def update(self, hypotheses: object, references: object, *, references_layout: str | None = None) -> None:
        """Count a batch (one entry of ``references`` per hypothesis, or ``references_layout`` named)
        into the state."""
        seen = 0 if self.state is None else self.state.segments
        part = self._counted(hypotheses, references, references_layout, seen)
        self.state = part if self.state is None else self.state + part

    def merge(self, other: BLEU) -> None:
        """Add another metric's state to this one, once (BleuInputError naming the option that differs).

        A metric merged into itself would count its segments twice: refused.
        """
        if not isinstance(other, BLEU):
            raise BleuInputError("API-METRIC", f"can merge a BLEU only, not a {type(other).__name__}")
        if other is self:
            raise BleuInputError(
                "API-METRIC", "a metric cannot merge itself: every segment it holds would count twice"
            )
        if other.state is None:
            return
        self.state = other.state if self.state is None else self.state + other.state

    def compute(self) -> BleuResult:
        """The score of everything counted so far (EC-012 when nothing was)."""
        if self.state is not None:
            return self.state.score()
        return Partial.zero(self._conventions(self.named)).score()

    def compute_on(
        self, hypotheses: object, references: object, *, references_layout: str | None = None
    ) -> BleuResult:
        """The score of this batch alone, under the metric's conventions; the state is not changed
        (``update`` adds a batch to it)."""
        return self._counted(hypotheses, references, references_layout, 0).score()

    def reset(self) -> None:
        """Forget everything counted."""
        self.state = None
