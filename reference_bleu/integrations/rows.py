"""What the engines share: optional imports, dataframe rows as (hypothesis, references), grouped sums.

Rows are read as API-TEXT reads text; partials are added and scored as NUM-PARTIAL says.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from reference_bleu.errors import BleuInputError, BleuOptionError
from reference_bleu.partial import Conventions, Partial, make_conventions
from reference_bleu.scoring.score import BleuResult

#: One column name or several.
Columns = str | Sequence[str]
#: One result, or one per group.
Grouped = BleuResult | dict[Hashable, BleuResult]
#: An engine's counting: (frame, hypothesis column, reference columns, key columns, conventions)
#: -> each partition's partial of each group, in partition order.
Collect = Callable[[Any, str, list[str], list[str], Conventions], Iterable[dict[Hashable, Partial]]]


def optional(name: str, extra: str) -> Any:
    """The module ``name`` of an optional extra, or a BleuOptionError naming the extra."""
    try:
        return importlib.import_module(name)
    except ImportError:
        raise BleuOptionError(
            "NUM-PARTIAL", f"{name} is needed: pip install 'reference-bleu[{extra}]'"
        ) from None


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


def frame_bleu(
    collect: Collect,
    frame: Any,
    hypothesis: str,
    references: Columns,
    *,
    by: Columns | None = None,
    profile: str | None = None,
    **options: Any,
) -> Grouped:
    """Corpus BLEU of a dataframe counted by an engine: each group's partials added in order, scored once."""
    conventions = make_conventions(profile, text=True, **options)
    refs, keys = columns(references, "references"), [] if by is None else columns(by, "by")
    totals: dict[Hashable, Partial] = {}
    for per_group in collect(frame, hypothesis, refs, keys, conventions):  # kept segments stay in order
        for key, part in per_group.items():
            totals[key] = totals[key] + part if key in totals else part
    if by is None:
        return (totals.get(None) or Partial.zero(conventions)).score()
    return {key: totals[key].score() for key in totals}
