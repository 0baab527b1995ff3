"""What the engines share: optional imports, dataframe rows as (hypothesis, references), grouped sums.

Rows are read as API-TEXT reads text; each partition is counted as a stream
(:class:`~reference_bleu.partial.GroupedCounting`) into a :class:`PartitionCount`; the counts are
added in partition order and scored as NUM-PARTIAL says, a bad row named by its number in the
whole frame.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from reference_bleu.errors import BleuError, BleuInputError, BleuOptionError
from reference_bleu.partial import Conventions, GroupedCounting, Partial, partial_statistics
from reference_bleu.scoring.score import BleuResult

#: One column name or several.
Columns = str | Sequence[str]
#: One result, or one per group.
Grouped = BleuResult | dict[Hashable, BleuResult]


@dataclass(frozen=True)
class PartitionCount:
    """NUM-PARTIAL. What a worker sends back for a partition: its rows, each group's partial, or its bad row.

    ``failed`` is the partition's first bad row as ``(position in the partition, hypothesis,
    references)``: :func:`totals` counts it again at its number in the whole frame, so the error
    names the row as the frame numbers it (row 9, not "hypothesis 4" of the third partition).
    """

    rows: int
    partials: dict[Hashable, Partial] = field(default_factory=dict)
    failed: tuple[int, object, object] | None = None


def count_partition(
    rows: Iterable[tuple[Hashable, object, object]], conventions: Conventions
) -> PartitionCount:
    """NUM-PARTIAL. A partition's keyed rows ``(key, hypothesis, references)`` counted as a stream."""
    counting = GroupedCounting(conventions)
    try:
        for key, hypothesis, references in rows:
            counting.add(key, hypothesis, references)
        return PartitionCount(counting.rows, counting.partials())
    except BleuError:
        if counting.failed is None:
            raise
        return PartitionCount(counting.rows, failed=counting.failed)


def totals(counts: Iterable[PartitionCount], conventions: Conventions) -> dict[Hashable, Partial]:
    """NUM-PARTIAL. The partitions' partials added per group in partition order; a bad row's error, numbered.

    The first partition with a bad row raises that row's error (BLEU-INPUT, API-TEXT, EC-00x) with
    its number in the whole frame: the rows of the partitions before it, plus its position.
    """
    summed: dict[Hashable, Partial] = {}
    offset = 0
    for count in counts:  # kept segments stay in order
        if count.failed is not None:
            position, hypothesis, references = count.failed
            partial_statistics([(hypothesis, references)], conventions, start=offset + position)
            raise BleuInputError("NUM-PARTIAL", f"row {offset + position} failed on its worker only")
        for key, part in count.partials.items():
            summed[key] = summed[key] + part if key in summed else part
        offset += count.rows
    return summed


def whole(summed: dict[Hashable, Partial], conventions: Conventions) -> BleuResult:
    """The score of every row counted without a group key (EC-012 when there was none)."""
    return (summed.get(None) or Partial.zero(conventions)).score()


def results(summed: dict[Hashable, Partial], conventions: Conventions, grouped: bool) -> Grouped:
    """Each group's score (a dict keyed by the group), or the one score of every row (no group key)."""
    if not grouped:
        return whole(summed, conventions)
    return {key: part.score() for key, part in summed.items()}


def optional(name: str, extra: str) -> Any:
    """The module ``name`` of an optional extra, or a BleuOptionError naming the extra."""
    try:
        return importlib.import_module(name)
    except ImportError:
        raise BleuOptionError(
            "NUM-PARTIAL", f"{name} is needed: pip install 'reference-bleu[{extra}]'"
        ) from None


def class_of_engine(namespace: dict[str, Any], name: str, make: Callable[[], Any]) -> type:
    """A module's class built on an optional engine (its base class), made when first asked for.

    Kept in the module's ``namespace`` under ``name``, with that module and name, so that it
    pickles by reference and a saved object finds its class again (Spark ML's loaders, Beam).
    """
    if name not in namespace:
        made = make()
        made.__module__, made.__qualname__ = namespace["__name__"], name
        namespace[name] = made
    return cast(type, namespace[name])


def columns(names: str | Sequence[str], what: str) -> list[str]:
    """The column names given: one name or a list of them (BleuInputError otherwise)."""
    listed = [names] if isinstance(names, str) else list(names)
    if not listed or not all(isinstance(name, str) for name in listed):
        raise BleuInputError("BLEU-INPUT", f"{what} must name one column or a list of columns")
    return listed


def missing(value: object) -> bool:
    """A missing cell: None, NaN or pandas' NA."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return True
    return type(value).__name__ == "NAType"


def row_references(cells: Sequence[object]) -> object:
    """One row's references: one column holding a line or a list of lines, or one column per reference."""
    if len(cells) == 1:
        value = cells[0]
        if isinstance(value, str):
            return value
        if hasattr(value, "tolist"):  # a list cell read from Parquet or Arrow is an array
            value = value.tolist()
        return list(value) if isinstance(value, Iterable) else value
    return [cell for cell in cells if not missing(cell)]  # a missing cell: that row has fewer references


def group_key(cells: Sequence[object]) -> Hashable:
    """A row's group: ``None`` without ``by``, the value of one column, a tuple of several."""
    if not cells:
        return None
    return cells[0] if len(cells) == 1 else tuple(cells)
